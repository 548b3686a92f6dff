/* par_write: a ring of PAR_WRITE_BATCHES batches; the caller fills one
 * (columns copied, the syscall and errno names copied into the batch's
 * text), the writer thread empties the oldest full one into the table. One
 * mutex, one condition variable; a batch belongs to the filler or to the
 * writer, never to both. */
#include "par_write.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "nr_schema.h"

#define PAR_WRITE_BATCHES 3
#define PAR_WRITE_ROWS 32768

typedef struct ev_rec {
    int64_t ts_ns, dur_ns, pid, tid, fd, file_id, file2_id, bytes, offset, result, phase_id;
    int64_t op_class;
    uint32_t flags;
    uint32_t syscall_off, syscall_len, errno_off, errno_len;
} ev_rec;

typedef struct ev_batch {
    ev_rec *recs;
    size_t n;
    char *text;
    size_t text_len, text_cap;
} ev_batch;

struct nr_par_write {
    nr_table_writer *t;
    int threaded;
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

static void write_rec(nr_table_writer *t, const ev_rec *r, const char *text)
{
    nr_table_set_i64(t, NR_EV_TS_NS, r->ts_ns);
    nr_table_set_i64(t, NR_EV_DUR_NS, r->dur_ns);
    nr_table_set_i64(t, NR_EV_PID, r->pid);
    nr_table_set_i64(t, NR_EV_TID, r->tid);
    nr_table_set_str(t, NR_EV_SYSCALL, text + r->syscall_off, r->syscall_len);
    nr_table_set_i64(t, NR_EV_OP_CLASS, r->op_class);
    nr_table_set_i64(t, NR_EV_FD, r->fd);
    nr_table_set_i64(t, NR_EV_FILE_ID, r->file_id);
    nr_table_set_i64(t, NR_EV_FILE2_ID, r->file2_id);
    nr_table_set_i64(t, NR_EV_BYTES, r->bytes);
    nr_table_set_i64(t, NR_EV_OFFSET, r->offset);
    nr_table_set_i64(t, NR_EV_RESULT, r->result);
    nr_table_set_str(t, NR_EV_ERRNO, text + r->errno_off, r->errno_len);
    nr_table_set_i64(t, NR_EV_FLAGS, r->flags);
    nr_table_set_i64(t, NR_EV_PHASE_ID, r->phase_id);
}

/* Writes the rows of b; 0 or the table's error. */
static int write_batch(nr_table_writer *t, const ev_batch *b, nr_error *err)
{
    for (size_t i = 0; i < b->n; i++) {
        write_rec(t, &b->recs[i], b->text);
        NR_TRY(nr_table_end_row(t, err));
    }
    return 0;
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
        b->n = 0;
        b->text_len = 0;
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
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    size_t nb = threaded ? PAR_WRITE_BATCHES : 1;
    for (size_t i = 0; i < nb; i++) {
        ev_batch *b = &w->batch[i];
        b->text_cap = 4096; /* never NULL: an empty name is a real empty string */
        b->recs = malloc((threaded ? PAR_WRITE_ROWS : 1) * sizeof *b->recs);
        b->text = malloc(b->text_cap);
        if (!b->recs || !b->text) {
            nr_par_write_destroy(w);
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
        }
    }
    if (threaded && pthread_create(&w->thread, NULL, writer_main, w) == 0)
        w->threaded = 1; /* without the thread: the same rows, written directly */
    *out = w;
    return 0;
}

static int put_text(ev_batch *b, nr_span s, uint32_t *off, uint32_t *len)
{
    if (b->text_len + s.n > b->text_cap) {
        size_t cap = b->text_cap ? b->text_cap : 4096;
        while (cap < b->text_len + s.n)
            cap *= 2;
        char *p = realloc(b->text, cap);
        if (!p)
            return -1;
        b->text = p;
        b->text_cap = cap;
    }
    if (s.n)
        memcpy(b->text + b->text_len, s.p, s.n);
    *off = (uint32_t)b->text_len;
    *len = (uint32_t)s.n;
    b->text_len += s.n;
    return 0;
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

int nr_par_write_event(nr_par_write *w, const nr_pm_event *ev, int64_t phase_id, nr_error *err)
{
    ev_batch *b = &w->batch[w->fill];
    ev_rec *r = &b->recs[b->n];
    *r = (ev_rec){.ts_ns = ev->ts_ns, .dur_ns = ev->dur_ns, .pid = ev->pid, .tid = ev->tid, .fd = ev->fd,
                  .file_id = ev->file_id, .file2_id = ev->file2_id, .bytes = ev->bytes,
                  .offset = ev->offset, .result = ev->result, .phase_id = phase_id,
                  .op_class = ev->op_class, .flags = ev->flags};
    if (put_text(b, ev->syscall, &r->syscall_off, &r->syscall_len) < 0 ||
        put_text(b, ev->errno_name, &r->errno_off, &r->errno_len) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    b->n++;
    if (!w->threaded) {
        /* direct: the row now, as the store has always been written */
        write_rec(w->t, r, b->text);
        b->n = b->text_len = 0;
        return nr_table_end_row(w->t, err);
    }
    if (b->n == PAR_WRITE_ROWS)
        return hand_over(w, err);
    return 0;
}

int nr_par_write_finish(nr_par_write *w, nr_error *err)
{
    if (!w->threaded)
        return 0;
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
    for (size_t i = 0; i < PAR_WRITE_BATCHES; i++) {
        free(w->batch[i].recs);
        free(w->batch[i].text);
    }
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}
