/* Unit tests of ingest/hook.c with hand-computed answers: nesting,
 * threads, processes, never-ended phases, broken lines, io records, and
 * the fast lookup against a brute-force scan. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "hook.h"
#include "nr_utf8.h"

#define S(sec) ((int64_t)((sec) * 1000000000.0))

typedef struct diag_log {
    char reasons[32][40];
    uint64_t lines[32];
    size_t lens[32]; /* of each report's example: the whole line */
    int count;
} diag_log;

static void collect(void *ctx, const char *reason, uint64_t line_no, const char *line, size_t len)
{
    diag_log *d = ctx;
    if (d->count < 32) {
        snprintf(d->reasons[d->count], sizeof d->reasons[0], "%s", reason);
        d->lens[d->count] = line ? len : 0;
        d->lines[d->count++] = line_no;
    }
}

/* Finishes h at end_ns; it must succeed. */
static void finish(nr_hook *h, int64_t end_ns)
{
    nr_error err;
    assert_int_equal(nr_hook_finish(h, end_ns, &err), 0);
}

/* Phase i, read back from the hook's phase queue (from its start). */
static nr_hook_phase phase_get(nr_hook *h, size_t i)
{
    nr_error err;
    nr_hook_phase p = {0};
    assert_int_equal(nr_hook_rewind_phases(h, &err), 0);
    for (size_t k = 0; k <= i; k++)
        assert_int_equal(nr_hook_next_phase(h, &p, &err), 1);
    assert_int_equal(p.phase_id, (int64_t)i);
    return p;
}

/* The hook's records of each kind, copied out of its record queues (read
 * back one at a time) so that a test can hold several: the first 64. */
static nr_hook_io io_copy[64];
static nr_hook_mark mark_copy[64];
static nr_hook_wait wait_copy[64];

static void copy_records(nr_hook *h)
{
    nr_error err;
    assert_int_equal(nr_hook_rewind_records(h, &err), 0);
    const nr_hook_io *io;
    const nr_hook_mark *mark;
    const nr_hook_wait *wait;
    for (size_t i = 0; nr_hook_next_io(h, &io, &err) > 0; i++)
        if (i < 64)
            io_copy[i] = *io;
    for (size_t i = 0; nr_hook_next_mark(h, &mark, &err) > 0; i++)
        if (i < 64)
            mark_copy[i] = *mark;
    for (size_t i = 0; nr_hook_next_wait(h, &wait, &err) > 0; i++)
        if (i < 64)
            wait_copy[i] = *wait;
}

static const nr_hook_io *io_at(nr_hook *h, size_t i)
{
    copy_records(h);
    return &io_copy[i];
}

static const nr_hook_mark *mark_at(nr_hook *h, size_t i)
{
    copy_records(h);
    return &mark_copy[i];
}

static const nr_hook_wait *wait_at(nr_hook *h, size_t i)
{
    copy_records(h);
    return &wait_copy[i];
}

/* Writes text to a temporary file and loads it. */
static nr_hook *load_text(const char *text, diag_log *d)
{
    char path[] = "/tmp/nr_test_hook_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    nr_hook *h = NULL;
    nr_error err;
    nr_error_clear(&err);
    assert_int_equal(nr_hook_load(path, d ? collect : NULL, d, &h, &err), 0);
    unlink(path);
    return h;
}

/* One nr_hook_phase_at lookup, the phase id it must find (-1: none) and why. */
typedef struct phase_query {
    int64_t pid, tid;   /* tid -1: the process as a whole */
    double t;           /* seconds */
    int64_t want;
    const char *why;
} phase_query;

/* Runs the lookups in order (the index may cache: order is part of the test). */
static void check_phase_at(nr_hook *h, const phase_query *q, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const int64_t got = nr_hook_phase_at(h, q[i].pid, q[i].tid, S(q[i].t));
        if (got != q[i].want)
            fail_msg("phase_at(pid %lld, tid %lld, %g s), %s: expected %lld, got %lld", (long long)q[i].pid,
                     (long long)q[i].tid, q[i].t, q[i].why, (long long)q[i].want, (long long)got);
    }
}

static void nested_phases_innermost_wins(void **state)
{
    nr_hook *h = load_text("{\"event\":\"header\",\"version\":1,\"ts\":100.0,\"pid\":1}\n"
                           "{\"ts\":100.0,\"pid\":1,\"event\":\"phase_begin\",\"phase\":\"train\"}\n"
                           "{\"ts\":101.0,\"pid\":1,\"event\":\"phase_begin\",\"phase\":\"checkpoint\"}\n"
                           "{\"ts\":102.0,\"pid\":1,\"event\":\"phase_end\",\"phase\":\"checkpoint\"}\n"
                           "{\"ts\":110.0,\"pid\":1,\"event\":\"phase_end\",\"phase\":\"train\"}\n",
                           NULL);
    finish(h, S(200));
    assert_int_equal(nr_hook_phase_count(h), 2);
    const nr_hook_phase train_phase = phase_get(h, 0), ckpt_phase = phase_get(h, 1);
    const nr_hook_phase *train = &train_phase, *ckpt = &ckpt_phase;
    assert_string_equal(train->name, "train");
    assert_int_equal(train->begin_ns, S(100));
    assert_int_equal(train->end_ns, S(110));
    assert_int_equal(train->depth, 0);
    assert_int_equal(train->parent_id, -1);
    assert_int_equal(train->tid, 1);
    assert_false(train->never_ended);
    assert_string_equal(ckpt->name, "checkpoint");
    assert_int_equal(ckpt->depth, 1);
    assert_int_equal(ckpt->parent_id, 0);
    static const phase_query queries[] = {
        {1, -1, 99.5, -1, "before the first phase"},
        {1, -1, 100, 0, "begin is inclusive"},
        {1, -1, 100.5, 0, "inside train"},
        {1, -1, 101.5, 1, "the innermost phase wins"},
        {1, -1, 102, 0, "end is exclusive"},
        {1, 1, 105, 0, "the main thread by its tid"},
        {1, 77, 101.5, 1, "a thread without phases: the process's"},
        {1, -1, 110, -1, "after the last phase"},
        {2, -1, 105, -1, "another process"},
        {1, -1, 101.5, 1, "going back in time works too"},
    };
    check_phase_at(h, queries, sizeof queries / sizeof queries[0]);
    assert_int_equal(nr_hook_first_ns(h), S(100));
    assert_int_equal(nr_hook_last_ns(h), S(110));
    nr_hook_free(h);
}

