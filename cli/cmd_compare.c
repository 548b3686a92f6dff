/* niorep compare A B [C ...] -o compare.html [--json FILE]: pairs the runs of
 * the groups by workload, compares every statistic, and writes the compare
 * report (and its JSON). Method and schema: docs/compare.md. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "compare_report.h"
#include "inputs.h"
#include "nr_model.h"
#include "nr_outfile.h"
#include "nr_render.h"
#include "nr_store.h"

static const char options_text[] =
    "  -o FILE              the HTML report (required)\n"
    "  --json FILE          the comparison as JSON (schema: docs/compare.md)\n"
    "  --bootstraps N       bootstrap resamples per confidence interval (default 1000)\n"
    "  --seed N             seed of the bootstraps and the call samples (default 1)\n"
    "  --threshold X        practical threshold on the relative difference (default 0.05)\n"
    "  --ks-alpha X         KS significance level (default 0.01)\n"
    "  --ks-min-d X         smallest KS D that counts as a change (default 0.10)\n"
    "  --floor-factor X     latency changes must exceed X times the fastest traced call (default 3)\n"
    "  --sample-cap N       calls kept per op class and run for KS and bootstraps (default 200000)\n"
    "  --title T            report title (default \"niorep compare\")\n"
    "  -h, --help           this help\n"
    "\nEach of A, B, C... is a group: a store, a run directory or a traces folder.\n"
    "Runs are paired by their workload label (manifest labels.workload, else the\n"
    "directory name) between A and each later group; two single runs pair anyway.\n";

#define MAX_GROUPS 26

typedef struct compare_args {
    const char *inputs[MAX_GROUPS];
    size_t ngroups;
    const char *out_html, *out_json, *title;
    nr_compare_opts opts;
} compare_args;

/* One run, loaded. */
typedef struct loaded_run {
    char display[256];          /* "A:mlp" */
    const char *workload;       /* borrowed from model meta or the input name */
    nr_model *model;
    nr_compare_sample sample;
} loaded_run;

typedef struct loaded_group {
    char id[2];
    nr_input_group in;
    loaded_run *runs;
} loaded_group;

/* ---- arguments -------------------------------------------------------- */

static int parse_num(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, compare_args *a)
{
    nr_compare_opts_default(&a->opts);
    a->title = "niorep compare";
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        double v;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            nr_cli_help(nr_cli_find("compare"), options_text, stdout);
            return 0;
        }
        if (arg[0] != '-' || !arg[1]) {
            if (a->ngroups == MAX_GROUPS)
                return nr_cli_usage("compare", "at most %d groups", MAX_GROUPS);
            a->inputs[a->ngroups++] = arg;
            continue;
        }
        if (!val)
            return nr_cli_usage("compare", "%s needs a value", arg);
        i++;
        if (strcmp(arg, "-o") == 0)
            a->out_html = val;
        else if (strcmp(arg, "--json") == 0)
            a->out_json = val;
        else if (strcmp(arg, "--title") == 0)
            a->title = val;
        else if (strcmp(arg, "--bootstraps") == 0 && parse_num(val, 1, 1e6, &v) == 0 && v == floor(v))
            a->opts.boot.bootstraps = (int)v;
        else if (strcmp(arg, "--seed") == 0 && parse_num(val, 1, 9e15, &v) == 0 && v == floor(v))
            a->opts.boot.seed = (uint64_t)v;
        else if (strcmp(arg, "--threshold") == 0 && parse_num(val, 0, 100, &v) == 0)
            a->opts.rule.rel_threshold = v;
        else if (strcmp(arg, "--ks-alpha") == 0 && parse_num(val, 0, 1, &v) == 0)
            a->opts.rule.ks_alpha = v;
        else if (strcmp(arg, "--ks-min-d") == 0 && parse_num(val, 0, 1, &v) == 0)
            a->opts.rule.ks_min_d = v;
        else if (strcmp(arg, "--floor-factor") == 0 && parse_num(val, 0, 1000, &v) == 0)
            a->opts.rule.floor_factor = v;
        else if (strcmp(arg, "--sample-cap") == 0 && parse_num(val, 20, 1e8, &v) == 0 && v == floor(v))
            a->opts.sample_cap = (size_t)v;
        else if (strcmp(arg, "-o") && strcmp(arg, "--json") && strcmp(arg, "--title") && strcmp(arg, "--bootstraps") &&
                 strcmp(arg, "--seed") && strcmp(arg, "--threshold") && strcmp(arg, "--ks-alpha") &&
                 strcmp(arg, "--ks-min-d") && strcmp(arg, "--sample-cap") && strcmp(arg, "--floor-factor"))
            return nr_cli_usage("compare", "unknown option '%s'", arg);
        else
            return nr_cli_usage("compare", "bad value '%s' for %s", val, arg);
    }
    if (a->ngroups < 2)
        return nr_cli_usage("compare", "needs at least two inputs (A B)");
    if (!a->out_html)
        return nr_cli_usage("compare", "missing -o compare.html");
    return -1;
}

