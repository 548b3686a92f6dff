/* render_internal: the chart layer under the figures (nr__ prefix: internal
 * to render/ and its tests). Coordinates are points, origin top-left. */
#ifndef RENDER_INTERNAL_H
#define RENDER_INTERNAL_H

#include <cairo.h>
#include <pango/pangocairo.h>
#include <stddef.h>

#include "nr_render.h"

#define NR__FONT_FAMILY "DejaVu Sans"

/* The canvas a figure draws on. Borrows cr; owns pango. */
struct nr_render_canvas {
    cairo_t *cr;
    PangoContext *pango;
    double width, height; /* pt */
    double font_size;     /* base text size, pt */
    unsigned long skipped; /* non-finite values left out of the drawing */
};

/* ---- text.c ---------------------------------------------------------------- */

/* The process-wide font map restricted to the DejaVu Sans files (see
 * docs/figures.md). Created on first use and kept for the process lifetime. */
int nr__fontmap_get(PangoFontMap **out, nr_error *err);
/* Binds a canvas to cr (borrowed) with the fixed font map and font options. */
int nr__canvas_init(nr_render_canvas *cv, cairo_t *cr, double width, double height, nr_error *err);
void nr__canvas_fini(nr_render_canvas *cv);

/* Text is plain (names from the data) or pango markup (our own labels). */
enum { NR__PLAIN = 0, NR__MARKUP = 1 };

/* Logical size of s at size pt. */
void nr__text_size(nr_render_canvas *cv, const char *s, int markup, double size,
                   double *w, double *h);
/* Draws s with its box anchored at (x, y): ha/va are fractions of the box
 * (0 left/top, 0.5 centre, 1 right/bottom), the box rotated by angle_deg
 * (counter-clockwise positive) around the anchor. Uses the current colour. */
void nr__text_draw(nr_render_canvas *cv, const char *s, int markup, double size,
                   double x, double y, double ha, double va, double angle_deg);
/* The same for a text at most max_w wide (max_w <= 0: no limit): a longer
 * one is drawn with its middle replaced by an ellipsis (run names: the full
 * names are in figures.json). */
void nr__text_size_max(nr_render_canvas *cv, const char *s, int markup, double size, double max_w,
                       double *w, double *h);
void nr__text_draw_max(nr_render_canvas *cv, const char *s, int markup, double size, double max_w,
                       double x, double y, double ha, double va, double angle_deg);
/* The size of a legend's label buffer: a run's name of up to about 230
 * bytes whole (the drawing cuts it to the canvas, nr__text_draw_max). */
#define NR__LABEL_CAP 256
/* A legend's label: name (NULL: "?") then the suffix printed by fmt, in
 * buf (cap bytes): where both do not fit, the name is cut at a character's
 * end with an ellipsis, so that the suffix ("(Gini 0.61)") stays. */
