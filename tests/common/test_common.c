/* Unit tests of common/: varints, strtab, arena, outfile, utf8. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nr_error.h"
#include "nr_mem.h"
#include "nr_outfile.h"
#include "nr_parallel.h"
#include "nr_percent.h"
#include "nr_phase_pick.h"
#include "nr_reserve.h"
#include "nr_spool.h"
#include "nr_strtab.h"
#include "nr_utf8.h"

static void varint_round_trip(void **state)
{
    static const int64_t values[] = {0, 1, -1, 63, -64, 64, 127, 128, 300, -300,
                                     INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
    nr_buf b;
    nr_buf_init(&b);
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        assert_int_equal(nr_buf_put_svarint(&b, values[i]), 0);
    const uint8_t *p = b.data, *end = b.data + b.len;
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        uint64_t u;
        assert_int_equal(nr_get_uvarint(&p, end, &u), 0);
        assert_int_equal(nr_unzigzag(u), values[i]);
    }
    assert_ptr_equal(p, end);
    nr_buf_fini(&b);
}

static void varint_rejects_truncated_and_overlong(void **state)
{
    const uint8_t cut[] = {0x80, 0x80};
    const uint8_t *p = cut;
    uint64_t u;
    assert_int_equal(nr_get_uvarint(&p, cut + sizeof cut, &u), -1);
    const uint8_t overlong[11] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    p = overlong;
    assert_int_equal(nr_get_uvarint(&p, overlong + sizeof overlong, &u), -1);
    const uint8_t known[] = {0xac, 0x02};
    p = known;
    assert_int_equal(nr_get_uvarint(&p, known + 2, &u), 0);
    assert_int_equal(u, 300);
}

/* nr_get_uvarint_fast against nr_get_uvarint: the same return, value and
 * end on random bytes read from every offset (continuation bits set at
 * random, so codes of every length, non-canonical ones, truncated and
 * overlong ones, with 0 to 20 bytes readable), and known answers of the
 * one-load path. */
static void varint_fast_reads_as_the_loop(void **state)
{
    uint8_t bytes[20];
    uint64_t rng = 88172645463325252u;
    for (int round = 0; round < 200000; round++) {
        for (size_t k = 0; k < sizeof bytes; k++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17; /* xorshift64 */
            const unsigned cont_odds = (unsigned)(round % 4); /* 0: no byte continues .. 3: most do */
            bytes[k] = (uint8_t)((rng & 0x7f) | ((rng >> 8) % 4 < cont_odds ? 0x80 : 0));
        }
        const size_t n = (size_t)(rng >> 40) % (sizeof bytes + 1);
        for (size_t at = 0; at <= n; at++) {
            const uint8_t *p = bytes + at, *q = bytes + at;
            uint64_t u = 1, v = 2;
            const int rp = nr_get_uvarint(&p, bytes + n, &u), rq = nr_get_uvarint_fast(&q, bytes + n, &v);
            assert_int_equal(rq, rp);
            if (rp == 0) {
                assert_int_equal(v, u);
                assert_ptr_equal(q, p);
            }
        }
    }
    const uint8_t known[][10] = {
        {0xac, 0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80},       /* 300, then bytes that would continue */
        {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},       /* 2^56 - 1: eight bytes, one load */
        {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, /* 2^56: nine bytes, the loop */
        {0x85, 0x80, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff},       /* 5, non-canonical in three bytes */
    };
    const uint64_t value[] = {300, (UINT64_C(1) << 56) - 1, UINT64_C(1) << 56, 5};
    const size_t len[] = {2, 8, 9, 3};
    for (size_t i = 0; i < sizeof value / sizeof value[0]; i++) {
        const uint8_t *q = known[i];
        uint64_t v;
        assert_int_equal(nr_get_uvarint_fast(&q, known[i] + 10, &v), 0);
        assert_int_equal(v, value[i]);
        assert_int_equal(q - known[i], len[i]);
    }
}

static void strtab_interns_dense_ids(void **state)
{
    nr_strtab t;
    nr_strtab_init(&t);
    char name[32];
    for (int i = 0; i < 10000; i++) {
        int n = snprintf(name, sizeof name, "/data/shard-%05d", i);
        assert_int_equal(nr_strtab_intern(&t, name, (size_t)n), i);
    }
    for (int i = 0; i < 10000; i += 97) {
        int n = snprintf(name, sizeof name, "/data/shard-%05d", i);
        assert_int_equal(nr_strtab_intern(&t, name, (size_t)n), i);
        assert_int_equal(nr_strtab_find(&t, name, (size_t)n), i);
        assert_string_equal(nr_strtab_str(&t, (size_t)i), name);
    }
    assert_int_equal(nr_strtab_find(&t, "absent", 6), -1);
    assert_int_equal(nr_strtab_intern(&t, "", 0), 10000);
    nr_strtab_fini(&t);
}

/* A table past 2 MB of slots (200 k strings: 512 k slots, the huge-page
 * allocation): every id found again after the rehashes, reset empties it. */
static void strtab_big_table(void **state)
{
    (void)state;
    nr_strtab t;
    nr_strtab_init(&t);
    char name[48];
    enum { N = 200000 };
    for (int i = 0; i < N; i++) {
        int n = snprintf(name, sizeof name, "/data/imagenet/train/%07d.JPEG", i);
        assert_int_equal(nr_strtab_intern(&t, name, (size_t)n), i);
    }
    for (int i = 0; i < N; i += 7) {
        int n = snprintf(name, sizeof name, "/data/imagenet/train/%07d.JPEG", i);
        assert_int_equal(nr_strtab_find(&t, name, (size_t)n), i);
        assert_string_equal(nr_strtab_str(&t, (size_t)i), name);
    }
    assert_int_equal(nr_strtab_find(&t, "/data/imagenet/train/0200000.JPEG", 33), -1);
    nr_strtab_reset(&t);
    assert_int_equal(nr_strtab_find(&t, "/data/imagenet/train/0000000.JPEG", 33), -1);
    assert_int_equal(nr_strtab_intern(&t, "/x", 2), 0);
    nr_strtab_fini(&t);
}

/* Allocations of every size across the arena's growing blocks (4 kB
 * doubling to 64 kB, bigger ones on their own, huge-page blocks past
 * 1 MB) are 8-byte aligned and do not overlap: each keeps its pattern.
 * A block smaller than its allocation fails here under ASan (CI's
 * second build; tried). */
static void arena_allocations_keep_their_bytes(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 7, 100, 4090, 5000, 3, 70000, 8, 40000, 65536, 12, 200000};
    enum { N = 2000 };
    nr_arena a;
    nr_arena_init(&a);
    unsigned char *p[N];
    size_t n[N];
    for (size_t i = 0; i < N; i++) {
        n[i] = sizes[i % (sizeof sizes / sizeof sizes[0])];
        p[i] = nr_arena_alloc(&a, n[i]);
        assert_non_null(p[i]);
        assert_int_equal((uintptr_t)p[i] % 8, 0);
        memset(p[i], (int)(i % 251), n[i]);
    }
    for (size_t i = 0; i < N; i++)
        for (size_t k = 0; k < n[i]; k += 97)
            assert_int_equal(p[i][k], i % 251);
    char *s = nr_arena_strndup(&a, "path/x", 4);
    assert_string_equal(s, "path");
    nr_arena_fini(&a);
    assert_null(a.head);
}

