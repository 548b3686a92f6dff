/* diag: the ingest's diagnostics collector. Counts every problem by a stable
 * reason key and keeps the first NR_DIAG_EXAMPLES examples of each reason
 * (input file, line number, the line cut to NR_DIAG_EXAMPLE_MAX bytes), then
 * writes them to table diagnostics (store/nr_schema.h). Memory is bounded by
 * the number of distinct reasons, never by the number of problems. */
#ifndef DIAG_H
#define DIAG_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"
#include "nr_store.h"

#define NR_DIAG_EXAMPLES 3
#define NR_DIAG_EXAMPLE_MAX 200

typedef struct nr_diag nr_diag;

/* Returns a new, empty collector, or NULL when out of memory. */
nr_diag *nr_diag_create(void);
/* Accepts NULL. */
void nr_diag_destroy(nr_diag *d);

/* Counts one occurrence of reason (copied) found at file:line (file borrowed
 * only during the call; NULL = none; line 0 = none) with the example text
 * example[0..n) (copied, cut). Returns 0 or NR_E_NOMEM. */
int nr_diag_add(nr_diag *d, const char *reason, const char *file, uint64_t line,
                const char *example, size_t n);
/* Like nr_diag_add, but counts `count` occurrences with one example. */
int nr_diag_add_n(nr_diag *d, const char *reason, uint64_t count, const char *file, uint64_t line,
                  const char *example, size_t n);

/* Adds every count and example of src to d, src's after d's: d then is
 * what one collector given d's occurrences and then src's would be.
 * Returns 0 or NR_E_NOMEM. */
int nr_diag_merge(nr_diag *d, const nr_diag *src);

/* Occurrences of reason so far (0 when never seen). */
uint64_t nr_diag_count(const nr_diag *d, const char *reason);
/* Number of distinct reasons. */
size_t nr_diag_reasons(const nr_diag *d);

/* Writes one row per example (a reason with no example gets one row with an
 * empty example), reasons sorted by key, examples in order of occurrence. */
int nr_diag_write(const nr_diag *d, nr_table_writer *t, nr_error *err);

#endif
