/* niorep compare A B [C ...] -o compare.html [--json FILE]: pairs the runs of
 * the groups by workload, compares every statistic, and writes the compare
 * report (and its JSON). Method and schema: docs/compare.md. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "compare.h"
#include "compare_fmt.h"
#include "compare_replicates.h"
#include "figure_inputs.h"
#include "json_number.h"
#include "json_file.h"
#include "load_bar.h"
#include "manifest.h"   /* the manifest beside a log given alone */
#include "nr_model.h"
#include "nr_outfile.h"
#include "nr_render.h"
#include "nr_store.h"
#include "nr_templates.h"   /* compare.html and the report's style sheet, compiled in */
#include "nr_parallel.h"
#include "report.h"
#include "runset.h"

/* The defaults as the model defines them, so that the help cannot drift
 * from them (it said 0.05 for a threshold of 0.10). */
#define STR_(x) #x
#define STR(x) STR_(x)

static const char options_text[] =
    "  -o FILE              the HTML report (required)\n"
    "  --json FILE          the comparison as JSON (schema: docs/compare.md)\n"
    "  --bootstraps N       bootstrap resamples per confidence interval (default " STR(NR_COMPARE_DEFAULT_BOOTSTRAPS) ")\n"
    "  --seed N             seed of the bootstraps and the call samples (default " STR(NR_COMPARE_DEFAULT_SEED) ")\n"
    "  --threshold X        practical threshold on the relative difference (default " STR(NR_COMPARE_DEFAULT_REL_THRESHOLD) ")\n"
    "  --ks-alpha X         KS significance level (default " STR(NR_COMPARE_DEFAULT_KS_ALPHA) ")\n"
    "  --ks-min-d X         smallest KS D that counts as a change (default " STR(NR_COMPARE_DEFAULT_KS_MIN_D) ")\n"
    "  --floor-factor X     latency changes must exceed X times the faster run's 1st-percentile call\n"
    "                       (default " STR(NR_COMPARE_DEFAULT_FLOOR_FACTOR) ")\n"
    "  --sample-cap N       calls kept per op class and run for KS and bootstraps (default " STR(NR_COMPARE_DEFAULT_SAMPLE_CAP) ")\n"
    "  --replicate-alpha X  level of the permutation test over replicate runs, and of its false discovery\n"
    "                       rate over a pool's statistics (default " STR(NR_COMPARE_DEFAULT_REPLICATE_ALPHA) ")\n"
    "  --title T            report title (default \"niorep compare\")\n"
    "  --files-by-node      in merged multi-node runs every file belongs to its node\n"
    "  -j, --jobs N         threads in all: runs ingested and modelled, pairs compared (default: the cores it may use)\n"
    "  -h, --help           this help\n"
    "  --                   the end of the options (an input named -x)\n"
    "\nEach of A, B, C... is a group: a store, a run directory, one strace log or a\n"
    "traces folder. Runs are paired by their workload label (manifest labels.workload,\n"
    "else the directory name; for one log, the manifest.json beside it, else its\n"
    "folder's name) between A and each later group; two single runs pair anyway.\n"
    "A comparison without any pair is an error (exit 1).\n"
    "Several runs of a workload a side (replicates) are also compared together:\n"
    "a change must stand out from the spread between runs (permutation test);\n"
    "q, the Benjamini-Hochberg adjusted p, tells which changes hold over the many\n"
    "statistics tested at once.\n";

#define MAX_GROUPS 26

typedef struct compare_args {
    const char *inputs[MAX_GROUPS];
    size_t ngroups;
    const char *out_html, *out_json, *title;
    int files_by_node;
    int jobs;                   /* 0: all cores */
    nr_compare_opts opts;
} compare_args;

/* One run, ingested (or cached) and open. Its model and its call sample
 * exist only while a pair of it is compared (compare_pair): all the runs'
 * at once grew with the runs (a model of many files is megabytes, a sample
 * up to 24 MB at the default cap). */
typedef struct loaded_run {
    char display[256];          /* "A:mlp" */
    char *label;                /* its workload label, owned; NULL when none (nr_compare_workload) */
    const char *workload;       /* the label, else the run name */
    const nr_run *run;          /* borrowed from the group's runset: name, source, store */
} loaded_run;

