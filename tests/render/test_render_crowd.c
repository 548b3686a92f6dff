/* Figures of more runs (NR_FIG_DISTINCT_RUNS) or phases than they tell
 * apart: the runs picked for colour, the spread of request sizes and the
 * folded phases, worked by hand, and the SVG of a crowded figure, whose grey
 * lines are counted; and figure 3's rejected power-law fits, which draw no
 * line. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "render_internal.h"

static void picks(const double *key, const int *usable, size_t n, size_t want_n, const size_t *want,
                  const enum nr__pick *want_which)
{
    nr__crowd c;
    assert_int_equal(nr__crowd_init(&c, n), 0);
    memcpy(c.key, key, n * sizeof *key);
    memcpy(c.usable, usable, n * sizeof *usable);
    assert_int_equal(nr__crowd_pick(&c, n), want_n);
    for (size_t i = 0; i < want_n; i++) {
        assert_int_equal(c.pick[i], want[i]);
        assert_int_equal(c.which[i], want_which[i]);
    }
    nr__crowd_fini(&c);
}

static void picks_lowest_median_highest(void **state)
{
    (void)state;
    const enum nr__pick all[] = {NR__PICK_LOWEST, NR__PICK_MEDIAN, NR__PICK_HIGHEST};
    /* in the order of (key, run): (0.2, 2) (0.2, 5) (0.5, 0) (0.5, 4) (0.9, 3),
       NaN (run 1) left out: first, 3rd of 5, last */
    const double key[] = {0.5, NAN, 0.2, 0.9, 0.5, 0.2};
    const int every[] = {1, 1, 1, 1, 1, 1};
    picks(key, every, 6, 3, (const size_t[]){2, 0, 3}, all);
    /* without runs 2 and 3: (0.2, 5) (0.5, 0) (0.5, 4): the equal highest is another run */
    const int some[] = {1, 1, 0, 0, 1, 1};
    picks(key, some, 6, 3, (const size_t[]){5, 0, 4}, all);
    /* an even count takes the lower middle: (1, 3) (2, 2) (3, 1) (4, 0) -> run 2 */
    const double four[] = {4, 3, 2, 1};
    picks(four, every, 4, 3, (const size_t[]){3, 2, 0}, all);
    /* all equal: three runs all the same, in run order */
    const double same[] = {7, 7, 7};
    picks(same, every, 3, 3, (const size_t[]){0, 1, 2}, all);
    /* two runs: the middle one is the first, kept once */
    const double two[] = {1, 2};
    picks(two, every, 2, 2, (const size_t[]){0, 1}, (const enum nr__pick[]){NR__PICK_LOWEST, NR__PICK_HIGHEST});
    const int none[] = {0, 0};
    picks(two, none, 2, 0, NULL, NULL);
}

/* How many times needle occurs in the n bytes of hay. */
static size_t occurrences(const char *hay, size_t n, const char *needle)
{
    size_t count = 0, k = strlen(needle);
    for (const char *p = hay; (p = memmem(p, n - (size_t)(p - hay), needle, k)) != NULL; p += k)
        count++;
    return count;
}

enum { RUNS = 12, POINTS = 5 };

static void render_svg(const char *stem, const nr_figure_inputs *in, nr_render_buf *out)
{
    nr_error err;
    nr_error_clear(&err);
    nr_render_buf_init(out);
    assert_int_equal(nr_render_figure(nr_figure_find(stem), in, NR_RENDER_SVG, NR_RENDER_COLUMN_WIDTH_PT, out, &err),
                     0);
}

/* The stroke of a grey line of the crowd as cairo writes it (the legend's
 * key has another line join). */
#define CROWD_STROKE "stroke-width:0.45;stroke-linecap:butt;stroke-linejoin:round;stroke:rgb(72%,72%,72%)"

/* 12 runs, every one with a curve: 9 grey lines in each panel; with 8 runs,
 * none. */
