/* Differential test of the strace line lexer: ingest/strace_line.c (with its
 * fast paths) against the frozen reference lexer of sline_reference.c, which
 * must agree on every field of every line and on every nr_sarg_* answer.
 * Inputs: the captured logs and the fuzz seed corpus, the line shapes of
 * the generated benchmark log (bench/gen_strace_log.c) and edge shapes of
 * the fast paths (those with a pid also without it, as in -ff files, with
 * it as "[pid  N] ", as written to stderr, and padded to 5 columns, as
 * strace -o writes it), each also cut at every length, with each byte
 * replaced by each of the bytes the lexer treats specially, and with each
 * byte deleted.
 * Every line is parsed from an exact-size heap copy, so ASan sees any read
 * past its end. Deterministic; no known answers needed beyond "the same". */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "strace_line.h"
#include "sline_diff.h"

/* The shapes of the generated log (-f -o -ttt -T -y) and the edges of the
 * fast paths: stamp digits, fraction lengths, pid widths, durations. */
static const char *const shapes[] = {
    "4242 1764480000.123489 read(4</models/resnet50.pt>, \"\\2\\0\\0\\0\\0\\0\\0\\0\"..., 1048576) = 1048576 <0.000167>",
    "4328 1764480000.124259 lseek(41</data/imagenet/train/n06217831/n06217831_10056.JPEG>, 0, SEEK_CUR) = 0 <0.000006>",
    "4328 1764480000.124243 newfstatat(41</data/imagenet/train/n06217831/n06217831_10056.JPEG>, \"\", "
    "{st_mode=S_IFREG|0644, st_size=108372, ...}, AT_EMPTY_PATH) = 0 <0.000001>",
    "4328 1764480000.124248 ioctl(41</data/imagenet/train/n06217831/n06217831_10056.JPEG>, TCGETS, 0x7ffd3a1cfdb0) "
    "= -1 ENOTTY (Inappropriate ioctl for device) <0.000002>",
    "4242 1764480000.124124 close(4</models/resnet50.pt>) = 0 <0.000014>",
    "4314 1764480000.126644 ioctl(42</dev/shm/torch_4314_1_0>(deleted), TCGETS, 0x7ffd3a1c5600) "
    "= -1 ENOTTY (Inappropriate ioctl for device) <0.000008>",
    "4314 1764480000.126650 close(42</dev/shm/torch_4314_1_0>(deleted)) = 0 <0.000002>",
    "4349 1764480000.125504 pread64(41</data/laion400m/shards/shard-00000.tar>, \"000123456.jpg\\0\\0\"..., 131072, "
    "24142336) = 131072 <0.000232>",
    "4242 1764480000.123468 openat(AT_FDCWD</home/mlperf/run>, \"train.log\", O_WRONLY|O_CREAT|O_APPEND|O_CLOEXEC, "
    "0666) = 3</home/mlperf/run/train.log> <0.000045>",
    "4321 1764480000.124519 write(15<pipe:[884321]>, \"\\200\\4\\225\\35\\1\\0\"..., 4096) = 4096 <0.000003>",
    "4242 1764480000.124136 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
    "child_tidptr=0x7f3a5c2b2a10) = 4300 <0.002312>",
    "4307 1764480000.124512 read(41</data/imagenet/train/n03555040/n03555040_10000.JPEG>,  <unfinished ...>",
    "4307 1764480000.124522 <... read resumed>\"\\237\\316\\373\"..., 131072) = 9268 <0.000007>",
    "4342 1764480000.125654 <... read resumed>\"\", 131072) = 0 <0.000012>",
    /* stamp and pid edges */
    "1 1.5 read(3, \"\", 1) = 0 <0.1>",
    "4194304 1764480000.123456789 close(3) = 0 <0.000000001>",
    "4194305 1764480000.12345678 close(3) = 0 <0.00000001>",
    "12345678 1764480000.1234567 close(3) = 0 <0.0000001>",
    "42 9223372035.999999 close(3) = 0 <1.5>",
    "42 9223372036.5 close(3) = 0 <12345678901.5>",
    "42 1234567890123456.5 close(3) = 0 <123456789012.5>",
    "42 12345678901234567.5 close(3) = 0 <1234567890123.5>",
    "42 99999999.5 close(3) = 0 <0.5>",
    "42 100000000.5 close(3) = 0 <0.1234567890>",
    "42  \t1764480000.123456 \t close(3) = 0 <0.000001>",
    "42 1764480000.123456 1764480000.123457 close(3) = 0",
    "42 1764480000.123456 (+     0.000123) close(3) = 0",
    "42 1764480000.123456 [ 39] close(3) = 0",
    "42 1764480000. close(3) = 0",
    "42 1764480000.1234567890 close(3) = 0",
    "42 1764480000.123456",
    "42 1764480000.123456 ",
    "42 17644800001764480000.1 read(3) = 0",
    "42 12:34:56.123456 close(3) = 0 <0.000001>",
    "42<python3> 1764480000.123456 close(3) = 0",
    "[pid  4242] 1764480000.123456 close(3) = 0 <0.000001>",
    /* the one-pass prefix of lines of 64 bytes and more: ten seconds digits
     * with leading zeros, the stamp's limits, other digit counts */
    "42 0099999999.123456 read(3</data/x.bin>, \"abc\"..., 131072) = 131072 <0.000040>",
    "42 0100000000.123456 read(3</data/x.bin>, \"abc\"..., 131072) = 131072 <0.000040>",
    "42 9223372035.999999 read(3</data/x.bin>, \"abc\"..., 131072) = 131072 <0.000040>",
    "42 9223372036.000000 read(3</data/x.bin>, \"abc\"..., 131072) = 131072 <0.000040>",
    "42 9223371999.999999 read(3</data/x.bin>, \"abc\"..., 131072) = 131072 <0.000040>",
    "4194305 1764480000.123 read(3</data/x.bin>, \"abc\"..., 131072) = 131072 <0.000040>",
    "1234567 12345.123456789 read(3</data/x.bin>, \"abc\"..., 131072) = 131072 <0.000040>",
    "7 1.1234567890 read(3</data/x.bin>, \"abc\"..., 131072) = 131072 <0.000040>",
    "7 1764480000.123456 a_very_long_name_of_a_call(3</data/x.bin>, \"abc\"..., 131072) = 1 <0.000040>",
    "7 1764480000.123456 _llseek(3</data/x.bin>, \"abc\"..., 131072) = 1 <0.000040>",
    "7 1764480000.123456 read(3</data/x.bin>, \"abc\\\\\"..., 131072) = 1 <0.000040>",
    "7 1764480000.123456 read(3</data/x.bin>, \"abc\\\\\\\"\"..., 131072) = 1 <0.000040>",
    "7 1764480000.123456 read(3</data/x.bin>, \"a\"b\"c(\"..., 131072) = 1 <unfinished ...>",
    " <detached ...>",
    " <detached ...> ",
    "  <detached ...",
    "17550 1796462451.101399 execve(\"/bin/sh\", [\"sh\"], 0x7ffc29fbadf8 /* 41 vars */ <pid changed to 17549 ...>",
    "execve(\"/x\", [], 0x1 <pid changed to 17549 ...>",
    "execve(\"/x\", [], 0x1 <pid changed to ...>",
    "execve(\"/x\", [], 0x1 <pid changed to 1x ...>",
    "execve(\"/x\", [], 0x1 <pid changed to 12 ...> ",
    "execve(\"/x\", [], 0x1<pid changed to 12 ...>",
    "execve(<pid changed to 12 ...>",
    "execve(\"/x\", [], 0x1 <pid changed to <pid changed to 12 ...>",
    "execve(\"/x\", [], 0x1 pid changed to 12 ...>",
    /* summary tables with -U columns */
    "syscall              calls    errors",
    "    calls syscall             errors",
    "newfstatat             634        84",
    "        7 read                      ",
    "      148 total                   26",
    "        1           munmap",
    "\xEF\xBB\xBF        1           munmap",
    "  \t read\t 5",
    "read 5",
    "read  .5",
    "read  5.",
    "read  5.5.5",
    "re?d  5",
    "9read  5",
    "_x  5  6",
    "x  5  y",
    "syscall  calls",
    "syscall",
    "% time calls",
    "1234 read  5",
    "[pid 12] read  5",
    "1700000000.5 read  5",
    /* results, annotations, durations */
    "42 1764480000.123456 read(3</a\\>b>, \"x\", 1) = 1 <0.000001>",
    "42 1764480000.123456 read(3</a[b]>, \"x\", 1) = 1 <0.000001>",
    "42 1764480000.123456 read(3<TCP:[1.2.3.4:5->6.7.8.9:10]>, \"x\", 1) = 1 <0.000001>",
    "42 1764480000.123456 read(3</dev/pts/0<char 136:0>>, \"x\", 1) = 1 <0.000001>",
    /* an annotation the walk hands to the SSE2 scan inside a group, and a
       closer of another kind after it */
    "42 1764480000.123456 ppoll([{fd=3<TCP:[1.2.3.4:5->6.7.8.9:10]>, events=POLLIN}], 1, NULL, NULL, 8) = 1 "
    "([{fd=3, revents=POLLIN}]) <0.000001>",
    "42 1764480000.123456 ioctl({a=3</dev/pts/0<char 136:0>>], \")\", (1)) = 1 <0.000001>",
    "42 1764480000.123456 read(118<pipe:[884342]>, \"\\200\\4\"..., 4096) = 4096 <0.000037>",
    "42 1764480000.123456 read(5<a[b]c[d]>, \"x\", 1) = 1 <0.000001>",
    "42 1764480000.123456 read(5<a]b[>c]>, \"x\", 1) = 1 <0.000001>",
    "42 1764480000.123456 pipe2([3<pipe:[1]>, 4<pipe:[1]>], O_CLOEXEC) = 0 <0.000001>",
    "42 1764480000.123456 accept(3<TCP:[1.2.3.4:5]>, NULL, NULL) = 4<TCP:[1.2.3.4:5->6.7.8.9:10]> <0.000001>",
    "42 1764480000.123456 openat(AT_FDCWD, \"x\", O_RDONLY) = 5</a/b<c>> <0.000001>",
    "42 1764480000.123456 openat(AT_FDCWD, \"x\", O_RDONLY) = 12345678901</a> <0.000001>",
    "42 1764480000.123456 lseek(3, 0, SEEK_END) = 18446744073709551615 <0.000001>",
    "42 1764480000.123456 lseek(3, 0, SEEK_END) = 18446744073709551616 <0.000001>",
    "42 1764480000.123456 lseek(3, 0, SEEK_END) = -9223372036854775808 <0.000001>",
    "42 1764480000.123456 lseek(3, 0, SEEK_END) = -18446744073709551615 <999999999999.999999999>",
    "42 1764480000.123456 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 3, 0) = 0x7f3a5c2b2000 <0.000001>",
    "42 1764480000.123456 read(3, 0x1, 1) = ? <unavailable>",
    "42 1764480000.123456 read(3, 0x1, 1) = 1 <0.000001",
    "42 1764480000.123456 read(3, 0x1, 1) = 1 <.5>",
    "42 1764480000.123456 read(3, 0x1, 1) = 1 <0.0000x0>",
    "42 1764480000.123456 read(3, 0x1, 1) = 1 <1e-5> <0.000001>",
    "42 1764480000.123456 read(3, 0x1, 1) = 1 <unavailable> <abc>",
    "42 1764480000.123456 futex(0x1, FUTEX_WAKE_OP, 1, 1<<28, 0x2, FUTEX_OP_SET<<28|0<<12) = 1 <0.000001>",
    "42 1764480000.123456 close(0xffffff9c /* AT_FDCWD */) = 0",
    "42 1764480000.123456 close(-100) = 0",
    "42 1764480000.123456 close(2147483648) = 0",
    "42 1764480000.123456 close(12345678, 1) = 0",
    "42 1764480000.123456 close( 3 ) = 0",
    "42 1764480000.123456 close(3<<2) = 0",
    /* the 32-byte scans (lines of 64 bytes and more): errno names of 16
     * and more bytes, result annotations with other special bytes, a
     * string across 32-byte steps, the 10.6 stamp after a 7-digit pid */
    "42 1764480000.123456 epoll_wait(3<anon_inode:[eventpoll]>, [], 1024, 100) = -1 ERESTART_RESTARTBLOCK "
    "(Interrupted by signal) <0.000010>",
    "42 1764480000.123456 epoll_wait(3</x>, [], 1024, 100) = -1 EABCDEFGHIJKLMNOP (x) <0.000010>",
    "42 1764480000.123456 epoll_wait(3</x>, [], 1024, 100) = -1 EABCDEFGHIJKLMNOPQRSTUVWXYZABCDEF (x) <0.000010>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a(b)\", O_RDONLY) = 3</home/u/a(b){c}> <0.000010>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = 3</home/u/a[1]\\>x> <0.000010>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = 3<socket:[1]->[2]> <0.000010>",
    "42 1764480000.123456 read(3</data/x.bin>, \"0123456789012345678901234567890123456789012345678901234567\\\"\"..., "
    "131072) = 131072 <0.000040>",
    "1234567 1764480000.123456 close(3</data/imagenet/train/n08332107/n08332107_10180.JPEG>) = 0 <0.000009>",
    "1234567 1764480000.123456 close(3</data/imagenet/train/n08332107/n08332107_10180.JPEG>) = 1234567 <9.999999>",
    "1234567 1764480000.123456 close(3</data/imagenet/train/n08332107/n08332107_10180.JPEG>) = 12345678 <9.999999>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = 1234567</home/u/a> <0.000010>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = 12345678</home/u/a> <0.000010>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = 3</home/u/a> <0.00001>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = 3</home/u/a> <0.0000100>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = 3<> <0.000010>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = 3</home/u/a>> <0.000010>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = -1 ENOENT () <0.000010>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = -1 ENOENT (a (b) \"c)\" <d>) <0.000010>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = -1 ENOENT (x) y) <0.000010>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = -1 ENOENT(x) <0.000010>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = -10 ENOENT (x) <0.000010>",
    "42 1764480000.123456 openat(AT_FDCWD</home/u>, \"a\", O_RDONLY) = -1 E (x) <1.000010>",
};

