/* par_write: a ring of PAR_WRITE_BATCHES batches; the caller fills one,
 * column by column (the syscall and errno names interned into the batch's
 * own string table); a pool worker (or the caller, when the ring is full)
 * empties the oldest full one into the table with one nr_table_append_rows,
 * one writer at a time (flag `writing`). One mutex, one condition variable;
 * a batch belongs to the filler or to the writer, never to both. Unthreaded,
 * the one batch is written whenever it fills and at finish. */
#include "par_write.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "nr_mem.h"
#include "nr_schema.h"
#include "nr_strtab.h"
#include "syscalls.h"

/* A batch is a whole row group: the table encodes its I64 columns in place
 * (nr_table_append_rows) instead of copying them into its own. Three let
 * the pass fill one while a worker writes another and a third waits; their
 * blocks are made as needed (give_fill_a_block): two, unless the worker
 * falls behind. */
#define PAR_WRITE_BATCHES 3
#define PAR_WRITE_ROWS NR_STORE_ROWS_PER_GROUP
/* Direct-mapped cache in front of a batch's names: syscall and errno repeat
 * a few short strings, and a hit costs two compares of words loaded from the
 * name instead of a hash, a call and a memcmp. */
#define NAME_CACHE_BITS 6
#define NAME_CACHE_SLOTS (1u << NAME_CACHE_BITS)
#define NAME_KEY_MAX 16u /* longer names are checked against the batch's copy */

/* A recent name: its length and the words name_key loads from it; these
 * determine a name of at most NAME_KEY_MAX bytes. */
typedef struct name_slot {
    uint64_t head, tail;
    uint32_t len;
    uint32_t id1; /* 1 + id in the batch's names; 0 = empty slot */
} name_slot;

typedef struct ev_batch {
    void *block;                    /* owns every column's array (batch_alloc) */
    int64_t *i64[NR_EV_COL_COUNT];  /* I64 columns: the values of rows 0..n; NULL for STR columns */
    uint32_t *ids[NR_EV_COL_COUNT]; /* STR columns (syscall, errno): ids into names; else NULL */
    nr_strtab names;                /* the syscall and errno names of the batch */
    name_slot recent[NAME_CACHE_SLOTS]; /* recent names, by name_key */
    uint32_t *syscall_id1;          /* by syscall table index (nr_pm_event.syscall_ref): 1 + id in names, 0 = not yet */
    size_t nsyscalls;               /* entries of syscall_id1: nr_syscall_count() */
    uint32_t empty_id;              /* 1 + id in names of "", 0 = not yet */
    size_t n;
} ev_batch;

struct nr_par_write {
    nr_table_writer *t;
    nr_par_lex *pool;  /* its workers write the queued batches; NULL: unthreaded */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    ev_batch batch[PAR_WRITE_BATCHES];
    size_t head;       /* oldest full batch (the writer's next) */
    size_t full;       /* full batches queued */
    int writing;       /* a thread is writing batch[head] */
    int rc;            /* the first error of writing */
    nr_error err;
    size_t fill;       /* the batch being filled (caller) */
    int spare_wanted;  /* a worker is to make the second block (make_spare_block) */
    int finished;      /* nr_par_write_finish has taken the batches back: no spare any more */
    int populate_first; /* a worker is to fault in the first block's pages */
};

/* Writes the rows of b in one call; 0 or the table's error. */
static int write_batch(nr_table_writer *t, const ev_batch *b, nr_error *err)
{
    nr_col_values cols[NR_EV_COL_COUNT];
    for (size_t c = 0; c < NR_EV_COL_COUNT; c++)
        cols[c] = (nr_col_values){.i64 = b->i64[c], .ids = b->ids[c], .dict = &b->names};
    return nr_table_append_rows(t, cols, b->n, err);
}

/* Empties b for the next rows. */
static void batch_clear(ev_batch *b)
{
    b->n = 0;
    nr_strtab_reset(&b->names);
    memset(b->recent, 0, sizeof b->recent);
    memset(b->syscall_id1, 0, b->nsyscalls * sizeof *b->syscall_id1);
    b->empty_id = 0;
}

/* Bytes between the starts of two columns of a batch beyond their arrays:
 * one cache line more per column. Page-aligned arrays (malloc's of this
 * size) put row i of every column in the same L1 set, and a row's 15
 * stores then evict each other's lines (12 ways). */
#define COLUMN_SKEW 64u

/* The STR columns of table events (ids into the batch's names), as store/nr_schema.c
 * defines them; the others are I64. */
