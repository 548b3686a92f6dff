/* report_fill: the glue from models (and the stores' meta and diagnostics
 * tables) to the report's tables, lists and figures, in SPEC order. */
#ifndef NR_REPORT_FILL_H
#define NR_REPORT_FILL_H

#include <stddef.h>

#include "nr_error.h"
#include "report.h"
#include "runset.h"

#define NR_FILL_ALL_RUNS ((size_t)-1)
/* A run's table of top files lists at most this many: the models of a
 * build keep those rows only (nr_model_opts.keep_files). */
#define NR_FILL_TOP_FILES 10

/* Puts figure fig_id (1..7) of run `run` (NR_FILL_ALL_RUNS: every run, one
 * series each) into block where with caption; returns 0 or a negative code.
 * caption has static storage: the figure may be drawn after the call. */
typedef int (*nr_fill_figure_fn)(void *ctx, nr_report *rep, nr_report_block *where, size_t run,
                                 int fig_id, const char *caption, const char *label, nr_error *err);

/* The fill of one report, run by run, so that a run's model is needed
 * only while its own part is made. */
typedef struct nr_fill nr_fill;
/* Starts filling rep with the runs of rs (borrowed, as rep, until
 * nr_fill_end): the overview when several runs, its table without rows
 * (nr_fill_run adds each run's) and its figures. */
int nr_fill_begin(nr_report *rep, const nr_runset *rs, nr_fill_figure_fn figure, void *ctx, nr_fill **out,
                  nr_error *err);
/* Run r's row of the overview and its article, spooled once filled
 * (nr_report_run_spool): figure puts its figures in places of their own.
 * Its model must be set; call for r = 0, 1, ... in order. */
int nr_fill_run(nr_fill *f, size_t r, nr_error *err);
/* Accepts NULL. */
void nr_fill_end(nr_fill *f);

#endif
