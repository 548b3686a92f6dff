/* Write bursts, found and measured from the write calls themselves, never
 * from the timeline's bins (docs/definitions.md, "Write bursts").
 *
 * 1. Pieces: the successful regular-file write calls of each phase, in the
 *    events' order; a call joins its phase's open piece when it starts at
 *    most NR_BURST_JOIN_NS after the piece's latest end and ends at most
 *    that before its start (a resumed call logged late), else it opens a
 *    new piece.
 * 2. A piece counts when it wrote at least NR_BURST_SHARE of the bytes of
 *    the run's largest piece, and at least NR_BURST_MIN_BYTES.
 * 3. Counted pieces of one phase at most NR_BURST_MERGE_NS apart are one
 *    burst: from the first one's start to the last one's end, with every
 *    write call of the phase that started in between.
 *
 * Until session 42 bursts were runs of timeline bins above 10% of the
 * busiest bin and 1 MiB/s: a burst lasted whole bins (20 or 50 ms for a
 * 1.4 ms checkpoint), its peak was bytes / bin width (so it followed the
 * run's length), and of three identical 19 KB checkpoints only the one
 * whose bin also held other writes passed the floor.
 *
 * Which pieces count depends on the run's largest piece, known only at
 * the end, so the pieces are made twice: pass 1 finds the largest
 * (nr__bursts_add, nr__bursts_plan), pass 2 makes them again and merges
 * those that count as they close (nr__bursts_add, nr__bursts_finish).
 * Memory: one open piece and one open burst per phase, the sums of every
 * burst, and at most NR_BURSTS_LISTED bursts listed (the largest); never
 * every call, piece or burst (a trickle of large writes 200 ms apart is a
 * piece and a burst each, and kept until the end they grew with the
 * events: issue 7, memory bounded by files and processes). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_stats.h"
#include "model_internal.h"

typedef struct piece {
    int64_t start, end;      /* first call's start, latest call end */
    uint64_t bytes, calls;
    uint64_t bytes0, calls0; /* the phase's write bytes and calls before the piece */
    size_t phase;
} piece;

/* The counted pieces of one phase merged so far (pass 2): first and last. */
typedef struct open_burst {
    piece first, last;
    int64_t end;             /* the latest end of their calls */
    int active;
} open_burst;

struct nr__burst_state {
    int pass;                /* 1: find the largest piece; 2: make the bursts */
    piece *open;             /* [nphases]: the open piece of each phase (calls == 0: none) */
    uint64_t *bytes, *calls; /* [nphases]: the phase's write bytes and calls so far */
    open_burst *bursts;      /* [nphases], pass 2 */
    uint64_t largest;        /* bytes of the largest piece closed so far (pass 1), of all (pass 2) */
};

void nr__bursts_free_state(nr_model *m)
{
    nr__burst_state *st = m->burst_state;
    if (!st)
        return;
    free(st->open);
    free(st->bytes);
    free(st->calls);
    free(st->bursts);
    free(st);
    m->burst_state = NULL;
}

static int state_of(nr_model *m, nr__burst_state **out)
{
    if (!m->burst_state) {
        nr__burst_state *st = calloc(1, sizeof *st);
        if (!st)
            return NR_E_NOMEM;
        m->burst_state = st;
        st->pass = 1;
        st->open = calloc(m->nphases, sizeof *st->open);
        st->bytes = calloc(m->nphases, sizeof *st->bytes);
        st->calls = calloc(m->nphases, sizeof *st->calls);
        if (!st->open || !st->bytes || !st->calls)
            return NR_E_NOMEM;
    }
    *out = m->burst_state;
    return 0;
}

/* The bytes a piece needs to count, given the largest piece. */
static double threshold(uint64_t largest)
{
    const double share = NR_BURST_SHARE * (double)largest;
    return share > NR_BURST_MIN_BYTES ? share : NR_BURST_MIN_BYTES;
}

/* The burst of counted pieces first..last (one phase): its bytes and calls
 * are the phase's from first's start to last's end, the pieces between
 * that did not count included. With whole-second stamps (strace -t) the
 * calls of one second share a stamp, so a span measures nothing: no
 * duration and no rate (until session 47, 20 MiB written in one second
 * were "20 MiB in 100 us, 195 GiB/s": the last call's -T duration). */
