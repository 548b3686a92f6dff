/* nr_model: every statistic of one run, computed from the store alone.
 *
 * nr_model_compute reads the store in streaming passes over row groups,
 * decoding only the columns each pass needs. Memory is bounded by the number
 * of files, processes and phases of the run, never by the number of events
 * (exact quantiles select order statistics in extra passes over the dur_ns
 * column instead of keeping it).
 *
 * Passes: pass 1 decodes 10 columns of events (every per-event statistic and
 * the latency histograms), pass 2 decodes 8 (timeline, slow-read bytes, exact
 * quantile collection); a further pass runs only when a quantile's bin is too
 * full to collect (docs/summary-schema.md, "latency").
 *
 * Bytes and calls count regular-file I/O only (files.kind == regular);
 * traffic to pipes, sockets, devices, procfs and the rest is reported apart
 * (nr_model_nonfile). Definitions of every number: docs/summary-schema.md;
 * the findings rules: docs/findings.md.
 *
 * Every pointer an accessor returns is owned by the model and valid until
 * nr_model_free. Times are in ns unless a field name says _s (seconds). */
#ifndef NR_MODEL_H
#define NR_MODEL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <jansson.h>

#include "nr_error.h"
#include "nr_phase_pick.h"
#include "nr_schema.h"
#include "nr_store.h"

#include "cachesplit.h"
#include "concentration.h"
#include "powerlaw.h"
#include "quantile.h"

typedef struct nr_model nr_model;

/* Bumped when the same store gives other numbers (a new rule, a changed
 * definition): what is kept of a cached store's model (its power-law
 * fits, cli/fit_cache.h) under an older revision is computed again.
 * 2 (session 41): the probe files of Python's tempfile and the files in
 * multiprocessing's pymp- folder are the runtime's, not job files.
 * 3 (session 42): write bursts are measured from their calls, not bins;
 * a trace whose stamps are all whole seconds (strace -t) has no share
 * of wall time (io_share, main_io_share NAN).
 * 4 (sessions 45, 46): the main process is the topmost that began phases;
 * a merged run's node paths are read after "<node>:" by the runtime and
 * file-system rules; a two-ended call (sendfile, ...) reads its source;
 * the read sizes are of reads that returned data; no bytes, no shares
 * (NaN); a phase's time is the traced time; a process lives to the end of
 * its last call.
 * 5 (session 47): with whole-second stamps the timeline's bins are whole
 * seconds and a write burst has no duration or rate (NAN).
 * 6 (session 49): an end-of-file read (0 B) is in no request-size bin.
 * 7 (session 51): a phase of less than 1 ms of wall time has no share of
 * it (io_share, main_io_share NAN); a reused pid's leader rows are
 * processes of their own, and the tree (roles) is walked by process.
 * 8 (session 64): the sync latency also counts the syncs of directories
 * and of no file (nr__latency_file). */
#define NR_MODEL_REVISION 8

#define NR_MODEL_DEFAULT_BOOTSTRAPS 200
#define NR_MODEL_DEFAULT_SEED 1

#define NR_MODEL_KEEP_NO_FILES ((size_t)-1) /* nr_model_opts.keep_files */

typedef struct nr_model_opts {
    int bootstraps;  /* power-law goodness-of-fit bootstraps; < 0 = default (200), 0 = skip p-values */
    uint64_t seed;   /* bootstrap seed; 0 = default (1) */
    int threads;     /* threads of each power-law fit's bootstrap (<= 1: the caller's alone);
                        the model does not depend on it */
    const nr_powerlaw_fit *known_pl; /* NULL, or the NR_PL_COUNT power-law fits (enum nr_pl_which)
                        of this store's model with these bootstraps and seed, kept from an
                        earlier run of this version (a cache's): used instead of fitting
                        again when their value counts match (borrowed; not kept) */
    size_t keep_files; /* 0: the model keeps every job file's row (nr_model_get_files);
                        NR_MODEL_KEEP_NO_FILES: none; else only the keep_files rows with the
                        most bytes (on a tie, the earlier file), in file order, once the
                        model is computed: a build or a figure set of many runs holds
                        every model, and shows the top files or none. Every other
                        number is the same either way. */
} nr_model_opts;

/* in with its defaults filled in (bootstraps < 0: NR_MODEL_DEFAULT_BOOTSTRAPS,
 * seed 0: NR_MODEL_DEFAULT_SEED), as nr_model_compute uses them; in may be NULL. */
nr_model_opts nr_model_resolve_opts(const nr_model_opts *in);

/* Computes the model of store s (borrowed; may be closed after return).
 * opts may be NULL (defaults). Returns 0 and a new model in *out, or a
 * negative code with err naming the table/column at fault. */
int nr_model_compute(const nr_store *s, const nr_model_opts *opts, nr_model **out, nr_error *err);
/* Accepts NULL. */
void nr_model_free(nr_model *m);

