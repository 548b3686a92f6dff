/* nr_phase_pick: figure 1's rule of the phases it keeps, ranked by weight. */
#include "nr_phase_pick.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nr_error.h"

typedef struct keyed {
    double key; /* minus the weight: the largest come first */
    size_t index;
} keyed;

static int by_key_then_index(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static double weighs(double v)
{
    return isfinite(v) && v > 0 ? v : 0;
}

/* Phase j's weight into score[j]: its share of each run's bytes plus its
 * share of each run's I/O time, summed over the runs. */
static void scores(size_t n_runs, size_t m, const double *bytes, const double *io_time_s, double *score)
{
    for (size_t j = 0; j < m; j++)
        score[j] = 0;
    for (size_t r = 0; r < n_runs; r++) {
        const double *b = bytes + r * m, *t = io_time_s + r * m;
        double bt = 0, tt = 0;
        for (size_t j = 0; j < m; j++) {
            bt += weighs(b[j]);
            tt += weighs(t[j]);
        }
        for (size_t j = 0; j < m; j++) {
            if (weighs(b[j]) > 0)
                score[j] += b[j] / bt;
            if (weighs(t[j]) > 0)
                score[j] += t[j] / tt;
        }
    }
}

/* The n phases ranked by weight, largest first, ties to the earlier
 * (malloc'd, the caller frees); NULL when out of memory. */
static keyed *ranked(size_t n_runs, size_t n, const double *bytes, const double *io_time_s)
{
    double *score = malloc((n ? n : 1) * sizeof *score);
    keyed *rank = malloc((n ? n : 1) * sizeof *rank);
    if (score && rank) {
        scores(n_runs, n, bytes, io_time_s, score);
        for (size_t j = 0; j < n; j++)
            rank[j] = (keyed){-score[j], j};
        qsort(rank, n, sizeof *rank, by_key_then_index);
    } else {
        free(rank);
        rank = NULL;
    }
    free(score);
    return rank;
}

int nr_phase_pick_slots(size_t n_runs, size_t n_phases, const double *bytes, const double *io_time_s, size_t *slot)
{
    const size_t m = n_phases, kept = NR_PHASE_PICK_KEPT;
    keyed *rank = ranked(n_runs, m, bytes, io_time_s);
    if (!rank)
        return NR_E_NOMEM;
    for (size_t j = 0; j < m; j++)
        slot[j] = kept;
    for (size_t k = 0; k < kept && k < m; k++)
        slot[rank[k].index] = 0; /* kept: numbered below, in phase order */
    for (size_t j = 0, n = 0; j < m; j++)
        if (slot[j] == 0)
            slot[j] = n++;
    free(rank);
    return 0;
}

int nr_phase_pick_top(size_t n_runs, size_t n_phases, const double *bytes, const double *io_time_s, size_t k,
                      uint8_t *top)
{
    keyed *rank = ranked(n_runs, n_phases, bytes, io_time_s);
    if (!rank)
        return NR_E_NOMEM;
    memset(top, 0, n_phases);
    for (size_t r = 0; r < k && r < n_phases; r++)
        top[rank[r].index] = 1;
    free(rank);
    return 0;
}

int nr_phase_pick_kept(size_t n_runs, size_t n_phases, const double *bytes, const double *io_time_s,
                       size_t kept[NR_PHASE_PICK_KEPT], size_t *n_kept)
{
    *n_kept = 0;
    if (n_phases <= NR_PHASE_PICK_MAX)
        return 0;
    size_t *slot = malloc(n_phases * sizeof *slot);
    if (!slot)
        return NR_E_NOMEM;
    const int rc = nr_phase_pick_slots(n_runs, n_phases, bytes, io_time_s, slot);
    for (size_t j = 0; rc == 0 && j < n_phases; j++)
        if (slot[j] < NR_PHASE_PICK_KEPT)
            kept[(*n_kept)++] = j;
    free(slot);
    return rc;
}
