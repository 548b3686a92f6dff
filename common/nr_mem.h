/* nr_mem: overflow-checked allocation and growable arrays. */
#ifndef NR_MEM_H
#define NR_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Ensures *items (an array of elem_size-byte elements, capacity *cap) can hold
 * `need` elements, growing geometrically (from 1 MB on in nr_alloc_dense
 * memory). Returns 0, or NR_E_NOMEM / NR_E_LIMIT (size overflow) leaving
 * the array untouched. */
int nr_grow(void **items, size_t *cap, size_t need, size_t elem_size);

/* Type-safe wrapper: NR_GROW(arr, cap, need) for `T *arr`. */
#define NR_GROW(arr, cap, need) nr_grow((void **)&(arr), &(cap), (need), sizeof *(arr))

/* Returns uninitialised memory of `bytes` for a big array that is used
 * whole: from 1 MB on it is 2 MB-aligned, a whole number of 2 MB, and asks
 * for transparent huge pages (a hint), so that its first touch costs one
 * fault per 2 MB rather than per 4 kB page and a random read of it rarely
 * misses the TLB - as long as huge pages pay: once the first write to one
 * costs more than twice what fresh 4 kB pages do (a VM whose host took the
 * memory back), the blocks after it are ordinary pages. NULL when out of
 * memory; freed by free(). Thread-safe. */
void *nr_alloc_dense(size_t bytes);
/* Zeroed memory of n elements of size bytes for counters that are
 * incremented in place, or NULL (overflow or out of memory); freed by
 * free(). calloc leaves fresh pages untouched, so a counter's first
 * increment loads from the shared zero page and its store then copies that
 * page: a second fault that flushes the TLB of every core the process ran
 * on. Written zeros take one fault per page. */
void *nr_zalloc_counters(size_t n, size_t size);
/* The rule: whether huge pages still pay when the first write to one cost
 * huge_ms_per_mb and to fresh 4 kB pages small_ms_per_mb (not positive:
 * unknown, so they do). */
int nr__huge_pages_pay(double huge_ms_per_mb, double small_ms_per_mb);
#define NR_DENSE_HUGE ((size_t)2 << 20) /* a transparent huge page */
#define NR_DENSE_MIN (NR_DENSE_HUGE / 2) /* nr_alloc_dense's huge pages start here */

/* A growable byte buffer (value type: init/fini). */
typedef struct nr_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
} nr_buf;

void nr_buf_init(nr_buf *b);
void nr_buf_fini(nr_buf *b);
/* Appends n bytes; returns 0 or NR_E_NOMEM. */
int nr_buf_put(nr_buf *b, const void *p, size_t n);
/* Appends an unsigned LEB128 varint. */
int nr_buf_put_uvarint(nr_buf *b, uint64_t v);
/* Appends a zig-zag encoded signed varint. */
int nr_buf_put_svarint(nr_buf *b, int64_t v);

static inline uint64_t nr_zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t nr_unzigzag(uint64_t u) { return (int64_t)(u >> 1) ^ -(int64_t)(u & 1); }

/* Decodes an unsigned LEB128 varint from [*p, end). Returns 0 and advances *p,
 * or -1 when the varint is truncated or longer than 10 bytes. */
int nr_get_uvarint(const uint8_t **p, const uint8_t *end, uint64_t *out);

/* nr_get_uvarint for readers of many varints, with the same results: a
 * varint of at most 8 bytes with 8 bytes readable at *p is read by one
 * load, its 7-bit groups gathered in three steps (the inverse of the
 * store writer's spread) instead of a loop whose exit mispredicts on
 * columns of mixed lengths; any other by nr_get_uvarint. */
static inline int nr_get_uvarint_fast(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint8_t *q = *p;
    if (end - q >= 8) {
        uint64_t w;
        memcpy(&w, q, sizeof w);
        if (!(w & 0x80)) { /* one byte: most codes of most columns */
            *out = w & 0x7f;
            *p = q + 1;
            return 0;
        }
        const uint64_t stops = ~w & UINT64_C(0x8080808080808080); /* the bytes without continuation */
        if (stops) {
            /* the bytes up to the first stop, their continuation bits dropped */
            uint64_t x = w & (stops ^ (stops - 1)) & UINT64_C(0x7f7f7f7f7f7f7f7f);
            x = (x & UINT64_C(0x007f007f007f007f)) | (x & UINT64_C(0x7f007f007f007f00)) >> 1;
            x = (x & UINT64_C(0x00003fff00003fff)) | (x & UINT64_C(0x3fff00003fff0000)) >> 2;
            x = (x & UINT64_C(0x000000000fffffff)) | (x & UINT64_C(0x0fffffff00000000)) >> 4;
            *out = x;
            *p = q + __builtin_ctzll(stops) / 8 + 1;
            return 0;
        }
    }
#endif
    return nr_get_uvarint(p, end, out);
}

/* An arena: many small allocations freed in one call (value type: init/fini). */
typedef struct nr_arena_block nr_arena_block;
typedef struct nr_arena {
    nr_arena_block *head;
    size_t used_total;
} nr_arena;

void nr_arena_init(nr_arena *a);
void nr_arena_fini(nr_arena *a);
/* Returns n bytes aligned to 8, or NULL when out of memory. */
void *nr_arena_alloc(nr_arena *a, size_t n);
/* Copies n bytes and appends a NUL; returns the copy or NULL. */
char *nr_arena_strndup(nr_arena *a, const char *s, size_t n);

#endif
