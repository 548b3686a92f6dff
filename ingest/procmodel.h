/* procmodel: the per-process model of a traced job. Fed one lexed strace
 * line at a time (in time order), it replays the process tree, each
 * process's fd table, cwd and open file descriptions (with their offsets),
 * pairs <unfinished ...> with <... resumed> lines per task, and hands out one
 * event per syscall. It also keeps the per-file and per-task totals that
 * become tables files and processes. Rules and definitions:
 * docs/definitions.md.
 *
 * Memory grows with tasks, files and open fds, never with lines. */
#ifndef PROCMODEL_H
#define PROCMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "nr_error.h"
#include "strace_line.h"

typedef struct nr_pm nr_pm;

/* One syscall event (columns of table events; phase_id is the caller's). */
typedef struct nr_pm_event {
    int64_t ts_ns, dur_ns, pid, tid;
    nr_span syscall;      /* valid during the emit call */
    uint16_t syscall_ref; /* syscall's entry in the syscall table, as nr_sline.syscall_ref
                             says it (NR_SLINE_SYSCALL_UNSET: not given, read the name) */
    uint8_t ghost_bits;   /* NR_PM_GHOST_*: what nr_pm_stitch replays or patches */
    int op_class;
    int64_t fd, file_id, file2_id, bytes, offset, result;
    nr_span errno_name;   /* valid during the emit call; empty when none */
    uint32_t flags;       /* enum nr_event_flag */
    uint32_t ghost;       /* speculative models: the ghost (1 + index) that ghost_bits refer to; 0 none */
} nr_pm_event;

/* Two cache lines: a speculative chunk's events cross from the worker's
 * core to the pass's (spec_chunk.h). */
_Static_assert(sizeof(nr_pm_event) == 128, "an event is two cache lines");

enum {
    NR_PM_GHOST_ADVANCE = 1, /* the call moved the ghost's offset by bytes (offset is at it) */
    NR_PM_GHOST_WRITE = 2,   /* ... as a write (at the end of the file if it was opened to append) */
    NR_PM_GHOST_SEEK = 4,    /* the call set it (lseek) */
    NR_PM_GHOST_FILE = 8,    /* file_id is the real fd's (-1 here), and the file's totals lack it */
    NR_PM_GHOST_CLOSE = 16,  /* a close carried over: file_id is the one the real task's pending close
                                read (-1 here), and the file's totals lack it */
};

/* Receives each event as it is complete. A negative return stops the ingest. */
typedef int (*nr_pm_emit_fn)(void *ctx, const nr_pm_event *ev, nr_error *err);

typedef struct nr_pm_config {
    const char *start_cwd;  /* cwd of the first process; NULL or "" = unknown (paths stay relative) */
    nr_pm_emit_fn emit;
    void *emit_ctx;
    nr_diag *diag;          /* borrowed; receives unmatched_resumed, never_resumed, ... */
    int speculative;        /* a model of a segment of a log fed before the lines before it: see
                               nr_pm_stitch */
} nr_pm_config;

/* Where a line came from, for diagnostics. */
typedef struct nr_pm_where {
    const char *file;       /* log name relative to the run dir */
    uint64_t line;          /* 1-based */
    const char *text;       /* the raw line */
    size_t len;
} nr_pm_where;

/* Returns 0 and a new model in *out, or NR_E_NOMEM. cfg is copied; the
 * strings it points to are borrowed for the model's life. */
int nr_pm_create(const nr_pm_config *cfg, nr_pm **out, nr_error *err);
/* Accepts NULL. */
void nr_pm_destroy(nr_pm *pm);
/* Makes pm what nr_pm_create(cfg) makes, keeping its memory (a model per
 * chunk of a log: docs/split.md). 0 or NR_E_NOMEM. */
int nr_pm_reset(nr_pm *pm, const nr_pm_config *cfg, nr_error *err);

/* In stderr mode (lines without a pid prefix in a log that is not an -ff
 * file), the pid of the first process, when the caller found it by looking
 * ahead; otherwise it is 0 ("pid not in the log"). Call before feeding. */
void nr_pm_set_root_pid(nr_pm *pm, int64_t pid);

