/* Known-answer tests of the strace line lexer (nr_sline_parse) and the
 * argument helpers (nr_sarg_*). Lines marked "6.1" were captured from the
 * real strace 6.1 (commands in data/README.md); "5.x" lines follow the
 * punctuation of strace 5.x and older (space after "resumed>"); the rest
 * are hand-written from strace's documented formats. Every expected value
 * was worked out by hand from the line text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "strace_line.h"
#include "syscalls.h"

#define S 1000000000LL /* ns per second */

/* What a line must parse into. pid 0 means "no pid" (-1), since strace never
 * prints pid 0; dur is checked only when has_dur; NULL strings mean empty. */
typedef struct expect {
    const char *line;
    nr_sline_kind kind;
    int64_t pid;
    nr_ts_form ts_form;
    int64_t ts_ns;
    nr_ts_form ts2_form;
    int64_t ts2_ns;
    int has_dur;
    int64_t dur_ns;
    const char *name;
    const char *args;
    int has_result;
    int result_unknown;
    int64_t result;
    const char *annot;
    const char *errno_name;
    const char *errno_text;
    int exit_code;
    int core_dumped;
    const char *reason;
    int tail_unread; /* result_tail_unread */
} expect;

static const char *const kind_names[] = {"SYSCALL", "UNFINISHED", "RESUMED", "SIGNAL",
                                         "EXITED", "KILLED", "NOTICE", "SUMMARY",
                                         "CONTINUATION", "BLANK", "BAD"};

static int span_is(nr_span s, const char *want)
{
    if (!want)
        want = "";
    return s.n == strlen(want) && (s.n == 0 || memcmp(s.p, want, s.n) == 0);
}

/* Compares every field and prints each difference with the line. */
static int check_line(const expect *e)
{
    nr_sline s;
    size_t len = strlen(e->line);
    nr_sline_parse(e->line, len, &s);
    int bad = 0;
#define DIFF_INT(field, want)                                                                  \
    do {                                                                                       \
        if ((int64_t)(s.field) != (int64_t)(want)) {                                           \
            fprintf(stderr, "  %s: got %lld, want %lld\n", #field, (long long)(s.field),       \
                    (long long)(want));                                                        \
            bad = 1;                                                                           \
        }                                                                                      \
    } while (0)
#define DIFF_SPAN(field, want)                                                                 \
    do {                                                                                       \
        if (!span_is(s.field, want)) {                                                         \
            fprintf(stderr, "  %s: got \"%.*s\", want \"%s\"\n", #field, (int)s.field.n,        \
                    s.field.p ? s.field.p : "", (want) ? (want) : "");                          \
            bad = 1;                                                                           \
        }                                                                                      \
    } while (0)
    if (s.kind != e->kind) {
        fprintf(stderr, "  kind: got %s (%s), want %s\n", kind_names[s.kind],
                s.reason ? s.reason : "-", kind_names[e->kind]);
        bad = 1;
    }
    DIFF_INT(pid, e->pid ? e->pid : -1);
    DIFF_INT(ts_form, e->ts_form);
    DIFF_INT(ts_ns, e->ts_ns);
    DIFF_INT(ts2_form, e->ts2_form);
    DIFF_INT(ts2_ns, e->ts2_ns);
    DIFF_INT(dur_ns, e->has_dur ? e->dur_ns : -1);
    DIFF_SPAN(name, e->name);
    if (e->kind == NR_SL_SYSCALL || e->kind == NR_SL_UNFINISHED || e->kind == NR_SL_RESUMED)
        DIFF_SPAN(args, e->args);
    DIFF_INT(has_result, e->has_result);
    DIFF_INT(result_unknown, e->result_unknown);
    DIFF_INT(result, e->result);
    DIFF_SPAN(result_annot, e->annot);
    DIFF_SPAN(errno_name, e->errno_name);
    DIFF_SPAN(errno_text, e->errno_text);
    DIFF_INT(exit_code, e->exit_code);
    DIFF_INT(core_dumped, e->core_dumped);
    DIFF_INT(result_tail_unread, e->tail_unread);
    if (e->kind == NR_SL_BAD && (!s.reason || !e->reason || strcmp(s.reason, e->reason) != 0)) {
        fprintf(stderr, "  reason: got %s, want %s\n", s.reason ? s.reason : "NULL", e->reason);
        bad = 1;
    }
    if (e->kind != NR_SL_BAD && s.reason) {
        fprintf(stderr, "  reason: got %s, want NULL\n", s.reason);
        bad = 1;
    }
    /* Spans must stay inside the line. */
    const nr_span spans[] = {s.name, s.args, s.result_annot, s.errno_name, s.errno_text};
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++)
        if (spans[i].n && (spans[i].p < e->line || spans[i].p + spans[i].n > e->line + len)) {
            fprintf(stderr, "  span %zu points outside the line\n", i);
            bad = 1;
        }
    if (bad)
        fprintf(stderr, "in line: [%s]\n", e->line);
#undef DIFF_INT
#undef DIFF_SPAN
    return bad;
}

static void check_table(const expect *table, size_t n)
{
    int failures = 0;
    for (size_t i = 0; i < n; i++)
        failures += check_line(&table[i]);
    assert_int_equal(failures, 0);
}
#define CHECK_TABLE(t) check_table((t), sizeof(t) / sizeof((t)[0]))

/* -o FILE with -f: "PID  " prefix, left-aligned and padded to 5 digits. */
static void pid_prefix_forms(void **state)
{
    static const expect t[] = {
        {.line = "11788 1796013689.094311 read(3</tmp/lx/f.txt>, \"hello\\n\", 131072) = 6 <0.000022>", /* 6.1 */
         .kind = NR_SL_SYSCALL, .pid = 11788, .ts_form = NR_TS_UNIX, .ts_ns = 1796013689094311000LL,
         .has_dur = 1, .dur_ns = 22000, .name = "read",
         .args = "3</tmp/lx/f.txt>, \"hello\\n\", 131072", .has_result = 1, .result = 6},
        {.line = "12    close(3)                = 0",
         .kind = NR_SL_SYSCALL, .pid = 12, .name = "close", .args = "3", .has_result = 1},
        {.line = "4194304 close(3) = 0", /* the largest pid Linux can hand out */
         .kind = NR_SL_SYSCALL, .pid = 4194304, .name = "close", .args = "3", .has_result = 1},
        {.line = "[pid  1234] close(3) = 0", /* stderr with -f */
         .kind = NR_SL_SYSCALL, .pid = 1234, .name = "close", .args = "3", .has_result = 1},
        {.line = "[pid 11843] 04:41:34.490629 rseq(0x7fee936d6fe0, 0x20, 0, 0x53053053 <unfinished ...>", /* 6.1 */
         .kind = NR_SL_UNFINISHED, .pid = 11843, .ts_form = NR_TS_CLOCK, .ts_ns = 16894490629000LL,
         .name = "rseq", .args = "0x7fee936d6fe0, 0x20, 0, 0x53053053"},
        {.line = "close(3) = 0", /* -ff file or a single process */
         .kind = NR_SL_SYSCALL, .name = "close", .args = "3", .has_result = 1},
        {.line = "12045<cat> 04:42:08.348961440 read(3, \"\", 4096) = 0", /* 6.1 -Y (--decode-pids=comm) */
         .kind = NR_SL_SYSCALL, .pid = 12045, .ts_form = NR_TS_CLOCK, .ts_ns = 16928348961440LL,
         .name = "read", .args = "3, \"\", 4096", .has_result = 1},
        {.line = "24276 1796015862.900124 [   3] [00007f80d30a0a07] close(3) = 0", /* 6.1 -i -n */
         .kind = NR_SL_SYSCALL, .pid = 24276, .ts_form = NR_TS_UNIX, .ts_ns = 1796015862900124000LL,
         .name = "close", .args = "3", .has_result = 1},
        {.line = "[????????????????] +++ exited with 0 +++", /* 6.1 -i */
         .kind = NR_SL_EXITED},
        {.line = "[ 231] +++ exited with 3 +++", .kind = NR_SL_EXITED, .exit_code = 3}, /* -n */
        {.line = "[pid  4242<python3>] close(3) = 0",
         .kind = NR_SL_SYSCALL, .pid = 4242, .name = "close", .args = "3", .has_result = 1},
        /* a log saved by an editor starts with UTF-8's byte order mark: its
           first line (the root's execve) was an unknown_line (review 45) */
        {.line = "\xEF\xBB\xBF" "12082 1796442343.352096 execve(\"./p1\", [\"./p1\"], 0x7ffd /* 20 vars */) = 0",
         .kind = NR_SL_SYSCALL, .pid = 12082, .ts_form = NR_TS_UNIX, .ts_ns = 1796442343352096000LL,
         .name = "execve", .args = "\"./p1\", [\"./p1\"], 0x7ffd /* 20 vars */", .has_result = 1},
        {.line = "\xEF\xBB\xBF" "close(3) = 0", .kind = NR_SL_SYSCALL, .name = "close", .args = "3", .has_result = 1},
    };
    CHECK_TABLE(t);
}

