/* waits: the hook's waits for data from table waits (niorep_hook.batches;
 * docs/definitions.md, "Waits for data"), per phase and for the run. One
 * pass sums them and counts the threads that waited; exact quantiles come
 * from nr_quantiles_exact over the table, for the run and the phases with
 * the most wait time. Memory is bounded by the threads and phases that
 * waited, never by the waits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"
#include "quantile.h"

/* WT_FIRST last: the one column a store may lack (written before session
 * 63); its waits are then all steady. */
enum { WT_TS, WT_PID, WT_TID, WT_DUR, WT_PHASE, WT_FIRST, WT_NCOLS };
static const char *const wait_cols[WT_NCOLS] = {"ts_ns", "pid", "tid", "dur_ns", "phase_id", "first"};

/* The key of the run's own thread set: no phase index reaches it. */
#define RUN_KEY SIZE_MAX

/* A set of (phase, pid, tid): who waited where. */
typedef struct waiter {
    size_t phase; /* RUN_KEY for the run's set */
    int64_t pid, tid;
    int used;
} waiter;

typedef struct waiter_set {
    waiter *slots;
    size_t nslots, count;
} waiter_set;

static size_t waiter_hash(size_t phase, int64_t pid, int64_t tid)
{
    uint64_t h = (uint64_t)phase * UINT64_C(0x9e3779b97f4a7c15);
    h = (h ^ (uint64_t)pid) * UINT64_C(0xbf58476d1ce4e5b9);
    h = (h ^ (uint64_t)tid) * UINT64_C(0x94d049bb133111eb);
    return (size_t)(h ^ (h >> 31));
}

static waiter *waiter_slot(waiter *slots, size_t nslots, size_t phase, int64_t pid, int64_t tid)
{
    size_t i = waiter_hash(phase, pid, tid) & (nslots - 1);
    while (slots[i].used && !(slots[i].phase == phase && slots[i].pid == pid && slots[i].tid == tid))
        i = (i + 1) & (nslots - 1);
    return &slots[i];
}

static int waiter_grow(waiter_set *s)
{
    const size_t n = s->nslots ? 2 * s->nslots : 64;
    waiter *slots = calloc(n, sizeof *slots);
    if (!slots)
        return NR_E_NOMEM;
    for (size_t i = 0; i < s->nslots; i++)
        if (s->slots[i].used)
            *waiter_slot(slots, n, s->slots[i].phase, s->slots[i].pid, s->slots[i].tid) = s->slots[i];
    free(s->slots);
    s->slots = slots;
    s->nslots = n;
    return 0;
}

/* Adds (phase, pid, tid): 1 when it is new, 0 when known, or NR_E_NOMEM. */
static int waiter_add(waiter_set *s, size_t phase, int64_t pid, int64_t tid)
{
    if (2 * (s->count + 1) > s->nslots)
        NR_TRY(waiter_grow(s));
    waiter *w = waiter_slot(s->slots, s->nslots, phase, pid, tid);
    if (w->used)
        return 0;
    *w = (waiter){.phase = phase, .pid = pid, .tid = tid, .used = 1};
    s->count++;
    return 1;
}

typedef struct wait_reader {
    const nr_store_table *t;
    int col[WT_NCOLS];
    nr_col_chunk c[WT_NCOLS];
    size_t ncols;             /* WT_FIRST when the store lacks it, else WT_NCOLS */
} wait_reader;

/* The waits' durations summed in ns, all and those marked first: per phase
 * ([nphases]) and for the run. */
typedef struct wait_sums {
    int64_t *ns, *start_ns;
    int64_t run_ns, run_start_ns;
} wait_sums;

static size_t phase_index(const nr_model *m, int64_t phase_id)
{
    const int64_t k = phase_id >= 0 ? nr__idmap_lookup(&m->phase_ids, phase_id) : -1;
    return k >= 0 ? (size_t)k : m->unphased;
}

/* Row group rg's chunks of the columns cols[0..n). */
static int read_group(wait_reader *r, size_t rg, const int *cols, size_t n, nr_error *err)
{
    for (size_t i = 0; i < n; i++)
        NR_TRY(nr_store_read_chunk(r->t, (size_t)r->col[cols[i]], rg, &r->c[cols[i]], err));
    return 0;
}

