/* compare: pairs the runs of several groups by workload and compares every
 * statistic of the model between the two runs of a pair, with an honest
 * verdict per statistic (tests and thresholds: model/compare_stats.h,
 * docs/compare.md).
 *
 * Memory: the per-event statistics (latency distributions, percentile and
 * throughput CIs) work on a deterministic reservoir sample of at most
 * sample_cap calls per op class and side, read from the store in one
 * streaming pass (nr_compare_sample_read); everything else comes from the
 * two nr_model objects. */
#ifndef NR_COMPARE_H
#define NR_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "compare_stats.h"
#include "nr_error.h"
#include "nr_model.h"
#include "nr_store.h"

#define NR_COMPARE_SCHEMA_VERSION 6
/* Store meta key of the workload label (manifest labels.workload). */
#define NR_COMPARE_WORKLOAD_KEY "manifest.labels.workload"

/* ---- pairing ---------------------------------------------------------- */

/* One pair: run a_run of group 0 (the baseline) against run b_run of group
 * `group` (>= 1). */
typedef struct nr_compare_match {
    size_t group;
    size_t a_run, b_run;
} nr_compare_match;

/* Pairs runs by workload name: for every group g >= 1, every run of group 0
 * is paired with the run of group g that has the same workload, replicates
 * in order (the k-th run of a workload in group 0 with the k-th of that
 * workload in group g; one without a partner stays unpaired). When group 0
 * and group g hold one run each, they
 * are paired whatever their names (comparing two stores needs no labels).
 * workloads[g][i] is the workload of run i of group g (borrowed). Returns 0
 * and a new array (caller frees) in *out with *n entries ordered by group,
 * then by run of group 0; NR_E_NOMEM. */
int nr_compare_match_runs(const char *const *const *workloads, const size_t *nruns, size_t ngroups,
                          nr_compare_match **out, size_t *n, nr_error *err);

/* The workload of a run: meta manifest.labels.workload of its store, else
 * fallback (the run directory or store name). Sets *label to a new copy of
 * the label (free() it; NULL when the store has none or it is empty) and
 * *workload to *label or fallback. Returns 0 or the store's error. */
int nr_compare_workload(const nr_store *st, const char *fallback, char **label, const char **workload,
                        nr_error *err);

/* ---- the sample of calls ---------------------------------------------- */

/* Per latency op group (enum nr_lat_op): a deterministic reservoir of calls,
 * value = duration in seconds, extra = bytes. Same filter as the model's
 * latency: its files (regular ones; for sync also directories and no file:
 * nr__latency_file), a duration, not "never resumed". */
typedef struct nr_compare_sample {
    nr_reservoir op[NR_LAT_OP_COUNT];
    double *sorted[NR_LAT_OP_COUNT];   /* the durations ascending (n = op[i].n) */
    double tick_s[NR_LAT_OP_COUNT];    /* clock tick: the largest 10^k ns (k <= 6) dividing every
                                        * duration of the group (1 us for strace -T), 0 when none */
    double min_s[NR_LAT_OP_COUNT];     /* the fastest call of the group (all calls, not only the sample) */
    int64_t all_dur_ns[NR_LAT_OP_COUNT];  /* summed over all calls of the group, not only the sample */
    int64_t all_bytes[NR_LAT_OP_COUNT];
} nr_compare_sample;

void nr_compare_sample_init(nr_compare_sample *s);
void nr_compare_sample_fini(nr_compare_sample *s);
/* Streams table events (columns dur_ns, op_class, file_id, flags) and
 * table files (file_id, kind) of st into s, keeping at most cap calls per
 * op group (0 = NR_COMPARE_DEFAULT_SAMPLE_CAP), seeded by seed. */
int nr_compare_sample_read(const nr_store *st, size_t cap, uint64_t seed,
                           nr_compare_sample *s, nr_error *err);

/* ---- one pair --------------------------------------------------------- */

/* A run as compared: borrowed pointers, valid during the calls below. */
typedef struct nr_compare_side {
    const char *name;        /* display name ("A/mlp") */
    const char *workload;
    const nr_model *model;
    const nr_compare_sample *sample;
} nr_compare_side;

typedef enum nr_stat_kind {
    NR_STAT_DESCRIPTIVE,     /* both values, no test */
    NR_STAT_BOOTSTRAP,       /* difference with a bootstrap CI */
    NR_STAT_KS,              /* distributions by two-sample KS */
} nr_stat_kind;

