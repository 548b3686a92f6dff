/* Latency per op class (read, write, open, sync, metadata), overall, per
 * phase, per process role, per file system and of the job's files alone: exact nearest-rank quantiles
 * and log-binned CDF points; the cache-hit/miss split of reads; the exact
 * median read size.
 *
 * Method (exact; memory bounded by the number of groups, never by events;
 * a phase has the groups of the ops it has values of): pass 1 fills one
 * fine histogram per group, which tells the bin holding each wanted rank,
 * the values below it and in it; a group of at most 512 values keeps them
 * instead, and sorts them (it needs no target). The log histogram of the
 * CDF points is kept where a figure may draw it (nr_model.h). Every later pass serves all
 * groups at once: a range with few values is collected and sorted; a range
 * with many is counted in NSUB sub-bins, narrowing it to the sub-bin holding
 * the rank, until a range is collectable or a single value (latencies below
 * ~4 s need at most two narrowing passes). The job files' reads of the
 * phases figure 1 folds (nr_phase_pick.h: known once pass 1 has the
 * phases' weights) are one more group, made at the plan from their
 * phases' groups and searched with the others. nr_quantiles_exact over a filtered
 * source of the store (nr__quantiles_filtered) gives the same answers one
 * group at a time; the tests check the two against each other and a sort. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"
#include "pass.h"

const double nr_model_quantiles[NR_MODEL_NQ] = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};

#define COLLECT_CAP 16384u    /* a range with at most this many values is collected (128 KiB) */
#define NSUB 4096u            /* else it is split into this many sub-bins (16 KiB) */

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

/* The latency sample of an event: a latency file (nr__latency_file), classed op, a duration, a result. */
static int timed(const nr__event *e)
{
    return nr__latency_file(e->op, e->kind, e->file_row) && e->lat_op >= 0 && e->dur >= 0 &&
           !(e->flags & NR_EVF_NEVER_RESUMED);
}

/* Whether a timed event is the runtime's (a Python module's file): not the
 * job files' latency. A directory's sync and a sync of no file are the job's. */
static int runtime_call(const nr_model *m, const nr__event *e)
{
    return e->file_row >= 0 && m->file_info[e->file_row].runtime;
}

/* Read sizes: successful reads of the job's regular files (the runtime's
 * are left out as in nr_model_access: docs/definitions.md). */
/* A read of a job file that returned data: a restarted call, one whose
 * result is unknown and an end-of-file read (0 B: Python's read() of a
 * whole file ends with one) request data but tell no size; until session
 * 46 they were 0 B samples, and a job reading whole files had a median
 * read of 0 B (review 46). */
static int sized_read(const nr_model *m, const nr__event *e)
{
    return e->reg >= 0 && e->op == NR_OP_READ && e->bytes > 0 &&
           !(e->flags & (NR_EVF_NEVER_RESUMED | NR_EVF_FAILED | NR_EVF_RESTARTED | NR_EVF_RESULT_UNKNOWN)) &&
           !m->reg_runtime[e->reg];
}

/* Groups are numbered: the fixed ones ([lat_op][slot]), read_size, then the
 * phase groups (model_internal.h). */
static size_t read_size_group(const nr_model *m) { return NR_LAT_OP_COUNT * m->lat_slots; }
static size_t ngroups(const nr_model *m) { return read_size_group(m) + 1 + m->lat_phase_n; }
static nr_model_latency *group(nr_model *m, size_t g)
{
    const size_t rs = read_size_group(m);
    return g < rs ? &m->lat[g] : g == rs ? &m->read_size : &m->lat_phase[g - rs - 1];
}

/* The phase group's key, NULL for another group. */
static const nr__lat_phase_key *phase_key(const nr_model *m, size_t g)
{
    const size_t rs = read_size_group(m);
    return g > rs ? &m->lat_phase_key[g - rs - 1] : NULL;
}

/* Group g's op's "all" group (read_size: itself). */
static size_t all_of(const nr_model *m, size_t g)
{
    const nr__lat_phase_key *k = phase_key(m, g);
    if (k)
        return (size_t)k->lat_op * m->lat_slots;
    return g == read_size_group(m) ? g : g - g % m->lat_slots;
}

/* What a phase without a value of an op shows: count 0, no quantile, no mean. */
static const nr_model_latency lat_empty = {.q_ns = {-1, -1, -1, -1, -1, -1}, .mean_s = NAN};

/* Where lat_phase_of holds the group of (lat_op, phase, job). */
static uint32_t *phase_slot(const nr_model *m, int lat_op, size_t phase, int job)
{
    return &m->lat_phase_of[(phase * 2 + (size_t)job) * NR_LAT_OP_COUNT + (size_t)lat_op];
}

const nr_model_latency *nr__lat_phase(const nr_model *m, int lat_op, size_t phase, int job)
{
    const uint32_t d = m->lat_phase_of ? *phase_slot(m, lat_op, phase, job) : 0;
    return d ? &m->lat_phase[d - 1] : &lat_empty;
}

const nr_model_latency *nr_model_latency_job_folded(const nr_model *m)
{
    return m->lat_folded ? &m->lat_phase[m->lat_folded - 1] : &lat_empty;
}