void nr__name_label(char *buf, size_t cap, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- palette.c ------------------------------------------------------------- */

/* The smallest text of a figure (labels inside plots, notes, exponents):
 * 6.5 pt at column width, 7.5 at full width (docs/figures.md, "Style";
 * until session 49 some were 5.4-6 pt). */
#define NR__MIN_TEXT_PT 6.5
#define NR__SMALL_PT(cv) ((cv)->font_size - 1.0 > NR__MIN_TEXT_PT ? (cv)->font_size - 1.0 : NR__MIN_TEXT_PT)

typedef struct nr__rgb {
    double r, g, b;
} nr__rgb;

#define NR__STYLES 8
_Static_assert(NR__STYLES == NR_FIG_PHASES, "figure 1 keeps a colour for each phase it draws");
/* Okabe-Ito colour i (mod 8), ordered so that the first ones contrast most. */
nr__rgb nr__palette_color(size_t i);
/* The colours of the phases of one figure: the canonical ones theirs, the
 * others the colours no canonical phase of the list holds, in order (while
 * any are left). */
void nr__palette_phase_colors(const char *const *phases, size_t n, size_t *colors);
void nr__set_color(cairo_t *cr, nr__rgb c, double alpha);
/* Dash pattern i (0 = solid) scaled to line width lw. */
void nr__set_dash(cairo_t *cr, size_t i, double lw);
/* Marker shape i centred at (x, y), size = diameter; filled with the current
 * colour and outlined white so overlapping markers stay distinct. */
void nr__draw_marker(cairo_t *cr, size_t i, double x, double y, double size);
/* Fills the rectangle with colour i and hatch pattern i (greyscale-safe). */
void nr__fill_swatch(cairo_t *cr, size_t color, size_t hatch, double x, double y, double w, double h);

/* ---- units.c / axis.c ------------------------------------------------------ */

typedef enum nr__unit {
    NR__UNIT_NONE,
    NR__UNIT_BYTES,        /* binary units B, KiB, MiB, ... */
    NR__UNIT_BYTES_PER_S,  /* B/s, KiB/s, ... */
    NR__UNIT_SECONDS,      /* ns, µs, ms, s */
    NR__UNIT_PERCENT,      /* values are fractions, shown as % */
} nr__unit;

/* Largest step of the 1-2-5 series such that the multiples of it within
 * [lo, hi] number at most max_ticks (>= 2). Returns the step (> 0). */
double nr__nice_step(double lo, double hi, int max_ticks);
/* The multiples of the nice step within [lo, hi], written to ticks (at most
 * cap); returns their count. */
size_t nr__nice_ticks(double lo, double hi, int max_ticks, double *ticks, size_t cap);
/* Decade exponents k with 10^k inside [lo, hi] (lo > 0): *k_first..*k_last;
 * returns their count (0 when none). */
int nr__log_decades(double lo, double hi, int *k_first, int *k_last);
/* Writes v with the given number of decimals, trailing zeros (and a bare
 * point) dropped, "-0" as "0": the core of every 3-significant-digit label
 * (units.c for figures, report_format.c for the report). */
void nr__fmt_trimmed(double v, int decimals, char *buf, size_t cap);
/* Divides *v by 1024 while its magnitude would round to 1024 or more in the
 * current unit, at most nunits - 1 times; returns the unit index reached. */
size_t nr__binary_unit(double *v, size_t nunits);
/* Chooses the display scale of a linear axis of unit whose largest magnitude
 * is vmax: writes the unit text ("MiB") and returns the divisor. Seconds go
 * up to hours from 3 h on. */
double nr__unit_scale(nr__unit unit, double vmax, char *text, size_t cap);

#define NR__MAX_TICKS 96

typedef struct nr__tick {
    double v;          /* data value */
    int major;         /* 1: labelled tick, 0: minor */
    int markup;
    char label[48];    /* empty for minor ticks and skipped labels */
} nr__tick;

typedef struct nr__axis {
    const char *title; /* without unit; borrowed */
    nr__unit unit;
    int log;
    int include_zero;  /* linear: range includes 0 */
    int fixed;         /* range given, not widened to nice ticks */
    double bound;      /* log, > 0: no data above it (a probability's 1): a range of one value widens downwards */
    double lo, hi;     /* range in data units */
    double scale;      /* linear: displayed value = v / scale */
    char unit_text[16];
    size_t n_ticks;
    nr__tick ticks[NR__MAX_TICKS];
    double label_pt;   /* tick label size (superscript sizes follow it) */
    double p0, p1;     /* device coordinates of lo and hi */
} nr__axis;

/* Sets up an axis over the data range [dlo, dhi] (finite; > 0 for log) with
 * at most max_major labelled ticks. */
void nr__axis_setup(nr__axis *a, double dlo, double dhi, int max_major);
/* Full title with unit: "I/O time (ms)"; just the unit when title is NULL. */
void nr__axis_title(const nr__axis *a, char *buf, size_t cap);
/* Data value -> device coordinate (clamped far outside for log of <= 0). */
double nr__axis_map(const nr__axis *a, double v);

/* ---- legend.c -------------------------------------------------------------- */

/* NR__LEG_TEXT: a label without a key ("and 30 more phases"). */
typedef enum nr__legend_kind { NR__LEG_LINE, NR__LEG_SWATCH, NR__LEG_MARKER, NR__LEG_TINT, NR__LEG_TEXT } nr__legend_kind;

typedef struct nr__legend_entry {
    const char *label;  /* borrowed; plain text */
    nr__legend_kind kind;
    size_t color, dash, marker, hatch;
    int has_marker;
    double line_width;
} nr__legend_entry;

#define NR__MAX_LEGEND 24

typedef struct nr__legend {
    size_t n;
    nr__legend_entry e[NR__MAX_LEGEND];
    const char *title;  /* optional, plain */
} nr__legend;

void nr__legend_add(nr__legend *lg, nr__legend_entry e);
/* Size of the legend laid out in one column. */
void nr__legend_size_column(nr_render_canvas *cv, const nr__legend *lg, double *w, double *h);
/* Height of the legend flowed in rows across width w. */
double nr__legend_height_flow(nr_render_canvas *cv, const nr__legend *lg, double w);
void nr__legend_draw_column(nr_render_canvas *cv, const nr__legend *lg, double x, double y);
void nr__legend_draw_flow(nr_render_canvas *cv, const nr__legend *lg, double x, double y, double w);

/* ---- chart.c: xy plots ----------------------------------------------------- */

typedef struct nr__series {
    const char *name;   /* legend label; NULL: not in the legend */
    size_t n;
    const double *x, *y;
    int y_one_minus;    /* plot 1 - y (CCDF from a CDF) */
    size_t color, dash, marker;
    int markers;        /* draw up to a few markers along the line */
    double line_width;
} nr__series;

#define NR__MAX_SERIES 24

/* The colour index of the crowd (nr__xy_set_crowd): a light grey; its lines' width. */
#define NR__COLOR_CROWD ((size_t)-1)
/* Figure 1's segment of the runtime's files: a dark grey no phase takes,
 * with a grid hatch of its own (greyscale-safe). */
#define NR__COLOR_RUNTIME ((size_t)-2)
#define NR__HATCH_GRID ((size_t)-2)
#define NR__CROWD_LINE_WIDTH 0.45

typedef struct nr__xy {
    nr_render_canvas *cv;
    double ox, oy, ow, oh;       /* outer rectangle of the panel */
    double px, py, pw, ph;       /* plot area after layout */
    nr__axis x, y;
    size_t n_series;
    nr__series s[NR__MAX_SERIES];
    const nr__series *crowd;     /* thin grey lines under the series, no legend entry each; borrowed */
    size_t n_crowd;
    nr__legend legend;
    int legend_outside;          /* chosen by layout */
    double legend_x, legend_y;
    const char *panel_label;     /* "(a)" or NULL */
    int hide_x_title;            /* stacked panels: only the last one names x */
    double min_left;             /* stacked panels: align the plot left edges */
} nr__xy;

void nr__xy_init(nr__xy *p, nr_render_canvas *cv, double x, double y, double w, double h);
/* Adds a series (borrowed arrays) and, when it has a name, a legend entry. */
void nr__xy_add(nr__xy *p, nr__series s);
/* Draws crowd[0..n) (the runs not drawn as series; x, y, n and y_one_minus
 * read) as thin grey lines under the series, counted in the axis ranges,
 * the non-finite count and the legend's placement, and adds one legend
 * entry, label, for them all (none when label is NULL). crowd is borrowed
 * until the panel is drawn. */
void nr__xy_set_crowd(nr__xy *p, const nr__series *crowd, size_t n, const char *label);
/* Axis ranges from the finite (and, on log axes, positive) data; a range
 * given with lo < hi fixes that axis. Returns 0, or 1 when no point is
 * drawable (the caller draws "no data"). */
int nr__xy_setup(nr__xy *p, double xlo, double xhi, double ylo, double yhi);
/* Places plot area, ticks and legend (inside the emptiest corner, else on top). */
void nr__xy_layout(nr__xy *p);
double nr__xy_mx(const nr__xy *p, double x);
double nr__xy_my(const nr__xy *p, double y);
void nr__xy_clip(const nr__xy *p);
void nr__xy_draw_axes(nr__xy *p);
void nr__xy_draw_series(nr__xy *p);
void nr__xy_draw_legend(nr__xy *p);

/* Draws the "no data: <reason>" figure over the whole canvas; returns 0 so
 * that a figure can `return nr__draw_no_data(...)`. */
int nr__draw_no_data(nr_render_canvas *cv, const char *figure, const char *reason);
/* Draws a note (e.g. skipped values) at the bottom right of the canvas. */
void nr__draw_note(nr_render_canvas *cv, const char *note);
/* Draws a panel label like "(a) bytes" at the top-left of a rectangle; a
 * longer one than the canvas leaves room for (a run's name) is cut in the
 * middle with an ellipsis. */
void nr__draw_panel_label(nr_render_canvas *cv, const char *label, double x, double y);

/* ---- bars.c: categorical bar panels --------------------------------------- */

typedef struct nr__bars {
    nr_render_canvas *cv;
    double ox, oy, ow, oh;
    size_t n_cat;                 /* categories on x */
    const char *const *cat_names;
    size_t n_seg;                 /* stacked segments or grouped bars */
    const double *v;              /* [n_cat][n_seg] */
    int grouped;                  /* 0: stacked, 1: side by side */
    int normalize;                /* stacked to 100% of each category */
    const size_t *seg_color;      /* colour index per segment */
    const size_t *seg_hatch;      /* hatch per segment; NULL: the segment's index */
    nr__axis y;                   /* title/unit set by caller */
    const char *x_title;          /* optional, under the category labels */
    const char *panel_label;
} nr__bars;

/* Lays out and draws the panel (axes, bars, category labels). Returns 1 when
 * everything is zero (the caller may say no data), else 0. */
int nr__bars_draw(nr__bars *b);

/* Fills a light tint of colour i (background bands). */
void nr__fill_tint(cairo_t *cr, size_t color, double x, double y, double w, double h);
/* The tint of a band that spans cover a part (0..1) of: as light as the
 * spans' own tints would look, anti-aliased, were each drawn. */
void nr__fill_tint_part(cairo_t *cr, size_t color, double x, double y, double w, double h, double part);

/* ---- fig_latency.c ------------------------------------------------------------ */

/* Whether a level's name of width w goes at the right end of its line,
 * (right - w, right), rather than at the left, (left, left + w): when a
 * marker (centres marker_x[0..n), radius) overlaps it at the left and none
 * at the right. */
int nr__level_name_right(const double *marker_x, size_t n, double radius, double left, double right, double w);

/* ---- fig_timeline.c ----------------------------------------------------------- */

/* The centre of a phase band's name of width w in the band [x0, x1]: the
 * band's middle, else the place nearest to it, in steps of w / 4, where the
 * name covers none of the n spans (pairs x0, x1 of pixels in spans: marks,
 * bursts) and keeps 2 points from the band's edges; the middle when there
 * is none. */
double nr__band_name_centre(double x0, double x1, double w, const double *spans, size_t n);

/* ---- crowd.c: figures of more runs than they can tell apart -------------- */

/* With more runs than NR_FIG_DISTINCT_RUNS a figure draws every run as a
 * grey line (nr__xy_set_crowd) and, in colour, the runs of the lowest,
 * median and highest key (Gini, alpha, p99). */
enum nr__pick { NR__PICK_LOWEST, NR__PICK_MEDIAN, NR__PICK_HIGHEST, NR__PICKS };
extern const char *const nr__pick_names[NR__PICKS];   /* "lowest", "median", "highest" */

/* An index with its sort key; nr__by_key_then_index orders them by key,
 * then index (qsort). */
typedef struct nr__keyed {
    double key;
    size_t index;
} nr__keyed;
int nr__by_key_then_index(const void *a, const void *b);

/* The work of a figure of many runs: the figure fills key[], usable[] and
 * others[] (run i's series, n = 0 when it draws none) for every run,
 * nr__crowd_pick picks, and nr__crowd_others leaves in others[] the series
 * of the runs not picked, for nr__xy_set_crowd. */
typedef struct nr__crowd {
    double *key;
    int *usable;
    size_t n_picks, pick[NR__PICKS];
    enum nr__pick which[NR__PICKS];
    nr__series *others;
    size_t n_others;
    nr__keyed *sorted;          /* scratch of nr__crowd_pick */
} nr__crowd;

/* 0, or -1 when out of memory (nothing to free then). */
int nr__crowd_init(nr__crowd *c, size_t n_runs);
void nr__crowd_fini(nr__crowd *c);
/* Of the runs i < n_runs with usable[i] != 0 and a finite key[i], in the
 * order of (key, i): the first, the middle one (the lower of an even count)
 * and the last, into pick[] in that order, a run picked twice kept once,
 * which[] naming each; returns n_picks (0 to 3; 3 when there are 3 such
 * runs). */
size_t nr__crowd_pick(nr__crowd *c, size_t n_runs);
int nr__crowd_picked(const nr__crowd *c, size_t run);
/* Keeps in others[0..n_others), in run order, the series with points of
 * the runs i < n_runs not picked. */
void nr__crowd_others(nr__crowd *c, size_t n_runs);

/* Figure 6 of many runs: v[b * NR__PICKS + k] is the lowest, median (the
 * lower of an even count) and highest share of size bin b among the
 * requests of a run (writes or reads), over the runs with any such request;
 * 0 when none has one. scratch holds 2 * q->n_runs values; cv counts the
 * non-finite counts. Returns how many runs have a request of the kind. */
size_t nr__reqsize_spread(nr_render_canvas *cv, const nr_fig_reqsize_input *q, int writes, double *scratch,
                          double v[NR_FIG_REQSIZE_BINS * NR__PICKS]);

/* Figure 1 of more phases than NR__STYLES (phase names are free text: one
 * per epoch): the NR__STYLES - 1 phases of the largest weight (each run's
 * share of bytes plus its share of I/O time in the phase, summed over the
 * runs; ties to the earlier phase) in their order, then "other N phases"
 * holding the sum of the rest. out->in is the folded input; its arrays
 * belong to out (nr__phase_fold_fini). 0, or -1 when out of memory. */
typedef struct nr__phase_folded {
    nr_fig_phase_input in;
    const char *names[NR__STYLES];
    char other[48];
    double *bytes, *time;
} nr__phase_folded;
int nr__phase_fold(nr_render_canvas *cv, const nr_fig_phase_input *p, nr__phase_folded *out);
void nr__phase_fold_fini(nr__phase_folded *f);

/* ---- the figures (fig_*.c), gathered by figures.c ------------------------ */
#define NR__FIGURE(name)                                                        \
    double nr__fig_##name##_height(const nr_figure_inputs *in, double width);   \
    int nr__fig_##name##_draw(nr_render_canvas *cv, const nr_figure_inputs *in, nr_error *err);
NR__FIGURE(phase)
NR__FIGURE(lorenz)
NR__FIGURE(ccdf)
NR__FIGURE(latency)
NR__FIGURE(timeline)
NR__FIGURE(reqsize)
NR__FIGURE(procshare)
#undef NR__FIGURE

/* Height of a flowed legend plus its gap, for figure layouts. */
double nr__legend_block(nr_render_canvas *cv, const nr__legend *lg);

/* Non-finite check that counts the skip on the canvas. */
int nr__finite_or_skip(nr_render_canvas *cv, double v);

#endif
