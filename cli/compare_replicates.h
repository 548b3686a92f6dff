/* compare_replicates: the report's part on replicate runs (model
 * nr_compare_pool): a line per workload in the overview, and one article
 * per workload and group with the pooled statistics, section by section
 * (docs/compare.md, "Replicates"). */
#ifndef NR_COMPARE_REPLICATES_H
#define NR_COMPARE_REPLICATES_H

#include <stddef.h>

#include "compare.h"
#include "report.h"

/* pair_a[i], pair_b[i]: display names of the runs of pair i (borrowed). */
typedef struct nr_compare_replicates_view {
    const nr_compare_pool *pools;
    size_t npools;
    const char *const *pair_a, *const *pair_b;
    const nr_compare_opts *opts;
} nr_compare_replicates_view;

/* The overview's table of the pools (nothing when there are none). */
void nr_compare_replicates_overview(nr_report_block *ov, const nr_compare_replicates_view *v);
/* One article per pool. Returns 0 or NR_E_NOMEM. */
int nr_compare_replicates_articles(nr_report *rep, const nr_compare_replicates_view *v, nr_error *err);

#endif
