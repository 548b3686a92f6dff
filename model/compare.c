/* compare: pairing by workload and the statistics table of one pair
 * (docs/compare.md lists every row and its verdict rule). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "json_number.h"
#include "nr_store_merge.h" /* nr_store_meta_value */

/* ---- pairing ---------------------------------------------------------- */

/* The index of the nth (from 0) of names[0..n) equal to w, or -1. */
static long find_workload(const char *const *names, size_t n, const char *w, size_t nth)
{
    for (size_t i = 0; i < n; i++)
        if (names[i] && w && strcmp(names[i], w) == 0 && nth-- == 0)
            return (long)i;
    return -1;
}

/* How many of names[0..i) equal names[i]: which replicate of its workload
 * run i is. */
static size_t replicate_of(const char *const *names, size_t i)
{
    size_t k = 0;
    for (size_t j = 0; j < i; j++)
        if (names[j] && names[i] && strcmp(names[j], names[i]) == 0)
            k++;
    return k;
}

int nr_compare_match_runs(const char *const *const *workloads, const size_t *nruns, size_t ngroups,
                          nr_compare_match **out, size_t *n, nr_error *err)
{
    *out = NULL;
    *n = 0;
    if (ngroups < 2)
        return 0;
    size_t cap = 0;
    for (size_t g = 1; g < ngroups; g++)
        cap += nruns[0];
    nr_compare_match *m = malloc((cap ? cap : 1) * sizeof *m);
    if (!m)
        return nr_error_set(err, NR_E_NOMEM, "compare: out of memory for %zu pairs", cap);
    size_t k = 0;
    for (size_t g = 1; g < ngroups; g++) {
        if (nruns[0] == 1 && nruns[g] == 1) {
            m[k++] = (nr_compare_match){.group = g, .a_run = 0, .b_run = 0};
            continue;
        }
        for (size_t i = 0; i < nruns[0]; i++) {
            const long j = find_workload(workloads[g], nruns[g], workloads[0][i], replicate_of(workloads[0], i));
            if (j >= 0)
                m[k++] = (nr_compare_match){.group = g, .a_run = i, .b_run = (size_t)j};
        }
    }
    *out = m;
    *n = k;
    return 0;
}

int nr_compare_workload(const nr_store *st, const char *fallback, char **label, const char **workload,
                        nr_error *err)
{
    *workload = fallback;
    NR_TRY(nr_store_meta_value(st, NR_COMPARE_WORKLOAD_KEY, label, err));
    if (*label && !**label) {
        free(*label);
        *label = NULL;
    }
    if (*label)
        *workload = *label;
    return 0;
}

/* ---- options ---------------------------------------------------------- */

void nr_compare_opts_default(nr_compare_opts *o)
{
    memset(o, 0, sizeof *o);
    o->boot.bootstraps = NR_COMPARE_DEFAULT_BOOTSTRAPS;
    o->boot.seed = NR_COMPARE_DEFAULT_SEED;
    o->boot.level = NR_COMPARE_DEFAULT_CI_LEVEL;
    nr_verdict_rule_default(&o->rule);
    o->sample_cap = NR_COMPARE_DEFAULT_SAMPLE_CAP;
}

/* ---- the table of statistics ------------------------------------------ */

typedef struct stat_list {
    nr_compare_stat *v;
    size_t n, cap;
    int oom;
} stat_list;

/* Appends a row named by fmt; on out-of-memory sets the sticky flag and returns a scratch row. */
static nr_compare_stat *add_row(stat_list *l, const char *section, const char *unit, nr_stat_kind kind,
                                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static nr_compare_stat *add_row(stat_list *l, const char *section, const char *unit, nr_stat_kind kind,
                                const char *fmt, ...)
{
    static nr_compare_stat scratch;
    if (l->n == l->cap) {
        const size_t cap = l->cap ? l->cap * 2 : 64;
        nr_compare_stat *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            l->oom = 1;
            return &scratch;
        }
        l->v = v;
        l->cap = cap;
    }
    nr_compare_stat *s = &l->v[l->n++];
    memset(s, 0, sizeof *s);
    snprintf(s->section, sizeof s->section, "%s", section);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->name, sizeof s->name, fmt, ap);
    va_end(ap);
    s->unit = unit;
    s->kind = kind;
    s->a = s->b = NAN;
    s->abs_diff = s->rel_diff = NAN;
    s->ci.low = s->ci.high = s->ci.estimate = NAN;
    s->ks.d = s->ks.p_value = NAN;
    s->verdict = NR_VERDICT_NA;
    return s;
}

