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
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <xxhash.h>
#include <cmocka.h>

#include "ingest_check.h"
#include "logsrc.h"
#include "par_lex.h"
#include "syscalls.h"

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

/* What a read of a log must give: its lines and its fingerprint. */
typedef struct log_want {
    uint64_t lines, hash;
} log_want;

/* text[0, n) written as dir/log, with its .zst and .gz copies (the forms
 * LOG_FORMS names); returns what reading any of them must give. */
static log_want write_log_and_copies(const char *dir, const char *text, size_t n)
{
    char path[300];
    snprintf(path, sizeof path, "%s/log", dir);
    write_file(path, text, n);
    assert_int_equal(compress_copies(dir, "log"), 0);
    return (log_want){count_lines(text, n), XXH3_64bits(text, n)};
}

/* The three forms of a log that write_log_and_copies makes. */
#define LOG_FORMS 3
static void log_form_path(char *path, size_t size, const char *dir, size_t form)
{
    static const char *const suffixes[LOG_FORMS] = {"", ".zst", ".gz"};
    snprintf(path, size, "%s/log%s", dir, suffixes[form]);
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
    const log_want want = write_log_and_copies(dir, text, n);
    free(text);
    for (size_t k = 0; k < LOG_FORMS; k++) {
        log_form_path(path, sizeof path, dir, k);
        assert_int_equal(nr_logsrc_open(path, &s, &err), 0);
        const char *line;
        while (nr_logsrc_next(s, &line, &len, &err) == 1)
            ;
        assert_int_equal(nr_logsrc_hash(s), want.hash);
        nr_logsrc_close(s);
    }
    remove_dir(dir);
}

static void assert_span_equal(nr_span got, const char *got_line, nr_span want, const char *want_line)
{
    assert_int_equal(got.n, want.n);
    assert_int_equal(got.p - got_line, want.p - want_line);
}

/* Every field of got (lexed from got_line) equals want's (from want_line). */
static void assert_sline_equal(const nr_sline *got, const char *got_line, const nr_sline *want, const char *want_line)
{
    assert_int_equal(got->kind, want->kind);
    assert_int_equal(got->pid, want->pid);
    assert_int_equal(got->ts_form, want->ts_form);
    assert_int_equal(got->ts_ns, want->ts_ns);
    assert_int_equal(got->ts2_form, want->ts2_form);
    assert_int_equal(got->ts2_ns, want->ts2_ns);
    assert_int_equal(got->dur_ns, want->dur_ns);
    assert_span_equal(got->name, got_line, want->name, want_line);
    assert_span_equal(got->args, got_line, want->args, want_line);
    assert_int_equal(got->has_result, want->has_result);
    assert_int_equal(got->result_unknown, want->result_unknown);
    assert_int_equal(got->result, want->result);
    assert_span_equal(got->result_annot, got_line, want->result_annot, want_line);
    assert_span_equal(got->errno_name, got_line, want->errno_name, want_line);
    assert_span_equal(got->errno_text, got_line, want->errno_text, want_line);
    assert_int_equal(got->exit_code, want->exit_code);
    assert_int_equal(got->core_dumped, want->core_dumped);
    assert_int_equal(got->result_tail_unread, want->result_tail_unread);
    if (!want->reason)
        assert_null(got->reason);
    else
        assert_string_equal(got->reason, want->reason);
}

/* Line i of v is the serial reader's next line, number ++*line_no: its
 * text into *line, *len. */
static void expect_serial_line(nr_logsrc *serial, const nr_par_chunk_view *v, size_t i, uint64_t *line_no,
                               const char **line, size_t *len)
{
    nr_error err;
    if (i == 0)
        assert_int_equal(v->first_line_no, *line_no + 1);
    ++*line_no;
    assert_int_equal(nr_logsrc_next(serial, line, len, &err), 1);
    assert_int_equal(v->lines[i].len, *len);
    assert_memory_equal(v->text + v->lines[i].off, *line, *len);
}

/* The end of a check against the serial reader: both at their end, the
 * lines counted, the fingerprint; frees the three. */