/* The summary as one JSON object (schema: docs/summary-schema.md,
 * "schema_version" 4). Returns a new reference (caller decrefs), NULL on
 * out-of-memory. Dump with NR_MODEL_JSON_FLAGS for deterministic output. */
json_t *nr_model_summary_json(const nr_model *m);
/* Writes the same bytes as json_dumpf(nr_model_summary_json(m), out, flags)
 * (no newline after), making the per-phase arrays (phases, latency.by_phase,
 * latency.job_files.by_phase) one element at a time: memory grows with the
 * rest of the summary, not with phase names. out is borrowed. Returns 0,
 * NR_E_NOMEM or NR_E_IO. */
int nr_model_summary_json_write(const nr_model *m, FILE *out, size_t flags);
#define NR_MODEL_JSON_FLAGS (JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(6))

/* ---- accessors (plain structs, owned by the model) --------------------- */

/* Latency op groups: the op classes whose latency is reported. */
enum nr_lat_op { NR_LAT_READ, NR_LAT_WRITE, NR_LAT_OPEN, NR_LAT_SYNC, NR_LAT_META, NR_LAT_OP_COUNT };
const char *nr_lat_op_name(int lat_op);  /* "read", "write", "open", "sync", "metadata" */

/* Process roles: main = of the processes that began phases, the one nearest
 * the root of the process tree (else the root of the tree); worker = a
 * descendant of main; other = the rest. */
enum nr_role { NR_ROLE_MAIN, NR_ROLE_WORKER, NR_ROLE_OTHER, NR_ROLE_COUNT };
const char *nr_role_name(int role);

typedef struct nr_model_totals {
    uint64_t bytes_read, bytes_written;   /* regular files only */
    uint64_t read_calls, write_calls;     /* regular-file calls of class read / write (failed included, never-resumed not) */
    uint64_t files_read, files_written;   /* regular files with > 0 bytes read / written */
    uint64_t files;                       /* rows of table files with kind regular */
    uint64_t processes;                   /* distinct thread groups (pids) */
    uint64_t events;                      /* rows of table events */
    int64_t first_ns, last_ns;            /* run extent (events, else processes); -1 unknown */
    double duration_s;                    /* last_ns - first_ns, 0 when unknown */
} nr_model_totals;
const nr_model_totals *nr_model_get_totals(const nr_model *m);

/* Per op class: calls, bytes and summed syscall time (regular files). */
typedef struct nr_model_opsum {
    uint64_t calls, bytes;
    int64_t time_ns;   /* sum of dur_ns over calls that have one */
} nr_model_opsum;

/* A span of time, begin_ns <= end_ns. */
typedef struct nr_model_interval {
    int64_t begin_ns, end_ns;
} nr_model_interval;

/* The hook's waits (table waits, niorep_hook.batches): how long threads
 * waited for their next item, a training loop for its next batch
 * (docs/definitions.md, "Waits for data"). */
typedef struct nr_model_waits {
    uint64_t count;               /* wait records */
    uint64_t threads;             /* distinct (pid, tid) that recorded them */
    double seconds;               /* their durations, summed */
    double share;                 /* seconds / (wall_s x threads): the share of the time a waiting thread
                                     spent waiting; NAN without waits or under 1 ms of wall time */
    int64_t p50_ns, p99_ns, max_ns; /* exact nearest-rank quantiles of the durations; -1 when none, or
                                     when the phase is beyond the NR_MODEL_MAX_WAIT_QUANTILES with
                                     the most wait time (max_ns is always known) */
    /* The first item of each pass (a wait marked first: iter() and the first
       next(), the loader's start) apart from the rest, the steady state.
       Waits recorded without the mark (a hook before session 63) are steady. */
    uint64_t passes;              /* waits marked first */
    double start_seconds;         /* their durations, summed */
    double start_share;           /* start_seconds / (wall_s x threads); NAN as share */
    double steady_share;          /* (seconds - start_seconds) / (wall_s x threads - start_seconds): the
                                     share of the time after the first items; NAN as share, or when
                                     under 1 ms of that time is left */
    int64_t start_max_ns, steady_max_ns; /* the longest of each kind; -1 when none */
    int64_t steady_p50_ns, steady_p99_ns; /* p50_ns, p99_ns of the steady waits alone; -1 when none, or
                                             as p50_ns (since session 64) */
} nr_model_waits;
#define NR_MODEL_MAX_WAIT_QUANTILES 16