int nr__latency_alloc(nr_model *m)
{
    /* all, roles, file systems, the job's files; the phases' as they come */
    m->lat_slots = 1 + NR_ROLE_COUNT + m->nfs + 1;
    const size_t ng = ngroups(m), nfixed = NR_LAT_OP_COUNT * m->lat_slots;
    m->lat = calloc(nfixed, sizeof *m->lat);
    m->lat_bins = calloc(nfixed * NR_LOGHIST_BINS, sizeof *m->lat_bins);
    m->lat_phase_of = calloc(m->nphases * 2 * NR_LAT_OP_COUNT, sizeof *m->lat_phase_of);
    m->fine = calloc(ng, sizeof *m->fine);
    m->fine_overflow = calloc(ng, sizeof *m->fine_overflow);
    if (!m->lat || !m->lat_bins || !m->lat_phase_of || !m->fine || !m->fine_overflow)
        return NR_E_NOMEM;
    for (size_t i = 0; i < nfixed; i++) {   /* every bin: add_fixed counts without a range check */
        m->lat[i].bins = m->lat_bins + i * NR_LOGHIST_BINS;
        m->lat[i].nbins = NR_LOGHIST_BINS;
    }
    for (size_t i = 0; i < NR_LAT_OP_COUNT * 4; i++)
        m->fine_mirror[i] = -1;   /* no slice seen yet */
    return 0;
}

/* A new group for (lat_op, phase, job): *d its index in lat_phase + 1. */
static int phase_group_new(nr_model *m, int lat_op, size_t phase, int job, uint32_t *d)
{
    if (m->lat_phase_n == m->lat_phase_cap) {
        const size_t cap = m->lat_phase_cap ? 2 * m->lat_phase_cap : 16, ng = read_size_group(m) + 1 + cap;
        if (cap > UINT32_MAX - 1)
            return NR_E_NOMEM;
        nr_model_latency *lat = realloc(m->lat_phase, cap * sizeof *lat);
        if (lat)
            m->lat_phase = lat;
        nr__lat_phase_key *key = realloc(m->lat_phase_key, cap * sizeof *key);
        if (key)
            m->lat_phase_key = key;
        nr__fine **fine = realloc(m->fine, ng * sizeof *fine);
        if (fine)
            m->fine = fine;
        uint8_t *over = realloc(m->fine_overflow, ng * sizeof *over);
        if (over)
            m->fine_overflow = over;
        if (!lat || !key || !fine || !over)
            return NR_E_NOMEM;
        m->lat_phase_cap = cap;
    }
    const size_t i = m->lat_phase_n++;
    memset(&m->lat_phase[i], 0, sizeof m->lat_phase[i]);   /* no histogram yet (add_drawn) */
    m->lat_phase_key[i] = (nr__lat_phase_key){.phase = (uint32_t)phase, .lat_op = (uint8_t)lat_op, .job = (uint8_t)job};
    m->fine[ngroups(m) - 1] = NULL;
    m->fine_overflow[ngroups(m) - 1] = 0;
    *d = (uint32_t)(i + 1);
    return 0;
}

/* The group of (lat_op, phase, job), made at its first value (pass 1). */
static int phase_group(nr_model *m, int lat_op, size_t phase, int job, size_t *g)
{
    uint32_t *d = phase_slot(m, lat_op, phase, job);
    if (!*d)
        NR_TRY(phase_group_new(m, lat_op, phase, job, d));
    *g = read_size_group(m) + *d;
    return 0;
}

/* The fine histogram: every value below 2048 has its own bin, larger values
 * 1024 bins per power of two (width < 0.1% of the value), computed with one
 * clz: bins narrow enough that pass 2 can nearly always collect a rank's bin.
 * It is held by page, a page being the 1024 bins of a power of two (4 KiB),
 * allocated at its first value: a group costs the powers of two its values
 * touch, not the 216 KiB of the whole range. Until session 50 every group
 * had the whole range, and each phase name cost the model 0.9-2.2 MB (1,000
 * epoch-named phases needed 2.2 GB: review 50, finding 1). */
#define FINE_MBITS 10
#define FINE_PAGE ((size_t)1 << FINE_MBITS)
#define FINE_PAGES 54
#define FINE_BINS ((size_t)FINE_PAGES << FINE_MBITS)

/* A group keeps its first values as they are, up to a page's bytes: a
 * group of few values (a phase's of one op, mostly) needs no page, and its
 * quantiles are a sort, with no later pass. Its pages replace them at the
 * next value. Until session 51 each group of a value had at least a page
 * per power of two: 1,000 epoch-named phases of 600 calls held 26 pages
 * each (106 MB). */
#define FINE_KEEP (FINE_PAGE * sizeof(uint32_t) / sizeof(int64_t))   /* 512 values */

struct nr__fine {
    int64_t *vals;                /* the values kept, NULL once counted in the pages */
    size_t n, cap;
    int paged;                    /* counted in pages: page[] is there */
    uint32_t *page[];             /* [FINE_PAGES] once counted in pages (NULL: every bin of the page is 0);
                                     absent while the values are kept: until session 53 a group of one
                                     value held 456 B (180 MB at 100,000 phase names) */
};
#define FINE_KEPT_SIZE sizeof(nr__fine)
#define FINE_PAGED_SIZE (sizeof(nr__fine) + FINE_PAGES * sizeof(uint32_t *))

static size_t fine_bin(int64_t v)
{
    if (v <= 0)
        return 0;
    const uint64_t u = (uint64_t)v;
    if (u < ((uint64_t)2 << FINE_MBITS))
        return (size_t)u;
    const int shift = 63 - __builtin_clzll(u) - FINE_MBITS;
    return ((size_t)shift << FINE_MBITS) + (size_t)(u >> shift);
}

