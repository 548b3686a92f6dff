/* model/compare_stats and the pairing of model/compare: known answers by
 * hand (KS on tiny samples, Kolmogorov distribution values from tables),
 * bootstrap determinism and validity, reservoir sampling, the verdict rule.
 * The scipy cross-check lives in ks_scipy_check.py (ctest compare_ks_scipy). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"
#include "compare_stats.h"

/* Prints both values on failure. */
static void assert_near(double got, double want, double tol, const char *expr, const char *file, int line)
{
    if (!(fabs(got - want) <= tol)) {
        print_error("%s = %.17g, expected %.17g (tol %g)\n", expr, got, want, tol);
        _fail(file, line);
    }
}
#define ASSERT_NEAR(a, b, tol) assert_near((double)(a), (double)(b), (double)(tol), #a, __FILE__, __LINE__)

static int cmp_d(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void ks_by_hand(void **state)
{
    nr_ks_result r;
    /* Disjoint samples of 3: D = 1; only 2 of the C(6,3) = 20 orderings reach it. */
    const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
    assert_int_equal(nr_ks_2samp(a, 3, b, 3, &r), 0);
    ASSERT_NEAR(r.d, 1.0, 0);
    ASSERT_NEAR(r.p_value, 2.0 / 20.0, 1e-12);
    assert_int_equal(r.method, NR_KS_EXACT);
    /* Order does not matter (sorted copies). */
    const double b_shuffled[] = {6, 4, 5};
    assert_int_equal(nr_ks_2samp(b_shuffled, 3, a, 3, &r), 0);
    ASSERT_NEAR(r.d, 1.0, 0);
    /* Disjoint samples of 2: 2 of C(4,2) = 6 orderings. */
    const double c[] = {1, 2}, d[] = {3, 4};
    nr_ks_2samp_sorted(c, 2, d, 2, &r);
    ASSERT_NEAR(r.p_value, 1.0 / 3.0, 1e-12);
    /* Interleaved: D = 1/2, which every ordering of 2 + 2 reaches: p = 1. */
    const double e[] = {1, 3}, f[] = {2, 4};
    nr_ks_2samp_sorted(e, 2, f, 2, &r);
    ASSERT_NEAR(r.d, 0.5, 1e-15);
    ASSERT_NEAR(r.p_value, 1.0, 1e-12);
    /* Ties across samples step both ECDFs at once: F_a(1) = 2/3, F_b(1) = 1/3. */
    const double g[] = {1, 1, 2}, h[] = {1, 2, 2};
    nr_ks_2samp_sorted(g, 3, h, 3, &r);
    ASSERT_NEAR(r.d, 1.0 / 3.0, 1e-15);
    /* Identical samples: D = 0, p = 1. */
    nr_ks_2samp_sorted(a, 3, a, 3, &r);
    ASSERT_NEAR(r.d, 0.0, 0);
    ASSERT_NEAR(r.p_value, 1.0, 0);
    /* An empty side: NAN. */
    nr_ks_2samp_sorted(a, 3, b, 0, &r);
    assert_true(isnan(r.d) && isnan(r.p_value));
}

static void kolmogorov_values(void **state)
{
    /* Q(lambda) from tables (Smirnov 1948; scipy.special.kolmogorov agrees to 1e-15). */
    ASSERT_NEAR(nr_kolmogorov_sf(0.5), 0.9639452436648751, 1e-12);
    ASSERT_NEAR(nr_kolmogorov_sf(1.0), 0.26999967167735456, 1e-12);
    ASSERT_NEAR(nr_kolmogorov_sf(1.17), 0.12939004218561884, 1e-12);
    ASSERT_NEAR(nr_kolmogorov_sf(1.19), 0.11774229287977166, 1e-12);
    ASSERT_NEAR(nr_kolmogorov_sf(1.36), 0.049485876755377876, 1e-12);
    ASSERT_NEAR(nr_kolmogorov_sf(2.0), 0.0006709252557796953, 1e-15);
    ASSERT_NEAR(nr_kolmogorov_sf(3.0), 3.045995948942526e-08, 1e-18);
    ASSERT_NEAR(nr_kolmogorov_sf(0.0), 1.0, 0);
}

static void ks_large_is_asymptotic(void **state)
{
    /* 5000 x 5000 > NR_KS_EXACT_MAX_PRODUCT: asymptotic; shifted halves of a grid. */
    enum { N = 5000 };
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = i + 250;   /* D = 250 / 5000 = 0.05 */
    }
    nr_ks_result r;
    nr_ks_2samp_sorted(a, N, b, N, &r);
    assert_int_equal(r.method, NR_KS_ASYMPTOTIC);
    ASSERT_NEAR(r.d, 0.05, 1e-12);
    ASSERT_NEAR(r.p_value, nr_kolmogorov_sf(sqrt(N / 2.0) * 0.05), 1e-15);
    free(a);
    free(b);
}