/* One phase name (instances merged); the last entry may be "unphased". */
typedef struct nr_model_phase {
    const char *name;
    uint64_t instances;
    uint64_t never_ended;         /* instances the hook never ended (a killed job): they end with the trace */
    uint64_t ended_by_error;      /* instances whose block raised an exception (phases.flags 2) */
    int64_t first_ns, last_ns;    /* earliest begin, latest end */
    const nr_model_interval *intervals; /* the instances' intervals, merged where they overlap or
                                           touch, in time order: their union (none for "unphased") */
    size_t n_intervals;
    double wall_s;                /* length of the union of the instances' intervals */
    nr_model_opsum ops[NR_OP_CLASS_COUNT];
    double io_time_s;             /* sum of ops[].time_ns, seconds, summed over processes */
    double io_share;              /* io_time_s / wall_s (NAN when wall_s is under 1 ms, without durations or
                                     with whole-second stamps); may exceed 1 with parallel workers */
    double main_io_time_s;        /* the part of io_time_s in main processes (the training loop itself) */
    double main_io_share;         /* main_io_time_s / (wall_s x main processes): the share of the phase the
                                     loop was blocked in file I/O, at most 1 (NAN as io_share) */
    uint64_t processes_with_io;   /* pids with a regular-file call in this phase */
    uint64_t runtime_bytes_read;  /* of ops[READ].bytes, the runtime's files' (file_role.h) */
    uint64_t runtime_bytes_written; /* of ops[WRITE].bytes, the runtime's files' */
    double runtime_io_time_s;     /* of io_time_s, the calls on the runtime's files (since session 49: figure 1
                                     draws them apart) */
    uint64_t job_bytes_mapped;    /* the lengths of the job files' mappings made in the phase: what reads
                                     through memory, invisible to strace, could reach */
    nr_model_waits waits;         /* the waits begun in the phase */
} nr_model_phase;
size_t nr_model_phase_count(const nr_model *m);
const nr_model_phase *nr_model_phase_at(const nr_model *m, size_t i);
/* Phase p's bytes read and written and its time in I/O calls on the job's
 * files (the runtime's left out): figure 1's values, and its weights in the
 * rule of the phases kept (nr_phase_pick.h). */
double nr_model_phase_job_bytes(const nr_model_phase *p);
double nr_model_phase_job_io_time_s(const nr_model_phase *p);
/* The phases figure 1 keeps when the run has more than NR_PHASE_PICK_MAX
 * (nr_phase_pick_kept of the run's phases and their weights above): their
 * indices, ascending, in *kept (the model's), and their count returned,
 * NR_PHASE_PICK_KEPT; 0 when the run has at most NR_PHASE_PICK_MAX phases
 * (none folds). The others are the folded phases
 * (nr_model_latency_job_folded; docs/figures.md, "Many phases"). */
size_t nr_model_phase_kept(const nr_model *m, const size_t **kept);
/* The report's per-phase tables and the text summary list at most
 * NR_MODEL_PHASES_LISTED phases: with more, those of the largest weight by
 * figure 1's rule (nr_phase_pick_top; figure 1's kept phases among them),
 * in phase order, and the others as one row of their sums. summary --json
 * keeps every phase. */
#define NR_MODEL_PHASES_LISTED 100
/* 1 when phase i is listed (every phase of a run of at most
 * NR_MODEL_PHASES_LISTED). */
int nr_model_phase_listed(const nr_model *m, size_t i);
/* The phases not listed, as one phase of their sums (nr_model_phase_add),
 * and their count in *n_unlisted; NULL (and 0) when every phase is
 * listed. wall_s, io_share and main_io_share are NAN (phases overlap:
 * their times do not add), name "". */
const nr_model_phase *nr_model_phases_unlisted(const nr_model *m, size_t *n_unlisted);
/* Adds p's fields that add up into sum: instances, never_ended,
 * ended_by_error, ops, io_time_s, main_io_time_s, the runtime's bytes and
 * time, job_bytes_mapped, and of waits count, seconds, passes and
 * start_seconds; sum's other fields are left as they are. */
void nr_model_phase_add(nr_model_phase *sum, const nr_model_phase *p);

/* One process (thread group): a leader row of table processes and its
 * threads (a reused pid names several: docs/summary-schema.md "processes"). */
typedef struct nr_model_process {
    int64_t pid, ppid;
    int role;                     /* enum nr_role */
    int64_t first_ns, last_ns;    /* from table processes (its tasks merged) */
    uint64_t calls, bytes_read, bytes_written;   /* regular-file calls of every class */
    double io_time_s;             /* summed syscall time of those calls */
    double io_share;              /* io_time_s / lifetime (NAN when unknown) */
    double bytes_share;           /* (read+written) / run total */
    uint64_t unphased_calls;      /* regular-file calls with phase_id -1 */
    uint64_t runtime_bytes;       /* of bytes_read + bytes_written, the runtime's files' (file_role.h) */
    double runtime_io_time_s;     /* of io_time_s, the calls on the runtime's files (figure 7 leaves them out) */
    int64_t exit_code;            /* "+++ exited with N +++"; -1 when not seen */
    int64_t end_ns;               /* the stamp of its "+++ exited/killed" line; -1 not seen (or a store before ingest revision 26) */
    const char *killed_by;        /* "+++ killed by SIG... +++": the signal's name; "" when not */
    const char *program;          /* its last execve's path, else its parent's program; "" unknown */
} nr_model_process;
size_t nr_model_process_count(const nr_model *m);
/* ascending pid, a reused pid's processes by start */
const nr_model_process *nr_model_process_at(const nr_model *m, size_t i);
int64_t nr_model_main_pid(const nr_model *m);   /* -1 when there are no processes */