/* ---- loading ---------------------------------------------------------- */

static int load_run(const nr_input_run *in, const nr_compare_opts *o, loaded_run *r, nr_error *err)
{
    nr_store *s = NULL;
    /* The power-law goodness-of-fit p-value is not compared: skip its bootstraps. */
    const nr_model_opts mo = {.bootstraps = 0, .seed = o->boot.seed};
    int rc = nr_store_open(in->store_path, &s, err);
    if (rc == 0)
        rc = nr_model_compute(s, &mo, &r->model, err);
    if (rc == 0)
        rc = nr_compare_sample_read(s, o->sample_cap, o->boot.seed, &r->sample, err);
    nr_store_close(s);
    if (rc < 0)
        return rc;
    r->workload = nr_compare_workload(r->model, in->name);
    return 0;
}

static void free_groups(loaded_group *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; g[i].runs && k < g[i].in.n; k++) {
            nr_model_free(g[i].runs[k].model);
            nr_compare_sample_fini(&g[i].runs[k].sample);
        }
        free(g[i].runs);
        nr_input_group_fini(&g[i].in);
    }
}

static int load_groups(const compare_args *a, const char *work_dir, loaded_group *g, nr_error *err)
{
    for (size_t i = 0; i < a->ngroups; i++) {
        g[i].id[0] = (char)('A' + i);
        nr_input_group_init(&g[i].in, a->inputs[i]);
        NR_TRY(nr_inputs_resolve(a->inputs[i], work_dir, g[i].id, &g[i].in, err));
        g[i].runs = calloc(g[i].in.n, sizeof *g[i].runs);
        if (!g[i].runs)
            return nr_error_set(err, NR_E_NOMEM, "out of memory");
        for (size_t k = 0; k < g[i].in.n; k++) {
            loaded_run *r = &g[i].runs[k];
            nr_compare_sample_init(&r->sample);
            NR_TRY(load_run(&g[i].in.runs[k], &a->opts, r, err));
            snprintf(r->display, sizeof r->display, "%c:%.200s", g[i].id[0], g[i].in.runs[k].name);
        }
    }
    return 0;
}

/* ---- formatting ------------------------------------------------------- */

static void fmt_value(const char *unit, double v, char *buf, size_t cap)
{
    if (!isfinite(v)) {
        snprintf(buf, cap, isnan(v) ? "-" : (v > 0 ? "+inf" : "-inf"));
        return;
    }
    const double mag = fabs(v);
    char tmp[64];
    if (strcmp(unit, "s") == 0) {
        nr_render_fmt_seconds(mag, tmp, sizeof tmp);
        snprintf(buf, cap, "%s%s", v < 0 ? "-" : "", tmp);
    } else if (strcmp(unit, "B") == 0 || strcmp(unit, "B/s") == 0) {
        nr_render_fmt_bytes(mag, tmp, sizeof tmp);
        snprintf(buf, cap, "%s%s%s", v < 0 ? "-" : "", tmp, unit[1] ? "/s" : "");
    } else if (strcmp(unit, "share") == 0) {
        nr_render_fmt_percent(v, buf, cap);
    } else {
        snprintf(buf, cap, "%.4g", v);
    }
}

