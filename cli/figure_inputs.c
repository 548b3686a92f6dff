/* figure_inputs: models -> nr_figure_inputs. Every array is allocated here
 * (the model's copied: a build frees each run's model once its report part
 * is made) and freed by nr_figin_free; the run names are borrowed, and a
 * merge's arrays are its runs'. */
#include "figure_inputs.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json_file.h"
#include "json_stream.h"
#include "runset.h"
#include "nr_strtab.h"

/* figures.json's schema (docs/report.md, "niorep figures and figures.json"):
 * 2 since session 43, which names the fields added since 1; 4 since session
 * 49 (figures 1, 4, 5 and 7 count the job's files; figure 1's runtime); 5
 * since session 50 (figure 5's panels share one bin width, its bin_s). */
#define FIGURES_JSON_SCHEMA 7

struct nr_figin {
    nr_figure_inputs in;
    nr_fig_phase_input phase;
    nr_fig_lorenz_input lorenz;
    nr_fig_ccdf_input ccdf;
    nr_fig_latency_input latency;
    nr_fig_timeline_input timeline;
    nr_fig_reqsize_input reqsize;
    nr_fig_procshare_input procshare;
    /* one run's (nr_figin_build of n == 1), for nr_figin_merge: its timeline
       bins as the model counts them, and their width */
    const uint64_t *raw_read, *raw_write;
    const double *raw_waiting;  /* NULL when the run has no waits */
    const double *raw_start_waiting; /* NULL when none is marked first */
    size_t raw_nbins;
    int64_t raw_width_ns;
    void **allocs;          /* everything above, freed together (a merge's: its own only) */
    size_t nallocs, cap_allocs;
    int failed;
};

static const char *const role_groups[NR_ROLE_COUNT] = {"main", "workers", "other"};

/* calloc recorded in fi; NULL (and fi->failed) on failure. */
static void *fi_alloc(nr_figin *fi, size_t n, size_t size)
{
    void *p = NR_GROW(fi->allocs, fi->cap_allocs, fi->nallocs + 1) == 0 ? calloc(n ? n : 1, size) : NULL;
    if (!p) {
        fi->failed = 1;
        return NULL;
    }
    fi->allocs[fi->nallocs++] = p;
    return p;
}

/* A copy of n values of src (a model's) in fi. */
static const void *fi_copy(nr_figin *fi, const void *src, size_t n, size_t size)
{
    void *p = fi_alloc(fi, n, size);
    if (p && n)
        memcpy(p, src, n * size);
    return p;
}

/* A copy of s (a model's name) in fi. */
static const char *fi_str(nr_figin *fi, const char *s)
{
    return fi_copy(fi, s, strlen(s) + 1, 1);
}

/* (1) Phase names: the union over runs in order of first appearance; the
 * phases hold the job's files, the runtime's are a segment of their own. */
static void build_phase(nr_figin *fi, const nr_model *m, const char *const *name)
{
    const size_t np = nr_model_phase_count(m); /* a model names each phase once */
    const char **phase_names = fi_alloc(fi, np, sizeof *phase_names);
    double *bytes = fi_alloc(fi, np, sizeof *bytes);
    double *time = fi_alloc(fi, np, sizeof *time);
    double *rt_bytes = fi_alloc(fi, 1, sizeof *rt_bytes);
    double *rt_time = fi_alloc(fi, 1, sizeof *rt_time);
    if (!phase_names || !bytes || !time || !rt_bytes || !rt_time)
        return;
    for (size_t k = 0; k < np; k++) {
        const nr_model_phase *p = nr_model_phase_at(m, k);
        const uint64_t rt = p->runtime_bytes_read + p->runtime_bytes_written;
        phase_names[k] = fi_str(fi, p->name);
        /* the weights the model folds its latency group by (nr_model_phase_kept) */
        bytes[k] = nr_model_phase_job_bytes(p);
        time[k] = nr_model_phase_job_io_time_s(p);
        *rt_bytes += (double)rt;
        *rt_time += p->runtime_io_time_s;
    }
    fi->phase = (nr_fig_phase_input){1, name, np, phase_names, bytes, time, rt_bytes, rt_time};
    fi->in.phase = &fi->phase;
}

/* (2) and (3): Lorenz curves and per-file bytes CCDF with the power-law fit. */
static void build_concentration(nr_figin *fi, const nr_model *m, const char *const *name)
{
    nr_fig_lorenz_run *lr = fi_alloc(fi, 1, sizeof *lr);
    nr_fig_ccdf_run *cr = fi_alloc(fi, 1, sizeof *cr);
    if (!lr || !cr)
        return;
    const nr_concentration *c = nr_model_concentration(m, NR_CONC_TOTAL);
    const double *xs, *ys;
    size_t np = nr_model_lorenz(m, NR_CONC_TOTAL, &xs, &ys);
    xs = fi_copy(fi, xs, np, sizeof *xs);
    ys = fi_copy(fi, ys, np, sizeof *ys);
    *lr = (nr_fig_lorenz_run){*name, np, xs, ys, c->top10_share, nr_concentration_top10_x(c), c->gini};
    const double *bx, *bp;
    size_t nc = nr_model_ccdf(m, NR_PL_BYTES, &bx, &bp);
    bx = fi_copy(fi, bx, nc, sizeof *bx);
    bp = fi_copy(fi, bp, nc, sizeof *bp);
    const nr_powerlaw_fit *pl = nr_model_powerlaw(m, NR_PL_BYTES);
    double at_xmin = pl->valid && pl->n ? (double)pl->n_tail / (double)pl->n : NAN;
    *cr = (nr_fig_ccdf_run){*name, nc, bx, bp, pl->valid, pl->alpha, pl->xmin, at_xmin, nr_powerlaw_rejected(pl),
                            pl->p_value};
    fi->lorenz = (nr_fig_lorenz_input){1, lr};
    fi->ccdf = (nr_fig_ccdf_input){1, cr};
    fi->in.lorenz = &fi->lorenz;
    fi->in.ccdf = &fi->ccdf;
}

