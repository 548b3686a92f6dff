/* niorep build's run loading on several threads (cli/runset.c): the six
 * samples loaded with jobs 2 and 3 give the same stores and the same model
 * summaries as with jobs 1, and a second load reuses every cached store.
 * Also the driver used under ThreadSanitizer (docs/performance.md). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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
    for (size_t i = 0; i < rs->n; i++)
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
    const struct CMUnitTest tests[] = {cmocka_unit_test(same_runs_for_any_jobs)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