static nr_model_burst burst_of(const piece *first, const piece *last, int64_t end, int whole_seconds)
{
    nr_model_burst b = {.start_ns = first->start, .end_ns = end, .phase = first->phase};
    b.bytes = last->bytes0 + last->bytes - first->bytes0;
    b.calls = last->calls0 + last->calls - first->calls0;
    b.duration_s = whole_seconds ? NAN : (double)(end - first->start) * 1e-9;
    b.mean_rate = b.duration_s > 0 ? (double)b.bytes / b.duration_s : NAN;
    b.interval_s = NAN;
    return b;
}

/* A fixed pseudo-random rank of burst b among bursts of its size (the
 * first draw of the model's splitmix64, seeded by its start and phase):
 * equal bursts beyond the list's room are dropped by it, so that those
 * listed spread over the whole run, a sample, where ranking by start kept
 * the first 1,000 of a periodic writer's and the list ended a fraction
 * into the run. */
static uint64_t tie_rank(const nr_model_burst *b)
{
    nr_rng r;
    nr_rng_seed(&r, (uint64_t)b->start_ns ^ (uint64_t)b->phase * UINT64_C(0x9E3779B97F4A7C15));
    return nr_rng_next(&r);
}

/* Whether burst x lists before y when not all can be: the larger; of equal
 * ones the lower tie_rank (then the earlier, then the lower phase). */
static int ranks_above(const nr_model_burst *x, const nr_model_burst *y)
{
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes;
    const uint64_t rx = tie_rank(x), ry = tie_rank(y);
    if (rx != ry)
        return rx < ry;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns;
    return x->phase < y->phase;
}

/* Sifts heap slot i down: m->bursts is a min-heap by ranks_above (the
 * burst that lists last on top) while the bursts are made. */
static void sift_down(nr_model_burst *h, size_t n, size_t i)
{
    for (;;) {
        size_t low = i;
        const size_t l = 2 * i + 1, r = l + 1;
        if (l < n && ranks_above(&h[low], &h[l]))
            low = l;
        if (r < n && ranks_above(&h[low], &h[r]))
            low = r;
        if (low == i)
            return;
        const nr_model_burst t = h[i];
        h[i] = h[low];
        h[low] = t;
        i = low;
    }
}

