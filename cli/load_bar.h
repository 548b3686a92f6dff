/* load_bar: the progress bar (nr_progress) of the ingests of a runset's
 * load, on stderr when it is a terminal: bytes of the stale runs' files
 * done, rate, time left. Erased when the ingests end. */
#ifndef LOAD_BAR_H
#define LOAD_BAR_H

#include "runset.h"

typedef struct nr_load_bar nr_load_bar;

/* Sets rs's ingest progress to a new bar; NULL (and nothing set) when
 * stderr is no terminal or memory is short. */
nr_load_bar *nr_load_bar_attach(nr_runset *rs);
/* Erases the bar if still drawn and frees it; accepts NULL. */
void nr_load_bar_free(nr_load_bar *b);

#endif