static void expect_serial_end(nr_par_lex *p, nr_logsrc *serial, nr_logsrc *chunked, int rc, uint64_t line_no,
                              log_want want)
{
    nr_error err;
    const char *line;
    size_t len;
    assert_int_equal(rc, 0);
    assert_int_equal(nr_logsrc_next(serial, &line, &len, &err), 0);
    assert_int_equal(line_no, want.lines);
    assert_int_equal(nr_par_lex_hash(p, 0), want.hash);
    nr_par_lex_destroy(p);
    nr_logsrc_close(serial);
    nr_logsrc_close(chunked);
}

/* The serial line reader and the one par_lex reads, on one log. */
static void open_serial_and_chunked(const char *path, nr_logsrc **serial, nr_logsrc **chunked)
{
    nr_error err;
    assert_int_equal(nr_logsrc_open(path, serial, &err), 0);
    assert_int_equal(nr_logsrc_open(path, chunked, &err), 0);
}

/* Every chunk of par_lex against the serial line reader, for one source
 * (no_avx2: the SSE2 newline scan; only_read: nr_par_lex_create_reading,
 * whose chunks come unlexed). */
static void check_chunks(const char *path, int jobs, size_t chunk_bytes, int no_avx2, int only_read,
                         log_want want_log)
{
    nr_logsrc *serial, *chunked;
    nr_error err;
    open_serial_and_chunked(path, &serial, &chunked);
    nr__par_lex_set_chunk_bytes(chunk_bytes);
    nr__par_lex_no_avx2(no_avx2);
    nr_par_lex *p;
    if (only_read)
        assert_int_equal(nr_par_lex_create_reading(&chunked, 1, jobs, &p, &err), 0);
    else
        assert_int_equal(nr_par_lex_create(&chunked, 1, jobs, &p, &err), 0);
    nr__par_lex_set_chunk_bytes(0);
    nr__par_lex_no_avx2(0);
    nr_par_chunk_view v;
    uint64_t line_no = 0;
    int rc, saw_unterminated = 0;
    while ((rc = nr_par_lex_next(p, 0, &v, &err)) == 1) {
        if (only_read)
            assert_int_equal(v.lexed, 0);
        for (size_t i = 0; i < v.n; i++) {
            const char *line;
            size_t len;
            expect_serial_line(serial, &v, i, &line_no, &line, &len);
            nr_sline want, got;
            nr_sline_parse(line, len, &want);
            nr_par_lex_line(&v, i, &got);
            assert_sline_equal(&got, v.text + v.lines[i].off, &want, line);
        }
        if (v.last_unterminated) {
            assert_true(nr_logsrc_last_line_unterminated(serial));
            saw_unterminated = 1;
        }
    }
    assert_true(saw_unterminated);
    expect_serial_end(p, serial, chunked, rc, line_no, want_log);
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
    const log_want want = write_log_and_copies(dir, text, n);
    assert_int_equal(want.lines, 4 + 70 + 100 + 1 + 2); /* head, the run, short, long, tail */
    free(text);
    const size_t chunks[] = {0, 1, 7, 100, 4096};
    const int jobs[] = {1, 3};
    for (size_t k = 0; k < LOG_FORMS; k++)
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            log_form_path(path, sizeof path, dir, k);
            for (size_t j = 0; j < 4; j++)
                check_chunks(path, jobs[j % 2], chunks[c], j >= 2, 0, want);
            check_chunks(path, 2, chunks[c], 0, 1, want); /* workers that only read */
        }
    remove_dir(dir);
}

/* Many logs, as a -ff run's merge takes them: the first chunk of every log
 * first (for its time), then chunks of the logs in a shuffled order, some
 * logs announced with nr_par_lex_reach and some not, each log resting until
 * par_lex reads it (as the ingest opens them). Every log's lines are its
 * serial reader's and its fingerprint is right, for any jobs and chunk
 * size: the workers find their reads and lexes without looking at every
 * log, logs not reached hold one chunk, finished logs free their rings;
 * and with switching, when the workers turn serial and parallel again
 * and again (nr_par_lex_set_serial) while chunks are in flight. */
#define MANY_LOGS 7

typedef struct many_log {
    nr_logsrc *serial, *chunked;
    nr_par_chunk_view v;
    int rc;          /* of the last nr_par_lex_next: 1 a chunk, 0 the end */
    uint64_t line_no;
    log_want want;
} many_log;

