/* mt19937: the stream of GSL's gsl_rng_mt19937, inline.
 *
 * Internal to model/ (prefix nr__). The power-law bootstrap draws two
 * numbers for each value of each synthetic set, in one stream under a
 * lock: through gsl_rng that is three calls through function pointers a
 * number, 15% of a large store's summary and the part of the bootstrap
 * that no second thread can share. These functions give exactly what
 * gsl_rng_set, gsl_rng_get, gsl_rng_uniform and gsl_rng_uniform_int give
 * for gsl_rng_mt19937 (GSL 2.7 rng/mt.c and rng/rng.c; test_powerlaw's
 * mt19937_matches_gsl compares them number for number), so a seed gives
 * the p-values it gave. */
#ifndef NR_MT19937_H
#define NR_MT19937_H

#include <stdint.h>

enum { NR__MT_N = 624, NR__MT_M = 397 };

typedef struct nr__mt19937 {
    uint32_t mt[NR__MT_N];
    int mti;
} nr__mt19937;

/* gsl_rng_set: a seed of 0 is 4357, any other its 32 low bits, as in GSL. */
static inline void nr__mt_seed(nr__mt19937 *s, uint64_t seed)
{
    s->mt[0] = seed ? (uint32_t)seed : 4357u;
    for (int i = 1; i < NR__MT_N; i++)
        s->mt[i] = 1812433253u * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + (uint32_t)i;
    s->mti = NR__MT_N;
}

static inline uint32_t nr__mt_twist(uint32_t upper, uint32_t lower, uint32_t far)
{
    const uint32_t y = (upper & 0x80000000u) | (lower & 0x7fffffffu);
    return far ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
}

/* The next N words of the state, at once (GSL's block). */
static inline void nr__mt_refill(nr__mt19937 *s)
{
    uint32_t *mt = s->mt;
    int k = 0;
    for (; k < NR__MT_N - NR__MT_M; k++)
        mt[k] = nr__mt_twist(mt[k], mt[k + 1], mt[k + NR__MT_M]);
    for (; k < NR__MT_N - 1; k++)
        mt[k] = nr__mt_twist(mt[k], mt[k + 1], mt[k + NR__MT_M - NR__MT_N]);
    mt[NR__MT_N - 1] = nr__mt_twist(mt[NR__MT_N - 1], mt[0], mt[NR__MT_M - 1]);
    s->mti = 0;
}

/* gsl_rng_get. */
static inline uint32_t nr__mt_get(nr__mt19937 *s)
{
    if (s->mti >= NR__MT_N)
        nr__mt_refill(s);
    uint32_t k = s->mt[s->mti++];
    k ^= k >> 11;
    k ^= (k << 7) & 0x9d2c5680u;
    k ^= (k << 15) & 0xefc60000u;
    k ^= k >> 18;
    return k;
}

/* gsl_rng_uniform: [0, 1). */
static inline double nr__mt_uniform(nr__mt19937 *s)
{
    return nr__mt_get(s) / 4294967296.0;
}

/* gsl_rng_uniform_int for 0 < n <= 2^32 - 1: [0, n), by GSL's rejection
 * (scale = (2^32 - 1) / n, words whose quotient reaches n drawn again). */
static inline uint32_t nr__mt_uniform_int(nr__mt19937 *s, uint32_t n)
{
    const uint32_t scale = 0xffffffffu / n;
    uint32_t k;
    do
        k = nr__mt_get(s) / scale;
    while (k >= n);
    return k;
}

#endif