/* start_ns never overflows where ns, their superset, did not. */
static int add_wait(nr_model_waits *w, int64_t *ns, int64_t *start_ns, int64_t dur, int first, uint64_t row,
                    nr_error *err)
{
    if (__builtin_add_overflow(*ns, dur, ns))
        return nr_error_set(err, NR_E_FORMAT, "table waits: the durations up to row %llu overflow",
                            (unsigned long long)row + 1);
    w->count++;
    w->max_ns = dur > w->max_ns ? dur : w->max_ns;
    int64_t *kind_max = first ? &w->start_max_ns : &w->steady_max_ns;
    *kind_max = dur > *kind_max ? dur : *kind_max;
    if (first) {
        w->passes++;
        *start_ns += dur;
    }
    return 0;
}

/* Adds the wait [ts, ts + dur) to the timeline's bins it overlaps, in ns
 * (made shares at the end: wait_shares). */
static void add_to_bins(nr_model *m, int64_t ts, int64_t dur, int first)
{
    const nr_model_timeline *t = &m->timeline;
    if (!m->tl_waiting || t->width_ns <= 0)
        return;
    int64_t end;
    if (__builtin_add_overflow(ts, dur, &end))
        end = INT64_MAX;
    int64_t span, last; /* the bins' end: a crafted store's may pass 2^63 */
    if (__builtin_mul_overflow((int64_t)t->nbins, t->width_ns, &span) || __builtin_add_overflow(t->start_ns, span, &last))
        last = INT64_MAX;
    const int64_t from = ts > t->start_ns ? ts : t->start_ns, to = end < last ? end : last;
    int64_t into;
    if (from >= to || __builtin_sub_overflow(from, t->start_ns, &into))
        return;
    for (int64_t b = into / t->width_ns; b < (int64_t)t->nbins; b++) {
        int64_t off, lo, hi;
        if (__builtin_mul_overflow(b, t->width_ns, &off) || __builtin_add_overflow(t->start_ns, off, &lo) || lo >= to)
            break;
        if (__builtin_add_overflow(lo, t->width_ns, &hi))
            hi = INT64_MAX;
        const double ns = (double)((to < hi ? to : hi) - (from > lo ? from : lo));
        m->tl_waiting[b] += ns;
        if (first)
            m->tl_start_waiting[b] += ns;
    }
}

/* One row: checked as marks' rows are, then counted in its phase and the run. */
static int take_row(nr_model *m, const wait_reader *r, size_t i, waiter_set *who, wait_sums *sums, nr_error *err)
{
    const nr_col_chunk *c = r->c;
    const uint64_t row = m->waits.count;
    const int64_t dur = c[WT_DUR].i64[i];
    NR_TRY(nr__check_phase_ref(m, "waits", row, c[WT_PHASE].i64[i], err));
    NR_TRY(nr__check_time("waits", "ts_ns", row, c[WT_TS].i64[i], err));
    if (dur < 0)
        return nr_error_set(err, NR_E_FORMAT, "table waits, row %llu: dur_ns %lld is negative (expected a "
                            "duration in ns, 0 or more)", (unsigned long long)row + 1, (long long)dur);
    const int64_t first = r->ncols > WT_FIRST ? c[WT_FIRST].i64[i] : 0;
    if (first != 0 && first != 1)
        return nr_error_set(err, NR_E_FORMAT, "table waits, row %llu: first is %lld (expected 0 or 1)",
                            (unsigned long long)row + 1, (long long)first);
    const size_t k = phase_index(m, c[WT_PHASE].i64[i]);
    const int64_t pid = c[WT_PID].i64[i], tid = c[WT_TID].i64[i];
    nr_model_waits *pw = &m->phases[k].waits;
    int fresh;
    NR_TRY(fresh = waiter_add(who, k, pid, tid));
    pw->threads += (uint64_t)fresh;
    NR_TRY(fresh = waiter_add(who, RUN_KEY, pid, tid));
    m->waits.threads += (uint64_t)fresh;
    NR_TRY(add_wait(pw, &sums->ns[k], &sums->start_ns[k], dur, (int)first, row, err));
    add_to_bins(m, c[WT_TS].i64[i], dur, (int)first);
    return add_wait(&m->waits, &sums->run_ns, &sums->run_start_ns, dur, (int)first, row, err);
}

static int sum_waits(nr_model *m, wait_reader *r, wait_sums *sums, nr_error *err)
{
    waiter_set who = {0};
    static const int every[WT_NCOLS] = {WT_TS, WT_PID, WT_TID, WT_DUR, WT_PHASE, WT_FIRST};
    int rc = 0;
    for (size_t rg = 0; rc == 0 && rg < nr_store_table_rowgroups(r->t); rg++) {
        rc = read_group(r, rg, every, r->ncols, err);
        for (size_t i = 0; rc == 0 && i < r->c[WT_TS].n; i++)
            rc = take_row(m, r, i, &who, sums, err);
    }
    free(who.slots);
    return rc;
}