/* Appends the point (x, cdf, ccdf) at k. */
static void lat_point(double *x, double *cdf, double *ccdf, size_t *k, double xv, double c, double cc)
{
    x[*k] = xv;
    cdf[*k] = c;
    ccdf[*k] = cc;
    (*k)++;
}

/* Inserts the point (xv, c, cc) into the k points sorted by (x, cdf). */
static void lat_insert(double *x, double *cdf, double *ccdf, size_t *k, double xv, double c, double cc)
{
    size_t i = *k;
    while (i > 0 && (x[i - 1] > xv || (x[i - 1] == xv && cdf[i - 1] > c))) {
        x[i] = x[i - 1];
        cdf[i] = cdf[i - 1];
        ccdf[i] = ccdf[i - 1];
        i--;
    }
    x[i] = xv;
    cdf[i] = c;
    ccdf[i] = cc;
    (*k)++;
}

/* The method (docs/figures.md, figure 4): the histogram's bins hold
 * lower < v <= upper integer ns, so the share below a bin's lower edge and
 * up to its upper edge are exact; the quantiles are exact crossings. */
size_t nr_figin_latency_points(const nr_model_latency *lat, const nr_loghist *hist, double *x, double *cdf,
                               double *ccdf)
{
    if (hist->n == 0)
        return 0;
    const double n = (double)hist->n;
    int last = NR_LOGHIST_BINS - 1;
    while (last > 0 && !hist->counts[last])
        last--;
    uint64_t cum = 0;
    size_t k = 0;
    if (hist->min > 1)
        lat_point(x, cdf, ccdf, &k, (double)hist->min * 1e-9, 0, 1);
    for (int b = 0; b <= last; b++) {
        if (!hist->counts[b])
            continue;
        if (cum > 0 && b > 0 && !hist->counts[b - 1])
            lat_point(x, cdf, ccdf, &k, nr_loghist_bin_upper(b - 1) * 1e-9, (double)cum / n, 1.0 - (double)cum / n);
        cum += hist->counts[b];
        if (b == last)
            lat_point(x, cdf, ccdf, &k, (double)hist->max * 1e-9, 1.0, 1.0 / n);
        else
            lat_point(x, cdf, ccdf, &k, nr_loghist_bin_upper(b) * 1e-9, (double)cum / n, 1.0 - (double)cum / n);
    }
    for (int q = 0; q < NR_MODEL_NQ - 1; q++) {
        const double level = nr_model_quantiles[q];
        if (lat->q_ns[q] > 1 && n * (1.0 - level) >= 1.0 - 1e-9)
            lat_insert(x, cdf, ccdf, &k, (double)lat->q_ns[q] * 1e-9, level, 1.0 - level);
    }
    return k;
}

static void latency_series(nr_figin *fi, const char *name, const nr_model_latency *lat, nr_fig_latency_series *s)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->p50 = lat->count ? (double)lat->q_ns[0] * 1e-9 : NAN;
    s->p99 = lat->count ? (double)lat->q_ns[2] * 1e-9 : NAN;
    s->p999 = lat->count ? (double)lat->q_ns[3] * 1e-9 : NAN;
    s->calls = lat->count;
    nr_loghist hist;
    if (!nr_model_latency_hist(lat, &hist))
        return;   /* not a group a figure draws (nr_model.h): no points */
    size_t used = NR_MODEL_NQ;
    for (int b = 0; b < NR_LOGHIST_BINS; b++)
        used += 2 * (hist.counts[b] > 0);
    double *x = fi_alloc(fi, used, sizeof *x);
    double *cdf = fi_alloc(fi, used, sizeof *cdf);
    double *ccdf = fi_alloc(fi, used, sizeof *ccdf);
    if (!x || !cdf || !ccdf)
        return;
    s->n = nr_figin_latency_points(lat, &hist, x, cdf, ccdf);
    s->latency_s = x;
    s->cdf = cdf;
    s->ccdf = ccdf;
}

/* Phase i's job-file reads when they are a series of figure 4 of one run:
 * it has some, and not every one (a phase holding every read, "unphased"
 * of a run without the hook, is the curve of all phases again); else NULL. */
static const nr_model_latency *phase_reads(const nr_model *m, size_t i)
{
    const nr_model_latency *lat = nr_model_latency_job_phase(m, NR_LAT_READ, i);
    return lat && lat->count > 0 && lat->count < nr_model_latency_job(m, NR_LAT_READ)->count ? lat : NULL;
}

int nr_figin_latency_folds(const nr_model *m)
{
    const size_t *kept;
    return nr_model_phase_kept(m, &kept) > 0;
}

/* The series of the reads of the phases figure 1 folds, "other N phases"
 * as figure 1 names them: the model's group of them
 * (nr_model_latency_job_folded), exact as every series (until session 55
 * their histograms summed here, its p50, p99 and p99.9 read off it). */
static void folded_series(nr_figin *fi, const nr_model *m, size_t n_kept, nr_fig_latency_series *s)
{
    char name[64];
    snprintf(name, sizeof name, "other %zu phases", nr_model_phase_count(m) - n_kept);
    const char *copy = fi_str(fi, name);
    if (copy)
        latency_series(fi, copy, nr_model_latency_job_folded(m), s);
}

