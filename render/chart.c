/* chart: xy panels (lines with markers on linear or log axes), drawn in
 * layers: axes, series, legend; plus the "no data" figure. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_internal.h"

#define TICK_LEN 3.0
#define MINOR_LEN 1.8
#define GAP 2.5

int nr__finite_or_skip(nr_render_canvas *cv, double v)
{
    if (isfinite(v))
        return 1;
    cv->skipped++;
    return 0;
}

void nr__xy_init(nr__xy *p, nr_render_canvas *cv, double x, double y, double w, double h)
{
    memset(p, 0, sizeof *p);
    p->cv = cv;
    p->ox = x;
    p->oy = y;
    p->ow = w;
    p->oh = h;
}

void nr__xy_add(nr__xy *p, nr__series s)
{
    if (p->n_series >= NR__MAX_SERIES)
        return;
    if (s.line_width <= 0)
        s.line_width = 1.1;
    p->s[p->n_series++] = s;
    if (s.name)
        nr__legend_add(&p->legend, (nr__legend_entry){
            .label = s.name, .kind = NR__LEG_LINE, .color = s.color, .dash = s.dash,
            .marker = s.marker, .has_marker = s.markers, .line_width = s.line_width});
}

void nr__xy_set_crowd(nr__xy *p, const nr__series *crowd, size_t n, const char *label)
{
    p->crowd = crowd;
    p->n_crowd = n;
    if (label)
        nr__legend_add(&p->legend, (nr__legend_entry){.label = label, .kind = NR__LEG_LINE,
                                                       .color = NR__COLOR_CROWD, .line_width = NR__CROWD_LINE_WIDTH});
}

/* Series k of the panel's crowd and series, the crowd first. */
static const nr__series *any_series(const nr__xy *p, size_t k)
{
    return k < p->n_crowd ? &p->crowd[k] : &p->s[k - p->n_crowd];
}

static double series_y(const nr__series *s, size_t i)
{
    return s->y_one_minus ? 1.0 - s->y[i] : s->y[i];
}

/* A point is drawable when finite and positive on log axes. */
static int drawable(const nr__xy *p, double x, double y)
{
    if (!isfinite(x) || !isfinite(y))
        return 0;
    if (p->x.log && !(x > 0))
        return 0;
    if (p->y.log && !(y > 0))
        return 0;
    return 1;
}

int nr__xy_setup(nr__xy *p, double xlo, double xhi, double ylo, double yhi)
{
    double dx0 = INFINITY, dx1 = -INFINITY, dy0 = INFINITY, dy1 = -INFINITY;
    size_t points = 0;
    for (size_t k = 0; k < p->n_crowd + p->n_series; k++) {
        const nr__series *s = any_series(p, k);
        for (size_t i = 0; i < s->n; i++) {
            double x = s->x[i], y = series_y(s, i);
            if (!isfinite(x) || !isfinite(y)) {
                p->cv->skipped++;
                continue;
            }
            if (!drawable(p, x, y))
                continue;
            dx0 = fmin(dx0, x);
            dx1 = fmax(dx1, x);
            dy0 = fmin(dy0, y);
            dy1 = fmax(dy1, y);
            points++;
        }
    }
    if (xlo < xhi) {
        dx0 = xlo;
        dx1 = xhi;
        p->x.fixed = 1;
    }
    if (ylo < yhi) {
        dy0 = ylo;
        dy1 = yhi;
        p->y.fixed = 1;
    }
    if (points == 0)
        return 1;
    p->x.lo = dx0;
    p->x.hi = dx1;
    p->y.lo = dy0;
    p->y.hi = dy1;
    return 0;
}

static double max_label_width(nr__xy *p, const nr__axis *a, double size, double *h)
{
    double mw = 0, mh = 0;
    for (size_t i = 0; i < a->n_ticks; i++) {
        if (!a->ticks[i].label[0])
            continue;
        double w, th;
        nr__text_size(p->cv, a->ticks[i].label, a->ticks[i].markup, size, &w, &th);
        mw = fmax(mw, w);
        mh = fmax(mh, th);
    }
    if (h)
        *h = mh;
    return mw;
}

