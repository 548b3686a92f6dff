/* Scale tests: par_lex hands out the same lines as a plain serial read, and
 * the store of an ingest is byte for byte the same for any --jobs and any
 * chunk size (the six samples, a generated -f log with bad and cut lines, a
 * generated -ff run, random logs of threads sharing fd tables), and with
 * every chunk speculated and stitched; the progress bar's text and its
 * silence off a tty. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>
#include <xxhash.h>
#include <cmocka.h>

#include "gen_threads.h"
#include "logsrc.h"
#include "nr_error.h"
#include "nr_ingest.h"
#include "nr_progress.h"
#include "nr_store.h"
#include "par_lex.h"
#include "par_write.h"
#include "procmodel.h"
#include "strace_line.h"

static const char *const samples[] = {"diffusion", "language", "mlp", "rl", "snn", "vision"};
#define NSAMPLES (sizeof samples / sizeof samples[0])

static char tmpdir[256];

static void sample_dir(char *buf, size_t cap, const char *name)
{
    const char *src = getenv("NR_SOURCE_DIR");
    snprintf(buf, cap, "%s/datasets/sample/%s", src ? src : ".", name);
}

/* ---- generated logs ------------------------------------------------------ */

/* One line of a 4-process job: each process opens a file, reads it twice,
 * seeks and closes, over and over; every 997th line is garbage; pid < 0
 * writes the -ff form (no pid prefix). */
static void gen_line(FILE *f, uint64_t i, int with_pid)
{
    int pid = 100 + (int)(i % 4);
    uint64_t step = i / 4;
    uint64_t us = 123456 + i * 7;
    if (with_pid)
        fprintf(f, "%d ", pid);
    fprintf(f, "1764480000.%06llu ", (unsigned long long)(us % 1000000));
    if (i % 997 == 996) {
        fprintf(f, "this is not an strace line %llu\n", (unsigned long long)i);
        return;
    }
    switch (step % 5) {
    case 0:
        fprintf(f, "openat(AT_FDCWD, \"/data/shard%llu.bin\", O_RDONLY|O_CLOEXEC) = 3 <0.000010>\n",
                (unsigned long long)(step / 5 % 300));
        break;
    case 1: fprintf(f, "read(3, \"\\x00\\x01abc\"..., 65536) = 65536 <0.000120>\n"); break;
    case 2: fprintf(f, "read(3, \"tail\"..., 65536) = %llu <0.000020>\n", (unsigned long long)(step % 4096)); break;
    case 3: fprintf(f, "lseek(3, 0, SEEK_SET) = 0 <0.000002>\n"); break;
    default: fprintf(f, "close(3) = 0 <0.000003>\n"); break;
    }
}

static void write_generated_f(const char *path, uint64_t lines)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (uint64_t i = 0; i < lines; i++)
        gen_line(f, i, 1);
    fputs("100 1764480001.000000 read(3, \"cut", f); /* a last line without newline */
    assert_int_equal(fclose(f), 0);
}

static void write_generated_ff(const char *dir, uint64_t lines)
{
    FILE *f[4];
    for (int k = 0; k < 4; k++) {
        char path[700];
        snprintf(path, sizeof path, "%s/strace.log.%d", dir, 100 + k);
        assert_non_null(f[k] = fopen(path, "w"));
    }
    for (uint64_t i = 0; i < lines; i++)
        gen_line(f[i % 4], i, 0);
    for (int k = 0; k < 4; k++)
        assert_int_equal(fclose(f[k]), 0);
}

/* ---- helpers --------------------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static int files_equal(const char *a, const char *b)
{
    size_t na, nb;
    char *x = slurp(a, &na), *y = slurp(b, &nb);
    int same = na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

static void assert_same_file(const char *a, const char *b)
{
    if (!files_equal(a, b))
        fail_msg("%s differs from %s", a, b);
}

static void ingest_with(const char *input, const char *out, int jobs, size_t chunk_bytes, int ahead,
                        nr_ingest_stats *st)
{
    nr__par_lex_set_chunk_bytes(chunk_bytes);
    nr__ingest_path_ahead_always(ahead);
    nr_ingest_opts opts = {.jobs = jobs};
    nr_error err;
    nr_error_clear(&err);
    int rc = nr_ingest_run(input, out, &opts, st, &err);
    nr__par_lex_set_chunk_bytes(0);
    nr__ingest_path_ahead_always(0);
    if (rc < 0)
        fail_msg("ingest %s (jobs %d): %s", input, jobs, err.msg);
}

/* Ingests input with jobs 1 (default chunks), then 1 with the path
 * look-ahead from the first chunk (a hint: it must change nothing), then
 * 2, 3 and 4 with small chunks (3 and 4 with the look-ahead too), and
 * asserts the five stores are identical. */