static void set_values(nr_compare_stat *s, double a, double b)
{
    s->a = a;
    s->b = b;
    s->abs_diff = b - a;
    s->rel_diff = nr_rel_diff(a, b);
}

static void descriptive(stat_list *l, const nr_verdict_rule *rule, const char *section, const char *unit,
                        double a, double b, const char *name)
{
    nr_compare_stat *s = add_row(l, section, unit, NR_STAT_DESCRIPTIVE, "%s", name);
    set_values(s, a, b);
    s->verdict = nr_verdict_descriptive(rule, a, b);
}

/* What a run measured: a quantity it could not measure is NAN (n/a), never
 * 0, and a row with an n/a side is not a change (until session 49 a run
 * traced without -T showed "I/O time 0", "changed -100%", against one
 * traced with it: review 49). */
static int has_durations(const nr_model *m) { return nr_model_get_fidelity(m)->durations_available; }
static int has_timestamps(const nr_model *m) { return nr_model_get_fidelity(m)->timestamps_available; }

/* v when the run measured it (known), else NAN. */
static double known_or_nan(int known, double v) { return known ? v : NAN; }

static void run_rows(stat_list *l, const nr_verdict_rule *r, const nr_model *a, const nr_model *b)
{
    const nr_model_totals *ta = nr_model_get_totals(a), *tb = nr_model_get_totals(b);
    descriptive(l, r, "run", "s", known_or_nan(has_timestamps(a), ta->duration_s),
                known_or_nan(has_timestamps(b), tb->duration_s), "duration");
    descriptive(l, r, "run", "B", (double)ta->bytes_read, (double)tb->bytes_read, "bytes read");
    descriptive(l, r, "run", "B", (double)ta->bytes_written, (double)tb->bytes_written, "bytes written");
    descriptive(l, r, "run", "1", (double)ta->read_calls, (double)tb->read_calls, "read calls");
    descriptive(l, r, "run", "1", (double)ta->write_calls, (double)tb->write_calls, "write calls");
    descriptive(l, r, "run", "1", (double)ta->files, (double)tb->files, "files");
    descriptive(l, r, "run", "1", (double)ta->processes, (double)tb->processes, "processes");
    const double ra = has_timestamps(a) && ta->duration_s > 0 ? (double)ta->bytes_read / ta->duration_s : NAN;
    const double rb = has_timestamps(b) && tb->duration_s > 0 ? (double)tb->bytes_read / tb->duration_s : NAN;
    descriptive(l, r, "run", "B/s", ra, rb, "read bytes per second of run");
}

/* A run's phases by name, for the lookups of the other run's (a linear
 * search each made compare of two runs of 100,000 phase names take 50 s). */
typedef struct phase_name {
    const char *name;
    size_t index;
} phase_name;

static int by_name(const void *x, const void *y)
{
    return strcmp(((const phase_name *)x)->name, ((const phase_name *)y)->name);
}

/* m's phases sorted by name (names are distinct: a model merges by name);
 * NULL when out of memory. */
static phase_name *phases_by_name(const nr_model *m)
{
    const size_t n = nr_model_phase_count(m);
    phase_name *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < n; i++)
        v[i] = (phase_name){nr_model_phase_at(m, i)->name, i};
    qsort(v, n, sizeof *v, by_name);
    return v;
}

/* The index of the phase named name in m (sorted: phases_by_name), or -1. */
static ptrdiff_t phase_named(const nr_model *m, const phase_name *sorted, const char *name)
{
    const phase_name key = {name, 0};
    const phase_name *hit = bsearch(&key, sorted, nr_model_phase_count(m), sizeof *sorted, by_name);
    return hit ? (ptrdiff_t)hit->index : -1;
}

static double phase_bytes(const nr_model_phase *p)
{
    if (!p)
        return 0.0;
    double s = 0.0;
    for (int op = 0; op < NR_OP_CLASS_COUNT; op++)
        s += (double)p->ops[op].bytes;
    return s;
}

/* One run's values of a phase (p NULL: the phase did not occur, 0): its
 * wall time, bytes and I/O time. Without timestamps no call is placed in
 * a phase, so that none of them is known; without durations the I/O time
 * is not. */
