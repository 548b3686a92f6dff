/* compare_fmt: how the compare report writes a statistic's values, its
 * differences and its test (cli/cmd_compare.c, cli/compare_replicates.c). */
#ifndef NR_COMPARE_FMT_H
#define NR_COMPARE_FMT_H

#include <stddef.h>

#include "compare_stats.h"

/* A value of unit ("s", "B", "B/s", "share", "1", ...) for a reader. */
void nr_compare_fmt_value(const char *unit, double v, char *buf, size_t cap);
/* A difference of unit: a difference of shares in percentage points. */
void nr_compare_fmt_diff(const char *unit, double v, char *buf, size_t cap);
/* A relative difference: "+12.3%", "new" (from 0), "gone" (to 0), "-". */
void nr_compare_fmt_rel(double rel, char *buf, size_t cap);
/* A KS p-value, as a bound below NR_KS_P_RESOLVED, with its method. */
void nr_compare_fmt_ks_p(const nr_ks_result *ks, char *buf, size_t cap);

/* A "; "-separated list of items that grows as needed; "none" when empty. */
typedef struct nr_compare_list {
    char *s;
    size_t len, cap;
} nr_compare_list;
/* 0, or -1 out of memory. */
int nr_compare_list_init(nr_compare_list *l);
/* Appends item; on out of memory the list keeps what it had. */
void nr_compare_list_add(nr_compare_list *l, const char *item);
/* The list as a new string (caller frees). */
char *nr_compare_list_done(nr_compare_list *l);

#endif
