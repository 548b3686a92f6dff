/* Figure 1, phase breakdown: stacked bars of bytes and of I/O time per
 * phase, one bar per run, two panels side by side. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

/* Whether v is finite, counting a skip on cv (NULL: counted nowhere). */
static int finite_counted(nr_render_canvas *cv, double v)
{
    return cv ? nr__finite_or_skip(cv, v) : isfinite(v);
}

/* Where each of p's phases goes when figure 1 folds them (nr_phase_pick_slots,
 * the rule the model folds its latency group by): slot[j] is phase j's
 * place among the kept, or NR__STYLES - 1 (the other phases); a value that
 * is not finite is counted on cv (NULL: nowhere), as the bars count theirs.
 * 0, or -1 when out of memory. */
static int phase_slots(nr_render_canvas *cv, const nr_fig_phase_input *p, size_t *slot)
{
    for (size_t i = 0; i < p->n_runs * p->n_phases; i++) {
        finite_counted(cv, p->bytes[i]);
        finite_counted(cv, p->io_time_s[i]);
    }
    return nr_phase_pick_slots(p->n_runs, p->n_phases, p->bytes, p->io_time_s, slot) < 0 ? -1 : 0;
}

int nr__phase_fold(nr_render_canvas *cv, const nr_fig_phase_input *p, nr__phase_folded *out)
{
    const size_t m = p->n_phases, kept = NR__STYLES - 1;
    *out = (nr__phase_folded){0};
    size_t *slot = malloc(m * sizeof *slot); /* where phase j goes: its place among the kept, or kept (the other) */
    out->bytes = calloc(p->n_runs * NR__STYLES, sizeof *out->bytes);
    out->time = calloc(p->n_runs * NR__STYLES, sizeof *out->time);
    int rc = slot && out->bytes && out->time ? phase_slots(cv, p, slot) : -1;
    if (rc == 0) {
        for (size_t j = 0; j < m; j++)
            if (slot[j] < kept)
                out->names[slot[j]] = p->phase_names[j];
        snprintf(out->other, sizeof out->other, "other %zu phases", m - kept);
        out->names[kept] = out->other;
        for (size_t r = 0; r < p->n_runs; r++)
            for (size_t j = 0; j < m; j++) {
                const double b = p->bytes[r * m + j], t = p->io_time_s[r * m + j];
                out->bytes[r * NR__STYLES + slot[j]] += isfinite(b) && b > 0 ? b : 0;
                out->time[r * NR__STYLES + slot[j]] += isfinite(t) && t > 0 ? t : 0;
            }
        out->in = (nr_fig_phase_input){.n_runs = p->n_runs, .run_names = p->run_names, .n_phases = NR__STYLES,
                                       .phase_names = out->names, .bytes = out->bytes, .io_time_s = out->time};
    }
    free(slot);
    if (rc < 0)
        nr__phase_fold_fini(out);
    return rc;
}

int nr_fig_phase_kept(const nr_fig_phase_input *p, size_t kept[NR_FIG_PHASES - 1], size_t *n_kept)
{
    *n_kept = 0;
    if (!p || !p->bytes || !p->io_time_s)
        return 0;
    return nr_phase_pick_kept(p->n_runs, p->n_phases, p->bytes, p->io_time_s, kept, n_kept);
}

void nr__phase_fold_fini(nr__phase_folded *f)
{
    free(f->bytes);
    free(f->time);
    *f = (nr__phase_folded){0};
}

/* The name of figure 1's runtime segment (docs/figures.md). */
#define RUNTIME_LABEL "Python runtime files"

static int any_positive(const double *v, size_t n)
{
    return v && !all_zero(v, n);
}

/* Draws p's phases, and on top of them (when rt_bytes or rt_time has a
 * positive value) the runtime's files as one more segment. */