/* Counters come zeroed and already written: every page resident before the
 * first increment (calloc of fresh pages leaves them absent, and a compiler
 * may turn malloc + memset into that calloc). */
static void zalloc_counters_are_written_zeros(void **state)
{
    (void)state;
    const size_t n = (size_t)8 << 20; /* above any allocator cache: fresh pages */
    unsigned char *p = nr_zalloc_counters(n / 8, 8);
    assert_non_null(p);
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *lo = (unsigned char *)((uintptr_t)p & ~(uintptr_t)(page - 1));
    size_t pages = (size_t)(p + n - lo + page - 1) / page, resident = 0;
    unsigned char *vec = malloc(pages);
    assert_non_null(vec);
    assert_int_equal(mincore(lo, pages * page, vec), 0);
    for (size_t i = 0; i < pages; i++)
        resident += vec[i] & 1;
    assert_true(resident + 2 >= pages); /* the ends may share a page with other memory */
    free(vec);
    for (size_t i = 0; i < n; i += 4096) /* after mincore: a read maps the zero page, which counts as resident */
        assert_int_equal(p[i] | p[n - 1], 0);
    free(p);
    assert_null(nr_zalloc_counters(SIZE_MAX / 4, 8));
    void *empty = nr_zalloc_counters(0, 8);
    assert_non_null(empty);
    free(empty);
}

/* nr_alloc_dense's rule for huge pages, with the costs measured on the
 * session 22 VM (ms per MB of first writes): backed huge pages pay, ones
 * the host took back do not, and an unknown 4 kB cost keeps them. Then big
 * blocks of either kind are whole, aligned and writable. */
static void dense_blocks_and_the_huge_page_rule(void **state)
{
    (void)state;
    assert_true(nr__huge_pages_pay(0.05, 0.45));  /* backed: 9x cheaper than 4 kB pages */
    assert_false(nr__huge_pages_pay(2.85, 0.45)); /* taken back by the host: 6x dearer */
    assert_true(nr__huge_pages_pay(0.9, 0.45));   /* twice is the limit */
    assert_false(nr__huge_pages_pay(0.91, 0.45));
    assert_true(nr__huge_pages_pay(3.0, -1));     /* 4 kB pages could not be measured */
    assert_true(nr__huge_pages_pay(3.0, 0));
    for (size_t mb = 1; mb <= 9; mb += 4) {
        unsigned char *p = nr_alloc_dense(mb << 20);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % NR_DENSE_HUGE, 0);
        memset(p, 0xab, mb << 20);
        assert_int_equal(p[(mb << 20) - 1], 0xab);
        free(p);
    }
}

