/* niorep ingest RUN_DIR|LOG -o RUN.nio */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nr_ingest.h"
#include "nr_progress.h"

static const char ingest_options[] =
    "  -o, --output FILE   the store to write (required)\n"
    "  -C, --cwd DIR       directory the traced command started in (default: from manifest.json)\n"
    "  -j, --jobs N        worker threads (default: the cores it may use)\n"
    "  -q, --quiet         print nothing on success\n"
    "  -h, --help          show this help\n";

static void show_progress(void *bar, uint64_t done, uint64_t total)
{
    nr_progress_update(bar, done, total);
}

int nr_cmd_ingest(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"cwd", required_argument, NULL, 'C'},
        {"jobs", required_argument, NULL, 'j'},   {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    int quiet = 0;
    nr_ingest_opts opts = {0};
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, ":o:C:j:qh", longopts, NULL)) != -1;) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'C': opts.start_cwd = optarg; break;
        case 'j': {
            char *end;
            long jobs = strtol(optarg, &end, 10);
            if (end == optarg || *end || jobs < 0 || jobs > 1024)
                return nr_cli_usage("ingest", "--jobs expects a number from 0 to 1024, got '%s'", optarg);
            opts.jobs = (int)jobs;
            break;
        }
        case 'q': quiet = 1; break;
        case 'h': nr_cli_help(nr_cli_find("ingest"), ingest_options, stdout); return 0;
        default: return nr_cli_bad_option("ingest", c, argv);
        }
    }
    if (optind != argc - 1)
        return nr_cli_usage("ingest", "expected one RUN_DIR or log file, got %d", argc - optind);
    if (!out)
        return nr_cli_usage("ingest", "missing -o RUN.nio");

    nr_error err;
    nr_error_clear(&err);
    nr_ingest_stats stats = {0};
    nr_progress *bar = quiet ? NULL : nr_progress_create(stderr, "ingest");
    opts.progress = show_progress;
    opts.progress_ctx = bar;
    int rc = nr_ingest_run(argv[optind], out, &opts, &stats, &err);
    nr_progress_finish(bar);
    if (rc < 0)
        return nr_cli_fail(&err);
    if (!quiet) {
        fprintf(stderr, "niorep: %s: %llu %s, %llu %s, %llu %s, %llu %s, %llu %s skipped", out,
                (unsigned long long)stats.lines_read, nr_cli_noun(stats.lines_read, "line", "lines"),
                (unsigned long long)stats.events, nr_cli_noun(stats.events, "event", "events"),
                (unsigned long long)stats.files, nr_cli_noun(stats.files, "file", "files"),
                (unsigned long long)stats.processes, nr_cli_noun(stats.processes, "process", "processes"),
                (unsigned long long)stats.lines_skipped, nr_cli_noun(stats.lines_skipped, "line", "lines"));
        if (stats.hook_diagnosed) /* the hook's lines are apart from the logs' */
            fprintf(stderr, ", %llu hook diagnostics (niorep info lists them)",
                    (unsigned long long)stats.hook_diagnosed);
        if (stats.files_not_read) /* a README, a store, a sub-folder: never silently */
            fprintf(stderr, ", %llu %s of the folder not read (niorep info lists them)",
                    (unsigned long long)stats.files_not_read, nr_cli_noun(stats.files_not_read, "entry", "entries"));
        fputc('\n', stderr);
    }
    return 0;
}
