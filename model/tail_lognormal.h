/* tail_lognormal: the lognormal truncated to a power law's tail, in the tail
 * coordinates that contain the power law as a limit, for Vuong's test
 * (powerlaw.c; docs/statistics.md).
 *
 * In y = ln x - L >= 0 the lognormal of x truncated at e^L is a normal
 * truncated to y >= 0, with density exp(-beta y - t^2 y^2) / Z(beta, t):
 * sigma = 1 / (sqrt 2 |t|), mu = L - beta sigma^2. At t = 0 it is the
 * exponential beta e^(-beta y), the continuous power law of exponent
 * beta + 1, so a fit whose best lognormal is a power law ends at t = 0
 * instead of running off to mu -> -infinity.
 * Internal to model/ (prefix nr__). */
#ifndef NR_TAIL_LOGNORMAL_H
#define NR_TAIL_LOGNORMAL_H

/* One (beta, t), with what every bin's probability reads. */
typedef struct nr_tail_ln {
    double beta, t2;        /* t2 = t^2 */
    double s;               /* 1 / sigma = sqrt 2 |t|; 0 at the power-law limit */
    double z0;              /* the standard normal's z at y = 0 (s > 0) */
    double log_norm;        /* ln Z(beta, t) */
    double log_q0, log_h0;  /* ln Q(z0), ln of the hazard phi(z0) / Q(z0) (s > 0) */
} nr_tail_ln;

/* Sets p to (beta, t). Returns 0, or -1 when there is no such distribution
 * (t = 0 with beta <= 0, or a value that is not finite). */
int nr__tail_ln_set(nr_tail_ln *p, double beta, double t);

/* ln of the density at y >= 0. */
static inline double nr__tail_ln_density(const nr_tail_ln *p, double y)
{
    return -p->beta * y - p->t2 * y * y - p->log_norm;
}

/* ln P(ya < y <= ya + w), ya >= 0, w > 0: a discrete value's bin (ln of
 * (x - 1/2, x + 1/2] in the tail coordinates). log_w = ln w. Free of the
 * cancellation of a difference of two normal tails: narrow bins by the
 * series of the normal's integral about the bin's middle, wide ones by
 * hazard functions. */
double nr__tail_ln_bin(const nr_tail_ln *p, double ya, double w, double log_w);

#endif