static void check_chunk_lines(many_log *m)
{
    for (size_t i = 0; i < m->v.n; i++) {
        const char *line;
        size_t len;
        expect_serial_line(m->serial, &m->v, i, &m->line_no, &line, &len);
        nr_sline want, got;
        nr_sline_parse(line, len, &want);
        nr_par_lex_line(&m->v, i, &got);
        assert_sline_equal(&got, m->v.text + m->v.lines[i].off, &want, line);
    }
}

static void check_many_logs(const char *const *paths, const log_want *wants, int jobs, size_t chunk_bytes,
                            int switching)
{
    many_log m[MANY_LOGS];
    nr_logsrc *srcs[MANY_LOGS];
    nr_error err;
    for (size_t k = 0; k < MANY_LOGS; k++) {
        memset(&m[k], 0, sizeof m[k]);
        open_serial_and_chunked(paths[k], &m[k].serial, &m[k].chunked);
        nr_logsrc_rest(m[k].chunked);
        srcs[k] = m[k].chunked;
        m[k].want = wants[k];
    }
    nr__par_lex_set_chunk_bytes(chunk_bytes);
    nr_par_lex *p;
    assert_int_equal(nr_par_lex_create(srcs, MANY_LOGS, jobs, &p, &err), 0);
    nr__par_lex_set_chunk_bytes(0);
    for (size_t k = 0; k < MANY_LOGS; k++)
        m[k].rc = nr_par_lex_next(p, k, &m[k].v, &err);
    size_t left = MANY_LOGS;
    for (uint32_t step = 1; left; step = step * 1103515245u + 12345u) {
        many_log *g = &m[(step >> 8) % MANY_LOGS];
        if (g->rc != 1)
            continue;
        if (g->line_no == 0 && (g - m) % 2 == 0)
            nr_par_lex_reach(p, (size_t)(g - m));
        if (switching && (step >> 4) % 5 == 0)
            nr_par_lex_set_serial(p, (step >> 12) & 1);
        check_chunk_lines(g);
        g->rc = nr_par_lex_next(p, (size_t)(g - m), &g->v, &err);
        assert_true(g->rc >= 0);
        left -= g->rc == 0;
    }
    for (size_t k = 0; k < MANY_LOGS; k++) {
        const char *line;
        size_t len;
        assert_int_equal(nr_logsrc_next(m[k].serial, &line, &len, &err), 0);
        assert_int_equal(m[k].line_no, m[k].want.lines);
        assert_int_equal(nr_par_lex_hash(p, k), m[k].want.hash);
    }
    nr_par_lex_destroy(p);
    for (size_t k = 0; k < MANY_LOGS; k++) {
        nr_logsrc_close(m[k].serial);
        nr_logsrc_close(m[k].chunked);
    }
}

static void many_logs_in_any_order_equal_serial_lines(void **state)
{
    (void)state;
    if (!tools_present())
        skip();
    char dir[256], paths[MANY_LOGS][300], short_path[300];
    ck_tmpdir(dir, sizeof dir);
    size_t n;
    char *text = tricky_log(&n);
    const log_want tricky = write_log_and_copies(dir, text, n);
    free(text);
    static const char short_text[] = "1700000000.000001 close(3) = 0\n1700000000.000002 close(4) = 0\n";
    snprintf(short_path, sizeof short_path, "%s/short", dir);
    FILE *f = fopen(short_path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(short_text, 1, sizeof short_text - 1, f), sizeof short_text - 1);
    assert_int_equal(fclose(f), 0);
    const log_want short_log = {2, XXH3_64bits(short_text, sizeof short_text - 1)};
    const char *path_of[MANY_LOGS];
    log_want wants[MANY_LOGS];
    for (size_t k = 0; k < MANY_LOGS; k++) {
        if (k == 3) {
            snprintf(paths[k], sizeof paths[k], "%s", short_path);
            wants[k] = short_log;
        } else {
            log_form_path(paths[k], sizeof paths[k], dir, k % LOG_FORMS);
            wants[k] = tricky;
        }
        path_of[k] = paths[k];
    }
    const size_t chunks[] = {1, 100, 4096};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++)
        for (int jobs = 1; jobs <= 3; jobs++)
            for (int switching = 0; switching <= 1; switching++)
                check_many_logs(path_of, wants, jobs, chunks[c], switching);
    remove_dir(dir);
}

