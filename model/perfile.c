/* Per-file distributions: concentration (Gini, top shares, files for p of
 * bytes), Lorenz points, and power-law fits with CCDF points on per-file
 * bytes and per-file access counts. Only files that transferred bytes enter
 * (a file that was only opened or stat'ed carries no share). */
#include <stdlib.h>

#include "model_internal.h"

#define LORENZ_POINTS 256
#define CCDF_POINTS 256

/* Copies the positive values of v[0..n) into a new array; *k = their count. */
static double *positive(const double *v, size_t n, size_t *k)
{
    double *out = malloc((n + 1) * sizeof *out);
    *k = 0;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (v[i] > 0)
            out[(*k)++] = v[i];
    return out;
}

static int concentration_of(nr_model *m, int which, const double *v)
{
    size_t k;
    double *pos = positive(v, m->nreg, &k);
    m->lorenz_x[which] = malloc(LORENZ_POINTS * sizeof(double));
    m->lorenz_y[which] = malloc(LORENZ_POINTS * sizeof(double));
    int rc = !pos || !m->lorenz_x[which] || !m->lorenz_y[which] ? NR_E_NOMEM : 0;
    if (rc == 0)
        rc = nr_concentration_compute(pos, k, &m->conc[which]);
    if (rc == 0 && k > 0)
        rc = nr_lorenz_points(pos, k, LORENZ_POINTS, m->lorenz_x[which], m->lorenz_y[which], &m->nlorenz[which]);
    free(pos);
    return rc;
}

static int powerlaw_of(nr_model *m, int which, const double *v, nr_error *err)
{
    size_t k;
    double *pos = positive(v, m->nreg, &k);
    m->ccdf_x[which] = malloc(CCDF_POINTS * sizeof(double));
    m->ccdf_p[which] = malloc(CCDF_POINTS * sizeof(double));
    if (!pos || !m->ccdf_x[which] || !m->ccdf_p[which]) {
        free(pos);
        return nr_error_set(err, NR_E_NOMEM, "out of memory fitting the power law");
    }
    const nr_powerlaw_opts opts = {
        .discrete = 1, .bootstraps = m->opts.bootstraps, .seed = m->opts.seed, .min_tail = 0,
        .threads = m->opts.threads,
    };
    const nr_powerlaw_fit *known = m->opts.known_pl ? &m->opts.known_pl[which] : NULL;
    int rc = 0;
    if (known && known->n == k) /* the same values fitted with the same options before */
        m->pl[which] = *known;
    else
        rc = nr_powerlaw_fit_compute(pos, k, &opts, &m->pl[which], err);
    if (rc == 0 && k > 0)
        rc = nr_ccdf_points(pos, k, CCDF_POINTS, m->ccdf_x[which], m->ccdf_p[which], &m->nccdf[which]);
    free(pos);
    return rc;
}

int nr__concentration_compute(nr_model *m, nr_error *err)
{
    int rc = concentration_of(m, NR_CONC_TOTAL, m->reg_total);
    if (rc == 0)
        rc = concentration_of(m, NR_CONC_READ, m->reg_read);
    if (rc == 0)
        rc = concentration_of(m, NR_CONC_WRITE, m->reg_written);
    if (rc < 0)
        return nr_error_set(err, rc, "computing the concentration of per-file bytes failed");
    NR_TRY(powerlaw_of(m, NR_PL_BYTES, m->reg_total, err));
    NR_TRY(powerlaw_of(m, NR_PL_ACCESSES, m->reg_access, err));
    return 0;
}