static void phase_values(const nr_model *m, const nr_model_phase *p, double v[3])
{
    const int ts = has_timestamps(m);
    v[0] = known_or_nan(ts, p ? p->wall_s : 0.0);
    v[1] = known_or_nan(ts, phase_bytes(p));
    v[2] = known_or_nan(ts && has_durations(m), p ? p->io_time_s : 0.0);
}

/* The time a run's loop waited for data in phase p (niorep_hook.batches),
 * or with first only its part for the first item of each pass (the
 * loader's start): unknown for a run that recorded no such wait at all
 * (its loader was not wrapped; for first, also a hook before session 63
 * that marked none), 0 for a phase without them of a run that has some. */
static double waited_s(const nr_model *m, const nr_model_phase *p, int first)
{
    const nr_model_waits *run = nr_model_get_waits(m);
    if (!(first ? run->passes : run->count))
        return NAN;
    return !p ? 0.0 : first ? p->waits.start_seconds : p->waits.seconds;
}

static void phase_rows_of(stat_list *l, const nr_verdict_rule *r, const char *name, const nr_model *a,
                          const nr_model_phase *pa, const nr_model *b, const nr_model_phase *pb)
{
    double va[3], vb[3];
    phase_values(a, pa, va);
    phase_values(b, pb, vb);
    char label[96];
    snprintf(label, sizeof label, "%s wall time", name);
    descriptive(l, r, "phase", "s", va[0], vb[0], label);
    snprintf(label, sizeof label, "%s bytes", name);
    descriptive(l, r, "phase", "B", va[1], vb[1], label);
    snprintf(label, sizeof label, "%s I/O time", name);
    descriptive(l, r, "phase", "s", va[2], vb[2], label);
    if (nr_model_get_waits(a)->count || nr_model_get_waits(b)->count) {
        snprintf(label, sizeof label, "%s time waiting for data", name);
        descriptive(l, r, "phase", "s", waited_s(a, pa, 0), waited_s(b, pb, 0), label);
        snprintf(label, sizeof label, "%s time waiting for the first batches", name);
        descriptive(l, r, "phase", "s", waited_s(a, pa, 1), waited_s(b, pb, 1), label);
    }
}

/* Whether phase i of m, named as phase j of other (-1: other has none),
 * is compared on its own: listed in the report of either run
 * (nr_model_phase_listed, every phase of a run of at most
 * NR_MODEL_PHASES_LISTED). */
static int compared_alone(const nr_model *m, size_t i, const nr_model *other, ptrdiff_t j)
{
    return nr_model_phase_listed(m, i) || (j >= 0 && nr_model_phase_listed(other, (size_t)j));
}

/* Phases of a in their order, then those only b has; with more phases
 * than a report lists, those listed in neither run's as one row, "other
 * phases", of their sums. */
static void phase_rows(stat_list *l, const nr_verdict_rule *r, const nr_model *a, const nr_model *b)
{
    phase_name *sa = phases_by_name(a), *sb = phases_by_name(b);
    if (!sa || !sb) {
        l->oom = 1;
        free(sa);
        free(sb);
        return;
    }
    /* the phases compared as one: their sums, wall time unknown (phases overlap) */
    nr_model_phase rest_a = {.wall_s = NAN}, rest_b = {.wall_s = NAN};
    for (size_t i = 0; i < nr_model_phase_count(a); i++) {
        const nr_model_phase *pa = nr_model_phase_at(a, i);
        const ptrdiff_t j = phase_named(b, sb, pa->name);
        if (compared_alone(a, i, b, j))
            phase_rows_of(l, r, pa->name, a, pa, b, j >= 0 ? nr_model_phase_at(b, (size_t)j) : NULL);
        else
            nr_model_phase_add(&rest_a, pa);
    }
    for (size_t j = 0; j < nr_model_phase_count(b); j++) {
        const nr_model_phase *pb = nr_model_phase_at(b, j);
        const ptrdiff_t i = phase_named(a, sa, pb->name);
        if (!compared_alone(b, j, a, i))
            nr_model_phase_add(&rest_b, pb);
        else if (i < 0)
            phase_rows_of(l, r, pb->name, a, NULL, b, pb);
    }
    size_t unlisted_a, unlisted_b;
    nr_model_phases_unlisted(a, &unlisted_a);
    nr_model_phases_unlisted(b, &unlisted_b);
    if (unlisted_a || unlisted_b)
        phase_rows_of(l, r, "other phases", a, &rest_a, b, &rest_b);
    free(sa);
    free(sb);
}

