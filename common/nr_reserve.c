#include "nr_reserve.h"
#include "nr_mem.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

typedef struct made_block {
    void *p;
    size_t whole;
} made_block;

struct nr_reserve {
    pthread_mutex_t mu;
    void (*wake)(void *ctx);
    void *wake_ctx;
    size_t wanted[NR_RESERVE_BLOCKS];
    size_t nwanted;
    made_block made[NR_RESERVE_BLOCKS];
    size_t nmade;
    size_t held_bytes; /* of the blocks wanted, being made, or made */
    size_t nmaking;    /* blocks a fill has taken off `wanted` and not yet made */
    size_t made_total, taken_total;
};

static _Thread_local nr_reserve *bound;

nr_reserve *nr_reserve_new(void (*wake)(void *ctx), void *ctx)
{
    nr_reserve *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (pthread_mutex_init(&r->mu, NULL) != 0) {
        free(r);
        return NULL;
    }
    r->wake = wake;
    r->wake_ctx = ctx;
    return r;
}

void nr_reserve_free(nr_reserve *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nmade; i++)
        free(r->made[i].p);
    pthread_mutex_destroy(&r->mu);
    free(r);
}

void nr_reserve_bind(nr_reserve *r) { bound = r; }

static size_t whole_of(size_t bytes) { return (bytes + NR_DENSE_HUGE - 1) & ~(NR_DENSE_HUGE - 1); }

void nr_reserve_expect(size_t bytes)
{
    nr_reserve *r = bound;
    if (!r || bytes < NR_DENSE_MIN || bytes > NR_RESERVE_BYTES)
        return;
    const size_t whole = whole_of(bytes);
    pthread_mutex_lock(&r->mu);
    const int room = r->nwanted + r->nmaking + r->nmade < NR_RESERVE_BLOCKS && r->held_bytes + whole <= NR_RESERVE_BYTES;
    if (room) {
        r->wanted[r->nwanted++] = whole;
        r->held_bytes += whole;
    }
    pthread_mutex_unlock(&r->mu);
    if (room && r->wake)
        r->wake(r->wake_ctx);
}

/* Every page of the block at p (whole bytes) present: the kernel's zeroing
 * done here rather than at the taker's first writes. */
static void fault_in(char *p, size_t whole)
{
#ifdef MADV_POPULATE_WRITE /* Linux 5.14; it leaves the bytes as they are */
    if (madvise(p, whole, MADV_POPULATE_WRITE) == 0)
        return;
#endif
    for (size_t off = 0; off < whole; off += 4096)
        ((volatile char *)p)[off] = ((volatile char *)p)[off];
}

int nr_reserve_fill(nr_reserve *r)
{
    int did = 0;
    for (;;) {
        pthread_mutex_lock(&r->mu);
        if (r->nwanted == 0) {
            pthread_mutex_unlock(&r->mu);
            return did;
        }
        const size_t whole = r->wanted[--r->nwanted];
        r->nmaking++;
        pthread_mutex_unlock(&r->mu);
        nr_reserve *was = bound; /* a block of its own, even where r is bound (a waiting pass) */
        bound = NULL;
        void *p = nr_alloc_dense(whole);
        bound = was;
        if (p)
            fault_in(p, whole);
        pthread_mutex_lock(&r->mu);
        r->nmaking--;
        if (p) {
            r->made[r->nmade++] = (made_block){p, whole};
            r->made_total++;
        } else {
            r->held_bytes -= whole;
        }
        pthread_mutex_unlock(&r->mu);
        did = 1;
    }
}

void *nr__reserve_take(size_t whole)
{
    nr_reserve *r = bound;
    if (!r)
        return NULL;
    void *p = NULL;
    pthread_mutex_lock(&r->mu);
    for (size_t i = 0; i < r->nmade && !p; i++) {
        if (r->made[i].whole != whole)
            continue;
        p = r->made[i].p;
        r->made[i] = r->made[--r->nmade];
        r->held_bytes -= whole;
        r->taken_total++;
    }
    pthread_mutex_unlock(&r->mu);
    return p;
}

void nr_reserve_counts(nr_reserve *r, size_t *made, size_t *taken)
{
    pthread_mutex_lock(&r->mu);
    *made = r->made_total;
    *taken = r->taken_total;
    pthread_mutex_unlock(&r->mu);
}
