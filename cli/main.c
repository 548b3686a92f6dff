/* niorep: one binary, git-style subcommands; main only dispatches. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void print_overview(FILE *out)
{
    fprintf(out, "usage: niorep <command> [options]\n\ncommands:\n");
    for (const nr_command *c = nr_commands; c->name; c++)
        fprintf(out, "  %-8s %s\n", c->name, c->summary);
    fprintf(out, "\n'niorep <command> --help' describes a command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_overview(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_overview(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("niorep %s\n", NR_VERSION);
        return 0;
    }
    const nr_command *cmd = nr_cli_find(argv[1]);
    if (!cmd)
        return nr_cli_usage(NULL, "unknown command '%s' (see 'niorep --help')", argv[1]);
    return cmd->run(argc - 1, argv + 1);
}
