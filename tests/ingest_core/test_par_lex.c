/* Tests of the read path under the lexer: logsrc's runs of whole lines
 * (nr_logsrc_next_lines), par_lex's chunks against the line-by-line reader
 * for any chunk size, jobs and compression, and the log fingerprint
 * nrhash-v2 (XXH3-64 of the uncompressed content) as the store's meta shows it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include <cmocka.h>

#include "ingest_check.h"
#include "logsrc.h"
#include "par_lex.h"

/* A log with what the splitting must get right: CRLF, blank lines, a run
 * of 70 newlines (a 64-byte block of nothing but newlines), lines of every
 * length from 0 to 99, a line longer than small chunks, a last line without
 * newline. */
static char *tricky_log(size_t *len)
{
    static const char head[] = "1 read(3, \"a\", 1) = 1\r\n\n\n2 close(3) = 0\n";
    static const char tail[] = "\nx\r\n3 exit_group(0) = ?";
    const size_t longline = 5000, cap = 20000;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t n = 0;
    memcpy(text, head, sizeof head - 1);
    n += sizeof head - 1;
    memset(text + n, '\n', 70);
    n += 70;
    for (size_t l = 0; l < 100; l++) {
        memset(text + n, 'a' + (char)(l % 26), l);
        n += l;
        if (l % 3 == 0)
            text[n++] = '\r';
        text[n++] = '\n';
    }
    memset(text + n, 'q', longline);
    n += longline;
    memcpy(text + n, tail, sizeof tail);
    n += sizeof tail - 1;
    assert_true(n < cap);
    *len = n;
    return text;
}

/* Lines of text as logsrc counts them: newlines, plus a cut last line. */
static uint64_t count_lines(const char *text, size_t n)
{
    uint64_t lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += text[i] == '\n';
    return lines + (n > 0 && text[n - 1] != '\n');
}

static void write_file(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* dir/name.zst and dir/name.gz beside dir/name, by the command-line tools. */
static int compress_copies(const char *dir, const char *name)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "zstd -q -f -o %s/%s.zst %s/%s && gzip -c %s/%s > %s/%s.gz", dir, name, dir, name,
             dir, name, dir, name);
    return system(cmd) == 0 ? 0 : -1;
}

static void remove_dir(const char *dir)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static int tools_present(void)
{
    return system("zstd --version >/dev/null 2>&1") == 0 && system("gzip --version >/dev/null 2>&1") == 0;
}

static void next_lines_hands_out_whole_lines(void **state)
{
    (void)state;
    char dir[256], path[300];
    ck_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/log", dir);
    static const char text[] = "ab\r\ncdefghijklmno\n\nx";
    write_file(path, text, sizeof text - 1);
    nr_logsrc *s;
    nr_error err;
    assert_int_equal(nr_logsrc_open(path, &s, &err), 0);
    const char *run;
    size_t len;
    /* max 6: "ab\r\n" fits, "cd..." does not */
    assert_int_equal(nr_logsrc_next_lines(s, 6, &run, &len, &err), 1);
    assert_int_equal(len, 4);
    assert_memory_equal(run, "ab\r\n", 4);
    /* the next line is longer than max: handed out whole */
    assert_int_equal(nr_logsrc_next_lines(s, 6, &run, &len, &err), 1);
    assert_int_equal(len, 14);
    assert_memory_equal(run, "cdefghijklmno\n", 14);
    assert_false(nr_logsrc_last_line_unterminated(s));
    /* "\nx": the blank line alone, then the cut last line */
    assert_int_equal(nr_logsrc_next_lines(s, 6, &run, &len, &err), 1);
    assert_int_equal(len, 1);
    assert_int_equal(nr_logsrc_next_lines(s, 6, &run, &len, &err), 1);
    assert_int_equal(len, 1);
    assert_int_equal(run[0], 'x');
    assert_true(nr_logsrc_last_line_unterminated(s));
    assert_int_equal(nr_logsrc_next_lines(s, 6, &run, &len, &err), 0);
    assert_int_equal(nr_logsrc_bytes_out(s), sizeof text - 1);
    assert_int_equal(nr_logsrc_hash(s), XXH3_64bits(text, sizeof text - 1));
    nr_logsrc_close(s);
    remove_dir(dir);
}

/* nrhash-v2 of an empty log is XXH3-64 of no bytes: 2d06800538d394c2 (the
 * xxHash reference value); of any log, XXH3-64 of its uncompressed bytes. */
static void fingerprint_is_xxh3_of_content(void **state)
{
    (void)state;
    if (!tools_present())
        skip();
    char dir[256], path[300];
    ck_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/empty", dir);
    write_file(path, "", 0);
    nr_logsrc *s;
    nr_error err;
    const char *run;
    size_t len;
    assert_int_equal(nr_logsrc_open(path, &s, &err), 0);
    assert_int_equal(nr_logsrc_next_lines(s, 100, &run, &len, &err), 0);
    assert_int_equal(nr_logsrc_hash(s), 0x2d06800538d394c2ull);
    nr_logsrc_close(s);

    size_t n;
    char *text = tricky_log(&n);
    snprintf(path, sizeof path, "%s/log", dir);
    write_file(path, text, n);
    assert_int_equal(compress_copies(dir, "log"), 0);
    const char *suffixes[] = {"", ".zst", ".gz"};
    for (size_t k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/log%s", dir, suffixes[k]);
        assert_int_equal(nr_logsrc_open(path, &s, &err), 0);
        const char *line;
        while (nr_logsrc_next(s, &line, &len, &err) == 1)
            ;
        assert_int_equal(nr_logsrc_hash(s), XXH3_64bits(text, n));
        nr_logsrc_close(s);
    }
    free(text);
    remove_dir(dir);
}

