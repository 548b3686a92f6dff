/* Figure 4, latency distribution: (a) CDF on a log time axis and (b) the
 * CCDF tail on log-log axes, one curve per run (or per phase of one run),
 * with p50, p99 and p99.9 marked where each curve crosses their level. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_internal.h"

#define FIG "Latency distribution"

double nr__fig_latency_height(const nr_figure_inputs *in, double width)
{
    (void)in;
    return width < 400 ? 380 : 230;
}

typedef struct level {
    const char *name;
    double cdf;   /* P(X <= p) */
} level;

/* The size of a level's markers (nr__draw_marker), in points. */
#define MARKER_SIZE 5.0

static const level levels[] = {{"p50", 0.5}, {"p99", 0.99}, {"p99.9", 0.999}};

static double percentile_of(const nr_fig_latency_series *s, size_t k)
{
    return k == 0 ? s->p50 : k == 1 ? s->p99 : s->p999;
}

/* Whether the series has calls enough for level k to be more than its
 * slowest call: 1 / (1 - p) of them (100 for p99, 1000 for p99.9). A p99
 * marked on a phase of 20 reads marked its maximum. */
static int level_resolved(const nr_fig_latency_series *s, size_t k)
{
    return s->calls == 0 || (double)s->calls * (1.0 - levels[k].cdf) >= 1.0 - 1e-9;
}

/* The series drawn in colour: every one, each in its own index's style, or,
 * with more than NR_FIG_DISTINCT_RUNS, those of the lowest, median and
 * highest p99 in the styles 0, 1, 2, the cw.n_others others in grey:
 * cw.others holds them for the CDF panel, then again for the tail's
 * (their ccdf, or y_one_minus without one). A series' colour is its
 * style's but for the folded phases' (l->folded), figure 1's grey. */
typedef struct shown {
    size_t n, index[NR__MAX_SERIES], style[NR__MAX_SERIES], color[NR__MAX_SERIES];
    char names[NR__MAX_SERIES][NR__LABEL_CAP];
    nr__crowd cw;
    char crowd_name[64];
    int folded;             /* the last series is the folded phases': drawn first, under the others */
} shown;

static int drawable_series(const nr_fig_latency_series *s)
{
    return s->n > 0 && s->latency_s && s->cdf;
}

/* The style of "all" beside phases of the n colours: the first of orange,
 * yellow, ... that none holds. */
static size_t all_style(const size_t *colors, size_t n)
{
    static const size_t all_prefers[NR__STYLES] = {3, 7, 1, 0, 2, 4, 5, 6};
    size_t all = all_prefers[0];
    for (size_t k = NR__STYLES; k-- > 0;) {
        int taken = 0;
        for (size_t i = 0; i < n; i++)
            taken |= colors[i] == all_prefers[k];
        if (!taken)
            all = all_prefers[k];
    }
    return all;
}

/* The styles of one run's series, "all" then its phases: each phase its
 * colour in figures 1 and 5 (before session 37 the n-th series took style
 * n, so data_prep was drawn in checkpoint's vermillion), "all" the first
 * of orange, yellow, ... that no phase holds. */
static void phase_styles(const nr_fig_latency_input *l, shown *sh)
{
    const char *names[NR__MAX_SERIES];
    size_t colors[NR__MAX_SERIES];
    const size_t n = l->n_series - 1;
    for (size_t i = 0; i < n; i++)
        names[i] = l->series[i + 1].name;
    nr__palette_phase_colors(names, n, colors);
    sh->style[0] = all_style(colors, n);
    for (size_t i = 0; i < n; i++)
        sh->style[i + 1] = colors[i];
}

/* The colours of the n kept phases' series (l->series[1..n]) and of "all"
 * (*all): figure 1's of their names when its input folds (nr_fig_phase_kept:
 * the colours over its kept names and "other N phases"), "all" in one that
 * none of figure 1's 7 kept phases holds, drawn or not (all_style over
 * them); else over the n names themselves. 0, or -1 when out of memory. */
