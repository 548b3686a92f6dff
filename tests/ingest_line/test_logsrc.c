/* Tests of logsrc: plain, zstd and gzip logs (made here with the zstd and
 * gzip command-line tools), several frames/members, CRLF, a missing last
 * newline, an empty file, a 10 MiB line, damaged and cut compressed input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "logsrc.h"

static char tmpdir[] = "/tmp/nr_logsrc_XXXXXX";

static const char *tmp_path(const char *name)
{
    static char buf[8][512];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", tmpdir, name);
    return p;
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void run(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (system(cmd) != 0)
        fail_msg("command failed: %s", cmd);
}

static int setup(void **state)
{
    if (!mkdtemp(tmpdir))
        return -1;
    if (system("zstd --version >/dev/null 2>&1") != 0 || system("gzip --version >/dev/null 2>&1") != 0)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Reads every line of path; checks them against want[] (n lines). */
static void expect_lines(const char *path, const char *const *want, size_t n, int last_unterminated,
                         nr_log_compression comp)
{
    nr_logsrc *s;
    nr_error err;
    assert_int_equal(nr_logsrc_open(path, &s, &err), 0);
    assert_int_equal(nr_logsrc_compression(s), comp);
    const char *line;
    size_t len;
    for (size_t i = 0; i < n; i++) {
        int rc = nr_logsrc_next(s, &line, &len, &err);
        if (rc != 1)
            fail_msg("%s: line %zu: rc %d (%s)", path, i + 1, rc, err.msg);
        if (len != strlen(want[i]) || memcmp(line, want[i], len) != 0)
            fail_msg("%s: line %zu is \"%.*s\", want \"%s\"", path, i + 1, (int)len, line, want[i]);
        assert_int_equal(nr_logsrc_line_no(s), i + 1);
    }
    assert_int_equal(nr_logsrc_last_line_unterminated(s), last_unterminated);
    assert_int_equal(nr_logsrc_next(s, &line, &len, &err), 0);
    assert_int_equal(nr_logsrc_next(s, &line, &len, &err), 0);
    nr_logsrc_close(s);
}

static void plain_lines_and_counters(void **state)
{
    static const char text[] = "a\nbb\n\nccc";
    const char *path = tmp_path("plain.log");
    write_file(path, text, sizeof text - 1);
    static const char *const want[] = {"a", "bb", "", "ccc"};
    expect_lines(path, want, 4, 1, NR_LOG_PLAIN);

    nr_logsrc *s;
    nr_error err;
    const char *line;
    size_t len;
    assert_int_equal(nr_logsrc_open(path, &s, &err), 0);
    assert_int_equal(nr_logsrc_next(s, &line, &len, &err), 1);
    assert_int_equal(nr_logsrc_bytes_out(s), 2); /* "a\n" */
    while (nr_logsrc_next(s, &line, &len, &err) == 1)
        ;
    assert_int_equal(nr_logsrc_bytes_out(s), 9);
    assert_int_equal(nr_logsrc_bytes_in(s), 9);
    assert_int_equal(nr_logsrc_line_no(s), 4);
    nr_logsrc_close(s);
}

static void crlf_and_terminated_last_line(void **state)
{
    static const char text[] = "one\r\ntwo\r\n\r\n";
    const char *path = tmp_path("crlf.log");
    write_file(path, text, sizeof text - 1);
    static const char *const want[] = {"one", "two", ""};
    expect_lines(path, want, 3, 0, NR_LOG_PLAIN);
}

/* Opens path and reads its lines; returns the first error's code (0 when
 * every line was read), its message in msg. */
static int read_to_error(const char *path, char *msg, size_t cap)
{
    nr_logsrc *s = NULL;
    nr_error err;
    int rc = nr_logsrc_open(path, &s, &err);
    const char *line;
    size_t len;
    while (rc == 0 && (rc = nr_logsrc_next(s, &line, &len, &err)) == 1)
        rc = 0;
    if (rc < 0)
        snprintf(msg, cap, "%s", err.msg);
    nr_logsrc_close(s); /* NULL when the open failed */
    return rc;
}

