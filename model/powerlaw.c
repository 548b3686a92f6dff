/* powerlaw: Clauset-Shalizi-Newman (2009) power-law tail fit.
 *
 * - alpha by maximum likelihood: continuous closed form (CSN eq. 3.1),
 *   discrete by maximising the Hurwitz-zeta likelihood (CSN eq. 3.5) with
 *   Brent's method, started at the CSN approximation (eq. 3.7);
 * - xmin minimising the KS distance between the tail's empirical CDF and the
 *   fitted CDF (CSN section 3.3, eq. 3.9);
 * - alpha standard error (alpha - 1) / sqrt(n_tail) (CSN eq. 3.2);
 * - goodness of fit by the semi-parametric bootstrap of CSN section 4.1;
 * - Vuong's likelihood-ratio test against a lognormal fitted by maximum
 *   likelihood to the same tail (truncated at xmin; CSN section 5.1, appendix C).
 *
 * The KS distance of a candidate is computed exactly but lazily: both CDFs
 * are monotone, so a run of unique values between two evaluated ones can only
 * hold a larger distance than the best so far if a bound from its end points
 * says so (branch and bound); a candidate is abandoned as soon as its distance
 * reaches the best of the earlier candidates. See docs/statistics.md. */
#include "powerlaw.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_sf_erf.h>
#include "hzeta.h"
#include "mt19937.h"
#include "tail_lognormal.h"
#include "statsort.h"

enum {
    MAX_CANDIDATES = 1000,      /* xmin candidates of the fit */
    MAX_BOOT_CANDIDATES = 1000, /* xmin candidates of each bootstrap refit */
    DISCRETE_TABLE = 1024,      /* exact CDF table of the discrete sampler */
    DISCRETE_GUIDE = 1024,      /* buckets of v that start its search (a power of two: v times it is exact) */
};

static const double ALPHA_LO = 1.0 + 1e-6, ALPHA_HI = 50.0;

/* The positive sample as sorted unique values with cumulative counts. */
typedef struct pl_data {
    int discrete;
    size_t n;           /* values */
    size_t U;           /* unique values */
    double *sorted;     /* the n values ascending */
    double *u;          /* unique values ascending */
    double *lnu;        /* ln u */
    size_t *cum;        /* cum[j]: values <= u[j] */
    long double *sufln; /* sufln[j]: sum of ln x over values >= u[j]; sufln[U] = 0 */
} pl_data;

static void pl_data_free(pl_data *d)
{
    free(d->u);
    free(d->lnu);
    free(d->cum);
    free(d->sufln);
    memset(d, 0, sizeof *d);
}

/* The arrays of a unique-value view of up to n values: 0 or NR_E_NOMEM. */
static int pl_data_alloc(pl_data *d, size_t n)
{
    memset(d, 0, sizeof *d);
    const size_t cap = n ? n : 1;
    d->u = malloc(cap * sizeof *d->u);
    d->lnu = malloc(cap * sizeof *d->lnu);
    d->cum = malloc(cap * sizeof *d->cum);
    d->sufln = malloc((cap + 1) * sizeof *d->sufln);
    if (!d->u || !d->lnu || !d->cum || !d->sufln) {
        pl_data_free(d);
        return NR_E_NOMEM;
    }
    return 0;
}

/* sufln from u, lnu and cum, once U is set. */
static void pl_data_sum_logs(pl_data *d)
{
    d->sufln[d->U] = 0;
    for (size_t j = d->U; j-- > 0;) {
        const size_t count = d->cum[j] - (j ? d->cum[j - 1] : 0);
        d->sufln[j] = d->sufln[j + 1] + (long double)count * d->lnu[j];
    }
}

/* Fills d's arrays (pl_data_alloc for at least n values) with the
 * unique-value view of sorted[0..n) (borrowed, must outlive d). */
static void pl_data_fill(pl_data *d, double *sorted, size_t n, int discrete)
{
    d->discrete = discrete;
    d->n = n;
    d->sorted = sorted;
    size_t U = 0;
    for (size_t i = 0; i < n; i++) {
        if (U == 0 || sorted[i] != d->u[U - 1]) {
            d->u[U] = sorted[i];
            d->lnu[U] = log(sorted[i]);
            U++;
        }
        d->cum[U - 1] = i + 1;
    }
    d->U = U;
    pl_data_sum_logs(d);
}

/* Builds the unique-value view of sorted[0..n) (borrowed, must outlive d). */
static int pl_data_build(pl_data *d, double *sorted, size_t n, int discrete)
{
    NR_TRY(pl_data_alloc(d, n));
    pl_data_fill(d, sorted, n, discrete);
    return 0;
}

/* Values < u[c]. */
static size_t below(const pl_data *d, size_t c)
{
    return c ? d->cum[c - 1] : 0;
}

/* How many values equal unique value j. */
static double occurrences(const pl_data *d, size_t j)
{
    return (double)(d->cum[j] - below(d, j));
}

/* ---- maximum likelihood of alpha for xmin = u[c] ---- */

typedef struct disc_ll {
    double xmin;
    double nt;
    double sumln; /* sum of ln x over the tail */
} disc_ll;

/* Negative log-likelihood of the discrete power law (CSN eq. 3.5). */
static double disc_negll(double alpha, void *p)
{
    const disc_ll *q = p;
    return q->nt * nr__hzeta_log(alpha, q->xmin) + alpha * q->sumln;
}

/* Minimises disc_negll over alpha with Brent's method, started at the CSN
 * approximation; the likelihood is log-concave in alpha, so expanding steps
 * from the start always find a bracket. */
