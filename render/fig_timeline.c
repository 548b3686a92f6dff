/* Figure 5, throughput timeline: read and write bytes/s over time, one
 * panel per run, the background tinted by phase and write bursts
 * shaded and outlined. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nr_strtab.h"
#include "render_internal.h"

/* A burst's narrowest rectangle, in points: a checkpoint's burst lasts a
 * millisecond or two (measured from its calls since session 42), under a
 * tenth of a point in a 10 s panel, and a 1-point box showed its dashed
 * outline but none of its grey. */
#define BURST_MIN_WIDTH 2.5

#define FIG "Throughput timeline"
#define MAX_PANELS NR_FIG_DISTINCT_RUNS
/* Marks: black (palette 6), dotted (dash 2), thin: they cross the panel. */
#define MARK_COLOR 6
/* The strip of the loop's waits (draw_waiting), in points. */
#define WAIT_STRIP 3.5
#define WAIT_COLOR 6
#define START_COLOR 3 /* orange: the loader's start, lighter than black in greyscale */
#define WAIT_SEAM 0.3
#define WAIT_INSET 0.6
#define MARK_DASH 2
#define MARK_LINE_WIDTH 0.6

static double panel_height(size_t n_runs, double width)
{
    double base = width < 400 ? 150 : 170;
    return n_runs <= 1 ? base : fmax(85, base - 15.0 * (double)n_runs);
}

double nr__fig_timeline_height(const nr_figure_inputs *in, double width)
{
    size_t n = in->timeline && in->timeline->n_runs ? in->timeline->n_runs : 1;
    if (n > MAX_PANELS)
        n = MAX_PANELS;
    return 30 + panel_height(n, width) * (double)n;
}

/* Phase colours keyed by name, shared by all panels and the legend: those
 * figure 1 gives (nr__palette_phase_colors) over t->phase_order and then
 * every run's other names, so that a phase keeps its colour across the two
 * figures and no two phases share one while colours remain. With more
 * names than colours the phases figure 1 keeps (nr__phase_fold) keep their
 * names and its colours and the rest are one "other N phases" in its grey:
 * until session 52 each name had a band and colours repeated, and 100,000
 * names (one a step) made an SVG of 22 MB. */
typedef struct phase_keys {
    const char **names;     /* every name, by its id in ids: the colouring order */
    size_t n_names;
    size_t *slot;           /* names[i]'s shown name: an index into order */
    const char **order;     /* the names shown: every name, or the kept ones and "other N phases" */
    size_t *colors;         /* of order[i] */
    size_t n_order;
    size_t *legend;         /* indexes into order of the panels' names, in order of appearance */
    size_t n_legend;
    unsigned char *listed;  /* listed[i]: order[i] is in the legend */
    nr_strtab ids;          /* name -> its index in names */
    char other[48];         /* the folded names' label */
} phase_keys;

static const char *span_name(const nr_fig_span *s) { return s->name ? s->name : "?"; }

/* The shown name (index into order) of name, n_order when absent (a hash:
 * a run of 100,000 phase names searched them one by one for every span). */
static size_t order_index(const phase_keys *keys, const char *name)
{
    const int64_t id = nr_strtab_find(&keys->ids, name, strlen(name));
    return id < 0 ? keys->n_order : keys->slot[id];
}

/* Appends name to the colouring order unless it is there; 0 or NR_E_NOMEM. */
static int name_add(phase_keys *keys, const char *name)
{
    const int64_t id = nr_strtab_intern(&keys->ids, name, strlen(name));
    if (id < 0)
        return NR_E_NOMEM;
    if ((size_t)id == keys->n_names)
        keys->names[keys->n_names++] = name;
    return 0;
}

static void phase_keys_fini(phase_keys *keys)
{
    free(keys->names);
    free(keys->slot);
    free(keys->order);
    free(keys->colors);
    free(keys->legend);
    free(keys->listed);
    nr_strtab_fini(&keys->ids);
}

/* Each name shown as itself. */
static void keep_every_name(phase_keys *keys)
{
    for (size_t i = 0; i < keys->n_names; i++) {
        keys->order[i] = keys->names[i];
        keys->slot[i] = i;
    }
    keys->n_order = keys->n_names;
    nr__palette_phase_colors(keys->order, keys->n_order, keys->colors);
}