static void curves_of_many_runs_in_grey(void **state)
{
    (void)state;
    static double share[POINTS] = {0, 0.25, 0.5, 0.75, 1}, bytes_share[RUNS][POINTS], x[POINTS] = {1, 10, 100, 1e3, 1e4},
                  ccdf[POINTS] = {1, 0.5, 0.2, 0.05, 0.01}, lat[POINTS] = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2},
                  cdf[POINTS] = {0.1, 0.5, 0.9, 0.99, 1};
    static char names[RUNS][16];
    nr_fig_lorenz_run lr[RUNS];
    nr_fig_ccdf_run cr[RUNS];
    nr_fig_latency_series ls[RUNS];
    for (size_t r = 0; r < RUNS; r++) {
        snprintf(names[r], sizeof names[r], "run%zu", r);
        const double g = 1.0 + (double)r / 4;
        for (size_t i = 0; i < POINTS; i++)
            bytes_share[r][i] = pow(share[i], g);
        lr[r] = (nr_fig_lorenz_run){names[r], POINTS, share, bytes_share[r], 0.1, 0.9, 0.1 * (double)r};
        cr[r] = (nr_fig_ccdf_run){names[r], POINTS, x, ccdf, 1, 1.5 + 0.1 * (double)r, 10, 0.5, 0, NAN};
        ls[r] = (nr_fig_latency_series){names[r], POINTS, lat, cdf, 1e-5, 1e-3 * (double)(r + 1), 1e-2, 0, NULL};
    }
    for (size_t n = 8; n <= RUNS; n += RUNS - 8) {
        const nr_fig_lorenz_input lorenz = {n, lr};
        const nr_fig_ccdf_input ccdf_in = {n, cr};
        const nr_fig_latency_input latency = {"read", n, ls, 0, 0};
        const nr_figure_inputs in = {.lorenz = &lorenz, .ccdf = &ccdf_in, .latency = &latency};
        const char *stems[] = {"fig2-lorenz", "fig3-file-bytes-ccdf", "fig4-read-latency"};
        const size_t panels[] = {1, 1, 2};
        for (size_t f = 0; f < 3; f++) {
            nr_render_buf svg;
            render_svg(stems[f], &in, &svg);
            const size_t got = occurrences((const char *)svg.data, svg.len, CROWD_STROKE);
            const size_t expect = n > NR_FIG_DISTINCT_RUNS ? panels[f] * (n - 3) : 0;
            if (got != expect)
                fail_msg("%s of %zu runs: %zu grey lines, expected %zu", stems[f], n, got, expect);
            nr_render_buf_fini(&svg);
        }
    }
}

/* Figure 6 of 11 runs: run r (0..9) reads r + 1 requests of 0-100 B and
 * 9 - r of 100-1K, run 10 none (a NaN count, skipped); only run 0 writes,
 * 4 requests of 1M-4M. Shares of 0-100 B: 0.1 .. 1.0 (lowest 0.1, the 5th of
 * 10 0.5, highest 1.0); of 100-1K: 0.9 .. 0 (0, 0.4, 0.9). */
/* The stroke of figure 3's fit lines and of their legend key. */
#define FIT_STROKE "stroke-width:0.9;"

/* Figure 3 of two fitted runs: two fit lines and the legend's key; a run
 * whose fit is rejected (p <= 0.1) loses its line, and with both rejected
 * the key goes too. */
static void rejected_fit_draws_no_line(void **state)
{
    (void)state;
    static const double x[POINTS] = {1, 10, 100, 1e3, 1e4}, ccdf[POINTS] = {1, 0.5, 0.2, 0.05, 0.01};
    nr_fig_ccdf_run cr[2] = {{"a", POINTS, x, ccdf, 1, 1.5, 10, 0.5, 0, 0.5},
                             {"b", POINTS, x, ccdf, 1, 2.5, 10, 0.5, 0, 0.5}};
    const nr_fig_ccdf_input in = {2, cr};
    const nr_figure_inputs inputs = {.ccdf = &in};
    size_t want[] = {3, 2, 0};
    for (int rejected = 0; rejected <= 2; rejected++) {
        for (int r = 0; r < 2; r++) {
            cr[r].fit_rejected = r < rejected;
            cr[r].p_value = r < rejected ? 0 : 0.5;
        }
        nr_render_buf svg;
        render_svg("fig3-file-bytes-ccdf", &inputs, &svg);
        assert_int_equal(occurrences((const char *)svg.data, svg.len, FIT_STROKE), want[rejected]);
        /* without fits, run b's curve still has a dash of its own (grey-scale
           print: every curve was solid until session 49) */
        if (rejected == 2)
            assert_true(occurrences((const char *)svg.data, svg.len, "stroke-dasharray") > 0);
        nr_render_buf_fini(&svg);
    }
}