static int kept_colors(const nr_figure_inputs *in, const nr_fig_latency_input *l, size_t n, size_t *colors,
                       size_t *all)
{
    const char *names[NR__MAX_SERIES];
    for (size_t i = 0; i < n; i++)
        names[i] = l->series[i + 1].name ? l->series[i + 1].name : "?";
    nr__palette_phase_colors(names, n, colors);
    *all = all_style(colors, n);
    size_t kept[NR_FIG_PHASES - 1], n_kept;
    if (!in->phase || !in->phase->phase_names)
        return 0;
    if (nr_fig_phase_kept(in->phase, kept, &n_kept) < 0)
        return -1;
    if (n_kept == 0) /* figure 1 does not fold */
        return 0;
    const char *fig1_names[NR__STYLES]; /* figure 1's legend: the kept, then "other N phases" */
    char other[64];
    for (size_t k = 0; k < n_kept; k++)
        fig1_names[k] = in->phase->phase_names[kept[k]];
    snprintf(other, sizeof other, "other %zu phases", in->phase->n_phases - n_kept);
    fig1_names[n_kept] = other;
    size_t fig1[NR__STYLES], mine[NR__MAX_SERIES];
    nr__palette_phase_colors(fig1_names, n_kept + 1, fig1);
    size_t found = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n_kept; k++)
            if (strcmp(names[i], fig1_names[k]) == 0) {
                mine[i] = fig1[k];
                found++;
                break;
            }
    if (found == n) { /* else not figure 1's phases: their own colours */
        memcpy(colors, mine, n * sizeof *colors);
        *all = all_style(fig1, n_kept);
    }
    return 0;
}

/* One run's series folded as figure 1 folds its phases (l->folded): "all",
 * the phases figure 1 keeps in its colours, the other phases' in its grey,
 * each legend entry with its exact p50 (the folded one's too since session
 * 55: until then read off its histogram, "p50 ≈"). 0, or -1 when out of
 * memory. */
static int fold_series(const nr_figure_inputs *in, const nr_fig_latency_input *l, shown *sh)
{
    const size_t n = l->n_series - 2;
    size_t colors[NR__MAX_SERIES], all;
    if (kept_colors(in, l, n, colors, &all) < 0)
        return -1;
    for (size_t i = 0; i < l->n_series; i++) {
        const nr_fig_latency_series *s = &l->series[i];
        char value[32];
        if (isfinite(s->p50) && s->p50 > 0)
            nr__name_label(sh->names[i], sizeof sh->names[i], s->name ? s->name : "?", " (p50 %s)",
                           nr_render_fmt_seconds(s->p50, value, sizeof value));
        else if (i == n + 1 && s->calls == 0) /* figure 1's other phases, none of them reading */
            nr__name_label(sh->names[i], sizeof sh->names[i], s->name ? s->name : "?", " (no reads)");
        sh->index[i] = i;
    }
    sh->n = l->n_series;
    sh->style[0] = sh->color[0] = all;
    for (size_t i = 0; i < n; i++)
        sh->style[i + 1] = sh->color[i + 1] = colors[i];
    /* "all" and the kept hold the 8 styles: solid with circles, as the
       first (train's blue, or a step's), in grey */
    sh->style[n + 1] = 0;
    sh->color[n + 1] = NR__COLOR_CROWD;
    sh->folded = 1;
    return 0;
}