/* Without figure 1's fold (no phase input, or fewer phases than its
 * colours there): the NR__STYLES - 1 names on screen longest, summed over
 * the runs (ties to the earlier name), marked kept. Returns 0 or
 * NR_E_NOMEM. */
static int keep_longest(phase_keys *keys, const nr_fig_timeline_input *t, unsigned char *kept)
{
    double *score = calloc(keys->n_names ? keys->n_names : 1, sizeof *score);
    if (!score)
        return NR_E_NOMEM;
    for (size_t r = 0; r < t->n_runs; r++)
        for (size_t i = 0; i < t->runs[r].n_phases; i++) {
            const nr_fig_span *sp = &t->runs[r].phases[i];
            const int64_t id = nr_strtab_find(&keys->ids, span_name(sp), strlen(span_name(sp)));
            if (id >= 0 && isfinite(sp->t0) && isfinite(sp->t1) && sp->t1 > sp->t0)
                score[id] += sp->t1 - sp->t0;
        }
    for (size_t k = 0; k < NR__STYLES - 1; k++) {
        size_t best = keys->n_names;
        for (size_t i = 0; i < keys->n_names; i++)
            if (!kept[i] && (best == keys->n_names || score[i] > score[best]))
                best = i;
        kept[best] = 1;
    }
    free(score);
    return 0;
}

/* The kept names (figure 1's when it folds, else keep_longest's) in the
 * colouring order, then "other N phases" in figure 1's grey. Returns 0 or
 * NR_E_NOMEM. */
static int fold_names(phase_keys *keys, nr_render_canvas *cv, const nr_figure_inputs *in)
{
    const nr_fig_timeline_input *t = in->timeline;
    const nr_fig_phase_input *p = in->phase;
    const size_t n_kept = NR__STYLES - 1;
    unsigned char *kept = calloc(keys->n_names, sizeof *kept);
    if (!kept)
        return NR_E_NOMEM;
    nr__phase_folded f = {0};
    const unsigned long skipped = cv->skipped;   /* figure 1's values are figure 1's to count */
    const int from_figure_1 = p && p->n_phases > NR__STYLES && p->phase_names && p->bytes && p->io_time_s;
    if (from_figure_1 && nr__phase_fold(cv, p, &f) < 0) {
        free(kept);
        return NR_E_NOMEM;
    }
    cv->skipped = skipped;
    if (from_figure_1) {
        for (size_t k = 0; k < n_kept; k++) {
            const int64_t id = f.in.phase_names[k] ? nr_strtab_find(&keys->ids, f.in.phase_names[k],
                                                                    strlen(f.in.phase_names[k])) : -1;
            if (id >= 0)
                kept[id] = 1;
        }
        snprintf(keys->other, sizeof keys->other, "%s", f.other);
        nr__phase_fold_fini(&f);
    } else {
        if (keep_longest(keys, t, kept) < 0) {
            free(kept);
            return NR_E_NOMEM;
        }
        snprintf(keys->other, sizeof keys->other, "other %zu phases", keys->n_names - n_kept);
    }
    keys->n_order = 0;
    for (size_t i = 0; i < keys->n_names; i++)
        if (kept[i]) {
            keys->slot[i] = keys->n_order;
            keys->order[keys->n_order++] = keys->names[i];
        }
    for (size_t i = 0; i < keys->n_names; i++)
        if (!kept[i])
            keys->slot[i] = keys->n_order;
    keys->order[keys->n_order++] = keys->other;
    nr__palette_phase_colors(keys->order, keys->n_order, keys->colors);
    keys->colors[keys->n_order - 1] = NR__COLOR_CROWD;
    free(kept);
    return 0;
}

/* The colouring order and its colours, then the legend's names from the
 * first n_panels runs. Returns 0 or NR_E_NOMEM. */
