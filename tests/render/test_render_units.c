/* Unit tests of the chart layer: nice ticks, log decades, unit labels,
 * request-size bins and the figure registry, with answers worked by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "render_internal.h"

static void assert_ticks(double lo, double hi, int max, const double *want, size_t n_want)
{
    double got[64];
    size_t n = nr__nice_ticks(lo, hi, max, got, 64);
    assert_int_equal(n, n_want);
    for (size_t i = 0; i < n; i++)
        assert_true(fabs(got[i] - want[i]) < 1e-9 * fmax(1, fabs(want[i])));
}

static void nice_ticks_use_1_2_5_steps(void **state)
{
    const double ones[] = {0, 1, 2, 3, 4, 5, 6, 7};
    assert_ticks(0, 7.3, 8, ones, 8);
    const double twos[] = {0, 2, 4, 6};
    assert_ticks(0, 7.3, 5, twos, 4);
    const double fives[] = {0, 50, 100};
    assert_ticks(0, 100, 4, fives, 3);
    const double small[] = {0.2, 0.4, 0.6};
    assert_ticks(0.13, 0.7, 3, small, 3);
    const double neg[] = {-10, -5, 0, 5};
    assert_ticks(-12, 7, 4, neg, 4);
    assert_true(fabs(nr__nice_step(0, 1, 6) - 0.2) < 1e-12);
}

static void log_decades_inside_range(void **state)
{
    int a, b;
    assert_int_equal(nr__log_decades(3, 4.5e9, &a, &b), 9);
    assert_int_equal(a, 1);
    assert_int_equal(b, 9);
    assert_int_equal(nr__log_decades(1e-3, 1, &a, &b), 4);
    assert_int_equal(a, -3);
    assert_int_equal(b, 0);
    assert_int_equal(nr__log_decades(2, 8, &a, &b), 0);
    assert_int_equal(nr__log_decades(0, 8, &a, &b), 0);
}

static void log_axis_labels_powers_and_minors(void **state)
{
    nr__axis a = {.log = 1, .unit = NR__UNIT_BYTES, .label_pt = 7};
    nr__axis_setup(&a, 3, 4.5e9, 12);
    size_t majors = 0, minors = 0;
    for (size_t i = 0; i < a.n_ticks; i++) {
        majors += a.ticks[i].major;
        minors += !a.ticks[i].major;
    }
    /* 10^0 .. 10^9: both ends padded out of the data (3 and 4.5e9 are on
       no frame since session 49), to 1 and 9e9 */
    assert_true(a.lo == 1 && a.hi == 9e9);
    assert_int_equal(majors, 10);
    assert_int_equal(minors, 0);  /* over 8 decades minor ticks would blur */
    assert_non_null(strstr(a.ticks[1].label, ">1</span>"));
    assert_non_null(strstr(a.ticks[9].label, ">9</span>"));

    nr__axis m = {.log = 1};
    nr__axis_setup(&m, 1e-3, 1, 6);
    majors = minors = 0;
    for (size_t i = 0; i < m.n_ticks; i++) {
        majors += m.ticks[i].major;
        minors += !m.ticks[i].major;
    }
    assert_int_equal(majors, 4);
    /* 2..9 in each of three decades, and 9e-4 of the padding: 1e-3 and 1 lie on no frame */
    assert_true(fabs(m.lo - 8e-4) < 1e-15 && m.hi == 2);
    assert_int_equal(minors, 3 * 8 + 1);
    size_t first_major = 0;
    while (!m.ticks[first_major].major)
        first_major++;
    assert_non_null(strstr(m.ticks[first_major].label, "\xe2\x88\x92" "3</span>")); /* 10^-3 with a minus sign */
    char title[64];
    a.title = "File size";
    nr__axis_title(&a, title, sizeof title);
    assert_string_equal(title, "File size (B)");

    /* Less than a decade of data widens to whole decades. */
    nr__axis b = {.log = 1};
    nr__axis_setup(&b, 2, 8, 6);
    assert_true(b.lo == 1 && b.hi == 10);

    /* Seconds on log axes read as units. */
    nr__axis c = {.log = 1, .unit = NR__UNIT_SECONDS};
    nr__axis_setup(&c, 1e-6, 1e-3, 6);
    size_t c_major = 0;   /* after the padding's minor ticks below 1 us */
    while (!c.ticks[c_major].major)
        c_major++;
    assert_string_equal(c.ticks[c_major].label, "1 \xc2\xb5s");
}

