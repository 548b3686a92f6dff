/* par_write: a ring of PAR_WRITE_BATCHES batches; the caller fills one,
 * column by column (the syscall and errno names interned into the batch's
 * own string table), the writer thread empties the oldest full one into the
 * table with one nr_table_append_rows. One mutex, one condition variable; a
 * batch belongs to the filler or to the writer, never to both. Unthreaded,
 * the one batch is written whenever it fills and at finish. */
#include "par_write.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "nr_schema.h"
#include "nr_strtab.h"

#define PAR_WRITE_BATCHES 3
#define PAR_WRITE_ROWS 32768       /* rows of a batch handed to the thread */
#define PAR_WRITE_ROWS_DIRECT 4096 /* rows of the one batch written unthreaded */
/* Direct-mapped cache in front of a batch's names: syscall and errno repeat
 * a few short strings, and a hit costs one compare instead of a hash. */
#define NAME_CACHE_SLOTS 64u

typedef struct ev_batch {
    int64_t *i64[NR_EV_COL_COUNT];  /* I64 columns: the values of rows 0..n; NULL for STR columns */
    uint32_t *ids[NR_EV_COL_COUNT]; /* STR columns (syscall, errno): ids into names; else NULL */
    nr_strtab names;                /* the syscall and errno names of the batch */
    uint32_t recent[NAME_CACHE_SLOTS]; /* 1 + id in names of a recent name, by cheap key; 0 = empty */
    uint32_t empty_id;              /* 1 + id in names of "", 0 = not yet */
    size_t n;
} ev_batch;

struct nr_par_write {
    nr_table_writer *t;
    int threaded;
    size_t rows;       /* rows per batch */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    ev_batch batch[PAR_WRITE_BATCHES];
    size_t head;       /* oldest full batch (the writer's next) */
    size_t full;       /* full batches queued */
    int writing;       /* the writer holds batch[head] */
    int closing;       /* no batch follows the queued ones */
    int stop;          /* drop everything */
    int rc;            /* the writer's first error */
    nr_error err;
    size_t fill;       /* the batch being filled (caller) */
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
    b->empty_id = 0;
}

static int batch_alloc(ev_batch *b, size_t rows)
{
    nr_strtab_init(&b->names);
    for (size_t c = 0; c < NR_EV_COL_COUNT; c++) {
        if (nr_events_table.cols[c].type == NR_COL_I64)
            b->i64[c] = malloc(rows * sizeof *b->i64[c]);
        else
            b->ids[c] = malloc(rows * sizeof *b->ids[c]);
        if (!b->i64[c] && !b->ids[c])
            return NR_E_NOMEM;
    }
    return 0;
}

static void batch_free(ev_batch *b)
{
    for (size_t c = 0; c < NR_EV_COL_COUNT; c++) {
        free(b->i64[c]);
        free(b->ids[c]);
    }
    nr_strtab_fini(&b->names);
}

static void *writer_main(void *arg)
{
    nr_par_write *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->stop && !w->full && !w->closing)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->stop || (!w->full && w->closing))
            break;
        ev_batch *b = &w->batch[w->head];
        w->writing = 1;
        int failed = w->rc < 0;
        pthread_mutex_unlock(&w->mu);
        nr_error err;
        int rc = failed ? 0 : write_batch(w->t, b, &err);
        pthread_mutex_lock(&w->mu);
        if (rc < 0 && w->rc == 0) {
            w->rc = rc;
            w->err = err;
        }
        batch_clear(b);
        w->writing = 0;
        w->head = (w->head + 1) % PAR_WRITE_BATCHES;
        w->full--;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

int nr_par_write_create(nr_table_writer *t, int threaded, nr_par_write **out, nr_error *err)
{
    *out = NULL;
    nr_par_write *w = calloc(1, sizeof *w);
    if (!w)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    w->t = t;
    w->rows = threaded ? PAR_WRITE_ROWS : PAR_WRITE_ROWS_DIRECT;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    size_t nb = threaded ? PAR_WRITE_BATCHES : 1;
    for (size_t i = 0; i < nb; i++)
        if (batch_alloc(&w->batch[i], w->rows) < 0) {
            nr_par_write_destroy(w);
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
        }
    if (threaded && pthread_create(&w->thread, NULL, writer_main, w) == 0)
        w->threaded = 1; /* without the thread: the same rows, written by the caller */
    *out = w;
    return 0;
}

