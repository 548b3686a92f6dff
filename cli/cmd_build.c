/* niorep build INPUT... -o report.html [--figures DIR] [--format LIST] [--width W] [--title T]:
 * inputs -> stores (cached ingest) -> models, a few at a time, each made
 * into its report part and figure inputs and freed -> figures -> one HTML
 * file. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "figure_inputs.h"
#include "figure_jobs.h"
#include "load_bar.h"
#include "nr_outfile.h"
#include "nr_parallel.h"
#include "report.h"
#include "report_fill.h"
#include "runset.h"

static const char build_options[] =
    "  -o, --output FILE     the report to write (required)\n"
    "  --figures DIR         also write the figure set (every run together) to DIR\n"
    "  --format LIST         formats of --figures: svg,pdf,png (default svg)\n"
    "  --width 3.5|7         figure width in inches for --figures (default 3.5)\n"
    "  --title TEXT          report title (default: \"niorep report\")\n"
    "  --bootstraps N        power-law goodness-of-fit bootstraps (default 200)\n"
    "  --timings             print the time split ingest / model / render to stderr\n"
    "  -j, --jobs N          threads in all: runs ingested and modelled, figures drawn (default: the cores it may use)\n"
    "  --per-node            keep the nodes of a run apart: one run per node store\n"
    "  --files-by-node       in a merged run every file belongs to its node (node-local\n"
    "                        files; default: absolute paths are shared, docs/multi-node.md)\n"
    "  -h, --help            show this help\n"
    "\nINPUT: a traces folder (a folder of run directories), a run directory or a store\n"
    "(RUN.nio). Run directories are ingested into TRACES/.niorep/<run>.nio, reused while\n"
    "the files the ingest reads keep the same names, sizes and times (docs/report.md); the\n"
    "stores of run directories that are gone are removed from it. The\n"
    "stores of the nodes of one run (labels run=R, node=N) are merged into one run R\n"
    "(docs/multi-node.md), cached in TRACES/.niorep/merged/R.nio until its node stores are\n"
    "all gone.\n"
    "\nenvironment:\n"
    "  NIOREP_CACHE_DIR      keep the caches there (a folder per traces folder) instead of\n"
    "                        TRACES/.niorep; when it is unset and TRACES cannot be written:\n"
    "                        $XDG_CACHE_HOME/niorep, else ~/.cache/niorep; the folder of a\n"
    "                        traces folder that is gone is removed from it\n";

typedef struct build_args {
    const char *out, *figures_dir, *formats, *title;
    double width_pt;
    int timings;
    int jobs;
    int per_node, files_by_node;
    nr_model_opts opts;
    char **inputs;
    size_t ninputs;
} build_args;

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, build_args *a)
{
    enum { OPT_FIGURES = 256, OPT_FORMAT, OPT_WIDTH, OPT_TITLE, OPT_BOOT, OPT_TIMINGS, OPT_PER_NODE, OPT_BY_NODE };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},   {"figures", required_argument, NULL, OPT_FIGURES},
        {"format", required_argument, NULL, OPT_FORMAT}, {"width", required_argument, NULL, OPT_WIDTH},
        {"title", required_argument, NULL, OPT_TITLE},   {"bootstraps", required_argument, NULL, OPT_BOOT},
        {"timings", no_argument, NULL, OPT_TIMINGS},     {"help", no_argument, NULL, 'h'},
        {"jobs", required_argument, NULL, 'j'},       {"per-node", no_argument, NULL, OPT_PER_NODE},
        {"files-by-node", no_argument, NULL, OPT_BY_NODE},
        {NULL, 0, NULL, 0},
    };
    a->formats = "svg";
    a->width_pt = 252.0;
    a->opts.bootstraps = -1;
    a->opts.keep_files = NR_FILL_TOP_FILES;
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, ":o:j:h", longopts, NULL)) != -1;) {
        switch (c) {
        case 'o': a->out = optarg; break;
        case OPT_FIGURES: a->figures_dir = optarg; break;
        case OPT_FORMAT: a->formats = optarg; break;
        case OPT_WIDTH:
            if (nr_figin_parse_width(optarg, &a->width_pt) < 0)
                return nr_cli_usage("build", "--width expects 3.5 or 7, got '%s'", optarg);
            break;
        case OPT_TITLE: a->title = optarg; break;
        case OPT_BOOT: {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (end == optarg || *end || v < 0 || v > 100000)
                return nr_cli_usage("build", "--bootstraps expects 0..100000, got '%s'", optarg);
            a->opts.bootstraps = (int)v;
            break;
        }
        case OPT_TIMINGS: a->timings = 1; break;
        case OPT_PER_NODE: a->per_node = 1; break;
        case OPT_BY_NODE: a->files_by_node = 1; break;
        case 'j': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (end == optarg || *end || v < 0 || v > 1024)
                return nr_cli_usage("build", "--jobs expects a number from 0 to 1024, got '%s'", optarg);
            a->jobs = (int)v;
            break;
        }
        case 'h': nr_cli_help(nr_cli_find("build"), build_options, stdout); return 0;
        default: return nr_cli_bad_option("build", c, argv);
        }
    }
    if (!a->out)
        return nr_cli_usage("build", "missing -o report.html");
    if (optind >= argc)
        return nr_cli_usage("build", "expected at least one INPUT (traces folder, run directory or store)");
    a->inputs = argv + optind;
    a->ninputs = (size_t)(argc - optind);
    return -1;
}

/* What a build does with each run's model, in run order, before it goes. */
typedef struct build_ctx {
    nr_figjobs *figs;
    nr_fill *fill;
} build_ctx;

