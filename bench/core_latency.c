/* core_latency: the round trip of one cache line between two CPUs, the cost
 * every line of data pays when one thread writes it and another reads it.
 * Two threads, pinned to CPUs A and B, take turns incrementing a shared
 * counter; the time per turn pair is printed in ns. Same-CCX pairs on
 * current x86 servers take well under 100 ns; pairs across dies or sockets
 * several times that. Part of scale_bench.sh's host baseline.
 * usage: core_latency [CPU_A CPU_B] [ROUNDS]   (default 0 1 1000000) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Alignas(64) _Atomic long turn;
static long rounds = 1000000;

static int pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* Waits for the counter to reach odd values and answers with the next;
 * unpinned it still answers (so that the caller does not spin forever) and
 * returns nonzero. */
static void *answer(void *arg)
{
    void *pinned = pin(*(int *)arg) == 0 ? NULL : (void *)1;
    for (long i = 0; i < rounds; i++) {
        while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 1)
            ;
        atomic_store_explicit(&turn, 2 * i + 2, memory_order_release);
    }
    return pinned;
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    int a = argc > 2 ? atoi(argv[1]) : 0, b = argc > 2 ? atoi(argv[2]) : 1;
    if (argc > 3)
        rounds = atol(argv[3]);
    if (rounds <= 0 || a == b || pin(a) != 0) {
        fprintf(stderr, "core_latency: cannot run on CPU %d (usage: core_latency [CPU_A CPU_B] [ROUNDS])\n", a);
        return 1;
    }
    pthread_t t;
    if (pthread_create(&t, NULL, answer, &b) != 0) {
        fprintf(stderr, "core_latency: cannot start a thread\n");
        return 1;
    }
    double t0 = now_ns();
    for (long i = 0; i < rounds; i++) {
        atomic_store_explicit(&turn, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 2)
            ;
    }
    double t1 = now_ns();
    void *rc;
    pthread_join(t, &rc);
    if (rc) {
        fprintf(stderr, "core_latency: cannot run on CPU %d\n", b);
        return 1;
    }
    printf("%.0f\n", (t1 - t0) / (double)rounds);
    return 0;
}
