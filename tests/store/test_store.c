/* Tests of store/: round trips over many row groups, determinism, column
 * isolation, every single-byte corruption, truncation, crafted footers and
 * the golden stores (v1, v2-level3 and v2 frozen, readable forever; v3
 * reproduced by today's writer), and keyed transforms over random keys.
 * `test_store --update-golden` rewrites the golden file of the current version. */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <zstd.h>

#include "golden_data.h"
#include "nr_store.h"
#include "store_reader.h"

static char tmp_dir[256];

static void tmp_path(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", tmp_dir, name);
}

/* A new store at the temporary path name (in path) with the one table def. */
static void create_with_table(char *path, size_t n, const char *name, const nr_table_def *def, nr_store_writer **w,
                              nr_table_writer **t)
{
    nr_error err;
    tmp_path(path, n, name);
    assert_int_equal(nr_store_writer_create(path, w, &err), 0);
    assert_int_equal(nr_store_writer_add_table(*w, def, t, &err), 0);
}

/* Commits and destroys w, then opens the store it wrote at path. */
static nr_store *commit_and_open(nr_store_writer *w, const char *path)
{
    nr_error err;
    if (nr_store_writer_commit(w, &err) != 0)
        fail_msg("commit: %s", err.msg);
    nr_store_writer_destroy(w);
    nr_store *s;
    if (nr_store_open(path, &s, &err) != 0)
        fail_msg("open: %s", err.msg);
    return s;
}

