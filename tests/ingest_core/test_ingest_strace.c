/* Smoke test under the real strace: io_prog does known I/O; niorep's
 * per-file totals must match what the program did. Skips (77) without strace
 * or when ptrace is not permitted. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "ingest_check.h"
#include "nr_schema.h"
#include "procmodel.h"

static int run_strace_prog(const char *run_dir, const char *data_dir, const char *flags, const char *prog)
{
    char cmd[4096];
    /* LeakSanitizer (in sanitizer builds) cannot run under ptrace: off for the traced program */
    snprintf(cmd, sizeof cmd, "ASAN_OPTIONS=detect_leaks=0 %s %s -o %s/strace.log %s %s >/dev/null 2>&1", NR_STRACE_PATH, flags, run_dir,
             prog, data_dir);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Traces prog with strace flags into a fresh r->dir/run (its data in
 * r->dir/data, both to cap bytes in run and data) and ingests the run;
 * skips the test (77) when strace cannot trace here. */
static void trace_and_ingest(ck_run *r, char *run, char *data, size_t cap, const char *flags, const char *prog)
{
    memset(r, 0, sizeof *r);
    ck_tmpdir(r->dir, sizeof r->dir);
    snprintf(run, cap, "%s/run", r->dir);
    snprintf(data, cap, "%s/data", r->dir);
    mkdir(run, 0700);
    mkdir(data, 0700);
    if (run_strace_prog(run, data, flags, prog) != 0) {
        fprintf(stderr, "strace %s failed (ptrace or openat2 not permitted?): skipping\n", flags);
        exit(77);
    }
    ck_ingest(r, run, NULL);
    if (r->rc != 0)
        fail_msg("ingest: %s", r->err.msg);
}

static void check_totals(const char *flags, const char *data_dir_in_trace_cwd)
{
    ck_run r;
    char run[400], data[400];
    trace_and_ingest(&r, run, data, sizeof run, flags, NR_IO_PROG);
    /* the model's fast path of the commonest fd calls changes no byte */
    ck_run general;
    memset(&general, 0, sizeof general);
    ck_tmpdir(general.dir, sizeof general.dir);
    nr__pm_no_fast_path(1);
    ck_ingest(&general, run, NULL);
    nr__pm_no_fast_path(0);
    assert_true(ck_same_store(&r, &general));
    ck_free(&general);
    char path[512];
    snprintf(path, sizeof path, "%s/data.bin", data);
    char *real = realpath(path, NULL); /* -y prints the canonical path */
    assert_non_null(real);
    assert_int_equal(ck_file(&r, real, "bytes_written"), 3000);
    assert_int_equal(ck_file(&r, real, "write_calls"), 3);
    /* reads: 700 x 4 + 200 + 0 (EOF) by the parent, pread 10, child 300 */
    assert_int_equal(ck_file(&r, real, "bytes_read"), 3000 + 10 + 300);
    assert_int_equal(ck_file(&r, real, "read_calls"), 6 + 1 + 1);
    assert_int_equal(ck_file(&r, real, "open_calls"), 2);
    assert_int_equal(ck_file(&r, real, "kind"), NR_KIND_REGULAR);
    snprintf(path, sizeof path, "%s/missing.bin", data);
    free(real);
    real = realpath(data, NULL);
    snprintf(path, sizeof path, "%s/missing.bin", real);
    assert_int_equal(ck_file(&r, path, "open_calls"), 1);
    free(real);
    /* the child read at offset 0 (after the parent's lseek), through the inherited fd */
    int child_reads = 0;
    for (size_t i = 0; i < r.events.nrows; i++) {
        if (strcmp(ck_str(&r.events, i, "syscall"), "read") == 0 && ck_i64(&r.events, i, "bytes") == 300) {
            assert_int_equal(ck_i64(&r.events, i, "offset"), 0);
            child_reads++;
        }
    }
    assert_int_equal(child_reads, 1);
    assert_true(r.processes.nrows >= 2);
    assert_string_equal(ck_meta(&r, "lines_skipped"), "0");
    (void)data_dir_in_trace_cwd;
    ck_free(&r);
}

/* strace -ff -r: one log per process, each with -r stamps that add up
 * from its own first line, so the child's small stamps cannot be merged
 * against the parent's (they put the child's writes before the fork that
 * made it: no fd, no cwd; review 39). The logs go one after the other,
 * parents first, and a diagnostic says the order is inferred. */
