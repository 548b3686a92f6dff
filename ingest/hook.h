/* hook: reads the semantic layer (hook.jsonl, docs/hook-format.md): phase
 * begin/end events, Python-level I/O records, marks and waits, and answers "which phase is
 * open in this thread/process at time t". Broken lines are counted by reason
 * with line numbers, never fatal. */
#ifndef HOOK_H
#define HOOK_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"

typedef struct nr_hook nr_hook;

typedef struct nr_hook_phase {
    int64_t phase_id;   /* dense, 0-based, ordered by (begin_ns, pid, tid) */
    int64_t pid, tid;   /* tid = pid when the hook gave none */
    const char *name;   /* owned by the hook */
    int64_t begin_ns, end_ns;  /* Unix ns; end_ns of a phase never ended = end of trace */
    int depth;          /* 0 = outermost in its thread */
    int64_t parent_id;  /* enclosing phase, -1 none */
    int never_ended;
    int ended_by_error; /* its phase_end named an exception ("error"): the block raised */
} nr_hook_phase;

typedef struct nr_hook_io {
    int64_t ts_ns, pid, tid;
    const char *op, *path;  /* owned by the hook; path "" when none */
    int64_t bytes, dur_ns;  /* -1 when absent */
} nr_hook_io;

typedef struct nr_hook_mark {
    int64_t ts_ns, pid, tid;
    const char *name;   /* owned by the hook */
    const char *attrs;  /* compact JSON object with sorted keys, "" none; owned by the hook */
} nr_hook_mark;

typedef struct nr_hook_wait {
    int64_t ts_ns, pid, tid; /* ts_ns: when the wait began */
    const char *what;   /* what was waited for ("batch"); owned by the hook */
    int64_t dur_ns;
    int first;          /* the first item of its pass ("first": true) */
} nr_hook_wait;

/* Receives each problem found while reading: reason key ("bad_json",
 * "missing_field", "unknown_event", "unmatched_phase_end", ...), 1-based line
 * number, and the line, line[0, len) (it may hold NULs; not terminated). A
 * field that is there but of the wrong type is no missing field: a
 * non-string "event" is an unknown_event, a non-integer "pid" or "tid" a
 * bad_pid, a non-number "ts" a bad_timestamp. */
typedef void (*nr_hook_diag_fn)(void *ctx, const char *reason, uint64_t line_no, const char *line, size_t len);

/* Loads path (plain, .zst or .gz). Returns 0 and a new hook in *out;
 * NR_E_IO when it cannot be read. Bad lines go to diag (which may be NULL). */
int nr_hook_load(const char *path, nr_hook_diag_fn diag, void *diag_ctx, nr_hook **out, nr_error *err);
/* Accepts NULL. */
void nr_hook_free(nr_hook *h);

/* Closes phases that never ended at end_ns (the end of the strace trace),
 * numbers them (a sort in bounded memory: ext_sort.h) and builds the
 * lookup index (each thread's runs: run_pages.h); the phases then wait in
 * a record queue (on disk past a block) for nr_hook_next_phase. Call
 * once, before nr_hook_phase_at. NR_E_NOMEM, or a temporary file's
 * NR_E_IO. */
int nr_hook_finish(nr_hook *h, int64_t end_ns, nr_error *err);

size_t nr_hook_phase_count(const nr_hook *h);
/* The phases in id order, read back one at a time after nr_hook_finish:
 * rewind, then next until it returns 0 (1: a phase in *out, its name
 * valid while h is). An error is the temporary file's. */
int nr_hook_rewind_phases(nr_hook *h, nr_error *err);
int nr_hook_next_phase(nr_hook *h, nr_hook_phase *out, nr_error *err);
size_t nr_hook_io_count(const nr_hook *h);
size_t nr_hook_mark_count(const nr_hook *h);
size_t nr_hook_wait_count(const nr_hook *h);
/* The io, mark and wait records in the hook file's order, read back one
 * at a time: the hook keeps them in record queues, on disk past a block
 * (a record a file object: a job that reads millions of samples has
 * millions; docs/performance.md, session 67). Rewind all three, then
 * take each kind's records until its next_ returns 0; a record is valid
 * until the next call for its kind. An error is the temporary file's. */
int nr_hook_rewind_records(nr_hook *h, nr_error *err);
int nr_hook_next_io(nr_hook *h, const nr_hook_io **io, nr_error *err);
int nr_hook_next_mark(nr_hook *h, const nr_hook_mark **mark, nr_error *err);
int nr_hook_next_wait(nr_hook *h, const nr_hook_wait **wait, nr_error *err);
/* The file the hook wrote to, as its header line names it (absolute), or
 * NULL. Its writes show up in the strace log; ingest marks that file as
 * niorep's own output so they are not counted as the job's I/O. */
const char *nr_hook_output_path(const nr_hook *h);
/* Earliest and latest timestamps in the hook, Unix ns; 0 when empty. */
int64_t nr_hook_first_ns(const nr_hook *h);
int64_t nr_hook_last_ns(const nr_hook *h);

/* The innermost phase open at ts_ns in thread tid of process pid (tid < 0,
 * or no phase open in thread tid: in any thread of pid, the main thread
 * preferred), or -1. Phases cover [begin_ns, end_ns). The caller walks
 * the process tree for "nearest ancestor" inheritance. Fast for
 * nondecreasing ts_ns per pid. A thread's phases are looked up in its
 * runs, on disk past a page (run_pages.h): NR_HOOK_LOOKUP_FAILED when a
 * page cannot be read back, and nr_hook_lookup_error says why. */
#define NR_HOOK_LOOKUP_FAILED (-2)
int64_t nr_hook_phase_at(nr_hook *h, int64_t pid, int64_t tid, int64_t ts_ns);
/* Sets err to why the last lookup failed; returns its code. */
int nr_hook_lookup_error(const nr_hook *h, nr_error *err);
/* Whether a thread of pid opened a phase: nr_hook_phase_at(h, pid, ...)
 * is -1 at every time otherwise. */
int nr_hook_pid_has_phases(const nr_hook *h, int64_t pid);

#endif
