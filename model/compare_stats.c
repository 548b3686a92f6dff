/* compare_stats: KS test, bootstrap CIs, reservoir sampling and the verdict
 * rule of `niorep compare` (docs/compare.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_stats.h"
#include "nr_error.h"

/* ---- deterministic random numbers ------------------------------------- */

void nr_rng_seed(nr_rng *r, uint64_t seed) { r->state = seed; }

uint64_t nr_rng_next(nr_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t nr_rng_below(nr_rng *r, uint64_t n)
{
    /* Lemire 2019, "Fast random integer generation in an interval". */
    unsigned __int128 m = (unsigned __int128)nr_rng_next(r) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        const uint64_t floor_ = (0 - n) % n;
        while (low < floor_) {
            m = (unsigned __int128)nr_rng_next(r) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

double nr_rng_unit(nr_rng *r)
{
    /* 53 random bits, shifted off 0: (k + 0.5) / 2^53. */
    return ((double)(nr_rng_next(r) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* Standard normal by Box-Muller (one of the pair; simplicity over speed). */
static double rng_normal(nr_rng *r)
{
    const double u1 = nr_rng_unit(r), u2 = nr_rng_unit(r);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* Gamma(shape, 1) for shape >= 1: Marsaglia & Tsang 2000. */
static double rng_gamma(nr_rng *r, double shape)
{
    const double d = shape - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x, v;
        do {
            x = rng_normal(r);
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        const double u = nr_rng_unit(r);
        if (u < 1.0 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
            return d * v;
    }
}

/* Beta(a, b) for a, b >= 1 as G_a / (G_a + G_b). */
static double rng_beta(nr_rng *r, double a, double b)
{
    const double x = rng_gamma(r, a), y = rng_gamma(r, b);
    return x / (x + y);
}

/* ---- Kolmogorov-Smirnov ----------------------------------------------- */

static int cmp_double(const void *pa, const void *pb)
{
    const double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

double nr_ks_statistic_sorted(const double *a, size_t na, const double *b, size_t nb)
{
    if (na == 0 || nb == 0)
        return NAN;
    size_t i = 0, j = 0;
    double d = 0.0;
    /* Step over each distinct value of the merged sample, ties on both sides at once. */
    while (i < na && j < nb) {
        const double v = a[i] < b[j] ? a[i] : b[j];
        while (i < na && a[i] == v)
            i++;
        while (j < nb && b[j] == v)
            j++;
        const double diff = fabs((double)i / (double)na - (double)j / (double)nb);
        if (diff > d)
            d = diff;
    }
    return d;
}

/* Number of values <= x in an ascending array, from position *pos on (x nondecreasing between calls). */
static size_t count_le(const double *v, size_t n, double x, size_t *pos)
{
    while (*pos < n && v[*pos] <= x)
        (*pos)++;
    return *pos;
}

/* max over a's values of F_a(a_i) - F_b(a_i (1 + rel) + tick). */
static double one_sided_tolerant(const double *a, size_t na, const double *b, size_t nb, double rel, double tick)
{
    double d = 0.0;
    size_t pb = 0;
    for (size_t i = 0; i < na; i++) {
        if (i + 1 < na && a[i + 1] == a[i])
            continue;   /* the last of a run of ties carries F_a(a_i) */
        const double fa = (double)(i + 1) / (double)na;
        double reach = a[i] * (1.0 + rel) + tick;
        reach += reach * 1e-12;   /* 11 us + 1 us must reach a stored 12 us despite rounding */
        const double fb = (double)count_le(b, nb, reach, &pb) / (double)nb;
        if (fa - fb > d)
            d = fa - fb;
    }
    return d;
}

double nr_ks_practical_distance_sorted(const double *a, size_t na, const double *b, size_t nb, double rel, double tick)
{
    if (na == 0 || nb == 0)
        return NAN;
    const double d1 = one_sided_tolerant(a, na, b, nb, rel, tick);
    const double d2 = one_sided_tolerant(b, nb, a, na, rel, tick);
    return d1 > d2 ? d1 : d2;
}

double nr_ks_pvalue_exact(size_t m, size_t n, double d)
{
    if (m == 0 || n == 0)
        return NAN;
    if (d <= 0.0)
        return 1.0;
    if (m > n) {
        const size_t t = m;
        m = n;
        n = t;
    }
    const double md = (double)m, nd = (double)n;
    /* D takes values k / (m n); q sits half a step below d so that paths
     * reaching |i/m - j/n| >= d are cut (R's psmirnov2x). */
    const double q = (0.5 + floor(d * md * nd - 1e-7)) / (md * nd);
    double *u = malloc((n + 1) * sizeof *u);
    if (!u)
        return NAN;
    /* u[j] counts the lattice paths from (0, 0) to (i, j) that stay inside
     * the band, times exp(-log_scale): each row is rescaled by its maximum,
     * because the plain counts (or R's running 1/C(i+n, n) factor) leave
     * the double range once m and n reach a few thousand. */
    double log_scale = 0.0;
    for (size_t j = 0; j <= n; j++)
        u[j] = ((double)j / nd > q) ? 0.0 : 1.0;
    for (size_t i = 1; i <= m; i++) {
        u[0] = ((double)i / md > q) ? 0.0 : u[0];
        double top = u[0];
        for (size_t j = 1; j <= n; j++) {
            u[j] = fabs((double)i / md - (double)j / nd) > q ? 0.0 : u[j] + u[j - 1];
            if (u[j] > top)
                top = u[j];
        }
        if (top > 0.0) {
            for (size_t j = 0; j <= n; j++)
                u[j] /= top;
            log_scale += log(top);
        }
    }
    const double last = u[n];
    free(u);
    if (last <= 0.0)
        return 1.0;
    /* P(D < d) = paths inside / C(m + n, n). */
    const double log_total = lgamma(md + nd + 1.0) - lgamma(md + 1.0) - lgamma(nd + 1.0);
    const double inside = exp(log(last) + log_scale - log_total);
    double p = 1.0 - inside;
    return p < 0.0 ? 0.0 : (p > 1.0 ? 1.0 : p);
}

double nr_kolmogorov_sf(double lambda)
{
    if (!(lambda > 0.0))
        return 1.0;
    if (lambda < 1.18) {
        /* Jacobi theta form, fast for small lambda: 1 - sqrt(2 pi)/lambda sum exp(-(2k-1)^2 pi^2 / (8 lambda^2)). */
        const double f = -M_PI * M_PI / (8.0 * lambda * lambda);
        double s = 0.0;
        for (int k = 1; k <= 20; k++) {
            const double t = (2.0 * k - 1.0);
            s += exp(f * t * t);
        }
        const double p = 1.0 - sqrt(2.0 * M_PI) / lambda * s;
        return p < 0.0 ? 0.0 : p;
    }
    double s = 0.0;
    for (int k = 1; k <= 100; k++) {
        const double t = exp(-2.0 * k * k * lambda * lambda);
        s += (k % 2 ? 1.0 : -1.0) * t;
        if (t < 1e-300)
            break;
    }
    const double p = 2.0 * s;
    return p < 0.0 ? 0.0 : (p > 1.0 ? 1.0 : p);
}

void nr_ks_2samp_sorted(const double *a, size_t na, const double *b, size_t nb, nr_ks_result *out)
{
    memset(out, 0, sizeof *out);
    out->n1 = na;
    out->n2 = nb;
    if (na == 0 || nb == 0) {
        out->d = out->d_practical = NAN;
        out->p_value = NAN;
        return;
    }
    out->d = nr_ks_statistic_sorted(a, na, b, nb);
    out->d_practical = out->d;
    if ((double)na * (double)nb <= NR_KS_EXACT_MAX_PRODUCT) {
        out->method = NR_KS_EXACT;
        out->p_value = nr_ks_pvalue_exact(na, nb, out->d);
    } else {
        out->method = NR_KS_ASYMPTOTIC;
        const double en = (double)na * (double)nb / ((double)na + (double)nb);
        out->p_value = nr_kolmogorov_sf(sqrt(en) * out->d);
    }
}

static double *sorted_copy(const double *x, size_t n)
{
    double *c = malloc((n ? n : 1) * sizeof *c);
    if (!c)
        return NULL;
    if (n)
        memcpy(c, x, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_double);
    return c;
}

int nr_ks_2samp(const double *a, size_t na, const double *b, size_t nb, nr_ks_result *out)
{
    double *sa = sorted_copy(a, na);
    double *sb = sorted_copy(b, nb);
    if (!sa || !sb) {
        free(sa);
        free(sb);
        return NR_E_NOMEM;
    }
    nr_ks_2samp_sorted(sa, na, sb, nb, out);
    free(sa);
    free(sb);
    return 0;
}

/* ---- quantiles and bootstrap ------------------------------------------ */

/* The nearest rank ceil(q n) of n > 0 values, clamped to 1..n. */
static double nearest_rank(double q, size_t n)
{
    double r = ceil(q * (double)n);
    if (r < 1.0)
        r = 1.0;
    if (r > (double)n)
        r = (double)n;
    return r;
}

double nr_quantile_sorted(const double *sorted, size_t n, double q)
{
    if (n == 0)
        return NAN;
    return sorted[(size_t)nearest_rank(q, n) - 1];
}

static void boot_defaults(const nr_boot_opts *opts, int *b, uint64_t *seed, double *level)
{
    *b = opts && opts->bootstraps > 0 ? opts->bootstraps : NR_COMPARE_DEFAULT_BOOTSTRAPS;
    *seed = opts && opts->seed ? opts->seed : NR_COMPARE_DEFAULT_SEED;
    *level = opts && opts->level > 0.0 && opts->level < 1.0 ? opts->level : NR_COMPARE_DEFAULT_CI_LEVEL;
}

/* Percentile interval of B replicates (sorted in place): nearest ranks
 * ceil(B alpha/2) and ceil(B (1 - alpha/2)). */
static void percentile_interval(double *reps, int b, double level, nr_boot_ci *out)
{
    qsort(reps, (size_t)b, sizeof *reps, cmp_double);
    const double tail = (1.0 - level) / 2.0;
    out->low = nr_quantile_sorted(reps, (size_t)b, tail);
    out->high = nr_quantile_sorted(reps, (size_t)b, 1.0 - tail);
    out->bootstraps = b;
}

/* One sample of a two-sample bootstrap and what its statistic needs. */
typedef struct boot_sample {
    const double *x;      /* sorted values (quantile) or bytes (throughput) */
    const double *secs;   /* throughput only */
    size_t n;
    double q;             /* quantile only */
} boot_sample;

/* One bootstrap replicate of a sample's statistic. */
typedef double (*boot_replicate_fn)(nr_rng *r, const boot_sample *s);

/* The percentile interval of stat(b) - stat(a) over the replicates, drawing
 * a's replicate before b's in each round from one seeded stream; sets
 * everything in out except the estimate. */
static int boot_diff(const boot_sample *a, const boot_sample *b, boot_replicate_fn replicate,
                     const nr_boot_opts *opts, nr_boot_ci *out)
{
    int nboot;
    uint64_t seed;
    double level;
    boot_defaults(opts, &nboot, &seed, &level);
    double *reps = malloc((size_t)nboot * sizeof *reps);
    if (!reps)
        return NR_E_NOMEM;
    nr_rng r;
    nr_rng_seed(&r, seed);
    for (int i = 0; i < nboot; i++) {
        const double ra = replicate(&r, a);
        const double rb = replicate(&r, b);
        reps[i] = rb - ra;
    }
    percentile_interval(reps, nboot, level, out);
    free(reps);
    return 0;
}

/* One bootstrap replicate of the nearest-rank q-quantile of a sorted sample:
 * the order statistic of rank ceil(n U), U ~ Beta(k, n - k + 1). */
static double boot_quantile(nr_rng *r, const boot_sample *s)
{
    const double rank = nearest_rank(s->q, s->n);
    const double u = rng_beta(r, rank, (double)s->n - rank + 1.0);
    return s->x[(size_t)nearest_rank(u, s->n) - 1];
}

int nr_boot_quantile_diff_sorted(const double *a, size_t na, const double *b, size_t nb,
                                 double q, const nr_boot_opts *opts, nr_boot_ci *out)
{
    memset(out, 0, sizeof *out);
    if (na == 0 || nb == 0)
        return NR_E_INPUT;
    const boot_sample sa = {.x = a, .n = na, .q = q}, sb = {.x = b, .n = nb, .q = q};
    NR_TRY(boot_diff(&sa, &sb, boot_quantile, opts, out));
    out->estimate = nr_quantile_sorted(b, nb, q) - nr_quantile_sorted(a, na, q);
    return 0;
}

static double throughput(const double *bytes, const double *secs, size_t n)
{
    double sb = 0.0, ss = 0.0;
    for (size_t i = 0; i < n; i++) {
        sb += bytes[i];
        ss += secs[i];
    }
    return ss > 0.0 ? sb / ss : NAN;
}

static double boot_throughput(nr_rng *r, const boot_sample *s)
{
    double sb = 0.0, ss = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        const size_t k = (size_t)nr_rng_below(r, s->n);
        sb += s->x[k];
        ss += s->secs[k];
    }
    /* A resample with no time at all has no throughput; count it as 0 B/s
     * rather than dropping it, which keeps B fixed (rare: needs all-zero picks). */
    return ss > 0.0 ? sb / ss : 0.0;
}

int nr_boot_throughput_diff(const double *bytes_a, const double *secs_a, size_t na,
                            const double *bytes_b, const double *secs_b, size_t nb,
                            const nr_boot_opts *opts, nr_boot_ci *out)
{
    memset(out, 0, sizeof *out);
    if (na == 0 || nb == 0)
        return NR_E_INPUT;
    const double ta = throughput(bytes_a, secs_a, na), tb = throughput(bytes_b, secs_b, nb);
    if (isnan(ta) || isnan(tb))
        return NR_E_INPUT;
    const boot_sample sa = {.x = bytes_a, .secs = secs_a, .n = na}, sb = {.x = bytes_b, .secs = secs_b, .n = nb};
    NR_TRY(boot_diff(&sa, &sb, boot_throughput, opts, out));
    out->estimate = tb - ta;
    return 0;
}

/* ---- reservoir sample ------------------------------------------------- */

void nr_reservoir_init(nr_reservoir *r, size_t cap, uint64_t seed)
{
    memset(r, 0, sizeof *r);
    r->cap = cap ? cap : NR_COMPARE_DEFAULT_SAMPLE_CAP;
    nr_rng_seed(&r->rng, seed);
}

void nr_reservoir_fini(nr_reservoir *r)
{
    free(r->value);
    free(r->extra);
    memset(r, 0, sizeof *r);
}

int nr_reservoir_add(nr_reservoir *r, double value, double extra)
{
    r->seen++;
    if (r->n < r->cap) {
        if (r->n == r->alloc_) {
            /* Grow by doubling, never past cap. */
            size_t cap = r->alloc_ ? r->alloc_ * 2 : 1024;
            if (cap > r->cap)
                cap = r->cap;
            double *v = realloc(r->value, cap * sizeof *v);
            if (!v)
                return NR_E_NOMEM;
            r->value = v;
            double *e = realloc(r->extra, cap * sizeof *e);
            if (!e)
                return NR_E_NOMEM;
            r->extra = e;
            r->alloc_ = cap;
        }
        r->value[r->n] = value;
        r->extra[r->n] = extra;
        r->n++;
        return 0;
    }
    const uint64_t k = nr_rng_below(&r->rng, r->seen);
    if (k < r->cap) {
        r->value[k] = value;
        r->extra[k] = extra;
    }
    return 0;
}

/* ---- the verdict rule ------------------------------------------------- */

const char *nr_verdict_name(nr_verdict v)
{
    static const char *const names[] = {
        [NR_VERDICT_SIGNIFICANT] = "significant",
        [NR_VERDICT_NO_CHANGE] = "no significant change",
        [NR_VERDICT_INSUFFICIENT] = "insufficient data",
        [NR_VERDICT_CHANGED] = "changed",
        [NR_VERDICT_UNCHANGED] = "unchanged",
        [NR_VERDICT_NA] = "n/a",
        [NR_VERDICT_BELOW_RESOLUTION] = "below the resolution",
    };
    return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : "?";
}

void nr_verdict_rule_default(nr_verdict_rule *r)
{
    r->rel_threshold = NR_COMPARE_DEFAULT_REL_THRESHOLD;
    r->ks_alpha = NR_COMPARE_DEFAULT_KS_ALPHA;
    r->ks_min_d = NR_COMPARE_DEFAULT_KS_MIN_D;
    r->floor_factor = NR_COMPARE_DEFAULT_FLOOR_FACTOR;
    r->replicate_alpha = NR_COMPARE_DEFAULT_REPLICATE_ALPHA;
}

double nr_rel_diff(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    if (a == 0.0)
        return b == 0.0 ? 0.0 : (b > 0.0 ? INFINITY : -INFINITY);
    return (b - a) / fabs(a);
}

/* Whether x reaches threshold t, up to the rounding of the doubles it was
 * computed from: 1 ms -> 900 us in seconds gives a relative difference of
 * -0.09999999999999998 and 1 - 0.9 a distance of 0.09999999999999998,
 * which missed thresholds of 10% and 0.10 they meet exactly (review 45:
 * 179 of 398 integer-microsecond pairs a -> 1.1a or 0.9a). */
static int reaches(double x, double t)
{
    return x >= t - 1e-9 * fmax(1.0, fabs(t));
}

/* Whether the size x (a |relative difference| or a distance, >= 0) is a
 * change at threshold t: nonzero, and reaching t. Until session 49 a 0
 * reached a threshold of 0 (or below 1e-9), so that `--threshold 0` marked
 * every equal value "changed" (review 49). */
static int moves(double x, double t)
{
    return x > 0.0 && reaches(x, t);
}

nr_verdict nr_verdict_ci(const nr_verdict_rule *r, const nr_boot_ci *ci, double rel, double abs_diff, double tick)
{
    if (ci->bootstraps <= 0 || isnan(ci->low) || isnan(ci->high))
        return NR_VERDICT_INSUFFICIENT;
    const int excludes_zero = ci->low > 0.0 || ci->high < 0.0;
    if (!excludes_zero || !moves(fabs(rel), r->rel_threshold))
        return NR_VERDICT_NO_CHANGE;
    /* real and large, but no larger than what the timer's noise could make:
       said so, not folded into "no significant change" */
    return fabs(abs_diff) > tick ? NR_VERDICT_SIGNIFICANT : NR_VERDICT_BELOW_RESOLUTION;
}

nr_verdict nr_verdict_ks(const nr_verdict_rule *r, const nr_ks_result *ks)
{
    if (ks->n1 < NR_COMPARE_MIN_SAMPLE || ks->n2 < NR_COMPARE_MIN_SAMPLE || isnan(ks->p_value))
        return NR_VERDICT_INSUFFICIENT;
    return ks->p_value < r->ks_alpha && moves(ks->d_practical, r->ks_min_d) ? NR_VERDICT_SIGNIFICANT
                                                                               : NR_VERDICT_NO_CHANGE;
}

nr_verdict nr_verdict_replicates(const nr_verdict_rule *r, const nr_perm_result *p, double rel)
{
    if (isnan(p->p_value) || isnan(rel))
        return NR_VERDICT_NA;
    if (p->p_min > r->replicate_alpha)
        return NR_VERDICT_INSUFFICIENT;
    return p->p_value <= r->replicate_alpha && moves(fabs(rel), r->rel_threshold) ? NR_VERDICT_SIGNIFICANT
                                                                                     : NR_VERDICT_NO_CHANGE;
}

nr_verdict nr_verdict_descriptive(const nr_verdict_rule *r, double a, double b)
{
    if (isnan(a) || isnan(b))
        return NR_VERDICT_NA;
    return moves(fabs(nr_rel_diff(a, b)), r->rel_threshold) ? NR_VERDICT_CHANGED : NR_VERDICT_UNCHANGED;
}