static inline int is_id_col(int c) { return c == NR_EV_SYSCALL || c == NR_EV_ERRNO; }

/* Bytes of an I64 and of an id column of a batch, the skew included. */
#define I64_COL_BYTES ((PAR_WRITE_ROWS * sizeof(int64_t) + COLUMN_SKEW - 1) / COLUMN_SKEW * COLUMN_SKEW + COLUMN_SKEW)
#define ID_COL_BYTES ((PAR_WRITE_ROWS * sizeof(uint32_t) + COLUMN_SKEW - 1) / COLUMN_SKEW * COLUMN_SKEW + COLUMN_SKEW)

/* Where column c starts in a batch's block: a constant for a constant c,
 * so that nr_par_write_event stores a row at fixed offsets from one
 * pointer instead of loading each column's. */
static inline size_t col_offset(int c)
{
    size_t off = 0;
    for (int k = 0; k < c; k++)
        off += is_id_col(k) ? ID_COL_BYTES : I64_COL_BYTES;
    return off;
}

/* The columns of b, one block: column c starts c cache lines further into
 * its page than column 0. */
static int batch_alloc(ev_batch *b)
{
    nr_strtab_init(&b->names);
    b->nsyscalls = nr_syscall_count();
    if (!(b->syscall_id1 = calloc(b->nsyscalls, sizeof *b->syscall_id1)))
        return NR_E_NOMEM;
    char *p = b->block = nr_alloc_dense(col_offset(NR_EV_COL_COUNT));
    if (!p)
        return NR_E_NOMEM;
    for (int c = 0; c < NR_EV_COL_COUNT; c++) {
        if (is_id_col(c))
            b->ids[c] = (uint32_t *)(void *)(p + col_offset(c));
        else
            b->i64[c] = (int64_t *)(void *)(p + col_offset(c));
    }
    return 0;
}

static void batch_free(ev_batch *b)
{
    free(b->block);
    free(b->syscall_id1);
    nr_strtab_fini(&b->names);
}

/* Writes the oldest queued batch unless none is queued or another thread
 * is writing one: returns 1 when it wrote (or dropped, after an error) a
 * batch, else 0. Any thread; takes w's lock. */
static int write_oldest(nr_par_write *w)
{
    pthread_mutex_lock(&w->mu);
    if (w->writing || !w->full) {
        pthread_mutex_unlock(&w->mu);
        return 0;
    }
    ev_batch *b = &w->batch[w->head];
    w->writing = 1;
    const int failed = w->rc < 0;
    pthread_mutex_unlock(&w->mu);
    nr_error err;
    const int rc = failed ? 0 : write_batch(w->t, b, &err);
    batch_clear(b);
    pthread_mutex_lock(&w->mu);
    if (rc < 0 && w->rc == 0) {
        w->rc = rc;
        w->err = err;
    }
    w->writing = 0;
    w->head = (w->head + 1) % PAR_WRITE_BATCHES;
    w->full--;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return 1;
}

static _Atomic int hold_workers; /* nr__par_write_hold_workers */

void nr__par_write_hold_workers(int on) { hold_workers = on; }

/* The second block, made and first touched by a worker while the pass
 * models its first chunks, which a worker cannot take: the pass's first
 * hand-over then finds it ready (give_fill_a_block) instead of taking 8 MB
 * of first touches on its own time (docs/performance.md, session 16).
 * 1 when it did. Any thread; takes w's lock. */
static int make_spare_block(nr_par_write *w)
{
    pthread_mutex_lock(&w->mu);
    const int wanted = w->spare_wanted;
    w->spare_wanted = 0;
    pthread_mutex_unlock(&w->mu);
    if (!wanted)
        return 0;
    ev_batch spare = {.block = NULL};
    if (batch_alloc(&spare) < 0) { /* the pass makes one when it needs it */
        batch_free(&spare);
        return 1;
    }
    const size_t bytes = col_offset(NR_EV_COL_COUNT);
    for (size_t off = 0; off < bytes; off += 4096)
        ((volatile char *)spare.block)[off] = 0;
    pthread_mutex_lock(&w->mu);
    size_t empty = PAR_WRITE_BATCHES;
    for (size_t i = 0; i < PAR_WRITE_BATCHES && empty == PAR_WRITE_BATCHES && !w->finished; i++)
        if (!w->batch[i].block) /* neither filled nor queued: idle once it has a block */
            empty = i;
    if (empty < PAR_WRITE_BATCHES)
        w->batch[empty] = spare;
    pthread_mutex_unlock(&w->mu);
    if (empty == PAR_WRITE_BATCHES)
        batch_free(&spare);
    return 1;
}

