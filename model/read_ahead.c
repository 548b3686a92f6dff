/* read_ahead: one thread per reader that decodes the row group after the
 * one the caller models. The caller asks for rg + 1 as soon as it has rg;
 * the thread decodes into chunks of its own, which the caller's next load
 * swaps with its spent ones (their buffers are reused). Chunk decoding
 * touches only the chunk and reads the store with pread, so the two
 * threads share nothing but this handshake. */
#include <pthread.h>
#include <stdlib.h>

#include "pass.h"

enum ahead_state { AHEAD_IDLE, AHEAD_ASKED, AHEAD_DONE };

struct nr__ahead {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    enum ahead_state state;
    int stop;
    size_t rg;                          /* the group asked for */
    int rc;                             /* its decode's result, when AHEAD_DONE */
    nr_error err;
    nr_col_chunk ch[NR_EV_COL_COUNT];   /* its chunks */
};

static void *ahead_main(void *arg)
{
    nr__reader *r = arg;
    nr__ahead *a = r->ahead;
    pthread_mutex_lock(&a->mu);
    for (;;) {
        while (a->state != AHEAD_ASKED && !a->stop)
            pthread_cond_wait(&a->cv, &a->mu);
        if (a->stop)
            break;
        const size_t rg = a->rg;
        pthread_mutex_unlock(&a->mu);
        nr_error err;
        nr_error_clear(&err);
        const int rc = nr__reader_decode(r, rg, a->ch, &err);
        pthread_mutex_lock(&a->mu);
        a->rc = rc;
        a->err = err;
        a->state = AHEAD_DONE;
        pthread_cond_broadcast(&a->cv);
    }
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

static void ahead_free(nr__ahead *a)
{
    for (int c = 0; c < NR_EV_COL_COUNT; c++)
        nr_col_chunk_fini(&a->ch[c]);
    pthread_cond_destroy(&a->cv);
    pthread_mutex_destroy(&a->mu);
    free(a);
}

void nr__ahead_start(nr__reader *r, int threads)
{
    if (threads < 2 || !r->t || r->ahead || nr_store_table_rowgroups(r->t) < 2)
        return;
    nr__ahead *a = calloc(1, sizeof *a);
    if (!a)
        return; /* decoded on the caller's thread, as without threads */
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    for (int c = 0; c < NR_EV_COL_COUNT; c++)
        nr_col_chunk_init(&a->ch[c]);
    r->ahead = a;
    if (pthread_create(&a->thread, NULL, ahead_main, r) != 0) {
        r->ahead = NULL;
        ahead_free(a);
    }
}

void nr__ahead_ask(nr__reader *r, size_t rg)
{
    nr__ahead *a = r->ahead;
    pthread_mutex_lock(&a->mu);
    a->rg = rg;
    a->state = AHEAD_ASKED;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
}

int nr__ahead_take(nr__reader *r, size_t rg, nr_error *err)
{
    nr__ahead *a = r->ahead;
    pthread_mutex_lock(&a->mu);
    while (a->state == AHEAD_ASKED)
        pthread_cond_wait(&a->cv, &a->mu);
    const int mine = a->state == AHEAD_DONE && a->rg == rg;
    const int rc = a->rc;
    a->state = AHEAD_IDLE;
    if (mine && rc < 0 && err)
        *err = a->err;
    pthread_mutex_unlock(&a->mu);
    if (!mine)
        return 0; /* another group (a rewind): decoded by the caller */
    if (rc < 0)
        return rc;
    for (int c = 0; c < NR_EV_COL_COUNT; c++) {
        const nr_col_chunk spent = r->ch[c];
        r->ch[c] = a->ch[c];
        a->ch[c] = spent;
    }
    return 1;
}

void nr__ahead_stop(nr__reader *r)
{
    nr__ahead *a = r->ahead;
    if (!a)
        return;
    pthread_mutex_lock(&a->mu);
    a->stop = 1;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->thread, NULL);
    r->ahead = NULL;
    ahead_free(a);
}