static void request_sizes_spread(void **state)
{
    (void)state;
    nr_fig_reqsize_run runs[11];
    memset(runs, 0, sizeof runs);
    for (int r = 0; r < 10; r++) {
        runs[r].name = "r";
        runs[r].reads[0] = r + 1;
        runs[r].reads[1] = 9 - r;
    }
    runs[10].name = "none";
    runs[10].reads[3] = NAN;
    runs[0].writes[5] = 4;
    const nr_fig_reqsize_input q = {11, runs};
    nr_render_canvas cv = {0};
    double scratch[22], rv[NR_FIG_REQSIZE_BINS * NR__PICKS], wv[NR_FIG_REQSIZE_BINS * NR__PICKS];
    assert_int_equal(nr__reqsize_spread(&cv, &q, 0, scratch, rv), 10);
    assert_int_equal(cv.skipped, 1);
    const double want0[] = {0.1, 0.5, 1.0}, want1[] = {0.0, 0.4, 0.9};
    for (int k = 0; k < NR__PICKS; k++) {
        assert_true(fabs(rv[0 * NR__PICKS + k] - want0[k]) < 1e-12);
        assert_true(fabs(rv[1 * NR__PICKS + k] - want1[k]) < 1e-12);
        for (int b = 2; b < NR_FIG_REQSIZE_BINS; b++)
            assert_true(rv[b * NR__PICKS + k] == 0.0);
    }
    assert_int_equal(nr__reqsize_spread(&cv, &q, 1, scratch, wv), 1);
    for (int k = 0; k < NR__PICKS; k++)
        for (int b = 0; b < NR_FIG_REQSIZE_BINS; b++)
            assert_true(wv[b * NR__PICKS + k] == (b == 5 ? 1.0 : 0.0));
}

/* Figure 1 of 10 phases e0..e9, two runs: run 0 moves j + 1 bytes and
 * spends 1 s in phase j, run 1 nothing. Weights (j + 1) / 55 + 1 / 10 grow
 * with j: e3..e9 kept in order, e0..e2 folded, 1 + 2 + 3 = 6 bytes and 3 s.
 * With equal weights (every phase 1 byte) the first 7 are kept. */
static void phases_folded(void **state)
{
    (void)state;
    enum { PH = 10 };
    static const char *const names[PH] = {"e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9"};
    static const char *const runs[2] = {"a", "b"};
    double bytes[2 * PH] = {0}, time[2 * PH] = {0};
    for (int j = 0; j < PH; j++)
        bytes[j] = j + 1, time[j] = 1;
    nr_fig_phase_input in = {2, runs, PH, names, bytes, time, NULL, NULL};
    nr_render_canvas cv = {0};
    nr__phase_folded f;
    assert_int_equal(nr__phase_fold(&cv, &in, &f), 0);
    assert_int_equal(f.in.n_phases, 8);
    for (int k = 0; k < 7; k++) {
        assert_string_equal(f.in.phase_names[k], names[k + 3]);
        assert_true(f.in.bytes[k] == k + 4 && f.in.io_time_s[k] == 1);
        assert_true(f.in.bytes[8 + k] == 0 && f.in.io_time_s[8 + k] == 0);
    }
    assert_string_equal(f.in.phase_names[7], "other 3 phases");
    assert_true(f.in.bytes[7] == 6 && f.in.io_time_s[7] == 3);
    nr__phase_fold_fini(&f);

    for (int j = 0; j < PH; j++)
        bytes[j] = 1;
    assert_int_equal(nr__phase_fold(&cv, &in, &f), 0);
    for (int k = 0; k < 7; k++)
        assert_string_equal(f.in.phase_names[k], names[k]);
    assert_true(f.in.bytes[7] == 3 && f.in.io_time_s[7] == 3);
    nr__phase_fold_fini(&f);
    assert_int_equal(cv.skipped, 0);
}

/* Canonical phases keep their colours (train 0, checkpoint 1); the others
 * take the colours left, in order. */
static void phase_colours_do_not_clash(void **state)
{
    (void)state;
    const char *const names[] = {"train", "foo", "checkpoint", "bar", "baz"};
    size_t colors[5];
    nr__palette_phase_colors(names, 5, colors);
    const size_t want[] = {0, 2, 1, 3, 4};
    for (int j = 0; j < 5; j++)
        assert_int_equal(colors[j], want[j]);
}

/* A timeline of one run with n phases (epochs) of 1 s each, without
 * figure 1's input: of 8, 8 tinted bands and in the legend the write
 * burst's tint and the 8 phases; of 30 (since session 52), the 7 on screen
 * longest (a tie: the first 7) and "other 23 phases": 7 bands and one
 * for epoch7-29, whose spans touch, and 1 + 8 legend tints (until then 30
 * bands, and 20 names and "and 10 more phases" in the legend). */