static void count_wake(void *ctx) { (*(int *)ctx)++; }

/* Whether every page of [p, p + bytes) is in memory (mincore). */
static int all_resident(const void *p, size_t bytes)
{
    const size_t pages = bytes / 4096;
    unsigned char *vec = malloc(pages);
    assert_non_null(vec);
    assert_int_equal(mincore((void *)p, bytes, vec), 0);
    size_t in = 0;
    for (size_t i = 0; i < pages; i++)
        in += vec[i] & 1;
    free(vec);
    return in == pages;
}

/* A reserve (nr_reserve.h): only a bound thread's expectations of big
 * blocks count, each wakes the helper once, a fill makes and faults in
 * every block expected, and the bound thread's nr_alloc_dense takes one of
 * the whole size it asks for (its pages already in memory) and allocates
 * any other size itself; the limit of blocks holds, and the blocks nobody
 * took are freed with the reserve (LeakSanitizer in the sanitizer build). */
static void reserve_serves_the_bound_thread(void **state)
{
    (void)state;
    int wakes = 0;
    nr_reserve *r = nr_reserve_new(count_wake, &wakes);
    assert_non_null(r);
    nr_reserve_expect(NR_DENSE_HUGE); /* no thread bound */
    nr_reserve_bind(r);
    nr_reserve_expect(NR_DENSE_MIN - 1); /* small: malloc's */
    assert_int_equal(wakes, 0);
    nr_reserve_expect(NR_DENSE_HUGE);
    nr_reserve_expect(3 * NR_DENSE_HUGE - 100); /* 6 MB whole */
    assert_int_equal(wakes, 2);
    assert_int_equal(nr_reserve_fill(r), 1);
    assert_int_equal(nr_reserve_fill(r), 0);
    size_t made, taken;
    nr_reserve_counts(r, &made, &taken);
    assert_int_equal(made, 2);
    assert_int_equal(taken, 0);

    unsigned char *big = nr_alloc_dense(3 * NR_DENSE_HUGE - 7);
    assert_non_null(big);
    assert_int_equal((uintptr_t)big % NR_DENSE_HUGE, 0);
    assert_true(all_resident(big, 3 * NR_DENSE_HUGE));
    unsigned char *other = nr_alloc_dense(4 * NR_DENSE_HUGE); /* none of 8 MB */
    unsigned char *two = nr_alloc_dense(NR_DENSE_HUGE);
    unsigned char *again = nr_alloc_dense(NR_DENSE_HUGE); /* the reserve's only one is taken */
    assert_true(all_resident(two, NR_DENSE_HUGE));
    nr_reserve_counts(r, &made, &taken);
    assert_int_equal(taken, 2);
    memset(big, 1, 3 * NR_DENSE_HUGE);
    memset(other, 2, 4 * NR_DENSE_HUGE);
    memset(two, 3, NR_DENSE_HUGE);
    memset(again, 4, NR_DENSE_HUGE);
    free(big);
    free(other);
    free(two);
    free(again);

    for (int i = 0; i < NR_RESERVE_BLOCKS + 2; i++)
        nr_reserve_expect(NR_DENSE_HUGE);
    assert_int_equal(wakes, 2 + NR_RESERVE_BLOCKS);
    assert_int_equal(nr_reserve_fill(r), 1);
    nr_reserve_counts(r, &made, &taken);
    assert_int_equal(made, 2 + NR_RESERVE_BLOCKS);
    nr_reserve_expect(NR_DENSE_HUGE); /* all made, none taken: still full */
    assert_int_equal(wakes, 2 + NR_RESERVE_BLOCKS);
    nr_reserve_bind(NULL);
    unsigned char *unbound = nr_alloc_dense(NR_DENSE_HUGE);
    nr_reserve_counts(r, &made, &taken);
    assert_int_equal(taken, 2);
    free(unbound);
    nr_reserve_free(r);
}

/* Pushed strings (nr_strtab_push) take the next ids unlooked-up; find
 * sees them before they are indexed, and the next intern indexes them,
 * growing the slot table past them (here from 64 slots to 512). */