typedef struct loaded_group {
    char id[2];
    nr_runset rs;               /* the group's runs: ingested (cached) and open stores */
    loaded_run *runs;           /* rs.n */
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

/* The folder of path, resolved, then '/' and its last component, into out;
 * 0, or -1 when the folder does not resolve. */
static int resolved_name(const char *path, char *out, size_t cap)
{
    char d[PATH_MAX], b[PATH_MAX], real[PATH_MAX];
    snprintf(d, sizeof d, "%s", path);
    snprintf(b, sizeof b, "%s", path);
    if (!realpath(dirname(d), real))
        return -1;
    return snprintf(out, cap, "%s/%s", real, basename(b)) < (int)cap ? 0 : -1;
}

/* Whether two output paths name one file: one file when both exist, else
 * the same name in the same folder. */
static int same_output(const char *x, const char *y)
{
    struct stat sx, sy;
    if (stat(x, &sx) == 0 && stat(y, &sy) == 0)
        return sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino;
    char rx[2 * PATH_MAX], ry[2 * PATH_MAX];
    if (resolved_name(x, rx, sizeof rx) < 0 || resolved_name(y, ry, sizeof ry) < 0)
        return strcmp(x, y) == 0;
    return strcmp(rx, ry) == 0;
}

/* A numeric option's value into *out: 0, or the usage error naming the
 * value and the option (2). integer: whole numbers only. */
static int num_opt(const char *opt, const char *val, double lo, double hi, int integer, double *out)
{
    if (parse_num(val, lo, hi, out) == 0 && (!integer || *out == floor(*out)))
        return 0;
    return nr_cli_usage("compare", "bad value '%s' for %s", val, opt);
}

/* Returns -1 to go on, or the exit status. getopt_long, as the other
 * commands parse: values joined ("-j1", "-oc.html", "--jobs=1") or apart,
 * "--" ends the options, a flag given a value and an unknown option are
 * usage errors named without their value (until session 49 a hand-written
 * loop took "--bogus" last as "--bogus needs a value", "--" as an option,
 * and ran "--files-by-node=banana"; review 49). */
static int parse_args(int argc, char **argv, compare_args *a)
{
    enum { OPT_JSON = 256, OPT_BOOT, OPT_SEED, OPT_THRESHOLD, OPT_KS_ALPHA, OPT_KS_MIN_D, OPT_FLOOR, OPT_CAP,
           OPT_REP_ALPHA, OPT_TITLE, OPT_BY_NODE };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},          {"json", required_argument, NULL, OPT_JSON},
        {"bootstraps", required_argument, NULL, OPT_BOOT},  {"seed", required_argument, NULL, OPT_SEED},
        {"threshold", required_argument, NULL, OPT_THRESHOLD}, {"ks-alpha", required_argument, NULL, OPT_KS_ALPHA},
        {"ks-min-d", required_argument, NULL, OPT_KS_MIN_D}, {"floor-factor", required_argument, NULL, OPT_FLOOR},
        {"sample-cap", required_argument, NULL, OPT_CAP},  {"replicate-alpha", required_argument, NULL, OPT_REP_ALPHA},
        {"title", required_argument, NULL, OPT_TITLE},     {"files-by-node", no_argument, NULL, OPT_BY_NODE},
        {"jobs", required_argument, NULL, 'j'},            {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    nr_compare_opts_default(&a->opts);
    a->title = "niorep compare";
    nr_verdict_rule *r = &a->opts.rule;
    double v;
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, ":o:j:h", longopts, NULL)) != -1;) {
        switch (c) {
        case 'o': a->out_html = optarg; break;
        case OPT_JSON: a->out_json = optarg; break;
        case OPT_TITLE: a->title = optarg; break;
        case OPT_BY_NODE: a->files_by_node = 1; break;
        case 'h': nr_cli_help(nr_cli_find("compare"), options_text, stdout); return 0;
        case 'j':
            if (parse_num(optarg, 0, 1024, &v) < 0 || v != floor(v))
                return nr_cli_usage("compare", "--jobs expects a number from 0 to 1024, got '%s'", optarg);
            a->jobs = (int)v;
            break;
        case OPT_BOOT:
            if (num_opt("--bootstraps", optarg, NR_COMPARE_MIN_BOOTSTRAPS, 1e6, 1, &v))
                return 2;
            a->opts.boot.bootstraps = (int)v;
            break;
        case OPT_SEED:
            if (num_opt("--seed", optarg, 1, 9e15, 1, &v))
                return 2;
            a->opts.boot.seed = (uint64_t)v;
            break;
        case OPT_THRESHOLD:
            if (num_opt("--threshold", optarg, 0, 100, 0, &r->rel_threshold))
                return 2;
            break;
        case OPT_KS_ALPHA:
            if (num_opt("--ks-alpha", optarg, 0, 1, 0, &r->ks_alpha))
                return 2;
            break;
        case OPT_KS_MIN_D:
            if (num_opt("--ks-min-d", optarg, 0, 1, 0, &r->ks_min_d))
                return 2;
            break;
        case OPT_FLOOR:
            if (num_opt("--floor-factor", optarg, 0, 1000, 0, &r->floor_factor))
                return 2;
            break;
        case OPT_CAP:
            if (num_opt("--sample-cap", optarg, 20, 1e8, 1, &v))
                return 2;
            a->opts.sample_cap = (size_t)v;
            break;
        case OPT_REP_ALPHA:
            if (num_opt("--replicate-alpha", optarg, 0, 1, 0, &r->replicate_alpha))
                return 2;
            break;
        default: return nr_cli_bad_option("compare", c, argv);
        }
    }
    for (int i = optind; i < argc; i++) {
        if (a->ngroups == MAX_GROUPS)
            return nr_cli_usage("compare", "at most %d groups", MAX_GROUPS);
        a->inputs[a->ngroups++] = argv[i];
    }
    if (a->ngroups < 2)
        return nr_cli_usage("compare", "needs at least two inputs (A B)");
    if (!a->out_html)
        return nr_cli_usage("compare", "missing -o compare.html");
    if (a->out_json && same_output(a->out_html, a->out_json))
        return nr_cli_usage("compare", "-o and --json name the same file '%s': the JSON would replace the report",
                            a->out_json);
    return -1;
}

/* ---- loading ---------------------------------------------------------- */

static void free_groups(loaded_group *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; g[i].runs && k < g[i].rs.n; k++)
            free(g[i].runs[k].label);
        free(g[i].runs);
        nr_runset_fini(&g[i].rs);
    }
}

/* The workload of the run of one strace log given as a group: the
 * manifest.json beside the log (labels.workload), else the log's folder
 * name, as a run folder's. The ingest of one log reads no manifest and
 * names its run by the file, so that until session 49 "strace.log.zst"
 * paired with nothing (review 49). *out: a new string, the caller frees. */
static int log_workload(const char *log, char **out, nr_error *err)
{
    char dir[PATH_MAX], path[PATH_MAX + 16], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", log);
    const char *folder = dirname(dir);
    snprintf(path, sizeof path, "%s/manifest.json", folder);
    *out = NULL;
    if (access(path, F_OK) == 0) {
        nr_manifest m;
        nr_manifest_init(&m);
        const int rc = nr_manifest_load(path, &m, err);
        const char *w = rc == 0 ? nr_manifest_get(&m, "labels.workload") : NULL;
        const int labelled = w && *w; /* w is the manifest's: not read after its fini */
        if (labelled)
            *out = strdup(w);
        nr_manifest_fini(&m);
        NR_TRY(rc);
        if (labelled && !*out)
            return nr_error_set(err, NR_E_NOMEM, "out of memory");
    }
    if (!*out && realpath(folder, real) && strcmp(real, "/") != 0) {
        snprintf(dir, sizeof dir, "%s", real);
        if (!(*out = strdup(basename(dir))))
            return nr_error_set(err, NR_E_NOMEM, "out of memory");
    }
    return 0;
}

/* Each input is one group: its runs are ingested (or taken from the cache)
 * and opened, and their workload labels read. */