static size_t name_slot(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    return ((unsigned char)s[0] * 7u + (unsigned char)s[n - 1] * 13u + n) & (NAME_CACHE_SLOTS - 1);
}

/* The id of name s in b's names (interned on a cache miss), or NR_E_NOMEM. */
static int64_t name_id(ev_batch *b, nr_span s)
{
    const char *p = s.n ? s.p : ""; /* an empty name is a real empty string */
    uint32_t *recent = &b->recent[name_slot(p, s.n)];
    if (*recent) {
        uint32_t id = *recent - 1;
        if (nr_strtab_len(&b->names, id) == s.n && memcmp(nr_strtab_str(&b->names, id), p, s.n) == 0)
            return id;
    }
    int64_t id = nr_strtab_intern(&b->names, p, s.n);
    if (id >= 0)
        *recent = (uint32_t)id + 1;
    if (id >= 0 && s.n == 0)
        b->empty_id = (uint32_t)id + 1; /* no errno, most rows: nr_par_write_event skips the lookup */
    return id;
}

/* Hands the full batch w->fill to the writer and waits for a free one. */
static int hand_over(nr_par_write *w, nr_error *err)
{
    pthread_mutex_lock(&w->mu);
    w->full++;
    w->fill = (w->fill + 1) % PAR_WRITE_BATCHES;
    pthread_cond_broadcast(&w->cv);
    while (w->full == PAR_WRITE_BATCHES && w->rc == 0)
        pthread_cond_wait(&w->cv, &w->mu);
    int rc = w->rc;
    if (rc < 0)
        *err = w->err;
    pthread_mutex_unlock(&w->mu);
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

int nr_par_write_event(nr_par_write *w, const nr_pm_event *ev, int64_t phase_id, nr_error *err)
{
    ev_batch *b = &w->batch[w->fill];
    size_t i = b->n;
    int64_t syscall = name_id(b, ev->syscall);
    int64_t errno_name = ev->errno_name.n == 0 && b->empty_id ? b->empty_id - 1 : name_id(b, ev->errno_name);
    if (syscall < 0 || errno_name < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    b->i64[NR_EV_TS_NS][i] = ev->ts_ns;
    b->i64[NR_EV_DUR_NS][i] = ev->dur_ns;
    b->i64[NR_EV_PID][i] = ev->pid;
    b->i64[NR_EV_TID][i] = ev->tid;
    b->ids[NR_EV_SYSCALL][i] = (uint32_t)syscall;
    b->i64[NR_EV_OP_CLASS][i] = ev->op_class;
    b->i64[NR_EV_FD][i] = ev->fd;
    b->i64[NR_EV_FILE_ID][i] = ev->file_id;
    b->i64[NR_EV_FILE2_ID][i] = ev->file2_id;
    b->i64[NR_EV_BYTES][i] = ev->bytes;
    b->i64[NR_EV_OFFSET][i] = ev->offset;
    b->i64[NR_EV_RESULT][i] = ev->result;
    b->ids[NR_EV_ERRNO][i] = (uint32_t)errno_name;
    b->i64[NR_EV_FLAGS][i] = ev->flags;
    b->i64[NR_EV_PHASE_ID][i] = phase_id;
    b->n = i + 1;
    if (b->n < w->rows)
        return 0;
    return w->threaded ? hand_over(w, err) : write_direct(w, err);
}

int nr_par_write_finish(nr_par_write *w, nr_error *err)
{
    if (!w->threaded)
        return write_direct(w, err);
    pthread_mutex_lock(&w->mu);
    if (w->batch[w->fill].n) {
        w->full++;
        w->fill = (w->fill + 1) % PAR_WRITE_BATCHES;
    }
    w->closing = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    w->threaded = 0;
    if (w->rc < 0) {
        *err = w->err;
        return w->rc;
    }
    return 0;
}

void nr_par_write_destroy(nr_par_write *w)
{
    if (!w)
        return;
    if (w->threaded) {
        pthread_mutex_lock(&w->mu);
        w->stop = 1;
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
        pthread_join(w->thread, NULL);
    }
    for (size_t i = 0; i < PAR_WRITE_BATCHES; i++)
        batch_free(&w->batch[i]);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}
