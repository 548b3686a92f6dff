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

/* A run with a curve: two files or more (three points with the origin;
 * until session 47 two, so one file drew the line of equality as its
 * curve), and some bytes. */
static int has_curve(const nr_fig_lorenz_run *run)
{
    return run->n >= 3 && run->file_share && run->byte_share && run->byte_share[run->n - 1] > 0;
}

/* The runs drawn in colour into shown[] (at most NR__MAX_SERIES - 2) with
 * their legend names: every run with a curve up to NR_FIG_DISTINCT_RUNS
 * runs, else the picks by Gini (the others into cw->others). Returns how
 * many. */
static size_t choose_runs(const nr_fig_lorenz_input *l, size_t shown[], char names[][NR__LABEL_CAP],
                          nr__crowd *cw)
{
    size_t n = 0;
    if (l->n_runs <= NR_FIG_DISTINCT_RUNS) {
        for (size_t r = 0; r < l->n_runs; r++)
            if (has_curve(&l->runs[r]))
                shown[n++] = r;
        for (size_t i = 0; i < n; i++) {
            const nr_fig_lorenz_run *run = &l->runs[shown[i]];
            /* the top-10% share in words too: two runs' marks can fall on
               one point (mlp and rl at 89.5%, 58%: review 49) */
            if (isfinite(run->gini) && isfinite(run->top10_share))
                nr__name_label(names[i], NR__LABEL_CAP, run->name, " (Gini %.2f, top 10%%: %.0f%%)", run->gini,
                               100.0 * run->top10_share);
            else if (isfinite(run->gini))
                nr__name_label(names[i], NR__LABEL_CAP, run->name, " (Gini %.2f)", run->gini);
            else
                nr__name_label(names[i], NR__LABEL_CAP, run->name, "%s", "");
        }
        return n;
    }
    for (size_t r = 0; r < l->n_runs; r++) {
        const nr_fig_lorenz_run *run = &l->runs[r];
        cw->key[r] = run->gini;
        cw->usable[r] = has_curve(run);
        cw->others[r] = cw->usable[r] ? (nr__series){.n = run->n, .x = run->file_share, .y = run->byte_share}
                                      : (nr__series){0};
    }
    n = nr__crowd_pick(cw, l->n_runs);
    for (size_t i = 0; i < n; i++) {
        const nr_fig_lorenz_run *run = &l->runs[shown[i] = cw->pick[i]];
        nr__name_label(names[i], NR__LABEL_CAP, run->name, " (Gini %.2f, %s)", run->gini,
                       nr__pick_names[cw->which[i]]);
    }
    nr__crowd_others(cw, l->n_runs);
    return n;
}

/* The top 10% of files start at x = 0.9: a dashed line, labelled. */
static void draw_top10_line(nr_render_canvas *cv, const nr__xy *p)
{
    cairo_t *cr = cv->cr;
    cairo_save(cr);
    double x90 = nr__xy_mx(p, 0.9);
    cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
    cairo_set_line_width(cr, 0.5);
    const double dash[] = {2, 2};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_move_to(cr, x90, p->py);
    cairo_line_to(cr, x90, p->py + p->ph);
    cairo_stroke(cr);
    /* Left of the line near the top: below the equality line, above the curves. */
    nr__text_draw(cv, "top 10% of files \xe2\x86\x92", NR__PLAIN, NR__SMALL_PT(cv), x90 - 2, p->py + 2, 1, 0, 0);
    cairo_restore(cr);
}

/* 1 when a drawn run's top-10% mark is off the guide at 90%: its files are
 * not a multiple of ten, and the mark counts the top ceil(n/10) of them
 * (22 files: the top 3, 13.6%). The legend then says what the marks are. */
static int marks_off_guide(const nr_fig_lorenz_input *l, const size_t *shown, size_t drawn)
{
    for (size_t i = 0; i < drawn; i++) {
        const double x = l->runs[shown[i]].top10_x;
        if (isfinite(x) && fabs(x - 0.9) > 1e-9)
            return 1;
    }
    return 0;
}

int nr__fig_lorenz_draw(nr_render_canvas *cv, const nr_figure_inputs *in, nr_error *err)
{
    const nr_fig_lorenz_input *l = in->lorenz;
    if (!l || l->n_runs == 0 || !l->runs)
        return nr__draw_no_data(cv, FIG, "no runs");
    size_t shown[NR__MAX_SERIES - 2];
    char names[NR__MAX_SERIES - 2][NR__LABEL_CAP], crowd_name[64];
    const int crowded = l->n_runs > NR_FIG_DISTINCT_RUNS;
    nr__crowd cw = {0};
    if (crowded && nr__crowd_init(&cw, l->n_runs) < 0)
        return nr_error_set(err, NR_E_NOMEM, "figure %s: out of memory", FIG);
    const size_t drawn = choose_runs(l, shown, names, &cw);
    if (drawn == 0) {
        nr__crowd_fini(&cw);
        return nr__draw_no_data(cv, FIG, "no run has two files with bytes");
    }
    size_t style[NR__MAX_SERIES - 2]; /* a run keeps its own index's style; picks go by their order */
    for (size_t i = 0; i < drawn; i++)
        style[i] = crowded ? i : shown[i];
    nr__xy p;
    nr__xy_init(&p, cv, 2, 2, cv->width - 4, cv->height - 4);
    for (size_t i = 0; i < drawn; i++) {
        const nr_fig_lorenz_run *run = &l->runs[shown[i]];
        nr__xy_add(&p, (nr__series){.name = names[i], .n = run->n, .x = run->file_share, .y = run->byte_share,
                                    .color = style[i], .dash = style[i], .marker = style[i], .markers = 1});
    }
    if (cw.n_others) {
        snprintf(crowd_name, sizeof crowd_name, "the other %zu runs", cw.n_others);
        nr__xy_set_crowd(&p, cw.others, cw.n_others, crowd_name);
    }
    nr__xy_add(&p, (nr__series){.name = "equal shares", .n = 2, .x = equality_xy, .y = equality_xy,
                                .color = 6, .dash = 2, .line_width = 0.6});
    if (marks_off_guide(l, shown, drawn))
        nr__legend_add(&p.legend, (nr__legend_entry){.label = "large marks: top \xe2\x8c\x88n/10\xe2\x8c\x89 files",
                                                     .kind = NR__LEG_TEXT});
    p.x = (nr__axis){.title = "Share of files, smallest first", .unit = NR__UNIT_PERCENT};
    p.y = (nr__axis){.title = "Share of bytes", .unit = NR__UNIT_PERCENT};
    nr__xy_setup(&p, 0, 1, 0, 1);
    nr__xy_layout(&p);
    nr__xy_draw_axes(&p);
    draw_top10_line(cv, &p);
    nr__xy_draw_series(&p);

    cairo_t *cr = cv->cr;
    cairo_save(cr);
    for (size_t i = 0; i < drawn; i++) {
        const nr_fig_lorenz_run *run = &l->runs[shown[i]];
        if (!isfinite(run->top10_share) || !isfinite(run->top10_x))
            continue;
        nr__set_color(cr, nr__palette_color(style[i]), 1.0);
        nr__draw_marker(cr, style[i], nr__xy_mx(&p, run->top10_x), nr__xy_my(&p, 1.0 - run->top10_share), 6.0);
    }
    cairo_restore(cr);
    nr__xy_draw_legend(&p);
    nr__crowd_fini(&cw);
    return 0;
}