/* A log whose lines end in a CR alone (classic Mac OS), plain or zstd,
 * shorter or longer than the 4 KiB looked at (NR_LOGSRC_LINE_END_WINDOW),
 * is NR_E_INPUT naming it; a CR inside a line of an LF log (a progress
 * bar) and one at the end of a log of one line are not, nor CR-cut text
 * before an LF inside the window. Until session 54 it was one line: its
 * calls but the first were lost without a word. */
static void cr_line_ends_are_refused(void **state)
{
    static const char line[] = "100 1700000000.000100 read(3, \"abc\", 4096) = 3 <0.000020>";
    char text[16384];
    size_t n = 0;
    for (int i = 0; i < 3; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s\r", line);
    const char *path = tmp_path("cr.log");
    write_file(path, text, n);
    char msg[512];
    assert_int_equal(read_to_error(path, msg, sizeof msg), NR_E_INPUT);
    assert_non_null(strstr(msg, "cr.log: its lines end in a CR alone (classic Mac OS line ends)"));
    /* a peek hands out its bytes (the run's sniff; until session 55 it
       failed, and a log found by its lines was noted as no log) */
    char head[64];
    nr_error perr;
    assert_int_equal(nr_logsrc_peek(path, head, sizeof head, &perr), (long)sizeof head);
    assert_memory_equal(head, text, sizeof head);
    while (n + sizeof line + 1 < sizeof text)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s\r", line);
    const char *big = tmp_path("cr_big.log");
    write_file(big, text, n);
    assert_int_equal(read_to_error(big, msg, sizeof msg), NR_E_INPUT);
    assert_non_null(strstr(msg, "cr_big.log: its lines end in a CR alone"));
    run("zstd -q -f %s -o %s.zst", big, big);
    char zpath[600];
    snprintf(zpath, sizeof zpath, "%s.zst", big);
    assert_int_equal(read_to_error(zpath, msg, sizeof msg), NR_E_INPUT);
    assert_non_null(strstr(msg, "cr_big.log.zst: its lines end in a CR alone"));

    /* the window is the run's sniff's, plain or zstd: the first LF after
       3 KiB of CR-cut lines makes an LF log (its first line holds them,
       and the lexer skips it: test_strace_line), after 6 KiB a CR log (a
       zstd log was judged by its first decoded fill until session 56: an
       LF in it anywhere made it an LF log) */
    for (size_t cut = 3 << 10; cut <= (6 << 10); cut += 3 << 10) {
        char named[64];
        snprintf(named, sizeof named, "lf_at_%zu.log", cut);
        const char *late = tmp_path(named);
        const char was = text[cut];
        text[cut] = '\n';
        write_file(late, text, n);
        text[cut] = was;
        char zlate[600];
        snprintf(zlate, sizeof zlate, "%s.zst", late);
        run("zstd -q -f %s -o %s", late, zlate);
        for (int z = 0; z <= 1; z++) {
            msg[0] = 0;
            const int rc = read_to_error(z ? zlate : late, msg, sizeof msg);
            if (cut < NR_LOGSRC_LINE_END_WINDOW) {
                assert_int_equal(rc, 0);
            } else {
                assert_int_equal(rc, NR_E_INPUT);
                assert_non_null(strstr(msg, "its lines end in a CR alone"));
            }
        }
    }

    static const char bar[] = " 10%|#   |\r 20%|##  |\r\n100 1700000000.0 close(3) = 0\n";
    const char *ok = tmp_path("bar.log");
    write_file(ok, bar, sizeof bar - 1);
    static const char *const want[] = {" 10%|#   |\r 20%|##  |", "100 1700000000.0 close(3) = 0"};
    expect_lines(ok, want, 2, 0, NR_LOG_PLAIN);
    static const char one[] = "100 1700000000.0 close(3) = 0\r";
    const char *single = tmp_path("one_cr.log");
    write_file(single, one, sizeof one - 1);
    static const char *const want1[] = {"100 1700000000.0 close(3) = 0"};
    expect_lines(single, want1, 1, 1, NR_LOG_PLAIN);
}

static void empty_file(void **state)
{
    const char *path = tmp_path("empty.log");
    write_file(path, "", 0);
    expect_lines(path, NULL, 0, 0, NR_LOG_PLAIN);
    nr_error err;
    char buf[8];
    assert_int_equal(nr_logsrc_peek(path, buf, sizeof buf, &err), 0);
}

static void missing_file_names_the_path(void **state)
{
    nr_logsrc *s = (nr_logsrc *)1;
    nr_error err;
    assert_int_equal(nr_logsrc_open(tmp_path("absent.log"), &s, &err), NR_E_IO);
    assert_null(s);
    assert_non_null(strstr(err.msg, "absent.log"));
    nr_logsrc_close(NULL);
}

/* A fifo (as /dev/stdin of a pipe, or <(zstdcat log)) is refused at
 * once, without waiting for a writer: a log is opened more than once, and
 * the second open lost the 64 kB the first had read. A device too. */
static void pipes_and_devices_are_refused(void **state)
{
    const char *fifo = tmp_path("fifo.log");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    const char *const paths[] = {fifo, "/dev/zero"};
    for (size_t i = 0; i < 2; i++) {
        nr_logsrc *s = (nr_logsrc *)1;
        nr_error err;
        assert_int_equal(nr_logsrc_open(paths[i], &s, &err), NR_E_INPUT);
        assert_null(s);
        assert_non_null(strstr(err.msg, paths[i]));
        assert_non_null(strstr(err.msg, "not a regular file"));
    }
    unlink(fifo);
}

/* Many numbered lines across buffer refills; returns the text's length. */
static size_t write_numbered(const char *path, unsigned lines)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (unsigned i = 0; i < lines; i++)
        fprintf(f, "%u 1764480000.%06u read(3</data/shard-%05u>, \"...\", 4096) = 4096\n", 1000 + i % 7,
                i, i % 1000);
    long n = ftell(f);
    fclose(f);
    return (size_t)n;
}