/* How a process ended (docs/definitions.md, "How processes ended"):
 * killed (by a signal), else exited 0 or with another status, else
 * unseen (the trace ended first, or the store has no processes table). */
enum nr_process_end { NR_END_EXITED_ZERO, NR_END_EXITED_NONZERO, NR_END_KILLED, NR_END_UNSEEN, NR_END_COUNT };
int nr_model_process_end(const nr_model_process *p);
/* "exited_zero", "exited_nonzero", "killed", "unseen": summary --json's keys. */
const char *nr_process_end_name(int end);
/* The ends counted per role; the killed per signal. */
typedef struct nr_model_signal_count {
    const char *signal;                 /* "SIGKILL" */
    uint64_t processes[NR_ROLE_COUNT];  /* per role */
} nr_model_signal_count;
typedef struct nr_model_process_ends {
    uint64_t count[NR_END_COUNT][NR_ROLE_COUNT];
    size_t nsignals;
    const nr_model_signal_count *signals;   /* by name */
    int python_killed;                      /* a process killed by a signal ran Python */
    int hook_lines_at_risk;                 /* ... and the run had the hook: that process's unwritten hook lines are lost */
} nr_model_process_ends;
const nr_model_process_ends *nr_model_get_process_ends(const nr_model *m);
/* Whether process p ended otherwise than with status 0 and was seen to end. */
int nr_model_process_failed(const nr_model_process *p);
/* n summed over the roles. */
uint64_t nr_model_role_sum(const uint64_t n[NR_ROLE_COUNT]);
/* How many processes failed (nr_model_process_failed): killed, or exited
 * with another status than 0. */
uint64_t nr_model_ends_failed(const nr_model_process_ends *e);
/* When p ended, in seconds from the timeline's start (the zero of the
 * bursts' start_s); NAN when its end was not seen or has no stamp. */
double nr_model_process_end_s(const nr_model *m, const nr_model_process *p);

/* Per-file arrays over the job's regular files (file_role.h; same order:
 * table files), or over the ones nr_model_opts.keep_files kept. */
typedef struct nr_model_files {
    size_t n;
    const char *const *paths;
    const double *bytes_read, *bytes_written, *bytes_total, *accesses;  /* accesses: read + write calls */
    double bytes_total_sum;  /* bytes_total summed over every job file, in file order */
} nr_model_files;
const nr_model_files *nr_model_get_files(const nr_model *m);

/* The regular files of the job's runtime (file_role.h: Python modules,
 * shared libraries, system files): left out of the per-file statistics
 * (concentration, power laws, top files, the small-files finding) and of
 * the access pattern (nr_model_access), and counted here. Every other
 * number counts them with the job's files. */
typedef struct nr_model_runtime {
    uint64_t files;                     /* runtime files that read or wrote bytes */
    uint64_t bytes_read, bytes_written;
    uint64_t accesses;                  /* their read + write calls */
    uint64_t opens, meta_calls;         /* successful opens, metadata calls (as nr_model_access's) */
} nr_model_runtime;
const nr_model_runtime *nr_model_runtime_files(const nr_model *m);

enum nr_conc_which { NR_CONC_TOTAL, NR_CONC_READ, NR_CONC_WRITE, NR_CONC_COUNT };
const nr_concentration *nr_model_concentration(const nr_model *m, int which);
/* Lorenz points of per-file bytes (which = enum nr_conc_which); arrays owned by the model. */
size_t nr_model_lorenz(const nr_model *m, int which, const double **xs, const double **ys);

enum nr_pl_which { NR_PL_BYTES, NR_PL_ACCESSES, NR_PL_COUNT };
const nr_powerlaw_fit *nr_model_powerlaw(const nr_model *m, int which);
/* CCDF points of per-file bytes / accesses (files with > 0 only). */
size_t nr_model_ccdf(const nr_model *m, int which, const double **xs, const double **ps);