static int choose_series(const nr_figure_inputs *in, const nr_fig_latency_input *l, shown *sh)
{
    memset(sh, 0, sizeof *sh);
    if (l->phases && l->folded && l->n_series >= 2 && l->n_series <= NR__MAX_SERIES)
        return fold_series(in, l, sh);
    if (l->n_series <= NR_FIG_DISTINCT_RUNS) {
        for (size_t i = 0; i < l->n_series; i++) {
            const nr_fig_latency_series *s = &l->series[i];
            char value[32];
            /* the p50 in words: several series' p50 markers can fall on
               one point (three sample runs at 5 us: review 49) */
            if (isfinite(s->p50) && s->p50 > 0)
                nr__name_label(sh->names[i], sizeof sh->names[i], s->name ? s->name : "?", " (p50 %s)",
                               nr_render_fmt_seconds(s->p50, value, sizeof value));
            sh->index[sh->n] = sh->style[sh->n] = i, sh->n++;
        }
        if (l->phases && l->n_series > 1)
            phase_styles(l, sh);
        memcpy(sh->color, sh->style, sizeof sh->color);
        return 0;
    }
    nr__crowd *cw = &sh->cw;
    if (nr__crowd_init(cw, 2 * l->n_series) < 0)
        return -1;
    for (size_t i = 0; i < l->n_series; i++) {
        const nr_fig_latency_series *s = &l->series[i];
        cw->key[i] = s->p99;
        cw->usable[i] = drawable_series(s) && s->p99 > 0;
        cw->others[i] = drawable_series(s) ? (nr__series){.n = s->n, .x = s->latency_s, .y = s->cdf}
                                           : (nr__series){0};
    }
    sh->n = nr__crowd_pick(cw, l->n_series);
    for (size_t k = 0; k < sh->n; k++) {
        const nr_fig_latency_series *s = &l->series[sh->index[k] = cw->pick[k]];
        char value[32];
        sh->style[k] = sh->color[k] = k;
        nr__name_label(sh->names[k], sizeof sh->names[k], s->name, " (p99 %s, %s)",
                       nr_render_fmt_seconds(s->p99, value, sizeof value), nr__pick_names[cw->which[k]]);
    }
    /* the tail's copies of the runs nr__crowd_others keeps, in run order:
       their P(X >= x), after the room the panel (a) ones may take */
    size_t n_tail = 0;
    for (size_t i = 0; i < l->n_series; i++) {
        const nr_fig_latency_series *s = &l->series[i];
        if (cw->others[i].n > 0 && !nr__crowd_picked(cw, i))
            cw->others[l->n_series + n_tail++] = (nr__series){.n = s->n, .x = s->latency_s,
                                                              .y = s->ccdf ? s->ccdf : s->cdf,
                                                              .y_one_minus = !s->ccdf};
    }
    nr__crowd_others(cw, l->n_series);
    const size_t n = cw->n_others;
    memmove(&cw->others[n], &cw->others[l->n_series], n_tail * sizeof *cw->others);
    snprintf(sh->crowd_name, sizeof sh->crowd_name, "the other %zu", n);
    return 0;
}

static const char *series_name(const nr_fig_latency_input *l, const shown *sh, size_t k)
{
    if (sh->cw.others || sh->names[k][0])
        return sh->names[k];
    return l->series[sh->index[k]].name ? l->series[sh->index[k]].name : "?";
}

/* The place in sh of the j-th series drawn: the folded phases' first,
 * under the others, then the rest in order. */
static size_t drawn(const shown *sh, size_t j)
{
    if (!sh->folded)
        return j;
    return j == 0 ? sh->n - 1 : j - 1;
}

/* The markers of level k: each resolved series' pixel x, style and colour,
 * in xs, style and color (sh->n room), in drawing order; how many. */
static size_t level_markers(const nr__xy *p, const nr_fig_latency_input *l, const shown *sh, size_t k, double *xs,
                            size_t *style, size_t *color)
{
    size_t n = 0;
    for (size_t j = 0; j < sh->n; j++) {
        const size_t i = drawn(sh, j);
        const nr_fig_latency_series *s = &l->series[sh->index[i]];
        const double x = percentile_of(s, k);
        if (x > 0 && isfinite(x) && level_resolved(s, k)) {
            xs[n] = nr__xy_mx(p, x);
            color[n] = sh->color[i];
            style[n++] = sh->style[i];
        }
    }
    return n;
}

