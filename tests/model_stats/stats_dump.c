/* stats_dump DIR: writes generated data sets and this implementation's
 * statistics of them as CSV files into DIR, for check_scipy.py to recompute
 * independently. Data: GSL MT19937 seeded 2026 (fixed), values printed with
 * 17 significant digits so that Python reads exactly the same doubles. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "batch_source.h"
#include "concentration.h"
#include "powerlaw.h"
#include "quantile.h"

static FILE *open_out(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        exit(1);
    }
    return f;
}

/* Per-file byte counts: integers (exact sums), 30% zeros, lognormal sizes, ties. */
static int dump_concentration(const char *dir, gsl_rng *r)
{
    enum { N = 2000 };
    double *v = malloc(N * sizeof *v);
    FILE *f = open_out(dir, "conc_data.csv");
    for (int i = 0; i < N; i++) {
        const double u = gsl_rng_uniform(r);
        v[i] = u < 0.3 ? 0 : u < 0.4 ? 4096 : floor(exp(gsl_ran_gaussian(r, 2.5) + 10));
        fprintf(f, "%.17g\n", v[i]);
    }
    fclose(f);
    nr_concentration c;
    if (nr_concentration_compute(v, N, &c) != 0)
        return 1;
    f = open_out(dir, "conc_result.csv");
    fprintf(f, "name,value\n");
    fprintf(f, "total,%.17g\ngini,%.17g\ntop1_share,%.17g\ntop10_share,%.17g\ntop20_share,%.17g\n", c.total,
            c.gini, c.top1_share, c.top10_share, c.top20_share);
    fprintf(f, "files_for_50,%.17g\nfiles_for_90,%.17g\nfiles_for_99,%.17g\n", c.files_for_50, c.files_for_90,
            c.files_for_99);
    fclose(f);
    free(v);
    return 0;
}

/* Latency-like nanoseconds with duplicates, a slow mode and extremes. */
static int dump_quantiles(const char *dir, gsl_rng *r)
{
    enum { N = 100003 }; /* q * N mostly not an integer: numpy's float ranks agree too */
    static const double qs[] = {0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 1.0};
    enum { NQ = sizeof qs / sizeof qs[0] };
    int64_t *v = malloc(N * sizeof *v);
    FILE *f = open_out(dir, "quant_data.csv");
    for (int i = 0; i < N; i++) {
        const double u = gsl_rng_uniform(r);
        v[i] = u < 0.05 ? 1000 : u < 0.9 ? (int64_t)llround(2000 * exp(gsl_ran_gaussian(r, 0.5)))
             : u < 0.9999 ? (int64_t)llround(5e6 * exp(gsl_ran_gaussian(r, 1))) : INT64_C(9000000000000);
        fprintf(f, "%" PRId64 "\n", v[i]);
    }
    fclose(f);
    batches b = {.v = v, .n = N, .batch = 1000};
    nr_value_source src = {.ctx = &b, .rewind = batches_rewind, .next = batches_next};
    int64_t out[NQ];
    uint64_t count;
    nr_error err;
    if (nr_quantiles_exact(&src, qs, NQ, out, &count, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    f = open_out(dir, "quant_result.csv");
    fprintf(f, "q,value\n");
    for (int i = 0; i < NQ; i++)
        fprintf(f, "%g,%" PRId64 "\n", qs[i], out[i]);
    fclose(f);
    free(v);
    return 0;
}

/* A value of data set name, or a negative number to draw again:
 * - "pl": 30% uniform on [0.2, 1), 70% Pareto alpha 2.5 from 1;
 * - "ln": lognormal mu 0.3, sigma 2, kept above 15;
 * discrete (integers, as niorep's byte totals and access counts):
 * - "dpl": per-file bytes of a power law, floor(4096 Pareto(alpha 1.8));
 * - "dln": per-file bytes of a lognormal, floor(exp(N(9, 1.5)));
 * - "dacc": access counts, floor of a lognormal exp(N(1, 1.2)) plus 1. */
static double draw_value(const char *name, gsl_rng *r)
{
    if (strcmp(name, "pl") == 0)
        return gsl_rng_uniform(r) < 0.3 ? 0.2 + 0.8 * gsl_rng_uniform(r) : pow(1.0 - gsl_rng_uniform(r), -1.0 / 1.5);
    if (strcmp(name, "ln") == 0) {
        const double x = exp(0.3 + gsl_ran_gaussian(r, 2.0));
        return x < 15 ? -1 : x;
    }
    if (strcmp(name, "dpl") == 0)
        return floor(4096 * pow(1.0 - gsl_rng_uniform(r), -1.0 / 0.8));
    if (strcmp(name, "dln") == 0)
        return floor(exp(9 + gsl_ran_gaussian(r, 1.5)));
    return 1 + floor(exp(1 + gsl_ran_gaussian(r, 1.2)));
}

/* n values of data set name (draw_value) and the power-law fit of them,
 * discrete for the names starting with d. */
static int dump_powerlaw(const char *dir, const char *name, int n, gsl_rng *r)
{
    double *x = malloc((size_t)n * sizeof *x);
    char file[64];
    snprintf(file, sizeof file, "%s_data.csv", name);
    FILE *f = open_out(dir, file);
    for (int i = 0; i < n;) {
        if ((x[i] = draw_value(name, r)) < 0)
            continue;
        fprintf(f, "%.17g\n", x[i++]);
    }
    fclose(f);
    nr_powerlaw_opts o = {.discrete = name[0] == 'd', .bootstraps = 0, .seed = 1, .min_tail = 10};
    nr_powerlaw_fit p;
    nr_error err;
    if (nr_powerlaw_fit_compute(x, (size_t)n, &o, &p, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    snprintf(file, sizeof file, "%s_result.csv", name);
    f = open_out(dir, file);
    fprintf(f, "name,value\n");
    fprintf(f, "alpha,%.17g\nxmin,%.17g\nn_tail,%zu\nalpha_se,%.17g\nks_d,%.17g\n", p.alpha, p.xmin, p.n_tail,
            p.alpha_se, p.ks_d);
    fprintf(f, "vs_lognormal_R,%.17g\nvs_lognormal_p,%.17g\n", p.vs_lognormal_R, p.vs_lognormal_p);
    fclose(f);
    free(x);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: stats_dump DIR\n");
        return 2;
    }
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2026);
    const int rc = dump_concentration(argv[1], r) || dump_quantiles(argv[1], r) ||
                   dump_powerlaw(argv[1], "pl", 1000, r) || dump_powerlaw(argv[1], "ln", 1000, r) ||
                   dump_powerlaw(argv[1], "dpl", 600, r) || dump_powerlaw(argv[1], "dln", 600, r) ||
                   dump_powerlaw(argv[1], "dacc", 2000, r);
    gsl_rng_free(r);
    return rc;
}