/* n sources of the log at path, resting as the ingest leaves them. */
static void open_resting(const char *path, nr_logsrc **srcs, size_t n)
{
    nr_error err;
    for (size_t k = 0; k < n; k++) {
        assert_int_equal(nr_logsrc_open(path, &srcs[k], &err), 0);
        nr_logsrc_rest(srcs[k]);
    }
}

static void close_all(nr_logsrc **srcs, size_t n)
{
    for (size_t k = 0; k < n; k++)
        nr_logsrc_close(srcs[k]);
}

/* nr_par_lex_set_live's rule: serial above NR_PAR_SERIAL_ABOVE logs merged
 * at once, parallel again at half of that or fewer; a run of more logs
 * than that starts serial; without lexing workers, never serial. */
static void serial_when_many_logs_are_merged_at_once(void **state)
{
    (void)state;
    char dir[256], path[300];
    ck_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/log", dir);
    static const char text[] = "1700000000.000001 close(3) = 0\n1700000000.000002 close(4) = 0\n";
    write_file(path, text, sizeof text - 1);
    enum { N = NR_PAR_SERIAL_ABOVE + 1 };
    nr_logsrc *srcs[N];
    nr_error err;
    nr_par_lex *p;

    open_resting(path, srcs, 2);
    assert_int_equal(nr_par_lex_create(srcs, 2, 2, &p, &err), 0);
    assert_false(nr_par_lex_serial(p));
    static const struct { size_t live; int serial; } steps[] = {
        {1, 0}, {NR_PAR_SERIAL_ABOVE, 0}, {NR_PAR_SERIAL_ABOVE + 1, 1}, {NR_PAR_SERIAL_ABOVE, 1},
        {NR_PAR_SERIAL_ABOVE / 2 + 1, 1}, {NR_PAR_SERIAL_ABOVE / 2, 0}, {NR_PAR_SERIAL_ABOVE, 0},
        {3000, 1}, {0, 0},
    };
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        nr_par_lex_set_live(p, steps[k].live);
        if (nr_par_lex_serial(p) != steps[k].serial)
            fail_msg("%zu logs merged at once: serial %d, want %d", steps[k].live, nr_par_lex_serial(p),
                     steps[k].serial);
    }
    nr_par_lex_destroy(p);
    close_all(srcs, 2);

    open_resting(path, srcs, N); /* more logs than NR_PAR_SERIAL_ABOVE: serial until the merge says */
    assert_int_equal(nr_par_lex_create(srcs, N, 2, &p, &err), 0);
    assert_true(nr_par_lex_serial(p));
    nr_par_lex_set_live(p, 2);
    assert_false(nr_par_lex_serial(p));
    nr_par_lex_destroy(p);
    close_all(srcs, N);

    for (int only_read = 0; only_read <= 1; only_read++) { /* jobs 1; workers that do not lex */
        open_resting(path, srcs, N);
        if (only_read)
            assert_int_equal(nr_par_lex_create_reading(srcs, N, 2, &p, &err), 0);
        else
            assert_int_equal(nr_par_lex_create(srcs, N, 1, &p, &err), 0);
        assert_false(nr_par_lex_serial(p));
        nr_par_lex_set_live(p, 3000);
        assert_false(nr_par_lex_serial(p));
        nr_par_lex_destroy(p);
        close_all(srcs, N);
    }
    remove_dir(dir);
}

/* A run of -ff logs in dir: strace.log.1000 clones nlogs - 1 threads, each
 * of which opens, reads and closes a file `triples` times in its own log.
 * interleaved: the threads' lines alternate one by one (all of them run at
 * once); else each thread runs after the one before (two logs at once,
 * the first's and one thread's). */