static double disc_alpha_mle(disc_ll *q)
{
    const double denom = q->sumln - q->nt * log(q->xmin - 0.5);
    double guess = denom > 0 ? 1.0 + q->nt / denom : 2.0; /* CSN eq. 3.7 */
    guess = fmin(fmax(guess, ALPHA_LO + 1e-3), ALPHA_HI - 1e-3);
    double step = 0.02;
    double a = fmax(guess - step, ALPHA_LO), b = fmin(guess + step, ALPHA_HI);
    double fm = disc_negll(guess, q), fa = disc_negll(a, q), fb = disc_negll(b, q);
    while (fa <= fm && a > ALPHA_LO) { /* minimum lies lower: move the bracket down */
        b = guess, fb = fm;
        guess = a, fm = fa;
        step *= 2;
        a = fmax(guess - step, ALPHA_LO);
        fa = disc_negll(a, q);
    }
    while (fb <= fm && b < ALPHA_HI) { /* or higher */
        a = guess, fa = fm;
        guess = b, fm = fb;
        step *= 2;
        b = fmin(guess + step, ALPHA_HI);
        fb = disc_negll(b, q);
    }
    if (fa <= fm)
        return a; /* at the lower limit */
    if (fb <= fm)
        return b;
    gsl_function F = {.function = disc_negll, .params = q};
    gsl_min_fminimizer *m = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    if (m == NULL)
        return guess;
    double best = guess;
    if (gsl_min_fminimizer_set_with_values(m, &F, guess, fm, a, fa, b, fb) == GSL_SUCCESS) {
        for (int it = 0; it < 100; it++) {
            if (gsl_min_fminimizer_iterate(m) != GSL_SUCCESS)
                break;
            best = gsl_min_fminimizer_x_minimum(m);
            if (gsl_min_test_interval(gsl_min_fminimizer_x_lower(m), gsl_min_fminimizer_x_upper(m), 1e-6,
                                      0) == GSL_SUCCESS)
                break;
        }
    }
    gsl_min_fminimizer_free(m);
    return best;
}

/* MLE of alpha for xmin = u[c]; NAN when the tail has one distinct value. */
static double alpha_mle(const pl_data *d, size_t c)
{
    const double nt = (double)(d->n - below(d, c));
    const double sumln = (double)d->sufln[c];
    const double spread = (double)(d->sufln[c] - (long double)nt * d->lnu[c]); /* sum ln(x/xmin) */
    if (!(spread > 0))
        return NAN;
    if (!d->discrete)
        return 1.0 + nt / spread; /* CSN eq. 3.1 */
    disc_ll q = {.xmin = d->u[c], .nt = nt, .sumln = sumln};
    return disc_alpha_mle(&q);
}

/* ---- KS distance by branch and bound ---- */

typedef struct ks_ctx {
    const pl_data *d;
    size_t c;         /* xmin = u[c] */
    double alpha;
    double log_zeta;  /* discrete: ln zeta(alpha, xmin) */
    double scaled_xmin; /* discrete: zeta(alpha, xmin) xmin^(alpha-1) */
    double base, nt;  /* values below xmin, tail size */
    double D;         /* largest distance found so far */
    double cutoff;    /* stop once D >= cutoff */
} ks_ctx;

/* Empirical CDF of the tail just after unique value j (j = c - 1: 0). */
static inline double emp(const ks_ctx *k, size_t j)
{
    return j + 1 == k->c ? 0.0 : ((double)k->d->cum[j] - k->base) / k->nt;
}

/* Fitted CDF just before (lo) and at (hi) unique value j. */
static void fit_cdf(const ks_ctx *k, size_t j, double *lo, double *hi)
{
    const pl_data *d = k->d;
    if (!d->discrete) {
        *lo = *hi = -expm1((1.0 - k->alpha) * (d->lnu[j] - d->lnu[k->c]));
        return;
    }
    /* P(X < u) = 1 - zeta(alpha, u) / zeta(alpha, xmin); P(X <= u) adds u^-alpha / zeta(alpha, xmin) */
    const double ge = j == k->c ? 1.0
                                : exp((1.0 - k->alpha) * (d->lnu[j] - d->lnu[k->c])) *
                                      nr__hzeta_scaled(k->alpha, d->u[j]) / k->scaled_xmin;
    const double pmf = exp(-k->alpha * d->lnu[j] - k->log_zeta);
    *lo = 1.0 - ge;
    *hi = *lo + pmf;
}

/* Distance terms of unit j: |F(u_j-) - S(u_j-)| and |F(u_j) - S(u_j)|. */
static void ks_unit(ks_ctx *k, size_t j, double lo, double hi)
{
    const double a = fabs(lo - emp(k, j - 1)), b = fabs(hi - emp(k, j));
    if (a > k->D)
        k->D = a;
    if (b > k->D)
        k->D = b;
}

/* Units j0 and j1 (j0 < j1) are evaluated: hi0 = F(u_j0), lo1 = F(u_j1-).
 * Visits the units in between only where they may exceed D. */
static void ks_range(ks_ctx *k, size_t j0, size_t j1, double hi0, double lo1)
{
    if (j1 - j0 < 2 || k->D >= k->cutoff)
        return;
    /* inner units have F in [hi0, lo1] and S in [S(j0), S(j1 - 1)] */
    const double bound = fmax(lo1 - emp(k, j0), emp(k, j1 - 1) - hi0);
    if (bound <= k->D)
        return;
    const size_t mid = j0 + (j1 - j0) / 2;
    double lo, hi;
    fit_cdf(k, mid, &lo, &hi);
    ks_unit(k, mid, lo, hi);
    ks_range(k, j0, mid, hi0, lo);
    ks_range(k, mid, j1, hi, lo1);
}

/* KS distance of the fit (alpha, xmin = u[c]) to the tail; stops early
 * (returning a value >= cutoff) when it reaches cutoff. */
static double ks_distance(const pl_data *d, size_t c, double alpha, double cutoff)
{
    ks_ctx k = {.d = d, .c = c, .alpha = alpha, .cutoff = cutoff};
    k.base = (double)below(d, c);
    k.nt = (double)d->n - k.base;
    if (d->discrete) {
        k.scaled_xmin = nr__hzeta_scaled(alpha, d->u[c]);
        k.log_zeta = nr__hzeta_log(alpha, d->u[c]);
    }
    double lo0, hi0, lo1, hi1;
    fit_cdf(&k, c, &lo0, &hi0);
    ks_unit(&k, c, lo0, hi0);
    if (d->U - 1 > c) {
        fit_cdf(&k, d->U - 1, &lo1, &hi1);
        ks_unit(&k, d->U - 1, lo1, hi1);
        ks_range(&k, c, d->U - 1, hi0, lo1);
    }
    return k.D;
}

/* ---- xmin search ---- */

typedef struct pl_best {
    int found;
    size_t c;
    double alpha, D;
} pl_best;

/* Last unique index whose tail holds >= min_tail values and >= 2 distinct
 * values; returns 0 with *cmax, or -1 when there is none. */