static void assert_jobs_invariant(const char *input, const char *tag)
{
    static const int jobs[] = {1, 2, 3, 4};
    static const size_t chunk[] = {0, 16 << 10, 100 << 10, 16 << 10};
    static const int ahead[] = {1, 0, 1, 1};
    char ref[512], out[512];
    snprintf(ref, sizeof ref, "%s/%s.ref.nio", tmpdir, tag);
    nr_ingest_stats st1;
    ingest_with(input, ref, 1, 0, 0, &st1);
    for (size_t k = 0; k < sizeof jobs / sizeof jobs[0]; k++) {
        snprintf(out, sizeof out, "%s/%s.j%d.nio", tmpdir, tag, jobs[k]);
        nr_ingest_stats st;
        ingest_with(input, out, jobs[k], chunk[k], ahead[k], &st);
        assert_int_equal(st.lines_read, st1.lines_read);
        assert_int_equal(st.events, st1.events);
        assert_same_file(ref, out);
        unlink(out);
    }
    unlink(ref);
}

/* ---- tests ------------------------------------------------------------------ */

/* Every line of every sample, chunked on 3 threads, equals the serial read. */
static void par_lex_matches_serial_read(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSAMPLES; s++) {
        char path[512];
        sample_dir(path, sizeof path, samples[s]);
        strcat(path, "/strace.log.zst");
        nr_error err;
        nr_logsrc *serial, *chunked;
        assert_int_equal(nr_logsrc_open(path, &serial, &err), 0);
        assert_int_equal(nr_logsrc_open(path, &chunked, &err), 0);
        nr__par_lex_set_chunk_bytes(20000);
        nr_par_lex *p;
        assert_int_equal(nr_par_lex_create(&chunked, 1, 3, &p, &err), 0);
        nr__par_lex_set_chunk_bytes(0);
        assert_int_equal(nr_par_lex_workers(p), 2);
        XXH3_state_t *hash = XXH3_createState();
        XXH3_64bits_reset(hash);
        uint64_t line_no = 0, chunks = 0;
        nr_par_chunk_view v;
        int rc;
        while ((rc = nr_par_lex_next(p, 0, &v, &err)) == 1) {
            chunks++;
            assert_int_equal(v.first_line_no, line_no + 1);
            for (size_t i = 0; i < v.n; i++) {
                const char *line;
                size_t len;
                assert_int_equal(nr_logsrc_next(serial, &line, &len, &err), 1);
                line_no++;
                XXH3_64bits_update(hash, line, len); /* the samples have no CR */
                if (!nr_logsrc_last_line_unterminated(serial))
                    XXH3_64bits_update(hash, "\n", 1);
                assert_int_equal(v.lines[i].len, len);
                assert_memory_equal(v.text + v.lines[i].off, line, len);
                nr_sline want, got_line;
                nr_sline_parse(line, len, &want);
                nr_par_lex_line(&v, i, &got_line);
                const nr_sline *got = &got_line;
                assert_int_equal(got->kind, want.kind);
                assert_int_equal(got->pid, want.pid);
                assert_int_equal(got->ts_ns, want.ts_ns);
                assert_int_equal(got->result, want.result);
                assert_int_equal(got->name.n, want.name.n);
                assert_memory_equal(got->name.p, want.name.p, want.name.n);
                assert_ptr_equal(got->name.p - v.text - v.lines[i].off, want.name.p - line);
            }
        }
        assert_int_equal(rc, 0);
        const char *line;
        size_t len;
        assert_int_equal(nr_logsrc_next(serial, &line, &len, &err), 0);
        assert_true(chunks > 10); /* the samples are far larger than 20 kB */
        assert_int_equal(nr_par_lex_hash(p, 0), XXH3_64bits_digest(hash)); /* nrhash-v2 */
        XXH3_freeState(hash);
        nr_par_lex_destroy(p);
        nr_logsrc_close(serial);
        nr_logsrc_close(chunked);
    }
}

