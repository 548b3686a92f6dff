/* Darshan's "most common access sizes", exact, in memory bounded by
 * NR__SIZE_SLOTS whatever the number of distinct sizes: pass 1 keeps a
 * Misra-Gries summary (every size of more than 1 / (NR__SIZE_SLOTS + 1) of
 * the calls survives in it), pass 2 counts the survivors exactly, and the
 * summary's rounds bound what any other size can have. Darshan itself
 * keeps four approximate counters per file and merges them. */
#include <string.h>

#include "model_internal.h"

static size_t home_of(int64_t size)
{
    uint64_t h = (uint64_t)size * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 32) & (2 * NR__SIZE_SLOTS - 1);
}

/* The slot holding size, or -1. */
static long find_slot(const nr__size_counts *c, int64_t size)
{
    for (size_t i = home_of(size);; i = (i + 1) & (2 * NR__SIZE_SLOTS - 1)) {
        const uint16_t at = c->index[i];
        if (at == 0)
            return -1;
        if (c->size[at - 1] == size)
            return at - 1;
    }
}

static void index_slot(nr__size_counts *c, size_t slot)
{
    size_t i = home_of(c->size[slot]);
    while (c->index[i])
        i = (i + 1) & (2 * NR__SIZE_SLOTS - 1);
    c->index[i] = (uint16_t)(slot + 1);
}

/* Misra-Gries' round: every counter down by one (the new size's one with
 * them, so it takes no slot); the slots that reach 0 are freed. */
static void lower_every_counter(nr__size_counts *c)
{
    size_t kept = 0;
    for (size_t s = 0; s < c->n; s++) {
        if (--c->count[s][0] == 0)
            continue;
        c->size[kept] = c->size[s];
        c->count[kept][0] = c->count[s][0];
        kept++;
    }
    c->n = kept;
    c->last = 0;
    memset(c->index, 0, sizeof c->index);
    for (size_t s = 0; s < kept; s++)
        index_slot(c, s);
    c->decrements++;
}

/* The slot holding size, or -1; the last size's slot first (sizes come in
 * runs), and a slot found becomes the last. */
static long slot_of(nr__size_counts *c, int64_t size)
{
    if (c->n && c->size[c->last] == size)
        return (long)c->last;
    const long slot = find_slot(c, size);
    if (slot >= 0)
        c->last = (size_t)slot;
    return slot;
}

void nr__sizes_offer(nr__size_counts *c, int64_t size)
{
    c->offered++;
    const long slot = slot_of(c, size);
    if (slot >= 0) {
        c->count[slot][0]++;
    } else if (c->n < NR__SIZE_SLOTS) {
        c->size[c->n] = size;
        c->count[c->n][0] = 1;
        index_slot(c, c->n);
        c->last = c->n++;
    } else {
        lower_every_counter(c);
    }
}

void nr__sizes_plan(nr__size_counts *c)
{
    memset(c->count, 0, sizeof c->count);
}

void nr__sizes_count(nr__size_counts *c, int64_t size, int w)
{
    const long slot = slot_of(c, size);
    if (slot >= 0)
        c->count[slot][w]++;
}

/* Whether slot a ranks before slot b: more calls, then the smaller size. */
static int ranks_before(const nr__size_counts *c, size_t a, size_t b)
{
    const uint64_t ca = c->count[a][0] + c->count[a][1], cb = c->count[b][0] + c->count[b][1];
    return ca != cb ? ca > cb : c->size[a] < c->size[b];
}

void nr__sizes_finish(const nr__size_counts *c, nr_model_common_sizes *out)
{
    memset(out, 0, sizeof *out);
    size_t top[NR_COMMON_SIZES];
    for (size_t s = 0; s < c->n; s++) { /* an insertion into the short ranked list */
        size_t at = out->n < NR_COMMON_SIZES ? out->n++ : NR_COMMON_SIZES;
        while (at > 0 && ranks_before(c, s, top[at - 1])) {
            if (at < NR_COMMON_SIZES)
                top[at] = top[at - 1];
            at--;
        }
        if (at < NR_COMMON_SIZES)
            top[at] = s;
    }
    for (size_t k = 0; k < out->n; k++)
        out->top[k] = (nr_model_common_size){(uint64_t)c->size[top[k]], c->count[top[k]][0], c->count[top[k]][1]};
    out->calls = c->offered;
    out->unlisted_at_most = c->decrements;
    out->exact = c->decrements == 0 || nr_common_size_certain(out, out->n - 1);
}