static void linear_axis_picks_binary_unit(void **state)
{
    nr__axis a = {.unit = NR__UNIT_BYTES, .include_zero = 1, .title = "Bytes"};
    nr__axis_setup(&a, 0, 3.2 * 1073741824.0, 6);
    assert_string_equal(a.unit_text, "GiB");
    assert_true(a.lo == 0);
    assert_true(fabs(a.hi - 4 * 1073741824.0) < 1); /* 0, 1, 2, 3, 4 GiB */
    assert_int_equal(a.n_ticks, 5);
    assert_string_equal(a.ticks[2].label, "2");
    char title[64];
    nr__axis_title(&a, title, sizeof title);
    assert_string_equal(title, "Bytes (GiB)");

    nr__axis p = {.unit = NR__UNIT_PERCENT, .fixed = 1};
    nr__axis_setup(&p, 0, 1, 6);
    assert_string_equal(p.ticks[p.n_ticks - 1].label, "100");
    assert_string_equal(p.unit_text, "%");

    nr__axis t = {.unit = NR__UNIT_SECONDS};
    nr__axis_setup(&t, 0, 0.0042, 5);
    assert_string_equal(t.unit_text, "ms");
}

static void unit_labels(void **state)
{
    char b[32];
    assert_string_equal(nr_render_fmt_bytes(1536, b, sizeof b), "1.5 KiB");
    assert_string_equal(nr_render_fmt_bytes(0, b, sizeof b), "0 B");
    assert_string_equal(nr_render_fmt_bytes(100, b, sizeof b), "100 B");
    assert_string_equal(nr_render_fmt_bytes(1023, b, sizeof b), "1023 B");
    assert_string_equal(nr_render_fmt_bytes(1048576, b, sizeof b), "1 MiB");
    assert_string_equal(nr_render_fmt_bytes(5e9, b, sizeof b), "4.66 GiB");
    assert_string_equal(nr_render_fmt_bytes(NAN, b, sizeof b), "n/a");
    assert_string_equal(nr_render_fmt_seconds(1.5e-6, b, sizeof b), "1.5 \xc2\xb5s");
    assert_string_equal(nr_render_fmt_seconds(0.002, b, sizeof b), "2 ms");
    assert_string_equal(nr_render_fmt_seconds(3, b, sizeof b), "3 s");
    assert_string_equal(nr_render_fmt_seconds(5e-9, b, sizeof b), "5 ns");
    assert_string_equal(nr_render_fmt_seconds(0, b, sizeof b), "0 s");
    assert_string_equal(nr_render_fmt_percent(0.1234, b, sizeof b), "12.3%");
    assert_string_equal(nr_render_fmt_percent(1, b, sizeof b), "100%");
    assert_string_equal(nr_render_fmt_percent(0.00125, b, sizeof b), "0.125%");
}

/* Linear time axes in ns .. s, and in hours from 3 h on (a 100 h run was
 * labelled 0 .. 300000 s). */
static void time_axis_units(void **state)
{
    char t[16];
    assert_true(nr__unit_scale(NR__UNIT_SECONDS, 0.5, t, sizeof t) == 1e-3);
    assert_string_equal(t, "ms");
    assert_true(nr__unit_scale(NR__UNIT_SECONDS, 7200, t, sizeof t) == 1.0);
    assert_string_equal(t, "s");
    assert_true(nr__unit_scale(NR__UNIT_SECONDS, 360000, t, sizeof t) == 3600.0);
    assert_string_equal(t, "h");
    nr__axis a = {.unit = NR__UNIT_SECONDS, .include_zero = 1, .title = "Time since start"};
    nr__axis_setup(&a, 0, 360000, 6);
    char title[64];
    nr__axis_title(&a, title, sizeof title);
    assert_string_equal(title, "Time since start (h)");
    assert_string_equal(a.ticks[a.n_ticks - 1].label, "100");
}

