/* niorep build's run loading on several threads (cli/runset.c): the six
 * samples loaded with jobs 2 and 3 give the same stores and the same model
 * summaries as with jobs 1, and a second load reuses every cached store;
 * nr_runset_model_each streams the models in run order, a few ahead of
 * their use. Also the driver used under ThreadSanitizer
 * (docs/performance.md). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>
#include <cmocka.h>

#include "nr_model.h"
#include "runset.h"

static char tmpdir[64];

static char *summary_of(const nr_run *r)
{
    json_t *j = nr_model_summary_json(r->model);
    assert_non_null(j);
    char *s = json_dumps(j, NR_MODEL_JSON_FLAGS);
    json_decref(j);
    assert_non_null(s);
    return s;
}

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

/* Loads the traces folder with jobs threads into rs (cold cache). */
static void load(nr_runset *rs, int jobs, int expect_hits)
{
    char *inputs[] = {tmpdir};
    nr_error err;
    nr_error_clear(&err);
    assert_int_equal(nr_runset_expand(rs, inputs, 1, &err), 0);
    rs->jobs = jobs;
    nr_model_opts o = {.bootstraps = 5};
    if (nr_runset_load(rs, &o, NULL, &err) < 0)
        fail_msg("load with %d jobs: %s", jobs, err.msg);
    assert_int_equal(rs->n, 6);
    for (size_t i = 0; i < rs->n && expect_hits >= 0; i++) /* -1: either */
        assert_int_equal(rs->runs[i].cache_hit, expect_hits);
}

static void same_runs_for_any_jobs(void **state)
{
    (void)state;
    char cmd[512];
    nr_runset ref;
    load(&ref, 1, 0);
    char *sums[6], *stores[6];
    size_t lens[6];
    for (size_t i = 0; i < 6; i++) {
        sums[i] = summary_of(&ref.runs[i]);
        stores[i] = slurp(ref.runs[i].store_path, &lens[i]);
    }
    nr_runset_fini(&ref);
    static const int jobs[] = {2, 3};
    for (size_t k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s/.niorep'", tmpdir);
        assert_int_equal(system(cmd), 0);
        nr_runset rs;
        load(&rs, jobs[k], 0);
        for (size_t i = 0; i < 6; i++) {
            char *s = summary_of(&rs.runs[i]);
            assert_string_equal(s, sums[i]);
            free(s);
            size_t n;
            char *b = slurp(rs.runs[i].store_path, &n);
            assert_int_equal(n, lens[i]);
            assert_memory_equal(b, stores[i], n);
            free(b);
        }
        nr_runset_fini(&rs);
    }
    nr_runset warm;
    load(&warm, 2, 1); /* every store reused */
    for (size_t i = 0; i < 6; i++) {
        char *s = summary_of(&warm.runs[i]);
        assert_string_equal(s, sums[i]);
        free(s);
        free(sums[i]);
        free(stores[i]);
    }
    nr_runset_fini(&warm);
}

/* What nr_runset_model_each's callbacks saw. */
typedef struct stream_log {
    pthread_mutex_t mu;      /* started is written by the modelling threads */
    int started[6];          /* progress said "model" for run i */
    size_t order[6], nused;  /* the runs use was called on, in order */
    size_t held_max;         /* models alive during a use */
    size_t fail_at;          /* use fails on this run (6: none) */
    size_t wait_at;          /* use of this run waits until the runs after it began (6: none) */
    int waited_ok;
    char *sums[6];
    const char *names[6];
} stream_log;

static stream_log *the_log;

static void note_start(const nr_run *run, const char *what)
{
    if (strcmp(what, "model") != 0)
        return;
    for (size_t i = 0; i < 6; i++)
        if (strcmp(run->name, the_log->names[i]) == 0) {
            pthread_mutex_lock(&the_log->mu);
            the_log->started[i] = 1;
            pthread_mutex_unlock(&the_log->mu);
        }
}