static void fmt_rel(double rel, char *buf, size_t cap)
{
    if (isnan(rel))
        snprintf(buf, cap, "-");
    else if (isinf(rel))
        snprintf(buf, cap, "%s", rel > 0 ? "new" : "gone");
    else
        snprintf(buf, cap, "%+.1f%%", 100.0 * rel);
}

/* ---- the report document ---------------------------------------------- */

/* Strings of one report, freed together. */
typedef struct strpool {
    char **v;
    size_t n, cap;
    int oom;
} strpool;

static const char *pool_add(strpool *p, const char *s)
{
    if (p->n == p->cap) {
        const size_t cap = p->cap ? p->cap * 2 : 256;
        char **v = realloc(p->v, cap * sizeof *v);
        if (!v) {
            p->oom = 1;
            return "";
        }
        p->v = v;
        p->cap = cap;
    }
    char *c = strdup(s);
    if (!c) {
        p->oom = 1;
        return "";
    }
    p->v[p->n++] = c;
    return c;
}

static void pool_free(strpool *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i]);
    free(p->v);
}

static const char *const stat_head[] = {"statistic", "A", "B", "B - A", "relative", "95% CI of B - A", "test",
                                        "verdict"};
enum { STAT_COLS = 8 };

static const char *row_class_of(nr_verdict v)
{
    return v == NR_VERDICT_SIGNIFICANT ? "significant" : v == NR_VERDICT_CHANGED ? "changed" : NULL;
}

static void stat_cells(strpool *p, const nr_compare_stat *s, double level, const char **cells)
{
    char buf[160], x[64], y[64];
    cells[0] = pool_add(p, s->name);
    if (s->kind == NR_STAT_KS) {
        snprintf(buf, sizeof buf, "%" PRIu64 " calls", s->n_a);
        cells[1] = pool_add(p, buf);
        snprintf(buf, sizeof buf, "%" PRIu64 " calls", s->n_b);
        cells[2] = pool_add(p, buf);
        snprintf(buf, sizeof buf, "D = %.3f, beyond tolerance %.3f", s->ks.d, s->ks.d_practical);
        cells[3] = pool_add(p, isnan(s->ks.d) ? "-" : buf);
        cells[4] = "";
        cells[5] = "";
        snprintf(buf, sizeof buf, "KS p = %.3g (%s)", s->ks.p_value,
                 s->ks.method == NR_KS_EXACT ? "exact" : "asymptotic");
        cells[6] = pool_add(p, isnan(s->ks.p_value) ? "-" : buf);
    } else {
        fmt_value(s->unit, s->a, buf, sizeof buf);
        cells[1] = pool_add(p, buf);
        fmt_value(s->unit, s->b, buf, sizeof buf);
        cells[2] = pool_add(p, buf);
        fmt_value(s->unit, s->abs_diff, buf, sizeof buf);
        cells[3] = pool_add(p, buf);
        fmt_rel(s->rel_diff, buf, sizeof buf);
        cells[4] = pool_add(p, buf);
        if (s->kind == NR_STAT_BOOTSTRAP && s->ci.bootstraps > 0) {
            fmt_value(s->unit, s->ci.low, x, sizeof x);
            fmt_value(s->unit, s->ci.high, y, sizeof y);
            snprintf(buf, sizeof buf, "[%s, %s]", x, y);
            cells[5] = pool_add(p, buf);
            snprintf(buf, sizeof buf, "bootstrap B=%d, %.0f%%, n=%" PRIu64 "/%" PRIu64, s->ci.bootstraps,
                     100 * level, s->n_a, s->n_b);
            cells[6] = pool_add(p, buf);
        } else {
            cells[5] = "";
            cells[6] = s->kind == NR_STAT_BOOTSTRAP ? "bootstrap" : "";
        }
    }
    cells[7] = nr_verdict_name(s->verdict);
}

