/* model/compare over hand-built stores: the streaming call sample (which
 * calls count, clock tick, fastest call, reservoir cap), the workload
 * label, and whole-pair verdicts (a run against itself, against a copy
 * whose reads are 10x slower). Stores are written with the model tests'
 * builder (tests/model/store_builder.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"
#include "store_builder.h"

/* A run: pid 10 reads /data/x (regular) n_reads times with durations
 * base_us + (i % 7) us, 4096 B each; 30 opens of 5 us; plus calls that must
 * not count: a pipe read, a read never resumed, a read without duration. */
static void build_run(const char *path, int n_reads, int64_t base_us, int64_t slow_factor, const char *workload)
{
    tb t;
    tb_open(&t, path);
    tb_file(&t, 1, "/data/x", NR_KIND_REGULAR);
    tb_file(&t, 2, "pipe:[77]", NR_KIND_PIPE);
    tb_proc(&t, 10, 1, 0, 100 * SEC);
    if (workload)
        tb_meta(&t, NR_COMPARE_WORKLOAD_KEY, workload);
    int64_t ts = SEC;
    for (int i = 0; i < 30; i++, ts += MS)
        tb_call(&t, ts, 5 * US, 10, NR_OP_OPEN, 1, 0, -1, -1);
    for (int i = 0; i < n_reads; i++, ts += MS)
        tb_call(&t, ts, (base_us + i % 7) * US * slow_factor, 10, NR_OP_READ, 1, 4096, 4096LL * i, -1);
    tb_call(&t, ts, 1 * US, 10, NR_OP_READ, 2, 100, -1, -1);          /* pipe: not file I/O */
    tb_event(&t, (tb_ev){.ts = ts + 1, .dur = 1 * US, .pid = 10, .op = NR_OP_READ, .file_id = 1, .bytes = 0,
                         .offset = -1, .result = -1, .flags = NR_EVF_NEVER_RESUMED, .phase_id = -1});
    tb_call(&t, ts + 2, -1, 10, NR_OP_READ, 1, 4096, -1, -1);         /* no -T */
    tb_commit(&t);
}

typedef struct loaded {
    nr_model *m;
    nr_compare_sample s;
    char *label;
    const char *workload; /* nr_compare_workload's, with fallback "dir" */
} loaded;

static void load(const char *path, size_t cap, loaded *l)
{
    nr_error err;
    nr_error_clear(&err);
    nr_store *st = NULL;
    assert_int_equal(nr_store_open(path, &st, &err), 0);
    const nr_model_opts mo = {.bootstraps = 0, .seed = 1};
    assert_int_equal(nr_model_compute(st, &mo, &l->m, &err), 0);
    nr_compare_sample_init(&l->s);
    assert_int_equal(nr_compare_sample_read(st, cap, 1, &l->s, &err), 0);
    assert_int_equal(nr_compare_workload(st, "dir", &l->label, &l->workload, &err), 0);
    nr_store_close(st);
}

static void unload(loaded *l)
{
    nr_model_free(l->m);
    nr_compare_sample_fini(&l->s);
    free(l->label);
}

static void sample_counts_file_io_only(void **state)
{
    build_run("cmp_a.nio", 70, 10, 1, "lm");
    loaded a;
    load("cmp_a.nio", 0, &a);
    /* 70 timed reads of the regular file; the pipe read, the never-resumed
     * read and the read without a duration do not count. */
    assert_int_equal(a.s.op[NR_LAT_READ].n, 70);
    assert_int_equal(a.s.op[NR_LAT_OPEN].n, 30);
    assert_int_equal(a.s.op[NR_LAT_WRITE].n, 0);
    /* The model's own count agrees. */
    assert_int_equal(nr_model_latency_all(a.m, NR_LAT_READ)->count, 70);
    /* Durations 10..16 us: tick 1 us, fastest 10 us, sorted ascending. */
    assert_true(fabs(a.s.tick_s[NR_LAT_READ] - 1e-6) < 1e-15);
    assert_true(fabs(a.s.min_s[NR_LAT_READ] - 10e-6) < 1e-15);
    assert_true(fabs(a.s.sorted[NR_LAT_READ][0] - 10e-6) < 1e-15);
    assert_true(fabs(a.s.sorted[NR_LAT_READ][69] - 16e-6) < 1e-15);
    /* extra = bytes of the call */
    assert_true(a.s.op[NR_LAT_READ].extra[0] == 4096.0);
    assert_string_equal(a.workload, "lm");
    unload(&a);

    /* Cap 25: 25 kept of 70 seen; the fastest call is still over all calls. */
    loaded c;
    load("cmp_a.nio", 25, &c);
    assert_int_equal(c.s.op[NR_LAT_READ].n, 25);
    assert_int_equal(c.s.op[NR_LAT_READ].seen, 70);
    assert_true(fabs(c.s.min_s[NR_LAT_READ] - 10e-6) < 1e-15);
    unload(&c);

    build_run("cmp_nolabel.nio", 5, 10, 1, NULL);
    loaded n;
    load("cmp_nolabel.nio", 0, &n);
    assert_string_equal(n.workload, "dir");
    assert_null(n.label);
    unload(&n);
}

