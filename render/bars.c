/* bars: one categorical panel of stacked or side-by-side bars with a value
 * axis; the legend of the segments is drawn by the figure. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

#define TICK_LEN 3.0
#define GAP 2.5

static double value(const nr__bars *b, size_t c, size_t s)
{
    double v = b->v[c * b->n_seg + s];
    if (!nr__finite_or_skip(b->cv, v))
        return 0.0;
    return v > 0 ? v : 0.0;
}

static double category_total(const nr__bars *b, size_t c)
{
    double t = 0;
    for (size_t s = 0; s < b->n_seg; s++) {
        double v = b->v[c * b->n_seg + s];
        t += isfinite(v) && v > 0 ? v : 0;
    }
    return t;
}

/* The longest a rotated category label may be: at 45 degrees from the first
 * category's centre cx0, its box stays right of the panel's left edge, and
 * the labels take at most half of the height avail left for the plot and
 * them (long run names: cut in the middle with an ellipsis, not run off the
 * canvas with the bars squashed to a strip). At least 4 lines' height. */
static double label_max_len(const nr__bars *b, double cx0, double avail, double mh)
{
    double by_width = (cx0 - b->ox) * M_SQRT2 - mh / 2;
    double by_height = avail / 2 * M_SQRT2 - mh;
    return fmax(4 * mh, fmin(by_width, by_height));
}

/* Bytes of the start every category name shares, cut back to just after
 * a separator ('_', '-', '.', ' ', '/'; 0 without one): what a long name
 * drops first. Cut in the middle alone, names that differ only there
 * ("vit-b16_imagenet1k_bs256_4nodes_lustre_run03" and "..._nvme_run03")
 * read the same ("vit-b16..._run03"). */
static size_t shared_start(const nr__bars *b)
{
    if (b->n_cat < 2 || !b->cat_names[0])
        return 0;
    size_t n = strlen(b->cat_names[0]);
    for (size_t c = 1; c < b->n_cat && n; c++) {
        const char *s = b->cat_names[c] ? b->cat_names[c] : "";
        size_t k = 0;
        while (k < n && s[k] == b->cat_names[0][k])
            k++;
        n = k;
    }
    while (n && !strchr("_-. /", b->cat_names[0][n - 1]))
        n--;
    return n;
}

/* Draws category label name rotated, at most max_len long: without the
 * start all names share (an ellipsis in its place) when it is too long,
 * then cut in its middle if still too long. */
static void draw_rotated_label(nr_render_canvas *cv, const char *name, size_t shared, double size, double max_len,
                               double cx, double cy)
{
    double w, h;
    nr__text_size(cv, name, NR__PLAIN, size, &w, &h);
    char *rest = shared && w > max_len ? malloc(strlen(name + shared) + sizeof "\xe2\x80\xa6") : NULL;
    if (rest) {
        strcpy(rest, "\xe2\x80\xa6");
        strcat(rest, name + shared);
    }
    nr__text_draw_max(cv, rest ? rest : name, NR__PLAIN, size, max_len, cx, cy, 1, 0.5, 45);
    free(rest);
}

/* Height of the category labels, rotated when they do not fit their slot
 * (at most *max_len long then, else *max_len = 0); *every: label every k-th
 * category, where rotated labels of every slot would overlap (a hundred
 * runs). The first category's centre is cx0; avail as label_max_len. */
static double category_labels_height(const nr__bars *b, double slot, double cx0, double avail, double size,
                                     int *rotate, double *max_len, size_t *every)
{
    double mw = 0, mh = 0;
    for (size_t c = 0; c < b->n_cat; c++) {
        double w, h;
        nr__text_size(b->cv, b->cat_names[c] ? b->cat_names[c] : "", NR__PLAIN, size, &w, &h);
        mw = fmax(mw, w);
        mh = fmax(mh, h);
    }
    *rotate = mw > slot * 0.95;
    *max_len = 0;
    if (*rotate) {
        *max_len = label_max_len(b, cx0, avail, mh);
        mw = fmin(mw, *max_len);
    }
    /* at 45 degrees, neighbours stand slot / sqrt(2) apart across the text */
    *every = *rotate ? (size_t)fmax(1, ceil(mh * 1.1 / (slot * M_SQRT1_2))) : 1;
    return *rotate ? (mw + mh) * M_SQRT1_2 : mh;
}