/* A value source of the durations of one phase's waits (RUN_KEY: all),
 * or of its steady ones alone (not marked first). */
typedef struct phase_durations {
    nr_model *m;
    wait_reader *r;
    size_t phase, rg;
    int steady_only;
    int64_t *buf;
} phase_durations;

static int durations_rewind(void *ctx, nr_error *err)
{
    (void)err;
    ((phase_durations *)ctx)->rg = 0;
    return 0;
}

static int durations_next(void *ctx, const int64_t **vals, size_t *n, nr_error *err)
{
    phase_durations *d = ctx;
    if (d->rg >= nr_store_table_rowgroups(d->r->t))
        return 0;
    static const int needed[] = {WT_DUR, WT_PHASE, WT_FIRST}; /* a quantile pass reads no more */
    const int first_known = d->r->ncols > WT_FIRST, steady_only = d->steady_only && first_known;
    NR_TRY(read_group(d->r, d->rg++, needed, steady_only ? 3 : 2, err));
    const nr_col_chunk *c = d->r->c;
    int64_t *grown = realloc(d->buf, (c[WT_DUR].n ? c[WT_DUR].n : 1) * sizeof *grown);
    if (!grown)
        return nr_error_set(err, NR_E_NOMEM, "waits: out of memory");
    d->buf = grown;
    size_t k = 0;
    for (size_t i = 0; i < c[WT_DUR].n; i++)
        if ((d->phase == RUN_KEY || phase_index(d->m, c[WT_PHASE].i64[i]) == d->phase) &&
            !(steady_only && c[WT_FIRST].i64[i]))
            d->buf[k++] = c[WT_DUR].i64[i];
    *vals = d->buf;
    *n = k;
    return 1;
}

/* p50 and p99 of the phase's waits, every one or the steady ones alone. */
static int quantile_pair(nr_model *m, wait_reader *r, size_t phase, int steady_only, int64_t out[2],
                         nr_error *err)
{
    static const double qs[2] = {0.5, 0.99};
    uint64_t count;
    phase_durations d = {.m = m, .r = r, .phase = phase, .steady_only = steady_only};
    const nr_value_source src = {.ctx = &d, .rewind = durations_rewind, .next = durations_next};
    const int rc = nr_quantiles_exact(&src, qs, 2, out, &count, err);
    free(d.buf);
    return rc;
}

static int quantiles_of(nr_model *m, wait_reader *r, size_t phase, nr_model_waits *w, nr_error *err)
{
    int64_t all[2], steady[2] = {-1, -1};
    NR_TRY(quantile_pair(m, r, phase, 0, all, err));
    if (w->passes == 0) { /* every wait is steady */
        steady[0] = all[0];
        steady[1] = all[1];
    } else if (w->passes < w->count) {
        NR_TRY(quantile_pair(m, r, phase, 1, steady, err));
    }
    w->p50_ns = all[0];
    w->p99_ns = all[1];
    w->steady_p50_ns = steady[0];
    w->steady_p99_ns = steady[1];
    return 0;
}

static void set_share(nr_model_waits *w, int64_t ns, int64_t start_ns, double wall_s)
{
    w->seconds = (double)ns * 1e-9;
    w->start_seconds = (double)start_ns * 1e-9;
    const int defined = w->count && wall_s >= NR__SHARE_MIN_WALL_NS * 1e-9;
    const double whole = wall_s * (double)w->threads, after = whole - w->start_seconds;
    w->share = defined ? w->seconds / whole : NAN;
    w->start_share = defined ? w->start_seconds / whole : NAN;
    w->steady_share = defined && after >= NR__SHARE_MIN_WALL_NS * 1e-9 ? (double)(ns - start_ns) * 1e-9 / after : NAN;
}

/* The phases with waits, most wait time first (then by index): the first
 * NR_MODEL_MAX_WAIT_QUANTILES get quantiles. */