static void threads_and_processes(void **state)
{
    /* pid 1: main thread train [100,110), thread 2 prefetch [103,105);
     * pid 9 (a worker) begins earlier: ids are ordered by begin time. */
    nr_hook *h = load_text("{\"ts\":100,\"pid\":1,\"tid\":1,\"event\":\"phase_begin\",\"phase\":\"train\"}\n"
                           "{\"ts\":103,\"pid\":1,\"tid\":2,\"event\":\"phase_begin\",\"phase\":\"prefetch\"}\n"
                           "{\"ts\":105,\"pid\":1,\"tid\":2,\"event\":\"phase_end\",\"phase\":\"prefetch\"}\n"
                           "{\"ts\":110,\"pid\":1,\"tid\":1,\"event\":\"phase_end\",\"phase\":\"train\"}\n"
                           "{\"ts\":50,\"pid\":9,\"event\":\"phase_begin\",\"phase\":\"data_prep\"}\n"
                           "{\"ts\":60,\"pid\":9,\"event\":\"phase_end\",\"phase\":\"data_prep\"}\n",
                           NULL);
    finish(h, S(200));
    assert_int_equal(nr_hook_phase_count(h), 3);
    assert_string_equal(phase_get(h, 0).name, "data_prep");
    assert_int_equal(phase_get(h, 0).pid, 9);
    assert_string_equal(phase_get(h, 1).name, "train");
    assert_string_equal(phase_get(h, 2).name, "prefetch");
    assert_int_equal(phase_get(h, 2).depth, 0); /* nesting is per thread */
    static const phase_query queries[] = {
        {1, 2, 104, 2, "thread 2 in its own phase"},
        {1, 1, 104, 1, "the main thread in train"},
        {1, -1, 104, 1, "the process: main thread preferred"},
        {1, 2, 106, 1, "thread 2 has nothing open: the process's"},
        {9, -1, 55, 0, "the worker's phase"},
        {9, 9, 65, -1, "after the worker's phase"},
    };
    check_phase_at(h, queries, sizeof queries / sizeof queries[0]);
    assert_int_equal(nr_hook_first_ns(h), S(50));
    nr_hook_free(h);
}

static void never_ended_phase_is_closed_and_flagged(void **state)
{
    diag_log d = {0};
    nr_hook *h = load_text("{\"ts\":100,\"pid\":1,\"event\":\"phase_begin\",\"phase\":\"train\"}\n"
                           "{\"ts\":120,\"pid\":1,\"event\":\"phase_begin\",\"phase\":\"eval\"}\n",
                           &d);
    finish(h, S(200));
    assert_int_equal(d.count, 0);
    assert_int_equal(nr_hook_phase_count(h), 2);
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(phase_get(h, i).end_ns, S(200));
        assert_true(phase_get(h, i).never_ended);
    }
    assert_int_equal(nr_hook_phase_at(h, 1, -1, S(150)), 1);
    assert_int_equal(nr_hook_phase_at(h, 1, -1, S(110)), 0);
    assert_int_equal(nr_hook_phase_at(h, 1, -1, S(200)), -1);
    nr_hook_free(h);
}

/* A phase_end naming an exception flags the phase it names, not the
 * phases it closes on the way nor its parent (each __exit__ writes its
 * own record); error null or false is no exception. */
static void phase_ended_by_an_exception_is_flagged(void **state)
{
    diag_log d = {0};
    nr_hook *h = load_text("{\"ts\":1,\"pid\":1,\"event\":\"phase_begin\",\"phase\":\"train\"}\n"
                           "{\"ts\":2,\"pid\":1,\"event\":\"phase_begin\",\"phase\":\"eval\"}\n"
                           "{\"ts\":3,\"pid\":1,\"event\":\"phase_end\",\"phase\":\"eval\",\"error\":\"RuntimeError\"}\n"
                           "{\"ts\":4,\"pid\":1,\"event\":\"phase_end\",\"phase\":\"train\",\"error\":null}\n"
                           "{\"ts\":5,\"pid\":1,\"event\":\"phase_begin\",\"phase\":\"ckpt\"}\n"
                           "{\"ts\":6,\"pid\":1,\"event\":\"phase_end\",\"phase\":\"ckpt\",\"error\":false}\n",
                           &d);
    finish(h, S(10));
    assert_int_equal(d.count, 0);
    assert_int_equal(nr_hook_phase_count(h), 3);
    assert_false(phase_get(h, 0).ended_by_error); /* train */
    assert_true(phase_get(h, 1).ended_by_error);  /* eval */
    assert_false(phase_get(h, 2).ended_by_error); /* ckpt */
    nr_hook_free(h);
}

