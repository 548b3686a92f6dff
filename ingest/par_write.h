/* par_write: writes the rows of table events beside the ordered pass
 * (procmodel), so that the store's row building, encoding and compression
 * run on par_lex's worker threads instead of after each of the pass's lines.
 *
 * The ordered pass hands over each event (with its phase, computed on the
 * pass's thread); batches of events queue up, and the oldest one is written
 * by whichever thread gets to it first: a par_lex worker (side work, see
 * nr_par_lex_set_side_work), or the pass itself when the queue is full and
 * no one is writing, and at nr_par_write_finish. One batch is written at a
 * time, in order, with exactly the calls to the store writer that a direct
 * write makes, so the store is byte for byte the same threaded or not.
 * Unthreaded, the caller's thread writes the events in batches, the last one
 * at nr_par_write_finish. Either way the rows reach the store through
 * nr_table_append_rows, column by column.
 *
 * Threads: the events table (and through it the store writer's output) is
 * touched by one thread at a time between nr_par_write_create and
 * nr_par_write_finish, handed over under w's lock; the caller must not write
 * any table of the store meanwhile. Memory: at most PAR_WRITE_BATCHES
 * batches of events. */
#ifndef PAR_WRITE_H
#define PAR_WRITE_H

#include <stdint.h>

#include "nr_error.h"
#include "nr_store.h"
#include "par_lex.h"
#include "procmodel.h"

typedef struct nr_par_write nr_par_write;

/* Starts writing to t (borrowed; table events of nr_schema.h), on the
 * workers of pool when pool is not NULL (borrowed: w registers itself as
 * pool's side work; pool must be destroyed, joining its workers, before w),
 * else on the caller's thread. Returns 0 and *out, or NR_E_NOMEM. */
int nr_par_write_create(nr_table_writer *t, nr_par_lex *pool, nr_par_write **out, nr_error *err);
/* With workers: asks one to make the second batch's block now, while the
 * caller's first rows need it not yet (for a caller that expects more
 * than a batch of rows: 8 MB of memory). Unthreaded: nothing. */
void nr_par_write_make_spare(nr_par_write *w);
/* Queues one row: ev's columns and phase_id (copied). Returns 0, or the
 * error of writing an earlier batch of rows, or NR_E_NOMEM. */
int nr_par_write_event(nr_par_write *w, const nr_pm_event *ev, int64_t phase_id, nr_error *err);
/* Writes every queued row (waiting for a worker that is writing one): 0 or
 * the first error. w does no more work after it, and has freed its
 * batches (the tables written next reuse that memory). */
int nr_par_write_finish(nr_par_write *w, nr_error *err);
/* For tests: 1 = the workers write no batch, so the pass fills all three
 * blocks and writes each batch itself when they are all queued. Process-
 * wide; set it before an ingest starts, never during one. */
void nr__par_write_hold_workers(int on);
/* Frees w (dropping queued rows). Accepts NULL. */
void nr_par_write_destroy(nr_par_write *w);

#endif
