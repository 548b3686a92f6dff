/* niorep merge NODE.nio... -o RUN.nio [--files-by-node]: the node stores of
 * one run into one store of the run (docs/multi-node.md, "The merge"). */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "nr_outfile.h"
#include "nr_progress.h"
#include "nr_store_merge.h"

static const char merge_options[] =
    "  -o, --output FILE   the store of the whole run to write (required)\n"
    "  --files-by-node     every file belongs to its node, also absolute paths (default:\n"
    "                      absolute paths of regular files are one file on every node,\n"
    "                      as on a shared file system)\n"
    "  -q, --quiet         print nothing on success\n"
    "  -h, --help          show this help\n"
    "\nEvery input is a store of one node of the run: the same manifest label run=R and\n"
    "its own label node=N (niorep trace --label run=R --label node=N). The merged store\n"
    "gives every statistic as one store of all the nodes' events would; pid P of the\n"
    "K-th node (by node label) becomes K*10000000+P. One node store is a run of one\n"
    "node: its merged store is the run as build models that node store alone.\n";

static void show_progress(void *bar, uint64_t done, uint64_t total)
{
    nr_progress_update(bar, done, total);
}

int nr_cmd_merge(int argc, char **argv)
{
    enum { OPT_BY_NODE = 256 };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"files-by-node", no_argument, NULL, OPT_BY_NODE},
        {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    int quiet = 0;
    nr_merge_opts opts = {0};
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1;) {
        switch (c) {
        case 'o': out = optarg; break;
        case OPT_BY_NODE: opts.files_by_node = 1; break;
        case 'q': quiet = 1; break;
        case 'h': nr_cli_help(nr_cli_find("merge"), merge_options, stdout); return 0;
        default: return nr_cli_bad_option("merge", c, argv);
        }
    }
    if (!out)
        return nr_cli_usage("merge", "missing -o RUN.nio");
    if (argc - optind < 1)
        return nr_cli_usage("merge", "expected the node stores of one run, got none");
    nr_error err;
    nr_error_clear(&err);
    const size_t n = (size_t)(argc - optind);
    if (nr_outfile_check_inputs(out, (const char *const *)(argv + optind), n, &err) < 0)
        return nr_cli_fail(&err);
    nr_progress *bar = quiet ? NULL : nr_progress_create_count(stderr, "merge", "rows");
    opts.progress = show_progress;
    opts.progress_ctx = bar;
    const int rc = nr_store_merge((const char *const *)(argv + optind), n, out, &opts, &err);
    nr_progress_finish(bar);
    if (rc < 0)
        return nr_cli_fail(&err);
    if (!quiet)
        fprintf(stderr, "niorep: %s: %zu %s merged\n", out, n, nr_cli_noun(n, "node", "nodes"));
    return 0;
}
