#include "rec_queue.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* A spilled block: this header, then its records compressed. */
typedef struct block_head {
    uint32_t records, packed_bytes;
} block_head;

/* Fast and still 4-8x on records of timestamps and ids: the spool's
 * bytes are written once and read once or twice. */
#define SPILL_LEVEL 1
/* The in-memory block starts at this many records and doubles to a
 * block: a hook of a few records costs a few records. */
#define FIRST_RECS 64

void nr_rec_queue_init(nr_rec_queue *q, size_t rec_size, size_t block_bytes)
{
    *q = (nr_rec_queue){.rec_size = rec_size, .spool = NR_SPOOL_INIT};
    q->block_recs = block_bytes / rec_size ? block_bytes / rec_size : 1;
}

uint64_t nr_rec_queue_count(const nr_rec_queue *q) { return q->count; }

static int spilled(const nr_rec_queue *q) { return q->spool.size > 0; }

/* Room for n records in block (n at most block_recs). */
static int block_room(nr_rec_queue *q, size_t n)
{
    if (n <= q->block_cap)
        return 0;
    size_t want = q->block_cap ? q->block_cap : FIRST_RECS;
    while (want < n)
        want *= 2;
    want = want < q->block_recs ? want : q->block_recs;
    void *p = realloc(q->block, want * q->rec_size);
    if (!p)
        return NR_E_NOMEM;
    q->block = p;
    q->block_cap = want;
    return 0;
}

/* Room for n bytes in packed. */
static int packed_room(nr_rec_queue *q, size_t n)
{
    if (n <= q->packed_cap)
        return 0;
    void *p = realloc(q->packed, n);
    if (!p)
        return NR_E_NOMEM;
    q->packed = p;
    q->packed_cap = n;
    return 0;
}

/* Appends the fill records of block to the spool, compressed. */
static int spill_block(nr_rec_queue *q, nr_error *err)
{
    const size_t raw = q->fill * q->rec_size;
    if (q->uncompressed) {
        const block_head head = {.records = (uint32_t)q->fill, .packed_bytes = (uint32_t)raw};
        NR_TRY(nr_spool_append(&q->spool, &head, sizeof head, err));
        NR_TRY(nr_spool_append(&q->spool, q->block, raw, err));
        q->fill = 0;
        return 0;
    }
    const size_t bound = ZSTD_compressBound(raw);
    if (!q->cctx && !(q->cctx = ZSTD_createCCtx()))
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    if (packed_room(q, bound) < 0)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    const size_t n = ZSTD_compressCCtx(q->cctx, q->packed, bound, q->block, raw, SPILL_LEVEL);
    if (ZSTD_isError(n))
        return nr_error_set(err, NR_E_NOMEM, "compressing a temporary block: %s", ZSTD_getErrorName(n));
    const block_head head = {.records = (uint32_t)q->fill, .packed_bytes = (uint32_t)n};
    NR_TRY(nr_spool_append(&q->spool, &head, sizeof head, err));
    NR_TRY(nr_spool_append(&q->spool, q->packed, n, err));
    q->fill = 0;
    return 0;
}

int nr_rec_queue_push(nr_rec_queue *q, const void *rec, nr_error *err)
{
    if (q->sealed)
        return nr_error_set(err, NR_E_INPUT, "a record queue takes no records once read");
    if (q->fill == q->block_recs)
        NR_TRY(spill_block(q, err));
    if (block_room(q, q->fill + 1) < 0)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    memcpy(q->block + q->fill * q->rec_size, rec, q->rec_size);
    q->fill++;
    q->count++;
    return 0;
}

static void free_buffers(nr_rec_queue *q)
{
    free(q->block);
    free(q->packed);
    ZSTD_freeCCtx(q->cctx);
    q->block = q->packed = q->cctx = NULL;
    q->block_cap = q->packed_cap = 0;
}

int nr_rec_queue_park(nr_rec_queue *q, nr_error *err)
{
    if (q->sealed)
        return nr_error_set(err, NR_E_INPUT, "a record queue is parked after a read");
    if (q->fill > 0)
        NR_TRY(spill_block(q, err));
    free_buffers(q);
    return 0;
}

int nr_rec_queue_rewind(nr_rec_queue *q, nr_error *err)
{
    if (!q->sealed && spilled(q) && q->fill > 0)
        NR_TRY(spill_block(q, err));
    q->sealed = 1;
    ZSTD_freeCCtx(q->cctx); /* no more blocks to write: the sorter reads 16 queues at once */
    q->cctx = NULL;
    q->read_off = 0;
    q->read_at = 0;
    if (spilled(q))
        q->fill = 0; /* the block is where spilled blocks are read into */
    return 0;
}

/* Reads the spilled block at read_off into block. */
static int load_block(nr_rec_queue *q, nr_error *err)
{
    block_head head;
    NR_TRY(nr_spool_read(&q->spool, q->read_off, &head, sizeof head, err));
    if (head.records == 0 || head.records > q->block_recs ||
        head.packed_bytes > ZSTD_compressBound(q->block_recs * q->rec_size))
        return nr_error_set(err, NR_E_IO, "a temporary file in %s was changed under niorep", q->spool.dir);
    if (block_room(q, head.records) < 0 || (!q->uncompressed && packed_room(q, head.packed_bytes) < 0))
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    const size_t raw = (size_t)head.records * q->rec_size;
    if (q->uncompressed) {
        if (head.packed_bytes != raw)
            return nr_error_set(err, NR_E_IO, "a temporary file in %s was changed under niorep", q->spool.dir);
        NR_TRY(nr_spool_read(&q->spool, q->read_off + sizeof head, q->block, raw, err));
        q->read_off += sizeof head + raw;
        q->fill = head.records;
        q->read_at = 0;
        return 0;
    }
    NR_TRY(nr_spool_read(&q->spool, q->read_off + sizeof head, q->packed, head.packed_bytes, err));
    const size_t n = ZSTD_decompress(q->block, raw, q->packed, head.packed_bytes);
    if (ZSTD_isError(n) || n != raw)
        return nr_error_set(err, NR_E_IO, "a temporary file in %s was changed under niorep", q->spool.dir);
    q->read_off += sizeof head + head.packed_bytes;
    q->fill = head.records;
    q->read_at = 0;
    return 0;
}

int nr_rec_queue_next(nr_rec_queue *q, const void **rec, nr_error *err)
{
    if (!q->sealed)
        return nr_error_set(err, NR_E_INPUT, "a record queue is read after a rewind");
    if (q->read_at == q->fill) {
        if (!spilled(q) || q->read_off == q->spool.size)
            return 0;
        NR_TRY(load_block(q, err));
    }
    *rec = q->block + q->read_at++ * q->rec_size;
    return 1;
}

void nr_rec_queue_free(nr_rec_queue *q)
{
    free_buffers(q);
    nr_spool_close(&q->spool);
    *q = (nr_rec_queue){.spool = NR_SPOOL_INIT};
}