/* Line i (from 0) of write_numbered's log, without its newline, into want;
 * returns its length. */
static size_t numbered_line(unsigned i, char *want, size_t cap)
{
    return (size_t)snprintf(want, cap, "%u 1764480000.%06u read(3</data/shard-%05u>, \"...\", 4096) = 4096",
                            1000 + i % 7, i, i % 1000);
}

/* read_bytes: nr_logsrc_open_sized's (0: nr_logsrc_open). */
static void check_numbered_sized(const char *path, unsigned lines, nr_log_compression comp, size_t read_bytes)
{
    nr_logsrc *s;
    nr_error err;
    if (read_bytes)
        assert_int_equal(nr_logsrc_open_sized(path, read_bytes, &s, &err), 0);
    else
        assert_int_equal(nr_logsrc_open(path, &s, &err), 0);
    assert_int_equal(nr_logsrc_compression(s), comp);
    const char *line;
    size_t len;
    char want[128];
    for (unsigned i = 0; i < lines; i++) {
        int rc = nr_logsrc_next(s, &line, &len, &err);
        if (rc != 1)
            fail_msg("%s: line %u: rc %d (%s)", path, i + 1, rc, err.msg);
        const size_t n = numbered_line(i, want, sizeof want);
        if (len != n || memcmp(line, want, len) != 0)
            fail_msg("%s: line %u is \"%.*s\"", path, i + 1, (int)len, line);
    }
    assert_int_equal(nr_logsrc_next(s, &line, &len, &err), 0);
    assert_int_equal(nr_logsrc_last_line_unterminated(s), 0);
    nr_logsrc_close(s);
}