static void strace_ff_r_fork(void **state)
{
    (void)state;
    ck_run r;
    char run[400], data[400];
    ck_run_dir(&r, run, sizeof run);
    snprintf(data, sizeof data, "%s/data", r.dir);
    mkdir(data, 0700);
    if (run_strace_prog(run, data, "-ff -r", NR_FORK_PROG) != 0) {
        fprintf(stderr, "strace -ff -r failed (ptrace not permitted?): skipping\n");
        exit(77);
    }
    ck_ingest(&r, run, NULL);
    if (r.rc != 0)
        fail_msg("ingest: %s", r.err.msg);
    char a[512], b[512]; /* without -y: the paths as the program's chdir and opens gave them */
    snprintf(a, sizeof a, "%s/a.bin", data);
    snprintf(b, sizeof b, "%s/b.bin", data);
    assert_int_equal(ck_file(&r, a, "bytes_written"), 100 + 7 + 50);
    assert_int_equal(ck_file(&r, a, "write_calls"), 3);
    assert_int_equal(ck_file(&r, b, "bytes_written"), 200);
    assert_int_equal(ck_file(&r, b, "write_calls"), 1);
    assert_int_equal(ck_diag(&r, "order_inferred"), 1);
    assert_int_equal(ck_diag(&r, "no_timestamps"), 0);
    assert_int_equal(ck_diag(&r, NR_DIAG_RELATIVE_TIMES), 1); /* strace's one "previous call" stamp */
    assert_string_equal(ck_meta(&r, "time_base"), "relative");
    assert_string_equal(ck_meta(&r, "log_files"), "2");
    assert_int_equal(r.processes.nrows, 2); /* the child is the fork's, not a task of its own */
    const size_t child = ck_i64(&r.processes, 0, "ppid") >= 0 ? 0 : 1;
    assert_int_equal(ck_i64(&r.processes, child, "ppid"), ck_i64(&r.processes, 1 - child, "pid"));
    ck_free(&r);
}

/* Whether the log at path has an unprefixed clone line cut by its
 * child's attach notice and finished by its tail on the next line
 * ("clone(...SIGCHLDstrace: Process N attached", ", child_tidptr=...) = N"),
 * not by " <unfinished ...>" and a prefixed "<... clone resumed>". */
static int has_cut_clone(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[8192];
    int cut = 0, after_cut = 0;
    while (!cut && fgets(line, sizeof line, f)) {
        cut = after_cut && strncmp(line, ", ", 2) == 0;
        after_cut = strncmp(line, "clone", 5) == 0 && strstr(line, "strace: Process ") != NULL;
    }
    fclose(f);
    return cut;
}

/* Traces fork_prog with strace -f to stderr into run/strace.log, again
 * until the clone line is cut by the child's attach notice and finished by
 * its tail (about half of the runs with strace 6.1; at most 20 tries): 0,
 * or the failed strace's status. */
static int run_strace_stderr(const char *run, const char *data)
{
    char cmd[4096], log[512];
    snprintf(cmd, sizeof cmd, "ASAN_OPTIONS=detect_leaks=0 %s -f %s %s >/dev/null 2>%s/strace.log", NR_STRACE_PATH,
             NR_FORK_PROG, data, run);
    snprintf(log, sizeof log, "%s/strace.log", run);
    for (int tries = 0; tries < 20; tries++) {
        const int rc = system(cmd);
        if (!WIFEXITED(rc) || WEXITSTATUS(rc) != 0)
            return rc ? rc : -1;
        if (has_cut_clone(log))
            return 0;
    }
    fprintf(stderr, "no run with a cut clone line in 20: checking the last\n");
    return 0;
}

/* strace -f to stderr (no -o): the first process's lines carry no pid
 * until it forks, and the child's attach notice may cut its clone line
 * in two, the tail on the next line. The first process keeps its own
 * pid (review 39 t3: it was split into pid 0 and its pid, the parent of
 * neither) and is the child's parent. */
static void strace_f_stderr_fork(void **state)
{
    (void)state;
    ck_run r;
    char run[400], data[400];
    ck_run_dir(&r, run, sizeof run);
    snprintf(data, sizeof data, "%s/data", r.dir);
    mkdir(data, 0700);
    if (run_strace_stderr(run, data) != 0) {
        fprintf(stderr, "strace -f to stderr failed (ptrace not permitted?): skipping\n");
        exit(77);
    }
    ck_ingest(&r, run, NULL);
    if (r.rc != 0)
        fail_msg("ingest: %s", r.err.msg);
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/a.bin", data);
    snprintf(b, sizeof b, "%s/b.bin", data);
    assert_int_equal(ck_file(&r, a, "bytes_written"), 157);
    assert_int_equal(ck_file(&r, b, "bytes_written"), 200);
    /* the parent's write while the child sleeps names it: [pid N] */
    assert_int_equal(ck_proc_row(&r, 0), -1);
    size_t processes = 0, children = 0;
    for (size_t i = 0; i < r.processes.nrows; i++) {
        if (ck_i64(&r.processes, i, "is_thread"))
            continue;
        processes++;
        const int64_t ppid = ck_i64(&r.processes, i, "ppid");
        children += ppid >= 0 && ck_proc_row(&r, ppid) >= 0;
    }
    assert_int_equal(processes, 2);
    assert_int_equal(children, 1);
    assert_int_equal(ck_diag(&r, "unmatched_resumed"), 0);
    assert_int_equal(ck_diag(&r, "never_resumed"), 0);
    ck_free(&r);
}

