/* io_special: I/O that is not regular-file I/O - a pipe, a socket pair,
 * /dev/null, /proc reads - next to a regular file read through an fd that was
 * opened before the trace started (stdin, redirected by the test driver from
 * WORKDIR/inherited.txt: its path is only knowable with -y/-yy).
 * usage: io_special WORKDIR < WORKDIR/inherited.txt */
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <sys/wait.h>

#include "e2e_acct.h"

static char buf[65536];

static void on_alarm(int sig) { (void)sig; }

/* A read on a pipe interrupted by a signal with SA_RESTART: strace logs
 * "= ? ERESTARTSYS", the signal, and the restarted read. */
static void restarted_read(void)
{
    int p[2];
    e2e_expect(pipe(p), 0, "pipe");
    struct sigaction sa = {.sa_handler = on_alarm, .sa_flags = SA_RESTART};
    sigemptyset(&sa.sa_mask);
    e2e_expect(sigaction(SIGALRM, &sa, NULL), 0, "sigaction");
    pid_t pid = fork();
    if (pid == 0) { /* the writer: after the reader was interrupted once */
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
        ssize_t w = write(p[1], "late", 4);
        e2e_acct("", "write", 'w', w, -1, "pipe");
        _exit(0);
    }
    struct itimerval it = {.it_value = {0, 50 * 1000}};
    e2e_expect(setitimer(ITIMER_REAL, &it, NULL), 0, "setitimer");
    char c[4];
    ssize_t r = read(p[0], c, sizeof c);
    e2e_acct("", "read", 'r', r, -1, "pipe");
    e2e_expect(r, 4, "restarted pipe read");
    int status;
    e2e_expect(waitpid(pid, &status, 0), pid, "waitpid");
    close(p[0]);
    close(p[1]);
}

int main(int argc, char **argv)
{
    e2e_prog = "io_special";
    if (argc != 2)
        e2e_die("usage: io_special WORKDIR");
    char inherited[4096];
    e2e_join(inherited, sizeof inherited, argv[1], "inherited.txt");
    e2e_fill(buf, sizeof buf, 2);

    int p[2];
    e2e_expect(pipe(p), 0, "pipe");
    ssize_t r = write(p[1], buf, 100);
    e2e_acct("", "write", 'w', r, -1, "pipe");
    r = read(p[0], buf, 100);
    e2e_acct("", "read", 'r', r, -1, "pipe");
    r = pread(p[0], buf, 10, 0); /* ESPIPE */
    e2e_acct("", "pread64", 'r', r, -1, "pipe");
    e2e_expect(r, -1, "pread on a pipe");
    close(p[0]);
    close(p[1]);

    int s[2];
    e2e_expect(socketpair(AF_UNIX, SOCK_STREAM, 0, s), 0, "socketpair");
    r = write(s[0], buf, 50);
    e2e_acct("", "write", 'w', r, -1, "socket");
    r = read(s[1], buf, 50);
    e2e_acct("", "read", 'r', r, -1, "socket");
    close(s[0]);
    close(s[1]);

    int fd = e2e_open("/dev/null", O_RDWR, "device");
    r = write(fd, buf, 1000);
    e2e_acct("/dev/null", "write", 'w', r, -1, "device");
    r = read(fd, buf, 1000);
    e2e_acct("/dev/null", "read", 'r', r, -1, "device");
    close(fd);

    fd = e2e_open("/proc/self/stat", O_RDONLY, "procfs");
    do {
        r = read(fd, buf, 64);
        e2e_acct("/proc/self/stat", "read", 'r', r, -1, "procfs");
    } while (r > 0);
    close(fd);

    restarted_read();

    long long off = 0;
    do { /* stdin: a regular file opened by the driver, before strace ran */
        r = read(STDIN_FILENO, buf, 1000);
        e2e_acct(inherited, "read", 'r', r, off, "inherited");
        off += r > 0 ? r : 0;
    } while (r > 0);
    e2e_expect(off, 2345, "bytes of inherited.txt");
    fprintf(stderr, "io_special: done\n");
    return 0;
}
