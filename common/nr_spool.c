#include "nr_spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An unlinked file in dir: O_TMPFILE never has a name; where the file
 * system lacks it, mkstemp's name is removed at once. */
static int open_unlinked(const char *dir)
{
#ifdef O_TMPFILE
    const int unnamed = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (unnamed >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
        return unnamed;
#endif
    const size_t n = strlen(dir) + sizeof "/niorep-spool-XXXXXX";
    char *path = malloc(n);
    if (!path) {
        errno = ENOMEM;
        return -1;
    }
    snprintf(path, n, "%s/niorep-spool-XXXXXX", dir);
    int fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0)
        unlink(path);
    int e = errno;
    free(path);
    errno = e;
    return fd;
}

/* The spool's file: in $TMPDIR, else (unset, or no file can be made there)
 * in /tmp. */
static int open_spool(nr_spool *s, nr_error *err)
{
    const char *tmpdir = getenv("TMPDIR"), *dir = "/tmp";
    int e = 0; /* why TMPDIR refused the file */
    if (tmpdir && *tmpdir) {
        if ((s->fd = open_unlinked(tmpdir)) >= 0)
            dir = tmpdir;
        else
            e = errno;
    }
    if (s->fd < 0 && (s->fd = open_unlinked("/tmp")) < 0) {
        if (tmpdir && *tmpdir)
            return nr_error_errno(err, NR_E_IO, e, "cannot create a temporary file in TMPDIR (%s) nor in /tmp",
                                  tmpdir);
        return nr_error_errno(err, NR_E_IO, errno, "cannot create a temporary file in /tmp (set TMPDIR)");
    }
    if (!(s->dir = strdup(dir))) {
        close(s->fd);
        s->fd = -1;
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    }
    return 0;
}

int nr_spool_append(nr_spool *s, const void *p, size_t n, nr_error *err)
{
    if (s->fd < 0)
        NR_TRY(open_spool(s, err));
    const char *c = p;
    while (n > 0) {
        ssize_t w = pwrite(s->fd, c, n, (off_t)s->size);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return nr_error_errno(err, NR_E_IO, w < 0 ? errno : ENOSPC,
                                  "cannot write %zu bytes to a temporary file in %s (TMPDIR names the folder)", n,
                                  s->dir);
        c += w;
        n -= (size_t)w;
        s->size += (uint64_t)w;
    }
    return 0;
}

int nr_spool_read(const nr_spool *s, uint64_t off, void *p, size_t n, nr_error *err)
{
    if (off > s->size || n > s->size - off)
        return nr_error_set(err, NR_E_INPUT, "temporary file: %zu bytes at %llu, past its %llu bytes", n,
                            (unsigned long long)off, (unsigned long long)s->size);
    char *c = p;
    while (n > 0) {
        ssize_t r = pread(s->fd, c, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return nr_error_errno(err, NR_E_IO, r < 0 ? errno : EIO, "cannot read back a temporary file in %s",
                                  s->dir ? s->dir : "TMPDIR");
        c += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return 0;
}

void nr_spool_close(nr_spool *s)
{
    if (s->fd >= 0)
        close(s->fd);
    free(s->dir);
    *s = (nr_spool)NR_SPOOL_INIT;
}