/* The pid that the log's first set_tid_address returned (the first
 * process's), and whether a line of the log starts with "[pid N]" for
 * it: *pid -1 when there is none. */
static int names_first_pid(const char *path, long *pid)
{
    FILE *f = fopen(path, "r");
    *pid = -1;
    if (!f)
        return 0;
    char line[8192];
    int named = 0;
    while (fgets(line, sizeof line, f)) {
        const char *eq = strrchr(line, '=');
        if (*pid < 0 && strncmp(line, "set_tid_address(", 16) == 0 && eq)
            *pid = strtol(eq + 1, NULL, 10);
        long p;
        if (*pid > 0 && sscanf(line, "[pid %ld]", &p) == 1 && p == *pid)
            named = 1;
    }
    fclose(f);
    return named;
}

/* Traces quiet_fork_prog with strace -f `flags` to stderr into
 * run/strace.log, again until no [pid N] line names the first process
 * (most runs with strace 6.1; at most 20 tries): 0, or the failed
 * strace's status. *pid: what its set_tid_address returned (-1 none). */
static int run_strace_quiet(const char *run, const char *data, const char *flags, long *pid)
{
    char cmd[4096], log[512];
    snprintf(cmd, sizeof cmd, "ASAN_OPTIONS=detect_leaks=0 %s -f %s %s %s >/dev/null 2>%s/strace.log", NR_STRACE_PATH,
             flags, NR_QUIET_FORK_PROG, data, run);
    snprintf(log, sizeof log, "%s/strace.log", run);
    for (int tries = 0; tries < 20; tries++) {
        const int rc = system(cmd);
        if (!WIFEXITED(rc) || WEXITSTATUS(rc) != 0)
            return rc ? rc : -1;
        if (!names_first_pid(log, pid))
            return 0;
    }
    fprintf(stderr, "no run whose first process is never named in 20: checking the last\n");
    return 0;
}

/* strace -f to stderr of a first process that makes no call while its
 * child runs: no [pid N] line names it (its clone's tail comes unprefixed,
 * its next lines after the child exited). Its pid is the one its own
 * set_tid_address returned, not 0 (until session 40 it was pid 0, its
 * child's parent, without a word). With -e trace=chdir,openat,write,close hiding set_tid_address
 * and the clone, the log names it nowhere: it stays pid 0, said by
 * root_pid_unknown, and the child (named by its attach notice) is no
 * longer taken for it (until session 40 the two were one process). */
static void strace_f_stderr_first_never_named(void **state)
{
    (void)state;
    for (int filtered = 0; filtered < 2; filtered++) {
        ck_run r;
        char run[400], data[400];
        ck_run_dir(&r, run, sizeof run);
        snprintf(data, sizeof data, "%s/data", r.dir);
        mkdir(data, 0700);
        long root;
        if (run_strace_quiet(run, data, filtered ? "-e trace=chdir,openat,write,close" : "", &root) != 0) {
            fprintf(stderr, "strace -f to stderr failed (ptrace not permitted?): skipping\n");
            exit(77);
        }
        ck_ingest(&r, run, NULL);
        if (r.rc != 0)
            fail_msg("ingest: %s", r.err.msg);
        char a[512];
        snprintf(a, sizeof a, "%s/a.bin", data);
        assert_int_equal(r.processes.nrows, 2);
        if (!filtered) {
            assert_true(root > 0);
            assert_int_equal(ck_file(&r, a, "bytes_written"), 157);
            assert_int_equal(ck_proc_row(&r, 0), -1);
            const long first = ck_proc_row(&r, root);
            assert_true(first >= 0);
            assert_int_equal(ck_i64(&r.processes, (size_t)(1 - first), "ppid"), root);
            assert_int_equal(ck_diag(&r, "root_pid_unknown"), 0);
        } else {
            assert_int_equal(root, -1);
            const long first = ck_proc_row(&r, 0);
            assert_true(first >= 0);
            assert_int_equal(ck_i64(&r.processes, (size_t)(1 - first), "events"), 1); /* its write */
            /* the child's write: no clone in the log, no inherited fd 3 */
            assert_int_equal(ck_file(&r, a, "bytes_written"), 150);
            assert_int_equal(ck_file(&r, a, "write_calls"), 2);
            assert_int_equal(ck_diag(&r, "root_pid_unknown"), 1);
        }
        assert_int_equal(ck_diag(&r, "unmatched_resumed"), 0);
        assert_int_equal(ck_diag(&r, "never_resumed"), 0);
        ck_free(&r);
    }
}