static int last_candidate(const pl_data *d, size_t min_tail, size_t *cmax)
{
    if (d->U < 2 || d->n < min_tail)
        return -1;
    size_t c = d->U - 2;
    while (d->n - below(d, c) < min_tail) {
        if (c == 0)
            return -1;
        c--;
    }
    *cmax = c;
    return 0;
}

/* Unique index holding sorted position pos. */
static size_t unique_at(const pl_data *d, size_t pos)
{
    size_t lo = 0, hi = d->U - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->cum[mid] > pos)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The candidate xmins of d: every unique value up to cmax, or, when there
 * are more than max_cand of them, max_cand at evenly spaced sorted
 * positions (the last one cmax). */
typedef struct pl_candidates {
    size_t cmax;  /* the last candidate (last_candidate) */
    size_t span;  /* sorted positions 0 .. span start candidates */
    size_t steps; /* candidates, duplicates included */
} pl_candidates;

static int candidates_of(const pl_data *d, size_t min_tail, size_t max_cand, pl_candidates *cs)
{
    if (last_candidate(d, min_tail, &cs->cmax) < 0)
        return -1;
    cs->span = below(d, cs->cmax);
    cs->steps = cs->cmax + 1 <= max_cand ? cs->cmax + 1 : max_cand;
    return 0;
}

/* Candidate s of cs (0 <= s < steps): a unique index, ascending in s. */
static size_t candidate_at(const pl_data *d, const pl_candidates *cs, size_t s)
{
    if (cs->steps == cs->cmax + 1)
        return s;
    return s + 1 == cs->steps ? cs->cmax : unique_at(d, (size_t)(((long double)s * cs->span) / (cs->steps - 1)));
}

/* Tries every candidate xmin and keeps the smallest D; ties keep the
 * smaller xmin. */
static pl_best search_xmin(const pl_data *d, size_t min_tail, size_t max_cand)
{
    pl_best best = {.found = 0, .D = INFINITY};
    pl_candidates cs;
    if (candidates_of(d, min_tail, max_cand, &cs) < 0)
        return best;
    size_t prev = (size_t)-1;
    for (size_t s = 0; s < cs.steps; s++) {
        const size_t c = candidate_at(d, &cs, s);
        if (c == prev)
            continue;
        prev = c;
        const double alpha = alpha_mle(d, c);
        if (!isfinite(alpha))
            continue;
        const double D = ks_distance(d, c, alpha, best.D);
        if (D < best.D) {
            best.found = 1;
            best.c = c;
            best.alpha = alpha;
            best.D = D;
        }
    }
    return best;
}

/* Whether candidate c fits d with a KS distance below D. ks_distance with
 * cutoff D stops only once its running maximum reaches D, so a result
 * below D is the candidate's exact distance, as search_xmin computes it. */
static int candidate_beats(const pl_data *d, size_t c, double D)
{
    const double alpha = alpha_mle(d, c);
    return isfinite(alpha) && ks_distance(d, c, alpha, D) < D;
}

/* The step of cs whose candidate lies nearest the sorted position of the
 * first value >= x. */
static size_t step_near(const pl_data *d, const pl_candidates *cs, double x)
{
    size_t lo = 0, hi = d->U - 1; /* first unique value >= x, or the last */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (d->u[mid] >= x)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (cs->steps == cs->cmax + 1)
        return lo < cs->cmax ? lo : cs->cmax;
    const size_t pos = below(d, lo);
    if (pos >= cs->span)
        return cs->steps - 1;
    return (size_t)(((long double)pos * (cs->steps - 1)) / cs->span + 0.5L);
}

/* Whether search_xmin(d, min_tail, max_cand) would find a fit with a KS
 * distance below D, without the search: that holds exactly when some
 * candidate's own distance is below D, and the first such candidate
 * answers. The bootstrap asks this of every synthetic set (only the count
 * of sets fitting no better than the data is kept), and a synthetic set
 * drawn from the fit above xmin mostly fits well there: the candidate
 * nearest xmin is tried first, then the others in ascending order. */
static int some_candidate_beats(const pl_data *d, size_t min_tail, size_t max_cand, double D, double xmin)
{
    pl_candidates cs;
    if (candidates_of(d, min_tail, max_cand, &cs) < 0)
        return 0;
    const size_t first = candidate_at(d, &cs, step_near(d, &cs, xmin));
    if (candidate_beats(d, first, D))
        return 1;
    size_t prev = first;
    for (size_t s = 0; s < cs.steps; s++) {
        const size_t c = candidate_at(d, &cs, s);
        if (c == prev || c == first)
            continue;
        prev = c;
        if (candidate_beats(d, c, D))
            return 1;
    }
    return 0;
}

/* ---- lognormal fitted to the tail, and Vuong's test ---- */

/* The tail in the lognormal's own coordinates (tail_lognormal.h):
 * y = ln x - L >= 0, L = ln xmin (continuous) or ln(xmin - 1/2), the lower
 * edge of xmin's bin (discrete: x stands for (x - 1/2, x + 1/2]). The
 * family reaches the power law at t = 0, so a maximum that lies in that
 * limit (power-law-like data) is found there instead of running off to
 * mu -> -infinity, where the answer would say where the optimiser
 * stopped. Discrete: the fit evaluates every bin thousands of times, so
 * each unique value's count, ya = ln((x - 1/2) / (xmin - 1/2)), width
 * w = ln((x + 1/2) / (x - 1/2)) and ln w are kept. */
typedef struct ln_tail {
    const pl_data *d;
    size_t c;               /* tail starts at unique value c */
    double nt, L;
    double sum_y, sum_y2;   /* continuous: sums of y and y^2 over the tail */
    double mean_ln, sd_ln;  /* of ln x over the tail */
    size_t nbins;           /* discrete: the tail's unique values, and of each */
    double *count, *ya, *w, *log_w; /* its count and bin (one block, at count) */
} ln_tail;

static void ln_tail_free(ln_tail *t)
{
    free(t->count);
}

/* The discrete bins of the tail: 0, or -1 when out of memory. */
static int ln_tail_bins(ln_tail *t)
{
    const pl_data *d = t->d;
    const size_t nb = d->U - t->c;
    if (!(t->count = malloc(4 * nb * sizeof *t->count)))
        return -1;
    t->ya = t->count + nb, t->w = t->ya + nb, t->log_w = t->w + nb;
    const double lo0 = d->u[t->c] - 0.5;
    for (size_t k = 0; k < nb; k++) {
        const size_t j = t->c + k;
        t->count[k] = occurrences(d, j);
        t->ya[k] = log1p((d->u[j] - d->u[t->c]) / lo0);
        t->w[k] = log1p(1 / (d->u[j] - 0.5));
        t->log_w[k] = log(t->w[k]);
    }
    t->nbins = nb;
    return 0;
}