static int load_groups(const compare_args *a, loaded_group *g, nr_error *err)
{
    /* every group's inputs found and the outputs checked against them
       before any ingest: until session 49 a typo in B was found after A
       was ingested, minutes of work on large traces (review 49) */
    for (size_t i = 0; i < a->ngroups; i++) {
        g[i].id[0] = (char)('A' + i);
        char *input = (char *)a->inputs[i];
        NR_TRY(nr_runset_expand(&g[i].rs, &input, 1, err));
        NR_TRY(nr_runset_check_output(&g[i].rs, a->out_html, err));
        if (a->out_json)
            NR_TRY(nr_runset_check_output(&g[i].rs, a->out_json, err));
    }
    for (size_t i = 0; i < a->ngroups; i++) {
        g[i].rs.files_by_node = a->files_by_node;
        g[i].rs.jobs = a->jobs;
        g[i].rs.no_models = 1;
        nr_load_bar *bar = nr_load_bar_attach(&g[i].rs);
        const int rc = nr_runset_load(&g[i].rs, NULL, nr_load_line, err);
        nr_load_bar_free(bar);
        NR_TRY(rc);
        const char group[] = {g[i].id[0], ':', ' ', '\0'};
        nr_runset_say_reuse(&g[i].rs, group);
        g[i].runs = calloc(g[i].rs.n ? g[i].rs.n : 1, sizeof *g[i].runs);
        if (!g[i].runs)
            return nr_error_set(err, NR_E_NOMEM, "out of memory");
        for (size_t k = 0; k < g[i].rs.n; k++) {
            loaded_run *r = &g[i].runs[k];
            const nr_run *run = &g[i].rs.runs[k];
            r->run = run;
            NR_TRY(nr_compare_workload(run->store, run->name, &r->label, &r->workload, err));
            struct stat st;
            if (!r->label && run->input_path && g[i].rs.n == 1 && stat(a->inputs[i], &st) == 0 &&
                S_ISREG(st.st_mode)) {
                NR_TRY(log_workload(run->input_path, &r->label, err));
                if (r->label)
                    r->workload = r->label;
            }
            snprintf(r->display, sizeof r->display, "%c:%.200s", g[i].id[0], run->name);
        }
    }
    return 0;
}

/* ---- the report document ---------------------------------------------- */

static const char *const stat_head[] = {"statistic", "A", "B", "B - A", "relative", "95% CI of B - A", "test",
                                        "verdict"};
enum { STAT_COLS = 8 };
#define STAT_NUM_COLS 0x3Eu   /* columns 1..5 are numbers */

/* One row of a statistics table. */
static void stat_row(nr_report_table *t, const nr_compare_stat *s, double level)
{
    char buf[192], x[64], y[64];
    nr_report_table_row(t);
    nr_report_table_cell(t, s->name);
    if (s->kind == NR_STAT_KS) {
        snprintf(buf, sizeof buf, "%" PRIu64 " calls", s->n_a);
        nr_report_table_cell(t, buf);
        snprintf(buf, sizeof buf, "%" PRIu64 " calls", s->n_b);
        nr_report_table_cell(t, buf);
        snprintf(buf, sizeof buf, "D = %.3f (%.3f beyond tolerance)", s->ks.d, s->ks.d_practical);
        nr_report_table_cell(t, isnan(s->ks.d) ? "-" : buf);
        nr_report_table_cell(t, "");
        nr_report_table_cell(t, "");
        nr_compare_fmt_ks_p(&s->ks, buf, sizeof buf);
        nr_report_table_cell(t, isnan(s->ks.p_value) ? "-" : buf);
    } else {
        nr_compare_fmt_value(s->unit, s->a, buf, sizeof buf);
        nr_report_table_cell(t, buf);
        nr_compare_fmt_value(s->unit, s->b, buf, sizeof buf);
        nr_report_table_cell(t, buf);
        nr_compare_fmt_diff(s->unit, s->abs_diff, buf, sizeof buf);
        nr_report_table_cell(t, buf);
        nr_compare_fmt_rel(s->rel_diff, buf, sizeof buf);
        nr_report_table_cell(t, buf);
        if (s->kind == NR_STAT_BOOTSTRAP && s->ci.bootstraps > 0) {
            nr_compare_fmt_diff(s->unit, s->ci.low, x, sizeof x);
            nr_compare_fmt_diff(s->unit, s->ci.high, y, sizeof y);
            snprintf(buf, sizeof buf, "[%s, %s]", x, y);
            nr_report_table_cell(t, buf);
            /* n is the call sample's; a sampled interval is moved to the
               difference over all calls, said here as in the JSON (until
               session 49 only the JSON's ci.recentred said so: review 49) */
            if (s->ci_recentred)
                snprintf(buf, sizeof buf,
                         "bootstrap B=%d, %.0f%%, of call samples n=%" PRIu64 "/%" PRIu64
                         ", moved to the difference over all calls",
                         s->ci.bootstraps, 100 * level, s->n_a, s->n_b);
            else
                snprintf(buf, sizeof buf, "bootstrap B=%d, %.0f%%, n=%" PRIu64 "/%" PRIu64, s->ci.bootstraps,
                         100 * level, s->n_a, s->n_b);
            nr_report_table_cell(t, buf);
        } else {
            nr_report_table_cell(t, "");
            nr_report_table_cell(t, s->kind == NR_STAT_BOOTSTRAP ? "bootstrap" : "");
        }
    }
    /* Upper case marks what the first table lists, for readers and for grep. */
    nr_report_table_cell(t, s->verdict == NR_VERDICT_SIGNIFICANT ? "SIGNIFICANT" : nr_verdict_name(s->verdict));
}

/* The rows of one section of a pair as a table in b. */
static void section_table(nr_report_block *b, const nr_compare_pair *pr, const char *section, const char *caption,
                          double level)
{
    size_t n = 0;
    for (size_t i = 0; i < pr->nstats; i++)
        n += strcmp(pr->stats[i].section, section) == 0;
    if (n == 0) {
        /* no latency because nothing was timed is not "none": until session
           49 two runs of thousands of reads traced without -T read "neither
           run has any" (review 49) */
        const int timed = strcmp(section, "latency") == 0 || strcmp(section, "throughput") == 0;
        nr_report_para(b, "unavailable", timed && !pr->durations[0] && !pr->durations[1]
                                             ? "nothing to compare here: neither run has call durations (traced "
                                               "without -T)"
                                             : "nothing to compare here: neither run has any");
        return;
    }
    nr_report_table *t = nr_report_table_new(b, caption, STAT_COLS, stat_head, STAT_NUM_COLS);
    for (size_t i = 0; i < pr->nstats; i++)
        if (strcmp(pr->stats[i].section, section) == 0)
            stat_row(t, &pr->stats[i], level);
}

/* What figure 4 of a pair draws, as `niorep build`'s figure 4 names it. */
#define FIG4_WHAT "job-file read"

