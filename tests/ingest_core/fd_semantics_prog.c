/* A program whose fds change in the ways a review found the model missed
 * (review 45), for the strace test: each file's bytes are known.
 * 1. x.txt: an O_CLOEXEC fd 7 made inheritable by ioctl(FIONCLEX), as
 *    CPython's os.set_inheritable does; a forked child execs this program,
 *    which writes 43 bytes to fd 7.
 * 2. s.txt: 1000 bytes written, 300 spliced from it into a pipe, then 10
 *    read at offset 300.
 * 3. a.txt: opened O_APPEND; 100 bytes written, then a pwrite of 10 at
 *    offset 0, which Linux appends.
 * 4. o.txt: openat2 with O_APPEND in its struct; 7 bytes written.
 * 5. keep.txt on fd 9; a thread unshares its fd table, puts thr.txt on
 *    fd 9 and writes 5 bytes; the main thread then writes 9 to fd 9.
 * Usage: fd_semantics_prog DIR; exit 0 when every call did what it should. */
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static char buf[1000];
static const char *dir;

static int open_in(const char *name, int flags)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return open(path, flags, 0644);
}

static int inheritable_by_ioctl(const char *self)
{
    int fd = open_in("x.txt", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC);
    if (fd < 0 || dup3(fd, 7, O_CLOEXEC) != 7 || ioctl(7, FIONCLEX) != 0)
        return 1;
    pid_t pid = fork();
    if (pid == 0) {
        execl(self, self, dir, "child", (char *)NULL);
        _exit(1);
    }
    int status;
    waitpid(pid, &status, 0);
    close(7);
    close(fd);
    return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static int spliced(void)
{
    int p[2], fd = open_in("s.txt", O_RDWR | O_CREAT | O_TRUNC);
    if (fd < 0 || pipe(p) != 0 || write(fd, buf, 1000) != 1000 || lseek(fd, 0, SEEK_SET) != 0)
        return 1;
    if (splice(fd, NULL, p[1], NULL, 300, 0) != 300 || read(fd, buf, 10) != 10)
        return 1;
    close(p[0]), close(p[1]), close(fd);
    return 0;
}

static int appended(void)
{
    int fd = open_in("a.txt", O_RDWR | O_CREAT | O_TRUNC | O_APPEND);
    if (fd < 0 || write(fd, buf, 100) != 100 || pwrite(fd, buf, 10, 0) != 10)
        return 1;
    close(fd);
    char path[4096];
    snprintf(path, sizeof path, "%s/o.txt", dir);
    struct open_how how = {.flags = O_WRONLY | O_CREAT | O_APPEND, .mode = 0644};
    long o = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
    if (o < 0 || write((int)o, buf, 7) != 7)
        return 1;
    close((int)o);
    return 0;
}

static void *own_table(void *arg)
{
    (void)arg;
    int fd;
    if (unshare(CLONE_FILES) != 0 || close(9) != 0 || (fd = open_in("thr.txt", O_WRONLY | O_CREAT | O_TRUNC)) < 0 ||
        dup2(fd, 9) != 9 || write(9, buf, 5) != 5)
        return (void *)1;
    return NULL;
}

static int unshared(void)
{
    int fd = open_in("keep.txt", O_WRONLY | O_CREAT | O_TRUNC);
    pthread_t t;
    void *rc;
    if (fd < 0 || dup2(fd, 9) != 9 || pthread_create(&t, NULL, own_table, NULL) != 0 || pthread_join(t, &rc) != 0)
        return 1;
    return rc != NULL || write(9, buf, 9) != 9;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    dir = argv[1];
    memset(buf, 'x', sizeof buf);
    if (argc == 3)
        return write(7, buf, 43) != 43;
    return inheritable_by_ioctl(argv[0]) || spliced() || appended() || unshared();
}