/* Hints that a line some lines ahead names the file of hash
 * nr_hash_bytes(path, n) (a plain -y annotation): _slot starts loading its
 * slot in the path table, _record (later) its record and _file (later
 * still) the file's totals, so that the lookup of a file opened again and
 * its first count do not wait on three cache misses in a row. Change
 * nothing. */
void nr_pm_prefetch_path_slot(const nr_pm *pm, uint64_t hash);
void nr_pm_prefetch_path_record(const nr_pm *pm, uint64_t hash);
void nr_pm_prefetch_path_file(const nr_pm *pm, uint64_t hash);

/* Feeds one line. file_pid is the pid of an -ff file (-1 for -f logs); it is
 * used when the line has no pid prefix. ts_ns is the line's normalized
 * timestamp (-1 when none). Only SYSCALL, UNFINISHED, RESUMED, SIGNAL, EXITED
 * and KILLED lines do anything. Returns 0; 1 when the line was skipped (a
 * "<... resumed>" without its unfinished part: counted in the diagnostics
 * as unmatched_resumed); 2 when it was skipped as call_while_pending (a
 * whole call line without pid in stderr mode, while two or more tasks
 * lived, for a task with a call pending: the program's own text); or the
 * negative code of the emit callback or of an allocation failure. */
int nr_pm_feed(nr_pm *pm, const nr_sline *sl, int64_t file_pid, int64_t ts_ns,
               const nr_pm_where *where, nr_error *err);

/* Ends the trace: every call still unfinished becomes an event flagged
 * NR_EVF_NEVER_RESUMED (in tid order). */
int nr_pm_finish(nr_pm *pm, nr_error *err);

/* ---- results ---------------------------------------------------------- */

typedef struct nr_pm_file {
    int kind;  /* nr_file_kind */
    int64_t bytes_read, bytes_written;
    int64_t read_calls, write_calls, open_calls, close_calls, meta_calls, sync_calls;
    int64_t first_ts_ns, last_ts_ns;  /* -1 when the log has no timestamps */
} nr_pm_file;

/* Files are numbered densely (file_id) in order of first appearance. */
size_t nr_pm_file_count(const nr_pm *pm);
/* Returns the totals of file id and sets *path and *len to its identity. */
const nr_pm_file *nr_pm_file_get(const nr_pm *pm, size_t id, const char **path, size_t *len);

typedef struct nr_pm_task {
    int64_t tid, pid, ppid;  /* ppid -1 unknown */
    int is_thread;
    int64_t first_ts_ns, last_ts_ns;
    int64_t end_ts_ns;       /* its "+++ exited/killed" line's stamp; -1 not seen */
    const char *exe;         /* "" when no execve seen */
    int64_t exit_code;       /* -1 when not seen */
    const char *killed_by;   /* "" when not killed */
    uint64_t events, signals;
} nr_pm_task;

/* Tasks, sorted by tid once nr_pm_finish has run. */
size_t nr_pm_task_count(const nr_pm *pm);
void nr_pm_task_get(const nr_pm *pm, size_t i, nr_pm_task *out);
/* A process of the trace, as a handle valid until nr_pm_reset or
 * nr_pm_destroy. Two processes of one reused pid are two handles: the
 * process tree is walked by handle, never by pid (a lookup by pid finds
 * the newer and can loop: review 50). */
typedef struct task nr_pm_proc;
/* The process pid named at ts_ns: of those it named, the last to begin at
 * or before ts_ns (a process without an event yet counts as begun), else
 * the first; NULL when pid names none. */
const nr_pm_proc *nr_pm_process_at(const nr_pm *pm, int64_t pid, int64_t ts_ns);
/* The process whose thread *by_tid cloned p; NULL (and -1) when the trace
 * did not see p's clone. Made before p, so a walk up always ends. */
const nr_pm_proc *nr_pm_parent_process(const nr_pm_proc *p, int64_t *by_tid);
int64_t nr_pm_process_pid(const nr_pm_proc *p);
/* Distinct for every process of pm, below the number of its tasks: an
 * index for the caller's tables. */
size_t nr_pm_process_key(const nr_pm_proc *p);
/* Changes whenever a task's parent is set (a clone, or a child attached
 * again to another clone): what the caller derived from the tree before
 * may be stale. */
