/* io_dup: dup, dup2, dup3, fcntl F_DUPFD and F_DUPFD_CLOEXEC; duplicates
 * share one file offset; dup2 onto an open fd closes the old file first.
 * usage: io_dup WORKDIR */
#include "e2e_acct.h"

static char buf[4096];

static void rw(const char *path, int fd, int is_write, size_t n, long long off, long long want)
{
    ssize_t r = is_write ? write(fd, buf, n) : read(fd, buf, n);
    e2e_acct(path, is_write ? "write" : "read", is_write ? 'w' : 'r', r, off, "regular");
    e2e_expect(r, want, is_write ? "write" : "read");
}

int main(int argc, char **argv)
{
    e2e_prog = "io_dup";
    if (argc != 2)
        e2e_die("usage: io_dup WORKDIR");
    char path[4096], a[4096], b[4096];
    e2e_join(path, sizeof path, argv[1], "dup.dat");
    e2e_join(a, sizeof a, argv[1], "dupA.dat");
    e2e_join(b, sizeof b, argv[1], "dupB.dat");
    e2e_fill(buf, sizeof buf, 11);

    int fd = e2e_open(path, O_CREAT | O_RDWR | O_TRUNC, "regular");
    e2e_expect(fd >= 0, 1, "open dup.dat");
    rw(path, fd, 1, 100, 0, 100);
    int d1 = dup(fd);
    rw(path, d1, 1, 50, 100, 50);
    int d2 = dup2(fd, 20);
    e2e_expect(d2, 20, "dup2");
    rw(path, d2, 1, 25, 150, 25);
    int d3 = dup3(fd, 21, O_CLOEXEC);
    e2e_expect(d3, 21, "dup3");
    e2e_expect(lseek(d3, 0, SEEK_SET), 0, "lseek on dup3 fd");
    rw(path, d3, 0, 30, 0, 30);
    int d4 = fcntl(fd, F_DUPFD, 30);
    e2e_expect(d4 >= 30, 1, "F_DUPFD");
    rw(path, d4, 0, 30, 30, 30);
    int d5 = fcntl(fd, F_DUPFD_CLOEXEC, 40);
    e2e_expect(d5 >= 40, 1, "F_DUPFD_CLOEXEC");
    rw(path, d5, 0, 30, 60, 30);
    close(fd); /* the duplicates keep the file open */
    rw(path, d1, 1, 10, 90, 10);
    rw(path, d5, 0, 1000, 100, 75);
    close(d1);
    close(d2);
    close(d3);
    close(d4);
    close(d5);

    int fa = e2e_open(a, O_CREAT | O_WRONLY | O_TRUNC, "regular");
    int fb = e2e_open(b, O_CREAT | O_WRONLY | O_TRUNC, "regular");
    e2e_expect(fa >= 0 && fb >= 0, 1, "open dupA/dupB");
    rw(b, fb, 1, 3, 0, 3);
    e2e_expect(dup2(fa, fb), fb, "dup2 onto an open fd");
    rw(a, fb, 1, 7, 0, 7); /* fb now refers to dupA.dat */
    rw(a, fa, 1, 5, 7, 5);
    close(fa);
    close(fb);
    fprintf(stderr, "io_dup: done\n");
    return 0;
}