static void samples_same_store_for_any_jobs(void **state)
{
    (void)state;
    for (size_t s = 0; s < NSAMPLES; s++) {
        char dir[512];
        sample_dir(dir, sizeof dir, samples[s]);
        assert_jobs_invariant(dir, samples[s]);
    }
}

/* Makes the run directory tmpdir/tag (run) and names its strace.log (log). */
static void make_run(const char *tag, char run[512], char log[600])
{
    snprintf(run, 512, "%s/%s", tmpdir, tag);
    assert_int_equal(mkdir(run, 0777), 0);
    snprintf(log, 600, "%s/strace.log", run);
}

/* Writes a generated -f log of `lines` lines (and a cut last one) into the
 * run tmpdir/tag, asserts that every jobs count gives the same store, and
 * ingests it once more with 2 jobs and chunks of chunk_bytes into *st. */
static void check_generated_f_run(const char *tag, uint64_t lines, size_t chunk_bytes, nr_ingest_stats *st)
{
    char run[512], log[600], out[600];
    make_run(tag, run, log);
    write_generated_f(log, lines);
    assert_jobs_invariant(run, tag);
    snprintf(out, sizeof out, "%s/%s.nio", tmpdir, tag);
    ingest_with(run, out, 2, chunk_bytes, 0, st);
    unlink(out);
    unlink(log);
    rmdir(run);
}

static void generated_f_log_same_store_for_any_jobs(void **state)
{
    (void)state;
    nr_ingest_stats st;
    check_generated_f_run("gen_f", 60000, 32 << 10, &st); /* about 4 MB */
    /* the known counts: 60000 lines + the cut one; 60 garbage lines */
    assert_int_equal(st.lines_read, 60001);
    assert_int_equal(st.lines_skipped, 60 + 1);
    assert_int_equal(st.events, 60000 - 60);
}

/* More events than par_write's ring of batches holds (3 row groups of
 * 65536 events, each lent whole to the store): the batches wrap around,
 * their blocks change hands (the second one made by a worker before the
 * pass needs it: the log is over SPARE_BATCH_MIN_BYTES), the pass writes
 * or waits when all are full
 * (forced once by holding the workers back), and the last, partial group
 * is copied; every jobs count gives the same store. */
static void events_of_many_row_groups_same_store_for_any_jobs(void **state)
{
    (void)state;
    enum { LINES = 250000, EVENTS = LINES - LINES / 997 }; /* every 997th line is garbage */
    _Static_assert(EVENTS > 3 * NR_STORE_ROWS_PER_GROUP, "the log fills the ring of three row groups");
    nr_ingest_stats st;
    check_generated_f_run("gen_groups", LINES, 0, &st); /* about 17 MB */
    assert_int_equal(st.events, EVENTS);
    nr__par_write_hold_workers(1); /* the worker falls behind: three blocks, the pass writes */
    check_generated_f_run("gen_groups_held", LINES, 0, &st);
    nr__par_write_hold_workers(0);
    assert_int_equal(st.events, EVENTS);
}

/* A log of `files` distinct files, each opened, read and closed by one of
 * 4 processes. */
static void write_many_files(const char *path, uint64_t files)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (uint64_t i = 0; i < files; i++) {
        const int pid = 100 + (int)(i % 4);
        const unsigned long long us = 100000 + i * 3;
        fprintf(f, "%d 1764480%03llu.%06llu openat(AT_FDCWD, \"/data/train/f%07llu.bin\", O_RDONLY) = 3 <0.000010>\n",
                pid, us / 1000000, us % 1000000, (unsigned long long)i);
        fprintf(f, "%d 1764480%03llu.%06llu read(3, \"x\"..., 4096) = 4096 <0.000004>\n", pid, (us + 1) / 1000000,
                (us + 1) % 1000000);
        fprintf(f, "%d 1764480%03llu.%06llu close(3) = 0 <0.000002>\n", pid, (us + 2) / 1000000, (us + 2) % 1000000);
    }
    assert_int_equal(fclose(f), 0);
}