static void ks_practical_distance(void **state)
{
    /* Every value one tick (1 us) faster: D is large, but within the tolerance nothing moved. */
    double a[100], b[100];
    for (int i = 0; i < 100; i++) {
        a[i] = (10 + i % 5) * 1e-6;   /* 10..14 us, 20 each */
        b[i] = (9 + i % 5) * 1e-6;
    }
    qsort(a, 100, sizeof a[0], cmp_d);
    qsort(b, 100, sizeof b[0], cmp_d);
    nr_ks_result r;
    nr_ks_2samp_sorted(a, 100, b, 100, &r);
    ASSERT_NEAR(r.d, 0.2, 1e-12);
    ASSERT_NEAR(r.d_practical, r.d, 0);   /* until computed */
    ASSERT_NEAR(nr_ks_practical_distance_sorted(a, 100, b, 100, 0.0, 0.0), 0.2, 1e-12);
    ASSERT_NEAR(nr_ks_practical_distance_sorted(a, 100, b, 100, 0.0, 1e-6), 0.0, 0);
    ASSERT_NEAR(nr_ks_practical_distance_sorted(b, 100, a, 100, 0.10, 1e-6), 0.0, 0);
    /* Twice as slow (20..28 us). */
    for (int i = 0; i < 100; i++)
        b[i] = 2 * a[i];
    const double dp = nr_ks_practical_distance_sorted(a, 100, b, 100, 0.10, 1e-6);
    /* F_a(14 us) - F_b(14 * 1.1 + 1 = 16.4 us) = 1 - 0 = 1 (b's smallest value is 20 us). */
    ASSERT_NEAR(dp, 1.0, 1e-12);
    /* Half of the calls 3x slower: 50% of the mass moved beyond any tolerance. */
    for (int i = 0; i < 100; i++)
        b[i] = i < 50 ? a[i] : 3 * a[i];
    qsort(b, 100, sizeof b[0], cmp_d);
    ASSERT_NEAR(nr_ks_practical_distance_sorted(a, 100, b, 100, 0.10, 1e-6), 0.5, 1e-12);
}

static void quantile_nearest_rank(void **state)
{
    const double x[] = {10, 20, 30, 40};
    ASSERT_NEAR(nr_quantile_sorted(x, 4, 0.5), 20, 0);    /* rank ceil(2) = 2 */
    ASSERT_NEAR(nr_quantile_sorted(x, 4, 0.51), 30, 0);   /* rank ceil(2.04) = 3 */
    ASSERT_NEAR(nr_quantile_sorted(x, 4, 0.99), 40, 0);
    ASSERT_NEAR(nr_quantile_sorted(x, 4, 1.0), 40, 0);
    assert_true(isnan(nr_quantile_sorted(x, 0, 0.5)));
}

static double *grid(size_t n, double scale, double offset)
{
    double *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++)
        x[i] = offset + scale * (double)(i + 1) / (double)n;
    return x;
}

static void bootstrap_deterministic(void **state)
{
    double *a = grid(500, 1.0, 0.0), *b = grid(700, 1.1, 0.0);
    nr_boot_opts o = {.bootstraps = 400, .seed = 7, .level = 0.95};
    nr_boot_ci c1, c2, c3;
    assert_int_equal(nr_boot_quantile_diff_sorted(a, 500, b, 700, 0.99, &o, &c1), 0);
    assert_int_equal(nr_boot_quantile_diff_sorted(a, 500, b, 700, 0.99, &o, &c2), 0);
    assert_memory_equal(&c1, &c2, sizeof c1);   /* same seed, same interval, bit for bit */
    o.seed = 8;
    assert_int_equal(nr_boot_quantile_diff_sorted(a, 500, b, 700, 0.99, &o, &c3), 0);
    assert_true(c3.low != c1.low || c3.high != c1.high);
    assert_int_equal(c1.bootstraps, 400);
    /* The estimate is the plain difference of nearest-rank quantiles. */
    ASSERT_NEAR(c1.estimate, nr_quantile_sorted(b, 700, 0.99) - nr_quantile_sorted(a, 500, 0.99), 0);
    assert_true(c1.low <= c1.estimate && c1.estimate <= c1.high);
    /* Defaults: B = NR_COMPARE_DEFAULT_BOOTSTRAPS with opts NULL. */
    assert_int_equal(nr_boot_quantile_diff_sorted(a, 500, b, 700, 0.5, NULL, &c3), 0);
    assert_int_equal(c3.bootstraps, NR_COMPARE_DEFAULT_BOOTSTRAPS);
    assert_int_equal(nr_boot_quantile_diff_sorted(a, 0, b, 700, 0.5, NULL, &c3), NR_E_INPUT);
    free(a);
    free(b);
}

static void bootstrap_constant_samples(void **state)
{
    /* Every resample of a constant sample has the same quantile: the CI is a point. */
    double a[50], b[80];
    for (int i = 0; i < 50; i++)
        a[i] = 1.0;
    for (int i = 0; i < 80; i++)
        b[i] = 3.0;
    nr_boot_ci c;
    assert_int_equal(nr_boot_quantile_diff_sorted(a, 50, b, 80, 0.99, NULL, &c), 0);
    ASSERT_NEAR(c.low, 2.0, 0);
    ASSERT_NEAR(c.high, 2.0, 0);
    /* Throughput: 100 B in 1 s per call vs 300 B in 1 s: 200 B/s more, every resample. */
    double by_a[50], s_a[50], by_b[80], s_b[80];
    for (int i = 0; i < 50; i++) {
        by_a[i] = 100;
        s_a[i] = 1;
    }
    for (int i = 0; i < 80; i++) {
        by_b[i] = 300;
        s_b[i] = 1;
    }
    assert_int_equal(nr_boot_throughput_diff(by_a, s_a, 50, by_b, s_b, 80, NULL, &c), 0);
    ASSERT_NEAR(c.estimate, 200.0, 1e-9);
    ASSERT_NEAR(c.low, 200.0, 1e-9);
    ASSERT_NEAR(c.high, 200.0, 1e-9);
}

