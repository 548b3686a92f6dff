/* Known answers of model/concentration: Gini, top shares, files_for_p and
 * Lorenz points of small sets computed by hand (computations in comments). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <cmocka.h>

#include "concentration.h"
#include "nr_error.h"

#define EPS 1e-12

static void assert_close(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.17g, want %.17g (tol %g)", what, got, want, tol);
}

static nr_concentration compute(const double *v, size_t n)
{
    nr_concentration c;
    assert_int_equal(nr_concentration_compute(v, n, &c), 0);
    return c;
}

/* {1,1,1,1}: sum i*x_(i) = 1+2+3+4 = 10, G = 2*10/(4*4) - 5/4 = 0.
 * Top 1%, 10%, 20% of 4 files: ceil(0.04) = ceil(0.4) = ceil(0.8) = 1 file = 1/4.
 * 50% of 4 needs 2 files (2 >= 2) -> 0.5; 90% (3.6) needs 4 -> 1; 99% -> 1. */
static void equal_values(void **state)
{
    const double v[] = {1, 1, 1, 1};
    nr_concentration c = compute(v, 4);
    assert_int_equal(c.n, 4);
    assert_close(c.total, 4, 0, "total");
    assert_close(c.gini, 0, EPS, "gini");
    assert_close(c.top1_share, 0.25, EPS, "top1");
    assert_close(c.top10_share, 0.25, EPS, "top10");
    assert_close(c.top20_share, 0.25, EPS, "top20");
    assert_close(c.files_for_50, 0.5, 0, "files_for_50");
    assert_close(c.files_for_90, 1.0, 0, "files_for_90");
    assert_close(c.files_for_99, 1.0, 0, "files_for_99");
}

/* {0,0,0,10}: sum i*x_(i) = 4*10 = 40, G = 2*40/(4*10) - 5/4 = 0.75 = (n-1)/n.
 * The top file holds everything: every top share 1, every files_for 1/4. */
static void one_holds_all(void **state)
{
    const double v[] = {0, 10, 0, 0};
    nr_concentration c = compute(v, 4);
    assert_close(c.gini, 0.75, EPS, "gini");
    assert_close(c.top1_share, 1, EPS, "top1");
    assert_close(c.top20_share, 1, EPS, "top20");
    assert_close(c.files_for_50, 0.25, 0, "files_for_50");
    assert_close(c.files_for_99, 0.25, 0, "files_for_99");
}

/* {1,2,3,4}: sum i*x_(i) = 1+4+9+16 = 30, G = 60/40 - 5/4 = 0.25.
 * Cross-check by mean absolute difference: sum over ordered pairs |xi-xj| =
 * 2*(1+2+3+1+2+1) = 20, / n^2 = 1.25, / (2*mean 2.5) = 0.25.
 * Top file: 4/10. 50% (5): 4 < 5, 4+3 = 7 >= 5 -> 2 files = 0.5;
 * 90% (9): 4+3+2 = 9 >= 9 -> 3 files = 0.75; 99% (9.9) -> 4 files = 1. */
static void one_to_four(void **state)
{
    const double v[] = {3, 1, 4, 2};
    nr_concentration c = compute(v, 4);
    assert_close(c.gini, 0.25, EPS, "gini");
    assert_close(c.top1_share, 0.4, EPS, "top1");
    /* top 10% of 4 files: ceil(0.4) = 1 file, the point (3/4, 6/10) of the curve */
    assert_int_equal(c.top10_items, 1);
    assert_close(nr_concentration_top10_x(&c), 0.75, 0, "top10 x");
    assert_close(1 - c.top10_share, 0.6, EPS, "top10 y");
    assert_close(c.files_for_50, 0.5, 0, "files_for_50");
    assert_close(c.files_for_90, 0.75, 0, "files_for_90");
    assert_close(c.files_for_99, 1.0, 0, "files_for_99");
}

/* 100 files: 99 of size 1, one of size 901 (total 1000).
 * Top 1% = 1 file = 901/1000; top 10% = 10 files = (901+9)/1000 = 0.91;
 * top 20% = 20 files = 920/1000. 50%: the big file alone -> 1/100;
 * 90% (900): big file -> 0.01; 99% (990): 901 + 89 ones -> 90 files = 0.9.
 * Gini: ascending x_(i) = 1 for i = 1..99, x_(100) = 901:
 * sum i*x = 99*100/2 + 100*901 = 4950 + 90100 = 95050;
 * G = 2*95050/(100*1000) - 101/100 = 1.901 - 1.01 = 0.891. */
static void one_big_many_small(void **state)
{
    double v[100];
    for (int i = 0; i < 100; i++)
        v[i] = i == 37 ? 901 : 1;
    nr_concentration c = compute(v, 100);
    assert_close(c.gini, 0.891, EPS, "gini");
    assert_close(c.top1_share, 0.901, EPS, "top1");
    assert_close(c.top10_share, 0.91, EPS, "top10");
    assert_int_equal(c.top10_items, 10);
    assert_close(nr_concentration_top10_x(&c), 0.9, 0, "top10 x");
    assert_close(c.top20_share, 0.92, EPS, "top20");
    assert_close(c.files_for_50, 0.01, 0, "files_for_50");
    assert_close(c.files_for_90, 0.01, 0, "files_for_90");
    assert_close(c.files_for_99, 0.90, 0, "files_for_99");
}