/* 100 k files: the pass's path table (slots past 2 MB, entries past 1.5
 * MB, its strings in 2 MB blocks) and file records (2 MB blocks) grow
 * from blocks a worker made and faulted in ahead (nr_reserve) at -j 2,
 * and at -j 1 there is no reserve; the stores are the same. */
static void pass_takes_blocks_a_worker_made(void **state)
{
    (void)state;
    char run[512], log[600], ref[600], out[600];
    make_run("gen_files", run, log);
    write_many_files(log, 100000);
    snprintf(ref, sizeof ref, "%s/files_j1.nio", tmpdir);
    snprintf(out, sizeof out, "%s/files_j2.nio", tmpdir);
    nr_ingest_stats st1, st2;
    ingest_with(run, ref, 1, 0, 0, &st1);
    ingest_with(run, out, 2, 0, 0, &st2);
    assert_same_file(ref, out);
    assert_int_equal(st1.files, st2.files);
    assert_true(st2.files >= 100000);
    assert_int_equal(st1.blocks_made, 0);
    assert_int_equal(st1.blocks_taken, 0);
    assert_true(st2.blocks_taken >= 1);
    assert_true(st2.blocks_taken <= st2.blocks_made);
    unlink(ref);
    unlink(out);
    unlink(log);
    rmdir(run);
}

static void generated_ff_run_same_store_for_any_jobs(void **state)
{
    (void)state;
    char run[512];
    snprintf(run, sizeof run, "%s/gen_ff", tmpdir);
    assert_int_equal(mkdir(run, 0777), 0);
    write_generated_ff(run, 40000);
    assert_jobs_invariant(run, "gen_ff");
    for (int k = 0; k < 4; k++) {
        char path[600];
        snprintf(path, sizeof path, "%s/strace.log.%d", run, 100 + k);
        unlink(path);
    }
    rmdir(run);
}

/* The split's stitch, deterministically: with jobs 1 and every chunk fed
 * to a speculative model and stitched (nr__ingest_speculate), the sample
 * runs and a generated log give the store of the plain ingest, and most
 * chunks of the generated log (no -y, absolute paths) are stitched. */
static void speculated_chunks_give_the_same_store(void **state)
{
    (void)state;
    char run[512], log[600], ref[600], out[600];
    make_run("gen_spec", run, log);
    write_generated_f(log, 20000);
    const char *inputs[NSAMPLES + 1];
    char dirs[NSAMPLES][512];
    for (size_t s = 0; s < NSAMPLES; s++) {
        sample_dir(dirs[s], sizeof dirs[s], samples[s]);
        inputs[s] = dirs[s];
    }
    inputs[NSAMPLES] = run;
    for (size_t k = 0; k <= NSAMPLES; k++) {
        snprintf(ref, sizeof ref, "%s/spec_ref.nio", tmpdir);
        snprintf(out, sizeof out, "%s/spec_out.nio", tmpdir);
        nr_ingest_stats st_ref, st;
        ingest_with(inputs[k], ref, 1, 16 << 10, 0, &st_ref);
        nr__ingest_speculate(1);
        ingest_with(inputs[k], out, 1, 16 << 10, 0, &st);
        nr__ingest_speculate(0);
        assert_same_file(ref, out);
        assert_true(st.chunks_stitched + st.chunks_refused > 0);
        if (k == NSAMPLES)
            assert_true(st.chunks_stitched > 9 * st.chunks_refused);
        unlink(ref);
        unlink(out);
    }
    unlink(log);
    rmdir(run);
}

/* Ingests the corpus input `name` of strace_file_speculate line by line
 * and with every chunk (256 bytes, 1 kB) speculated on: the same store,
 * more than 10 chunks stitched, at most `refused` percent of the chunks
 * taken refused (0: none). */
static void assert_corpus_input_stitched(const char *name, uint64_t refused)
{
    const char *src = getenv("NR_SOURCE_DIR");
    char in[600], ref[600], out[600];
    snprintf(in, sizeof in, "%s/tests/fuzz/corpus/strace_file_speculate/%s", src ? src : ".", name);
    snprintf(ref, sizeof ref, "%s/corpus_ref.nio", tmpdir);
    snprintf(out, sizeof out, "%s/corpus_out.nio", tmpdir);
    static const size_t chunks[] = {256, 1024};
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
        nr_ingest_stats st_ref, st;
        ingest_with(in, ref, 1, chunks[k], 0, &st_ref);
        nr__ingest_speculate(1);
        ingest_with(in, out, 1, chunks[k], 0, &st);
        nr__ingest_speculate(0);
        assert_same_file(ref, out);
        assert_true(st.chunks_stitched > 10);
        assert_true(st.chunks_refused * 100 <= refused * (st.chunks_stitched + st.chunks_refused));
        unlink(ref);
        unlink(out);
    }
}