/* Counts sampled data points of all series inside a rectangle. */
static size_t points_inside(const nr__xy *p, double rx, double ry, double rw, double rh)
{
    size_t count = 0;
    for (size_t k = 0; k < p->n_crowd + p->n_series; k++) {
        const nr__series *s = any_series(p, k);
        double lx = NAN, ly = NAN;
        for (size_t i = 0; i < s->n; i++) {
            double x = s->x[i], y = series_y(s, i);
            if (!drawable(p, x, y)) {
                lx = NAN;
                continue;
            }
            double dx = nr__xy_mx(p, x), dy = nr__xy_my(p, y);
            int steps = 1;
            if (isfinite(lx)) {
                double len = hypot(dx - lx, dy - ly);
                steps = (int)fmin(200, ceil(len / 2.0));
                if (steps < 1)
                    steps = 1;
            }
            for (int j = 1; j <= steps; j++) {
                double t = (double)j / steps;
                double sx = isfinite(lx) ? lx + t * (dx - lx) : dx;
                double sy = isfinite(lx) ? ly + t * (dy - ly) : dy;
                if (sx >= rx && sx <= rx + rw && sy >= ry && sy <= ry + rh)
                    count++;
            }
            lx = dx;
            ly = dy;
        }
    }
    return count;
}

/* One layout pass for a given top reserve; sets plot area and axes. */
static void layout_pass(nr__xy *p, double top_reserve, double dx0, double dx1, double dy0, double dy1)
{
    nr_render_canvas *cv = p->cv;
    double fs = cv->font_size, ls = fs - 0.5;
    double title_h;
    nr__text_size(cv, "Xy", NR__PLAIN, fs, NULL, &title_h);
    double label_h;
    nr__text_size(cv, "0", NR__PLAIN, ls, NULL, &label_h);
    /* First guess of the plot area, refined once with real label widths. */
    double left = title_h + GAP + 24 + TICK_LEN + GAP, right = 8;
    double top = top_reserve + label_h / 2 + 2;
    double bottom = TICK_LEN + GAP + label_h * 1.3 + (p->hide_x_title ? 0 : GAP + title_h);
    p->x.label_pt = p->y.label_pt = ls;
    for (int pass = 0; pass < 2; pass++) {
        p->px = p->ox + left;
        p->py = p->oy + top;
        p->pw = fmax(20, p->ow - left - right);
        p->ph = fmax(20, p->oh - top - bottom);
        nr__axis_setup(&p->x, dx0, dx1, (int)fmax(2, p->pw / 34));
        nr__axis_setup(&p->y, dy0, dy1, (int)fmax(2, p->ph / 20));
        double xlab_w = max_label_width(p, &p->x, ls, NULL);
        /* Widen the x spacing if labels would touch. */
        if (p->x.n_ticks > 1 && !p->x.log) {
            size_t majors = 0;
            for (size_t i = 0; i < p->x.n_ticks; i++)
                majors += p->x.ticks[i].major;
            if (majors > 1 && (xlab_w + 6) * majors > p->pw)
                nr__axis_setup(&p->x, dx0, dx1, (int)fmax(2, p->pw / (xlab_w + 8)));
        }
        double ylab_w = max_label_width(p, &p->y, ls, NULL);
        left = fmax(p->min_left, title_h + GAP + ylab_w + TICK_LEN + GAP);
        right = fmax(6, xlab_w / 2 + 1);
    }
    p->x.p0 = p->px;
    p->x.p1 = p->px + p->pw;
    p->y.p0 = p->py + p->ph;
    p->y.p1 = p->py;
}

