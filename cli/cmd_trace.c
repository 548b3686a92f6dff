/* niorep trace -o RUN_DIR [--label K=V ...] [--watch PATH ...] [--per-pid] -- COMMAND [ARGS...]
 *
 * Runs COMMAND under strace with the flag set of trace_syscalls.h, with the
 * Python hook activated through PYTHONPATH (workloads/sitecustomize.py), and
 * leaves a run directory: strace.log, hook.jsonl, manifest.json
 * (docs/capture.md). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "nr_outfile.h"
#include "nr_utf8.h"
#include "trace.h"
#include "trace_syscalls.h"

extern char **environ;

static const char trace_options[] =
    "  -o, --output DIR    the run directory to create or fill (required)\n"
    "  -l, --label K=V     a label of the run (repeatable), e.g. workload=vit\n"
    "  -w, --watch PATH    also record the file system of PATH (repeatable)\n"
    "      --per-pid       one strace log per process (strace -ff): strace.log.<pid>\n"
    "      --no-hook       do not activate the Python hook\n"
    "      --strace PATH   the strace binary (default: strace from PATH)\n"
    "  -h, --help          show this help\n"
    "\nenvironment:\n"
    "  NIOREP_HOOK_DIR     folder holding sitecustomize.py and niorep_hook/ (an error when\n"
    "                      it does not; default: <bin>/../share/niorep/workloads, then\n"
    "                      the source tree)\n"
    "\nCOMMAND's exit status is passed through (128+N when killed by signal N; niorep dies of SIGINT\n"
    "itself when COMMAND did, so that a calling script stops at Ctrl-C).\n";

/* Signal state shared with the handler. */
static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t stop_count;
static volatile pid_t child_pgid;

static void forward_signal(int sig)
{
    stop_signal = sig;
    stop_count++;
    if (child_pgid > 0)
        kill(-child_pgid, stop_count > 2 ? SIGKILL : sig);
}

/* COMMAND died of SIGINT (Ctrl-C): once the run directory is written,
 * niorep dies of it too, and when it has the terminal it first sends it to
 * its own process group, the foreground job, which the terminal's SIGINT
 * skipped (it went to COMMAND's group). So a shell script running niorep
 * stops as at any Ctrl-C: bash ends a script only when it received SIGINT
 * itself and its child died of it. Until session 46 niorep exited 130,
 * and a loop of traces (datasets/make_sample.sh) went on to the next. */
static void die_of_sigint(void)
{
    fflush(NULL);
    signal(SIGINT, SIG_DFL);
    if (!stop_signal && isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp())
        kill(0, SIGINT); /* not when niorep itself was sent SIGINT: then it was the one meant */
    raise(SIGINT);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The executable name in PATH (or name itself when it has a '/'), into out. */
static int find_in_path(const char *name, char *out, size_t cap)
{
    if (strchr(name, '/')) {
        snprintf(out, cap, "%s", name);
        return access(out, X_OK) == 0 && is_file(out) ? 0 : -1; /* a folder is searchable, not runnable */
    }
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path; *p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        if ((size_t)snprintf(out, cap, "%.*s/%s", (int)n, n ? p : ".", name) < cap && access(out, X_OK) == 0 &&
            is_file(out))
            return 0;
        p += n + (colon ? 1 : 0);
        if (!colon)
            break;
    }
    return -1;
}

/* Runs argv with stdout+stderr captured into buf (cap bytes, NUL-terminated);
 * returns the wait status, or -1 when it cannot be started. */
static int run_captured(const char *const *argv, char *buf, size_t cap)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return -1;
    }
    size_t used = 0;
    for (;;) {
        char scratch[512];
        ssize_t n = read(fds[0], scratch, sizeof scratch);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        size_t take = (size_t)n < cap - 1 - used ? (size_t)n : cap - 1 - used;
        memcpy(buf + used, scratch, take);
        used += take;
    }
    buf[used] = '\0';
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return status;
}