/* Threads whose calls are pending across chunk boundaries (unfinished
 * here, resumed in the next chunk): the chunk carries them over, so every
 * chunk is stitched. */
static void calls_pending_across_chunks_are_stitched(void **state)
{
    (void)state;
    assert_corpus_input_stitched("resumed_across_chunks", 0);
}

/* dup, dup2, dup3 and fcntl's F_DUPFD_CLOEXEC, F_GETFD and F_GETFL on fds
 * opened before the chunk (ghosts) and in it: stitched; the one F_SETFD
 * refuses its chunk. */
static void dups_in_chunks_are_stitched(void **state)
{
    (void)state;
    assert_corpus_input_stitched("dups_across_chunks", 5);
}

/* Threads of one fd table that open, read and close under the same fd
 * numbers, and closes resumed after another thread took their number: the
 * real model's shared tables, given to the speculation as a hint, let
 * every chunk be stitched (without it, 83% of the first input's chunks
 * were refused). */
static void threads_of_one_table_are_stitched(void **state)
{
    (void)state;
    assert_corpus_input_stitched("threads_reuse_fd_numbers", 0);
    assert_corpus_input_stitched("closes_resumed_after_reuse", 0);
}

/* Random logs of threads that share fd tables (gen_threads.h: opens,
 * reads, seeks, dups, stats and closes under reused fd numbers, calls
 * unfinished across other threads' lines, threads started and ended, a
 * fork): line by line, every chunk speculated (512 B and 4 kB), and at -j
 * 2 and 3 (the workers speculating with the pass's shared-table hint of
 * the moment) give one store. More chunks are stitched than refused (most
 * refusals: a call pending for longer than the chunk before, which small
 * chunks make common), so the test is of the stitch, not of its refusals. */
static void random_thread_logs_same_store(void **state)
{
    (void)state;
    char run[512], log[600], ref[600], out[600];
    make_run("threads", run, log);
    snprintf(ref, sizeof ref, "%s/threads_ref.nio", tmpdir);
    snprintf(out, sizeof out, "%s/threads_out.nio", tmpdir);
    static const struct { int jobs; size_t chunk; int speculate; } ways[] = {
        {1, 512, 1}, {1, 4096, 1}, {2, 4096, 0}, {3, 1024, 0}};
    uint64_t stitched = 0, refused = 0;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        FILE *f = fopen(log, "w");
        assert_non_null(f);
        assert_int_equal(gen_threads_log(f, seed, 1500), 0);
        assert_int_equal(fclose(f), 0);
        nr_ingest_stats st_ref, st;
        ingest_with(run, ref, 1, 0, 0, &st_ref);
        for (size_t k = 0; k < sizeof ways / sizeof ways[0]; k++) {
            nr__ingest_speculate(ways[k].speculate);
            ingest_with(run, out, ways[k].jobs, ways[k].chunk, 0, &st);
            nr__ingest_speculate(0);
            if (!files_equal(ref, out))
                fail_msg("seed %llu: the store at -j %d with %zu-byte chunks%s differs from the line-by-line one",
                         (unsigned long long)seed, ways[k].jobs, ways[k].chunk, ways[k].speculate ? ", speculated" : "");
            stitched += st.chunks_stitched;
            refused += st.chunks_refused;
            unlink(out);
        }
        unlink(ref);
    }
    unlink(log);
    rmdir(run);
    print_message("random thread logs: %llu chunks stitched, %llu refused\n", (unsigned long long)stitched,
                  (unsigned long long)refused);
    assert_true(stitched > refused);
}

