/* run_pages: a thread's time as runs of one phase - a step function from
 * time to phase id - written in time order, then looked up. Up to a page
 * the runs stay in memory; past one, every page goes to a spool that the
 * hook's threads share, and a lookup reads back the page it falls in. A
 * page's first time and place stay in memory, 24 bytes a page of 4096
 * runs: a phase a step is millions of runs (docs/performance.md,
 * session 68). */
#ifndef RUN_PAGES_H
#define RUN_PAGES_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"
#include "nr_spool.h"

/* Runs a page; tests make it smaller. */
#define NR_RUN_PAGE 4096

typedef struct nr_run_page_ref {
    int64_t first;     /* the page's first run's begin */
    uint64_t off;      /* where its runs are in the spool */
    uint64_t runs;
} nr_run_page_ref;

typedef struct nr_run {
    int64_t begin;
    uint32_t phase, zero; /* zero: no padding of unset bytes goes to disk */
} nr_run;

typedef struct nr_run_pages {
    size_t page_runs;        /* runs a page (NR_RUN_PAGE) */
    nr_run *runs;            /* the page in memory: being filled, or read back */
    size_t count, cap;
    nr_run_page_ref *pages;  /* pages on disk; none while the runs fit one */
    size_t page_count, page_cap;
    size_t loaded;           /* the page in runs, while looking up pages on disk */
    size_t cursor;           /* the run the last lookup found, in that page */
    uint32_t last_phase;     /* the phase of the last run pushed */
    uint64_t total;          /* runs pushed */
} nr_run_pages;

void nr_run_pages_init(nr_run_pages *p, size_t page_runs);
/* s: the spool (nr_spool.h) that the threads' pages share. A run from
 * begin on is phase's (until the next run's begin); begins
 * nondecreasing. NR_E_NOMEM or the spool's NR_E_IO. */
int nr_run_pages_push(nr_run_pages *p, nr_spool *s, int64_t begin, uint32_t phase, nr_error *err);
/* After the last push: the last page goes to disk with the others, when
 * there are others. */
int nr_run_pages_seal(nr_run_pages *p, nr_spool *s, nr_error *err);
/* 1 and the phase of the run that holds ts in *phase, 0 when ts is before
 * the first run, or a page's read error. Fast for nondecreasing ts. */
int nr_run_pages_at(nr_run_pages *p, nr_spool *s, int64_t ts, uint32_t *phase, nr_error *err);
void nr_run_pages_free(nr_run_pages *p);

#endif