/* "strace -- version 6.1" -> "6.1". */
static void strace_version(const char *strace, char *out, size_t cap)
{
    const char *argv[] = {strace, "-V", NULL};
    char text[512];
    out[0] = '\0';
    if (run_captured(argv, text, sizeof text) < 0)
        return;
    const char *v = strstr(text, "version ");
    if (!v)
        return;
    v += strlen("version ");
    size_t n = strcspn(v, " \n");
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), v);
}

/* Whether dir holds the hook: sitecustomize.py and niorep_hook/; its
 * absolute path into out when so. */
static int is_hook_dir(const char *dir, char *out, size_t cap)
{
    char probe[PATH_MAX + 64];
    snprintf(probe, sizeof probe, "%s/niorep_hook/__init__.py", dir);
    if (!is_file(probe))
        return 0;
    snprintf(probe, sizeof probe, "%s/sitecustomize.py", dir);
    return is_file(probe) && realpath(dir, out) && strlen(out) < cap;
}

/* The hook folder: $NIOREP_HOOK_DIR when set (and then only it: a folder
 * the user named that holds no hook is an error, not a reason to take
 * another), else <bin>/../share/niorep/workloads or the source tree's
 * workloads/. Returns 0 with out filled, -1 when there is none, -2 when
 * $NIOREP_HOOK_DIR names a folder without the hook. */
static int find_hook_dir(char *out, size_t cap)
{
    const char *env = getenv("NIOREP_HOOK_DIR");
    if (env && *env)
        return is_hook_dir(env, out, cap) ? 0 : -2;
    char candidates[2][PATH_MAX];
    int n = 0;
    char exe_dir[PATH_MAX];
    if (nr_cli_exe_dir(exe_dir, sizeof exe_dir) == 0)
        snprintf(candidates[n++], PATH_MAX, "%.*s/../share/niorep/workloads", PATH_MAX - 40, exe_dir);
#ifdef NR_SOURCE_DIR
    snprintf(candidates[n++], PATH_MAX, "%s/workloads", NR_SOURCE_DIR);
#endif
    for (int i = 0; i < n; i++)
        if (is_hook_dir(candidates[i], out, cap))
            return 0;
    return -1;
}

typedef struct strv {
    const char **items;
    size_t count, cap;
} strv;

static int strv_push(strv *v, const char *s)
{
    if (v->count + 2 > v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        const char **items = realloc(v->items, cap * sizeof *items);
        if (!items)
            return NR_E_NOMEM;
        v->items = items;
        v->cap = cap;
    }
    v->items[v->count++] = s;
    v->items[v->count] = NULL;
    return 0;
}

/* The strace command line: flags, -e trace=..., -o LOG [-ff], -- COMMAND. */
static int build_strace_argv(strv *v, const char *strace, const char *log, int per_pid, const char *shell,
                             char *const *command, size_t command_count, char **trace_set_out)
{
    size_t len = sizeof "trace=";
    for (size_t i = 0; i < sizeof nr__trace_syscalls / sizeof nr__trace_syscalls[0]; i++)
        len += strlen(nr__trace_syscalls[i].name) + 1;
    char *set = malloc(len);
    if (!set)
        return NR_E_NOMEM;
    char *p = stpcpy(set, "trace=");
    for (size_t i = 0; i < sizeof nr__trace_syscalls / sizeof nr__trace_syscalls[0]; i++) {
        if (i)
            *p++ = ',';
        p = stpcpy(p, nr__trace_syscalls[i].name);
    }
    *trace_set_out = set;
    NR_TRY(strv_push(v, strace));
    for (size_t i = 0; i < sizeof nr__trace_strace_flags / sizeof nr__trace_strace_flags[0]; i++)
        NR_TRY(strv_push(v, nr__trace_strace_flags[i]));
    NR_TRY(strv_push(v, "-e"));
    NR_TRY(strv_push(v, set));
    if (per_pid)
        NR_TRY(strv_push(v, "-ff"));
    NR_TRY(strv_push(v, "-o"));
    NR_TRY(strv_push(v, log));
    NR_TRY(strv_push(v, "--"));
    if (shell)
        NR_TRY(strv_push(v, shell));
    for (size_t i = 0; i < command_count; i++)
        NR_TRY(strv_push(v, command[i]));
    return 0;
}

