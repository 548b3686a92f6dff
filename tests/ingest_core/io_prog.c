/* A program with known I/O for the strace smoke test: writes 3 x 1000 bytes
 * to OUT, reads them back in 700-byte reads (700+700+700+700+200), preads 10
 * bytes at 100, forks a child that reads 300 bytes through an inherited fd,
 * and fails one open. Usage: io_prog DIR */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    char path[4096], buf[1000];
    snprintf(path, sizeof path, "%s/data.bin", argv[1]);
    memset(buf, 'x', sizeof buf);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    for (int i = 0; i < 3; i++)
        if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            return 1;
    close(fd);
    fd = open(path, O_RDONLY);
    ssize_t n;
    while ((n = read(fd, buf, 700)) > 0) {
    }
    if (pread(fd, buf, 10, 100) != 10)
        return 1;
    lseek(fd, 0, SEEK_SET);
    pid_t pid = fork();
    if (pid == 0) {
        _exit(read(fd, buf, 300) == 300 ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    close(fd);
    snprintf(path, sizeof path, "%s/missing.bin", argv[1]);
    if (open(path, O_RDONLY) >= 0)
        return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