/* Exact quantiles of one latency group. */
#define NR_MODEL_NQ 6   /* p50 p90 p99 p99.9 p99.99 max */
extern const double nr_model_quantiles[NR_MODEL_NQ];
typedef struct nr_model_latency {
    uint64_t count;               /* calls with a duration */
    int64_t q_ns[NR_MODEL_NQ];    /* -1 when count == 0 */
    double mean_s;                /* NAN when count == 0 */
    int64_t min_ns, max_ns;       /* the smallest and largest value, 0 when count == 0 */
    /* The log histogram the CDF points are drawn from (nr_loghist's bins,
     * nr_model_latency_hist): bins[b - bin_lo] counts bin b for bin_lo <= b
     * < bin_lo + nbins, every other bin is 0. Kept where a figure may read
     * it: the fixed groups (all, role, file system, the job's files) and a
     * phase's job-file reads (figure 4's series). A phase's other groups
     * keep none (nbins 0): until session 53 each held a whole nr_loghist
     * inline, 2.1 KB, four a phase name (870 MB at 100,000 names). */
    uint64_t *bins;               /* the model's */
    uint16_t bin_lo, nbins;
} nr_model_latency;
/* The group's histogram as a whole nr_loghist (n = count); returns 0 (and
 * an empty *out) when the group has values but keeps no histogram. */
int nr_model_latency_hist(const nr_model_latency *l, nr_loghist *out);
/* Latency of op group lat_op over every regular-file call. */
const nr_model_latency *nr_model_latency_all(const nr_model *m, int lat_op);
/* The same restricted to the job's files (file_role.h: the runtime's left
 * out, as figures 2, 3 and 6 leave them; figure 4 draws these since session 49). */
const nr_model_latency *nr_model_latency_job(const nr_model *m, int lat_op);
/* The job's files of phase i (index of nr_model_phase_at). */
const nr_model_latency *nr_model_latency_job_phase(const nr_model *m, int lat_op, size_t phase);
/* The job's files of the phases nr_model_phase_kept leaves out, together
 * (figure 4's "other N phases"): one group, exact as every other (the
 * same passes), with its histogram; count 0 when no phase folds. */
const nr_model_latency *nr_model_latency_job_folded(const nr_model *m);
/* The same restricted to phase i (index of nr_model_phase_at), a role, a file system. */
const nr_model_latency *nr_model_latency_phase(const nr_model *m, int lat_op, size_t phase);
const nr_model_latency *nr_model_latency_role(const nr_model *m, int lat_op, int role);
size_t nr_model_fs_count(const nr_model *m);
const char *nr_model_fs_name(const nr_model *m, size_t i);   /* mount point, or "unknown" */
const nr_model_latency *nr_model_latency_fs(const nr_model *m, int lat_op, size_t fs);
/* Regular files and the bytes their events moved per file system fs (as
 * nr_model_fs_name): every regular file, the runtime's included, as the
 * latency per file system; Darshan's data transfer per file system. NULL
 * past the last. */
typedef struct nr_model_fs_bytes {
    uint64_t files, bytes_read, bytes_written;
} nr_model_fs_bytes;
const nr_model_fs_bytes *nr_model_fs_bytes_at(const nr_model *m, size_t fs);

/* Cache-hit/miss split of read latency, with slow_bytes_share filled in. */
const nr_cache_split *nr_model_cache_split(const nr_model *m);
uint64_t nr_model_slow_read_bytes(const nr_model *m);

/* Timeline: nbins bins of width_ns from start_ns; bytes per bin (not per
 * phase since session 52: nothing read those, nbins x 16 B a phase name). */
typedef struct nr_model_timeline {
    size_t nbins;
    int64_t start_ns, width_ns;
    const uint64_t *read_bytes, *write_bytes;   /* [nbins], every phase */
    const uint64_t *job_read, *job_write;       /* [nbins], the job's files only (file_role.h; figure 5) */
    const double *waiting;   /* [nbins] when the run has waits (waits.c), else NULL: the share of each bin's
                                time that the waiting threads spent waiting, time waiting within the bin
                                over (width x waits.threads); figure 5's strip */
    const double *start_waiting; /* [nbins] when a wait is marked first, else NULL: of waiting, the
                                    share the first items of the passes (the loader's start) hold */
} nr_model_timeline;
const nr_model_timeline *nr_model_get_timeline(const nr_model *m);

/* A write burst, measured from its calls (docs/definitions.md, "Write
 * bursts"): the write calls of one phase from the first one's start to the
 * last one's end. */
typedef struct nr_model_burst {
    int64_t start_ns, end_ns;     /* first call's start; last call's end (its start without -T) */
    uint64_t bytes, calls;        /* the phase's write calls that started in [start_ns, end_ns] */
    size_t phase;                 /* index of nr_model_phase_at (the unphased entry for none) */
    double duration_s;            /* (end_ns - start_ns) / 1e9 */
    double mean_rate;             /* bytes / duration_s in bytes/s; NAN when duration_s == 0 */
    double interval_s;            /* start minus the previous burst's start; NAN for the first */
} nr_model_burst;
/* Burst detection parameters (docs/definitions.md, "Write bursts"). */
#define NR_BURST_JOIN_NS (1000LL * 1000)         /* a call within 1 ms of its phase's piece joins it */
#define NR_BURST_SHARE 0.10                      /* a piece counts at >= 10% of the largest piece's bytes */
#define NR_BURST_MIN_BYTES 4096                  /* ... and at least one 4 KiB page */
#define NR_BURST_MERGE_NS (100LL * 1000 * 1000)  /* counted pieces of a phase <= 100 ms apart: one burst */
/* The bursts listed (nr_model_burst_at), in start order: all of them up to
 * NR_BURSTS_LISTED, else that many of the largest by bytes (of equal
 * ones a fixed pseudo-random sample, spread over the run), so that the
 * model's memory does not grow with a run's length (issue 7); interval_s
 * is then to the previous burst listed. */