void nr__xy_layout(nr__xy *p)
{
    nr_render_canvas *cv = p->cv;
    double dx0 = p->x.lo, dx1 = p->x.hi, dy0 = p->y.lo, dy1 = p->y.hi;
    double label_h = 0;
    if (p->panel_label)
        nr__text_size(cv, p->panel_label, NR__PLAIN, cv->font_size, NULL, &label_h);
    layout_pass(p, label_h, dx0, dx1, dy0, dy1);
    p->legend_outside = 0;
    if (p->legend.n == 0)
        return;
    double lw, lh;
    nr__legend_size_column(cv, &p->legend, &lw, &lh);
    if (lw < p->pw * 0.7 && lh < p->ph * 0.8) {
        /* Emptiest corner: fewest sampled data points under the box. */
        const double inset = 3;
        const double cx[4] = {p->px + inset, p->px + p->pw - lw - inset, p->px + p->pw - lw - inset, p->px + inset};
        const double cy[4] = {p->py + inset, p->py + inset, p->py + p->ph - lh - inset, p->py + p->ph - lh - inset};
        size_t best = 0, best_count = (size_t)-1;
        for (size_t c = 0; c < 4; c++) {
            size_t n = points_inside(p, cx[c] - 2, cy[c] - 2, lw + 4, lh + 4);
            if (n < best_count) {
                best_count = n;
                best = c;
            }
        }
        if (best_count == 0) {
            p->legend_x = cx[best];
            p->legend_y = cy[best];
            return;
        }
    }
    /* No free corner: the legend goes above the plot. */
    double fh = nr__legend_height_flow(cv, &p->legend, p->ow - 4);
    p->legend_outside = 1;
    p->legend_x = p->ox + 2;
    p->legend_y = p->oy + label_h + (label_h > 0 ? 2 : 0);
    layout_pass(p, label_h + fh + 6, dx0, dx1, dy0, dy1);
}

double nr__xy_mx(const nr__xy *p, double x)
{
    return nr__axis_map(&p->x, x);
}

double nr__xy_my(const nr__xy *p, double y)
{
    return nr__axis_map(&p->y, y);
}

void nr__xy_clip(const nr__xy *p)
{
    /* One point of slack: a line on the range end is not cut in half. */
    cairo_rectangle(p->cv->cr, p->px - 1, p->py - 1, p->pw + 2, p->ph + 2);
    cairo_clip(p->cv->cr);
}

void nr__draw_panel_label(nr_render_canvas *cv, const char *label, double x, double y)
{
    cairo_save(cv->cr);
    cairo_set_source_rgb(cv->cr, 0, 0, 0);
    nr__text_draw_max(cv, label, NR__PLAIN, cv->font_size, cv->width - x - 2, x, y, 0, 0, 0);
    cairo_restore(cv->cr);
}

