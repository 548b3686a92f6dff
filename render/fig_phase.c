/* Figure 1, phase breakdown: stacked bars of bytes and of I/O time per
 * phase, one bar per run, two panels side by side. */
#include <math.h>

#include "render_internal.h"

#define FIG "Phase breakdown"

double nr__fig_phase_height(const nr_figure_inputs *in, double width)
{
    (void)in;
    return width < 400 ? 200 : 230;
}

static int all_zero(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]) && v[i] > 0)
            return 0;
    return 1;
}

int nr__fig_phase_draw(nr_render_canvas *cv, const nr_figure_inputs *in, nr_error *err)
{
    (void)err;
    const nr_fig_phase_input *p = in->phase;
    if (!p || p->n_runs == 0 || !p->run_names)
        return nr__draw_no_data(cv, FIG, "no runs");
    if (p->n_phases == 0 || !p->phase_names || !p->bytes || !p->io_time_s)
        return nr__draw_no_data(cv, FIG, "no phases");
    if (p->n_phases > NR__MAX_LEGEND)
        return nr__draw_no_data(cv, FIG, "more than 24 phases");
    size_t n = p->n_runs * p->n_phases;
    if (all_zero(p->bytes, n) && all_zero(p->io_time_s, n))
        return nr__draw_no_data(cv, FIG, "no I/O in any phase");

    size_t colors[NR__MAX_LEGEND];
    nr__legend lg = {0};
    for (size_t j = 0; j < p->n_phases; j++) {
        colors[j] = nr__palette_phase_index(p->phase_names[j], j);
        nr__legend_add(&lg, (nr__legend_entry){.label = p->phase_names[j], .kind = NR__LEG_SWATCH,
                                               .color = colors[j], .hatch = j});
    }
    double top = nr__legend_block(cv, &lg);
    nr__legend_draw_flow(cv, &lg, 4, 2, cv->width - 8);

    double half = (cv->width - 8) / 2;
    nr__bars bytes = {.cv = cv, .ox = 2, .oy = top + 2, .ow = half, .oh = cv->height - top - 4,
                      .n_cat = p->n_runs, .cat_names = p->run_names, .n_seg = p->n_phases,
                      .v = p->bytes, .seg_color = colors, .panel_label = "(a) bytes",
                      .y = {.title = "Bytes moved", .unit = NR__UNIT_BYTES}};
    nr__bars time = bytes;
    time.ox = 6 + half;
    time.v = p->io_time_s;
    time.panel_label = "(b) time in I/O";
    time.y = (nr__axis){.title = "Time in I/O calls", .unit = NR__UNIT_SECONDS};
    nr__bars_draw(&bytes);
    nr__bars_draw(&time);
    return 0;
}
