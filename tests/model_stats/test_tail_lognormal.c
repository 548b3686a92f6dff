/* model/tail_lognormal: every bin's log-probability against known answers
 * computed with mpmath at 60 digits (an independent implementation: the
 * difference of two normal tails at high precision, checked there against
 * quadrature), on both sides of the narrow-bin series' threshold, at the
 * power-law limit t = 0 and near it, and deep in the tail. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "tail_lognormal.h"

/* {beta, t, ya, w, ln P(ya < y <= ya + w)}; the narrow widths are
 * ln((x + 1/2) / (x - 1/2)) of x = 1e3 ... 1e9; the last seven bins lie
 * either side of the series' threshold h (|m| + 1) = 0.05. */
static const double ln_bin_known[][5] = {
    {1.5, 0.29999999999999999, 0, 0.0010000000833333457, -6.4348804259134624},
    {1.5, 0.29999999999999999, 5, 1.0000000000083334e-05, -20.78931275890432},
    {0.80000000000000004, 0.050000000000000003, 10, 1.0000000000000009e-07, -24.583573758571902},
    {0.80000000000000004, 0.0001, 20, 9.9999999999999986e-10, -36.946413357410627},
    {0.80000000000000004, 0, 20, 9.9999999999999986e-10, -36.946409388660619},
    {1, 0, 0, 9.9999999999999986e-10, -20.723265837446412},
    {2, 1e-08, 15, 1.0000000000000009e-07, -45.424948570398392},
    {0, 1e-08, 100, 0.0010000000833333457, -25.207653701966915},
    {0, 0.20000000000000001, 12, 1.0000000000000009e-07, -23.366751373757175},
    {1, 0.5, 7, 9.9999999999999986e-10, -39.69602527218786},
    {2, 0.050000000000000003, 20, 1.0000000000000009e-07, -56.423702457772826},
    {3, 0.0001, 0.10000000000000001, 1.0000000000083334e-05, -10.714328174134073},
    {3, 0.5, 15, 1.0000000000083334e-05, -111.61497986545444},
    {-5, 1, 2.5, 1.0000000000083334e-05, -12.085086911207155},
    {-0.5, 1, 0.29999999999999999, 1.0000000000000009e-07, -16.243799362204463},
    {-0.5, 0.050000000000000003, 3, 9.9999999999999986e-10, -47.813863053181834},
    {3, 1, 20, 0.0010000000833333457, -465.67390415951644},
    {1, 0.29999999999999999, 0, 1.1000000000000001, -0.29798017831360057},
    {2.5, 0.80000000000000004, 0, 0.050000000000000003, -1.9945802786251814},
    {0.5, 0, 3, 0.5, -3.008691549446032},
    {2, 0, 0.69999999999999996, 0.050000000000000003, -3.7521684610440906},
    {0.5, 1e-08, 1, 0.29999999999999999, -2.4711826606043781},
    {0.5, 0.0001, 10, 1.1000000000000001, -5.8602654788504021},
    {0, 0.0001, 5, 0.29999999999999999, -10.293531203966873},
    {1.5, 0.050000000000000003, 4, 0.20000000000000001, -7.3899459181463092},
    {0, 1, 0.5, 0.25, -1.6572858025207664},
    {0.5, 1, 1, 1.1000000000000001, -2.250839853138018},
    {1.5, -0.29999999999999999, 5, 0.20000000000000001, -11.117289876965694},
    {-5, 1, 0, 0.050000000000000003, -9.6911764183611169},
    {-5, 1, 4, 0.5, -4.2259441738387569},
    {-0.5, 0.29999999999999999, 1, 0.59999999999999998, -2.3583119133320283},
    {0, 0.050000000000000003, 20, 1, -3.9253457027329199},
    {3, 0, 200, 1, -600.0510691809427},
    {1, 1e-08, 690, 1.1000000000000001, -690.40477197397593},
    {0.5, 0.0001, 100, 1, -50.932852969504168},
    {2, 0.10000000000000001, 30, 0.050000000000000003, -71.361950100266867},
    {1.5, 0.29999999999999999, 20, 1.1000000000000001, -67.16558759414994},
    {0, 0.5, 40, 0.050000000000000003, -404.02693114100936},
    {1, 1, 25, 0.5, -653.32679972770734},
    {-5, 0.050000000000000003, 700, 0.5, -228.86316376923915},
    {-0.5, 0.01, 2, 0.5, -629.74359251597809},
    {2, 0, 0.69999999999999996, 0.049000000000000002, -3.7713876656666891},
    {2, 0, 0.69999999999999996, 0.050999999999999997, -3.7333490032761105},
    {1.5, 0.29999999999999999, 1, 0.040000000000000001, -4.3687101604651222},
    {1.5, 0.29999999999999999, 1, 0.050000000000000003, -4.1538870121715004},
    {-1, 0.5, 2, 0.044999999999999998, -4.2848587884243292},
    {0.29999999999999999, 0.59999999999999998, 3, 0.029999999999999999, -7.8124655632168105},
    {-3, 0.20000000000000001, 10, 0.040000000000000001, -35.606377838179107},
};