/* The integer range of fine bin i (bin 0 holds every v <= 0). */
static void fine_range(size_t i, int64_t *lo, int64_t *hi)
{
    if (i < ((size_t)2 << FINE_MBITS)) {
        *lo = i == 0 ? INT64_MIN : (int64_t)i;
        *hi = (int64_t)i;
        return;
    }
    const int shift = (int)(i >> FINE_MBITS) - 1;
    const uint64_t mant = (i & (FINE_PAGE - 1)) + ((uint64_t)1 << FINE_MBITS);
    *lo = (int64_t)(mant << shift);
    *hi = (int64_t)(((mant + 1) << shift) - 1);
}

/* The count of bin i. */
static uint32_t fine_count(const nr__fine *f, size_t i)
{
    const uint32_t *p = f->page[i >> FINE_MBITS];
    return p ? p[i & (FINE_PAGE - 1)] : 0;
}

/* A zeroed page, counted in m->fine_pages. */
static uint32_t *fine_page_new(nr_model *m)
{
    uint32_t *p = nr_zalloc_counters(FINE_PAGE, sizeof *p);
    if (p && ++m->fine_pages > m->fine_pages_peak)
        m->fine_pages_peak = m->fine_pages;
    return p;
}

/* Frees group g's histogram: its values or its pages. */
static void fine_free(nr_model *m, size_t g)
{
    nr__fine *f = m->fine[g];
    if (!f)
        return;
    for (size_t i = 0; f->paged && i < FINE_PAGES; i++)
        if (f->page[i]) {
            free(f->page[i]);
            m->fine_pages--;
        }
    free(f->vals);
    free(f);
    m->fine[g] = NULL;
}

void nr__latency_free_fine(nr_model *m)
{
    if (!m->fine)
        return;
    for (size_t g = 0; g < ngroups(m); g++)
        fine_free(m, g);
    free(m->fine);
    m->fine = NULL;
}

void nr__latency_free_targets(nr_model *m)
{
    if (m->qt)
        for (size_t i = 0; i < m->nqt * NR_MODEL_NQ; i++) {
            free(m->qt[i].vals);
            free(m->qt[i].sub);
        }
    free(m->qt);
    free(m->qrange);
    free(m->qt_of);
    m->qt = NULL;
    m->qrange = NULL;
    m->qt_of = NULL;
    m->nqt = 0;
}

void nr__latency_free(nr_model *m)
{
    nr__latency_free_targets(m);
    nr__latency_free_fine(m);
    free(m->fine_overflow);
    free(m->lat);
    free(m->lat_bins);
    for (size_t i = 0; i < m->lat_phase_n; i++)
        free(m->lat_phase[i].bins);
    free(m->lat_phase);
    free(m->lat_phase_key);
    free(m->lat_phase_of);
    m->fine_overflow = NULL;
    m->lat = m->lat_phase = NULL;
    m->lat_bins = NULL;
    m->lat_phase_key = NULL;
    m->lat_phase_of = NULL;
    m->lat_phase_n = m->lat_phase_cap = 0;
    m->lat_folded = 0;
}

/* Counts bin of group g (counting in pages) in a new page or a full bin. */
static int fine_count_new(nr_model *m, size_t g, size_t bin)
{
    uint32_t **page = &m->fine[g]->page[bin >> FINE_MBITS];
    if (!*page && !(*page = fine_page_new(m)))
        return NR_E_NOMEM;
    uint32_t *c = &(*page)[bin & (FINE_PAGE - 1)];
    if (*c == UINT32_MAX) {
        m->fine_overflow[g] = 1;   /* 4 G values in one bin: the group takes the reference path */
        return 0;
    }
    (*c)++;
    return 0;
}

/* Group g (made here if it has no histogram) counts in pages from here:
 * the values it kept are counted in them. */
static int fine_page_up(nr_model *m, size_t g)
{
    nr__fine *was = m->fine[g];
    if (was && was->paged)
        return 0;
    nr__fine *f = realloc(was, FINE_PAGED_SIZE);
    if (!f)
        return NR_E_NOMEM;
    if (!was)
        memset(f, 0, sizeof *f);
    m->fine[g] = f;
    memset(f->page, 0, FINE_PAGES * sizeof *f->page);
    f->paged = 1;
    int64_t *vals = f->vals;
    const size_t n = f->n;
    f->vals = NULL;   /* counted in pages from here: fine_count_new's */
    f->n = f->cap = 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = fine_count_new(m, g, fine_bin(vals[i]));
    free(vals);
    return rc;
}

/* Group g stops keeping its values: it counts them, and bin, in pages. */
static int fine_to_pages(nr_model *m, size_t g, size_t bin)
{
    NR_TRY(fine_page_up(m, g));
    return fine_count_new(m, g, bin);
}

/* Keeps v in group g (made at its first value), or counts the values kept
 * and v in pages once they would pass a page's bytes. */
static int fine_keep(nr_model *m, size_t g, int64_t v, size_t bin)
{
    nr__fine *f = m->fine[g];
    if (!f && !(f = m->fine[g] = calloc(1, FINE_KEPT_SIZE)))
        return NR_E_NOMEM;
    if (f->n == FINE_KEEP)
        return fine_to_pages(m, g, bin);
    if (f->n == f->cap) {
        const size_t cap = f->cap ? 2 * f->cap : 4;
        int64_t *vals = realloc(f->vals, cap * sizeof *vals);
        if (!vals)
            return NR_E_NOMEM;
        f->vals = vals;
        f->cap = cap;
    }
    f->vals[f->n++] = v;
    return 0;
}