typedef struct pair_figs {
    nr_render_buf lorenz, latency;
    nr_model_latency read_job[2];   /* figure 4's series, A and B: the job files' reads (kept for the
                                       page and the JSON after the models are freed: bins NULL) */
    nr_loghist read_job_hist[2];    /* their histograms (nr_model_latency_hist) */
} pair_figs;

static int render_pair_figures(const loaded_run *ra, const loaded_run *rb, const nr_model *const models[2],
                               pair_figs *f, nr_error *err)
{
    nr_render_buf_init(&f->lorenz);
    nr_render_buf_init(&f->latency);
    const loaded_run *runs[2] = {ra, rb};
    nr_fig_lorenz_run lr[2];
    nr_fig_latency_series ls[2];
    double xs[2][NR_FIGIN_LATENCY_POINTS], cdf[2][NR_FIGIN_LATENCY_POINTS], ccdf[2][NR_FIGIN_LATENCY_POINTS];
    for (int i = 0; i < 2; i++) {
        const nr_model *m = models[i];
        const double *lx, *ly;
        const size_t n = nr_model_lorenz(m, NR_CONC_TOTAL, &lx, &ly);
        const nr_concentration *c = nr_model_concentration(m, NR_CONC_TOTAL);
        lr[i] = (nr_fig_lorenz_run){.name = runs[i]->display, .n = n, .file_share = lx, .byte_share = ly,
                                    .top10_share = c->top10_share, .top10_x = nr_concentration_top10_x(c),
                                    .gini = c->gini};
        /* the job files' reads, as figure 4 of `niorep build` draws them
           (until session 50 every regular file's: the imports of the Python
           runtime beside build's job files) */
        const nr_model_latency *l = nr_model_latency_job(m, NR_LAT_READ);
        if (!nr_model_latency_hist(l, &f->read_job_hist[i]))
            return nr_error_set(err, NR_E_FORMAT, "the model keeps no histogram of the job files' reads");
        f->read_job[i] = *l;
        f->read_job[i].bins = NULL;   /* the model's, freed before the page is written */
        f->read_job[i].bin_lo = f->read_job[i].nbins = 0;
        ls[i] = (nr_fig_latency_series){.name = runs[i]->display,
                                        .n = nr_figin_latency_points(l, &f->read_job_hist[i], xs[i], cdf[i], ccdf[i]),
                                        .latency_s = xs[i], .cdf = cdf[i], .ccdf = ccdf[i],
                                        .p50 = l->count ? (double)l->q_ns[0] * 1e-9 : NAN,
                                        .p99 = l->count ? (double)l->q_ns[2] * 1e-9 : NAN,
                                        .p999 = l->count ? (double)l->q_ns[3] * 1e-9 : NAN, .calls = l->count};
    }
    const nr_fig_lorenz_input li = {.n_runs = 2, .runs = lr};
    const nr_fig_latency_input lti = {.what = FIG4_WHAT, .n_series = 2, .series = ls};
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
    nr_compare_pool *pools;     /* replicates: the pairs of a workload and group, when two or more */
    size_t npools;
    pair_figs *figs;            /* nmatches, zeroed (empty buffers): drawn with their pair, imported after */
} compare_run;