static double ns_to_s(int64_t ns) { return ns >= 0 ? (double)ns * 1e-9 : NAN; }

/* Index of q in nr_model_quantiles, or -1. */
static int model_q_index(double q)
{
    for (int i = 0; i < NR_MODEL_NQ; i++)
        if (fabs(nr_model_quantiles[i] - q) < 1e-12)
            return i;
    return -1;
}

/* The smallest latency difference that counts: the clock tick, or
 * factor times the fixed cost of a traced call (the fastest call of the
 * faster run) when larger. That cost varies with the machine's load from
 * run to run; shifts below a few times it are not called changes
 * (docs/compare.md, "noise"). */
/* Whether either side of op group op had more calls than its sample
 * holds (the sample cap): its values are then over all calls, its
 * interval over the sample. */
static int sampled_down(const nr_compare_sample *a, const nr_compare_sample *b, int op)
{
    return a->op[op].seen > a->op[op].n || b->op[op].seen > b->op[op].n;
}

/* The interval moved by the shown difference (all calls) less the
 * sample's: a sample's interval around the sample's estimate, next to a
 * difference over all calls, could exclude that very difference. The
 * sample is smaller than all the calls, so the interval is wider than
 * one from all of them would be (docs/compare.md, "The call sample"). */
static void recentre(nr_compare_stat *s)
{
    const double shift = s->abs_diff - s->ci.estimate;
    if (!isfinite(shift))
        return;
    s->ci.low += shift;
    s->ci.high += shift;
    s->ci_recentred = 1;
}

/* The fixed cost of a traced call of op group op in one run: its
 * NR_COMPARE_FAST_CALL_Q quantile (nearest rank, over its sample), not
 * its fastest call, which a single call of 0 us (strace -T prints
 * <0.000000> for the fastest ones) would set (docs/compare.md). */
static double fast_call_s(const nr_compare_sample *x, int op)
{
    const size_t n = x->op[op].n;
    return n > 0 ? nr_quantile_sorted(x->sorted[op], n, NR_COMPARE_FAST_CALL_Q) : x->min_s[op];
}

static double resolution_of(const nr_compare_sample *a, const nr_compare_sample *b, int op, double factor)
{
    const double tick = a->tick_s[op] > b->tick_s[op] ? a->tick_s[op] : b->tick_s[op];
    const double fa = fast_call_s(a, op), fb = fast_call_s(b, op);
    const double floor_ = factor * (fa < fb ? fa : fb);
    return floor_ > tick ? floor_ : tick;
}