/* Feeds lines (one per string, NULL-terminated) to pm. */
static void feed_lines(nr_pm *pm, const char *const *lines)
{
    for (size_t i = 0; lines[i]; i++) {
        nr_sline sl;
        nr_sline_parse(lines[i], strlen(lines[i]), &sl);
        nr_pm_where w = {"strace.log", i + 1, lines[i], strlen(lines[i])};
        nr_error err;
        assert_true(nr_pm_feed(pm, &sl, -1, sl.ts_ns, &w, &err) >= 0);
    }
}

/* The stitch of one chunk of threads of one fd table (10 closes fd 3, 11
 * opens another file as fd 3, 10 reads it) onto a real model where 10 and
 * 11 are threads, or, with `processes`, two processes: 1 stitched, 0
 * refused with *why. hint: give the speculation the real model's shared
 * tables, and, with processes, a hint out of date that names them sharers. */
static int stitch_thread_chunk(int processes, int hint, const char **why)
{
    static const char *const threads[] = {
        "10 1700000000.000001 openat(AT_FDCWD</w>, \"/d/a\", O_RDONLY) = 3</d/a>",
        "10 1700000000.000002 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD, exit_signal=0}, 88) = 11",
        "11 1700000000.000003 getpid() = 10", NULL};
    static const char *const procs[] = {
        "10 1700000000.000001 openat(AT_FDCWD</w>, \"/d/a\", O_RDONLY) = 3</d/a>",
        "11 1700000000.000003 getpid() = 11", NULL};
    static const char *const chunk[] = {
        "10 1700000000.000004 close(3</d/a>) = 0",
        "11 1700000000.000005 openat(AT_FDCWD</w>, \"/d/c\", O_RDONLY) = 3</d/c>",
        "10 1700000000.000006 read(3</d/c>, \"x\", 1) = 1", NULL};
    nr_pm_config cfg = {.start_cwd = "/w"}, spec_cfg = {.start_cwd = "/w", .speculative = 1};
    nr_pm *real, *spec;
    nr_error err;
    assert_int_equal(nr_pm_create(&cfg, &real, &err), 0);
    feed_lines(real, processes ? procs : threads);
    assert_int_equal(nr_pm_create(&spec_cfg, &spec, &err), 0);
    nr_pm_shared_table tables[4] = {{10, 7}, {11, 7}};
    size_t n = processes ? 2 : nr_pm_shared_tables(real, tables, 4);
    assert_int_equal(n, 2);
    nr_pm_spec_tables(spec, tables, hint ? n : 0);
    feed_lines(spec, chunk);
    nr_pm_spec_tables(spec, NULL, 0);
    nr_pm_stitch *st = NULL;
    int rc = nr_pm_stitch_begin(real, spec, &st, why, &err);
    assert_true(rc == 0 || rc == 1);
    nr_pm_stitch_end(st);
    nr_pm_destroy(spec);
    nr_pm_destroy(real);
    return rc == 0;
}

/* The shared-table hint (nr_pm_spec_tables): taken when the real model
 * holds it; without it the chunk is refused; a hint out of date (two
 * processes named sharers) is refused by the stitch. */
static void shared_table_hint_is_checked(void **state)
{
    (void)state;
    const char *why = NULL;
    assert_true(stitch_thread_chunk(0, 1, &why));
    assert_false(stitch_thread_chunk(0, 0, &why));
    assert_string_equal(why, "two tasks that share an fd table, one changing it");
    assert_false(stitch_thread_chunk(1, 1, &why));
    assert_string_equal(why, "two tasks the segment took for sharing an fd table that do not");
}

static void progress_text_known_answer(void **state)
{
    (void)state;
    char buf[256];
    nr_progress_format(buf, sizeof buf, 80, "ingest", NULL, 250000000, 1000000000, 2.0);
    assert_string_equal(buf, "ingest [#####.................]  25%  250 MB / 1.00 GB   125 MB/s  0:00:06 left");
    nr_progress_format(buf, sizeof buf, 80, "x", NULL, 0, 0, 0);
    assert_string_equal(buf, "x [........................]   0%     0 B / 0 B      0 B/s    --:-- left");
    nr_progress_format(buf, sizeof buf, 80, "merge", "rows", 1500000, 6000000, 1.0);
    assert_string_equal(buf, "merge [####............]  25% 1.50 M / 6.00 M rows  1.50 M rows/s  0:00:03 left");
}