static const char special_bytes[] = "\"()[]{}<>,\\ \t0129.:-=x/*?+|%\n";

/* Fails with the line and the field when the two lexers differ. */
static void check(const char *text, size_t len, size_t tails)
{
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    const char *d = sline_diff(copy, len, tails);
    if (d)
        fail_msg("%s differs on: %.*s", d, (int)len, copy);
    free(copy);
}

/* The line, every cut of it, every one-byte replacement by a special byte
 * and every one-byte deletion. */
static void check_with_mutations(const char *line, size_t len)
{
    char buf[1024];
    if (len > sizeof buf)
        len = sizeof buf;
    check(line, len, 64);
    for (size_t cut = 0; cut < len; cut++)
        check(line, cut, 0);
    for (size_t i = 0; i < len; i++) {
        memcpy(buf, line, len);
        for (const char *b = special_bytes; *b; b++) {
            buf[i] = *b;
            check(buf, len, 0);
        }
        memcpy(buf, line, i);
        memcpy(buf + i, line + i + 1, len - i - 1);
        check(buf, len - 1, 0);
    }
}

/* The line of an -ff file (no pid) that a shape "PID rest" stands for:
 * rest, or NULL when the shape has no pid. */
static const char *without_pid(const char *shape)
{
    const char *p = shape;
    while (*p >= '0' && *p <= '9')
        p++;
    return p > shape && *p == ' ' ? p + 1 : NULL;
}

