/* figure_inputs: the glue from models (model/nr_model.h) to the plain input
 * structs of the figures (render/nr_render.h), so that render/ never sees the
 * model. Also writes the figure set with figures.json (the numbers each
 * figure plots). */
#ifndef NR_FIGURE_INPUTS_H
#define NR_FIGURE_INPUTS_H

#include <stddef.h>

#include <jansson.h>

#include "nr_error.h"
#include "nr_model.h"
#include "nr_render.h"

struct nr_runset; /* runset.h */

typedef struct nr_figin nr_figin;

/* Parses --width: "3.5" (a paper column) or "7" (full width) into points; -1 otherwise. */
int nr_figin_parse_width(const char *arg, double *width_pt);

/* Builds the inputs of every figure for one run: what they take of the
 * model is copied (it may be freed after), the name borrowed (*name must
 * outlive the result: the inputs list it as their one run). The latency
 * figure has one series per phase. */
int nr_figin_build(const nr_model *model, const char *const *name, nr_figin **out, nr_error *err);
/* The inputs of every figure for n runs, from the inputs of each run
 * (runs[i]: nr_figin_build of run i; its arrays borrowed: they must outlive
 * the result) and their names (borrowed), so that no command holds every
 * model at once. The latency figure has one series per run. NR_E_INPUT
 * when one is not of one run. */
int nr_figin_merge(nr_figin *const *runs, const char *const *names, size_t n, nr_figin **out, nr_error *err);
const nr_figure_inputs *nr_figin_inputs(const nr_figin *fi);
/* Whether figure 4 of the run folds its phases as figure 1 folds them
 * (docs/figures.md, "Many phases"): whenever figure 1 does, with more than
 * NR_FIG_PHASES phases, however few of them read. Then it draws "all
 * phases", the phases figure 1 keeps that read and "other N phases" (the
 * reads of the rest, none or some). */
int nr_figin_latency_folds(const nr_model *m);
/* Figure 4's points of a latency group (its quantiles; hist: its histogram,
 * nr_model_latency_hist): the empirical CDF to join with
 * lines, exact at every point: the smallest latency at P = 0 (when above
 * 1 ns); for each non-empty histogram bin its lower edge at the share below
 * it when the bin before is empty (an empty range stays flat instead of a
 * ramp to the next bin) and its upper edge at the share up to it, the
 * slowest bin's at the largest latency; each exact quantile q (p50 ...
 * p99.99) at P = q, where the curve crosses q, so a percentile's marker
 * lies on the curve (one of fewer than 1 / (1 - q) calls, the slowest
 * call, left out). x ascending (ties by cdf); cdf[i] = P(X <= x[i]),
 * ccdf[i] = P(X >= x[i]): the last one 1 / n (the slowest call), so the
 * tail panel draws the slowest bin. Writes at most NR_FIGIN_LATENCY_POINTS
 * to each array; returns how many. */
#define NR_FIGIN_LATENCY_POINTS (2 * NR_LOGHIST_BINS + NR_MODEL_NQ)
size_t nr_figin_latency_points(const nr_model_latency *lat, const nr_loghist *hist, double *x, double *cdf,
                               double *ccdf);

/* Accepts NULL. */
void nr_figin_free(nr_figin *fi);

/* Writes the figure set of fi into dir (created with its missing parents): one file per
 * figure and format (bit 1 << nr_render_format set in formats), named
 * <stem>.<ext>, plus figures.json (schema in docs/report.md). names: the runs
 * of rs, whose left-out folders figures.json lists too. The set replaces an
 * earlier one as a whole: every file is complete in a temporary file before
 * the first is moved into place. */
int nr_figin_write_set(const nr_figin *fi, const char *const *names, size_t n, const struct nr_runset *rs,
                       const char *dir, unsigned formats, double width_pt, nr_error *err);

/* Parses "svg,pdf,png" (any subset) into a bit mask (1 << nr_render_format). */
int nr_figin_parse_formats(const char *list, unsigned *mask, nr_error *err);

#endif
