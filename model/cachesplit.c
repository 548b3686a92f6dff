/* cachesplit: valley of the smoothed log-latency histogram, with a
 * two-component Gaussian mixture on log10 latency (EM) as the fallback
 * (docs/statistics.md, "Cache split"). */
#include "cachesplit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The rules, as data. */
static const struct {
    uint64_t min_reads;      /* fewer reads: no split */
    double smooth_sigma;     /* Gaussian smoothing of the counts, in bins */
    int smooth_radius;       /* kernel half-width, in bins */
    double max_valley_ratio; /* smoothed valley / smaller smoothed peak must be below */
    double min_mode_share;   /* each side holds at least this share of reads */
    double min_separation;   /* mixture: Ashman's D = |mu1 - mu2| / sqrt((s1^2 + s2^2) / 2) above */
    int em_max_iter;
    double em_tol;           /* stop when the log-likelihood gains less (relative) */
} RULE = {
    .min_reads = NR_CACHE_SPLIT_MIN_READS,
    .smooth_sigma = 1.5,
    .smooth_radius = 5,
    .max_valley_ratio = 0.5,
    .min_mode_share = NR_CACHE_SPLIT_MIN_MODE_SHARE,
    .min_separation = 2.0,
    .em_max_iter = 1000,
    .em_tol = 1e-12,
};

enum { BINS = NR_LOGHIST_BINS };

/* Log10 of a bin's centre in ns (bin 0 holds <= 1 ns: taken as 1 ns). */
static double bin_log10_centre(int b)
{
    return b == 0 ? 0.0 : (b - 0.5) / NR_LOGHIST_PER_DECADE;
}

static void smooth(const uint64_t *counts, double *s)
{
    double w[64];
    for (int k = -RULE.smooth_radius; k <= RULE.smooth_radius; k++)
        w[k + RULE.smooth_radius] = exp(-0.5 * k * k / (RULE.smooth_sigma * RULE.smooth_sigma));
    for (int b = 0; b < BINS; b++) {
        double sum = 0, norm = 0;
        for (int k = -RULE.smooth_radius; k <= RULE.smooth_radius; k++) {
            const int i = b + k;
            if (i < 0 || i >= BINS)
                continue;
            sum += w[k + RULE.smooth_radius] * (double)counts[i];
            norm += w[k + RULE.smooth_radius];
        }
        s[b] = sum / norm;
    }
}

/* Fills the split from the last fast bin. */
static void set_split(const nr_loghist *h, int last_fast_bin, const char *method, nr_cache_split *out)
{
    uint64_t fast = 0;
    for (int b = 0; b <= last_fast_bin; b++)
        fast += h->counts[b];
    out->found = 1;
    out->threshold_ns = nr_loghist_bin_limit(last_fast_bin) + 1;
    out->fast_count = fast;
    out->slow_count = h->n - fast;
    out->slow_share = (double)out->slow_count / (double)h->n;
    out->method = method;
    out->misses_plausible = out->threshold_ns >= NR_CACHE_MISS_MIN_NS;
}

/* The deepest significant valley: bin v with smoothed s[v] below
 * max_valley_ratio of the smaller of the highest smoothed peaks on each side,
 * and at least min_mode_share of reads on each side. Among equally deep
 * valleys (a gap of empty bins) the middle one. Returns the bin or -1. */
static int find_valley(const nr_loghist *h, const double *s)
{
    double left_peak[BINS], right_peak[BINS];
    uint64_t left_mass[BINS];
    double run = 0;
    uint64_t mass = 0;
    for (int b = 0; b < BINS; b++) {
        left_peak[b] = run; /* max of s[0 .. b-1] */
        run = fmax(run, s[b]);
        mass += h->counts[b];
        left_mass[b] = mass; /* reads in bins 0 .. b */
    }
    run = 0;
    for (int b = BINS - 1; b >= 0; b--) {
        right_peak[b] = run; /* max of s[b+1 ..] */
        run = fmax(run, s[b]);
    }
    const double min_side = RULE.min_mode_share * (double)h->n;
    int best = -1, best_end = -1;
    double best_ratio = INFINITY;
    for (int v = 1; v < BINS - 1; v++) {
        const double smaller_peak = fmin(left_peak[v], right_peak[v]);
        if (!(smaller_peak > 0))
            continue;
        if ((double)left_mass[v] < min_side || (double)(h->n - left_mass[v]) < min_side)
            continue;
        const double ratio = s[v] / smaller_peak;
        if (ratio >= RULE.max_valley_ratio)
            continue;
        if (ratio < best_ratio) {
            best_ratio = ratio;
            best = best_end = v;
        } else if (ratio == best_ratio && best_end == v - 1) {
            best_end = v; /* extend a run of equally deep bins */
        }
    }
    return best < 0 ? -1 : best + (best_end - best) / 2;
}

typedef struct gauss2 {
    double w[2], mu[2], var[2];
} gauss2;

static double normal_pdf(double x, double mu, double var)
{
    const double d = x - mu;
    return exp(-0.5 * d * d / var) / sqrt(2 * M_PI * var);
}

/* Weighted quantile of the bin centres. */
static double binned_quantile(const nr_loghist *h, double q)
{
    const double target = q * (double)h->n;
    double cum = 0;
    for (int b = 0; b < BINS; b++) {
        cum += (double)h->counts[b];
        if (cum >= target)
            return bin_log10_centre(b);
    }
    return bin_log10_centre(BINS - 1);
}

/* EM for a two-component Gaussian mixture on the binned log10 latencies,
 * initialised deterministically at the 25th and 75th percentiles with equal
 * weights and half the overall variance each. Variances are floored at the
 * variance of one bin's width. Returns 0, or -1 when degenerate. */