/* One pair's tables: one per section, in the order the stats come. */
static int pair_tables(strpool *p, const nr_compare_pair *pr, double level, nr_crep_table **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    nr_crep_table *t = calloc(8, sizeof *t);
    if (!t)
        return NR_E_NOMEM;
    size_t nt = 0, i = 0;
    while (i < pr->nstats && nt < 8) {
        size_t j = i;
        while (j < pr->nstats && strcmp(pr->stats[j].section, pr->stats[i].section) == 0)
            j++;
        const size_t rows = j - i;
        const char **cells = calloc(rows * STAT_COLS, sizeof *cells);
        const char **cls = calloc(rows, sizeof *cls);
        if (!cells || !cls) {
            free(cells);
            free(cls);
            break;
        }
        for (size_t r = 0; r < rows; r++) {
            stat_cells(p, &pr->stats[i + r], level, cells + r * STAT_COLS);
            cls[r] = row_class_of(pr->stats[i + r].verdict);
        }
        t[nt++] = (nr_crep_table){.caption = pool_add(p, pr->stats[i].section), .ncols = STAT_COLS, .nrows = rows,
                                  .head = stat_head, .cells = cells, .row_class = cls};
        i = j;
    }
    *out = t;
    *nout = nt;
    return i == pr->nstats ? 0 : NR_E_NOMEM;
}

static void free_tables(nr_crep_table *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free((void *)t[i].cells);
        free((void *)t[i].row_class);
    }
    free(t);
}

/* CDF points of a log histogram at the upper edges of its non-empty bins. */
static size_t hist_cdf(const nr_loghist *h, double *xs, double *cdf)
{
    size_t k = 0;
    uint64_t cum = 0;
    for (int b = 0; b < NR_LOGHIST_BINS; b++) {
        if (!h->counts[b])
            continue;
        cum += h->counts[b];
        xs[k] = nr_loghist_bin_upper(b) * 1e-9;
        cdf[k] = (double)cum / (double)h->n;
        k++;
    }
    return k;
}

typedef struct pair_figs {
    nr_render_buf lorenz, latency;
} pair_figs;

static int render_pair_figures(const loaded_run *ra, const loaded_run *rb, pair_figs *f, nr_error *err)
{
    nr_render_buf_init(&f->lorenz);
    nr_render_buf_init(&f->latency);
    const loaded_run *runs[2] = {ra, rb};
    nr_fig_lorenz_run lr[2];
    nr_fig_latency_series ls[2];
    double xs[2][NR_LOGHIST_BINS], cdf[2][NR_LOGHIST_BINS];
    for (int i = 0; i < 2; i++) {
        const nr_model *m = runs[i]->model;
        const double *lx, *ly;
        const size_t n = nr_model_lorenz(m, NR_CONC_TOTAL, &lx, &ly);
        const nr_concentration *c = nr_model_concentration(m, NR_CONC_TOTAL);
        lr[i] = (nr_fig_lorenz_run){.name = runs[i]->display, .n = n, .file_share = lx, .byte_share = ly,
                                    .top10_share = c->top10_share, .gini = c->gini};
        const nr_model_latency *l = nr_model_latency_all(m, NR_LAT_READ);
        ls[i] = (nr_fig_latency_series){.name = runs[i]->display, .n = l->count ? hist_cdf(&l->hist, xs[i], cdf[i]) : 0,
                                        .latency_s = xs[i], .cdf = cdf[i],
                                        .p50 = l->count ? (double)l->q_ns[0] * 1e-9 : NAN,
                                        .p99 = l->count ? (double)l->q_ns[2] * 1e-9 : NAN,
                                        .p999 = l->count ? (double)l->q_ns[3] * 1e-9 : NAN};
    }
    const nr_fig_lorenz_input li = {.n_runs = 2, .runs = lr};
    const nr_fig_latency_input lti = {.what = "read", .n_series = 2, .series = ls};
    const nr_figure_inputs in = {.lorenz = &li, .latency = &lti};
    NR_TRY(nr_render_figure(nr_figure_find("fig2"), &in, NR_RENDER_SVG, NR_RENDER_COLUMN_WIDTH_PT, &f->lorenz, err));
    NR_TRY(nr_render_figure(nr_figure_find("fig4"), &in, NR_RENDER_SVG, NR_RENDER_COLUMN_WIDTH_PT, &f->latency, err));
    return 0;
}

