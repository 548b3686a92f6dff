/* Figure 3, per-file bytes CCDF on log-log axes, one curve per run, with the
 * fitted power law drawn dashed from xmin (Clauset-Shalizi-Newman 2009). */
#include <math.h>
#include <stdio.h>

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

int nr__fig_ccdf_draw(nr_render_canvas *cv, const nr_figure_inputs *in, nr_error *err)
{
    (void)err;
    const nr_fig_ccdf_input *c = in->ccdf;
    if (!c || c->n_runs == 0 || !c->runs)
        return nr__draw_no_data(cv, FIG, "no runs");
    nr__xy p;
    nr__xy_init(&p, cv, 2, 2, cv->width - 4, cv->height - 4);
    char names[NR__MAX_SERIES][96];
    double fit_x[NR__MAX_SERIES][2], fit_y[NR__MAX_SERIES][2];
    size_t n_fit = 0, drawn = 0;
    size_t max_runs = NR__MAX_SERIES / 2 - 1;
    for (size_t r = 0; r < c->n_runs && r < max_runs; r++) {
        const nr_fig_ccdf_run *run = &c->runs[r];
        if (run->n == 0 || !run->bytes || !run->ccdf)
            continue;
        if (fit_usable(run))
            snprintf(names[r], sizeof names[r], "%s (\xce\xb1 = %.2f)", run->name ? run->name : "?", run->alpha);
        else
            snprintf(names[r], sizeof names[r], "%s", run->name ? run->name : "?");
        nr__xy_add(&p, (nr__series){.name = names[r], .n = run->n, .x = run->bytes, .y = run->ccdf,
                                    .color = r, .marker = r, .markers = 1});
        drawn++;
    }
    if (drawn == 0)
        return nr__draw_no_data(cv, FIG, "no per-file bytes");
    p.x = (nr__axis){.title = "Bytes per file", .unit = NR__UNIT_BYTES, .log = 1};
    p.y = (nr__axis){.title = "P(bytes \xe2\x89\xa5 x)", .log = 1};
    if (nr__xy_setup(&p, 0, 0, 0, 0))
        return nr__draw_no_data(cv, FIG, "no file with a positive byte count");
    /* Fits of the runs drawn above, dashed in the run's colour. */
    for (size_t r = 0; r < c->n_runs && r < max_runs; r++) {
        const nr_fig_ccdf_run *run = &c->runs[r];
        if (run->n == 0 || !run->bytes || !fit_usable(run))
            continue;
        double xmax = run->bytes[run->n - 1];
        if (!(xmax > run->xmin))
            continue;
        fit_x[n_fit][0] = run->xmin;
        fit_x[n_fit][1] = xmax;
        fit_y[n_fit][0] = run->ccdf_at_xmin;
        fit_y[n_fit][1] = run->ccdf_at_xmin * pow(xmax / run->xmin, 1.0 - run->alpha);
        nr__xy_add(&p, (nr__series){.n = 2, .x = fit_x[n_fit], .y = fit_y[n_fit], .color = r, .dash = 1,
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
    return 0;
}
