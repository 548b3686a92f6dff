/* Figure 6, request-size histogram in the Darshan bins: share of read and
 * of write requests per size bin, one bar per run in each bin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "render_internal.h"

#define FIG "Request-size histogram"

const char *const nr_fig_reqsize_bin_labels[NR_FIG_REQSIZE_BINS] = {
    "0\xe2\x80\x93" "100", "100\xe2\x80\x93" "1K", "1K\xe2\x80\x93" "10K", "10K\xe2\x80\x93" "100K",
    "100K\xe2\x80\x93" "1M", "1M\xe2\x80\x93" "4M", "4M\xe2\x80\x93" "10M", "10M\xe2\x80\x93" "100M",
    "100M\xe2\x80\x93" "1G", "1G+",
};

/* Upper bounds (exclusive) of the Darshan size bins, decimal K/M/G. */
static const double bin_upper[NR_FIG_REQSIZE_BINS - 1] = {
    100, 1e3, 1e4, 1e5, 1e6, 4e6, 1e7, 1e8, 1e9,
};

int nr_fig_reqsize_bin(double bytes)
{
    for (int i = 0; i < NR_FIG_REQSIZE_BINS - 1; i++)
        if (!(bytes >= bin_upper[i]))
            return i;
    return NR_FIG_REQSIZE_BINS - 1;
}

double nr__fig_reqsize_height(const nr_figure_inputs *in, double width)
{
    (void)in;
    return width < 400 ? 330 : 210;
}

/* A run's requests of one kind over the bins, non-finite counts skipped
 * (and counted on cv). */
static double run_total(nr_render_canvas *cv, const double *counts)
{
    double total = 0;
    for (int b = 0; b < NR_FIG_REQSIZE_BINS; b++)
        if (nr__finite_or_skip(cv, counts[b]) && counts[b] > 0)
            total += counts[b];
    return total;
}

/* Bin b's share of a run's requests totalling total > 0. */
static double bin_share(const double *counts, int b, double total)
{
    return isfinite(counts[b]) && counts[b] > 0 ? counts[b] / total : 0.0;
}

static const double *run_counts(const nr_fig_reqsize_input *q, size_t r, int writes)
{
    return writes ? q->runs[r].writes : q->runs[r].reads;
}

/* Fills share[bin][run] with each run's fraction of requests per bin;
 * returns how many runs have any request. */
