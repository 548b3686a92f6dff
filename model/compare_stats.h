/* compare_stats: the statistics behind `niorep compare`, pure functions over
 * arrays (no store, no model): the two-sample Kolmogorov-Smirnov test, seeded
 * percentile-bootstrap confidence intervals for differences of quantiles and
 * of throughput, deterministic reservoir sampling, and the verdict rule.
 * Methods, defaults and error bounds: docs/compare.md.
 *
 * Every input array is borrowed and never modified (functions that need
 * order sort a private copy unless the name says _sorted). */
#ifndef NR_COMPARE_STATS_H
#define NR_COMPARE_STATS_H

#include <stddef.h>
#include <stdint.h>

#define NR_COMPARE_DEFAULT_BOOTSTRAPS 1000
#define NR_COMPARE_DEFAULT_SEED 1
#define NR_COMPARE_DEFAULT_CI_LEVEL 0.95
#define NR_COMPARE_DEFAULT_REL_THRESHOLD 0.10   /* practical threshold: 10% (docs/compare.md: measured noise) */
#define NR_COMPARE_DEFAULT_KS_ALPHA 0.01
#define NR_COMPARE_DEFAULT_KS_MIN_D 0.10         /* practical threshold on D */
#define NR_COMPARE_DEFAULT_SAMPLE_CAP 200000    /* values kept per side and op class */
#define NR_COMPARE_DEFAULT_FLOOR_FACTOR 3.0      /* latency shifts must exceed 3 x a fast call (below) */
/* The quantile of a run's call durations that stands for the fixed cost
 * of a traced call in the resolution: the 1st percentile, so that up to
 * 1% of outliers (calls printed as 0 us) cannot set it (docs/compare.md). */
#define NR_COMPARE_FAST_CALL_Q 0.01
#define NR_COMPARE_MIN_SAMPLE 20
/* A quantile q is tested only when each side has at least this many calls
 * above it (n (1 - q) >= 10): the bootstrap of an extreme order statistic
 * (p99.9 of 400 calls is the maximum) does not hold its level. */
#define NR_COMPARE_MIN_TAIL 10                 /* fewer values: "insufficient data" */
/* Exact KS p-values while n1 * n2 is at most this (the path count is O(n1 n2)). */
#define NR_KS_EXACT_MAX_PRODUCT 10000000.0
/* The smallest KS p-value shown as a number; below it, as "< this". The
 * exact p is 1 minus the share of paths inside the band, which doubles
 * resolve to about 1e-12 (the session-38 review's exact integer count: a p of 2.67e-20 came out as 5.12e-13, one of
 * 3.02e-11 as 2.97e-11), and the asymptotic one is a limit law far into
 * its tail (it went as low as 4e-316). */
#define NR_KS_P_RESOLVED 1e-10
/* Fewer bootstrap replicates are refused: a 95% percentile interval from
 * fewer rests on the two or three most extreme of them. */
#define NR_COMPARE_MIN_BOOTSTRAPS 100
/* Replicates (several runs of a workload a side): the permutation test's
 * level. With 4 runs a side its smallest p is 2/70 = 0.029; with 3, 0.1. */
#define NR_COMPARE_DEFAULT_REPLICATE_ALPHA 0.05
/* The permutation test enumerates every split while there are at most this
 * many (C(22, 11) = 705,432: 11 runs a side), else draws this many. */
#define NR_PERM_EXACT_MAX 1000000.0
#define NR_PERM_DRAWS 100000

/* ---- deterministic random numbers ------------------------------------- */

/* splitmix64 (Steele, Lea, Flood 2014): tiny, seedable, identical everywhere. */
typedef struct nr_rng { uint64_t state; } nr_rng;
void nr_rng_seed(nr_rng *r, uint64_t seed);
uint64_t nr_rng_next(nr_rng *r);
/* Uniform integer in [0, n), n >= 1 (Lemire's multiply-shift, rejection for exactness). */
uint64_t nr_rng_below(nr_rng *r, uint64_t n);
/* Uniform double in (0, 1). */
double nr_rng_unit(nr_rng *r);

/* ---- Kolmogorov-Smirnov ----------------------------------------------- */

typedef enum nr_ks_method { NR_KS_EXACT, NR_KS_ASYMPTOTIC } nr_ks_method;

typedef struct nr_ks_result {
    size_t n1, n2;
    double d;          /* sup |F1 - F2| over the merged sample (ties handled exactly) */
    double d_practical; /* share of calls not explained by a move within the practical
                         * tolerance (nr_ks_practical_distance_sorted); = d until computed */
    double p_value;    /* two-sided; NAN when a sample is empty */
    nr_ks_method method;
} nr_ks_result;

