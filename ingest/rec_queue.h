/* rec_queue: fixed-size records kept in the order they came and read back
 * in that order, any number of times. They stay in memory up to a block;
 * past one block they go to an nr_spool (an unlinked temporary file) as
 * zstd-compressed blocks, so that millions of records cost two blocks of
 * memory. The hook's io, mark and wait records are queued so
 * (docs/performance.md, session 67): a record a file object of a job
 * that reads millions of samples. */
#ifndef REC_QUEUE_H
#define REC_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"
#include "nr_spool.h"

typedef struct nr_rec_queue {
    size_t rec_size, block_recs; /* record size; records per block */
    unsigned char *block;        /* the block being filled, or being read */
    size_t block_cap;            /* its room, in records */
    size_t fill;                 /* records in block */
    uint64_t count;              /* records pushed */
    nr_spool spool;              /* the full blocks; empty while they fit one */
    void *packed;                /* a block compressed */
    size_t packed_cap;
    void *cctx;                  /* ZSTD_CCtx, made on the first spilled block */
    int sealed;                  /* read from: no more pushes */
    int uncompressed;            /* blocks go to disk as they are (set after init) */
    uint64_t read_off;           /* the next block's offset in spool */
    size_t read_at;              /* the next record in block */
} nr_rec_queue;

/* Records of rec_size bytes, block_bytes to a block (at least one
 * record's worth). */
void nr_rec_queue_init(nr_rec_queue *q, size_t rec_size, size_t block_bytes);
/* Appends a copy of rec. NR_E_NOMEM, NR_E_IO (the temporary file, its
 * folder named), or NR_E_INPUT after a rewind (a caller's bug). */
int nr_rec_queue_push(nr_rec_queue *q, const void *rec, nr_error *err);
uint64_t nr_rec_queue_count(const nr_rec_queue *q);
/* The records so far go to disk and the queue's buffers are freed until
 * it is read: a sorter (ext_sort.h) writes many queues, then reads them
 * all at once. More records may follow. */
int nr_rec_queue_park(nr_rec_queue *q, nr_error *err);
/* Starts reading from the first record; the queue takes no more pushes. */
int nr_rec_queue_rewind(nr_rec_queue *q, nr_error *err);
/* 1 and *rec pointing at the next record (valid until the next call),
 * 0 after the last, or an error reading the temporary file back. */
int nr_rec_queue_next(nr_rec_queue *q, const void **rec, nr_error *err);
/* Accepts a queue never pushed to. */
void nr_rec_queue_free(nr_rec_queue *q);

#endif
