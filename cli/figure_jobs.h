/* figure_jobs: the figures a report asks for, rendered on several threads
 * and imported in the order asked, so that the report is byte for byte the
 * one a single thread writes. The fill (report_fill.h) reserves the place
 * of each figure; nr_figjobs_run renders a window of figures at a time
 * (bounded memory) and fills the places in order. */
#ifndef NR_FIGURE_JOBS_H
#define NR_FIGURE_JOBS_H

#include <stddef.h>

#include "figure_inputs.h"
#include "nr_error.h"
#include "report.h"

typedef struct nr_figjobs nr_figjobs;

/* For n runs (names: their names, borrowed). */
int nr_figjobs_create(const char *const *names, size_t n, nr_figjobs **out, nr_error *err);
/* Builds the inputs of run's figures from its model (borrowed for the
 * call: what the figures need is copied), once per run, before
 * nr_figjobs_run; those of every run together are merged from them. */
int nr_figjobs_add_run(nr_figjobs *fj, size_t run, const nr_model *model, nr_error *err);
/* nr_fill_figure_fn (ctx: the nr_figjobs): reserves the figure's place in
 * where, its caption there (nr_report_figure_reserve: the block may be
 * spooled before the figure is drawn), and queues it (caption borrowed: a
 * string that outlives the run; label, its accessible name, copied; NULL:
 * the caption). */
int nr_figjobs_put(void *ctx, nr_report *rep, nr_report_block *where, size_t run, int fig_id,
                   const char *caption, const char *label, nr_error *err);
/* Keeps the figures of each run's own section (not those of every run
 * together) beside its cached store (figure_cache.h), and reads them from
 * there instead of drawing when they were kept for the same key:
 * store_paths[i] is run i's store, NULL for one outside the cache;
 * model_keys[i] the key its model's fits were kept under (nr_run
 * model_key), NULL when they were not; opts (resolved) are the options its
 * model was computed with. All borrowed, until nr_figjobs_run returns.
 * Keeps none when the running code cannot be told (no /proc/self/exe): a
 * kept figure would not know what drew it. */
void nr_figjobs_keep(nr_figjobs *fj, const char *const *store_paths, const char *const *model_keys,
                     const nr_model_opts *opts);
/* Renders every queued figure on up to `threads` threads and fills its slot,
 * in queue order. Returns 0, or the error of the first figure in that order
 * that failed. */
int nr_figjobs_run(nr_figjobs *fj, nr_report *rep, int threads, nr_error *err);
/* The inputs of run's figures (NR_FILL_ALL_RUNS: every run together, merged
 * on first use once every run's were added), owned by fj; NULL with err set
 * on failure. */
nr_figin *nr_figjobs_scope(nr_figjobs *fj, size_t run, nr_error *err);
/* Seconds spent by nr_figjobs_run (wall time). */
double nr_figjobs_seconds(const nr_figjobs *fj);
/* Figures nr_figjobs_run read from the cache (nr_figjobs_keep), and in all. */
size_t nr_figjobs_kept(const nr_figjobs *fj);
size_t nr_figjobs_count(const nr_figjobs *fj);
/* Accepts NULL. */
void nr_figjobs_free(nr_figjobs *fj);

#endif
