/* batch_source: an in-memory nr_value_source (quantile.h) that hands out
 * batches of at most `batch` values and counts its passes; shared by
 * stats_dump.c and bench_stats.c (test_quantile.c has its own, which can
 * misbehave on purpose). */
#ifndef NR_TEST_BATCH_SOURCE_H
#define NR_TEST_BATCH_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"

typedef struct batches {
    const int64_t *v;   /* borrowed */
    size_t n, pos, batch;
    int passes;
} batches;

static inline int batches_rewind(void *ctx, nr_error *err)
{
    (void)err;
    ((batches *)ctx)->pos = 0;
    ((batches *)ctx)->passes++;
    return 0;
}

static inline int batches_next(void *ctx, const int64_t **vals, size_t *n, nr_error *err)
{
    (void)err;
    batches *b = ctx;
    if (b->pos >= b->n)
        return 0;
    *vals = b->v + b->pos;
    *n = b->n - b->pos < b->batch ? b->n - b->pos : b->batch;
    b->pos += *n;
    return 1;
}

#endif