static const loaded_run *run_a(const compare_run *c, size_t i) { return &c->groups[0].runs[c->matches[i].a_run]; }
static const loaded_run *run_b(const compare_run *c, size_t i)
{
    return &c->groups[c->matches[i].group].runs[c->matches[i].b_run];
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

/* "read p99 +23.0%; ..." : the stats of a pair with verdict which (new string, caller frees). */
static char *change_list(const nr_compare_pair *pr, nr_verdict which)
{
    nr_compare_list l;
    if (nr_compare_list_init(&l) < 0)
        return NULL;
    for (size_t i = 0; i < pr->nstats; i++) {
        const nr_compare_stat *st = &pr->stats[i];
        if (st->verdict != which)
            continue;
        char item[192], rel[32];
        if (st->kind == NR_STAT_KS)
            snprintf(item, sizeof item, "%s (D = %.2f)", st->name, st->ks.d);
        else {
            nr_compare_fmt_rel(st->rel_diff, rel, sizeof rel);
            snprintf(item, sizeof item, "%s %s", st->name, rel);
        }
        nr_compare_list_add(&l, item);
    }
    return nr_compare_list_done(&l);
}

static void overview(nr_report *rep, const compare_run *c)
{
    nr_report_block *ov = nr_report_overview(rep);
    size_t total = 0;
    for (size_t i = 0; i < c->nmatches; i++)
        total += c->pairs[i].nsignificant;
    char buf[512];
    snprintf(buf, sizeof buf, "%zu pair%s, %zu significant change%s in all. A is the baseline; differences are B - A.",
             c->nmatches, c->nmatches == 1 ? "" : "s", total, total == 1 ? "" : "s");
    nr_report_para(ov, NULL, buf);
    static const char *const heads[] = {"workload", "A", "B", "significant", "significant changes",
                                        "descriptive changes (untested)"};
    nr_report_table *t = nr_report_table_new(ov, "Pairs and significant changes", 6, heads, 0x8u);
    for (size_t i = 0; i < c->nmatches; i++) {
        const nr_compare_pair *pr = &c->pairs[i];
        nr_report_table_row(t);
        nr_report_table_cell(t, run_a(c, i)->workload);
        nr_report_table_cell(t, run_a(c, i)->display);
        nr_report_table_cell(t, run_b(c, i)->display);
        snprintf(buf, sizeof buf, "%zu", pr->nsignificant);
        nr_report_table_cell(t, buf);
        char *sig = change_list(pr, NR_VERDICT_SIGNIFICANT), *chg = change_list(pr, NR_VERDICT_CHANGED);
        nr_report_table_cell(t, sig ? sig : "?");
        nr_report_table_cell(t, chg ? chg : "?");
        free(sig);
        free(chg);
    }
    for (size_t g = 0; g < c->args->ngroups; g++)
        for (size_t k = 0; k < c->groups[g].rs.n; k++)
            if (!is_paired(c, g, k)) {
                snprintf(buf, sizeof buf, "unmatched: %s (workload %s)", c->groups[g].runs[k].display,
                         c->groups[g].runs[k].workload);
                nr_report_para(ov, "note", buf);
            }
    /* folders of a group's traces folder that are no run, as the build's
       report lists them (nr_runset.left_out; stderr said so already) */
    for (size_t g = 0; g < c->args->ngroups; g++)
        for (size_t k = 0; k < c->groups[g].rs.nleft_out; k++) {
            const nr_left_out *o = &c->groups[g].rs.left_out[k];
            char *line = NULL;
            if (asprintf(&line, "left out of group %s: %s (%s)", c->groups[g].id, o->path, o->why) >= 0)
                nr_report_para(ov, "note", line);
            free(line);
        }
}

/* A line saying which run could not measure what a section shows (its
 * values n/a there): durations (no -T) for latency and throughput,
 * timestamps for phases and bursts. Nothing when both runs could. */
static void note_unmeasured(nr_report_block *sec, const nr_compare_pair *pr, const loaded_run *a,
                            const loaded_run *b, int durations)
{
    const int *have = durations ? pr->durations : pr->timestamps;
    if (have[0] && have[1])
        return;
    char buf[768];
    snprintf(buf, sizeof buf, "%s%s%s %s no %s: %s values here are n/a, not 0.",
             have[0] ? "" : a->display, !have[0] && !have[1] ? " and " : "", have[1] ? "" : b->display,
             !have[0] && !have[1] ? "have" : "has",
             durations ? "call durations (traced without -T)" : "timestamps (traced without -tt/-ttt)",
             !have[0] && !have[1] ? "their" : "its");
    nr_report_para(sec, "unavailable", buf);
}

/* One line naming the rows whose change is real but within the latency
 * resolution: a reader should not take them for no change. */
static void note_below_resolution(nr_report_block *sec, const nr_compare_pair *pr)
{
    char text[1024] = "", one[2 + 96 + 32 + 64 + 32], rel[32], res[64];
    size_t n = 0;
    for (size_t k = 0; k < pr->nstats; k++) {
        const nr_compare_stat *s = &pr->stats[k];
        if (s->verdict != NR_VERDICT_BELOW_RESOLUTION)
            continue;
        nr_compare_fmt_rel(s->rel_diff, rel, sizeof rel);
        nr_compare_fmt_value("s", s->resolution, res, sizeof res);
        snprintf(one, sizeof one, "%s%s (%s, resolution %s)", n++ ? "; " : "", s->name, rel, res);
        if (strlen(text) + strlen(one) < sizeof text)
            strcat(text, one);
    }
    if (n == 0)
        return;
    char para[1200];
    snprintf(para, sizeof para,
             "Changed beyond the threshold but within the latency resolution (real in these two traces, no "
             "larger than tracing's noise can make): %s.", text);
    nr_report_para(sec, "note", para);
}

/* The findings section of a pair: one sentence per significant change, then
 * the table of the findings rules. */
static void add_pair_findings(nr_report_block *sec, const nr_compare_pair *pr, double level)
{
    char buf[2048];
    for (size_t k = 0; k < pr->nstats; k++) {
        const nr_compare_stat *s = &pr->stats[k];
        if (s->verdict != NR_VERDICT_SIGNIFICANT)
            continue;
        if (s->kind == NR_STAT_KS) {
            char p[64];
            nr_compare_fmt_ks_p(&s->ks, p, sizeof p);
            snprintf(buf, sizeof buf, "%s changed: KS D = %.3f, %s; %.1f%% of calls moved beyond the tolerance.",
                     s->name, s->ks.d, p, 100 * s->ks.d_practical);
        } else {
            char va[64], vb[64], lo[64], hi[64], rel[32];
            nr_compare_fmt_value(s->unit, s->a, va, sizeof va);
            nr_compare_fmt_value(s->unit, s->b, vb, sizeof vb);
            nr_compare_fmt_diff(s->unit, s->ci.low, lo, sizeof lo);
            nr_compare_fmt_diff(s->unit, s->ci.high, hi, sizeof hi);
            nr_compare_fmt_rel(s->rel_diff, rel, sizeof rel);
            snprintf(buf, sizeof buf, "%s: %s -> %s (%s; %.0f%% CI of the difference [%s, %s]).", s->name, va, vb,
                     rel, 100 * level, lo, hi);
        }
        nr_report_finding(sec, s->name, buf, NULL);
    }
    if (pr->nsignificant == 0)
        nr_report_para(sec, NULL, "No significant change.");
    note_below_resolution(sec, pr);
    section_table(sec, pr, "findings", "Findings rules that fired (1) in either run", level);
}

/* Figure 4's numbers of side k (0 A, 1 B) of a pair: the job files' reads
 * timed and their p50, p99, p99.9 (the levels the figure marks), exact
 * nearest-rank order statistics in seconds; NAN for what the side could
 * not measure (no -T) or does not have (no read). */
typedef struct fig4_numbers {
    double calls, p50, p99, p999;
} fig4_numbers;

static fig4_numbers fig4_of(const compare_run *c, size_t i, int k)
{
    const nr_model_latency *l = &c->figs[i].read_job[k];
    if (!c->pairs[i].durations[k])
        return (fig4_numbers){NAN, NAN, NAN, NAN};
    if (l->count == 0)
        return (fig4_numbers){0, NAN, NAN, NAN};
    return (fig4_numbers){(double)l->count, (double)l->q_ns[0] * 1e-9, (double)l->q_ns[2] * 1e-9,
                          (double)l->q_ns[3] * 1e-9};
}

/* The table beside figure 4: its series' numbers, A, B and B - A, untested
 * (the tested latency rows below are every regular file's, the runtime's
 * included, as niorep summary's). */
static void fig4_table(nr_report_block *b, const compare_run *c, size_t i)
{
    static const char *const heads[] = {"job-file reads", "A", "B", "B - A", "relative"};
    nr_report_table *t = nr_report_table_new(b,
                                             "Figure 4's numbers: read latency of the job files (the Python "
                                             "runtime's left out; exact order statistics, not tested)",
                                             5, heads, 0x1Eu);
    const fig4_numbers x[2] = {fig4_of(c, i, 0), fig4_of(c, i, 1)};
    const struct { const char *name, *unit; double a, b; } rows[] = {
        {"reads timed", "1", x[0].calls, x[1].calls},
        {"p50", "s", x[0].p50, x[1].p50},
        {"p99", "s", x[0].p99, x[1].p99},
        {"p99.9", "s", x[0].p999, x[1].p999},
    };
    char buf[64];
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        nr_report_table_row(t);
        nr_report_table_cell(t, rows[r].name);
        nr_compare_fmt_value(rows[r].unit, rows[r].a, buf, sizeof buf);
        nr_report_table_cell(t, buf);
        nr_compare_fmt_value(rows[r].unit, rows[r].b, buf, sizeof buf);
        nr_report_table_cell(t, buf);
        nr_compare_fmt_diff(rows[r].unit, rows[r].b - rows[r].a, buf, sizeof buf);
        nr_report_table_cell(t, buf);
        nr_compare_fmt_rel(nr_rel_diff(rows[r].a, rows[r].b), buf, sizeof buf);
        nr_report_table_cell(t, buf);
    }
}

