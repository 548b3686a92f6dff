/* concentration: how unequally a quantity (bytes per file) is spread over items.
 *
 * Definitions and sources: docs/statistics.md, section "Concentration". */
#ifndef NR_CONCENTRATION_H
#define NR_CONCENTRATION_H

#include <math.h>
#include <stddef.h>

typedef struct nr_concentration {
    size_t n;             /* items given, zeros included */
    double total;         /* sum of values */
    double gini;          /* Gini coefficient (0 equal .. (n-1)/n when one item holds all) */
    double top1_share, top10_share, top20_share; /* share of total held by the top ceil(p*n) items */
    size_t top10_items;   /* ceil(n / 10): the items top10_share counts (its Lorenz point: x = 1 - top10_items / n) */
    double files_for_50, files_for_90, files_for_99; /* smallest k/n whose top-k sum >= p*total */
} nr_concentration;

/* Computes every field of *out from values[0..n).
 * values: borrowed, not modified (a private copy is sorted). n may be 0, and
 * all values may be 0: then every field except n is 0.
 * Returns 0, NR_E_INPUT when a value is negative, NaN or infinite (out is then
 * zeroed), or NR_E_NOMEM. */
int nr_concentration_compute(const double *values, size_t n, nr_concentration *out);

/* Number of top items that make "the top pct percent": ceil(pct * n / 100),
 * computed in integers so that 10% of 10 items is exactly 1 (and of 22
 * items 3: the report says "3 of 22", docs/definitions.md). */
static inline size_t nr_concentration_top_count(size_t n, unsigned pct)
{
    return (n * pct + 99) / 100;
}

/* Where top10_share sits on the Lorenz curve: x = 1 - top10_items / n (0.9
 * only when n is a multiple of 10; 2/3 for 3 files); NAN for no items. */
static inline double nr_concentration_top10_x(const nr_concentration *c)
{
    return c->n ? 1.0 - (double)c->top10_items / (double)c->n : (double)NAN;
}

/* Lorenz curve of values[0..n) (items in ascending order): point i is
 * (x = i/n, y = sum of the i smallest values / total), i = 0..n. When
 * n+1 > max_points the curve is thinned to max_points points at evenly spaced
 * i (always i = 0 and i = n). With total 0 the curve is the diagonal.
 * xs, ys: caller-owned arrays of at least max_points doubles; *npoints set.
 * Returns 0, NR_E_USAGE when max_points < 2, NR_E_INPUT on a negative, NaN or
 * infinite value, or NR_E_NOMEM. */
int nr_lorenz_points(const double *values, size_t n, size_t max_points, double *xs, double *ys,
                     size_t *npoints);

#endif