/* (4) Read latency of the job's files (the runtime's imports left out, as
 * figures 2, 3 and 6 leave them): one series per run, or per phase (after
 * "all") for one run. */
/* (4) of one run: a series for all its phases and one per phase with reads
 * (phase_reads); when figure 1 folds its phases (nr_figin_latency_folds),
 * a series for each phase figure 1 keeps that reads and one for the others,
 * without points when none of them reads (until session 54 one per phase:
 * a run of 100,000 phase names drew 100,000 curves; at first only with
 * more than NR_FIG_DISTINCT_RUNS series, else the phases figure 1 draws in
 * grey took its kept phases' colours, review 54). The phases kept are the
 * model's (nr_model_phase_kept), figure 1's rule over the weights figure
 * 1 is given (build_phase), so figure 1's own pick. */
static void build_latency(nr_figin *fi, const nr_model *m)
{
    const size_t *kept;
    const size_t n_kept = nr_model_phase_kept(m, &kept); /* figure 1's (the rule of nr_phase_pick.h) */
    const int folds = nr_figin_latency_folds(m);
    const size_t n_phases = folds ? n_kept + 1 : nr_model_phase_count(m);
    nr_fig_latency_series *s = fi_alloc(fi, 1 + n_phases, sizeof *s);
    if (!s)
        return;
    size_t k = 0;
    latency_series(fi, "all phases", nr_model_latency_job(m, NR_LAT_READ), &s[k++]);
    for (size_t j = 0; j < (folds ? n_kept : nr_model_phase_count(m)); j++) {
        const size_t i = folds ? kept[j] : j;
        const nr_model_latency *lat = phase_reads(m, i);
        if (lat)
            latency_series(fi, fi_str(fi, nr_model_phase_at(m, i)->name), lat, &s[k++]);
    }
    if (folds)
        folded_series(fi, m, n_kept, &s[k++]);
    fi->latency = (nr_fig_latency_input){"job-file read", k, s, 1, folds ? nr_model_phase_count(m) - n_kept : 0};
    fi->in.latency = &fi->latency;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        const int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Folds a run's width (of nbins bins) into the common width w of the runs
 * before (common_width); *overflow set when they have none in int64. */
static int64_t fold_width(int64_t w, int64_t width, size_t nbins, int *overflow)
{
    if (width <= 0 || nbins == 0)
        return w;
    if (w == 0)
        return width;
    const int64_t f = width / gcd64(w, width);
    if (f > INT64_MAX / w) {
        *overflow = 1;
        return w;
    }
    return w * f;
}

/* How a run's nbins_in bins of width_ns go into bins of the common width
 * (0: none): *merge of them a bin, in *width_out ns; their count returned. */
static size_t merge_plan(size_t nbins_in, int64_t width_ns, int64_t common, size_t *merge, int64_t *width_out)
{
    const int64_t width = common > 0 && width_ns > 0 ? common : width_ns;
    *merge = width > 0 && width_ns > 0 ? (size_t)(width / width_ns) : 1;
    *width_out = width;
    return (nbins_in + *merge - 1) / *merge;
}

/* A run's nbins_in bins of width_ns merged into bins of the common width
 * (0: none) as rates: *rd and *wr new in fi, their count returned. */
static size_t merged_rates(nr_figin *fi, const uint64_t *rbytes, const uint64_t *wbytes, size_t nbins_in,
                           int64_t width_ns, int64_t common, double **rd, double **wr, double *bin_s_out)
{
    size_t merge;
    int64_t width;
    const size_t nbins = merge_plan(nbins_in, width_ns, common, &merge, &width);
    const double bin_s = width > 0 ? (double)width * 1e-9 : 1.0;
    *bin_s_out = bin_s;
    *rd = fi_alloc(fi, nbins, sizeof **rd);
    *wr = fi_alloc(fi, nbins, sizeof **wr);
    if (!*rd || !*wr)
        return 0;
    for (size_t i = 0; i < nbins; i++) {
        uint64_t r_bytes = 0, w_bytes = 0;
        for (size_t b = i * merge; b < (i + 1) * merge && b < nbins_in; b++) {
            r_bytes += rbytes[b];
            w_bytes += wbytes[b];
        }
        (*rd)[i] = (double)r_bytes / bin_s;
        (*wr)[i] = (double)w_bytes / bin_s;
    }
    return nbins;
}

/* A run's shares of each bin spent waiting (nbins_in bins of width_ns)
 * merged into bins of the common width (0: none) as the mean of the bins
 * each holds, a bin past the run's end counted as no wait, as its rates
 * are; NULL without waits or memory (a missing strip, no wrong one). */
static const double *merged_waiting(nr_figin *fi, const double *waiting, size_t nbins_in, int64_t width_ns,
                                    int64_t common)
{
    if (!waiting)
        return NULL;
    size_t merge;
    int64_t width;
    const size_t nbins = merge_plan(nbins_in, width_ns, common, &merge, &width);
    double *out = fi_alloc(fi, nbins, sizeof *out);
    for (size_t i = 0; out && i < nbins; i++) {
        double sum = 0;
        for (size_t b = i * merge; b < (i + 1) * merge && b < nbins_in; b++)
            sum += waiting[b];
        out[i] = sum / (double)merge;
    }
    return out;
}

/* (5) Throughput timeline of one run's job files with phase spans and
 * write bursts; its bins as the model counts them are kept for the merge,
 * which puts every run's into the common width. */
static void build_timeline(nr_figin *fi, const nr_model *m, const char *const *name)
{
    nr_fig_timeline_run *tr = fi_alloc(fi, 1, sizeof *tr);
    if (!tr)
        return;
    const nr_model_timeline *tl = nr_model_get_timeline(m);
    double *rd, *wr, bin_s;
    const size_t nbins = merged_rates(fi, tl->job_read, tl->job_write, tl->nbins, tl->width_ns, tl->width_ns, &rd, &wr,
                                      &bin_s);
    size_t nph = 0;
    for (size_t i = 0; i < nr_model_phase_count(m); i++)
        nph += nr_model_phase_at(m, i)->n_intervals;
    nr_fig_span *ph = fi_alloc(fi, nph, sizeof *ph);
    size_t nb = nr_model_burst_count(m);
    nr_fig_span *bu = fi_alloc(fi, nb, sizeof *bu);
    const nr_model_marks *mk = nr_model_get_marks(m);
    double *mt = fi_alloc(fi, mk->n, sizeof *mt);
    if (!rd || !wr || !ph || !bu || !mt)
        return;
    /* a span per interval of each phase ("unphased" has none): the
       time between two checkpoints is not the checkpoint's */
    size_t kp = 0;
    for (size_t i = 0; i < nr_model_phase_count(m); i++) {
        const nr_model_phase *p = nr_model_phase_at(m, i);
        const char *phase = p->n_intervals ? fi_str(fi, p->name) : NULL;
        for (size_t k = 0; k < p->n_intervals; k++)
            ph[kp++] = (nr_fig_span){phase, (double)(p->intervals[k].begin_ns - tl->start_ns) * 1e-9,
                                     (double)(p->intervals[k].end_ns - tl->start_ns) * 1e-9};
    }
    for (size_t i = 0; i < nb; i++) {
        const nr_model_burst *b = nr_model_burst_at(m, i);
        bu[i] = (nr_fig_span){"burst", (double)(b->start_ns - tl->start_ns) * 1e-9,
                              (double)(b->end_ns - tl->start_ns) * 1e-9};
    }
    for (size_t i = 0; i < mk->n; i++)
        mt[i] = (double)(mk->v[i].ts_ns - tl->start_ns) * 1e-9;
    *tr = (nr_fig_timeline_run){*name, nbins, bin_s, rd, wr, kp, ph, nb, bu, mk->n, mt,
                                mk->nnames == 1 && !mk->other_names ? fi_str(fi, mk->names[0]) : NULL,
                                merged_waiting(fi, tl->waiting, tl->nbins, tl->width_ns, tl->width_ns),
                                merged_waiting(fi, tl->start_waiting, tl->nbins, tl->width_ns, tl->width_ns)};
    fi->raw_waiting = tl->waiting ? fi_copy(fi, tl->waiting, tl->nbins, sizeof *tl->waiting) : NULL;
    fi->raw_start_waiting =
        tl->start_waiting ? fi_copy(fi, tl->start_waiting, tl->nbins, sizeof *tl->start_waiting) : NULL;
    fi->raw_read = fi_copy(fi, tl->job_read, tl->nbins, sizeof *tl->job_read);
    fi->raw_write = fi_copy(fi, tl->job_write, tl->nbins, sizeof *tl->job_write);
    fi->raw_nbins = tl->nbins;
    fi->raw_width_ns = tl->width_ns;
    fi->timeline = (nr_fig_timeline_input){.n_runs = 1, .runs = tr, .n_phase_order = fi->phase.n_phases,
                                           .phase_order = fi->phase.phase_names};
    fi->in.timeline = &fi->timeline;
}

/* (6) Request sizes and (7) per-process share by role, of one run's job files. */
static void build_access(nr_figin *fi, const nr_model *m, const char *const *name)
{
    nr_fig_reqsize_run *rr = fi_alloc(fi, 1, sizeof *rr);
    double *bytes = fi_alloc(fi, NR_ROLE_COUNT, sizeof *bytes);
    double *time = fi_alloc(fi, NR_ROLE_COUNT, sizeof *time);
    if (!rr || !bytes || !time)
        return;
    const nr_model_access *a = nr_model_get_access(m);
    rr->name = *name;
    for (int b = 0; b < NR_SIZE_BINS && b < NR_FIG_REQSIZE_BINS; b++) {
        rr->reads[b] = (double)a->size_hist[0][b];
        rr->writes[b] = (double)a->size_hist[1][b];
    }
    rr->eof_reads = (double)a->eof_reads;
    for (size_t i = 0; i < nr_model_process_count(m); i++) {
        const nr_model_process *p = nr_model_process_at(m, i);
        const int role = p->role >= 0 && p->role < NR_ROLE_COUNT ? p->role : NR_ROLE_OTHER;
        bytes[role] += (double)(p->bytes_read + p->bytes_written - p->runtime_bytes);
        time[role] += isfinite(p->io_time_s) ? fmax(p->io_time_s - p->runtime_io_time_s, 0) : 0;
    }
    fi->reqsize = (nr_fig_reqsize_input){1, rr};
    fi->procshare = (nr_fig_procshare_input){1, name, NR_ROLE_COUNT, role_groups, bytes, time};
    fi->in.reqsize = &fi->reqsize;
    fi->in.procshare = &fi->procshare;
}

int nr_figin_build(const nr_model *model, const char *const *name, nr_figin **out, nr_error *err)
{
    *out = NULL;
    nr_figin *fi = calloc(1, sizeof *fi);
    if (!fi)
        return nr_error_set(err, NR_E_NOMEM, "figures: out of memory");
    build_phase(fi, model, name);
    build_concentration(fi, model, name);
    build_latency(fi, model);
    build_timeline(fi, model, name);
    build_access(fi, model, name);
    if (fi->failed) {
        nr_figin_free(fi);
        return nr_error_set(err, NR_E_NOMEM, "figures: out of memory");
    }
    *out = fi;
    return 0;
}

/* (1) of a merge: the union of the runs' phase names in order of first
 * appearance, each run's sums at their place (as build_phase's). */
static void merge_phase(nr_figin *fi, nr_figin *const *runs, const char *const *names, size_t n)
{
    size_t cap = 0;
    for (size_t r = 0; r < n; r++)
        cap += runs[r]->phase.n_phases;
    const char **phase_names = fi_alloc(fi, cap, sizeof *phase_names);
    size_t np = 0;
    nr_strtab ids;
    nr_strtab_init(&ids);
    for (size_t r = 0; phase_names && r < n; r++) {
        for (size_t i = 0; i < runs[r]->phase.n_phases; i++) {
            const char *name = runs[r]->phase.phase_names[i];
            const int64_t k = nr_strtab_intern(&ids, name, strlen(name));
            if (k < 0) {
                fi->failed = 1;
                nr_strtab_fini(&ids);
                return;
            }
            if ((size_t)k == np)
                phase_names[np++] = name;
        }
    }
    double *bytes = fi_alloc(fi, n * (np ? np : 1), sizeof *bytes);
    double *time = fi_alloc(fi, n * (np ? np : 1), sizeof *time);
    double *rt_bytes = fi_alloc(fi, n, sizeof *rt_bytes);
    double *rt_time = fi_alloc(fi, n, sizeof *rt_time);
    if (!phase_names || !bytes || !time || !rt_bytes || !rt_time) {
        nr_strtab_fini(&ids);
        return;
    }
    for (size_t r = 0; r < n; r++) {
        const nr_fig_phase_input *p = &runs[r]->phase;
        for (size_t i = 0; i < p->n_phases; i++) {
            const size_t k = (size_t)nr_strtab_find(&ids, p->phase_names[i], strlen(p->phase_names[i]));
            bytes[r * np + k] = p->bytes[i];
            time[r * np + k] = p->io_time_s[i];
        }
        rt_bytes[r] = p->runtime_bytes[0];
        rt_time[r] = p->runtime_io_time_s[0];
    }
    nr_strtab_fini(&ids);
    fi->phase = (nr_fig_phase_input){n, names, np, phase_names, bytes, time, rt_bytes, rt_time};
    fi->in.phase = &fi->phase;
}

/* The bin width every panel of figure 5 shares (docs/figures.md, figure
 * 5): the least common multiple of the widths of the runs with bins, so
 * that each run's bins merge into whole bins of it, exactly. The model
 * gives each run 1, 2 or 5 x 10^k ns, so this is the widest run's width W,
 * or 2W (10^(k+1)) when W is 5 x 10^k and another run's is 2 x 10^k: at
 * most 400 bins for every run. 0 when no run has bins, or when the widths
 * have no common multiple in int64 (not 1-2-5 widths): then each run keeps
 * its own, and the figure says that they differ.
 * (5) of a merge: each run's panel, its bins merged into that width. */
static void merge_timeline(nr_figin *fi, nr_figin *const *runs, const char *const *names, size_t n)
{
    nr_fig_timeline_run *tr = fi_alloc(fi, n, sizeof *tr);
    if (!tr)
        return;
    int64_t common = 0;
    int overflow = 0;
    for (size_t r = 0; r < n && !overflow; r++)
        common = fold_width(common, runs[r]->raw_width_ns, runs[r]->raw_nbins, &overflow);
    if (overflow)
        common = 0;
    for (size_t r = 0; r < n; r++) {
        const nr_figin *one = runs[r];
        double *rd, *wr, bin_s;
        const size_t nbins = merged_rates(fi, one->raw_read, one->raw_write, one->raw_nbins, one->raw_width_ns, common,
                                          &rd, &wr, &bin_s);
        if (!rd || !wr)
            return;
        tr[r] = one->timeline.runs[0];
        tr[r].name = names[r];
        tr[r].n_bins = nbins;
        tr[r].bin_s = bin_s;
        tr[r].read_bps = rd;
        tr[r].write_bps = wr;
        tr[r].waiting = merged_waiting(fi, one->raw_waiting, one->raw_nbins, one->raw_width_ns, common);
        tr[r].start_waiting = merged_waiting(fi, one->raw_start_waiting, one->raw_nbins, one->raw_width_ns, common);
    }
    fi->timeline = (nr_fig_timeline_input){.n_runs = n, .runs = tr, .n_phase_order = fi->phase.n_phases,
                                           .phase_order = fi->phase.phase_names};
    fi->in.timeline = &fi->timeline;
}

/* (2), (3), (4), (6), (7) of a merge: each run's, named. */
static void merge_per_run(nr_figin *fi, nr_figin *const *runs, const char *const *names, size_t n)
{
    nr_fig_lorenz_run *lr = fi_alloc(fi, n, sizeof *lr);
    nr_fig_ccdf_run *cr = fi_alloc(fi, n, sizeof *cr);
    nr_fig_latency_series *ls = fi_alloc(fi, n, sizeof *ls);
    nr_fig_reqsize_run *rr = fi_alloc(fi, n, sizeof *rr);
    double *bytes = fi_alloc(fi, n * NR_ROLE_COUNT, sizeof *bytes);
    double *time = fi_alloc(fi, n * NR_ROLE_COUNT, sizeof *time);
    if (!lr || !cr || !ls || !rr || !bytes || !time)
        return;
    for (size_t r = 0; r < n; r++) {
        lr[r] = runs[r]->lorenz.runs[0];
        cr[r] = runs[r]->ccdf.runs[0];
        ls[r] = runs[r]->latency.series[0]; /* a run's first series: its reads of every phase */
        rr[r] = runs[r]->reqsize.runs[0];
        lr[r].name = cr[r].name = ls[r].name = rr[r].name = names[r];
        for (size_t g = 0; g < NR_ROLE_COUNT; g++) {
            bytes[r * NR_ROLE_COUNT + g] = runs[r]->procshare.bytes[g];
            time[r * NR_ROLE_COUNT + g] = runs[r]->procshare.io_time_s[g];
        }
    }
    fi->lorenz = (nr_fig_lorenz_input){n, lr};
    fi->ccdf = (nr_fig_ccdf_input){n, cr};
    fi->latency = (nr_fig_latency_input){"job-file read", n, ls, 0, 0};
    fi->reqsize = (nr_fig_reqsize_input){n, rr};
    fi->procshare = (nr_fig_procshare_input){n, names, NR_ROLE_COUNT, role_groups, bytes, time};
    fi->in.lorenz = &fi->lorenz;
    fi->in.ccdf = &fi->ccdf;
    fi->in.latency = &fi->latency;
    fi->in.reqsize = &fi->reqsize;
    fi->in.procshare = &fi->procshare;
}

int nr_figin_merge(nr_figin *const *runs, const char *const *names, size_t n, nr_figin **out, nr_error *err)
{
    *out = NULL;
    for (size_t r = 0; r < n; r++)
        if (runs[r]->phase.n_runs != 1 || runs[r]->latency.n_series < 1)
            return nr_error_set(err, NR_E_INPUT, "figures: run %zu's inputs are not of one run", r);
    nr_figin *fi = calloc(1, sizeof *fi);
    if (!fi)
        return nr_error_set(err, NR_E_NOMEM, "figures: out of memory");
    merge_phase(fi, runs, names, n);
    merge_per_run(fi, runs, names, n);
    if (!fi->failed)
        merge_timeline(fi, runs, names, n);
    if (fi->failed) {
        nr_figin_free(fi);
        return nr_error_set(err, NR_E_NOMEM, "figures: out of memory");
    }
    *out = fi;
    return 0;
}

const nr_figure_inputs *nr_figin_inputs(const nr_figin *fi)
{
    return &fi->in;
}

void nr_figin_free(nr_figin *fi)
{
    if (!fi)
        return;
    for (size_t i = 0; i < fi->nallocs; i++)
        free(fi->allocs[i]);
    free(fi->allocs);
    free(fi);
}

/* ---- figures.json ------------------------------------------------------ */

static json_t *jnum(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *jarray(const double *x, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; x && i < n; i++)
        json_array_append_new(a, jnum(x[i]));
    return a;
}

static json_t *jstrings(const char *const *s, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, nr_cli_json_text(s[i]));
    return a;
}

