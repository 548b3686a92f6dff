/* compare_pool: the replicate pairs of a workload taken together, so that a
 * change is judged against the spread between runs, not against the
 * thresholds that stand in for it when each side has one run
 * (docs/compare.md, "Replicates"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "json_number.h"

/* The row of p with section and name, or NULL. */
static const nr_compare_stat *row_named(const nr_compare_pair *p, const char *section, const char *name)
{
    for (size_t i = 0; i < p->nstats; i++)
        if (strcmp(p->stats[i].section, section) == 0 && strcmp(p->stats[i].name, name) == 0)
            return &p->stats[i];
    return NULL;
}

/* The values of a row pair p lacks into *a, *b: 1, or 0 when the row is
 * not pooled. A phase absent from both runs did not occur (0); an op group
 * without a call in either run timed none (its "calls timed" 0: until
 * session 49 such a row was left unpooled); a findings row, listed when
 * the rule fired in either run, takes the rule's outcome in each run, so
 * that a rule that could not look (data_bound without -T) is n/a, not
 * "did not fire" (0 until session 49, review 49). */
static int absent_values(const nr_compare_pair *p, const nr_compare_stat *row, double *a, double *b)
{
    if (strcmp(row->section, "phase") == 0) {
        *a = p->timestamps[0] ? 0.0 : NAN;   /* without timestamps no call is placed in a phase */
        *b = p->timestamps[1] ? 0.0 : NAN;
        return 1;
    }
    if (strcmp(row->section, "latency") == 0) {
        static const char timed[] = " calls timed";
        const size_t n = strlen(row->name), k = sizeof timed - 1;
        *a = p->durations[0] ? 0.0 : NAN;    /* without -T nothing is timed: unknown */
        *b = p->durations[1] ? 0.0 : NAN;
        return n > k && strcmp(row->name + n - k, timed) == 0;
    }
    *a = *b = 0.0;
    if (strcmp(row->section, "findings") != 0)
        return 0;
    static const char prefix[] = "finding ";
    for (size_t i = 0; i < p->noutcomes; i++)
        if (strncmp(row->name, prefix, sizeof prefix - 1) == 0 && strcmp(p->outcomes[i].id, row->name + sizeof prefix - 1) == 0) {
            *a = p->outcomes[i].a;
            *b = p->outcomes[i].b;
        }
    return 1; /* a pair made by hand, without outcomes: not fired */
}

static void spread(const double *v, size_t n, double *mean, double *lo, double *hi)
{
    double s = 0.0;
    *lo = *hi = v[0];
    for (size_t i = 0; i < n; i++) {
        s += v[i];
        *lo = v[i] < *lo ? v[i] : *lo;
        *hi = v[i] > *hi ? v[i] : *hi;
    }
    *mean = s / (double)n;
}

/* Pools one row over the pool's pairs into out; 0, 1 when a pair lacks
 * it (not pooled), or NR_E_NOMEM. va and vb hold npairs doubles each. */
static int pool_row(const nr_compare_pool *pool, const nr_compare_pair *pairs, const nr_compare_stat *row,
                    const nr_compare_opts *o, double *va, double *vb, nr_compare_pooled *out)
{
    int finite = 1;
    for (size_t k = 0; k < pool->npairs; k++) {
        const nr_compare_pair *p = &pairs[pool->pairs[k]];
        const nr_compare_stat *s = row_named(p, row->section, row->name);
        if (s) {
            va[k] = s->a;
            vb[k] = s->b;
        } else if (!absent_values(p, row, &va[k], &vb[k]))
            return 1;
        finite &= isfinite(va[k]) && isfinite(vb[k]);
    }
    memset(out, 0, sizeof *out);
    out->section = row->section;
    out->name = row->name;
    out->unit = row->unit;
    out->a_mean = out->a_min = out->a_max = out->b_mean = out->b_min = out->b_max = NAN;
    out->abs_diff = out->rel_diff = NAN;
    out->perm.p_value = out->perm.p_min = out->q_value = NAN;
    out->verdict = NR_VERDICT_NA;
    if (!finite)
        return 0;
    spread(va, pool->npairs, &out->a_mean, &out->a_min, &out->a_max);
    spread(vb, pool->npairs, &out->b_mean, &out->b_min, &out->b_max);
    out->abs_diff = out->b_mean - out->a_mean;
    out->rel_diff = nr_rel_diff(out->a_mean, out->b_mean);
    const int rc = nr_perm_test_means(va, pool->npairs, vb, pool->npairs, o->boot.seed, &out->perm);
    if (rc == NR_E_NOMEM)
        return rc;
    out->verdict = nr_verdict_replicates(&o->rule, &out->perm, out->rel_diff);
    return 0;
}