static int fit_mixture(const nr_loghist *h, gauss2 *g)
{
    const double n = (double)h->n;
    double mean = 0, var = 0;
    for (int b = 0; b < BINS; b++)
        mean += (double)h->counts[b] * bin_log10_centre(b) / n;
    for (int b = 0; b < BINS; b++) {
        const double d = bin_log10_centre(b) - mean;
        var += (double)h->counts[b] * d * d / n;
    }
    const double var_floor = 1.0 / (12.0 * NR_LOGHIST_PER_DECADE * NR_LOGHIST_PER_DECADE);
    if (!(var > var_floor))
        return -1;
    g->w[0] = g->w[1] = 0.5;
    g->mu[0] = binned_quantile(h, 0.25);
    g->mu[1] = binned_quantile(h, 0.75);
    if (g->mu[0] == g->mu[1])
        g->mu[1] += 1.0 / NR_LOGHIST_PER_DECADE;
    g->var[0] = g->var[1] = var / 2;
    double last_ll = -INFINITY;
    for (int it = 0; it < RULE.em_max_iter; it++) {
        double sw[2] = {0, 0}, sx[2] = {0, 0}, sxx[2] = {0, 0}, ll = 0;
        for (int b = 0; b < BINS; b++) {
            if (h->counts[b] == 0)
                continue;
            const double x = bin_log10_centre(b), c = (double)h->counts[b];
            const double p0 = g->w[0] * normal_pdf(x, g->mu[0], g->var[0]);
            const double p1 = g->w[1] * normal_pdf(x, g->mu[1], g->var[1]);
            const double tot = p0 + p1;
            if (!(tot > 0))
                continue; /* beyond both components' reach: no information */
            const double r[2] = {p0 / tot, p1 / tot};
            ll += c * log(tot);
            for (int k = 0; k < 2; k++) {
                sw[k] += c * r[k];
                sx[k] += c * r[k] * x;
                sxx[k] += c * r[k] * x * x;
            }
        }
        for (int k = 0; k < 2; k++) {
            if (!(sw[k] > 0))
                return -1;
            g->w[k] = sw[k] / (sw[0] + sw[1]);
            g->mu[k] = sx[k] / sw[k];
            g->var[k] = fmax(sxx[k] / sw[k] - g->mu[k] * g->mu[k], var_floor);
        }
        if (fabs(ll - last_ll) <= RULE.em_tol * fabs(ll))
            break;
        last_ll = ll;
    }
    if (g->mu[0] > g->mu[1]) { /* component 0 is the fast one */
        gauss2 s = *g;
        g->w[0] = s.w[1], g->mu[0] = s.mu[1], g->var[0] = s.var[1];
        g->w[1] = s.w[0], g->mu[1] = s.mu[0], g->var[1] = s.var[0];
    }
    return 0;
}

/* Last bin between the means where the fast component is the more likely;
 * -1 when the mixture is not well separated. */
static int mixture_split(const nr_loghist *h)
{
    gauss2 g;
    if (fit_mixture(h, &g) < 0)
        return -1;
    const double sep = (g.mu[1] - g.mu[0]) / sqrt((g.var[0] + g.var[1]) / 2);
    if (sep <= RULE.min_separation || g.w[0] < RULE.min_mode_share || g.w[1] < RULE.min_mode_share)
        return -1;
    int last_fast = -1;
    for (int b = 0; b < BINS; b++) {
        const double x = bin_log10_centre(b);
        if (x < g.mu[0])
            continue;
        if (x > g.mu[1])
            break;
        if (g.w[0] * normal_pdf(x, g.mu[0], g.var[0]) >= g.w[1] * normal_pdf(x, g.mu[1], g.var[1]))
            last_fast = b;
        else
            break;
    }
    return last_fast;
}

void nr_cache_split_why_none(uint64_t reads, char *out, size_t cap)
{
    if (reads < NR_CACHE_SPLIT_MIN_READS)
        snprintf(out, cap, "cache split: too few reads to look for one (fewer than %d)", NR_CACHE_SPLIT_MIN_READS);
    else /* not "unimodal": a slow mode under the gate is never looked for */
        snprintf(out, cap, "cache split: none found (each mode must hold %.0f%% of reads or more: a smaller slow "
                           "mode is not tested for)", NR_CACHE_SPLIT_MIN_MODE_SHARE * 100);
}

int nr_cache_split_compute(const nr_loghist *read_latency, nr_cache_split *out)
{
    memset(out, 0, sizeof *out);
    out->slow_bytes_share = NAN;
    out->method = "none";
    const nr_loghist *h = read_latency;
    if (h->n < RULE.min_reads)
        return 0;
    double s[BINS];
    smooth(h->counts, s);
    const int valley = find_valley(h, s);
    if (valley >= 0) {
        set_split(h, valley, "valley", out);
        return 0;
    }
    const int last_fast = mixture_split(h);
    if (last_fast >= 0) {
        uint64_t fast = 0;
        for (int b = 0; b <= last_fast; b++)
            fast += h->counts[b];
        const double min_side = RULE.min_mode_share * (double)h->n;
        if ((double)fast >= min_side && (double)(h->n - fast) >= min_side)
            set_split(h, last_fast, "mixture", out);
    }
    return 0;
}

void nr_cache_split_bytes(nr_cache_split *split, uint64_t slow_bytes, uint64_t total_bytes)
{
    split->slow_bytes_share = total_bytes ? (double)slow_bytes / (double)total_bytes : NAN;
}