static int build_run(void *ctx, size_t i, const nr_run *run, nr_error *err)
{
    build_ctx *b = ctx;
    NR_TRY(nr_figjobs_add_run(b->figs, i, run->model, err));
    return nr_fill_run(b->fill, i, err);
}

static int run_build(const build_args *a, nr_error *err)
{
    unsigned formats = 1;
    if (a->figures_dir)
        NR_TRY(nr_figin_parse_formats(a->formats, &formats, err));
    (void)formats;
    nr_runset rs;
    int rc = nr_runset_expand(&rs, a->inputs, a->ninputs, err);
    if (rc == 0)
        rc = nr_runset_check_output(&rs, a->out, err);
    rs.jobs = a->jobs;
    rs.per_node = a->per_node;
    rs.files_by_node = a->files_by_node;
    rs.no_models = 1; /* modelled a few at a time below, each freed once its part is made */
    nr_load_bar *bar = rc == 0 ? nr_load_bar_attach(&rs) : NULL;
    if (rc == 0)
        rc = nr_runset_load(&rs, &a->opts, nr_load_line, err);
    nr_load_bar_free(bar);
    const char **names = NULL, **stores = NULL, **model_keys = NULL;
    nr_figjobs *figs = NULL;
    nr_report *rep = NULL;
    if (rc == 0) {
        names = calloc(rs.n ? rs.n : 1, sizeof *names);
        stores = calloc(rs.n ? rs.n : 1, sizeof *stores);
        model_keys = calloc(rs.n ? rs.n : 1, sizeof *model_keys);
        if (!names || !stores || !model_keys)
            rc = nr_error_set(err, NR_E_NOMEM, "out of memory");
        for (size_t i = 0; rc == 0 && i < rs.n; i++)
            names[i] = rs.runs[i].name;
    }
    double t0 = nr_runset_now();
    const nr_model_opts resolved = nr_model_resolve_opts(&a->opts);
    if (rc == 0)
        rc = nr_figjobs_create(names, rs.n, &figs, err);
    if (rc == 0)
        rc = nr_report_create_default(&rep, err);
    build_ctx b = {figs, NULL};
    if (rc == 0) {
        nr_report_set_title(rep, a->title ? a->title : "niorep report");
        char sub[160];
        snprintf(sub, sizeof sub, "%zu run%s: I/O of the traced jobs from strace and the phase hook", rs.n, rs.n == 1 ? "" : "s");
        nr_report_set_subtitle(rep, sub);
        rc = nr_fill_begin(rep, &rs, nr_figjobs_put, figs, &b.fill, err);
    }
    if (rc == 0)
        rc = nr_runset_model_each(&rs, &a->opts, nr_load_line, build_run, &b, err);
    nr_fill_end(b.fill);
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "\r\033[K");
    if (rc == 0) {
        nr_runset_say_reuse(&rs, "");
        for (size_t i = 0; i < rs.n; i++) {
            stores[i] = rs.runs[i].temporary ? NULL : rs.runs[i].store_path;
            model_keys[i] = rs.runs[i].model_key;
        }
        nr_figjobs_keep(figs, stores, model_keys, &resolved);
        rc = nr_figjobs_run(figs, rep, a->jobs > 0 ? a->jobs : nr_cores(), err);
    }
    if (rc == 0)
        rc = nr_report_write(rep, a->out, err);
    if (rc == 0 && a->figures_dir) {
        nr_figin *all = nr_figjobs_scope(figs, NR_FILL_ALL_RUNS, err);
        rc = all ? nr_figin_write_set(all, names, rs.n, &rs, a->figures_dir, formats, a->width_pt, err) : err->code;
    }
    double render_s = nr_runset_now() - t0 - rs.model_wall_s;
    if (rc == 0 && a->timings) {
        double total = rs.ingest_s + rs.model_s + render_s;
        fprintf(stderr, "timings: ingest %.3f s, model %.3f s, render %.3f s (figures %.3f s, %zu of %zu kept), total %.3f s, "
                "render share %.1f%%, models held at once %zu of %zu\n", rs.ingest_s, rs.model_s, render_s,
                nr_figjobs_seconds(figs), nr_figjobs_kept(figs), nr_figjobs_count(figs), total,
                total > 0 ? 100.0 * render_s / total : 0.0, rs.models_peak, rs.n);
    }
    if (rc == 0)
        fprintf(stderr, "niorep: wrote %s (%zu run%s)\n", a->out, rs.n, rs.n == 1 ? "" : "s");
    nr_report_destroy(rep);
    nr_figjobs_free(figs);
    free(names);
    free(stores);
    free(model_keys);
    nr_runset_fini(&rs);
    nr_render_shutdown();   /* fonts and caches: nothing left for leak checkers */
    return rc;
}

int nr_cmd_build(int argc, char **argv)
{
    build_args a = {0};
    int status = parse_args(argc, argv, &a);
    if (status >= 0)
        return status;
    nr_error err;
    nr_error_clear(&err);
    if (nr_outfile_check_inputs(a.out, (const char *const *)a.inputs, a.ninputs, &err) < 0 ||
        nr_outfile_probe(a.out, &err) < 0 || run_build(&a, &err) < 0)
        return nr_cli_fail(&err);
    return 0;
}