static int add_pair(nr_report *rep, const compare_run *c, size_t i, const pair_figs *figs, nr_error *err)
{
    const nr_compare_pair *pr = &c->pairs[i];
    const loaded_run *a = run_a(c, i), *b = run_b(c, i);
    const double level = c->args->opts.boot.level;
    char title[512], id[64], buf[2048];
    /* where each run came from, as given: "vision" alone did not tell the
       two sides of `compare s t` apart (review 49) */
    const char *from_a = a->run->input_path ? a->run->input_path : a->run->store_path;
    const char *from_b = b->run->input_path ? b->run->input_path : b->run->store_path;
    snprintf(title, sizeof title, "%.100s: %.200s vs %.200s", a->workload, a->display, b->display);
    snprintf(id, sizeof id, "pair-%zu", i + 1);
    nr_report_block *run = nr_report_add_run(rep, title, id);
    if (!run)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");

    nr_report_block *sec = nr_report_run_section(run, NR_SEC_FACTS);
    snprintf(buf, sizeof buf, "A = %.256s (%.400s), B = %.256s (%.400s). %zu significant change%s; %zu descriptive value%s changed "
             "by %.0f%% or more.", a->display, from_a, b->display, from_b, pr->nsignificant,
             pr->nsignificant == 1 ? "" : "s", pr->nchanged, pr->nchanged == 1 ? "" : "s",
             100 * c->args->opts.rule.rel_threshold);
    nr_report_para(sec, NULL, buf);
    section_table(sec, pr, "run", "Run totals (regular files)", level);
    sec = nr_report_run_section(run, NR_SEC_PHASES);
    note_unmeasured(sec, pr, a, b, 0);
    note_unmeasured(sec, pr, a, b, 1);
    section_table(sec, pr, "phase", "Per phase", level);

    int rc = 0;
    sec = nr_report_run_section(run, NR_SEC_CONCENTRATION);
    nr_report_block *pair = nr_report_pair(sec);
    rc = nr_report_figure(rep, pair, "fig2", "Lorenz curves of the job files' bytes, A and B overlaid", figs->lorenz.data,
                          figs->lorenz.len, err);
    if (rc == 0) {
        section_table(nr_report_pair_numbers(pair), pr, "concentration", "Concentration of the job files' bytes", level);
        sec = nr_report_run_section(run, NR_SEC_LATENCY);
        pair = nr_report_pair(sec);
        rc = nr_report_figure(rep, pair, "fig4",
                              "Read latency of the job files (the Python runtime's left out), CDF and tail, A and "
                              "B overlaid",
                              figs->latency.data, figs->latency.len, err);
    }
    if (rc == 0) {
        fig4_table(nr_report_pair_numbers(pair), c, i);
        if (pr->durations[0] || pr->durations[1])
            note_unmeasured(sec, pr, a, b, 1);
        section_table(sec, pr, "latency",
                      "Latency per operation class (every regular file, the Python runtime's included; "
                      "sync also of directories and of no file)",
                      level);
        sec = nr_report_run_section(run, NR_SEC_TIMELINE);
        note_unmeasured(sec, pr, a, b, 0);
        note_unmeasured(sec, pr, a, b, 1);
        section_table(sec, pr, "throughput", "Bytes per second inside the calls; write bursts", level);
        section_table(nr_report_run_section(run, NR_SEC_ACCESS), pr, "access", "Access pattern", level);
        add_pair_findings(nr_report_run_section(run, NR_SEC_FINDINGS), pr, level);
    }
    return rc;
}

static int build_report(const compare_run *c, nr_report **out, nr_error *err)
{
    NR_TRY(nr_report_create((const char *)nr_tmpl_compare_html, nr_tmpl_compare_html_len,
                            (const char *)nr_tmpl_report_css, nr_tmpl_report_css_len, out, err));
    nr_report *rep = *out;
    nr_report_set_title(rep, c->args->title);
    char sub[2048];
    size_t len = 0;
    for (size_t g = 0; g < c->args->ngroups && len < sizeof sub; g++)
        len += (size_t)snprintf(sub + len, sizeof sub - len, "%s%s = %s", g ? ", " : "", c->groups[g].id,
                                c->args->inputs[g]);
    if (len < sizeof sub)
        snprintf(sub + len, sizeof sub - len,
                 "; bootstrap B = %d, seed %" PRIu64 ", threshold %.0f%%, KS alpha %g, D >= %.2f, latency floor %g x "
                 "a run's 1st-percentile call",
                 c->args->opts.boot.bootstraps, c->args->opts.boot.seed, 100 * c->args->opts.rule.rel_threshold,
                 c->args->opts.rule.ks_alpha, c->args->opts.rule.ks_min_d, c->args->opts.rule.floor_factor);
    nr_report_set_subtitle(rep, sub);
    overview(rep, c);
    const char **names = calloc(2 * (c->nmatches ? c->nmatches : 1), sizeof *names);
    if (!names)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    for (size_t i = 0; i < c->nmatches; i++) {
        names[i] = run_a(c, i)->display;
        names[c->nmatches + i] = run_b(c, i)->display;
    }
    const nr_compare_replicates_view v = {.pools = c->pools, .npools = c->npools, .pair_a = names,
                                          .pair_b = names + c->nmatches, .opts = &c->args->opts};
    nr_compare_replicates_overview(nr_report_overview(rep), &v);
    int rc = nr_compare_replicates_articles(rep, &v, err);
    free(names);
    for (size_t i = 0; i < c->nmatches && rc == 0; i++)
        rc = add_pair(rep, c, i, &c->figs[i], err);
    return rc;
}

/* ---- JSON ------------------------------------------------------------- */

