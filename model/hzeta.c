/* hzeta: Hurwitz zeta with an asymptotic fast path.
 *
 * For q >= 1000 the Euler-Maclaurin expansion with no explicit terms,
 *   zeta(s, q) = q^(1-s)/(s-1) + q^-s/2 + sum_k B_2k/(2k)! (s)_(2k-1) q^(-s-2k+1),
 * truncated after B_6 (the first omitted term is below 1e-17 relative for
 * s <= 50), costs one pow where gsl_sf_hzeta costs about ten: the discrete
 * power-law fit of byte counts evaluates it for every unique value. */
#include "hzeta.h"

#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_zeta.h>

static const double ASYMPTOTIC_FROM = 1000.0;

double nr__hzeta_scaled(double s, double q)
{
    if (q < ASYMPTOTIC_FROM) {
        gsl_sf_result r;
        if (gsl_sf_hzeta_e(s, q, &r) != GSL_SUCCESS)
            return NAN;
        return r.val * pow(q, s - 1.0);
    }
    const double inv = 1.0 / q, inv2 = inv * inv;
    /* multiply every term by q^(s-1): q^(1-s) -> 1, q^(-s-2k+1) -> q^-2k, q^-s -> 1/q */
    const double t1 = s / 12.0 * inv2;                                       /* B2/2! (s)_1 */
    const double t2 = -s * (s + 1) * (s + 2) / 720.0 * inv2 * inv2;          /* B4/4! (s)_3 */
    const double t3 = s * (s + 1) * (s + 2) * (s + 3) * (s + 4) / 30240.0 * inv2 * inv2 * inv2; /* B6/6! (s)_5 */
    return 1.0 / (s - 1.0) + 0.5 * inv + t1 + t2 + t3;
}

double nr__hzeta_log(double s, double q)
{
    return (1.0 - s) * log(q) + log(nr__hzeta_scaled(s, q));
}