#define NR_BURSTS_LISTED 1000
size_t nr_model_burst_count(const nr_model *m);
const nr_model_burst *nr_model_burst_at(const nr_model *m, size_t i);
/* Sums over every burst, listed or not (docs/definitions.md, "Write bursts"). */
typedef struct nr_model_burst_totals {
    uint64_t count, bytes, calls;
    double time_s;            /* summed durations */
    double highest_rate;      /* the largest mean_rate; NAN when no burst has a duration */
} nr_model_burst_totals;
const nr_model_burst_totals *nr_model_get_burst_totals(const nr_model *m);

/* The job's regular files by the bytes they moved: Darshan's file count
 * summary (read-only, write-only, read/write files), by bytes rather than
 * by calls; no_bytes are files opened, looked up or read at their end only. */
enum nr_file_use { NR_USE_READ_ONLY, NR_USE_WRITE_ONLY, NR_USE_READ_WRITE, NR_USE_NO_BYTES, NR_USE_COUNT };
const char *nr_file_use_name(int use); /* "read_only", "write_only", "read_write", "no_bytes" */
typedef struct nr_model_file_use {
    uint64_t files, bytes_read, bytes_written;
    /* Darshan's file sizes: a file's size is the furthest end offset
       (offset + bytes) its reads and writes of known offset reached */
    uint64_t sized_files; /* the files of the class with a size */
    double mean_size;     /* their mean size, NAN when none */
    uint64_t max_size;    /* the largest, 0 when none */
} nr_model_file_use;

/* The job files' bytes read again, bounded from below (docs/definitions.md,
 * "Re-reads"): the epochs of a training loop that read the data set anew. */
typedef struct nr_model_rereads {
    uint64_t bytes_placed;    /* the job files' bytes read at known offsets (not guessed) */
    uint64_t extent_bytes;    /* the sum over those files of their read extents (saturating) */
    uint64_t at_least_bytes;  /* of bytes_placed, read before at least: the sum of placed - extent */
    uint64_t files;           /* the files with such bytes */
    double share;             /* at_least_bytes / bytes_placed; NAN when nothing placed */
    double passes_at_least;   /* bytes_placed over the most distinct bytes they can hold: each distinct
                                 byte was read this many times at least, on average; NAN as share */
} nr_model_rereads;

/* Access pattern of the job's regular files (the runtime's are counted in
 * nr_model_runtime). Darshan's request-size bins. */
#define NR_SIZE_BINS 10
extern const char *const nr_size_bin_names[NR_SIZE_BINS];  /* "0-100", "100-1K", ... "1G+" */
int nr_size_bin(int64_t bytes);
/* Darshan's "most common access sizes", exact: the request sizes of the
 * most size_hist samples (reads and writes together), each with its exact
 * calls (docs/definitions.md, "Most common access sizes"). */
#define NR_COMMON_SIZES 4
typedef struct nr_model_common_size {
    uint64_t bytes;           /* the request size */
    uint64_t reads, writes;   /* the job's calls of that size (size_hist's samples) */
} nr_model_common_size;
typedef struct nr_model_common_sizes {
    nr_model_common_size top[NR_COMMON_SIZES]; /* most calls first; equal calls: the smaller size first */
    size_t n;                  /* fewer than NR_COMMON_SIZES when the run has fewer sizes (or, not
                                  exact, fewer were kept: over NR__SIZE_SLOTS sizes, each rare) */
    uint64_t calls;            /* every sample: the sum of size_hist */
    uint64_t unlisted_at_most; /* a size never counted exactly has at most this many calls; 0: all were */
    int exact;                 /* 1: top is the run's n most common sizes (none unlisted can beat the last) */
} nr_model_common_sizes;
static inline uint64_t nr_common_size_calls(const nr_model_common_size *t) { return t->reads + t->writes; }
/* Whether top[k] provably holds its rank: more calls than any size left
 * unlisted can have (docs/definitions.md, "Most common access sizes"). */
static inline int nr_common_size_certain(const nr_model_common_sizes *c, size_t k)
{
    return k < c->n && nr_common_size_calls(&c->top[k]) > c->unlisted_at_most;
}