/* A row-major [rows][cols] matrix as an array of arrays. */
static json_t *jmatrix(const double *m, size_t rows, size_t cols)
{
    json_t *a = json_array();
    for (size_t r = 0; r < rows; r++)
        json_array_append_new(a, jarray(m + r * cols, cols));
    return a;
}

static json_t *span_item(const void *spans, size_t i)
{
    const nr_fig_span *s = (const nr_fig_span *)spans + i;
    return json_pack("{s:o, s:o, s:o}", "name", nr_cli_json_text(s->name), "t0_s", jnum(s->t0), "t1_s", jnum(s->t1));
}

/* Spans, written one by one when the document is (a phase has one per
 * merged interval: a million in a run of a phase a step, which as a tree
 * took 782 MiB, session 66). */
static json_t *jspans(nr_json_stream *js, const nr_fig_span *s, size_t n)
{
    return nr_json_stream_defer(js, span_item, s, n);
}

/* Fig. 1: bytes and I/O time per run and phase. */
static void phase_json(const nr_figin *fi, json_t *o, json_t *series, nr_json_stream *js)
{
    const nr_fig_phase_input *p = &fi->phase;
    json_object_set_new(o, "runs", jstrings(p->run_names, p->n_runs));
    json_object_set_new(o, "phases", jstrings(p->phase_names, p->n_phases));
    json_object_set_new(o, "bytes", jmatrix(p->bytes, p->n_runs, p->n_phases));
    json_object_set_new(o, "io_time_s", jmatrix(p->io_time_s, p->n_runs, p->n_phases));
    json_object_set_new(o, "runtime_bytes", jarray(p->runtime_bytes, p->n_runs));
    json_object_set_new(o, "runtime_io_time_s", jarray(p->runtime_io_time_s, p->n_runs));
}