/* The sample's sync calls are the model's (docs/definitions.md, "Latency"):
 * a file's fsync, its directory's and a sync of no file; not a pipe's, and
 * no other class of a directory. */
static void sample_counts_syncs_as_the_model(void **state)
{
    (void)state;
    tb t;
    tb_open(&t, "cmp_sync.nio");
    tb_file(&t, 1, "/ckpt/a.pt", NR_KIND_REGULAR);
    tb_file(&t, 2, "/ckpt", NR_KIND_DIRECTORY);
    tb_file(&t, 3, "pipe:[77]", NR_KIND_PIPE);
    tb_proc(&t, 10, 1, 0, 100 * SEC);
    tb_call(&t, 1 * SEC, 3 * MS, 10, NR_OP_SYNC, 1, 0, -1, -1);
    tb_call(&t, 2 * SEC, 2 * MS, 10, NR_OP_SYNC, 2, 0, -1, -1);
    tb_call(&t, 3 * SEC, 1 * MS, 10, NR_OP_SYNC, -1, 0, -1, -1);
    tb_call(&t, 4 * SEC, 1 * US, 10, NR_OP_SYNC, 3, 0, -1, -1);
    tb_call(&t, 5 * SEC, 7 * US, 10, NR_OP_META, 2, 0, -1, -1);
    tb_commit(&t);
    loaded a;
    load("cmp_sync.nio", 0, &a);
    assert_int_equal(a.s.op[NR_LAT_SYNC].n, 3);
    assert_int_equal(nr_model_latency_all(a.m, NR_LAT_SYNC)->count, 3);
    assert_true(fabs(a.s.sorted[NR_LAT_SYNC][0] - 1e-3) < 1e-15);
    assert_true(fabs(a.s.sorted[NR_LAT_SYNC][2] - 3e-3) < 1e-15);
    assert_int_equal(a.s.op[NR_LAT_META].n, 0);
    assert_int_equal(nr_model_latency_all(a.m, NR_LAT_META)->count, 0);
    unload(&a);
}

static const nr_compare_stat *find(const nr_compare_pair *p, const char *name)
{
    for (size_t i = 0; i < p->nstats; i++)
        if (strcmp(p->stats[i].name, name) == 0)
            return &p->stats[i];
    fail_msg("no statistic %s", name);
    return NULL;
}

/* The pair of loaded runs a and b with the default options and 200
 * bootstraps (the pair's stats are freed by the caller). */
static void compare_loaded(const loaded *a, const loaded *b, nr_compare_pair *p)
{
    nr_compare_opts o;
    nr_compare_opts_default(&o);
    o.boot.bootstraps = 200;
    nr_error err;
    nr_error_clear(&err);
    const nr_compare_side sa = {.name = "A:lm", .workload = "lm", .model = a->m, .sample = &a->s};
    const nr_compare_side sb = {.name = "B:lm", .workload = "lm", .model = b->m, .sample = &b->s};
    assert_int_equal(nr_compare_pair_compute(&sa, &sb, &o, p, &err), 0);
}

/* A run of span_s seconds that writes 10 x 655360 B to one file in the
 * millisecond from 1 s on: a checkpoint. */
static void build_checkpoint_run(const char *path, int64_t span_s)
{
    tb t;
    tb_open(&t, path);
    tb_file(&t, 1, "/ckpt/model.pt", NR_KIND_REGULAR);
    tb_proc(&t, 10, 1, 0, span_s * SEC);
    tb_call(&t, 0, 5 * US, 10, NR_OP_OPEN, 1, 0, -1, -1);
    for (int i = 0; i < 10; i++)
        tb_call(&t, SEC + i * 100 * US, 50 * US, 10, NR_OP_WRITE, 1, 655360, 655360LL * i, -1);
    tb_call(&t, span_s * SEC, 5 * US, 10, NR_OP_OPEN, 1, 0, -1, -1);
    tb_commit(&t);
}

/* The same checkpoint in a 10 s run (timeline bins of 50 ms) and a 30 s one
 * (100 ms): measured from its calls, both runs give one burst from 1 s to
 * the last call's end, 1 s + 900 us + 50 us: 6,553,600 B in 950 us,
 * 6,898,526,315.8 B/s. Until session 42 each peaked at 131 against 65.5 MB/s
 * over its own bins, and compare took a peak over the runs' common 100 ms
 * bins instead, 65.5 MB/s, a hundred times too slow. */
