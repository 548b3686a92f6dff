/* powerlaw: power-law tail fits by the method of Clauset, Shalizi and Newman,
 * "Power-law distributions in empirical data", SIAM Review 51 (2009).
 *
 * Definitions, equations and the speed-ups used: docs/statistics.md, section
 * "Power-law tail". */
#ifndef NR_POWERLAW_H
#define NR_POWERLAW_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"

typedef struct nr_powerlaw_opts {
    int discrete;          /* 1: integer data >= 1 (bytes, counts): Hurwitz zeta normaliser; 0: continuous */
    int bootstraps;        /* goodness-of-fit bootstrap count (0 = skip, p_value = NAN) */
    uint64_t seed;         /* bootstrap RNG seed (MT19937; deterministic) */
    size_t min_tail;       /* smallest tail size considered for xmin (10 when 0) */
    int threads;           /* threads for the lognormal comparison and the bootstrap, the caller's
                              among them (<= 1: the caller's alone); the results do not depend on it */
} nr_powerlaw_opts;

typedef struct nr_powerlaw_fit {
    int valid;             /* 0 when too few values or distinct values (other fields NAN, counts 0 or n) */
    double alpha, alpha_se, xmin;
    size_t n_tail, n;      /* values >= xmin; positive values fitted (zeros and negatives are dropped) */
    double ks_d;           /* KS distance of the tail fit */
    double p_value;        /* bootstrap GOF p-value (NAN if skipped) */
    double vs_lognormal_R; /* normalized log-likelihood ratio (Vuong); > 0 favours the power law */
    double vs_lognormal_p; /* two-sided p of R: small p means the sign of R is significant */
} nr_powerlaw_fit;

/* Clauset, Shalizi and Newman's plausibility rule (section 4.1): the power
 * law is ruled out when the bootstrap's p <= 0.1; a fit so rejected gives
 * no exponent worth quoting, and the figure draws no line for it. */
#define NR_POWERLAW_PLAUSIBLE_P 0.1

/* 1 when fit is valid and its goodness of fit was tested and failed
 * (p <= NR_POWERLAW_PLAUSIBLE_P); 0 when plausible or untested (p NAN). */
static inline int nr_powerlaw_rejected(const nr_powerlaw_fit *fit)
{
    return fit->valid && fit->p_value <= NR_POWERLAW_PLAUSIBLE_P;
}

/* Fits a power law to the tail of x[0..n) (borrowed). (Named _compute like
 * nr_concentration_compute: C cannot have a function named like the type.) opts may be NULL
 * (continuous, no bootstrap, seed 1, min_tail 10). Values <= 0 are dropped
 * (a power law lives on x > 0); with opts->discrete each kept value must be an
 * integer. Fewer than min_tail kept values or fewer than 2 distinct values in
 * every candidate tail give valid = 0 and return 0.
 * Turns GSL's abort-on-error handler off, process-wide (GSL then reports
 * underflows by status; niorep never wants GSL to abort).
 * Returns 0, NR_E_INPUT (NaN, infinity, or a non-integer in discrete mode;
 * err names the index), NR_E_NOMEM. */
int nr_powerlaw_fit_compute(const double *x, size_t n, const nr_powerlaw_opts *opts,
                            nr_powerlaw_fit *out, nr_error *err);

/* CCDF points of the positive values of x[0..n) (borrowed): sorted unique
 * values v with P(X >= v) over the positive values, at most max_points (>= 2)
 * of them, thinned to log-spaced values (the smallest and the largest always
 * kept). xs, ps: caller-owned, max_points each; *npoints set.
 * Returns 0, NR_E_USAGE (max_points < 2), NR_E_INPUT (NaN/infinity), NR_E_NOMEM. */
int nr_ccdf_points(const double *x, size_t n, size_t max_points, double *xs, double *ps, size_t *npoints);

/* The fitted line for the CCDF plot: P(X >= x) = (n_tail / n) * P_fit(X >= x)
 * for x >= xmin (continuous: (x/xmin)^(1-alpha); discrete: zeta(alpha, x) /
 * zeta(alpha, xmin), x rounded up to an integer); NAN for x < xmin or an
 * invalid fit. */
double nr_powerlaw_ccdf(const nr_powerlaw_fit *fit, int discrete, double x);

/* Tests only: 1 makes the bootstrap search every synthetic set's best xmin
 * in full (the method before it stopped at the first candidate fitting
 * better than the data; the p-values are the same); 0 restores the
 * default. Set before a fit starts. */
void nr__powerlaw_boot_full_search(int on);
/* For tests: how many draws of the discrete sampler's table (alpha, xmin)
 * differ from a binary search's, over every entry and bucket edge. */
size_t nr__powerlaw_disc_table_mismatches(double alpha, double xmin);

#endif