void nr__xy_draw_axes(nr__xy *p)
{
    nr_render_canvas *cv = p->cv;
    cairo_t *cr = cv->cr;
    double ls = cv->font_size - 0.5;
    cairo_save(cr);
    cairo_set_line_width(cr, 0.35);
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    for (size_t i = 0; i < p->x.n_ticks; i++)
        if (p->x.ticks[i].major) {
            double x = nr__xy_mx(p, p->x.ticks[i].v);
            cairo_move_to(cr, x, p->py);
            cairo_line_to(cr, x, p->py + p->ph);
        }
    for (size_t i = 0; i < p->y.n_ticks; i++)
        if (p->y.ticks[i].major) {
            double y = nr__xy_my(p, p->y.ticks[i].v);
            cairo_move_to(cr, p->px, y);
            cairo_line_to(cr, p->px + p->pw, y);
        }
    cairo_stroke(cr);

    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    cairo_set_line_width(cr, 0.6);
    cairo_rectangle(cr, p->px, p->py, p->pw, p->ph);
    cairo_stroke(cr);
    double max_ylab = 0;
    for (size_t i = 0; i < p->x.n_ticks; i++) {
        const nr__tick *t = &p->x.ticks[i];
        double x = nr__xy_mx(p, t->v), len = t->major ? TICK_LEN : MINOR_LEN;
        cairo_move_to(cr, x, p->py + p->ph);
        cairo_line_to(cr, x, p->py + p->ph + len);
        cairo_stroke(cr);
        if (t->label[0])
            nr__text_draw(cv, t->label, t->markup, ls, x, p->py + p->ph + TICK_LEN + GAP, 0.5, 0, 0);
    }
    for (size_t i = 0; i < p->y.n_ticks; i++) {
        const nr__tick *t = &p->y.ticks[i];
        double y = nr__xy_my(p, t->v), len = t->major ? TICK_LEN : MINOR_LEN;
        cairo_move_to(cr, p->px, y);
        cairo_line_to(cr, p->px - len, y);
        cairo_stroke(cr);
        if (t->label[0]) {
            double w;
            nr__text_size(cv, t->label, t->markup, ls, &w, NULL);
            max_ylab = fmax(max_ylab, w);
            nr__text_draw(cv, t->label, t->markup, ls, p->px - TICK_LEN - GAP, y, 1, 0.5, 0);
        }
    }
    char title[160];
    double label_h;
    nr__text_size(cv, "0", NR__PLAIN, ls, NULL, &label_h);
    nr__axis_title(&p->x, title, sizeof title);
    if (!p->hide_x_title)
        nr__text_draw(cv, title, NR__PLAIN, cv->font_size, p->px + p->pw / 2,
                      p->py + p->ph + TICK_LEN + GAP + label_h * 1.3 + GAP, 0.5, 0, 0);
    nr__axis_title(&p->y, title, sizeof title);
    nr__text_draw(cv, title, NR__PLAIN, cv->font_size, p->px - TICK_LEN - GAP - max_ylab - GAP,
                  p->py + p->ph / 2, 0.5, 1, 90);
    cairo_restore(cr);
    if (p->panel_label)
        nr__draw_panel_label(cv, p->panel_label, p->ox, p->oy);
}

/* Strokes one series as polylines (broken at undrawable points), dropping
 * points closer than a quarter point to the last one drawn. */
static void stroke_series(nr__xy *p, const nr__series *s)
{
    cairo_t *cr = p->cv->cr;
    int open = 0;
    double lx = 0, ly = 0;
    for (size_t i = 0; i < s->n; i++) {
        double x = s->x[i], y = series_y(s, i);
        if (!drawable(p, x, y)) {
            open = 0;
            continue;
        }
        double dx = nr__xy_mx(p, x), dy = nr__xy_my(p, y);
        if (!open) {
            cairo_move_to(cr, dx, dy);
            open = 1;
        } else if (hypot(dx - lx, dy - ly) >= 0.25 || i + 1 == s->n) {
            cairo_line_to(cr, dx, dy);
        } else {
            continue;
        }
        lx = dx;
        ly = dy;
    }
    cairo_stroke(cr);
}

static size_t drawable_count(const nr__xy *p, const nr__series *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += (size_t)drawable(p, s->x[i], series_y(s, i));
    return n;
}

/* A series of this many drawable points or fewer has a marker on each:
 * markers spaced along its path would stand where it has no data (a CCDF
 * of 3 files showed markers at 1 KB and 30 KB, between its points). */
#define MARK_EVERY_POINT_MAX 12

static void mark_every_point(nr__xy *p, const nr__series *s)
{
    for (size_t i = 0; i < s->n; i++) {
        double x = s->x[i], y = series_y(s, i);
        if (drawable(p, x, y))
            nr__draw_marker(p->cv->cr, s->marker, nr__xy_mx(p, x), nr__xy_my(p, y), 4.5);
    }
}

/* Markers on the data points of a short series; on a long one, spaced
 * evenly along the drawn path, offset per series, to tell the series apart. */
