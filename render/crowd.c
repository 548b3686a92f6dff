/* crowd: which runs a figure of many runs draws in colour. */
#include <math.h>
#include <stdlib.h>

#include "render_internal.h"

const char *const nr__pick_names[NR__PICKS] = {"lowest", "median", "highest"};

int nr__by_key_then_index(const void *a, const void *b)
{
    const nr__keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

size_t nr__crowd_pick(nr__crowd *c, size_t n_runs)
{
    nr__keyed *k = c->sorted;
    size_t m = 0;
    for (size_t i = 0; i < n_runs; i++)
        if (c->usable[i] && isfinite(c->key[i]))
            k[m++] = (nr__keyed){c->key[i], i};
    c->n_picks = 0;
    if (m == 0)
        return 0;
    qsort(k, m, sizeof *k, nr__by_key_then_index);
    const size_t at[NR__PICKS] = {0, (m - 1) / 2, m - 1};
    for (int p = 0; p < NR__PICKS; p++)
        if (!nr__crowd_picked(c, k[at[p]].index)) {
            c->pick[c->n_picks] = k[at[p]].index;
            c->which[c->n_picks++] = (enum nr__pick)p;
        }
    return c->n_picks;
}

int nr__crowd_init(nr__crowd *c, size_t n_runs)
{
    *c = (nr__crowd){0};
    c->key = malloc((n_runs ? n_runs : 1) * sizeof *c->key);
    c->usable = malloc((n_runs ? n_runs : 1) * sizeof *c->usable);
    c->others = malloc((n_runs ? n_runs : 1) * sizeof *c->others);
    c->sorted = malloc((n_runs ? n_runs : 1) * sizeof *c->sorted);
    if (c->key && c->usable && c->others && c->sorted)
        return 0;
    nr__crowd_fini(c);
    return -1;
}

void nr__crowd_fini(nr__crowd *c)
{
    free(c->key);
    free(c->usable);
    free(c->others);
    free(c->sorted);
    *c = (nr__crowd){0};
}

void nr__crowd_others(nr__crowd *c, size_t n_runs)
{
    c->n_others = 0;
    for (size_t i = 0; i < n_runs; i++) /* n_others <= i: in place */
        if (c->others[i].n > 0 && !nr__crowd_picked(c, i))
            c->others[c->n_others++] = c->others[i];
}

int nr__crowd_picked(const nr__crowd *c, size_t run)
{
    for (size_t i = 0; i < c->n_picks; i++)
        if (c->pick[i] == run)
            return 1;
    return 0;
}