static int draw_phases(nr_render_canvas *cv, const nr_fig_phase_input *p, int folded, const double *rt_bytes,
                       const double *rt_time)
{
    size_t n = p->n_runs * p->n_phases;
    const int runtime = any_positive(rt_bytes, p->n_runs) || any_positive(rt_time, p->n_runs);
    if (all_zero(p->bytes, n) && all_zero(p->io_time_s, n) && !runtime)
        return nr__draw_no_data(cv, FIG, "no I/O in any phase");

    size_t colors[NR__STYLES + 1], hatches[NR__STYLES + 1];
    nr__palette_phase_colors(p->phase_names, p->n_phases, colors);
    if (folded)
        colors[p->n_phases - 1] = NR__COLOR_CROWD;
    for (size_t j = 0; j < p->n_phases; j++)
        hatches[j] = j;
    const size_t nseg = p->n_phases + (runtime ? 1 : 0);
    if (runtime) {
        colors[p->n_phases] = NR__COLOR_RUNTIME;
        hatches[p->n_phases] = NR__HATCH_GRID;
    }
    nr__legend lg = {0};
    for (size_t j = 0; j < nseg; j++) {
        nr__legend_add(&lg, (nr__legend_entry){.label = j < p->n_phases ? p->phase_names[j] : RUNTIME_LABEL,
                                               .kind = NR__LEG_SWATCH, .color = colors[j], .hatch = hatches[j]});
    }
    /* [run][segment]: the phases' values, then the runtime's */
    double *vb = malloc(p->n_runs * nseg * sizeof *vb), *vt = malloc(p->n_runs * nseg * sizeof *vt);
    if (!vb || !vt) {
        free(vb);
        free(vt);
        return -1;
    }
    for (size_t r = 0; r < p->n_runs; r++) {
        for (size_t j = 0; j < p->n_phases; j++) {
            vb[r * nseg + j] = p->bytes[r * p->n_phases + j];
            vt[r * nseg + j] = p->io_time_s[r * p->n_phases + j];
        }
        if (runtime) {
            vb[r * nseg + p->n_phases] = rt_bytes ? rt_bytes[r] : 0;
            vt[r * nseg + p->n_phases] = rt_time ? rt_time[r] : 0;
        }
    }
    double top = nr__legend_block(cv, &lg);
    nr__legend_draw_flow(cv, &lg, 4, 2, cv->width - 8);

    double half = (cv->width - 8) / 2;
    nr__bars bytes = {.cv = cv, .ox = 2, .oy = top + 2, .ow = half, .oh = cv->height - top - 4,
                      .n_cat = p->n_runs, .cat_names = p->run_names, .n_seg = nseg,
                      .v = vb, .seg_color = colors, .seg_hatch = hatches, .panel_label = "(a) bytes",
                      .y = {.title = "Bytes moved", .unit = NR__UNIT_BYTES}};
    nr__bars time = bytes;
    time.ox = 6 + half;
    time.v = vt;
    /* every process's calls summed, workers' beside the loop's: more than
       the phase's wall time when several read at once, so said on the axis */
    time.panel_label = "(b) time in I/O, all processes";
    time.y = (nr__axis){.title = "I/O call time, summed", .unit = NR__UNIT_SECONDS};
    nr__bars_draw(&bytes);
    nr__bars_draw(&time);
    free(vb);
    free(vt);
    return 0;
}

int nr__fig_phase_draw(nr_render_canvas *cv, const nr_figure_inputs *in, nr_error *err)
{
    const nr_fig_phase_input *p = in->phase;
    if (!p || p->n_runs == 0 || !p->run_names)
        return nr__draw_no_data(cv, FIG, "no runs");
    if (p->n_phases == 0 || !p->phase_names || !p->bytes || !p->io_time_s)
        return nr__draw_no_data(cv, FIG, "no phases");
    int rc;
    if (p->n_phases <= NR__STYLES) {
        rc = draw_phases(cv, p, 0, p->runtime_bytes, p->runtime_io_time_s);
        return rc < 0 ? nr_error_set(err, NR_E_NOMEM, "figure %s: out of memory", FIG) : rc;
    }
    /* free-text phase names (one per epoch) outnumber the styles: the
       largest phases, and the rest as one */
    nr__phase_folded f;
    if (nr__phase_fold(cv, p, &f) < 0)
        return nr_error_set(err, NR_E_NOMEM, "figure %s: out of memory", FIG);
    rc = draw_phases(cv, &f.in, 1, p->runtime_bytes, p->runtime_io_time_s);
    nr__phase_fold_fini(&f);
    return rc < 0 ? nr_error_set(err, NR_E_NOMEM, "figure %s: out of memory", FIG) : rc;
}