static int latency_rows(stat_list *l, const nr_compare_opts *o, const nr_compare_side *a,
                        const nr_compare_side *b, int op)
{
    static const struct { double q; const char *name; } qs[] = {{0.5, "p50"}, {0.99, "p99"}, {0.999, "p99.9"}};
    const nr_model_latency *la = nr_model_latency_all(a->model, op), *lb = nr_model_latency_all(b->model, op);
    if (la->count == 0 && lb->count == 0)
        return 0;
    const char *opn = nr_lat_op_name(op);
    const int da = has_durations(a->model), db = has_durations(b->model);
    char label[96];
    snprintf(label, sizeof label, "%s calls timed", opn);
    descriptive(l, &o->rule, "latency", "1", known_or_nan(da, (double)la->count), known_or_nan(db, (double)lb->count),
                label);
    snprintf(label, sizeof label, "%s mean latency", opn);
    descriptive(l, &o->rule, "latency", "s", known_or_nan(da, la->mean_s), known_or_nan(db, lb->mean_s), label);

    const size_t na = a->sample->op[op].n, nb = b->sample->op[op].n;
    const double *sa = a->sample->sorted[op], *sb = b->sample->sorted[op];
    const int sampled = sampled_down(a->sample, b->sample, op);
    nr_compare_stat *s = add_row(l, "latency", "D", NR_STAT_KS, "%s latency distribution", opn);
    const double tick = resolution_of(a->sample, b->sample, op, o->rule.floor_factor);
    nr_ks_2samp_sorted(sa, na, sb, nb, &s->ks);
    s->ks.d_practical = nr_ks_practical_distance_sorted(sa, na, sb, nb, o->rule.rel_threshold, tick);
    s->resolution = tick;
    s->n_a = na;
    s->n_b = nb;
    s->verdict = nr_verdict_ks(&o->rule, &s->ks);

    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        s = add_row(l, "latency", "s", NR_STAT_BOOTSTRAP, "%s %s", opn, qs[i].name);
        const int k = model_q_index(qs[i].q);
        const double va = k >= 0 && la->count ? ns_to_s(la->q_ns[k]) : nr_quantile_sorted(sa, na, qs[i].q);
        const double vb = k >= 0 && lb->count ? ns_to_s(lb->q_ns[k]) : nr_quantile_sorted(sb, nb, qs[i].q);
        set_values(s, va, vb);
        s->resolution = tick;
        s->n_a = na;
        s->n_b = nb;
        const double n_min = (double)(na < nb ? na : nb);
        if (na < NR_COMPARE_MIN_SAMPLE || nb < NR_COMPARE_MIN_SAMPLE || n_min * (1.0 - qs[i].q) < NR_COMPARE_MIN_TAIL - 1e-9) {
            s->verdict = NR_VERDICT_INSUFFICIENT;
            continue;
        }
        const int rc = nr_boot_quantile_diff_sorted(sa, na, sb, nb, qs[i].q, &o->boot, &s->ci);
        if (rc == NR_E_NOMEM)
            return rc;
        if (rc == 0 && sampled)
            recentre(s);
        s->verdict = rc == 0 ? nr_verdict_ci(&o->rule, &s->ci, s->rel_diff, s->abs_diff, tick) : NR_VERDICT_INSUFFICIENT;
    }
    return 0;
}

/* Bytes per second inside the calls of op group op, over all of them
 * (not only the sample); NAN without time. */
static double all_calls_throughput(const nr_compare_sample *x, int op)
{
    return x->all_dur_ns[op] > 0 ? (double)x->all_bytes[op] / ((double)x->all_dur_ns[op] * 1e-9) : NAN;
}

static int throughput_row(stat_list *l, const nr_compare_opts *o, const nr_compare_side *a,
                          const nr_compare_side *b, int op)
{
    const nr_reservoir *ra = &a->sample->op[op], *rb = &b->sample->op[op];
    if (ra->n == 0 && rb->n == 0)
        return 0;
    nr_compare_stat *s = add_row(l, "throughput", "B/s", NR_STAT_BOOTSTRAP, "%s bytes per second in calls",
                                 nr_lat_op_name(op));
    set_values(s, all_calls_throughput(a->sample, op), all_calls_throughput(b->sample, op));
    s->n_a = ra->n;
    s->n_b = rb->n;
    /* the op group's resolution, as its latency rows show it, tested or not */
    const double resolution = resolution_of(a->sample, b->sample, op, o->rule.floor_factor);
    s->resolution = resolution;
    if (ra->n < NR_COMPARE_MIN_SAMPLE || rb->n < NR_COMPARE_MIN_SAMPLE) {
        s->verdict = NR_VERDICT_INSUFFICIENT;
        return 0;
    }
    const int rc = nr_boot_throughput_diff(ra->extra, ra->value, ra->n, rb->extra, rb->value, rb->n,
                                           &o->boot, &s->ci);
    if (rc == NR_E_NOMEM)
        return rc;
    if (rc == 0 && sampled_down(a->sample, b->sample, op))
        recentre(s);
    /* Throughput is bytes over time: its change counts only when the mean
     * time per call also moved by more than the latency resolution. */
    const double time_shift = ((double)b->sample->all_dur_ns[op] / (double)rb->seen -
                               (double)a->sample->all_dur_ns[op] / (double)ra->seen) * 1e-9;
    s->verdict = rc == 0 ? nr_verdict_ci(&o->rule, &s->ci, s->rel_diff, time_shift, resolution)
                         : NR_VERDICT_INSUFFICIENT;
    return 0;
}

