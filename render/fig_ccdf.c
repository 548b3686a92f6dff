/* Figure 3, per-file bytes CCDF on log-log axes, one curve per run, with the
 * fitted power law drawn dashed from xmin (Clauset-Shalizi-Newman 2009),
 * unless its goodness of fit rejected it. */
#include <math.h>
#include <stdio.h>

#include "render_internal.h"

#define FIG "CCDF of per-file bytes"
/* The fits' dash pattern (sparse dots, nr__set_dash); the runs' curves
 * take the patterns that are no dots (solid, dashes, dash-dots: distinct
 * for six runs, then again with other markers). */
#define FIT_DASH 7
static const size_t run_dash[NR__STYLES] = {0, 1, 4, 3, 5, 6, 0, 1};

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

/* A fit worth a line and an alpha: usable and not rejected by its own
 * goodness of fit (a rejected alpha describes no power law). */
static int fit_drawn(const nr_fig_ccdf_run *r)
{
    return fit_usable(r) && !r->fit_rejected;
}

/* The legend name of a run drawn in colour, without a pick's word. */
static void run_label(const nr_fig_ccdf_run *run, char *out, size_t cap)
{
    const char *name = run->name ? run->name : "?";
    if (fit_drawn(run))
        nr__name_label(out, cap, name, " (\xce\xb1 = %.2f)", run->alpha);
    else if (fit_usable(run))
        nr__name_label(out, cap, name, " (power law rejected, p = %.2f)", run->p_value);
    else
        nr__name_label(out, cap, name, "%s", "");
}

static int has_points(const nr_fig_ccdf_run *run)
{
    return run->n > 0 && run->bytes && run->ccdf;
}

/* The picks by alpha (or, when no run has a fit, by the number of files)
 * into shown[], with their legend names; the others into cw->others.
 * Returns how many are picked. */
static size_t pick_runs(const nr_fig_ccdf_input *c, size_t shown[], char names[][NR__LABEL_CAP],
                        nr__crowd *cw)
{
    int by_alpha = 1;
    for (size_t r = 0; r < c->n_runs; r++) {
        const nr_fig_ccdf_run *run = &c->runs[r];
        cw->key[r] = run->alpha;
        cw->usable[r] = has_points(run) && fit_drawn(run);
        cw->others[r] = has_points(run) ? (nr__series){.n = run->n, .x = run->bytes, .y = run->ccdf}
                                        : (nr__series){0};
    }
    if (nr__crowd_pick(cw, c->n_runs) == 0) {
        by_alpha = 0;
        for (size_t r = 0; r < c->n_runs; r++) {
            cw->key[r] = (double)c->runs[r].n;
            cw->usable[r] = has_points(&c->runs[r]);
        }
        nr__crowd_pick(cw, c->n_runs);
    }
    for (size_t i = 0; i < cw->n_picks; i++) {
        const nr_fig_ccdf_run *run = &c->runs[shown[i] = cw->pick[i]];
        const char *name = run->name ? run->name : "?", *pick = nr__pick_names[cw->which[i]];
        if (by_alpha)
            nr__name_label(names[i], NR__LABEL_CAP, name, " (\xce\xb1 = %.2f, %s)", run->alpha, pick);
        else
            nr__name_label(names[i], NR__LABEL_CAP, name, " (%zu files, %s)", run->n, pick);
    }
    nr__crowd_others(cw, c->n_runs);
    return cw->n_picks;
}

/* The runs drawn in colour, each in its own index's style, or, with more
 * runs than NR_FIG_DISTINCT_RUNS, the picks (pick_runs) in the styles 0,
 * 1, 2. */
