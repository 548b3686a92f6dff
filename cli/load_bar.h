/* load_bar: the progress of a runset's load on stderr when it is a
 * terminal: a bar (nr_progress) for the ingests (bytes of the stale runs'
 * files done, rate, time left; erased when they end), a bar of rows for
 * each merge of a run's node stores (as `niorep merge` draws), and one
 * line redrawn per run modelled. */
#ifndef LOAD_BAR_H
#define LOAD_BAR_H

#include "runset.h"

typedef struct nr_load_bar nr_load_bar;

/* Sets rs's ingest and merge progress to new bars; NULL (and nothing
 * set) when stderr is no terminal or memory is short. */
nr_load_bar *nr_load_bar_attach(nr_runset *rs);
/* Erases the bars still drawn and frees them; accepts NULL. */
void nr_load_bar_free(nr_load_bar *b);
/* nr_runset_load's progress: "niorep: WHAT RUN..." redrawn in place. */
void nr_load_line(const nr_run *run, const char *what);

#endif