static void reqsize_bins_follow_darshan(void **state)
{
    assert_int_equal(nr_fig_reqsize_bin(0), 0);
    assert_int_equal(nr_fig_reqsize_bin(99), 0);
    assert_int_equal(nr_fig_reqsize_bin(100), 1);
    assert_int_equal(nr_fig_reqsize_bin(4096), 2);
    assert_int_equal(nr_fig_reqsize_bin(1048576), 5); /* 1 MiB > 1e6 */
    assert_int_equal(nr_fig_reqsize_bin(4e6), 6);
    assert_int_equal(nr_fig_reqsize_bin(1e9 - 1), 8);
    assert_int_equal(nr_fig_reqsize_bin(1e9), 9);
    assert_int_equal(nr_fig_reqsize_bin(NAN), 0);
}

static void registry_is_complete(void **state)
{
    assert_int_equal(nr_figures_count, 7);
    for (size_t i = 0; i < nr_figures_count; i++) {
        assert_int_equal(nr_figures[i].id, (int)i + 1);
        assert_non_null(nr_figures[i].draw);
        assert_non_null(nr_figures[i].height);
        for (size_t j = 0; j < i; j++)
            assert_true(strcmp(nr_figures[i].stem, nr_figures[j].stem) != 0);
    }
    assert_ptr_equal(nr_figure_find("fig3"), &nr_figures[2]);
    assert_ptr_equal(nr_figure_find("fig1-phase-breakdown"), &nr_figures[0]);
    assert_null(nr_figure_find("fig9"));
    nr_render_format f;
    assert_int_equal(nr_render_format_parse("pdf", &f, NULL), 0);
    assert_int_equal(f, NR_RENDER_PDF);
    assert_int_equal(nr_render_format_parse("eps", &f, NULL), NR_E_USAGE);
}

/* fig4's p50, p99, p99.9 names: at the left end of their line unless a
 * marker covers them there and not at the right. */
static void level_name_side(void **state)
{
    (void)state;
    const double left = 50, right = 300, w = 20, r = 2.5;
    const double none[1] = {0};
    assert_int_equal(nr__level_name_right(none, 0, r, left, right, w), 0);
    const double middle[] = {150, 200};
    assert_int_equal(nr__level_name_right(middle, 2, r, left, right, w), 0);
    const double at_left[] = {60, 200};
    assert_int_equal(nr__level_name_right(at_left, 2, r, left, right, w), 1);
    const double radius_reaches[] = {left + w + r - 0.1};
    assert_int_equal(nr__level_name_right(radius_reaches, 1, r, left, right, w), 1);
    const double radius_clear[] = {left + w + r + 0.1};
    assert_int_equal(nr__level_name_right(radius_clear, 1, r, left, right, w), 0);
    const double both_ends[] = {55, 295};
    assert_int_equal(nr__level_name_right(both_ends, 2, r, left, right, w), 0); /* covered either way: the left */
}

/* fig5's phase names: the band's middle unless a mark or a burst crosses
 * the name there; then the nearest free place in steps of a quarter of the
 * name; the middle when the band has none. */
static void band_name_avoids_marks_and_bursts(void **state)
{
    (void)state;
    const double w = 20;
    assert_true(nr__band_name_centre(0, 200, w, NULL, 0) == 100);
    const double away[] = {10, 12, 180, 190};
    assert_true(nr__band_name_centre(0, 200, w, away, 2) == 100);
    const double mark_at_middle[] = {99, 101};
    const double x = nr__band_name_centre(0, 200, w, mark_at_middle, 1);
    assert_true(x == 115); /* 100 + 3 steps of 5: the name [105, 125] clears 101 */
    const double burst_right[] = {95, 140}; /* covers the middle and the right: the left */
    assert_true(nr__band_name_centre(0, 200, w, burst_right, 1) == 80);
    const double everywhere[] = {0, 200};
    assert_true(nr__band_name_centre(0, 200, w, everywhere, 1) == 100);
    /* the name keeps 2 points from the edges: a band of 30 has one place */
    const double mark_mid_narrow[] = {14, 16};
    assert_true(nr__band_name_centre(0, 30, w, mark_mid_narrow, 1) == 15);
}

