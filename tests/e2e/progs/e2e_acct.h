/* e2e_acct: how the end-to-end test programs report what they did.
 *
 * Every program prints one JSON line per system call it makes on a file it
 * cares about, on stdout, with a single write(2) (so lines of processes and
 * threads never interleave and nothing is buffered across fork/exec):
 *
 *   {"prog":"io_basic","pid":12,"path":"2f746d70...","sys":"read","dir":"r",
 *    "ret":500,"off":0,"kind":"regular"}
 *
 * path   the file's absolute path as hex bytes ("" when the call refers to no
 *        file, e.g. a read on a closed fd);
 * sys    the syscall name as strace prints it;
 * dir    'r' read call, 'w' write call, 'o' open call, 'n' other;
 * ret    the return value (-1 on failure);
 * off    the file offset the transfer started at, -1 when not checked;
 * kind   what niorep must classify the path as ("regular", "directory",
 *        "device", "procfs", "pipe", "socket", "missing" for a path that does
 *        not exist, "inherited" for a regular file opened before the trace).
 *
 * tests/e2e/run_matrix.py sums these lines into the expected per-file numbers. */
#ifndef E2E_ACCT_H
#define E2E_ACCT_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *e2e_prog = "?";

static void e2e_die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", e2e_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    exit(3);
}

/* Records one call. Saves and restores errno so callers may record between a
 * call and its errno check. */
static void e2e_acct(const char *path, const char *sys, char dir, long long ret, long long off,
                     const char *kind)
{
    int saved = errno;
    char line[8192];
    int n = snprintf(line, sizeof line, "{\"prog\":\"%s\",\"pid\":%ld,\"path\":\"", e2e_prog,
                     (long)getpid());
    for (const unsigned char *p = (const unsigned char *)(path ? path : ""); *p && n < 6000; p++)
        n += snprintf(line + n, sizeof line - (size_t)n, "%02x", *p);
    n += snprintf(line + n, sizeof line - (size_t)n,
                  "\",\"sys\":\"%s\",\"dir\":\"%c\",\"ret\":%lld,\"off\":%lld,\"kind\":\"%s\"}\n", sys,
                  dir, ret, off, kind);
    if (write(STDOUT_FILENO, line, (size_t)n) != n)
        e2e_die("cannot write accounting line");
    errno = saved;
}

/* dir + "/" + name in a static-free caller buffer. */
static char *e2e_join(char *buf, size_t cap, const char *dir, const char *name)
{
    if ((size_t)snprintf(buf, cap, "%s/%s", dir, name) >= cap)
        e2e_die("path too long");
    return buf;
}

/* open(2) (glibc issues openat) and record it against path. */
static int e2e_open(const char *path, int flags, const char *kind)
{
    int fd = open(path, flags, 0644);
    e2e_acct(path, "openat", 'o', fd, -1, kind);
    return fd;
}

/* Fills buf with a recognisable pattern. */
static void e2e_fill(char *buf, size_t n, char seed)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)('a' + (seed + i) % 26);
}

/* Dies unless a call returned what the program expects of it. */
static void e2e_expect(long long got, long long want, const char *what)
{
    if (got != want)
        e2e_die("%s returned %lld, expected %lld (errno %d)", what, got, want, errno);
}

#endif