static int any_within(const double *xs, size_t n, double radius, double x0, double x1)
{
    for (size_t i = 0; i < n; i++)
        if (xs[i] + radius >= x0 && xs[i] - radius <= x1)
            return 1;
    return 0;
}

int nr__level_name_right(const double *marker_x, size_t n, double radius, double left, double right, double w)
{
    return any_within(marker_x, n, radius, left, left + w) && !any_within(marker_x, n, radius, right - w, right);
}

/* The level's name above its line, at the left end, where the curves
 * reach a level from the right, unless one of its n markers (xs) covers
 * it there and none at the right end (nr__level_name_right; a p50 of 5 us
 * sits at the left edge). */
static void draw_level_name(nr__xy *p, size_t k, double y, const double *xs, size_t n)
{
    nr_render_canvas *cv = p->cv;
    const double size = NR__SMALL_PT(cv);
    double w;
    nr__text_size(cv, levels[k].name, NR__PLAIN, size, &w, NULL);
    const double left = p->px + 2, right = p->px + p->pw - 2;
    if (nr__level_name_right(xs, n, MARKER_SIZE / 2, left, right, w))
        nr__text_draw(cv, levels[k].name, NR__PLAIN, size, right, y - 0.5, 1, 1, 0);
    else
        nr__text_draw(cv, levels[k].name, NR__PLAIN, size, left, y - 0.5, 0, 1, 0);
}

/* Reference lines at the percentile levels and each series' marker on them. */
static void draw_levels(nr__xy *p, const nr_fig_latency_input *l, const shown *sh, int ccdf, size_t n_levels)
{
    nr_render_canvas *cv = p->cv;
    cairo_t *cr = cv->cr;
    cairo_save(cr);
    nr__xy_clip(p);
    for (size_t k = 0; k < n_levels; k++) {
        double yv = ccdf ? 1.0 - levels[k].cdf : levels[k].cdf;
        if (p->y.log && !(yv >= p->y.lo && yv <= p->y.hi))
            continue;
        double y = nr__xy_my(p, yv);
        cairo_set_source_rgb(cr, 0.5, 0.5, 0.5);
        cairo_set_line_width(cr, 0.4);
        const double dash[] = {1, 1.5};
        cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, p->px, y);
        cairo_line_to(cr, p->px + p->pw, y);
        cairo_stroke(cr);
        double xs[NR__MAX_SERIES];
        size_t style[NR__MAX_SERIES], color[NR__MAX_SERIES];
        const size_t n = level_markers(p, l, sh, k, xs, style, color);
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        draw_level_name(p, k, y, xs, n);
        for (size_t i = 0; i < n; i++) {
            nr__set_color(cr, nr__palette_color(color[i]), 1.0);
            nr__draw_marker(cr, style[i], xs[i], y, MARKER_SIZE);
        }
    }
    cairo_restore(cr);
}

static void add_series(nr__xy *p, const nr_fig_latency_input *l, const shown *sh, int ccdf)
{
    for (size_t j = 0; j < sh->n; j++) {
        const size_t i = drawn(sh, j);
        const nr_fig_latency_series *s = &l->series[sh->index[i]];
        if (!drawable_series(s))
            continue;
        nr__xy_add(p, (nr__series){.n = s->n, .x = s->latency_s, .y = ccdf && s->ccdf ? s->ccdf : s->cdf,
                                   .y_one_minus = ccdf && !s->ccdf, .color = sh->color[i], .dash = sh->style[i],
                                   .marker = sh->style[i]});
    }
    const size_t n = sh->cw.n_others;
    if (n)
        nr__xy_set_crowd(p, &sh->cw.others[ccdf ? n : 0], n, NULL);
}

