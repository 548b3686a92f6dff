/* concentration: Gini, top-p shares, files carrying p of the total, Lorenz
 * points. Method: one sort of a private copy, then prefix sums in long double
 * (docs/statistics.md, "Concentration"). */
#include "concentration.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nr_error.h"
#include "statsort.h"

/* Copies and sorts values ascending, rejecting negative and non-finite ones.
 * Returns 0 with *sorted (caller frees), NR_E_INPUT or NR_E_NOMEM. */
static int sorted_copy(const double *values, size_t n, double **sorted)
{
    *sorted = NULL;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(values[i]) || values[i] < 0)
            return NR_E_INPUT;
    double *copy = malloc((n ? n : 1) * sizeof *copy);
    if (copy == NULL)
        return NR_E_NOMEM;
    if (n)
        memcpy(copy, values, n * sizeof *copy);
    int rc = nr__sort_f64(copy, n);
    if (rc < 0) {
        free(copy);
        return rc;
    }
    *sorted = copy;
    return 0;
}

/* Share of the total held by the k largest of the ascending values. */
static double top_share(const double *asc, size_t n, size_t k, long double total)
{
    long double sum = 0;
    for (size_t i = 0; i < k; i++)
        sum += asc[n - 1 - i];
    return (double)(sum / total);
}

/* Smallest k/n such that the k largest values sum to at least p * total.
 * p is given in per mille (500, 900, 990) to keep the target exact for
 * integer-valued totals. */
static double files_for(const double *asc, size_t n, unsigned permille, long double total)
{
    const long double target = total * permille / 1000.0L;
    long double sum = 0;
    for (size_t k = 1; k <= n; k++) {
        sum += asc[n - k];
        if (sum >= target)
            return (double)k / (double)n;
    }
    return 1.0;
}

int nr_concentration_compute(const double *values, size_t n, nr_concentration *out)
{
    memset(out, 0, sizeof *out);
    double *asc;
    NR_TRY(sorted_copy(values, n, &asc));
    out->n = n;
    /* Gini by the sorted-order formula G = 2 sum_i i x_(i) / (n sum x) - (n+1)/n,
     * i = 1..n ascending: equal to the mean absolute difference over twice the mean. */
    long double total = 0, weighted = 0;
    for (size_t i = 0; i < n; i++) {
        total += asc[i];
        weighted += (long double)(i + 1) * asc[i];
    }
    out->total = (double)total;
    if (n > 0 && total > 0) {
        const long double ln = (long double)n;
        out->gini = (double)(2.0L * weighted / (ln * total) - (ln + 1.0L) / ln);
        if (out->gini < 0) /* rounding on all-equal values */
            out->gini = 0;
        out->top1_share = top_share(asc, n, nr_concentration_top_count(n, 1), total);
        out->top10_items = nr_concentration_top_count(n, 10);
        out->top10_share = top_share(asc, n, out->top10_items, total);
        out->top20_share = top_share(asc, n, nr_concentration_top_count(n, 20), total);
        out->files_for_50 = files_for(asc, n, 500, total);
        out->files_for_90 = files_for(asc, n, 900, total);
        out->files_for_99 = files_for(asc, n, 990, total);
    } else { /* no bytes: a share of nothing does not exist (was 0 until session 46, review 46) */
        out->gini = out->top1_share = out->top10_share = out->top20_share = NAN;
        out->files_for_50 = out->files_for_90 = out->files_for_99 = NAN;
    }
    free(asc);
    return 0;
}

int nr_lorenz_points(const double *values, size_t n, size_t max_points, double *xs, double *ys,
                     size_t *npoints)
{
    *npoints = 0;
    if (max_points < 2)
        return NR_E_USAGE;
    double *asc;
    NR_TRY(sorted_copy(values, n, &asc));
    long double total = 0;
    for (size_t i = 0; i < n; i++)
        total += asc[i];
    if (n == 0 || total <= 0) { /* no mass to distribute: the line of equality */
        xs[0] = 0, ys[0] = 0, xs[1] = 1, ys[1] = 1;
        *npoints = 2;
        free(asc);
        return 0;
    }
    const size_t points = n + 1 <= max_points ? n + 1 : max_points;
    long double cum = 0;
    size_t done = 0; /* items summed into cum so far */
    for (size_t j = 0; j < points; j++) {
        /* evenly spaced item counts, exact at both ends */
        size_t i = (size_t)(((long double)j * n) / (points - 1) + 0.5L);
        if (j == points - 1)
            i = n;
        while (done < i)
            cum += asc[done++];
        xs[j] = (double)i / (double)n;
        ys[j] = j == points - 1 ? 1.0 : (double)(cum / total);
    }
    *npoints = points;
    free(asc);
    return 0;
}
