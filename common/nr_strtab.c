/* nr_strtab: open addressing with linear probing at load at most one half.
 * A slot holds the string's full hash and its record in the arena - the
 * length and id, then the bytes - so that a probe passes other strings
 * without reading them, and a lookup in a big table costs the miss on the
 * slot (which nr_strtab_prefetch can take early) and at most one on the
 * record, never one on the entries array. */
#include "nr_strtab.h"
#include "nr_error.h"
#include "nr_reserve.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t a, uint64_t b)
{
    __uint128_t r = (__uint128_t)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static uint64_t read64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static uint64_t read32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

uint64_t nr_hash_bytes(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xa0761d6478bd642full);
    uint64_t a, b;
    if (n > 16) {
        size_t i = n;
        for (; i > 16; i -= 16, p += 16)
            h = mix(read64(p) ^ 0xe7037ed1a0b428dbull, read64(p + 8) ^ h);
        a = read64(p + i - 16); /* the last 16 bytes, overlapping the ones mixed */
        b = read64(p + i - 8);
    } else if (n >= 8) {
        a = read64(p);
        b = read64(p + n - 8);
    } else if (n >= 4) {
        a = read32(p);
        b = read32(p + n - 4);
    } else {
        a = n ? (uint64_t)p[0] | (uint64_t)p[n >> 1] << 8 | (uint64_t)p[n - 1] << 16 : 0;
        b = 0;
    }
    h = mix(a ^ 0x8ebc6af09c88c6e3ull, b ^ h);
    return mix(h, 0x589965cc75374cc3ull);
}

void nr_strtab_init(nr_strtab *t)
{
    memset(t, 0, sizeof *t);
    nr_arena_init(&t->arena);
}

void nr_strtab_fini(nr_strtab *t)
{
    nr_arena_fini(&t->arena);
    free(t->entries);
    free(t->slots);
    nr_strtab_init(t);
}

void nr_strtab_reset(nr_strtab *t)
{
    nr_arena_fini(&t->arena);
    t->count = t->indexed = 0;
    if (t->slots)
        memset(t->slots, 0, t->nslots * sizeof *t->slots);
}

static int64_t lookup(const nr_strtab *t, const char *s, size_t n, uint64_t h, size_t *slot_out)
{
    size_t mask = t->nslots - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        const struct nr_strtab_slot *sl = &t->slots[i];
        if (!sl->rec) {
            *slot_out = i;
            return -1;
        }
        if (sl->hash == h && nr__strtab_rec_len(sl->rec) == n && memcmp(sl->rec + NR__STRTAB_REC_HEAD, s, n) == 0)
            return nr__strtab_rec_id(sl->rec);
    }
}

/* Zeroed slots. A table of 1 MB and more (65536 slots; the path table of
 * the 1 GB log has 512 k) is in transparent huge pages (nr_alloc_dense,
 * while they pay): a lookup is one random slot read, which with 4 kB pages
 * also misses the TLB (docs/performance.md, session 5: the lookups' share
 * of the samples 16% lower). Freed by free(). */