static int seen_before(const nr_compare_pool *pool, const nr_compare_pair *pairs, size_t k, const nr_compare_stat *row)
{
    for (size_t j = 0; j < k; j++)
        if (row_named(&pairs[pool->pairs[j]], row->section, row->name))
            return 1;
    return 0;
}

/* Every row of the pool's pairs, in the order they first appear. */
static int pool_rows(nr_compare_pool *pool, const nr_compare_pair *pairs, const nr_compare_opts *o)
{
    size_t cap = 0;
    for (size_t k = 0; k < pool->npairs; k++)
        cap += pairs[pool->pairs[k]].nstats;
    pool->stats = malloc((cap ? cap : 1) * sizeof *pool->stats);
    pool->unpooled = malloc((cap ? cap : 1) * sizeof *pool->unpooled);
    double *va = malloc(2 * pool->npairs * sizeof *va);
    int rc = pool->stats && pool->unpooled && va ? 0 : NR_E_NOMEM;
    for (size_t k = 0; k < pool->npairs && rc == 0; k++) {
        const nr_compare_pair *p = &pairs[pool->pairs[k]];
        for (size_t i = 0; i < p->nstats && rc == 0; i++) {
            const nr_compare_stat *row = &p->stats[i];
            if (row->kind == NR_STAT_KS || seen_before(pool, pairs, k, row))
                continue;
            nr_compare_pooled *out = &pool->stats[pool->nstats];
            rc = pool_row(pool, pairs, row, o, va, va + pool->npairs, out);
            if (rc == 1) {
                pool->unpooled[pool->nunpooled++] = row->name;
                rc = 0;
            } else if (rc == 0) {
                pool->nsignificant += out->verdict == NR_VERDICT_SIGNIFICANT;
                pool->nstats++;
            }
        }
    }
    free(va);
    return rc;
}

/* The q-values of the pool's rows, one family (docs/compare.md,
 * "Replicates"), and how many significant rows hold at the level. */
static int pool_fdr(nr_compare_pool *pool, const nr_compare_opts *o)
{
    double *pq = malloc(2 * (pool->nstats ? pool->nstats : 1) * sizeof *pq);
    if (!pq)
        return NR_E_NOMEM;
    for (size_t i = 0; i < pool->nstats; i++)
        pq[i] = pool->stats[i].perm.p_value;
    const int rc = nr_p_adjust_bh(pq, pool->nstats, pq + pool->nstats);
    for (size_t i = 0; rc == 0 && i < pool->nstats; i++) {
        nr_compare_pooled *s = &pool->stats[i];
        s->q_value = pq[pool->nstats + i];
        pool->nsignificant_fdr += s->verdict == NR_VERDICT_SIGNIFICANT && s->q_value <= o->rule.replicate_alpha;
    }
    free(pq);
    return rc;
}

/* Whether pairs i and j compare one workload with one group. */
static int same_pool(const nr_compare_match *m, const char *const *w, size_t i, size_t j)
{
    return m[i].group == m[j].group && strcmp(w[i], w[j]) == 0;
}