static void timeline_of_many_phases(void **state)
{
    (void)state;
    static char names[30][16];
    nr_fig_span spans[30];
    for (int i = 0; i < 30; i++) {
        snprintf(names[i], sizeof names[i], "epoch%d", i);
        spans[i] = (nr_fig_span){names[i], i, i + 1};
    }
    double bps[30];
    for (int i = 0; i < 30; i++)
        bps[i] = 1e6 * (i % 3 + 1);
    const size_t counts[] = {8, 30}, want[] = {8 + 1 + 8, 8 + 1 + 8};
    for (int c = 0; c < 2; c++) {
        const nr_fig_timeline_run run = {"r", 30, 1.0, bps, bps, counts[c], spans, 0, NULL, 0, NULL, NULL, NULL, NULL};
        const nr_fig_timeline_input t = {.n_runs = 1, .runs = &run};
        const nr_figure_inputs in = {.timeline = &t};
        nr_render_buf svg;
        render_svg("fig5-throughput-timeline", &in, &svg);
        const size_t tints = occurrences((const char *)svg.data, svg.len, "fill-opacity:0.16;");
        if (tints != want[c])
            fail_msg("%zu phases: %zu tints, expected %zu", counts[c], tints, want[c]);
        nr_render_buf_fini(&svg);
    }
}

/* A phase entered 20,000 times (a step's, or a decorated generator's
 * item's: 0.2 ms of every 0.4 ms in [1, 9) s, inside one "train") and a
 * mark a step: before session 50 the SVG drew a rectangle a span and a
 * line a mark (about 2 MB); now the spans closer than a quarter point are
 * bands a point wide at most, tinted by the part they cover (half: 0.08,
 * as light as the anti-aliased spans were), and the marks one line where
 * they would coincide. */
static void timeline_of_many_instances(void **state)
{
    (void)state;
    enum { STEPS = 20000 };
    nr_fig_span *spans = malloc((STEPS + 1) * sizeof *spans);
    double *marks = malloc(STEPS * sizeof *marks), bps[10];
    assert_non_null(spans);
    assert_non_null(marks);
    spans[0] = (nr_fig_span){"train", 1, 9};
    for (int i = 0; i < STEPS; i++) {
        spans[1 + i] = (nr_fig_span){"data_prep", 1 + 4e-4 * i, 1 + 4e-4 * i + 2e-4};
        marks[i] = 1 + 4e-4 * i;
    }
    for (int i = 0; i < 10; i++)
        bps[i] = 1e6;
    const nr_fig_timeline_run run = {"r", 10, 1.0, bps, bps, STEPS + 1, spans, 0, NULL, STEPS, marks, "step", NULL, NULL};
    const nr_fig_timeline_input t = {.n_runs = 1, .runs = &run};
    const nr_figure_inputs in = {.timeline = &t};
    nr_render_buf svg;
    render_svg("fig5-throughput-timeline", &in, &svg);
    const char *text = (const char *)svg.data;
    if (svg.len > 200000)
        fail_msg("an SVG of %zu bytes", svg.len);
    size_t half = 0, partial = 0;
    for (const char *p = text; (p = memmem(p, svg.len - (size_t)(p - text), "fill-opacity:", 13)); p += 13) {
        const double opacity = strtod(p + 13, NULL);
        partial += opacity < 0.15;
        half += opacity > 0.075 && opacity < 0.085;
    }
    /* the legend's 3 tints (write burst, train, data_prep) and train's
     * band at 0.16; data_prep's bands of a point each (about 0.8 of the
     * plot) at half of it */
    assert_int_equal(occurrences(text, svg.len, "fill-opacity:0.16;"), 4);
    if (half < 100 || half != partial)
        fail_msg("%zu of %zu bands tinted at half", half, partial);
    nr_render_buf_fini(&svg);
    free(spans);
    free(marks);
}

/* The strip of the loop's waits: a bin's grey is the share of it the loop
 * waited (black at all of it, as the palette's colour 6; white at none),
 * opaque; a bin of no wait is not drawn, and a run without waits has no
 * strip. A bin whose waits are at least half the loader's start (first
 * items) is orange at its share instead: bin 1, half of it waited, all
 * start, is (1 - 0.5 (1 - orange)), and the legend has its swatch; bin
 * 2, a fifth of its waits the start, stays grey. */