/* Value v (of fine bin bin) into group g: one increment once it counts in
 * pages and the page is there. */
static inline int add_fine(nr_model *m, size_t g, int64_t v, size_t bin)
{
    nr__fine *f = m->fine[g];
    if (!f || !f->paged)
        return fine_keep(m, g, v, bin);
    uint32_t *p = f->page[bin >> FINE_MBITS];
    if (!p || p[bin & (FINE_PAGE - 1)] == UINT32_MAX)
        return fine_count_new(m, g, bin);
    p[bin & (FINE_PAGE - 1)]++;
    return 0;
}

/* Group to's histogram becomes a copy of group from's (to has none). */
static int fine_copy(nr_model *m, size_t from, size_t to)
{
    const nr__fine *f = m->fine[from];
    if (!f)
        return 0;
    nr__fine *c = m->fine[to] = calloc(1, f->paged ? FINE_PAGED_SIZE : FINE_KEPT_SIZE);
    if (!c)
        return NR_E_NOMEM;
    c->paged = f->paged;
    if (!f->paged) {
        if (!(c->vals = malloc(f->cap * sizeof *c->vals)))
            return NR_E_NOMEM;
        memcpy(c->vals, f->vals, f->n * sizeof *c->vals);
        c->n = f->n;
        c->cap = f->cap;
        return 0;
    }
    for (size_t i = 0; i < FINE_PAGES; i++) {
        if (!f->page[i])
            continue;
        if (!(c->page[i] = fine_page_new(m)))
            return NR_E_NOMEM;
        memcpy(c->page[i], f->page[i], FINE_PAGE * sizeof *f->page[i]);
    }
    return 0;
}

/* Group from's values join group to's histogram: its kept values one by
 * one, or its pages bin by bin (to counting in pages then); a bin past
 * UINT32_MAX, or from's overflow, sends to on the reference path. */
static int fine_merge(nr_model *m, size_t to, size_t from)
{
    const nr__fine *f = m->fine[from];
    if (!f)
        return 0;
    if (m->fine_overflow[from]) {
        m->fine_overflow[to] = 1;
        return 0;
    }
    if (!f->paged) {
        for (size_t i = 0; i < f->n; i++)
            NR_TRY(add_fine(m, to, f->vals[i], fine_bin(f->vals[i])));
        return 0;
    }
    NR_TRY(fine_page_up(m, to));
    for (size_t p = 0; p < FINE_PAGES; p++) {
        if (!f->page[p])
            continue;
        uint32_t **dst = &m->fine[to]->page[p];
        if (!*dst && !(*dst = fine_page_new(m)))
            return NR_E_NOMEM;
        for (size_t b = 0; b < FINE_PAGE; b++) {
            const uint64_t sum = (uint64_t)(*dst)[b] + f->page[p][b];
            m->fine_overflow[to] |= sum > UINT32_MAX;
            (*dst)[b] = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
        }
    }
    return 0;
}

/* The fine histogram of a slice (phase, role or file system) is kept only
 * once the slice stops holding every value of its op: until then it mirrors
 * the op's whole group (mirrors_all) and costs nothing per event. At the first
 * value that goes to another slice of the same dimension, the mirroring slice
 * receives a copy of the whole group's histogram (all values so far were its). */
#define MIRROR_NONE (-1)
#define MIRROR_BROKEN (-2)

static int add_fine_slice(nr_model *m, int lat_op, int dim, size_t g_all, size_t g, int64_t v, size_t bin)
{
    int64_t *mirror = &m->fine_mirror[lat_op * 4 + dim];
    if (*mirror == MIRROR_NONE)
        *mirror = (int64_t)g;
    if (*mirror == (int64_t)g)
        return 0;
    if (*mirror >= 0) {
        const size_t was = (size_t)*mirror;
        NR_TRY(fine_copy(m, g_all, was));
        m->fine_overflow[was] = m->fine_overflow[g_all];
        *mirror = MIRROR_BROKEN;
    }
    return add_fine(m, g, v, bin);
}

/* The job files' slice g_job mirrors the whole group until the first value
 * of a runtime file (job 0) comes: then it receives a copy of the group's
 * histogram (every value so far was a job file's) and counts on its own. */
static int add_fine_job(nr_model *m, int lat_op, size_t g_all, size_t g_job, int job, int64_t v, size_t bin)
{
    int64_t *mirror = &m->fine_mirror[lat_op * 4 + 3];
    if (*mirror == MIRROR_NONE) {
        if (job)
            return 0;
        NR_TRY(fine_copy(m, g_all, g_job));
        m->fine_overflow[g_job] = m->fine_overflow[g_all];
        *mirror = MIRROR_BROKEN;
        return 0;
    }
    return job ? add_fine(m, g_job, v, bin) : 0;
}

/* Counts v in group l: its count, extremes and sum (the mean at latency_finish). */
static inline void add_sample(nr_model_latency *l, int64_t v)
{
    if (l->count == 0 || v < l->min_ns)
        l->min_ns = v;
    if (l->count == 0 || v > l->max_ns)
        l->max_ns = v;
    l->count++;
    l->mean_s += (double)v;   /* the sum until latency_finish */
}