/* Runs the strace command line on /bin/true with output to /dev/null, to
 * find out before the real run whether strace accepts the flags and may
 * trace at all. Returns 0, or 1 after printing why not. */
static int preflight(const strv *full, size_t command_at)
{
    strv probe = {0};
    int rc = 0;
    for (size_t i = 0; i < command_at && rc == 0; i++) {
        const char *arg = full->items[i];
        if (i > 0 && strcmp(full->items[i - 1], "-o") == 0)
            arg = "/dev/null";
        if (strcmp(arg, "-ff") == 0)
            continue;
        rc = strv_push(&probe, arg);
    }
    if (rc == 0)
        rc = strv_push(&probe, "/bin/true");
    if (rc < 0) {
        free(probe.items);
        fprintf(stderr, "niorep trace: out of memory\n");
        return 1;
    }
    char text[2048];
    int status = run_captured(probe.items, text, sizeof text);
    free(probe.items);
    if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    text[strcspn(text, "\n")] = '\0';
    if (strstr(text, "Operation not permitted") || strstr(text, "PTRACE"))
        fprintf(stderr,
                "niorep trace: strace cannot trace processes here (ptrace not permitted: %s).\n"
                "In a container run it with --cap-add=SYS_PTRACE (or --security-opt seccomp=unconfined);\n"
                "on a host check /proc/sys/kernel/yama/ptrace_scope.\n",
                text);
    else
        fprintf(stderr, "niorep trace: %s does not work with niorep's flags: %s\n", full->items[0],
                text[0] ? text : "no message");
    return 1;
}

/* The child's environment: PYTHONPATH gets hook_dir in front, NIOREP_HOOK_OUT
 * names the hook file. Strings are allocated into *owned (freed by caller). */
static int build_env(strv *env, const char *hook_dir, const char *hook_out, char **owned, size_t owned_cap)
{
    size_t n_owned = 0;
    const char *old_pp = getenv("PYTHONPATH");
    for (char **e = environ; *e; e++) {
        if (hook_dir && (strncmp(*e, "PYTHONPATH=", 11) == 0 || strncmp(*e, "NIOREP_HOOK_OUT=", 16) == 0))
            continue;
        NR_TRY(strv_push(env, *e));
    }
    if (!hook_dir)
        return 0;
    size_t len = strlen(hook_dir) + (old_pp ? strlen(old_pp) : 0) + 16;
    char *pp = malloc(len);
    char *out = malloc(strlen(hook_out) + 20);
    if (!pp || !out || n_owned + 2 > owned_cap) {
        free(pp);
        free(out);
        return NR_E_NOMEM;
    }
    if (old_pp && *old_pp)
        snprintf(pp, len, "PYTHONPATH=%s:%s", hook_dir, old_pp);
    else
        snprintf(pp, len, "PYTHONPATH=%s", hook_dir);
    sprintf(out, "NIOREP_HOOK_OUT=%s", hook_out);
    owned[n_owned++] = pp;
    owned[n_owned++] = out;
    NR_TRY(strv_push(env, pp));
    NR_TRY(strv_push(env, out));
    return 0;
}

