/* statsort: LSD radix sorts of doubles and int64 shared by the statistics of model/.
 *
 * Internal to model/ (prefix nr__). Sorting 10 M values takes a few tenths of a
 * second, where qsort would take seconds. */
#ifndef NR_STATSORT_H
#define NR_STATSORT_H

#include <stddef.h>
#include <stdint.h>

/* Sorts v[0..n) ascending in place. NaNs are not allowed (callers reject
 * them first); -0.0 sorts before +0.0. Returns 0 or NR_E_NOMEM (v untouched). */
int nr__sort_f64(double *v, size_t n);

/* Sorts v[0..n) ascending in place. Returns 0 or NR_E_NOMEM (v untouched). */
int nr__sort_i64(int64_t *v, size_t n);

#endif