/* Naive bootstrap replicate: resample n values, sort, take the nearest rank. */
static double naive_quantile(nr_rng *r, const double *x, size_t n, double q, double *tmp)
{
    for (size_t i = 0; i < n; i++)
        tmp[i] = x[nr_rng_below(r, n)];
    for (size_t i = 1; i < n; i++)   /* insertion sort: n is small */
        for (size_t j = i; j > 0 && tmp[j - 1] > tmp[j]; j--) {
            const double t = tmp[j];
            tmp[j] = tmp[j - 1];
            tmp[j - 1] = t;
        }
    return nr_quantile_sorted(tmp, n, q);
}

static void bootstrap_beta_matches_resampling(void **state)
{
    /* The Beta order-statistic shortcut must have the distribution of the
     * naive resampling bootstrap: compare P(replicate <= x_(k)) for several k
     * over 20000 replicates each (binomial sd about 0.0035). */
    enum { N = 40, REPS = 20000 };
    double x[N], tmp[N];
    for (int i = 0; i < N; i++)
        x[i] = i + 1;
    const double q = 0.9;
    nr_rng r2;
    nr_rng_seed(&r2, 12);
    int le_beta[N + 1] = {0}, le_naive[N + 1] = {0};
    /* Differences against a one-value zero sample expose the replicate distribution of b. */
    const double zero[1] = {0.0};
    for (int i = 0; i < REPS; i++) {
        const double v = naive_quantile(&r2, x, N, q, tmp);
        le_naive[(int)v]++;
    }
    /* Beta replicates directly: reuse the API one replicate at a time. */
    for (int i = 0; i < REPS; i++) {
        nr_boot_opts one = {.bootstraps = 1, .seed = 1000 + (uint64_t)i, .level = 0.5};
        nr_boot_ci c;
        assert_int_equal(nr_boot_quantile_diff_sorted(zero, 1, x, N, q, &one, &c), 0);
        le_beta[(int)c.low]++;
    }
    double cb = 0, cn = 0;
    for (int k = 1; k <= N; k++) {
        cb += le_beta[k];
        cn += le_naive[k];
        ASSERT_NEAR(cb / REPS, cn / REPS, 0.02);
    }
    /* Exact check of one point: P(rank-36 statistic <= x_(34)) = P(Binomial(40, 34/40) >= 36) = 0.2386... */
    double p = 0.0;
    for (int j = 36; j <= 40; j++) {
        double c = 1.0;
        for (int t = 0; t < j; t++)
            c = c * (40 - t) / (t + 1);
        p += c * pow(34.0 / 40, j) * pow(6.0 / 40, 40 - j);
    }
    double below = 0;
    for (int k = 1; k <= 34; k++)
        below += le_beta[k];
    ASSERT_NEAR(below / REPS, p, 0.015);
}

static void reservoir(void **state)
{
    nr_reservoir r;
    nr_reservoir_init(&r, 10, 3);
    for (int i = 0; i < 7; i++)
        assert_int_equal(nr_reservoir_add(&r, i, 2 * i), 0);
    assert_int_equal(r.n, 7);   /* under the cap: everything, in order */
    for (int i = 0; i < 7; i++) {
        ASSERT_NEAR(r.value[i], i, 0);
        ASSERT_NEAR(r.extra[i], 2 * i, 0);
    }
    nr_reservoir_fini(&r);

    nr_reservoir r1, r2;
    nr_reservoir_init(&r1, 1000, 5);
    nr_reservoir_init(&r2, 1000, 5);
    for (int i = 0; i < 100000; i++) {
        nr_reservoir_add(&r1, i, 0);
        nr_reservoir_add(&r2, i, 0);
    }
    assert_int_equal(r1.n, 1000);
    assert_int_equal(r1.seen, 100000);
    assert_memory_equal(r1.value, r2.value, 1000 * sizeof(double));   /* deterministic */
    double mean = 0;
    int late = 0;
    for (int i = 0; i < 1000; i++) {
        mean += r1.value[i] / 1000;
        late += r1.value[i] >= 50000;
    }
    /* Uniform over the stream: mean 49999.5 (sd about 913), half from the second half (sd 16). */
    ASSERT_NEAR(mean, 49999.5, 4000);
    ASSERT_NEAR(late, 500, 80);
    nr_reservoir_fini(&r1);
    nr_reservoir_fini(&r2);
}