typedef struct compare_run {
    const compare_args *args;
    loaded_group *groups;
    nr_compare_match *matches;
    size_t nmatches;
    nr_compare_pair *pairs;
} compare_run;

static const loaded_run *run_a(const compare_run *c, size_t i) { return &c->groups[0].runs[c->matches[i].a_run]; }
static const loaded_run *run_b(const compare_run *c, size_t i)
{
    return &c->groups[c->matches[i].group].runs[c->matches[i].b_run];
}

/* "read p99 +23.0%; ..." : the significant (or changed) stats of a pair. */
static const char *change_list(strpool *p, const nr_compare_pair *pr, nr_verdict which)
{
    size_t cap = 64, len = 0;
    char *s = malloc(cap);
    if (!s)
        return "";
    s[0] = '\0';
    for (size_t i = 0; i < pr->nstats; i++) {
        const nr_compare_stat *st = &pr->stats[i];
        if (st->verdict != which)
            continue;
        char item[192], rel[32];
        if (st->kind == NR_STAT_KS)
            snprintf(item, sizeof item, "%s (D = %.2f)", st->name, st->ks.d);
        else {
            fmt_rel(st->rel_diff, rel, sizeof rel);
            snprintf(item, sizeof item, "%s %s", st->name, rel);
        }
        const size_t need = len + strlen(item) + 3;
        if (need > cap) {
            while (cap < need)
                cap *= 2;
            char *n = realloc(s, cap);
            if (!n)
                break;
            s = n;
        }
        len += (size_t)sprintf(s + len, "%s%s", len ? "; " : "", item);
    }
    const char *r = pool_add(p, len ? s : "none");
    free(s);
    return r;
}

