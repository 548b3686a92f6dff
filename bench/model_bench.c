/* model_bench: times one of two things on a store, for bench/model_bench.sh:
 *   decode STORE       decode every column of every row group of table events
 *   model STORE [B]    nr_model_compute with B bootstraps (default 0)
 * prints "seconds <s>" (monotonic clock) and "cpu <s>" (process CPU time:
 * steadier on a shared machine). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nr_model.h"
#include "nr_store.h"

static double now(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int decode_all(const nr_store *s, nr_error *err)
{
    const nr_store_table *t = nr_store_find_table(s, "events");
    if (!t)
        return 0;
    nr_col_chunk c;
    nr_col_chunk_init(&c);
    int64_t sink = 0;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t); rg++)
        for (size_t col = 0; col < nr_store_table_ncols(t); col++) {
            if (nr_store_read_chunk(t, col, rg, &c, err) < 0) {
                nr_col_chunk_fini(&c);
                return -1;
            }
            sink += c.i64 && c.n ? c.i64[c.n - 1] : (int64_t)c.n;
        }
    nr_col_chunk_fini(&c);
    return sink == 42 ? 1 : 0;   /* keeps the loop from being optimised away */
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: model_bench decode|model STORE [BOOTSTRAPS]\n");
        return 2;
    }
    nr_error err;
    nr_error_clear(&err);
    nr_store *s;
    if (nr_store_open(argv[2], &s, &err) < 0) {
        fprintf(stderr, "model_bench: %s\n", err.msg);
        return 1;
    }
    const double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    int rc;
    if (strcmp(argv[1], "decode") == 0) {
        rc = decode_all(s, &err);
    } else {
        const nr_model_opts opts = {.bootstraps = argc > 3 ? atoi(argv[3]) : 0, .seed = 1};
        nr_model *m = NULL;
        rc = nr_model_compute(s, &opts, &m, &err);
        nr_model_free(m);
    }
    const double t1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
    nr_store_close(s);
    if (rc < 0) {
        fprintf(stderr, "model_bench: %s\n", err.msg);
        return 1;
    }
    printf("seconds %.4f\ncpu %.4f\n", t1 - t0, c1 - c0);
    return 0;
}