static void verdict_rule(void **state)
{
    nr_verdict_rule r;
    nr_verdict_rule_default(&r);
    ASSERT_NEAR(r.rel_threshold, 0.10, 0);
    ASSERT_NEAR(r.ks_alpha, 0.01, 0);
    nr_boot_ci ci = {.estimate = 1, .low = 0.5, .high = 1.5, .bootstraps = 100};
    assert_int_equal(nr_verdict_ci(&r, &ci, 0.10, 1.0, 0.0), NR_VERDICT_SIGNIFICANT);
    assert_int_equal(nr_verdict_ci(&r, &ci, -0.10, 1.0, 0.0), NR_VERDICT_SIGNIFICANT);
    assert_int_equal(nr_verdict_ci(&r, &ci, 0.09, 1.0, 0.0), NR_VERDICT_NO_CHANGE);   /* real but small */
    assert_int_equal(nr_verdict_ci(&r, &ci, 0.50, 1.0, 1.0), NR_VERDICT_BELOW_RESOLUTION); /* one clock tick */
    assert_string_equal(nr_verdict_name(NR_VERDICT_BELOW_RESOLUTION), "below the resolution");
    assert_int_equal(nr_verdict_ci(&r, &ci, 0.50, 1.5, 1.0), NR_VERDICT_SIGNIFICANT);
    ci.low = -0.1;   /* CI includes 0 */
    assert_int_equal(nr_verdict_ci(&r, &ci, 0.50, 1.0, 0.0), NR_VERDICT_NO_CHANGE);
    ci.low = -1.5;
    ci.high = -0.5;  /* excludes 0 from below */
    assert_int_equal(nr_verdict_ci(&r, &ci, -0.2, -1.0, 0.0), NR_VERDICT_SIGNIFICANT);
    ci.high = 0.0;   /* touching 0 is not excluding it */
    assert_int_equal(nr_verdict_ci(&r, &ci, -0.2, -1.0, 0.0), NR_VERDICT_NO_CHANGE);
    ci.bootstraps = 0;
    assert_int_equal(nr_verdict_ci(&r, &ci, -0.2, -1.0, 0.0), NR_VERDICT_INSUFFICIENT);

    nr_ks_result ks = {.n1 = 100, .n2 = 100, .d = 0.3, .d_practical = 0.3, .p_value = 0.001};
    assert_int_equal(nr_verdict_ks(&r, &ks), NR_VERDICT_SIGNIFICANT);
    ks.p_value = 0.02;
    assert_int_equal(nr_verdict_ks(&r, &ks), NR_VERDICT_NO_CHANGE);
    ks.p_value = 1e-9;
    ks.d_practical = 0.05;     /* detectable but below the practical D */
    assert_int_equal(nr_verdict_ks(&r, &ks), NR_VERDICT_NO_CHANGE);
    ks.n2 = NR_COMPARE_MIN_SAMPLE - 1;
    assert_int_equal(nr_verdict_ks(&r, &ks), NR_VERDICT_INSUFFICIENT);

    assert_int_equal(nr_verdict_descriptive(&r, 100, 109), NR_VERDICT_UNCHANGED);
    assert_int_equal(nr_verdict_descriptive(&r, 100, 110), NR_VERDICT_CHANGED);
    assert_int_equal(nr_verdict_descriptive(&r, 0, 0), NR_VERDICT_UNCHANGED);
    assert_int_equal(nr_verdict_descriptive(&r, 0, 1), NR_VERDICT_CHANGED);
    assert_int_equal(nr_verdict_descriptive(&r, NAN, 1), NR_VERDICT_NA);
    /* exactly 10% and a distance of exactly 0.10 meet their rules, though
       computed in doubles they fall a hair short (review 45) */
    assert_true(fabs(nr_rel_diff(130.0 / 400, 143.0 / 400)) < 0.10);
    assert_int_equal(nr_verdict_descriptive(&r, 130.0 / 400, 143.0 / 400), NR_VERDICT_CHANGED);
    volatile double us = 1e-6; /* 30 -> 33 us as 30 x 1e-6 and 33 x 1e-6 s, computed at run time */
    const double a30 = 30 * us, b33 = 33 * us, b3299 = 32.99 * us;
    assert_true(fabs(nr_rel_diff(a30, b33)) < 0.10);
    ci = (nr_boot_ci){.estimate = 3e-6, .low = 2e-6, .high = 4e-6, .bootstraps = 100};
    assert_int_equal(nr_verdict_ci(&r, &ci, nr_rel_diff(a30, b33), 3e-6, 1e-6), NR_VERDICT_SIGNIFICANT);
    assert_int_equal(nr_verdict_ci(&r, &ci, nr_rel_diff(a30, b3299), 3e-6, 1e-6), NR_VERDICT_NO_CHANGE);
    ks = (nr_ks_result){.n1 = 1000, .n2 = 1000, .d = 0.1, .d_practical = 1000.0 / 1000 - 900.0 / 1000, .p_value = 9e-5};
    assert_true(ks.d_practical < 0.10);
    assert_int_equal(nr_verdict_ks(&r, &ks), NR_VERDICT_SIGNIFICANT);
    ASSERT_NEAR(nr_rel_diff(200, 150), -0.25, 1e-15);
    ASSERT_NEAR(nr_rel_diff(-200, -150), 0.25, 1e-15);
    assert_true(isinf(nr_rel_diff(0, 3)));
    assert_string_equal(nr_verdict_name(NR_VERDICT_NO_CHANGE), "no significant change");

    /* a threshold of 0 (or below the rounding allowance): any nonzero
       change, never an equal value (review 49: a run against itself had
       50 rows "changed by 0% or more") */
    const double thresholds[] = {0.0, 1e-12};
    for (size_t i = 0; i < 2; i++) {
        r.rel_threshold = r.ks_min_d = thresholds[i];
        assert_int_equal(nr_verdict_descriptive(&r, 5, 5), NR_VERDICT_UNCHANGED);
        assert_int_equal(nr_verdict_descriptive(&r, 0, 0), NR_VERDICT_UNCHANGED);
        assert_int_equal(nr_verdict_descriptive(&r, 5, 5.001), NR_VERDICT_CHANGED);
        ci = (nr_boot_ci){.estimate = 0, .low = 1, .high = 2, .bootstraps = 100};
        assert_int_equal(nr_verdict_ci(&r, &ci, 0.0, 0.0, 0.0), NR_VERDICT_NO_CHANGE);
        ks = (nr_ks_result){.n1 = 100, .n2 = 100, .d = 0.3, .d_practical = 0, .p_value = 0.001};
        assert_int_equal(nr_verdict_ks(&r, &ks), NR_VERDICT_NO_CHANGE);
        const nr_perm_result perm = {.p_value = 0.01, .p_min = 0.001};
        assert_int_equal(nr_verdict_replicates(&r, &perm, 0.0), NR_VERDICT_NO_CHANGE);
        assert_int_equal(nr_verdict_replicates(&r, &perm, 0.5), NR_VERDICT_SIGNIFICANT);
    }
}