typedef struct nr_compare_stat {
    char section[32];        /* "run", "phase", "latency", "throughput", "concentration", "access", "findings" */
    char name[96];           /* "read p99", "train wall time", ... */
    const char *unit;        /* "s", "B", "B/s", "1" (count), "share", "D" */
    nr_stat_kind kind;
    double a, b;             /* the values (KS: NAN; the statistic is in ks) */
    double abs_diff, rel_diff;   /* b - a, (b - a) / |a| */
    nr_boot_ci ci;           /* NR_STAT_BOOTSTRAP */
    int ci_recentred;        /* a side had more calls than its sample: ci moved to centre on b - a */
    nr_ks_result ks;         /* NR_STAT_KS */
    uint64_t n_a, n_b;       /* sample sizes behind the test (0 for descriptive) */
    double resolution;       /* smallest difference that counts (latency: max(clock tick, the
                                * fastest call of either run), docs/compare.md), 0 = none */
    nr_verdict verdict;
} nr_compare_stat;

typedef struct nr_compare_opts {
    nr_boot_opts boot;       /* B, seed, level */
    nr_verdict_rule rule;    /* thresholds */
    size_t sample_cap;       /* reservoir size per op group and side */
} nr_compare_opts;
/* The defaults of docs/compare.md. */
void nr_compare_opts_default(nr_compare_opts *o);

/* A findings rule's outcome in the two runs of a pair: 1 fired, 0 looked
 * and did not, NAN could not look (docs/findings.md, "Outcomes"). */
typedef struct nr_compare_outcome {
    char id[48];
    double a, b;
} nr_compare_outcome;

typedef struct nr_compare_pair {
    size_t nstats;
    nr_compare_stat *stats;  /* owned */
    size_t nsignificant;     /* stats with verdict significant */
    size_t nchanged;         /* descriptive stats with verdict changed */
    int durations[2];        /* whether run A, B has call durations (strace -T) */
    int timestamps[2];       /* whether run A, B has timestamps */
    size_t noutcomes;
    nr_compare_outcome *outcomes; /* every findings rule of either run, owned (the rows list
                                     those that fired): pooling reads a rule without a row here */
} nr_compare_pair;

/* Compares a (baseline) with b. Returns 0 and fills out (free with
 * nr_compare_pair_fini), or NR_E_NOMEM. */
int nr_compare_pair_compute(const nr_compare_side *a, const nr_compare_side *b,
                            const nr_compare_opts *opts, nr_compare_pair *out, nr_error *err);
/* Accepts a zeroed pair. */
void nr_compare_pair_fini(nr_compare_pair *p);

/* ---- replicates ------------------------------------------------------- */

/* One statistic over the replicate pairs of a workload: the runs of A
 * against the runs of G, one value a run (docs/compare.md, "Replicates"). */
typedef struct nr_compare_pooled {
    const char *section, *name, *unit;   /* borrowed from the pairs */
    double a_mean, a_min, a_max;
    double b_mean, b_min, b_max;
    double abs_diff, rel_diff;           /* of the means: b_mean - a_mean, / |a_mean| */
    nr_perm_result perm;                 /* permutation test of the means */
    double q_value;                      /* Benjamini-Hochberg over the pool's tested rows; NAN: n/a */
    nr_verdict verdict;                  /* nr_verdict_replicates */
} nr_compare_pooled;

/* The pairs of one workload between group 0 and group `group`, when there
 * are two or more: their runs are replicates, and the spread between them
 * is the noise a change must exceed. */
typedef struct nr_compare_pool {
    size_t group;
    const char *workload;                /* borrowed */
    size_t npairs;
    size_t *pairs;                       /* indices into the matches, in order (owned) */
    size_t nstats;
    nr_compare_pooled *stats;            /* owned */
    size_t nunpooled;
    const char **unpooled;               /* rows not in every pair (owned array, borrowed names) */
    double p_min;                        /* the smallest p npairs runs a side can give */
    size_t nsignificant;
    size_t nsignificant_fdr;             /* of those, the rows with q_value <= the replicate level */
} nr_compare_pool;

/* The pools of the n pairs m[i] (statistics pairs[i], the workload of its
 * A run workloads[i]): every (group, workload) with two or more pairs, by
 * group, then by its first pair. Each row of the pairs (distribution rows
 * excepted: they have no value per run) is pooled when every pair has it;
 * a phase or a findings row a pair lacks is 0 on both of its sides (the
 * phase absent, the rule not fired). Returns 0 and a new array in *out
 * (nr_compare_pools_free), or NR_E_NOMEM. */
int nr_compare_pool_pairs(const nr_compare_match *m, const nr_compare_pair *pairs, const char *const *workloads,
                          size_t n, const nr_compare_opts *opts, nr_compare_pool **out, size_t *npools,
                          nr_error *err);
void nr_compare_pools_free(nr_compare_pool *p, size_t n);
/* A pool's rows as a JSON array (docs/compare.md). New reference. */
json_t *nr_compare_pool_json(const nr_compare_pool *p);

/* The statistics of a pair as a JSON array (docs/compare.md). New reference. */
json_t *nr_compare_pair_json(const nr_compare_pair *p);
/* The options as a JSON object. New reference. */
json_t *nr_compare_opts_json(const nr_compare_opts *o);

#endif