/* Fig. 2: the Lorenz curve of each run. */
static void lorenz_json(const nr_figin *fi, json_t *o, json_t *series, nr_json_stream *js)
{
    for (size_t r = 0; r < fi->lorenz.n_runs; r++) {
        const nr_fig_lorenz_run *l = &fi->lorenz.runs[r];
        json_array_append_new(series, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "name", nr_cli_json_text(l->name), "gini", jnum(l->gini),
                                                "top10_share", jnum(l->top10_share), "top10_x", jnum(l->top10_x),
                                                "file_share", jarray(l->file_share, l->n),
                                                "byte_share", jarray(l->byte_share, l->n)));
    }
}

/* Fig. 3: the CCDF of bytes per file and the power-law fit of each run. */
static void ccdf_json(const nr_figin *fi, json_t *o, json_t *series, nr_json_stream *js)
{
    for (size_t r = 0; r < fi->ccdf.n_runs; r++) {
        const nr_fig_ccdf_run *c = &fi->ccdf.runs[r];
        json_t *fit = c->has_fit ? json_pack("{s:o, s:o, s:o, s:o, s:b}", "alpha", jnum(c->alpha), "xmin",
                                             jnum(c->xmin), "ccdf_at_xmin", jnum(c->ccdf_at_xmin), "p_value",
                                             jnum(c->p_value), "rejected", c->fit_rejected)
                                 : json_null();
        json_array_append_new(series, json_pack("{s:o, s:o, s:o, s:o}", "name", nr_cli_json_text(c->name), "bytes", jarray(c->bytes, c->n),
                                                "ccdf", jarray(c->ccdf, c->n), "fit", fit));
    }
}