static int phase_keys_build(phase_keys *keys, nr_render_canvas *cv, const nr_figure_inputs *in, size_t n_panels)
{
    const nr_fig_timeline_input *t = in->timeline;
    *keys = (phase_keys){0};
    nr_strtab_init(&keys->ids);
    size_t cap = t->phase_order ? t->n_phase_order : 0;
    for (size_t r = 0; r < t->n_runs; r++)
        cap += t->runs[r].n_phases;
    cap = cap ? cap : 1;
    keys->names = malloc(cap * sizeof *keys->names);
    keys->slot = malloc(cap * sizeof *keys->slot);
    keys->order = malloc(cap * sizeof *keys->order);
    keys->colors = malloc(cap * sizeof *keys->colors);
    keys->legend = malloc(cap * sizeof *keys->legend);
    keys->listed = calloc(cap, sizeof *keys->listed);
    if (!keys->names || !keys->slot || !keys->order || !keys->colors || !keys->legend || !keys->listed)
        return NR_E_NOMEM;
    for (size_t i = 0; t->phase_order && i < t->n_phase_order; i++)
        if (t->phase_order[i] && name_add(keys, t->phase_order[i]) < 0)
            return NR_E_NOMEM;
    for (size_t r = 0; r < t->n_runs; r++)
        for (size_t i = 0; i < t->runs[r].n_phases; i++)
            if (name_add(keys, span_name(&t->runs[r].phases[i])) < 0)
                return NR_E_NOMEM;
    if (keys->n_names <= NR__STYLES)
        keep_every_name(keys);
    else if (fold_names(keys, cv, in) < 0)
        return NR_E_NOMEM;
    for (size_t r = 0; r < n_panels; r++)
        for (size_t i = 0; i < t->runs[r].n_phases; i++) {
            const size_t j = order_index(keys, span_name(&t->runs[r].phases[i]));
            if (!keys->listed[j]) {
                keys->listed[j] = 1;
                keys->legend[keys->n_legend++] = j;
            }
        }
    return 0;
}

/* The phases in the legend after its fixed entries, the last place kept
 * for "and N more phases" when they do not all fit. */
static void legend_phases(nr__legend *lg, const phase_keys *keys, char *more, size_t more_cap)
{
    const size_t n = keys->n_legend, room = NR__MAX_LEGEND - lg->n, shown = n <= room ? n : room - 1;
    for (size_t i = 0; i < shown; i++)
        nr__legend_add(lg, (nr__legend_entry){.label = keys->order[keys->legend[i]], .kind = NR__LEG_TINT,
                                              .color = keys->colors[keys->legend[i]]});
    if (shown < n) {
        snprintf(more, more_cap, "and %zu more phases", n - shown);
        nr__legend_add(lg, (nr__legend_entry){.label = more, .kind = NR__LEG_TEXT});
    }
}

/* What a band's name should not cover, as pairs (x0, x1) of pixels in
 * out (2 * (n_marks + n_bursts) room): the marks' lines and the bursts'
 * rectangles. Returns how many pairs. */
static size_t name_obstacles(const nr__xy *p, const nr_fig_timeline_run *run, double *out)
{
    size_t n = 0;
    for (size_t i = 0; i < run->n_marks; i++)
        if (isfinite(run->marks[i])) {
            const double x = nr__xy_mx(p, run->marks[i]);
            out[2 * n] = x - 1;
            out[2 * n++ + 1] = x + 1;
        }
    for (size_t i = 0; i < run->n_bursts; i++) {
        const nr_fig_span *s = &run->bursts[i];
        if (isfinite(s->t0) && isfinite(s->t1) && s->t1 >= s->t0) {
            const double x0 = nr__xy_mx(p, s->t0);
            out[2 * n] = x0 - 1;
            out[2 * n++ + 1] = fmax(nr__xy_mx(p, s->t1), x0 + BURST_MIN_WIDTH) + 1;
        }
    }
    return n;
}

static int any_overlap(const double *spans, size_t n, double a, double b)
{
    for (size_t i = 0; i < n; i++)
        if (spans[2 * i + 1] >= a && spans[2 * i] <= b)
            return 1;
    return 0;
}

double nr__band_name_centre(double x0, double x1, double w, const double *spans, size_t n)
{
    const double mid = (x0 + x1) / 2, lo = x0 + 2 + w / 2, hi = x1 - 2 - w / 2, step = w / 4 > 1 ? w / 4 : 1;
    for (double d = 0; mid - d >= lo || mid + d <= hi; d += step) {
        if (mid + d <= hi && !any_overlap(spans, n, mid + d - w / 2, mid + d + w / 2))
            return mid + d;
        if (mid - d >= lo && !any_overlap(spans, n, mid - d - w / 2, mid - d + w / 2))
            return mid - d;
    }
    return mid;
}

