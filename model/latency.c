/* Latency per op class (read, write, open, sync, metadata), overall, per
 * phase, per process role and per file system: exact nearest-rank quantiles
 * and log-binned CDF points; the cache-hit/miss split of reads; the exact
 * median read size.
 *
 * Method (memory bounded by groups, not events): pass 1 fills one nr_loghist
 * per group; the histogram tells which bin holds each wanted rank; pass 2
 * collects only the values of those bins (and counts the values below), so
 * the rank-th value is found by sorting a bin. A bin too full to collect
 * falls back to nr_quantiles_exact over a filtered source of the store. */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"
#include "pass.h"

const double nr_model_quantiles[NR_MODEL_NQ] = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};

#define TARGET_CAP ((size_t)1 << 20)       /* values collected for one rank */
#define TOTAL_CAP ((uint64_t)16 << 20)     /* values collected over every rank */
#define LOGHIST_BINS NR_LOGHIST_BINS

const char *nr_lat_op_name(int lat_op)
{
    static const char *const names[NR_LAT_OP_COUNT] = {"read", "write", "open", "sync", "metadata"};
    return lat_op >= 0 && lat_op < NR_LAT_OP_COUNT ? names[lat_op] : "?";
}

const char *nr_role_name(int role)
{
    static const char *const names[NR_ROLE_COUNT] = {"main", "worker", "other"};
    return role >= 0 && role < NR_ROLE_COUNT ? names[role] : "?";
}

/* The latency sample of an event: regular file, classed op, a duration, a result. */
static int timed(const nr__event *e)
{
    return e->reg >= 0 && e->lat_op >= 0 && e->dur >= 0 && !(e->flags & NR_EVF_NEVER_RESUMED);
}

/* Read sizes: successful reads of regular files. */
static int sized_read(const nr__event *e)
{
    return e->reg >= 0 && e->op == NR_OP_READ && !(e->flags & (NR_EVF_NEVER_RESUMED | NR_EVF_FAILED));
}

static size_t ngroups(const nr_model *m) { return NR_LAT_OP_COUNT * m->lat_slots + 1; }
static nr_model_latency *group(nr_model *m, size_t g) { return g + 1 == ngroups(m) ? &m->read_size : &m->lat[g]; }

static void add_sample(nr_model_latency *l, int64_t v)
{
    nr_loghist_add(&l->hist, v);
    l->count++;
    l->mean_s += (double)v;   /* the sum until latency_finish */
}

/* The group indexes an event's value belongs to (all, phase, role, fs). */
static void event_groups(const nr_model *m, const nr__event *e, size_t g[4])
{
    const size_t base = (size_t)e->lat_op * m->lat_slots;
    g[0] = base;
    g[1] = base + nr__lat_slot_phase(m, e->phase);
    g[2] = base + nr__lat_slot_role(m, e->role);
    g[3] = base + nr__lat_slot_fs(m, e->fs);
}

void nr__latency_add(nr_model *m, const nr__event *e)
{
    if (sized_read(e))
        add_sample(&m->read_size, e->bytes > 0 ? e->bytes : 0);
    if (!timed(e))
        return;
    size_t g[4];
    event_groups(m, e, g);
    for (int i = 0; i < 4; i++)
        add_sample(&m->lat[g[i]], e->dur);
}