static void strtab_push_then_intern(void **state)
{
    (void)state;
    nr_strtab t;
    nr_strtab_init(&t);
    char name[32];
    assert_int_equal(nr_strtab_find(&t, "a", 1), -1);
    assert_int_equal(nr_strtab_intern(&t, "first", 5), 0);
    for (int i = 1; i < 200; i++) {
        int n = snprintf(name, sizeof name, "/p/%d", i);
        assert_int_equal(nr_strtab_push(&t, name, (size_t)n), i);
    }
    assert_int_equal(nr_strtab_find(&t, "/p/150", 6), 150);
    assert_int_equal(nr_strtab_find(&t, "first", 5), 0);
    assert_int_equal(nr_strtab_find(&t, "/p/200", 6), -1);
    assert_int_equal(nr_strtab_intern(&t, "/p/77", 5), 77);
    assert_int_equal(t.indexed, 200);
    assert_true(t.nslots >= 400);
    assert_int_equal(nr_strtab_intern(&t, "/p/200", 6), 200);
    for (int i = 1; i < 200; i++) {
        int n = snprintf(name, sizeof name, "/p/%d", i);
        assert_int_equal(nr_strtab_intern(&t, name, (size_t)n), i);
        assert_string_equal(nr_strtab_str(&t, (size_t)i), name);
    }
    assert_int_equal(nr_strtab_push(&t, "/q", 2), 201); /* into a table big enough: no regrowth */
    size_t nslots = t.nslots;
    assert_int_equal(nr_strtab_intern(&t, "/q", 2), 201);
    assert_int_equal(t.nslots, nslots);
    nr_strtab_reset(&t);
    assert_int_equal(nr_strtab_push(&t, "/r", 2), 0);
    assert_int_equal(nr_strtab_intern(&t, "/r", 2), 0);
    nr_strtab_fini(&t);
}

static void outfile_commit_and_abort(void **state)
{
    char dir[] = "/tmp/nr_outfile_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char target[256];
    snprintf(target, sizeof target, "%s/out.txt", dir);
    nr_error err;
    nr_outfile f;
    assert_int_equal(nr_outfile_open(&f, target, &err), 0);
    assert_int_equal(nr_outfile_write(&f, "old", 3, &err), 0);
    assert_int_equal(nr_outfile_commit(&f, &err), 0);

    assert_int_equal(nr_outfile_open(&f, target, &err), 0);
    assert_int_equal(nr_outfile_write(&f, "new!", 4, &err), 0);
    nr_outfile_abort(&f);
    struct stat st;
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_size, 3);   /* the earlier output is untouched */
    unlink(target);
    assert_int_equal(rmdir(dir), 0);   /* and no temporary file is left */

    assert_int_equal(nr_outfile_open(&f, "/nonexistent-dir/x", &err), NR_E_IO);
    assert_non_null(strstr(err.msg, "/nonexistent-dir/x"));
}

/* An output's permissions: a new file's are 0666 under the umask, a
 * replaced file's stay its own (until session 48 every output was 0644:
 * a 0600 export became world-readable, umask 077 was ignored). */
