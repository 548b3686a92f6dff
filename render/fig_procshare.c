/* Figure 7, per-process I/O share: 100% stacked bars of bytes and of I/O
 * time per process group (main, workers, ...), one bar per run. */
#include <math.h>

#include "render_internal.h"

#define FIG "Per-process I/O share"

double nr__fig_procshare_height(const nr_figure_inputs *in, double width)
{
    (void)in;
    return width < 400 ? 190 : 210;
}

static int any_positive(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]) && v[i] > 0)
            return 1;
    return 0;
}

int nr__fig_procshare_draw(nr_render_canvas *cv, const nr_figure_inputs *in, nr_error *err)
{
    (void)err;
    const nr_fig_procshare_input *p = in->procshare;
    if (!p || p->n_runs == 0 || !p->run_names)
        return nr__draw_no_data(cv, FIG, "no runs");
    if (p->n_groups == 0 || !p->group_names || !p->bytes || !p->io_time_s)
        return nr__draw_no_data(cv, FIG, "no process groups");
    if (p->n_groups > NR__MAX_LEGEND)
        return nr__draw_no_data(cv, FIG, "more than 24 process groups");
    size_t n = p->n_runs * p->n_groups;
    if (!any_positive(p->bytes, n) && !any_positive(p->io_time_s, n))
        return nr__draw_no_data(cv, FIG, "no I/O by any process");

    /* main keeps the first colour; workers the second, others follow. */
    size_t colors[NR__MAX_LEGEND];
    nr__legend lg = {.title = "Process group, job files:"};
    for (size_t j = 0; j < p->n_groups; j++) {
        colors[j] = (j == 0 ? 0 : j == 1 ? 3 : j + 3) % NR__STYLES;
        nr__legend_add(&lg, (nr__legend_entry){.label = p->group_names[j], .kind = NR__LEG_SWATCH,
                                               .color = colors[j], .hatch = j});
    }
    double top = nr__legend_block(cv, &lg);
    nr__legend_draw_flow(cv, &lg, 4, 2, cv->width - 8);

    double half = (cv->width - 8) / 2;
    nr__bars bytes = {.cv = cv, .ox = 2, .oy = top + 2, .ow = half, .oh = cv->height - top - 4,
                      .n_cat = p->n_runs, .cat_names = p->run_names, .n_seg = p->n_groups,
                      .v = p->bytes, .normalize = 1, .seg_color = colors, .panel_label = "(a) bytes",
                      .y = {.title = "Share of bytes", .unit = NR__UNIT_PERCENT}};
    nr__bars time = bytes;
    time.ox = 6 + half;
    time.v = p->io_time_s;
    time.panel_label = "(b) time in I/O";
    time.y = (nr__axis){.title = "Share of I/O time", .unit = NR__UNIT_PERCENT};
    nr__bars_draw(&bytes);
    nr__bars_draw(&time);
    return 0;
}
