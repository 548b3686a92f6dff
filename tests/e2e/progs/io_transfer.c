/* io_transfer: sendfile and copy_file_range, which count for both ends
 * (bytes read from the source, bytes written to the destination), with and
 * without explicit offsets; sendfile into /dev/null counts only the source as
 * file I/O. usage: io_transfer WORKDIR */
#include <sys/sendfile.h>

#include "e2e_acct.h"

static char buf[16384];

/* One transfer call recorded against both ends. */
static void both_ends(const char *sys, const char *src, const char *dst, const char *dst_kind,
                      long long r)
{
    e2e_acct(src, sys, 'r', r, -1, "regular");
    e2e_acct(dst, sys, 'w', r, -1, dst_kind);
}

int main(int argc, char **argv)
{
    e2e_prog = "io_transfer";
    if (argc != 2)
        e2e_die("usage: io_transfer WORKDIR");
    const char *dir = argv[1];
    char src[4096], dst[4096], dst2[4096];
    e2e_join(src, sizeof src, dir, "src.dat");
    e2e_join(dst, sizeof dst, dir, "sendfile_dst.dat");
    e2e_join(dst2, sizeof dst2, dir, "cfr_dst.dat");

    int fd = e2e_open(src, O_CREAT | O_WRONLY | O_TRUNC, "regular");
    e2e_fill(buf, 10000, 3);
    ssize_t r = write(fd, buf, 10000);
    e2e_acct(src, "write", 'w', r, 0, "regular");
    e2e_expect(r, 10000, "write src");
    close(fd);

    int in = e2e_open(src, O_RDONLY, "regular");
    int out = e2e_open(dst, O_CREAT | O_WRONLY | O_TRUNC, "regular");
    e2e_expect(in >= 0 && out >= 0, 1, "open src/dst");
    r = sendfile(out, in, NULL, 4000); /* advances in's offset to 4000 */
    both_ends("sendfile", src, dst, "regular", r);
    e2e_expect(r, 4000, "sendfile");
    off_t at = 8000;
    r = sendfile(out, in, &at, 5000); /* explicit offset: 2000 bytes to EOF */
    both_ends("sendfile", src, dst, "regular", r);
    e2e_expect(r, 2000, "sendfile with offset");
    close(out);

    int out2 = e2e_open(dst2, O_CREAT | O_WRONLY | O_TRUNC, "regular");
    r = copy_file_range(in, NULL, out2, NULL, 3000, 0); /* from in's offset 4000 */
    both_ends("copy_file_range", src, dst2, "regular", r);
    e2e_expect(r, 3000, "copy_file_range");
    loff_t in_at = 0, out_at = 10000;
    r = copy_file_range(in, &in_at, out2, &out_at, 100, 0);
    both_ends("copy_file_range", src, dst2, "regular", r);
    e2e_expect(r, 100, "copy_file_range with offsets");
    close(out2);

    int devnull = e2e_open("/dev/null", O_WRONLY, "device");
    r = sendfile(devnull, in, NULL, 500); /* from offset 7000 */
    both_ends("sendfile", src, "/dev/null", "device", r);
    e2e_expect(r, 500, "sendfile to /dev/null");
    close(devnull);
    r = read(in, buf, 100);
    e2e_acct(src, "read", 'r', r, 7500, "regular");
    e2e_expect(r, 100, "read after transfers");
    close(in);
    fprintf(stderr, "io_transfer: done\n");
    return 0;
}
