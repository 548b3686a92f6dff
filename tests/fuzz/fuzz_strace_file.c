/* Fuzz target: the whole ingest, end to end. The input becomes a run
 * directory: the text before a line "===hook===" is strace.log, the text
 * after it hook.jsonl; when that text holds lines "===log===", they cut it
 * into -ff logs instead (strace.log.1000, strace.log.1001, ...; at most
 * MAX_FF_LOGS), which the ingest merges by time. nr_ingest_run writes a store into the same temporary
 * directory, and every chunk of every table is read back. Any outcome but a
 * crash, a leak, a hang or a store that does not read back is fine.
 *
 * Built with NR_FUZZ_JOBS_DIFF (target strace_file_jobs), the input is
 * ingested twice, with 1 kB chunks: at -j 1, and at -j 2, where a worker
 * reads, lexes and packs lines for the pass and writes its event batches.
 * The two must agree: both fail with the same message, or both write the
 * same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nr_ingest.h"
#include "nr_store.h"
#include "par_lex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char run_dir[4096];

static int write_file(const char *name, const uint8_t *p, size_t n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", run_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int rc = (n && fwrite(p, 1, n, f) != n) ? -1 : 0;
    return fclose(f) == 0 ? rc : -1;
}

static void remove_file(const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", run_dir, name);
    unlink(path);
}

#define MAX_FF_LOGS 16
#define FF_FIRST_PID 1000

/* The name of -ff log k. */
static void ff_log_name(char *name, size_t size, size_t k)
{
    snprintf(name, size, "strace.log.%zu", FF_FIRST_PID + k);
}

static void remove_logs(void)
{
    char name[64];
    remove_file("strace.log");
    for (size_t k = 0; k < MAX_FF_LOGS; k++) {
        ff_log_name(name, sizeof name, k);
        remove_file(name);
    }
}

static void remove_run_dir(void)
{
    remove_logs();
    remove_file("hook.jsonl");
    rmdir(run_dir);
}

static const char ff_cut[] = "===log===\n";

/* The first line "===log===" of p[0..n) (from p on, p being a line's
 * start), or NULL. */
static const uint8_t *next_cut(const uint8_t *p, size_t n)
{
    for (const uint8_t *at = p; (at = memmem(at, n - (size_t)(at - p), ff_cut, sizeof ff_cut - 1)); at++)
        if (at == p || at[-1] == '\n')
            return at;
    return NULL;
}

/* Writes the log text p[0..n): strace.log, or the -ff logs its lines
 * "===log===" cut it into. */
static int write_logs(const uint8_t *p, size_t n)
{
    remove_logs();
    const uint8_t *at = next_cut(p, n);
    if (!at)
        return write_file("strace.log", p, n);
    char name[64];
    for (size_t k = 0;; k++) {
        const size_t len = at ? (size_t)(at - p) : n;
        ff_log_name(name, sizeof name, k);
        if (write_file(name, p, len) < 0)
            return -1;
        if (!at)
            return 0;
        n -= len + sizeof ff_cut - 1;
        p = at + sizeof ff_cut - 1;
        at = k + 2 < MAX_FF_LOGS ? next_cut(p, n) : NULL;
    }
}

/* A private run directory, made once per process (in /dev/shm when it
 * exists) and removed at exit. */
static int make_run_dir(void)
{
    if (run_dir[0])
        return 0;
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(run_dir, sizeof run_dir, "%s/nr_fuzz_strace_file.XXXXXX", base);
    if (!mkdtemp(run_dir)) {
        run_dir[0] = '\0';
        return -1;
    }
    atexit(remove_run_dir);
    return 0;
}

/* Reads every value of every table; aborts when the fresh store is unreadable. */
static void read_back(const char *path)
{
    nr_store *s;
    nr_error err;
    if (nr_store_open(path, &s, &err) < 0)
        abort();  /* a store the ingest just wrote must open */
    nr_col_chunk c;
    nr_col_chunk_init(&c);
    volatile uint64_t sum = 0;
    for (size_t i = 0; i < nr_store_table_count(s); i++) {
        const nr_store_table *t = nr_store_table_at(s, i);
        for (size_t col = 0; col < nr_store_table_ncols(t); col++) {
            nr_col_info info;
            nr_store_col_info(t, col, &info);
            for (size_t rg = 0; rg < nr_store_table_rowgroups(t); rg++) {
                if (nr_store_read_chunk(t, col, rg, &c, &err) < 0)
                    abort();
                for (size_t k = 0; k < c.n; k++)
                    sum += info.type == NR_COL_I64 ? (uint64_t)c.i64[k] : c.str_len[k];
            }
        }
    }
    (void)sum;
    nr_col_chunk_fini(&c);
    nr_store_close(s);
}