static void timeline_strip_of_waits(void **state)
{
    (void)state;
    double bps[4] = {1e6, 1e6, 1e6, 1e6};
    const double waiting[4] = {0, 0.5, 1, 0.25}, start[4] = {0, 0.5, 0.2, 0};
    const nr_fig_span spans[1] = {{"train", 0, 4}};
    for (int with = 0; with < 3; with++) {
        const nr_fig_timeline_run run = {"r", 4, 1.0, bps, bps, 1, spans, 0, NULL, 0, NULL, NULL,
                                         with ? waiting : NULL, with == 2 ? start : NULL};
        const nr_fig_timeline_input t = {.n_runs = 1, .runs = &run};
        const nr_figure_inputs in = {.timeline = &t};
        nr_render_buf svg;
        render_svg("fig5-throughput-timeline", &in, &svg);
        const char *text = (const char *)svg.data;
        assert_int_equal(occurrences(text, svg.len, "fill:rgb(50%,50%,50%);fill-opacity:1;"), with == 1);
        assert_int_equal(occurrences(text, svg.len, "fill:rgb(75%,75%,75%);fill-opacity:1;"), with != 0);
        assert_int_equal(occurrences(text, svg.len, "fill:rgb(95.098039%,81.176471%,50%);fill-opacity:1;"),
                         with == 2);
        /* the legend's swatch of the start: orange itself (cairo draws the text as glyphs) */
        assert_int_equal(occurrences(text, svg.len, "fill:rgb(90.196078%,62.352941%,0%);fill-opacity:1;"),
                         with == 2);
        nr_render_buf_fini(&svg);
    }
}

/* The fills of the tints (fill-opacity 0.16) of svg, in document order,
 * each as its "fill:rgb(...)" text; returns how many (at most max). */
static size_t tint_fills(const nr_render_buf *svg, char out[][64], size_t max)
{
    const char *p = (const char *)svg->data, *end = p + svg->len;
    size_t n = 0;
    for (const char *t; n < max && (t = memmem(p, (size_t)(end - p), "fill-opacity:0.16;", 18)); p = t + 18) {
        const char *f = t;
        while (f > (const char *)svg->data && memcmp(f, "fill:rgb(", 9) != 0)
            f--;
        const char *close = memchr(f, ')', (size_t)(t - f));
        assert_non_null(close);
        snprintf(out[n++], 64, "%.*s", (int)(close + 1 - f), f);
    }
    return n;
}

/* One timeline run of the given phases, 1 s each; its tints in document
 * order: the legend's (write burst, then each phase), then the bands. */
static size_t timeline_tints(const char *const *phases, size_t n, const char *const *order, size_t n_order,
                             char out[][64], size_t max)
{
    nr_fig_span spans[8];
    double bps[8];
    for (size_t i = 0; i < n; i++) {
        spans[i] = (nr_fig_span){phases[i], (double)i, (double)i + 1};
        bps[i] = 1e6;
    }
    const nr_fig_timeline_run run = {"r", n, 1.0, bps, bps, n, spans, 0, NULL, 0, NULL, NULL, NULL, NULL};
    const nr_fig_timeline_input t = {.n_runs = 1, .runs = &run, .n_phase_order = n_order, .phase_order = order};
    const nr_figure_inputs in = {.timeline = &t};
    nr_render_buf svg;
    render_svg("fig5-throughput-timeline", &in, &svg);
    const size_t k = tint_fills(&svg, out, max);
    nr_render_buf_fini(&svg);
    return k;
}

/* In the timeline, other phase names take the colours no canonical phase
 * of the figure holds (the old rule gave "warmup" data_prep's colour), and
 * with figure 1's order they take the colours figure 1 gives them. The
 * colours are read from the tints of timelines of canonical phases: eval 2,
 * unphased 6, model_load 4, data_prep 5, train 0, checkpoint 1. */
static void timeline_colours_follow_figure_1(void **state)
{
    (void)state;
    char ref[16][64], got[16][64];
    const char *const canon[] = {"checkpoint", "eval", "model_load", "data_prep", "train"};
    assert_int_equal(timeline_tints(canon, 5, NULL, 0, ref, 16), 1 + 5 + 5);
    const char *c1 = ref[1], *c2 = ref[2], *c4 = ref[3], *c5 = ref[4], *c0 = ref[5];

    const char *const own[] = {"data_prep", "model_load", "train", "warmup"};
    assert_int_equal(timeline_tints(own, 4, NULL, 0, got, 16), 1 + 4 + 4);
    const char *want[] = {c5, c4, c0, c1};
    for (int i = 0; i < 4; i++) {
        assert_string_equal(got[1 + i], want[i]);
        assert_string_equal(got[5 + i], want[i]);
    }

    /* figure 1 lists cooldown before warmup: cooldown 1, warmup 2 (as
     * nr__palette_phase_colors gives them), though warmup comes first here */
    const char *const two[] = {"warmup", "cooldown"};
    const char *const order[] = {"train", "cooldown", "warmup"};
    size_t colors[3];
    nr__palette_phase_colors(order, 3, colors);
    assert_int_equal(colors[1], 1);
    assert_int_equal(colors[2], 2);
    assert_int_equal(timeline_tints(two, 2, order, 3, got, 16), 1 + 2 + 2);
    assert_string_equal(got[1], c2);
    assert_string_equal(got[2], c1);
    assert_string_equal(got[3], c2);
    assert_string_equal(got[4], c1);
}