static size_t choose_runs(const nr_fig_ccdf_input *c, size_t shown[], size_t style[], char names[][NR__LABEL_CAP],
                          nr__crowd *cw)
{
    if (c->n_runs > NR_FIG_DISTINCT_RUNS) {
        size_t n = pick_runs(c, shown, names, cw);
        for (size_t i = 0; i < n; i++)
            style[i] = i;
        return n;
    }
    size_t n = 0;
    for (size_t r = 0; r < c->n_runs; r++) {
        const nr_fig_ccdf_run *run = &c->runs[r];
        if (!has_points(run))
            continue;
        run_label(run, names[n], NR__LABEL_CAP);
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
    size_t shown[NR__MAX_SERIES / 2], style[NR__MAX_SERIES / 2];
    char names[NR__MAX_SERIES / 2][NR__LABEL_CAP], crowd_name[64];
    double fit_x[NR__MAX_SERIES / 2][2], fit_y[NR__MAX_SERIES / 2][2];
    nr__crowd cw = {0};
    if (c->n_runs > NR_FIG_DISTINCT_RUNS && nr__crowd_init(&cw, c->n_runs) < 0)
        return nr_error_set(err, NR_E_NOMEM, "figure %s: out of memory", FIG);
    const size_t drawn = choose_runs(c, shown, style, names, &cw);
    if (drawn == 0) {
        nr__crowd_fini(&cw);
        return nr__draw_no_data(cv, FIG, "no per-file bytes");
    }
    nr__xy p;
    nr__xy_init(&p, cv, 2, 2, cv->width - 4, cv->height - 4);
    /* each run in its own dash too, so that grey-scale print tells them
       apart (until session 49 every curve was solid: review 49); dots
       are the fits' */
    for (size_t i = 0; i < drawn; i++) {
        const nr_fig_ccdf_run *run = &c->runs[shown[i]];
        const size_t dash = run_dash[style[i] % NR__STYLES];
        nr__xy_add(&p, (nr__series){.name = names[i], .n = run->n, .x = run->bytes, .y = run->ccdf,
                                    .color = style[i], .dash = dash, .marker = style[i], .markers = 1});
    }
    if (cw.n_others) {
        snprintf(crowd_name, sizeof crowd_name, "the other %zu runs", cw.n_others);
        nr__xy_set_crowd(&p, cw.others, cw.n_others, crowd_name);
    }
    p.x = (nr__axis){.title = "Bytes per file", .unit = NR__UNIT_BYTES, .log = 1};
    p.y = (nr__axis){.title = "P(bytes \xe2\x89\xa5 x)", .log = 1, .bound = 1.0};
    if (nr__xy_setup(&p, 0, 0, 0, 0)) {
        nr__crowd_fini(&cw);
        return nr__draw_no_data(cv, FIG, "no file with a positive byte count");
    }
    /* Fits of the runs drawn in colour: sparse dots in the run's colour,
       ending at the run's marker (the fit is told from its run in grey
       scale by the marker, not by nearness alone) */
    size_t n_fit = 0;
    for (size_t i = 0; i < drawn; i++) {
        const nr_fig_ccdf_run *run = &c->runs[shown[i]];
        if (!fit_drawn(run))
            continue;
        double xmax = run->bytes[run->n - 1];
        if (!(xmax > run->xmin))
            continue;
        fit_x[n_fit][0] = run->xmin;
        fit_x[n_fit][1] = xmax;
        fit_y[n_fit][0] = run->ccdf_at_xmin;
        fit_y[n_fit][1] = run->ccdf_at_xmin * pow(xmax / run->xmin, 1.0 - run->alpha);
        nr__xy_add(&p, (nr__series){.n = 2, .x = fit_x[n_fit], .y = fit_y[n_fit], .color = style[i], .dash = FIT_DASH,
                                    .line_width = 0.9});
        nr__xy_add(&p, (nr__series){.n = 1, .x = &fit_x[n_fit][1], .y = &fit_y[n_fit][1], .color = style[i],
                                    .marker = style[i], .markers = 1});
        n_fit++;
    }
    if (n_fit > 0)
        nr__legend_add(&p.legend, (nr__legend_entry){.label = "power-law fit from xmin, to its run's marker",
                                                     .kind = NR__LEG_LINE, .color = 6, .dash = FIT_DASH,
                                                     .line_width = 0.9});
    nr__xy_layout(&p);
    nr__xy_draw_axes(&p);
    nr__xy_draw_series(&p);
    nr__xy_draw_legend(&p);
    nr__crowd_fini(&cw);
    return 0;
}
