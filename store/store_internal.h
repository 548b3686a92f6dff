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
 * (transform BASE only) and the scale, before the values (FORMAT.md). */
enum nr__i64_transform { NR__I64_VALUES = 0, NR__I64_DELTA = 1, NR__I64_BASE = 2 };
#define NR__I64_HEADER_MAX 21u /* 1 + two 10-byte uvarints */

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

/* Opens a store held in memory (the fuzzer's entry point). The store borrows
 * data, which must outlive it; name is used in error messages. */
int nr__store_open_memory(const void *data, size_t size, const char *name,
                          nr_store **out, nr_error *err);

#endif