static json_t *run_ref(const loaded_group *g, size_t run)
{
    return json_pack("{s:s, s:s, s:s}", "group", g->id, "run", g->rs.runs[run].name, "workload",
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

/* The pools of replicate pairs (docs/compare.md, "Replicates"). */
static json_t *replicates_json(const compare_run *c)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < c->npools; i++) {
        const nr_compare_pool *p = &c->pools[i];
        json_t *runs_a = json_array(), *runs_b = json_array(), *sig = json_array(), *sig_fdr = json_array(),
               *unpooled = json_array();
        for (size_t k = 0; k < p->npairs; k++) {
            const nr_compare_match *m = &c->matches[p->pairs[k]];
            json_array_append_new(runs_a, json_string(c->groups[0].rs.runs[m->a_run].name));
            json_array_append_new(runs_b, json_string(c->groups[m->group].rs.runs[m->b_run].name));
        }
        for (size_t k = 0; k < p->nstats; k++) {
            const nr_compare_pooled *s = &p->stats[k];
            if (s->verdict != NR_VERDICT_SIGNIFICANT)
                continue;
            json_array_append_new(sig, json_string(s->name));
            if (s->q_value <= c->args->opts.rule.replicate_alpha)
                json_array_append_new(sig_fdr, json_string(s->name));
        }
        for (size_t k = 0; k < p->nunpooled; k++)
            json_array_append_new(unpooled, json_string(p->unpooled[k]));
        json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                                             "workload", p->workload, "a_group", c->groups[0].id,
                                             "b_group", c->groups[p->group].id, "runs_per_side", (int)p->npairs,
                                             "smallest_p", nr_json_number(p->p_min), "a_runs", runs_a,
                                             "b_runs", runs_b, "significant", sig, "significant_at_fdr", sig_fdr,
                                             "unpooled", unpooled, "stats", nr_compare_pool_json(p)));
    }
    return arr;
}

/* One side of figure 4 in the JSON: its numbers (fig4_of) and the points
 * it joins (nr_figin_latency_points, as figures.json gives them). */
static json_t *fig4_side_json(const compare_run *c, size_t i, int k)
{
    const fig4_numbers x = fig4_of(c, i, k);
    double px[NR_FIGIN_LATENCY_POINTS], cdf[NR_FIGIN_LATENCY_POINTS], ccdf[NR_FIGIN_LATENCY_POINTS];
    const size_t n = nr_figin_latency_points(&c->figs[i].read_job[k], &c->figs[i].read_job_hist[k], px, cdf, ccdf);
    json_t *xs = json_array(), *ys = json_array(), *zs = json_array();
    for (size_t p = 0; p < n; p++) {
        json_array_append_new(xs, nr_json_number(px[p]));
        json_array_append_new(ys, nr_json_number(cdf[p]));
        json_array_append_new(zs, nr_json_number(ccdf[p]));
    }
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "calls", nr_json_number(x.calls), "p50_s",
                     nr_json_number(x.p50), "p99_s", nr_json_number(x.p99), "p999_s", nr_json_number(x.p999),
                     "latency_s", xs, "cdf", ys, "ccdf", zs);
}

static json_t *fig4_json(const compare_run *c, size_t i)
{
    return json_pack("{s:s, s:o, s:o}", "what", FIG4_WHAT, "a", fig4_side_json(c, i, 0), "b",
                     fig4_side_json(c, i, 1));
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
        for (size_t k = 0; k < lg->rs.n; k++) {
            json_array_append_new(runs, json_pack("{s:s, s:s, s:s}", "name", lg->rs.runs[k].name, "workload",
                                                  lg->runs[k].workload, "source", lg->rs.runs[k].source));
            if (!is_paired(c, g, k))
                json_array_append_new(unmatched, run_ref(lg, k));
        }
        json_array_append_new(groups, json_pack("{s:s, s:s, s:o, s:o}", "id", lg->id, "input", c->args->inputs[g],
                                                "runs", runs, "left_out", nr_left_out_json(&lg->rs)));
    }
    for (size_t i = 0; i < c->nmatches; i++) {
        const nr_compare_match *m = &c->matches[i];
        const nr_compare_pair *pr = &c->pairs[i];
        json_array_append_new(pairs, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
                                               "workload", run_a(c, i)->workload,
                                               "a", run_ref(&c->groups[0], m->a_run),
                                               "b", run_ref(&c->groups[m->group], m->b_run),
                                               "significant", names_with(pr, NR_VERDICT_SIGNIFICANT),
                                               "changed", names_with(pr, NR_VERDICT_CHANGED),
                                               "figure4", fig4_json(c, i),
                                               "stats", nr_compare_pair_json(pr)));
    }
    json_object_set_new(root, "groups", groups);
    json_object_set_new(root, "pairs", pairs);
    json_object_set_new(root, "replicates", replicates_json(c));
    json_object_set_new(root, "unmatched", unmatched);
    return root;
}

/* ---- output ----------------------------------------------------------- */

/* Pairs are compared on several threads. Each models its two runs, reads
 * their call samples, compares them, draws the pair's figures, and frees
 * models and samples: memory holds at most one pair's models and samples
 * per thread, whatever the number of runs, and the figures (tens of kB a
 * pair). A run paired in several groups is modelled and sampled once per
 * pair, to the same model and sample. */
typedef struct pair_job {
    int rc;
    nr_error err;
} pair_job;

typedef struct pair_work {
    compare_run *c;
    pair_job *jobs;
    nr_model_opts model_opts;
    pthread_mutex_t mu;     /* done and the progress line */
    size_t done;
    int tty;
} pair_work;

typedef struct pair_data {
    nr_model *models[2];
    nr_compare_sample samples[2];
} pair_data;

static int compare_one(const pair_work *w, size_t i, pair_data *d, nr_error *err)
{
    const compare_run *c = w->c;
    const loaded_run *runs[2] = {run_a(c, i), run_b(c, i)};
    const nr_compare_opts *o = &c->args->opts;
    nr_compare_side sides[2];
    for (int k = 0; k < 2; k++) {
        NR_TRY(nr_runset_model(runs[k]->run, &w->model_opts, &d->models[k], NULL, err));
        NR_TRY(nr_compare_sample_read(runs[k]->run->store, o->sample_cap, o->boot.seed, &d->samples[k], err));
        sides[k] = (nr_compare_side){.name = runs[k]->display, .workload = runs[k]->workload,
                                     .model = d->models[k], .sample = &d->samples[k]};
    }
    NR_TRY(nr_compare_pair_compute(&sides[0], &sides[1], o, &c->pairs[i], err));
    return render_pair_figures(runs[0], runs[1], (const nr_model *const *)d->models, &c->figs[i], err);
}

