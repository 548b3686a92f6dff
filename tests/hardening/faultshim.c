/* faultshim: an LD_PRELOAD library that injects file-system faults into
 * niorep, so that the fault tests exercise real error paths.
 *
 * Configured by environment variables:
 *   NR_FAULT        write    write()/pwrite() fail after NR_FAULT_AFTER bytes
 *                            (the write that crosses the limit is short, the
 *                            next fails), like a disk that fills up;
 *                   fsync    fsync()/fdatasync() fail;
 *                   rename   rename()/renameat() onto a matching path fail;
 *                   open     creating or opening for writing a matching path
 *                            fails (open*, creat, mkstemp*, mkostemp*);
 *                   read     read()/pread() fail after NR_FAULT_AFTER bytes;
 *                   truncate read()/pread() return at most NR_FAULT_AFTER
 *                            bytes in all, then 0 (the input was cut while
 *                            being read).
 *   NR_FAULT_PATH   only paths containing this text are affected (an fd's
 *                   path is read from /proc/self/fd); required.
 *   NR_FAULT_AFTER  byte budget (default 0).
 *   NR_FAULT_ERRNO  ENOSPC (default for write/fsync/rename), EROFS (default
 *                   for open), EACCES, EIO (default for read), EDQUOT.
 * Not thread-safe in its counters: the tests run niorep with --jobs 1. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef enum { F_NONE, F_WRITE, F_FSYNC, F_RENAME, F_OPEN, F_READ, F_TRUNCATE } fault_mode;

static fault_mode mode = F_NONE;
static const char *match;
static unsigned long long budget;
static int fault_errno;
static int configured;

static int errno_named(const char *name, int fallback)
{
    static const struct { const char *name; int code; } names[] = {
        {"ENOSPC", ENOSPC}, {"EROFS", EROFS}, {"EACCES", EACCES}, {"EIO", EIO}, {"EDQUOT", EDQUOT},
    };
    for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0)
            return names[i].code;
    return fallback;
}

static void configure(void)
{
    if (configured)
        return;
    configured = 1;
    static const struct { const char *name; fault_mode mode; int err; } modes[] = {
        {"write", F_WRITE, ENOSPC}, {"fsync", F_FSYNC, ENOSPC}, {"rename", F_RENAME, ENOSPC},
        {"open", F_OPEN, EROFS},    {"read", F_READ, EIO},      {"truncate", F_TRUNCATE, 0},
    };
    const char *m = getenv("NR_FAULT");
    match = getenv("NR_FAULT_PATH");
    if (!m || !match || !*match)
        return;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(m, modes[i].name) == 0) {
            mode = modes[i].mode;
            fault_errno = errno_named(getenv("NR_FAULT_ERRNO"), modes[i].err);
        }
    const char *after = getenv("NR_FAULT_AFTER");
    budget = after ? strtoull(after, NULL, 10) : 0;
}

static void *real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        static const char msg[] = "faultshim: missing symbol\n";
        (void)!write(2, msg, sizeof msg - 1);
        abort();
    }
    return f;
}

static int path_matches(const char *path)
{
    return path && match && strstr(path, match) != NULL;
}

static int fd_matches(int fd)
{
    if (fd < 0)
        return 0;
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    int saved = errno;
    ssize_t n = readlink(link, path, sizeof path - 1);
    errno = saved;
    if (n <= 0)
        return 0;
    path[n] = '\0';
    return path_matches(path);
}

/* How many of n bytes may go through now; -1 when the call must fail. */
static ssize_t allowance(size_t n)
{
    if (budget == 0)
        return -1;
    size_t ok = n < budget ? n : (size_t)budget;
    budget -= ok;
    return (ssize_t)ok;
}

/* ---- writes ---------------------------------------------------------- */

ssize_t write(int fd, const void *p, size_t n)
{
    static ssize_t (*next)(int, const void *, size_t);
    if (!next)
        next = (ssize_t (*)(int, const void *, size_t))real("write");
    configure();
    if (mode == F_WRITE && n && fd_matches(fd)) {
        ssize_t ok = allowance(n);
        if (ok < 0) {
            errno = fault_errno;
            return -1;
        }
        n = (size_t)ok;
    }
    return next(fd, p, n);
}

static ssize_t shim_pwrite(const char *name, int fd, const void *p, size_t n, off_t off)
{
    ssize_t (*next)(int, const void *, size_t, off_t) =
        (ssize_t (*)(int, const void *, size_t, off_t))real(name);
    configure();
    if (mode == F_WRITE && n && fd_matches(fd)) {
        ssize_t ok = allowance(n);
        if (ok < 0) {
            errno = fault_errno;
            return -1;
        }
        n = (size_t)ok;
    }
    return next(fd, p, n, off);
}

ssize_t pwrite(int fd, const void *p, size_t n, off_t off) { return shim_pwrite("pwrite", fd, p, n, off); }
ssize_t pwrite64(int fd, const void *p, size_t n, off_t off) { return shim_pwrite("pwrite64", fd, p, n, off); }

