/* nr_strtab: interns byte strings (which may hold any byte but NUL) and gives
 * each a dense id 0, 1, 2, ... in order of first appearance. */
#ifndef NR_STRTAB_H
#define NR_STRTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nr_mem.h"

typedef struct nr_strtab {
    nr_arena arena;      /* owns the copies */
    struct nr_strtab_entry {
        const char *str; /* NUL-terminated copy */
        uint64_t hash;
        uint32_t len;
    } *entries;          /* id -> entry */
    size_t count, cap;
    struct nr_strtab_slot {
        uint64_t hash;
        const char *rec; /* the copy's record (see nr_strtab.c); NULL = empty */
    } *slots;            /* open addressing */
    size_t nslots;
    size_t indexed;      /* entries [0, indexed) are in slots; the rest were pushed (nr_strtab_push) */
} nr_strtab;

void nr_strtab_init(nr_strtab *t);
void nr_strtab_fini(nr_strtab *t);
/* Forgets every string but keeps the memory of the slot table. */
void nr_strtab_reset(nr_strtab *t);

/* Returns the id of (s, n), adding a copy if new; negative NR_E_* on failure. */
int64_t nr_strtab_intern(nr_strtab *t, const char *s, size_t n);
/* nr_strtab_intern when the caller has h = nr_hash_bytes(s, n) already. */
int64_t nr_strtab_intern_hashed(nr_strtab *t, const char *s, size_t n, uint64_t h);
/* Returns the id of (s, n) or -1 when absent. */
int64_t nr_strtab_find(const nr_strtab *t, const char *s, size_t n);
/* nr_strtab_find when the caller has h = nr_hash_bytes(s, n) already. */
int64_t nr_strtab_find_hashed(const nr_strtab *t, const char *s, size_t n, uint64_t h);
/* Adds a copy of (s, n) as the next id without looking it up, for a caller
 * that knows it is not in t (the paths of table files, distinct by
 * construction): its id, or negative NR_E_* on failure. Pushed strings
 * enter the slot table at the next nr_strtab_intern (until then
 * nr_strtab_find reads them one by one, and the prefetch hints miss them). */
int64_t nr_strtab_push(nr_strtab *t, const char *s, size_t n);

/* A hint that a string of hash h is looked up soon: starts loading its slot,
 * so that the cache miss of a big table overlaps the caller's other work. */
static inline void nr_strtab_prefetch(const nr_strtab *t, uint64_t h)
{
    if (t->nslots)
        __builtin_prefetch(&t->slots[h & (t->nslots - 1)]);
}

/* The second step of a two-step hint, some time after nr_strtab_prefetch
 * of h: when h's first slot holds a string of hash h, starts loading that
 * string's record (the lookup's second cache miss). */
static inline void nr_strtab_prefetch_record(const nr_strtab *t, uint64_t h)
{
    if (!t->nslots)
        return;
    const struct nr_strtab_slot *sl = &t->slots[h & (t->nslots - 1)];
    if (sl->hash == h && sl->rec) {
        /* most records (8-byte aligned, a path of 50 bytes) cross into a
           second cache line, which the lookup's compare reads too */
        __builtin_prefetch(sl->rec);
        __builtin_prefetch(sl->rec + 63);
    }
}

/* A string's record: uint32 length, uint32 id, the bytes, NUL (8-byte
 * aligned). Its head is read by lookups and by nr_strtab_peek_id. */
enum { NR__STRTAB_REC_HEAD = 8 };

static inline uint32_t nr__strtab_rec_u32(const char *rec, size_t at)
{
    uint32_t v;
    memcpy(&v, rec + at, sizeof v);
    return v;
}

static inline uint32_t nr__strtab_rec_len(const char *rec) { return nr__strtab_rec_u32(rec, 0); }
static inline uint32_t nr__strtab_rec_id(const char *rec) { return nr__strtab_rec_u32(rec, 4); }

/* The third step, some time after nr_strtab_prefetch_record of h: the id
 * of h's string when h's first slot holds a string of hash h (read from
 * the record's head, which that step loaded), else -1. Only a hint: a
 * different string of the same hash gives its id. */
static inline int64_t nr_strtab_peek_id(const nr_strtab *t, uint64_t h)
{
    if (!t->nslots)
        return -1;
    const struct nr_strtab_slot *sl = &t->slots[h & (t->nslots - 1)];
    if (sl->hash != h || !sl->rec)
        return -1;
    return nr__strtab_rec_id(sl->rec);
}

static inline const char *nr_strtab_str(const nr_strtab *t, size_t id) { return t->entries[id].str; }
static inline size_t nr_strtab_len(const nr_strtab *t, size_t id) { return t->entries[id].len; }

/* 64-bit hash of bytes (wyhash-style mixing, 16 bytes per multiply; stable
 * across runs and hosts). */
uint64_t nr_hash_bytes(const void *p, size_t n);

#endif
