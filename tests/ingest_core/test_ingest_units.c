/* Unit tests of the ingest's small parts: the syscall table, the
 * diagnostics collector, runfind's name and content rules, the line-end
 * rule. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "diag.h"
#include "logsrc.h"
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
    /* lines that end in a CR alone are cut there (a classic Mac OS log);
       a CR at the very end, or beside an LF, ends no line */
    static const char cr[] = "123 openat(AT_FDCWD, \"/x\", O_RDONLY) = 3\r123 read(3, \"a\", 1) = 1\r"
                             "123 +++ exited with 0 +++\r";
    assert_int_equal(nr_runfind_sniff_buf(cr, sizeof cr - 1, &s), 1);
    assert_int_equal(s.cr_only, 1);
    assert_int_equal(s.lines, 3);
    assert_int_equal(s.strace, 3);
    assert_int_equal(nr_runfind_sniff_buf(log, sizeof log - 1, &s), 1);
    assert_int_equal(s.cr_only, 0);
    static const char one[] = "123 read(3, \"a\", 1) = 1\r";
    assert_int_equal(nr_runfind_sniff_buf(one, sizeof one - 1, &s), 1);
    assert_int_equal(s.cr_only, 0);
    static const char bar[] = " 10%|#  |\r 20%|## |\rhello\n";
    assert_int_equal(nr_runfind_sniff_buf(bar, sizeof bar - 1, &s), 0);
    assert_int_equal(s.cr_only, 0);
}

static int cr_only_fed(const char *text, size_t n, size_t piece)
{
    nr_line_ends le = {0};
    for (size_t at = 0; at < n; at += piece)
        nr_line_ends_feed(&le, text + at, n - at < piece ? n - at : piece);
    return nr_line_ends_cr_only(&le);
}

/* The line-end rule judges the first NR_LOGSRC_LINE_END_WINDOW bytes the
 * same whether fed at once (the sniff) or in pieces (the reader's fills),
 * and nothing after them; in session 55 the sniff judged 8 KiB at once and
 * the reader its first fills (4 KiB or more), and a log whose first LF came
 * between the two was a log to one and refused by the other. */
static void line_end_rule(void **state)
{
    (void)state;
    enum { W = NR_LOGSRC_LINE_END_WINDOW };
    static char text[3 * W];
    static const char line[] = "100 read(3, \"a\", 1) = 1\r";
    size_t n = 0;
    while (n + sizeof line < sizeof text)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s", line);
    static const size_t pieces[] = {1, 7, 4096, 3 * W};
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
        const size_t k = pieces[i];
        const char before = text[W - 10], last = text[W - 1], after = text[W + 10];
        assert_int_equal(cr_only_fed(text, n, k), 1);
        assert_int_equal(cr_only_fed(text, 2 * sizeof line - 2, k), 1); /* a CR before another byte */
        assert_int_equal(cr_only_fed(text, sizeof line - 1, k), 0);     /* a CR at the end only */
        text[W + 10] = '\n';                                             /* past the window: not looked at */
        assert_int_equal(cr_only_fed(text, n, k), 1);
        text[W - 10] = '\n'; /* inside it: LF line ends, the CRs inside lines */
        assert_int_equal(cr_only_fed(text, n, k), 0);
        text[W - 10] = before;
        text[W + 10] = after;
        text[W - 1] = '\0'; /* a NUL: binary, not such a log */
        assert_int_equal(cr_only_fed(text, n, k), 0);
        text[W - 1] = last;
    }
    /* control bytes: up to a tenth is text, more is not */
    char ctl[100];
    memset(ctl, 'a', sizeof ctl);
    ctl[0] = '\r';
    memset(ctl + 1, '\x01', 10);
    assert_int_equal(cr_only_fed(ctl, sizeof ctl, 3), 1);
    ctl[11] = '\x02';
    assert_int_equal(cr_only_fed(ctl, sizeof ctl, 3), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(syscall_table_lookup),
        cmocka_unit_test(diag_counts_and_examples),
        cmocka_unit_test(runfind_names),
        cmocka_unit_test(runfind_sniff),
        cmocka_unit_test(line_end_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