static void concentration_rows(stat_list *l, const nr_verdict_rule *r, const nr_model *a, const nr_model *b)
{
    const nr_concentration *ca = nr_model_concentration(a, NR_CONC_TOTAL);
    const nr_concentration *cb = nr_model_concentration(b, NR_CONC_TOTAL);
    descriptive(l, r, "concentration", "1", ca->gini, cb->gini, "Gini of the job files' bytes");
    descriptive(l, r, "concentration", "share", ca->top10_share, cb->top10_share, "bytes share of the top 10% of job files");
    descriptive(l, r, "concentration", "share", ca->files_for_90, cb->files_for_90, "job-file share for 90% of bytes");
    const nr_powerlaw_fit *pa = nr_model_powerlaw(a, NR_PL_BYTES), *pb = nr_model_powerlaw(b, NR_PL_BYTES);
    descriptive(l, r, "concentration", "1", pa->valid ? pa->alpha : NAN, pb->valid ? pb->alpha : NAN,
                "power-law exponent of the job files' bytes");
}

/* Darshan's SEQ (consecutive + a forward gap) over the classified reads:
 * the summary's consecutive_share + sequential_share. */
static double seq_share(const nr_model_access *x)
{
    const double seq = (double)(x->consecutive[0] + x->sequential[0]);
    const double all = seq + (double)x->random[0];
    return all > 0 ? seq / all : NAN;
}

/* The most common access size, and the share of the sized requests it
 * holds: NAN when the run has none it can name (its first listed size not
 * provably the first). */
static double top_size(const nr_model_access *x)
{
    const nr_model_common_sizes *c = &x->common_sizes;
    return nr_common_size_certain(c, 0) ? (double)c->top[0].bytes : NAN;
}

static double top_size_share(const nr_model_access *x)
{
    const nr_model_common_sizes *c = &x->common_sizes;
    return nr_common_size_certain(c, 0) ? (double)nr_common_size_calls(&c->top[0]) / (double)c->calls : NAN;
}

static void access_rows(stat_list *l, const nr_verdict_rule *r, const nr_model *a, const nr_model *b)
{
    const nr_model_access *xa = nr_model_get_access(a), *xb = nr_model_get_access(b);
    descriptive(l, r, "access", "B", (double)xa->median_read_size, (double)xb->median_read_size, "median read size");
    descriptive(l, r, "access", "B", top_size(xa), top_size(xb), "most common access size");
    descriptive(l, r, "access", "share", top_size_share(xa), top_size_share(xb),
                "share of sized requests at the most common size");
    descriptive(l, r, "access", "share", seq_share(xa), seq_share(xb), "forward share of reads (consecutive + sequential, Darshan SEQ)");
    descriptive(l, r, "access", "share", xa->rereads.share, xb->rereads.share,
                "share of the job files' bytes read before, at least");
    descriptive(l, r, "access", "1", (double)xa->opens, (double)xb->opens, "opens");
    descriptive(l, r, "access", "1", xa->meta_to_data, xb->meta_to_data, "metadata to data calls");
    const nr_cache_split *sa = nr_model_cache_split(a), *sb = nr_model_cache_split(b);
    /* no split: the share is unknown, not 0 (a unimodal run may be all misses) */
    if (sa->found || sb->found)
        descriptive(l, r, "access", "share", sa->found ? sa->slow_share : NAN, sb->found ? sb->slow_share : NAN,
                    "slow-mode share of reads (cache split)");
}

/* The bursts of both runs: measured from their calls, so the same
 * checkpoint gives the same rate in runs of any length (until session 42
 * a peak over bins of the least common multiple of the runs' bin widths
 * stood in for it). */
static void burst_rows(stat_list *l, const nr_verdict_rule *r, const nr_model *a, const nr_model *b)
{
    /* every burst's sums, listed or not */
    const nr_model_burst_totals *x = nr_model_get_burst_totals(a), *y = nr_model_get_burst_totals(b);
    /* without timestamps no call is in a burst; without durations a burst
       spans its calls' starts only, a time of another kind than -T's */
    const int ta = has_timestamps(a), tb = has_timestamps(b);
    const int da = ta && has_durations(a), db = tb && has_durations(b);
    descriptive(l, r, "throughput", "1", known_or_nan(ta, (double)x->count), known_or_nan(tb, (double)y->count),
                "write bursts");
    descriptive(l, r, "throughput", "B", known_or_nan(ta, (double)x->bytes), known_or_nan(tb, (double)y->bytes),
                "bytes written in bursts");
    descriptive(l, r, "throughput", "s", known_or_nan(da, x->time_s), known_or_nan(db, y->time_s),
                "time in write bursts");
    descriptive(l, r, "throughput", "B/s", known_or_nan(da, x->highest_rate), known_or_nan(db, y->highest_rate),
                "highest burst write rate");
}