/* The same in a fixed group, and in its histogram's bin (it holds every
 * bin: the bin is computed once for the several groups of an event). */
static inline void add_fixed(nr_model_latency *l, int64_t v, int bin)
{
    add_sample(l, v);
    l->bins[bin]++;
}

/* The same in a phase group that keeps its histogram (figure 4's), whose
 * bins span those of its values: widened to hold bin when it is outside. */
static int add_drawn(nr_model_latency *l, int64_t v, int bin)
{
    add_sample(l, v);
    const int at = bin - l->bin_lo;
    if (at >= 0 && at < l->nbins) {
        l->bins[at]++;
        return 0;
    }
    const int last = l->bin_lo + l->nbins - 1;
    const int lo = l->nbins && l->bin_lo < bin ? l->bin_lo : bin;
    const int hi = l->nbins && last > bin ? last : bin;
    uint64_t *bins = calloc((size_t)(hi - lo + 1), sizeof *bins);
    if (!bins)
        return NR_E_NOMEM;
    if (l->nbins)
        memcpy(bins + (l->bin_lo - lo), l->bins, l->nbins * sizeof *bins);
    free(l->bins);
    l->bins = bins;
    l->bin_lo = (uint16_t)lo;
    l->nbins = (uint16_t)(hi - lo + 1);
    l->bins[bin - lo]++;
    return 0;
}

int nr_model_latency_hist(const nr_model_latency *l, nr_loghist *out)
{
    nr_loghist_init(out);
    if (l->count == 0)
        return 1;
    if (l->nbins == 0)
        return 0;
    memcpy(&out->counts[l->bin_lo], l->bins, l->nbins * sizeof *l->bins);
    out->n = l->count;
    out->min = l->min_ns;
    out->max = l->max_ns;
    return 1;
}

/* The group indexes an event's value belongs to (all, phase, role, fs, job
 * files, job files of the phase); returns 6 for a job file's call, 4 for a
 * runtime file's. The phase's groups are made (pass 1) or looked up: a
 * later pass finds them all unless the store changed, when it returns -1. */
static int event_groups(nr_model *m, const nr__event *e, int make, size_t g[6])
{
    const size_t base = (size_t)e->lat_op * m->lat_slots;
    const int ng = runtime_call(m, e) ? 4 : 6;
    g[0] = base;
    g[2] = base + nr__lat_slot_role(m, e->role);
    g[3] = base + nr__lat_slot_fs(m, e->fs);
    g[4] = base + nr__lat_slot_job(m);
    if (make) {
        NR_TRY(phase_group(m, e->lat_op, e->phase, 0, &g[1]));
        if (ng == 6)
            NR_TRY(phase_group(m, e->lat_op, e->phase, 1, &g[5]));
        return ng;
    }
    const uint32_t *d = phase_slot(m, e->lat_op, e->phase, 0);   /* then job 1's, NR_LAT_OP_COUNT on */
    if (!d[0] || (ng == 6 && !d[NR_LAT_OP_COUNT]))
        return -1;
    g[1] = read_size_group(m) + d[0];
    g[5] = read_size_group(m) + d[NR_LAT_OP_COUNT];
    return ng;
}

int nr__latency_add(nr_model *m, const nr__event *e)
{
    if (sized_read(m, e)) {
        const int64_t size = e->bytes > 0 ? e->bytes : 0;
        add_sample(&m->read_size, size);
        NR_TRY(add_fine(m, read_size_group(m), size, fine_bin(size)));
    }
    if (!timed(e))
        return 0;
    size_t g[6];
    const int ng = event_groups(m, e, 1, g);
    if (ng < 0)
        return ng;
    const int bin = nr_loghist_bin(e->dur);
    const size_t fine = fine_bin(e->dur), phase0 = read_size_group(m) + 1;   /* g[1], g[5]: lat_phase[g - phase0] */
    add_fixed(&m->lat[g[0]], e->dur, bin);
    add_sample(&m->lat_phase[g[1] - phase0], e->dur);
    add_fixed(&m->lat[g[2]], e->dur, bin);
    add_fixed(&m->lat[g[3]], e->dur, bin);
    if (ng == 6) {
        add_fixed(&m->lat[g[4]], e->dur, bin);
        nr_model_latency *job_phase = &m->lat_phase[g[5] - phase0];
        if (e->lat_op == NR_LAT_READ)   /* figure 4's series */
            NR_TRY(add_drawn(job_phase, e->dur, bin));
        else
            add_sample(job_phase, e->dur);
    }
    /* slices first: one that stops mirroring copies the whole group as it was before this value */
    for (int dim = 0; dim < 3; dim++)
        NR_TRY(add_fine_slice(m, e->lat_op, dim, g[0], g[1 + dim], e->dur, fine));
    NR_TRY(add_fine_job(m, e->lat_op, g[0], g[4], ng == 6, e->dur, fine));
    if (ng == 6)   /* no mirroring: a histogram of its own, as a phase slice has once it stops mirroring */
        NR_TRY(add_fine(m, g[5], e->dur, fine));
    return add_fine(m, g[0], e->dur, fine);
}

