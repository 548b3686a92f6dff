/* first_touch: what the first write to fresh anonymous memory costs here, in
 * ms per MB, the cost every growing table and buffer of an ingest pays once
 * (docs/performance.md, sessions 10 and 22). Four ways, the first three
 * each on its own fresh region, the median of ROUNDS rounds:
 *   4k      4 kB pages (MADV_NOHUGEPAGE), one write per page;
 *   huge    transparent huge pages (MADV_HUGEPAGE), one write per 4 kB;
 *   moved   huge pages faulted in first by another thread
 *           (MADV_POPULATE_WRITE, else writes), then the same writes: what
 *           is left for a thread whose pages another one touched first;
 *   again   the huge region written a second time (no fault at all).
 * On a VM the first two depend on how the host backs the guest's memory
 * at the moment (4 kB pages 2.7-3.8 ms per MB in session 10, 0.39-0.62 in
 * session 22; huge pages 0.06-1.3, then 2.49-3.46); they decide much of
 * an ingest's run-to-run spread. Part of scale_bench.sh's host
 * baseline.
 * Every region stays mapped until the program ends, so each takes pages
 * the kernel had free, as a new process does (3 x MB x ROUNDS in all).
 * usage: first_touch [MB] [ROUNDS]   (default 64 5) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

#define HUGE ((size_t)2 << 20)
#define PAGE ((size_t)4096)
#define ROUNDS_MAX 64

static size_t bytes;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* A fresh 2 MB-aligned region with the given advice; NULL on failure. */
static char *region(int advice)
{
    char *p = mmap(NULL, bytes + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    char *aligned = (char *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
    (void)madvise(aligned, bytes, advice); /* a hint: without it the kernel's default */
    return aligned;
}

/* ms to write one byte in every 4 kB of p. */
static double touch(char *p)
{
    double t = now_ms();
    for (size_t off = 0; off < bytes; off += PAGE)
        ((volatile char *)p)[off] = 1;
    return now_ms() - t;
}

static void *fault_in(void *p)
{
    if (madvise(p, bytes, MADV_POPULATE_WRITE) != 0)
        for (size_t off = 0; off < bytes; off += PAGE)
            ((volatile char *)p)[off] = 0;
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    const long mb = argc > 1 ? atol(argv[1]) : 64;
    const int rounds = argc > 2 ? atoi(argv[2]) : 5;
    if (mb < 2 || mb > 1024 || rounds < 1 || rounds > ROUNDS_MAX) {
        fprintf(stderr, "usage: first_touch [MB 2-1024] [ROUNDS 1-%d]\n", ROUNDS_MAX);
        return 2;
    }
    bytes = (size_t)mb << 20;
    double small[ROUNDS_MAX], huge[ROUNDS_MAX], moved[ROUNDS_MAX], again[ROUNDS_MAX];
    for (int r = 0; r < rounds; r++) {
        char *a = region(MADV_NOHUGEPAGE), *b = region(MADV_HUGEPAGE), *c = region(MADV_HUGEPAGE);
        pthread_t helper;
        if (!a || !b || !c || pthread_create(&helper, NULL, fault_in, c) != 0) {
            fprintf(stderr, "first_touch: out of memory or threads\n");
            return 1;
        }
        pthread_join(helper, NULL);
        small[r] = touch(a) / (double)mb;
        huge[r] = touch(b) / (double)mb;
        moved[r] = touch(c) / (double)mb;
        again[r] = touch(b) / (double)mb;
        /* not unmapped: the next round's regions take fresh pages of the
           kernel, as a new process does, not these again */
    }
    printf("%.2f 4k, %.2f huge, %.3f moved, %.3f again (ms per MB; median of %d rounds of %ld MB)\n",
           median(small, rounds), median(huge, rounds), median(moved, rounds), median(again, rounds), rounds, mb);
    return 0;
}