static void write_ff_run(const char *dir, int nlogs, int triples, int interleaved)
{
    const unsigned long long t0 = 1764480000000000ull; /* us */
    const int threads = nlogs - 1, lines = 3 * triples + 2;
    char path[400];
    for (int j = 0; j < threads; j++) {
        snprintf(path, sizeof path, "%s/strace.log.%d", dir, 2000 + j);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        for (int l = 0; l < lines; l++) {
            const unsigned long long at =
                t0 + 10 + (unsigned long long)threads + (interleaved ? (unsigned long long)l * threads + j
                                                                     : (unsigned long long)j * lines + l);
            const int k = l / 3;
            fprintf(f, "%llu.%06llu ", at / 1000000, at % 1000000);
            if (l == lines - 2)
                fprintf(f, "exit_group(0) = ?\n");
            else if (l == lines - 1)
                fprintf(f, "+++ exited with 0 +++\n");
            else if (l % 3 == 0)
                fprintf(f, "openat(AT_FDCWD, \"/data/t%d/f%d.bin\", O_RDONLY|O_CLOEXEC) = 3</data/t%d/f%d.bin> "
                           "<0.000010>\n", j, k, j, k);
            else if (l % 3 == 1)
                fprintf(f, "read(3</data/t%d/f%d.bin>, \"abcdefgh\"..., 4096) = %d <0.000020>\n", j, k,
                        100 + k);
            else
                fprintf(f, "close(3</data/t%d/f%d.bin>) = 0 <0.000003>\n", j, k);
        }
        assert_int_equal(fclose(f), 0);
    }
    snprintf(path, sizeof path, "%s/strace.log.1000", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%llu.%06llu execve(\"/usr/bin/python3\", [\"python3\"], 0x7ffd /* 4 vars */) = 0 <0.000100>\n",
            t0 / 1000000, t0 % 1000000);
    for (int j = 0; j < threads; j++)
        fprintf(f, "%llu.%06llu clone(child_stack=NULL, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_THREAD, "
                   "child_tidptr=0x7f) = %d <0.000050>\n", (t0 + 1 + (unsigned long long)j) / 1000000,
                (t0 + 1 + (unsigned long long)j) % 1000000, 2000 + j);
    const unsigned long long end = t0 + 20 + (unsigned long long)threads * (lines + 1);
    fprintf(f, "%llu.%06llu exit_group(0) = ?\n", end / 1000000, end % 1000000);
    assert_int_equal(fclose(f), 0);
}

static char *slurp_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    const long n = ftell(f);
    assert_true(n > 0);
    rewind(f);
    char *p = malloc((size_t)n);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return p;
}

/* Ingests the run at dir with jobs into dir/../out.jJOBS.nio, in chunks
 * of 1000 bytes (many per log); the chunks par_lex read while serial. */
static uint64_t ingest_counting_serial(const char *dir, int jobs, char *out, size_t cap)
{
    snprintf(out, cap, "%s/../out.j%d.nio", dir, jobs);
    nr_ingest_opts opts = {.jobs = jobs};
    nr_error err;
    nr_error_clear(&err);
    uint64_t serial0, serial1, lexed;
    nr__par_lex_counts(&serial0, &lexed);
    nr__par_lex_set_chunk_bytes(1000);
    const int rc = nr_ingest_run(dir, out, &opts, NULL, &err);
    nr__par_lex_set_chunk_bytes(0);
    if (rc < 0)
        fail_msg("ingest of %s at -j %d: %s", dir, jobs, err.msg);
    nr__par_lex_counts(&serial1, &lexed);
    return serial1 - serial0;
}

/* The rule at ingest: a run of more -ff logs than NR_PAR_SERIAL_ABOVE
 * whose lines interleave is read serially at -j 2 and -j 3 (more chunks
 * than the logs' first ones); one of as many logs one after the other only
 * reads the logs' first chunks so (before the merge: one per log), and
 * one of few logs none; the store is the one of -j 1 for each. */
