/* niorep figures INPUT... -o DIR [--format LIST] [--width 3.5|7]: the figure
 * set of every input run together (one series per run) plus figures.json. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "figure_inputs.h"
#include "figure_jobs.h"
#include "report_fill.h"
#include "load_bar.h"
#include "runset.h"

static const char figures_options[] =
    "  -o, --output DIR      the folder to write (created if missing; required)\n"
    "  --format LIST         svg,pdf,png (any subset; default svg,pdf)\n"
    "  --width 3.5|7         figure width in inches: a paper column or the full width (default 3.5)\n"
    "  --bootstraps N        power-law goodness-of-fit bootstraps (default 200)\n"
    "  -h, --help            show this help\n"
    "\nINPUT: traces folders, run directories or stores, as for 'niorep build'.\n"
    "Files: fig1-phase-breakdown.<ext> ... fig7-..., and figures.json (docs/report.md).\n";

static int add_run(void *ctx, size_t i, const nr_run *run, nr_error *err)
{
    return nr_figjobs_add_run(ctx, i, run->model, err);
}

/* The runs are modelled a few at a time, each freed once its figure
 * inputs are copied out, and the set is their merge, as build's. */
static int run_figures(char **inputs, size_t n, const char *dir, const char *formats_arg, double width_pt,
                       const nr_model_opts *opts, nr_error *err)
{
    unsigned formats;
    NR_TRY(nr_figin_parse_formats(formats_arg, &formats, err));
    nr_runset rs;
    int rc = nr_runset_expand(&rs, inputs, n, err);
    rs.no_models = 1;
    nr_load_bar *bar = rc == 0 ? nr_load_bar_attach(&rs) : NULL;
    if (rc == 0)
        rc = nr_runset_load(&rs, opts, NULL, err);
    nr_load_bar_free(bar);
    const char **names = rc == 0 ? calloc(rs.n ? rs.n : 1, sizeof *names) : NULL;
    if (rc == 0 && !names)
        rc = nr_error_set(err, NR_E_NOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < rs.n; i++)
        names[i] = rs.runs[i].name;
    nr_figjobs *figs = NULL;
    if (rc == 0)
        rc = nr_figjobs_create(names, rs.n, &figs, err);
    if (rc == 0)
        rc = nr_runset_model_each(&rs, opts, NULL, add_run, figs, err);
    if (rc == 0)
        nr_runset_say_reuse(&rs, "");
    nr_figin *all = rc == 0 ? nr_figjobs_scope(figs, NR_FILL_ALL_RUNS, err) : NULL;
    if (rc == 0)
        rc = all ? nr_figin_write_set(all, names, rs.n, &rs, dir, formats, width_pt, err) : err->code;
    if (rc == 0)
        fprintf(stderr, "niorep: wrote %zu figures and figures.json to %s (%zu run%s)\n", nr_figures_count, dir, rs.n,
                rs.n == 1 ? "" : "s");
    nr_figjobs_free(figs);
    free(names);
    nr_runset_fini(&rs);
    nr_render_shutdown();   /* fonts and caches: nothing left for leak checkers */
    return rc;
}

int nr_cmd_figures(int argc, char **argv)
{
    enum { OPT_FORMAT = 256, OPT_WIDTH, OPT_BOOT };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"format", required_argument, NULL, OPT_FORMAT},
        {"width", required_argument, NULL, OPT_WIDTH}, {"bootstraps", required_argument, NULL, OPT_BOOT},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    const char *dir = NULL, *formats = "svg,pdf";
    double width_pt = 252.0;
    nr_model_opts opts = {.bootstraps = -1, .keep_files = NR_MODEL_KEEP_NO_FILES}; /* no figure shows a file's row */
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1;) {
        switch (c) {
        case 'o': dir = optarg; break;
        case OPT_FORMAT: formats = optarg; break;
        case OPT_WIDTH:
            if (nr_figin_parse_width(optarg, &width_pt) < 0)
                return nr_cli_usage("figures", "--width expects 3.5 or 7, got '%s'", optarg);
            break;
        case OPT_BOOT: {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (end == optarg || *end || v < 0 || v > 100000)
                return nr_cli_usage("figures", "--bootstraps expects 0..100000, got '%s'", optarg);
            opts.bootstraps = (int)v;
            break;
        }
        case 'h': nr_cli_help(nr_cli_find("figures"), figures_options, stdout); return 0;
        default: return nr_cli_bad_option("figures", c, argv);
        }
    }
    if (!dir)
        return nr_cli_usage("figures", "missing -o DIR");
    if (optind >= argc)
        return nr_cli_usage("figures", "expected at least one INPUT (traces folder, run directory or store)");
    nr_error err;
    nr_error_clear(&err);
    if (run_figures(argv + optind, (size_t)(argc - optind), dir, formats, width_pt, &opts, &err) < 0)
        return nr_cli_fail(&err);
    return 0;
}