static int cmp_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Collect when the range holds few values, else count them in sub-bins. */
static int arm(nr__qtarget *t)
{
    free(t->vals);
    t->vals = NULL;
    t->n = 0;
    if (t->lo == t->hi || t->inrange == 0) {
        t->value = t->lo;
        t->mode = NR__Q_DONE;
        return 0;
    }
    if (t->inrange <= COLLECT_CAP) {
        t->mode = NR__Q_COLLECT;
        t->vals = malloc(t->inrange * sizeof *t->vals);
        return t->vals ? 0 : NR_E_NOMEM;
    }
    t->mode = NR__Q_REFINE;
    const uint64_t span = (uint64_t)t->hi - (uint64_t)t->lo;   /* + 1 may overflow: width rounds up */
    t->width = span / NSUB + 1;
    if (!t->sub)
        t->sub = malloc(NSUB * sizeof *t->sub);
    if (!t->sub)
        return NR_E_NOMEM;
    memset(t->sub, 0, NSUB * sizeof *t->sub);
    return 0;
}

/* A slice (phase, role, file system, job files) holding every value of its op's "all"
 * group is that group: same values, same quantiles. */
static int mirrors_all(nr_model *m, size_t g)
{
    const size_t all = all_of(m, g);
    return g != all && group(m, g)->count == m->lat[all].count;
}

/* The union of the ranges still searched in each group (a fast reject per event). */
static void update_group_ranges(nr_model *m)
{
    for (size_t k = 0; k < m->nqt; k++) {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (int q = 0; q < NR_MODEL_NQ; q++) {
            const nr__qtarget *t = &m->qt[k * NR_MODEL_NQ + q];
            if (t->rank == 0 || t->mode == NR__Q_DONE)
                continue;
            lo = t->lo < lo ? t->lo : lo;
            hi = t->hi > hi ? t->hi : hi;
        }
        m->qrange[2 * k] = lo;
        m->qrange[2 * k + 1] = hi;
    }
}

/* Group g's quantiles from the sort of the values it kept (pass 1). */
static int answer_by_sort(nr_model *m, size_t g, nr_error *err)
{
    nr_model_latency *l = group(m, g);
    nr__fine *fine = m->fine[g];
    if (fine->n != l->count)
        return nr_error_set(err, NR_E_FORMAT, "latency group %zu has %" PRIu64 " values but keeps %zu", g, l->count,
                            fine->n);
    qsort(fine->vals, fine->n, sizeof *fine->vals, cmp_i64);
    for (int q = 0; q < NR_MODEL_NQ; q++)
        l->q_ns[q] = fine->vals[nr_quantile_rank(nr_model_quantiles[q], l->count) - 1];
    fine_free(m, g);
    return 0;
}

/* Group g's targets t (counted in pages): for each wanted rank, the fine
 * bin that holds it, its exact integer range, the values below it and in it. */
static int plan_targets(nr_model *m, size_t g, nr__qtarget *t)
{
    const nr_model_latency *l = group(m, g);
    const nr__fine *fine = m->fine[g];
    uint64_t cum = 0;
    size_t b = 0;
    for (int q = 0; q < NR_MODEL_NQ; q++, t++) {
        t->rank = nr_quantile_rank(nr_model_quantiles[q], l->count);
        while (b < FINE_BINS - 1 && cum + fine_count(fine, b) < t->rank) {   /* ranks ascend: the walk goes on */
            if (!fine->page[b >> FINE_MBITS]) {   /* a page of zeros: its bins pass as one */
                b = (b | (FINE_PAGE - 1)) + 1;
                b = b < FINE_BINS - 1 ? b : FINE_BINS - 1;
                continue;
            }
            cum += fine_count(fine, b++);
        }
        t->below = cum;
        t->inrange = fine_count(fine, b);
        fine_range(b, &t->lo, &t->hi);
        t->lo = t->lo < l->min_ns ? l->min_ns : t->lo;
        t->hi = t->hi > l->max_ns ? l->max_ns : t->hi;
        NR_TRY(arm(t));
    }
    fine_free(m, g);
    return 0;
}

/* Answers the groups of few values by their sort and numbers the others'
 * targets (qt_of): a group of no value, a mirror or one on the reference
 * path has none. */
static int plan_groups(nr_model *m, nr_error *err)
{
    const size_t ng = ngroups(m);
    m->qt_of = calloc(ng, sizeof *m->qt_of);
    if (!m->qt_of)
        return nr_error_set(err, NR_E_NOMEM, "out of memory planning latency quantiles");
    for (size_t g = 0; g < ng; g++) {
        nr_model_latency *l = group(m, g);
        for (int q = 0; q < NR_MODEL_NQ; q++)
            l->q_ns[q] = -1;
        if (l->count == 0 || mirrors_all(m, g) || m->fine_overflow[g]) {
            fine_free(m, g);   /* a mirror's: the folded phases' group holding every read */
            continue;   /* nothing, a copy of its op's "all" group, or the reference path */
        }
        if (!m->fine[g])
            return nr_error_set(err, NR_E_FORMAT, "latency group %zu has values but no histogram", g);
        if (!m->fine[g]->paged)
            NR_TRY(answer_by_sort(m, g, err));
        else
            m->qt_of[g] = (uint32_t)++m->nqt;
    }
    return 0;
}

/* The group of the job files' reads of the folded phases (phase_folded),
 * made once pass 1 has made every phase's and figure 1's pick is known
 * (nr__phases_fold): their counts, extremes, sums and log histograms
 * added, their fine histograms merged, so that the plan searches it as
 * any group and the next passes collect its values (nr__latency_collect). */
