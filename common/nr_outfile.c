#include "nr_outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary paths still open, so a signal handler can remove them. Slots are
 * claimed and released with compare-and-swap: outputs are opened from several
 * threads (`niorep build --jobs`), and lock-free atomics stay usable from the
 * signal handler, where a mutex would not. */
enum { MAX_OPEN_OUTFILES = 64 };
static _Atomic(char *) open_tmp_paths[MAX_OPEN_OUTFILES];

/* Returns 0, or -1 when every slot is taken (add) or path is not tracked. */
static int track(char *path, int add)
{
    for (int i = 0; i < MAX_OPEN_OUTFILES; i++) {
        char *expected = add ? NULL : path;
        if (atomic_compare_exchange_strong(&open_tmp_paths[i], &expected, add ? path : NULL))
            return 0;
    }
    return -1;
}

/* The signals whose handler removes the temporary files. They are held back
 * while a temporary file is created and registered, so that no signal can
 * land between the two and leave an unregistered file behind. */
static void hold_termination_signals(sigset_t *saved)
{
    sigset_t held;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    sigaddset(&held, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &held, saved);
}

static void release_termination_signals(const sigset_t *saved)
{
    pthread_sigmask(SIG_SETMASK, saved, NULL);
}

/* mkostemp, but with mode 0666 under the umask, as any new file: mkstemp's
 * 0600 was widened to 0644 at the commit until session 48, whatever the
 * umask (review 48). O_CLOEXEC: no child (niorep-render, strace) holds it,
 * or its lock. path ends in XXXXXX. */
static int create_tmp(char *path)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static _Atomic uint64_t counter;
    char *x = path + strlen(path) - 6;
    for (int attempt = 0; attempt < 1000; attempt++) {
        uint64_t r = 0;
        if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r)
            r = (uint64_t)getpid() << 32 ^ (uint64_t)time(NULL);
        r ^= atomic_fetch_add(&counter, 1) * UINT64_C(0x9E3779B97F4A7C15);
        for (int i = 0; i < 6; i++, r /= 62)
            x[i] = digits[r % 62];
        const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

/* The temporary file and its registration, with no signal delivered in
 * between. */
static int create_tracked_tmp(nr_outfile *f)
{
    sigset_t saved;
    hold_termination_signals(&saved);
    f->fd = create_tmp(f->tmp_path);
    int e = errno;
    if (f->fd >= 0)
        (void)flock(f->fd, LOCK_EX | LOCK_NB); /* claimed while open: see nr_outfile_sweep */
    if (f->fd >= 0 && track(f->tmp_path, 1) != 0) {
        close(f->fd);
        unlink(f->tmp_path);
        f->fd = -1;
        e = EMFILE;
    }
    release_termination_signals(&saved);
    errno = e;
    return f->fd;
}

void nr_outfile_abort_all_from_signal(void)
{
    for (int i = 0; i < MAX_OPEN_OUTFILES; i++) {
        char *path = atomic_load(&open_tmp_paths[i]);
        if (path)
            unlink(path);
    }
}

/* The file an output at target replaces, in *out (malloc'd): target, or
 * the file its symbolic link names (the link stays a link). The commit
 * renames a new file over it, so it must be a regular file or nothing
 * yet: a device, pipe or folder there is an error, before any work. */
static int output_target(const char *target, char **out, int *mode, nr_error *err)
{
    *out = NULL;
    *mode = -1;
    if (!target[0])
        return nr_error_set(err, NR_E_USAGE, "an empty output path");
    struct stat st;
    if (lstat(target, &st) != 0)
        return (*out = strdup(target)) ? 0 : nr_error_set(err, NR_E_NOMEM, "%s: out of memory", target);
    if (S_ISLNK(st.st_mode)) {
        if (!(*out = realpath(target, NULL)))
            return nr_error_errno(err, NR_E_USAGE, errno, "%s: a symbolic link to no file", target);
        if (stat(*out, &st) != 0) {
            free(*out);
            *out = NULL;
            return nr_error_errno(err, NR_E_IO, errno, "cannot stat %s", target);
        }
    } else if (!(*out = strdup(target))) {
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", target);
    }
    if (S_ISREG(st.st_mode)) {
        *mode = (int)(st.st_mode & 07777);
        return 0;
    }
    free(*out);
    *out = NULL;
    return nr_error_set(err, NR_E_USAGE, "%s: %s: an output must be a file (it is written beside it, then renamed over it)",
                        target, S_ISDIR(st.st_mode) ? "is a folder" : "is not a regular file (a device, pipe or socket)");
}

