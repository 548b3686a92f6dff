/* tail_lognormal: see tail_lognormal.h; the formulas are in
 * docs/statistics.md, "Vuong's likelihood-ratio test". */
#include "tail_lognormal.h"

#include <math.h>

#include <gsl/gsl_sf_erf.h>

/* Bins with h (|m| + 1) at most this, h the half width and m the middle in
 * the standard normal's z, take the series: its first omitted term (He_10)
 * is below 1e-16 of the bin's mass there. Wider bins take the hazard form;
 * the known answers either side of the threshold are met within 1e-14 of
 * |ln P| (test_tail_lognormal). */
static const double NARROW = 0.05;

/* ln Q(z), Q(z) = P(Z > z), accurate for large z. */
static double log_upper_normal(double z)
{
    return log(0.5) + gsl_sf_log_erfc(z / M_SQRT2);
}

/* ln of the hazard phi(z) / Q(z), for any z (GSL's underflows below -38). */
static double log_hazard(double z)
{
    if (z >= 0)
        return log(gsl_sf_hazard(z));
    return -0.5 * z * z - 0.5 * log(2 * M_PI) - log_upper_normal(z);
}

/* ln(1 - e^d) for d < 0. */
static double log1m_exp(double d)
{
    return d > -M_LN2 ? log(-expm1(d)) : log1p(-exp(d));
}

int nr__tail_ln_set(nr_tail_ln *p, double beta, double t)
{
    if (!isfinite(beta) || !isfinite(t))
        return -1;
    *p = (nr_tail_ln){.beta = beta, .t2 = t * t, .s = M_SQRT2 * fabs(t)};
    p->z0 = p->s > 0 ? beta / p->s : INFINITY;
    if (!isfinite(p->z0) || p->t2 == 0) { /* the power-law limit (or t too small to tell from it) */
        if (!(beta > 0))
            return -1;
        p->s = 0, p->t2 = 0;
        p->log_norm = -log(beta);
        return 0;
    }
    p->log_h0 = log_hazard(p->z0);
    p->log_q0 = log_upper_normal(p->z0);
    p->log_norm = -log(p->s) - p->log_h0;
    return isfinite(p->log_norm) ? 0 : -1;
}

/* ln of (Q(m - h) - Q(m + h)) / (2 h phi(m)) = sum_k He_2k(m) h^2k / (2k+1)!,
 * through He_8, from hm = h m and h: each He_2k(m) h^2k is a polynomial in
 * them, finite at the power-law limit, where m is infinite and hm is not.
 * The sum e is at most about NARROW^2 / 6 in size, so ln(1 + e) to e^5
 * leaves under 1e-20. */
static double log_series(double hm, double h)
{
    const double a = hm * hm, b = h * h;
    const double e = (a - b) / 6 + (a * a - 6 * a * b + 3 * b * b) / 120 +
                     (a * a * a - 15 * a * a * b + 45 * a * b * b - 15 * b * b * b) / 5040 +
                     (a * a * a * a - 28 * a * a * a * b + 210 * a * a * b * b - 420 * a * b * b * b + 105 * b * b * b * b) /
                         362880;
    return e * (1 - e * (1.0 / 2 - e * (1.0 / 3 - e * (1.0 / 4 - e / 5))));
}

/* A wide bin with t != 0, between the normal's a = z(ya) and b = z(ya + w).
 * Tail ratios are taken through hazards, ln Q(z) = ln phi(z) - ln h(z),
 * with the squares' differences (z1^2 - z2^2) / 2 written in y, where they
 * do not cancel. */
static double wide_bin(const nr_tail_ln *p, double ya, double w)
{
    const double a = p->s * ya + p->z0, b = p->s * (ya + w) + p->z0;
    const double half_sq_ab = w * (p->beta + p->t2 * (2 * ya + w)); /* (b^2 - a^2) / 2 */
    if (a >= 0) {
        const double log_ha = log_hazard(a);
        const double rel_a = p->z0 >= 0 ? -ya * (p->beta + p->t2 * ya) - log_ha + p->log_h0
                                        : log_upper_normal(a) - p->log_q0; /* ln Q(a) - ln Q(z0) */
        return rel_a + log1m_exp(-half_sq_ab - log_hazard(b) + log_ha);
    }
    if (b <= 0) /* Q(a) - Q(b) = Q(-b) - Q(-a) */
        return log_upper_normal(-b) + log1m_exp(half_sq_ab - log_hazard(-a) + log_hazard(-b)) - p->log_q0;
    return log1p(-(exp(log_upper_normal(b)) + exp(log_upper_normal(-a)))) - p->log_q0;
}

double nr__tail_ln_bin(const nr_tail_ln *p, double ya, double w, double log_w)
{
    const double ym = ya + 0.5 * w;
    const double hm = w * (p->t2 * ym + 0.5 * p->beta), h = 0.5 * p->s * w;
    if (fabs(hm) + h <= NARROW)
        return log_w + nr__tail_ln_density(p, ym) + log_series(hm, h);
    if (p->s == 0)
        return -p->beta * ya + log1m_exp(-p->beta * w);
    return wide_bin(p, ya, w);
}