typedef struct nr_model_access {
    uint64_t size_hist[2][NR_SIZE_BINS];   /* [0] reads, [1] writes; successful calls, end-of-file reads left out */
    uint64_t eof_reads;        /* successful reads that returned 0 B (end of file): no size, in no bin */
    /* Classified per file per op against the previous access of that op to that file
     * (Darshan): consecutive = offset == previous end; sequential = offset > previous end
     * (a forward gap); random = offset < previous end. first = first access (not classified),
     * unknown = offset not known. Darshan's SEQ counter = consecutive + sequential. */
    uint64_t consecutive[2], sequential[2], random[2], first[2], unknown_offset[2];
    uint64_t opens;            /* successful open/openat/openat2/creat of regular files */
    double opens_per_s;        /* opens / run duration */
    uint64_t meta_calls, data_calls;
    double meta_to_data;       /* meta_calls / data_calls (NAN when no data calls) */
    uint64_t sized_reads;      /* the job's reads that returned data (successful, > 0 B) */
    uint64_t median_read_size; /* exact median bytes of those reads, 0 when none (no median) */
    nr_model_file_use by_use[NR_USE_COUNT]; /* the job's files by what they moved (enum nr_file_use) */
    nr_model_common_sizes common_sizes;
    nr_model_rereads rereads;
} nr_model_access;
const nr_model_access *nr_model_get_access(const nr_model *m);

/* Traffic that is not regular-file I/O, per file kind. */
typedef struct nr_model_nonfile {
    uint64_t calls[NR_FILE_KIND_COUNT];
    uint64_t bytes_read[NR_FILE_KIND_COUNT], bytes_written[NR_FILE_KIND_COUNT];
    uint64_t no_file_calls;   /* events with no file (file_id -1) */
    /* Of them, the reads and writes and their bytes: transfers on fds the
       trace never saw opened (no -y, attached late, open not traced), in
       no total of files or kinds (docs/definitions.md, "Bytes"). */
    uint64_t no_file_read_calls, no_file_write_calls;
    uint64_t no_file_bytes_read, no_file_bytes_written;
} nr_model_nonfile;
const nr_model_nonfile *nr_model_get_nonfile(const nr_model *m);

/* Capture fidelity. How a hook path's two counts agree: no hook bytes;
 * no regular file of the store matched it; equal within
 * NR_LAYERS_EQUAL_TOLERANCE (relative); more in strace; fewer. */
enum nr_layer_agreement { NR_LAYERS_NO_BYTES, NR_LAYERS_UNMATCHED, NR_LAYERS_EQUAL, NR_LAYERS_MORE, NR_LAYERS_FEWER };
typedef struct nr_model_pyio_match {
    const char *path;         /* as the hook wrote it */
    uint64_t hook_bytes, strace_bytes;
    double ratio;             /* strace / hook; NAN when hook_bytes == 0 */
    int matched;              /* 1 when a regular file of the store matched the path */
    int agreement;            /* enum nr_layer_agreement */
} nr_model_pyio_match;
/* The hook's files (bytes > 0) counted by agreement (matched: all but
 * NR_LAYERS_UNMATCHED). */
#define NR_LAYERS_EQUAL_TOLERANCE 0.01
typedef struct nr_model_layers {
    uint64_t files, matched, equal, more_in_strace, fewer_in_strace;
} nr_model_layers;
typedef struct nr_model_fidelity {
    uint64_t processes_io_no_phase;   /* pids whose regular-file calls are all unphased (only when phases exist) */
    uint64_t phases_without_io;       /* phase names with no regular-file call */
    uint64_t unfinished_calls;        /* events flagged never resumed */
    uint64_t failed_calls;            /* events flagged failed */
    uint64_t events_with_dur, events_with_ts, data_events, data_events_with_file;
    uint64_t events_ts_subsecond;     /* events whose stamp has a fraction of a second */
    int durations_available, timestamps_available, paths_available;
    int times_reliable;               /* timestamps that are wall times: not those of -ff -r (the
                                         diagnostics reason NR_DIAG_RELATIVE_TIMES), nor none */
    int whole_second_stamps;          /* every stamp a whole second (strace -t): wall times are known
                                         to within 1 s, so the shares of wall time are NAN */
    int64_t hook_first_ns, hook_last_ns;     /* -1 when the hook recorded nothing */
    int64_t strace_first_ns, strace_last_ns; /* -1 when no timestamps */
    double skew_start_s, skew_end_s;         /* hook minus strace; NAN when unknown */
    uint64_t mmap_regular;            /* mmap calls on regular files */
    uint64_t mmap_bytes;              /* their lengths summed: what reads through memory could reach */
    struct nr_model_mmap_job {        /* the same of the job files alone (runtime libraries left out) */
        uint64_t calls, bytes, files; /* files: distinct job files mapped */
    } mmap_job;
    int mmap_lengths_known;           /* the store records the mappings' lengths (ingest revision 23 on), or
                                         has no mapping: else mmap_bytes, mmap_job.bytes and the phases'
                                         job_bytes_mapped are unknown (their 0 means nothing) */
    uint64_t io_uring_calls;          /* io_uring_setup, _enter and _register calls: the I/O they
                                         submit is invisible to strace, as mmap's reads */
    size_t npyio;
    const nr_model_pyio_match *pyio;  /* per hook path, sorted by path */
    nr_model_layers layers;           /* pyio counted by agreement */
    uint64_t diagnostics_reasons;     /* distinct reasons in table diagnostics */
    uint64_t diagnostics_total;       /* summed counts */
    uint64_t notes_total;             /* of them, the notes' (nr_diag_reason_kind): no line skipped */
    const char *const *reason_names;  /* [diagnostics_reasons], in table order */
    const uint64_t *reason_counts;    /* [diagnostics_reasons] */
} nr_model_fidelity;
const nr_model_fidelity *nr_model_get_fidelity(const nr_model *m);
/* The count of diagnostics reason in the store (0 when absent). */
uint64_t nr_model_diag_count(const nr_model *m, const char *reason);
/* Why transfers on fds never seen opened have no file, in words the
 * report and the summary share: tasks seen without their clone (diagnostics
 * task_without_clone), or (several logs whose stamps could not order every
 * line) the open was ordered after them, or it was made before strace
 * attached, or (no open in the trace) it was not traced. */