static void verdict_end_to_end_on_samples(void **state)
{
    /* Same distribution -> no significant change; 30% slower -> significant. */
    enum { N = 3000 };
    double *a = grid(N, 1.0, 0.0), *same = grid(N, 1.0, 0.0), *slow = grid(N, 1.3, 0.0);
    nr_verdict_rule r;
    nr_verdict_rule_default(&r);
    nr_boot_ci ci;
    nr_ks_result ks;
    assert_int_equal(nr_boot_quantile_diff_sorted(a, N, same, N, 0.99, NULL, &ci), 0);
    assert_int_equal(nr_verdict_ci(&r, &ci, 0.0, 0.0, 0.0), NR_VERDICT_NO_CHANGE);
    nr_ks_2samp_sorted(a, N, same, N, &ks);
    assert_int_equal(nr_verdict_ks(&r, &ks), NR_VERDICT_NO_CHANGE);
    assert_int_equal(nr_boot_quantile_diff_sorted(a, N, slow, N, 0.5, NULL, &ci), 0);
    assert_int_equal(nr_verdict_ci(&r, &ci, nr_rel_diff(0.5, 0.65), 0.15, 0.0), NR_VERDICT_SIGNIFICANT);
    nr_ks_2samp_sorted(a, N, slow, N, &ks);
    ASSERT_NEAR(ks.d, 1.0 - 1.0 / 1.3, 1e-3);
    assert_int_equal(nr_verdict_ks(&r, &ks), NR_VERDICT_SIGNIFICANT);
    free(a);
    free(same);
    free(slow);
}

static void pairing_by_workload(void **state)
{
    const char *g0[] = {"lm", "vit", "mlp"};
    const char *g1[] = {"mlp", "lm", "rl"};
    const char *g2[] = {"x"};
    const char *const *w[] = {g0, g1, g2};
    const size_t n[] = {3, 3, 1};
    nr_compare_match *m;
    size_t k;
    nr_error err = {0};
    assert_int_equal(nr_compare_match_runs(w, n, 3, &m, &k, &err), 0);
    assert_int_equal(k, 2);   /* lm and mlp; vit and rl are unmatched; group 2 matches nothing */
    assert_int_equal(m[0].group, 1);
    assert_int_equal(m[0].a_run, 0);
    assert_int_equal(m[0].b_run, 1);
    assert_int_equal(m[1].a_run, 2);
    assert_int_equal(m[1].b_run, 0);
    free(m);
    /* One run against one run: paired whatever the names. */
    const char *s0[] = {"a"}, *s1[] = {"b"};
    const char *const *w2[] = {s0, s1};
    const size_t n2[] = {1, 1};
    assert_int_equal(nr_compare_match_runs(w2, n2, 2, &m, &k, &err), 0);
    assert_int_equal(k, 1);
    assert_int_equal(m[0].group, 1);
    free(m);
    /* Replicates pair in order: A's two "v" runs with B's first and second
       "v"; B's third "v" has no partner (before, both of A's took B's first). */
    const char *r0[] = {"v", "x", "v"}, *r1[] = {"v", "v", "x", "v"};
    const char *const *w3[] = {r0, r1};
    const size_t n3[] = {3, 4};
    assert_int_equal(nr_compare_match_runs(w3, n3, 2, &m, &k, &err), 0);
    assert_int_equal(k, 3);
    assert_int_equal(m[0].a_run, 0);
    assert_int_equal(m[0].b_run, 0);
    assert_int_equal(m[1].a_run, 1);
    assert_int_equal(m[1].b_run, 2);
    assert_int_equal(m[2].a_run, 2);
    assert_int_equal(m[2].b_run, 1);
    free(m);
}

