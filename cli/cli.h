/* cli: the niorep command line. Each subcommand lives in cmd_<name>.c and is
 * the only place that prints results and chooses an exit status. */
#ifndef CLI_H
#define CLI_H

#include <stdio.h>

#include "nr_error.h"

typedef struct nr_command {
    const char *name;
    const char *synopsis;   /* one line: arguments */
    const char *summary;    /* one sentence */
    int (*run)(int argc, char **argv);  /* argv[0] is the subcommand name; returns the exit status */
} nr_command;

extern const nr_command nr_commands[];

/* Prints "niorep: <message>" for err to stderr and returns its exit status. */
int nr_cli_fail(const nr_error *err);
/* Prints a usage error for cmd to stderr and returns 2. */
int nr_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The usage error of getopt_long's return c for an optstring that starts
 * with ':' (after any '+'): ':' an option given without its value, else
 * a flag given a value ("--help=x"), else an unknown option, named as argv
 * gave it without any "=value". Returns 2. */
int nr_cli_bad_option(const char *cmd, int c, char *const *argv);
/* Prints the --help text of cmd to out. */
void nr_cli_help(const nr_command *cmd, const char *options_text, FILE *out);
/* The command entry named name, or NULL. */
const nr_command *nr_cli_find(const char *name);
/* The folder of the running executable (from /proc/self/exe, links
 * resolved) into out, without a trailing '/': 0, or -1 with errno. */
int nr_cli_exe_dir(char *out, size_t cap);

/* one or many, by n: "1 call", "2 calls" (a summary that says "1 calls"
 * loses the reader's trust in its numbers). */
static inline const char *nr_cli_noun(unsigned long long n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

int nr_cmd_trace(int argc, char **argv);
int nr_cmd_ingest(int argc, char **argv);
int nr_cmd_merge(int argc, char **argv);
int nr_cmd_build(int argc, char **argv);
int nr_cmd_figures(int argc, char **argv);
int nr_cmd_compare(int argc, char **argv);
int nr_cmd_summary(int argc, char **argv);
int nr_cmd_info(int argc, char **argv);
int nr_cmd_export(int argc, char **argv);
/* The light binary's build, figures and compare: runs them in niorep-render
 * (render_exec.c); returns only on failure. */
int nr_cmd_render_exec(int argc, char **argv);

#endif
