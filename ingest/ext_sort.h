/* ext_sort: sorts fixed-size records of any number in bounded memory.
 * Records gather in a chunk; a full chunk is sorted and goes to a record
 * queue (rec_queue.h: on disk past a block); at the end the sorted runs
 * are merged, at most fan_in at a time, and read back one record at a
 * time. Fewer records than a chunk never leave memory. The hook's phases
 * are numbered so: a phase a step is millions of phases
 * (docs/performance.md, session 68). */
#ifndef EXT_SORT_H
#define EXT_SORT_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"
#include "rec_queue.h"

/* A total order (ties make the output depend on the chunking). */
typedef int (*nr_ext_sort_cmp)(const void *a, const void *b, const void *ctx);

typedef struct nr_ext_sort_limits {
    size_t chunk_bytes;     /* records sorted in memory at a time */
    size_t run_block_bytes; /* a sorted run's block, in memory while it is merged */
    size_t fan_in;          /* runs merged at once, at least 2 */
} nr_ext_sort_limits;

/* 4 MiB chunks, 256 KiB blocks, 16 runs merged at once: about 8 MiB
 * while the runs are merged. */
extern const nr_ext_sort_limits NR_EXT_SORT_DEFAULT;

typedef struct nr_ext_sort {
    size_t rec_size;
    nr_ext_sort_limits limits;
    size_t chunk_recs;
    nr_ext_sort_cmp cmp;
    const void *ctx;
    unsigned char *chunk;  /* records not yet in a run */
    size_t chunk_cap, fill;
    uint64_t count;        /* records pushed */
    nr_rec_queue *runs;    /* sorted runs; [first_run, run_count) not yet merged */
    size_t run_count, run_cap, first_run;
    const void **heads;    /* while reading: each merged run's next record, NULL at its end */
    size_t last;           /* the run whose head was returned last, SIZE_MAX none */
    size_t read_at;        /* while reading an unspilled chunk */
    int finished;
} nr_ext_sort;

void nr_ext_sort_init(nr_ext_sort *s, size_t rec_size, nr_ext_sort_limits limits, nr_ext_sort_cmp cmp, const void *ctx);
/* Appends a copy of rec. NR_E_NOMEM, a temporary file's NR_E_IO, or
 * NR_E_INPUT after finish (a caller's bug). */
int nr_ext_sort_push(nr_ext_sort *s, const void *rec, nr_error *err);
uint64_t nr_ext_sort_count(const nr_ext_sort *s);
/* Sorts what is left and merges the runs down to fan_in; then read. */
int nr_ext_sort_finish(nr_ext_sort *s, nr_error *err);
/* 1 and *rec pointing at the next record in order (valid until the next
 * call), 0 after the last, or a temporary file's error. */
int nr_ext_sort_next(nr_ext_sort *s, const void **rec, nr_error *err);
/* Accepts a sorter never pushed to. */
void nr_ext_sort_free(nr_ext_sort *s);

#endif