/* The same lines whatever the reads' size: the smallest (16 kB; 1 byte
 * asks for it), 100 kB, the default (1 MB). */
static void check_numbered(const char *path, unsigned lines, nr_log_compression comp)
{
    const size_t sizes[] = {0, 1, 100000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        check_numbered_sized(path, lines, comp, sizes[k]);
}

static void plain_zstd_gzip_agree(void **state)
{
    const unsigned lines = 60000; /* about 4 MiB: several refills */
    const char *plain = tmp_path("num.log");
    size_t n = write_numbered(plain, lines);
    assert_true(n > (3u << 20));
    check_numbered(plain, lines, NR_LOG_PLAIN);

    /* compression is found by magic bytes, not by name */
    run("zstd -q -c %s > %s", plain, tmp_path("num.zst.renamed"));
    check_numbered(tmp_path("num.zst.renamed"), lines, NR_LOG_ZSTD);
    run("gzip -c %s > %s", plain, tmp_path("num.gz.renamed"));
    check_numbered(tmp_path("num.gz.renamed"), lines, NR_LOG_GZIP);

    nr_logsrc *s;
    nr_error err;
    const char *line;
    size_t len;
    assert_int_equal(nr_logsrc_open(tmp_path("num.zst.renamed"), &s, &err), 0);
    while (nr_logsrc_next(s, &line, &len, &err) == 1)
        ;
    struct stat st;
    assert_int_equal(stat(tmp_path("num.zst.renamed"), &st), 0);
    assert_int_equal(nr_logsrc_bytes_in(s), (uint64_t)st.st_size);
    assert_int_equal(nr_logsrc_bytes_out(s), n);
    nr_logsrc_close(s);
}

static void several_frames_and_members(void **state)
{
    write_file(tmp_path("p1"), "first\nsecond ", 13);
    write_file(tmp_path("p2"), "half\nthird\n", 11);
    run("zstd -q -c %s > %s && zstd -q -c %s >> %s", tmp_path("p1"), tmp_path("two.zst"), tmp_path("p2"),
        tmp_path("two.zst"));
    run("gzip -c %s > %s && gzip -c %s >> %s", tmp_path("p1"), tmp_path("two.gz"), tmp_path("p2"),
        tmp_path("two.gz"));
    static const char *const want[] = {"first", "second half", "third"};
    expect_lines(tmp_path("two.zst"), want, 3, 0, NR_LOG_ZSTD);
    expect_lines(tmp_path("two.gz"), want, 3, 0, NR_LOG_GZIP);
}

static void ten_mib_line(void **state)
{
    const size_t n = 10u << 20;
    char *big = malloc(n + 8);
    assert_non_null(big);
    for (size_t i = 0; i < n; i++)
        big[i] = (char)('a' + i % 26);
    memcpy(big + n, "\nend", 4);
    const char *path = tmp_path("big.log");
    write_file(path, big, n + 4);
    run("zstd -q -1 -c %s > %s", path, tmp_path("big.zst"));
    const char *paths[] = {path, tmp_path("big.zst")};
    for (int k = 0; k < 4; k++) { /* k >= 2: reads of 16 kB, for a line of 10 MiB */
        nr_logsrc *s;
        nr_error err;
        const char *line;
        size_t len;
        assert_int_equal(nr_logsrc_open_sized(paths[k % 2], k < 2 ? (size_t)1 << 20 : 1, &s, &err), 0);
        assert_int_equal(nr_logsrc_next(s, &line, &len, &err), 1);
        assert_int_equal(len, n);
        assert_memory_equal(line, big, n);
        assert_int_equal(nr_logsrc_next(s, &line, &len, &err), 1);
        assert_int_equal(len, 3);
        assert_memory_equal(line, "end", 3);
        assert_int_equal(nr_logsrc_last_line_unterminated(s), 1);
        assert_int_equal(nr_logsrc_next(s, &line, &len, &err), 0);
        nr_logsrc_close(s);
    }
    free(big);
}

static void damage(const char *path, long at, size_t n)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, at, SEEK_SET), 0);
    for (size_t i = 0; i < n; i++)
        fputc(0x5a ^ (int)i, f);
    fclose(f);
}