static double now_unix(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Starts strace in its own process group (so that signals reach the whole
 * traced tree through one kill), hands it the terminal when niorep has it,
 * waits, and fills the exit fields of run. Returns 0 or 1 after printing. */
/* The signals forwarded to the traced process group while it runs. */
static const int forwarded_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NFORWARDED (sizeof forwarded_signals / sizeof forwarded_signals[0])

/* The dispositions trace replaces while the command runs. */
typedef struct saved_signals {
    struct sigaction forwarded[NFORWARDED];
    struct sigaction ttou;
} saved_signals;

/* The child starts in its own process group with default dispositions and
 * an empty signal mask. */
static void spawn_attr_init(posix_spawnattr_t *attr)
{
    posix_spawnattr_init(attr);
    posix_spawnattr_setpgroup(attr, 0);
    sigset_t defaults, empty;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaddset(&defaults, forwarded_signals[i]);
    sigaddset(&defaults, SIGTTOU);
    posix_spawnattr_setsigdefault(attr, &defaults);
    posix_spawnattr_setsigmask(attr, &empty);
    posix_spawnattr_setflags(attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
}

/* Forwards SIGINT, SIGTERM and SIGHUP to the child; ignores SIGTTOU so that
 * the terminal can be handed back. */
static void signals_forward(saved_signals *saved)
{
    struct sigaction sa = {0}, ign = {0};
    sa.sa_handler = forward_signal;
    sigemptyset(&sa.sa_mask);
    ign.sa_handler = SIG_IGN;
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaction(forwarded_signals[i], &sa, &saved->forwarded[i]);
    sigaction(SIGTTOU, &ign, &saved->ttou);
}

static void signals_restore(const saved_signals *saved)
{
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaction(forwarded_signals[i], &saved->forwarded[i], NULL);
    sigaction(SIGTTOU, &saved->ttou, NULL);
}

/* strace exits with the command's status and dies of the signal that
 * killed the command (strace(1), "exit status"). */
static void record_status(nr__trace_run *run, int status)
{
    if (WIFSIGNALED(status)) {
        run->term_signal = WTERMSIG(status);
        run->exit_code = -1;
        run->exit_status = 128 + run->term_signal;
    } else {
        run->exit_code = WEXITSTATUS(status);
        run->exit_status = run->exit_code;
    }
    int sig = run->term_signal;
    run->interrupted = stop_signal != 0 || sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
}

/* Ctrl-Z stopped the traced group (it has the terminal): niorep stops too,
 * with the same signal, so that the shell sees its job stopped and gives
 * the prompt back; once continued (fg, bg) it continues the group, handing
 * it the terminal when niorep has it again. A SIGTSTP that the kernel does
 * not deliver to niorep (an orphaned process group: nobody could continue
 * it) leaves it running, and the group is continued at once. Until session
 * 46 niorep kept waiting, and the terminal hung on the stopped group. */
static void stop_with_traced(pid_t pid, int stop_sig)
{
    tcsetpgrp(STDIN_FILENO, getpgrp());
    raise(stop_sig);
    if (tcgetpgrp(STDIN_FILENO) == getpgrp())
        tcsetpgrp(STDIN_FILENO, pid);
    kill(-pid, SIGCONT);
}

/* Waits for the traced group's leader (strace) to end; its wait status. */
static int wait_traced(pid_t pid, int own_tty)
{
    int status = 0;
    for (;;) {
        if (waitpid(pid, &status, own_tty ? WUNTRACED : 0) < 0) {
            if (errno == EINTR)
                continue;
            return 0;
        }
        if (!WIFSTOPPED(status))
            return status;
        if (WSTOPSIG(status) != SIGSTOP) /* the terminal's stops; a SIGSTOP sent to the group is the sender's */
            stop_with_traced(pid, WSTOPSIG(status));
    }
}

static int run_traced(const strv *argv, const strv *env, nr__trace_run *run)
{
    posix_spawnattr_t attr;
    spawn_attr_init(&attr);
    saved_signals saved;
    signals_forward(&saved);

    pid_t pid;
    run->start_time = now_unix();
    int rc = posix_spawn(&pid, argv->items[0], NULL, &attr, (char *const *)argv->items, (char *const *)env->items);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        signals_restore(&saved);
        fprintf(stderr, "niorep trace: cannot run %s: %s\n", argv->items[0], strerror(rc));
        return 1;
    }
    child_pgid = pid;
    if (stop_signal)
        kill(-pid, stop_signal);
    int own_tty = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
    if (own_tty)
        tcsetpgrp(STDIN_FILENO, pid);

    int status = wait_traced(pid, own_tty);
    run->end_time = now_unix();
    if (own_tty)
        tcsetpgrp(STDIN_FILENO, getpgrp());
    child_pgid = 0;
    signals_restore(&saved);
    record_status(run, status);
    return 0;
}

typedef struct trace_args {
    const char *out;
    strv labels, watch;
    int per_pid, no_hook;
    const char *strace;
    char **command;
    size_t command_count;
} trace_args;

static int parse_args(int argc, char **argv, trace_args *a)
{
    enum { OPT_PER_PID = 256, OPT_NO_HOOK, OPT_STRACE };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},   {"label", required_argument, NULL, 'l'},
        {"watch", required_argument, NULL, 'w'},    {"per-pid", no_argument, NULL, OPT_PER_PID},
        {"no-hook", no_argument, NULL, OPT_NO_HOOK}, {"strace", required_argument, NULL, OPT_STRACE},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
    };
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, "+:o:l:w:h", longopts, NULL)) != -1;) {
        switch (c) {
        case 'o': a->out = optarg; break;
        case 'l': {
            const char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg)
                return nr_cli_usage("trace", "--label expects KEY=VALUE, got '%s'", optarg);
            /* the manifest's labels are text: one that is not UTF-8 was
               left out of it without a word (review 47) */
            if (nr_utf8_clean_size(optarg) != strlen(optarg) + 1)
                return nr_cli_usage("trace", "--label expects UTF-8 text without control characters, got '%s'",
                                    optarg);
            /* one value per key (until session 46 the last won, silently) */
            for (size_t i = 0; i < a->labels.count; i++)
                if (strncmp(a->labels.items[i], optarg, (size_t)(eq - optarg) + 1) == 0)
                    return nr_cli_usage("trace", "--label %.*s given twice ('%s' and '%s')", (int)(eq - optarg),
                                        optarg, a->labels.items[i], optarg);
            if (strv_push(&a->labels, optarg) < 0)
                return 1;
            break;
        }
        case 'w':
            if (strv_push(&a->watch, optarg) < 0)
                return 1;
            break;
        case OPT_PER_PID: a->per_pid = 1; break;
        case OPT_NO_HOOK: a->no_hook = 1; break;
        case OPT_STRACE: a->strace = optarg; break;
        case 'h': nr_cli_help(nr_cli_find("trace"), trace_options, stdout); return -1;
        default: return nr_cli_bad_option("trace", c, argv);
        }
    }
    if (!a->out)
        return nr_cli_usage("trace", "missing -o RUN_DIR");
    if (optind >= argc)
        return nr_cli_usage("trace", "missing COMMAND (after --)");
    a->command = argv + optind;
    a->command_count = (size_t)(argc - optind);
    return 0;
}