/* The first block's pages faulted in by a worker (MADV_POPULATE_WRITE,
 * which leaves their bytes as they are, so the pass may be filling the
 * block meanwhile): the pass's first row group then takes fewer first
 * touches on its own time, as the spare block's do (make_spare_block).
 * About 8 MB of fresh pages at 2.65-3.27 ms per MB on this VM when the
 * host has taken the memory back (bench/first_touch.c, session 27). 1 when it did.
 * Any thread; takes w's lock. */
static int populate_first_block(nr_par_write *w)
{
    pthread_mutex_lock(&w->mu);
    const int wanted = w->populate_first;
    w->populate_first = 0;
    void *block = w->batch[0].block;
    pthread_mutex_unlock(&w->mu);
    if (!wanted || !block)
        return 0;
#ifdef MADV_POPULATE_WRITE /* Linux 5.14; an older kernel's EINVAL leaves the touches to the pass */
    const uintptr_t page = 4096, start = (uintptr_t)block & ~(page - 1);
    (void)madvise((void *)start, (uintptr_t)block + col_offset(NR_EV_COL_COUNT) - start, MADV_POPULATE_WRITE);
#endif
    return 1;
}

/* par_lex's side work: the first block's pages and the spare block when
 * they are wanted, then every batch queued by now. */
static int write_side_work(void *ctx)
{
    nr_par_write *w = ctx;
    if (hold_workers)
        return 0;
    int did = populate_first_block(w);
    did |= make_spare_block(w);
    while (write_oldest(w))
        did = 1;
    return did;
}

int nr_par_write_create(nr_table_writer *t, nr_par_lex *pool, nr_par_write **out, nr_error *err)
{
    *out = NULL;
    nr_par_write *w = calloc(1, sizeof *w);
    if (!w)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    w->t = t;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (batch_alloc(&w->batch[0]) < 0) { /* the others when needed: give_fill_a_block */
        nr_par_write_destroy(w);
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    }
    w->pool = pool; /* without workers: the same rows, written by the caller */
    if (pool) {
        nr_par_lex_set_side_work(pool, write_side_work, w);
        w->populate_first = 1;
        nr_par_lex_wake(pool);
    }
    *out = w;
    return 0;
}

void nr_par_write_make_spare(nr_par_write *w)
{
    if (!w->pool)
        return;
    pthread_mutex_lock(&w->mu);
    w->spare_wanted = 1;
    pthread_mutex_unlock(&w->mu);
    nr_par_lex_wake(w->pool);
}