/* Chooses the bin of each wanted rank and the value range to collect. */
int nr__latency_plan(nr_model *m, nr_error *err)
{
    const size_t ng = ngroups(m);
    m->qt = calloc(ng * NR_MODEL_NQ, sizeof *m->qt);
    if (!m->qt)
        return nr_error_set(err, NR_E_NOMEM, "out of memory planning latency quantiles");
    uint64_t planned = 0;
    for (size_t g = 0; g < ng; g++) {
        const nr_model_latency *l = group(m, g);
        const uint64_t n = l->hist.n;
        for (int q = 0; q < NR_MODEL_NQ && n > 0; q++) {
            nr__qtarget *t = &m->qt[g * NR_MODEL_NQ + q];
            const uint64_t rank = nr_quantile_rank(nr_model_quantiles[q], n);
            uint64_t cum = 0;
            int b = 0;
            while (b < LOGHIST_BINS - 1 && cum + l->hist.counts[b] < rank)
                cum += l->hist.counts[b++];
            t->rank = rank;
            t->lo = b == 0 ? INT64_MIN : (int64_t)floor(nr_loghist_bin_upper(b - 1)) - 1;
            t->hi = b == LOGHIST_BINS - 1 ? INT64_MAX : (int64_t)ceil(nr_loghist_bin_upper(b)) + 1;
            const nr__qtarget *prev = q > 0 ? t - 1 : NULL;
            if (prev && prev->lo == t->lo && prev->hi == t->hi) {
                t->shared = 1;   /* same bin as the previous rank: reuse its values */
                t->fallback = prev->fallback;
                continue;
            }
            const uint64_t expect = l->hist.counts[b];
            if (expect > TARGET_CAP || planned + expect > TOTAL_CAP)
                t->fallback = 1;
            else
                planned += expect;
        }
    }
    if (m->lat && m->lat[NR_LAT_READ * m->lat_slots].count > 0)
        NR_TRY(nr_cache_split_compute(&m->lat[NR_LAT_READ * m->lat_slots].hist, &m->split));
    return 0;
}

static int collect_value(nr__qtarget *t, int64_t v)
{
    for (int q = 0; q < NR_MODEL_NQ; q++, t++) {
        if (t->rank == 0 || t->fallback || t->shared)
            continue;
        if (v < t->lo) {
            t->below++;
        } else if (v <= t->hi) {
            NR_TRY(NR_GROW(t->vals, t->cap, t->n + 1));
            t->vals[t->n++] = v;
        }
    }
    return 0;
}

int nr__latency_collect(nr_model *m, const nr__event *e)
{
    if (sized_read(e))
        NR_TRY(collect_value(&m->qt[(ngroups(m) - 1) * NR_MODEL_NQ], e->bytes > 0 ? e->bytes : 0));
    if (!timed(e))
        return 0;
    if (e->lat_op == NR_LAT_READ && m->split.found && e->dur >= m->split.threshold_ns && e->bytes > 0)
        m->slow_read_bytes += (uint64_t)e->bytes;
    if (e->lat_op == NR_LAT_READ && e->bytes > 0)
        m->read_bytes_timed += (uint64_t)e->bytes;
    size_t g[4];
    event_groups(m, e, g);
    for (int i = 0; i < 4; i++)
        NR_TRY(collect_value(&m->qt[g[i] * NR_MODEL_NQ], e->dur));
    return 0;
}

static int cmp_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The filter that reproduces group g, for the fallback. */
static nr__filter filter_of(const nr_model *m, size_t g)
{
    nr__filter f = {.lat_op = NR_LAT_READ, .value_bytes = 0, .phase = -1, .role = -1, .fs = -1};
    if (g + 1 == ngroups(m)) {
        f.value_bytes = 1;
        return f;
    }
    f.lat_op = (int)(g / m->lat_slots);
    const size_t slot = g % m->lat_slots;
    if (slot >= nr__lat_slot_fs(m, 0))
        f.fs = (int)(slot - nr__lat_slot_fs(m, 0));
    else if (slot >= nr__lat_slot_role(m, 0))
        f.role = (int)(slot - nr__lat_slot_role(m, 0));
    else if (slot >= 1)
        f.phase = (long)(slot - 1);
    return f;
}

/* Reads the quantiles of group g from its collected bins; 1 when one needs the fallback. */
static int finish_group(nr_model *m, size_t g)
{
    nr_model_latency *l = group(m, g);
    nr__qtarget *t = &m->qt[g * NR_MODEL_NQ];
    const nr__qtarget *owner = NULL;
    for (int q = 0; q < NR_MODEL_NQ; q++) {
        l->q_ns[q] = -1;
        if (t[q].rank == 0)
            continue;
        if (t[q].fallback)
            return 1;
        if (!t[q].shared) {
            owner = &t[q];
            qsort(t[q].vals, t[q].n, sizeof *t[q].vals, cmp_i64);
        }
        if (!owner || t[q].rank <= owner->below || t[q].rank - owner->below > owner->n)
            return 1;
        l->q_ns[q] = owner->vals[t[q].rank - owner->below - 1];
    }
    return 0;
}