static void timestamp_forms(void **state)
{
    static const expect t[] = {
        {.line = "11800 04:41:29 brk(NULL) = 0x55d9dc5b7000", /* -t */
         .kind = NR_SL_SYSCALL, .pid = 11800, .ts_form = NR_TS_CLOCK, .ts_ns = 16889 * S,
         .name = "brk", .args = "NULL", .has_result = 1, .result = 94394193244160LL},
        {.line = "04:41:34.490464 brk(NULL) = 0", /* -tt, -ff */
         .kind = NR_SL_SYSCALL, .ts_form = NR_TS_CLOCK, .ts_ns = 16894490464000LL,
         .name = "brk", .args = "NULL", .has_result = 1},
        {.line = "12040 04:42:08.340 read(3, \"\", 4096) = 0", /* 6.1 --timestamps=time,ms */
         .kind = NR_SL_SYSCALL, .pid = 12040, .ts_form = NR_TS_CLOCK, .ts_ns = 16928340000000LL,
         .name = "read", .args = "3, \"\", 4096", .has_result = 1},
        {.line = "23:59:59.999999999 close(3) = 0", /* time,ns */
         .kind = NR_SL_SYSCALL, .ts_form = NR_TS_CLOCK, .ts_ns = 86399999999999LL,
         .name = "close", .args = "3", .has_result = 1},
        {.line = "1764480000.123456789 close(3) = 0", /* --timestamps=unix,ns: exact ns */
         .kind = NR_SL_SYSCALL, .ts_form = NR_TS_UNIX, .ts_ns = 1764480000123456789LL,
         .name = "close", .args = "3", .has_result = 1},
        {.line = "7 1764480000.5 close(3) = 0", /* unix with a 1-digit fraction */
         .kind = NR_SL_SYSCALL, .pid = 7, .ts_form = NR_TS_UNIX, .ts_ns = 1764480000500000000LL,
         .name = "close", .args = "3", .has_result = 1},
        {.line = "11968 1796013723 read(3, \"\", 4096) = 0", /* 6.1 --timestamps=unix,s */
         .kind = NR_SL_SYSCALL, .pid = 11968, .ts_form = NR_TS_UNIX, .ts_ns = 1796013723 * S,
         .name = "read", .args = "3, \"\", 4096", .has_result = 1},
        {.line = "1796013723 close(3) = 0", /* unix,s without pid: > 2^22, so no pid */
         .kind = NR_SL_SYSCALL, .ts_form = NR_TS_UNIX, .ts_ns = 1796013723 * S,
         .name = "close", .args = "3", .has_result = 1},
        {.line = "4194305 close(3) = 0", /* above PID_MAX_LIMIT: a stamp; below 1e8 s: read as -r,s */
         .kind = NR_SL_SYSCALL, .ts_form = NR_TS_RELATIVE, .ts_ns = 4194305 * S,
         .name = "close", .args = "3", .has_result = 1},
        {.line = "     0.000790 read(3, \"\", 4096) = 0", /* 6.1 -r, no pid */
         .kind = NR_SL_SYSCALL, .ts_form = NR_TS_RELATIVE, .ts_ns = 790000,
         .name = "read", .args = "3, \"\", 4096", .has_result = 1},
        {.line = "11795      0.000346 brk(NULL)           = 0x55cd37642000", /* 6.1 -f -r */
         .kind = NR_SL_SYSCALL, .pid = 11795, .ts_form = NR_TS_RELATIVE, .ts_ns = 346000,
         .name = "brk", .args = "NULL", .has_result = 1, .result = 0x55cd37642000LL},
        {.line = "     0.000866424 close(3) = 0", /* 6.1 --relative-timestamps=ns */
         .kind = NR_SL_SYSCALL, .ts_form = NR_TS_RELATIVE, .ts_ns = 866424,
         .name = "close", .args = "3", .has_result = 1},
        {.line = "     0 close(3) = 0", /* 6.1 --relative-timestamps=s: padded bare integer */
         .kind = NR_SL_SYSCALL, .ts_form = NR_TS_RELATIVE, .ts_ns = 0,
         .name = "close", .args = "3", .has_result = 1},
        {.line = "1234       2 close(3) = 0", /* pid, then a bare -r,s value */
         .kind = NR_SL_SYSCALL, .pid = 1234, .ts_form = NR_TS_RELATIVE, .ts_ns = 2 * S,
         .name = "close", .args = "3", .has_result = 1},
        {.line = "11800 04:41:29 (+     0.000411) brk(NULL) = 0x55d9dc5b7000", /* 6.1 -t -r */
         .kind = NR_SL_SYSCALL, .pid = 11800, .ts_form = NR_TS_CLOCK, .ts_ns = 16889 * S,
         .ts2_form = NR_TS_RELATIVE, .ts2_ns = 411000,
         .name = "brk", .args = "NULL", .has_result = 1, .result = 94394193244160LL},
        {.line = "11805 1796013689.122664 (+     0.000338) brk(NULL) = 0x55ec38206000", /* 6.1 -ttt -r */
         .kind = NR_SL_SYSCALL, .pid = 11805, .ts_form = NR_TS_UNIX, .ts_ns = 1796013689122664000LL,
         .ts2_form = NR_TS_RELATIVE, .ts2_ns = 338000,
         .name = "brk", .args = "NULL", .has_result = 1, .result = 0x55ec38206000LL},
    };
    CHECK_TABLE(t);
}