static void mark_series(nr__xy *p, const nr__series *s, size_t index)
{
    if (drawable_count(p, s) <= MARK_EVERY_POINT_MAX) {
        mark_every_point(p, s);
        return;
    }
    cairo_t *cr = p->cv->cr;
    double total = 0, lx = NAN, ly = NAN;
    for (size_t i = 0; i < s->n; i++) {
        double x = s->x[i], y = series_y(s, i);
        if (!drawable(p, x, y))
            continue;
        double dx = nr__xy_mx(p, x), dy = nr__xy_my(p, y);
        if (isfinite(lx))
            total += hypot(dx - lx, dy - ly);
        lx = dx;
        ly = dy;
    }
    const int count = 5;
    double spacing = total / count;
    if (!(spacing > 0)) {
        mark_every_point(p, s); /* all on one spot */
        return;
    }
    double next = spacing * (0.2 + 0.6 * fmod(index * 0.37, 1.0)), run = 0;
    lx = NAN;
    for (size_t i = 0; i < s->n && next <= total; i++) {
        double x = s->x[i], y = series_y(s, i);
        if (!drawable(p, x, y))
            continue;
        double dx = nr__xy_mx(p, x), dy = nr__xy_my(p, y);
        if (isfinite(lx)) {
            double seg = hypot(dx - lx, dy - ly);
            while (seg > 0 && run + seg >= next && next <= total) {
                double t = (next - run) / seg;
                nr__draw_marker(cr, s->marker, lx + t * (dx - lx), ly + t * (dy - ly), 4.5);
                next += spacing;
            }
            run += seg;
        }
        lx = dx;
        ly = dy;
    }
}

void nr__xy_draw_series(nr__xy *p)
{
    cairo_t *cr = p->cv->cr;
    cairo_save(cr);
    nr__xy_clip(p);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    nr__set_color(cr, nr__palette_color(NR__COLOR_CROWD), 1.0);
    cairo_set_line_width(cr, NR__CROWD_LINE_WIDTH);
    cairo_set_dash(cr, NULL, 0, 0);
    for (size_t k = 0; k < p->n_crowd; k++)
        stroke_series(p, &p->crowd[k]);
    for (size_t k = 0; k < p->n_series; k++) {
        const nr__series *s = &p->s[k];
        nr__set_color(cr, nr__palette_color(s->color), 1.0);
        cairo_set_line_width(cr, s->line_width);
        nr__set_dash(cr, s->dash, s->line_width);
        stroke_series(p, s);
        if (s->markers || drawable_count(p, s) == 1)
            mark_series(p, s, k);
    }
    cairo_restore(cr);
}

void nr__xy_draw_legend(nr__xy *p)
{
    if (p->legend.n == 0)
        return;
    if (p->legend_outside)
        nr__legend_draw_flow(p->cv, &p->legend, p->legend_x, p->legend_y, p->ow - 4);
    else
        nr__legend_draw_column(p->cv, &p->legend, p->legend_x, p->legend_y);
}

int nr__draw_no_data(nr_render_canvas *cv, const char *figure, const char *reason)
{
    cairo_t *cr = cv->cr;
    cairo_save(cr);
    cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
    cairo_set_line_width(cr, 0.6);
    const double dash[] = {3, 2};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_rectangle(cr, 4, 4, cv->width - 8, cv->height - 8);
    cairo_stroke(cr);
    char msg[512];
    snprintf(msg, sizeof msg, "no data: %s", reason);
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    if (figure)
        nr__text_draw(cv, figure, NR__PLAIN, cv->font_size, cv->width / 2, cv->height / 2 - 2, 0.5, 1, 0);
    nr__text_draw(cv, msg, NR__PLAIN, cv->font_size, cv->width / 2, cv->height / 2 + 2, 0.5, 0, 0);
    cairo_restore(cr);
    return 0;
}

void nr__draw_note(nr_render_canvas *cv, const char *note)
{
    cairo_save(cv->cr);
    cairo_set_source_rgb(cv->cr, 0.35, 0.35, 0.35);
    nr__text_draw(cv, note, NR__PLAIN, NR__SMALL_PT(cv), cv->width - 2, cv->height - 1, 1, 1, 0);
    cairo_restore(cv->cr);
}