static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(n > 0 ? (size_t)n : 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

/* Files a and b hold the same bytes. */
static void assert_same_bytes(const char *a, const char *b)
{
    size_t na, nb;
    uint8_t *pa = slurp(a, &na), *pb = slurp(b, &nb);
    assert_non_null(pa);
    assert_non_null(pb);
    assert_int_equal(na, nb);
    assert_memory_equal(pa, pb, na);
    free(pa);
    free(pb);
}

static void spill(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* ---- a mixed table of many row groups --------------------------------- */

#define I64(n) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_VARINT}
#define DELTA(n) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_DELTA_VARINT}
#define STR(n) {.name = n, .type = NR_COL_STR, .encoding = NR_ENC_DICT}

static const nr_col_def mixed_cols[] = {I64("v"), DELTA("ts"), STR("s"), STR("u"), DELTA("wild")};
static const nr_table_def mixed_table = {"mixed", mixed_cols, 5};
static const nr_col_def empty_cols[] = {I64("x")};
static const nr_table_def empty_table = {"empty", empty_cols, 1};
static const nr_col_def tiny_cols[] = {I64("a"), STR("b")};
static const nr_table_def tiny_table = {"tiny", tiny_cols, 2};
/* b against the previous row of the same a: a transform only version 3 has */
static const nr_col_def keyed_cols[] = {I64("a"), {.name = "b", .type = NR_COL_I64, .encoding = NR_ENC_VARINT, .key = "a"}};
static const nr_table_def keyed_table = {"keyed", keyed_cols, 2};

enum { MIXED_ROWS = 200000 };

/* A 64-bit LCG (Knuth MMIX constants): a fixed, independent value source. */
static uint64_t lcg(uint64_t i)
{
    uint64_t x = i * 6364136223846793005ull + 1442695040888963407ull;
    return x ^ (x >> 29);
}

static int64_t mixed_v(size_t i)
{
    if (i % 1000 == 0)
        return INT64_MIN;
    if (i % 1000 == 1)
        return INT64_MAX;
    return (int64_t)lcg(i) >> (i % 64);
}

static int64_t mixed_wild(size_t i) { return (int64_t)lcg(i + 7); }

/* Row i's string: odd bytes, empty strings, a long string, many distinct values. */
static size_t mixed_s(size_t i, char *buf)
{
    switch (i % 5) {
    case 0: return 0;
    case 1: memcpy(buf, "\xff\x01,\"\n\\", 6); return 6;
    case 2: memset(buf, 'x', 1000); return 1000;
    default: return (size_t)sprintf(buf, "/data/shard-%06zu.bin", i);
    }
}

/* A helper thread of nr_store_writer_set_helper that polls instead of
 * waiting for wake: it helps whenever a flush has chunks left. */
typedef struct poll_helper {
    nr_store_writer *w;
    atomic_int stop;
    pthread_t thread;
} poll_helper;

static void *poll_helper_main(void *arg)
{
    poll_helper *h = arg;
    while (!atomic_load(&h->stop))
        if (!nr_store_writer_help(h->w))
            sched_yield();
    return NULL;
}

static void no_wake(void *ctx) { (void)ctx; }

/* A wake that helps at once, on the caller's thread: the helper's encoder
 * takes every chunk of every flush, whatever the scheduler does. */
typedef struct inline_helper {
    nr_store_writer *w;
    int flushes_helped;
} inline_helper;

static void help_now(void *ctx)
{
    inline_helper *h = ctx;
    h->flushes_helped += nr_store_writer_help(h->w);
}

enum { NO_HELPER, POLLING_HELPER, INLINE_HELPER };

/* with_helper: row groups flushed by the caller alone, with a polling
 * helper thread, or all by the helper's encoder (INLINE_HELPER; asserts
 * that it took part in every flush). */
static void write_mixed_helped(const char *path, int with_empty, int with_helper)
{
    nr_error err;
    nr_store_writer *w;
    nr_table_writer *t, *e;
    char buf[1100];
    assert_int_equal(nr_store_writer_create(path, &w, &err), 0);
    poll_helper h = {.w = w};
    inline_helper now = {.w = w};
    if (with_helper == POLLING_HELPER) {
        assert_int_equal(nr_store_writer_set_helper(w, no_wake, NULL, &err), 0);
        assert_int_equal(pthread_create(&h.thread, NULL, poll_helper_main, &h), 0);
    } else if (with_helper == INLINE_HELPER) {
        /* a help before set_helper does nothing and keeps no later one out */
        assert_int_equal(nr_store_writer_help(w), 0);
        assert_int_equal(nr_store_writer_set_helper(w, help_now, &now, &err), 0);
    }
    assert_int_equal(nr_store_writer_add_table(w, &mixed_table, &t, &err), 0);
    if (with_empty)
        assert_int_equal(nr_store_writer_add_table(w, &empty_table, &e, &err), 0);
    for (size_t i = 0; i < MIXED_ROWS; i++) {
        nr_table_set_i64(t, 0, mixed_v(i));
        nr_table_set_i64(t, 1, 1000000000 + (int64_t)i * 37);
        size_t n = mixed_s(i, buf);
        nr_table_set_str(t, 2, buf, n);
        nr_table_set_str(t, 3, i % 2 ? "even" : "", i % 2 ? 4 : 0);
        nr_table_set_i64(t, 4, mixed_wild(i));
        int rc = nr_table_end_row(t, &err);
        if (rc != 0)
            fail_msg("end_row %zu: %s", i, err.msg);
    }
    if (nr_store_writer_commit(w, &err) != 0)
        fail_msg("commit: %s", err.msg);
    if (with_helper == POLLING_HELPER) {
        atomic_store(&h.stop, 1);
        pthread_join(h.thread, NULL);
    }
    if (with_helper == INLINE_HELPER)
        assert_int_equal(now.flushes_helped, 4); /* 3 full groups, the last at commit */
    nr_store_writer_destroy(w);
}

static void write_mixed(const char *path, int with_empty) { write_mixed_helped(path, with_empty, NO_HELPER); }

static void round_trip_many_row_groups(void **state)
{
    char path[300];
    tmp_path(path, sizeof path, "mixed.nio");
    write_mixed(path, 1);
    nr_error err;
    nr_store *s;
    if (nr_store_open(path, &s, &err) != 0)
        fail_msg("open: %s", err.msg);
    assert_int_equal(nr_store_format_version(s), NR_STORE_FORMAT_VERSION);
    assert_int_equal(nr_store_table_count(s), 2);
    const nr_store_table *t = nr_store_find_table(s, "mixed");
    assert_non_null(t);
    assert_int_equal(nr_store_table_rows(t), MIXED_ROWS);
    /* 200000 = 3 * 65536 + 3392 */
    assert_int_equal(nr_store_table_rowgroups(t), 4);
    assert_int_equal(nr_store_rowgroup_rows(t, 0), 65536);
    assert_int_equal(nr_store_rowgroup_rows(t, 3), 3392);
    assert_int_equal(nr_store_col_index(t, "wild"), 4);
    assert_int_equal(nr_store_col_index(t, "nope"), -1);

    const nr_store_table *e = nr_store_find_table(s, "empty");
    assert_non_null(e);
    assert_int_equal(nr_store_table_rows(e), 0);
    assert_int_equal(nr_store_table_rowgroups(e), 0);
    nr_col_info info;
    nr_store_col_info(e, 0, &info);
    assert_int_equal(info.disk_bytes, 0);
    assert_null(nr_store_find_table(s, "nope"));

    nr_col_chunk c;
    nr_col_chunk_init(&c);
    char buf[1100];
    size_t row = 0;
    for (size_t rg = 0; rg < 4; rg++) {
        size_t base = row;
        for (size_t col = 0; col < 5; col++) {
            if (nr_store_read_chunk(t, col, rg, &c, &err) != 0)
                fail_msg("read rg %zu col %zu: %s", rg, col, err.msg);
            assert_int_equal(c.n, nr_store_rowgroup_rows(t, rg));
            for (size_t k = 0; k < c.n; k++) {
                size_t i = base + k;
                switch (col) {
                case 0: assert_int_equal(c.i64[k], mixed_v(i)); break;
                case 1: assert_int_equal(c.i64[k], 1000000000 + (int64_t)i * 37); break;
                case 2: {
                    size_t n = mixed_s(i, buf);
                    assert_int_equal(c.str_len[k], n);
                    assert_memory_equal(c.str[k], buf, n);
                    assert_int_equal(c.str[k][n], '\0');
                    break;
                }
                case 3: assert_string_equal(c.str[k], i % 2 ? "even" : ""); break;
                case 4: assert_int_equal(c.i64[k], mixed_wild(i)); break;
                }
            }
        }
        row += c.n;
    }
    assert_int_equal(row, MIXED_ROWS);
    assert_int_equal(nr_store_read_chunk(t, 5, 0, &c, &err), NR_E_NOTFOUND);
    assert_int_equal(nr_store_read_chunk(t, 0, 4, &c, &err), NR_E_NOTFOUND);
    nr_col_chunk_fini(&c);
    nr_store_close(s);
}

/* ---- keyed transforms over random keys --------------------------------- */

static const nr_col_def ktab_cols[] = {
    I64("k"), I64("len"),
    {.name = "d", .type = NR_COL_I64, .encoding = NR_ENC_VARINT, .key = "k"},
    {.name = "o", .type = NR_COL_I64, .encoding = NR_ENC_VARINT, .key = "k", .step = "len"},
};
static const nr_table_def ktab_table = {"ktab", ktab_cols, 4};
enum { KTAB_ROWS = 150000, KTAB_KEYS = 61 };

/* Row i of ktab into v[4]; next[] is the writer's prediction of o per key
 * (offset plus len of the key's last row with o != -1), so that rows hit
 * every case: the prediction, one less (-1's code), -1 and wild values. */
static void ktab_row(size_t i, int64_t v[4], uint64_t next[KTAB_KEYS])
{
    size_t key = lcg(i) % KTAB_KEYS;
    /* keys of a small range in the first two row groups (direct mode), of
     * the whole int64 range in the third (hashed mode) */
    v[0] = key == 60 && i >= 2 * NR_STORE_ROWS_PER_GROUP ? INT64_MIN : (int64_t)key * 1000 - 7;
    v[1] = (int64_t)(lcg(i + 3) % 5) * 4096;
    v[2] = i % 9 == 0 ? mixed_wild(i) : (int64_t)(lcg(i + 1) % 3) - 1;
    switch (lcg(i + 2) % 6) {
    case 0: v[3] = (int64_t)next[key]; break;
    case 1: v[3] = (int64_t)(next[key] - 1); break;
    case 2: v[3] = -1; break;
    case 3: v[3] = mixed_wild(i); break;
    default: v[3] = (int64_t)(next[key] + 4096); break;
    }
    if (v[3] != -1)
        next[key] = (uint64_t)v[3] + (uint64_t)v[1];
}

/* The KTAB_ROWS rows of ktab, row by row, into a new store at path
 * (tmp_path of name). */
static void write_ktab(char *path, size_t cap, const char *name)
{
    nr_error err;
    nr_store_writer *w;
    nr_table_writer *t;
    uint64_t next[KTAB_KEYS] = {0};
    int64_t v[4];
    create_with_table(path, cap, name, &ktab_table, &w, &t);
    for (size_t i = 0; i < KTAB_ROWS; i++) {
        ktab_row(i, v, next);
        for (size_t c = 0; c < 4; c++)
            nr_table_set_i64(t, c, v[c]);
        assert_int_equal(nr_table_end_row(t, &err), 0);
    }
    if (nr_store_writer_commit(w, &err) != 0)
        fail_msg("commit: %s", err.msg);
    nr_store_writer_destroy(w);
}

static void keyed_transforms_round_trip(void **state)
{
    (void)state;
    char path[300];
    nr_error err;
    uint64_t next[KTAB_KEYS] = {0};
    int64_t v[4];
    write_ktab(path, sizeof path, "ktab.nio");
    nr_store *s;
    if (nr_store_open(path, &s, &err) != 0)
        fail_msg("open: %s", err.msg);
    const nr_store_table *kt = nr_store_find_table(s, "ktab");
    assert_int_equal(nr_store_table_rowgroups(kt), 3);
    nr_col_chunk c[4];
    memset(next, 0, sizeof next);
    size_t row = 0;
    for (size_t rg = 0; rg < 3; rg++) {
        for (size_t col = 0; col < 4; col++) {
            nr_col_chunk_init(&c[col]);
            if (nr_store_read_chunk(kt, col, rg, &c[col], &err) != 0)
                fail_msg("rg %zu col %zu: %s", rg, col, err.msg);
        }
        for (size_t k = 0; k < c[0].n; k++, row++) {
            ktab_row(row, v, next);
            for (size_t col = 0; col < 4; col++)
                if (c[col].i64[k] != v[col])
                    fail_msg("row %zu col %zu: %lld, expected %lld", row, col, (long long)c[col].i64[k],
                             (long long)v[col]);
        }
        for (size_t col = 0; col < 4; col++)
            nr_col_chunk_fini(&c[col]);
    }
    assert_int_equal(row, KTAB_ROWS);
    nr_store_close(s);
    unlink(path);
}

/* ktab written through nr_table_append_rows: rows [from, from + n) in
 * one call from arrays freed right after it (under ASan a later read of a
 * lent array fails), the prediction state carried in next. */
static void append_ktab(nr_table_writer *t, size_t from, size_t n, uint64_t next[KTAB_KEYS])
{
    int64_t *col[4];
    for (size_t c = 0; c < 4; c++)
        assert_non_null(col[c] = malloc(n * sizeof *col[c]));
    int64_t v[4];
    for (size_t k = 0; k < n; k++) {
        ktab_row(from + k, v, next);
        for (size_t c = 0; c < 4; c++)
            col[c][k] = v[c];
    }
    nr_col_values cols[4] = {{.i64 = col[0]}, {.i64 = col[1]}, {.i64 = col[2]}, {.i64 = col[3]}};
    nr_error err;
    if (nr_table_append_rows(t, cols, n, &err) != 0)
        fail_msg("append of rows %zu..%zu: %s", from, from + n, err.msg);
    for (size_t c = 0; c < 4; c++)
        free(col[c]);
}

/* With helper, a polling thread shares h->w's flushes from now on. */
static void start_helper_if(poll_helper *h, int helper)
{
    nr_error err;
    if (!helper)
        return;
    assert_int_equal(nr_store_writer_set_helper(h->w, no_wake, NULL, &err), 0);
    assert_int_equal(pthread_create(&h->thread, NULL, poll_helper_main, h), 0);
}

/* Commits w, stops h's thread (if started) and frees w. */
static void commit_and_join_helper(nr_store_writer *w, poll_helper *h, int helper)
{
    nr_error err;
    assert_int_equal(nr_store_writer_commit(w, &err), 0);
    if (helper) {
        atomic_store(&h->stop, 1);
        pthread_join(h->thread, NULL);
    }
    nr_store_writer_destroy(w);
}

/* Whole row groups appended at a group's start are encoded from the
 * caller's arrays (lent, not copied), keyed columns reading their keys
 * and steps there too: the bytes of row-by-row writing, with the flush
 * shared with a helper thread or not, and the table's own buffers used
 * again for the rows after them. */
static void lent_row_groups_match_set_and_end_row(void **state)
{
    (void)state;
    char a[300], b[300];
    nr_store_writer *w;
    nr_table_writer *t;
    uint64_t next[KTAB_KEYS];
    write_ktab(a, sizeof a, "lent-a.nio");
    const size_t g = NR_STORE_ROWS_PER_GROUP;
    for (int helper = 0; helper < 2; helper++) {
        create_with_table(b, sizeof b, "lent-b.nio", &ktab_table, &w, &t);
        poll_helper h = {.w = w};
        start_helper_if(&h, helper);
        memset(next, 0, sizeof next);
        append_ktab(t, 0, g, next);             /* one whole group: lent */
        append_ktab(t, g, g + 7, next);         /* a lent group, then 7 rows copied */
        append_ktab(t, 2 * g + 7, KTAB_ROWS - 2 * g - 7, next); /* copied after them */
        commit_and_join_helper(w, &h, helper);
        assert_same_bytes(a, b);
        unlink(b);
    }
    unlink(a);
}

/* Table paths: distinct strings (the paths of table files) beside an id,
 * two whole row groups and part of a third; row PATHS_REPEAT_ROW repeats
 * the path of row 5 of its group. */
static const nr_col_def paths_cols[] = {DELTA("id"), STR("path")};
static const nr_table_def paths_table = {"paths", paths_cols, 2};
enum { PATHS_ROWS = 2 * NR_STORE_ROWS_PER_GROUP + 20000, PATHS_REPEAT_ROW = 2 * NR_STORE_ROWS_PER_GROUP + 19000 };

static size_t paths_row(size_t i, char *buf)
{
    size_t from = i == PATHS_REPEAT_ROW ? 2 * NR_STORE_ROWS_PER_GROUP + 5 : i;
    return (size_t)snprintf(buf, 64, "/data/train/shard-%03zu/%07zu.jpg", from % 997, from);
}

/* Rows [from, from + n) of table paths in one call (with final, the
 * table's last: nr_table_append_final_rows), the paths as distinct strings
 * from arrays freed right after it (under ASan a later read of a lent
 * string fails). */
static void append_paths_call(nr_table_writer *t, size_t from, size_t n, int final)
{
    int64_t *id = malloc(n * sizeof *id);
    char **strs = malloc(n * sizeof *strs);
    uint32_t *lens = malloc(n * sizeof *lens);
    assert_true(id && strs && lens);
    for (size_t k = 0; k < n; k++) {
        char buf[64];
        id[k] = (int64_t)(from + k);
        lens[k] = (uint32_t)paths_row(from + k, buf);
        assert_non_null(strs[k] = strdup(buf));
    }
    nr_col_values cols[2] = {{.i64 = id}, {.strs = (const char *const *)strs, .lens = lens, .distinct = 1}};
    nr_error err;
    if ((final ? nr_table_append_final_rows(t, cols, n, &err) : nr_table_append_rows(t, cols, n, &err)) != 0)
        fail_msg("append of rows %zu..%zu: %s", from, from + n, err.msg);
    for (size_t k = 0; k < n; k++)
        free(strs[k]);
    free(strs);
    free(lens);
    free(id);
}

static void append_paths(nr_table_writer *t, size_t from, size_t n) { append_paths_call(t, from, n, 0); }

static void set_path_row(nr_table_writer *t, size_t i)
{
    char buf[64];
    size_t n = paths_row(i, buf);
    nr_error err;
    nr_table_set_i64(t, 0, (int64_t)i);
    nr_table_set_str(t, 1, buf, n);
    assert_int_equal(nr_table_end_row(t, &err), 0);
}

/* The reference: rows [0, rows) of table paths set one by one, into the
 * temporary file name (its path in path). */
static void write_paths_by_row(char *path, size_t size, const char *name, size_t rows)
{
    nr_error err;
    nr_store_writer *w;
    nr_table_writer *t;
    create_with_table(path, size, name, &paths_table, &w, &t);
    for (size_t i = 0; i < rows; i++)
        set_path_row(t, i);
    assert_int_equal(nr_store_writer_commit(w, &err), 0);
    nr_store_writer_destroy(w);
}

/* Distinct strings (nr_col_values.distinct) give the bytes of row-by-row
 * writing: lent whole groups, copied parts of groups (in calls across a
 * group's end too), rows set one by one after pushed strings (one of them
 * repeating a pushed path, which must get its id), with the flush shared
 * with a helper thread or not. */
static void distinct_strings_match_set_and_end_row(void **state)
{
    (void)state;
    char a[300], b[300];
    nr_store_writer *w;
    nr_table_writer *t;
    write_paths_by_row(a, sizeof a, "paths-a.nio", PATHS_ROWS);
    const size_t g = NR_STORE_ROWS_PER_GROUP;
    for (int helper = 0; helper < 2; helper++) {
        create_with_table(b, sizeof b, "paths-b.nio", &paths_table, &w, &t);
        poll_helper h = {.w = w};
        start_helper_if(&h, helper);
        append_paths(t, 0, g);                 /* a whole group: lent */
        append_paths(t, g, 1000);              /* pushed */
        append_paths(t, g + 1000, g);          /* the rest of a group, and 1000 rows of the next */
        append_paths(t, 2 * g + 1000, 17000);  /* pushed after pushed */
        for (size_t i = 2 * g + 18000; i < PATHS_ROWS; i++)
            set_path_row(t, i);                /* interned after pushed strings: indexes them */
        commit_and_join_helper(w, &h, helper);
        assert_same_bytes(a, b);
        unlink(b);
    }
    unlink(a);
}

static void same_rows_give_identical_bytes(void **state)
{
    char a[300], b[300];
    tmp_path(a, sizeof a, "det-a.nio");
    tmp_path(b, sizeof b, "det-b.nio");
    write_mixed(a, 0);
    write_mixed(b, 0);
    assert_same_bytes(a, b);
    unlink(a);
    unlink(b);
}

/* Row groups encoded by two threads (nr_store_writer_set_helper) give the
 * bytes of one thread: four flushes of the five-column table, the last
 * at commit beside an empty table. Once with the helper's encoder taking
 * every chunk (a wake that helps at once), then three times with a polling
 * thread, where who takes what is up to the scheduler. */
static void a_helper_thread_gives_the_same_bytes(void **state)
{
    (void)state;
    char a[300], b[300];
    tmp_path(a, sizeof a, "helped-a.nio");
    tmp_path(b, sizeof b, "helped-b.nio");
    write_mixed_helped(a, 1, NO_HELPER);
    write_mixed_helped(b, 1, INLINE_HELPER);
    assert_same_bytes(a, b);
    for (int round = 0; round < 3; round++) {
        write_mixed_helped(b, 1, POLLING_HELPER);
        assert_same_bytes(a, b);
    }
    unlink(a);
    unlink(b);
}

/* Rows [from, from + n) of the mixed table in one nr_table_append_rows call,
 * the strings through per-call dictionaries (fresh each call); with
 * direct, column s's as strings (nr_col_values.strs; repeated ones too). */
static int append_mixed(nr_table_writer *t, size_t from, size_t n, int direct, nr_error *err)
{
    int64_t *v = malloc(n * sizeof *v), *ts = malloc(n * sizeof *ts), *wild = malloc(n * sizeof *wild);
    uint32_t *s_ids = malloc(n * sizeof *s_ids), *u_ids = malloc(n * sizeof *u_ids);
    const char **s_strs = malloc(n * sizeof *s_strs);
    uint32_t *s_lens = malloc(n * sizeof *s_lens);
    assert_true(v && ts && wild && s_ids && u_ids && s_strs && s_lens);
    nr_strtab dict;
    nr_strtab_init(&dict);
    char buf[1100];
    for (size_t k = 0; k < n; k++) {
        size_t i = from + k;
        v[k] = mixed_v(i);
        ts[k] = 1000000000 + (int64_t)i * 37;
        wild[k] = mixed_wild(i);
        /* u's strings enter the dictionary first: ids need not follow row order */
        u_ids[k] = (uint32_t)nr_strtab_intern(&dict, i % 2 ? "even" : "", i % 2 ? 4 : 0);
        s_ids[k] = (uint32_t)nr_strtab_intern(&dict, buf, mixed_s(i, buf));
    }
    for (size_t k = 0; k < n; k++) { /* pointers only once dict has stopped growing */
        s_strs[k] = nr_strtab_str(&dict, s_ids[k]);
        s_lens[k] = (uint32_t)nr_strtab_len(&dict, s_ids[k]);
    }
    nr_col_values cols[5] = {{.i64 = v}, {.i64 = ts}, {.ids = s_ids, .dict = &dict},
                             {.ids = u_ids, .dict = &dict}, {.i64 = wild}};
    if (direct)
        cols[2] = (nr_col_values){.strs = s_strs, .lens = s_lens};
    int rc = nr_table_append_rows(t, cols, n, err);
    free(s_strs);
    free(s_lens);
    nr_strtab_fini(&dict);
    free(v);
    free(ts);
    free(wild);
    free(s_ids);
    free(u_ids);
    return rc;
}

/* Batches across row-group boundaries (column s as dictionary ids and as
 * strings, alternately), single rows set by hand in between and a half-set
 * row dropped by an append give the bytes of write_mixed. */
static void append_rows_matches_set_and_end_row(void **state)
{
    char a[300], b[300];
    tmp_path(a, sizeof a, "append-a.nio");
    tmp_path(b, sizeof b, "append-b.nio");
    write_mixed(a, 0);
    nr_error err;
    nr_store_writer *w;
    nr_table_writer *t;
    assert_int_equal(nr_store_writer_create(b, &w, &err), 0);
    assert_int_equal(nr_store_writer_add_table(w, &mixed_table, &t, &err), 0);
    static const size_t batch[] = {1, 7, 1000, 64527, 2, 65536, 40000};
    size_t row = 0;
    for (size_t j = 0; j < sizeof batch / sizeof batch[0]; j++) {
        if (append_mixed(t, row, batch[j], (int)(j % 2), &err) != 0)
            fail_msg("append at row %zu: %s", row, err.msg);
        row += batch[j];
        /* one row by hand, then a half-set row that the next append drops */
        char buf[1100];
        size_t n = mixed_s(row, buf);
        nr_table_set_i64(t, 0, mixed_v(row));
        nr_table_set_i64(t, 1, 1000000000 + (int64_t)row * 37);
        nr_table_set_str(t, 2, buf, n);
        nr_table_set_str(t, 3, row % 2 ? "even" : "", row % 2 ? 4 : 0);
        nr_table_set_i64(t, 4, mixed_wild(row));
        assert_int_equal(nr_table_end_row(t, &err), 0);
        row++;
        nr_table_set_i64(t, 0, 42);
        nr_table_set_i64(t, 4, 43);
    }
    if (append_mixed(t, row, MIXED_ROWS - row, 1, &err) != 0)
        fail_msg("last append: %s", err.msg);
    if (nr_store_writer_commit(w, &err) != 0)
        fail_msg("commit: %s", err.msg);
    nr_store_writer_destroy(w);
    assert_same_bytes(a, b);
    unlink(a);
    unlink(b);
}

/* Column "late" of table scaled: multiples of 1000 (and -1) on the first
 * 2000 rows, so that a scale guessed from the first rows is 1000, then one
 * value that is not: the chunk's scale must be 1. Column "delta" the same in
 * its differences; column "fits": multiples of 3000 and -1 throughout;
 * column "zeros": only 0 and -1 on the first 1000 rows (no guess), then
 * multiples of 5000. */
static const nr_col_def scaled_cols[] = {I64("late"), DELTA("delta"), I64("fits"), I64("zeros")};
static const nr_table_def scaled_table = {"scaled", scaled_cols, 4};
enum { SCALED_ROWS = 3000, SCALED_ODD_ROW = 2000 };

static void scaled_row(size_t i, int64_t *v)
{
    v[0] = i % 7 == 3 ? -1 : (int64_t)(i * 1000) - 500000;
    v[1] = (int64_t)(i * 1000);
    v[2] = i % 5 == 1 ? -1 : (int64_t)(i * 3000) - 3000000;
    v[3] = i < 1000 ? -(int64_t)(i % 2) : (int64_t)(i * 5000);
    if (i == SCALED_ODD_ROW) {
        v[0] = 1234567;
        v[1] += 1; /* two differences that are not multiples of 1000 */
    }
}

static size_t uvarint_len(uint64_t v)
{
    size_t n = 1;
    for (; v >= 0x80; v >>= 7)
        n++;
    return n;
}

/* Round trip of the scaled table, and the raw sizes of scale 1 ("late"),
 * 3000 ("fits") and 5000 ("zeros") counted here from the format: transform byte,
 * scale uvarint, then one zig-zag varint per code. */
static void scale_guess_is_checked(void **state)
{
    char path[300];
    nr_error err;
    nr_store_writer *w;
    nr_table_writer *t;
    create_with_table(path, sizeof path, "scaled.nio", &scaled_table, &w, &t);
    int64_t v[4];
    size_t late_raw = 1 + 1, fits_raw = 1 + 2, zeros_raw = 1 + 2; /* uvarint 1: one byte; 3000, 5000: two */
    for (size_t i = 0; i < SCALED_ROWS; i++) {
        scaled_row(i, v);
        for (size_t c = 0; c < 4; c++)
            nr_table_set_i64(t, c, v[c]);
        assert_int_equal(nr_table_end_row(t, &err), 0);
        late_raw += uvarint_len(((uint64_t)v[0] << 1) ^ (uint64_t)(v[0] >> 63));
        int64_t code = v[2] == -1 ? -1 : v[2] >= 0 ? v[2] / 3000 : v[2] / 3000 - 1;
        fits_raw += uvarint_len(((uint64_t)code << 1) ^ (uint64_t)(code >> 63));
        code = v[3] / 5000; /* 0, -1 or positive */
        zeros_raw += uvarint_len(((uint64_t)code << 1) ^ (uint64_t)(code >> 63));
    }
    nr_store *s = commit_and_open(w, path);
    const nr_store_table *st = nr_store_find_table(s, "scaled");
    nr_col_info info;
    nr_store_col_info(st, 0, &info);
    assert_int_equal(info.raw_bytes, late_raw);
    nr_store_col_info(st, 2, &info);
    assert_int_equal(info.raw_bytes, fits_raw);
    nr_store_col_info(st, 3, &info);
    assert_int_equal(info.raw_bytes, zeros_raw);
    nr_col_chunk c[4];
    for (size_t col = 0; col < 4; col++) {
        nr_col_chunk_init(&c[col]);
        if (nr_store_read_chunk(st, col, 0, &c[col], &err) != 0)
            fail_msg("col %zu: %s", col, err.msg);
        assert_int_equal(c[col].n, SCALED_ROWS);
    }
    for (size_t i = 0; i < SCALED_ROWS; i++) {
        scaled_row(i, v);
        for (size_t col = 0; col < 4; col++)
            if (c[col].i64[i] != v[col])
                fail_msg("row %zu col %zu: %lld, expected %lld", i, col, (long long)c[col].i64[i], (long long)v[col]);
    }
    for (size_t col = 0; col < 4; col++)
        nr_col_chunk_fini(&c[col]);
    nr_store_close(s);
    unlink(path);
}

/* nr__store_crc32 (carry-less multiplies where the CPU has them) equals
 * zlib's crc32 on every length from 0 to 600 at every alignment mod 16,
 * and on 1 MiB; and the check value of "123456789" is 0xCBF43926. */
static void crc_matches_zlib(void **state)
{
    enum { BIG = 1 << 20 };
    unsigned char *buf = malloc(BIG + 16);
    assert_non_null(buf);
    for (size_t i = 0; i < BIG + 16; i++)
        buf[i] = (unsigned char)(lcg(i) >> 24);
    for (size_t off = 0; off < 16; off++)
        for (size_t n = 0; n <= 600; n++)
            if (nr__store_crc32(buf + off, n) != nr__store_crc32_zlib(buf + off, n))
                fail_msg("offset %zu length %zu", off, n);
    assert_int_equal(nr__store_crc32(buf + 3, BIG), nr__store_crc32_zlib(buf + 3, BIG));
    memset(buf, 0xff, 4096);
    assert_int_equal(nr__store_crc32(buf, 4096), nr__store_crc32_zlib(buf, 4096));
    assert_int_equal(nr__store_crc32("123456789", 9), 0xCBF43926u);
    assert_int_equal(nr__store_crc32("1234567890123456789012345678901234567890123456789012345678901234567890", 70),
                     nr__store_crc32_zlib("1234567890123456789012345678901234567890123456789012345678901234567890", 70));
    free(buf);
}

/* An id outside its dictionary fails the call and leaves the table unusable. */
static void append_rows_rejects_a_bad_id(void **state)
{
    char path[300];
    nr_error err;
    nr_store_writer *w;
    nr_table_writer *t;
    create_with_table(path, sizeof path, "append-bad.nio", &tiny_table, &w, &t);
    nr_strtab dict;
    nr_strtab_init(&dict);
    assert_int_equal(nr_strtab_intern(&dict, "x", 1), 0);
    const int64_t a[2] = {1, 2};
    const uint32_t ids[2] = {0, 1};
    const nr_col_values cols[2] = {{.i64 = a}, {.ids = ids, .dict = &dict}};
    assert_int_equal(nr_table_append_rows(t, cols, 1, &err), 0);
    assert_int_equal(nr_table_append_rows(t, cols, 2, &err), NR_E_INPUT);
    assert_non_null(strstr(err.msg, "outside its dictionary"));
    assert_int_equal(nr_table_end_row(t, &err), NR_E_INPUT);
    assert_int_equal(nr_store_writer_commit(w, &err), NR_E_INPUT);
    nr_strtab_fini(&dict);
    nr_store_writer_destroy(w);
    struct stat st;
    assert_int_not_equal(stat(path, &st), 0);
}

/* ---- small stores for corruption tests -------------------------------- */

/* Writes a store with three tables and a few chunks each (two row groups
 * in "tiny"; "keyed" makes the file unreadable as version 2). */
static void write_small(const char *path)
{
    nr_error err;
    nr_store_writer *w;
    nr_table_writer *t, *e, *k;
    assert_int_equal(nr_store_writer_create(path, &w, &err), 0);
    nr_store_writer_set_level(w, 1);
    assert_int_equal(nr_store_writer_add_table(w, &tiny_table, &t, &err), 0);
    assert_int_equal(nr_store_writer_add_table(w, &empty_table, &e, &err), 0);
    assert_int_equal(nr_store_writer_add_table(w, &keyed_table, &k, &err), 0);
    for (int64_t i = 0; i < 9; i++) {
        nr_table_set_i64(k, 0, i % 2);
        nr_table_set_i64(k, 1, 100 + i);
        assert_int_equal(nr_table_end_row(k, &err), 0);
    }
    for (size_t i = 0; i < NR_STORE_ROWS_PER_GROUP + 3; i++) {
        nr_table_set_i64(t, 0, (int64_t)(i % 5));
        nr_table_set_str(t, 1, i % 2 ? "odd" : "even", i % 2 ? 3 : 4);
        assert_int_equal(nr_table_end_row(t, &err), 0);
    }
    nr_table_set_i64(e, 0, -5);
    assert_int_equal(nr_table_end_row(e, &err), 0);
    assert_int_equal(nr_store_writer_commit(w, &err), 0);
    nr_store_writer_destroy(w);
}

/* The small store written to the temporary file name (its path in path,
 * of size PATH_CAP) and its bytes (*n of them; the caller frees them). */
#define PATH_CAP 300
static uint8_t *small_store_bytes(const char *name, char path[PATH_CAP], size_t *n)
{
    tmp_path(path, PATH_CAP, name);
    write_small(path);
    uint8_t *p = slurp(path, n);
    assert_non_null(p);
    return p;
}

/* Opens p and reads every chunk. Returns 0, or the first error code. */
static int open_and_read_all(const uint8_t *p, size_t n, nr_error *err)
{
    nr_store *s;
    int rc = nr__store_open_memory(p, n, "mem.nio", &s, err);
    if (rc < 0)
        return rc;
    nr_col_chunk c;
    nr_col_chunk_init(&c);
    for (size_t i = 0; i < nr_store_table_count(s) && rc == 0; i++) {
        const nr_store_table *t = nr_store_table_at(s, i);
        for (size_t rg = 0; rg < nr_store_table_rowgroups(t) && rc == 0; rg++)
            for (size_t col = 0; col < nr_store_table_ncols(t) && rc == 0; col++)
                rc = nr_store_read_chunk(t, col, rg, &c, err);
    }
    nr_col_chunk_fini(&c);
    nr_store_close(s);
    return rc;
}

static void every_flipped_byte_is_detected(void **state)
{
    char path[PATH_CAP];
    size_t n;
    uint8_t *p = small_store_bytes("small.nio", path, &n);
    nr_error err;
    assert_int_equal(open_and_read_all(p, n, &err), 0);
    assert_true(n < 4096);
    for (size_t i = 0; i < n; i++) {
        for (int mask = 1; mask <= 0x80; mask <<= 7) { /* the low and the high bit */
            p[i] ^= (uint8_t)mask;
            nr_error_clear(&err);
            int rc = open_and_read_all(p, n, &err);
            if (rc != NR_E_FORMAT)
                fail_msg("byte %zu ^ 0x%02x: expected NR_E_FORMAT, got %d (%s)", i, mask, rc, err.msg);
            assert_non_null(strstr(err.msg, "mem.nio: "));
            assert_non_null(strstr(err.msg, "offset"));
            p[i] ^= (uint8_t)mask;
        }
    }
    free(p);
}

static void truncation_names_an_offset(void **state)
{
    char path[PATH_CAP], cut_path[PATH_CAP];
    tmp_path(cut_path, sizeof cut_path, "cut.nio");
    size_t n;
    uint8_t *p = small_store_bytes("small-trunc.nio", path, &n);
    nr_store *s;
    nr_error err;
    assert_int_equal(nr_store_open(path, &s, &err), 0);
    /* Cut points: every chunk start and end, and a few others. */
    size_t cuts[64], ncuts = 0;
    for (size_t i = 0; i < s->ntables; i++)
        for (size_t j = 0; j < s->tables[i].nrowgroups * s->tables[i].ncols; j++) {
            cuts[ncuts++] = s->tables[i].chunks[j].offset;
            cuts[ncuts++] = s->tables[i].chunks[j].offset + s->tables[i].chunks[j].disk_size;
        }
    nr_store_close(s);
    const size_t others[] = {0, 1, 8, 15, 16, 17, n / 2, n - 21, n - 20, n - 12, n - 8, n - 1};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        cuts[ncuts++] = others[i];
    assert_true(ncuts > 16);
    for (size_t i = 0; i < ncuts; i++) {
        spill(cut_path, p, cuts[i]);
        nr_error_clear(&err);
        int rc = nr_store_open(cut_path, &s, &err);
        if (rc != NR_E_FORMAT)
            fail_msg("cut at %zu: expected NR_E_FORMAT, got %d (%s)", cuts[i], rc, err.msg);
        assert_null(s);
        assert_non_null(strstr(err.msg, cut_path));
        if (cuts[i] >= 36 && !strstr(err.msg, "offset"))
            fail_msg("cut at %zu: message names no offset: %s", cuts[i], err.msg);
    }
    unlink(cut_path);
    free(p);
}

/* Damaging one column's chunk leaves every other column readable. */
static void a_column_reads_without_touching_others(void **state)
{
    char path[PATH_CAP];
    size_t n;
    uint8_t *p = small_store_bytes("isolate.nio", path, &n);
    nr_store *s;
    nr_error err;
    assert_int_equal(nr__store_open_memory(p, n, "iso.nio", &s, &err), 0);
    const nr_store_table *t = nr_store_find_table(s, "tiny");
    const nr__chunk_ref *b0 = &t->chunks[0 * 2 + 1];
    p[b0->offset + b0->disk_size / 2] ^= 0x55;
    nr_col_chunk c;
    nr_col_chunk_init(&c);
    assert_int_equal(nr_store_read_chunk(t, 0, 0, &c, &err), 0);
    assert_int_equal(c.n, NR_STORE_ROWS_PER_GROUP);
    assert_int_equal(c.i64[12], 2);
    assert_int_equal(nr_store_read_chunk(t, 1, 1, &c, &err), 0);
    assert_int_equal(c.n, 3);
    assert_string_equal(c.str[1], "odd");
    assert_int_equal(nr_store_read_chunk(t, 1, 0, &c, &err), NR_E_FORMAT);
    assert_int_equal(c.n, 0);
    assert_non_null(strstr(err.msg, "checksum mismatch"));
    char want[64];
    snprintf(want, sizeof want, "offset %llu:", (unsigned long long)b0->offset);
    assert_non_null(strstr(err.msg, want));
    nr_col_chunk_fini(&c);
    nr_store_close(s);
    free(p);
}

/* Rewrites the footer CRC so that a crafted footer passes the checksum. */
static void reseal_footer(uint8_t *p, size_t n)
{
    uint64_t len = nr__get_le64(p + n - 20);
    nr__put_le32(p + n - 12, nr__store_crc32(p + n - 20 - len, (size_t)len));
}

/* Offset in p of the footer entry of chunk k of the first table. */
static size_t first_table_chunk_entry(const uint8_t *p, size_t n, size_t k)
{
    size_t footer = n - 20 - (size_t)nr__get_le64(p + n - 20);
    size_t at = footer + 4;
    at += 2 + nr__get_le16(p + at);          /* table name */
    uint32_t ncols = nr__get_le32(p + at);
    at += 16;
    for (uint32_t c = 0; c < ncols; c++)
        at += 2 + nr__get_le16(p + at) + 2;  /* column name, type, encoding */
    return at + k * NR__CHUNK_ENTRY_SIZE;
}

static void expect_open_error(const uint8_t *p, size_t n, const char *needle)
{
    nr_store *s;
    nr_error err;
    nr_error_clear(&err);
    int rc = nr__store_open_memory(p, n, "crafted.nio", &s, &err);
    if (rc != NR_E_FORMAT || !strstr(err.msg, needle))
        fail_msg("expected NR_E_FORMAT with '%s', got %d: %s", needle, rc, err.msg);
}

static void crafted_footers_are_rejected(void **state)
{
    char path[PATH_CAP];
    size_t n;
    uint8_t *orig = small_store_bytes("crafted.nio", path, &n);
    uint8_t *p = malloc(n);
    size_t e0 = first_table_chunk_entry(orig, n, 0);
    size_t e1 = first_table_chunk_entry(orig, n, 1);
    struct {
        size_t at;
        int width;
        uint64_t value;
        const char *needle;
    } cases[] = {
        {e0 + 12, 4, 0xffffffffu, "raw size"},          /* a huge raw size */
        {e0 + 8, 4, 0xffffffffu, "should lie between"}, /* past the footer */
        {e0, 8, 0, "should lie between"},               /* inside the header */
        {e1, 8, 16, "overlaps"},                        /* on top of chunk 0 */
        {e0 + 16, 4, 65537, "rows"},                    /* too many rows */
        {e0 + 16, 4, 65535, "rows"},                    /* rows disagree */
        {first_table_chunk_entry(orig, n, 0) - 1, 1, 9, "encoding"},
        {16 + 0, 0, 0, NULL},
    };
    for (size_t i = 0; cases[i].needle; i++) {
        memcpy(p, orig, n);
        if (cases[i].width == 8)
            nr__put_le64(p + cases[i].at, cases[i].value);
        else if (cases[i].width == 4)
            nr__put_le32(p + cases[i].at, (uint32_t)cases[i].value);
        else
            p[cases[i].at] = (uint8_t)cases[i].value;
        reseal_footer(p, n);
        expect_open_error(p, n, cases[i].needle);
    }
    /* A newer format version is refused by name. */
    memcpy(p, orig, n);
    nr__put_le32(p + 8, NR_STORE_FORMAT_VERSION + 1);
    char newer[32];
    snprintf(newer, sizeof newer, "format version %u", NR_STORE_FORMAT_VERSION + 1);
    expect_open_error(p, n, newer);
    memcpy(p, orig, n);
    memcpy(p, "NOTSTORE", 8);
    expect_open_error(p, n, "not a niorep store");
    free(p);
    free(orig);
}

/* ---- writer contract --------------------------------------------------- */

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void writer_misuse_and_abort(void **state)
{
    char sub[300], path[400];
    tmp_path(sub, sizeof sub, "abort");
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(path, sizeof path, "%s/x.nio", sub);
    nr_error err;
    nr_store_writer *w;
    nr_table_writer *t, *t2;
    assert_int_equal(nr_store_writer_create(path, &w, &err), 0);
    assert_int_equal(count_files(sub), 1); /* the temporary file */
    assert_int_equal(nr_store_writer_add_table(w, &tiny_table, &t, &err), 0);
    assert_int_equal(nr_store_writer_add_table(w, &tiny_table, &t2, &err), NR_E_INPUT);
    assert_non_null(strstr(err.msg, "added twice"));
    nr_table_set_i64(t, 0, 1);
    assert_int_equal(nr_table_end_row(t, &err), NR_E_INPUT);
    assert_non_null(strstr(err.msg, "column 'b' was not set in row 0"));
    nr_store_writer_destroy(w);
    assert_int_equal(count_files(sub), 0);
    rmdir(sub);
}

/* The size of the one file in dir (a writer's temporary file). */
static uint64_t only_file_size(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    uint64_t size = 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[700];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        assert_int_equal(stat(path, &st), 0);
        size = (uint64_t)st.st_size;
        n++;
    }
    closedir(d);
    assert_int_equal(n, 1);
    return size;
}

/* The footer's length, from a committed store's trailer. */
static uint64_t footer_len(const char *path)
{
    size_t n;
    uint8_t *p = slurp(path, &n);
    assert_non_null(p);
    assert_true(n >= NR__STORE_TRAILER_SIZE);
    uint64_t len = nr__get_le64(p + n - NR__STORE_TRAILER_SIZE);
    free(p);
    return len;
}

/* A table's last rows (nr_table_append_final_rows) after a whole group:
 * the last, partial group is lent and flushed at once (when the call
 * returns, the file holds every chunk: the commit adds only the footer and
 * the trailer), with the bytes of row-by-row writing (one table: its last
 * chunks come right before the footer either way), shared with a helper or
 * not; rows after it fail. */
static void final_rows_are_flushed_in_place(void **state)
{
    (void)state;
    char a[300], sub[300], b[400];
    nr_error err;
    nr_store_writer *w;
    nr_table_writer *t;
    const size_t g = NR_STORE_ROWS_PER_GROUP, rows = 2 * g + 1000;
    write_paths_by_row(a, sizeof a, "final-a.nio", rows);
    tmp_path(sub, sizeof sub, "final");
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(b, sizeof b, "%s/b.nio", sub);
    for (int helper = 0; helper < 2; helper++) {
        assert_int_equal(nr_store_writer_create(b, &w, &err), 0);
        assert_int_equal(nr_store_writer_add_table(w, &paths_table, &t, &err), 0);
        poll_helper h = {.w = w};
        start_helper_if(&h, helper);
        append_paths(t, 0, g);
        append_paths_call(t, g, g + 1000, 1); /* a whole group, then the last 1000 rows: both lent */
        const uint64_t chunks_end = only_file_size(sub);
        nr_col_values none[2] = {{.i64 = NULL}, {.strs = NULL, .lens = NULL, .distinct = 1}};
        assert_int_equal(nr_table_append_rows(t, none, 0, &err), NR_E_INPUT);
        assert_non_null(strstr(err.msg, "rows after its last ones"));
        nr_table_set_i64(t, 0, 1);
        nr_table_set_str(t, 1, "/x", 2);
        assert_int_equal(nr_table_end_row(t, &err), NR_E_INPUT);
        commit_and_join_helper(w, &h, helper);
        assert_int_equal(only_file_size(sub), chunks_end + footer_len(b) + NR__STORE_TRAILER_SIZE);
        assert_same_bytes(a, b);
        unlink(b);
    }
    rmdir(sub);
    unlink(a);
}

/* rows [from, to) of table paths, one by one, with the writer's early
 * sync started at row sync_at (none when outside the range) */
static void set_path_rows(nr_store_writer *w, nr_table_writer *t, size_t from, size_t to, size_t sync_at)
{
    for (size_t i = from; i < to; i++) {
        if (i == sync_at)
            nr_store_writer_sync_early(w);
        set_path_row(t, i);
    }
}

/* An early sync (its own thread), started once mid-table and called again
 * before the commit, changes no byte, and a writer destroyed after one
 * leaves no file behind. */
static void an_early_sync_changes_nothing(void **state)
{
    (void)state;
    char sub[300], a[400], b[400];
    tmp_path(sub, sizeof sub, "early-sync");
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(a, sizeof a, "%s/a.nio", sub);
    snprintf(b, sizeof b, "%s/b.nio", sub);
    nr_error err;
    nr_store_writer *w;
    nr_table_writer *t;
    const size_t rows = NR_STORE_ROWS_PER_GROUP + 100;
    for (int synced = 0; synced < 2; synced++) {
        assert_int_equal(nr_store_writer_create(synced ? b : a, &w, &err), 0);
        assert_int_equal(nr_store_writer_add_table(w, &paths_table, &t, &err), 0);
        set_path_rows(w, t, 0, rows, synced ? NR_STORE_ROWS_PER_GROUP + 1 : rows);
        if (synced)
            nr_store_writer_sync_early(w);
        assert_int_equal(nr_store_writer_commit(w, &err), 0);
        nr_store_writer_destroy(w);
    }
    assert_same_bytes(a, b);
    unlink(a);
    unlink(b);
    assert_int_equal(nr_store_writer_create(a, &w, &err), 0);
    assert_int_equal(nr_store_writer_add_table(w, &paths_table, &t, &err), 0);
    set_path_rows(w, t, 0, rows, NR_STORE_ROWS_PER_GROUP + 1);
    nr_store_writer_destroy(w);
    assert_int_equal(count_files(sub), 0);
    rmdir(sub);
}

/* ---- runs of one-byte codes -------------------------------------------- */

/* Columns of mostly one-byte codes (the reader takes those 16 at a time)
 * with a longer code now and then, at every place in a run of 16: plain,
 * scaled, deltas and differences from a base column. */
static const nr_col_def runs_cols[] = {
    I64("v"), I64("scaled"), DELTA("ts"), I64("pid"),
    {.name = "tid", .type = NR_COL_I64, .encoding = NR_ENC_VARINT, .base = "pid"},
};
static const nr_table_def runs_table = {"runs", runs_cols, 5};
enum { RUNS_ROWS = 140000 };

/* Row i's value of column col: a longer code in about one row of 23 (of
 * 3 bytes, or of 10 in one of four). */
static int64_t runs_value(size_t col, size_t i)
{
    const int long_code = lcg(i * 5 + col) % 23 == 0;
    const int64_t small = (int64_t)(lcg(i * 3 + col) % 128) - 64; /* one byte as a code */
    const int64_t longer = lcg(i) % 4 == 0 ? mixed_wild(i) : (int64_t)(lcg(i + 1) % 1000000);
    switch (col) {
    case 0: return long_code ? longer : small;
    case 1: return (long_code ? (int64_t)(lcg(i) % 1000000) : small) * 1000;
    case 2: return 5000000000 + (int64_t)i * 20 + (long_code ? (int64_t)(lcg(i + 2) % 1000000) : 0); /* two longer deltas */
    case 3: return 20 + (int64_t)(i / 1000) % 3;
    default: return runs_value(3, i) + (long_code ? longer : small);
    }
}

static void runs_of_one_byte_codes_read_back(void **state)
{
    (void)state;
    char path[300];
    nr_error err;
    nr_store_writer *w;
    nr_table_writer *t;
    create_with_table(path, sizeof path, "runs.nio", &runs_table, &w, &t);
    for (size_t i = 0; i < RUNS_ROWS; i++) {
        for (size_t c = 0; c < 5; c++)
            nr_table_set_i64(t, c, runs_value(c, i));
        assert_int_equal(nr_table_end_row(t, &err), 0);
    }
    nr_store *s = commit_and_open(w, path);
    const nr_store_table *rt = nr_store_find_table(s, "runs");
    nr_col_chunk c;
    nr_col_chunk_init(&c);
    for (size_t col = 0; col < 5; col++) {
        nr_col_info info;
        nr_store_col_info(rt, col, &info);
        if (info.raw_bytes >= (uint64_t)RUNS_ROWS * 5 / 4) /* so the runs' way is the one read */
            fail_msg("col %zu: %llu raw bytes for %d rows", col, (unsigned long long)info.raw_bytes, RUNS_ROWS);
        size_t row = 0;
        for (size_t rg = 0; rg < nr_store_table_rowgroups(rt); rg++) {
            if (nr_store_read_chunk(rt, col, rg, &c, &err) != 0)
                fail_msg("col %zu rg %zu: %s", col, rg, err.msg);
            for (size_t k = 0; k < c.n; k++, row++)
                if (c.i64[k] != runs_value(col, row))
                    fail_msg("col %zu row %zu: %lld, expected %lld", col, row, (long long)c.i64[k],
                             (long long)runs_value(col, row));
        }
        assert_int_equal(row, RUNS_ROWS);
    }
    nr_col_chunk_fini(&c);
    nr_store_close(s);
    unlink(path);
}

/* ---- golden ------------------------------------------------------------ */

static char golden_path[512];    /* the current version's golden store */
static char golden_v1_path[512]; /* frozen: version 1 stays readable */
static char golden_v2_level3_path[512]; /* frozen: v2 as written at zstd level 3, before the fast default */
static char golden_v2_path[512];        /* frozen: v2 as written before format version 3 */

/* Reads the golden store of format `version` and checks every value. */
static void check_golden(const char *path, uint32_t version)
{
    nr_store *s;
    nr_error err;
    if (nr_store_open(path, &s, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(nr_store_format_version(s), version);
    assert_int_equal(nr_store_table_count(s), version >= 3 ? 9 : version == 2 ? 8 : 7);
    const char *names[] = {"meta", "diagnostics", "files", "extremes", "empty", "events", "series"};
    for (size_t i = 0; i < 7; i++)
        assert_string_equal(nr_store_table_name(nr_store_table_at(s, i)), names[i]);
    nr_col_chunk c;
    nr_col_chunk_init(&c);
    const nr_store_table *t = nr_store_find_table(s, "extremes");
    assert_int_equal(nr_store_read_chunk(t, 0, 0, &c, &err), 0);
    assert_int_equal(c.n, GOLDEN_EXTREMES);
    for (size_t i = 0; i < GOLDEN_EXTREMES; i++)
        assert_int_equal(c.i64[i], golden_extremes_v[i]);
    assert_int_equal(nr_store_read_chunk(t, 1, 0, &c, &err), 0);
    for (size_t i = 0; i < GOLDEN_EXTREMES; i++)
        assert_int_equal(c.i64[i], golden_extremes_d[i]);
    assert_int_equal(nr_store_read_chunk(t, 2, 0, &c, &err), 0);
    for (size_t i = 0; i < GOLDEN_EXTREMES; i++)
        assert_string_equal(c.str[i], golden_extremes_s[i]);
    t = nr_store_find_table(s, "files");
    assert_int_equal(nr_store_read_chunk(t, nr_store_col_index(t, "path"), 0, &c, &err), 0);
    for (size_t i = 0; i < GOLDEN_FILES; i++)
        assert_string_equal(c.str[i], golden_files_path[i]);
    t = nr_store_find_table(s, "events");
    assert_int_equal(nr_store_table_rows(t), GOLDEN_EVENTS);
    assert_int_equal(nr_store_read_chunk(t, 0, 0, &c, &err), 0);
    for (size_t i = 0; i < GOLDEN_EVENTS; i++)
        assert_int_equal(c.i64[i], golden_events_ts(i));
    assert_int_equal(nr_store_read_chunk(t, 3, 0, &c, &err), 0);
    for (size_t i = 0; i < GOLDEN_EVENTS; i++)
        assert_string_equal(c.str[i], golden_events_syscall(i));
    t = nr_store_find_table(s, "series");
    assert_int_equal(nr_store_table_rowgroups(t), 2);
    assert_int_equal(nr_store_rowgroup_rows(t, 1), GOLDEN_SERIES - 65536);
    assert_int_equal(nr_store_read_chunk(t, 0, 1, &c, &err), 0);
    for (size_t i = 0; i < c.n; i++)
        assert_int_equal(c.i64[i], golden_series_ts(65536 + i));
    assert_int_equal(nr_store_read_chunk(t, 2, 1, &c, &err), 0);
    for (size_t i = 0; i < c.n; i++)
        assert_string_equal(c.str[i], golden_series_name(65536 + i));
    assert_int_equal(nr_store_table_rows(nr_store_find_table(s, "empty")), 0);
    if (version >= 2) {
        t = nr_store_find_table(s, "scaled");
        assert_non_null(t);
        for (size_t col = 0; col < GOLDEN_SCALED_COLS; col++) {
            if (nr_store_read_chunk(t, col, 0, &c, &err) != 0)
                fail_msg("%s", err.msg);
            assert_int_equal(c.n, GOLDEN_SCALED);
            for (size_t i = 0; i < GOLDEN_SCALED; i++)
                assert_int_equal(c.i64[i], golden_scaled(col, i));
        }
    }
    if (version >= 3) {
        t = nr_store_find_table(s, "keyed");
        assert_non_null(t);
        for (size_t col = 0; col < GOLDEN_KEYED_COLS; col++) {
            if (nr_store_read_chunk(t, col, 0, &c, &err) != 0)
                fail_msg("%s", err.msg);
            assert_int_equal(c.n, GOLDEN_KEYED);
            for (size_t i = 0; i < GOLDEN_KEYED; i++)
                if (c.i64[i] != golden_keyed(col, i))
                    fail_msg("keyed column %zu row %zu: %lld, expected %lld", col, i, (long long)c.i64[i],
                             (long long)golden_keyed(col, i));
        }
    }
    nr_col_chunk_fini(&c);
    nr_store_close(s);
}

static void read_golden_values(void **state)
{
    (void)state;
    check_golden(golden_path, NR_STORE_FORMAT_VERSION);
}

static void read_golden_v1_values(void **state)
{
    (void)state;
    check_golden(golden_v1_path, 1);
}

static void read_golden_v2_level3_values(void **state)
{
    (void)state;
    check_golden(golden_v2_level3_path, 2);
}

static void read_golden_v2_values(void **state)
{
    (void)state;
    check_golden(golden_v2_path, 2);
}

/* Every table of the store at path, read row group by row group with
 * nr_store_read_chunks (all columns in order, then in reverse, where no
 * column comes after those its transform reads): the same values as
 * nr_store_read_chunk of each column alone. */
static void check_read_chunks(const char *path)
{
    nr_store *s;
    nr_error err;
    if (nr_store_open(path, &s, &err) != 0)
        fail_msg("%s: %s", path, err.msg);
    for (size_t ti = 0; ti < nr_store_table_count(s); ti++) {
        const nr_store_table *t = nr_store_table_at(s, ti);
        const size_t ncols = nr_store_table_ncols(t);
        nr_col_chunk *alone = calloc(ncols, sizeof *alone), *together = calloc(ncols, sizeof *together);
        nr_col_chunk **into = calloc(ncols, sizeof *into);
        size_t *cols = calloc(ncols, sizeof *cols);
        assert_true(alone && together && into && cols);
        for (size_t c = 0; c < ncols; c++) {
            nr_col_chunk_init(&alone[c]);
            nr_col_chunk_init(&together[c]);
        }
        for (size_t rg = 0; rg < nr_store_table_rowgroups(t); rg++) {
            for (size_t c = 0; c < ncols; c++)
                if (nr_store_read_chunk(t, c, rg, &alone[c], &err) != 0)
                    fail_msg("%s table %zu rg %zu col %zu: %s", path, ti, rg, c, err.msg);
            for (int reverse = 0; reverse < 2; reverse++) {
                for (size_t k = 0; k < ncols; k++) {
                    cols[k] = reverse ? ncols - 1 - k : k;
                    into[k] = &together[cols[k]];
                }
                if (nr_store_read_chunks(t, rg, ncols, cols, into, &err) != 0)
                    fail_msg("%s table %zu rg %zu: %s", path, ti, rg, err.msg);
                for (size_t c = 0; c < ncols; c++) {
                    assert_int_equal(together[c].n, alone[c].n);
                    nr_col_info info;
                    nr_store_col_info(t, c, &info);
                    for (size_t i = 0; i < alone[c].n; i++)
                        if (info.type == NR_COL_I64 ? together[c].i64[i] != alone[c].i64[i]
                                         : strcmp(together[c].str[i], alone[c].str[i]) != 0)
                            fail_msg("%s table %zu rg %zu col %zu row %zu differs", path, ti, rg, c, i);
                }
            }
        }
        for (size_t c = 0; c < ncols; c++) {
            nr_col_chunk_fini(&alone[c]);
            nr_col_chunk_fini(&together[c]);
        }
        free(alone);
        free(together);
        free(into);
        free(cols);
    }
    nr_store_close(s);
}

static void read_chunks_match_single_reads(void **state)
{
    (void)state;
    char path[300];
    write_ktab(path, sizeof path, "ktab-together.nio"); /* keys and steps, three row groups */
    check_read_chunks(path);
    unlink(path);
    check_read_chunks(golden_path);    /* every v3 transform */
    check_read_chunks(golden_v2_path); /* base columns */
    check_read_chunks(golden_v1_path);
}

static void writer_reproduces_golden(void **state)
{
    char path[300];
    tmp_path(path, sizeof path, "golden-now.nio");
    nr_error err;
    if (golden_write(path, &err) != 0)
        fail_msg("%s", err.msg);
    size_t na, nb;
    uint8_t *now = slurp(path, &na), *old = slurp(golden_path, &nb);
    assert_non_null(old);
    if (na != nb || memcmp(now, old, na) != 0)
        fail_msg("the writer no longer reproduces %s (%zu vs %zu bytes). A format change needs a new "
                 "version; a new zstd (now %s) may compress differently: then check the reader test "
                 "passes and refresh with test_store --update-golden", golden_path, na, nb, ZSTD_versionString());
    free(now);
    free(old);
    unlink(path);
}

/* Seeds of the store reader's fuzz corpus: small valid stores. */
static int write_fuzz_corpus(const char *dir)
{
    char path[600];
    nr_error err;
    nr_store_writer *w;
    nr_table_writer *t;
    snprintf(path, sizeof path, "%s/no-tables.nio", dir);
    if (nr_store_writer_create(path, &w, &err) || nr_store_writer_commit(w, &err))
        goto fail;
    nr_store_writer_destroy(w);
    w = NULL;
    snprintf(path, sizeof path, "%s/one-row.nio", dir);
    if (nr_store_writer_create(path, &w, &err) || nr_store_writer_add_table(w, &mixed_table, &t, &err))
        goto fail;
    nr_table_set_i64(t, 0, -3);
    nr_table_set_i64(t, 1, 1000);
    nr_table_set_str(t, 2, "a\xff", 2);
    nr_table_set_str(t, 3, "", 0);
    nr_table_set_i64(t, 4, INT64_MIN);
    if (nr_table_end_row(t, &err) || nr_store_writer_add_table(w, &empty_table, &t, &err) ||
        nr_store_writer_commit(w, &err))
        goto fail;
    nr_store_writer_destroy(w);
    w = NULL;
    snprintf(path, sizeof path, "%s/two-row-groups.nio", dir);
    write_small(path);
    snprintf(path, sizeof path, "%s/golden-v%u.nio", dir, NR_STORE_FORMAT_VERSION);
    if (golden_write(path, &err))
        goto fail;
    printf("wrote the seeds to %s\n", dir);
    return 0;
fail:
    fprintf(stderr, "%s\n", err.msg);
    nr_store_writer_destroy(w);
    return 1;
}

static int remove_tmp_dir(void)
{
    DIR *d = opendir(tmp_dir);
    if (!d)
        return 0;
    char path[600];
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", tmp_dir, e->d_name);
            unlink(path);
        }
    closedir(d);
    return rmdir(tmp_dir);
}

int main(int argc, char **argv)
{
    const char *src = getenv("NR_SOURCE_DIR");
    snprintf(golden_path, sizeof golden_path, "%s/tests/store/golden/v%u.nio", src ? src : ".",
             NR_STORE_FORMAT_VERSION);
    snprintf(golden_v1_path, sizeof golden_v1_path, "%s/tests/store/golden/v1.nio", src ? src : ".");
    snprintf(golden_v2_level3_path, sizeof golden_v2_level3_path, "%s/tests/store/golden/v2-level3.nio",
             src ? src : ".");
    snprintf(golden_v2_path, sizeof golden_v2_path, "%s/tests/store/golden/v2.nio", src ? src : ".");
    if (argc > 1 && strcmp(argv[1], "--update-golden") == 0) {
        nr_error err;
        if (golden_write(golden_path, &err) != 0) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        printf("wrote %s\n", golden_path);
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "--write-fuzz-corpus") == 0)
        return write_fuzz_corpus(argv[2]);
    snprintf(tmp_dir, sizeof tmp_dir, "/tmp/nr_test_store.XXXXXX");
    if (!mkdtemp(tmp_dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_many_row_groups),
        cmocka_unit_test(same_rows_give_identical_bytes),
        cmocka_unit_test(keyed_transforms_round_trip),
        cmocka_unit_test(runs_of_one_byte_codes_read_back),
        cmocka_unit_test(append_rows_matches_set_and_end_row),
        cmocka_unit_test(lent_row_groups_match_set_and_end_row),
        cmocka_unit_test(distinct_strings_match_set_and_end_row),
        cmocka_unit_test(final_rows_are_flushed_in_place),
        cmocka_unit_test(a_helper_thread_gives_the_same_bytes),
        cmocka_unit_test(scale_guess_is_checked),
        cmocka_unit_test(crc_matches_zlib),
        cmocka_unit_test(append_rows_rejects_a_bad_id),
        cmocka_unit_test(every_flipped_byte_is_detected),
        cmocka_unit_test(truncation_names_an_offset),
        cmocka_unit_test(a_column_reads_without_touching_others),
        cmocka_unit_test(crafted_footers_are_rejected),
        cmocka_unit_test(writer_misuse_and_abort),
        cmocka_unit_test(an_early_sync_changes_nothing),
        cmocka_unit_test(read_golden_values),
        cmocka_unit_test(read_golden_v1_values),
        cmocka_unit_test(read_golden_v2_level3_values),
        cmocka_unit_test(read_golden_v2_values),
        cmocka_unit_test(read_chunks_match_single_reads),
        cmocka_unit_test(writer_reproduces_golden),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    remove_tmp_dir();
    return failed ? 1 : 0;
}