static void results_and_durations(void **state)
{
    static const expect t[] = {
        {.line = "11788 1796013689.089145 access(\"/etc/ld.so.preload\", R_OK) = -1 ENOENT (No such file or directory) <0.000016>", /* 6.1 */
         .kind = NR_SL_SYSCALL, .pid = 11788, .ts_form = NR_TS_UNIX, .ts_ns = 1796013689089145000LL,
         .has_dur = 1, .dur_ns = 16000, .name = "access", .args = "\"/etc/ld.so.preload\", R_OK",
         .has_result = 1, .result = -1, .errno_name = "ENOENT",
         .errno_text = "No such file or directory"},
        {.line = "11681 1796014587.279317 read(3<pipe:[73436]>, 0x7fb5fb3c59a0, 1) = ? ERESTARTSYS (To be restarted if SA_RESTART is set) <0.049986>", /* 6.1 */
         .kind = NR_SL_SYSCALL, .pid = 11681, .ts_form = NR_TS_UNIX, .ts_ns = 1796014587279317000LL,
         .has_dur = 1, .dur_ns = 49986000, .name = "read", .args = "3<pipe:[73436]>, 0x7fb5fb3c59a0, 1",
         .has_result = 1, .result_unknown = 1, .errno_name = "ERESTARTSYS",
         .errno_text = "To be restarted if SA_RESTART is set"},
        {.line = "exit_group(0)                           = ?", /* 6.1 */
         .kind = NR_SL_SYSCALL, .name = "exit_group", .args = "0", .has_result = 1, .result_unknown = 1},
        {.line = "brk(NULL) = 0x7fffffffffffffff",
         .kind = NR_SL_SYSCALL, .name = "brk", .args = "NULL", .has_result = 1, .result = INT64_MAX},
        {.line = "lseek(3, 0, SEEK_END) = 0xffffffffffffffff", /* hex taken as unsigned 64-bit */
         .kind = NR_SL_SYSCALL, .name = "lseek", .args = "3, 0, SEEK_END", .has_result = 1, .result = -1},
        {.line = "poll([{fd=3, events=POLLIN}], 1, 100) = 0 (Timeout) <0.100123456>", /* ns -T */
         .kind = NR_SL_SYSCALL, .has_dur = 1, .dur_ns = 100123456, .name = "poll",
         .args = "[{fd=3, events=POLLIN}], 1, 100", .has_result = 1, .errno_text = "Timeout"},
        {.line = "poll([{fd=3, events=POLLIN}], 1, -1) = 1 ([{fd=3, revents=POLLIN}])",
         .kind = NR_SL_SYSCALL, .name = "poll", .args = "[{fd=3, events=POLLIN}], 1, -1",
         .has_result = 1, .result = 1, .errno_text = "[{fd=3, revents=POLLIN}]"},
        {.line = "fcntl(3</etc/passwd>, F_GETFD) = 0x1 (flags FD_CLOEXEC)",
         .kind = NR_SL_SYSCALL, .name = "fcntl", .args = "3</etc/passwd>, F_GETFD",
         .has_result = 1, .result = 1, .errno_text = "flags FD_CLOEXEC"},
        {.line = "11788 1796013689.089215 openat(AT_FDCWD</tmp/lx>, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3</etc/ld.so.cache> <0.000024>", /* 6.1 -y */
         .kind = NR_SL_SYSCALL, .pid = 11788, .ts_form = NR_TS_UNIX, .ts_ns = 1796013689089215000LL,
         .has_dur = 1, .dur_ns = 24000, .name = "openat",
         .args = "AT_FDCWD</tmp/lx>, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC",
         .has_result = 1, .result = 3, .annot = "/etc/ld.so.cache"},
        {.line = "11788 1796013689.094583 openat(AT_FDCWD</tmp/lx>, \"we\\\"ird>na)me,x\", O_RDONLY) = 3</tmp/lx/we\\\"ird\\76na)me,x> <0.000018>", /* 6.1: '"', '>' ')' ',' in a name */
         .kind = NR_SL_SYSCALL, .pid = 11788, .ts_form = NR_TS_UNIX, .ts_ns = 1796013689094583000LL,
         .has_dur = 1, .dur_ns = 18000, .name = "openat",
         .args = "AT_FDCWD</tmp/lx>, \"we\\\"ird>na)me,x\", O_RDONLY",
         .has_result = 1, .result = 3, .annot = "/tmp/lx/we\\\"ird\\76na)me,x"},
        {.line = "openat(AT_FDCWD, \"/dev/pts/0\", O_RDWR) = 3</dev/pts/0<char 136:0>> <0.000010>", /* -yy */
         .kind = NR_SL_SYSCALL, .has_dur = 1, .dur_ns = 10000, .name = "openat",
         .args = "AT_FDCWD, \"/dev/pts/0\", O_RDWR", .has_result = 1, .result = 3, .annot = "/dev/pts/0"},
        {.line = "socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3<TCP:[1.2.3.4:5->6.7.8.9:10]>",
         .kind = NR_SL_SYSCALL, .name = "socket", .args = "AF_INET, SOCK_STREAM, IPPROTO_IP",
         .has_result = 1, .result = 3, .annot = "TCP:[1.2.3.4:5->6.7.8.9:10]"},
        {.line = "eventfd2(0, EFD_CLOEXEC) = 5<anon_inode:[eventfd]>",
         .kind = NR_SL_SYSCALL, .name = "eventfd2", .args = "0, EFD_CLOEXEC",
         .has_result = 1, .result = 5, .annot = "anon_inode:[eventfd]"},
        {.line = "11944 openat(-100 /* AT_FDCWD */</tmp/lx>, \"/etc/ld.so.cache\", 0x80000 /* O_RDONLY|O_CLOEXEC */) = 3</etc/ld.so.cache>", /* 6.1 -X verbose */
         .kind = NR_SL_SYSCALL, .pid = 11944, .name = "openat",
         .args = "-100 /* AT_FDCWD */</tmp/lx>, \"/etc/ld.so.cache\", 0x80000 /* O_RDONLY|O_CLOEXEC */",
         .has_result = 1, .result = 3, .annot = "/etc/ld.so.cache"},
        {.line = "11938 access(\"/etc/ld.so.preload\", 0x4) = -1 ENOENT (No such file or directory)", /* 6.1 -X raw */
         .kind = NR_SL_SYSCALL, .pid = 11938, .name = "access", .args = "\"/etc/ld.so.preload\", 0x4",
         .has_result = 1, .result = -1, .errno_name = "ENOENT", .errno_text = "No such file or directory"},
        {.line = "clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=1, tv_nsec=0}, 0x7ffd) = ? ERESTART_RESTARTBLOCK (Interrupted by signal) <unavailable>",
         .kind = NR_SL_SYSCALL, .name = "clock_nanosleep", .args = "CLOCK_REALTIME, 0, {tv_sec=1, tv_nsec=0}, 0x7ffd",
         .has_result = 1, .result_unknown = 1, .errno_name = "ERESTART_RESTARTBLOCK",
         .errno_text = "Interrupted by signal"},
        /* a "<...>" after the result that is no duration, nor strace's
           "<unavailable>": marked for the ingest's note (session 48) */
        {.line = "1234 read(3, \"abc\", 4096) = 3 <0.0000x0>", .kind = NR_SL_SYSCALL, .pid = 1234,
         .has_dur = 1, .dur_ns = NR_SLINE_DUR_UNREADABLE, .name = "read", .args = "3, \"abc\", 4096",
         .has_result = 1, .result = 3},
        {.line = "1234 read(3, \"abc\", 4096) = 3 <0.000020", .kind = NR_SL_SYSCALL, .pid = 1234,
         .has_dur = 1, .dur_ns = NR_SLINE_DUR_UNREADABLE, .name = "read", .args = "3, \"abc\", 4096",
         .has_result = 1, .result = 3},
        {.line = "1234 read(3, \"abc\", 4096) = 3 <unavailable>", .kind = NR_SL_SYSCALL, .pid = 1234,
         .name = "read", .args = "3, \"abc\", 4096", .has_result = 1, .result = 3},
        {.line = "restart_syscall(<... resuming interrupted read ...>) = 0 <1.000100>",
         .kind = NR_SL_SYSCALL, .has_dur = 1, .dur_ns = 1000100000, .name = "restart_syscall",
         .args = "<... resuming interrupted read ...>", .has_result = 1},
        {.line = "clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f0af4228590) = 11897 <0.000298>", /* 6.1 */
         .kind = NR_SL_SYSCALL, .has_dur = 1, .dur_ns = 298000, .name = "clone",
         .args = "child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f0af4228590",
         .has_result = 1, .result = 11897},
        {.line = "clone3({flags=CLONE_VM, child_tid=0x7f, parent_tid=0x7f, exit_signal=0, stack=0x7f, stack_size=0x7fff80, tls=0x7f} => {parent_tid=[11843]}, 88) = 11843<python3>",
         .kind = NR_SL_SYSCALL, .name = "clone3",
         .args = "{flags=CLONE_VM, child_tid=0x7f, parent_tid=0x7f, exit_signal=0, stack=0x7f, stack_size=0x7fff80, tls=0x7f} => {parent_tid=[11843]}, 88",
         .has_result = 1, .result = 11843, .annot = "python3"},
        {.line = "wait4(-1, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 11897 <0.000302>", /* 6.1 */
         .kind = NR_SL_SYSCALL, .has_dur = 1, .dur_ns = 302000, .name = "wait4",
         .args = "-1, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL", .has_result = 1, .result = 11897},
        {.line = "futex(0x7f, FUTEX_WAKE_OP_PRIVATE, 1, 1, 0x7e, FUTEX_OP_SET<<28|0<<12|FUTEX_OP_CMP_GT<<24|0x1) = 1",
         .kind = NR_SL_SYSCALL, .name = "futex",
         .args = "0x7f, FUTEX_WAKE_OP_PRIVATE, 1, 1, 0x7e, FUTEX_OP_SET<<28|0<<12|FUTEX_OP_CMP_GT<<24|0x1",
         .has_result = 1, .result = 1},
        {.line = "write(1, \"a) = 5 <x>\\\"\", 11) = 11",
         .kind = NR_SL_SYSCALL, .name = "write", .args = "1, \"a) = 5 <x>\\\"\", 11", .has_result = 1, .result = 11},
        {.line = "read(3, \"\\x00\\xff\\\\\"..., 4096) = 4096", /* -s truncation */
         .kind = NR_SL_SYSCALL, .name = "read", .args = "3, \"\\x00\\xff\\\\\"..., 4096",
         .has_result = 1, .result = 4096},
        {.line = "pipe2([3<pipe:[14370]>, 4<pipe:[14370]>], O_CLOEXEC) = 0 <0.000015>", /* 6.1 */
         .kind = NR_SL_SYSCALL, .has_dur = 1, .dur_ns = 15000, .name = "pipe2",
         .args = "[3<pipe:[14370]>, 4<pipe:[14370]>], O_CLOEXEC", .has_result = 1},
        {.line = "connect(3<UNIX-STREAM:[1234]>, {sa_family=AF_UNIX, sun_path=\"/run/a>b\"}, 110) = 0",
         .kind = NR_SL_SYSCALL, .name = "connect",
         .args = "3<UNIX-STREAM:[1234]>, {sa_family=AF_UNIX, sun_path=\"/run/a>b\"}, 110", .has_result = 1},
        {.line = "getpid() = 42", .kind = NR_SL_SYSCALL, .name = "getpid", .args = "", .has_result = 1, .result = 42},
        {.line = "nanosleep({tv_sec=5, tv_nsec=0}, NULL) = 0 <5>", /* --syscall-times=s */
         .kind = NR_SL_SYSCALL, .has_dur = 1, .dur_ns = 5 * S, .name = "nanosleep",
         .args = "{tv_sec=5, tv_nsec=0}, NULL", .has_result = 1},
        {.line = "openat(0xffffff9c, \"/a\", 0x80000) = 3 <0.000001234>", /* -X raw, 32-bit AT_FDCWD */
         .kind = NR_SL_SYSCALL, .has_dur = 1, .dur_ns = 1234, .name = "openat",
         .args = "0xffffff9c, \"/a\", 0x80000", .has_result = 1, .result = 3},
        {.line = "read(3, 0x7f, 10) = 10 <0.1234567890>", /* 10 fraction digits: no duration, noted */
         .kind = NR_SL_SYSCALL, .has_dur = 1, .dur_ns = NR_SLINE_DUR_UNREADABLE, .name = "read",
         .args = "3, 0x7f, 10", .has_result = 1, .result = 10},
    };
    CHECK_TABLE(t);
}

