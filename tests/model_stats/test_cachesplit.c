/* model/cachesplit: the valley of synthetic bimodal read latencies, the
 * mixture fallback on a shoulder, and no split on unimodal latencies. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "cachesplit.h"

enum { READS = 100000 };

/* Adds READS lognormal latencies: with probability w median m1 ns, else m2,
 * both with log-sd s (natural log). Returns the reads drawn from m2. */
static uint64_t fill_mix(nr_loghist *h, unsigned long seed, double w, double m1, double m2, double s)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    nr_loghist_init(h);
    uint64_t slow = 0;
    for (int i = 0; i < READS; i++) {
        const int fast = gsl_rng_uniform(r) < w;
        slow += !fast;
        nr_loghist_add(h, (int64_t)llround((fast ? m1 : m2) * exp(gsl_ran_gaussian(r, s))));
    }
    gsl_rng_free(r);
    return slow;
}

/* Bin holding the threshold's last fast nanosecond. */
static int valley_bin(const nr_cache_split *c)
{
    return nr_loghist_bin(c->threshold_ns - 1);
}

/* 90% around 2 us, 10% around 5 ms (log-sd 0.3): no read falls between about
 * 10 us and 1 ms, so the split is exact: every slow read is a 5 ms one. */
static void separated_modes(void **state)
{
    nr_loghist h;
    const uint64_t slow = fill_mix(&h, 1, 0.9, 2000, 5e6, 0.3);
    nr_cache_split c;
    assert_int_equal(nr_cache_split_compute(&h, &c), 0);
    assert_int_equal(c.found, 1);
    assert_string_equal(c.method, "valley");
    assert_int_equal(c.slow_count, slow);
    assert_int_equal(c.fast_count, READS - slow);
    assert_true(fabs(c.slow_share - (double)slow / READS) < 1e-15);
    /* the middle of the empty gap: about sqrt(10 us * 1 ms) = 100 us */
    if (!(c.threshold_ns > 20000 && c.threshold_ns < 500000))
        fail_msg("threshold %lld ns", (long long)c.threshold_ns);
    assert_true(isnan(c.slow_bytes_share));
    nr_cache_split_bytes(&c, 250, 1000);
    assert_true(c.slow_bytes_share == 0.25);
    assert_int_equal(c.misses_plausible, 1); /* about 100 us >= 10 us */
}

/* 80% around 1.5 us, 20% around 6 us (log-sd 0.1): two modes, split
 * between them, under NR_CACHE_MISS_MIN_NS: no mode can be misses. */
static void modes_of_hits(void **state)
{
    nr_loghist h;
    const uint64_t slow = fill_mix(&h, 3, 0.8, 1500, 6000, 0.1);
    nr_cache_split c;
    assert_int_equal(nr_cache_split_compute(&h, &c), 0);
    assert_int_equal(c.found, 1);
    assert_int_equal(c.slow_count, slow);
    if (!(c.threshold_ns > 1500 && c.threshold_ns <= 6000))
        fail_msg("threshold %lld ns", (long long)c.threshold_ns);
    assert_int_equal(c.misses_plausible, 0);
}

/* 70% around 10 us, 30% around 1 ms, log-sd 1 (overlapping): the valley bin is
 * within one bin of the minimum of the mixture density of log10(latency),
 * located here numerically on a fine grid. */
static void overlapping_modes(void **state)
{
    nr_loghist h;
    fill_mix(&h, 2, 0.7, 1e4, 1e6, 1.0);
    nr_cache_split c;
    nr_cache_split_compute(&h, &c);
    assert_int_equal(c.found, 1);
    assert_string_equal(c.method, "valley");
    const double sd = 1.0 / log(10);
    double best_y = 4, best_f = INFINITY;
    for (double y = 4; y <= 6; y += 1e-5) {
        const double f = 0.7 * exp(-0.5 * pow((y - 4) / sd, 2)) + 0.3 * exp(-0.5 * pow((y - 6) / sd, 2));
        if (f < best_f)
            best_f = f, best_y = y;
    }
    const int want = (int)ceil(best_y * NR_LOGHIST_PER_DECADE);
    if (abs(valley_bin(&c) - want) > 1)
        fail_msg("valley bin %d, density minimum in bin %d (log10 %.4f)", valley_bin(&c), want, best_y);
}

/* 85% around 10 us, 15% around 80 us, log-sd 0.6: a shoulder rather than a
 * deep valley; the mixture (Ashman D = ln 8 / 0.6 = 3.5) splits where the
 * weighted components cross: ln x = mid + s^2 ln(0.85/0.15) / ln 8, x = 38.2 us. */
static void shoulder_uses_mixture(void **state)
{
    nr_loghist h;
    fill_mix(&h, 3, 0.85, 1e4, 8e4, 0.6);
    nr_cache_split c;
    nr_cache_split_compute(&h, &c);
    assert_int_equal(c.found, 1);
    assert_string_equal(c.method, "mixture");
    const double cross = exp(0.5 * (log(1e4) + log(8e4)) + 0.36 * log(0.85 / 0.15) / log(8.0));
    const int want = nr_loghist_bin((int64_t)cross);
    if (abs(valley_bin(&c) - want) > 1)
        fail_msg("last fast bin %d, crossing %.0f ns in bin %d", valley_bin(&c), cross, want);
    assert_true(fabs(c.slow_share - 0.15) < 0.03);
}

static void unimodal_has_no_split(void **state)
{
    nr_loghist h;
    fill_mix(&h, 4, 1.0, 5e4, 1, 0.8); /* one lognormal */
    nr_cache_split c;
    nr_cache_split_compute(&h, &c);
    assert_int_equal(c.found, 0);
    assert_string_equal(c.method, "none");
    assert_int_equal(c.slow_count, 0);
    /* exponential latencies, mean 100 us: skewed on a log scale, still one mode */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 5);
    nr_loghist_init(&h);
    for (int i = 0; i < READS; i++)
        nr_loghist_add(&h, (int64_t)llround(gsl_ran_exponential(r, 1e5)));
    gsl_rng_free(r);
    nr_cache_split_compute(&h, &c);
    assert_int_equal(c.found, 0);
}

static void too_few_reads(void **state)
{
    nr_loghist h;
    nr_loghist_init(&h);
    for (int i = 0; i < 99; i++)
        nr_loghist_add(&h, i % 2 ? 1000 : 10000000);
    nr_cache_split c;
    nr_cache_split_compute(&h, &c);
    assert_int_equal(c.found, 0);
    nr_loghist_add(&h, 1000); /* 100 reads: 50 at 1 us, 50 at 10 ms: split */
    nr_cache_split_compute(&h, &c);
    assert_int_equal(c.found, 1);
    assert_int_equal(c.slow_count, 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(separated_modes),
        cmocka_unit_test(modes_of_hits),
        cmocka_unit_test(overlapping_modes),
        cmocka_unit_test(shoulder_uses_mixture),
        cmocka_unit_test(unimodal_has_no_split),
        cmocka_unit_test(too_few_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