/* Reads path to its end, checking each line read against write_numbered's
 * (lines NULL: any text, unchecked); returns the error code, the lines read
 * in *lines and the message in err. */
static int drain_numbered(const char *path, unsigned *lines, nr_error *err)
{
    nr_logsrc *s;
    unsigned count = 0;
    int rc = nr_logsrc_open(path, &s, err);
    if (rc < 0)
        return rc;
    const char *line;
    size_t len;
    char want[128];
    while ((rc = nr_logsrc_next(s, &line, &len, err)) == 1) {
        const unsigned i = count++;
        if (!lines)
            continue;
        const size_t n = numbered_line(i, want, sizeof want);
        if (len != n || memcmp(line, want, len) != 0)
            fail_msg("%s: line %u is \"%.*s\", want \"%s\"", path, i + 1, (int)(len < 80 ? len : 80), line, want);
    }
    nr_logsrc_close(s);
    if (lines)
        *lines = count;
    return rc;
}

static int drain(const char *path, nr_error *err)
{
    return drain_numbered(path, NULL, err);
}

/* Each compressed copy is made from the log d.log: its path is copied out
 * of tmp_path's ring of 8, which the calls below go round (until session
 * 55 cut.gz was made from the 9th, "bad.gz": a gzip of the damaged gzip,
 * which failed alike for another input). */
static void damaged_and_cut_compressed_input(void **state)
{
    char plain[512];
    snprintf(plain, sizeof plain, "%s", tmp_path("d.log"));
    write_numbered(plain, 20000);
    nr_error err;

    run("zstd -q -c %s > %s", plain, tmp_path("bad.zst"));
    damage(tmp_path("bad.zst"), 4, 16); /* the frame header */
    assert_int_equal(drain(tmp_path("bad.zst"), &err), NR_E_INPUT);
    assert_non_null(strstr(err.msg, "bad.zst"));
    assert_non_null(strstr(err.msg, "corrupt zstd data near byte offset"));

    run("zstd -q -c %s | head -c 3000 > %s", plain, tmp_path("cut.zst"));
    unsigned lines = 0; /* zstd gives none: its first block is not whole */
    assert_int_equal(drain_numbered(tmp_path("cut.zst"), &lines, &err), NR_E_INPUT);
    assert_non_null(strstr(err.msg, "cut.zst: zstd data cut short at byte offset 3000"));

    run("gzip -c %s > %s", plain, tmp_path("bad.gz"));
    damage(tmp_path("bad.gz"), 100, 64);
    assert_int_equal(drain(tmp_path("bad.gz"), &err), NR_E_INPUT);
    assert_non_null(strstr(err.msg, "bad.gz: corrupt gzip data near byte offset"));

    /* the log's lines up to the cut, then the error */
    run("gzip -c %s | head -c 3000 > %s", plain, tmp_path("cut.gz"));
    assert_int_equal(drain_numbered(tmp_path("cut.gz"), &lines, &err), NR_E_INPUT);
    assert_non_null(strstr(err.msg, "cut.gz: gzip data cut short at byte offset 3000"));
    assert_true(lines > 0);

    /* garbage after a complete gzip member is damage too */
    write_file(tmp_path("short.log"), "x\n", 2);
    run("gzip -c %s > %s && printf 'junkjunk' >> %s", tmp_path("short.log"), tmp_path("tail.gz"),
        tmp_path("tail.gz"));
    assert_int_equal(drain(tmp_path("tail.gz"), &err), NR_E_INPUT);
}