/* A field given with the wrong type is named for what is wrong with it,
   not reported missing (review 46); a line with a NUL in it reaches the
   report whole, not cut at the NUL. */
static void wrong_typed_fields_have_their_own_reasons(void **state)
{
    (void)state;
    diag_log d = {0};
    static const char text[] = "{\"ts\":\"abc\",\"pid\":1,\"event\":\"mark\",\"name\":\"m\"}\n" /* 1 */
                               "{\"ts\":1,\"pid\":\"7\",\"event\":\"mark\",\"name\":\"m\"}\n"   /* 2 */
                               "{\"ts\":1,\"pid\":7,\"tid\":1.5,\"event\":\"mark\",\"name\":\"m\"}\n" /* 3 */
                               "{\"ts\":1,\"pid\":7,\"event\":3}\n"                               /* 4 */
                               "{\"ts\":1,\"pid\":7}\n"                                             /* 5 */
                               "{\"ts\":1,\"pid\":7,\"tid\":null,\"event\":\"mark\",\"name\":\"m\"}\n" /* 6 ok */
                               "{\"ts\":1,\0\"pid\":7}\n";                                         /* 7 */
    char path[] = "/tmp/nr_test_hook_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    nr_hook *h = NULL;
    nr_error err;
    nr_error_clear(&err);
    assert_int_equal(nr_hook_load(path, collect, &d, &h, &err), 0);
    unlink(path);
    const char *want[] = {"bad_timestamp", "bad_pid", "bad_pid", "unknown_event", "missing_field", "bad_json"};
    const uint64_t want_lines[] = {1, 2, 3, 4, 5, 7};
    assert_int_equal(d.count, 6);
    for (int i = 0; i < 6; i++) {
        assert_string_equal(d.reasons[i], want[i]);
        assert_int_equal(d.lines[i], want_lines[i]);
    }
    assert_int_equal(d.lens[5], strlen("{\"ts\":1,") + 1 + strlen("\"pid\":7}"));
    assert_int_equal(nr_hook_mark_count(h), 1);
    nr_hook_free(h);
}

static void broken_lines_are_counted_with_line_numbers(void **state)
{
    diag_log d = {0};
    nr_hook *h = load_text("{\"event\":\"header\",\"version\":1,\"ts\":1,\"pid\":1}\n" /* 1 */
                           "{\"ts\":1,\n"                                             /* 2 bad_json */
                           "[1,2]\n"                                                  /* 3 not_object */
                           "{\"event\":\"phase_begin\",\"pid\":1,\"phase\":\"x\"}\n"  /* 4 missing ts */
                           "{\"ts\":5,\"pid\":1,\"event\":\"phase_end\",\"phase\":\"nope\"}\n" /* 5 unmatched */
                           "{\"ts\":5,\"pid\":1,\"event\":\"weird\"}\n"              /* 6 unknown_event */
                           "\n"                                                       /* 7 blank: fine */
                           "{\"ts\":6,\"pid\":1,\"event\":\"phase_begin\",\"phase\":\"a\",\"future\":[1]}\n" /* 8 ok */
                           "{\"ts\":7,\"pid\":1,\"event\":\"phase_begin\",\"phase\":\"b\"}\n" /* 9 ok */
                           "{\"ts\":8,\"pid\":1,\"event\":\"phase_end\",\"phase\":\"a\"}\n"   /* 10 closes b too */
                           "{\"ts\":9,\"pid\":1,\"event\":\"phase_begin\"}\n"                 /* 11 no name */
                           "{\"ts\":-3,\"pid\":1,\"event\":\"phase_begin\",\"phase\":\"c\"}\n"   /* 12 */
                           "{\"ts\":1e300,\"pid\":1,\"event\":\"mark\"}\n"                      /* 13 */
                           "{\"ts\":9,\"pid\":1,\"event\":\"mark\",\"name\":\"m\"}",          /* 14 cut, valid: kept */
                           &d);
    finish(h, S(100));
    const char *want[] = {"bad_json", "not_object", "missing_field", "unmatched_phase_end",
                          "unknown_event", "phase_end_out_of_order", "missing_field",
                          "bad_timestamp", "bad_timestamp"};
    const uint64_t want_lines[] = {2, 3, 4, 5, 6, 10, 11, 12, 13};
    assert_int_equal(d.count, 9);
    assert_int_equal(nr_hook_mark_count(h), 1);
    for (int i = 0; i < 9; i++) {
        assert_string_equal(d.reasons[i], want[i]);
        assert_int_equal(d.lines[i], want_lines[i]);
    }
    assert_int_equal(nr_hook_phase_count(h), 2);
    const nr_hook_phase a_phase = phase_get(h, 0), b_phase = phase_get(h, 1);
    const nr_hook_phase *a = &a_phase, *b = &b_phase;
    assert_string_equal(a->name, "a");
    assert_string_equal(b->name, "b");
    assert_int_equal(a->end_ns, S(8));
    assert_int_equal(b->end_ns, S(8));
    assert_false(b->never_ended);
    nr_hook_free(h);
}