static void unfinished_and_resumed(void **state)
{
    static const expect t[] = {
        {.line = "[pid 11842] 04:41:34.490650 rt_sigprocmask(SIG_SETMASK, [],  <unfinished ...>", /* 6.1 */
         .kind = NR_SL_UNFINISHED, .pid = 11842, .ts_form = NR_TS_CLOCK, .ts_ns = 16894490650000LL,
         .name = "rt_sigprocmask", .args = "SIG_SETMASK, [], "},
        {.line = "[pid 11842] 04:41:34.490673 <... rt_sigprocmask resumed>NULL, 8) = 0 <0.000013>", /* 6.1 */
         .kind = NR_SL_RESUMED, .pid = 11842, .ts_form = NR_TS_CLOCK, .ts_ns = 16894490673000LL,
         .has_dur = 1, .dur_ns = 13000, .name = "rt_sigprocmask", .args = "NULL, 8", .has_result = 1},
        {.line = "11834 1796013694.424483 exit(0 <unfinished ...>", /* 6.1 */
         .kind = NR_SL_UNFINISHED, .pid = 11834, .ts_form = NR_TS_UNIX, .ts_ns = 1796013694424483000LL,
         .name = "exit", .args = "0"},
        {.line = "11834 1796013694.425289 <... exit resumed>) = ?", /* 6.1 */
         .kind = NR_SL_RESUMED, .pid = 11834, .ts_form = NR_TS_UNIX, .ts_ns = 1796013694425289000LL,
         .name = "exit", .args = "", .has_result = 1, .result_unknown = 1},
        {.line = "04:56:27.653422 <... wait4 resumed>[{WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL}], 0, NULL) = 11702", /* 6.1 */
         .kind = NR_SL_RESUMED, .ts_form = NR_TS_CLOCK, .ts_ns = 17787653422000LL, .name = "wait4",
         .args = "[{WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL}], 0, NULL", .has_result = 1, .result = 11702},
        {.line = "[pid  1234] read(3</data/x>,  <unfinished ...>", /* 5.x */
         .kind = NR_SL_UNFINISHED, .pid = 1234, .name = "read", .args = "3</data/x>, "},
        {.line = "[pid  1234] <... read resumed> \"abc\", 4096) = 3", /* 5.x: space after '>' */
         .kind = NR_SL_RESUMED, .pid = 1234, .name = "read", .args = "\"abc\", 4096", .has_result = 1, .result = 3},
        {.line = "[pid 28772] <... select resumed> )      = 1 (in [3])", /* strace(1) man page */
         .kind = NR_SL_RESUMED, .pid = 28772, .name = "select", .args = "", .has_result = 1,
         .result = 1, .errno_text = "in [3]"},
        {.line = "16819 clone( <unfinished ...>", /* 4.x/5.x */
         .kind = NR_SL_UNFINISHED, .pid = 16819, .name = "clone", .args = ""},
        {.line = "16820 execve(\"/usr/bin/unbuffer\", [\"unbuffer\"], [/* 34 vars */] <unfinished ...>",
         .kind = NR_SL_UNFINISHED, .pid = 16820, .name = "execve",
         .args = "\"/usr/bin/unbuffer\", [\"unbuffer\"], [/* 34 vars */]"},
        {.line = "[pid 11702] 04:56:27.653371 <... mmap resumed>) = ?", /* 6.1: killed inside mmap */
         .kind = NR_SL_RESUMED, .pid = 11702, .ts_form = NR_TS_CLOCK, .ts_ns = 17787653371000LL,
         .name = "mmap", .args = "", .has_result = 1, .result_unknown = 1},
        {.line = "200 1700000002.000300 <... clone3 resumed> => {parent_tid=[201]}, 88) = 201 <0.000200>",
         .kind = NR_SL_RESUMED, .pid = 200, .ts_form = NR_TS_UNIX, .ts_ns = 1700000002000300000LL,
         .has_dur = 1, .dur_ns = 200000, .name = "clone3", .args = "=> {parent_tid=[201]}, 88",
         .has_result = 1, .result = 201},
        {.line = "[pid 42] <... read resumed><unfinished ...>) = ?", /* resumed and cut again (the thread died) */
         .kind = NR_SL_RESUMED, .pid = 42, .name = "read", .args = "<unfinished ...>", .has_result = 1,
         .result_unknown = 1},
        /* stderr output: an attach notice cuts a fork in two (6.1). */
        {.line = "clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLDstrace: Process 11889 attached",
         .kind = NR_SL_UNFINISHED, .name = "clone",
         .args = "child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD"},
        {.line = ", child_tidptr=0x7fbbaa628a10) = 11889 <0.000202>",
         .kind = NR_SL_RESUMED, .has_dur = 1, .dur_ns = 202000, .args = ", child_tidptr=0x7fbbaa628a10",
         .has_result = 1, .result = 11889},
        {.line = " => {parent_tid=[11843]}, 88) = 11843 <0.000124>",
         .kind = NR_SL_RESUMED, .has_dur = 1, .dur_ns = 124000, .args = "=> {parent_tid=[11843]}, 88",
         .has_result = 1, .result = 11843},
        {.line = "04:56:27.651871 vfork(strace: Process 11702 attached",
         .kind = NR_SL_UNFINISHED, .ts_form = NR_TS_CLOCK, .ts_ns = 17787651871000LL, .name = "vfork", .args = ""},
        {.line = " <unfinished ...>", .kind = NR_SL_CONTINUATION},
        /* strace -p stopped by Ctrl-C: the call it detached from (6.1; a
           truncated line until session 42) */
        {.line = "9987  1796411783.807595 clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, {tv_sec=40279, "
                 "tv_nsec=996042908},  <detached ...>",
         .kind = NR_SL_UNFINISHED, .pid = 9987, .ts_form = NR_TS_UNIX, .ts_ns = 1796411783807595000LL,
         .name = "clock_nanosleep", .args = "CLOCK_MONOTONIC, TIMER_ABSTIME, {tv_sec=40279, tv_nsec=996042908}, "},
        {.line = "[pid 7] read(3, <detached ...>", .kind = NR_SL_UNFINISHED, .pid = 7, .name = "read", .args = "3,"},
        /* stderr: the same call cut by strace's detach notices, its mark
           alone on the last line (6.1, review 47; an unknown_line until
           session 47) */
        {.line = "[pid 25700] 1796462599.982439 clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, {tv_sec=11631, "
                 "tv_nsec=423881902}, strace: Process 25694 detached",
         .kind = NR_SL_UNFINISHED, .pid = 25700, .ts_form = NR_TS_UNIX, .ts_ns = 1796462599982439000LL,
         .name = "clock_nanosleep", .args = "CLOCK_MONOTONIC, TIMER_ABSTIME, {tv_sec=11631, tv_nsec=423881902}, "},
        {.line = " <detached ...>", .kind = NR_SL_CONTINUATION},
        /* -ff: a thread's execve, which resumes in the leader's file (6.1,
           review 47; a cut line until session 47) */
        {.line = "1796462451.101399 execve(\"/bin/sh\", [\"sh\", \"-c\"], 0x7ffc29fbadf8 /* 41 vars */ "
                 "<pid changed to 17549 ...>",
         .kind = NR_SL_UNFINISHED, .ts_form = NR_TS_UNIX, .ts_ns = 1796462451101399000LL, .name = "execve",
         .args = "\"/bin/sh\", [\"sh\", \"-c\"], 0x7ffc29fbadf8 /* 41 vars */"},
        {.line = "[pid 7] execve(\"/x\", [], 0x1 <pid changed to 6 ...>", .kind = NR_SL_UNFINISHED, .pid = 7,
         .name = "execve", .args = "\"/x\", [], 0x1"},
        {.line = "[pid 7] execve(\"/x\", [], 0x1 <pid changed to  ...>", .kind = NR_SL_BAD, .pid = 7,
         .name = "execve", .reason = "truncated"},
        {.line = "<detached ...>", .kind = NR_SL_BAD, .reason = "unknown_line"},
        /* a tail that starts with a word (6.1, review 39; an unknown_line
         * until session 39) */
        {.line = "[pid  1705] 1796377536.059080 rt_sigprocmask(SIG_SETMASK, [], strace: Process 1706 attached",
         .kind = NR_SL_UNFINISHED, .pid = 1705, .ts_form = NR_TS_UNIX, .ts_ns = 1796377536059080000LL,
         .name = "rt_sigprocmask", .args = "SIG_SETMASK, [], "},
        {.line = "NULL, 8) = 0 <0.000052>",
         .kind = NR_SL_RESUMED, .has_dur = 1, .dur_ns = 52000, .args = "NULL, 8", .has_result = 1, .result = 0},
        {.line = "NULL, 8) = 0", .kind = NR_SL_RESUMED, .args = "NULL, 8", .has_result = 1, .result = 0},
        {.line = "O_RDONLY|O_CLOEXEC) = 3</etc/ld.so.cache>",
         .kind = NR_SL_RESUMED, .args = "O_RDONLY|O_CLOEXEC", .has_result = 1, .result = 3, .annot = "/etc/ld.so.cache"},
        {.line = "NULL) = -1 EINTR (Interrupted system call)",
         .kind = NR_SL_RESUMED, .args = "NULL", .has_result = 1, .result = -1, .errno_name = "EINTR",
         .errno_text = "Interrupted system call"},
        /* calls whose arguments hold "word(" groups, printed at entry:
         * the notice cuts them after those, and the tail starts with ')'
         * or the first argument printed at exit, never "word(" (6.1,
         * session 40: 3772 notices over about 30 calls) */
        {.line = "[pid 27424] mknodat(AT_FDCWD, \"/tmp/ing40x/nod\", S_IFCHR|0600, makedev(0x1, 0x3)strace: Process 27537 attached",
         .kind = NR_SL_UNFINISHED, .pid = 27424, .name = "mknodat",
         .args = "AT_FDCWD, \"/tmp/ing40x/nod\", S_IFCHR|0600, makedev(0x1, 0x3)"},
        {.line = ") = 0", .kind = NR_SL_RESUMED, .args = "", .has_result = 1, .result = 0},
        {.line = "[pid 27424] socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL)strace: Process 28560 attached",
         .kind = NR_SL_UNFINISHED, .pid = 27424, .name = "socket", .args = "AF_PACKET, SOCK_RAW, htons(ETH_P_ALL)"},
        {.line = ") = 7", .kind = NR_SL_RESUMED, .args = "", .has_result = 1, .result = 7},
        {.line = "[pid 27424] getsockopt(3, SOL_IP, IP_MULTICAST_IF, strace: Process 27442 attached",
         .kind = NR_SL_UNFINISHED, .pid = 27424, .name = "getsockopt", .args = "3, SOL_IP, IP_MULTICAST_IF, "},
        {.line = "[0], [4]) = 0", .kind = NR_SL_RESUMED, .args = "[0], [4]", .has_result = 1, .result = 0},
        /* words without a ") = result" stay program output */
        {.line = "hello world", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = "see foo) for details", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = "done (in 3 s) = ok", .kind = NR_SL_BAD, .reason = "unknown_line"},
    };
    CHECK_TABLE(t);
}