/* Spans of one phase closer than this (points) are drawn as one band: a
 * phase entered once a step, or a decorated generator's once an item,
 * has thousands of instances a fraction of a point wide, which drew a
 * rectangle (and measured a name) each: 2,000 of a 2.7 s run made an SVG
 * of 527 kB (session 50). The band's tint is as light as the part its
 * spans cover (nr__fill_tint_part), as the spans' anti-aliased tints
 * were; a band its spans do not nearly fill (BAND_FULL) ends at
 * BAND_THIN_MAX points, so that where the share changes along the run
 * the tint changes with it. */
#define BAND_MERGE_GAP 0.25
#define BAND_THIN_MAX 1.0
#define BAND_FULL 0.99

/* One phase name's band being gathered: [x0, x1] in points, the part
 * of it its spans cover, the phase name. */
typedef struct band {
    double x0, x1;
    double covered;     /* points its spans cover */
    const char *name;
    int open;
} band;

/* What drawing a band needs besides the band. */
typedef struct band_ctx {
    nr__xy *p;
    double *obstacles;  /* marks and bursts (n_marks_bursts pairs), then the names drawn so far */
    size_t n_marks_bursts, n_obstacles;
    size_t *queue;      /* the open bands (indexes in the colouring order), oldest first */
    size_t head, tail;
    double name_y;      /* the top of the bands' names: below the strip of waits when the panel has one */
} band_ctx;

/* Draws band b in colour color, named when wide enough where no mark, burst
 * or other name crosses the name if the band has such a place (until
 * session 41 always at its centre, where a checkpoint's burst or an
 * epoch's mark could cross it), and no name where it would cross one. */
static void draw_band(band_ctx *bc, size_t color, band *b)
{
    nr_render_canvas *cv = bc->p->cv;
    const nr__xy *p = bc->p;
    b->open = 0;
    const double width = b->x1 - b->x0;
    nr__fill_tint_part(cv->cr, color, b->x0, p->py, width, p->ph, b->covered >= width ? 1 : b->covered / width);
    double tw;
    nr__text_size(cv, b->name, NR__PLAIN, NR__SMALL_PT(cv), &tw, NULL);
    if (width <= tw + 4)
        return;
    const double x = nr__band_name_centre(b->x0, b->x1, tw, bc->obstacles, bc->n_obstacles);
    if (any_overlap(bc->obstacles + 2 * bc->n_marks_bursts, bc->n_obstacles - bc->n_marks_bursts, x - tw / 2, x + tw / 2))
        return;
    cairo_set_source_rgb(cv->cr, 0.2, 0.2, 0.2);   /* on a tint: darker than before session 49's 0.35 */
    nr__text_draw(cv, b->name, NR__PLAIN, NR__SMALL_PT(cv), x, bc->name_y, 0.5, 0, 0);
    bc->obstacles[2 * bc->n_obstacles] = x - tw / 2 - 1;
    bc->obstacles[2 * bc->n_obstacles++ + 1] = x + tw / 2 + 1;
}
/* Draws the open bands from the oldest up to the one of name c (all of
 * them when c is none), in the order of their first spans, as the spans
 * were drawn before (the tints blend, so the order shows where phases
 * nest). */
static void draw_bands_through(band_ctx *bc, band *bands, const phase_keys *keys, size_t c)
{
    while (bc->head < bc->tail) {
        const size_t oldest = bc->queue[bc->head++];
        draw_band(bc, keys->colors[oldest], &bands[oldest]);
        if (oldest == c)
            return;
    }
}

/* The bands of the phases (spans of a phase that nearly touch drawn as
 * one: BAND_MERGE_GAP), then the bursts. Returns 0 or NR_E_NOMEM. */