static void compare_pair(void *ctx, size_t i)
{
    pair_work *w = ctx;
    pair_data d = {0};
    for (int k = 0; k < 2; k++)
        nr_compare_sample_init(&d.samples[k]);
    nr_error_clear(&w->jobs[i].err);
    w->jobs[i].rc = compare_one(w, i, &d, &w->jobs[i].err);
    for (int k = 0; k < 2; k++) {
        nr_model_free(d.models[k]);
        nr_compare_sample_fini(&d.samples[k]);
    }
    pthread_mutex_lock(&w->mu);
    w->done++;
    if (w->tty)
        fprintf(stderr, "\rniorep: compared %zu of %zu pairs\033[K", w->done, w->c->nmatches);
    pthread_mutex_unlock(&w->mu);
}

/* Names on stderr every run left without a partner: the report lists
 * them too, but a replicate or a misspelt label should not go unseen. */
static void note_unmatched(const compare_run *c)
{
    for (size_t g = 0; g < c->args->ngroups; g++)
        for (size_t k = 0; k < c->groups[g].rs.n; k++)
            if (!is_paired(c, g, k))
                fprintf(stderr, "niorep compare: %s (group %s, workload %s) has no partner: left out of the pairs\n",
                        c->groups[g].runs[k].display, c->groups[g].id, c->groups[g].runs[k].workload);
}

/* The replicate pairs of each workload and group, taken together. */
static int pool_replicates(compare_run *c, nr_error *err)
{
    const char **w = calloc(c->nmatches ? c->nmatches : 1, sizeof *w);
    if (!w)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    for (size_t i = 0; i < c->nmatches; i++)
        w[i] = run_a(c, i)->workload;
    const int rc = nr_compare_pool_pairs(c->matches, c->pairs, w, c->nmatches, &c->args->opts, &c->pools,
                                         &c->npools, err);
    free(w);
    return rc;
}

static int compare_all(compare_run *c, nr_error *err)
{
    const size_t ng = c->args->ngroups;
    const char **names[MAX_GROUPS];
    size_t nruns[MAX_GROUPS];
    int rc = 0;
    for (size_t g = 0; g < ng; g++) {
        nruns[g] = c->groups[g].rs.n;
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
    note_unmatched(c);
    /* a comparison of nothing is no "no change": until session 49 it wrote
       a report of 0 pairs and exited 0 (review 49) */
    if (c->nmatches == 0)
        return nr_error_set(err, NR_E_INPUT,
                            "compare: no pair: no workload of A occurs in a later group (the runs are named above); "
                            "nothing written");
    c->pairs = calloc(c->nmatches ? c->nmatches : 1, sizeof *c->pairs);
    c->figs = calloc(c->nmatches ? c->nmatches : 1, sizeof *c->figs);
    pair_job *jobs = calloc(c->nmatches ? c->nmatches : 1, sizeof *jobs);
    if (!c->pairs || !c->figs || !jobs) {
        free(jobs);
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    }
    const int cores = c->args->jobs > 0 ? c->args->jobs : nr_cores();
    const int threads = (size_t)cores < c->nmatches ? cores : (int)(c->nmatches ? c->nmatches : 1);
    /* The power-law goodness-of-fit p-value is not compared: no bootstraps.
     * The cores the pairs leave go to each model's read-ahead. */
    pair_work w = {.c = c, .jobs = jobs, .tty = isatty(STDERR_FILENO),
                   .model_opts = {.bootstraps = 0, .seed = c->args->opts.boot.seed, .threads = cores / threads}};
    pthread_mutex_init(&w.mu, NULL);
    nr_parallel_for(c->nmatches, threads, compare_pair, &w, nr_render_shutdown);
    pthread_mutex_destroy(&w.mu);
    if (w.tty && c->nmatches)
        fprintf(stderr, "\r\033[K");
    for (size_t i = 0; i < c->nmatches && rc == 0; i++) /* the first failed pair in pair order, whatever the threads did */
        if (jobs[i].rc < 0) {
            *err = jobs[i].err;
            rc = jobs[i].rc;
        }
    free(jobs);
    return rc < 0 ? rc : pool_replicates(c, err);
}

static int write_outputs(const compare_run *c, nr_error *err)
{
    nr_report *rep = NULL;
    int rc = build_report(c, &rep, err);
    if (rc == 0)
        rc = nr_report_write(rep, c->args->out_html, err);
    nr_report_destroy(rep);
    if (rc == 0 && c->args->out_json) {
        json_t *j = build_json(c);
        if (!j)
            return nr_error_set(err, NR_E_NOMEM, "compare: cannot build the JSON");
        rc = nr_cli_write_json(c->args->out_json, j, NR_MODEL_JSON_FLAGS, err);
        json_decref(j);
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
    if (nr_outfile_check_inputs(a.out_html, a.inputs, a.ngroups, &err) < 0 ||
        (a.out_json && nr_outfile_check_inputs(a.out_json, a.inputs, a.ngroups, &err) < 0) ||
        nr_outfile_probe(a.out_html, &err) < 0 || (a.out_json && nr_outfile_probe(a.out_json, &err) < 0))
        return nr_cli_fail(&err);
    loaded_group groups[MAX_GROUPS];
    memset(groups, 0, sizeof groups);
    compare_run c = {.args = &a, .groups = groups};
    int rc = load_groups(&a, groups, &err);
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
        for (size_t i = 0; i < c.npools; i++)
            printf("%s: %s, A vs %s, %zu runs a side: %zu significant change%s beyond the spread between runs, "
                   "%zu at a false discovery rate of %g%s\n",
                   a.out_html, c.pools[i].workload, groups[c.pools[i].group].id, c.pools[i].npairs,
                   c.pools[i].nsignificant, c.pools[i].nsignificant == 1 ? "" : "s", c.pools[i].nsignificant_fdr,
                   a.opts.rule.replicate_alpha,
                   c.pools[i].p_min > a.opts.rule.replicate_alpha ? " (too few runs to test)" : "");
    }
    for (size_t i = 0; c.pairs && i < c.nmatches; i++)
        nr_compare_pair_fini(&c.pairs[i]);
    for (size_t i = 0; c.figs && i < c.nmatches; i++) {
        nr_render_buf_fini(&c.figs[i].lorenz);
        nr_render_buf_fini(&c.figs[i].latency);
    }
    nr_compare_pools_free(c.pools, c.npools);
    free(c.figs);
    free(c.pairs);
    free(c.matches);
    free_groups(groups, a.ngroups);
    nr_render_shutdown();
    return rc < 0 ? nr_cli_fail(&err) : 0;
}