/* Permutation test of two means: counts of splits by hand, and by an
 * independent count of subsets by their exact integer sums
 * (tests/compare/perm_reference.py prints every count used here). */
static void permutation_by_hand(void **state)
{
    (void)state;
    nr_perm_result r;
    /* Disjoint thirds: only the observed split and its mirror are as far apart: 2 of C(6,3) = 20. */
    const double a[] = {1, 2, 3}, b[] = {4, 5, 6};
    assert_int_equal(nr_perm_test_means(a, 3, b, 3, 1, &r), 0);
    assert_true(r.exact);
    assert_int_equal(r.splits, 20);
    ASSERT_NEAR(r.p_value, 0.1, 1e-15);
    ASSERT_NEAR(r.p_min, 0.1, 1e-15);
    /* {1,3} vs {2,4}: of the 6 splits, |d| >= 1 in 4 (d = -2, -1, 0, 0, 1, 2). */
    const double c[] = {1, 3}, d[] = {2, 4};
    assert_int_equal(nr_perm_test_means(c, 2, d, 2, 1, &r), 0);
    ASSERT_NEAR(r.p_value, 4.0 / 6.0, 1e-15);
    /* Unequal sizes {1,2} vs {3,4,5}: d = 2.5 and its mirror -2.5, 2 of 10; the
       smallest p of sizes 2 and 3 is 1/10 (no mirror split exists). */
    const double e[] = {1, 2}, f[] = {3, 4, 5};
    assert_int_equal(nr_perm_test_means(e, 2, f, 3, 1, &r), 0);
    ASSERT_NEAR(r.p_value, 0.2, 1e-15);
    ASSERT_NEAR(r.p_min, 0.1, 1e-15);
    /* Large values, a difference in the last digits: the mirror must still count. */
    const double g[] = {1e9 + 1, 1e9 + 2, 1e9 + 3}, h[] = {1e9 + 4, 1e9 + 5, 1e9 + 6};
    assert_int_equal(nr_perm_test_means(g, 3, h, 3, 1, &r), 0);
    ASSERT_NEAR(r.p_value, 0.1, 1e-15);
    /* Equal sides: every split is as extreme. */
    const double z[] = {7, 7}, y[] = {7, 7};
    assert_int_equal(nr_perm_test_means(z, 2, y, 2, 1, &r), 0);
    ASSERT_NEAR(r.p_value, 1.0, 0);
    /* The reference's counts: 1648 of 12870 (8 a side, ties), 527422 of
       705432 (11 a side, the largest exact enumeration). */
    const double pa[] = {3, 1, 4, 1, 5, 9, 2, 6}, pb[] = {5, 3, 5, 8, 9, 7, 9, 3};
    assert_int_equal(nr_perm_test_means(pa, 8, pb, 8, 1, &r), 0);
    ASSERT_NEAR(r.p_value, 1648.0 / 12870.0, 1e-15);
    double ev[12], od[12];
    for (int i = 0; i < 12; i++) {
        ev[i] = 2 * i;
        od[i] = 2 * i + 1;
    }
    assert_int_equal(nr_perm_test_means(ev, 11, od, 11, 1, &r), 0);
    assert_true(r.exact);
    ASSERT_NEAR(r.p_value, 527422.0 / 705432.0, 1e-15);
    /* Empty or not finite: refused. */
    const double bad[] = {1, NAN};
    assert_int_equal(nr_perm_test_means(a, 0, b, 3, 1, &r), NR_E_INPUT);
    assert_int_equal(nr_perm_test_means(bad, 2, b, 3, 1, &r), NR_E_INPUT);
    ASSERT_NEAR(nr_binomial(24, 12), 2704156, 0);
}

/* 12 a side: C(24, 12) = 2,704,156 splits, more than are enumerated; drawn. */
static void permutation_drawn(void **state)
{
    (void)state;
    double ev[12], od[12], lo[12], hi[12];
    for (int i = 0; i < 12; i++) {
        ev[i] = 2 * i;
        od[i] = 2 * i + 1;
        lo[i] = i;
        hi[i] = 100 + i;
    }
    nr_perm_result r, again;
    assert_int_equal(nr_perm_test_means(ev, 12, od, 12, 7, &r), 0);
    assert_false(r.exact);
    assert_int_equal(r.splits, NR_PERM_DRAWS);
    /* exact 2042408 / 2704156 = 0.7553 (reference); 5 standard errors of 1e5 draws = 0.0068 */
    ASSERT_NEAR(r.p_value, 2042408.0 / 2704156.0, 0.0068);
    assert_int_equal(nr_perm_test_means(ev, 12, od, 12, 7, &again), 0);
    ASSERT_NEAR(again.p_value, r.p_value, 0); /* seeded */
    /* Disjoint: exact 2 / 2704156; drawn, (1 + k) / (1 + draws) with k almost surely 0. */
    assert_int_equal(nr_perm_test_means(lo, 12, hi, 12, 7, &r), 0);
    assert_true(r.p_value <= 3.0 / (1.0 + NR_PERM_DRAWS));
    ASSERT_NEAR(r.p_min, 1.0 / (1.0 + NR_PERM_DRAWS), 1e-18);
}