static void many_interleaved_logs_read_serially_same_store(void **state)
{
    (void)state;
    static const struct { int logs, interleaved; } runs[] = {
        {NR_PAR_SERIAL_ABOVE + 36, 1}, {NR_PAR_SERIAL_ABOVE + 36, 0}, {9, 1}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        char dir[256], run[300], out1[400], out[400];
        ck_tmpdir(dir, sizeof dir);
        snprintf(run, sizeof run, "%s/run", dir);
        assert_int_equal(mkdir(run, 0755), 0);
        write_ff_run(run, runs[r].logs, 12, runs[r].interleaved);
        assert_int_equal(ingest_counting_serial(run, 1, out1, sizeof out1), 0);
        size_t n1, n;
        char *want = slurp_file(out1, &n1);
        for (int jobs = 2; jobs <= 3; jobs++) {
            const uint64_t serial = ingest_counting_serial(run, jobs, out, sizeof out);
            const uint64_t logs = (uint64_t)runs[r].logs;
            if (runs[r].logs <= NR_PAR_SERIAL_ABOVE ? serial != 0
                : runs[r].interleaved                ? serial <= logs
                                                     : serial != logs)
                fail_msg("%d logs%s at -j %d: %llu chunks read serially", runs[r].logs,
                         runs[r].interleaved ? " interleaved" : "", jobs, (unsigned long long)serial);
            char *got = slurp_file(out, &n);
            if (n != n1 || memcmp(got, want, n) != 0)
                fail_msg("%d logs%s: the store of -j %d differs from that of -j 1", runs[r].logs,
                         runs[r].interleaved ? " interleaved" : "", jobs);
            free(got);
        }
        free(want);
        remove_dir(dir);
    }
}

/* A stand-in for the speculative model: a result per chunk worked on,
 * counted in ctx (an atomic_size_t). */
static void *count_work(void *ctx, const nr_par_chunk_view *v)
{
    atomic_fetch_add((atomic_size_t *)ctx, 1);
    size_t *lines = malloc(sizeof *lines);
    if (lines)
        *lines = v->n;
    return lines;
}

/* Waits (up to 10 s) until a worker has worked on a chunk. On a loaded
 * machine a worker may not run at all before the caller has read the whole
 * log itself (CI on 22c46fb: none did in 32 runs); the caller waiting
 * once, with a chunk of its own ahead, makes sure a worker takes one. */
static void wait_for_chunk_work(const atomic_size_t *started)
{
    const struct timespec ms = {0, 1000000};
    for (int k = 0; k < 10000 && atomic_load(started) == 0; k++)
        nanosleep(&ms, NULL);
}

static void drop_work(void *ctx, void *result)
{
    (void)ctx;
    free(result);
}

/* With chunk work (the -j 2 ingest of one log: chunks read by the thread
 * that takes them, workers running the work on theirs): the same lines and
 * fingerprint as the serial read, whichever thread read which chunk.
 * Returns how many chunks came with a worker's result. */
static size_t check_working_chunks(const char *path, int jobs, size_t chunk_bytes, int wait_for_work, log_want want)
{
    nr_logsrc *serial, *chunked;
    nr_error err;
    open_serial_and_chunked(path, &serial, &chunked);
    atomic_size_t started = 0;
    const nr_par_lex_chunk_work work = {
        .run = count_work, .drop = drop_work, .ctx = &started, .chunk_bytes = chunk_bytes};
    nr_par_lex *p;
    assert_int_equal(nr_par_lex_create_working(&chunked, 1, jobs, &work, &p, &err), 0);
    nr_par_chunk_view v;
    uint64_t line_no = 0;
    size_t worked = 0;
    int rc;
    while ((rc = nr_par_lex_next(p, 0, &v, &err)) == 1) {
        if (v.spec) {
            assert_int_equal(*(size_t *)v.spec, v.n);
            free(v.spec);
            worked++;
        }
        nr_par_lex_read_ahead(p, 0);
        if (wait_for_work)
            wait_for_chunk_work(&started);
        for (size_t i = 0; i < v.n; i++) {
            const char *line;
            size_t len;
            expect_serial_line(serial, &v, i, &line_no, &line, &len);
        }
    }
    expect_serial_end(p, serial, chunked, rc, line_no, want);
    return worked;
}

