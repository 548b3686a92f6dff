/* store_crc: the checksum of chunks and of the footer (zlib's CRC-32).
 * On x86-64 CPUs with PCLMULQDQ the bulk of the bytes is folded with
 * carry-less multiplies (Gopal et al., "Fast CRC Computation for Generic
 * Polynomials Using PCLMULQDQ Instruction", Intel 2009; the reflected
 * constants of zlib's polynomial as in Chromium's zlib, crc32_simd.c),
 * about 16 bytes per fold instead of zlib's table steps; the tail and
 * other CPUs go through zlib. The value is the same either way. */
#include <zlib.h>

#include "store_internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define NR_CRC_CLMUL 1

/* The CRC register (not inverted) after the n bytes at p, n >= 64 and a
 * multiple of 16, from register crc. */
__attribute__((target("pclmul,sse4.1"))) static uint32_t crc32_clmul(const unsigned char *p, size_t n,
                                                                      uint32_t crc)
{
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);
    __m128i x1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 0x00));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(const void *)(p + 0x10));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(const void *)(p + 0x20));
    __m128i x4 = _mm_loadu_si128((const __m128i *)(const void *)(p + 0x30));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
    p += 64;
    n -= 64;
    for (; n >= 64; p += 64, n -= 64) { /* four folds in parallel */
        __m128i x5 = _mm_clmulepi64_si128(x1, k1k2, 0x00), x6 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
        __m128i x7 = _mm_clmulepi64_si128(x3, k1k2, 0x00), x8 = _mm_clmulepi64_si128(x4, k1k2, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k1k2, 0x11);
        x2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
        x3 = _mm_clmulepi64_si128(x3, k1k2, 0x11);
        x4 = _mm_clmulepi64_si128(x4, k1k2, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), _mm_loadu_si128((const __m128i *)(const void *)(p + 0x00)));
        x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), _mm_loadu_si128((const __m128i *)(const void *)(p + 0x10)));
        x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), _mm_loadu_si128((const __m128i *)(const void *)(p + 0x20)));
        x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), _mm_loadu_si128((const __m128i *)(const void *)(p + 0x30)));
    }
    /* the four into one, then the 16-byte blocks left */
    __m128i x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x2), x5);
    x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x3), x5);
    x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x1, k3k4, 0x11), x4), x5);
    for (; n >= 16; p += 16, n -= 16) {
        x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, _mm_loadu_si128((const __m128i *)(const void *)p)), x5);
    }
    /* 128 bits to 64, then Barrett reduction to 32 */
    x2 = _mm_clmulepi64_si128(x1, k3k4, 0x10);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
    x2 = _mm_srli_si128(x1, 4);
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, low32), k5k0, 0x00), x2);
    x2 = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), poly, 0x10);
    x2 = _mm_clmulepi64_si128(_mm_and_si128(x2, low32), poly, 0x00);
    x1 = _mm_xor_si128(x1, x2);
    return (uint32_t)_mm_extract_epi32(x1, 1);
}

static int has_clmul(void)
{
    return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1"); /* a load and a test */
}
#endif

/* zlib's crc32 over any length. */
static uint32_t crc32_zlib(uLong crc, const unsigned char *q, size_t n)
{
    while (n > 0) {
        uInt step = n > (1u << 30) ? (1u << 30) : (uInt)n;
        crc = crc32(crc, q, step);
        q += step;
        n -= step;
    }
    return (uint32_t)crc;
}

uint32_t nr__store_crc32(const void *p, size_t n)
{
    const unsigned char *q = p;
    uint32_t crc = (uint32_t)crc32(0L, Z_NULL, 0);
#ifdef NR_CRC_CLMUL
    if (n >= 64 && has_clmul()) {
        size_t bulk = n & ~(size_t)15;
        crc = ~crc32_clmul(q, bulk, ~crc);
        q += bulk;
        n -= bulk;
    }
#endif
    return crc32_zlib(crc, q, n);
}

uint32_t nr__store_crc32_zlib(const void *p, size_t n)
{
    return crc32_zlib(crc32(0L, Z_NULL, 0), p, n);
}