static void peek_decompresses(void **state)
{
    write_file(tmp_path("peek.log"), "12 read(3, \"\", 1) = 0\n", 22);
    run("gzip -c %s > %s", tmp_path("peek.log"), tmp_path("peek.gz"));
    run("zstd -q -c %s > %s", tmp_path("peek.log"), tmp_path("peek.zst"));
    const char *paths[] = {tmp_path("peek.log"), tmp_path("peek.gz"), tmp_path("peek.zst")};
    for (int k = 0; k < 3; k++) {
        char buf[64];
        nr_error err;
        assert_int_equal(nr_logsrc_peek(paths[k], buf, 7, &err), 7);
        assert_memory_equal(buf, "12 read", 7);
        assert_int_equal(nr_logsrc_peek(paths[k], buf, sizeof buf, &err), 22);
    }
}

/* A plain log cut (ftruncate) after its first chunk was read: the reader
 * must not take the shorter file for the whole log. */
static void truncated_while_reading(void **state)
{
    const char *path = tmp_path("shrinks.log");
    size_t line_len = 100, lines = 40000; /* 4 MB: several 1 MiB chunks */
    char *text = malloc(line_len * lines);
    assert_non_null(text);
    for (size_t i = 0; i < lines; i++) {
        memset(text + i * line_len, 'a' + (char)(i % 26), line_len - 1);
        text[i * line_len + line_len - 1] = '\n';
    }
    write_file(path, text, line_len * lines);
    free(text);
    nr_logsrc *s;
    nr_error err;
    assert_int_equal(nr_logsrc_open(path, &s, &err), 0);
    const char *line;
    size_t len;
    assert_int_equal(nr_logsrc_next(s, &line, &len, &err), 1);
    assert_int_equal(truncate(path, 1500000), 0);
    int rc;
    while ((rc = nr_logsrc_next(s, &line, &len, &err)) == 1)
        ;
    assert_int_equal(rc, NR_E_IO);
    assert_non_null(strstr(err.msg, "shrinks.log: input ended at byte offset 1500000, before its size at open (4000000 bytes)"));
    nr_logsrc_close(s);
}

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    assert_non_null(d);
    int n = 0;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

/* Every line of path through nr_logsrc_read_lines (runs of read_bytes), with
 * rest calls after every run when rest is set: the text (checked against the
 * numbered lines), the fingerprint and the bytes read, and how many fds the
 * source held at its most between runs. */
typedef struct read_outcome {
    uint64_t hash, bytes_in, bytes_out;
    int fds_at_most;
} read_outcome;

static read_outcome read_all(const char *path, unsigned lines, int rest)
{
    nr_logsrc *s;
    nr_error err;
    const int fds_before = open_fds();
    assert_int_equal(nr_logsrc_open_sized(path, 1, &s, &err), 0);
    read_outcome o = {0};
    char *buf = NULL;
    size_t cap = 0, len, at = 0;
    unsigned line = 0;
    uint64_t last_in = 0;
    char want[128];
    for (int rc; (rc = nr_logsrc_read_lines(s, &buf, &cap, &len, &err)) != 0;) {
        if (rc < 0)
            fail_msg("%s: %s", path, err.msg);
        for (at = 0; at < len; line++) {
            const int n = snprintf(want, sizeof want,
                                   "%u 1764480000.%06u read(3</data/shard-%05u>, \"...\", 4096) = 4096\n",
                                   1000 + line % 7, line, line % 1000);
            if (memcmp(buf + at, want, (size_t)n) != 0)
                fail_msg("%s: line %u differs", path, line + 1);
            at += (size_t)n;
        }
        if (rest)
            nr_logsrc_rest(s);
        const int held = open_fds() - fds_before;
        o.fds_at_most = held > o.fds_at_most ? held : o.fds_at_most;
        assert_true(nr_logsrc_bytes_in(s) >= last_in); /* never back, though a woken decoder reads from 0 */
        last_in = nr_logsrc_bytes_in(s);
    }
    assert_int_equal(line, lines);
    assert_int_equal(open_fds(), fds_before); /* let go at the end of the input, before close */
    o.hash = nr_logsrc_hash(s);
    o.bytes_in = nr_logsrc_bytes_in(s);
    o.bytes_out = nr_logsrc_bytes_out(s);
    nr_logsrc_close(s);
    free(buf);
    return o;
}