static int all_started_after(stream_log *lg, size_t i)
{
    pthread_mutex_lock(&lg->mu);
    int all = 1;
    for (size_t k = i + 1; k < 6; k++)
        all &= lg->started[k];
    pthread_mutex_unlock(&lg->mu);
    return all;
}

static int use_run(void *ctx, size_t i, const nr_run *run, nr_error *err)
{
    stream_log *lg = ctx;
    assert_non_null(run->model);
    char *s = summary_of(run);
    assert_string_equal(s, lg->sums[i]);
    free(s);
    lg->order[lg->nused++] = i;
    if (i == lg->wait_at) /* the threads go on modelling while this run is used */
        for (int ms = 0; ms < 10000 && !(lg->waited_ok = all_started_after(lg, i)); ms += 5)
            nanosleep(&(struct timespec){0, 5000000}, NULL);
    if (i == lg->fail_at)
        return nr_error_set(err, NR_E_FORMAT, "use of run %zu fails", i);
    return 0;
}

/* nr_runset_model_each of the six samples on jobs threads, the use of
 * run fail_at failing and that of run wait_at waiting for the later runs'
 * models to begin (6: none). */
static void stream_with(int jobs, size_t fail_at, size_t wait_at, char **sums)
{
    char *inputs[] = {tmpdir};
    nr_error err;
    nr_error_clear(&err);
    nr_runset rs;
    assert_int_equal(nr_runset_expand(&rs, inputs, 1, &err), 0);
    rs.jobs = jobs;
    rs.no_models = 1;
    nr_model_opts o = {.bootstraps = 5};
    assert_int_equal(nr_runset_load(&rs, &o, NULL, &err), 0);
    stream_log lg = {.fail_at = fail_at, .wait_at = wait_at};
    pthread_mutex_init(&lg.mu, NULL);
    memcpy(lg.sums, sums, sizeof lg.sums);
    assert_int_equal(rs.n, 6);
    for (size_t i = 0; i < 6; i++)
        lg.names[i] = rs.runs[i].name;
    the_log = &lg;
    const int rc = nr_runset_model_each(&rs, &o, note_start, use_run, &lg, &err);
    assert_int_equal(rc, fail_at < 6 ? NR_E_FORMAT : 0);
    assert_int_equal(lg.nused, fail_at < 6 ? fail_at + 1 : 6);
    for (size_t k = 0; k < lg.nused; k++)
        assert_int_equal(lg.order[k], k);
    assert_true(rs.models_peak <= (size_t)(jobs * 2));
    assert_int_equal(rs.models_held, 0);
    for (size_t i = 0; i < rs.n; i++)
        assert_null(rs.runs[i].model);
    if (wait_at < 6)
        assert_true(lg.waited_ok);
    pthread_mutex_destroy(&lg.mu);
    nr_runset_fini(&rs);
}

/* Each model is used in run order on the calling thread, at most 2 per
 * job ahead of its use, and freed after; a failed use stops the stream and
 * frees what was made ahead. With 2 jobs the runs after run 3 are modelled
 * while run 3 is used (until session 52 the runs went by groups of 4, and
 * run 4's model began only after run 3's use). */
static void models_stream_in_order(void **state)
{
    (void)state;
    nr_runset ref;
    load(&ref, 1, -1);
    char *sums[6];
    for (size_t i = 0; i < 6; i++)
        sums[i] = summary_of(&ref.runs[i]);
    nr_runset_fini(&ref);
    for (int jobs = 1; jobs <= 3; jobs++) {
        stream_with(jobs, 6, 6, sums);
        stream_with(jobs, 2, 6, sums);
    }
    stream_with(2, 6, 3, sums);
    for (size_t i = 0; i < 6; i++)
        free(sums[i]);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/nr_scale_rs_XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    const char *src = getenv("NR_SOURCE_DIR");
    char cmd[1024];
    /* the run folders only (the glob skips .niorep, which a build of the
       samples running beside this test may be writing) */
    snprintf(cmd, sizeof cmd, "cp -r '%s/datasets/sample/'* '%s/'", src ? src : ".", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(same_runs_for_any_jobs), cmocka_unit_test(models_stream_in_order)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