/* Eight epochs as phases and "unphased" in figure 1's list (9 names, 8
 * colours): the timeline's neighbouring bands differ (before, ep7 and ep8
 * both got yellow): ep8 takes ep1's blue, not black, whose tint is the
 * write bursts' grey; where colours must repeat, a name takes the least
 * used colour its predecessor does not hold. */
static void eight_epochs_neighbours_apart(void **state)
{
    (void)state;
    const char *const eps[] = {"ep1", "ep2", "ep3", "ep4", "ep5", "ep6", "ep7", "ep8"};
    const char *const order[] = {"ep1", "ep2", "ep3", "ep4", "ep5", "ep6", "ep7", "ep8", "unphased"};
    char got[24][64];
    assert_int_equal(timeline_tints(eps, 8, order, 9, got, 24), 1 + 8 + 8);
    for (int i = 1; i < 8; i++)
        if (strcmp(got[i], got[i + 1]) == 0)
            fail_msg("ep%d and ep%d share the tint %s", i, i + 1, got[i]);
    /* 9 names, more than the colours: ep8 is in "other 2 phases" (with
       unphased) in figure 1's grey (since session 52; before, ep1's blue) */
    assert_string_equal(got[8], "fill:rgb(72%,72%,72%)");
    size_t colors[9];
    nr__palette_phase_colors(order, 9, colors);
    assert_int_equal(colors[8], 6); /* unphased black */
    for (int j = 1; j < 9; j++)
        assert_true(colors[j] != colors[j - 1]);
    const char *const ten[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
    size_t c10[10];
    nr__palette_phase_colors(ten, 10, c10);
    assert_int_equal(c10[8], 0); /* the fewest uses, a tie: the lowest */
    assert_int_equal(c10[9], 1); /* not 0 again */
}

/* The fills of the tints of a figure 1 SVG's bars (opaque fills), as
 * "fill:rgb(...)" texts, searched for in it. */
static int figure_1_fills(const nr_render_buf *svg, const char *fill)
{
    char opaque[96];
    snprintf(opaque, sizeof opaque, "%s;fill-opacity:1;", fill);
    return occurrences((const char *)svg->data, svg->len, opaque) > 0;
}

/* Figure 5 of 40 phase names, figure 1's input beside it (p<j> of j + 1
 * bytes and seconds: figure 1 keeps p33-p39): the kept phases tinted in
 * figure 1's colours, the other 33 in one band of figure 1's grey, the
 * legend the write burst, "other 33 phases" (p0 comes first) and p33-p39;
 * 1 + 8 legend tints and 1 + 7 bands (before session 52, 40 bands and 20
 * names and "and 20 more" in the legend: 61 tints). And 20,000 names, one
 * a step, make an SVG of a few kB (before: a band a name, over 2 MB). */
static void timeline_folds_as_figure_1(void **state)
{
    (void)state;
    enum { PH = 40, MANY = 20000 };
    static char names[MANY][16];
    static const char *name_of[MANY];
    static nr_fig_span spans[MANY];
    static double bytes[MANY], time[MANY];
    for (int j = 0; j < MANY; j++) {
        snprintf(names[j], sizeof names[j], "p%d", j);
        name_of[j] = names[j];
        bytes[j] = time[j] = j + 1;
        spans[j] = (nr_fig_span){names[j], j * (double)PH / MANY, (j + 1) * (double)PH / MANY};
    }
    static const char *const runs[] = {"r"};
    double bps[PH];
    for (int i = 0; i < PH; i++) {
        bps[i] = 1e6;
        spans[i] = (nr_fig_span){names[i], i, i + 1};
    }
    nr_fig_phase_input phase = {1, runs, PH, name_of, bytes, time, NULL, NULL};
    nr_fig_timeline_run run = {"r", PH, 1.0, bps, bps, PH, spans, 0, NULL, 0, NULL, NULL, NULL, NULL};
    nr_fig_timeline_input t = {.n_runs = 1, .runs = &run, .n_phase_order = PH, .phase_order = name_of};
    const nr_figure_inputs in = {.phase = &phase, .timeline = &t};
    nr_render_buf svg, fig1;
    render_svg("fig5-throughput-timeline", &in, &svg);
    render_svg("fig1-phase-breakdown", &in, &fig1);
    char got[64][64];
    const size_t n = tint_fills(&svg, got, 64);
    if (n != 1 + 8 + 1 + 7)
        fail_msg("%zu tints, expected 17", n);
    assert_string_equal(got[1], "fill:rgb(72%,72%,72%)");    /* the legend: other, first on screen */
    assert_string_equal(got[9], "fill:rgb(72%,72%,72%)");    /* its band */
    for (int k = 0; k < 7; k++) {
        assert_string_equal(got[2 + k], got[10 + k]);        /* p33 + k: legend and band alike */
        if (!figure_1_fills(&fig1, got[2 + k]))
            fail_msg("p%d's tint %s is no colour of figure 1", 33 + k, got[2 + k]);
        for (int k2 = 0; k2 < k; k2++)
            assert_string_not_equal(got[2 + k], got[2 + k2]);
    }
    assert_true(figure_1_fills(&fig1, "fill:rgb(72%,72%,72%)"));
    nr_render_buf_fini(&svg);
    nr_render_buf_fini(&fig1);

    for (int j = 0; j < PH; j++)
        spans[j] = (nr_fig_span){names[j], j * (double)PH / MANY, (j + 1) * (double)PH / MANY};
    phase.n_phases = t.n_phase_order = run.n_phases = MANY;
    render_svg("fig5-throughput-timeline", &in, &svg);
    if (svg.len > 100000)
        fail_msg("%d phase names: an SVG of %zu bytes", MANY, svg.len);
    assert_int_equal(tint_fills(&svg, got, 64), 1 + 8 + 1 + 7);
    nr_render_buf_fini(&svg);
}

/* One run's read latency per phase takes each phase's colour (before
 * session 37 the n-th series took style n: data_prep in checkpoint's
 * vermillion, train in orange): strokes of data_prep's sky blue and
 * train's blue, none of checkpoint's vermillion or eval's green. */
static void latency_phases_in_their_colours(void **state)
{
    (void)state;
    char ref[16][64];
    const char *const canon[] = {"checkpoint", "eval", "model_load", "data_prep", "train"};
    assert_int_equal(timeline_tints(canon, 5, NULL, 0, ref, 16), 1 + 5 + 5);
    char stroke[5][64]; /* checkpoint, eval, model_load, data_prep, train */
    for (int i = 0; i < 5; i++)
        snprintf(stroke[i], sizeof stroke[i], "stroke:%s", ref[1 + i] + strlen("fill:"));
    static double lat[POINTS] = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2}, cdf[POINTS] = {0.1, 0.5, 0.9, 0.99, 1};
    const char *names[] = {"all phases", "data_prep", "train"};
    nr_fig_latency_series ls[3];
    for (int i = 0; i < 3; i++)
        ls[i] = (nr_fig_latency_series){names[i], POINTS, lat, cdf, 1e-5, 1e-3, 1e-2, 0, NULL};
    const nr_fig_latency_input latency = {"read", 3, ls, 1, 0};
    const nr_figure_inputs in = {.latency = &latency};
    nr_render_buf svg;
    render_svg("fig4-read-latency", &in, &svg);
    const char *text = (const char *)svg.data;
    assert_true(occurrences(text, svg.len, stroke[3]) > 0);
    assert_true(occurrences(text, svg.len, stroke[4]) > 0);
    assert_int_equal(occurrences(text, svg.len, stroke[0]), 0);
    assert_int_equal(occurrences(text, svg.len, stroke[1]), 0);
    nr_render_buf_fini(&svg);
}

