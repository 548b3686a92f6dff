/* nr_parallel: a shared next-index counter under one mutex; an item (a
 * run's model, a figure, the opening of a log) costs far more than the lock. */
#include "nr_parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct pool {
    pthread_mutex_t mu;
    size_t next, n;
    void (*item)(void *ctx, size_t i);
    void *ctx;
    void (*thread_end)(void);
} pool;

int nr_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void take_items(pool *p)
{
    for (;;) {
        pthread_mutex_lock(&p->mu);
        size_t i = p->next++;
        pthread_mutex_unlock(&p->mu);
        if (i >= p->n)
            return;
        p->item(p->ctx, i);
    }
}

static void *worker(void *arg)
{
    pool *p = arg;
    take_items(p);
    if (p->thread_end)
        p->thread_end();
    return NULL;
}

void nr_parallel_for(size_t n, int threads, void (*item)(void *ctx, size_t i), void *ctx,
                     void (*thread_end)(void))
{
    pool p = {.n = n, .item = item, .ctx = ctx, .thread_end = thread_end};
    size_t want = threads > 1 ? (size_t)threads : 1;
    if (want > n)
        want = n;
    size_t extra = want > 1 ? want - 1 : 0;
    pthread_t *tid = extra ? calloc(extra, sizeof *tid) : NULL;
    if (!tid)
        extra = 0; /* no memory for threads: all on this one */
    pthread_mutex_init(&p.mu, NULL);
    size_t started = 0;
    for (; started < extra; started++)
        if (pthread_create(&tid[started], NULL, worker, &p) != 0)
            break;
    take_items(&p);
    for (size_t t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&p.mu);
    free(tid);
}