/* The tail of d from unique value c: 0, or -1 when out of memory. */
static int ln_tail_build(ln_tail *t, const pl_data *d, size_t c)
{
    *t = (ln_tail){.d = d, .c = c};
    t->nt = (double)(d->n - below(d, c));
    t->L = d->discrete ? log(d->u[c] - 0.5) : d->lnu[c];
    long double s = 0, ss = 0, sy2 = 0;
    for (size_t j = c; j < d->U; j++) {
        const double count = occurrences(d, j), y = d->lnu[j] - t->L;
        s += count * d->lnu[j];
        sy2 += count * (long double)y * y;
    }
    t->mean_ln = (double)(s / t->nt);
    t->sum_y = (double)(s - (long double)t->nt * t->L);
    t->sum_y2 = (double)sy2;
    for (size_t j = c; j < d->U; j++) {
        const double count = occurrences(d, j), dv = d->lnu[j] - t->mean_ln;
        ss += count * dv * dv;
    }
    t->sd_ln = sqrt((double)(ss / t->nt));
    return d->discrete ? ln_tail_bins(t) : 0;
}

/* ln of the fitted lognormal's probability (discrete) or density
 * (continuous) of unique value j of the tail. */
static double ln_logp(const ln_tail *t, const nr_tail_ln *q, size_t j)
{
    if (!t->d->discrete)
        return nr__tail_ln_density(q, t->d->lnu[j] - t->L);
    const size_t k = j - t->c;
    return nr__tail_ln_bin(q, t->ya[k], t->w[k], t->log_w[k]);
}

/* Negative log-likelihood of v = (beta, t). */
static double ln_negll(const gsl_vector *v, void *p)
{
    const ln_tail *t = p;
    nr_tail_ln q;
    if (nr__tail_ln_set(&q, gsl_vector_get(v, 0), gsl_vector_get(v, 1)) < 0)
        return INFINITY;
    double nll = 0;
    if (!t->d->discrete) {
        nll = t->nt * q.log_norm + q.beta * t->sum_y + q.t2 * t->sum_y2;
    } else {
        for (size_t k = 0; k < t->nbins; k++)
            nll -= t->count[k] * nr__tail_ln_bin(&q, t->ya[k], t->w[k], t->log_w[k]);
    }
    return isfinite(nll) ? nll : INFINITY;
}

/* Iterations of Nelder-Mead over which a minimum that fell by less than
 * STALL_REL of itself has converged: the simplex is then within the
 * rounding of the likelihood, where a tighter size only moves it by noise
 * (a discrete fit's simplex stops shrinking about 1e-8 wide, and ran to
 * the 5000-iteration cap). */
enum { STALL_ITERATIONS = 64 };
static const double STALL_REL = 1e-14;

/* Nelder-Mead (GSL nmsimplex2) from one start, restarted once at its own
 * optimum; each run ends when the simplex is 1e-10 wide or its minimum has
 * stalled. Returns the minimum and leaves the point in x. */
static double ln_minimise(ln_tail *t, gsl_multimin_fminimizer *m, gsl_vector *x, gsl_vector *step)
{
    gsl_multimin_function F = {.f = ln_negll, .n = 2, .params = t};
    double best = INFINITY;
    for (int round = 0; round < 2; round++) {
        if (gsl_multimin_fminimizer_set(m, &F, x, step) != GSL_SUCCESS)
            return INFINITY;
        double mark = INFINITY; /* the minimum STALL_ITERATIONS ago (set does not evaluate it) */
        for (int it = 1; it <= 5000; it++) {
            if (gsl_multimin_fminimizer_iterate(m) != GSL_SUCCESS)
                break;
            if (gsl_multimin_test_size(gsl_multimin_fminimizer_size(m), 1e-10) == GSL_SUCCESS)
                break;
            if (it % STALL_ITERATIONS == 0) {
                const double now = gsl_multimin_fminimizer_minimum(m);
                if (mark - now <= STALL_REL * fabs(now))
                    break;
                mark = now;
            }
        }
        gsl_vector_memcpy(x, gsl_multimin_fminimizer_x(m));
        best = gsl_multimin_fminimizer_minimum(m);
    }
    return best;
}

/* Maximum-likelihood (beta, t) of the truncated lognormal, the better of
 * two starts: the moments of ln x, and the power law itself. Returns 0
 * with par[2], or -1. */
static int ln_fit(ln_tail *t, double alpha, double par[2])
{
    gsl_multimin_fminimizer *m = gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, 2);
    gsl_vector *x = gsl_vector_alloc(2), *step = gsl_vector_alloc(2);
    int rc = -1;
    if (!m || !x || !step)
        goto out;
    const double sd = t->sd_ln > 1e-3 ? t->sd_ln : 1e-3;
    const double starts[2][2] = {{(t->L - t->mean_ln) / (sd * sd), 1.0 / (M_SQRT2 * sd)}, {alpha - 1.0, 0.01 / sd}};
    const double steps[2][2] = {{1.0 / sd, 0.5 / (M_SQRT2 * sd)}, {0.1 * (alpha - 1.0), 0.1 / sd}};
    double best = INFINITY;
    for (int s = 0; s < 2; s++) {
        gsl_vector_set(x, 0, starts[s][0]);
        gsl_vector_set(x, 1, starts[s][1]);
        gsl_vector_set(step, 0, steps[s][0]);
        gsl_vector_set(step, 1, steps[s][1]);
        const double f = ln_minimise(t, m, x, step);
        if (f < best) {
            best = f;
            par[0] = gsl_vector_get(x, 0);
            par[1] = gsl_vector_get(x, 1);
        }
    }
    rc = isfinite(best) ? 0 : -1;
out:
    gsl_multimin_fminimizer_free(m);
    gsl_vector_free(x);
    gsl_vector_free(step);
    return rc;
}

/* Pointwise log ratios smaller than this everywhere mean the fitted
 * lognormal has become the power law itself (its limit t = 0): no
 * preference, R = 0, p = 1. */
static const double VUONG_SAME_MODEL = 1e-3;