int nr_outfile_check_inputs(const char *target, const char *const *inputs, size_t n, nr_error *err)
{
    struct stat out, in;
    if (stat(target, &out) != 0)
        return 0; /* not there yet: no input is it */
    for (size_t i = 0; i < n; i++)
        if (inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
            return nr_error_set(err, NR_E_USAGE, "%s: the output is also the input %s, which it would replace",
                                target, inputs[i]);
    return 0;
}

int nr_outfile_open(nr_outfile *f, const char *target, nr_error *err)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    NR_TRY(output_target(target, &f->target, &f->replaced_mode, err));
    size_t n = strlen(f->target);
    f->tmp_path = malloc(n + 16);
    if (!f->tmp_path) {
        nr_outfile_abort(f);
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", target);
    }
    snprintf(f->tmp_path, n + 16, "%s.tmp.XXXXXX", f->target);
    if (create_tracked_tmp(f) < 0) {
        int e = errno;
        nr_outfile_abort(f);
        return nr_error_errno(err, NR_E_IO, e, "%s: cannot create output", target);
    }
    return 0;
}

int nr_outfile_probe(const char *target, nr_error *err)
{
    nr_outfile f;
    NR_TRY(nr_outfile_open(&f, target, err));
    nr_outfile_abort(&f);
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

static void *sync_main(void *fd)
{
    (void)fdatasync((int)(intptr_t)fd); /* see the header: the commit's fsync reports what this would */
    return NULL;
}

void nr_outfile_sync_start(nr_outfile *f)
{
    if (f->fd < 0 || f->sync_state != 0)
        return;
    f->sync_state = pthread_create(&f->syncer, NULL, sync_main, (void *)(intptr_t)f->fd) == 0 ? 1 : 2;
}

/* Before the file's own fsync or close: the sync thread has ended. */
static void sync_join(nr_outfile *f)
{
    if (f->sync_state == 1)
        pthread_join(f->syncer, NULL);
    f->sync_state = 2;
}

/* On failure the temporary file is removed here, so that no caller can
 * leave it behind (nr_outfile_abort afterwards is a no-op). */
static int commit(nr_outfile *f, int durable, nr_error *err)
{
    int rc = 0;
    sync_join(f);
    if ((f->replaced_mode >= 0 && fchmod(f->fd, (mode_t)f->replaced_mode) != 0) || (durable && fsync(f->fd) != 0))
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
    (void)track(f->tmp_path, 0);
    free(f->tmp_path);
    free(f->target);
    f->tmp_path = f->target = NULL;
    return 0;
}

int nr_outfile_commit(nr_outfile *f, nr_error *err) { return commit(f, 1, err); }

int nr_outfile_commit_unsynced(nr_outfile *f, nr_error *err) { return commit(f, 0, err); }

void nr_outfile_abort(nr_outfile *f)
{
    sync_join(f);
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    if (f->tmp_path) {
        unlink(f->tmp_path);
        (void)track(f->tmp_path, 0); /* not tracked when mkstemp failed */
    }
    free(f->tmp_path);
    free(f->target);
    f->tmp_path = f->target = NULL;
}

int nr_outfile_is_tmp_name(const char *name)
{
    const size_t n = strlen(name);
    return n > 11 && memcmp(name + n - 11, ".tmp.", 5) == 0;
}

/* Removes path when no process holds it open for writing (its lock is
 * free: the lock goes with the last descriptor, even at SIGKILL) and it
 * was last written more than min_age_s ago; 1 when removed. */
static int remove_if_orphan(const char *path, time_t min_age_s, time_t now)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || now - st.st_mtime < min_age_s)
        return 0;
    const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return 0;
    const int orphan = flock(fd, LOCK_EX | LOCK_NB) == 0;
    const int removed = orphan && unlink(path) == 0;
    close(fd);
    return removed;
}

size_t nr_outfile_sweep(const char *dir, long min_age_s)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    const time_t now = time(NULL);
    size_t removed = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!nr_outfile_is_tmp_name(e->d_name))
            continue;
        const size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(n);
        if (!path)
            break;
        snprintf(path, n, "%s/%s", dir, e->d_name);
        removed += (size_t)remove_if_orphan(path, (time_t)min_age_s, now);
        free(path);
    }
    closedir(d);
    return removed;
}

int nr_make_dirs(const char *path, nr_error *err)
{
    if (!path[0])
        return nr_error_set(err, NR_E_USAGE, "the output folder name is empty");
    char *buf = strdup(path);
    if (!buf)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", path);
    int rc = 0;
    for (char *p = buf + (buf[0] == '/'); rc == 0; p++) {
        const char c = *p;
        if (c != '/' && c != '\0')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            rc = nr_error_errno(err, NR_E_IO, errno, "%s: cannot create the directory", buf);
        *p = c;
        if (c == '\0')
            break;
    }
    free(buf);
    struct stat st;
    if (rc == 0 && (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)))
        rc = nr_error_set(err, NR_E_IO, "%s: not a directory", path);
    return rc;
}
