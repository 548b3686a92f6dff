/* nr_progress: a one-line progress bar (bytes done, rate, time left) for
 * long work, drawn only when its stream is a terminal. The cli creates it
 * and feeds it from a library's progress callback; library code never
 * prints. Every function accepts NULL (no bar), so callers need no test. */
#ifndef NR_PROGRESS_H
#define NR_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

typedef struct nr_progress nr_progress;

/* A bar on out (borrowed) headed by label (copied), or NULL when out is not
 * a terminal or memory is short: then nothing is ever drawn. */
nr_progress *nr_progress_create(FILE *out, const char *label);
/* Redraws the bar (at most ten times a second, and always when done ==
 * total): done of total bytes. */
void nr_progress_update(nr_progress *p, uint64_t done, uint64_t total);
/* Erases the bar and frees p. */
void nr_progress_finish(nr_progress *p);

/* For tests: writes the bar's text for done/total after elapsed_s seconds into
 * buf (NUL-terminated, cut at cap). */
void nr_progress_format(char *buf, size_t cap, const char *label, uint64_t done, uint64_t total,
                        double elapsed_s);

#endif