static int folded_group_make(nr_model *m)
{
    if (!m->phase_folded)
        return 0;
    uint32_t d;
    NR_TRY(phase_group_new(m, NR_LAT_READ, NR__PHASE_FOLDED, 1, &d));
    m->lat_folded = d;
    const size_t g = read_size_group(m) + d;
    nr_loghist sum;
    nr_loghist_init(&sum);
    nr_model_latency *l = &m->lat_phase[d - 1];
    for (size_t i = 0; i < m->nphases; i++) {
        const uint32_t di = m->phase_folded[i] ? *phase_slot(m, NR_LAT_READ, i, 1) : 0;
        if (!di)
            continue;
        const nr_model_latency *p = &m->lat_phase[di - 1];
        if (l->count == 0 || p->min_ns < l->min_ns)
            l->min_ns = p->min_ns;
        if (l->count == 0 || p->max_ns > l->max_ns)
            l->max_ns = p->max_ns;
        l->count += p->count;
        l->mean_s += p->mean_s;   /* sums until latency_finish */
        for (int b = 0; b < p->nbins; b++)
            sum.counts[p->bin_lo + b] += p->bins[b];
        NR_TRY(fine_merge(m, g, read_size_group(m) + di));
    }
    int lo = 0, hi = NR_LOGHIST_BINS - 1;
    while (lo < hi && !sum.counts[lo])
        lo++;
    while (hi > lo && !sum.counts[hi])
        hi--;
    if (l->count == 0)
        return 0;
    if (!(l->bins = malloc((size_t)(hi - lo + 1) * sizeof *l->bins)))
        return NR_E_NOMEM;
    memcpy(l->bins, &sum.counts[lo], (size_t)(hi - lo + 1) * sizeof *l->bins);
    l->bin_lo = (uint16_t)lo;
    l->nbins = (uint16_t)(hi - lo + 1);
    return 0;
}

int nr__latency_plan(nr_model *m, nr_error *err)
{
    if (folded_group_make(m) < 0)
        return nr_error_set(err, NR_E_NOMEM, "out of memory planning latency quantiles");
    const size_t ng = ngroups(m);
    if (m->lat_phase_n && m->lat_phase_n < m->lat_phase_cap) {   /* every group is made: the rest was room */
        nr_model_latency *lat = realloc(m->lat_phase, m->lat_phase_n * sizeof *lat);
        if (lat) {
            m->lat_phase = lat;
            m->lat_phase_cap = m->lat_phase_n;   /* the other arrays are at least as long */
        }
    }
    NR_TRY(plan_groups(m, err));
    m->qt = calloc(m->nqt * NR_MODEL_NQ + 1, sizeof *m->qt);   /* + 1: never NULL for none */
    m->qrange = calloc(2 * m->nqt + 1, sizeof *m->qrange);
    if (!m->qt || !m->qrange)
        return nr_error_set(err, NR_E_NOMEM, "out of memory planning latency quantiles");
    for (size_t g = 0; g < ng; g++)
        if (m->qt_of[g] && plan_targets(m, g, &m->qt[(m->qt_of[g] - 1) * NR_MODEL_NQ]) < 0)
            return nr_error_set(err, NR_E_NOMEM, "out of memory planning latency quantiles");
    update_group_ranges(m);
    nr_loghist reads;
    if (m->lat[NR_LAT_READ * m->lat_slots].count > 0 && nr_model_latency_hist(&m->lat[NR_LAT_READ * m->lat_slots], &reads))
        NR_TRY(nr_cache_split_compute(&reads, &m->split));
    return 0;
}

static void collect_value(nr__qtarget *t, int64_t v)
{
    for (int q = 0; q < NR_MODEL_NQ; q++, t++) {
        if (t->mode == NR__Q_DONE || v < t->lo || v > t->hi)
            continue;
        if (t->mode == NR__Q_COLLECT) {
            if (t->n < t->inrange)   /* always true unless the store changed between passes */
                t->vals[t->n++] = v;
        } else {
            t->sub[((uint64_t)v - (uint64_t)t->lo) / t->width]++;
        }
    }
}

void nr__latency_slow_bytes(nr_model *m, const nr__event *e)
{
    if (!timed(e) || e->lat_op != NR_LAT_READ || e->bytes <= 0)
        return;
    m->read_bytes_timed += (uint64_t)e->bytes;
    if (m->split.found && e->dur >= m->split.threshold_ns)
        m->slow_read_bytes += (uint64_t)e->bytes;
}

static void collect_group(nr_model *m, size_t g, int64_t v)
{
    const size_t k = m->qt_of[g];   /* 1 + its targets' index, 0 none */
    if (k && v >= m->qrange[2 * k - 2] && v <= m->qrange[2 * k - 1])
        collect_value(&m->qt[(k - 1) * NR_MODEL_NQ], v);
}

int nr__latency_collect(nr_model *m, const nr__event *e)
{
    if (sized_read(m, e))
        collect_group(m, read_size_group(m), e->bytes > 0 ? e->bytes : 0);
    if (!timed(e))
        return 0;
    size_t g[6];
    const int ng = event_groups(m, e, 0, g);   /* < 0: no group (the store changed), caught as such */
    for (int i = 0; i < ng; i++)
        collect_group(m, g[i], e->dur);
    if (m->lat_folded && ng == 6 && e->lat_op == NR_LAT_READ && m->phase_folded[e->phase])
        collect_group(m, read_size_group(m) + m->lat_folded, e->dur);   /* a job file's read of a folded phase */
    return 0;
}


/* After a pass: a collected range gives the value by sorting; a refined one
 * narrows to the sub-bin holding the rank. Returns 1 if a target needs another pass. */
