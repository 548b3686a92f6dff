/* nr_parallel: one index range spread over a few threads, the caller's own
 * among them (the work of `niorep build` across runs and across figures,
 * the opening of an ingest's many logs). */
#ifndef NR_PARALLEL_H
#define NR_PARALLEL_H

#include <stddef.h>

/* The number of online cores (at least 1). */
int nr_cores(void);

/* Calls item(ctx, i) once for every i in [0, n), on up to `threads` threads
 * (the calling one included; fewer when n is smaller or a thread cannot be
 * started: the results are the same) and returns when every call has
 * returned. item must touch only what belongs to index i. Each thread this
 * starts calls thread_end (when not NULL) before it ends. */
void nr_parallel_for(size_t n, int threads, void (*item)(void *ctx, size_t i), void *ctx,
                     void (*thread_end)(void));

#endif