/* Gini equals the mean absolute difference over twice the mean, on random data with ties and zeros. */
static void gini_matches_mean_difference(void **state)
{
    enum { N = 300 };
    double v[N];
    uint64_t s = 42;
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        v[i] = (double)((s >> 33) % 50) * ((s >> 20) % 3 == 0 ? 0 : 1);
    }
    double sum = 0, mad = 0;
    for (int i = 0; i < N; i++) {
        sum += v[i];
        for (int j = 0; j < N; j++)
            mad += fabs(v[i] - v[j]);
    }
    const double want = (mad / ((double)N * N)) / (2 * sum / N);
    assert_close(compute(v, N).gini, want, 1e-12, "gini vs mean abs difference");
}

static void empty_and_zero_sets(void **state)
{
    /* no bytes: the shares do not exist (NaN; 0 until session 46) */
    nr_concentration c = compute(NULL, 0);
    assert_int_equal(c.n, 0);
    assert_true(isnan(c.gini) && isnan(c.top1_share) && isnan(c.files_for_90));
    const double z[] = {0, 0, 0};
    c = compute(z, 3);
    assert_int_equal(c.n, 3);
    assert_close(c.total, 0, 0, "total");
    assert_true(isnan(c.gini) && isnan(c.top10_share) && isnan(c.top20_share));
    assert_true(isnan(c.files_for_50) && isnan(c.files_for_90) && isnan(c.files_for_99));
    const double one[] = {5};
    c = compute(one, 1);
    assert_close(c.gini, 0, EPS, "gini of one");
    assert_close(c.top1_share, 1, EPS, "top1 of one");
    assert_close(c.files_for_50, 1, 0, "files_for_50 of one");
}

static void rejects_bad_values(void **state)
{
    nr_concentration c;
    const double neg[] = {1, -1};
    assert_int_equal(nr_concentration_compute(neg, 2, &c), NR_E_INPUT);
    const double nan_[] = {1, NAN};
    assert_int_equal(nr_concentration_compute(nan_, 2, &c), NR_E_INPUT);
    const double inf_[] = {INFINITY, 1};
    assert_int_equal(nr_concentration_compute(inf_, 2, &c), NR_E_INPUT);
}

/* {1,2,3,4} ascending, total 10: points (0,0) (.25,.1) (.5,.3) (.75,.6) (1,1). */
static void lorenz_small(void **state)
{
    const double v[] = {4, 3, 2, 1};
    double xs[8], ys[8];
    size_t np;
    assert_int_equal(nr_lorenz_points(v, 4, 8, xs, ys, &np), 0);
    assert_int_equal(np, 5);
    const double wx[] = {0, .25, .5, .75, 1}, wy[] = {0, .1, .3, .6, 1};
    for (int i = 0; i < 5; i++) {
        assert_close(xs[i], wx[i], EPS, "lorenz x");
        assert_close(ys[i], wy[i], EPS, "lorenz y");
    }
    /* thinned to 3 points of 5: i = 0, 2, 4 -> (0,0) (.5,.3) (1,1) */
    assert_int_equal(nr_lorenz_points(v, 4, 3, xs, ys, &np), 0);
    assert_int_equal(np, 3);
    assert_close(xs[1], 0.5, EPS, "thinned x");
    assert_close(ys[1], 0.3, EPS, "thinned y");
    assert_close(xs[2], 1, 0, "last x");
    assert_close(ys[2], 1, 0, "last y");
    /* no mass: the diagonal */
    const double z[] = {0, 0};
    assert_int_equal(nr_lorenz_points(z, 2, 8, xs, ys, &np), 0);
    assert_int_equal(np, 2);
    assert_close(ys[1], 1, 0, "diagonal end");
    assert_int_equal(nr_lorenz_points(v, 4, 1, xs, ys, &np), NR_E_USAGE);
}

/* The area under the Lorenz curve (trapezoids over all points) is (1 - G) / 2. */
static void lorenz_area_is_gini(void **state)
{
    enum { N = 1000 };
    double *v = malloc(N * sizeof *v), *xs = malloc((N + 1) * sizeof *xs), *ys = malloc((N + 1) * sizeof *ys);
    for (int i = 0; i < N; i++)
        v[i] = (double)((i * 7919) % 1013) * (i % 5 ? 1 : 0.5);
    size_t np;
    assert_int_equal(nr_lorenz_points(v, N, N + 1, xs, ys, &np), 0);
    assert_int_equal(np, N + 1);
    double area = 0;
    for (size_t i = 1; i < np; i++)
        area += (xs[i] - xs[i - 1]) * (ys[i] + ys[i - 1]) / 2;
    assert_close(1 - 2 * area, compute(v, N).gini, 1e-12, "1 - 2 * area");
    free(v), free(xs), free(ys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(equal_values),
        cmocka_unit_test(one_holds_all),
        cmocka_unit_test(one_to_four),
        cmocka_unit_test(one_big_many_small),
        cmocka_unit_test(gini_matches_mean_difference),
        cmocka_unit_test(empty_and_zero_sets),
        cmocka_unit_test(rejects_bad_values),
        cmocka_unit_test(lorenz_small),
        cmocka_unit_test(lorenz_area_is_gini),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