static void outfile_modes(void **state)
{
    char dir[] = "/tmp/nr_outfile_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char fresh[256], kept[256];
    snprintf(fresh, sizeof fresh, "%s/fresh", dir);
    snprintf(kept, sizeof kept, "%s/kept", dir);
    nr_error err;
    nr_outfile f;
    const mode_t old_mask = umask(077);
    assert_int_equal(nr_outfile_open(&f, fresh, &err), 0);
    assert_int_equal(nr_outfile_commit(&f, &err), 0);
    umask(022);
    int fd = open(kept, O_WRONLY | O_CREAT, 0640);
    assert_true(fd >= 0);
    assert_int_equal(fchmod(fd, 0640), 0);
    close(fd);
    assert_int_equal(nr_outfile_open(&f, kept, &err), 0);
    assert_int_equal(nr_outfile_commit(&f, &err), 0);
    umask(old_mask);
    struct stat st;
    assert_int_equal(stat(fresh, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    assert_int_equal(stat(kept, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    unlink(fresh);
    unlink(kept);
    assert_int_equal(rmdir(dir), 0);
}

/* nr_outfile_sweep removes a temporary file no process holds that is
 * older than its age, and leaves one an open output holds (its lock)
 * and a young one. */
static void outfile_sweep_orphans(void **state)
{
    char dir[] = "/tmp/nr_outfile_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char target[256], orphan[256], young[256];
    snprintf(target, sizeof target, "%s/store.nio", dir);
    snprintf(orphan, sizeof orphan, "%s/store.nio.tmp.Orphan", dir);
    snprintf(young, sizeof young, "%s/store.nio.tmp.Young1", dir);
    nr_error err;
    nr_outfile f;
    assert_int_equal(nr_outfile_open(&f, target, &err), 0);
    for (int i = 0; i < 2; i++) {
        FILE *o = fopen(i ? young : orphan, "w");
        assert_non_null(o);
        fclose(o);
    }
    const struct timespec hour_ago[2] = {{time(NULL) - 3600, 0}, {time(NULL) - 3600, 0}};
    assert_int_equal(utimensat(AT_FDCWD, orphan, hour_ago, 0), 0);
    assert_int_equal(utimensat(AT_FDCWD, f.tmp_path, hour_ago, 0), 0);
    assert_int_equal(nr_outfile_sweep(dir, 600), 1);
    assert_int_equal(access(orphan, F_OK), -1);
    assert_int_equal(access(young, F_OK), 0);
    assert_int_equal(access(f.tmp_path, F_OK), 0); /* held: its writer is alive */
    assert_int_equal(nr_outfile_commit(&f, &err), 0);
    unlink(target);
    unlink(young);
    assert_int_equal(rmdir(dir), 0);
}

/* A file's bytes, or "" when it cannot be read (static buffer). */
static const char *file_text(const char *path)
{
    static char buf[64];
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        buf[fread(buf, 1, sizeof buf - 1, f)] = 0;
        fclose(f);
    }
    return buf;
}

/* What an output may replace: a symbolic link's file (the link stays),
 * never a folder, a fifo (a device stands for them: the commit's rename
 * would have replaced /dev/null, as a root user's export once did), an
 * empty path; and no input. */
static void outfile_targets(void **state)
{
    char dir[] = "/tmp/nr_outfile_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char file[256], link[256], fifo[256], other_name[256];
    snprintf(file, sizeof file, "%s/file", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(other_name, sizeof other_name, "%s/./file", dir);
    nr_error err;
    nr_outfile f;
    assert_int_equal(nr_outfile_open(&f, file, &err), 0);
    assert_int_equal(nr_outfile_write(&f, "one", 3, &err), 0);
    assert_int_equal(nr_outfile_commit(&f, &err), 0);

    assert_int_equal(symlink("file", link), 0);
    assert_int_equal(nr_outfile_open(&f, link, &err), 0);
    assert_int_equal(nr_outfile_write(&f, "two", 3, &err), 0);
    assert_int_equal(nr_outfile_commit(&f, &err), 0);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(file_text(file), "two");

    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(nr_outfile_open(&f, fifo, &err), NR_E_USAGE);
    assert_non_null(strstr(err.msg, "not a regular file"));
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(nr_outfile_open(&f, dir, &err), NR_E_USAGE);
    assert_non_null(strstr(err.msg, "is a folder"));
    assert_int_equal(nr_outfile_open(&f, "", &err), NR_E_USAGE);

    const char *inputs[] = {fifo, other_name};
    assert_int_equal(nr_outfile_check_inputs(file, inputs, 1, &err), 0);
    assert_int_equal(nr_outfile_check_inputs(file, inputs, 2, &err), NR_E_USAGE); /* the same file by another path */
    assert_non_null(strstr(err.msg, "is also the input"));
    assert_int_equal(nr_outfile_check_inputs(link, inputs, 2, &err), NR_E_USAGE);  /* and through its link */
    char fresh[256];
    snprintf(fresh, sizeof fresh, "%s/fresh", dir);
    assert_int_equal(nr_outfile_check_inputs(fresh, inputs, 2, &err), 0);

    unlink(fifo);
    unlink(link);
    unlink(file);
    assert_int_equal(rmdir(dir), 0); /* no temporary file left */
}

/* Runs fn with TMPDIR set to dir (NULL: unset), then restores it. */
static int with_tmpdir(const char *dir, int (*fn)(nr_spool *, nr_error *), nr_spool *s, nr_error *err)
{
    const char *old = getenv("TMPDIR");
    char *saved = old ? strdup(old) : NULL;
    if (dir)
        setenv("TMPDIR", dir, 1);
    else
        unsetenv("TMPDIR");
    int rc = fn(s, err);
    if (saved)
        setenv("TMPDIR", saved, 1);
    else
        unsetenv("TMPDIR");
    free(saved);
    return rc;
}

static int append_abc(nr_spool *s, nr_error *err) { return nr_spool_append(s, "abc", 3, err); }

static void spool_appends_reads_and_leaves_nothing(void **state)
{
    (void)state;
    char dir[] = "/tmp/nr_spool_test_XXXXXX";
    assert_non_null(mkdtemp(dir));
    nr_error err;
    nr_error_clear(&err);
    nr_spool s = NR_SPOOL_INIT;
    assert_int_equal(with_tmpdir(dir, append_abc, &s, &err), 0);
    static char big[300000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)(i * 7 + 1);
    assert_int_equal(nr_spool_append(&s, big, sizeof big, &err), 0);
    assert_int_equal(s.size, 3 + sizeof big);
    char got[8] = {0};
    assert_int_equal(nr_spool_read(&s, 0, got, 3, &err), 0);
    assert_string_equal(got, "abc");
    static char back[sizeof big];
    assert_int_equal(nr_spool_read(&s, 3, back, sizeof back, &err), 0);
    assert_memory_equal(back, big, sizeof big);
    assert_int_equal(nr_spool_read(&s, 3, back, sizeof back + 1, &err), NR_E_INPUT); /* past the end */
    assert_int_equal(rmdir(dir), 0); /* nothing named in the folder while the spool is open */
    nr_spool_close(&s);
    nr_spool_close(&s); /* twice: nothing */

    /* a TMPDIR where no file can be made: /tmp instead */
    nr_spool t = NR_SPOOL_INIT;
    assert_int_equal(with_tmpdir("/nonexistent-dir", append_abc, &t, &err), 0);
    assert_int_equal(nr_spool_read(&t, 1, got, 2, &err), 0);
    assert_memory_equal(got, "bc", 2);
    nr_spool_close(&t);
}

static void error_table_maps_exit_status(void **state)
{
    assert_int_equal(nr_error_exit_status(NR_OK), 0);
    assert_int_equal(nr_error_exit_status(NR_E_INPUT), 1);
    assert_int_equal(nr_error_exit_status(NR_E_USAGE), 2);
    assert_string_equal(nr_error_name(NR_E_FORMAT), "damaged or unsupported store");
}

/* A share near 100% or 0% keeps the digits that tell it from them. */
static void percent_keeps_what_tells_it_apart(void **state)
{
    (void)state;
    static const struct { double v; const char *want; } cases[] = {
        {0.924, "92.4%"}, {0.99956, "99.96%"}, {0.9995, "99.95%"}, {1, "100.0%"}, {0, "0.0%"},
        {0.00042, "0.042%"}, {0.001, "0.1%"}, {-0.5, "-50.0%"}, {0.99996, "99.99%"}, {0.9999999, "99.99%"},
        {-0.99996, "-99.99%"}, {0.999949, "99.99%"},
    };
    char buf[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(nr_fmt_percent(cases[i].v, buf, sizeof buf), cases[i].want);
    assert_string_equal(nr_fmt_percent(NAN, buf, sizeof buf), "n/a");
}

/* Invalid bytes and control characters as \\xNN, valid UTF-8 as it is; the
 * size asked for is the size written. */
static void utf8_clean_escapes_invalid_bytes(void **state)
{
    char out[64];
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"caf\xC3\xA9 \xE2\x82\xAC", "caf\xC3\xA9 \xE2\x82\xAC"},
        {"caf\xE9", "caf\\xE9"},                /* Latin-1 */
        {"\xC0\xAF", "\\xC0\\xAF"},            /* overlong '/' */
        {"\xED\xA0\x80", "\\xED\\xA0\\x80"},  /* surrogate */
        {"a\tb\nc\x1b", "a\tb\nc\\x1B"},
        {"\xE2\x82", "\\xE2\\x82"},            /* cut sequence */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_string_equal(nr_utf8_clean(cases[i].in, out, sizeof out), cases[i].out);
        assert_int_equal(nr_utf8_clean_size(cases[i].in), strlen(cases[i].out) + 1);
    }
    assert_string_equal(nr_utf8_clean("\xE2\x82\xAC\xE2\x82\xAC", out, 5), "\xE2\x82\xAC"); /* cut on a boundary */
    assert_string_equal(nr_utf8_clean(NULL, out, sizeof out), "");
    assert_int_equal(nr_utf8_clean_size(NULL), 1);
}

/* nr_utf8_len_within by RFC 3629's table of well-formed byte sequences
 * (section 4), bounded by n: a NUL is a character, a sequence cut by n is
 * none. */
static void utf8_len_within_follows_rfc_3629(void **state)
{
    (void)state;
    static const struct { const char *bytes; size_t n, len; } cases[] = {
        {"a", 1, 1}, {"\0x", 2, 1}, {"\x7f", 1, 1},
        {"\xC3\xA9", 2, 2}, {"\xC0\x80", 2, 0}, {"\xC1\xBF", 2, 0}, {"\xC3", 1, 0},
        {"\xE2\x82\xAC", 3, 3}, {"\xE2\x82\xAC", 2, 0}, {"\xE0\x9F\xBF", 3, 0}, {"\xE0\xA0\x80", 3, 3},
        {"\xED\x9F\xBF", 3, 3}, {"\xED\xA0\x80", 3, 0}, {"\xEF\xBF\xBF", 3, 3},
        {"\xF0\x8F\xBF\xBF", 4, 0}, {"\xF0\x90\x80\x80", 4, 4}, {"\xF4\x8F\xBF\xBF", 4, 4},
        {"\xF4\x90\x80\x80", 4, 0}, {"\xF5\x80\x80\x80", 4, 0}, {"\x80", 1, 0}, {"\xE2\x28\xA1", 3, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_int_equal(nr_utf8_len_within((const unsigned char *)cases[i].bytes, cases[i].n), cases[i].len);
}

/* nr_utf8_blank: a name of controls, white space and invisible format
 * characters shows nothing; one visible character, or an invalid byte
 * (printed as \xNN), shows. */
static void utf8_blank_is_nothing_visible(void **state)
{
    (void)state;
    static const struct { const char *s; int blank; } cases[] = {
        {"", 1}, {" ", 1}, {"\t\r\n\v\f", 1}, {"\x01\x1b\x7f", 1}, {"\xC2\x85\xC2\xA0", 1}, /* NEL, NBSP */
        {"\xE2\x80\x8B\xE2\x80\x8F\xEF\xBB\xBF", 1},   /* ZWSP, RLM, BOM */
        {"\xE3\x80\x80\xE3\x85\xA4\xC2\xAD", 1},      /* ideographic space, Hangul filler, soft hyphen */
        {"\xE2\x81\xA0\xE2\x81\xAF\xE2\x80\xAF", 1}, /* word joiner, U+206F, narrow NBSP */
        {"\xEF\xB8\x8F\xF3\xA0\x80\xA0\xE2\xA0\x80", 1},       /* U+FE0F, tag space U+E0020, braille blank */
        {"\xE1\xA0\x8B\xE1\x9E\xB4\xEF\xBF\xB0", 1},           /* U+180B, U+17B4, U+FFF0 */
        {"\xF0\x9D\x85\xB3\xF0\x9B\xB2\xA0", 1},                /* U+1D173, U+1BCA0 (review 54) */
        {"\xE2\xA0\x81", 0}, {"\xEF\xB8\x90", 0}, {"\xF0\x9D\x85\xBB", 0}, /* U+2801, U+FE10, U+1D17B */
        {"a", 0}, {" a ", 0}, {"\x01x", 0}, {"\xC2\xA1", 0}, {"\xE2\x80\x90", 0}, /* U+00A1, U+2010 */
        {"\xE2\x81\xB0", 0}, {"\xEF\xBF\xBD", 0}, {"\xF0\x9F\x98\x80", 0},    /* U+2070, U+FFFD, U+1F600 */
        {"\xFF", 0}, {" \xC3", 0}, {"\xED\xA0\x80", 0},                        /* invalid bytes show */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (nr_utf8_blank(cases[i].s) != cases[i].blank)
            fail_msg("case %zu: nr_utf8_blank gives %d, expected %d", i, !cases[i].blank, cases[i].blank);
    }
    assert_int_equal(nr_utf8_blank(NULL), 1);
}

/* Writes text to root/rel (folders made). */
static void put_file(const char *root, const char *rel, const char *text)
{
    char path[512], cmd[600];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The default --jobs follows the CFS quota of the process's cgroups (a
 * Kubernetes CPU limit, docker --cpus), the tightest along the path and
 * over v1 and v2, rounded up; until session 49 it was the host's cores. */
static void cgroup_quota_limits_cores(void **state)
{
    (void)state;
    char root[] = "/tmp/nr_cgroupXXXXXX";
    assert_non_null(mkdtemp(root));
    put_file(root, "kubepods/pod1/cpu.max", "250000 100000\n"); /* 2.5 CPUs: 3 */
    put_file(root, "kubepods/cpu.max", "max 100000\n");
    put_file(root, "cpu.max", "800000 100000\n");
    assert_int_equal(nr_cgroup_cpu_limit("0::/kubepods/pod1\n", root), 3);
    assert_int_equal(nr_cgroup_cpu_limit("0::/kubepods\n", root), 8);  /* the root's quota above it */
    assert_int_equal(nr_cgroup_cpu_limit("0::/elsewhere\n", root), 8);
    put_file(root, "cpu/slurm/job1/cpu.cfs_quota_us", "-1\n");
    put_file(root, "cpu/slurm/job1/cpu.cfs_period_us", "100000\n");
    put_file(root, "cpu/slurm/cpu.cfs_quota_us", "400000\n");
    put_file(root, "cpu/slurm/cpu.cfs_period_us", "100000\n");
    assert_int_equal(nr_cgroup_cpu_limit("4:memory:/x\n3:cpu,cpuacct:/slurm/job1\n1:name=systemd:/\n", root), 4);
    assert_int_equal(nr_cgroup_cpu_limit("3:cpuacct:/slurm/job1\n", root), 0); /* not the cpu controller */
    assert_int_equal(nr_cgroup_cpu_limit("3:cpu,cpuacct:/slurm/job1\n0::/kubepods/pod1\n", root), 3);
    put_file(root, "huge/cpu.max", "9223372036854775807 1\n"); /* no overflow: capped */
    assert_int_equal(nr_cgroup_cpu_limit("0::/huge\n", root), 8);    /* the root's 8 is tighter */
    assert_int_equal(nr_cgroup_cpu_limit("", root), 0);
    assert_int_equal(nr_cgroup_cpu_limit("garbage\n0:\n::\n", root), 0);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

/* ... and the process's CPU affinity (taskset, a Slurm cpuset). */
static void affinity_limits_cores(void **state)
{
    (void)state;
    cpu_set_t saved, one;
    assert_int_equal(sched_getaffinity(0, sizeof saved, &saved), 0);
    CPU_ZERO(&one);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &saved)) {
            CPU_SET(c, &one);
            break;
        }
    assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
    assert_int_equal(nr_cores(), 1);
    assert_int_equal(sched_setaffinity(0, sizeof saved, &saved), 0);
    assert_true(nr_cores() >= 1);
}

/* nr_phase_pick_top: the k of the largest weight (share of bytes plus
 * share of I/O time, summed over runs), ties to the earlier phase; its
 * first NR_PHASE_PICK_KEPT are nr_phase_pick_kept's. Two runs of 10
 * phases worked by hand: run 0 bytes 10 x (j + 1), no time; run 1 time in
 * phase 9 alone. Weights: (j + 1) / 55 and phase 9 also 1, so 9 first,
 * then 8, 7, ...; a NAN or negative value weighs nothing. */
static void phase_pick_top_ranks_by_weight(void **state)
{
    (void)state;
    enum { N = 10 };
    double bytes[2 * N], time[2 * N];
    for (int j = 0; j < N; j++) {
        bytes[j] = 10.0 * (j + 1);
        time[j] = 0;
        bytes[N + j] = j == 3 ? NAN : j == 4 ? -5 : 0;
        time[N + j] = j == 9 ? 2.5 : 0;
    }
    uint8_t top[N];
    assert_int_equal(nr_phase_pick_top(2, N, bytes, time, 3, top), 0);
    for (int j = 0; j < N; j++)
        assert_int_equal(top[j], j >= 7);
    assert_int_equal(nr_phase_pick_top(2, N, bytes, time, 0, top), 0);
    for (int j = 0; j < N; j++)
        assert_int_equal(top[j], 0);
    assert_int_equal(nr_phase_pick_top(2, N, bytes, time, 20, top), 0);
    for (int j = 0; j < N; j++)
        assert_int_equal(top[j], 1);
    /* ties go to the earlier: six phases of one weight, the first 4 kept */
    const double flat[6] = {1, 1, 1, 1, 1, 1}, none[6] = {0};
    assert_int_equal(nr_phase_pick_top(1, 6, flat, none, 4, top), 0);
    for (int j = 0; j < 6; j++)
        assert_int_equal(top[j], j < 4);
    /* nr_phase_pick_kept's 7 are the top 7 */
    size_t kept[NR_PHASE_PICK_KEPT], n_kept;
    assert_int_equal(nr_phase_pick_kept(2, N, bytes, time, kept, &n_kept), 0);
    assert_int_equal(n_kept, NR_PHASE_PICK_KEPT);
    assert_int_equal(nr_phase_pick_top(2, N, bytes, time, NR_PHASE_PICK_KEPT, top), 0);
    for (size_t k = 0; k < n_kept; k++)
        assert_int_equal(top[kept[k]], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cgroup_quota_limits_cores),
        cmocka_unit_test(affinity_limits_cores),
        cmocka_unit_test(varint_round_trip),
        cmocka_unit_test(varint_rejects_truncated_and_overlong),
        cmocka_unit_test(varint_fast_reads_as_the_loop),
        cmocka_unit_test(strtab_interns_dense_ids),
        cmocka_unit_test(percent_keeps_what_tells_it_apart),
        cmocka_unit_test(strtab_big_table),
        cmocka_unit_test(strtab_push_then_intern),
        cmocka_unit_test(dense_blocks_and_the_huge_page_rule),
        cmocka_unit_test(reserve_serves_the_bound_thread),
        cmocka_unit_test(zalloc_counters_are_written_zeros),
        cmocka_unit_test(arena_allocations_keep_their_bytes),
        cmocka_unit_test(outfile_commit_and_abort),
        cmocka_unit_test(outfile_modes),
        cmocka_unit_test(outfile_sweep_orphans),
        cmocka_unit_test(outfile_targets),
        cmocka_unit_test(spool_appends_reads_and_leaves_nothing),
        cmocka_unit_test(error_table_maps_exit_status),
        cmocka_unit_test(utf8_clean_escapes_invalid_bytes),
        cmocka_unit_test(utf8_len_within_follows_rfc_3629),
        cmocka_unit_test(utf8_blank_is_nothing_visible),
        cmocka_unit_test(phase_pick_top_ranks_by_weight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
