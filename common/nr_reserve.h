/* nr_reserve: big blocks faulted in ahead by another thread.
 *
 * The first write to fresh memory makes the kernel zero it: in this VM
 * about 1.1 ms per MB of huge pages. A thread whose own time bounds a job
 * (the ingest's ordered pass at -j 2, which grows the path table and the
 * file records: 30 or more huge pages per GB of log) binds a reserve; its
 * nr_reserve_expect calls name the sizes it will ask nr_alloc_dense for
 * soon; a helper thread makes such blocks and faults them in
 * (nr_reserve_fill); and the bound thread's nr_alloc_dense takes a made
 * block of the size it asks for, its pages already there. Without a bound
 * reserve (every other thread, and -j 1) nothing changes. */
#ifndef NR_RESERVE_H
#define NR_RESERVE_H

#include <stddef.h>

typedef struct nr_reserve nr_reserve;

/* At most this many blocks expected or made at once, of at most this many
 * bytes in all: what one pass asks for between two fills (a slot table, an
 * entry array, an arena block and a file block), and a bound on the
 * memory a reserve can hold that nobody takes. */
#define NR_RESERVE_BLOCKS 6
#define NR_RESERVE_BYTES ((size_t)48 << 20)

/* A reserve; wake(ctx) is called, without locks held, after a block is
 * expected, so that a helper runs nr_reserve_fill (wake may be NULL).
 * NULL when out of memory. */
nr_reserve *nr_reserve_new(void (*wake)(void *ctx), void *ctx);
/* Frees r and the blocks it made that were not taken; no thread may be
 * bound to it or fill it. */
void nr_reserve_free(nr_reserve *r);
/* The calling thread's nr_alloc_dense takes from r and its
 * nr_reserve_expect calls go to r from now on; NULL unbinds. */
void nr_reserve_bind(nr_reserve *r);
/* A hint from the calling thread: it will ask nr_alloc_dense for `bytes`
 * soon. Ignored without a bound reserve, below NR_DENSE_MIN, or while the
 * reserve holds its limit of blocks expected or made. */
void nr_reserve_expect(size_t bytes);
/* Makes and faults in the blocks expected of r (any thread; a worker's
 * side work, or the bound thread itself while it waits for a worker):
 * 1 when one was expected (made, or dropped when memory ran out: the
 * bound thread then allocates it itself), 0 when none was. */
int nr_reserve_fill(nr_reserve *r);
/* Blocks made and blocks taken so far (the ingest's statistics). */
void nr_reserve_counts(nr_reserve *r, size_t *made, size_t *taken);

/* nr_alloc_dense's side: a made block of exactly `whole` bytes from the
 * calling thread's reserve, or NULL. */
void *nr__reserve_take(size_t whole);

#endif