static int step_target(nr__qtarget *t, int *again, nr_error *err)
{
    const uint64_t k = t->rank - t->below;   /* rank within [lo, hi], 1-based */
    if (t->mode == NR__Q_COLLECT) {
        if (t->n != t->inrange || k < 1 || k > t->n)
            return nr_error_set(err, NR_E_FORMAT, "table events changed between passes");
        qsort(t->vals, t->n, sizeof *t->vals, cmp_i64);
        t->value = t->vals[k - 1];
        t->mode = NR__Q_DONE;
        free(t->vals);
        t->vals = NULL;
        return 0;
    }
    uint64_t cum = 0;
    size_t s = 0;
    while (s < NSUB - 1 && cum + t->sub[s] < k)
        cum += t->sub[s++];
    if (cum + t->sub[s] < k)
        return nr_error_set(err, NR_E_FORMAT, "table events changed between passes");
    t->below += cum;
    t->inrange = t->sub[s];
    const int64_t lo = (int64_t)((uint64_t)t->lo + s * t->width);
    const uint64_t room = (uint64_t)t->hi - (uint64_t)lo;
    t->hi = room >= t->width ? (int64_t)((uint64_t)lo + t->width - 1) : t->hi;
    t->lo = lo;
    NR_TRY(arm(t));
    *again |= t->mode != NR__Q_DONE;
    return 0;
}

int nr__latency_step(nr_model *m, nr_error *err)
{
    int again = 0;
    const size_t nt = m->nqt * NR_MODEL_NQ;
    for (size_t i = 0; i < nt; i++) {
        nr__qtarget *t = &m->qt[i];
        if (t->rank && t->mode != NR__Q_DONE)
            NR_TRY(step_target(t, &again, err));
    }
    update_group_ranges(m);
    return again;
}

/* The filter that reproduces group g (for the reference path). */
static nr__filter filter_of(const nr_model *m, size_t g)
{
    nr__filter f = {.lat_op = NR_LAT_READ, .value_bytes = 0, .phase = -1, .role = -1, .fs = -1};
    const nr__lat_phase_key *k = phase_key(m, g);
    if (k) {
        f.lat_op = k->lat_op;
        f.phase = k->phase == NR__PHASE_FOLDED ? -1 : (long)k->phase;
        f.folded = k->phase == NR__PHASE_FOLDED;
        f.job = k->job;
        return f;
    }
    if (g == read_size_group(m)) {
        f.value_bytes = 1;
        return f;
    }
    f.lat_op = (int)(g / m->lat_slots);
    const size_t slot = g % m->lat_slots;
    if (slot == nr__lat_slot_job(m))
        f.job = 1;
    else if (slot >= nr__lat_slot_fs(m, 0))
        f.fs = (int)(slot - nr__lat_slot_fs(m, 0));
    else if (slot >= nr__lat_slot_role(m, 0))
        f.role = (int)(slot - nr__lat_slot_role(m, 0));
    return f;
}

int nr__latency_finish(nr_model *m, const nr_store *s, nr_error *err)
{
    const size_t ng = ngroups(m);
    for (size_t g = 0; g < ng; g++) {   /* a mirror's "all" group (all_of < g) is answered before it */
        nr_model_latency *l = group(m, g);
        if (mirrors_all(m, g)) {
            memcpy(l->q_ns, group(m, all_of(m, g))->q_ns, sizeof l->q_ns);
        } else if (m->fine_overflow[g]) {
            const nr__filter f = filter_of(m, g);
            uint64_t count;
            NR_TRY(nr__quantiles_filtered(m, s, &f, l->q_ns, &count, err));
        } else if (m->qt_of[g]) {
            const nr__qtarget *t = &m->qt[(m->qt_of[g] - 1) * NR_MODEL_NQ];
            for (int q = 0; q < NR_MODEL_NQ; q++)
                l->q_ns[q] = t[q].value;
        }   /* else no value (-1) or answered by its sort (plan_groups) */
        l->mean_s = l->count ? l->mean_s / (double)l->count * (g == read_size_group(m) ? 1.0 : 1e-9) : NAN;
    }
    m->access.sized_reads = m->read_size.count;
    m->access.median_read_size = m->read_size.count ? (uint64_t)m->read_size.q_ns[0] : 0;
    if (m->split.found)
        nr_cache_split_bytes(&m->split, m->slow_read_bytes, m->read_bytes_timed);
    return 0;
}

/* ---- a filtered value source over the store (reference path) ---------- */

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
        return sized_read(src->m, e);
    return timed(e) && e->lat_op == f->lat_op && (f->phase < 0 || e->phase == (size_t)f->phase) &&
           (f->role < 0 || e->role == f->role) && (f->fs < 0 || e->fs == f->fs) &&
           (!f->folded || (src->m->phase_folded && src->m->phase_folded[e->phase])) &&
           (!f->job || !runtime_call(src->m, e));
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
        nr__ahead_start(&src.r, m->opts.threads);
        src.ngroups = nr_store_table_rowgroups(src.r.t);
        const nr_value_source vs = {.ctx = &src, .rewind = fs_rewind, .next = fs_next};
        nr__pid_cache_reset(m);
        rc = nr_quantiles_exact(&vs, nr_model_quantiles, NR_MODEL_NQ, out, count, err);
    }
    nr__reader_close(&src.r);
    free(src.buf);
    return rc;
}
