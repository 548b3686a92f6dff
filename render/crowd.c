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

int nr__crowd_init(nr__crowd *c, size_t n_runs)
{
    *c = (nr__crowd){0};
    c->key = malloc((n_runs ? n_runs : 1) * sizeof *c->key);
    c->usable = malloc((n_runs ? n_runs : 1) * sizeof *c->usable);
    c->others = malloc((n_runs ? n_runs : 1) * sizeof *c->others);
    if (c->key && c->usable && c->others)
        return 0;
    nr__crowd_fini(c);
    return -1;
}

void nr__crowd_fini(nr__crowd *c)
{
    free(c->key);
    free(c->usable);
    free(c->others);
    *c = (nr__crowd){0};
}

size_t nr__crowd_pick(nr__crowd *c, size_t n_runs)
{
    return c->n_picks = nr__crowd_picks(c->key, c->usable, n_runs, c->pick, c->which);
}

int nr__crowd_picked(const nr__crowd *c, size_t run)
{
    for (size_t i = 0; i < c->n_picks; i++)
        if (c->pick[i] == run)
            return 1;
    return 0;
}