static int build_html(const compare_run *c, const char *template_text, nr_render_buf *html, nr_error *err)
{
    const size_t np = c->nmatches;
    strpool p = {0};
    nr_crep_section *secs = calloc(np + 1, sizeof *secs);
    pair_figs *figs = calloc(np ? np : 1, sizeof *figs);
    nr_crep_figure *crf = calloc(2 * (np ? np : 1), sizeof *crf);
    static const char *const over_head[] = {"workload", "A", "B", "significant", "significant changes",
                                            "descriptive changes (untested)"};
    const char **over = calloc((np ? np : 1) * 6, sizeof *over);
    const char **over_cls = calloc(np ? np : 1, sizeof *over_cls);
    int rc = (!secs || !figs || !crf || !over || !over_cls) ? nr_error_set(err, NR_E_NOMEM, "out of memory") : 0;
    nr_crep_table over_table = {.caption = "pairs", .ncols = 6, .nrows = np, .head = over_head, .cells = over,
                                .row_class = over_cls};
    char buf[512];
    for (size_t i = 0; rc == 0 && i < np; i++) {
        const nr_compare_pair *pr = &c->pairs[i];
        const loaded_run *a = run_a(c, i), *b = run_b(c, i);
        over[i * 6 + 0] = pool_add(&p, a->workload);
        over[i * 6 + 1] = a->display;
        over[i * 6 + 2] = b->display;
        snprintf(buf, sizeof buf, "%zu", pr->nsignificant);
        over[i * 6 + 3] = pool_add(&p, buf);
        over[i * 6 + 4] = change_list(&p, pr, NR_VERDICT_SIGNIFICANT);
        over[i * 6 + 5] = change_list(&p, pr, NR_VERDICT_CHANGED);
        over_cls[i] = pr->nsignificant ? "significant" : NULL;

        rc = render_pair_figures(a, b, &figs[i], err);
        if (rc < 0)
            break;
        crf[2 * i] = (nr_crep_figure){.caption = "Lorenz curves of per-file bytes, A and B overlaid",
                                      .svg = figs[i].lorenz.data, .len = figs[i].lorenz.len};
        crf[2 * i + 1] = (nr_crep_figure){.caption = "Read latency CDF and tail, A and B overlaid",
                                          .svg = figs[i].latency.data, .len = figs[i].latency.len};
        nr_crep_table *tabs;
        size_t ntabs;
        if (pair_tables(&p, pr, c->args->opts.boot.level, &tabs, &ntabs) < 0) {
            free_tables(tabs, ntabs);
            rc = nr_error_set(err, NR_E_NOMEM, "out of memory");
            break;
        }
        snprintf(buf, sizeof buf, "pair-%zu", i + 1);
        const char *id = pool_add(&p, buf);
        snprintf(buf, sizeof buf, "%.100s: %.200s vs %.200s", a->workload, a->display, b->display);
        const char *title = pool_add(&p, buf);
        snprintf(buf, sizeof buf, "%zu significant change%s; %zu descriptive value%s changed by %.0f%% or more.",
                 pr->nsignificant, pr->nsignificant == 1 ? "" : "s", pr->nchanged, pr->nchanged == 1 ? "" : "s",
                 100 * c->args->opts.rule.rel_threshold);
        secs[i + 1] = (nr_crep_section){.id = id, .title = title, .intro = pool_add(&p, buf), .ntables = ntabs,
                                        .tables = tabs, .nfigures = 2, .figures = &crf[2 * i]};
    }
    if (rc == 0) {
        size_t total = 0;
        for (size_t i = 0; i < np; i++)
            total += c->pairs[i].nsignificant;
        snprintf(buf, sizeof buf, "%zu pair%s, %zu significant change%s in all. A is the baseline; "
                 "differences are B - A.", np, np == 1 ? "" : "s", total, total == 1 ? "" : "s");
        secs[0] = (nr_crep_section){.id = "overview", .title = "Pairs and significant changes",
                                    .intro = pool_add(&p, buf), .ntables = 1, .tables = &over_table};
        char sub[1024];
        size_t len = 0;
        for (size_t g = 0; g < c->args->ngroups && len < sizeof sub; g++)
            len += (size_t)snprintf(sub + len, sizeof sub - len, "%s%s = %s", g ? ", " : "", c->groups[g].id,
                                    c->args->inputs[g]);
        snprintf(buf, sizeof buf, "bootstrap B = %d, seed %" PRIu64 ", threshold %.0f%%, KS alpha %g, D >= %.2f, "
                 "latency floor %g x fastest call",
                 c->args->opts.boot.bootstraps, c->args->opts.boot.seed, 100 * c->args->opts.rule.rel_threshold,
                 c->args->opts.rule.ks_alpha, c->args->opts.rule.ks_min_d, c->args->opts.rule.floor_factor);
        char subtitle[1600];
        snprintf(subtitle, sizeof subtitle, "%s; %s", sub, buf);
        const nr_crep_doc doc = {.title = c->args->title, .subtitle = subtitle, .nsections = np + 1,
                                 .sections = secs};
        rc = p.oom ? nr_error_set(err, NR_E_NOMEM, "out of memory")
                   : nr_compare_report_html(template_text, &doc, html, err);
    }
    for (size_t i = 0; secs && i < np; i++) {
        free_tables((nr_crep_table *)secs[i + 1].tables, secs[i + 1].ntables);
        if (figs) {
            nr_render_buf_fini(&figs[i].lorenz);
            nr_render_buf_fini(&figs[i].latency);
        }
    }
    free(secs);
    free(figs);
    free(crf);
    free(over);
    free(over_cls);
    pool_free(&p);
    return rc;
}

/* ---- JSON ------------------------------------------------------------- */

static json_t *run_ref(const loaded_group *g, size_t run)
{
    return json_pack("{s:s, s:s, s:s}", "group", g->id, "run", g->in.runs[run].name, "workload",
                     g->runs[run].workload);
}

