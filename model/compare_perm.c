/* The permutation test of two means over replicate runs (docs/compare.md,
 * "Replicates"): one value a run, so every relabelling of the runs is a
 * possible outcome of no change, and few runs make few relabellings. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "compare_stats.h"
#include "nr_error.h"

double nr_binomial(size_t n, size_t k)
{
    if (k > n)
        return 0.0;
    if (k > n - k)
        k = n - k;
    double c = 1.0;
    for (size_t i = 1; i <= k; i++)
        c = c * (double)(n - k + i) / (double)i;
    return floor(c + 0.5);
}

/* The difference of means when idx[0..na) are side a and the rest side b;
 * summed in index order, so the observed split gives the observed value
 * bit for bit. */
static double split_diff(const double *x, const size_t *idx, size_t na, size_t n, double total)
{
    double sa = 0.0;
    for (size_t i = 0; i < na; i++)
        sa += x[idx[i]];
    return (total - sa) / (double)(n - na) - sa / (double)na;
}

/* The next combination of na of n indices in lexicographic order; 0 after the last. */
static int next_combination(size_t *c, size_t na, size_t n)
{
    size_t i = na;
    while (i > 0 && c[i - 1] == n - na + i - 1)
        i--;
    if (i == 0)
        return 0;
    c[i - 1]++;
    for (size_t j = i; j < na; j++)
        c[j] = c[j - 1] + 1;
    return 1;
}

static uint64_t count_exact(const double *x, size_t na, size_t n, double total, double bar, size_t *idx)
{
    uint64_t k = 0;
    for (size_t i = 0; i < na; i++)
        idx[i] = i;
    do
        k += fabs(split_diff(x, idx, na, n, total)) >= bar;
    while (next_combination(idx, na, n));
    return k;
}

/* Random splits: a partial Fisher-Yates shuffle puts a uniform na-subset in
 * idx[0..na) whatever order idx was left in. */
static uint64_t count_drawn(const double *x, size_t na, size_t n, double total, double bar, size_t *idx,
                            uint64_t seed)
{
    nr_rng r;
    nr_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    uint64_t k = 0;
    for (int d = 0; d < NR_PERM_DRAWS; d++) {
        for (size_t i = 0; i < na; i++) {
            const size_t j = i + (size_t)nr_rng_below(&r, n - i);
            const size_t t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
        }
        k += fabs(split_diff(x, idx, na, n, total)) >= bar;
    }
    return k;
}

double nr_perm_p_min(size_t na, size_t nb)
{
    const double splits = nr_binomial(na + nb, na);
    const double extreme = (na == nb ? 2.0 : 1.0) / splits;
    return splits <= NR_PERM_EXACT_MAX ? extreme : fmax(extreme, 1.0 / (1.0 + NR_PERM_DRAWS));
}

int nr_perm_test_means(const double *a, size_t na, const double *b, size_t nb, uint64_t seed, nr_perm_result *out)
{
    out->p_value = out->p_min = NAN;
    out->exact = 0;
    out->splits = 0;
    const size_t n = na + nb;
    if (na == 0 || nb == 0)
        return NR_E_INPUT;
    double *x = malloc(n * sizeof *x);
    size_t *idx = malloc(n * sizeof *idx);
    if (!x || !idx) {
        free(x);
        free(idx);
        return NR_E_NOMEM;
    }
    double total = 0.0, mass = 0.0;
    int finite = 1;
    for (size_t i = 0; i < n; i++) {
        x[i] = i < na ? a[i] : b[i - na];
        finite &= isfinite(x[i]);
        total += x[i];
        mass += fabs(x[i]);
    }
    if (!finite) {
        free(x);
        free(idx);
        return NR_E_INPUT;
    }
    for (size_t i = 0; i < na; i++)
        idx[i] = i;
    const double observed = fabs(split_diff(x, idx, na, n, total));
    /* Sums of the same values in another order differ in the last bits: a
     * split as extreme as the observed one (its mirror) must still count. */
    const double bar = observed - (1e-9 * observed + 64.0 * DBL_EPSILON * mass / (double)(na < nb ? na : nb));
    const double splits = nr_binomial(n, na);
    out->p_min = nr_perm_p_min(na, nb);
    if (splits <= NR_PERM_EXACT_MAX) {
        out->exact = 1;
        out->splits = (uint64_t)splits;
        out->p_value = (double)count_exact(x, na, n, total, bar, idx) / splits;
    } else {
        out->splits = NR_PERM_DRAWS;
        out->p_value = (1.0 + (double)count_drawn(x, na, n, total, bar, idx, seed)) / (1.0 + NR_PERM_DRAWS);
    }
    free(x);
    free(idx);
    return 0;
}