/* The error allowed: a few units in the last place of ln P. */
static const double REL_TOL = 1e-13;

static void known_bins(void **state)
{
    (void)state;
    double worst = 0;
    for (size_t i = 0; i < sizeof ln_bin_known / sizeof ln_bin_known[0]; i++) {
        const double *k = ln_bin_known[i];
        nr_tail_ln q;
        assert_int_equal(nr__tail_ln_set(&q, k[0], k[1]), 0);
        const double got = nr__tail_ln_bin(&q, k[2], k[3], log(k[3]));
        const double rel = fabs(got - k[4]) / fmax(1, fabs(k[4]));
        worst = fmax(worst, rel);
        if (!(rel <= REL_TOL))
            fail_msg("row %zu: beta %g t %g ya %g w %g: ln P %.17g, expected %.17g", i, k[0], k[1], k[2], k[3], got,
                     k[4]);
    }
    print_message("worst relative error %.3g\n", worst);
}

/* The bins of a discrete distribution sum to 1, at the limit and away from
 * it (the bins of x = 1, 2, ... from xmin = 1 up to far in the tail). */
static void bins_sum_to_one(void **state)
{
    (void)state;
    static const double params[][2] = {{1.5, 0}, {0.7, 1e-6}, {1.2, 0.3}, {-2, 0.4}, {0, 0.25}};
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        nr_tail_ln q;
        assert_int_equal(nr__tail_ln_set(&q, params[i][0], params[i][1]), 0);
        long double sum = 0;
        for (double x = 1; x < 1e6; x++) {
            const double ya = log1p((x - 1) / 0.5), w = log1p(1 / (x - 0.5));
            sum += expl(nr__tail_ln_bin(&q, ya, w, log(w)));
        }
        /* what lies above 1e6 - 1/2: the survival function at y there */
        const double y = log((1e6 - 0.5) / 0.5);
        const double above = exp(nr__tail_ln_bin(&q, y, 1e300, log(1e300)));
        if (!(fabsl(sum + above - 1) < 1e-9))
            fail_msg("beta %g t %g: bins sum to %.17Lg (+ %.3g above)", params[i][0], params[i][1], sum, above);
    }
}

/* Close to the power-law limit the bins tend to the limit's. */
static void limit_is_continuous(void **state)
{
    (void)state;
    nr_tail_ln lim, near;
    assert_int_equal(nr__tail_ln_set(&lim, 1.3, 0), 0);
    assert_int_equal(nr__tail_ln_set(&near, 1.3, 1e-9), 0);
    static const double ya[] = {0, 0.5, 3, 12}, w[] = {1e-7, 0.01, 0.4, 1.1};
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++) {
            const double a = nr__tail_ln_bin(&lim, ya[i], w[j], log(w[j]));
            const double b = nr__tail_ln_bin(&near, ya[i], w[j], log(w[j]));
            if (!(fabs(a - b) < 1e-8 * fmax(1, fabs(a))))
                fail_msg("ya %g w %g: %.17g at t = 0, %.17g at t = 1e-9", ya[i], w[j], a, b);
        }
}

static void no_distribution(void **state)
{
    (void)state;
    nr_tail_ln q;
    assert_int_equal(nr__tail_ln_set(&q, 0, 0), -1);
    assert_int_equal(nr__tail_ln_set(&q, -1, 0), -1);
    assert_int_equal(nr__tail_ln_set(&q, NAN, 0.3), -1);
    assert_int_equal(nr__tail_ln_set(&q, 1, INFINITY), -1);
    assert_int_equal(nr__tail_ln_set(&q, -1, 0.2), 0); /* the normal's bulk above the truncation */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(known_bins),
        cmocka_unit_test(bins_sum_to_one),
        cmocka_unit_test(limit_is_continuous),
        cmocka_unit_test(no_distribution),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