/* A resting source (nr_logsrc_rest) holds no fd and reads on where it was:
 * the same lines, fingerprint and byte counts as one that never rested,
 * plain, zstd (decompressed again from its start) and gzip, the reads
 * (16 kB) well inside the logs (4 MB). */
static void resting_source_reads_on(void **state)
{
    const unsigned lines = 60000;
    const char *plain = tmp_path("rest.log");
    const size_t n = write_numbered(plain, lines);
    run("zstd -q -c %s > %s", plain, tmp_path("rest.zst"));
    run("gzip -c %s > %s", plain, tmp_path("rest.gz"));
    const char *paths[] = {plain, tmp_path("rest.zst"), tmp_path("rest.gz")};
    for (int k = 0; k < 3; k++) {
        const read_outcome awake = read_all(paths[k], lines, 0);
        const read_outcome rested = read_all(paths[k], lines, 1);
        struct stat st;
        assert_int_equal(stat(paths[k], &st), 0);
        assert_int_equal(awake.fds_at_most, 1);
        assert_int_equal(rested.fds_at_most, 0);
        assert_int_equal(rested.hash, awake.hash);
        assert_int_equal(rested.bytes_out, n);
        assert_int_equal(awake.bytes_in, (uint64_t)st.st_size);
        assert_int_equal(rested.bytes_in, (uint64_t)st.st_size);
    }
}

/* A log put in a resting source's place, or cut, is not read on as if it
 * were the same. */
static void resting_source_sees_a_replaced_log(void **state)
{
    const char *path = tmp_path("swap.log");
    write_numbered(path, 20000);
    write_numbered(tmp_path("other.log"), 20000);
    const char *cases[] = {"replaced", "cut"};
    for (int k = 0; k < 2; k++) {
        nr_logsrc *s;
        nr_error err;
        assert_int_equal(nr_logsrc_open_sized(path, 1, &s, &err), 0);
        const char *line;
        size_t len;
        assert_int_equal(nr_logsrc_next(s, &line, &len, &err), 1);
        nr_logsrc_rest(s);
        if (k == 0)
            assert_int_equal(rename(tmp_path("other.log"), path), 0);
        else
            assert_int_equal(truncate(path, 100000), 0);
        int rc;
        while ((rc = nr_logsrc_next(s, &line, &len, &err)) == 1)
            ;
        if (rc != NR_E_IO || !strstr(err.msg, "swap.log: replaced or cut while being read"))
            fail_msg("%s: rc %d, %s", cases[k], rc, rc < 0 ? err.msg : "");
        nr_logsrc_close(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_lines_and_counters),
        cmocka_unit_test(crlf_and_terminated_last_line),
        cmocka_unit_test(cr_line_ends_are_refused),
        cmocka_unit_test(empty_file),
        cmocka_unit_test(missing_file_names_the_path),
        cmocka_unit_test(pipes_and_devices_are_refused),
        cmocka_unit_test(plain_zstd_gzip_agree),
        cmocka_unit_test(several_frames_and_members),
        cmocka_unit_test(ten_mib_line),
        cmocka_unit_test(damaged_and_cut_compressed_input),
        cmocka_unit_test(peek_decompresses),
        cmocka_unit_test(truncated_while_reading),
        cmocka_unit_test(resting_source_reads_on),
        cmocka_unit_test(resting_source_sees_a_replaced_log),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
