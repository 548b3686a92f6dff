/* io_procs: processes and threads.
 *  - fork children share the parent's open file description (one offset);
 *  - a child opens its own file and exits without closing it;
 *  - pthreads share the fd table: a thread opens, the main thread writes;
 *    concurrent threads produce <unfinished ...>/<... resumed> pairs;
 *  - vfork + execve: an O_CLOEXEC fd is gone in the new image (a read on its
 *    number fails with EBADF and belongs to no file), a plain fd survives.
 * usage: io_procs WORKDIR | io_procs --exec-child WORKDIR FD_KEPT FD_CLOEXEC */
#include <pthread.h>
#include <sys/wait.h>

#include "e2e_acct.h"

static void rw(const char *path, int fd, int is_write, size_t n, long long off, long long want)
{
    static __thread char buf[4096];
    if (is_write)
        e2e_fill(buf, n, 5);
    ssize_t r = is_write ? write(fd, buf, n) : read(fd, buf, n);
    e2e_acct(path, is_write ? "write" : "read", is_write ? 'w' : 'r', r, off, "regular");
    e2e_expect(r, want, is_write ? "write" : "read");
}

static void wait_ok(pid_t pid)
{
    int status;
    e2e_expect(waitpid(pid, &status, 0), pid, "waitpid");
    e2e_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, 1, "child exit status");
}

static void fork_shared_offset(const char *dir)
{
    char path[4096], own[4096];
    e2e_join(path, sizeof path, dir, "fork_shared.dat");
    e2e_join(own, sizeof own, dir, "child_own.dat");
    int fd = e2e_open(path, O_CREAT | O_RDWR | O_TRUNC, "regular");
    e2e_expect(fd >= 0, 1, "open fork_shared.dat");
    rw(path, fd, 1, 300, 0, 300);
    e2e_expect(lseek(fd, 0, SEEK_SET), 0, "lseek");
    pid_t pid = fork();
    if (pid == 0) {
        rw(path, fd, 0, 100, 0, 100);
        int o = e2e_open(own, O_CREAT | O_WRONLY | O_TRUNC, "regular");
        rw(own, o, 1, 64, 0, 64);
        _exit(0); /* o is closed by exit, not by close() */
    }
    wait_ok(pid);
    rw(path, fd, 0, 100, 100, 100);
    pid = fork();
    if (pid == 0) {
        rw(path, fd, 1, 20, 200, 20);
        _exit(0);
    }
    wait_ok(pid);
    rw(path, fd, 0, 4096, 220, 80);
    close(fd);
}

struct thread_arg {
    const char *dir;
    int fd;
    char path[4096];
};

static void *thread_opens(void *p)
{
    struct thread_arg *a = p;
    e2e_join(a->path, sizeof a->path, a->dir, "thread_opened.dat");
    a->fd = e2e_open(a->path, O_CREAT | O_RDWR | O_TRUNC, "regular");
    rw(a->path, a->fd, 1, 33, 0, 33);
    return NULL; /* the fd stays open: the main thread uses it */
}

/* Many small preads of one file from one thread, racing with another. */
static void *thread_preads(void *p)
{
    const struct thread_arg *a = p;
    char buf[64];
    for (int i = 0; i < 200; i++) {
        ssize_t r = pread(a->fd, buf, 10, (off_t)(i % 20) * 10);
        e2e_acct(a->path, "pread64", 'r', r, (i % 20) * 10, "regular");
        e2e_expect(r, 10, "pread in thread");
    }
    return NULL;
}

/* Blocks in read() on a pipe until the main thread writes: an unfinished call. */
static void *thread_pipe_reader(void *p)
{
    int *pfd = p;
    char c[8];
    ssize_t r = read(pfd[0], c, sizeof c);
    e2e_acct("", "read", 'r', r, -1, "pipe");
    e2e_expect(r, 4, "pipe read");
    return NULL;
}