static json_t *names_with(const nr_compare_pair *pr, nr_verdict v)
{
    json_t *a = json_array();
    for (size_t i = 0; i < pr->nstats; i++)
        if (pr->stats[i].verdict == v)
            json_array_append_new(a, json_string(pr->stats[i].name));
    return a;
}

static int is_paired(const compare_run *c, size_t group, size_t run)
{
    for (size_t i = 0; i < c->nmatches; i++) {
        const nr_compare_match *m = &c->matches[i];
        if ((group == 0 && m->a_run == run) || (m->group == group && m->b_run == run))
            return 1;
    }
    return 0;
}

static json_t *build_json(const compare_run *c)
{
    json_t *root = json_object();
    json_object_set_new(root, "schema_version", json_integer(NR_COMPARE_SCHEMA_VERSION));
    json_object_set_new(root, "generator", json_string("niorep compare " NR_VERSION));
    json_object_set_new(root, "options", nr_compare_opts_json(&c->args->opts));
    json_t *groups = json_array(), *unmatched = json_array(), *pairs = json_array();
    for (size_t g = 0; g < c->args->ngroups; g++) {
        const loaded_group *lg = &c->groups[g];
        json_t *runs = json_array();
        for (size_t k = 0; k < lg->in.n; k++) {
            json_array_append_new(runs, json_pack("{s:s, s:s, s:s}", "name", lg->in.runs[k].name, "workload",
                                                  lg->runs[k].workload, "source", lg->in.runs[k].source));
            if (!is_paired(c, g, k))
                json_array_append_new(unmatched, run_ref(lg, k));
        }
        json_array_append_new(groups, json_pack("{s:s, s:s, s:o}", "id", lg->id, "input", c->args->inputs[g],
                                                "runs", runs));
    }
    for (size_t i = 0; i < c->nmatches; i++) {
        const nr_compare_match *m = &c->matches[i];
        const nr_compare_pair *pr = &c->pairs[i];
        json_array_append_new(pairs, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}",
                                               "workload", run_a(c, i)->workload,
                                               "a", run_ref(&c->groups[0], m->a_run),
                                               "b", run_ref(&c->groups[m->group], m->b_run),
                                               "significant", names_with(pr, NR_VERDICT_SIGNIFICANT),
                                               "changed", names_with(pr, NR_VERDICT_CHANGED),
                                               "stats", nr_compare_pair_json(pr)));
    }
    json_object_set_new(root, "groups", groups);
    json_object_set_new(root, "pairs", pairs);
    json_object_set_new(root, "unmatched", unmatched);
    return root;
}

/* ---- output ----------------------------------------------------------- */

static int write_file(const char *path, const void *data, size_t len, nr_error *err)
{
    nr_outfile f;
    NR_TRY(nr_outfile_open(&f, path, err));
    int rc = nr_outfile_write(&f, data, len, err);
    if (rc == 0)
        rc = nr_outfile_commit(&f, err);
    nr_outfile_abort(&f);
    return rc;
}

static int read_template(char **out, nr_error *err)
{
    const char *dir = getenv("NIOREP_TEMPLATE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/compare.html", dir && *dir ? dir : NR_SOURCE_DIR "/templates");
    FILE *f = fopen(path, "rb");
    if (!f)
        return nr_error_errno(err, NR_E_IO, errno, "%s: cannot open the compare template (set NIOREP_TEMPLATE_DIR)",
                              path);
    size_t cap = 16384, len = 0;
    char *s = malloc(cap);
    for (size_t got; s && (got = fread(s + len, 1, cap - len - 1, f)) > 0;) {
        len += got;
        if (len + 1 == cap) {
            char *n = realloc(s, cap *= 2);
            if (!n) {
                free(s);
                s = NULL;
            }
            s = n;
        }
    }
    const int bad = ferror(f);
    fclose(f);
    if (!s || bad) {
        free(s);
        return nr_error_set(err, NR_E_IO, "%s: cannot read the compare template", path);
    }
    s[len] = '\0';
    *out = s;
    return 0;
}