static uint64_t load_u64(const char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint32_t load_u32(const char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Words of name p[0..n) that, with n, determine it when n <= NAME_KEY_MAX:
 * overlapping loads of its first and last 8 (or 4) bytes, or its bytes 0,
 * n/2 and n-1; reads only inside the name. */
static inline __attribute__((always_inline)) void name_key(const char *p, size_t n, uint64_t *head, uint64_t *tail)
{
    const unsigned char *u = (const unsigned char *)p;
    if (n >= 8) {
        *head = load_u64(p);
        *tail = load_u64(p + n - 8);
    } else if (n >= 4) {
        *head = load_u32(p);
        *tail = load_u32(p + n - 4);
    } else {
        *head = n ? (uint64_t)u[0] | (uint64_t)u[n / 2] << 8 | (uint64_t)u[n - 1] << 16 : 0;
        *tail = 0;
    }
}

/* A cache miss of name_id: interns p[0..n) and remembers it in slot. */
static __attribute__((noinline)) int64_t name_id_miss(ev_batch *b, name_slot *slot, const char *p, size_t n,
                                                      uint64_t head, uint64_t tail)
{
    int64_t id = nr_strtab_intern(&b->names, p, n);
    if (id < 0)
        return id;
    *slot = (name_slot){.head = head, .tail = tail, .len = (uint32_t)n, .id1 = (uint32_t)id + 1};
    if (n == 0)
        b->empty_id = (uint32_t)id + 1; /* no errno, most rows: nr_par_write_event skips the lookup */
    return id;
}

/* The id of name s in b's names (interned on a cache miss), or NR_E_NOMEM.
 * Inlined: a hit is a few instructions, fewer than a call's. */
static inline __attribute__((always_inline)) int64_t name_id(ev_batch *b, nr_span s)
{
    const char *p = s.n ? s.p : ""; /* an empty name is a real empty string */
    uint64_t head, tail;
    name_key(p, s.n, &head, &tail);
    name_slot *slot = &b->recent[((head ^ tail << 1 ^ s.n) * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - NAME_CACHE_BITS)];
    if (slot->id1 && slot->len == s.n && slot->head == head && slot->tail == tail) {
        uint32_t id = slot->id1 - 1;
        if (s.n <= NAME_KEY_MAX || memcmp(nr_strtab_str(&b->names, id), p, s.n) == 0)
            return id;
    }
    return name_id_miss(b, slot, p, s.n, head, tail);
}

/* The id of ev's syscall name in b's names: by its table index when the
 * model gave it (an array read instead of name_id's hash and compares),
 * else by name_id. Either way the name is interned on first use, so the
 * ids are the same. */
static inline __attribute__((always_inline)) int64_t syscall_id(ev_batch *b, const nr_pm_event *ev)
{
    size_t k = (size_t)ev->syscall_ref - NR_SLINE_SYSCALL_FIRST;
    if (ev->syscall_ref < NR_SLINE_SYSCALL_FIRST || k >= b->nsyscalls)
        return name_id(b, ev->syscall);
    if (b->syscall_id1[k])
        return b->syscall_id1[k] - 1;
    int64_t id = name_id(b, ev->syscall);
    if (id >= 0)
        b->syscall_id1[k] = (uint32_t)id + 1;
    return id;
}

/* With w->mu held: waits for the worker writing a batch, or, when none is,
 * writes the oldest queued batch itself (without the lock). */
static void write_or_wait(nr_par_write *w)
{
    if (w->writing) {
        pthread_cond_wait(&w->cv, &w->mu);
        return;
    }
    pthread_mutex_unlock(&w->mu);
    write_oldest(w);
    pthread_mutex_lock(&w->mu);
}

/* The fill slot, which has no block yet: the block of a batch neither
 * queued nor filled (written already), else a new one. The worker writes
 * a batch before the pass fills the next (a third was needed at none of
 * the 1 GB log's 105 hand-overs, 3 runs at -j 2), so two blocks take turns and a third, 8 MB of
 * fresh pages, is made only when the worker falls behind. With w->mu
 * held; 0 or NR_E_NOMEM. */
static int give_fill_a_block(nr_par_write *w)
{
    for (size_t k = 1; k < PAR_WRITE_BATCHES; k++) {
        size_t i = (w->fill + k) % PAR_WRITE_BATCHES;
        const size_t from_head = (i + PAR_WRITE_BATCHES - w->head) % PAR_WRITE_BATCHES;
        if (w->batch[i].block && from_head >= w->full) { /* not queued: idle, cleared */
            ev_batch idle = w->batch[i];
            w->batch[i] = w->batch[w->fill];
            w->batch[w->fill] = idle;
            return 0;
        }
    }
    return batch_alloc(&w->batch[w->fill]);
}

/* Queues the full batch w->fill for the workers and gets a free one: when
 * every batch is queued, writes the oldest itself, or waits for the worker
 * writing it. */
static int hand_over(nr_par_write *w, nr_error *err)
{
    pthread_mutex_lock(&w->mu);
    w->full++;
    w->fill = (w->fill + 1) % PAR_WRITE_BATCHES;
    while (w->full == PAR_WRITE_BATCHES && w->rc == 0)
        write_or_wait(w);
    int rc = w->rc;
    if (rc == 0 && !w->batch[w->fill].block && give_fill_a_block(w) < 0)
        rc = w->rc = nr_error_set(&w->err, NR_E_NOMEM, "ingest: out of memory");
    if (rc < 0)
        *err = w->err;
    pthread_mutex_unlock(&w->mu);
    nr_par_lex_wake(w->pool);
    return rc;
}

/* Unthreaded: writes the one batch and empties it. */
static int write_direct(nr_par_write *w, nr_error *err)
{
    ev_batch *b = &w->batch[0];
    int rc = b->n ? write_batch(w->t, b, err) : 0;
    batch_clear(b);
    return rc;
}

/* Rows ahead of the one being filled whose cache lines a threaded batch
 * asks for (for writing) once every 8 rows (one line of an I64 column):
 * see prefetch_rows. */
#define PREFETCH_AHEAD 32u

/* A threaded batch was last read by the worker that wrote it to the store,
 * so each new cache line of its 15 columns must first be fetched from the
 * other core. Stores that wait for those lines fill the store buffer, and
 * the pass then stalls on loads that cannot be forwarded from it (measured:
 * nr_pm_feed 10% of the samples at -j 2 against 3% at -j 1). Asking for the
 * lines PREFETCH_AHEAD rows early takes the wait off the pass. Unthreaded,
 * the one batch (a row group: 7 MB) is not in this core's cache either. */
static inline __attribute__((always_inline)) void prefetch_rows(const ev_batch *b, size_t i)
{
    if ((i & 7) != 0 || i + 2 * PREFETCH_AHEAD >= PAR_WRITE_ROWS)
        return;
    for (size_t c = 0; c < NR_EV_COL_COUNT; c++) {
        if (b->i64[c])
            __builtin_prefetch(&b->i64[c][i + PREFETCH_AHEAD], 1);
        else if ((i & 15) == 0)
            __builtin_prefetch(&b->ids[c][i + 2 * PREFETCH_AHEAD], 1);
    }
}

/* Row i of I64 column c (id column c) of a batch's block: one store at a
 * constant offset from block. */
static inline __attribute__((always_inline)) void put_i64(char *block, int c, size_t i, int64_t v)
{
    ((int64_t *)(void *)(block + col_offset(c)))[i] = v;
}

static inline __attribute__((always_inline)) void put_id(char *block, int c, size_t i, uint32_t v)
{
    ((uint32_t *)(void *)(block + col_offset(c)))[i] = v;
}

int nr_par_write_event(nr_par_write *w, const nr_pm_event *ev, int64_t phase_id, nr_error *err)
{
    ev_batch *b = &w->batch[w->fill];
    size_t i = b->n;
    prefetch_rows(b, i);
    int64_t syscall = syscall_id(b, ev);
    int64_t errno_name = ev->errno_name.n == 0 && b->empty_id ? b->empty_id - 1 : name_id(b, ev->errno_name);
    if (syscall < 0 || errno_name < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    char *row = b->block;
    put_i64(row, NR_EV_TS_NS, i, ev->ts_ns);
    put_i64(row, NR_EV_DUR_NS, i, ev->dur_ns);
    put_i64(row, NR_EV_PID, i, ev->pid);
    put_i64(row, NR_EV_TID, i, ev->tid);
    put_id(row, NR_EV_SYSCALL, i, (uint32_t)syscall);
    put_i64(row, NR_EV_OP_CLASS, i, ev->op_class);
    put_i64(row, NR_EV_FD, i, ev->fd);
    put_i64(row, NR_EV_FILE_ID, i, ev->file_id);
    put_i64(row, NR_EV_FILE2_ID, i, ev->file2_id);
    put_i64(row, NR_EV_BYTES, i, ev->bytes);
    put_i64(row, NR_EV_OFFSET, i, ev->offset);
    put_i64(row, NR_EV_RESULT, i, ev->result);
    put_id(row, NR_EV_ERRNO, i, (uint32_t)errno_name);
    put_i64(row, NR_EV_FLAGS, i, ev->flags);
    put_i64(row, NR_EV_PHASE_ID, i, phase_id);
    b->n = i + 1;
    if (b->n < PAR_WRITE_ROWS)
        return 0;
    return w->pool ? hand_over(w, err) : write_direct(w, err);
}

/* The batches after the last row is written: freed now, so that the
 * tables written after the events reuse their memory instead of touching
 * fresh pages (docs/performance.md, session 11). */
static void free_batches(nr_par_write *w)
{
    for (size_t i = 0; i < PAR_WRITE_BATCHES; i++) {
        batch_free(&w->batch[i]);
        w->batch[i] = (ev_batch){.block = NULL};
    }
}

int nr_par_write_finish(nr_par_write *w, nr_error *err)
{
    if (!w->pool) {
        int rc = write_direct(w, err);
        free_batches(w);
        return rc;
    }
    pthread_mutex_lock(&w->mu);
    if (w->batch[w->fill].n) {
        w->full++;
        w->fill = (w->fill + 1) % PAR_WRITE_BATCHES;
    }
    while (w->full || w->writing)
        write_or_wait(w);
    int rc = w->rc;
    if (rc < 0)
        *err = w->err;
    w->finished = 1; /* a worker still making the spare frees it */
    w->spare_wanted = 0;
    pthread_mutex_unlock(&w->mu);
    free_batches(w); /* no thread writes a batch, or installs one, any more */
    return rc;
}

void nr_par_write_destroy(nr_par_write *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < PAR_WRITE_BATCHES; i++)
        batch_free(&w->batch[i]);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}