/* The value the axis must reach: the tallest bar of a group, else the
 * largest stack (1 for a normalized one that holds anything). */
static double bars_value_max(const nr__bars *b)
{
    double vmax = 0;
    for (size_t c = 0; c < b->n_cat; c++) {
        if (b->grouped) {
            for (size_t s = 0; s < b->n_seg; s++)
                vmax = fmax(vmax, value(b, c, s));
        } else {
            double t = category_total(b, c);
            vmax = fmax(vmax, b->normalize ? (t > 0 ? 1.0 : 0.0) : t);
        }
    }
    return vmax;
}

/* Where the plot and its category labels go. */
typedef struct bars_layout {
    double px, py, pw, ph; /* the plot's box */
    int rotate;            /* category_labels_height's answers */
    double max_len;
    size_t every;
} bars_layout;

/* Lays the panel out and sets the value axis up to vmax: twice, since the
 * width of the tick labels, which the first pass's axis gives, moves the
 * plot's left edge. */
static bars_layout bars_lay_out(nr__bars *b, double vmax, int all_zero, double label_h, double title_h)
{
    nr_render_canvas *cv = b->cv;
    const double fs = cv->font_size, ls = fs - 0.5;
    double top = label_h + 6, left = title_h + 30, right = 4;
    bars_layout L = {.py = b->oy + top, .every = 1};
    for (int pass = 0; pass < 2; pass++) {
        L.px = b->ox + left;
        L.pw = fmax(20, b->ow - left - right);
        double xt_h = 0;
        if (b->x_title)
            nr__text_size(cv, b->x_title, NR__PLAIN, fs, NULL, &xt_h);
        double avail = b->oh - top - TICK_LEN - GAP - 2 - (xt_h > 0 ? xt_h + GAP : 0);
        double slot = L.pw / (double)b->n_cat;
        double cat_h = category_labels_height(b, slot, L.px + slot / 2, avail, ls, &L.rotate, &L.max_len, &L.every);
        L.ph = fmax(20, avail - cat_h);
        b->y.label_pt = ls;
        nr__axis_setup(&b->y, 0, all_zero ? 1.0 : vmax, (int)fmax(2, L.ph / 18));
        double mw = 0;
        for (size_t i = 0; i < b->y.n_ticks; i++) {
            double w;
            nr__text_size(cv, b->y.ticks[i].label, b->y.ticks[i].markup, ls, &w, NULL);
            mw = fmax(mw, w);
        }
        left = title_h + GAP + mw + TICK_LEN + GAP;
    }
    b->y.p0 = L.py + L.ph;
    b->y.p1 = L.py;
    return L;
}

/* The grid, the value axis with its ticks, labels and title, and the
 * category axis's line. */
static void draw_value_axis(const nr__bars *b, const bars_layout *L)
{
    nr_render_canvas *cv = b->cv;
    cairo_t *cr = cv->cr;
    const double fs = cv->font_size, ls = fs - 0.5;
    cairo_set_line_width(cr, 0.35);
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    for (size_t i = 0; i < b->y.n_ticks; i++) {
        double y = nr__axis_map(&b->y, b->y.ticks[i].v);
        cairo_move_to(cr, L->px, y);
        cairo_line_to(cr, L->px + L->pw, y);
    }
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    cairo_set_line_width(cr, 0.6);
    double max_lab = 0;
    for (size_t i = 0; i < b->y.n_ticks; i++) {
        double y = nr__axis_map(&b->y, b->y.ticks[i].v), w;
        cairo_move_to(cr, L->px, y);
        cairo_line_to(cr, L->px - TICK_LEN, y);
        cairo_stroke(cr);
        nr__text_size(cv, b->y.ticks[i].label, b->y.ticks[i].markup, ls, &w, NULL);
        max_lab = fmax(max_lab, w);
        nr__text_draw(cv, b->y.ticks[i].label, b->y.ticks[i].markup, ls, L->px - TICK_LEN - GAP, y, 1, 0.5, 0);
    }
    cairo_move_to(cr, L->px, L->py);
    cairo_line_to(cr, L->px, L->py + L->ph);
    cairo_line_to(cr, L->px + L->pw, L->py + L->ph);
    cairo_stroke(cr);
    char title[160];
    nr__axis_title(&b->y, title, sizeof title);
    nr__text_draw(cv, title, NR__PLAIN, fs, L->px - TICK_LEN - GAP - max_lab - GAP, L->py + L->ph / 2, 0.5, 1, 90);
}

