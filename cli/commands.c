/* The subcommand table and the helpers every subcommand shares. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* niorep itself does not link the render stage (render_exec.c): its
 * rendering commands run in niorep-render, which does. */
#ifdef NR_CLI_RENDER_EXEC
#define RENDERING(cmd) nr_cmd_render_exec
#else
#define RENDERING(cmd) cmd
#endif

const nr_command nr_commands[] = {
    {"trace", "-o RUN_DIR [--label K=V ...] [--watch PATH ...] [--per-pid] -- COMMAND [ARGS...]", "run COMMAND under strace with the Python hook and record a run directory", nr_cmd_trace},
    {"ingest", "RUN_DIR|LOG -o RUN.nio", "parse strace logs (and hook, manifest) into a store", nr_cmd_ingest},
    {"merge", "NODE.nio... -o RUN.nio [--files-by-node]", "merge the node stores of one run (labels run=, node=) into one store of the run", nr_cmd_merge},
    {"build", "INPUT... -o report.html [--figures DIR] [--format svg,pdf,png] [--width 3.5|7] [--title T]", "ingest, model and render runs into one self-contained HTML report", RENDERING(nr_cmd_build)},
    {"figures", "INPUT... -o DIR [--format svg,pdf,png] [--width 3.5|7]", "write the publication figure set and figures.json", RENDERING(nr_cmd_figures)},
    {"info", "RUN.nio [--check]", "describe a store: tables, columns, sizes, ingest diagnostics; --check reads every chunk", nr_cmd_info},
    {"summary", "RUN.nio [--json] [--bootstraps N] [--seed N] [--files-by-node]", "the statistics of one run as text or JSON", nr_cmd_summary},
    {"compare", "A B [C ...] -o compare.html [--json FILE]", "compare runs of several groups, paired by workload, with tests and confidence intervals", RENDERING(nr_cmd_compare)},
    {"export", "RUN.nio --table NAME [--format csv|jsonl] [-o FILE]", "write one table as CSV or JSON lines", nr_cmd_export},
    {NULL, NULL, NULL, NULL},
};

const nr_command *nr_cli_find(const char *name)
{
    for (const nr_command *c = nr_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

int nr_cli_exe_dir(char *out, size_t cap)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n < 0)
        return -1;
    self[n] = '\0';
    const char *slash = strrchr(self, '/'); /* the kernel gives an absolute path */
    if (!slash) {
        errno = ENOENT;
        return -1;
    }
    const size_t len = (size_t)(slash - self);
    if (len >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(out, self, len);
    out[len] = '\0';
    return 0;
}

/* An error is one line: a control byte in it (a newline of a file name it
 * quotes) is written \xNN. Until session 48 a name with a newline split
 * the message in two (review 48). */
int nr_cli_fail(const nr_error *err)
{
    const char *msg = err->msg[0] ? err->msg : nr_error_name(err->code);
    fputs("niorep: ", stderr);
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            fprintf(stderr, "\\x%02X", *p);
        else
            fputc(*p, stderr);
    }
    fputc('\n', stderr);
    return nr_error_exit_status(err->code);
}

int nr_cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "niorep%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    if (cmd)
        fprintf(stderr, "see 'niorep %s --help'\n", cmd);
    return 2;
}

int nr_cli_bad_option(const char *cmd, int c, char *const *argv)
{
    /* getopt has moved past the option (and its value, when separate) */
    const char *arg = optind > 0 ? argv[optind - 1] : "?";
    const int long_opt = strncmp(arg, "--", 2) == 0;
    const int short_opt = optopt && optopt < 256 && !long_opt;
    const int name = (int)strcspn(arg, "="); /* a long option named without its "=value" */
    if (c == ':')
        return short_opt ? nr_cli_usage(cmd, "option -%c needs a value", optopt)
                         : nr_cli_usage(cmd, "option %s needs a value", arg);
    /* getopt_long sets optopt to a known option's val when it refuses its
       "=value": a flag given one ("--help=foo" ran the help until session 49) */
    if (long_opt && optopt && arg[name])
        return nr_cli_usage(cmd, "option %.*s takes no value", name, arg);
    return short_opt ? nr_cli_usage(cmd, "unknown option -%c", optopt)
                     : nr_cli_usage(cmd, "unknown option '%.*s'", name, arg);
}

void nr_cli_help(const nr_command *cmd, const char *options_text, FILE *out)
{
    fprintf(out, "usage: niorep %s %s\n\n%s.\n", cmd->name, cmd->synopsis, cmd->summary);
    if (options_text && *options_text)
        fprintf(out, "\noptions:\n%s", options_text);
}