static void signals_exits_notices(void **state)
{
    static const expect t[] = {
        {.line = "11681 1796014587.329355 --- SIGALRM {si_signo=SIGALRM, si_code=SI_KERNEL} ---", /* 6.1 */
         .kind = NR_SL_SIGNAL, .pid = 11681, .ts_form = NR_TS_UNIX, .ts_ns = 1796014587329355000LL, .name = "SIGALRM"},
        {.line = "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=11897, si_uid=0, si_status=0, si_utime=0, si_stime=0} ---",
         .kind = NR_SL_SIGNAL, .name = "SIGCHLD"},
        {.line = "[pid 7] --- stopped by SIGSTOP ---", .kind = NR_SL_SIGNAL, .pid = 7, .name = "SIGSTOP"},
        {.line = "+++ exited with 0 +++", .kind = NR_SL_EXITED},
        {.line = "[pid 11889] +++ exited with 137 +++", .kind = NR_SL_EXITED, .pid = 11889, .exit_code = 137},
        {.line = "11682 1796014587.432224 +++ killed by SIGKILL +++", /* 6.1 */
         .kind = NR_SL_KILLED, .pid = 11682, .ts_form = NR_TS_UNIX, .ts_ns = 1796014587432224000LL, .name = "SIGKILL"},
        {.line = "--- SIGABRT {si_signo=SIGABRT, si_code=SI_TKILL, si_pid=26588, si_uid=0} ---", /* 6.1 */
         .kind = NR_SL_SIGNAL, .name = "SIGABRT"},
        {.line = "+++ killed by SIGABRT (core dumped) +++", /* 6.1, os.abort() with ulimit -c unlimited */
         .kind = NR_SL_KILLED, .name = "SIGABRT", .core_dumped = 1},
        {.line = "[pid 99] +++ killed by SIGSEGV (core dumped) +++",
         .kind = NR_SL_KILLED, .pid = 99, .name = "SIGSEGV", .core_dumped = 1},
        {.line = "strace: Process 1234 attached", .kind = NR_SL_NOTICE},
        {.line = "strace: Process 1234 detached", .kind = NR_SL_NOTICE},
        /* strace run by its path names itself so (until session 41 unknown_line) */
        {.line = "/usr/bin/strace: Process 1234 attached", .kind = NR_SL_NOTICE},
        {.line = "./strace: Process 7 attached", .kind = NR_SL_NOTICE},
        {.line = "/opt/strace-6.1/bin/strace: Process 7 detached", .kind = NR_SL_NOTICE},
        {.line = "/usr/bin/strace:", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = "/usr/bin/not-strace: Process 7 attached", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = "/my dir/strace: Process 7 attached", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = "strace: [ Process PID=1234 runs in 32 bit mode. ]", .kind = NR_SL_NOTICE},
        {.line = "[pid 5] +++ superseded by execve in pid 6 +++", .kind = NR_SL_NOTICE, .pid = 5},
    };
    CHECK_TABLE(t);
}

static void summary_continuation_blank(void **state)
{
    static const expect t[] = {
        {.line = "% time     seconds  usecs/call     calls    errors syscall", .kind = NR_SL_SUMMARY},
        {.line = "------ ----------- ----------- --------- --------- ----------------", .kind = NR_SL_SUMMARY},
        {.line = "  0.00    0.000000           0         5           read", .kind = NR_SL_SUMMARY},
        {.line = " 45.12    0.001234          12       100        20 openat", .kind = NR_SL_SUMMARY},
        {.line = "100.00    0.000000           0       118        14 total", .kind = NR_SL_SUMMARY},
        {.line = "System call usage summary for 32 bit mode:", .kind = NR_SL_SUMMARY},
        /* columns chosen by -U (6.1 "-C -U name,calls,errors", review 47; unknown_line until session 47) */
        {.line = "syscall              calls    errors", .kind = NR_SL_SUMMARY},
        {.line = "newfstatat             634        84", .kind = NR_SL_SUMMARY},
        {.line = "read                     7          ", .kind = NR_SL_SUMMARY},
        {.line = "total                 2532       233", .kind = NR_SL_SUMMARY},
        {.line = "    calls syscall             errors", .kind = NR_SL_SUMMARY}, /* -U calls,name,errors */
        {.line = "        7 read                      ", .kind = NR_SL_SUMMARY},
        {.line = "      148 total                   26", .kind = NR_SL_SUMMARY},
        {.line = "        1           munmap", .kind = NR_SL_SUMMARY},            /* -U calls,errors */
        {.line = "shortest  longest  usecs/call     seconds % time", .kind = NR_SL_SUMMARY},
        {.line = "0.000000 0.000061          17    0.000119  11.91         7           read", .kind = NR_SL_SUMMARY},
        {.line = "syscall", .kind = NR_SL_BAD, .reason = "unknown_line"}, /* -U name alone: no telling */
        {.line = "epoch 3", .kind = NR_SL_BAD, .reason = "unknown_line"},  /* no column gap */
        {.line = "loss  0.5  acc  0.9", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = "step  1.2.3", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = "read  7 x", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = " | 00000  7f 45 4c 46 02 01 01 03  00 00 00 00 00 00 00 00  .ELF............ |",
         .kind = NR_SL_CONTINUATION},
        {.line = " > /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2(_dl_catch_error+0x86f4) [0x20b74]",
         .kind = NR_SL_CONTINUATION},
        {.line = " > unexpected_backtracing_error [0x7f12]", .kind = NR_SL_CONTINUATION},
        /* readv/writev with -e read=/write= head each buffer's dump so (6.1; session 42) */
        {.line = " * 100 bytes in buffer 0", .kind = NR_SL_CONTINUATION},
        {.line = " * 1000 bytes in buffer 12", .kind = NR_SL_CONTINUATION},
        {.line = " * 100 bytes in buffer ", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = " * 100 bytes in buffer 0 x", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = " *  bytes in buffer 0", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = "", .kind = NR_SL_BLANK},
        {.line = "   \t  \r", .kind = NR_SL_BLANK},
    };
    CHECK_TABLE(t);
}

