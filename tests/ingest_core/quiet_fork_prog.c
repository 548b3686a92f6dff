/* A program whose first process the strace log may never name when
 * strace -f writes to stderr: it forks a child that writes 7 bytes to
 * a.bin and exits, and spins 200 ms in user space (no syscall: the clock
 * is the vDSO's) while the child runs, so that no line of its own needs a
 * [pid N] prefix; then it waits, writes 50 more bytes and exits. SIGCHLD
 * is blocked (its delivery would be a [pid N] line). chdir DIR first;
 * a.bin: 157 bytes in 3 writes. Writes nothing to stdout or stderr.
 * Usage: quiet_fork_prog DIR */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void spin_ms(long ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

static int write_all(int fd, const char *buf, size_t n) { return write(fd, buf, n) == (ssize_t)n ? 0 : -1; }

int main(int argc, char **argv)
{
    if (argc != 2 || chdir(argv[1]) != 0)
        return 2;
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    char buf[100];
    memset(buf, 'p', sizeof buf);
    int a = open("a.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (a < 0 || write_all(a, buf, 100) < 0)
        return 1;
    pid_t pid = fork();
    if (pid == 0)
        _exit(write_all(a, buf, 7) == 0 ? 0 : 1);
    spin_ms(200);
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || write_all(a, buf, 50) < 0)
        return 1;
    close(a);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