static void sift_up(nr_model_burst *h, size_t i)
{
    while (i > 0 && ranks_above(&h[(i - 1) / 2], &h[i])) {
        const nr_model_burst t = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

/* Counts b in the sums, and lists it when it ranks among the
 * NR_BURSTS_LISTED largest so far. */
static void keep_burst(nr_model *m, const nr_model_burst *b)
{
    nr_model_burst_totals *t = &m->burst_totals;
    t->count++;
    t->bytes += b->bytes;
    t->calls += b->calls;
    if (isfinite(b->duration_s)) {
        t->time_s += b->duration_s;
        m->burst_phase_time_s[b->phase] += b->duration_s;
    } else {
        t->time_s = NAN;
        m->burst_phase_time_s[b->phase] = NAN;
    }
    if (isfinite(b->mean_rate) && !(b->mean_rate <= t->highest_rate))
        t->highest_rate = b->mean_rate;
    m->burst_phase_count[b->phase]++;
    if (m->nbursts < NR_BURSTS_LISTED) {
        m->bursts[m->nbursts] = *b;
        sift_up(m->bursts, m->nbursts++);
    } else if (ranks_above(b, &m->bursts[0])) {
        m->bursts[0] = *b;
        sift_down(m->bursts, m->nbursts, 0);
    }
}

static void emit_burst(nr_model *m, open_burst *o)
{
    if (!o->active)
        return;
    const nr_model_burst b = burst_of(&o->first, &o->last, o->end, nr__whole_second_stamps(m));
    keep_burst(m, &b);
    o->active = 0;
}

/* Pass 2: a counted piece joins its phase's open burst when it starts at
 * most NR_BURST_MERGE_NS after the burst's latest end, and not before the
 * burst's last piece (the times of logs processed one after the other,
 * docs/definitions.md "Order", are never merged); else the burst is done
 * and the piece opens the next. Pieces close in the order they were made
 * within a phase. */
static int merge_piece(nr_model *m, nr__burst_state *st, const piece *p)
{
    open_burst *o = &st->bursts[p->phase];
    if (o->active && p->start >= o->last.start && p->start - o->end <= NR_BURST_MERGE_NS) {
        o->last = *p;
        o->end = p->end > o->end ? p->end : o->end;
        return 0;
    }
    emit_burst(m, o);
    *o = (open_burst){.first = *p, .last = *p, .end = p->end, .active = 1};
    return 0;
}

/* Closes a piece: pass 1 raises the largest; pass 2 merges it when it counts. */
static int close_piece(nr_model *m, nr__burst_state *st, const piece *p)
{
    if (st->pass == 1) {
        if (p->bytes > st->largest)
            st->largest = p->bytes;
        return 0;
    }
    return (double)p->bytes >= threshold(st->largest) ? merge_piece(m, st, p) : 0;
}

int nr__bursts_add(nr_model *m, const nr__event *e)
{
    if (e->op != NR_OP_WRITE || e->reg < 0 || e->ts < 0 || e->bytes <= 0 || (e->flags & NR_EVF_NEVER_RESUMED))
        return 0;
    nr__burst_state *st;
    NR_TRY(state_of(m, &st));
    const int64_t end = e->dur > 0 ? e->ts + e->dur : e->ts;   /* no -T: the call's start */
    piece *p = &st->open[e->phase];
    /* the events come in time order, except a resumed call's, logged at
       its <... resumed> line with the start of its <unfinished ...> line:
       a call that started before the piece joins it when it reaches to
       within the gap of the piece's start (a long write of another thread) */
    const int joins = p->calls > 0 && e->ts <= p->end + NR_BURST_JOIN_NS && end >= p->start - NR_BURST_JOIN_NS;
    if (p->calls > 0 && !joins) {
        NR_TRY(close_piece(m, st, p));
        p->calls = 0;
    }
    if (p->calls == 0)
        *p = (piece){.start = e->ts, .end = end, .bytes0 = st->bytes[e->phase], .calls0 = st->calls[e->phase],
                     .phase = e->phase};
    p->start = e->ts < p->start ? e->ts : p->start;
    p->end = end > p->end ? end : p->end;
    p->bytes += (uint64_t)e->bytes;
    p->calls++;
    st->bytes[e->phase] += (uint64_t)e->bytes;
    st->calls[e->phase]++;
    return 0;
}

static int cmp_burst(const void *a, const void *b)
{
    const nr_model_burst *x = a, *y = b;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return (x->phase > y->phase) - (x->phase < y->phase);
}

/* Closes the pieces still open, in phase order. */
static int close_open_pieces(nr_model *m, nr__burst_state *st)
{
    for (size_t p = 0; p < m->nphases; p++)
        if (st->open[p].calls > 0) {
            NR_TRY(close_piece(m, st, &st->open[p]));
            st->open[p].calls = 0;
        }
    return 0;
}

int nr__bursts_plan(nr_model *m)
{
    nr__burst_state *st = m->burst_state;
    if (!st)
        return 0;   /* no write call with a timestamp */
    NR_TRY(close_open_pieces(m, st));
    if ((double)st->largest < threshold(0)) {
        nr__bursts_free_state(m);   /* no piece can count: pass 2 has nothing to do */
        return 0;
    }
    memset(st->bytes, 0, m->nphases * sizeof *st->bytes);
    memset(st->calls, 0, m->nphases * sizeof *st->calls);
    st->bursts = calloc(m->nphases, sizeof *st->bursts);
    m->bursts = malloc(NR_BURSTS_LISTED * sizeof *m->bursts);
    m->burst_phase_time_s = calloc(m->nphases, sizeof *m->burst_phase_time_s);
    m->burst_phase_count = calloc(m->nphases, sizeof *m->burst_phase_count);
    if (!st->bursts || !m->bursts || !m->burst_phase_time_s || !m->burst_phase_count)
        return NR_E_NOMEM;
    st->pass = 2;
    return 0;
}

int nr__bursts_want_pass2(const nr_model *m) { return m->burst_state != NULL; }

int nr__bursts_finish(nr_model *m)
{
    nr__burst_state *st = m->burst_state;
    if (!st)
        return 0;
    int rc = close_open_pieces(m, st);
    for (size_t p = 0; p < m->nphases && rc == 0; p++)
        emit_burst(m, &st->bursts[p]);
    nr__bursts_free_state(m);
    NR_TRY(rc);
    if (m->nbursts > 1) /* none: bursts may be NULL */
        qsort(m->bursts, m->nbursts, sizeof *m->bursts, cmp_burst);
    for (size_t i = 1; i < m->nbursts; i++)
        m->bursts[i].interval_s = (double)(m->bursts[i].start_ns - m->bursts[i - 1].start_ns) * 1e-9;
    return 0;
}
