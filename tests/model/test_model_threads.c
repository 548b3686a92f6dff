/* The model on several threads (the power-law bootstrap's pool and the
 * passes' read-ahead, model/read_ahead.c) gives the model of one thread,
 * byte for byte in its summary JSON, on a store of several row groups:
 * a generated log of about 3.5 row groups of events, ingested here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "nr_ingest.h"
#include "nr_model.h"

static char tmpdir[64];

/* Files of a skewed size (a power-law-like tail for the fits): file f is
 * opened, read 1 + (big / (f + 1)) times in 4 kB reads, and closed, by
 * one of four processes; durations vary with the call. */
static void write_log(const char *path, size_t min_events)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    uint64_t us = 0, events = 0;
    for (unsigned file = 0; events < min_events; file++) {
        const unsigned pid = 1000 + file % 4, reads = 1 + 3000 / (file % 1500 + 1);
        fprintf(f, "%u 1700000000.%06llu openat(AT_FDCWD, \"/data/f%u\", O_RDONLY) = 3</data/f%u> <0.0000%02u>\n",
                pid, (unsigned long long)us++, file, file, 10 + file % 37);
        for (unsigned r = 0; r < reads; r++)
            fprintf(f, "%u 1700000000.%06llu read(3</data/f%u>, \"\"..., 4096) = %u <0.0000%02u>\n", pid,
                    (unsigned long long)us++, file, r + 1 < reads ? 4096 : 100 + file % 3000, 5 + (r * 7 + file) % 80);
        fprintf(f, "%u 1700000000.%06llu close(3</data/f%u>) = 0 <0.000002>\n", pid, (unsigned long long)us++, file);
        events += reads + 2;
        assert_true(us < 1000000); /* the stamps stay in one second's field */
    }
    fclose(f);
}

static char *summary_with(const nr_store *s, int threads)
{
    nr_model_opts o = {.bootstraps = 10, .threads = threads};
    nr_model *m;
    nr_error err;
    nr_error_clear(&err);
    if (nr_model_compute(s, &o, &m, &err) < 0)
        fail_msg("model on %d threads: %s", threads, err.msg);
    json_t *j = nr_model_summary_json(m);
    assert_non_null(j);
    char *text = json_dumps(j, NR_MODEL_JSON_FLAGS);
    json_decref(j);
    nr_model_free(m);
    assert_non_null(text);
    return text;
}

static void threads_give_the_model_of_one(void **state)
{
    (void)state;
    char log[128], store_path[128];
    snprintf(log, sizeof log, "%s/strace.log", tmpdir);
    snprintf(store_path, sizeof store_path, "%s/run.nio", tmpdir);
    write_log(log, 3 * 65536 + 30000);
    nr_error err;
    nr_error_clear(&err);
    nr_ingest_stats st;
    if (nr_ingest_run(log, store_path, NULL, &st, &err) < 0)
        fail_msg("ingest: %s", err.msg);
    assert_true(st.events > 3 * 65536);
    nr_store *s;
    assert_int_equal(nr_store_open(store_path, &s, &err), 0);
    char *one = summary_with(s, 1);
    assert_non_null(strstr(one, "\"p_value\"")); /* the fits ran, bootstrap included */
    static const int threads[] = {2, 3};
    for (size_t k = 0; k < sizeof threads / sizeof *threads; k++) {
        char *many = summary_with(s, threads[k]);
        assert_string_equal(many, one);
        free(many);
    }
    free(one);
    nr_store_close(s);
    unlink(store_path);
    unlink(log);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/nr_model_threads_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return rmdir(tmpdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(threads_give_the_model_of_one)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