static void working_chunks_equal_serial_lines_and_hash(void **state)
{
    (void)state;
    if (!tools_present())
        skip();
    char dir[256], path[300];
    ck_tmpdir(dir, sizeof dir);
    size_t n;
    char *one = tricky_log(&n);
    /* 20 copies (about 200 kB): many chunks, past the 64 kB that a plain
       log's open reads (and hashes) before the first chunk */
    char *text = malloc(20 * n);
    assert_non_null(text);
    for (size_t k = 0; k < 20; k++) {
        memcpy(text + k * n, one, n);
        if (k < 19)
            text[(k + 1) * n - 1] = '\n'; /* the cut last line only at the end */
    }
    const size_t len = 20 * n;
    const log_want want = write_log_and_copies(dir, text, len);
    free(one);
    free(text);
    const size_t chunks[] = {1000, 7000, 65536, 100000};
    size_t worked = 0;
    for (size_t k = 0; k < LOG_FORMS; k++)
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++)
            for (int jobs = 2; jobs <= 3; jobs++) {
                log_form_path(path, sizeof path, dir, k);
                /* the small chunks leave chunks past the caller's read-ahead */
                worked += check_working_chunks(path, jobs, chunks[c], chunks[c] <= 7000, want);
            }
    assert_true(worked > 0); /* the workers took chunks: chunk work was tested, not only the caller's reads */
    remove_dir(dir);
}

/* A line packed by a worker reads back as nr_sline_parse gives it, field by
 * field; lines the packed form cannot hold are marked so and lexed again. */
static void packed_lines_read_back_as_parsed(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        int packed;
        const char *syscall; /* the table entry the lexer names (syscall_ref), else NULL */
    } cases[] = {
        {"1234 1700000000.000001 openat(AT_FDCWD, \"/d/a\", O_RDONLY) = 3</d/a> <0.000010>", 1, "openat"},
        {"1234 1700000000.000002 read(3, \"xy\", 2) = -1 EAGAIN (Resource temporarily unavailable) <0.000005>", 1,
         "read"},
        {"[pid 77] 12:00:01.5 read(3,  <unfinished ...>", 1, NULL},
        {"77 <... read resumed>\"ab\", 2) = 2", 1, NULL},
        {"77 lseek(3, 0, SEEK_END) = ?", 1, NULL},
        {"77 write(1, \"x\", 1) = 0x10", 1, NULL},
        {"77 close(3) = 0 junk <0.000010>", 1, NULL}, /* text after the result it does not know */
        {"77 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED} ---", 1, NULL},
        {"77 +++ exited with 0 +++", 1, NULL},
        {"", 1, NULL},
        {"77 +++ exited with 3 +++", 0, NULL},        /* an exit code */
        {"77 +++ killed by SIGKILL (core dumped) +++", 0, NULL},
        {"this is no strace line", 0, NULL},          /* a reason */
        {"77 12:00:01.000001      0.000010 close(3) = 0", 0, NULL}, /* two stamps (-t with -r) */
        {"9999999999 close(3) = 0", 0, NULL},         /* a pid past 32 bits */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *line = cases[k].line;
        nr_sline want, got;
        nr_sline_parse(line, strlen(line), &want);
        assert_int_equal(want.result_tail_unread, strstr(line, "junk") != NULL);
        nr_par_line pl = {.off = 0, .len = (uint32_t)strlen(line)};
        const int packed = nr__par_lex_pack(&want, line, &pl);
        if (cases[k].packed >= 0)
            assert_int_equal(packed, cases[k].packed);
        const nr_par_chunk_view v = {&pl, 1, line, 1, 0, 1, NULL, NULL, 0, NULL};
        nr_par_lex_line(&v, 0, &got);
        assert_sline_equal(&got, line, &want, line);
        /* the lexer's lookup crosses threads: long call lines name their entry */
        assert_int_equal(got.syscall_ref, want.syscall_ref);
        if (cases[k].syscall) {
            assert_true(got.syscall_ref >= NR_SLINE_SYSCALL_FIRST);
            const nr_syscall_info *e = nr_syscall_at(got.syscall_ref - NR_SLINE_SYSCALL_FIRST);
            assert_non_null(e);
            assert_string_equal(e->name, cases[k].syscall);
        }
    }
    /* spans past 64 kB of a long line */
    const size_t n = 70000;
    char *line = malloc(n + 64);
    assert_non_null(line);
    int head = snprintf(line, 64, "5 write(1, \"");
    memset(line + head, 'a', n);
    size_t len = (size_t)head + n;
    len += (size_t)snprintf(line + len, 64, "\", %zu) = %zu ENOSPC (x)", n, n);
    nr_sline want, got;
    nr_sline_parse(line, len, &want);
    assert_int_equal(want.kind, NR_SL_SYSCALL);
    nr_par_line pl = {.off = 0, .len = (uint32_t)len};
    assert_int_equal(nr__par_lex_pack(&want, line, &pl), 0);
    const nr_par_chunk_view v = {&pl, 1, line, 1, 0, 1, NULL, NULL, 0, NULL};
    nr_par_lex_line(&v, 0, &got);
    assert_sline_equal(&got, line, &want, line);
    free(line);
}