/* R and p of Vuong's test from the pointwise log ratios of the power law
 * (alpha) to the fitted lognormal q over the tail. */
static void vuong_ratio(const ln_tail *t, double alpha, const nr_tail_ln *q, double *R, double *p)
{
    const pl_data *d = t->d;
    const double log_zeta = d->discrete ? nr__hzeta_log(alpha, d->u[t->c]) : 0;
    long double sum = 0, sum2 = 0;
    double most = 0;
    for (size_t j = t->c; j < d->U; j++) {
        const double count = occurrences(d, j);
        const double log_pl = d->discrete ? -alpha * d->lnu[j] - log_zeta
                                          : log(alpha - 1) - (alpha - 1) * (d->lnu[j] - t->L);
        const double l = log_pl - ln_logp(t, q, j);
        if (!isfinite(l))
            return; /* R and p stay NAN (fmax below would pass a NAN by) */
        sum += count * l;
        sum2 += count * (long double)l * l;
        most = fmax(most, fabs(l));
    }
    const long double mean = sum / t->nt;
    const double var = (double)(sum2 / t->nt - mean * mean);
    if (most < VUONG_SAME_MODEL || !(var > 0)) {
        *R = 0, *p = 1;
        return;
    }
    *R = (double)sum / (sqrt(t->nt) * sqrt(var));
    *p = gsl_sf_erfc(fabs(*R) / M_SQRT2);
}

/* Vuong's test of the power law (alpha, xmin = u[c]) against the truncated
 * lognormal MLE on the same tail (CSN section 5.1, eq. 5.3 - 5.4): R = sum of
 * pointwise log ratios over sqrt(n) times their standard deviation;
 * p = erfc(|R| / sqrt 2); NAN when the lognormal cannot be fitted.
 * Returns 0, or -1 when out of memory. */
static int vuong_vs_lognormal(const pl_data *d, size_t c, double alpha, double *R, double *p)
{
    *R = NAN, *p = NAN;
    ln_tail t;
    if (ln_tail_build(&t, d, c) < 0)
        return -1;
    double par[2];
    nr_tail_ln q;
    if (ln_fit(&t, alpha, par) == 0 && nr__tail_ln_set(&q, par[0], par[1]) == 0)
        vuong_ratio(&t, alpha, &q, R, p);
    ln_tail_free(&t);
    return 0;
}

/* ---- semi-parametric bootstrap (CSN section 4.1) ---- */

/* Exact sampler of the discrete power law: a table of P(X >= x) for the
 * first DISCRETE_TABLE values, then the CSN continuous approximation
 * (appendix D, eq. D.6) corrected to the exact value with Hurwitz zeta. */
typedef struct disc_sampler {
    double alpha, xmin, log_xmin, log_zeta, scaled_xmin;
    double ccdf[DISCRETE_TABLE]; /* ccdf[k] = P(X >= xmin + k) */
    double ln_x[DISCRETE_TABLE]; /* ln(xmin + k) */
    uint16_t guide[DISCRETE_GUIDE]; /* the largest k with ccdf[k] >= (b + 1) / DISCRETE_GUIDE */
} disc_sampler;

static void disc_sampler_init(disc_sampler *s, double alpha, double xmin)
{
    s->alpha = alpha, s->xmin = xmin;
    s->log_xmin = log(xmin);
    s->log_zeta = nr__hzeta_log(alpha, xmin);
    s->scaled_xmin = nr__hzeta_scaled(alpha, xmin);
    for (int k = 0; k < DISCRETE_TABLE; k++)
        s->ln_x[k] = log(xmin + (double)k); /* xmin is a whole number: each sum is exact */
    s->ccdf[0] = 1.0;
    for (int k = 1; k < DISCRETE_TABLE; k++) /* exact recurrence zeta(a, x+1) = zeta(a, x) - x^-a */
        s->ccdf[k] = s->ccdf[k - 1] - exp(-alpha * s->ln_x[k - 1] - s->log_zeta);
    int k = DISCRETE_TABLE - 1; /* the thresholds rise with b, so k only falls; ccdf[0] = 1 stops it */
    for (int b = 0; b < DISCRETE_GUIDE; b++) {
        while (s->ccdf[k] < (double)(b + 1) / DISCRETE_GUIDE)
            k--;
        s->guide[b] = (uint16_t)k;
    }
}

static double disc_ccdf(const disc_sampler *s, double x)
{
    if (x - s->xmin < DISCRETE_TABLE)
        return s->ccdf[(int)(x - s->xmin)];
    return exp((1.0 - s->alpha) * (log(x) - s->log_xmin)) * nr__hzeta_scaled(s->alpha, x) / s->scaled_xmin;
}

/* The draw for v in (0, 1], the x with P(X >= x + 1) < v <= P(X >= x),
 * when it lies in the table: its k (x = xmin + k), else -1. */
static int disc_table_draw(const disc_sampler *s, double v)
{
    if (!(v > s->ccdf[DISCRETE_TABLE - 1]))
        return -1;
    /* The largest k with ccdf[k] >= v, from v's bucket up: the guide's
     * k has ccdf[k] >= (b + 1) / DISCRETE_GUIDE >= v, so it is no larger,
     * and about one step short on average. A binary search's ten
     * unpredictable branches were 75% of boot_worker's samples, 9% of a
     * cold build's, under the draws' lock. ccdf[DISCRETE_TABLE - 1] < v
     * ends the walk. */
    int k = s->guide[(int)ceil(v * DISCRETE_GUIDE) - 1];
    while (s->ccdf[k + 1] >= v)
        k++;
    return k;
}