/* Where a trace reads and writes. */
typedef struct trace_paths {
    char strace[PATH_MAX];
    char run_dir[PATH_MAX];          /* absolute */
    char log[PATH_MAX + 16];         /* run_dir/strace.log */
    char hook_out[PATH_MAX + 16];    /* run_dir/hook.jsonl */
    char hook_dir[PATH_MAX];         /* valid when hook_on */
    int hook_on;
    int with_sh;                     /* COMMAND is a script without "#!": run by /bin/sh */
    int made_run_dir;                /* trace created run_dir (removed again when nothing ran) */
} trace_paths;

/* Whether dir exists and holds an entry; its first name (in readdir order)
 * into first. */
static int dir_has_entries(const char *dir, char *first, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    const struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(first, cap, "%s", e->d_name);
            found = 1;
        }
    closedir(d);
    return found;
}

/* COMMAND before anything is made: a shell's answers (127 not found, 126
 * not executable), so that no run directory stands for a job that never
 * ran. Returns 0, or the exit status after saying why not. */
/* How the kernel would run the file at path, as a shell sees it: 0 when it
 * runs (a binary, or a "#!" script whose interpreter can run), 1 when it
 * is a text without "#!", which a shell runs with /bin/sh (the kernel's
 * ENOEXEC: strace, which execs it directly, failed), or 127 / 126 after
 * saying that its "#!" interpreter is missing / cannot run. Until session
 * 46 both cases made a run directory holding strace's failed execve, with
 * exit 1 and a note that the hook never started (review 46). */
