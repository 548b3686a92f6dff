/* Figure 3, per-file bytes CCDF on log-log axes, one curve per run, with the
 * fitted power law drawn dashed from xmin (Clauset-Shalizi-Newman 2009). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "render_internal.h"

#define FIG "CCDF of per-file bytes"

double nr__fig_ccdf_height(const nr_figure_inputs *in, double width)
{
    (void)in;
    return width < 400 ? 230 : 300;
}

static int fit_usable(const nr_fig_ccdf_run *r)
{
    return r->has_fit && isfinite(r->alpha) && r->alpha > 1 && isfinite(r->xmin) && r->xmin > 0 &&
           isfinite(r->ccdf_at_xmin) && r->ccdf_at_xmin > 0 && r->ccdf_at_xmin <= 1;
}

static int has_points(const nr_fig_ccdf_run *run)
{
    return run->n > 0 && run->bytes && run->ccdf;
}

/* The runs of the lowest, median and highest alpha (or, when no run has a
 * fit, of the fewest, median and most files) into shown[], their names
 * into names[], the others into crowd. Returns how many are shown. */
static size_t pick_runs(const nr_fig_ccdf_input *c, size_t shown[], char names[][96], nr__series *crowd,
                        size_t *n_crowd)
{
    double *key = malloc(c->n_runs * sizeof *key);
    int *usable = malloc(c->n_runs * sizeof *usable);
    enum nr__pick which[NR__PICKS];
    size_t n = 0;
    int by_alpha = 1;
    if (key && usable) {
        for (size_t r = 0; r < c->n_runs; r++) {
            key[r] = c->runs[r].alpha;
            usable[r] = has_points(&c->runs[r]) && fit_usable(&c->runs[r]);
        }
        n = nr__crowd_picks(key, usable, c->n_runs, shown, which);
        if (n == 0) {
            by_alpha = 0;
            for (size_t r = 0; r < c->n_runs; r++) {
                key[r] = (double)c->runs[r].n;
                usable[r] = has_points(&c->runs[r]);
            }
            n = nr__crowd_picks(key, usable, c->n_runs, shown, which);
        }
    }
    for (size_t i = 0; i < n; i++) {
        const nr_fig_ccdf_run *run = &c->runs[shown[i]];
        if (by_alpha)
            snprintf(names[i], 96, "%s (\xce\xb1 = %.2f, %s)", run->name ? run->name : "?", run->alpha,
                     nr__pick_names[which[i]]);
        else
            snprintf(names[i], 96, "%s (%zu files, %s)", run->name ? run->name : "?", run->n,
                     nr__pick_names[which[i]]);
    }
    *n_crowd = 0;
    for (size_t r = 0; r < c->n_runs; r++) {
        int picked = 0;
        for (size_t i = 0; i < n; i++)
            picked |= shown[i] == r;
        if (!picked && has_points(&c->runs[r]))
            crowd[(*n_crowd)++] = (nr__series){.n = c->runs[r].n, .x = c->runs[r].bytes, .y = c->runs[r].ccdf};
    }
    free(key);
    free(usable);
    return n;
}

/* The runs drawn in colour, each run's own style (index) up to max_runs of
 * them, or, with more runs than NR_FIG_DISTINCT_RUNS, the picks (pick_runs)
 * in the styles 0, 1, 2. */
static size_t choose_runs(const nr_fig_ccdf_input *c, size_t shown[], size_t style[], char names[][96],
                          nr__series *crowd, size_t *n_crowd)
{
    *n_crowd = 0;
    if (c->n_runs > NR_FIG_DISTINCT_RUNS) {
        size_t n = pick_runs(c, shown, names, crowd, n_crowd);
        for (size_t i = 0; i < n; i++)
            style[i] = i;
        return n;
    }
    size_t n = 0;
    for (size_t r = 0; r < c->n_runs; r++) {
        const nr_fig_ccdf_run *run = &c->runs[r];
        if (!has_points(run))
            continue;
        if (fit_usable(run))
            snprintf(names[n], 96, "%s (\xce\xb1 = %.2f)", run->name ? run->name : "?", run->alpha);
        else
            snprintf(names[n], 96, "%s", run->name ? run->name : "?");
        shown[n] = style[n] = r;
        n++;
    }
    return n;
}