static int draw_bands(nr__xy *p, const nr_fig_timeline_run *run, const phase_keys *keys)
{
    cairo_t *cr = p->cv->cr;
    band_ctx bc = {.p = p, .name_y = p->py + 1.5 + (run->waiting ? WAIT_INSET + WAIT_STRIP : 0)};
    bc.obstacles = malloc(2 * (run->n_marks + run->n_bursts + run->n_phases + 1) * sizeof *bc.obstacles);
    bc.queue = malloc((run->n_phases + 1) * sizeof *bc.queue);
    band *bands = calloc(keys->n_order + 1, sizeof *bands);
    if (!bc.obstacles || !bc.queue || !bands) {
        free(bc.obstacles);
        free(bc.queue);
        free(bands);
        return NR_E_NOMEM;
    }
    bc.n_marks_bursts = bc.n_obstacles = name_obstacles(p, run, bc.obstacles);
    cairo_save(cr);
    nr__xy_clip(p);
    for (size_t i = 0; i < run->n_phases; i++) {
        const nr_fig_span *s = &run->phases[i];
        if (!isfinite(s->t0) || !isfinite(s->t1) || s->t1 <= s->t0)
            continue;
        const double x0 = nr__xy_mx(p, s->t0), x1 = nr__xy_mx(p, s->t1);
        const size_t c = order_index(keys, span_name(s));  /* by name: two names may share a colour */
        band *b = &bands[c];
        if (b->open && x0 <= b->x1 + BAND_MERGE_GAP && x1 >= b->x0 - BAND_MERGE_GAP &&
            (b->x1 - b->x0 < BAND_THIN_MAX || b->covered >= BAND_FULL * (b->x1 - b->x0))) {
            /* what it adds beyond the band (spans come in order of their
             * start: a span inside the band is a same-named nested one) */
            b->covered += fmax(0, x1 - fmax(x0, b->x1)) + fmax(0, fmin(x1, b->x0) - x0);
            b->x0 = fmin(b->x0, x0);
            b->x1 = fmax(b->x1, x1);
            continue;
        }
        if (b->open)
            draw_bands_through(&bc, bands, keys, c);
        *b = (band){.x0 = x0, .x1 = x1, .covered = x1 - x0, .name = c < keys->n_order ? keys->order[c] : span_name(s),
                    .open = 1};   /* a folded name's band is named "other N phases" */
        bc.queue[bc.tail++] = c;
    }
    draw_bands_through(&bc, bands, keys, SIZE_MAX);
    free(bc.obstacles);
    free(bc.queue);
    free(bands);
    for (size_t i = 0; i < run->n_bursts; i++) {
        const nr_fig_span *s = &run->bursts[i];
        if (!isfinite(s->t0) || !isfinite(s->t1) || s->t1 < s->t0)
            continue;
        double x0 = nr__xy_mx(p, s->t0), x1 = fmax(nr__xy_mx(p, s->t1), x0 + BURST_MIN_WIDTH);
        cairo_rectangle(cr, x0, p->py, x1 - x0, p->ph);
        cairo_set_source_rgba(cr, 0, 0, 0, 0.12);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
        cairo_set_line_width(cr, 0.5);
        const double dash[] = {2, 1};
        cairo_set_dash(cr, dash, 2, 0);
        cairo_stroke(cr);
    }
    cairo_restore(cr);
    return 0;
}

/* The hook's marks: thin black dotted lines across the panel, over the
 * bands and under the series. */