static void threads(const char *dir)
{
    struct thread_arg opener = {.dir = dir};
    pthread_t t1, t2, t3, t4;
    e2e_expect(pthread_create(&t1, NULL, thread_opens, &opener), 0, "pthread_create");
    e2e_expect(pthread_join(t1, NULL), 0, "pthread_join");
    rw(opener.path, opener.fd, 1, 17, 33, 17); /* fd opened by the other thread */

    struct thread_arg shared = {.dir = dir};
    e2e_join(shared.path, sizeof shared.path, dir, "thread_shared.dat");
    shared.fd = e2e_open(shared.path, O_CREAT | O_RDWR | O_TRUNC, "regular");
    rw(shared.path, shared.fd, 1, 200, 0, 200);

    int pfd[2];
    e2e_expect(pipe(pfd), 0, "pipe");
    e2e_expect(pthread_create(&t4, NULL, thread_pipe_reader, pfd), 0, "pthread_create");
    e2e_expect(pthread_create(&t2, NULL, thread_preads, &shared), 0, "pthread_create");
    e2e_expect(pthread_create(&t3, NULL, thread_preads, &shared), 0, "pthread_create");
    e2e_expect(pthread_join(t2, NULL), 0, "pthread_join");
    e2e_expect(pthread_join(t3, NULL), 0, "pthread_join");
    ssize_t w = write(pfd[1], "wake", 4);
    e2e_acct("", "write", 'w', w, -1, "pipe");
    e2e_expect(pthread_join(t4, NULL), 0, "pthread_join");
    close(pfd[0]);
    close(pfd[1]);
    close(shared.fd);
    close(opener.fd);
}

static void vfork_exec(const char *self, const char *dir)
{
    char kept[4096], gone[4096];
    e2e_join(kept, sizeof kept, dir, "inherit.dat");
    e2e_join(gone, sizeof gone, dir, "cloexec.dat");
    int fc = e2e_open(gone, O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, "regular");
    int fk = e2e_open(kept, O_CREAT | O_RDWR | O_TRUNC, "regular");
    e2e_expect(fc >= 0 && fk >= 0, 1, "open inherit/cloexec");
    rw(gone, fc, 1, 10, 0, 10);
    rw(kept, fk, 1, 40, 0, 40);
    e2e_expect(lseek(fk, 0, SEEK_SET), 0, "lseek");
    char fk_s[16], fc_s[16];
    snprintf(fk_s, sizeof fk_s, "%d", fk);
    snprintf(fc_s, sizeof fc_s, "%d", fc);
    char *const args[] = {(char *)"io_procs", (char *)"--exec-child", (char *)dir, fk_s, fc_s, NULL};
    extern char **environ;
    pid_t pid = vfork();
    if (pid == 0) {
        execve(self, args, environ);
        _exit(127);
    }
    wait_ok(pid);
    rw(kept, fk, 0, 100, 24, 16); /* the child advanced the shared offset to 24 */
    rw(gone, fc, 0, 100, 10, 0);
    close(fk);
    close(fc);
}

static int exec_child(const char *dir, int fk, int fc)
{
    char kept[4096], own[4096];
    e2e_join(kept, sizeof kept, dir, "inherit.dat");
    e2e_join(own, sizeof own, dir, "exec_child.dat");
    rw(kept, fk, 0, 16, 0, 16);
    char c[4];
    ssize_t r = read(fc, c, sizeof c); /* EBADF: closed by exec; belongs to no file */
    e2e_acct("", "read", 'r', r, -1, "regular");
    e2e_expect(r, -1, "read on a CLOEXEC fd after exec");
    rw(kept, fk, 1, 8, 16, 8);
    int o = e2e_open(own, O_CREAT | O_WRONLY | O_TRUNC, "regular");
    rw(own, o, 1, 5, 0, 5);
    close(o);
    fprintf(stderr, "io_procs: exec child done\n");
    return 0;
}

int main(int argc, char **argv)
{
    e2e_prog = "io_procs";
    if (argc == 5 && strcmp(argv[1], "--exec-child") == 0)
        return exec_child(argv[2], atoi(argv[3]), atoi(argv[4]));
    if (argc != 2)
        e2e_die("usage: io_procs WORKDIR");
    fprintf(stderr, "io_procs: starting\n");
    fork_shared_offset(argv[1]);
    threads(argv[1]);
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    e2e_expect(n > 0, 1, "readlink /proc/self/exe");
    self[n] = '\0';
    vfork_exec(self, argv[1]);
    fprintf(stderr, "io_procs: done\n");
    return 0;
}
