/* io_paths: how paths are resolved and spelled.
 *  - chdir + relative opens ("rel.dat", "./dot.dat", "../up.dat"), fchdir;
 *  - openat with a directory fd;
 *  - file names with spaces, quotes, a newline, a tab, a backslash, '<', '>',
 *    a comma, non-UTF-8 bytes, and one that looks like the end of a syscall line.
 * usage: io_paths WORKDIR */
#include <sys/stat.h>

#include "e2e_acct.h"

static char buf[4096];

static void rw(const char *path, int fd, int is_write, size_t n, long long off, long long want)
{
    ssize_t r = is_write ? write(fd, buf, n) : read(fd, buf, n);
    e2e_acct(path, is_write ? "write" : "read", is_write ? 'w' : 'r', r, off, "regular");
    e2e_expect(r, want, is_write ? "write" : "read");
}

/* open(rel) recorded against the absolute path abs. */
static int open_rel(const char *rel, const char *abs, int flags)
{
    int fd = open(rel, flags, 0644);
    e2e_acct(abs, "openat", 'o', fd, -1, "regular");
    e2e_expect(fd >= 0, 1, rel);
    return fd;
}

static void relative_opens(const char *dir)
{
    char sub[4096], deeper[4096], p[4096];
    e2e_join(sub, sizeof sub, dir, "sub");
    e2e_join(deeper, sizeof deeper, sub, "deeper");
    e2e_expect(mkdir(sub, 0755), 0, "mkdir sub");
    e2e_expect(mkdir(deeper, 0755), 0, "mkdir sub/deeper");
    e2e_fill(buf, sizeof buf, 1);

    e2e_expect(chdir(sub), 0, "chdir sub");
    int fd = open_rel("rel.dat", e2e_join(p, sizeof p, sub, "rel.dat"), O_CREAT | O_WRONLY | O_TRUNC);
    rw(p, fd, 1, 11, 0, 11);
    close(fd);
    fd = open_rel("./dot.dat", e2e_join(p, sizeof p, sub, "dot.dat"), O_CREAT | O_WRONLY | O_TRUNC);
    rw(p, fd, 1, 12, 0, 12);
    close(fd);
    fd = open_rel("../up.dat", e2e_join(p, sizeof p, dir, "up.dat"), O_CREAT | O_WRONLY | O_TRUNC);
    rw(p, fd, 1, 13, 0, 13);
    close(fd);

    /* openat relative to a directory fd, then fchdir into it. */
    int dfd = open(deeper, O_RDONLY | O_DIRECTORY);
    e2e_acct(deeper, "openat", 'o', dfd, -1, "directory");
    e2e_expect(dfd >= 0, 1, "open deeper");
    fd = openat(dfd, "at.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);
    e2e_join(p, sizeof p, deeper, "at.dat");
    e2e_acct(p, "openat", 'o', fd, -1, "regular");
    e2e_expect(fd >= 0, 1, "openat dirfd");
    rw(p, fd, 1, 21, 0, 21);
    e2e_expect(lseek(fd, 1, SEEK_SET), 1, "lseek");
    rw(p, fd, 0, 100, 1, 20);
    close(fd);
    e2e_expect(fchdir(dfd), 0, "fchdir");
    fd = open_rel("fchdir.dat", e2e_join(p, sizeof p, deeper, "fchdir.dat"), O_CREAT | O_WRONLY | O_TRUNC);
    rw(p, fd, 1, 3, 0, 3);
    close(fd);
    close(dfd);

    e2e_expect(chdir(".."), 0, "chdir ..");
    fd = open_rel("rel.dat", e2e_join(p, sizeof p, sub, "rel.dat"), O_RDONLY);
    rw(p, fd, 0, 100, 0, 11);
    close(fd);
    e2e_expect(chdir(dir), 0, "chdir back");
}

static void odd_names(const char *dir)
{
    static const char *const names[] = {
        "a b.txt", "q\"uote.txt", "new\nline.txt", "tab\there.txt", "back\\slash.txt",
        "lt<gt>.txt", "a,b.txt", "bad\xff\xfe.bin", "x) = 5 <0.1>", "it's.txt",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[4096];
        e2e_join(p, sizeof p, dir, names[i]);
        e2e_fill(buf, sizeof buf, (char)i);
        int fd = e2e_open(p, O_CREAT | O_WRONLY | O_TRUNC, "regular");
        e2e_expect(fd >= 0, 1, "open odd name for writing");
        rw(p, fd, 1, 7 + i, 0, (long long)(7 + i));
        close(fd);
        fd = e2e_open(p, O_RDONLY, "regular");
        e2e_expect(fd >= 0, 1, "open odd name for reading");
        rw(p, fd, 0, 3, 0, 3);
        close(fd);
    }
}

int main(int argc, char **argv)
{
    e2e_prog = "io_paths";
    if (argc != 2)
        e2e_die("usage: io_paths WORKDIR");
    relative_opens(argv[1]);
    odd_names(argv[1]);
    fprintf(stderr, "io_paths: done\n");
    return 0;
}
