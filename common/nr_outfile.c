#include "nr_outfile.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary paths still open, so a signal handler can remove them. Slots are
 * claimed and released with compare-and-swap: outputs are opened from several
 * threads (`niorep build --jobs`), and lock-free atomics stay usable from the
 * signal handler, where a mutex would not. */
enum { MAX_OPEN_OUTFILES = 64 };
static _Atomic(char *) open_tmp_paths[MAX_OPEN_OUTFILES];

static void track(char *path, int add)
{
    for (int i = 0; i < MAX_OPEN_OUTFILES; i++) {
        char *expected = add ? NULL : path;
        if (atomic_compare_exchange_strong(&open_tmp_paths[i], &expected, add ? path : NULL))
            return;
    }
}

void nr_outfile_abort_all_from_signal(void)
{
    for (int i = 0; i < MAX_OPEN_OUTFILES; i++) {
        char *path = atomic_load(&open_tmp_paths[i]);
        if (path)
            unlink(path);
    }
}

int nr_outfile_open(nr_outfile *f, const char *target, nr_error *err)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    size_t n = strlen(target);
    f->target = strdup(target);
    f->tmp_path = malloc(n + 16);
    if (!f->target || !f->tmp_path) {
        nr_outfile_abort(f);
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", target);
    }
    snprintf(f->tmp_path, n + 16, "%s.tmp.XXXXXX", target);
    f->fd = mkstemp(f->tmp_path);
    if (f->fd < 0) {
        int e = errno;
        nr_outfile_abort(f);
        return nr_error_errno(err, NR_E_IO, e, "%s: cannot create output", target);
    }
    track(f->tmp_path, 1);
    return 0;
}

int nr_outfile_write(nr_outfile *f, const void *p, size_t n, nr_error *err)
{
    const char *q = p;
    while (n) {
        ssize_t w = write(f->fd, q, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return nr_error_errno(err, NR_E_IO, errno, "%s: write failed", f->target);
        }
        q += w;
        n -= (size_t)w;
        f->offset += (uint64_t)w;
    }
    return 0;
}

/* On failure the temporary file is removed here, so that no caller can
 * leave it behind (nr_outfile_abort afterwards is a no-op). */
int nr_outfile_commit(nr_outfile *f, nr_error *err)
{
    int rc = 0;
    if (fchmod(f->fd, 0644) != 0 || fsync(f->fd) != 0)
        rc = nr_error_errno(err, NR_E_IO, errno, "%s: cannot flush output", f->target);
    if (rc == 0) {
        int fd = f->fd;
        f->fd = -1;
        if (close(fd) != 0)
            rc = nr_error_errno(err, NR_E_IO, errno, "%s: cannot close output", f->target);
    }
    if (rc == 0 && rename(f->tmp_path, f->target) != 0)
        rc = nr_error_errno(err, NR_E_IO, errno, "%s: cannot move output into place", f->target);
    if (rc < 0) {
        nr_outfile_abort(f);
        return rc;
    }
    track(f->tmp_path, 0);
    free(f->tmp_path);
    free(f->target);
    f->tmp_path = f->target = NULL;
    return 0;
}

void nr_outfile_abort(nr_outfile *f)
{
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    if (f->tmp_path) {
        unlink(f->tmp_path);
        track(f->tmp_path, 0);
    }
    free(f->tmp_path);
    free(f->target);
    f->tmp_path = f->target = NULL;
}