/* A legend label keeps its suffix: a long name loses its end to an
 * ellipsis, cut at a character's end (é is two bytes), never the "(Gini
 * 0.61)"; names that fit are left whole. */
static void name_label_keeps_the_suffix(void **state)
{
    char buf[20];
    nr__name_label(buf, sizeof buf, "lm", " (Gini %.2f)", 0.614);
    assert_string_equal(buf, "lm (Gini 0.61)");
    nr__name_label(buf, sizeof buf, "resnet50", " (Gini %.2f)", 0.614); /* 4 bytes left for the name */
    assert_string_equal(buf, "resn\xe2\x80\xa6 (Gini 0.61)");
    /* 16 bytes of name, 9 left: 4 characters of 2 bytes */
    nr__name_label(buf, sizeof buf, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", " (p %d)", 12);
    assert_string_equal(buf, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xe2\x80\xa6 (p 12)");
    nr__name_label(buf, sizeof buf, NULL, "%s", "");
    assert_string_equal(buf, "?");
}

/* A probability axis (bound 1) of one value widens downwards: a CCDF of one
 * file, or of files of one size, is P = 1 on 0.1..1, not on 1..10 with 90%
 * of the plot above certainty. Without a bound one value shows its decade
 * upwards, as before. */
static void bounded_log_axis_widens_down(void **state)
{
    nr__axis p = {.log = 1, .bound = 1.0};
    nr__axis_setup(&p, 1, 1, 6);
    assert_true(p.lo == 0.1 && p.hi == 1.0);
    nr__axis q = {.log = 1, .bound = 1.0};
    nr__axis_setup(&q, 0.5, 0.5, 6);
    assert_true(q.lo == 0.01 && q.hi == 1.0);
    nr__axis b = {.log = 1};
    nr__axis_setup(&b, 4096, 4096, 6);
    assert_true(b.lo == 1000 && b.hi == 1e5);
    nr__axis r = {.log = 1, .bound = 1.0};
    nr__axis_setup(&r, 0.0025, 1, 6); /* a range: padded below (since session 49), not above its bound */
    assert_true(fabs(r.lo - 0.002) < 1e-15 && r.hi == 1.0);
}

/* Figure 5 names one bin width when its panels share it (session 50):
 * the runs with bins decide; a run without bins (no timestamps) does not,
 * and the panels not drawn (past n) do not either. */
static void timeline_shared_bin_width(void **state)
{
    static const double rates[2] = {1, 2};
    nr_fig_timeline_run runs[4] = {
        {.name = "a", .n_bins = 2, .bin_s = 0.1, .read_bps = rates, .write_bps = rates},
        {.name = "none", .n_bins = 0, .bin_s = 1.0},
        {.name = "b", .n_bins = 2, .bin_s = 0.1, .read_bps = rates, .write_bps = rates},
        {.name = "c", .n_bins = 2, .bin_s = 0.05, .read_bps = rates, .write_bps = rates},
    };
    const nr_fig_timeline_input t = {.n_runs = 4, .runs = runs};
    assert_true(nr_fig_timeline_shared_bin(&t, 3) == 0.1);
    assert_true(isnan(nr_fig_timeline_shared_bin(&t, 4)));
    assert_true(nr_fig_timeline_shared_bin(&t, 1) == 0.1);
    assert_true(isnan(nr_fig_timeline_shared_bin(&(nr_fig_timeline_input){.n_runs = 1, .runs = runs + 1}, 1)));
    assert_true(isnan(nr_fig_timeline_shared_bin(NULL, 4)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nice_ticks_use_1_2_5_steps),
        cmocka_unit_test(log_decades_inside_range),
        cmocka_unit_test(log_axis_labels_powers_and_minors),
        cmocka_unit_test(bounded_log_axis_widens_down),
        cmocka_unit_test(linear_axis_picks_binary_unit),
        cmocka_unit_test(unit_labels),
        cmocka_unit_test(time_axis_units),
        cmocka_unit_test(level_name_side),
        cmocka_unit_test(band_name_avoids_marks_and_bursts),
        cmocka_unit_test(reqsize_bins_follow_darshan),
        cmocka_unit_test(registry_is_complete),
        cmocka_unit_test(name_label_keeps_the_suffix),
        cmocka_unit_test(timeline_shared_bin_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