/* The line fits a terminal of 40, 60, 80 and 120 columns in width - 1 of
 * them (review 49: 81 columns for a .zst log of tens of MB left a stale
 * row per redraw in 80): the bar shrinks to 8 cells, then the rate goes,
 * then the sizes, then the bar, then the time left, then the label. */
static void progress_text_fits_the_width(void **state)
{
    (void)state;
    char buf[256];
    static const struct {
        int width;
        const char *label, *unit;
        uint64_t done, total;
        double elapsed;
        const char *want;
    } cases[] = {
        /* the review's case: 81 columns until session 49 */
        {80, "ingest", NULL, 4200000, 49700000, 0.1145,
         "ingest [#.....................]   8% 4.20 MB / 49.7 MB  36.7 MB/s  0:00:01 left"},
        {120, "ingest", NULL, 4200000, 49700000, 0.1145,
         "ingest [##......................]   8% 4.20 MB / 49.7 MB  36.7 MB/s  0:00:01 left"},
        {60, "ingest", NULL, 4200000, 49700000, 0.1145, "ingest [#............]   8% 4.20 MB / 49.7 MB  0:00:01 left"},
        {40, "ingest", NULL, 4200000, 49700000, 0.1145, "ingest [...........]   8%  0:00:01 left"},
        /* GB sizes, GB/s, hours left */
        {80, "ingest", NULL, 123456789012, 987654321098, 45.0,
         "ingest [##.....................]  12%  123 GB / 988 GB  2.74 GB/s  0:05:15 left"},
        {80, "ingest", NULL, 12345678901, 99876543210987, 10.0,
         "ingest [.....................]   0% 12.3 GB / 99.9 TB  1.23 GB/s  22:28:10 left"},
        {60, "ingest", NULL, 12345678901, 99876543210987, 10.0, "ingest [............]   0% 12.3 GB / 99.9 TB  22:28:10 left"},
        {40, "ingest", NULL, 12345678901, 99876543210987, 10.0, "ingest [..........]   0%  22:28:10 left"},
        {120, "ingest", NULL, 12345678901, 99876543210987, 10.0,
         "ingest [........................]   0% 12.3 GB / 99.9 TB  1.23 GB/s  22:28:10 left"},
        /* past 99 hours: whole hours; past a million, '>' */
        {80, "merge", "rows", 1000, 987654321098, 40.0,
         "merge [...............]   0% 1.00 k / 988 G rows      25 rows/s  >999999 h left"},
        {60, "ingest", NULL, 1000000, 1000000000000, 1.0, "ingest [...............]   0% 1.00 MB / 1.00 TB  277 h left"},
        /* narrower than any field: the label goes, the percentage is cut */
        {10, "ingest", NULL, 25, 100, 1.0, " 25%"},
        {3, "ingest", NULL, 25, 100, 1.0, " 2"},
        {1, "ingest", NULL, 25, 100, 1.0, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        nr_progress_format(buf, sizeof buf, cases[i].width, cases[i].label, cases[i].unit, cases[i].done,
                           cases[i].total, cases[i].elapsed);
        assert_string_equal(buf, cases[i].want);
        assert_true(strlen(buf) + 1 <= (size_t)cases[i].width || !buf[0]);
    }
    /* every width from 1 to 200 of a long line: never more than width - 1 */
    for (int w = 1; w <= 200; w++) {
        nr_progress_format(buf, sizeof buf, w, "ingest", NULL, 123456789012, 99876543210987, 0.5);
        if (strlen(buf) >= (size_t)(w > 1 ? w : 1) && buf[0])
            fail_msg("width %d: %zu columns: '%s'", w, strlen(buf), buf);
    }
    /* a short buffer cuts, NUL-terminated */
    char small[12];
    nr_progress_format(small, sizeof small, 80, "ingest", NULL, 250000000, 1000000000, 2.0);
    assert_string_equal(small, "ingest [###");
}

/* The bar keeps its cells while the numbers change: a 1.07 GB log read at
 * about 250 MB/s, drawn every 31.4 MB, from the first draw (no rate yet)
 * to the end, at 80 and 120 columns (until session 55 the bar took the
 * room the sizes left: "88.1 MB" then "114 MB" moved its ']'). */
static void progress_bar_stays_put(void **state)
{
    (void)state;
    static const int widths[] = {80, 120};
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        const uint64_t total = 1070000000;
        char buf[256], first[256];
        nr_progress_format(first, sizeof first, widths[w], "ingest", NULL, 0, total, 0);
        const size_t bar_end = (size_t)(strchr(first, ']') - first), line = strlen(first);
        for (uint64_t done = 4200000; done < total + 31400000; done += 31400000) {
            const uint64_t d = done < total ? done : total;
            nr_progress_format(buf, sizeof buf, widths[w], "ingest", NULL, d, total, (double)d / 250e6 + 0.01);
            if ((size_t)(strchr(buf, ']') - buf) != bar_end || strlen(buf) != line)
                fail_msg("width %d: '%s' against the first draw '%s'", widths[w], buf, first);
        }
    }
}