/* Figure 1's input of one run of 40 phases p0 ... p39, p39 the heaviest
 * (its 7 kept phases p33 ... p39), and figure 4 of its folded series
 * (all phases, 6 of the kept phases, "other 33 phases") drawn with figure
 * 1 into *svg and *fig1. */
enum { FOLD_PHASES = 40, FOLD_SERIES = 8 };

static const nr_fig_phase_input *forty_phases(void)
{
    static char names[FOLD_PHASES][16];
    static const char *name_of[FOLD_PHASES];
    static double bytes[FOLD_PHASES], time[FOLD_PHASES];
    static const char *const runs[] = {"r"};
    static nr_fig_phase_input phase;
    for (int j = 0; j < FOLD_PHASES; j++) {
        snprintf(names[j], sizeof names[j], "p%d", j);
        name_of[j] = names[j];
        bytes[j] = time[j] = j + 1;
    }
    phase = (nr_fig_phase_input){1, runs, FOLD_PHASES, name_of, bytes, time, NULL, NULL};
    return &phase;
}

static void render_folded_latency(const char *const series[FOLD_SERIES], nr_render_buf *svg, nr_render_buf *fig1)
{
    static double lat[POINTS] = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2}, cdf[POINTS] = {0.1, 0.5, 0.9, 0.99, 1};
    nr_fig_latency_series ls[FOLD_SERIES];
    for (int i = 0; i < FOLD_SERIES; i++)
        ls[i] = (nr_fig_latency_series){series[i], POINTS, lat, cdf, 1e-5, 1e-3, 1e-2, 1000, NULL};
    const nr_fig_latency_input latency = {"read", FOLD_SERIES, ls, 1, 33};
    const nr_figure_inputs in = {.phase = forty_phases(), .latency = &latency};
    render_svg("fig4-read-latency", &in, svg);
    render_svg("fig1-phase-breakdown", &in, fig1);
}

