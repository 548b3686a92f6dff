#include "nr_mem.h"
#include "nr_error.h"
#include "nr_reserve.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* Whether nr_alloc_dense still asks for huge pages (1), or not any more
 * (0: probe_huge_page found one too dear), and what fresh 4 kB pages cost
 * here, in ms per MB (0: not measured yet; negative: unknown). */
static _Atomic int huge_pages_on = 1;
static _Atomic double small_pages_cost;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ms per MB of the first writes to PROBE_PAGES fresh 4 kB pages (29-43 us
 * in all here, the mapping included), or -1 when none can be mapped. */
#define PROBE_PAGES 16
static double small_pages_ms_per_mb(void)
{
    const size_t bytes = PROBE_PAGES * 4096;
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -1;
#ifdef MADV_NOHUGEPAGE
    (void)madvise(p, bytes, MADV_NOHUGEPAGE);
#endif
    const double t = now_ms();
    for (size_t off = 0; off < bytes; off += 4096)
        ((volatile char *)p)[off] = 0;
    const double ms = now_ms() - t;
    munmap(p, bytes);
    return ms * (double)(1 << 20) / (double)bytes;
}

int nr__huge_pages_pay(double huge_ms_per_mb, double small_ms_per_mb)
{
    return small_ms_per_mb <= 0 || huge_ms_per_mb <= 2 * small_ms_per_mb;
}

/* The first write to a fresh huge page zeroes its 2 MB at once. Where the
 * memory is backed that costs 0.05-0.06 ms per MB, far less than 4 kB
 * pages; but on a VM whose host takes back the guest's free memory
 * (virtio-balloon's free page reporting) it cost 2.5-3.5 ms per MB against
 * 0.4-0.6 for 4 kB pages, and an ingest at -j 2 ran 5-16% slower for it
 * (docs/performance.md, session 22). So each big block times the write to
 * its first page - its first fault, which its owner would pay anyway -
 * and once one costs more than twice what fresh 4 kB pages do, the blocks
 * after it ask for none. */
static void probe_huge_page(char *block)
{
    const double t = now_ms();
    *(volatile char *)block = 0;
    const double huge = (now_ms() - t) / (double)(NR_DENSE_HUGE >> 20);
    double small = small_pages_cost;
    if (small == 0)
        small_pages_cost = small = small_pages_ms_per_mb();
    if (!nr__huge_pages_pay(huge, small))
        huge_pages_on = 0;
}

void *nr_alloc_dense(size_t bytes)
{
    if (bytes < NR_DENSE_MIN)
        return malloc(bytes ? bytes : 1);
    const size_t whole = (bytes + NR_DENSE_HUGE - 1) & ~(NR_DENSE_HUGE - 1);
    if (whole < bytes)
        return NULL;
    void *p = nr__reserve_take(whole);
    if (p)
        return p; /* made and faulted in by another thread (nr_reserve.h) */
    if (posix_memalign(&p, NR_DENSE_HUGE, whole) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (huge_pages_on) {
        (void)madvise(p, whole, MADV_HUGEPAGE); /* a hint: without it the pages are ordinary ones */
        probe_huge_page(p);
    }
#endif
    return p;
}

int nr_grow(void **items, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap)
        return 0;
    size_t new_cap = *cap ? *cap : 16;
    while (new_cap < need) {
        if (new_cap > SIZE_MAX / 2)
            return NR_E_LIMIT;
        new_cap *= 2;
    }
    if (elem_size && new_cap > SIZE_MAX / elem_size)
        return NR_E_LIMIT;
    const size_t bytes = new_cap * elem_size;
    void *p;
    if (bytes < NR_DENSE_MIN) {
        p = realloc(*items, bytes);
    } else { /* a big array: huge pages (nr_alloc_dense); the copy costs less than 4 kB first touches */
        p = nr_alloc_dense(bytes);
        if (p && *items)
            memcpy(p, *items, *cap * elem_size);
        if (p)
            free(*items);
    }
    if (!p)
        return NR_E_NOMEM;
    *items = p;
    *cap = new_cap;
    return 0;
}

void nr_buf_init(nr_buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void nr_buf_fini(nr_buf *b)
{
    free(b->data);
    nr_buf_init(b);
}

int nr_buf_put(nr_buf *b, const void *p, size_t n)
{
    if (n > SIZE_MAX - b->len)
        return NR_E_LIMIT;
    NR_TRY(NR_GROW(b->data, b->cap, b->len + n));
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}

int nr_buf_put_uvarint(nr_buf *b, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = 0;
    while (v >= 0x80) {
        tmp[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    tmp[n++] = (uint8_t)v;
    return nr_buf_put(b, tmp, n);
}

int nr_buf_put_svarint(nr_buf *b, int64_t v)
{
    return nr_buf_put_uvarint(b, nr_zigzag(v));
}

int nr_get_uvarint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    uint64_t v = 0;
    const uint8_t *q = *p;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        if (q >= end)
            return -1;
        uint8_t byte = *q++;
        if (shift == 63 && byte > 1)
            return -1;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *p = q;
            *out = v;
            return 0;
        }
    }
    return -1;
}

struct nr_arena_block {
    nr_arena_block *next;
    size_t used;
    size_t size;
    unsigned char data[];
};

/* Blocks double from ARENA_FIRST_BLOCK to ARENA_BLOCK: most arenas (a
 * model's names, a run's labels) hold a few kB, and a build holds one per
 * run (64 kB each when every block was ARENA_BLOCK: 19.7 of a 300-run
 * build's 187 MB). */
enum { ARENA_FIRST_BLOCK = 4 * 1024, ARENA_BLOCK = 64 * 1024 };

void nr_arena_init(nr_arena *a)
{
    a->head = NULL;
    a->used_total = 0;
}

void nr_arena_fini(nr_arena *a)
{
    nr_arena_block *b = a->head;
    while (b) {
        nr_arena_block *next = b->next;
        free(b);
        b = next;
    }
    nr_arena_init(a);
}

void *nr_arena_alloc(nr_arena *a, size_t n)
{
    if (n > SIZE_MAX - 16)
        return NULL;
    n = (n + 7) & ~(size_t)7;
    nr_arena_block *b = a->head;
    if (!b || b->size - b->used < n) {
        size_t size = b ? (b->size < ARENA_BLOCK / 2 ? 2 * b->size : ARENA_BLOCK) : ARENA_FIRST_BLOCK;
        if (size < n)
            size = n;
        /* past 1 MB (the path table of a big log), blocks of a huge page:
         * fewer first touches, and lookups read the strings at random */
        if (a->used_total >= NR_DENSE_MIN && n <= NR_DENSE_HUGE - sizeof *b)
            size = NR_DENSE_HUGE - sizeof *b;
        b = nr_alloc_dense(sizeof *b + size);
        if (!b)
            return NULL;
        if (sizeof *b + size == NR_DENSE_HUGE)
            nr_reserve_expect(NR_DENSE_HUGE); /* the next block, made while this one fills */
        b->next = a->head;
        b->used = 0;
        b->size = size;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    a->used_total += n;
    return p;
}

char *nr_arena_strndup(nr_arena *a, const char *s, size_t n)
{
    char *p = nr_arena_alloc(a, n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void *nr_zalloc_counters(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    const size_t bytes = n * size;
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        return NULL;
    /* The barrier keeps the compiler from fusing malloc and memset into
     * the calloc this function exists to avoid. */
    __asm__ volatile("" : : "r"(p) : "memory");
    memset(p, 0, bytes);
    return p;
}