static void io_records(void **state)
{
    nr_hook *h = load_text(
        "{\"ts\":1.5,\"pid\":3,\"tid\":4,\"event\":\"io\",\"op\":\"torch.save\",\"path\":\"ckpt/e1.pt\","
        "\"bytes\":1048576,\"dur\":0.0123}\n"
        "{\"ts\":2.25,\"pid\":3,\"event\":\"io\",\"op\":\"open\",\"path\":\"a\",\"bytes\":-1}\n"
        "{\"ts\":3,\"pid\":3,\"event\":\"io\",\"op\":\"read\"}\n",
        NULL);
    finish(h, S(10));
    assert_int_equal(nr_hook_io_count(h), 3);
    const nr_hook_io *x = io_at(h, 0);
    assert_int_equal(x->ts_ns, 1500000000);
    assert_int_equal(x->pid, 3);
    assert_int_equal(x->tid, 4);
    assert_string_equal(x->op, "torch.save");
    assert_string_equal(x->path, "ckpt/e1.pt");
    assert_int_equal(x->bytes, 1048576);
    assert_int_equal(x->dur_ns, 12300000);
    const nr_hook_io *y = io_at(h, 1), *z = io_at(h, 2);
    assert_int_equal(y->tid, 3);
    assert_int_equal(y->bytes, -1);
    assert_int_equal(y->dur_ns, -1);
    assert_string_equal(z->path, "");
    nr_hook_free(h);
}

/* 30,000 records of each kind, interleaved: each kind is more than its
 * queue's block (1 MiB: 18,724 io, 26,214 marks, 21,845 waits), so most
 * come back from the temporary file, each in the order and with the
 * values read, on every read. */
static void records_past_a_block_come_back_in_order(void **state)
{
    (void)state;
    enum { N = 30000 };
    char *text = malloc((size_t)N * 3 * 160), *at = text;
    assert_non_null(text);
    for (int i = 0; i < N; i++) {
        at += sprintf(at, "{\"ts\":%d.25,\"pid\":%d,\"event\":\"io\",\"op\":\"read\",\"path\":\"/d/%03d\","
                      "\"bytes\":%d,\"dur\":0.5}\n", i + 1, 10 + i % 3, i % 100, i);
        at += sprintf(at, "{\"ts\":%d.5,\"pid\":7,\"tid\":%d,\"event\":\"mark\",\"name\":\"m%d\","
                      "\"attrs\":{\"n\":%d}}\n", i + 1, 8 + i % 5, i % 7, i % 11);
        at += sprintf(at, "{\"ts\":%d.75,\"pid\":7,\"event\":\"wait\",\"what\":\"batch\",\"dur\":%d,"
                      "\"first\":%s}\n", i + 1, i % 13, i % 2 ? "true" : "false");
    }
    diag_log d = {0};
    nr_hook *h = load_text(text, &d);
    free(text);
    assert_int_equal(d.count, 0);
    finish(h, S(N + 1));
    assert_int_equal(nr_hook_io_count(h), N);
    assert_int_equal(nr_hook_mark_count(h), N);
    assert_int_equal(nr_hook_wait_count(h), N);
    for (int pass = 0; pass < 2; pass++) {
        nr_error err;
        assert_int_equal(nr_hook_rewind_records(h, &err), 0);
        const nr_hook_io *io;
        const nr_hook_mark *mark;
        const nr_hook_wait *wait;
        char want[32];
        for (int i = 0; i < N; i++) {
            assert_int_equal(nr_hook_next_io(h, &io, &err), 1);
            assert_int_equal(io->ts_ns, (int64_t)(i + 1) * 1000000000 + 250000000);
            assert_int_equal(io->pid, 10 + i % 3);
            assert_int_equal(io->bytes, i);
            assert_int_equal(io->dur_ns, 500000000);
            snprintf(want, sizeof want, "/d/%03d", i % 100);
            assert_string_equal(io->path, want);
            assert_string_equal(io->op, "read");
        }
        assert_int_equal(nr_hook_next_io(h, &io, &err), 0);
        for (int i = 0; i < N; i++) {
            assert_int_equal(nr_hook_next_mark(h, &mark, &err), 1);
            assert_int_equal(mark->ts_ns, (int64_t)(i + 1) * 1000000000 + 500000000);
            assert_int_equal(mark->tid, 8 + i % 5);
            snprintf(want, sizeof want, "m%d", i % 7);
            assert_string_equal(mark->name, want);
            snprintf(want, sizeof want, "{\"n\":%d}", i % 11);
            assert_string_equal(mark->attrs, want);
        }
        assert_int_equal(nr_hook_next_mark(h, &mark, &err), 0);
        for (int i = 0; i < N; i++) {
            assert_int_equal(nr_hook_next_wait(h, &wait, &err), 1);
            assert_int_equal(wait->ts_ns, (int64_t)(i + 1) * 1000000000 + 750000000);
            assert_int_equal(wait->dur_ns, (int64_t)(i % 13) * 1000000000);
            assert_int_equal(wait->first, i % 2);
            assert_string_equal(wait->what, "batch");
        }
        assert_int_equal(nr_hook_next_wait(h, &wait, &err), 0);
    }
    nr_hook_free(h);
}

/* A path that is not UTF-8, as the hook writes it (Python's surrogateescape:
 * byte 0xFF as \udcff, also \uDC80), is read back to its bytes; a line
 * that already holds a \uf7 escape is not rewritten (bad_json, counted),
 * nor is an escaped backslash's "\\udcff" text; a path line after one with
 * surrogates is read as it is. Until session 46 the first two lines were
 * bad_json (review 46). */