static void burst_rate_whatever_the_run_length(void **state)
{
    build_checkpoint_run("cmp_ck10.nio", 10);
    build_checkpoint_run("cmp_ck30.nio", 30);
    loaded a, b;
    load("cmp_ck10.nio", 0, &a);
    load("cmp_ck30.nio", 0, &b);
    assert_int_equal(nr_model_get_timeline(a.m)->width_ns, 50 * MS);
    assert_int_equal(nr_model_get_timeline(b.m)->width_ns, 100 * MS);
    nr_compare_pair p;
    compare_loaded(&a, &b, &p);
    const double rate = 6553600 / 950e-6;
    const nr_compare_stat *peak = find(&p, "highest burst write rate");
    assert_true(fabs(peak->a - rate) < rate * 1e-12);
    assert_true(fabs(peak->b - rate) < rate * 1e-12);
    assert_int_equal(peak->verdict, NR_VERDICT_UNCHANGED);
    const nr_compare_stat *time = find(&p, "time in write bursts");
    assert_true(fabs(time->a - 950e-6) < 1e-15);
    assert_true(fabs(time->b - 950e-6) < 1e-15);
    assert_true(find(&p, "write bursts")->a == 1 && find(&p, "write bursts")->b == 1);
    assert_true(find(&p, "bytes written in bursts")->a == 6553600);
    nr_compare_pair_fini(&p);
    unload(&a);
    unload(&b);
}

static void pair_verdicts(void **state)
{
    build_run("cmp_a.nio", 700, 10, 1, "lm");
    build_run("cmp_slow.nio", 700, 10, 10, "lm");
    loaded a, b;
    load("cmp_a.nio", 0, &a);
    load("cmp_slow.nio", 0, &b);

    nr_compare_pair self;
    compare_loaded(&a, &a, &self);
    assert_int_equal(self.nsignificant, 0);
    assert_int_equal(self.nchanged, 0);
    for (size_t i = 0; i < self.nstats; i++)
        assert_true(self.stats[i].verdict != NR_VERDICT_SIGNIFICANT && self.stats[i].verdict != NR_VERDICT_CHANGED);
    nr_compare_pair_fini(&self);

    nr_compare_pair p;
    compare_loaded(&a, &b, &p);
    const nr_compare_stat *p50 = find(&p, "read p50");
    /* p50 of 10..16 us (100 each of 10..16): rank 350 -> 13 us; slow: 130 us. */
    assert_true(fabs(p50->a - 13e-6) < 1e-12);
    assert_true(fabs(p50->b - 130e-6) < 1e-12);
    assert_true(fabs(p50->rel_diff - 9.0) < 1e-9);
    assert_int_equal(p50->verdict, NR_VERDICT_SIGNIFICANT);
    /* resolution: max(tick 1 us, 3 x fastest of the faster run = 30 us) */
    assert_true(fabs(p50->resolution - 30e-6) < 1e-12);
    const nr_compare_stat *ks = find(&p, "read latency distribution");
    assert_true(ks->ks.d == 1.0);
    assert_int_equal(ks->verdict, NR_VERDICT_SIGNIFICANT);
    /* p99.9 of 700 calls has < 10 calls beyond it: not tested. */
    assert_int_equal(find(&p, "read p99.9")->verdict, NR_VERDICT_INSUFFICIENT);
    /* Opens did not change; bytes did not change. */
    assert_int_equal(find(&p, "open latency distribution")->verdict, NR_VERDICT_NO_CHANGE);
    assert_int_equal(find(&p, "bytes read")->verdict, NR_VERDICT_UNCHANGED);
    /* Throughput in calls: 4096 B per 13 us on average vs 10x the time. */
    const nr_compare_stat *thr = find(&p, "read bytes per second in calls");
    assert_true(fabs(thr->rel_diff - (-0.9)) < 1e-9);
    assert_int_equal(thr->verdict, NR_VERDICT_SIGNIFICANT);
    json_t *j = nr_compare_pair_json(&p);
    assert_non_null(j);
    assert_int_equal(json_array_size(j), p.nstats);
    json_decref(j);
    nr_compare_pair_fini(&p);
    unload(&a);
    unload(&b);
}

/* With fewer calls in the sample than in the runs (cap 50 of 700 reads),
 * the shown values stay those of all calls (the model's quantiles, the
 * throughput of every call), and each interval is moved to centre on the
 * shown difference: it must hold it. Throughput over all 700 reads of
 * 4096 B: 10..16 us, 100 each, mean 13 us -> 4096 / 13e-6 B/s; 10x slower
 * -> a tenth of that. */