/* Fig. 4: the latency CDF of each series. */
static void latency_json(const nr_figin *fi, json_t *o, json_t *series, nr_json_stream *js)
{
    json_object_set_new(o, "what", json_string(fi->latency.what));
    for (size_t i = 0; i < fi->latency.n_series; i++) {
        const nr_fig_latency_series *s = &fi->latency.series[i];
        json_t *j = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "name", nr_cli_json_text(s->name), "p50_s", jnum(s->p50),
                              "p99_s", jnum(s->p99), "p999_s", jnum(s->p999), "latency_s", jarray(s->latency_s, s->n),
                              "cdf", jarray(s->cdf, s->n), "ccdf", jarray(s->ccdf, s->n));
        /* the folded phases' series (docs/report.md), its percentiles exact as every series' */
        if (fi->latency.folded && i + 1 == fi->latency.n_series)
            json_object_set_new(j, "folded_phases", json_integer((json_int_t)fi->latency.folded));
        json_array_append_new(series, j);
    }
}

/* Fig. 5: throughput over time, phases and bursts of each run. */
static void timeline_json(const nr_figin *fi, json_t *o, json_t *series, nr_json_stream *js)
{
    json_object_set_new(o, "bin_s", jnum(nr_fig_timeline_shared_bin(&fi->timeline, fi->timeline.n_runs)));
    for (size_t r = 0; r < fi->timeline.n_runs; r++) {
        const nr_fig_timeline_run *t = &fi->timeline.runs[r];
        json_array_append_new(series, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "name", nr_cli_json_text(t->name), "bin_s", jnum(t->bin_s),
                                                "read_bps", jarray(t->read_bps, t->n_bins), "write_bps", jarray(t->write_bps, t->n_bins),
                                                "phases", jspans(js, t->phases, t->n_phases), "bursts", jspans(js, t->bursts, t->n_bursts),
                                                "marks", jarray(t->marks, t->n_marks),
                                                "waiting", t->waiting ? jarray(t->waiting, t->n_bins) : json_null(),
                                                "start_waiting",
                                                t->start_waiting ? jarray(t->start_waiting, t->n_bins) : json_null()));
    }
}