/* Category c's bars, bar_w wide from x0: side by side in a group, else
 * stacked (as shares of the stack when normalized). */
static void draw_category_bars(const nr__bars *b, size_t c, double x0, double bar_w)
{
    cairo_t *cr = b->cv->cr;
    double total = category_total(b, c);
    double acc = 0;
    for (size_t s = 0; s < b->n_seg; s++) {
        double v = value(b, c, s);
        size_t color = b->seg_color ? b->seg_color[s] : s;
        size_t hatch = b->seg_hatch ? b->seg_hatch[s] : s;
        if (b->grouped) {
            double w = bar_w / (double)b->n_seg;
            double y1 = nr__axis_map(&b->y, v), y0 = nr__axis_map(&b->y, 0);
            nr__fill_swatch(cr, color, hatch, x0 + w * s, y1, w * 0.92, y0 - y1);
        } else {
            if (b->normalize)
                v = total > 0 ? v / total : 0;
            double y0 = nr__axis_map(&b->y, acc), y1 = nr__axis_map(&b->y, acc + v);
            nr__fill_swatch(cr, color, hatch, x0, y1, bar_w, y0 - y1);
            acc += v;
        }
    }
}

/* Category c's name below its slot, rotated where L says so. */
static void draw_category_label(const nr__bars *b, const bars_layout *L, size_t c, size_t shared)
{
    nr_render_canvas *cv = b->cv;
    const double ls = cv->font_size - 0.5, slot = L->pw / (double)b->n_cat;
    cairo_set_source_rgb(cv->cr, 0.15, 0.15, 0.15);
    double cx = L->px + slot * (c + 0.5), cy = L->py + L->ph + TICK_LEN + GAP;
    const char *name = b->cat_names[c] ? b->cat_names[c] : "";
    if (L->rotate)
        draw_rotated_label(cv, name, shared, ls, L->max_len, cx, cy);
    else
        nr__text_draw(cv, name, NR__PLAIN, ls, cx, cy, 0.5, 0, 0);
}

int nr__bars_draw(nr__bars *b)
{
    nr_render_canvas *cv = b->cv;
    cairo_t *cr = cv->cr;
    const double fs = cv->font_size;
    double vmax = bars_value_max(b);
    int all_zero = !(vmax > 0);
    b->y.include_zero = 1;
    if (b->normalize) {
        b->y.fixed = 1;
        vmax = 1.0;
    }
    double label_h = 0, title_h;
    if (b->panel_label)
        nr__text_size(cv, b->panel_label, NR__PLAIN, fs, NULL, &label_h);
    nr__text_size(cv, "Xy", NR__PLAIN, fs, NULL, &title_h);
    const size_t shared = shared_start(b);
    const bars_layout L = bars_lay_out(b, vmax, all_zero, label_h, title_h);

    cairo_save(cr);
    draw_value_axis(b, &L);
    double slot = L.pw / (double)b->n_cat;
    double bar_w = fmin(slot * 0.7, 40.0); /* one run: a bar, not a wall */
    for (size_t c = 0; c < b->n_cat; c++) {
        draw_category_bars(b, c, L.px + slot * c + (slot - bar_w) / 2, bar_w);
        if (c % L.every == 0)
            draw_category_label(b, &L, c, shared);
    }
    if (b->x_title) {
        cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
        nr__text_draw(cv, b->x_title, NR__PLAIN, fs, L.px + L.pw / 2, b->oy + b->oh, 0.5, 1, 0);
    }
    cairo_restore(cr);
    if (b->panel_label)
        nr__draw_panel_label(cv, b->panel_label, b->ox, b->oy);
    return all_zero;
}