uint64_t nr_pm_tree_version(const nr_pm *pm);
/* Whether the log named task tid (a process is the task of its pid). */
int nr_pm_knows_task(const nr_pm *pm, int64_t tid);

typedef struct nr_pm_counts {
    uint64_t events;
    uint64_t never_resumed;
    uint64_t resumed;
    uint64_t annotated_fds;   /* fd arguments or results carrying a -y annotation */
    uint64_t relative_paths;  /* files whose identity stayed relative (cwd unknown) */
    int64_t first_ts_ns, last_ts_ns;
} nr_pm_counts;

void nr_pm_get_counts(const nr_pm *pm, nr_pm_counts *out);

/* ---- speculation -------------------------------------------------------
 * A speculative model (cfg.speculative) is fed a segment of a log without
 * the lines before it. What it looks up and did not see made - an fd, a
 * task - it takes as a ghost of what the real model holds at the segment's
 * start: offsets relative to the real one's, files and pids resolved when
 * the segment is stitched onto the real model. What it cannot speculate on
 * (docs/split.md lists it) refuses the segment, which then goes to the real
 * model line by line. Events it emits carry local file ids and ghosts: the
 * caller keeps them and hands them, in order, to nr_pm_stitch_event. */

/* Why spec refused its segment, or NULL. */
const char *nr_pm_refused(const nr_pm *spec);
/* The <unfinished ...> calls carried over to spec's segment from the lines
 * before it (par_lex's nr_par_carried, lexed; where: each one's line),
 * borrowed until the next call (n == 0 before they go): a <... resumed>
 * of a task with no call pending in the segment takes its task's carried
 * call as the pending one, and the stitch refuses the segment unless the
 * real model holds that very call (the same line) pending. */
void nr_pm_spec_carry(nr_pm *spec, const nr_sline *calls, const nr_pm_where *where, size_t n);

/* A live task whose fd table another live task shares (threads,
 * CLONE_FILES), as the real model holds it: table is one id for the tasks
 * of one table, among the entries of one nr_pm_shared_tables call. */
typedef struct nr_pm_shared_table {
    int64_t tid;
    uint64_t table;
} nr_pm_shared_table;

/* Changes whenever pm shares or releases an fd table. */
uint64_t nr_pm_tables_version(const nr_pm *pm);
/* Writes pm's shared tables to out: their count, or 0 when there are more
 * than cap (or more tasks than it looks through: the hint is then empty). */
size_t nr_pm_shared_tables(const nr_pm *pm, nr_pm_shared_table *out, size_t cap);
/* A hint of which tasks share fd tables (nr_pm_shared_tables of the real
 * model, maybe out of date), borrowed until the next call (n == 0 before
 * it goes): spec's tasks of one table share one, so that one thread's
 * close or open is the fd another names. The stitch refuses the segment
 * unless the real model's tasks share the tables spec's share. */
void nr_pm_spec_tables(nr_pm *spec, const nr_pm_shared_table *tables, size_t n);

typedef struct nr_pm_stitch nr_pm_stitch;

/* Stitches spec, fed the lines right after those pm was fed, onto pm:
 * returns 0 and *out when the speculation holds (pm then is as if it had
 * been fed the segment, but for the events, which the caller passes
 * through nr_pm_stitch_event and emits); 1 and *why when it does not (pm
 * unchanged); or NR_E_NOMEM. spec is left unusable but for its events'
 * spans, valid until it is destroyed or reset. */
int nr_pm_stitch_begin(nr_pm *pm, nr_pm *spec, nr_pm_stitch **out, const char **why, nr_error *err);
/* Puts each of spec's events, in emission order, into pm's terms: file
 * ids, pid, offsets through ghosts, and the file of a ghost spec could not
 * name (counted in its totals). */
void nr_pm_stitch_event(nr_pm_stitch *st, nr_pm_event *ev);
/* Accepts NULL. */
void nr_pm_stitch_end(nr_pm_stitch *st);

/* For tests: with off nonzero the model replays every call line by its
 * general path, without the fast path of the commonest fd calls (the store
 * must not change). Process-wide; set before any ingest starts. */
void nr__pm_no_fast_path(int off);

#endif