/* The draw for v beyond the table (v <= ccdf[DISCRETE_TABLE - 1]). */
static double disc_tail_draw(const disc_sampler *s, double v)
{
    double x = floor((s->xmin - 0.5) * pow(v, -1.0 / (s->alpha - 1.0)) + 0.5);
    const double first = s->xmin + DISCRETE_TABLE - 1;
    if (x < first)
        x = first;
    if (x > 1e15) /* beyond exact integers in double: the approximation is exact enough */
        return x;
    /* The approximation can be off by millions for alpha near 1, so bracket the
     * answer by doubling steps, then bisect: lo has ccdf >= v, hi has ccdf < v.
     * ccdf(first) >= v holds here (v <= ccdf[DISCRETE_TABLE - 1]). */
    double lo = x, hi = x + 1;
    if (disc_ccdf(s, x) >= v) {
        for (double step = 1; disc_ccdf(s, hi) >= v; step *= 2) {
            lo = hi;
            hi = x + 2 * step;
            if (hi > 1e15)
                return hi;
        }
    } else {
        hi = x;
        lo = x - 1;
        for (double step = 1; lo > first && disc_ccdf(s, lo) < v; step *= 2) {
            hi = lo;
            lo = x - 2 * step < first ? first : x - 2 * step;
        }
    }
    while (hi - lo > 1) {
        const double mid = floor((lo + hi) / 2);
        if (disc_ccdf(s, mid) >= v)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* For tests: the table's draws against a binary search for the
 * largest k with ccdf[k] >= v, at every entry's value and its neighbours
 * and at every bucket's edge and its neighbours. Returns the mismatches. */
size_t nr__powerlaw_disc_table_mismatches(double alpha, double xmin)
{
    disc_sampler *s = malloc(sizeof *s);
    if (!s)
        return SIZE_MAX;
    disc_sampler_init(s, alpha, xmin);
    size_t bad = 0;
    for (int k = 0; k < DISCRETE_TABLE + DISCRETE_GUIDE; k++) {
        const double at = k < DISCRETE_TABLE ? s->ccdf[k] : (double)(k - DISCRETE_TABLE + 1) / DISCRETE_GUIDE;
        const double vs[3] = {at, nextafter(at, 0), nextafter(at, 2)};
        for (int i = 0; i < 3; i++) {
            const double v = vs[i];
            if (!(v > s->ccdf[DISCRETE_TABLE - 1] && v <= 1))
                continue;
            int lo = 0, hi = DISCRETE_TABLE - 1;
            while (hi - lo > 1) {
                const int mid = (lo + hi) / 2;
                *(s->ccdf[mid] >= v ? &lo : &hi) = mid;
            }
            bad += disc_table_draw(s, v) != lo;
        }
    }
    free(s);
    return bad;
}

/* One synthetic set, from its draws to its unique-value view (pl_data).
 * A discrete set is drawn as codes: a value below xmin by its index in
 * the data's sorted values (i < nbelow), one of the sampler's table by
 * nbelow + k; the codes are then counted, and only the draws beyond the
 * table are sorted. The view is filled from the counts, with the logs
 * the data and the sampler already hold: sorting whole sets was 7% of a
 * cold build, and expanding the counts into sorted values and reading
 * them back into the view 10% of a large store's summary. It is the view
 * of the same multiset, so the same values, counts and logs. */
typedef struct synth_set {
    double *values;  /* n: the raw draws (synth_draw), then the values; discrete: the draws
                        beyond the table, sorted by synth_view */
    size_t *codes;   /* discrete: n codes, SYNTH_BEYOND for a draw beyond the table */
    size_t *counts;  /* discrete: one per code */
    size_t nbeyond;
    pl_data view;    /* arrays for n values, reused for every set */
} synth_set;

#define SYNTH_BEYOND SIZE_MAX

static void synth_set_free(synth_set *s)
{
    free(s->values);
    free(s->codes);
    free(s->counts);
    pl_data_free(&s->view);
}

/* 0, or -1 when out of memory (s freed). */
static int synth_set_alloc(synth_set *s, const pl_data *d, size_t c)
{
    *s = (synth_set){.values = malloc(d->n * sizeof *s->values)};
    if (d->discrete) {
        s->codes = malloc(d->n * sizeof *s->codes);
        s->counts = malloc((below(d, c) + DISCRETE_TABLE) * sizeof *s->counts);
    }
    if (pl_data_alloc(&s->view, d->n) < 0 || !s->values || (d->discrete && (!s->codes || !s->counts))) {
        synth_set_free(s);
        return -1;
    }
    return 0;
}

/* Draws one synthetic data set of n values into s (CSN section 4.1): with
 * probability n_tail / n from the fitted power law, otherwise uniformly from
 * the observed values below xmin. Only the RNG's calls are made here, in
 * the stream's one order (under the bootstrap's lock): values[i] is the
 * uniform v in (0, 1] of a draw from the law, or -(j + 1) for the j-th
 * value below xmin. synth_values makes them values (the law's inverse,
 * the discrete table and the draws beyond it) on the drawing thread, so
 * that the threads of a single store's summary do that beside each
 * other. */
static void synth_draw(const pl_data *d, size_t c, nr__mt19937 *rng, synth_set *s)
{
    const size_t nbelow = below(d, c); /* < 2^32: vuong_and_bootstrap */
    const double p_tail = (double)(d->n - nbelow) / (double)d->n;
    for (size_t i = 0; i < d->n; i++) {
        if (nbelow == 0 || nr__mt_uniform(rng) < p_tail)
            s->values[i] = 1.0 - nr__mt_uniform(rng);
        else
            s->values[i] = -1.0 - (double)nr__mt_uniform_int(rng, (uint32_t)nbelow); /* exact: j < 2^53 */
    }
}

/* The values (continuous) or codes (discrete) of synth_draw's draws, in
 * place: a draw beyond the table goes to values[nbeyond], which is never
 * past the draw being read. */
static void synth_values(const pl_data *d, size_t c, double alpha, const disc_sampler *ds, synth_set *s)
{
    const size_t nbelow = below(d, c);
    const double xmin = d->u[c];
    s->nbeyond = 0;
    for (size_t i = 0; i < d->n; i++) {
        const double v = s->values[i];
        if (v < 0) {
            const size_t j = (size_t)(-1.0 - v);
            if (d->discrete)
                s->codes[i] = j;
            else
                s->values[i] = d->sorted[j];
        } else if (!d->discrete) {
            s->values[i] = xmin * pow(v, -1.0 / (alpha - 1.0));
        } else {
            const int k = disc_table_draw(ds, v);
            s->codes[i] = k >= 0 ? nbelow + (size_t)k : SYNTH_BEYOND;
            if (k < 0)
                s->values[s->nbeyond++] = disc_tail_draw(ds, v);
        }
    }
}

/* Appends count values x (ln x = lnx), above every value so far, to the
 * view being filled. */
static inline void view_append(pl_data *v, double x, double lnx, size_t count)
{
    v->u[v->U] = x;
    v->lnu[v->U] = lnx;
    v->cum[v->U] = (v->U ? v->cum[v->U - 1] : 0) + count;
    v->U++;
}

/* The unique-value view of s in s->view (continuous: s's values
 * sorted), as pl_data_build would make it of the set's sorted values:
 * 0, or -1 when out of memory. */
static int synth_view(const pl_data *d, size_t c, const disc_sampler *ds, synth_set *s)
{
    pl_data *v = &s->view;
    if (!d->discrete) {
        if (nr__sort_f64(s->values, d->n) < 0)
            return -1;
        pl_data_fill(v, s->values, d->n, 0);
        return 0;
    }
    if (nr__sort_f64(s->values, s->nbeyond) < 0)
        return -1;
    const size_t nbelow = below(d, c), ncodes = nbelow + DISCRETE_TABLE;
    memset(s->counts, 0, ncodes * sizeof *s->counts);
    for (size_t i = 0; i < d->n; i++)
        if (s->codes[i] != SYNTH_BEYOND)
            s->counts[s->codes[i]]++;
    v->discrete = 1;
    v->n = d->n;
    v->sorted = NULL; /* the search reads the view only */
    v->U = 0;
    for (size_t j = 0, pos = 0; j < c; j++) { /* the data's unique value j: positions below cum[j] */
        size_t count = 0;
        for (; pos < d->cum[j]; pos++)
            count += s->counts[pos];
        if (count)
            view_append(v, d->u[j], d->lnu[j], count);
    }
    for (size_t k = 0; k < DISCRETE_TABLE; k++)
        if (s->counts[nbelow + k])
            view_append(v, ds->xmin + (double)k, ds->ln_x[k], s->counts[nbelow + k]);
    for (size_t i = 0; i < s->nbeyond; i++) { /* sorted; the first may be the table's last value */
        const double x = s->values[i];
        if (v->U && v->u[v->U - 1] == x)
            v->cum[v->U - 1]++;
        else
            view_append(v, x, log(x), 1);
    }
    pl_data_sum_logs(v);
    return 0;
}

/* Tests: the bootstrap runs the whole xmin search of each synthetic set,
 * as before some_candidate_beats (the p-values must not differ). */
static int boot_full_search;

void nr__powerlaw_boot_full_search(int on) { boot_full_search = on; }

/* The bootstrap's shared state. Sample b is drawn from the one RNG
 * stream in the order b = 0, 1, 2, ... (under `lock`), so it holds the
 * same values whatever the thread count; the rest of its work (sort,
 * xmin search) runs on the thread that drew it, and the count of fits
 * no better than the data does not depend on the order they end in. */
typedef struct boot_pool {
    const pl_data *d;
    const pl_best *fit;
    size_t min_tail;
    int bootstraps;
    const disc_sampler *ds;
    nr__mt19937 *rng;
    pthread_mutex_t lock;
    int next;          /* the next sample to draw */
    int at_least;      /* samples whose best fit has D >= the data's */
    int out_of_memory; /* a thread could not allocate: the pool stops */
    int vuong_pending; /* vuong_vs_lognormal not yet started by a thread */
    double *R, *R_p;   /* its results */
} boot_pool;

/* Whether the synthetic set fits no better than the data: 1 or 0,
 * or -1 when out of memory. */
static int boot_no_better(const boot_pool *bp, synth_set *set)
{
    synth_values(bp->d, bp->fit->c, bp->fit->alpha, bp->ds, set);
    if (synth_view(bp->d, bp->fit->c, bp->ds, set) < 0)
        return -1;
    const pl_data *sd = &set->view;
    if (boot_full_search) {
        const pl_best sb = search_xmin(sd, bp->min_tail, MAX_BOOT_CANDIDATES);
        return !sb.found || sb.D >= bp->fit->D; /* an unfittable synthetic set fits no better than the data */
    }
    return !some_candidate_beats(sd, bp->min_tail, MAX_BOOT_CANDIDATES, bp->fit->D, bp->d->u[bp->fit->c]);
}

/* Draws the next sample into set: 1, or 0 when none is left. */
static int boot_draw(boot_pool *bp, synth_set *set)
{
    pthread_mutex_lock(&bp->lock);
    const int more = bp->next < bp->bootstraps && !bp->out_of_memory;
    if (more) {
        bp->next++;
        synth_draw(bp->d, bp->fit->c, bp->rng, set);
    }
    pthread_mutex_unlock(&bp->lock);
    return more;
}

static void boot_count(boot_pool *bp, int r)
{
    pthread_mutex_lock(&bp->lock);
    if (r < 0)
        bp->out_of_memory = 1;
    else
        bp->at_least += r;
    pthread_mutex_unlock(&bp->lock);
}

/* One thread of the pool: the lognormal comparison when no thread has
 * taken it yet (it is as long as a few dozen samples), then samples until
 * none is left. */
static void *boot_worker(void *arg)
{
    boot_pool *bp = arg;
    pthread_mutex_lock(&bp->lock);
    const int vuong = bp->vuong_pending;
    bp->vuong_pending = 0;
    pthread_mutex_unlock(&bp->lock);
    if (vuong && vuong_vs_lognormal(bp->d, bp->fit->c, bp->fit->alpha, bp->R, bp->R_p) < 0)
        boot_count(bp, -1);
    if (bp->bootstraps <= 0)
        return NULL;
    synth_set set;
    if (synth_set_alloc(&set, bp->d, bp->fit->c) < 0) {
        boot_count(bp, -1);
        return NULL;
    }
    while (boot_draw(bp, &set))
        boot_count(bp, boot_no_better(bp, &set));
    synth_set_free(&set);
    return NULL;
}

/* The lognormal comparison (R, R_p) and the fraction of bootstrap data
 * sets whose own best fit has D >= D_data (p), on up to `threads` threads,
 * the caller's among them; the results do not depend on their number. */
static int vuong_and_bootstrap(const pl_data *d, const pl_best *fit, size_t min_tail, int bootstraps, uint64_t seed,
                               int threads, double *R, double *R_p, double *p, nr_error *err)
{
    enum { MAX_THREADS = 64 };
    boot_pool bp = {.d = d, .fit = fit, .min_tail = min_tail, .bootstraps = bootstraps,
                    .vuong_pending = 1, .R = R, .R_p = R_p};
    const int discrete = d->discrete && bootstraps > 0;
    if (bootstraps > 0 && below(d, fit->c) > UINT32_MAX) /* the draws' uniform_int */
        return nr_error_set(err, NR_E_INPUT, "power-law fit: more than 2^32 values below xmin");
    disc_sampler *ds = discrete ? malloc(sizeof *ds) : NULL;
    bp.rng = bootstraps > 0 ? malloc(sizeof *bp.rng) : NULL;
    if (bootstraps > 0 && (!bp.rng || (discrete && !ds))) {
        free(ds);
        free(bp.rng);
        return nr_error_set(err, NR_E_NOMEM, "power-law fit: out of memory for the bootstrap");
    }
    if (bp.rng)
        nr__mt_seed(bp.rng, seed); /* gsl_rng_mt19937's stream (mt19937.h) */
    if (ds)
        disc_sampler_init(ds, fit->alpha, d->u[fit->c]);
    bp.ds = ds;
    pthread_mutex_init(&bp.lock, NULL);
    pthread_t helper[MAX_THREADS];
    int started = 0;
    threads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
    /* a helper that cannot start leaves its share to the others */
    for (int t = 1; t < threads && t <= bootstraps; t++)
        if (pthread_create(&helper[started], NULL, boot_worker, &bp) == 0)
            started++;
    boot_worker(&bp);
    for (int t = 0; t < started; t++)
        pthread_join(helper[t], NULL);
    pthread_mutex_destroy(&bp.lock);
    free(ds);
    free(bp.rng);
    if (bp.out_of_memory)
        return nr_error_set(err, NR_E_NOMEM, "power-law fit: out of memory for the lognormal fit or the bootstrap");
    if (bootstraps > 0)
        *p = (double)bp.at_least / bootstraps;
    return 0;
}

/* ---- public entry points ---- */

static void invalid_fit(nr_powerlaw_fit *out, size_t n)
{
    out->valid = 0;
    out->alpha = out->alpha_se = out->xmin = NAN;
    out->n_tail = 0;
    out->n = n;
    out->ks_d = out->p_value = out->vs_lognormal_R = out->vs_lognormal_p = NAN;
}

/* Copies the positive values of x, checking them. */
static int positive_copy(const double *x, size_t n, int discrete, double **out, size_t *kept, nr_error *err)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (v == NULL)
        return nr_error_set(err, NR_E_NOMEM, "power-law fit: out of memory copying %zu values", n);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i]) || (discrete && x[i] != floor(x[i]))) {
            free(v);
            return nr_error_set(err, NR_E_INPUT, "power-law fit: value %zu (%g) is not %s", i, x[i],
                                discrete ? "a finite integer" : "finite");
        }
        if (x[i] > 0)
            v[k++] = x[i];
    }
    *out = v;
    *kept = k;
    return 0;
}

