/* hostile_names: the traced program of hostile_names_test.py. In the
 * current directory it writes and reads back files whose names are markup,
 * hold a newline, a comma and quotes, a backslash sequence, or bytes that
 * are not UTF-8. Each file gets a different size (1..7 MiB) so that all of
 * them are among the top files of the report. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const names[] = {
    "<script>alert(1)</script>",      /* needs the directory "<script>alert(1)<" */
    "\"><img src=x onerror=alert(1)>",
    "new\nline.bin",
    "bad\xff\xfe.bin",
    "comma,\"quote\".bin",
    "lit\\x41.bin",
    "&amp;<![CDATA[x]]><!--c-->.bin",
};

static int write_and_read(const char *name, size_t size)
{
    static char block[1 << 16];
    memset(block, 'x', sizeof block);
    int fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    for (size_t done = 0; done < size; done += sizeof block)
        if (write(fd, block, sizeof block) != (ssize_t)sizeof block)
            return -1;
    close(fd);
    fd = open(name, O_RDONLY);
    if (fd < 0)
        return -1;
    while (read(fd, block, sizeof block) > 0)
        ;
    return close(fd);
}

int main(void)
{
    mkdir("<script>alert(1)<", 0755);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (write_and_read(names[i], (i + 1) << 20) != 0) {
            perror(names[i]);
            return 1;
        }
    return 0;
}