static int shim_sync(const char *name, int fd)
{
    int (*next)(int) = (int (*)(int))real(name);
    configure();
    if (mode == F_FSYNC && fd_matches(fd)) {
        errno = fault_errno;
        return -1;
    }
    return next(fd);
}

int fsync(int fd) { return shim_sync("fsync", fd); }
int fdatasync(int fd) { return shim_sync("fdatasync", fd); }

int rename(const char *from, const char *to)
{
    int (*next)(const char *, const char *) = (int (*)(const char *, const char *))real("rename");
    configure();
    if (mode == F_RENAME && path_matches(to)) {
        errno = fault_errno;
        return -1;
    }
    return next(from, to);
}

int renameat(int dfrom, const char *from, int dto, const char *to)
{
    int (*next)(int, const char *, int, const char *) =
        (int (*)(int, const char *, int, const char *))real("renameat");
    configure();
    if (mode == F_RENAME && path_matches(to)) {
        errno = fault_errno;
        return -1;
    }
    return next(dfrom, from, dto, to);
}

/* ---- opens ----------------------------------------------------------- */

static int refuses_open(const char *path, int flags)
{
    configure();
    return mode == F_OPEN && (flags & (O_WRONLY | O_RDWR | O_CREAT)) && path_matches(path);
}

static int shim_open(const char *name, int dirfd, const char *path, int flags, mode_t m)
{
    if (refuses_open(path, flags)) {
        errno = fault_errno;
        return -1;
    }
    if (dirfd == -1000) {
        int (*next)(const char *, int, ...) = (int (*)(const char *, int, ...))real(name);
        return next(path, flags, m);
    }
    int (*next)(int, const char *, int, ...) = (int (*)(int, const char *, int, ...))real(name);
    return next(dirfd, path, flags, m);
}

#define OPEN_MODE(flags, m)                   \
    mode_t m = 0;                             \
    if ((flags) & (O_CREAT | O_TMPFILE)) {    \
        va_list ap;                           \
        va_start(ap, flags);                  \
        m = (mode_t)va_arg(ap, int);          \
        va_end(ap);                           \
    }

int open(const char *path, int flags, ...) { OPEN_MODE(flags, m) return shim_open("open", -1000, path, flags, m); }
int open64(const char *path, int flags, ...) { OPEN_MODE(flags, m) return shim_open("open64", -1000, path, flags, m); }
int openat(int dirfd, const char *path, int flags, ...) { OPEN_MODE(flags, m) return shim_open("openat", dirfd, path, flags, m); }
int openat64(int dirfd, const char *path, int flags, ...) { OPEN_MODE(flags, m) return shim_open("openat64", dirfd, path, flags, m); }
int creat(const char *path, mode_t m) { return shim_open("open", -1000, path, O_CREAT | O_WRONLY | O_TRUNC, m); }

/* glibc's mkstemp opens through an internal alias, so it is wrapped itself. */
int mkstemp(char *tmpl)
{
    if (refuses_open(tmpl, O_CREAT)) {
        errno = fault_errno;
        return -1;
    }
    return ((int (*)(char *))real("mkstemp"))(tmpl);
}

int mkstemp64(char *tmpl)
{
    if (refuses_open(tmpl, O_CREAT)) {
        errno = fault_errno;
        return -1;
    }
    return ((int (*)(char *))real("mkstemp64"))(tmpl);
}

int mkostemp(char *tmpl, int flags)
{
    if (refuses_open(tmpl, O_CREAT)) {
        errno = fault_errno;
        return -1;
    }
    return ((int (*)(char *, int))real("mkostemp"))(tmpl, flags);
}

/* ---- reads ----------------------------------------------------------- */

/* Applies the read faults to a read of n bytes of fd: 0 = go ahead with *n
 * (possibly lowered), 1 = return 0 (EOF), -1 = fail. */
static int read_fault(int fd, size_t *n)
{
    configure();
    if ((mode != F_READ && mode != F_TRUNCATE) || *n == 0 || !fd_matches(fd))
        return 0;
    ssize_t ok = allowance(*n);
    if (ok < 0) {
        if (mode == F_TRUNCATE)
            return 1;
        errno = fault_errno;
        return -1;
    }
    *n = (size_t)ok;
    return 0;
}

ssize_t read(int fd, void *p, size_t n)
{
    static ssize_t (*next)(int, void *, size_t);
    if (!next)
        next = (ssize_t (*)(int, void *, size_t))real("read");
    int f = read_fault(fd, &n);
    if (f)
        return f > 0 ? 0 : -1;
    return next(fd, p, n);
}

static ssize_t shim_pread(const char *name, int fd, void *p, size_t n, off_t off)
{
    ssize_t (*next)(int, void *, size_t, off_t) = (ssize_t (*)(int, void *, size_t, off_t))real(name);
    int f = read_fault(fd, &n);
    if (f)
        return f > 0 ? 0 : -1;
    return next(fd, p, n, off);
}

ssize_t pread(int fd, void *p, size_t n, off_t off) { return shim_pread("pread", fd, p, n, off); }
ssize_t pread64(int fd, void *p, size_t n, off_t off) { return shim_pread("pread64", fd, p, n, off); }