#if defined NR_FUZZ_JOBS_DIFF || defined NR_FUZZ_SPECULATE_DIFF
/* Whether the files at a and b hold the same bytes. */
static int same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        same = ca == cb;
        if (ca == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

#endif

#ifdef NR_FUZZ_JOBS_DIFF
/* Ingests the run at -j 1 into out and at -j 2 beside it; aborts when the
 * two disagree. */
static void jobs_agree(const char *out)
{
    char out2[4300];
    snprintf(out2, sizeof out2, "%s.j2", out);
    nr__par_lex_set_chunk_bytes(1024); /* several chunks even for small inputs */
    nr_ingest_opts one = {.start_cwd = "/w", .jobs = 1}, two = {.start_cwd = "/w", .jobs = 2};
    nr_ingest_stats stats;
    nr_error err1, err2;
    int rc1 = nr_ingest_run(run_dir, out, &one, &stats, &err1);
    int rc2 = nr_ingest_run(run_dir, out2, &two, &stats, &err2);
    if (rc1 != rc2 || (rc1 != 0 && strcmp(err1.msg, err2.msg) != 0)) {
        fprintf(stderr, "-j 1: %d %s\n-j 2: %d %s\n", rc1, rc1 ? err1.msg : "", rc2, rc2 ? err2.msg : "");
        abort();
    }
    if (rc1 == 0) {
        if (!same_bytes(out, out2)) {
            fprintf(stderr, "-j 1 and -j 2 wrote different stores\n");
            abort();
        }
        read_back(out);
        unlink(out);
        unlink(out2);
    }
}
#endif

#ifdef NR_FUZZ_SPECULATE_DIFF
/* Ingests the run at -j 1 into out, line by line and then with every chunk
 * (of 256 bytes and of 4 kB) speculated on and stitched; aborts when they
 * disagree. */
static void speculation_agrees(const char *out)
{
    static const size_t chunk_bytes[] = {256, 4096};
    nr_ingest_opts one = {.start_cwd = "/w", .jobs = 1};
    nr_ingest_stats stats;
    nr_error err1, err2;
    for (size_t k = 0; k < sizeof chunk_bytes / sizeof chunk_bytes[0]; k++) {
        char out2[4300];
        snprintf(out2, sizeof out2, "%s.spec", out);
        nr__par_lex_set_chunk_bytes(chunk_bytes[k]);
        int rc1 = nr_ingest_run(run_dir, out, &one, &stats, &err1);
        nr__ingest_speculate(1);
        int rc2 = nr_ingest_run(run_dir, out2, &one, &stats, &err2);
        nr__ingest_speculate(0);
        if (rc1 != rc2 || (rc1 != 0 && strcmp(err1.msg, err2.msg) != 0)) {
            fprintf(stderr, "plain: %d %s\nspeculated: %d %s\n", rc1, rc1 ? err1.msg : "", rc2, rc2 ? err2.msg : "");
            abort();
        }
        if (rc1 == 0 && !same_bytes(out, out2)) {
            fprintf(stderr, "plain and speculated ingests wrote different stores (%zu-byte chunks)\n", chunk_bytes[k]);
            abort();
        }
        if (rc1 == 0)
            read_back(out2);
        unlink(out);
        unlink(out2);
    }
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (make_run_dir() < 0)
        return 0;
    static const char marker[] = "\n===hook===\n";
    const uint8_t *hook = memmem(data, size, marker, sizeof marker - 1);
    size_t log_len = hook ? (size_t)(hook - data) + 1 : size;
    remove_file("hook.jsonl");
    if (write_logs(data, log_len) < 0)
        return 0;
    if (hook) {
        const uint8_t *h = hook + sizeof marker - 1;
        if (write_file("hook.jsonl", h, size - (size_t)(h - data)) < 0)
            return 0;
    }
    char out[4200];
    snprintf(out, sizeof out, "%s.nio", run_dir);
    nr__ingest_path_ahead_always(1); /* a hint that small logs reach only so */
#if defined NR_FUZZ_JOBS_DIFF
    jobs_agree(out);
#elif defined NR_FUZZ_SPECULATE_DIFF
    speculation_agrees(out);
#else
    nr_ingest_opts opts = {.start_cwd = "/w", .jobs = 1};
    nr_ingest_stats stats;
    nr_error err;
    if (nr_ingest_run(run_dir, out, &opts, &stats, &err) == 0) {
        read_back(out);
        unlink(out);
    }
#endif
    return 0;
}