static void verdict_replicates(void **state)
{
    (void)state;
    nr_verdict_rule rule;
    nr_verdict_rule_default(&rule);
    ASSERT_NEAR(rule.replicate_alpha, 0.05, 0);
    nr_perm_result p = {.p_value = 0.1, .p_min = 0.1, .exact = 1};
    assert_int_equal(nr_verdict_replicates(&rule, &p, 0.5), NR_VERDICT_INSUFFICIENT); /* 3 a side */
    p = (nr_perm_result){.p_value = 2.0 / 70.0, .p_min = 2.0 / 70.0, .exact = 1};
    assert_int_equal(nr_verdict_replicates(&rule, &p, 0.2), NR_VERDICT_SIGNIFICANT);
    assert_int_equal(nr_verdict_replicates(&rule, &p, -0.2), NR_VERDICT_SIGNIFICANT);
    assert_int_equal(nr_verdict_replicates(&rule, &p, 0.05), NR_VERDICT_NO_CHANGE);   /* below the threshold */
    p.p_value = 0.3;
    assert_int_equal(nr_verdict_replicates(&rule, &p, 0.5), NR_VERDICT_NO_CHANGE);
    p.p_value = NAN;
    assert_int_equal(nr_verdict_replicates(&rule, &p, 0.5), NR_VERDICT_NA);
}

static nr_compare_stat row(const char *section, const char *name, nr_stat_kind kind, double a, double b)
{
    nr_compare_stat s;
    memset(&s, 0, sizeof s);
    snprintf(s.section, sizeof s.section, "%s", section);
    snprintf(s.name, sizeof s.name, "%s", name);
    s.unit = "1";
    s.kind = kind;
    s.a = a;
    s.b = b;
    return s;
}

/* Benjamini-Hochberg by hand: sorted p 0.005, 0.01, 0.03, 0.04, 0.5 (the
 * NaN is not tested, so m = 5) scale by m / rank to 0.025, 0.025, 0.05,
 * 0.05, 0.5, already non-decreasing; R's p.adjust example of 0.01..0.05
 * gives 0.05 for all; scaled values above 1 are capped by later ranks. */
static void bh_adjusted_p_values(void **state)
{
    (void)state;
    const double p[] = {0.01, 0.04, 0.03, 0.005, NAN, 0.5};
    double q[6];
    assert_int_equal(nr_p_adjust_bh(p, 6, q), 0);
    const double want[] = {0.025, 0.05, 0.05, 0.025, NAN, 0.5};
    for (int i = 0; i < 6; i++) {
        if (isnan(want[i]))
            assert_true(isnan(q[i]));
        else
            ASSERT_NEAR(q[i], want[i], 1e-15);
    }
    const double r[] = {0.05, 0.01, 0.03, 0.02, 0.04};
    double rq[5];
    assert_int_equal(nr_p_adjust_bh(r, 5, rq), 0);
    for (int i = 0; i < 5; i++)
        ASSERT_NEAR(rq[i], 0.05, 1e-15);
    /* ranks by p: 0.2 x 5 = 1 takes the 0.5 of the tie's second rank,
       0.6 x 5 / 3 = 1 takes 0.7's 0.875; one p alone is its own q */
    const double t[] = {0.9, 0.6, 0.7, 0.2, 0.2};
    double tq[5];
    assert_int_equal(nr_p_adjust_bh(t, 5, tq), 0);
    const double twant[] = {0.9, 0.875, 0.875, 0.5, 0.5};
    for (int i = 0; i < 5; i++)
        ASSERT_NEAR(tq[i], twant[i], 1e-15);
    const double one = 0.3;
    double oq;
    assert_int_equal(nr_p_adjust_bh(&one, 1, &oq), 0);
    ASSERT_NEAR(oq, 0.3, 0);
    assert_int_equal(nr_p_adjust_bh(NULL, 0, NULL), 0);
}

