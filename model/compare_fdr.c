/* compare_fdr: the false discovery rate over the many rows of one replicate
 * pool, each tested on its own (docs/compare.md, "Replicates"): of the rows
 * that a pool calls significant, how many would stand if the share of
 * false ones among them is to be held at a level. */
#include <math.h>
#include <stdlib.h>

#include "compare_stats.h"
#include "nr_error.h"

typedef struct ranked {
    double p;
    size_t row;
} ranked;

/* By p, ties by row: the same q whatever qsort does with equal keys. */
static int by_p(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->p != b->p)
        return a->p < b->p ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

int nr_p_adjust_bh(const double *p, size_t n, double *q)
{
    ranked *r = malloc((n ? n : 1) * sizeof *r);
    if (!r)
        return NR_E_NOMEM;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        q[i] = NAN;
        if (isfinite(p[i]))
            r[m++] = (ranked){p[i], i};
    }
    qsort(r, m, sizeof *r, by_p);
    /* step up: q of rank k is the least m p(j) / j over ranks j >= k */
    double least = 1.0;
    for (size_t k = m; k > 0; k--) {
        const double scaled = r[k - 1].p * (double)m / (double)k;
        least = scaled < least ? scaled : least;
        q[r[k - 1].row] = least;
    }
    free(r);
    return 0;
}
