/* figure_jobs: a queue of (place, run, figure). The inputs of each run are
 * built from its model as it comes (nr_figjobs_add_run, cheap next to
 * drawing; the model may go after), those of every run together merged from
 * them, then render threads draw the SVGs (or load the kept ones) at most a
 * window ahead of the caller and import each as far as it can be without
 * the report's shared glyphs, styles and text groups (nr_report_figure_part:
 * cleaned, serialised); the caller merges them in queue order, which is
 * cheap, and draws the next one itself while it waits. The window holds 4
 * figures per thread: enough to keep the threads busy, few enough that
 * the figures in memory stay small. */
#include "figure_jobs.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "figure_cache.h"
#include "nr_render.h"
#include "report_fill.h"
#include "runset.h"

#define FIGURES_PER_THREAD 4

typedef struct figjob {
    unsigned number;     /* its place in the report (nr_report_figure_reserve) */
    size_t run;
    const nr_figure_def *fig;
    const char *caption;
    char *label;         /* the svg's aria-label (owned), NULL: the caption */
    char key[16];        /* "fig<id>": the slot's and the ids' key */
    nr_report_part *part; /* imported but for the merge, on the thread that drew it */
    int kept;            /* read from the cache, not drawn */
    int rc;
    nr_error err;
} figjob;

struct nr_figjobs {
    const char *const *names;
    size_t nruns;
    nr_figin **scopes;    /* [0] every run, [1 + i] run i alone */
    int *scope_rc;        /* per scope: the result of building it */
    nr_error *scope_err;
    figjob *jobs;
    size_t njobs, cap;
    double seconds;
    const char *const *store_paths; /* nr_figjobs_keep's; NULL: keep none */
    const nr_model_opts *opts;
    char *code_key;
    char **run_keys;      /* per run: nr_figure_cache_run_key, NULL when not kept */
    const nr_report *rep; /* nr_figjobs_run's: the parts read what of it does not change */
};

int nr_figjobs_create(const char *const *names, size_t n, nr_figjobs **out, nr_error *err)
{
    nr_figjobs *fj = calloc(1, sizeof *fj);
    if (fj) {
        fj->scopes = calloc(n + 1, sizeof *fj->scopes);
        fj->scope_rc = calloc(n + 1, sizeof *fj->scope_rc);
        fj->scope_err = calloc(n + 1, sizeof *fj->scope_err);
    }
    if (!fj || !fj->scopes || !fj->scope_rc || !fj->scope_err) {
        nr_figjobs_free(fj);
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    }
    fj->names = names;
    fj->nruns = n;
    *out = fj;
    return 0;
}

static size_t scope_slot(size_t run) { return run == NR_FILL_ALL_RUNS ? 0 : run + 1; }

int nr_figjobs_add_run(nr_figjobs *fj, size_t run, const nr_model *model, nr_error *err)
{
    if (run >= fj->nruns || fj->scopes[run + 1])
        return nr_error_set(err, NR_E_INPUT, "figures: run %zu added twice or unknown", run);
    NR_TRY(nr_figin_build(model, fj->names + run, &fj->scopes[run + 1], err));
    if (fj->nruns == 1) /* every run together: this one, built alike */
        NR_TRY(nr_figin_build(model, fj->names, &fj->scopes[0], err));
    return 0;
}

nr_figin *nr_figjobs_scope(nr_figjobs *fj, size_t run, nr_error *err)
{
    const size_t slot = scope_slot(run);
    if (fj->scopes[slot])
        return fj->scopes[slot];
    for (size_t i = 0; i < fj->nruns; i++)
        if (!fj->scopes[i + 1]) {
            nr_error_set(err, NR_E_INPUT, "figures: the inputs of run %zu were not added", i);
            return NULL;
        }
    if (run == NR_FILL_ALL_RUNS && nr_figin_merge(fj->scopes + 1, fj->names, fj->nruns, &fj->scopes[0], err) < 0)
        fj->scopes[0] = NULL;
    return fj->scopes[slot];
}

static const nr_figure_def *figure_by_id(int fig_id)
{
    for (size_t i = 0; i < nr_figures_count; i++)
        if (nr_figures[i].id == fig_id)
            return &nr_figures[i];
    return NULL;
}

int nr_figjobs_put(void *ctx, nr_report *rep, nr_report_block *where, size_t run, int fig_id,
                   const char *caption, const char *label, nr_error *err)
{
    nr_figjobs *fj = ctx;
    const nr_figure_def *fig = figure_by_id(fig_id);
    if (!fig) {
        nr_report_figure_missing(where, caption, "figure not in the registry");
        return 0;
    }
    if (fj->njobs == fj->cap) {
        size_t cap = fj->cap ? fj->cap * 2 : 16;
        figjob *p = realloc(fj->jobs, cap * sizeof *p);
        if (!p)
            return nr_error_set(err, NR_E_NOMEM, "out of memory");
        fj->jobs = p;
        fj->cap = cap;
    }
    figjob *j = &fj->jobs[fj->njobs];
    *j = (figjob){.run = run, .fig = fig, .caption = caption};
    snprintf(j->key, sizeof j->key, "fig%d", fig_id);
    if (label && !(j->label = strdup(label)))
        return nr_error_set(err, NR_E_NOMEM, "figure %s: out of memory", j->key);
    if (!(j->number = nr_report_figure_reserve(rep, where, j->key, caption, err))) {
        free(j->label);
        return err->code;
    }
    fj->njobs++;
    return 0;
}

