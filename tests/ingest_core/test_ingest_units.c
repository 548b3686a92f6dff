/* Unit tests of the ingest's small parts: the syscall table, the
 * diagnostics collector, runfind's name and content rules, and the process
 * model's prefetch hint. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "diag.h"
#include "nr_schema.h"
#include "procmodel.h"
#include "runfind.h"
#include "strace_line.h"
#include "syscalls.h"

static void syscall_table_lookup(void **state)
{
    const nr_syscall_info *e = nr_syscall_lookup("pread64", 7);
    assert_non_null(e);
    assert_int_equal(e->op, NR_OP_READ);
    assert_int_equal(e->handler, NR_H_PREAD);
    assert_int_equal(e->fd_arg, 0);
    e = nr_syscall_lookup("openat", 6);
    assert_int_equal(e->handler, NR_H_OPEN);
    assert_int_equal(e->dirfd_arg, 0);
    assert_int_equal(e->path_arg, 1);
    assert_int_equal(e->flags_arg, 2);
    assert_int_equal(nr_syscall_lookup("fsync", 5)->op, NR_OP_SYNC);
    assert_int_equal(nr_syscall_lookup("close", 5)->counter, NR_CNT_CLOSE);
    assert_null(nr_syscall_lookup("no_such_call", 12));
    assert_null(nr_syscall_lookup("rea", 3));      /* a prefix is not a match */
    assert_null(nr_syscall_lookup("readx", 5));
    /* every entry is found by its own name, and names are unique */
    for (size_t i = 0; i < nr_syscall_count(); i++) {
        const nr_syscall_info *x = nr_syscall_at(i);
        assert_ptr_equal(nr_syscall_lookup(x->name, strlen(x->name)), x);
    }
}

static void diag_counts_and_examples(void **state)
{
    nr_diag *d = nr_diag_create();
    for (int i = 1; i <= 5; i++)
        assert_int_equal(nr_diag_add(d, "unknown_line", "strace.log", (uint64_t)i, "garbage", 7), 0);
    assert_int_equal(nr_diag_add(d, "notice", "strace.log", 9, "strace: Process 1 attached", 26), 0);
    assert_int_equal(nr_diag_add_n(d, "bulk", 10, NULL, 0, NULL, 0), 0);
    assert_int_equal(nr_diag_count(d, "unknown_line"), 5);
    assert_int_equal(nr_diag_count(d, "notice"), 1);
    assert_int_equal(nr_diag_count(d, "bulk"), 10);
    assert_int_equal(nr_diag_count(d, "other"), 0);
    assert_int_equal(nr_diag_reasons(d), 3);
    nr_diag_destroy(d);
    nr_diag_destroy(NULL);
}

static void runfind_names(void **state)
{
    assert_int_equal(nr_runfind_pid_suffix("strace.log.1234"), 1234);
    assert_int_equal(nr_runfind_pid_suffix("trace.77.zst"), 77);
    assert_int_equal(nr_runfind_pid_suffix("trace.77.gz"), 77);
    assert_int_equal(nr_runfind_pid_suffix("strace.log"), -1);
    assert_int_equal(nr_runfind_pid_suffix("1234"), -1);
    assert_int_equal(nr_runfind_pid_suffix("trace.12a"), -1);
    assert_int_equal(nr_runfind_pid_suffix("trace."), -1);
}

static void runfind_sniff(void **state)
{
    nr_sniff s;
    static const char log[] =
        "123 openat(AT_FDCWD, \"/x\", O_RDONLY) = 3\n"
        "123 read(3, \"a\", 1) = 1\n"
        "some program output\n"
        "123 +++ exited with 0 +++\n";
    assert_int_equal(nr_runfind_sniff_buf(log, sizeof log - 1, &s), 1);
    assert_int_equal(s.lines, 4);
    assert_int_equal(s.strace, 3);
    static const char text[] = "hello\nworld\nread me\n";
    assert_int_equal(nr_runfind_sniff_buf(text, sizeof text - 1, &s), 0);
    static const char bin[] = "\x7f" "ELF\x02\x01\x01\0\0\0";
    assert_int_equal(nr_runfind_sniff_buf(bin, sizeof bin - 1, &s), 0);
    assert_int_equal(s.binary, 1);
    assert_int_equal(nr_runfind_sniff_buf("", 0, &s), 0);
}

static int count_event(void *ctx, const nr_pm_event *ev, nr_error *err)
{
    (void)ev, (void)err;
    ++*(int *)ctx;
    return 0;
}

/* Feeds text (copied into buf, so that lines share an address the way a
 * reused chunk buffer makes them) with a hint first when hint is set. */
static void feed_at(nr_pm *pm, char *buf, const char *text, int hint)
{
    nr_sline sl;
    nr_error err;
    strcpy(buf, text);
    nr_sline_parse(buf, strlen(buf), &sl);
    if (hint)
        nr_pm_prefetch(pm, &sl);
    assert_int_equal(nr_pm_feed(pm, &sl, -1, -1, NULL, &err), 0);
}

/* A hint holds only for the line it was given for when that line is fed
 * next: a later line at the same address with another path (a reused
 * buffer) gets its own file, whether the hint was used or went stale. */
static void procmodel_prefetch_hint(void **state)
{
    int events = 0;
    nr_pm_config cfg = {.start_cwd = "/w", .emit = count_event, .emit_ctx = &events};
    nr_pm *pm;
    nr_error err;
    assert_int_equal(nr_pm_create(&cfg, &pm, &err), 0);
    char buf[128], other[128];
    feed_at(pm, buf, "7 openat(AT_FDCWD, \"/d/a1\", O_RDONLY) = 3</d/a1>", 1); /* hinted, fed next */
    nr_sline sl;
    nr_sline_parse(buf, strlen(buf), &sl);
    nr_pm_prefetch(pm, &sl);                                           /* hinted, not fed next */
    feed_at(pm, other, "7 close(3</d/a1>) = 0", 0);
    feed_at(pm, buf, "7 openat(AT_FDCWD, \"/d/a2\", O_RDONLY) = 3</d/a2>", 0); /* same address */
    feed_at(pm, buf, "7 openat(AT_FDCWD, \"/d/a3\", O_RDONLY) = 4</d/a3>", 0); /* after a used hint */
    feed_at(pm, buf, "7 read(4</d/a3>, \"x\", 1) = 1", 1);                        /* a hint without -y result */
    /* found again from elsewhere: a2 was interned under its own hash */
    feed_at(pm, other, "7 openat(AT_FDCWD, \"/d/a2\", O_RDONLY) = 5</d/a2>", 0);
    assert_int_equal(nr_pm_finish(pm, &err), 0);
    assert_int_equal(events, 6);
    assert_int_equal(nr_pm_file_count(pm), 3);
    static const char *const want[] = {"/d/a1", "/d/a2", "/d/a3"};
    for (size_t i = 0; i < 3; i++) {
        const char *path;
        size_t len;
        const nr_pm_file *f = nr_pm_file_get(pm, i, &path, &len);
        assert_string_equal(path, want[i]);
        assert_int_equal(f->open_calls, i == 1 ? 2 : 1);
    }
    nr_pm_destroy(pm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(syscall_table_lookup),
        cmocka_unit_test(diag_counts_and_examples),
        cmocka_unit_test(runfind_names),
        cmocka_unit_test(runfind_sniff),
        cmocka_unit_test(procmodel_prefetch_hint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
