/* niorep: git-style subcommands; main only dispatches (the same main in
 * niorep-render: cli/CMakeLists.txt). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"
#include "nr_outfile.h"

/* On SIGINT/SIGTERM/SIGHUP: remove every temporary output, then die of the
 * same signal (exit status 128+sig), so that no partial file is left and an
 * earlier output stays untouched. SA_RESETHAND restores the default action
 * and SA_NODEFER lets the re-raised signal through at once. */
static void remove_outputs_and_die(int sig)
{
    nr_outfile_abort_all_from_signal();
    raise(sig);
}

static void install_signal_handlers(void)
{
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa = {0};
    sa.sa_handler = remove_outputs_and_die;
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old;
        /* a signal ignored by our parent (nohup, a shell's background job) stays ignored */
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(signals[i], &sa, NULL);
    }
}

/* SIGXFSZ, a write past the file size limit (`ulimit -f`): caught, so
 * that the write fails with EFBIG and its error path names the file and
 * removes the temporary output. The default action killed niorep (status
 * 153) with the partial output left beside its target (review 53). A
 * handler that does nothing, not SIG_IGN: exec restores the default for
 * the programs niorep starts (strace and the traced job in `trace`). */
static void let_the_write_fail(int sig)
{
    (void)sig;
}

static void catch_file_size_limit(void)
{
    struct sigaction sa = {0}, old;
    sa.sa_handler = let_the_write_fail;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGXFSZ, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
        sigaction(SIGXFSZ, &sa, NULL);
}

/* The soft limit of open files up to the hard one: an ingest holds every
 * log of a run open while it merges them by time, and a job traced with
 * -ff writes a log per thread (1,500 logs failed under the usual soft
 * limit of 1024 until session 41). */
static void raise_open_files_limit(void)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &lim); /* a hint: the ingest names the limit if it is still too low */
    }
}

static void print_overview(FILE *out)
{
    fprintf(out, "usage: niorep <command> [options]\n\ncommands:\n");
    for (const nr_command *c = nr_commands; c->name; c++)
        fprintf(out, "  %-8s %s\n", c->name, c->summary);
    fprintf(out, "\n'niorep <command> --help' describes a command.\n");
}

int main(int argc, char **argv)
{
    opterr = 0; /* the commands name a bad option themselves (nr_cli_bad_option) */
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
    install_signal_handlers();
    catch_file_size_limit();
    raise_open_files_limit();
    return cmd->run(argc - 1, argv + 1);
}
