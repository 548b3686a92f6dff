/* A program that forks, for the test of -ff logs whose stamps cannot order
 * them (-r): chdir DIR, writes 100 bytes to a.bin, sleeps 50 ms (so that
 * the parent's -r stamps add up to far more than the child's), forks a
 * child that sleeps 20 ms, then writes 7 bytes to a.bin through the
 * inherited fd and 200 bytes to b.bin, opened by a relative path (resolved
 * against the cwd it inherited); the parent writes 50 more bytes to a.bin
 * while the child sleeps (traced to stderr, a line logged with the
 * parent's pid) and waits for it. a.bin: 157 bytes in 3 writes, b.bin:
 * 200. Writes nothing to stdout or stderr. Usage: fork_prog DIR */
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_all(int fd, const char *buf, size_t n) { return write(fd, buf, n) == (ssize_t)n ? 0 : -1; }

static int child(int a)
{
    char buf[200];
    memset(buf, 'c', sizeof buf);
    usleep(20000);
    int b = open("b.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (b < 0 || write_all(a, buf, 7) < 0 || write_all(b, buf, 200) < 0)
        return 1;
    return close(b) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 2 || chdir(argv[1]) != 0)
        return 2;
    char buf[100];
    memset(buf, 'p', sizeof buf);
    int a = open("a.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (a < 0 || write_all(a, buf, 100) < 0)
        return 1;
    usleep(50000);
    pid_t pid = fork();
    if (pid == 0)
        _exit(child(a));
    int status;
    if (pid < 0 || write_all(a, buf, 50) < 0 || waitpid(pid, &status, 0) != pid)
        return 1;
    close(a);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
