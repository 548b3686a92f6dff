/* cachesplit: split read latencies into cache hits (the fast mode) and misses
 * (the slow mode) from their log-binned histogram.
 *
 * Method and thresholds: docs/statistics.md, section "Cache split". */
#ifndef NR_CACHESPLIT_H
#define NR_CACHESPLIT_H

#include <stdint.h>

#include "quantile.h"

typedef struct nr_cache_split {
    int found;              /* 0 when no split (none found, too few reads): counts and shares 0 */
    int64_t threshold_ns;   /* reads >= threshold_ns are slow; a bin edge (first ns after the valley bin) */
    double slow_share;      /* share of reads >= threshold */
    uint64_t slow_count, fast_count;
    double slow_bytes_share; /* NAN until nr_cache_split_bytes is called */
    const char *method;     /* "valley", "mixture", or "none" (static strings) */
    int misses_plausible;   /* found, and threshold_ns >= NR_CACHE_MISS_MIN_NS: the slow mode
                               can be page-cache misses; below it, it cannot */
} nr_cache_split;

/* The fastest read that can have missed the page cache: the fastest SSDs
 * answer a 4 KiB read in about 5 us at queue depth 1 (Intel Optane SSD
 * P5800X), and a buffered miss adds the kernel's block path on top. A
 * split below this is two kinds of hits (mostly small and large reads),
 * not hits and misses (docs/statistics.md, "Cache split"). */
#define NR_CACHE_MISS_MIN_NS 10000

/* The split needs this many reads, and each mode this share of them: a
 * slower mode of fewer reads is not looked for, so no split found is not
 * "unimodal" (the report says which; docs/statistics.md, "Cache split"). */
#define NR_CACHE_SPLIT_MIN_READS 100
#define NR_CACHE_SPLIT_MIN_MODE_SHARE 0.02

/* Why reads (their count) gave no split, in one sentence for the summary
 * and for finding cache_miss_tail's reason: too few, or none found. */
void nr_cache_split_why_none(uint64_t reads, char *out, size_t cap);

/* Looks for two modes of read_latency (borrowed): a significant valley of
 * the smoothed histogram, else a well-separated two-component Gaussian
 * mixture on log latency. Needs at least 100 reads. Returns 0. */
int nr_cache_split_compute(const nr_loghist *read_latency, nr_cache_split *out);

/* Records the bytes share of slow reads, which the histogram cannot know:
 * the caller sums the bytes of reads with latency >= split->threshold_ns
 * (slow_bytes) and of all reads (total_bytes). Share NAN when total is 0. */
void nr_cache_split_bytes(nr_cache_split *split, uint64_t slow_bytes, uint64_t total_bytes);

#endif