/* Fig. 6: the request-size histogram of each run. */
static void reqsize_json(const nr_figin *fi, json_t *o, json_t *series, nr_json_stream *js)
{
    json_object_set_new(o, "bins", jstrings(nr_fig_reqsize_bin_labels, NR_FIG_REQSIZE_BINS));
    for (size_t r = 0; r < fi->reqsize.n_runs; r++) {
        const nr_fig_reqsize_run *q = &fi->reqsize.runs[r];
        json_array_append_new(series, json_pack("{s:o, s:o, s:o, s:o}", "name", nr_cli_json_text(q->name), "reads", jarray(q->reads, NR_FIG_REQSIZE_BINS),
                                                "writes", jarray(q->writes, NR_FIG_REQSIZE_BINS), "eof_reads", jnum(q->eof_reads)));
    }
}

/* Fig. 7: bytes and I/O time per run and process group. */
static void procshare_json(const nr_figin *fi, json_t *o, json_t *series, nr_json_stream *js)
{
    const nr_fig_procshare_input *p = &fi->procshare;
    json_object_set_new(o, "runs", jstrings(p->run_names, p->n_runs));
    json_object_set_new(o, "groups", jstrings(p->group_names, p->n_groups));
    json_object_set_new(o, "bytes", jmatrix(p->bytes, p->n_runs, p->n_groups));
    json_object_set_new(o, "io_time_s", jmatrix(p->io_time_s, p->n_runs, p->n_groups));
}

/* Writes the numbers of one figure into o (fixed keys) and series (one
 * element per run or series); a long array as a placeholder of js. */
typedef void (*fig_json_fn)(const nr_figin *fi, json_t *o, json_t *series, nr_json_stream *js);

static const fig_json_fn fig_json[] = {
    [1] = phase_json, [2] = lorenz_json,    [3] = ccdf_json,      [4] = latency_json,
    [5] = timeline_json, [6] = reqsize_json, [7] = procshare_json,
};

/* The numbers figure fig_id (1..7) plots, as a new JSON object; its long
 * arrays are placeholders of js. */
static json_t *figure_json(const nr_figin *fi, int fig_id, nr_json_stream *js)
{
    json_t *o = json_object();
    json_t *runs = json_array();
    if (fig_id > 0 && (size_t)fig_id < sizeof fig_json / sizeof fig_json[0])
        fig_json[fig_id](fi, o, runs, js);
    if (json_array_size(runs) > 0)
        json_object_set_new(o, "series", runs);
    else
        json_decref(runs);
    return o;
}

static char *path_in(const char *dir, const char *stem, const char *ext)
{
    size_t n = strlen(dir) + strlen(stem) + strlen(ext) + 3;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s.%s", dir, stem, ext);
    return p;
}