/* Every chunk of par_lex against the serial line reader, for one source
 * (no_avx2: the SSE2 newline scan). */
static void check_chunks(const char *path, int jobs, size_t chunk_bytes, int no_avx2, uint64_t want_lines,
                         uint64_t want_hash)
{
    nr_logsrc *serial, *chunked;
    nr_error err;
    assert_int_equal(nr_logsrc_open(path, &serial, &err), 0);
    assert_int_equal(nr_logsrc_open(path, &chunked, &err), 0);
    nr__par_lex_set_chunk_bytes(chunk_bytes);
    nr__par_lex_no_avx2(no_avx2);
    nr_par_lex *p;
    assert_int_equal(nr_par_lex_create(&chunked, 1, jobs, &p, &err), 0);
    nr__par_lex_set_chunk_bytes(0);
    nr__par_lex_no_avx2(0);
    nr_par_chunk_view v;
    uint64_t line_no = 0;
    int rc, saw_unterminated = 0;
    while ((rc = nr_par_lex_next(p, 0, &v, &err)) == 1) {
        assert_int_equal(v.first_line_no, line_no + 1);
        for (size_t i = 0; i < v.n; i++) {
            const char *line;
            size_t len;
            assert_int_equal(nr_logsrc_next(serial, &line, &len, &err), 1);
            line_no++;
            assert_int_equal(v.lines[i].len, len);
            assert_memory_equal(v.text + v.lines[i].off, line, len);
            nr_sline want;
            nr_sline_parse(line, len, &want);
            assert_int_equal(v.lines[i].sl.kind, want.kind);
            assert_int_equal(v.lines[i].sl.pid, want.pid);
        }
        if (v.last_unterminated) {
            assert_true(nr_logsrc_last_line_unterminated(serial));
            saw_unterminated = 1;
        }
    }
    assert_int_equal(rc, 0);
    const char *line;
    size_t len;
    assert_int_equal(nr_logsrc_next(serial, &line, &len, &err), 0);
    assert_int_equal(line_no, want_lines);
    assert_true(saw_unterminated);
    assert_int_equal(nr_par_lex_hash(p, 0), want_hash);
    nr_par_lex_destroy(p);
    nr_logsrc_close(serial);
    nr_logsrc_close(chunked);
}

static void chunks_equal_serial_lines_for_any_chunk_jobs_compression(void **state)
{
    (void)state;
    if (!tools_present())
        skip();
    char dir[256], path[300];
    ck_tmpdir(dir, sizeof dir);
    size_t n;
    char *text = tricky_log(&n);
    snprintf(path, sizeof path, "%s/log", dir);
    write_file(path, text, n);
    assert_int_equal(compress_copies(dir, "log"), 0);
    const uint64_t want = XXH3_64bits(text, n), lines = count_lines(text, n);
    assert_int_equal(lines, 4 + 70 + 100 + 1 + 2); /* head, the run, short, long, tail */
    free(text);
    const char *suffixes[] = {"", ".zst", ".gz"};
    const size_t chunks[] = {0, 1, 7, 100, 4096};
    const int jobs[] = {1, 3};
    for (size_t k = 0; k < 3; k++)
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++)
            for (size_t j = 0; j < 4; j++) {
                snprintf(path, sizeof path, "%s/log%s", dir, suffixes[k]);
                check_chunks(path, jobs[j % 2], chunks[c], j >= 2, lines, want);
            }
    remove_dir(dir);
}

/* The store's meta log.N.nrhash: the same for a log and its .zst copy, and
 * equal to XXH3-64 of the log's bytes, in 16 hex digits. */
static void meta_nrhash_of_plain_and_compressed_log(void **state)
{
    (void)state;
    if (!tools_present())
        skip();
    static const char log[] = "100 1700000000.000001 openat(AT_FDCWD, \"/d/a\", O_RDONLY) = 3 <0.000010>\r\n"
                              "100 1700000000.000002 read(3, \"xy\", 2) = 2 <0.000005>\n"
                              "100 1700000000.000003 close(3) = 0 <0.000001>\n";
    char want[17];
    snprintf(want, sizeof want, "%016" PRIx64, (uint64_t)XXH3_64bits(log, sizeof log - 1));
    ck_run plain, zst;
    ck_ingest_text(&plain, log, NULL);
    assert_int_equal(plain.rc, 0);
    assert_string_equal(ck_meta(&plain, "log.0.nrhash"), want);

    memset(&zst, 0, sizeof zst);
    ck_tmpdir(zst.dir, sizeof zst.dir);
    char cmd[1200], input[300];
    snprintf(cmd, sizeof cmd, "mkdir %s/run && zstd -q -o %s/run/strace.log.zst %s/run/strace.log", zst.dir,
             zst.dir, plain.dir);
    assert_int_equal(system(cmd), 0);
    snprintf(input, sizeof input, "%s/run", zst.dir);
    ck_ingest(&zst, input, NULL);
    assert_int_equal(zst.rc, 0);
    assert_string_equal(ck_meta(&zst, "log.0.nrhash"), want);
    assert_string_equal(ck_meta(&zst, "log.0.lines"), "3");
    assert_int_equal(zst.events.nrows, plain.events.nrows);
    ck_free(&plain);
    ck_free(&zst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(next_lines_hands_out_whole_lines),
        cmocka_unit_test(fingerprint_is_xxh3_of_content),
        cmocka_unit_test(chunks_equal_serial_lines_for_any_chunk_jobs_compression),
        cmocka_unit_test(meta_nrhash_of_plain_and_compressed_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