static void non_utf8_paths(void **state)
{
    diag_log d = {0};
    nr_hook *h = load_text(
        "{\"ts\":1,\"pid\":3,\"event\":\"io\",\"op\":\"read\",\"path\":\"/d/bad\\udcff.bin\",\"bytes\":10}\n"
        "{\"ts\":2,\"pid\":3,\"event\":\"io\",\"op\":\"read\",\"path\":\"/d/\\uDC80x\\u00e9\",\"bytes\":1}\n"
        "{\"ts\":3,\"pid\":3,\"event\":\"io\",\"op\":\"read\",\"path\":\"/d/\\uf7ff\\udcff\",\"bytes\":1}\n"
        "{\"ts\":4,\"pid\":3,\"event\":\"io\",\"op\":\"read\",\"path\":\"/d/\\\\udcff\",\"bytes\":1}\n"
        "{\"ts\":5,\"pid\":3,\"event\":\"io\",\"op\":\"read\",\"path\":\"/d/\\uf7ff\",\"bytes\":1}\n",
        &d);
    finish(h, S(10));
    assert_int_equal(d.count, 1);
    assert_string_equal(d.reasons[0], "bad_json");
    assert_int_equal(d.lines[0], 3);
    assert_int_equal(nr_hook_io_count(h), 4);
    assert_string_equal(io_at(h, 0)->path, "/d/bad\xff.bin");
    assert_string_equal(io_at(h, 1)->path, "/d/\x80x\xc3\xa9");
    assert_string_equal(io_at(h, 2)->path, "/d/\\udcff");
    assert_string_equal(io_at(h, 3)->path, "/d/\xef\x9f\xbf"); /* a real U+F7FF stays */
    nr_hook_free(h);
}

/* Marks are kept with their attrs as compact JSON with sorted keys; one
 * without a name is a missing field, attrs that are no object are counted
 * and dropped. */
static void mark_records(void **state)
{
    (void)state;
    diag_log d = {0};
    nr_hook *h = load_text(
        "{\"ts\":1.5,\"pid\":3,\"tid\":4,\"event\":\"mark\",\"name\":\"epoch\",\"attrs\":{\"n\":1,\"loss\":0.5}}\n"
        "{\"ts\":2,\"pid\":3,\"event\":\"mark\",\"name\":\"step\"}\n"
        "{\"ts\":3,\"pid\":3,\"event\":\"mark\"}\n"                                   /* 3 missing_field */
        "{\"ts\":4,\"pid\":3,\"event\":\"mark\",\"name\":\"x\",\"attrs\":[1]}\n", /* 4 bad_mark_field */
        &d);
    finish(h, S(10));
    assert_int_equal(nr_hook_mark_count(h), 3);
    const nr_hook_mark *a = mark_at(h, 0), *b = mark_at(h, 1), *c = mark_at(h, 2);
    assert_int_equal(a->ts_ns, 1500000000);
    assert_int_equal(a->pid, 3);
    assert_int_equal(a->tid, 4);
    assert_string_equal(a->name, "epoch");
    assert_string_equal(a->attrs, "{\"loss\":0.5,\"n\":1}");
    assert_int_equal(b->tid, 3);
    assert_string_equal(b->attrs, "");
    assert_string_equal(c->name, "x");
    assert_string_equal(c->attrs, "");
    assert_int_equal(d.count, 2);
    assert_string_equal(d.reasons[0], "missing_field");
    assert_int_equal(d.lines[0], 3);
    assert_string_equal(d.reasons[1], "bad_mark_field");
    assert_int_equal(d.lines[1], 4);
    nr_hook_free(h);
}

/* Waits are kept with their durations; one without "what" is a missing
 * field, one whose "dur" is missing, no number or negative a
 * bad_wait_field, and both are skipped; a blank "what" is unnamed. */
static void wait_records(void **state)
{
    (void)state;
    diag_log d = {0};
    nr_hook *h = load_text(
        "{\"ts\":1.5,\"pid\":3,\"tid\":4,\"event\":\"wait\",\"what\":\"batch\",\"dur\":0.0125}\n"
        "{\"ts\":2,\"pid\":3,\"event\":\"wait\",\"dur\":1}\n"                          /* 2 missing_field */
        "{\"ts\":3,\"pid\":3,\"event\":\"wait\",\"what\":\"batch\"}\n"               /* 3 bad_wait_field */
        "{\"ts\":4,\"pid\":3,\"event\":\"wait\",\"what\":\"batch\",\"dur\":\"1\"}\n"  /* 4 bad_wait_field */
        "{\"ts\":5,\"pid\":3,\"event\":\"wait\",\"what\":\"batch\",\"dur\":-1}\n"    /* 5 bad_wait_field */
        "{\"ts\":6,\"pid\":3,\"event\":\"wait\",\"what\":\" \",\"dur\":2}\n"          /* 6 empty_name */
        "{\"ts\":7,\"pid\":3,\"event\":\"wait\",\"what\":\"b\",\"dur\":1,\"first\":1}\n" /* 7 bad_wait_field */
        "{\"ts\":8,\"pid\":3,\"event\":\"wait\",\"what\":\"b\",\"dur\":1,\"first\":true}\n"
        "{\"ts\":9,\"pid\":3,\"event\":\"wait\",\"what\":\"b\",\"dur\":1,\"first\":false}\n",
        &d);
    finish(h, S(10));
    assert_int_equal(nr_hook_wait_count(h), 4);
    const nr_hook_wait *a = wait_at(h, 0), *b = wait_at(h, 1);
    assert_int_equal(a->first, 0); /* no "first": an item after the first, as a hook before session 63 wrote */
    assert_int_equal(wait_at(h, 2)->first, 1);
    assert_int_equal(wait_at(h, 3)->first, 0);
    assert_int_equal(a->ts_ns, 1500000000);
    assert_int_equal(a->pid, 3);
    assert_int_equal(a->tid, 4);
    assert_string_equal(a->what, "batch");
    assert_int_equal(a->dur_ns, 12500000);
    assert_int_equal(b->tid, 3);
    assert_string_equal(b->what, NR_UNNAMED);
    assert_int_equal(b->dur_ns, 2000000000);
    const char *reasons[] = {"missing_field", "bad_wait_field", "bad_wait_field", "bad_wait_field", "empty_name",
                             "bad_wait_field"};
    assert_int_equal(d.count, 6);
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(d.reasons[i], reasons[i]);
        assert_int_equal(d.lines[i], i + 2);
    }
    nr_hook_free(h);
}