static struct nr_strtab_slot *slots_alloc(size_t nslots)
{
    const size_t bytes = nslots * sizeof(struct nr_strtab_slot);
    void *p = nr_alloc_dense(bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

/* Puts e into slots (mask + 1 of them, one free at least). */
static void slot_in(struct nr_strtab_slot *slots, size_t mask, const struct nr_strtab_entry *e)
{
    size_t i = e->hash & mask;
    while (slots[i].rec)
        i = (i + 1) & mask;
    slots[i] = (struct nr_strtab_slot){e->hash, e->str - NR__STRTAB_REC_HEAD};
}

static int rehash(nr_strtab *t, size_t nslots)
{
    struct nr_strtab_slot *slots = slots_alloc(nslots);
    if (!slots)
        return NR_E_NOMEM;
    for (size_t id = 0; id < t->count; id++)
        slot_in(slots, nslots - 1, &t->entries[id]);
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    t->indexed = t->count;
    return 0;
}

/* The pushed strings into the slot table (hashed now), grown first to the
 * size that interning them one by one would have reached, with room for
 * the string being interned (so that nr_strtab_intern_hashed does not
 * rehash again right after). */
static int index_pushed(nr_strtab *t)
{
    for (size_t id = t->indexed; id < t->count; id++)
        t->entries[id].hash = nr_hash_bytes(t->entries[id].str, t->entries[id].len);
    size_t nslots = t->nslots ? t->nslots : 64;
    while ((t->count + 1) * 2 > nslots)
        nslots *= 2;
    if (nslots != t->nslots)
        return rehash(t, nslots);
    for (; t->indexed < t->count; t->indexed++)
        slot_in(t->slots, t->nslots - 1, &t->entries[t->indexed]);
    return 0;
}

int64_t nr_strtab_find(const nr_strtab *t, const char *s, size_t n)
{
    return nr_strtab_find_hashed(t, s, n, nr_hash_bytes(s, n));
}

int64_t nr_strtab_find_hashed(const nr_strtab *t, const char *s, size_t n, uint64_t h)
{
    int64_t id = -1;
    size_t slot;
    if (t->nslots)
        id = lookup(t, s, n, h, &slot);
    for (size_t i = t->indexed; id < 0 && i < t->count; i++)
        if (t->entries[i].len == n && memcmp(t->entries[i].str, s, n) == 0)
            id = (int64_t)i;
    return id;
}

/* Hints that the slot table and the entry array will grow (nr_reserve):
 * a quarter of the way before either does, so that a helper thread has
 * faulted the new one in by then (the table of a big log's paths grows to
 * 8 MB, its entries to 6 MB). A table that stops growing before its next
 * growth leaves nothing expected: its last 1/8 of slots and 1/4 of entries
 * are not hinted. */
static void expect_growth(const nr_strtab *t)
{
    if ((t->count + 1) * 8 == t->nslots * 3)
        nr_reserve_expect(2 * t->nslots * sizeof *t->slots);
    if ((t->count + 1) * 4 == t->cap * 3)
        nr_reserve_expect(2 * t->cap * sizeof *t->entries);
}

/* Copies (s, n) into a record and entry id t->count (the caller counts
 * it): the record, or NULL when out of memory. */
static const char *add_entry(nr_strtab *t, const char *s, size_t n, uint64_t h)
{
    if (NR_GROW(t->entries, t->cap, t->count + 1) < 0)
        return NULL;
    char *rec = nr_arena_alloc(&t->arena, NR__STRTAB_REC_HEAD + n + 1);
    if (!rec)
        return NULL;
    uint32_t head[2] = {(uint32_t)n, (uint32_t)t->count};
    memcpy(rec, head, sizeof head);
    memcpy(rec + NR__STRTAB_REC_HEAD, s, n);
    rec[NR__STRTAB_REC_HEAD + n] = '\0';
    t->entries[t->count] = (struct nr_strtab_entry){.str = rec + NR__STRTAB_REC_HEAD, .hash = h, .len = (uint32_t)n};
    expect_growth(t);
    return rec;
}

int64_t nr_strtab_intern_hashed(nr_strtab *t, const char *s, size_t n, uint64_t h)
{
    if (n > UINT32_MAX || t->count >= UINT32_MAX - 1)
        return NR_E_LIMIT;
    if (t->indexed < t->count)
        NR_TRY(index_pushed(t));
    if (t->nslots == 0 || (t->count + 1) * 2 > t->nslots)
        NR_TRY(rehash(t, t->nslots ? t->nslots * 2 : 64));
    size_t slot;
    int64_t id = lookup(t, s, n, h, &slot);
    if (id >= 0)
        return id;
    const char *rec = add_entry(t, s, n, h);
    if (!rec)
        return NR_E_NOMEM;
    t->slots[slot] = (struct nr_strtab_slot){h, rec};
    t->indexed++;
    return (int64_t)t->count++;
}

int64_t nr_strtab_push(nr_strtab *t, const char *s, size_t n)
{
    if (n > UINT32_MAX || t->count >= UINT32_MAX - 1)
        return NR_E_LIMIT;
    if (!add_entry(t, s, n, 0)) /* hashed when indexed (index_pushed) */
        return NR_E_NOMEM;
    return (int64_t)t->count++;
}

int64_t nr_strtab_intern(nr_strtab *t, const char *s, size_t n)
{
    return nr_strtab_intern_hashed(t, s, n, nr_hash_bytes(s, n));
}