int nr__fig_ccdf_draw(nr_render_canvas *cv, const nr_figure_inputs *in, nr_error *err)
{
    const nr_fig_ccdf_input *c = in->ccdf;
    if (!c || c->n_runs == 0 || !c->runs)
        return nr__draw_no_data(cv, FIG, "no runs");
    size_t shown[NR__MAX_SERIES / 2], style[NR__MAX_SERIES / 2], n_crowd = 0;
    char names[NR__MAX_SERIES / 2][96], crowd_name[64];
    double fit_x[NR__MAX_SERIES / 2][2], fit_y[NR__MAX_SERIES / 2][2];
    const int crowded = c->n_runs > NR_FIG_DISTINCT_RUNS;
    nr__series *crowd = crowded ? malloc(c->n_runs * sizeof *crowd) : NULL;
    if (crowded && !crowd)
        return nr_error_set(err, NR_E_NOMEM, "figure %s: out of memory", FIG);
    const size_t drawn = choose_runs(c, shown, style, names, crowd, &n_crowd);
    if (drawn == 0) {
        free(crowd);
        return nr__draw_no_data(cv, FIG, "no per-file bytes");
    }
    nr__xy p;
    nr__xy_init(&p, cv, 2, 2, cv->width - 4, cv->height - 4);
    for (size_t i = 0; i < drawn; i++) {
        const nr_fig_ccdf_run *run = &c->runs[shown[i]];
        nr__xy_add(&p, (nr__series){.name = names[i], .n = run->n, .x = run->bytes, .y = run->ccdf,
                                    .color = style[i], .marker = style[i], .markers = 1});
    }
    if (n_crowd) {
        snprintf(crowd_name, sizeof crowd_name, "the other %zu runs", n_crowd);
        nr__xy_set_crowd(&p, crowd, n_crowd, crowd_name);
    }
    p.x = (nr__axis){.title = "Bytes per file", .unit = NR__UNIT_BYTES, .log = 1};
    p.y = (nr__axis){.title = "P(bytes \xe2\x89\xa5 x)", .log = 1};
    if (nr__xy_setup(&p, 0, 0, 0, 0)) {
        free(crowd);
        return nr__draw_no_data(cv, FIG, "no file with a positive byte count");
    }
    /* Fits of the runs drawn in colour, dashed in the run's colour. */
    size_t n_fit = 0;
    for (size_t i = 0; i < drawn; i++) {
        const nr_fig_ccdf_run *run = &c->runs[shown[i]];
        if (!fit_usable(run))
            continue;
        double xmax = run->bytes[run->n - 1];
        if (!(xmax > run->xmin))
            continue;
        fit_x[n_fit][0] = run->xmin;
        fit_x[n_fit][1] = xmax;
        fit_y[n_fit][0] = run->ccdf_at_xmin;
        fit_y[n_fit][1] = run->ccdf_at_xmin * pow(xmax / run->xmin, 1.0 - run->alpha);
        nr__xy_add(&p, (nr__series){.n = 2, .x = fit_x[n_fit], .y = fit_y[n_fit], .color = style[i], .dash = 1,
                                    .line_width = 0.9});
        n_fit++;
    }
    if (n_fit > 0)
        nr__legend_add(&p.legend, (nr__legend_entry){.label = "power-law fit from xmin",
                                                     .kind = NR__LEG_LINE, .color = 6, .dash = 1, .line_width = 0.9});
    nr__xy_layout(&p);
    nr__xy_draw_axes(&p);
    nr__xy_draw_series(&p);
    nr__xy_draw_legend(&p);
    free(crowd);
    return 0;
}