/* 1 when rule id fired in m, 0 when it looked and did not, NAN when it
 * could not look (docs/findings.md, "Outcomes"): a run traced without -T
 * is no evidence that the other run's data_bound went away. Every finding
 * is a rule's, so the rules answer for the findings too. */
static double finding_outcome(const nr_model *m, const char *id)
{
    for (size_t i = 0; i < nr_model_rule_count(m); i++) {
        const nr_model_rule *r = nr_model_rule_at(m, i);
        if (strcmp(r->id, id) == 0)
            return r->state == NR_RULE_FIRED ? 1 : r->state == NR_RULE_NOT_APPLICABLE ? NAN : 0;
    }
    return NAN;
}

/* Findings rules that fired in either run: 1 = fired, 0 = not, n/a where
 * the rule could not look. */
static void finding_rows(stat_list *l, const nr_verdict_rule *r, const nr_model *a, const nr_model *b)
{
    const nr_model *m[2] = {a, b};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < nr_model_finding_count(m[k]); i++) {
            const char *id = nr_model_finding_at(m[k], i)->id;
            if (k == 1 && finding_outcome(a, id) == 1)
                continue;   /* listed with a's */
            char label[96];
            snprintf(label, sizeof label, "finding %s", id);
            descriptive(l, r, "findings", "1", finding_outcome(a, id), finding_outcome(b, id), label);
        }
}

/* Every rule of either run with its outcome in both, into out (each model
 * evaluates every rule, so a's rules are b's). */
static int rule_outcomes(const nr_model *a, const nr_model *b, nr_compare_pair *out)
{
    const nr_model *m[2] = {a, b};
    const size_t cap = nr_model_rule_count(a) + nr_model_rule_count(b);
    out->outcomes = calloc(cap ? cap : 1, sizeof *out->outcomes);
    if (!out->outcomes)
        return NR_E_NOMEM;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < nr_model_rule_count(m[k]); i++) {
            const char *id = nr_model_rule_at(m[k], i)->id;
            size_t j = 0;
            while (j < out->noutcomes && strcmp(out->outcomes[j].id, id) != 0)
                j++;
            if (j < out->noutcomes)
                continue;
            nr_compare_outcome *o = &out->outcomes[out->noutcomes++];
            snprintf(o->id, sizeof o->id, "%s", id);
            o->a = finding_outcome(a, id);
            o->b = finding_outcome(b, id);
        }
    return 0;
}

int nr_compare_pair_compute(const nr_compare_side *a, const nr_compare_side *b,
                            const nr_compare_opts *opts, nr_compare_pair *out, nr_error *err)
{
    memset(out, 0, sizeof *out);
    nr_compare_opts defaults;
    if (!opts) {
        nr_compare_opts_default(&defaults);
        opts = &defaults;
    }
    stat_list l = {0};
    int rc = 0;
    run_rows(&l, &opts->rule, a->model, b->model);
    phase_rows(&l, &opts->rule, a->model, b->model);
    for (int op = 0; op < NR_LAT_OP_COUNT && rc == 0; op++)
        rc = latency_rows(&l, opts, a, b, op);
    for (int op = NR_LAT_READ; op <= NR_LAT_WRITE && rc == 0; op++)
        rc = throughput_row(&l, opts, a, b, op);
    burst_rows(&l, &opts->rule, a->model, b->model);
    concentration_rows(&l, &opts->rule, a->model, b->model);
    access_rows(&l, &opts->rule, a->model, b->model);
    finding_rows(&l, &opts->rule, a->model, b->model);
    if (rc == 0)
        rc = rule_outcomes(a->model, b->model, out);
    if (rc < 0 || l.oom) {
        free(l.v);
        free(out->outcomes);
        out->outcomes = NULL;
        out->noutcomes = 0;
        return nr_error_set(err, NR_E_NOMEM, "compare %s with %s: out of memory", a->name, b->name);
    }
    out->stats = l.v;
    out->nstats = l.n;
    out->durations[0] = has_durations(a->model);
    out->durations[1] = has_durations(b->model);
    out->timestamps[0] = has_timestamps(a->model);
    out->timestamps[1] = has_timestamps(b->model);
    for (size_t i = 0; i < l.n; i++) {
        out->nsignificant += l.v[i].verdict == NR_VERDICT_SIGNIFICANT;
        out->nchanged += l.v[i].verdict == NR_VERDICT_CHANGED;
    }
    return 0;
}

