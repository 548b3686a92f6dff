/* nr_outfile under failure: a commit that cannot rename (the target is a
 * non-empty directory: EISDIR/ENOTEMPTY without any injection) must remove
 * its temporary file itself, so that a caller that forgets to abort leaves
 * nothing behind (render/report.c did); abort after it is a no-op; the
 * signal-time cleanup removes every open temporary file. */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nr_outfile.h"

static char dir[] = "/tmp/nr_outfile_faults_XXXXXX";

/* Number of entries of dir whose name contains text. */
static int entries_with(const char *text)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strstr(e->d_name, text) != NULL;
    closedir(d);
    return n;
}

static void failed_commit_removes_temporary(void **state)
{
    char target[256], inside[300];
    snprintf(target, sizeof target, "%s/out", dir);
    snprintf(inside, sizeof inside, "%s/keep", target);
    assert_int_equal(mkdir(target, 0755), 0);
    FILE *f = fopen(inside, "w");
    assert_non_null(f);
    fclose(f);

    nr_outfile out;
    nr_error err;
    assert_int_equal(nr_outfile_open(&out, target, &err), 0);
    assert_int_equal(nr_outfile_write(&out, "abc", 3, &err), 0);
    assert_int_equal(entries_with(".tmp."), 1);
    assert_int_equal(nr_outfile_commit(&out, &err), NR_E_IO);
    assert_non_null(strstr(err.msg, "/out: cannot move output into place"));
    assert_int_equal(entries_with(".tmp."), 0);
    assert_int_equal(out.fd, -1);
    assert_null(out.tmp_path);
    nr_outfile_abort(&out); /* a no-op now */
    struct stat st;
    assert_int_equal(stat(inside, &st), 0); /* the earlier target is untouched */
}

static void signal_cleanup_removes_open_temporaries(void **state)
{
    char a[256], b[256];
    snprintf(a, sizeof a, "%s/a.nio", dir);
    snprintf(b, sizeof b, "%s/b.nio", dir);
    nr_outfile fa, fb;
    nr_error err;
    assert_int_equal(nr_outfile_open(&fa, a, &err), 0);
    assert_int_equal(nr_outfile_open(&fb, b, &err), 0);
    assert_int_equal(entries_with(".nio.tmp."), 2);
    nr_outfile_abort_all_from_signal();
    assert_int_equal(entries_with(".nio.tmp."), 0);
    nr_outfile_abort(&fa);
    nr_outfile_abort(&fb);
}

static int setup(void **state) { return mkdtemp(dir) ? 0 : -1; }

static int teardown(void **state)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(failed_commit_removes_temporary),
        cmocka_unit_test(signal_cleanup_removes_open_temporaries),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