/* The fd changes review 45 found the model missed (fd_semantics_prog.c),
 * traced without -y (the fd tables alone name the files) and with -X raw:
 * every file's bytes as the program wrote them, the read after a splice
 * at 300, the appending pwrite and openat2 write at an unknown offset. */
static void strace_fd_semantics(void **state)
{
    (void)state;
    static const char *const forms[] = {"-f", "-f -X raw", "-f -ttt -T -y"};
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        ck_run r;
        char run[400], data[400], path[600];
        trace_and_ingest(&r, run, data, sizeof run, forms[f], NR_FD_SEMANTICS_PROG);
        char *real = realpath(data, NULL);
        assert_non_null(real);
        static const struct { const char *name, *column; int64_t bytes; } want[] = {
            {"x.txt", "bytes_written", 43}, {"s.txt", "bytes_read", 310}, {"a.txt", "bytes_written", 110},
            {"o.txt", "bytes_written", 7},  {"keep.txt", "bytes_written", 9}, {"thr.txt", "bytes_written", 5},
        };
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            snprintf(path, sizeof path, "%s/%s", real, want[i].name);
            if (ck_file(&r, path, want[i].column) != want[i].bytes)
                fail_msg("strace %s: %s %s = %lld, want %lld", forms[f], want[i].name, want[i].column,
                         (long long)ck_file(&r, path, want[i].column), (long long)want[i].bytes);
        }
        for (size_t i = 0; i < r.events.nrows; i++) {
            const char *sc = ck_str(&r.events, i, "syscall");
            const int64_t bytes = ck_i64(&r.events, i, "bytes");
            if (strcmp(sc, "read") == 0 && bytes == 10)
                assert_int_equal(ck_i64(&r.events, i, "offset"), 300);
            if (strcmp(sc, "pwrite64") == 0 || (strcmp(sc, "write") == 0 && bytes == 7))
                assert_int_equal(ck_i64(&r.events, i, "offset"), -1);
        }
        free(real);
        ck_free(&r);
    }
}

/* strace -C with columns chosen by -U: the summary table after the calls
 * is skipped as summary_table, not unknown_line (review 47; until session
 * 47 its header and rows, which start with the name, were unknown). */
static void strace_C_custom_columns(void **state)
{
    static const char *const columns[] = {"name,calls,errors", "calls,name,errors", "calls,errors",
                                          "max-time,name,total-time,calls"};
    for (size_t i = 0; i < sizeof columns / sizeof *columns; i++) {
        ck_run r;
        char run[400], data[400], flags[200];
        snprintf(flags, sizeof flags, "-f -ttt -T -y -C -U %s", columns[i]);
        trace_and_ingest(&r, run, data, sizeof run, flags, NR_IO_PROG);
        if (ck_diag(&r, "unknown_line") != 0 || ck_diag(&r, "summary_table") < 5)
            fail_msg("-U %s: unknown_line %lld, summary_table %lld", columns[i],
                     (long long)ck_diag(&r, "unknown_line"), (long long)ck_diag(&r, "summary_table"));
        char skipped[32];
        snprintf(skipped, sizeof skipped, "%lld", (long long)ck_diag(&r, "summary_table"));
        assert_string_equal(ck_meta(&r, "lines_skipped"), skipped);
        char path[512];
        snprintf(path, sizeof path, "%s/data.bin", data);
        char *real = realpath(path, NULL);
        assert_non_null(real);
        assert_int_equal(ck_file(&r, real, "bytes_written"), 3000);
        free(real);
        ck_free(&r);
    }
}

static void strace_f_ttt_T_y(void **state) { check_totals("-f -ttt -T -y", NULL); }
static void strace_f_plain(void **state) { check_totals("-f", NULL); }
static void strace_ff_tt_T(void **state) { check_totals("-ff -tt -T", NULL); }
static void strace_f_r_yy_raw(void **state) { check_totals("-f -r -yy -X raw", NULL); }

int main(void)
{
    if (access(NR_STRACE_PATH, X_OK) != 0) {
        fprintf(stderr, "no strace at '%s': skipping\n", NR_STRACE_PATH);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strace_f_ttt_T_y),
        cmocka_unit_test(strace_f_plain),
        cmocka_unit_test(strace_ff_tt_T),
        cmocka_unit_test(strace_f_r_yy_raw),
        cmocka_unit_test(strace_ff_r_fork),
        cmocka_unit_test(strace_f_stderr_fork),
        cmocka_unit_test(strace_f_stderr_first_never_named),
        cmocka_unit_test(strace_fd_semantics),
        cmocka_unit_test(strace_C_custom_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
