/* Figure 2, Lorenz curves: cumulative share of bytes against cumulative
 * share of files (ascending), all runs on one plot, with the equality line
 * and each run's top-10% point marked. */
#include <math.h>
#include <stdio.h>

#include "render_internal.h"

#define FIG "Lorenz curves of per-file bytes"

double nr__fig_lorenz_height(const nr_figure_inputs *in, double width)
{
    (void)in;
    return width < 400 ? 230 : 300;
}

static const double equality_xy[2] = {0, 1};

int nr__fig_lorenz_draw(nr_render_canvas *cv, const nr_figure_inputs *in, nr_error *err)
{
    (void)err;
    const nr_fig_lorenz_input *l = in->lorenz;
    if (!l || l->n_runs == 0 || !l->runs)
        return nr__draw_no_data(cv, FIG, "no runs");
    nr__xy p;
    nr__xy_init(&p, cv, 2, 2, cv->width - 4, cv->height - 4);
    char names[NR__MAX_SERIES][96];
    size_t drawn = 0;
    for (size_t r = 0; r < l->n_runs && p.n_series + 1 < NR__MAX_SERIES; r++) {
        const nr_fig_lorenz_run *run = &l->runs[r];
        if (run->n < 2 || !run->file_share || !run->byte_share || !(run->byte_share[run->n - 1] > 0))
            continue; /* one file, or no bytes at all, has no curve */
        if (isfinite(run->gini))
            snprintf(names[r], sizeof names[r], "%s (Gini %.2f)", run->name ? run->name : "?", run->gini);
        else
            snprintf(names[r], sizeof names[r], "%s", run->name ? run->name : "?");
        nr__xy_add(&p, (nr__series){.name = names[r], .n = run->n, .x = run->file_share, .y = run->byte_share,
                                    .color = r, .dash = r, .marker = r, .markers = 1});
        drawn++;
    }
    if (drawn == 0)
        return nr__draw_no_data(cv, FIG, "no run has two files with bytes");
    nr__xy_add(&p, (nr__series){.name = "equal shares", .n = 2, .x = equality_xy, .y = equality_xy,
                                .color = 6, .dash = 2, .line_width = 0.6});
    p.x = (nr__axis){.title = "Share of files, smallest first", .unit = NR__UNIT_PERCENT};
    p.y = (nr__axis){.title = "Share of bytes", .unit = NR__UNIT_PERCENT};
    nr__xy_setup(&p, 0, 1, 0, 1);
    nr__xy_layout(&p);
    nr__xy_draw_axes(&p);

    /* The top 10% of files start at x = 0.9. */
    cairo_t *cr = cv->cr;
    cairo_save(cr);
    double x90 = nr__xy_mx(&p, 0.9);
    cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
    cairo_set_line_width(cr, 0.5);
    const double dash[] = {2, 2};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_move_to(cr, x90, p.py);
    cairo_line_to(cr, x90, p.py + p.ph);
    cairo_stroke(cr);
    /* Left of the line near the top: below the equality line, above the curves. */
    nr__text_draw(cv, "top 10% of files \xe2\x86\x92", NR__PLAIN, cv->font_size - 1.5, x90 - 2, p.py + 2, 1, 0, 0);
    cairo_restore(cr);

    nr__xy_draw_series(&p);

    cairo_save(cr);
    for (size_t r = 0; r < l->n_runs && r < NR__MAX_SERIES; r++) {
        const nr_fig_lorenz_run *run = &l->runs[r];
        if (run->n < 2 || !run->byte_share || !(run->byte_share[run->n - 1] > 0) || !isfinite(run->top10_share))
            continue;
        nr__set_color(cr, nr__palette_color(r), 1.0);
        nr__draw_marker(cr, r, x90, nr__xy_my(&p, 1.0 - run->top10_share), 6.0);
    }
    cairo_restore(cr);
    nr__xy_draw_legend(&p);
    return 0;
}