/* A blank phase or mark name ("", white space, controls, a zero-width
 * space) is counted (empty_name) and stored as NR_UNNAMED: its phase
 * keeps its time and pairs as written, blank names being one name; an end
 * of a blank name with none open is unmatched and leaves train open. */
static void blank_names_are_unnamed(void **state)
{
    (void)state;
    diag_log d = {0};
    nr_hook *h = load_text("{\"ts\":1,\"pid\":6,\"event\":\"phase_begin\",\"phase\":\"train\"}\n"
                           "{\"ts\":2,\"pid\":6,\"event\":\"phase_begin\",\"phase\":\"\"}\n"          /* 2 */
                           "{\"ts\":3,\"pid\":6,\"event\":\"phase_begin\",\"phase\":\" \\t\"}\n"      /* 3 */
                           "{\"ts\":4,\"pid\":6,\"event\":\"phase_end\",\"phase\":\"\\u200b\"}\n"     /* 4 */
                           "{\"ts\":5,\"pid\":6,\"event\":\"phase_end\",\"phase\":\"\"}\n"            /* 5 */
                           "{\"ts\":6,\"pid\":6,\"event\":\"phase_end\",\"phase\":\"\\u0001\"}\n"     /* 6, unmatched */
                           "{\"ts\":7,\"pid\":6,\"event\":\"phase_begin\",\"phase\":\"\\n\"}\n"       /* 7 */
                           "{\"ts\":8,\"pid\":6,\"event\":\"phase_end\"}\n"
                           "{\"ts\":9,\"pid\":6,\"event\":\"phase_end\",\"phase\":\"train\"}\n"
                           "{\"ts\":9.5,\"pid\":6,\"event\":\"mark\",\"name\":\"\"}\n"                /* 10 */
                           "{\"ts\":9.6,\"pid\":6,\"event\":\"mark\",\"name\":\" x \"}\n",
                           &d);
    finish(h, S(20));
    assert_int_equal(nr_hook_phase_count(h), 4);
    static const struct { const char *name; double begin, end; int never_ended; } want[] = {
        {"train", 1, 9, 0}, {NR_UNNAMED, 2, 5, 0}, {NR_UNNAMED, 3, 4, 0}, {NR_UNNAMED, 7, 8, 0},
    };
    for (size_t i = 0; i < 4; i++) {
        const nr_hook_phase phase = phase_get(h, i), *p = &phase;
        assert_string_equal(p->name, want[i].name);
        assert_int_equal(p->begin_ns, S(want[i].begin));
        assert_int_equal(p->end_ns, S(want[i].end));
        assert_int_equal(p->never_ended, want[i].never_ended);
    }
    const phase_query q[] = {
        {6, 6, 2.5, 1, "the first unnamed phase"}, {6, 6, 3.5, 2, "the unnamed phase inside it"},
        {6, 6, 4.5, 1, "the first again"},         {6, 6, 6.5, 0, "train, left open by the unmatched end"},
        {6, 6, 7.5, 3, "the third"},               {6, 6, 8.5, 0, "train"},
    };
    check_phase_at(h, q, sizeof q / sizeof q[0]);
    assert_int_equal(nr_hook_mark_count(h), 2);
    assert_string_equal(mark_at(h, 0)->name, NR_UNNAMED);
    assert_string_equal(mark_at(h, 1)->name, " x ");
    static const struct { const char *reason; uint64_t line; } reports[] = {
        {"empty_name", 2}, {"empty_name", 3}, {"empty_name", 4}, {"empty_name", 5},
        {"empty_name", 6}, {"unmatched_phase_end", 6}, {"empty_name", 7}, {"empty_name", 10},
    };
    assert_int_equal(d.count, sizeof reports / sizeof reports[0]);
    for (size_t i = 0; i < sizeof reports / sizeof reports[0]; i++) {
        assert_string_equal(d.reasons[i], reports[i].reason);
        assert_int_equal(d.lines[i], reports[i].line);
    }
    nr_hook_free(h);
}

/* 2000 phases in one thread: epochs [10k, 10k+8) each holding a step
 * [10k+2, 10k+3); lookups in order and at random agree with a scan. */
