/* io_basic: read/write, pread64/pwrite64, readv/writev, preadv/pwritev,
 * preadv2/pwritev2, lseek, EOF reads and failed calls on regular files.
 * usage: io_basic WORKDIR    (accounting on stdout, see e2e_acct.h) */
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "e2e_acct.h"

static char buf[16384];

/* write, lseek, read (including an EOF read), pwrite64, pread64. */
static void plain_calls(const char *dir)
{
    char path[4096];
    e2e_join(path, sizeof path, dir, "basic.dat");
    int fd = e2e_open(path, O_CREAT | O_RDWR | O_TRUNC, "regular");
    e2e_expect(fd >= 0, 1, "open basic.dat");
    long long off = 0;
    for (int i = 0; i < 3; i++) {
        e2e_fill(buf, 1000, (char)i);
        ssize_t r = write(fd, buf, 1000);
        e2e_acct(path, "write", 'w', r, off, "regular");
        e2e_expect(r, 1000, "write");
        off += r;
    }
    e2e_expect(lseek(fd, 0, SEEK_SET), 0, "lseek");
    off = 0;
    ssize_t r = read(fd, buf, 500);
    e2e_acct(path, "read", 'r', r, off, "regular");
    e2e_expect(r, 500, "read");
    off += r;
    r = read(fd, buf, sizeof buf);
    e2e_acct(path, "read", 'r', r, off, "regular");
    e2e_expect(r, 2500, "read");
    off += r;
    r = read(fd, buf, sizeof buf); /* EOF: a call, no bytes */
    e2e_acct(path, "read", 'r', r, off, "regular");
    e2e_expect(r, 0, "read at EOF");
    r = pwrite(fd, buf, 100, 5000);
    e2e_acct(path, "pwrite64", 'w', r, 5000, "regular");
    e2e_expect(r, 100, "pwrite");
    r = pread(fd, buf, 200, 4950);
    e2e_acct(path, "pread64", 'r', r, 4950, "regular");
    e2e_expect(r, 150, "pread");
    /* SEEK_END then a read at the end; SEEK_CUR back 40 and read 40. */
    e2e_expect(lseek(fd, 0, SEEK_END), 5100, "lseek SEEK_END");
    e2e_expect(lseek(fd, -40, SEEK_CUR), 5060, "lseek SEEK_CUR");
    r = read(fd, buf, 1000);
    e2e_acct(path, "read", 'r', r, 5060, "regular");
    e2e_expect(r, 40, "read after SEEK_CUR");
    close(fd);
}

/* writev, pwritev, pwritev2, readv, preadv, preadv2 (with offset -1 = current). */
static void vector_calls(const char *dir)
{
    char path[4096];
    e2e_join(path, sizeof path, dir, "vector.dat");
    int fd = e2e_open(path, O_CREAT | O_WRONLY | O_TRUNC, "regular");
    e2e_expect(fd >= 0, 1, "open vector.dat");
    e2e_fill(buf, sizeof buf, 7);
    struct iovec iov[3] = {{buf, 10}, {buf + 10, 20}, {buf + 30, 30}};
    ssize_t r = writev(fd, iov, 3);
    e2e_acct(path, "writev", 'w', r, 0, "regular");
    e2e_expect(r, 60, "writev");
    struct iovec iov2[2] = {{buf, 50}, {buf + 50, 50}};
    r = pwritev(fd, iov2, 2, 100);
    e2e_acct(path, "pwritev", 'w', r, 100, "regular");
    e2e_expect(r, 100, "pwritev");
    struct iovec iov3[1] = {{buf, 40}};
    r = syscall(SYS_pwritev2, fd, iov3, 1, 200L, 0L, 0);
    e2e_acct(path, "pwritev2", 'w', r, 200, "regular");
    e2e_expect(r, 40, "pwritev2");
    close(fd);

    fd = e2e_open(path, O_RDONLY, "regular");
    e2e_expect(fd >= 0, 1, "reopen vector.dat");
    struct iovec riov[2] = {{buf, 25}, {buf + 25, 25}};
    r = readv(fd, riov, 2);
    e2e_acct(path, "readv", 'r', r, 0, "regular");
    e2e_expect(r, 50, "readv");
    struct iovec riov2[1] = {{buf, 100}};
    r = preadv(fd, riov2, 1, 100);
    e2e_acct(path, "preadv", 'r', r, 100, "regular");
    e2e_expect(r, 100, "preadv");
    struct iovec riov3[1] = {{buf, 64}};
    r = syscall(SYS_preadv2, fd, riov3, 1, 200L, 0L, 0);
    e2e_acct(path, "preadv2", 'r', r, 200, "regular");
    e2e_expect(r, 40, "preadv2");
    struct iovec riov4[1] = {{buf, 10}};
    r = syscall(SYS_preadv2, fd, riov4, 1, -1L, -1L, 0); /* -1: use and advance the file offset */
    e2e_acct(path, "preadv2", 'r', r, 50, "regular");
    e2e_expect(r, 10, "preadv2 at current offset");
    r = read(fd, buf, 5);
    e2e_acct(path, "read", 'r', r, 60, "regular");
    e2e_expect(r, 5, "read after preadv2(-1)");
    close(fd);
}

