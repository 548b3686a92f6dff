/* Per-file distributions: concentration (Gini, top shares, files for p of
 * bytes), Lorenz points, and power-law fits with CCDF points on per-file
 * bytes and per-file access counts. Only the job's files that transferred
 * bytes enter (a file that was only opened or stat'ed carries no share; the
 * runtime's files are counted apart, file_role.h). */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

#define LORENZ_POINTS 256
#define CCDF_POINTS 256

/* Copies the positive values of the job's files in v (one per regular
 * file) into a new array; *k = their count. */
static double *job_positive(const nr_model *m, const double *v, size_t *k)
{
    double *out = malloc((m->nreg + 1) * sizeof *out);
    *k = 0;
    if (!out)
        return NULL;
    for (size_t i = 0; i < m->nreg; i++)
        if (v[i] > 0 && !m->reg_runtime[i])
            out[(*k)++] = v[i];
    return out;
}

/* The runtime's files that moved bytes, summed (nr_model_runtime). */
static void count_runtime(nr_model *m)
{
    nr_model_runtime *r = &m->runtime; /* opens and meta_calls: access.c */
    r->files = r->bytes_read = r->bytes_written = r->accesses = 0;
    for (size_t i = 0; i < m->nreg; i++)
        if (m->reg_runtime[i] && m->reg_total[i] > 0) {
            r->files++;
            r->bytes_read += (uint64_t)m->reg_read[i];
            r->bytes_written += (uint64_t)m->reg_written[i];
            r->accesses += (uint64_t)m->reg_access[i];
        }
}

static int concentration_of(nr_model *m, int which, const double *v)
{
    size_t k;
    double *pos = job_positive(m, v, &k);
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
    double *pos = job_positive(m, v, &k);
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
    count_runtime(m);
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

static int by_file(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Indexes of the k (0 or more) job files with the most bytes (on a tie the
 * earlier: files are visited in order, and a later one enters only with
 * more), into top (k slots), in file order; returns their count. Kept
 * sorted by bytes while scanning: k is the report's ten, one compare a
 * file for most of them. */
static size_t top_files(const nr_model *m, size_t k, size_t *top)
{
    const double *total = m->reg_total;
    size_t kept = 0;
    for (size_t i = 0; k > 0 && i < m->nreg; i++) {
        if (m->reg_runtime[i] || (kept == k && !(total[i] > total[top[k - 1]])))
            continue;
        size_t at = kept < k ? kept++ : k - 1;
        for (; at > 0 && total[i] > total[top[at - 1]]; at--)
            top[at] = top[at - 1];
        top[at] = i;
    }
    qsort(top, kept, sizeof *top, by_file); /* into file order */
    return kept;
}

/* Indexes of every job file, into jobs, in file order; returns their count. */
static size_t job_files(const nr_model *m, size_t *jobs)
{
    size_t n = 0;
    for (size_t i = 0; i < m->nreg; i++)
        if (!m->reg_runtime[i])
            jobs[n++] = i;
    return n;
}

/* The rows of nr_model_files: the job's files, every one or the top
 * keep_files of them; the runtime's rows are dropped. */
int nr__files_keep_top(nr_model *m)
{
    double sum = 0;
    size_t njob = 0;
    for (size_t i = 0; i < m->nreg; i++)
        if (!m->reg_runtime[i]) {
            sum += m->reg_total[i];
            njob++;
        }
    const int every = m->opts.keep_files == 0;
    size_t k = every ? njob : m->opts.keep_files == NR_MODEL_KEEP_NO_FILES ? 0 : m->opts.keep_files;
    if (k > njob)
        k = njob;
    double **cols[] = {&m->reg_read, &m->reg_written, &m->reg_total, &m->reg_access};
    enum { NCOLS = sizeof cols / sizeof cols[0] };
    double *picked[NCOLS];
    size_t *top = malloc((k + 1) * sizeof *top);
    const char **paths = malloc((k + 1) * sizeof *paths);
    const size_t n = !top ? 0 : every ? job_files(m, top) : top_files(m, k, top);
    int rc = top && paths ? 0 : NR_E_NOMEM;
    for (size_t c = 0; c < NCOLS; c++) {
        picked[c] = malloc((n + 1) * sizeof *picked[c]);
        for (size_t i = 0; picked[c] && i < n; i++)
            picked[c][i] = (*cols[c])[top[i]];
        if (!picked[c])
            rc = NR_E_NOMEM;
    }
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (!(paths[i] = nr_arena_strndup(&m->arena, m->reg_paths[top[i]], strlen(m->reg_paths[top[i]]))))
            rc = NR_E_NOMEM;
    free(top);
    if (rc < 0) {
        for (size_t c = 0; c < NCOLS; c++)
            free(picked[c]);
        free(paths);
        return rc;
    }
    for (size_t c = 0; c < NCOLS; c++) {
        free(*cols[c]);
        *cols[c] = picked[c];
    }
    free(m->reg_paths);
    m->reg_paths = paths;
    m->nreg = n; /* the rows of the reg_ arrays; totals.files still counts every file */
    memset(m->reg_runtime, 0, n); /* every row kept is a job file's */
    free(m->file_path); /* pointed into path_arena */
    m->file_path = NULL;
    nr_arena_fini(&m->path_arena);
    m->files = (nr_model_files){
        .n = n, .paths = paths, .bytes_read = m->reg_read, .bytes_written = m->reg_written,
        .bytes_total = m->reg_total, .accesses = m->reg_access, .bytes_total_sum = sum,
    };
    return 0;
}