static void forget_keys(nr_figjobs *fj)
{
    for (size_t i = 0; fj->run_keys && i < fj->nruns; i++)
        free(fj->run_keys[i]);
    free(fj->run_keys);
    free(fj->code_key);
    fj->run_keys = NULL;
    fj->code_key = NULL;
}

void nr_figjobs_keep(nr_figjobs *fj, const char *const *store_paths, const char *const *model_keys,
                     const nr_model_opts *opts)
{
    forget_keys(fj);
    fj->code_key = nr_figure_cache_code_key();
    fj->run_keys = fj->code_key ? calloc(fj->nruns ? fj->nruns : 1, sizeof *fj->run_keys) : NULL;
    for (size_t i = 0; fj->run_keys && i < fj->nruns; i++)
        if (store_paths[i] && model_keys[i])
            fj->run_keys[i] = nr_figure_cache_run_key(model_keys[i], fj->names[i]);
    fj->store_paths = store_paths;
    fj->opts = opts;
}

/* The cache entry of job j: 1, or 0 when its figure is not kept. */
static int job_entry(const nr_figjobs *fj, const figjob *j, double width, nr_figure_cache_entry *e)
{
    if (!fj->run_keys || j->run == NR_FILL_ALL_RUNS || !fj->run_keys[j->run])
        return 0;
    return nr_figure_cache_entry_open(e, fj->store_paths[j->run], fj->opts, fj->run_keys[j->run], fj->code_key,
                                      j->fig->id, width);
}

/* A kept figure's SVG parsed into *parsed: 1, or 0 with svg emptied when
 * the report cannot take it (an entry written by hand, with a DTD, say:
 * until session 53 it failed the build; the cache is ours to redraw). */
static int parse_kept(const figjob *j, nr_render_buf *svg, nr_report_svg **parsed)
{
    nr_error refused;
    if (nr_report_svg_parse(svg->data, svg->len, j->key, parsed, &refused) == 0)
        return 1;
    nr_render_buf_fini(svg);
    nr_render_buf_init(svg);
    return 0;
}

/* Renders job i, or reads it from the cache, and imports it as its part:
 * its scope is built (build_scopes ran), though a kept figure does not
 * need it. */
static void render_job(nr_figjobs *fj, size_t i)
{
    figjob *j = &fj->jobs[i];
    const size_t slot = scope_slot(j->run);
    nr_error_clear(&j->err);
    nr_render_buf svg;
    nr_render_buf_init(&svg);
    double width = j->fig->id == 5 ? NR_RENDER_FULL_WIDTH_PT : NR_RENDER_COLUMN_WIDTH_PT;
    nr_figure_cache_entry e;
    const int cached = job_entry(fj, j, width, &e);
    nr_report_svg *parsed = NULL;
    j->kept = cached && nr_figure_cache_load(&e, &svg) && parse_kept(j, &svg, &parsed);
    if (j->kept) {
        j->rc = 0;
    } else if (fj->scope_rc[slot] < 0) {
        j->rc = fj->scope_rc[slot];
        j->err = fj->scope_err[slot];
    } else {
        j->rc = nr_render_figure(j->fig, nr_figin_inputs(fj->scopes[slot]), NR_RENDER_SVG, width, &svg, &j->err);
        if (j->rc == 0 && cached)
            j->rc = nr_figure_cache_save(&e, svg.data, svg.len, &j->err);
        if (j->rc == 0)
            j->rc = nr_report_svg_parse(svg.data, svg.len, j->key, &parsed, &j->err);
    }
    if (cached)
        nr_figure_cache_entry_close(&e);
    nr_render_buf_fini(&svg);
    if (j->rc == 0)
        j->rc = nr_report_figure_part(fj->rep, j->number, j->key, j->caption, j->label, parsed, &j->part, &j->err);
}

/* Builds the inputs every job needs, in job order (a failure is kept per
 * scope and reported with the first job that needs it). */
static void build_scopes(nr_figjobs *fj)
{
    for (size_t i = 0; i < fj->njobs; i++) {
        const size_t s = scope_slot(fj->jobs[i].run);
        if (fj->scopes[s] || fj->scope_rc[s] < 0)
            continue;
        nr_error_clear(&fj->scope_err[s]);
        if (!nr_figjobs_scope(fj, fj->jobs[i].run, &fj->scope_err[s]))
            fj->scope_rc[s] = fj->scope_err[s].code < 0 ? fj->scope_err[s].code : NR_E_NOMEM;
    }
}