static void draw_marks(nr__xy *p, const nr_fig_timeline_run *run)
{
    cairo_t *cr = p->cv->cr;
    cairo_save(cr);
    nr__xy_clip(p);
    nr__set_color(cr, nr__palette_color(MARK_COLOR), 0.8);
    cairo_set_line_width(cr, MARK_LINE_WIDTH);
    nr__set_dash(cr, MARK_DASH, MARK_LINE_WIDTH);
    double last = -INFINITY;
    for (size_t i = 0; i < run->n_marks; i++) {
        if (!isfinite(run->marks[i]))
            continue;
        const double x = nr__xy_mx(p, run->marks[i]);
        /* a mark a step: one line where lines would coincide in print */
        if (fabs(x - last) < BAND_MERGE_GAP)
            continue;
        last = x;
        cairo_move_to(cr, x, p->py);
        cairo_line_to(cr, x, p->py + p->ph);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* The loop's waits for data: a strip WAIT_STRIP high along the top of the
 * plot area, each bin the grey between white and WAIT_COLOR that its
 * share of waiting gives (WAIT_COLOR at all of it; a bin without waits
 * left out, its band showing), over the bands and the grid, under the
 * series, just below the frame's top line (WAIT_INSET). The
 * greys are opaque and overlap their right neighbour by a hair: bins of
 * a translucent colour side by side showed the background through their
 * anti-aliased seams. A bin whose waits are at least half the first items
 * of passes (the loader's start) takes START_COLOR instead, at the same
 * share: the start apart from the steady state (since session 64). */
static void draw_waiting(nr__xy *p, const nr_fig_timeline_run *run)
{
    if (!run->waiting)
        return;
    cairo_t *cr = p->cv->cr;
    cairo_save(cr);
    nr__xy_clip(p);
    for (size_t i = 0; i < run->n_bins; i++) {
        const double share = fmin(run->waiting[i], 1);
        if (!(share > 0))
            continue;
        const int start = run->start_waiting && 2 * run->start_waiting[i] >= run->waiting[i];
        const nr__rgb ink = nr__palette_color(start ? START_COLOR : WAIT_COLOR);
        const double x0 = nr__xy_mx(p, (double)i * run->bin_s), x1 = nr__xy_mx(p, (double)(i + 1) * run->bin_s);
        const nr__rgb grey = {1 - share * (1 - ink.r), 1 - share * (1 - ink.g), 1 - share * (1 - ink.b)};
        nr__set_color(cr, grey, 1.0);
        cairo_rectangle(cr, x0, p->py + WAIT_INSET, x1 - x0 + WAIT_SEAM, WAIT_STRIP);
        cairo_fill(cr);
    }
    cairo_restore(cr);
}

static int any_waiting(const nr_fig_timeline_input *t, size_t n_runs)
{
    for (size_t r = 0; r < n_runs; r++)
        if (t->runs[r].waiting)
            return 1;
    return 0;
}

/* Whether a bin of some run's strip takes START_COLOR (draw_waiting's rule). */
static int any_start_bin(const nr_fig_timeline_input *t, size_t n_runs)
{
    for (size_t r = 0; r < n_runs; r++) {
        const nr_fig_timeline_run *run = &t->runs[r];
        for (size_t i = 0; run->waiting && run->start_waiting && i < run->n_bins; i++)
            if (run->waiting[i] > 0 && 2 * run->start_waiting[i] >= run->waiting[i])
                return 1;
    }
    return 0;
}

/* "hook mark (epoch)" when every run's marks share one name, else "hook mark". */
static const char *marks_label(const nr_fig_timeline_input *t, size_t n_runs, char *buf, size_t cap)
{
    const char *name = NULL;
    int any = 0, one = 1;
    for (size_t r = 0; r < n_runs; r++) {
        if (!t->runs[r].n_marks)
            continue;
        const char *nm = t->runs[r].mark_name;
        one &= nm && (!name || strcmp(name, nm) == 0);
        name = any ? name : nm;
        any = 1;
    }
    if (!any)
        return NULL;
    if (one && name)
        snprintf(buf, cap, "hook mark (%.32s)", name);
    else
        snprintf(buf, cap, "hook mark");
    return buf;
}

static int has_bins(const nr_fig_timeline_run *run)
{
    return run->bin_s > 0 && isfinite(run->bin_s) && run->n_bins > 0 && run->read_bps && run->write_bps;
}

double nr_fig_timeline_shared_bin(const nr_fig_timeline_input *t, size_t n)
{
    double w = NAN;
    for (size_t r = 0; t && t->runs && r < n && r < t->n_runs; r++) {
        if (!has_bins(&t->runs[r]))
            continue;
        if (isnan(w))
            w = t->runs[r].bin_s;
        else if (t->runs[r].bin_s != w)
            return NAN;
    }
    return w;
}

/* The most bins of any of the first n_runs runs; 0 when none has bins. */
static size_t longest_bins(const nr_fig_timeline_input *t, size_t n_runs)
{
    size_t longest = 0;
    for (size_t r = 0; r < n_runs; r++)
        if (has_bins(&t->runs[r]))
            longest = t->runs[r].n_bins > longest ? t->runs[r].n_bins : longest;
    return longest;
}

/* Draws the figure's legend above the panels: the bin width when they
 * share it (the caller merges every run's bins into one width:
 * figure_inputs.c), else that widths differ, since the y axis is each
 * bin's mean rate and a short burst peaks higher in 20 ms bins than in 50
 * ms ones (until session 50 each panel had its run's own width, named in
 * its title since session 49); then the series, bursts, marks and phases.
 * Returns its height. */
static double draw_legend(nr_render_canvas *cv, const nr_fig_timeline_input *t, size_t n_runs, double shared,
                          const phase_keys *keys)
{
    char width[32], more_runs[64] = "", title[128];
    if (t->n_runs > n_runs) /* said in the figure: the others are not in it */
        snprintf(more_runs, sizeof more_runs, "the first %zu of %zu runs", n_runs, t->n_runs);
    nr__legend lg = {0};
    if (n_runs > 1 && !isnan(shared))
        snprintf(title, sizeof title, "%s%sall panels in %s bins:", more_runs, more_runs[0] ? ", " : "",
                 nr_render_fmt_seconds(shared, width, sizeof width));
    else if (n_runs > 1)
        snprintf(title, sizeof title, "%s%sbin widths differ between panels:", more_runs,
                 more_runs[0] ? "; " : "");
    else
        snprintf(title, sizeof title, "%s%s", more_runs, more_runs[0] ? ":" : "");
    if (title[0])
        lg.title = title;
    nr__legend_add(&lg, (nr__legend_entry){.label = "read, job files", .kind = NR__LEG_LINE, .color = 0, .line_width = 1.0});
    nr__legend_add(&lg, (nr__legend_entry){.label = "write, job files", .kind = NR__LEG_LINE, .color = 1, .dash = 1,
                                           .line_width = 1.0});
    nr__legend_add(&lg, (nr__legend_entry){.label = "write burst", .kind = NR__LEG_TINT, .color = 6});
    char mark_label[64];
    if (marks_label(t, n_runs, mark_label, sizeof mark_label))
        nr__legend_add(&lg, (nr__legend_entry){.label = mark_label, .kind = NR__LEG_LINE, .color = MARK_COLOR,
                                               .dash = MARK_DASH, .line_width = MARK_LINE_WIDTH});
    if (any_waiting(t, n_runs))
        nr__legend_add(&lg, (nr__legend_entry){.label = "loop waiting for data (top strip)", .kind = NR__LEG_SWATCH,
                                               .color = WAIT_COLOR});
    if (any_start_bin(t, n_runs))
        nr__legend_add(&lg, (nr__legend_entry){.label = "... for the loader's start", .kind = NR__LEG_SWATCH,
                                               .color = START_COLOR});
    char more[48];
    legend_phases(&lg, keys, more, sizeof more);
    double top = nr__legend_block(cv, &lg);
    nr__legend_draw_flow(cv, &lg, 4, 2, cv->width - 8);
    return top;
}

/* A panel's title: the run's name, and its bin width unless the legend
 * names the width all panels share. */
static void panel_label(const nr_fig_timeline_run *run, size_t n_runs, double shared, char *buf, size_t cap)
{
    char width[32];
    if (run->bin_s > 0 && isfinite(run->bin_s) && (n_runs == 1 || isnan(shared)))
        snprintf(buf, cap, "%s, %s bins", run->name ? run->name : "?",
                 nr_render_fmt_seconds(run->bin_s, width, sizeof width));
    else
        snprintf(buf, cap, "%s", run->name ? run->name : "?");
}

/* Sets panel p up for run (read and write rates over bin times x, which
 * it fills), its left margin at least left; returns the margin it needs,
 * or 0 when it has nothing to draw (no series then). */
static double set_up_panel(nr__xy *p, const nr_fig_timeline_run *run, double *x, int last, double left)
{
    p->min_left = left;
    if (!(run->bin_s > 0) || !run->read_bps || !run->write_bps || run->n_bins == 0)
        return 0;
    for (size_t i = 0; i < run->n_bins; i++)
        x[i] = ((double)i + 0.5) * run->bin_s;
    nr__xy_add(p, (nr__series){.n = run->n_bins, .x = x, .y = run->read_bps, .color = 0, .line_width = 0.9});
    nr__xy_add(p, (nr__series){.n = run->n_bins, .x = x, .y = run->write_bps, .color = 1, .dash = 1,
                               .line_width = 0.9});
    p->legend.n = 0; /* the figure legend above covers every panel */
    p->x = (nr__axis){.title = "Time since start", .unit = NR__UNIT_SECONDS};
    p->y = (nr__axis){.title = NULL, .unit = NR__UNIT_BYTES_PER_S, .include_zero = 1}; /* "MiB/s" fits */
    p->hide_x_title = !last;
    if (nr__xy_setup(p, 0, (double)run->n_bins * run->bin_s, 0, 0)) {
        p->n_series = 0; /* nothing drawable: leave the panel empty */
        return 0;
    }
    if (!(p->y.hi > 0))
        p->y.hi = 1.0;
    nr__xy_layout(p);
    return p->px - p->ox;
}

/* One panel per run, ph high each below top: laid out, then again with the
 * widest left margin so that the time axes line up. times holds longest
 * bins a run. */
static void lay_out_panels(nr_render_canvas *cv, const nr_fig_timeline_input *t, size_t n_runs, double top,
                           double ph, char (*labels)[NR__LABEL_CAP + 48], double *times, size_t longest,
                           nr__xy *panels)
{
    double left = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t r = 0; r < n_runs; r++) {
            nr__xy *p = &panels[r];
            nr__xy_init(p, cv, 2, top + ph * (double)r, cv->width - 4, ph - 2);
            p->panel_label = labels[r];
            left = fmax(left, set_up_panel(p, &t->runs[r], times + r * longest, r + 1 == n_runs, left));
        }
}

/* Each panel's phase bands, marks, axes and series, or its title alone
 * when it has nothing to draw. Returns 0 or NR_E_NOMEM. */
static int draw_panels(nr_render_canvas *cv, const nr_fig_timeline_input *t, size_t n_runs, nr__xy *panels,
                       const phase_keys *keys)
{
    for (size_t r = 0; r < n_runs; r++) {
        nr__xy *p = &panels[r];
        if (p->n_series == 0) {
            nr__draw_panel_label(cv, p->panel_label ? p->panel_label : "?", p->ox, p->oy);
            continue;
        }
        if (draw_bands(p, &t->runs[r], keys) < 0)
            return NR_E_NOMEM;
        draw_marks(p, &t->runs[r]);
        nr__xy_draw_axes(p);
        draw_waiting(p, &t->runs[r]); /* over the grid lines, which cut it */
        nr__xy_draw_series(p);
    }
    return 0;
}

int nr__fig_timeline_draw(nr_render_canvas *cv, const nr_figure_inputs *in, nr_error *err)
{
    const nr_fig_timeline_input *t = in->timeline;
    if (!t || t->n_runs == 0 || !t->runs)
        return nr__draw_no_data(cv, FIG, "no runs");
    size_t n_runs = t->n_runs < MAX_PANELS ? t->n_runs : MAX_PANELS;
    size_t longest = longest_bins(t, n_runs);
    if (longest == 0)
        return nr__draw_no_data(cv, FIG, "no time bins");
    phase_keys keys;
    if (phase_keys_build(&keys, cv, in, n_runs) < 0)
        goto fail_keys;
    const double shared = nr_fig_timeline_shared_bin(t, n_runs);
    double top = draw_legend(cv, t, n_runs, shared, &keys);
    double *times = malloc(longest * n_runs * sizeof *times);
    nr__xy *panels = calloc(n_runs, sizeof *panels);
    if (!times || !panels) {
        free(times);
        free(panels);
        phase_keys_fini(&keys);
        return nr_error_set(err, NR_E_NOMEM, "no memory for %zu time bins", longest);
    }
    char labels[MAX_PANELS][NR__LABEL_CAP + 48];
    for (size_t r = 0; r < n_runs; r++)
        panel_label(&t->runs[r], n_runs, shared, labels[r], sizeof labels[r]);
    lay_out_panels(cv, t, n_runs, top, (cv->height - top - 2) / (double)n_runs, labels, times, longest, panels);
    int rc = draw_panels(cv, t, n_runs, panels, &keys);
    free(panels);
    free(times);
    if (rc < 0)
        goto fail_keys;
    phase_keys_fini(&keys);
    return 0;
fail_keys:
    phase_keys_fini(&keys);
    return nr_error_set(err, NR_E_NOMEM, "figure %s: out of memory", FIG);
}
