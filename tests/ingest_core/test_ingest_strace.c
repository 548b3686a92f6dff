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

static int run_strace(const char *run_dir, const char *data_dir, const char *flags)
{
    char cmd[4096];
    /* LeakSanitizer (in sanitizer builds) cannot run under ptrace: off for the traced program */
    snprintf(cmd, sizeof cmd, "ASAN_OPTIONS=detect_leaks=0 %s %s -o %s/strace.log %s %s >/dev/null 2>&1", NR_STRACE_PATH, flags, run_dir,
             NR_IO_PROG, data_dir);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void check_totals(const char *flags, const char *data_dir_in_trace_cwd)
{
    ck_run r;
    memset(&r, 0, sizeof r);
    ck_tmpdir(r.dir, sizeof r.dir);
    char run[400], data[400];
    snprintf(run, sizeof run, "%s/run", r.dir);
    snprintf(data, sizeof data, "%s/data", r.dir);
    mkdir(run, 0700);
    mkdir(data, 0700);
    if (run_strace(run, data, flags) != 0) {
        fprintf(stderr, "strace %s failed (ptrace not permitted?): skipping\n", flags);
        exit(77);
    }
    ck_ingest(&r, run, NULL);
    if (r.rc != 0)
        fail_msg("ingest: %s", r.err.msg);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
