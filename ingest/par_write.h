/* par_write: writes the rows of table events on a thread of their own, so
 * that the store's row building, encoding and zstd compression run beside
 * the ordered pass (procmodel) instead of after each of its lines.
 *
 * The ordered pass hands over each event (with its phase, computed on the
 * pass's thread); batches of events go through a bounded queue to the
 * writer thread, which makes exactly the calls to the store writer that a
 * direct write would make, in the same order: the store is byte for byte
 * the same threaded or not. Unthreaded, the caller's thread writes the
 * events in batches, the last one at nr_par_write_finish. Either way the
 * rows reach the store through nr_table_append_rows, column by column.
 *
 * Threads: the events table (and through it the store writer's output) is
 * touched only by the writer thread between nr_par_write_create and
 * nr_par_write_finish; the caller must not write any table of the store
 * meanwhile. Memory: at most PAR_WRITE_BATCHES batches of events. */
#ifndef PAR_WRITE_H
#define PAR_WRITE_H

#include <stdint.h>

#include "nr_error.h"
#include "nr_store.h"
#include "procmodel.h"

typedef struct nr_par_write nr_par_write;

/* Starts writing to t (borrowed; table events of nr_schema.h), on a thread
 * when threaded is true. Returns 0 and *out, or NR_E_NOMEM. */
int nr_par_write_create(nr_table_writer *t, int threaded, nr_par_write **out, nr_error *err);
/* Queues one row: ev's columns and phase_id (copied). Returns 0, or the
 * error of writing an earlier batch of rows, or NR_E_NOMEM. */
int nr_par_write_event(nr_par_write *w, const nr_pm_event *ev, int64_t phase_id, nr_error *err);
/* Writes every queued row and stops the thread: 0 or the first error. */
int nr_par_write_finish(nr_par_write *w, nr_error *err);
/* Stops the thread (dropping queued rows) and frees w. Accepts NULL. */
void nr_par_write_destroy(nr_par_write *w);

#endif