/* Two-sample KS test. D is exact; the p-value is exact (lattice-path
 * recursion, Hodges 1957, as R's psmirnov2x) while n1 * n2 <=
 * NR_KS_EXACT_MAX_PRODUCT, else the asymptotic Kolmogorov distribution at
 * sqrt(n1 n2 / (n1 + n2)) * D. Returns 0, or NR_E_NOMEM. */
int nr_ks_2samp(const double *a, size_t na, const double *b, size_t nb, nr_ks_result *out);
/* The same over arrays already sorted ascending (the exact p-value needs
 * max(n1, n2) + 1 doubles; on allocation failure p_value is NAN). */
void nr_ks_2samp_sorted(const double *a, size_t na, const double *b, size_t nb, nr_ks_result *out);
/* D of two ascending samples. */
double nr_ks_statistic_sorted(const double *a, size_t na, const double *b, size_t nb);
/* The practical distance of two ascending samples of non-negative values:
 * max over x of F_a(x) - F_b(x (1 + rel) + tick) and of the same with a and
 * b swapped, at least 0: the largest share of one sample that the other
 * does not reach even when each value may move by a factor 1 + rel plus one
 * clock tick. 0 when b is a within the tolerance (e.g. every call one tick
 * faster); D itself when rel = tick = 0. */
double nr_ks_practical_distance_sorted(const double *a, size_t na, const double *b, size_t nb, double rel, double tick);
/* P(D >= d) under H0 for sample sizes m, n, by exact path counting. */
double nr_ks_pvalue_exact(size_t m, size_t n, double d);
/* Kolmogorov survival function Q(lambda) = 2 sum_{k>=1} (-1)^(k-1) exp(-2 k^2 lambda^2). */
double nr_kolmogorov_sf(double lambda);

/* ---- quantiles and bootstrap ------------------------------------------ */

/* Nearest-rank quantile (rank ceil(q n), 1-based; q in (0, 1]) of an ascending array. NAN when n == 0. */
double nr_quantile_sorted(const double *sorted, size_t n, double q);

typedef struct nr_boot_opts {
    int bootstraps;    /* B resamples; <= 0 = NR_COMPARE_DEFAULT_BOOTSTRAPS */
    uint64_t seed;     /* 0 = NR_COMPARE_DEFAULT_SEED */
    double level;      /* confidence level; <= 0 or >= 1 = NR_COMPARE_DEFAULT_CI_LEVEL */
} nr_boot_opts;

typedef struct nr_boot_ci {
    double estimate;   /* statistic(b) - statistic(a) on the samples themselves */
    double low, high;  /* percentile-bootstrap interval of the difference */
    int bootstraps;    /* B used */
} nr_boot_ci;

/* CI of quantile_q(b) - quantile_q(a), both arrays ascending. Each resample's
 * nearest-rank quantile is drawn exactly from its sampling distribution
 * (the r-th order statistic of n draws from the empirical distribution is
 * x_(ceil(n U)) with U ~ Beta(r, n - r + 1)), so a replicate costs O(1),
 * not O(n). Returns 0, NR_E_INPUT when a side is empty, NR_E_NOMEM. */
int nr_boot_quantile_diff_sorted(const double *a, size_t na, const double *b, size_t nb,
                                 double q, const nr_boot_opts *opts, nr_boot_ci *out);

/* CI of the throughput difference T(b) - T(a), where T = sum(bytes) /
 * sum(seconds) over calls (bytes per second spent inside the calls), by
 * resampling calls (pairs) with replacement. Returns 0, NR_E_INPUT when a
 * side is empty or has no time, NR_E_NOMEM. */
int nr_boot_throughput_diff(const double *bytes_a, const double *secs_a, size_t na,
                            const double *bytes_b, const double *secs_b, size_t nb,
                            const nr_boot_opts *opts, nr_boot_ci *out);

/* ---- reservoir sample ------------------------------------------------- */

/* A deterministic sample of at most cap items of a stream (Vitter's
 * Algorithm R with the seeded generator): each item of the stream is kept
 * with probability cap / seen. Each item carries two doubles (value, extra).
 * Value type: init/fini. */
typedef struct nr_reservoir {
    size_t cap, n;     /* capacity, items held */
    uint64_t seen;     /* items offered */
    double *value, *extra;
    nr_rng rng;
    size_t alloc_;     /* internal: allocated items */
} nr_reservoir;
void nr_reservoir_init(nr_reservoir *r, size_t cap, uint64_t seed);
void nr_reservoir_fini(nr_reservoir *r);
/* Returns 0 or NR_E_NOMEM. */
int nr_reservoir_add(nr_reservoir *r, double value, double extra);

/* ---- permutation test ------------------------------------------------- */