/* Files rendered and written but not yet in place: a figure set replaces
 * the earlier one only once every file of it is complete. */
typedef struct staged_set {
    nr_outfile *files;
    size_t n, cap;
} staged_set;

static int stage_figure(const nr_figin *fi, const nr_figure_def *fig, nr_render_format fmt, double width_pt,
                        const char *path, nr_outfile *out, nr_error *err)
{
    nr_render_buf buf;
    nr_render_buf_init(&buf);
    int rc = nr_render_figure(fig, &fi->in, fmt, width_pt, &buf, err);
    if (rc == 0)
        rc = nr_outfile_open(out, path, err);
    if (rc == 0) {
        rc = nr_outfile_write(out, buf.data, buf.len, err);
        if (rc < 0)
            nr_outfile_abort(out);
    }
    nr_render_buf_fini(&buf);
    return rc;
}

/* Renders fig in each format of formats into dir (staged), appending each
 * file name (<stem>.<ext>) to files. */
static int stage_figure_files(const nr_figin *fi, const nr_figure_def *fig, const char *dir, unsigned formats,
                              double width_pt, json_t *files, staged_set *set, nr_error *err)
{
    int rc = 0;
    for (int f = NR_RENDER_SVG; rc == 0 && f <= NR_RENDER_PNG; f++) {
        if (!(formats & (1u << f)))
            continue;
        const char *ext = nr_render_format_ext((nr_render_format)f);
        char *path = path_in(dir, fig->stem, ext);
        if (!path)
            return nr_error_set(err, NR_E_NOMEM, "figures: out of memory");
        rc = stage_figure(fi, fig, (nr_render_format)f, width_pt, path, &set->files[set->n], err);
        free(path);
        if (rc < 0)
            break;
        set->n++;
        char file[256];
        snprintf(file, sizeof file, "%s.%s", fig->stem, ext);
        json_array_append_new(files, json_string(file));
    }
    return rc;
}

/* Moves every staged file into place (rc == 0) or removes them all. */
static int finish_staged(staged_set *set, int rc, nr_error *err)
{
    for (size_t i = 0; i < set->n; i++) {
        if (rc == 0)
            rc = nr_outfile_commit(&set->files[i], err);
        else
            nr_outfile_abort(&set->files[i]);
    }
    free(set->files);
    return rc;
}

static int stage_figures_json(const nr_figin *fi, const char *const *names, size_t n, const nr_runset *rs,
                              const char *dir, unsigned formats, double width_pt, staged_set *set, nr_error *err)
{
    json_t *doc = json_pack("{s:i, s:o, s:o, s:o, s:[]}", "schema_version", FIGURES_JSON_SCHEMA, "width_pt",
                            json_real(width_pt), "runs", jstrings(names, n), "left_out", nr_left_out_json(rs),
                            "figures");
    if (!doc)
        return nr_error_set(err, NR_E_NOMEM, "figures: out of memory");
    json_t *figs = json_object_get(doc, "figures");
    nr_json_stream js;
    nr_json_stream_init(&js);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < nr_figures_count; i++) {
        const nr_figure_def *fig = &nr_figures[i];
        json_t *files = json_array();
        rc = stage_figure_files(fi, fig, dir, formats, width_pt, files, set, err);
        json_array_append_new(figs, json_pack("{s:i, s:s, s:s, s:o, s:o}", "id", fig->id, "stem", fig->stem,
                                              "title", fig->title, "files", files, "data", figure_json(fi, fig->id, &js)));
    }
    char *path = rc == 0 ? path_in(dir, "figures", "json") : NULL;
    if (rc == 0 && !path)
        rc = nr_error_set(err, NR_E_NOMEM, "figures: out of memory");
    if (rc == 0)
        rc = nr_json_stream_stage(path, doc, JSON_SORT_KEYS | JSON_INDENT(1) | JSON_REAL_PRECISION(9), &js,
                                  &set->files[set->n], err);
    if (rc == 0)
        set->n++;
    free(path);
    json_decref(doc);
    nr_json_stream_fini(&js);
    return rc;
}

int nr_figin_write_set(const nr_figin *fi, const char *const *names, size_t n, const nr_runset *rs, const char *dir,
                       unsigned formats, double width_pt, nr_error *err)
{
    NR_TRY(nr_make_dirs(dir, err));
    staged_set set = {.cap = nr_figures_count * (NR_RENDER_PNG + 1) + 1};
    set.files = calloc(set.cap, sizeof *set.files);
    if (!set.files)
        return nr_error_set(err, NR_E_NOMEM, "figures: out of memory");
    int rc = stage_figures_json(fi, names, n, rs, dir, formats, width_pt, &set, err);
    return finish_staged(&set, rc, err);
}

int nr_figin_parse_formats(const char *list, unsigned *mask, nr_error *err)
{
    *mask = 0;
    char *copy = strdup(list);
    if (!copy)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    int rc = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); rc == 0 && tok; tok = strtok_r(NULL, ",", &save)) {
        nr_render_format f;
        rc = nr_render_format_parse(tok, &f, err);
        if (rc == 0)
            *mask |= 1u << f;
    }
    free(copy);
    if (rc == 0 && *mask == 0)
        rc = nr_error_set(err, NR_E_USAGE, "--format: expected svg, pdf and/or png");
    return rc;
}

int nr_figin_parse_width(const char *arg, double *width_pt)
{
    if (strcmp(arg, "3.5") == 0) {
        *width_pt = 252.0;
        return 0;
    }
    if (strcmp(arg, "7") == 0 || strcmp(arg, "7.0") == 0) {
        *width_pt = 504.0;
        return 0;
    }
    return -1;
}