static size_t shares(nr_render_canvas *cv, const nr_fig_reqsize_input *q, size_t n_runs, int writes,
                     double share[NR_FIG_REQSIZE_BINS][NR_FIG_DISTINCT_RUNS])
{
    size_t with_data = 0;
    for (size_t r = 0; r < n_runs; r++) {
        const double *v = run_counts(q, r, writes);
        const double total = run_total(cv, v);
        with_data += total > 0;
        for (int b = 0; b < NR_FIG_REQSIZE_BINS; b++)
            share[b][r] = total > 0 ? bin_share(v, b, total) : 0.0;
    }
    return with_data;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

size_t nr__reqsize_spread(nr_render_canvas *cv, const nr_fig_reqsize_input *q, int writes, double *scratch,
                          double v[NR_FIG_REQSIZE_BINS * NR__PICKS])
{
    double *total = scratch, *share = scratch + q->n_runs;
    size_t with_data = 0;
    for (size_t r = 0; r < q->n_runs; r++)
        with_data += (total[r] = run_total(cv, run_counts(q, r, writes))) > 0;
    for (int b = 0; b < NR_FIG_REQSIZE_BINS; b++) {
        size_t m = 0;
        for (size_t r = 0; r < q->n_runs; r++)
            if (total[r] > 0)
                share[m++] = bin_share(run_counts(q, r, writes), b, total[r]);
        qsort(share, m, sizeof *share, by_value);
        v[b * NR__PICKS + NR__PICK_LOWEST] = m ? share[0] : 0.0;
        v[b * NR__PICKS + NR__PICK_MEDIAN] = m ? share[(m - 1) / 2] : 0.0;
        v[b * NR__PICKS + NR__PICK_HIGHEST] = m ? share[m - 1] : 0.0;
    }
    return with_data;
}

/* The reads and writes panels under a legend top points high: n_seg bars
 * per size bin, values rv and wv ([bin][seg]). */
static void draw_panels(nr_render_canvas *cv, double top, size_t n_seg, const size_t *colors, const double *rv,
                        const double *wv, const char *read_label, const char *write_label)
{
    const int stacked = cv->width < 400;
    const double pw = stacked ? cv->width - 4 : (cv->width - 8) / 2;
    const double ph = stacked ? (cv->height - top - 8) / 2 : cv->height - top - 4;
    nr__bars rb = {.cv = cv, .ox = 2, .oy = top + 2, .ow = pw, .oh = ph, .n_cat = NR_FIG_REQSIZE_BINS,
                   .cat_names = nr_fig_reqsize_bin_labels, .n_seg = n_seg, .v = rv, .grouped = 1,
                   .seg_color = colors, .panel_label = read_label,
                   /* a read of 0 B (end of file) has no size: in no bin (since session 49) */
                   .x_title = "Request size (bytes; end-of-file reads left out)",
                   .y = {.title = "Share of reads", .unit = NR__UNIT_PERCENT}};
    nr__bars wb = rb;
    wb.ox = stacked ? 2 : 6 + pw;
    wb.oy = stacked ? top + 6 + ph : top + 2;
    wb.v = wv;
    wb.panel_label = write_label;
    wb.x_title = "Request size (bytes)";
    wb.y = (nr__axis){.title = "Share of writes", .unit = NR__UNIT_PERCENT};
    nr__bars_draw(&rb);
    nr__bars_draw(&wb);
}

/* More runs than bars tell apart: per bin, the lowest, median and highest
 * share over the runs. */
static int draw_spread(nr_render_canvas *cv, const nr_fig_reqsize_input *q, nr_error *err)
{
    double *scratch = malloc(2 * q->n_runs * sizeof *scratch);
    if (!scratch)
        return nr_error_set(err, NR_E_NOMEM, "figure %s: out of memory", FIG);
    double rv[NR_FIG_REQSIZE_BINS * NR__PICKS], wv[NR_FIG_REQSIZE_BINS * NR__PICKS];
    const size_t with_reads = nr__reqsize_spread(cv, q, 0, scratch, rv),
                 with_writes = nr__reqsize_spread(cv, q, 1, scratch, wv);
    free(scratch);
    if (with_reads == 0 && with_writes == 0)
        return nr__draw_no_data(cv, FIG, "no read or write requests");
    static const size_t colors[NR__PICKS] = {0, 1, 2};
    char title[64], read_title[64], write_title[64];
    snprintf(title, sizeof title, "share of a bin, over the %zu runs:", q->n_runs);
    nr__legend lg = {.title = title};
    for (int k = 0; k < NR__PICKS; k++)
        nr__legend_add(&lg, (nr__legend_entry){.label = nr__pick_names[k], .kind = NR__LEG_SWATCH, .color = colors[k],
                                               .hatch = colors[k]});
    const double top = nr__legend_block(cv, &lg);
    nr__legend_draw_flow(cv, &lg, 4, 2, cv->width - 8);
    snprintf(read_title, sizeof read_title, "(a) reads, %zu runs", with_reads);
    snprintf(write_title, sizeof write_title, "(b) writes, %zu runs", with_writes);
    draw_panels(cv, top, NR__PICKS, colors, rv, wv, read_title, write_title);
    return 0;
}

int nr__fig_reqsize_draw(nr_render_canvas *cv, const nr_figure_inputs *in, nr_error *err)
{
    const nr_fig_reqsize_input *q = in->reqsize;
    if (!q || q->n_runs == 0 || !q->runs)
        return nr__draw_no_data(cv, FIG, "no runs");
    if (q->n_runs > NR_FIG_DISTINCT_RUNS)
        return draw_spread(cv, q, err);
    const size_t n_runs = q->n_runs;
    double reads[NR_FIG_REQSIZE_BINS][NR_FIG_DISTINCT_RUNS], writes[NR_FIG_REQSIZE_BINS][NR_FIG_DISTINCT_RUNS];
    size_t with_reads = shares(cv, q, n_runs, 0, reads);
    size_t with_writes = shares(cv, q, n_runs, 1, writes);
    if (with_reads == 0 && with_writes == 0)
        return nr__draw_no_data(cv, FIG, "no read or write requests");
    /* Compact the matrices to n_runs columns for the bar panels. */
    double rv[NR_FIG_REQSIZE_BINS * NR_FIG_DISTINCT_RUNS], wv[NR_FIG_REQSIZE_BINS * NR_FIG_DISTINCT_RUNS];
    size_t colors[NR_FIG_DISTINCT_RUNS];
    nr__legend lg = {0};
    for (size_t r = 0; r < n_runs; r++) {
        colors[r] = r;
        nr__legend_add(&lg, (nr__legend_entry){.label = q->runs[r].name ? q->runs[r].name : "?",
                                               .kind = NR__LEG_SWATCH, .color = r, .hatch = r});
        for (int b = 0; b < NR_FIG_REQSIZE_BINS; b++) {
            rv[b * n_runs + r] = reads[b][r];
            wv[b * n_runs + r] = writes[b][r];
        }
    }
    double top = n_runs > 1 ? nr__legend_block(cv, &lg) : 0;
    if (n_runs > 1)
        nr__legend_draw_flow(cv, &lg, 4, 2, cv->width - 8);
    draw_panels(cv, top, n_runs, colors, rv, wv, "(a) reads", "(b) writes");
    return 0;
}