int nr_powerlaw_fit_compute(const double *x, size_t n, const nr_powerlaw_opts *opts,
                            nr_powerlaw_fit *out, nr_error *err)
{
    const nr_powerlaw_opts defaults = {.discrete = 0, .bootstraps = 0, .seed = 1, .min_tail = 10};
    if (opts == NULL)
        opts = &defaults;
    const size_t min_tail = opts->min_tail ? opts->min_tail : 10;
    gsl_set_error_handler_off(); /* GSL reports by status (underflows of zeta), never aborts */
    invalid_fit(out, 0);
    double *v;
    size_t kept;
    NR_TRY(positive_copy(x, n, opts->discrete != 0, &v, &kept, err));
    invalid_fit(out, kept);
    pl_data d;
    if (nr__sort_f64(v, kept) < 0 || pl_data_build(&d, v, kept, opts->discrete != 0) < 0) {
        free(v);
        return nr_error_set(err, NR_E_NOMEM, "power-law fit: out of memory for %zu values", kept);
    }
    int rc = 0;
    const pl_best best = search_xmin(&d, min_tail, MAX_CANDIDATES);
    if (best.found) {
        out->valid = 1;
        out->alpha = best.alpha;
        out->xmin = d.u[best.c];
        out->n_tail = kept - below(&d, best.c);
        out->alpha_se = (best.alpha - 1.0) / sqrt((double)out->n_tail);
        out->ks_d = best.D;
        rc = vuong_and_bootstrap(&d, &best, min_tail, opts->bootstraps, opts->seed, opts->threads,
                                 &out->vs_lognormal_R, &out->vs_lognormal_p, &out->p_value, err);
    }
    pl_data_free(&d);
    free(v);
    return rc;
}

