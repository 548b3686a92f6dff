/* trace: internals of `niorep trace` shared by cmd_trace.c (running the
 * command) and trace_manifest.c (describing the run in manifest.json,
 * docs/run-directory.md). */
#ifndef TRACE_H
#define TRACE_H

#include <stddef.h>

#include "nr_error.h"

typedef struct nr__trace_run {
    const char *run_dir;          /* as given */
    char **labels;                /* "K=V" strings, borrowed */
    size_t label_count;
    char **watch;                 /* --watch paths, borrowed */
    size_t watch_count;
    char **command;               /* argv of COMMAND, borrowed */
    size_t command_count;
    const char *strace_path;      /* resolved strace binary */
    const char *strace_version;   /* "6.1", or "" */
    const char *const *strace_argv;  /* the full strace command line, NULL-terminated */
    const char *hook_dir;         /* NULL when the hook was not activated */
    int hook_written;             /* the hook wrote RUN_DIR/hook.jsonl (a Python process started it) */
    int per_pid;
    double start_time, end_time;  /* Unix seconds */
    int exit_status;              /* what niorep trace returns */
    int exit_code;                /* COMMAND's exit code, -1 when it died of a signal */
    int term_signal;              /* 0 unless it died of a signal */
    int interrupted;              /* niorep was asked to stop (SIGINT/SIGTERM/SIGHUP) */
} nr__trace_run;

/* Writes RUN_DIR/manifest.json atomically. */
int nr__trace_manifest_write(const nr__trace_run *run, nr_error *err);

/* The mount holding path, from /proc/self/mountinfo: fills type,
 * mount_point and source (each cap bytes). Returns 0 or NR_E_NOTFOUND. */
int nr__trace_mount_of(const char *path, char *type, char *mount_point, char *source, size_t cap);

#endif
