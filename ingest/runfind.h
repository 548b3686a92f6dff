/* runfind: finds the inputs of one run: the strace logs (by name, and by
 * content whatever the name), hook.jsonl and manifest.json. The layout is
 * described in docs/run-directory.md. */
#ifndef RUNFIND_H
#define RUNFIND_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"

typedef struct nr_runlog {
    char *path;   /* openable path (owned) */
    char *name;   /* name relative to the run dir, or the base name of a single log (owned) */
    int64_t pid;  /* pid from a numeric -ff suffix ("strace.log.1234", "trace.1234.zst"); -1 none */
} nr_runlog;

/* Why an entry of a run folder is not read: one message each, a function
 * of the entry's name and kind only (a build's fingerprint holds them, not
 * the entry's size or times). */
typedef enum nr_runskip_why {
    NR_RUNSKIP_OTHER,      /* a file that is no log by its name or its first lines, no hook, no manifest */
    NR_RUNSKIP_STORE,      /* a file named *.nio */
    NR_RUNSKIP_HOOK_AGAIN, /* a second hook file (hook.jsonl and hook.jsonl.zst): the first by name is read */
    NR_RUNSKIP_FOLDER,     /* a sub-folder: a run folder is read one level deep */
    NR_RUNSKIP_SPECIAL,    /* neither file nor folder: a link to nothing, a pipe, a socket, a device */
    NR_RUNSKIP_HIDDEN,     /* a hidden entry named like a log, hook or manifest after its dots
                              (".strace.log.123") */
    NR_RUNSKIP_HIDDEN_LOG, /* another hidden file, an strace log by its first lines (".trace.1234");
                              other hidden entries are passed over */
} nr_runskip_why;

typedef struct nr_runskip {
    char *name;           /* entry name in the run dir (owned) */
    nr_runskip_why why;
} nr_runskip;

/* The message of a skipped entry's note ("a niorep store (*.nio): not read"). */
const char *nr_runskip_message(nr_runskip_why why);

typedef struct nr_runfiles {
    char *dir;            /* the run dir, or NULL when the input is a single log (owned) */
    nr_runlog *logs;      /* sorted: by pid when every log has one (-ff), else by name */
    size_t nlogs;
    char *hook_path;      /* hook.jsonl[.zst|.gz] or NULL (owned) */
    char *manifest_path;  /* manifest.json or NULL (owned) */
    nr_runskip *skipped;  /* the dir's entries that are none of the above (but binary
                             ones below), hidden ones apart but those named like an
                             input (NR_RUNSKIP_HIDDEN) or logs by their first lines
                             (NR_RUNSKIP_HIDDEN_LOG), in name order (owned): a note
                             each (file_not_read), nothing lost silently */
    size_t nskipped, skipped_cap;
    char **binary;        /* names of files named like a log (strace.log*) whose first
                             8 KiB hold a NUL byte: not logs (owned; a note each) */
    size_t nbinary, binary_cap;
    int names_only;       /* set after nr_runfiles_init: files named like a log are logs,
                             unread (a listing of what an ingest reads, for a build's
                             fingerprint: binary ones are logs then, the same files) */
} nr_runfiles;

void nr_runfiles_init(nr_runfiles *r);
void nr_runfiles_fini(nr_runfiles *r);

/* Fills r from input (a run directory or one log file). A directory without
 * a log is NR_E_INPUT "DIR: no strace log found (expected strace.log or
 * strace -ff files)", or "DIR/F: not an strace log: binary ..." when its
 * only file named like a log is binary, or "...; .F is one but hidden ..."
 * when its only logs are hidden; a missing input is NR_E_IO. */
int nr_runfind(const char *input, nr_runfiles *r, nr_error *err);

/* Verdict of content sniffing on the first bytes of a file. */
typedef struct nr_sniff {
    unsigned lines;      /* non-blank lines looked at */
    unsigned strace;     /* of which syscall/unfinished/resumed/signal/exit lines */
    int binary;          /* NUL bytes or mostly non-text bytes */
    int cr_only;         /* no LF, a CR before another byte: lines cut at each CR */
} nr_sniff;

/* Looks at buf[0..n) (the start of a file, maybe cut mid-line) and returns 1
 * when it looks like an strace log: most of its first non-blank lines (up to
 * 64) parse as strace event lines. Lines end in LF, or in CR when buf holds
 * no LF and a CR before another byte (a log with classic Mac OS line ends:
 * taken, and refused with its reason when read). */
int nr_runfind_sniff_buf(const char *buf, size_t n, nr_sniff *out);

/* What the scan of a run folder takes a file named name for by its name
 * alone ("an strace log", "the hook file", "the manifest"), or NULL. */
const char *nr_runfind_role_by_name(const char *name);

/* The numeric -ff suffix of a file name (after dropping .zst/.gz), or -1. */
int64_t nr_runfind_pid_suffix(const char *name);

#endif