/* Lines cut from text (no CR), as par_lex cuts them. */
static size_t cut_test_lines(const char *text, nr_par_line *lines, size_t cap)
{
    size_t n = 0, at = 0;
    for (const char *nl; n < cap && (nl = strchr(text + at, '\n')); at = (size_t)(nl - text) + 1)
        lines[n++] = (nr_par_line){.off = (uint32_t)at, .len = (uint32_t)(nl - text - (ptrdiff_t)at)};
    return n;
}

/* The calls a chunk carries over: a task's last line decides, a signal
 * line does not; only the last NR_PAR_CARRY_WINDOW lines are looked at. */
static void tail_pending_known_answer(void **state)
{
    (void)state;
    const char *text = "10 1700000000.000001 read(3</a>, <unfinished ...>\n"
                       "11 1700000000.000002 openat(AT_FDCWD, \"/b\", O_RDONLY <unfinished ...>\n"
                       "12 1700000000.000003 close(4) = 0\n"
                       "10 1700000000.000004 <... read resumed>\"x\", 1) = 1\n"
                       "13 1700000000.000005 write(1, \"y\", 1 <unfinished ...>\n"
                       "11 1700000000.000006 --- SIGCHLD {si_signo=SIGCHLD} ---\n"
                       "12 1700000000.000007 fstat(5 <unfinished ...>\n"
                       "no task's line <unfinished ...>\n"
                       "14 1700000000.000008 exit_group(0) = ?\n";
    nr_par_line lines[16];
    const size_t n = cut_test_lines(text, lines, 16);
    assert_int_equal(n, 9);
    size_t idx[NR_PAR_CARRY_MAX];
    assert_int_equal(nr_par_lex_tail_pending(text, lines, n, idx), 3);
    assert_int_equal(idx[0], 1); /* 11: its signal does not end the call */
    assert_int_equal(idx[1], 4); /* 13 */
    assert_int_equal(idx[2], 6); /* 12: after its close */
    assert_int_equal(nr_par_lex_tail_pending(text, lines, 4, idx), 1); /* 10 resumed: 11 alone */
    assert_int_equal(idx[0], 1);

    /* an unfinished call NR_PAR_CARRY_WINDOW lines back is not looked at;
       NR_PAR_CARRY_MAX calls at most */
    enum { N = NR_PAR_CARRY_WINDOW + 1 };
    char *big = malloc((size_t)N * 64);
    nr_par_line *bl = malloc((size_t)N * sizeof *bl);
    assert_non_null(big);
    assert_non_null(bl);
    size_t len = (size_t)sprintf(big, "99 1700000000.000001 read(3, <unfinished ...>\n");
    for (int i = 1; i < N; i++)
        len += (size_t)sprintf(big + len, "%d 1700000000.000002 fstat(3 <unfinished ...>\n", 1000 + i % 40);
    assert_int_equal(cut_test_lines(big, bl, N), N);
    assert_int_equal(nr_par_lex_tail_pending(big, bl, N, idx), NR_PAR_CARRY_MAX);
    assert_int_equal(idx[NR_PAR_CARRY_MAX - 1], N - 1);
    assert_int_equal(idx[0], N - NR_PAR_CARRY_MAX);
    free(big);
    free(bl);
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
        cmocka_unit_test(many_logs_in_any_order_equal_serial_lines),
        cmocka_unit_test(serial_when_many_logs_are_merged_at_once),
        cmocka_unit_test(many_interleaved_logs_read_serially_same_store),
        cmocka_unit_test(working_chunks_equal_serial_lines_and_hash),
        cmocka_unit_test(packed_lines_read_back_as_parsed),
        cmocka_unit_test(tail_pending_known_answer),
        cmocka_unit_test(meta_nrhash_of_plain_and_compressed_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