static int compare_all(compare_run *c, nr_error *err)
{
    const size_t ng = c->args->ngroups;
    const char **names[MAX_GROUPS];
    size_t nruns[MAX_GROUPS];
    int rc = 0;
    for (size_t g = 0; g < ng; g++) {
        nruns[g] = c->groups[g].in.n;
        names[g] = calloc(nruns[g] ? nruns[g] : 1, sizeof *names[g]);
        if (!names[g])
            rc = nr_error_set(err, NR_E_NOMEM, "out of memory");
        for (size_t k = 0; names[g] && k < nruns[g]; k++)
            names[g][k] = c->groups[g].runs[k].workload;
    }
    if (rc == 0)
        rc = nr_compare_match_runs((const char *const *const *)names, nruns, ng, &c->matches, &c->nmatches, err);
    for (size_t g = 0; g < ng; g++)
        free(names[g]);
    if (rc < 0)
        return rc;
    c->pairs = calloc(c->nmatches ? c->nmatches : 1, sizeof *c->pairs);
    if (!c->pairs)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    for (size_t i = 0; i < c->nmatches; i++) {
        const loaded_run *a = run_a(c, i), *b = run_b(c, i);
        const nr_compare_side sa = {.name = a->display, .workload = a->workload, .model = a->model,
                                    .sample = &a->sample};
        const nr_compare_side sb = {.name = b->display, .workload = b->workload, .model = b->model,
                                    .sample = &b->sample};
        NR_TRY(nr_compare_pair_compute(&sa, &sb, &c->args->opts, &c->pairs[i], err));
    }
    return 0;
}

static int write_outputs(const compare_run *c, nr_error *err)
{
    char *tmpl = NULL;
    NR_TRY(read_template(&tmpl, err));
    nr_render_buf html;
    nr_render_buf_init(&html);
    int rc = build_html(c, tmpl, &html, err);
    free(tmpl);
    if (rc == 0)
        rc = write_file(c->args->out_html, html.data, html.len, err);
    nr_render_buf_fini(&html);
    if (rc == 0 && c->args->out_json) {
        json_t *j = build_json(c);
        char *text = j ? json_dumps(j, NR_MODEL_JSON_FLAGS) : NULL;
        json_decref(j);
        if (!text)
            return nr_error_set(err, NR_E_NOMEM, "compare: cannot build the JSON");
        const size_t len = strlen(text);
        char *line = realloc(text, len + 2);
        if (!line) {
            free(text);
            return nr_error_set(err, NR_E_NOMEM, "compare: cannot build the JSON");
        }
        memcpy(line + len, "\n", 2);
        rc = write_file(c->args->out_json, line, len + 1, err);
        free(line);
    }
    return rc;
}

int nr_cmd_compare(int argc, char **argv)
{
    compare_args a = {0};
    const int status = parse_args(argc, argv, &a);
    if (status >= 0)
        return status;
    nr_error err;
    nr_error_clear(&err);
    char *work_dir = NULL;
    loaded_group groups[MAX_GROUPS];
    memset(groups, 0, sizeof groups);
    compare_run c = {.args = &a, .groups = groups};
    int rc = nr_inputs_make_work_dir(&work_dir, &err);
    if (rc == 0)
        rc = load_groups(&a, work_dir, groups, &err);
    if (rc == 0)
        rc = compare_all(&c, &err);
    if (rc == 0)
        rc = write_outputs(&c, &err);
    if (rc == 0) {
        size_t total = 0;
        for (size_t i = 0; i < c.nmatches; i++)
            total += c.pairs[i].nsignificant;
        printf("%s: %zu pair%s, %zu significant change%s\n", a.out_html, c.nmatches, c.nmatches == 1 ? "" : "s",
               total, total == 1 ? "" : "s");
    }
    for (size_t i = 0; c.pairs && i < c.nmatches; i++)
        nr_compare_pair_fini(&c.pairs[i]);
    free(c.pairs);
    free(c.matches);
    free_groups(groups, a.ngroups);
    nr_inputs_remove_work_dir(work_dir);
    free(work_dir);
    nr_render_shutdown();
    return rc < 0 ? nr_cli_fail(&err) : 0;
}