void nr_compare_pair_fini(nr_compare_pair *p)
{
    free(p->stats);
    free(p->outcomes);
    memset(p, 0, sizeof *p);
}

/* ---- JSON ------------------------------------------------------------- */

/* Non-finite numbers become null (JSON has no NaN); whole numbers (counts,
 * bytes) stay exact (json_number.h). */
static json_t *num(double v) { return nr_json_number(v); }

static const char *kind_name(nr_stat_kind k)
{
    switch (k) {
    case NR_STAT_BOOTSTRAP: return "bootstrap";
    case NR_STAT_KS: return "ks";
    default: return "descriptive";
    }
}

static json_t *stat_json(const nr_compare_stat *s)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "section", json_string(s->section));
    json_object_set_new(o, "name", json_string(s->name));
    json_object_set_new(o, "unit", json_string(s->unit));
    json_object_set_new(o, "kind", json_string(kind_name(s->kind)));
    json_object_set_new(o, "verdict", json_string(nr_verdict_name(s->verdict)));
    if (s->kind != NR_STAT_KS) {
        json_object_set_new(o, "a", num(s->a));
        json_object_set_new(o, "b", num(s->b));
        json_object_set_new(o, "abs_diff", num(s->abs_diff));
        json_object_set_new(o, "rel_diff", num(s->rel_diff));
    }
    if (s->kind != NR_STAT_DESCRIPTIVE) {
        json_object_set_new(o, "n_a", json_integer((json_int_t)s->n_a));
        json_object_set_new(o, "n_b", json_integer((json_int_t)s->n_b));
        json_object_set_new(o, "resolution", num(s->resolution));
    }
    if (s->kind == NR_STAT_BOOTSTRAP && s->ci.bootstraps > 0) {
        json_t *ci = json_object();
        json_object_set_new(ci, "low", num(s->ci.low));
        json_object_set_new(ci, "high", num(s->ci.high));
        json_object_set_new(ci, "sample_estimate", num(s->ci.estimate));
        json_object_set_new(ci, "recentred", json_boolean(s->ci_recentred));
        json_object_set_new(ci, "bootstraps", json_integer(s->ci.bootstraps));
        json_object_set_new(o, "ci", ci);
    }
    if (s->kind == NR_STAT_KS) {
        json_t *ks = json_object();
        json_object_set_new(ks, "d", num(s->ks.d));
        json_object_set_new(ks, "d_practical", num(s->ks.d_practical));
        const int bound = s->ks.p_value < NR_KS_P_RESOLVED; /* not resolved: the bound */
        json_object_set_new(ks, "p_value", num(bound ? NR_KS_P_RESOLVED : s->ks.p_value));
        json_object_set_new(ks, "p_value_is_bound", json_boolean(bound));
        json_object_set_new(ks, "method", isnan(s->ks.p_value) ? json_null() /* not run: too few calls */
                                          : json_string(s->ks.method == NR_KS_EXACT ? "exact" : "asymptotic"));
        json_object_set_new(o, "ks", ks);
    }
    return o;
}

json_t *nr_compare_pair_json(const nr_compare_pair *p)
{
    json_t *a = json_array();
    if (!a)
        return NULL;
    for (size_t i = 0; i < p->nstats; i++)
        json_array_append_new(a, stat_json(&p->stats[i]));
    return a;
}

json_t *nr_compare_opts_json(const nr_compare_opts *o)
{
    return json_pack("{s:i, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:i, s:i}",
                     "bootstraps", o->boot.bootstraps,
                     "seed", (json_int_t)o->boot.seed,
                     "ci_level", o->boot.level,
                     "rel_threshold", o->rule.rel_threshold,
                     "ks_alpha", o->rule.ks_alpha,
                     "ks_min_d", o->rule.ks_min_d,
                     "floor_factor", o->rule.floor_factor,
                     "replicate_alpha", o->rule.replicate_alpha,
                     "sample_cap", (json_int_t)o->sample_cap,
                     "min_sample", NR_COMPARE_MIN_SAMPLE, "min_tail", NR_COMPARE_MIN_TAIL);
}