/* Whether pair i opens a pool: no earlier pair has its group and workload. */
static int first_of_pool(const nr_compare_match *m, const char *const *w, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (same_pool(m, w, i, j))
            return 0;
    return 1;
}

/* The pairs of pair first's pool, in order, into pool. */
static int collect_pairs(const nr_compare_match *m, const char *const *w, size_t n, size_t first,
                         nr_compare_pool *pool)
{
    memset(pool, 0, sizeof *pool);
    pool->group = m[first].group;
    pool->workload = w[first];
    pool->pairs = malloc(n * sizeof *pool->pairs);
    if (!pool->pairs)
        return NR_E_NOMEM;
    for (size_t j = first; j < n; j++)
        if (same_pool(m, w, first, j))
            pool->pairs[pool->npairs++] = j;
    pool->p_min = nr_perm_p_min(pool->npairs, pool->npairs);
    return 0;
}

int nr_compare_pool_pairs(const nr_compare_match *m, const nr_compare_pair *pairs, const char *const *workloads,
                          size_t n, const nr_compare_opts *opts, nr_compare_pool **out, size_t *npools,
                          nr_error *err)
{
    *out = NULL;
    *npools = 0;
    nr_compare_pool *pools = calloc(n ? n : 1, sizeof *pools);
    if (!pools)
        return nr_error_set(err, NR_E_NOMEM, "compare: out of memory for the replicates");
    size_t k = 0;
    /* by group, then by first pair: the pairs are ordered by group already */
    for (size_t i = 0; i < n; i++) {
        if (!first_of_pool(m, workloads, i))
            continue;
        nr_compare_pool *pool = &pools[k++];
        int rc = collect_pairs(m, workloads, n, i, pool);
        if (rc == 0 && pool->npairs < 2) { /* one run a side: the pair alone */
            free(pool->pairs);
            k--;
            continue;
        }
        if (rc < 0 || pool_rows(pool, pairs, opts) < 0 || pool_fdr(pool, opts) < 0) {
            nr_compare_pools_free(pools, k);
            return nr_error_set(err, NR_E_NOMEM, "compare: out of memory for the replicates of %s", workloads[i]);
        }
    }
    *out = pools;
    *npools = k;
    return 0;
}

void nr_compare_pools_free(nr_compare_pool *p, size_t n)
{
    for (size_t i = 0; p && i < n; i++) {
        free(p[i].pairs);
        free(p[i].stats);
        free(p[i].unpooled);
    }
    free(p);
}

static json_t *side_json(double mean, double lo, double hi)
{
    json_t *o = json_object();
    json_object_set_new(o, "mean", nr_json_number(mean));
    json_object_set_new(o, "min", nr_json_number(lo));
    json_object_set_new(o, "max", nr_json_number(hi));
    return o;
}

json_t *nr_compare_pool_json(const nr_compare_pool *p)
{
    json_t *rows = json_array();
    for (size_t i = 0; rows && i < p->nstats; i++) {
        const nr_compare_pooled *s = &p->stats[i];
        json_t *o = json_object();
        json_object_set_new(o, "section", json_string(s->section));
        json_object_set_new(o, "name", json_string(s->name));
        json_object_set_new(o, "unit", json_string(s->unit));
        json_object_set_new(o, "verdict", json_string(nr_verdict_name(s->verdict)));
        json_object_set_new(o, "a", side_json(s->a_mean, s->a_min, s->a_max));
        json_object_set_new(o, "b", side_json(s->b_mean, s->b_min, s->b_max));
        json_object_set_new(o, "abs_diff", nr_json_number(s->abs_diff));
        json_object_set_new(o, "rel_diff", nr_json_number(s->rel_diff));
        json_object_set_new(o, "p_value", nr_json_number(s->perm.p_value));
        json_object_set_new(o, "p_exact", json_boolean(s->perm.exact));
        json_object_set_new(o, "q_value", nr_json_number(s->q_value));
        json_array_append_new(rows, o);
    }
    return rows;
}
