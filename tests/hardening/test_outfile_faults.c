/* nr_outfile under failure: a commit that cannot rename (the target is a
 * non-empty directory: EISDIR/ENOTEMPTY without any injection) must remove
 * its temporary file itself, so that a caller that forgets to abort leaves
 * nothing behind (render/report.c did); abort after it is a no-op; the
 * signal-time cleanup removes every open temporary file. */
#include <dirent.h>
#include <signal.h>
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
    nr_outfile out;
    nr_error err;
    assert_int_equal(nr_outfile_open(&out, target, &err), 0);
    assert_int_equal(nr_outfile_write(&out, "abc", 3, &err), 0);
    /* a folder made at the target meanwhile (the open refuses one): the
       rename fails */
    assert_int_equal(mkdir(target, 0755), 0);
    FILE *f = fopen(inside, "w");
    assert_non_null(f);
    fclose(f);
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

/* Every open temporary file must be known to the signal cleanup: when the
 * table of open outputs is full, opening one more is refused, not left
 * untracked. */
static void outputs_beyond_the_table_are_refused(void **state)
{
    enum { MANY = 80 };
    nr_outfile out[MANY];
    nr_error err;
    int opened = 0, refused_at = -1;
    for (int i = 0; i < MANY; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/many%d.nio", dir, i);
        if (nr_outfile_open(&out[i], path, &err) == 0) {
            opened++;
        } else if (refused_at < 0) {
            refused_at = i;
            assert_non_null(strstr(err.msg, "cannot create output"));
        }
    }
    assert_int_equal(opened, 64);
    assert_int_equal(refused_at, 64);
    assert_int_equal(entries_with("many"), 64); /* the refused ones left nothing */
    nr_outfile_abort_all_from_signal();
    assert_int_equal(entries_with("many"), 0);
    for (int i = 0; i < MANY; i++)
        nr_outfile_abort(&out[i]);
}

/* Signals are held only while a temporary file is created: the caller's
 * signal mask is the same afterwards. */
static void open_restores_the_signal_mask(void **state)
{
    sigset_t before, after;
    sigemptyset(&before);
    sigaddset(&before, SIGUSR1);
    assert_int_equal(sigprocmask(SIG_SETMASK, &before, NULL), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/mask.nio", dir);
    nr_outfile f;
    nr_error err;
    assert_int_equal(nr_outfile_open(&f, path, &err), 0);
    assert_int_equal(sigprocmask(SIG_SETMASK, NULL, &after), 0);
    assert_true(sigismember(&after, SIGUSR1));
    assert_false(sigismember(&after, SIGINT));
    assert_false(sigismember(&after, SIGTERM));
    nr_outfile_abort(&f);
    sigemptyset(&before);
    sigprocmask(SIG_SETMASK, &before, NULL);
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
        cmocka_unit_test(outputs_beyond_the_table_are_refused),
        cmocka_unit_test(open_restores_the_signal_mask),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
