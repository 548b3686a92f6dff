/* store_keymap: the per-key table of the KEY_DELTA and KEY_NEXT transforms
 * (store_internal.h), shared by the writer and the reader. */
#include <stdlib.h>
#include <string.h>

#include "nr_mem.h"
#include "store_internal.h"

/* Direct mode when the keys' range is at most this many times the rows
 * (and at most DENSE_MAX_RANGE): clearing the array then costs less than
 * the hashed mode's cache misses. */
#define DENSE_RANGE_PER_ROW 4u
#define DENSE_MAX_RANGE (1u << 20)

static int reset_hashed(nr__keymap *m, size_t rows)
{
    size_t slots = 16;
    unsigned bits = 4;
    while (slots < 2 * rows) { /* half full at most: short probes */
        slots *= 2;
        bits++;
    }
    if (!m->slots || slots > m->mask + 1) { /* grows only: a larger table serves as well */
        free(m->slots);
        m->slots = calloc(slots, sizeof *m->slots);
        if (!m->slots)
            return NR_E_NOMEM;
        m->mask = slots - 1;
        m->shift = 64 - bits;
        m->stamp = 0;
    }
    if (++m->stamp == 0) { /* wrapped: stamps of old chunks could match again */
        for (size_t i = 0; i <= m->mask; i++)
            m->slots[i].stamp = 0;
        m->stamp = 1;
    }
    return 0;
}

/* The smallest and largest of keys[0..rows), rows >= 1. */
static inline __attribute__((always_inline)) void key_range_loop(const int64_t *keys, size_t rows, int64_t *lo,
                                                                 int64_t *hi)
{
    int64_t l = keys[0], h = keys[0];
    for (size_t i = 1; i < rows; i++) {
        l = keys[i] < l ? keys[i] : l;
        h = keys[i] > h ? keys[i] : h;
    }
    *lo = l;
    *hi = h;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NR_KEY_RANGE_AVX2 1
/* The same loop, which the compiler vectorizes four keys at a time with AVX2. */
__attribute__((target("avx2"))) static void key_range_avx2(const int64_t *keys, size_t rows, int64_t *lo, int64_t *hi)
{
    key_range_loop(keys, rows, lo, hi);
}
#endif

static void key_range(const int64_t *keys, size_t rows, int64_t *lo, int64_t *hi)
{
#ifdef NR_KEY_RANGE_AVX2
    if (__builtin_cpu_supports("avx2")) {
        key_range_avx2(keys, rows, lo, hi);
        return;
    }
#endif
    key_range_loop(keys, rows, lo, hi);
}

int nr__keymap_reset(nr__keymap *m, const int64_t *keys, size_t rows)
{
    m->dense = NULL;
    if (rows == 0)
        return reset_hashed(m, rows);
    int64_t lo, hi;
    key_range(keys, rows, &lo, &hi);
    uint64_t range = (uint64_t)hi - (uint64_t)lo; /* hi >= lo: no wrap */
    if (range >= DENSE_MAX_RANGE || range >= (uint64_t)rows * DENSE_RANGE_PER_ROW + 64)
        return reset_hashed(m, rows);
    size_t n = (size_t)range + 1;
    if (n > m->dense_cap) { /* at least doubled: the range of file ids grows chunk by chunk */
        size_t cap = n > 2 * m->dense_cap ? n : 2 * m->dense_cap;
        cap = cap < DENSE_MAX_RANGE ? cap : DENSE_MAX_RANGE;
        free(m->dense_buf);
        m->dense_buf = nr_alloc_dense(cap * sizeof *m->dense_buf);
        m->dense_cap = m->dense_buf ? cap : 0;
        if (!m->dense_buf)
            return NR_E_NOMEM;
    }
    memset(m->dense_buf, 0, n * sizeof *m->dense_buf);
    m->dense = m->dense_buf;
    m->min = lo;
    return 0;
}

void nr__keymap_fini(nr__keymap *m)
{
    free(m->slots);
    free(m->dense_buf);
    memset(m, 0, sizeof *m);
}
