/* quantile: exact nearest-rank order statistics in a few streaming passes,
 * and the fixed log-binned latency histogram (docs/statistics.md, "Quantiles").
 *
 * Method: pass 1 counts the values in log-spaced buckets (exact below 1024,
 * then 1024 buckets per power of two on each sign), which places every wanted
 * rank in one bucket. Each later pass either collects the values of a wanted
 * bucket (at most COLLECT_MAX of them; sorted in memory) or, when a bucket is
 * larger, counts it again in 65,536 equal sub-buckets. Ranges are handled as
 * order-preserving unsigned keys (value with its sign bit flipped). */
#include "quantile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "statsort.h"

enum {
    SIDE_BUCKETS = 55296,              /* 1024 exact + 53 octaves x 1024 */
    TOP_BUCKETS = 2 * SIDE_BUCKETS,
    SUB_BITS = 16,
    SUB_BUCKETS = 1 << SUB_BITS,
    COLLECT_MAX = 1 << 17,
};

static const uint64_t SIGN = 0x8000000000000000ull;

static inline uint64_t key_of(int64_t v) { return (uint64_t)v ^ SIGN; }

static inline int64_t value_of_key(uint64_t k)
{
    uint64_t u = k ^ SIGN;
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

/* Bucket of a magnitude m in [0, 2^63) on one side: m itself below 1024,
 * else 1024 per octave. Branch-free (m | 1024 makes values below 1024 take the
 * octave-10 path, which is the identity there): latencies straddle 1024 ns. */
static inline uint32_t side_bucket(uint64_t m)
{
    const int e = 63 - __builtin_clzll(m | 1024); /* 10..62 */
    return (uint32_t)((uint64_t)(e - 10) * 1024 + (m >> (e - 10)));
}

/* Pass-1 bucket of v: order-preserving, negatives mirrored below SIDE_BUCKETS. */
static inline uint32_t top_bucket(int64_t v)
{
    return v >= 0 ? SIDE_BUCKETS + side_bucket((uint64_t)v)
                  : SIDE_BUCKETS - 1 - side_bucket(~(uint64_t)v);
}

/* Inclusive magnitude range of a side bucket. */
static void side_range(uint32_t idx, uint64_t *lo, uint64_t *hi)
{
    if (idx < 1024) {
        *lo = *hi = idx;
        return;
    }
    const int e = 10 + (int)((idx - 1024) / 1024);
    const uint64_t k = (idx - 1024) % 1024;
    *lo = (1024 + k) << (e - 10);
    *hi = *lo + (1ull << (e - 10)) - 1;
}

/* Inclusive key range of a pass-1 bucket. */
static void top_range(uint32_t b, uint64_t *lo_key, uint64_t *hi_key)
{
    uint64_t lo, hi;
    if (b >= SIDE_BUCKETS) {
        side_range(b - SIDE_BUCKETS, &lo, &hi);
        *lo_key = key_of((int64_t)lo);
        *hi_key = key_of((int64_t)hi);
    } else {
        side_range(SIDE_BUCKETS - 1 - b, &lo, &hi); /* magnitudes m, value ~m */
        *lo_key = key_of((int64_t)~hi);
        *hi_key = key_of((int64_t)~lo);
    }
}

uint64_t nr_quantile_rank(double q, uint64_t N)
{
    if (N == 0)
        return 0;
    const double r = q * (double)N;
    const double nearest = nearbyint(r);
    double rank = fabs(r - nearest) <= 1e-9 * fmax(1.0, r) ? nearest : ceil(r);
    if (rank < 1)
        rank = 1;
    if (rank > (double)N)
        return N;
    return (uint64_t)rank;
}

static int check_qs(const double *qs, size_t nq)
{
    for (size_t i = 0; i < nq; i++) {
        if (!(qs[i] > 0 && qs[i] <= 1))
            return NR_E_USAGE;
        if (i > 0 && qs[i] < qs[i - 1])
            return NR_E_USAGE;
    }
    return 0;
}

/* One wanted rank and the key range known to hold it. */
typedef struct qtarget {
    uint64_t rank;      /* 1-based among all N */
    uint64_t lo, hi;    /* inclusive key range holding the rank */
    uint64_t below;     /* values with key < lo */
    uint64_t in_range;  /* values with key in [lo, hi] */
    int resolved;
    int job;            /* job of the current pass */
    int64_t value;
} qtarget;

/* The work of one pass on one key range: count it finer or collect it. */
typedef struct qjob {
    uint64_t lo, width;  /* keys lo .. lo + width */
    uint32_t top;        /* pass-1 bucket containing the range */
    int next;            /* next job in the same pass-1 bucket, -1 at the end */
    int collect;         /* 1: collect values; 0: histogram */
    int shift;           /* histogram: sub-bucket = (key - lo) >> shift */
    uint64_t *counts;    /* histogram, SUB_BUCKETS entries */
    int64_t *vals;       /* collected values */
    size_t nvals, cap;
} qjob;

typedef struct qstate {
    const nr_value_source *src;
    nr_error *err;
    uint64_t N;
    qtarget *t;
    size_t nt;
    qjob *jobs;
    size_t njobs;
    int32_t *first_job; /* per pass-1 bucket: first job index, -1 when none */
} qstate;

static void free_jobs(qstate *st)
{
    for (size_t j = 0; j < st->njobs; j++) {
        free(st->jobs[j].counts);
        free(st->jobs[j].vals);
    }
    st->njobs = 0;
}

/* Pass 1: the bucket histogram (TOP_BUCKETS counts into hist) and N. */
static int first_pass(qstate *st, uint64_t *hist)
{
    int rc = st->src->rewind(st->src->ctx, st->err);
    uint64_t N = 0;
    const int64_t *vals;
    size_t n;
    while (rc >= 0 && (rc = st->src->next(st->src->ctx, &vals, &n, st->err)) == 1) {
        for (size_t i = 0; i < n; i++)
            hist[top_bucket(vals[i])]++;
        N += n;
    }
    if (rc < 0)
        return rc;
    st->N = N;
    return 0;
}

/* Places every target (ranks ascending) in its pass-1 bucket. */
static void place_targets(qstate *st, const uint64_t *hist)
{
    uint64_t cum = 0;
    size_t ti = 0;
    for (uint32_t b = 0; b < TOP_BUCKETS && ti < st->nt; b++) {
        while (ti < st->nt && st->t[ti].rank <= cum + hist[b]) {
            qtarget *t = &st->t[ti++];
            top_range(b, &t->lo, &t->hi);
            t->below = cum;
            t->in_range = hist[b];
        }
        cum += hist[b];
    }
}

/* Targets whose range is a single key are done without another pass. */
static void resolve_single_keys(qstate *st)
{
    for (size_t i = 0; i < st->nt; i++)
        if (!st->t[i].resolved && st->t[i].lo == st->t[i].hi) {
            st->t[i].resolved = 1;
            st->t[i].value = value_of_key(st->t[i].lo);
        }
}

/* Creates one job per distinct range of the unresolved targets. Returns 0,
 * 1 when nothing is left to do, or NR_E_NOMEM. */
static int plan_pass(qstate *st)
{
    st->njobs = 0;
    for (size_t i = 0; i < st->nt; i++) {
        qtarget *t = &st->t[i];
        if (t->resolved)
            continue;
        if (st->njobs > 0 && st->jobs[st->njobs - 1].lo == t->lo) { /* ranks ascend: same range is adjacent */
            t->job = (int)st->njobs - 1;
            continue;
        }
        qjob *j = &st->jobs[st->njobs];
        memset(j, 0, sizeof *j);
        j->lo = t->lo;
        j->width = t->hi - t->lo;
        j->top = top_bucket(value_of_key(t->lo));
        j->collect = t->in_range <= COLLECT_MAX;
        if (j->collect) {
            j->cap = t->in_range;
            j->vals = malloc((j->cap ? j->cap : 1) * sizeof *j->vals);
            if (j->vals == NULL)
                return nr_error_set(st->err, NR_E_NOMEM, "quantiles: out of memory collecting %zu values",
                                    (size_t)j->cap);
        } else {
            while ((j->width >> j->shift) >= SUB_BUCKETS)
                j->shift++;
            j->counts = calloc(SUB_BUCKETS, sizeof *j->counts);
            if (j->counts == NULL)
                return nr_error_set(st->err, NR_E_NOMEM, "quantiles: out of memory for a sub-histogram");
        }
        t->job = (int)st->njobs++;
    }
    if (st->njobs == 0)
        return 1;
    for (size_t j = st->njobs; j-- > 0;) { /* link jobs by pass-1 bucket */
        st->jobs[j].next = st->first_job[st->jobs[j].top];
        st->first_job[st->jobs[j].top] = (int32_t)j;
    }
    return 0;
}

/* Streams the source once, feeding each value to the job whose range holds it. */
static int run_pass(qstate *st)
{
    int rc = st->src->rewind(st->src->ctx, st->err);
    uint64_t N = 0;
    const int64_t *vals;
    size_t n;
    while (rc >= 0 && (rc = st->src->next(st->src->ctx, &vals, &n, st->err)) == 1) {
        N += n;
        for (size_t i = 0; i < n; i++) {
            int32_t ji = st->first_job[top_bucket(vals[i])];
            if (ji < 0)
                continue;
            const uint64_t k = key_of(vals[i]);
            for (; ji >= 0; ji = st->jobs[ji].next) {
                qjob *j = &st->jobs[ji];
                const uint64_t off = k - j->lo;
                if (off > j->width)
                    continue;
                if (!j->collect)
                    j->counts[off >> j->shift]++;
                else if (j->nvals < j->cap)
                    j->vals[j->nvals++] = vals[i];
                else
                    return nr_error_set(st->err, NR_E_INPUT,
                                        "quantiles: the source yielded more values in a range than in pass 1");
                break;
            }
        }
    }
    if (rc < 0)
        return rc;
    if (N != st->N)
        return nr_error_set(st->err, NR_E_INPUT,
                            "quantiles: the source yielded %llu values in one pass and %llu in another",
                            (unsigned long long)st->N, (unsigned long long)N);
    return 0;
}

/* Uses the results of a pass: picks collected ranks, narrows counted ranges. */
static int finish_pass(qstate *st)
{
    for (size_t i = 0; i < st->njobs; i++) {
        qjob *j = &st->jobs[i];
        st->first_job[j->top] = -1;
        if (j->collect) {
            if (nr__sort_i64(j->vals, j->nvals) < 0)
                return nr_error_set(st->err, NR_E_NOMEM, "quantiles: out of memory sorting a bucket");
        }
    }
    for (size_t i = 0; i < st->nt; i++) {
        qtarget *t = &st->t[i];
        if (t->resolved)
            continue;
        qjob *j = &st->jobs[t->job];
        const uint64_t within = t->rank - t->below; /* 1-based inside the range */
        if (j->collect) {
            if (j->nvals != t->in_range)
                return nr_error_set(st->err, NR_E_INPUT,
                                    "quantiles: the source yielded different values in different passes");
            t->value = j->vals[within - 1];
            t->resolved = 1;
            continue;
        }
        uint64_t cum = 0;
        int found = 0;
        for (uint64_t s = 0; s < SUB_BUCKETS && !found; s++) {
            if (within <= cum + j->counts[s]) {
                const uint64_t off_lo = s << j->shift;
                uint64_t off_hi = off_lo + ((1ull << j->shift) - 1);
                if (off_hi > j->width)
                    off_hi = j->width;
                t->lo = j->lo + off_lo;
                t->hi = j->lo + off_hi;
                t->below += cum;
                t->in_range = j->counts[s];
                found = 1;
            }
            cum += j->counts[s];
        }
        if (!found) /* fewer values in the range than pass 1 counted */
            return nr_error_set(st->err, NR_E_INPUT,
                                "quantiles: the source yielded different values in different passes");
    }
    return 0;
}

int nr_quantiles_exact(const nr_value_source *src, const double *qs, size_t nq, int64_t *out,
                       uint64_t *count, nr_error *err)
{
    *count = 0;
    if (check_qs(qs, nq) < 0)
        return nr_error_set(err, NR_E_USAGE, "quantiles: q must be ascending in (0, 1]");
    qstate st = {.src = src, .err = err, .nt = nq};
    st.t = calloc(nq ? nq : 1, sizeof *st.t);
    st.jobs = calloc(nq ? nq : 1, sizeof *st.jobs);
    st.first_job = malloc(TOP_BUCKETS * sizeof *st.first_job);
    int rc = 0;
    if (st.t == NULL || st.jobs == NULL || st.first_job == NULL) {
        rc = nr_error_set(err, NR_E_NOMEM, "quantiles: out of memory");
        goto done;
    }
    for (size_t b = 0; b < TOP_BUCKETS; b++)
        st.first_job[b] = -1;
    for (size_t i = 0; i < nq; i++)
        out[i] = -1;
    uint64_t *hist = calloc(TOP_BUCKETS, sizeof *hist);
    if (hist == NULL) {
        rc = nr_error_set(err, NR_E_NOMEM, "quantiles: out of memory for the histogram");
        goto done;
    }
    rc = first_pass(&st, hist);
    if (rc < 0 || st.N == 0) {
        free(hist);
        goto done;
    }
    *count = st.N;
    for (size_t i = 0; i < nq; i++)
        st.t[i].rank = nr_quantile_rank(qs[i], st.N);
    place_targets(&st, hist);
    free(hist);
    for (;;) {
        resolve_single_keys(&st);
        rc = plan_pass(&st);
        if (rc != 0)
            break;
        rc = run_pass(&st);
        if (rc == 0)
            rc = finish_pass(&st);
        free_jobs(&st);
        if (rc < 0)
            break;
    }
    if (rc > 0)
        rc = 0;
    for (size_t i = 0; rc == 0 && i < nq; i++)
        out[i] = st.t[i].value;
done:
    free_jobs(&st);
    free(st.t);
    free(st.jobs);
    free(st.first_job);
    return rc;
}

int nr_quantiles_array(const int64_t *vals, size_t n, const double *qs, size_t nq, int64_t *out)
{
    NR_TRY(check_qs(qs, nq));
    if (n == 0) {
        for (size_t i = 0; i < nq; i++)
            out[i] = -1;
        return 0;
    }
    int64_t *copy = malloc(n * sizeof *copy);
    if (copy == NULL)
        return NR_E_NOMEM;
    memcpy(copy, vals, n * sizeof *copy);
    int rc = nr__sort_i64(copy, n);
    for (size_t i = 0; rc == 0 && i < nq; i++)
        out[i] = copy[nr_quantile_rank(qs[i], n) - 1];
    free(copy);
    return rc;
}

/* floor(10^(b/20)) for b = 0..258: an integer v is in bin b or lower iff
 * v <= LOGHIST_LIMIT[b] (computed with 60-digit decimal arithmetic). */
static const uint64_t LOGHIST_LIMIT[NR_LOGHIST_BINS - 1] = {
    1u, 1u, 1u, 1u,
    1u, 1u, 1u, 2u,
    2u, 2u, 3u, 3u,
    3u, 4u, 5u, 5u,
    6u, 7u, 7u, 8u,
    10u, 11u, 12u, 14u,
    15u, 17u, 19u, 22u,
    25u, 28u, 31u, 35u,
    39u, 44u, 50u, 56u,
    63u, 70u, 79u, 89u,
    100u, 112u, 125u, 141u,
    158u, 177u, 199u, 223u,
    251u, 281u, 316u, 354u,
    398u, 446u, 501u, 562u,
    630u, 707u, 794u, 891u,
    1000u, 1122u, 1258u, 1412u,
    1584u, 1778u, 1995u, 2238u,
    2511u, 2818u, 3162u, 3548u,
    3981u, 4466u, 5011u, 5623u,
    6309u, 7079u, 7943u, 8912u,
    10000u, 11220u, 12589u, 14125u,
    15848u, 17782u, 19952u, 22387u,
    25118u, 28183u, 31622u, 35481u,
    39810u, 44668u, 50118u, 56234u,
    63095u, 70794u, 79432u, 89125u,
    100000u, 112201u, 125892u, 141253u,
    158489u, 177827u, 199526u, 223872u,
    251188u, 281838u, 316227u, 354813u,
    398107u, 446683u, 501187u, 562341u,
    630957u, 707945u, 794328u, 891250u,
    1000000u, 1122018u, 1258925u, 1412537u,
    1584893u, 1778279u, 1995262u, 2238721u,
    2511886u, 2818382u, 3162277u, 3548133u,
    3981071u, 4466835u, 5011872u, 5623413u,
    6309573u, 7079457u, 7943282u, 8912509u,
    10000000u, 11220184u, 12589254u, 14125375u,
    15848931u, 17782794u, 19952623u, 22387211u,
    25118864u, 28183829u, 31622776u, 35481338u,
    39810717u, 44668359u, 50118723u, 56234132u,
    63095734u, 70794578u, 79432823u, 89125093u,
    100000000u, 112201845u, 125892541u, 141253754u,
    158489319u, 177827941u, 199526231u, 223872113u,
    251188643u, 281838293u, 316227766u, 354813389u,
    398107170u, 446683592u, 501187233u, 562341325u,
    630957344u, 707945784u, 794328234u, 891250938u,
    1000000000u, 1122018454u, 1258925411u, 1412537544u,
    1584893192u, 1778279410u, 1995262314u, 2238721138u,
    2511886431u, 2818382931u, 3162277660u, 3548133892u,
    3981071705u, 4466835921ull, 5011872336ull, 5623413251ull,
    6309573444ull, 7079457843ull, 7943282347ull, 8912509381ull,
    10000000000ull, 11220184543ull, 12589254117ull, 14125375446ull,
    15848931924ull, 17782794100ull, 19952623149ull, 22387211385ull,
    25118864315ull, 28183829312ull, 31622776601ull, 35481338923ull,
    39810717055ull, 44668359215ull, 50118723362ull, 56234132519ull,
    63095734448ull, 70794578438ull, 79432823472ull, 89125093813ull,
    100000000000ull, 112201845430ull, 125892541179ull, 141253754462ull,
    158489319246ull, 177827941003ull, 199526231496ull, 223872113856ull,
    251188643150ull, 281838293126ull, 316227766016ull, 354813389233ull,
    398107170553ull, 446683592150ull, 501187233627ull, 562341325190ull,
    630957344480ull, 707945784384ull, 794328234724ull, 891250938133ull,
    1000000000000ull, 1122018454301ull, 1258925411794ull, 1412537544622ull,
    1584893192461ull, 1778279410038ull, 1995262314968ull, 2238721138568ull,
    2511886431509ull, 2818382931264ull, 3162277660168ull, 3548133892335ull,
    3981071705534ull, 4466835921509ull, 5011872336272ull, 5623413251903ull,
    6309573444801ull, 7079457843841ull, 7943282347242ull,
};

/* Bins of v = 0..15. */
static const uint8_t LOGHIST_SMALL[16] = {
    0, 0, 7, 10, 13, 14, 16, 17, 19, 20, 20, 21, 22, 23, 23, 24,
};

/* For v >= 16 with top bit e: the first bin reaching the sub-interval
 * [(16 + k) 2^(e-4), (17 + k) 2^(e-4)), k = the 4 bits below the top one, at
 * LOGHIST_SUB[(e - 4) * 16 + k]. A sub-interval (ratio <= 17/16) is narrower
 * than a bin (ratio 10^(1/20) = 1.122), so v is in that bin or the next. */
static const uint16_t LOGHIST_SUB[60 * 16] = {
    25, 25, 26, 26, 27, 27, 27, 28, 28, 28, 29, 29, 29, 30, 30, 30,
    31, 31, 32, 32, 33, 33, 33, 34, 34, 34, 35, 35, 35, 36, 36, 36,
    37, 37, 38, 38, 39, 39, 39, 40, 40, 40, 41, 41, 41, 42, 42, 42,
    43, 43, 44, 44, 45, 45, 45, 46, 46, 47, 47, 47, 48, 48, 48, 48,
    49, 49, 50, 50, 51, 51, 51, 52, 52, 53, 53, 53, 54, 54, 54, 54,
    55, 55, 56, 56, 57, 57, 57, 58, 58, 59, 59, 59, 60, 60, 60, 60,
    61, 61, 62, 62, 63, 63, 63, 64, 64, 65, 65, 65, 66, 66, 66, 66,
    67, 67, 68, 68, 69, 69, 69, 70, 70, 71, 71, 71, 72, 72, 72, 72,
    73, 73, 74, 74, 75, 75, 76, 76, 76, 77, 77, 77, 78, 78, 78, 78,
    79, 79, 80, 80, 81, 81, 82, 82, 82, 83, 83, 83, 84, 84, 84, 85,
    85, 85, 86, 86, 87, 87, 88, 88, 88, 89, 89, 89, 90, 90, 90, 91,
    91, 91, 92, 92, 93, 93, 94, 94, 94, 95, 95, 95, 96, 96, 96, 97,
    97, 97, 98, 98, 99, 99, 100, 100, 100, 101, 101, 101, 102, 102, 102, 103,
    103, 103, 104, 104, 105, 105, 106, 106, 106, 107, 107, 107, 108, 108, 108, 109,
    109, 109, 110, 110, 111, 111, 112, 112, 112, 113, 113, 113, 114, 114, 114, 115,
    115, 115, 116, 116, 117, 117, 118, 118, 118, 119, 119, 119, 120, 120, 120, 121,
    121, 121, 122, 122, 123, 123, 124, 124, 124, 125, 125, 125, 126, 126, 126, 127,
    127, 127, 128, 128, 129, 129, 130, 130, 130, 131, 131, 131, 132, 132, 132, 133,
    133, 133, 134, 134, 135, 135, 136, 136, 136, 137, 137, 137, 138, 138, 138, 139,
    139, 140, 140, 140, 141, 141, 142, 142, 142, 143, 143, 144, 144, 144, 144, 145,
    145, 146, 146, 146, 147, 147, 148, 148, 149, 149, 149, 150, 150, 150, 150, 151,
    151, 152, 152, 153, 153, 153, 154, 154, 155, 155, 155, 156, 156, 156, 156, 157,
    157, 158, 158, 159, 159, 159, 160, 160, 161, 161, 161, 162, 162, 162, 162, 163,
    163, 164, 164, 165, 165, 165, 166, 166, 167, 167, 167, 168, 168, 168, 169, 169,
    169, 170, 170, 171, 171, 171, 172, 172, 173, 173, 173, 174, 174, 174, 175, 175,
    175, 176, 176, 177, 177, 177, 178, 178, 179, 179, 179, 180, 180, 180, 181, 181,
    181, 182, 182, 183, 183, 183, 184, 184, 185, 185, 185, 186, 186, 186, 187, 187,
    187, 188, 188, 189, 189, 190, 190, 190, 191, 191, 191, 192, 192, 192, 193, 193,
    193, 194, 194, 195, 195, 196, 196, 196, 197, 197, 197, 198, 198, 198, 199, 199,
    199, 200, 200, 201, 201, 202, 202, 202, 203, 203, 203, 204, 204, 204, 205, 205,
    205, 206, 206, 207, 207, 208, 208, 208, 209, 209, 209, 210, 210, 210, 211, 211,
    211, 212, 212, 213, 213, 214, 214, 214, 215, 215, 215, 216, 216, 216, 217, 217,
    217, 218, 218, 219, 219, 220, 220, 220, 221, 221, 221, 222, 222, 222, 223, 223,
    223, 224, 224, 225, 225, 226, 226, 226, 227, 227, 227, 228, 228, 228, 229, 229,
    229, 230, 230, 231, 231, 232, 232, 232, 233, 233, 233, 234, 234, 234, 235, 235,
    235, 236, 236, 237, 237, 238, 238, 238, 239, 239, 240, 240, 240, 240, 241, 241,
    241, 242, 242, 243, 243, 244, 244, 244, 245, 245, 246, 246, 246, 246, 247, 247,
    247, 248, 248, 249, 249, 250, 250, 250, 251, 251, 252, 252, 252, 253, 253, 253,
    253, 254, 254, 255, 255, 256, 256, 257, 257, 257, 258, 258, 258, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
    259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259, 259,
};

int nr_loghist_bin(int64_t v)
{
    if (v < 16)
        return v <= 1 ? 0 : LOGHIST_SMALL[v];
    const int e = 63 - __builtin_clzll((uint64_t)v);
    int b = LOGHIST_SUB[(e - 4) * 16 + (int)(((uint64_t)v >> (e - 4)) & 15)];
    if (b < NR_LOGHIST_BINS - 1 && (uint64_t)v > LOGHIST_LIMIT[b])
        b++;
    return b;
}

void nr_loghist_init(nr_loghist *h)
{
    memset(h, 0, sizeof *h);
}

void nr_loghist_add(nr_loghist *h, int64_t v)
{
    h->counts[nr_loghist_bin(v)]++;
    if (h->n == 0 || v < h->min)
        h->min = v;
    if (h->n == 0 || v > h->max)
        h->max = v;
    h->n++;
}

void nr_loghist_merge(nr_loghist *dst, const nr_loghist *src)
{
    if (src->n == 0)
        return;
    for (int b = 0; b < NR_LOGHIST_BINS; b++)
        dst->counts[b] += src->counts[b];
    if (dst->n == 0 || src->min < dst->min)
        dst->min = src->min;
    if (dst->n == 0 || src->max > dst->max)
        dst->max = src->max;
    dst->n += src->n;
}

double nr_loghist_bin_upper(int bin)
{
    if (bin >= NR_LOGHIST_BINS - 1)
        return INFINITY;
    if (bin < 0)
        bin = 0;
    return pow(10.0, bin / (double)NR_LOGHIST_PER_DECADE);
}

int64_t nr_loghist_bin_limit(int bin)
{
    if (bin >= NR_LOGHIST_BINS - 1)
        return INT64_MAX;
    return (int64_t)LOGHIST_LIMIT[bin < 0 ? 0 : bin];
}