static void bad_and_truncated(void **state)
{
    static const expect t[] = {
        {.line = "Traceback (most recent call last):", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = "hello", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB", .kind = NR_SL_BAD,
         .reason = "unknown_line"},
        {.line = "12 apples", .kind = NR_SL_BAD, .pid = 12, .reason = "unknown_line"},
        /* a cut call keeps its arguments to the line's end (the ingest's cut_call_line) */
        {.line = "1234  read(3</data/x>, \"abc", .kind = NR_SL_BAD, .pid = 1234, .name = "read",
         .args = "3</data/x>, \"abc", .reason = "truncated"},
        {.line = "1234  openat(AT_FDCWD, \"/a\", O_RDONLY", .kind = NR_SL_BAD, .pid = 1234, .name = "openat",
         .args = "AT_FDCWD, \"/a\", O_RDONLY", .reason = "truncated"},
        /* stderr mode: a progress bar's text ran into strace's next line */
        {.line = "\r42%[pid 11756] read(3, \"d\", 4096) = 1", .kind = NR_SL_SYSCALL, .pid = 11756, .name = "read",
         .args = "3, \"d\", 4096", .has_result = 1, .result = 1},
        {.line = "\r3%[pid 11757] <... futex resumed>) = 0", .kind = NR_SL_RESUMED, .pid = 11757, .name = "futex",
         .args = "", .has_result = 1, .result = 0},
        {.line = "INFO step 3[pid 9] close(3) = 0", .kind = NR_SL_SYSCALL, .pid = 9, .name = "close", .args = "3",
         .has_result = 1, .result = 0},
        {.line = "1234  1764480000.000001 ", .kind = NR_SL_BAD, .pid = 1234, .ts_form = NR_TS_UNIX,
         .ts_ns = 1764480000000001000LL, .reason = "truncated"},
        /* a cut after the ')' or the '=': the call, without a result */
        {.line = "1234  close(3)", .kind = NR_SL_SYSCALL, .pid = 1234, .name = "close", .args = "3"},
        {.line = "1234  close(3) = ", .kind = NR_SL_SYSCALL, .pid = 1234, .name = "close", .args = "3"},
        {.line = "1234  close(3) = x", .kind = NR_SL_BAD, .pid = 1234, .name = "close", .args = "3",
         .reason = "bad_result"},
        /* lines run together at a CR (a log that mixes line ends): no
           result, where until session 56 it was the first call alone */
        {.line = "1 read(3, \"a\", 1) = 1 <0.000020>\r1 read(3, \"b\", 1) = 1 <0.000030>", .kind = NR_SL_BAD,
         .pid = 1, .name = "read", .args = "3, \"a\", 1", .has_result = 1, .result = 1, .has_dur = 1, .dur_ns = 20000,
         .reason = "bad_result"},
        {.line = "1 close(3) = 0 (x)\x1b[2K", .kind = NR_SL_BAD, .pid = 1, .name = "close", .args = "3",
         .has_result = 1, .errno_text = "x", .reason = "bad_result"},
        /* text after a result that the lexer does not know: the rest of
           the line unread but for a -T duration that ends it (since
           session 58), and said (until session 57 ignored without a word) */
        {.line = "1 close(3) = 0 junk\tafter", .kind = NR_SL_SYSCALL, .pid = 1, .name = "close", .args = "3",
         .has_result = 1, .result = 0, .tail_unread = 1},
        {.line = "1 close(3) = 0 junk <0.000010>", .kind = NR_SL_SYSCALL, .pid = 1, .name = "close", .args = "3",
         .has_result = 1, .result = 0, .has_dur = 1, .dur_ns = 10000, .tail_unread = 1},
        {.line = "1 close(3) = 0 junk <0.000010> \t", .kind = NR_SL_SYSCALL, .pid = 1, .name = "close", .args = "3",
         .has_result = 1, .result = 0, .has_dur = 1, .dur_ns = 10000, .tail_unread = 1},
        {.line = "1 close(3) = 0 junk <0.000010> x", .kind = NR_SL_SYSCALL, .pid = 1, .name = "close", .args = "3",
         .has_result = 1, .result = 0, .tail_unread = 1},
        {.line = "1 close(3) = 0 junk <unavailable>", .kind = NR_SL_SYSCALL, .pid = 1, .name = "close", .args = "3",
         .has_result = 1, .result = 0, .tail_unread = 1},
        {.line = "1 close(3) = 0 <a> junk <5>", .kind = NR_SL_SYSCALL, .pid = 1, .name = "close", .args = "3",
         .has_result = 1, .result = 0, .has_dur = 1, .dur_ns = 5000000000, .tail_unread = 1},
        {.line = "1 <... close resumed>) = -1 EBADF (Bad file descriptor) [x] <0.000010>", .kind = NR_SL_RESUMED,
         .pid = 1, .name = "close", .has_result = 1, .result = -1, .errno_name = "EBADF",
         .errno_text = "Bad file descriptor", .has_dur = 1, .dur_ns = 10000, .tail_unread = 1},
        {.line = "1 close(3) = 0 <0.000010> /* c */", .kind = NR_SL_SYSCALL, .pid = 1, .name = "close", .args = "3",
         .has_result = 1, .result = 0, .has_dur = 1, .dur_ns = 10000},
        /* program text with no " = " after its ')': no strace call */
        {.line = "Epoch(1) loss=0.5", .kind = NR_SL_BAD, .name = "Epoch", .args = "1", .reason = "unknown_line"},
        {.line = "print(x)  # done", .kind = NR_SL_BAD, .name = "print", .args = "x", .reason = "unknown_line"},
        {.line = "1700 makedev(0x1, 0x3)) = 0", .kind = NR_SL_BAD, .pid = 1700, .name = "makedev",
         .args = "0x1, 0x3", .reason = "bad_result"},
        {.line = "--- SIGCHLD {si_signo=SIGCHLD, si_co", .kind = NR_SL_BAD, .reason = "truncated"},
        {.line = "+++ exited with 0", .kind = NR_SL_BAD, .reason = "truncated"},
        {.line = "+++ exited with x +++", .kind = NR_SL_BAD, .reason = "unknown_line"},
        {.line = "<... read resumed", .kind = NR_SL_BAD, .reason = "bad_resumed"},
        {.line = "<... read resumed>\"ab", .kind = NR_SL_BAD, .name = "read", .reason = "truncated"},
        {.line = "print(x)", .kind = NR_SL_SYSCALL, .name = "print", .args = "x"},
    };
    CHECK_TABLE(t);
}

/* Which ends prove that strace wrote a line whole (nr_sline_ends_whole),
 * so that a cut log's last line without newline needs no note. */