static int how_it_runs(const char *command, const char *path)
{
    char head[256];
    FILE *f = fopen(path, "rb");
    const size_t n = f ? fread(head, 1, sizeof head - 1, f) : 0;
    if (f)
        fclose(f);
    head[n] = '\0';
    if (n >= 2 && head[0] == '#' && head[1] == '!') {
        char interp[sizeof head];
        if (sscanf(head + 2, " %255[^ \t\r\n]", interp) != 1)
            interp[0] = '\0';
        if (access(interp, X_OK) == 0)
            return 0;
        const int missing = access(interp, F_OK) != 0;
        fprintf(stderr, "niorep trace: %s: bad interpreter '%s': %s\n", command, interp,
                missing ? "no such file" : "not executable");
        return missing ? 127 : 126;
    }
    const char *line_end = memchr(head, '\n', n);
    const int text = n > 0 && !memchr(head, '\0', line_end ? (size_t)(line_end - head) : n) &&
                     !(n >= 4 && memcmp(head, "\177ELF", 4) == 0);
    return text ? 1 : 0;
}

/* 0 when COMMAND can run (*with_sh: it runs with /bin/sh, as a shell would
 * run it), else the exit status after saying why not. */
static int check_command(const char *command, int *with_sh)
{
    char found[PATH_MAX];
    *with_sh = 0;
    if (find_in_path(command, found, sizeof found) == 0) {
        const int how = how_it_runs(command, found);
        *with_sh = how == 1;
        return how == 1 ? 0 : how;
    }
    if (strchr(command, '/') && access(command, F_OK) == 0) {
        fprintf(stderr, "niorep trace: %s: not executable\n", command);
        return 126;
    }
    fprintf(stderr, "niorep trace: %s: command not found%s\n", command, strchr(command, '/') ? "" : " in PATH");
    return 127;
}

/* Finds strace, COMMAND and the hook, creates the run directory (new or
 * empty: the ingest reads every log of a run directory, so an earlier
 * run's files would join this one's). Returns 0, or the exit status after
 * saying why not. */
static int resolve_paths(const trace_args *a, trace_paths *p)
{
    nr_error err;
    nr_error_clear(&err);
    if (find_in_path(a->strace ? a->strace : "strace", p->strace, sizeof p->strace) != 0) {
        fprintf(stderr, "niorep trace: strace not found%s%s; install it (Debian: apt-get install strace)\n",
                a->strace ? " at " : " in PATH", a->strace ? a->strace : "");
        return 1;
    }
    const int command = check_command(a->command[0], &p->with_sh);
    if (command != 0)
        return command;
    p->hook_on = !a->no_hook;
    const int hook = p->hook_on ? find_hook_dir(p->hook_dir, sizeof p->hook_dir) : 0;
    if (hook == -2) {
        fprintf(stderr, "niorep trace: NIOREP_HOOK_DIR=%s holds no niorep hook (expected sitecustomize.py and "
                        "niorep_hook/__init__.py in it)\n", getenv("NIOREP_HOOK_DIR"));
        return 2;
    }
    if (hook == -1) {
        fprintf(stderr, "niorep trace: Python hook not found (set NIOREP_HOOK_DIR to niorep's workloads/ folder); "
                        "tracing without it\n");
        p->hook_on = 0;
    }
    char entry[NAME_MAX + 1];
    if (dir_has_entries(a->out, entry, sizeof entry)) {
        fprintf(stderr,
                "niorep trace: %s is not empty (it holds %s): a run directory must be new or empty, or its "
                "old files would join this run\n",
                a->out, entry);
        return 2;
    }
    p->made_run_dir = access(a->out, F_OK) != 0;
    if (nr_make_dirs(a->out, &err) < 0)
        return nr_cli_fail(&err);
    if (!realpath(a->out, p->run_dir))
        return nr_cli_fail(&(nr_error){NR_E_IO, "cannot resolve the run directory"});
    if (access(p->run_dir, W_OK | X_OK) != 0) { /* strace's own "Can't fopen" came first until session 46 */
        fprintf(stderr, "niorep trace: %s: cannot write the run directory: %s\n", a->out, strerror(errno));
        return 1;
    }
    snprintf(p->log, sizeof p->log, "%s/strace.log", p->run_dir);
    snprintf(p->hook_out, sizeof p->hook_out, "%s/hook.jsonl", p->run_dir);
    return 0;
}