/* The render threads: they take the next job while it is within `window`
 * of the oldest job not yet imported; the caller imports in order. */
typedef struct pipeline {
    nr_figjobs *fj;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t next;       /* the next job no thread has taken */
    size_t imported;   /* jobs [0, imported) are in the report */
    size_t window;
    int stop;
    unsigned char *done;
} pipeline;

/* Whether a job may be taken now: one is left and it is within the window. */
static int can_take(const pipeline *p) { return p->next < p->fj->njobs && p->next < p->imported + p->window; }

/* Takes the next job and draws it: called and returns with the lock held. */
static void take_and_render(pipeline *p)
{
    size_t i = p->next++;
    pthread_mutex_unlock(&p->mu);
    render_job(p->fj, i);
    pthread_mutex_lock(&p->mu);
    p->done[i] = 1;
    pthread_cond_broadcast(&p->cv);
}

static void *render_thread(void *arg)
{
    pipeline *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop && p->next < p->fj->njobs) {
        if (can_take(p))
            take_and_render(p);
        else
            pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    nr_render_shutdown(); /* this thread's font map */
    return NULL;
}

/* The caller's side: job k rendered. While it waits it draws the next job
 * no thread has taken (job k itself when none has), as the threads do. */
static void wait_rendered(pipeline *p, size_t k)
{
    pthread_mutex_lock(&p->mu);
    while (!p->done[k]) {
        if (can_take(p))
            take_and_render(p);
        else
            pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
}

static void mark_imported(pipeline *p, size_t n, int stop)
{
    pthread_mutex_lock(&p->mu);
    p->imported = n;
    p->stop = stop;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* Imports the jobs in order as they are rendered; stops at the first error. */
static int import_in_order(pipeline *p, nr_report *rep, nr_error *err)
{
    nr_figjobs *fj = p->fj;
    int rc = 0;
    for (size_t k = 0; k < fj->njobs; k++) {
        wait_rendered(p, k);
        figjob *j = &fj->jobs[k];
        if (j->rc < 0) {
            rc = j->rc;
            *err = j->err;
        } else {
            rc = nr_report_figure_fill_part(rep, j->part, err);
            j->part = NULL;
        }
        mark_imported(p, k + 1, rc < 0);
        if (rc < 0)
            break;
    }
    return rc;
}

int nr_figjobs_run(nr_figjobs *fj, nr_report *rep, int threads, nr_error *err)
{
    const double t0 = nr_runset_now();
    fj->rep = rep;
    build_scopes(fj);
    pipeline p = {.fj = fj, .window = (size_t)(threads > 1 ? threads : 1) * FIGURES_PER_THREAD};
    p.done = calloc(fj->njobs ? fj->njobs : 1, 1);
    size_t extra = threads > 1 ? (size_t)threads - 1 : 0;
    if (extra + 1 > fj->njobs) /* no thread (and font map) without a figure to draw */
        extra = fj->njobs > 1 ? fj->njobs - 1 : 0;
    pthread_t *tid = extra ? calloc(extra, sizeof *tid) : NULL;
    if (!p.done) {
        free(tid);
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    size_t started = 0;
    for (; tid && started < extra; started++)
        if (pthread_create(&tid[started], NULL, render_thread, &p) != 0)
            break; /* fewer threads: the same report */
    int rc = import_in_order(&p, rep, err);
    mark_imported(&p, fj->njobs, 1);
    for (size_t t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    for (size_t k = 0; k < fj->njobs; k++) { /* rendered after an error */
        nr_report_part_free(fj->jobs[k].part);
        fj->jobs[k].part = NULL;
    }
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.mu);
    free(p.done);
    free(tid);
    fj->seconds += nr_runset_now() - t0;
    return rc;
}

double nr_figjobs_seconds(const nr_figjobs *fj) { return fj->seconds; }

size_t nr_figjobs_kept(const nr_figjobs *fj)
{
    size_t n = 0;
    for (size_t i = 0; i < fj->njobs; i++)
        n += (size_t)fj->jobs[i].kept;
    return n;
}

size_t nr_figjobs_count(const nr_figjobs *fj) { return fj->njobs; }

void nr_figjobs_free(nr_figjobs *fj)
{
    if (!fj)
        return;
    for (size_t i = 0; fj->scopes && i <= fj->nruns; i++)
        nr_figin_free(fj->scopes[i]);
    free(fj->scopes);
    free(fj->scope_rc);
    free(fj->scope_err);
    for (size_t i = 0; fj->jobs && i < fj->njobs; i++)
        free(fj->jobs[i].label);
    free(fj->jobs);
    forget_keys(fj);
    free(fj);
}
