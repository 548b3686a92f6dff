/* quantile: exact order statistics with memory bounded independently of the
 * number of values, and a mergeable log-binned latency histogram.
 *
 * Definitions and method: docs/statistics.md, section "Quantiles". */
#ifndef NR_QUANTILE_H
#define NR_QUANTILE_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"

/* A source of int64 values that can be read more than once (a store column).
 * The source must yield the same values in every pass. */
typedef struct nr_value_source {
    void *ctx;
    /* Starts a new pass from the first value. Returns 0 or < 0 with err set. */
    int (*rewind)(void *ctx, nr_error *err);
    /* Next batch of values (borrowed until the next call): returns 1 with
     * *vals / *n (n may be 0), 0 at the end, < 0 on error with err set. */
    int (*next)(void *ctx, const int64_t **vals, size_t *n, nr_error *err);
} nr_value_source;

/* Exact nearest-rank quantiles of the values of src: out[i] is the value of
 * rank ceil(qs[i] * N) (1-based) in ascending order, q in (0, 1], q = 1 gives
 * the maximum. A product q*N within 1e-9 (relative) of an integer counts as
 * that integer, so that decimal q like 0.07 give the intended rank.
 * qs: nq values, ascending. out: nq values (caller-owned). *count = N.
 * With N = 0 every out[i] is -1 and *count 0.
 * Reads src in 2 passes (a histogram of 110,592 log-spaced buckets, then a
 * collection of the buckets holding the wanted ranks), plus one refining pass
 * per 16 bits whenever a wanted bucket holds more than 131,072 values.
 * Memory: about 1 MiB plus 1 MiB per distinct wanted bucket; never O(N).
 * Returns 0; NR_E_USAGE on bad qs; the source's error; NR_E_INPUT when the
 * source yields different values in different passes; NR_E_NOMEM. */
int nr_quantiles_exact(const nr_value_source *src, const double *qs, size_t nq, int64_t *out,
                       uint64_t *count, nr_error *err);

/* The same quantiles of the in-memory vals[0..n) (borrowed; a copy is sorted).
 * Returns 0, NR_E_USAGE on bad qs, NR_E_NOMEM. With n = 0, out[i] = -1. */
int nr_quantiles_array(const int64_t *vals, size_t n, const double *qs, size_t nq, int64_t *out);

/* The 1-based nearest rank of q among N values (the rule above), in [1, N]
 * for N > 0; 0 for N = 0. */
uint64_t nr_quantile_rank(double q, uint64_t N);

/* A log-binned histogram of nanosecond values, 20 bins per decade, the same
 * fixed bins in every run so that histograms merge exactly.
 * Bin 0 holds v <= 1 ns (including v <= 0); bin b in 1..258 holds
 * 10^((b-1)/20) < v <= 10^(b/20) ns (bin 240 ends at 1000 s; bins 1..6 stay
 * empty for integer v); bin 259 holds everything above 10^(258/20) ns
 * (about 2.2 hours). min/max are exact (0 when n = 0). Value type: init. */
enum { NR_LOGHIST_BINS = 260, NR_LOGHIST_PER_DECADE = 20 };
typedef struct nr_loghist { uint64_t counts[260]; uint64_t n; int64_t min, max; } nr_loghist;
void nr_loghist_init(nr_loghist *h);
void nr_loghist_add(nr_loghist *h, int64_t v);      /* v in ns, <= 0 goes to bin 0 */
void nr_loghist_merge(nr_loghist *dst, const nr_loghist *src);
/* The bin holding v. */
int nr_loghist_bin(int64_t v);
/* Upper edge of a bin in ns: 10^(bin/20); INFINITY for bin 259. */
double nr_loghist_bin_upper(int bin);
/* Largest integer ns in a bin: floor(10^(bin/20)); INT64_MAX for bin 259. */
int64_t nr_loghist_bin_limit(int bin);

#endif