int nr_ccdf_points(const double *x, size_t n, size_t max_points, double *xs, double *ps, size_t *npoints)
{
    *npoints = 0;
    if (max_points < 2)
        return NR_E_USAGE;
    double *v;
    size_t kept;
    NR_TRY(positive_copy(x, n, 0, &v, &kept, NULL));
    pl_data d;
    if (nr__sort_f64(v, kept) < 0 || pl_data_build(&d, v, kept, 0) < 0) {
        free(v);
        return NR_E_NOMEM;
    }
    size_t m = 0;
    if (d.U <= max_points) {
        for (size_t j = 0; j < d.U; j++, m++) {
            xs[m] = d.u[j];
            ps[m] = (double)(d.n - below(&d, j)) / (double)d.n;
        }
    } else { /* first unique value at or above each of max_points log-spaced targets */
        const double l0 = d.lnu[0], l1 = d.lnu[d.U - 1];
        size_t j = 0;
        for (size_t k = 0; k < max_points; k++) {
            const double target = k + 1 == max_points ? l1 : l0 + (l1 - l0) * (double)k / (double)(max_points - 1);
            while (j < d.U - 1 && d.lnu[j] < target)
                j++;
            if (m > 0 && xs[m - 1] == d.u[j])
                continue;
            xs[m] = d.u[j];
            ps[m] = (double)(d.n - below(&d, j)) / (double)d.n;
            m++;
        }
    }
    *npoints = m;
    pl_data_free(&d);
    free(v);
    return 0;
}

double nr_powerlaw_ccdf(const nr_powerlaw_fit *fit, int discrete, double x)
{
    if (!fit->valid || !(x >= fit->xmin) || fit->n == 0)
        return NAN;
    const double scale = (double)fit->n_tail / (double)fit->n;
    if (!discrete)
        return scale * pow(x / fit->xmin, 1.0 - fit->alpha);
    gsl_set_error_handler_off();
    const double xc = ceil(x);
    return scale * exp((1.0 - fit->alpha) * log(xc / fit->xmin)) * nr__hzeta_scaled(fit->alpha, xc) /
           nr__hzeta_scaled(fit->alpha, fit->xmin);
}
