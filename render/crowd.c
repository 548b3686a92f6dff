/* crowd: which runs a figure of many runs draws in colour. */
#include <math.h>
#include <stdlib.h>

#include "render_internal.h"

const char *const nr__pick_names[NR__PICKS] = {"lowest", "median", "highest"};

typedef struct keyed {
    double key;
    size_t index;
} keyed;

static int by_key_then_index(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

size_t nr__crowd_picks(const double *key, const int *usable, size_t n, size_t pick[NR__PICKS],
                       enum nr__pick which[NR__PICKS])
{
    keyed *k = malloc((n ? n : 1) * sizeof *k);
    if (!k)
        return 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (usable[i] && isfinite(key[i]))
            k[m++] = (keyed){key[i], i};
    size_t got = 0;
    if (m > 0) {
        qsort(k, m, sizeof *k, by_key_then_index);
        const size_t at[NR__PICKS] = {0, (m - 1) / 2, m - 1};
        for (int p = 0; p < NR__PICKS; p++) {
            const size_t index = k[at[p]].index;
            int seen = 0;
            for (size_t j = 0; j < got; j++)
                seen |= pick[j] == index;
            if (!seen) {
                pick[got] = index;
                which[got++] = (enum nr__pick)p;
            }
        }
    }
    free(k);
    return got;
}
