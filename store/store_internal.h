/* store_internal: constants of the on-disk format (store/FORMAT.md) and the
 * helpers shared by the writer and the reader. Not part of the public API. */
#ifndef NR_STORE_INTERNAL_H
#define NR_STORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nr_store.h"

/* File header: magic (8), format version (u32), flags (u32, 0 in v1). */
#define NR__STORE_MAGIC "\x89NIO\r\n\x1a\n"
#define NR__STORE_HEADER_SIZE 16u
/* Trailer: footer length (u64), footer CRC32 (u32), end magic (8). */
#define NR__STORE_END_MAGIC "NIOEND\x1a\n"
#define NR__STORE_TRAILER_SIZE 20u
#define NR__STORE_MAGIC_SIZE 8u

/* Footer entry of one chunk: offset u64, disk u32, raw u32, rows u32, crc u32. */
#define NR__CHUNK_ENTRY_SIZE 24u
/* Limits (FORMAT.md, "Limits"). */
#define NR__STORE_MAX_NAME 255u
#define NR__STORE_MAX_CHUNK_RAW (1u << 30)
/* A zstd block (at most 128 KiB of content) takes at least 4 bytes on disk
 * (3-byte header + 1 RLE byte), so no frame expands more than 32768-fold. */
#define NR__ZSTD_MAX_RATIO 32768u

static inline void nr__put_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void nr__put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void nr__put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t nr__get_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t nr__get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t nr__get_le64(const uint8_t *p)
{
    return (uint64_t)nr__get_le32(p) | (uint64_t)nr__get_le32(p + 4) << 32;
}

/* Version 2 I64 chunks start with a transform byte, the base column's index
 * (transform BASE only) and the scale, before the values (FORMAT.md).
 * Version 3 adds KEY_DELTA (a key column's index) and KEY_NEXT (key and
 * step columns' indexes). */
enum nr__i64_transform {
    NR__I64_VALUES = 0,
    NR__I64_DELTA = 1,
    NR__I64_BASE = 2,
    NR__I64_KEY_DELTA = 3,
    NR__I64_KEY_NEXT = 4,
};
#define NR__I64_HEADER_MAX 21u    /* v2: 1 + two 10-byte uvarints */
#define NR__I64_HEADER_MAX_V3 31u /* v3: 1 + three 10-byte uvarints */

/* The value per key of the rows seen so far in one chunk (transforms
 * KEY_DELTA and KEY_NEXT). Keys of a small range (pids, file ids) index
 * an array directly; other keys go through open addressing with linear
 * probing, where a slot belongs to the current chunk when its stamp equals
 * `stamp`, so that a new chunk starts empty without clearing the table.
 * Both give the same values; the choice is only speed (cache misses). */
typedef struct nr__keyslot {
    int64_t key;
    uint64_t val;
    uint32_t stamp;
} nr__keyslot;

typedef struct nr__keymap {
    uint64_t *dense;  /* direct mode: value of key min + i; NULL: hashed */
    int64_t min;
    uint64_t *dense_buf;
    size_t dense_cap;
    nr__keyslot *slots;
    size_t mask;      /* slots - 1; slots is a power of two >= 2 * rows */
    unsigned shift;   /* 64 - log2(slots) */
    uint32_t stamp;
} nr__keymap;

/* Empties m for a chunk whose rows have keys[0..rows), choosing direct or
 * hashed mode; returns 0 or NR_E_NOMEM. */
int nr__keymap_reset(nr__keymap *m, const int64_t *keys, size_t rows);
void nr__keymap_fini(nr__keymap *m);

/* The value of key in m; a key not seen in this chunk enters with value 0.
 * Only keys given to the last reset may be asked for. */
static inline uint64_t *nr__keymap_at(nr__keymap *m, int64_t key)
{
    if (m->dense)
        return &m->dense[(uint64_t)key - (uint64_t)m->min];
    size_t i = (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> m->shift);
    for (;; i = (i + 1) & m->mask) {
        nr__keyslot *e = &m->slots[i];
        if (e->stamp != m->stamp) {
            *e = (nr__keyslot){.key = key, .val = 0, .stamp = m->stamp};
            return &e->val;
        }
        if (e->key == key)
            return &e->val;
    }
}

/* A value x that is -1 or a multiple of scale (> 1) as the code stored: x /
 * scale, one less when negative, so that -1 stays free for x = -1. */
static inline int64_t nr__scale_down(int64_t x, uint64_t scale)
{
    if (x == -1)
        return -1;
    if (x >= 0)
        return (int64_t)((uint64_t)x / scale);
    return -(int64_t)((0 - (uint64_t)x) / scale) - 1;
}

/* The inverse of nr__scale_down (wrapping, so damaged codes cannot overflow). */
static inline int64_t nr__scale_up(int64_t code, uint64_t scale)
{
    if (code == -1)
        return -1;
    if (code >= 0)
        return (int64_t)((uint64_t)code * scale);
    return (int64_t)((uint64_t)(code + 1) * scale);
}

/* CRC-32 (zlib's polynomial) of n bytes. */
uint32_t nr__store_crc32(const void *p, size_t n);
/* The same by zlib's code alone (the tests' reference). */
uint32_t nr__store_crc32_zlib(const void *p, size_t n);
/* Whether the reader refuses a checksum mismatch: always, except in fuzz
 * builds (NR_FUZZ), where a mutated input must get past the checksums to
 * reach the footer parser and the chunk decoders behind them. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define NR__STORE_CHECKS_CRC 0
#else
#define NR__STORE_CHECKS_CRC 1
#endif

/* Opens a store held in memory (the fuzzer's entry point). The store borrows
 * data, which must outlive it; name is used in error messages. */
int nr__store_open_memory(const void *data, size_t size, const char *name,
                          nr_store **out, nr_error *err);

#endif