static int draw_panels(nr_render_canvas *cv, const nr_fig_latency_input *l, const shown *sh)
{
    nr__legend lg = {0};
    char title[64];
    snprintf(title, sizeof title, "%s latency:", l->what ? l->what : "I/O");
    lg.title = title;
    for (size_t i = 0; i < sh->n; i++)
        nr__legend_add(&lg, (nr__legend_entry){.label = series_name(l, sh, i), .kind = NR__LEG_LINE,
                                               .color = sh->color[i], .dash = sh->style[i], .marker = sh->style[i],
                                               .has_marker = 1, .line_width = 1.1});
    if (sh->cw.n_others)
        nr__legend_add(&lg, (nr__legend_entry){.label = sh->crowd_name, .kind = NR__LEG_LINE,
                                               .color = NR__COLOR_CROWD, .line_width = NR__CROWD_LINE_WIDTH});
    double top = nr__legend_block(cv, &lg);
    int stacked = cv->width < 400;
    double pw = stacked ? cv->width - 4 : (cv->width - 8) / 2;
    double ph = stacked ? (cv->height - top - 8) / 2 : cv->height - top - 4;

    nr__xy cdf;
    nr__xy_init(&cdf, cv, 2, top + 2, pw, ph);
    cdf.panel_label = "(a) CDF";
    add_series(&cdf, l, sh, 0);
    cdf.x = (nr__axis){.title = "Latency", .unit = NR__UNIT_SECONDS, .log = 1};
    cdf.y = (nr__axis){.title = "P(latency \xe2\x89\xa4 x)", .unit = NR__UNIT_PERCENT};
    if (nr__xy_setup(&cdf, 0, 0, 0, 1))
        return nr__draw_no_data(cv, FIG, "no positive latency");

    nr__xy tail;
    nr__xy_init(&tail, cv, stacked ? 2 : 6 + pw, stacked ? top + 6 + ph : top + 2, pw, ph);
    tail.panel_label = "(b) tail (CCDF)";
    add_series(&tail, l, sh, 1);
    tail.x = cdf.x;
    int at_least = 1; /* every series gives P(X >= x), else some are 1 - P(X <= x) */
    for (size_t i = 0; i < l->n_series; i++)
        at_least &= !drawable_series(&l->series[i]) || l->series[i].ccdf != NULL;
    tail.y = (nr__axis){.title = at_least ? "P(latency \xe2\x89\xa5 x)" : "P(latency > x)", .log = 1,
                        .bound = 1.0}; /* a probability: padded below only */
    if (nr__xy_setup(&tail, 0, 0, 0, 0))
        return nr__draw_no_data(cv, FIG, "no latency above the smallest sample");
    /* Same x range in both panels; the tail reaches down to the p99.9 level. */
    tail.x.lo = cdf.x.lo;
    tail.x.hi = cdf.x.hi;
    tail.y.hi = 1.0;
    tail.y.lo = fmin(tail.y.lo, 0.8e-3);

    nr__legend_draw_flow(cv, &lg, 4, 2, cv->width - 8);
    nr__xy_layout(&cdf);
    nr__xy_draw_axes(&cdf);
    nr__xy_draw_series(&cdf);
    draw_levels(&cdf, l, sh, 0, 1); /* p99 and p99.9 hug the top of a linear scale: see (b) */
    nr__xy_layout(&tail);
    nr__xy_draw_axes(&tail);
    nr__xy_draw_series(&tail);
    draw_levels(&tail, l, sh, 1, 3);
    return 0;
}

int nr__fig_latency_draw(nr_render_canvas *cv, const nr_figure_inputs *in, nr_error *err)
{
    const nr_fig_latency_input *l = in->latency;
    if (!l || l->n_series == 0 || !l->series)
        return nr__draw_no_data(cv, FIG, "no latency samples (trace lacks -T?)");
    shown sh;
    if (choose_series(in, l, &sh) < 0)
        return nr_error_set(err, NR_E_NOMEM, "figure %s: out of memory", FIG);
    const int rc = draw_panels(cv, l, &sh);
    nr__crowd_fini(&sh.cw);
    return rc;
}