static void line_ends_whole(void **state)
{
    static const struct {
        const char *line;
        int whole;
    } t[] = {
        {"1234  read(3, \"abc\", 4096) = 3 <0.000010>", 1},
        {"1234  read(3, \"abc\", 4096) = 3 <0.000010> \r", 1},
        {"1234  read(3, \"abc\", 4096) = 3 <12.5>", 1},
        {"1234  read(3, \"abc\", 4096) = 3 <0.00001", 0},
        {"1234  read(3, \"abc\", 4096) = 3 <unavailable>", 1},
        {"1234  read(3, \"abc\", 4096) = 3 <unavail", 0},
        {"1234  read(3, \"abc\", 4096) = 3", 0},
        {"1234  read(3, \"abc\", 4096) = ", 0},
        {"1234  read(3, \"abc\", 4096)", 0},
        {"1234  read(3, \"abc", 0},
        {"1234  openat(AT_FDCWD, \"/dev/pts/0\", O_RDWR) = 3</dev/pts/0<char 136:0>>", 0},
        {"1234  openat(AT_FDCWD, \"/x\", O_RDONLY) = -1 ENOENT (No such file or directory)", 1},
        {"1234  openat(AT_FDCWD, \"/x\", O_RDONLY) = -1 ENOENT (No such file", 0},
        {"1234  openat(AT_FDCWD, \"/x\", O_RDONLY) = -1 ENOENT", 0},
        {"1234  poll([{fd=3, events=POLLIN}], 1, 0) = 1 ([{fd=3, revents=POLLIN}])", 1},
        {"1234  poll([{fd=3, events=POLLIN}], 1, 0) = 1 ([{fd=3, revents=POLLIN}]", 0},
        {"1234  read(3,  <unfinished ...>", 1},
        {"[pid  1234] <... read resumed>\"abc\", 4096) = 3 <0.000010>", 1},
        {"[pid  1234] <... read resumed>\"abc\", 4096) = 3", 0},
        {"NULL, 8) = 0 <0.000013>", 1},
        {"NULL, 8) = 0", 0},
        {"clone(child_stack=NULL, flags=SIGCHLDstrace: Process 5 attached", 0},
        {"1234  +++ exited with 0 +++", 1},
        {"1234  +++ killed by SIGKILL +++", 1},
        {"1234  --- SIGCHLD {si_signo=SIGCHLD} ---", 1},
        {"strace: Process 5 attached", 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        nr_sline s;
        nr_sline_parse(t[i].line, strlen(t[i].line), &s);
        if (nr_sline_ends_whole(&s, t[i].line, strlen(t[i].line)) != t[i].whole)
            fail_msg("%s: whole %d, want %d", t[i].line, !t[i].whole, t[i].whole);
    }
}

/* The parser must not read outside [line, line+len): each prefix of a line
 * is copied into an exact-size heap block (ASan catches over-reads). */
static void every_prefix_stays_in_bounds(void **state)
{
    static const char *const lines[] = {
        "11788 1796013689.094583 openat(AT_FDCWD</tmp/lx>, \"we\\\"ird>na)me,x\", O_RDONLY) = 3</tmp/lx/we\\\"ird\\76na)me,x> <0.000018>",
        "[pid 11842] 04:41:34.490673 <... rt_sigprocmask resumed>NULL, 8) = 0 <0.000013>",
        "11800 04:41:29 (+     0.000411) brk(NULL) = 0x55d9dc5b7000",
        "openat(AT_FDCWD, \"/dev/pts/0\", O_RDWR) = 3</dev/pts/0<char 136:0>> <0.000010>",
        "[pid 99] +++ killed by SIGSEGV (core dumped) +++",
        " | 00000  7f 45 4c 46  .ELF |",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        size_t n = strlen(lines[i]);
        for (size_t k = 0; k <= n; k++) {
            char *copy = malloc(k ? k : 1);
            assert_non_null(copy);
            memcpy(copy, lines[i], k);
            nr_sline s;
            nr_sline_parse(copy, k, &s);
            assert_true(s.kind <= NR_SL_BAD);
            nr_span args = s.args;
            for (unsigned a = 0; a < nr_sarg_count(args); a++) {
                nr_span arg = nr_sarg(args, a);
                int64_t v;
                nr_span annot;
                char buf[64];
                int cut;
                (void)nr_sarg_fd(arg, &v, &annot);
                (void)nr_sarg_int(arg, &v);
                (void)nr_sarg_has_flag(arg, "O_CLOEXEC", 0x80000);
                (void)nr_sarg_unquote(arg, buf, sizeof buf, &cut);
            }
            (void)nr_sline_ends_whole(&s, copy, k);
            free(copy);
        }
    }
}

/* ---- argument helpers ---- */

static nr_span sp(const char *s)
{
    nr_span x = {s, strlen(s)};
    return x;
}

static void sarg_split(void **state)
{
    nr_span a = sp("AT_FDCWD</tmp/a,b>, \"x,\\\"y)\", O_RDONLY|O_CLOEXEC, {st_mode=S_IFREG, st_size=1}, [1, 2]");
    assert_int_equal(nr_sarg_count(a), 5);
    assert_true(span_is(nr_sarg(a, 0), "AT_FDCWD</tmp/a,b>"));
    assert_true(span_is(nr_sarg(a, 1), "\"x,\\\"y)\""));
    assert_true(span_is(nr_sarg(a, 2), "O_RDONLY|O_CLOEXEC"));
    assert_true(span_is(nr_sarg(a, 3), "{st_mode=S_IFREG, st_size=1}"));
    assert_true(span_is(nr_sarg(a, 4), "[1, 2]"));
    assert_int_equal(nr_sarg(a, 5).n, 0);
    assert_int_equal(nr_sarg_count(sp("")), 0);
    assert_int_equal(nr_sarg_count(sp("   ")), 0);
    assert_int_equal(nr_sarg_count(sp("3")), 1);
    /* the args of an unfinished call keep their trailing ", " */
    assert_int_equal(nr_sarg_count(sp("SIG_SETMASK, [], ")), 2);
    assert_true(span_is(nr_sarg(sp("SIG_SETMASK, [], "), 1), "[]"));
    assert_int_equal(nr_sarg(sp("SIG_SETMASK, [], "), 2).n, 0);
    /* -yy TCP arrows and nested device annotations do not end the annotation */
    nr_span b = sp("3<TCP:[1.2.3.4:5->6.7.8.9:10]>, 4</dev/pts/0<char 136:0>>, 5");
    assert_int_equal(nr_sarg_count(b), 3);
    assert_true(span_is(nr_sarg(b, 1), "4</dev/pts/0<char 136:0>>"));
    assert_true(span_is(nr_sarg(b, 2), "5"));
}

static void sarg_fd_forms(void **state)
{
    static const struct {
        const char *arg;
        int rc;
        int64_t fd;
        const char *annot;
    } t[] = {
        {"3", 0, 3, ""},
        {" 3 ", 0, 3, ""},
        {"3</path>", 0, 3, "/path"},
        {"3</tmp/lx/we\\\"ird\\76na)me,x>", 0, 3, "/tmp/lx/we\\\"ird\\76na)me,x"},
        {"3<socket:[1234]>", 0, 3, "socket:[1234]"},
        {"3<TCP:[1.2.3.4:5->6.7.8.9:10]>", 0, 3, "TCP:[1.2.3.4:5->6.7.8.9:10]"},
        {"3</dev/pts/0<char 136:0>>", 0, 3, "/dev/pts/0"},
        {"3<anon_inode:[eventfd]>", 0, 3, "anon_inode:[eventfd]"},
        {"13</dev/shm/torch_1_2_0>(deleted)", 0, 13, "/dev/shm/torch_1_2_0"}, /* strace 6.1: unlinked */
        {"13</dev/shm/x>(deleted) ", 0, 13, "/dev/shm/x"},
        {"13</dev/shm/x>(gone)", -1, 0, ""},
        {"AT_FDCWD", 0, -100, ""},
        {"AT_FDCWD</cwd>", 0, -100, "/cwd"},
        {"-100", 0, -100, ""},
        {"-100</tmp/lx>", 0, -100, "/tmp/lx"},
        {"-100 /* AT_FDCWD */</tmp/lx>", 0, -100, "/tmp/lx"},
        {"0xffffff9c", 0, -100, ""},
        {"0xffffff9c /* AT_FDCWD */", 0, -100, ""},
        {"-1", 0, -1, ""},
        {"\"/etc/passwd\"", -1, 0, ""},
        {"NULL", -1, 0, ""},
        {"O_RDONLY", -1, 0, ""},
        {"3</unterminated", -1, 0, ""},
        {"3x", -1, 0, ""},
        {"", -1, 0, ""},
        {"99999999999", -1, 0, ""},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int64_t fd = 12345;
        nr_span annot = {NULL, 99};
        int rc = nr_sarg_fd(sp(t[i].arg), &fd, &annot);
        if (rc != t[i].rc)
            fail_msg("nr_sarg_fd(%s) returned %d, want %d", t[i].arg, rc, t[i].rc);
        if (rc == 0) {
            if (fd != t[i].fd)
                fail_msg("nr_sarg_fd(%s): fd %lld, want %lld", t[i].arg, (long long)fd, (long long)t[i].fd);
            if (!span_is(annot, t[i].annot))
                fail_msg("nr_sarg_fd(%s): annot \"%.*s\", want \"%s\"", t[i].arg, (int)annot.n, annot.p,
                         t[i].annot);
        }
        /* the same text as the first argument of a call, through the one-pass helper */
        static const char *const frames[] = {"%s", " %s, 5", "%s\t ,\"x,y\"", "%s,"};
        for (size_t f = 0; f < sizeof frames / sizeof frames[0]; f++) {
            char args[128];
            snprintf(args, sizeof args, frames[f], t[i].arg);
            int64_t fd_at = 12345;
            nr_span annot_at = {NULL, 99};
            int want = t[i].rc;
            int rc_at = nr_sarg_fd_at(sp(args), 0, &fd_at, &annot_at);
            if (rc_at != want)
                fail_msg("nr_sarg_fd_at(\"%s\", 0) returned %d, want %d", args, rc_at, want);
            if (rc_at == 0 && (fd_at != t[i].fd || !span_is(annot_at, t[i].annot)))
                fail_msg("nr_sarg_fd_at(\"%s\", 0): fd %lld annot \"%.*s\", want %lld \"%s\"", args,
                         (long long)fd_at, (int)annot_at.n, annot_at.p, (long long)t[i].fd, t[i].annot);
        }
    }
    int64_t fd = 0;
    nr_span annot;
    assert_int_equal(nr_sarg_fd_at(sp("3 1, 2"), 0, &fd, &annot), -1);
    assert_int_equal(nr_sarg_fd_at(sp("1<<2, 3"), 0, &fd, &annot), -1);
    assert_int_equal(nr_sarg_fd_at(sp("\"a,b\", 7</x>, 2"), 1, &fd, &annot), 0);
    assert_int_equal(fd, 7);
    assert_true(span_is(annot, "/x"));
}

static void sarg_int_forms(void **state)
{
    static const struct {
        const char *arg;
        int rc;
        int64_t v;
    } t[] = {
        {"4096", 0, 4096},   {"-1", 0, -1},        {"0x1f", 0, 31},       {"0644", 0, 420},
        {"0", 0, 0},         {"[123]", 0, 123},    {"[3, 4]", 0, 3},      {"0x80000 /* O_CLOEXEC */", 0, 0x80000},
        {"3</p>", 0, 3},     {"9223372036854775807", 0, INT64_MAX},   {"-9223372036854775808", 0, INT64_MIN},
        {"18446744073709551616", -1, 0},      {"NULL", -1, 0},       {"\"12\"", -1, 0},
        {"12abc", -1, 0},    {"1.5", -1, 0},       {"", -1, 0},           {"0xffffffffffffffff", 0, -1},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int64_t v = 777;
        int rc = nr_sarg_int(sp(t[i].arg), &v);
        if (rc != t[i].rc)
            fail_msg("nr_sarg_int(%s) returned %d, want %d", t[i].arg, rc, t[i].rc);
        if (rc == 0 && v != t[i].v)
            fail_msg("nr_sarg_int(%s) = %lld, want %lld", t[i].arg, (long long)v, (long long)t[i].v);
    }
}

static void sarg_flags_abbrev_verbose_raw(void **state)
{
    assert_true(nr_sarg_has_flag(sp("O_RDONLY|O_CLOEXEC"), "O_CLOEXEC", 0x80000));
    assert_true(nr_sarg_has_flag(sp("O_WRONLY|O_CREAT|O_TRUNC"), "O_CREAT", 0x40));
    assert_false(nr_sarg_has_flag(sp("O_WRONLY|O_CREAT|O_TRUNC"), "O_CLOEXEC", 0x80000));
    assert_false(nr_sarg_has_flag(sp("O_RDONLY|O_CREATX"), "O_CREAT", 0x40)); /* whole names only */
    assert_true(nr_sarg_has_flag(sp("0x80000 /* O_RDONLY|O_CLOEXEC */"), "O_CLOEXEC", 0x80000)); /* verbose */
    assert_true(nr_sarg_has_flag(sp("0x80000"), "O_CLOEXEC", 0x80000));    /* raw */
    assert_true(nr_sarg_has_flag(sp("0x80241"), "O_CREAT", 0x40));         /* raw */
    assert_false(nr_sarg_has_flag(sp("0x80201"), "O_CREAT", 0x40));        /* raw */
    assert_false(nr_sarg_has_flag(sp("0"), "O_CLOEXEC", 0x80000));
    assert_true(nr_sarg_has_flag(sp("O_RDONLY|0x80000"), "O_CLOEXEC", 0x80000)); /* leftover bits */
    assert_false(nr_sarg_has_flag(sp("O_RDONLY|O_CLOEXEC"), "O_CREAT", 0)); /* raw_bit 0 tests nothing */
    assert_true(nr_sarg_has_flag(sp("FD_CLOEXEC"), "FD_CLOEXEC", 1));
    assert_true(nr_sarg_has_flag(sp("1"), "FD_CLOEXEC", 1));
    assert_false(nr_sarg_has_flag(sp(""), "O_CLOEXEC", 0x80000));
}

static void sarg_unquote_escapes(void **state)
{
    char buf[64];
    int cut = -1;
    assert_int_equal(nr_sarg_unquote(sp("\"hello\\n\""), buf, sizeof buf, &cut), 6);
    assert_memory_equal(buf, "hello\n", 7);
    assert_int_equal(cut, 0);

    /* every escape strace writes: \" \\ \n \t \r \v \f, octal and hex */
    static const char want[] = {'"', '\\', '\n', '\t', '\r', '\v', '\f', 0, 7, (char)0377, '>',
                                (char)0xab, 'A', '\0', '1'};
    long n = nr_sarg_unquote(sp("\"\\\"\\\\\\n\\t\\r\\v\\f\\0\\7\\377\\76\\xab\\x41\\0001\""), buf, sizeof buf, &cut);
    assert_int_equal(n, (long)sizeof want);
    assert_memory_equal(buf, want, sizeof want);
    assert_int_equal(buf[n], '\0');

    /* -s truncation */
    assert_int_equal(nr_sarg_unquote(sp("\"abc\"..."), buf, sizeof buf, &cut), 3);
    assert_string_equal(buf, "abc");
    assert_int_equal(cut, 1);

    /* a -y annotation, unquoted, with escapes: the original file name bytes */
    assert_int_equal(nr_sarg_unquote(sp("/tmp/lx/we\\\"ird\\76na)me,x"), buf, sizeof buf, &cut), 22);
    assert_string_equal(buf, "/tmp/lx/we\"ird>na)me,x");
    assert_int_equal(cut, 0);

    /* non-UTF-8 bytes pass through as they are */
    assert_int_equal(nr_sarg_unquote(sp("\"\xff\xfe/\\xc3\\x28\""), buf, sizeof buf, &cut), 5);
    assert_memory_equal(buf, "\xff\xfe/\xc3\x28", 5);

    /* dst too small: cut to dst_cap - 1 bytes, NUL-terminated */
    char small[4];
    assert_int_equal(nr_sarg_unquote(sp("\"abcdef\""), small, sizeof small, &cut), 3);
    assert_string_equal(small, "abc");

    assert_int_equal(nr_sarg_unquote(sp("\"\""), buf, sizeof buf, &cut), 0);
    assert_string_equal(buf, "");

    /* malformed */
    assert_int_equal(nr_sarg_unquote(sp("\"abc"), buf, sizeof buf, &cut), -1);
    assert_int_equal(nr_sarg_unquote(sp("\"a\\q\""), buf, sizeof buf, &cut), -1);
    assert_int_equal(nr_sarg_unquote(sp("\"a\\"), buf, sizeof buf, &cut), -1);
    assert_int_equal(nr_sarg_unquote(sp("\"a\\xg\""), buf, sizeof buf, &cut), -1);
    assert_int_equal(nr_sarg_unquote(sp("\"a\\777\""), buf, sizeof buf, &cut), -1);
    assert_int_equal(nr_sarg_unquote(sp("\"a\"b"), buf, sizeof buf, &cut), -1);
}

/* ---- captured logs ---- */

typedef struct kind_counts {
    unsigned n[NR_SL_BAD + 1];
} kind_counts;

static kind_counts count_file(const char *name)
{
    const char *src = getenv("NR_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/ingest_line/data/%s", src ? src : ".", name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    kind_counts c = {{0}};
    static char line[1 << 16];
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n')
            n--;
        nr_sline s;
        nr_sline_parse(line, n, &s);
        c.n[s.kind]++;
        if (s.kind == NR_SL_BAD)
            fprintf(stderr, "BAD (%s): %s", s.reason, line);
    }
    fclose(f);
    return c;
}

/* Counts from grep over the files (see data/README.md), not from the lexer. */
static void captured_f_o_ttt_T_yy(void **state)
{
    kind_counts c = count_file("strace61_f_o_ttt_T_yy.log");
    assert_int_equal(c.n[NR_SL_UNFINISHED], 9); /* grep -c 'unfinished ...>$' */
    assert_int_equal(c.n[NR_SL_RESUMED], 11);   /* grep -c ' <\.\.\. [a-z0-9_]* resumed>' */
    assert_int_equal(c.n[NR_SL_SIGNAL], 3);     /* grep -c ' --- SIG' */
    assert_int_equal(c.n[NR_SL_EXITED], 2);     /* grep -c 'exited with' */
    assert_int_equal(c.n[NR_SL_KILLED], 1);     /* grep -c 'killed by' */
    assert_int_equal(c.n[NR_SL_SYSCALL], 48);   /* 74 lines - 26 above */
    assert_int_equal(c.n[NR_SL_BAD], 0);
}

static void captured_stderr_tt_T(void **state)
{
    kind_counts c = count_file("strace61_stderr_tt_T.log");
    assert_int_equal(c.n[NR_SL_UNFINISHED], 9); /* 6 "<unfinished ...>$" after a call + 3 "attached$" */
    assert_int_equal(c.n[NR_SL_RESUMED], 8);    /* 6 "resumed>" + 2 tails of split calls */
    assert_int_equal(c.n[NR_SL_CONTINUATION], 1); /* " <unfinished ...>" alone */
    assert_int_equal(c.n[NR_SL_SIGNAL], 3);
    assert_int_equal(c.n[NR_SL_EXITED], 1);
    assert_int_equal(c.n[NR_SL_KILLED], 1);
    assert_int_equal(c.n[NR_SL_SYSCALL], 33);
    assert_int_equal(c.n[NR_SL_BAD], 0);
}

static void captured_flags(void **state)
{
    kind_counts c = count_file("strace61_flags.log");
    assert_int_equal(c.n[NR_SL_CONTINUATION], 5); /* 2 hex dump + 3 -k frames */
    assert_int_equal(c.n[NR_SL_SUMMARY], 6);
    assert_int_equal(c.n[NR_SL_EXITED], 1);
    assert_int_equal(c.n[NR_SL_SYSCALL], 34);
    assert_int_equal(c.n[NR_SL_BAD], 0);
}

/* The lexer's syscall_ref on a long -ttt call line (its fast path) for
 * every name in the syscall table, for names that are not, and for a short
 * line (not looked up). */
static void syscall_ref_of_names(void **state)
{
    (void)state;
    char line[256];
    nr_sline sl;
    for (size_t i = 0; i < nr_syscall_count(); i++) {
        const char *name = nr_syscall_at(i)->name;
        int n = snprintf(line, sizeof line,
                         "4242 1764480000.123456 %s(3</data/imagenet/train/n01440764/x.JPEG>, 4096) = 0 <0.000001>", name);
        nr_sline_parse(line, (size_t)n, &sl);
        assert_int_equal(sl.kind, NR_SL_SYSCALL);
        if (strlen(name) <= 15)
            assert_int_equal(sl.syscall_ref, NR_SLINE_SYSCALL_FIRST + i);
        else /* 16 bytes and more: not the fast path's */
            assert_int_equal(sl.syscall_ref, NR_SLINE_SYSCALL_UNSET);
    }
    static const char *const unknown[] = {"r", "rea", "reads", "readx", "pread6", "pread644", "close_rang",
                                          "clock_nanosleeq", "_", "x12345678", "openat2x"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        int n = snprintf(line, sizeof line,
                         "4242 1764480000.123456 %s(3</data/imagenet/train/n01440764/x.JPEG>, 4096) = 0 <0.000001>",
                         unknown[i]);
        nr_sline_parse(line, (size_t)n, &sl);
        assert_int_equal(sl.kind, NR_SL_SYSCALL);
        assert_int_equal(sl.syscall_ref, NR_SLINE_SYSCALL_NONE);
    }
    const char *shortline = "42 read(3, \"\", 1) = 0";
    nr_sline_parse(shortline, strlen(shortline), &sl);
    assert_int_equal(sl.kind, NR_SL_SYSCALL);
    assert_int_equal(sl.syscall_ref, NR_SLINE_SYSCALL_UNSET);
}

/* A line of many "[pid " (program output, or garbage): lexed from at most
 * a few of them, once each. The first version lexed each again from the
 * ones after it: 60 of them took minutes (exponential). */
static void many_pid_prefixes_in_a_line(void **state)
{
    char line[4096];
    size_t n = 0;
    for (int i = 0; i < 400; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, "[pid 1] x");
    nr_sline sl;
    nr_sline_parse(line, n, &sl);
    assert_int_equal(sl.kind, NR_SL_BAD);
    assert_int_equal(sl.pid, 1);
    /* the fifth "[pid " is not looked at: the text before it stays unknown */
    n = (size_t)snprintf(line, sizeof line, "a[pid x] b[pid x] c[pid x] d[pid x] e[pid 7] close(3) = 0");
    nr_sline_parse(line, n, &sl);
    assert_int_equal(sl.kind, NR_SL_BAD);
    n = (size_t)snprintf(line, sizeof line, "a[pid x] b[pid x] c[pid x] d[pid 7] close(3) = 0");
    nr_sline_parse(line, n, &sl);
    assert_int_equal(sl.kind, NR_SL_SYSCALL);
    assert_int_equal(sl.pid, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pid_prefix_forms),
        cmocka_unit_test(timestamp_forms),
        cmocka_unit_test(results_and_durations),
        cmocka_unit_test(unfinished_and_resumed),
        cmocka_unit_test(signals_exits_notices),
        cmocka_unit_test(summary_continuation_blank),
        cmocka_unit_test(bad_and_truncated),
        cmocka_unit_test(many_pid_prefixes_in_a_line),
        cmocka_unit_test(line_ends_whole),
        cmocka_unit_test(every_prefix_stays_in_bounds),
        cmocka_unit_test(sarg_split),
        cmocka_unit_test(sarg_fd_forms),
        cmocka_unit_test(sarg_int_forms),
        cmocka_unit_test(sarg_flags_abbrev_verbose_raw),
        cmocka_unit_test(sarg_unquote_escapes),
        cmocka_unit_test(captured_f_o_ttt_T_yy),
        cmocka_unit_test(captured_stderr_tt_T),
        cmocka_unit_test(captured_flags),
        cmocka_unit_test(syscall_ref_of_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
