/* legend: keys for lines, markers and filled swatches, in one column (inside
 * a plot corner) or flowed in rows (above the plots). */
#include <math.h>

#include "render_internal.h"

#define KEY_W 16.0
#define KEY_GAP 3.0
#define ROW_GAP 1.5
#define COL_GAP 8.0
#define PAD 3.0

void nr__legend_add(nr__legend *lg, nr__legend_entry e)
{
    if (lg->n < NR__MAX_LEGEND)
        lg->e[lg->n++] = e;
}

static double text_size(const nr_render_canvas *cv)
{
    return cv->font_size - 0.5;
}

/* The widest an entry's text may be: a legend flowed across the canvas
 * still fits on it (a run's name of 200 characters is cut in the middle
 * with an ellipsis rather than at the canvas's edge). */
static double label_max_w(const nr_render_canvas *cv)
{
    return cv->width - 8 - KEY_W - KEY_GAP - 2 * PAD;
}

static void entry_size(nr_render_canvas *cv, const nr__legend_entry *e, double *w, double *h)
{
    double tw, th;
    nr__text_size_max(cv, e->label ? e->label : "", NR__PLAIN, text_size(cv), label_max_w(cv), &tw, &th);
    *w = KEY_W + KEY_GAP + tw;
    *h = th;
}

static void draw_key(nr_render_canvas *cv, const nr__legend_entry *e, double x, double cy)
{
    if (e->kind == NR__LEG_TEXT)
        return;
    cairo_t *cr = cv->cr;
    cairo_save(cr);
    nr__set_color(cr, nr__palette_color(e->color), 1.0);
    if (e->kind == NR__LEG_SWATCH) {
        nr__fill_swatch(cr, e->color, e->hatch, x + 2, cy - 3.5, KEY_W - 4, 7);
    } else if (e->kind == NR__LEG_TINT) {
        nr__fill_tint(cr, e->color, x + 2, cy - 3.5, KEY_W - 4, 7);
        nr__set_color(cr, nr__palette_color(e->color), 0.6);
        cairo_set_line_width(cr, 0.4);
        cairo_rectangle(cr, x + 2, cy - 3.5, KEY_W - 4, 7);
        cairo_stroke(cr);
    } else {
        if (e->kind == NR__LEG_LINE) {
            cairo_set_line_width(cr, e->line_width > 0 ? e->line_width : 1.2);
            nr__set_dash(cr, e->dash, e->line_width > 0 ? e->line_width : 1.2);
            cairo_move_to(cr, x, cy);
            cairo_line_to(cr, x + KEY_W, cy);
            cairo_stroke(cr);
        }
        if (e->has_marker || e->kind == NR__LEG_MARKER)
            nr__draw_marker(cr, e->marker, x + KEY_W / 2, cy, 4.5);
    }
    cairo_restore(cr);
}

static void draw_entry(nr_render_canvas *cv, const nr__legend_entry *e, double x, double y, double h)
{
    draw_key(cv, e, x, y + h / 2);
    cairo_set_source_rgb(cv->cr, 0.1, 0.1, 0.1);
    nr__text_draw_max(cv, e->label ? e->label : "", NR__PLAIN, text_size(cv), label_max_w(cv), x + KEY_W + KEY_GAP,
                      y, 0, 0, 0);
}

void nr__legend_size_column(nr_render_canvas *cv, const nr__legend *lg, double *w, double *h)
{
    double mw = 0, th = 0;
    if (lg->title) {
        nr__text_size(cv, lg->title, NR__PLAIN, text_size(cv), &mw, &th);
        th += ROW_GAP;
    }
    for (size_t i = 0; i < lg->n; i++) {
        double ew, eh;
        entry_size(cv, &lg->e[i], &ew, &eh);
        mw = fmax(mw, ew);
        th += eh + (i + 1 < lg->n ? ROW_GAP : 0);
    }
    *w = mw + 2 * PAD;
    *h = th + 2 * PAD;
}

void nr__legend_draw_column(nr_render_canvas *cv, const nr__legend *lg, double x, double y)
{
    double w, h;
    nr__legend_size_column(cv, lg, &w, &h);
    cairo_t *cr = cv->cr;
    cairo_save(cr);
    cairo_rectangle(cr, x, y, w, h);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.75, 0.75, 0.75);
    cairo_set_line_width(cr, 0.4);
    cairo_stroke(cr);
    double cy = y + PAD;
    if (lg->title) {
        double tw, th;
        nr__text_size(cv, lg->title, NR__PLAIN, text_size(cv), &tw, &th);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        nr__text_draw(cv, lg->title, NR__PLAIN, text_size(cv), x + PAD, cy, 0, 0, 0);
        cy += th + ROW_GAP;
    }
    for (size_t i = 0; i < lg->n; i++) {
        double ew, eh;
        entry_size(cv, &lg->e[i], &ew, &eh);
        draw_entry(cv, &lg->e[i], x + PAD, cy, eh);
        cy += eh + ROW_GAP;
    }
    cairo_restore(cr);
}

/* Walks the flowed layout; draws when draw is non-zero. Returns the height. */
static double flow(nr_render_canvas *cv, const nr__legend *lg, double x, double y, double w, int draw)
{
    double cx = 0, cy = 0, row_h = 0;
    if (lg->title) {
        double tw, th;
        nr__text_size(cv, lg->title, NR__PLAIN, text_size(cv), &tw, &th);
        if (draw) {
            cairo_set_source_rgb(cv->cr, 0.1, 0.1, 0.1);
            nr__text_draw(cv, lg->title, NR__PLAIN, text_size(cv), x, y, 0, 0, 0);
        }
        cx = tw + COL_GAP;
        row_h = th;
    }
    for (size_t i = 0; i < lg->n; i++) {
        double ew, eh;
        entry_size(cv, &lg->e[i], &ew, &eh);
        if (cx > 0 && cx + ew > w) {
            cy += row_h + ROW_GAP;
            cx = 0;
            row_h = 0;
        }
        if (draw)
            draw_entry(cv, &lg->e[i], x + cx, y + cy, eh);
        cx += ew + COL_GAP;
        row_h = fmax(row_h, eh);
    }
    return lg->n || lg->title ? cy + row_h : 0;
}

double nr__legend_height_flow(nr_render_canvas *cv, const nr__legend *lg, double w)
{
    return flow(cv, lg, 0, 0, w, 0);
}

void nr__legend_draw_flow(nr_render_canvas *cv, const nr__legend *lg, double x, double y, double w)
{
    cairo_save(cv->cr);
    flow(cv, lg, x, y, w, 1);
    cairo_restore(cv->cr);
}

double nr__legend_block(nr_render_canvas *cv, const nr__legend *lg)
{
    double h = nr__legend_height_flow(cv, lg, cv->width - 8);
    return h > 0 ? h + 6 : 0;
}