/* Pools of hand-made pairs: which rows pool, their values, p and verdict. */
static void pooling_replicates(void **state)
{
    (void)state;
    /* pairs 0-3: workload w, A against B; 4: x (alone); 5-6: w, A against C */
    const nr_compare_match m[] = {{1, 0, 0}, {1, 1, 1}, {1, 2, 2}, {1, 3, 3}, {1, 4, 4}, {2, 0, 0}, {2, 1, 1}};
    const char *const w[] = {"w", "w", "w", "w", "x", "w", "w"};
    enum { NP = 7, NR = 5 };
    nr_compare_stat st[NP][NR];
    nr_compare_pair pairs[NP];
    for (int k = 0; k < NP; k++) {
        size_t n = 0;
        st[k][n++] = row("run", "bytes read", NR_STAT_DESCRIPTIVE, 100 + k, 200 + k);
        st[k][n++] = row("latency", "read latency distribution", NR_STAT_KS, NAN, NAN);
        /* a row whose name differs between pairs (until session 42 the
           peak write rate, named by each pair's bin width) */
        st[k][n++] = row("throughput", k == 0 ? "a row only pair 0 names so" : "a row the other pairs name so",
                         NR_STAT_DESCRIPTIVE, 1, 2);
        st[k][n++] = row("access", "slow-mode share of reads (cache split)", NR_STAT_DESCRIPTIVE, 0.5, k == 2 ? NAN : 0.5);
        if (k < 2 || k == 5)
            st[k][n++] = row("phase", "train wall time", NR_STAT_DESCRIPTIVE, 5, 6);
        /* runs with timestamps and durations; pair 6's B without timestamps */
        pairs[k] = (nr_compare_pair){.nstats = n, .stats = st[k], .durations = {1, 1}, .timestamps = {1, k != 6}};
    }
    nr_compare_opts o;
    nr_compare_opts_default(&o);
    nr_compare_pool *pools;
    size_t np;
    nr_error err;
    assert_int_equal(nr_compare_pool_pairs(m, pairs, w, NP, &o, &pools, &np, &err), 0);
    assert_int_equal(np, 2);   /* x has one pair: no pool */

    const nr_compare_pool *p = &pools[0];
    assert_int_equal(p->group, 1);
    assert_string_equal(p->workload, "w");
    assert_int_equal(p->npairs, 4);
    ASSERT_NEAR(p->p_min, 2.0 / 70.0, 1e-15);
    assert_int_equal(p->nstats, 3);      /* bytes read, the share, the phase; KS skipped */
    assert_int_equal(p->nunpooled, 2);   /* the two rows named differently */
    assert_string_equal(p->unpooled[0], "a row only pair 0 names so");
    const nr_compare_pooled *s = &p->stats[0];
    assert_string_equal(s->name, "bytes read");
    ASSERT_NEAR(s->a_mean, 101.5, 1e-12);
    ASSERT_NEAR(s->a_min, 100, 0);
    ASSERT_NEAR(s->a_max, 103, 0);
    ASSERT_NEAR(s->b_mean, 201.5, 1e-12);
    ASSERT_NEAR(s->rel_diff, 100.0 / 101.5, 1e-12);
    ASSERT_NEAR(s->perm.p_value, 2.0 / 70.0, 1e-15);
    assert_int_equal(s->verdict, NR_VERDICT_SIGNIFICANT);
    assert_int_equal(p->stats[1].verdict, NR_VERDICT_NA);   /* a NaN in pair 2 */
    s = &p->stats[2];
    assert_string_equal(s->name, "train wall time");     /* 0 where the phase is absent */
    ASSERT_NEAR(s->a_mean, 2.5, 1e-12);
    ASSERT_NEAR(s->b_mean, 3.0, 1e-12);
    ASSERT_NEAR(s->perm.p_value, 46.0 / 70.0, 1e-15);    /* perm_reference.py: [5,5,0,0] vs [6,6,0,0] */
    assert_int_equal(s->verdict, NR_VERDICT_NO_CHANGE);
    assert_int_equal(p->nsignificant, 1);
    /* q over the two tested rows: 2 x 2/70 = 0.057 > 0.05, so the one
       significant row does not hold at a false discovery rate of 5% */
    ASSERT_NEAR(p->stats[0].q_value, 4.0 / 70.0, 1e-15);
    assert_true(isnan(p->stats[1].q_value));
    ASSERT_NEAR(p->stats[2].q_value, 46.0 / 70.0, 1e-15);
    assert_int_equal(p->nsignificant_fdr, 0);

    p = &pools[1];
    assert_int_equal(p->group, 2);
    assert_int_equal(p->npairs, 2);
    ASSERT_NEAR(p->p_min, 1.0 / 3.0, 1e-15);
    assert_int_equal(p->stats[0].verdict, NR_VERDICT_INSUFFICIENT);   /* 2 runs a side cannot reach 0.05 */
    /* train, absent from pair 6, whose B has no timestamps: unknown there,
       not 0 (review 49) */
    assert_string_equal(p->stats[p->nstats - 1].name, "train wall time");
    assert_int_equal(p->stats[p->nstats - 1].verdict, NR_VERDICT_NA);
    json_t *j = nr_compare_pool_json(&pools[0]);
    assert_int_equal(json_array_size(j), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(j, 0), "verdict")), "significant");
    ASSERT_NEAR(json_real_value(json_object_get(json_array_get(j, 0), "q_value")), 4.0 / 70.0, 1e-6);
    assert_true(json_is_null(json_object_get(json_array_get(j, 1), "q_value")));
    json_decref(j);
    nr_compare_pools_free(pools, np);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ks_by_hand),
        cmocka_unit_test(kolmogorov_values),
        cmocka_unit_test(ks_large_is_asymptotic),
        cmocka_unit_test(ks_practical_distance),
        cmocka_unit_test(quantile_nearest_rank),
        cmocka_unit_test(bootstrap_deterministic),
        cmocka_unit_test(bootstrap_constant_samples),
        cmocka_unit_test(bootstrap_beta_matches_resampling),
        cmocka_unit_test(reservoir),
        cmocka_unit_test(verdict_rule),
        cmocka_unit_test(verdict_end_to_end_on_samples),
        cmocka_unit_test(pairing_by_workload),
        cmocka_unit_test(permutation_by_hand),
        cmocka_unit_test(permutation_drawn),
        cmocka_unit_test(verdict_replicates),
        cmocka_unit_test(bh_adjusted_p_values),
        cmocka_unit_test(pooling_replicates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
