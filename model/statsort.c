/* statsort: LSD radix sort on order-preserving 64-bit keys, 11 bits per pass,
 * skipping passes whose digit is the same for every key (small counts and
 * byte totals share their top bits). */
#include "statsort.h"

#include <stdlib.h>
#include <string.h>

#include "nr_error.h"
#include "nr_mem.h"

enum { RADIX_BITS = 11, RADIX = 1 << RADIX_BITS, RADIX_PASSES = 6, SMALL_N = 64 };

/* Maps a double's bits to an unsigned key with the same order. */
static inline uint64_t f64_key(uint64_t bits)
{
    return (bits & 0x8000000000000000ull) ? ~bits : bits | 0x8000000000000000ull;
}

static inline uint64_t f64_unkey(uint64_t key)
{
    return (key & 0x8000000000000000ull) ? key & 0x7fffffffffffffffull : ~key;
}

static void insertion_sort_u64(uint64_t *k, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t x = k[i];
        size_t j = i;
        while (j > 0 && k[j - 1] > x) {
            k[j] = k[j - 1];
            j--;
        }
        k[j] = x;
    }
}

/* Sorts unsigned keys in place; tmp holds n keys. Returns 0 or NR_E_NOMEM. */
static int radix_sort_u64(uint64_t *keys, uint64_t *tmp, size_t n)
{
    if (n <= SMALL_N) {
        insertion_sort_u64(keys, n);
        return 0;
    }
    static const int passes = RADIX_PASSES;
    size_t (*counts)[RADIX] = nr_zalloc_counters((size_t)passes, sizeof *counts);
    if (counts == NULL)
        return NR_E_NOMEM;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = keys[i];
        for (int p = 0; p < passes; p++)
            counts[p][(k >> (p * RADIX_BITS)) & (RADIX - 1)]++;
    }
    uint64_t *src = keys, *dst = tmp;
    for (int p = 0; p < passes; p++) {
        size_t *c = counts[p];
        unsigned first_digit = (unsigned)((keys[0] >> (p * RADIX_BITS)) & (RADIX - 1));
        if (c[first_digit] == n)
            continue; /* every key has this digit: the pass would not move anything */
        size_t sum = 0;
        for (int d = 0; d < RADIX; d++) {
            size_t t = c[d];
            c[d] = sum;
            sum += t;
        }
        const int shift = p * RADIX_BITS;
        for (size_t i = 0; i < n; i++) {
            uint64_t k = src[i];
            dst[c[(k >> shift) & (RADIX - 1)]++] = k;
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys)
        memcpy(keys, src, n * sizeof *keys);
    free(counts);
    return 0;
}

int nr__sort_f64(double *v, size_t n)
{
    if (n < 2)
        return 0;
    uint64_t *keys = malloc(n * sizeof *keys);
    uint64_t *tmp = malloc(n * sizeof *tmp);
    if (keys == NULL || tmp == NULL) {
        free(keys);
        free(tmp);
        return NR_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        keys[i] = f64_key(bits);
    }
    int rc = radix_sort_u64(keys, tmp, n);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        uint64_t bits = f64_unkey(keys[i]);
        memcpy(&v[i], &bits, sizeof bits);
    }
    free(keys);
    free(tmp);
    return rc;
}

int nr__sort_i64(int64_t *v, size_t n)
{
    if (n < 2)
        return 0;
    uint64_t *tmp = malloc(n * sizeof *tmp);
    if (tmp == NULL)
        return NR_E_NOMEM;
    /* Flipping the sign bit maps int64 order onto uint64 order; the keys are
     * sorted in v's own storage to save a copy. */
    uint64_t *keys = (uint64_t *)(void *)v;
    for (size_t i = 0; i < n; i++)
        keys[i] ^= 0x8000000000000000ull;
    int rc = radix_sort_u64(keys, tmp, n);
    for (size_t i = 0; i < n; i++) /* also on failure: v is restored unsorted */
        keys[i] ^= 0x8000000000000000ull;
    free(tmp);
    return rc;
}