static int trace_main(trace_args *a)
{
    trace_paths paths;
    const int setup = resolve_paths(a, &paths);
    if (setup != 0)
        return setup;
    const char *strace_path = paths.strace, *hook_dir = paths.hook_on ? paths.hook_dir : NULL;
    nr_error err;
    nr_error_clear(&err);

    strv sargv = {0}, env = {0};
    char *trace_set = NULL, *owned[2] = {NULL, NULL};
    int status = 1, died_of_sigint = 0;
    const char *shell = paths.with_sh ? "/bin/sh" : NULL;
    if (build_strace_argv(&sargv, strace_path, paths.log, a->per_pid, shell, a->command, a->command_count,
                          &trace_set) < 0 ||
        build_env(&env, hook_dir, paths.hook_out, owned, 2) < 0) {
        fprintf(stderr, "niorep trace: out of memory\n");
        goto done;
    }
    if (preflight(&sargv, sargv.count - a->command_count - (shell ? 1 : 0)) != 0) {
        if (paths.made_run_dir) /* nothing ran: no run directory (an empty one was left until session 46) */
            rmdir(paths.run_dir);
        goto done;
    }
    char version[64];
    strace_version(strace_path, version, sizeof version);

    nr__trace_run run = {
        .run_dir = a->out,
        .labels = (char **)a->labels.items,
        .label_count = a->labels.count,
        .watch = (char **)a->watch.items,
        .watch_count = a->watch.count,
        .command = a->command,
        .command_count = a->command_count,
        .strace_path = strace_path,
        .strace_version = version,
        .strace_argv = sargv.items,
        .hook_dir = hook_dir,
        .per_pid = a->per_pid,
    };
    if (run_traced(&sargv, &env, &run) != 0)
        goto done;
    run.hook_written = hook_dir && is_file(paths.hook_out);
    if (hook_dir && !run.hook_written)
        fprintf(stderr, "niorep trace: note: no Python process started the hook (a command that is not Python, "
                        "or python -E, -I or -S, which skip PYTHONPATH or site): the run has no phases\n");
    if (nr__trace_manifest_write(&run, &err) < 0) {
        nr_cli_fail(&err);
        goto done;
    }
    if (run.interrupted)
        fprintf(stderr, "niorep trace: interrupted; %s holds what was recorded until then\n", a->out);
    status = run.exit_status;
    died_of_sigint = run.term_signal == SIGINT;
done:
    free(sargv.items);
    free(env.items);
    free(trace_set);
    free(owned[0]);
    free(owned[1]);
    if (died_of_sigint)
        die_of_sigint();
    return status;
}

int nr_cmd_trace(int argc, char **argv)
{
    trace_args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc == 0)
        rc = trace_main(&a);
    else if (rc < 0)
        rc = 0;  /* --help */
    free(a.labels.items);
    free(a.watch.items);
    return rc;
}