const char *nr_model_unnamed_fd_advice(const nr_model *m);

/* Marks: the hook's instants (niorep_hook.mark: an epoch with its loss),
 * from table marks (docs/summary-schema.md#marks). The first
 * NR_MODEL_MAX_MARKS in time are kept, every one is counted. */
#define NR_MODEL_MAX_MARKS 256
#define NR_MODEL_MAX_MARK_NAMES 32
typedef struct nr_model_mark {
    int64_t ts_ns;            /* Unix ns, the clock of the events */
    int64_t pid;
    const char *name;
    const char *attrs;        /* compact JSON object with sorted keys, "" none */
    const char *phase;        /* the phase in force ("unphased" when none) */
} nr_model_mark;
typedef struct nr_model_marks {
    uint64_t total;                   /* rows of table marks */
    size_t n;
    const nr_model_mark *v;           /* [n]: the first min(total, NR_MODEL_MAX_MARKS) in time */
    size_t nnames;
    const char *const *names;         /* [nnames]: the first NR_MODEL_MAX_MARK_NAMES names, in order of appearance */
    const uint64_t *name_counts;      /* [nnames] */
    uint64_t other_names;             /* marks whose name is not among names */
} nr_model_marks;
const nr_model_marks *nr_model_get_marks(const nr_model *m);
/* Every wait of the run; its share is over the run's duration. */
const nr_model_waits *nr_model_get_waits(const nr_model *m);
/* Whether phase p is among the NR_MODEL_MAX_WAIT_QUANTILES phases with the
 * most time waiting (those with quantiles, which the text summary and the
 * report list); *rest_phases and *rest_seconds, when not NULL, get the
 * other phases with waits and their time waiting. */
int nr_model_waits_listed(const nr_model_phase *p);
void nr_model_waits_unlisted(const nr_model *m, size_t *rest_phases, double *rest_seconds);

/* Findings (rules: model/findings.c, docs/findings.md). */
typedef struct nr_model_finding {
    const char *id;           /* stable rule id */
    char sentence[512];       /* the conclusion with its numbers */
    const char *action;       /* suggested action */
    double value, threshold;  /* the number compared, and the rule threshold */
} nr_model_finding;
size_t nr_model_finding_count(const nr_model *m);
const nr_model_finding *nr_model_finding_at(const nr_model *m, size_t i);

/* Every rule's outcome, in the rules' order, fired or not: a finding's
 * absence told apart from a rule that could not look (docs/findings.md,
 * "Outcomes"). */
typedef enum nr_rule_state {
    NR_RULE_FIRED,
    NR_RULE_NOT_FIRED,       /* measured, on the quiet side of the threshold */
    NR_RULE_GATED,           /* measured, but its gate does not hold: the number means nothing here */
    NR_RULE_NOT_APPLICABLE,  /* the run lacks the rule's inputs */
} nr_rule_state;
#define NR_RULE_WHY_MAX 160
typedef struct nr_model_rule {
    const char *id;
    nr_rule_state state;
    double value, threshold;  /* value NAN when not applicable */
    const char *unit;         /* "share" (0..1) or "B" */
    const char *number;       /* what value is, in words */
    int fires_below;          /* 1: fires below the threshold; 0: above */
    char why[NR_RULE_WHY_MAX]; /* gated or not applicable: why; else empty */
} nr_model_rule;
const char *nr_rule_state_name(nr_rule_state s); /* "fired", "not fired", "gate not met", "not applicable" */
size_t nr_model_rule_count(const nr_model *m);
const nr_model_rule *nr_model_rule_at(const nr_model *m, size_t i);

/* Meta value of key in the store, or NULL. */
const char *nr_model_meta(const nr_model *m, const char *key);

#endif
