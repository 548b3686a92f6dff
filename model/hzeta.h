/* hzeta: the Hurwitz zeta function zeta(s, q) = sum_{k>=0} (q + k)^-s for the
 * discrete power law, in scaled form so that large q and s never underflow.
 * Internal to model/ (prefix nr__). */
#ifndef NR_HZETA_H
#define NR_HZETA_H

/* zeta(s, q) * q^(s-1), for s > 1, q >= 1: tends to 1/(s-1) as q grows.
 * GSL's gsl_sf_hzeta below q = 1000; above, the Euler-Maclaurin asymptotic
 * series (4 terms; relative error below 1e-15 there, checked against GSL in
 * tests/model_stats/test_powerlaw.c). */
double nr__hzeta_scaled(double s, double q);

/* ln zeta(s, q). */
double nr__hzeta_log(double s, double q);

#endif