static int by_wait_time(const void *a, const void *b, void *ns)
{
    const int64_t *sort_ns = ns;
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (sort_ns[x] != sort_ns[y])
        return sort_ns[x] > sort_ns[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

static int phase_quantiles(nr_model *m, wait_reader *r, int64_t *phase_ns, nr_error *err)
{
    size_t *order = malloc((m->nphases ? m->nphases : 1) * sizeof *order), n = 0;
    if (!order)
        return nr_error_set(err, NR_E_NOMEM, "waits: out of memory");
    for (size_t k = 0; k < m->nphases; k++)
        if (m->phases[k].waits.count)
            order[n++] = k;
    qsort_r(order, n, sizeof *order, by_wait_time, phase_ns);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n && i < NR_MODEL_MAX_WAIT_QUANTILES; i++)
        rc = quantiles_of(m, r, order[i], &m->phases[order[i]].waits, err);
    free(order);
    return rc;
}

/* The timeline's bins from ns waited to shares of the waiting threads'
 * time, or none without waits. */
static void wait_shares(nr_model *m)
{
    if (!m->waits.passes) {
        free(m->tl_start_waiting);
        m->tl_start_waiting = NULL;
    }
    if (!m->waits.count) {
        free(m->tl_waiting);
        m->tl_waiting = NULL;
        return;
    }
    if (!m->tl_waiting)
        return;
    const double whole = (double)m->timeline.width_ns * (double)m->waits.threads;
    for (size_t b = 0; b < m->timeline.nbins; b++) {
        m->tl_waiting[b] /= whole;
        if (m->tl_start_waiting)
            m->tl_start_waiting[b] /= whole;
    }
    m->timeline.waiting = m->tl_waiting;
    m->timeline.start_waiting = m->tl_start_waiting;
}

static int load(nr_model *m, wait_reader *r, wait_sums *sums, nr_error *err)
{
    if (nr_store_table_rows(r->t) && m->timeline.nbins &&
        (!(m->tl_waiting = calloc(m->timeline.nbins, sizeof *m->tl_waiting)) ||
         !(m->tl_start_waiting = calloc(m->timeline.nbins, sizeof *m->tl_start_waiting))))
        return NR_E_NOMEM;
    NR_TRY(sum_waits(m, r, sums, err));
    wait_shares(m);
    for (size_t k = 0; k < m->nphases; k++)
        set_share(&m->phases[k].waits, sums->ns[k], sums->start_ns[k], m->phases[k].wall_s);
    set_share(&m->waits, sums->run_ns, sums->run_start_ns, m->totals.duration_s);
    if (!m->waits.count)
        return 0;
    NR_TRY(quantiles_of(m, r, RUN_KEY, &m->waits, err));
    return phase_quantiles(m, r, sums->ns, err);
}

const nr_model_waits nr__no_waits = {.share = NAN, .p50_ns = -1, .p99_ns = -1, .max_ns = -1, .start_share = NAN,
                                     .steady_share = NAN, .start_max_ns = -1, .steady_max_ns = -1,
                                     .steady_p50_ns = -1, .steady_p99_ns = -1};

int nr__waits_load(nr_model *m, const nr_store *s, nr_error *err)
{
    m->waits = nr__no_waits;
    for (size_t k = 0; k < m->nphases; k++)
        m->phases[k].waits = nr__no_waits;
    wait_reader r = {.t = nr_store_find_table(s, "waits")};
    if (!r.t)
        return 0; /* a store written before session 62 */
    for (int k = 0; k < WT_NCOLS; k++)
        if ((r.col[k] = nr_store_col_index(r.t, wait_cols[k])) < 0 && k != WT_FIRST)
            return nr_error_set(err, NR_E_FORMAT, "table waits lacks column %s", wait_cols[k]);
    r.ncols = r.col[WT_FIRST] < 0 ? WT_FIRST : WT_NCOLS;
    for (int k = 0; k < WT_NCOLS; k++)
        nr_col_chunk_init(&r.c[k]);
    const size_t n = m->nphases ? m->nphases : 1;
    wait_sums sums = {.ns = calloc(n, sizeof *sums.ns), .start_ns = calloc(n, sizeof *sums.start_ns)};
    int rc = sums.ns && sums.start_ns ? load(m, &r, &sums, err) : NR_E_NOMEM;
    if (rc == NR_E_NOMEM)
        rc = nr_error_set(err, rc, "waits: out of memory");
    free(sums.ns);
    free(sums.start_ns);
    for (int k = 0; k < WT_NCOLS; k++)
        nr_col_chunk_fini(&r.c[k]);
    return rc;
}

const nr_model_waits *nr_model_get_waits(const nr_model *m) { return &m->waits; }

int nr_model_waits_listed(const nr_model_phase *p) { return p->waits.count && p->waits.p50_ns >= 0; }

void nr_model_waits_unlisted(const nr_model *m, size_t *rest_phases, double *rest_seconds)
{
    size_t n = 0;
    double s = 0;
    for (size_t k = 0; k < m->nphases; k++)
        if (m->phases[k].waits.count && !nr_model_waits_listed(&m->phases[k])) {
            n++;
            s += m->phases[k].waits.seconds;
        }
    if (rest_phases)
        *rest_phases = n;
    if (rest_seconds)
        *rest_seconds = s;
}
