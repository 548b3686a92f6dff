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
 * Memory: one open piece per phase and the closed pieces that may still
 * count, pruned when the largest piece has grown; never every call. */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

typedef struct piece {
    int64_t start, end;      /* first call's start, latest call end */
    uint64_t bytes, calls;
    uint64_t bytes0, calls0; /* the phase's write bytes and calls before the piece */
    size_t phase;
} piece;

struct nr__burst_state {
    piece *open;             /* [nphases]: the open piece of each phase (calls == 0: none) */
    uint64_t *bytes, *calls; /* [nphases]: the phase's write bytes and calls so far */
    piece *kept;             /* closed pieces that count so far */
    size_t nkept, cap;
    uint64_t largest;        /* bytes of the largest piece closed so far */
};

void nr__bursts_free_state(nr_model *m)
{
    nr__burst_state *st = m->burst_state;
    if (!st)
        return;
    free(st->open);
    free(st->bytes);
    free(st->calls);
    free(st->kept);
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

/* Drops the kept pieces that no longer count (the largest grew). */
static void prune(nr__burst_state *st)
{
    const double min = threshold(st->largest);
    size_t n = 0;
    for (size_t i = 0; i < st->nkept; i++)
        if ((double)st->kept[i].bytes >= min)
            st->kept[n++] = st->kept[i];
    st->nkept = n;
}

/* Closes a piece: it raises the largest, and is kept while it may count. */
static int close_piece(nr__burst_state *st, const piece *p)
{
    if (p->bytes > st->largest)
        st->largest = p->bytes;
    if ((double)p->bytes < threshold(st->largest))
        return 0;
    if (st->nkept == st->cap) {
        prune(st);   /* before growing: the largest may have grown since */
        if ((double)p->bytes < threshold(st->largest))
            return 0;
    }
    NR_TRY(NR_GROW(st->kept, st->cap, st->nkept + 1));
    st->kept[st->nkept++] = *p;
    return 0;
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
        NR_TRY(close_piece(st, p));
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

/* Kept pieces by phase, then in the order they were made (bytes0 grows
 * with each piece of a phase): a total order, so that the bursts do not
 * depend on qsort, and the one the bytes between pieces are counted in. */
static int cmp_piece(const void *a, const void *b)
{
    const piece *x = a, *y = b;
    if (x->phase != y->phase)
        return x->phase < y->phase ? -1 : 1;
    return (x->bytes0 > y->bytes0) - (x->bytes0 < y->bytes0);
}

static int cmp_burst(const void *a, const void *b)
{
    const nr_model_burst *x = a, *y = b;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return (x->phase > y->phase) - (x->phase < y->phase);
}

/* The burst of counted pieces first..last (one phase): its bytes and calls
 * are the phase's from first's start to last's end, the pieces between
 * that did not count included. */
static nr_model_burst burst_of(const piece *first, const piece *last, int64_t end)
{
    nr_model_burst b = {.start_ns = first->start, .end_ns = end, .phase = first->phase};
    b.bytes = last->bytes0 + last->bytes - first->bytes0;
    b.calls = last->calls0 + last->calls - first->calls0;
    b.duration_s = (double)(end - first->start) * 1e-9;
    b.mean_rate = b.duration_s > 0 ? (double)b.bytes / b.duration_s : NAN;
    b.interval_s = NAN;
    return b;
}

/* Merges the counted pieces (sorted by cmp_piece) into bursts. A piece
 * that starts before the previous one (the times of logs processed one
 * after the other, docs/definitions.md "Order") is never merged with it. */
static int merge_pieces(nr_model *m, const piece *v, size_t n)
{
    size_t cap = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        int64_t end = v[i].end;
        while (j + 1 < n && v[j + 1].phase == v[i].phase && v[j + 1].start >= v[j].start &&
               v[j + 1].start - end <= NR_BURST_MERGE_NS) {
            j++;
            end = v[j].end > end ? v[j].end : end;
        }
        NR_TRY(NR_GROW(m->bursts, cap, m->nbursts + 1));
        m->bursts[m->nbursts++] = burst_of(&v[i], &v[j], end);
        i = j + 1;
    }
    return 0;
}

int nr__bursts_finish(nr_model *m)
{
    nr__burst_state *st = m->burst_state;
    if (!st)
        return 0;   /* no write call with a timestamp */
    int rc = 0;
    for (size_t p = 0; p < m->nphases && rc == 0; p++)
        if (st->open[p].calls > 0)
            rc = close_piece(st, &st->open[p]);
    if (rc == 0) {
        prune(st);
        qsort(st->kept, st->nkept, sizeof *st->kept, cmp_piece);
        rc = merge_pieces(m, st->kept, st->nkept);
    }
    nr__bursts_free_state(m);
    NR_TRY(rc);
    qsort(m->bursts, m->nbursts, sizeof *m->bursts, cmp_burst);
    for (size_t i = 1; i < m->nbursts; i++)
        m->bursts[i].interval_s = (double)(m->bursts[i].start_ns - m->bursts[i - 1].start_ns) * 1e-9;
    return 0;
}