/* Figure 4 of one run folds as figure 1 (session 54): the phases figure 1
 * keeps (p33 ... p39 of 40, the heaviest) in figure 1's colours of their
 * names, also when one of them has no reads (p34 here: coloured over the
 * six names drawn, p35 would take p34's vermillion and none black), the
 * other phases' series in figure 1's grey, solid; and figure 1's pick of
 * nr_fig_phase_kept. */
static void latency_folds_as_figure_1(void **state)
{
    (void)state;
    size_t kept[NR_FIG_PHASES - 1], n_kept;
    assert_int_equal(nr_fig_phase_kept(forty_phases(), kept, &n_kept), 0);
    assert_int_equal(n_kept, 7);
    for (size_t k = 0; k < n_kept; k++)
        assert_int_equal(kept[k], 33 + k);
    static const char *const series[FOLD_SERIES] = {"all phases", "p33", "p35", "p36",
                                                    "p37",        "p38", "p39", "other 33 phases"};
    nr_render_buf svg, fig1;
    render_folded_latency(series, &svg, &fig1);
    const char *text = (const char *)svg.data;
    assert_true(occurrences(text, svg.len, "stroke:rgb(0%,0%,0%)") > 0);                 /* p39: black */
    assert_int_equal(occurrences(text, svg.len, "stroke:rgb(83.529412%,36.862745%,0%)"), 0); /* p34's */
    assert_true(figure_1_fills(&fig1, "fill:rgb(0%,0%,0%)"));
    assert_true(occurrences(text, svg.len, "stroke:rgb(72%,72%,72%)") > 0);
    assert_int_equal(occurrences(text, svg.len, CROWD_STROKE), 0); /* a series, not the crowd's thin lines */
    nr_render_buf_fini(&svg);
    nr_render_buf_fini(&fig1);
}

/* "all phases" takes a colour that none of figure 1's 7 kept phases holds,
 * drawn or not: with p36 (figure 1's 4th kept phase, orange) without reads,
 * a pick over the drawn phases' colours gave "all" p36's orange. */
static void latency_all_apart_from_figure_1(void **state)
{
    (void)state;
    static const char *const series[FOLD_SERIES] = {"all phases", "p33", "p34", "p35",
                                                    "p37",        "p38", "p39", "other 33 phases"};
    nr_render_buf svg, fig1;
    render_folded_latency(series, &svg, &fig1);
    const char *text = (const char *)svg.data;
    assert_true(figure_1_fills(&fig1, "fill:rgb(90.196078%,62.352941%,0%)"));              /* p36: orange */
    assert_int_equal(occurrences(text, svg.len, "stroke:rgb(90.196078%,62.352941%,0%)"), 0); /* not "all"'s */
    assert_true(occurrences(text, svg.len, "stroke:rgb(94.117647%,89.411765%,25.882353%)") > 0); /* yellow */
    assert_false(figure_1_fills(&fig1, "fill:rgb(94.117647%,89.411765%,25.882353%)"));
    nr_render_buf_fini(&svg);
    nr_render_buf_fini(&fig1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(picks_lowest_median_highest),
        cmocka_unit_test(curves_of_many_runs_in_grey),
        cmocka_unit_test(rejected_fit_draws_no_line),
        cmocka_unit_test(request_sizes_spread),
        cmocka_unit_test(phases_folded),
        cmocka_unit_test(phase_colours_do_not_clash),
        cmocka_unit_test(timeline_of_many_phases),
        cmocka_unit_test(timeline_of_many_instances),
        cmocka_unit_test(timeline_strip_of_waits),
        cmocka_unit_test(timeline_colours_follow_figure_1),
        cmocka_unit_test(eight_epochs_neighbours_apart),
        cmocka_unit_test(timeline_folds_as_figure_1),
        cmocka_unit_test(latency_phases_in_their_colours),
        cmocka_unit_test(latency_folds_as_figure_1),
        cmocka_unit_test(latency_all_apart_from_figure_1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