/* Failed opens and failed reads/writes: calls, never bytes. */
static void failed_calls(const char *dir)
{
    char path[4096], missing[4096];
    e2e_join(path, sizeof path, dir, "basic.dat");
    e2e_join(missing, sizeof missing, dir, "missing.txt");
    e2e_expect(e2e_open(missing, O_RDONLY, "missing"), -1, "open of a missing file");
    e2e_expect(e2e_open(path, O_CREAT | O_EXCL | O_WRONLY, "regular"), -1, "O_EXCL open");

    int fd = e2e_open(path, O_WRONLY, "regular");
    e2e_expect(fd >= 0, 1, "open basic.dat O_WRONLY");
    ssize_t r = read(fd, buf, 10); /* EBADF: not open for reading */
    e2e_acct(path, "read", 'r', r, -1, "regular");
    e2e_expect(r, -1, "read on O_WRONLY fd");
    close(fd);

    fd = e2e_open(path, O_RDONLY, "regular");
    e2e_expect(fd >= 0, 1, "open basic.dat O_RDONLY");
    r = write(fd, buf, 10); /* EBADF */
    e2e_acct(path, "write", 'w', r, -1, "regular");
    e2e_expect(r, -1, "write on O_RDONLY fd");
    char *volatile nowhere = NULL;
    r = read(fd, nowhere, 10); /* EFAULT */
    e2e_acct(path, "read", 'r', r, -1, "regular");
    e2e_expect(r, -1, "read into NULL");
    r = read(fd, buf, 7);
    e2e_acct(path, "read", 'r', r, 0, "regular");
    e2e_expect(r, 7, "read after failures");
    close(fd);
}

/* creat and openat2 are opens too; close_range closes: a read on a closed
 * fd afterwards fails and belongs to no file. */
static void other_opens(const char *dir)
{
    char path[4096], path2[4096];
    e2e_join(path, sizeof path, dir, "creat.dat");
    e2e_join(path2, sizeof path2, dir, "openat2.dat");
    int fd = (int)syscall(SYS_creat, path, 0644);
    e2e_acct(path, "creat", 'o', fd, -1, "regular");
    e2e_expect(fd >= 0, 1, "creat");
    ssize_t r = write(fd, buf, 33);
    e2e_acct(path, "write", 'w', r, 0, "regular");
    e2e_expect(r, 33, "write to creat fd");
    struct open_how how = {.flags = O_CREAT | O_RDWR, .mode = 0644};
    int fd2 = (int)syscall(SYS_openat2, AT_FDCWD, path2, &how, sizeof how);
    e2e_acct(path2, "openat2", 'o', fd2, -1, "regular");
    e2e_expect(fd2 >= 0, 1, "openat2");
    r = write(fd2, buf, 44);
    e2e_acct(path2, "write", 'w', r, 0, "regular");
    e2e_expect(r, 44, "write to openat2 fd");
    int low = fd < fd2 ? fd : fd2;
    e2e_expect(syscall(SYS_close_range, (unsigned)low, ~0u, 0u), 0, "close_range");
    r = read(fd2, buf, 10);
    e2e_acct("", "read", 'r', r, -1, "regular");
    e2e_expect(r, -1, "read after close_range");
    r = write(fd, buf, 10);
    e2e_acct("", "write", 'w', r, -1, "regular");
    e2e_expect(r, -1, "write after close_range");
}

int main(int argc, char **argv)
{
    e2e_prog = "io_basic";
    if (argc != 2)
        e2e_die("usage: io_basic WORKDIR");
    fprintf(stderr, "io_basic: starting in %s\n", argv[1]);
    plain_calls(argv[1]);
    vector_calls(argv[1]);
    failed_calls(argv[1]);
    other_opens(argv[1]);
    fprintf(stderr, "io_basic: done\n");
    return 0;
}