static void line_shapes(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        check_with_mutations(shapes[k], strlen(shapes[k]));
        const char *ff = without_pid(shapes[k]);
        if (!ff)
            continue;
        check_with_mutations(ff, strlen(ff));
        /* -f to stderr: "[pid  N] rest", the pid right-aligned in 5; and
           -o FILE as strace writes it: "N    rest", the pid left-aligned */
        const int digits = (int)(ff - 1 - shapes[k]);
        char form[1100];
        int n = snprintf(form, sizeof form, "[pid %5.*s] %s", digits, shapes[k], ff);
        assert_true(n > 0 && (size_t)n < sizeof form);
        check_with_mutations(form, (size_t)n);
        n = snprintf(form, sizeof form, "%-5.*s %s", digits, shapes[k], ff);
        assert_true(n > 0 && (size_t)n < sizeof form);
        check_with_mutations(form, (size_t)n);
    }
}

static void check_file(const char *dir, const char *name)
{
    const char *src = getenv("NR_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/%s/%s", src ? src : ".", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    static char line[1 << 16];
    unsigned lines = 0;
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n')
            n--;
        check_with_mutations(line, n);
        lines++;
    }
    fclose(f);
    assert_true(lines > 0);
}

static void captured_logs(void **state)
{
    (void)state;
    check_file("ingest_line/data", "strace61_f_o_ttt_T_yy.log");
    check_file("ingest_line/data", "strace61_stderr_tt_T.log");
    check_file("ingest_line/data", "strace61_flags.log");
}

static void fuzz_seeds(void **state)
{
    (void)state;
    check_file("fuzz/corpus/strace_line", "handwritten.log");
    check_file("fuzz/corpus/strace_line", "generated_f_ttt_T_y.log");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_shapes),
        cmocka_unit_test(captured_logs),
        cmocka_unit_test(fuzz_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
