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
/* The same for a count of things named unit (copied, e.g. "rows"), not of
 * bytes: "1.23 M / 4.56 M rows  2.10 M rows/s". */
nr_progress *nr_progress_create_count(FILE *out, const char *label, const char *unit);
/* Redraws the bar (at most ten times a second, and when done reaches
 * total, once: a repeat of that end is not drawn again): done of total
 * bytes (or of the count), in at most the terminal's width - 1 columns (TIOCGWINSZ of out;
 * 80 when unknown). */
void nr_progress_update(nr_progress *p, uint64_t done, uint64_t total);
/* Erases the bar and frees p. */
void nr_progress_finish(nr_progress *p);

/* For tests: writes the bar's text for done/total (bytes when unit is
 * NULL, else a count of unit) after elapsed_s seconds, fitted to a terminal
 * of width columns (at most width - 1 of them; what gives way first is in
 * nr_progress.c), into buf (NUL-terminated, cut at cap). */
void nr_progress_format(char *buf, size_t cap, int width, const char *label, const char *unit, uint64_t done,
                        uint64_t total, double elapsed_s);

#endif