static void lookup_matches_brute_force(void **state)
{
    size_t cap = 2000 * 4 * 100, used = 0;
    char *text = malloc(cap);
    for (int k = 0; k < 1000; k++) {
        used += (size_t)snprintf(text + used, cap - used,
                                 "{\"ts\":%d,\"pid\":5,\"event\":\"phase_begin\",\"phase\":\"epoch\"}\n"
                                 "{\"ts\":%d,\"pid\":5,\"event\":\"phase_begin\",\"phase\":\"step\"}\n"
                                 "{\"ts\":%d,\"pid\":5,\"event\":\"phase_end\",\"phase\":\"step\"}\n"
                                 "{\"ts\":%d,\"pid\":5,\"event\":\"phase_end\",\"phase\":\"epoch\"}\n",
                                 10 * k, 10 * k + 2, 10 * k + 3, 10 * k + 8);
    }
    nr_hook *h = load_text(text, NULL);
    free(text);
    finish(h, S(20000));
    assert_int_equal(nr_hook_phase_count(h), 2000);
    unsigned seed = 7;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < 25000; i++) {
            double t = pass == 0 ? i * 0.4 : (double)(rand_r(&seed) % 100000) / 10.0;
            int sec = (int)t, k = sec / 10, r = sec % 10;
            int64_t want = (t >= 10000) ? -1 : (r >= 8) ? -1 : (r == 2) ? 2 * k + 1 : 2 * k;
            int64_t got = nr_hook_phase_at(h, 5, 5, S(t));
            if (got != want)
                fail_msg("t=%.1f: got %lld want %lld", t, (long long)got, (long long)want);
        }
    }
    nr_hook_free(h);
}

/* A child's begin that the thread's clock put before its parent's is
 * its parent's begin: a parent is numbered before its children. */
static void a_child_begins_no_earlier_than_its_parent(void **state)
{
    (void)state;
    nr_hook *h = load_text("{\"ts\":100,\"pid\":3,\"event\":\"phase_begin\",\"phase\":\"epoch\"}\n"
                           "{\"ts\":99,\"pid\":3,\"event\":\"phase_begin\",\"phase\":\"step\"}\n"
                           "{\"ts\":101,\"pid\":3,\"event\":\"phase_end\",\"phase\":\"step\"}\n"
                           "{\"ts\":102,\"pid\":3,\"event\":\"phase_end\",\"phase\":\"epoch\"}\n",
                           NULL);
    finish(h, S(200));
    const nr_hook_phase epoch = phase_get(h, 0), step = phase_get(h, 1);
    assert_string_equal(epoch.name, "epoch");
    assert_int_equal(epoch.parent_id, -1);
    assert_string_equal(step.name, "step");
    assert_int_equal(step.begin_ns, S(100));
    assert_int_equal(step.end_ns, S(101));
    assert_int_equal(step.parent_id, 0);
    assert_int_equal(step.depth, 1);
    assert_int_equal(nr_hook_phase_at(h, 3, 3, S(100.5)), 1);
    assert_int_equal(nr_hook_phase_at(h, 3, 3, S(101.5)), 0);
    assert_int_equal(nr_hook_phase_at(h, 3, 3, S(99.5)), -1);
    nr_hook_free(h);
}

/* A clock that went back between two top-level phases puts the second
 * one's begin before the first one's child's: both parents wait for
 * their children at once, and each child gets its own parent's id. */
static void parents_that_wait_side_by_side(void **state)
{
    (void)state;
    nr_hook *h = load_text("{\"ts\":10,\"pid\":3,\"event\":\"phase_begin\",\"phase\":\"A\"}\n"
                           "{\"ts\":30,\"pid\":3,\"event\":\"phase_begin\",\"phase\":\"a\"}\n"
                           "{\"ts\":35,\"pid\":3,\"event\":\"phase_end\",\"phase\":\"a\"}\n"
                           "{\"ts\":36,\"pid\":3,\"event\":\"phase_end\",\"phase\":\"A\"}\n"
                           "{\"ts\":20,\"pid\":3,\"event\":\"phase_begin\",\"phase\":\"B\"}\n"
                           "{\"ts\":40,\"pid\":3,\"event\":\"phase_begin\",\"phase\":\"b\"}\n"
                           "{\"ts\":45,\"pid\":3,\"event\":\"phase_end\",\"phase\":\"b\"}\n"
                           "{\"ts\":46,\"pid\":3,\"event\":\"phase_end\",\"phase\":\"B\"}\n",
                           NULL);
    finish(h, S(100));
    const char *names[] = {"A", "B", "a", "b"};
    const int64_t parents[] = {-1, -1, 0, 1};
    for (size_t i = 0; i < 4; i++) {
        const nr_hook_phase p = phase_get(h, i);
        assert_string_equal(p.name, names[i]);
        assert_int_equal(p.parent_id, parents[i]);
    }
    nr_hook_free(h);
}

/* Two threads of 20,000 epochs, each epoch with two steps: 120,000
 * phases, more than the sorter holds in memory (ext_sort.h) and more
 * runs than a page (run_pages.h). Thread 4 is written first, half a
 * second later: ids interleave the threads. Epoch k of thread 3 is
 * [10k, 10k+8) with steps [10k+1, 10k+2) and [10k+4, 10k+5). */
