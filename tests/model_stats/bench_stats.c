/* bench_stats: timing of the hot paths of the statistics (prints rates).
 * Targets: nr_concentration_compute on 10 M values < 2 s; each quantile pass
 * >= 200 M values/s; a power-law fit of 10,000 values with 100 bootstraps in
 * a few seconds. Times are CPU seconds of this single-threaded process. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "batch_source.h"
#include "concentration.h"
#include "powerlaw.h"
#include "quantile.h"
#include "statsort.h"

/* CPU time of this process: on a shared machine wall time measures the neighbours. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_f64(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* nr__sort_f64 against qsort on the same values, at the sizes the
 * statistics sort (a bootstrap set's draws beyond its sampler's table:
 * hundreds to thousands; a store's per-file values: up to millions). */
static void bench_sorts(gsl_rng *r)
{
    static const size_t sizes[] = {300, 1000, 3000, 30000, 1000000};
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        const size_t n = sizes[z], reps = 4000000 / n + 1;
        double *w = malloc(n * sizeof *w), *v = malloc(n * sizeof *v);
        if (!w || !v) {
            fprintf(stderr, "bench_stats: out of memory for %zu values\n", n);
            free(w);
            free(v);
            return;
        }
        for (size_t i = 0; i < n; i++)
            w[i] = floor(exp(gsl_ran_gaussian(r, 2.5) + 12)); /* byte totals */
        double t_radix = 0, t_qsort = 0;
        for (size_t k = 0; k < reps; k++) {
            memcpy(v, w, n * sizeof *v);
            double t0 = now();
            nr__sort_f64(v, n);
            t_radix += now() - t0;
            memcpy(v, w, n * sizeof *v);
            t0 = now();
            qsort(v, n, sizeof *v, cmp_f64);
            t_qsort += now() - t0;
        }
        printf("sort of %zu values: %.1f ns a value, qsort %.1f: %.2fx\n", n, t_radix / reps / n * 1e9,
               t_qsort / reps / n * 1e9, t_qsort / t_radix);
        free(w);
        free(v);
    }
}

int main(void)
{
    enum { CONC_N = 10000000, QUANT_N = 20000000, PL_N = 10000 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 1);

    double *v = malloc(CONC_N * sizeof *v);
    for (size_t i = 0; i < CONC_N; i++)
        v[i] = floor(exp(gsl_ran_gaussian(r, 2.5) + 12));
    double t0 = now();
    nr_concentration c;
    nr_concentration_compute(v, CONC_N, &c);
    printf("concentration of %d values: %.3f s (gini %.4f)\n", CONC_N, now() - t0, c.gini);
    free(v);

    int64_t *q = malloc(QUANT_N * sizeof *q);
    for (size_t i = 0; i < QUANT_N; i++)
        q[i] = (int64_t)llround(2000 * exp(gsl_ran_gaussian(r, 1.0)));
    static const double qs[] = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};
    int64_t out[6];
    uint64_t count;
    nr_error err;
    batches b = {.v = q, .n = QUANT_N, .batch = 65536};
    nr_value_source src = {.ctx = &b, .rewind = batches_rewind, .next = batches_next};
    t0 = now();
    nr_quantiles_exact(&src, qs, 6, out, &count, &err);
    const double dt = now() - t0;
    printf("exact quantiles of %d values: %d passes, %.3f s, %.0f M values/s per pass (p50 %lld p99.99 %lld)\n",
           QUANT_N, b.passes, dt, (double)QUANT_N * b.passes / dt / 1e6, (long long)out[0], (long long)out[4]);
    nr_loghist h;
    nr_loghist_init(&h);
    t0 = now();
    for (size_t i = 0; i < QUANT_N; i++)
        nr_loghist_add(&h, q[i]);
    printf("loghist_add: %.0f M values/s\n", QUANT_N / (now() - t0) / 1e6);
    free(q);
    bench_sorts(r);

    /* the bootstrap's early stop against the whole search of every synthetic
       set (the method before it), in one run: a Pareto sample (p large: most
       sets are searched in full either way) and a lognormal one (p = 0, as
       for most measured per-file bytes) */
    double *x = malloc(PL_N * sizeof *x);
    int differs = 0;
    for (int lognormal = 0; lognormal <= 1; lognormal++) {
        for (int discrete = 0; discrete <= 1; discrete++) {
            for (size_t i = 0; i < PL_N; i++) {
                const double p = lognormal ? exp(gsl_ran_gaussian(r, 2.0)) : pow(1.0 - gsl_rng_uniform(r), -1.0 / 1.5);
                x[i] = discrete ? floor(1000 * p) + 1 : p;
            }
            nr_powerlaw_opts o = {.discrete = discrete, .bootstraps = 100, .seed = 1};
            nr_powerlaw_fit full, early;
            nr__powerlaw_boot_full_search(1);
            t0 = now();
            nr_powerlaw_fit_compute(x, PL_N, &o, &full, &err);
            const double t_full = now() - t0;
            nr__powerlaw_boot_full_search(0);
            t0 = now();
            nr_powerlaw_fit_compute(x, PL_N, &o, &early, &err);
            const double t_early = now() - t0;
            printf("power law (%s, %s) of %d values, 100 bootstraps: %.3f s, whole searches %.3f s: %.2fx "
                   "(alpha %.3f p %.2f, %s)\n",
                   discrete ? "discrete" : "continuous", lognormal ? "lognormal" : "Pareto", PL_N, t_early, t_full,
                   t_full / t_early, early.alpha, early.p_value,
                   early.p_value == full.p_value ? "same p" : "P DIFFERS");
            differs |= early.p_value != full.p_value;
        }
    }
    free(x);
    gsl_rng_free(r);
    return differs; /* the early stop must not move a p-value */
}