int nr__latency_finish(nr_model *m, const nr_store *s, nr_error *err)
{
    const size_t ng = ngroups(m);
    for (size_t g = 0; g < ng; g++) {
        nr_model_latency *l = group(m, g);
        if (finish_group(m, g)) {
            const nr__filter f = filter_of(m, g);
            uint64_t count = 0;
            NR_TRY(nr__quantiles_filtered(m, s, &f, l->q_ns, &count, err));
            if (count != l->count)
                return nr_error_set(err, NR_E_FORMAT,
                                    "table events changed between passes (%llu vs %llu values)",
                                    (unsigned long long)count, (unsigned long long)l->count);
        }
        l->mean_s = l->count ? l->mean_s / (double)l->count * (g + 1 == ng ? 1.0 : 1e-9) : NAN;
        for (int q = 0; q < NR_MODEL_NQ; q++) {
            free(m->qt[g * NR_MODEL_NQ + q].vals);
            m->qt[g * NR_MODEL_NQ + q].vals = NULL;
        }
    }
    m->access.median_read_size = m->read_size.count ? (uint64_t)m->read_size.q_ns[0] : 0;
    if (m->split.found)
        nr_cache_split_bytes(&m->split, m->slow_read_bytes, m->read_bytes_timed);
    return 0;
}

/* ---- a filtered value source over the store (the exact fallback) ------- */

typedef struct filtered_source {
    nr_model *m;
    const nr_store *s;
    nr__filter f;
    nr__reader r;
    size_t rg, ngroups;
    int64_t *buf;
    size_t cap;
} filtered_source;

static int fs_rewind(void *ctx, nr_error *err)
{
    filtered_source *src = ctx;
    src->rg = 0;
    return 0;
}

static int fs_keep(const filtered_source *src, const nr__event *e)
{
    const nr__filter *f = &src->f;
    if (f->value_bytes)
        return sized_read(e);
    return timed(e) && e->lat_op == f->lat_op && (f->phase < 0 || e->phase == (size_t)f->phase) &&
           (f->role < 0 || e->role == f->role) && (f->fs < 0 || e->fs == f->fs);
}

static int fs_next(void *ctx, const int64_t **vals, size_t *n, nr_error *err)
{
    filtered_source *src = ctx;
    while (src->rg < src->ngroups) {
        size_t rows;
        NR_TRY(nr__reader_load(&src->r, src->rg++, &rows, err));
        if (rows > src->cap) {
            free(src->buf);
            src->buf = malloc(rows * sizeof *src->buf);
            src->cap = src->buf ? rows : 0;
            if (!src->buf)
                return nr_error_set(err, NR_E_NOMEM, "out of memory reading table events");
        }
        size_t k = 0;
        for (size_t i = 0; i < rows; i++) {
            nr__event e;
            NR_TRY(nr__reader_event(&src->r, src->m, i, 0, &e));
            if (fs_keep(src, &e))
                src->buf[k++] = src->f.value_bytes ? (e.bytes > 0 ? e.bytes : 0) : e.dur;
        }
        if (k > 0) {
            *vals = src->buf;
            *n = k;
            return 1;
        }
    }
    return 0;
}

int nr__quantiles_filtered(nr_model *m, const nr_store *s, const nr__filter *f,
                           int64_t out[NR_MODEL_NQ], uint64_t *count, nr_error *err)
{
    filtered_source src = {.m = m, .s = s, .f = *f};
    const uint32_t cols = NR__COL(NR_EV_DUR_NS) | NR__COL(NR_EV_PID) | NR__COL(NR_EV_OP_CLASS) |
                          NR__COL(NR_EV_FILE_ID) | NR__COL(NR_EV_BYTES) | NR__COL(NR_EV_FLAGS) |
                          NR__COL(NR_EV_PHASE_ID);
    int rc = nr__reader_open(&src.r, s, cols, err);
    if (rc == 0 && src.r.t) {
        src.ngroups = nr_store_table_rowgroups(src.r.t);
        const nr_value_source vs = {.ctx = &src, .rewind = fs_rewind, .next = fs_next};
        m->last_pid = INT64_MIN;
        rc = nr_quantiles_exact(&vs, nr_model_quantiles, NR_MODEL_NQ, out, count, err);
    }
    nr__reader_close(&src.r);
    free(src.buf);
    return rc;
}