static void many_phases_are_numbered_past_memory(void **state)
{
    (void)state;
    enum { EPOCHS = 20000 };
    const size_t cap = (size_t)EPOCHS * 12 * 80;
    char *text = malloc(cap);
    size_t used = 0;
    for (int k = 0; k < EPOCHS; k++)
        for (int tid = 4; tid >= 3; tid--) {
            const double t = 10.0 * k + (tid == 4 ? 0.5 : 0);
            used += (size_t)snprintf(
                text + used, cap - used,
                "{\"ts\":%.1f,\"pid\":3,\"tid\":%d,\"event\":\"phase_begin\",\"phase\":\"epoch\"}\n"
                "{\"ts\":%.1f,\"pid\":3,\"tid\":%d,\"event\":\"phase_begin\",\"phase\":\"step\"}\n"
                "{\"ts\":%.1f,\"pid\":3,\"tid\":%d,\"event\":\"phase_end\",\"phase\":\"step\"}\n"
                "{\"ts\":%.1f,\"pid\":3,\"tid\":%d,\"event\":\"phase_begin\",\"phase\":\"step\"}\n"
                "{\"ts\":%.1f,\"pid\":3,\"tid\":%d,\"event\":\"phase_end\",\"phase\":\"step\"}\n"
                "{\"ts\":%.1f,\"pid\":3,\"tid\":%d,\"event\":\"phase_end\",\"phase\":\"epoch\"}\n",
                t, tid, t + 1, tid, t + 2, tid, t + 4, tid, t + 5, tid, t + 8, tid);
        }
    nr_hook *h = load_text(text, NULL);
    free(text);
    finish(h, S(10.0 * EPOCHS));
    assert_int_equal(nr_hook_phase_count(h), 6 * EPOCHS);
    nr_error err;
    assert_int_equal(nr_hook_rewind_phases(h, &err), 0);
    /* id 6k + 2j + (tid 4): j = 0 the epoch, 1 and 2 its steps */
    const double offset[] = {0, 1, 4}, length[] = {8, 1, 1};
    for (int64_t id = 0; id < 6 * EPOCHS; id++) {
        nr_hook_phase p;
        assert_int_equal(nr_hook_next_phase(h, &p, &err), 1);
        const int64_t k = id / 6, j = id % 6 / 2, tid = 3 + id % 2;
        const double begin = 10.0 * (double)k + (tid == 4 ? 0.5 : 0) + offset[j];
        if (p.phase_id != id || p.tid != tid || p.begin_ns != S(begin) || p.end_ns != S(begin + length[j]) ||
            strcmp(p.name, j ? "step" : "epoch") != 0 || p.depth != (j ? 1 : 0) ||
            p.parent_id != (j ? 6 * k + id % 2 : -1))
            fail_msg("phase %lld: got %s of tid %lld [%lld, %lld) parent %lld", (long long)id, p.name,
                     (long long)p.tid, (long long)p.begin_ns, (long long)p.end_ns, (long long)p.parent_id);
    }
    nr_hook_phase p;
    assert_int_equal(nr_hook_next_phase(h, &p, &err), 0);
    /* lookups in order, then at random: each second of an epoch of tid 3;
       past its epoch, the process's phase (tid 4's epoch, to 10k+8.5) */
    unsigned seed = 11;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 40000; i++) {
            const int64_t sec = pass == 0 ? i * 5 + i % 5 : rand_r(&seed) % (10 * EPOCHS);
            const int64_t k = sec / 10, r = sec % 10;
            const int64_t want = r == 9 ? -1 : r == 8 ? 6 * k + 1 : r == 1 ? 6 * k + 2 : r == 4 ? 6 * k + 4 : 6 * k;
            const int64_t got = nr_hook_phase_at(h, 3, 3, S(sec) + 1);
            if (got != want)
                fail_msg("tid 3 at %lld s: got %lld, want %lld", (long long)sec, (long long)got, (long long)want);
        }
    assert_int_equal(nr_hook_phase_at(h, 3, 4, S(10.0 * 777 + 4.7)), 6 * 777 + 5);
    assert_int_equal(nr_hook_phase_at(h, 3, 4, S(10.0 * 5 + 0.2)), 6 * 5); /* the main thread's */
    assert_int_equal(nr_hook_phase_at(h, 3, 4, S(10.0 * 5 + 8.7)), -1);
    nr_hook_free(h);
}

static void missing_file_is_io_error(void **state)
{
    nr_hook *h = NULL;
    nr_error err;
    nr_error_clear(&err);
    assert_int_equal(nr_hook_load("/nonexistent/hook.jsonl", NULL, NULL, &h, &err), NR_E_IO);
    assert_null(h);
    assert_non_null(strstr(err.msg, "/nonexistent/hook.jsonl"));
    nr_hook_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nested_phases_innermost_wins),
        cmocka_unit_test(threads_and_processes),
        cmocka_unit_test(never_ended_phase_is_closed_and_flagged),
        cmocka_unit_test(phase_ended_by_an_exception_is_flagged),
        cmocka_unit_test(broken_lines_are_counted_with_line_numbers),
        cmocka_unit_test(wrong_typed_fields_have_their_own_reasons),
        cmocka_unit_test(io_records),
        cmocka_unit_test(records_past_a_block_come_back_in_order),
        cmocka_unit_test(non_utf8_paths),
        cmocka_unit_test(mark_records),
        cmocka_unit_test(wait_records),
        cmocka_unit_test(blank_names_are_unnamed),
        cmocka_unit_test(lookup_matches_brute_force),
        cmocka_unit_test(a_child_begins_no_earlier_than_its_parent),
        cmocka_unit_test(parents_that_wait_side_by_side),
        cmocka_unit_test(many_phases_are_numbered_past_memory),
        cmocka_unit_test(missing_file_is_io_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