static void capped_sample_keeps_all_calls_values(void **state)
{
    build_run("cap_a.nio", 700, 10, 1, "lm");
    build_run("cap_slow.nio", 700, 10, 10, "lm");
    loaded a, b;
    load("cap_a.nio", 50, &a);
    load("cap_slow.nio", 50, &b);
    assert_int_equal(a.s.op[NR_LAT_READ].n, 50);
    nr_compare_pair p;
    compare_loaded(&a, &b, &p);
    const char *rows[] = {"read p50", "read bytes per second in calls"};
    for (size_t i = 0; i < 2; i++) {
        const nr_compare_stat *s = find(&p, rows[i]);
        assert_true(s->ci_recentred);
        if (!(s->ci.low <= s->abs_diff && s->abs_diff <= s->ci.high))
            fail_msg("%s: %g outside [%g, %g]", rows[i], s->abs_diff, s->ci.low, s->ci.high);
    }
    assert_true(fabs(find(&p, "read p50")->a - 13e-6) < 1e-12);
    const nr_compare_stat *thr = find(&p, "read bytes per second in calls");
    assert_true(fabs(thr->a - 4096 / 13e-6) < 1e-3);
    assert_true(fabs(thr->b - 4096 / 130e-6) < 1e-3);
    nr_compare_pair_fini(&p);
    unload(&a);
    unload(&b);
}

/* One read printed as 0 us among 700 of 10..16 us: the resolution stays 3
 * x the 1st percentile (10 us), 30 us; with the fastest call it was the
 * clock tick, 1 us, and every small shift counted. */
static void one_zero_call_keeps_the_resolution(void **state)
{
    tb t;
    tb_open(&t, "zero_a.nio");
    tb_file(&t, 1, "/data/x", NR_KIND_REGULAR);
    tb_proc(&t, 10, 1, 0, 100 * SEC);
    int64_t ts = SEC;
    for (int i = 0; i < 700; i++, ts += MS)
        tb_call(&t, ts, (10 + i % 7) * US, 10, NR_OP_READ, 1, 4096, 4096LL * i, -1);
    tb_call(&t, ts, 0, 10, NR_OP_READ, 1, 4096, 4096LL * 700, -1);
    tb_commit(&t);
    build_run("zero_b.nio", 700, 10, 1, "lm");
    loaded a, b;
    load("zero_a.nio", 0, &a);
    load("zero_b.nio", 0, &b);
    assert_true(a.s.min_s[NR_LAT_READ] == 0);
    nr_compare_pair p;
    compare_loaded(&a, &b, &p);
    assert_true(fabs(find(&p, "read p50")->resolution - 30e-6) < 1e-12);
    nr_compare_pair_fini(&p);
    unload(&a);
    unload(&b);
}

/* A 1 s train phase of 1000 reads of dur_us each (-1: traced without -T). */
static void build_train_run(const char *path, int64_t dur_us)
{
    tb t;
    tb_open(&t, path);
    tb_file(&t, 1, "/data/x", NR_KIND_REGULAR);
    tb_proc(&t, 10, -1, 0, 2 * SEC);
    tb_phase(&t, 0, 10, "train", 0, SEC);
    for (int64_t i = 0; i < 1000; i++)
        tb_call(&t, i * MS, dur_us < 0 ? -1 : dur_us * US, 10, NR_OP_READ, 1, 4096, 4096 * i, 0);
    tb_commit(&t);
}

/* data_bound fired in A (half of train in reads). In a run traced without
 * -T the rule could not look: the row is n/a, not 0 ("changed", as if the
 * problem went away); in a run of fast reads it looked and did not fire. */
static void finding_rows_tell_could_not_look(void **state)
{
    build_train_run("bound_a.nio", 500);
    build_train_run("bound_no_t.nio", -1);
    build_train_run("bound_fast.nio", 50);
    loaded a, b, c;
    load("bound_a.nio", 0, &a);
    load("bound_no_t.nio", 0, &b);
    load("bound_fast.nio", 0, &c);
    nr_compare_pair p;
    compare_loaded(&a, &b, &p);
    const nr_compare_stat *row = find(&p, "finding data_bound");
    assert_true(row->a == 1 && isnan(row->b));
    assert_int_equal(row->verdict, NR_VERDICT_NA);
    nr_compare_pair_fini(&p);
    compare_loaded(&a, &c, &p);
    row = find(&p, "finding data_bound");
    assert_true(row->a == 1 && row->b == 0);
    assert_int_equal(row->verdict, NR_VERDICT_CHANGED);
    nr_compare_pair_fini(&p);
    unload(&a);
    unload(&b);
    unload(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_zero_call_keeps_the_resolution),
        cmocka_unit_test(sample_counts_file_io_only),
        cmocka_unit_test(sample_counts_syncs_as_the_model),
        cmocka_unit_test(capped_sample_keeps_all_calls_values),
        cmocka_unit_test(pair_verdicts),
        cmocka_unit_test(burst_rate_whatever_the_run_length),
        cmocka_unit_test(finding_rows_tell_could_not_look),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