/* On a terminal of 50 columns (a pty, TIOCSWINSZ) the drawn lines take at
 * most 49, and the end is drawn once however often it is reported (until
 * session 49 each report of done == total drew it again). */
static void progress_on_a_pty(void **state)
{
    (void)state;
    const int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0)
        skip();
    const int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    assert_true(slave >= 0);
    struct termios tio;
    assert_int_equal(tcgetattr(slave, &tio), 0);
    cfmakeraw(&tio); /* no "\n" -> "\r\n" */
    assert_int_equal(tcsetattr(slave, TCSANOW, &tio), 0);
    const struct winsize ws = {.ws_row = 24, .ws_col = 50};
    assert_int_equal(ioctl(slave, TIOCSWINSZ, &ws), 0);
    FILE *out = fdopen(slave, "w");
    assert_non_null(out);
    nr_progress *p = nr_progress_create(out, "ingest");
    assert_non_null(p);
    nr_progress_update(p, 4200000, 49700000);
    for (int i = 0; i < 5; i++)
        nr_progress_update(p, 49700000, 49700000);
    nr_progress_finish(p);
    fclose(out);
    char text[4096];
    size_t n = 0;
    for (ssize_t got; n < sizeof text - 1 && (got = read(master, text + n, sizeof text - 1 - n)) > 0;)
        n += (size_t)got;
    close(master);
    text[n] = '\0';
    int ends = 0, lines = 0;
    for (char *line = strtok(text, "\r"); line; line = strtok(NULL, "\r")) {
        char *esc = strstr(line, "\033[K");
        if (esc)
            *esc = '\0';
        if (!*line)
            continue;
        lines++;
        ends += strstr(line, "100%") != NULL;
        if (strlen(line) > 49)
            fail_msg("%zu columns on a terminal of 50: '%s'", strlen(line), line);
    }
    assert_int_equal(lines, 2);
    assert_int_equal(ends, 1);
}

/* Off a terminal there is no bar and nothing is written. */
static void progress_silent_off_tty(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/progress.txt", tmpdir);
    FILE *f = fopen(path, "w+");
    assert_non_null(f);
    nr_progress *p = nr_progress_create(f, "ingest");
    assert_null(p);
    nr_progress_update(p, 1, 2);
    nr_progress_finish(p);
    assert_int_equal(ftell(f), 0);
    fclose(f);
    unlink(path);
}

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/nr_scale_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    return rmdir(tmpdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(progress_text_known_answer),
        cmocka_unit_test(progress_text_fits_the_width),
        cmocka_unit_test(progress_bar_stays_put),
        cmocka_unit_test(progress_on_a_pty),
        cmocka_unit_test(progress_silent_off_tty),
        cmocka_unit_test(par_lex_matches_serial_read),
        cmocka_unit_test(generated_f_log_same_store_for_any_jobs),
        cmocka_unit_test(generated_ff_run_same_store_for_any_jobs),
        cmocka_unit_test(events_of_many_row_groups_same_store_for_any_jobs),
        cmocka_unit_test(pass_takes_blocks_a_worker_made),
        cmocka_unit_test(samples_same_store_for_any_jobs),
        cmocka_unit_test(speculated_chunks_give_the_same_store),
        cmocka_unit_test(calls_pending_across_chunks_are_stitched),
        cmocka_unit_test(dups_in_chunks_are_stitched),
        cmocka_unit_test(threads_of_one_table_are_stitched),
        cmocka_unit_test(shared_table_hint_is_checked),
        cmocka_unit_test(random_thread_logs_same_store),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