typedef struct nr_perm_result {
    double p_value;    /* two-sided: the share of splits with |mean b - mean a| >= the observed */
    double p_min;      /* the smallest p any values of these sizes can give */
    int exact;         /* 1: every split enumerated; 0: NR_PERM_DRAWS random splits, p = (1 + k) / (1 + draws) */
    uint64_t splits;   /* splits counted (C(na + nb, na), or the draws) */
} nr_perm_result;

/* Fisher-Pitman permutation test of the difference of two means (a and b
 * of runs, one value a run): every relabelling of the na + nb values into
 * groups of na and nb is equally likely when nothing changed. Exact while
 * C(na + nb, na) <= NR_PERM_EXACT_MAX, else a seeded Monte Carlo estimate.
 * Returns 0, NR_E_INPUT when a side is empty or a value is not finite,
 * NR_E_NOMEM. */
int nr_perm_test_means(const double *a, size_t na, const double *b, size_t nb, uint64_t seed, nr_perm_result *out);
/* The smallest p any values of sizes na, nb can give: 2 / C(na + nb, na)
 * for equal sizes (the most extreme split and its mirror), 1 / C otherwise;
 * at least 1 / (1 + NR_PERM_DRAWS) when drawn. */
double nr_perm_p_min(size_t na, size_t nb);
/* C(n, k) as a double (exact below 2^53). */
double nr_binomial(size_t n, size_t k);

/* Benjamini-Hochberg adjusted p-values (R's p.adjust(p, "BH")): q[i] is
 * the least false discovery rate at which row i is a discovery, min over
 * the ranks j >= rank(i) of n' p_(j) / j, at most 1, where n' counts the
 * finite p; NAN where p[i] is not finite (not tested). Returns 0 or
 * NR_E_NOMEM. */
int nr_p_adjust_bh(const double *p, size_t n, double *q);

/* ---- the verdict rule ------------------------------------------------- */

typedef enum nr_verdict {
    NR_VERDICT_SIGNIFICANT,   /* a test says the change is real and it is large enough to matter */
    NR_VERDICT_NO_CHANGE,     /* "no significant change" */
    NR_VERDICT_INSUFFICIENT,  /* too few values to test */
    NR_VERDICT_CHANGED,       /* descriptive value (no sampling distribution) beyond the threshold */
    NR_VERDICT_UNCHANGED,     /* descriptive value within the threshold */
    NR_VERDICT_NA,            /* nothing to compare (missing on a side) */
    NR_VERDICT_BELOW_RESOLUTION, /* the interval excludes 0 and the change passes the threshold, but
                                    it is within the latency resolution: the timer's noise could make it */
} nr_verdict;
const char *nr_verdict_name(nr_verdict v);  /* "significant", "no significant change", ... */

typedef struct nr_verdict_rule {
    double rel_threshold;  /* |relative difference| must reach this (default 10%), and be nonzero:
                              a threshold of 0 takes any change, never an equal value */
    double ks_alpha;       /* KS p must be below this (default 0.01) */
    double ks_min_d;       /* and D at least this (default 0.10) */
    double floor_factor;   /* latency: differences must exceed this many times the faster run's
                            * 1st-percentile call (the fixed cost of a traced syscall; default 3) */
    double replicate_alpha; /* replicates: permutation p must be at most this (default 0.05) */
} nr_verdict_rule;
void nr_verdict_rule_default(nr_verdict_rule *r);

/* Relative difference (b - a) / |a|; 0 when both are 0; +-INFINITY when only a is 0; NAN when either is NAN. */
double nr_rel_diff(double a, double b);
/* Bootstrap verdict: significant only when the CI excludes 0, |rel| >=
 * threshold and |abs_diff| > tick (the resolution of the values: a change
 * of one clock tick is quantization; 0 when the values are not quantized);
 * below the resolution when only the last fails; else no significant change. */
nr_verdict nr_verdict_ci(const nr_verdict_rule *r, const nr_boot_ci *ci, double rel, double abs_diff, double tick);
/* KS verdict: significant only when p < ks_alpha and d_practical >= ks_min_d. */
nr_verdict nr_verdict_ks(const nr_verdict_rule *r, const nr_ks_result *ks);
/* Replicates verdict: insufficient data when even the most extreme values
 * could not reach replicate_alpha (too few runs); significant when p <=
 * replicate_alpha and |rel| >= threshold; n/a without a p. */
nr_verdict nr_verdict_replicates(const nr_verdict_rule *r, const nr_perm_result *p, double rel);
/* Descriptive verdict (no test): changed when |rel| >= threshold and a != b. */
nr_verdict nr_verdict_descriptive(const nr_verdict_rule *r, double a, double b);

#endif
