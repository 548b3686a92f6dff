/* Internal to model/: the definition of struct nr_model and the per-statistic
 * hooks the event passes call. Not installed; render/ uses nr_model.h only. */
#ifndef NR_MODEL_INTERNAL_H
#define NR_MODEL_INTERNAL_H

#include <math.h>

#include "nr_mem.h"
#include "nr_model.h"

/* An int64 -> uint32 open-addressing map (ids of files, pids, phases). */
typedef struct nr__idmap {
    int64_t *keys;
    uint32_t *vals;
    size_t cap, len;   /* cap is 0 or a power of two */
    uint32_t *dense;   /* when keys are small non-negative ints: dense[key] = val or NR__IDMAP_NONE */
    size_t ndense, dense_cap;
} nr__idmap;
#define NR__IDMAP_NONE UINT32_MAX
void nr__idmap_init(nr__idmap *m);
void nr__idmap_fini(nr__idmap *m);
/* Index of key, or -1. */
int64_t nr__idmap_get(const nr__idmap *m, int64_t key);
/* Keys put in the order 0, 1, 2, ... (the phases' ids, as ingest and merge
 * write them) go straight into the direct-indexed array, 4 bytes a key
 * (a phase a step: millions of them); any other key moves them into the
 * hash. val must not be NR__IDMAP_NONE. */
int nr__idmap_put(nr__idmap *m, int64_t key, uint32_t val);
/* Replaces every value v by to[v] (v < nto). */
void nr__idmap_remap(nr__idmap *m, const uint32_t *to, size_t nto);
/* Adds a direct-indexed copy when every key is in [0, 4 len + 1024) (ids are
 * usually dense): lookups per event then cost one load. Later puts drop it. */
int nr__idmap_densify(nr__idmap *m);

/* What an event needs to know about its file, packed in 8 bytes. */
typedef struct nr__fileinfo {
    int32_t reg;      /* index among regular files, -1 when not regular */
    uint16_t fs;      /* file-system index, 0 = unknown */
    uint8_t kind;     /* nr_file_kind */
    uint8_t runtime;  /* 1: a regular file of the runtime (file_role.h); kept when
                         nr__files_keep_top renumbers the regular files */
} nr__fileinfo;

/* One decoded event, as the statistics see it. */
typedef struct nr__event {
    int64_t ts, dur, pid, fd, bytes, offset, result, flags;
    int op;           /* nr_op_class (clamped to NR_OP_OTHER) */
    int kind;         /* nr_file_kind of file_id, NR_KIND_UNKNOWN when none */
    int64_t file_row; /* row of table files, -1 when none */
    int64_t reg;      /* index among regular files, -1 when not regular */
    size_t phase;     /* index of nr_model phase (the unphased entry for -1) */
    size_t proc;      /* index of nr_model process */
    int role;
    int fs;           /* file-system index of the file, 0 = unknown */
    int lat_op;       /* enum nr_lat_op, -1 for other */
    const char *syscall;  /* pass 1 only; NULL otherwise */
} nr__event;

/* The request sizes counted for the most common ones (common_sizes.c).
 * Pass 1 keeps a Misra-Gries summary in the slots: every size of more than
 * calls / (NR__SIZE_SLOTS + 1) of the samples is among them at the end;
 * pass 2 counts the reads and writes of each size kept, exactly. */
#define NR__SIZE_SLOTS 1024
typedef struct nr__size_counts {
    int64_t size[NR__SIZE_SLOTS];
    uint64_t count[NR__SIZE_SLOTS][2];  /* pass 1: the summary's counter in [0]; pass 2: reads, writes */
    uint16_t index[2 * NR__SIZE_SLOTS]; /* open addressing by size: slot + 1, 0 empty */
    size_t n;                           /* slots in use */
    size_t last;                        /* the slot of the last size seen (sizes come in runs) */
    uint64_t decrements;                /* pass 1: rounds that lowered every counter by one */
    uint64_t offered;                   /* pass 1: the sizes offered (size_hist's samples) */
} nr__size_counts;

/* The search for one wanted rank of one group (latency.c): the value range
 * known to hold it narrows pass by pass until a pass can collect the range. */
typedef struct nr__qtarget {
    int64_t lo, hi;     /* the range holding the wanted value (inclusive) */
    uint64_t rank;      /* 1-based rank within the group; 0 = no target */
    uint64_t below;     /* values of the group < lo (exact) */
    uint64_t inrange;   /* values of the group in [lo, hi] (exact) */
    int mode;           /* NR__Q_DONE, NR__Q_COLLECT, NR__Q_REFINE */
    uint64_t width;     /* refine: values per sub-bin */
    uint32_t *sub;      /* refine: sub-bin counts */
    int64_t *vals;      /* collect: the values in range */
    size_t n;
    int64_t value;      /* the answer once done */
} nr__qtarget;
enum { NR__Q_DONE, NR__Q_COLLECT, NR__Q_REFINE };

/* Whose a phase latency group is (nr_model.lat_phase). */
#define NR__PHASE_FOLDED UINT32_MAX   /* the key's phase of the folded phases' group (nr_model.lat_folded) */
typedef struct nr__lat_phase_key {
    uint32_t phase;     /* index of nr_model phase, or NR__PHASE_FOLDED */
    uint8_t lat_op;
    uint8_t job;        /* 1: the job's files of the phase */
} nr__lat_phase_key;

typedef struct nr__burst_state nr__burst_state;
typedef struct nr__fine nr__fine;   /* latency.c */

struct nr_model {
    nr_arena arena;
    nr_model_opts opts;

    char **meta_keys, **meta_vals;   /* in the arena */
    size_t nmeta;

    /* files */
    size_t nfile_rows;
    nr__idmap file_ids;          /* file_id -> row */
    nr__fileinfo *file_info;     /* per row: kind, regular index, file system (one load per event) */
    const char **file_path;      /* per row, in path_arena */
    nr_arena path_arena;         /* the files' paths: freed whole when keep_files drops rows */
    size_t nreg;
    const char **reg_paths;
    uint8_t *reg_runtime;        /* per regular file: 1 when file_role.h says runtime */
    double *reg_read, *reg_written, *reg_total, *reg_access;
    int64_t *reg_last_end[2];    /* previous end offset per regular file per op; -1 none */
    int64_t *reg_extent[2];      /* per regular file per op: the furthest end offset it reached; -1 none known
                                    (the larger of the two: the file's size as Darshan takes it) */
    int64_t *reg_read_placed;    /* per regular file: the bytes of its reads at a known offset, not a
                                    guessed one; all lie below reg_extent[0] (the re-read bound) */
    uint8_t *reg_mapped;         /* per regular file: an mmap of it was seen (fidelity.mmap_job.files) */
    nr_model_files files;
    nr_model_runtime runtime;

    /* file systems: [0] = "unknown", then mount points */
    char **fs_names;
    size_t nfs;
    nr_model_fs_bytes *fs_bytes; /* nfs of them (nr__access_finish) */

    /* phases: merged by name; the last one is "unphased" */
    nr__idmap phase_ids;         /* phase_id -> index of phases */
    nr_model_phase *phases;
    size_t nphases;              /* including unphased */
    size_t unphased;             /* index of the unphased entry */
    nr_model_interval *phase_union; /* every phase's instances merged, in time order */
    size_t n_phase_union;
    uint64_t phase_rows;
    size_t phase_kept[NR_PHASE_PICK_KEPT]; /* the phases figure 1 keeps (nr_model_phase_kept) */
    size_t n_phase_kept;         /* 0: none folds (at most NR_PHASE_PICK_MAX phases) */
    uint8_t *phase_folded;       /* [nphases] when some fold: 1 for a folded phase (the passes' state) */
    uint8_t *phase_listed;       /* [nphases] when more than NR_MODEL_PHASES_LISTED: 1 for a listed phase */
    nr_model_phase phase_rest;   /* the unlisted phases' sums (nr_model_phases_unlisted) */
    nr__idmap phase_procs;       /* set of (phase << 32 | process) pairs with I/O */
    size_t *proc_last_phase;     /* per process: the last phase counted in phase_procs (cache) */
    size_t proc_last_phase_cap;

    /* processes */
    nr__idmap pids;              /* pid -> its first process (a reused pid names several) */
    nr_model_process *procs;
    size_t nprocs, procs_cap;
    int64_t *proc_next;          /* per process: the next process of its pid, in time order; -1 none */
    size_t proc_next_cap;
    int64_t main_pid;
    nr_model_process_ends ends;  /* nr__process_ends */
    nr_model_signal_count *signals;   /* ends.signals */
    size_t signals_cap;
    int64_t *phase_pids;         /* the pids that began phases, in order of their first begin */
    size_t nphase_pids;
    int64_t pid_cache_key[64];   /* direct-mapped pid -> process cache (workers interleave) */
    uint32_t pid_cache_val[64];

    nr_model_totals totals;
    nr_model_nonfile nonfile;
    nr_model_access access;
    nr__size_counts *size_counts; /* the passes' (common_sizes.c) */
    nr_model_fidelity fidelity;

    nr_concentration conc[NR_CONC_COUNT];
    double *lorenz_x[NR_CONC_COUNT], *lorenz_y[NR_CONC_COUNT];
    size_t nlorenz[NR_CONC_COUNT];
    nr_powerlaw_fit pl[NR_PL_COUNT];
    double *ccdf_x[NR_PL_COUNT], *ccdf_p[NR_PL_COUNT];
    size_t nccdf[NR_PL_COUNT];

    /* latency groups (latency.c), numbered: [lat_op][slot] (slot = 0 all, roles, file systems, the
       job's files), then read_size, then the phase groups. A phase has a group of an op (and one of
       the op on the job's files of the phase) once pass 1 gives it a value: until session 51 every
       phase name had all ten, 30 KB without a call (100,000 nested names: 3.1 GB; review 50) */
    size_t lat_slots;
    nr_model_latency *lat;
    uint64_t *lat_bins;          /* the fixed groups' log histograms, NR_LOGHIST_BINS each, lat[i] the i-th */
    nr_model_latency read_size;  /* quantiles of read request sizes (bytes, not ns; no histogram) */
    nr__lat_phase_key *lat_phase_key;  /* [lat_phase_n]: whose each phase group is */
    nr_model_latency *lat_phase; /* [lat_phase_n]: the phase groups, in the order of their first value */
    size_t lat_phase_n, lat_phase_cap;
    uint32_t *lat_phase_of;      /* [(phase x 2 + job) x NR_LAT_OP_COUNT + lat_op]: 1 + its index in lat_phase, 0 none */
    uint32_t lat_folded;         /* 1 + the index in lat_phase of the job files' reads of the folded phases
                                    (key phase NR__PHASE_FOLDED; made at the plan), 0 none */
    uint32_t *qt_of;             /* [group]: 1 + the index of its targets in qt, 0 when it has none (no value,
                                    a mirror, the reference path, or answered by the sort of its values) */
    size_t nqt;                  /* groups with targets */
    int64_t *qrange;             /* [2 * nqt]: union of the ranges still searched */
    nr__fine **fine;             /* [group]: fine histogram of pass 1 by page, freed once planned */
    size_t fine_pages, fine_pages_peak;  /* its pages (4 KiB) now and at most (tests) */
    uint8_t *fine_overflow;      /* [group]: a fine bin overflowed */
    int64_t fine_mirror[NR_LAT_OP_COUNT * 4];  /* per op x slice dimension (phase, role, fs, job files): the slice
                                                  holding every value so far, -1 none, -2 none any more */
    nr__qtarget *qt;             /* [nqt * NR_MODEL_NQ]: the searched groups', in group order; until session 53
                                    every group had them (528 B, 210 MB at 100,000 phase names) */
    nr_cache_split split;
    uint64_t slow_read_bytes, read_bytes_timed;

    nr_model_timeline timeline;
    uint64_t *tl_read, *tl_write, *tl_job_read, *tl_job_write;
    double *tl_waiting;          /* timeline.waiting's storage (waits.c) */
    double *tl_start_waiting;    /* timeline.start_waiting's */
    int tl_state;                /* NR__TL_*: which pass fills the timeline */

    nr_model_burst *bursts;    /* the listed: a min-heap by size while they are made, then in start order */
    size_t nbursts;
    nr_model_burst_totals burst_totals;
    double *burst_phase_time_s;   /* [nphases]: the durations of every burst of the phase, summed */
    uint64_t *burst_phase_count;  /* [nphases]: its bursts */
    nr__burst_state *burst_state; /* the pieces of passes 1 and 2 (bursts.c); freed when the bursts are made */

    nr_model_finding *findings;
    size_t nfindings;
    nr_model_rule *rules;      /* every rule's outcome (findings.c) */
    size_t nrules;

    nr_model_pyio_match *pyio;
    char **reason_names;         /* strings in the arena */
    uint64_t *reason_counts;

    nr_model_marks marks;        /* its arrays below; strings in the arena */
    nr_model_waits waits;        /* the run's (waits.c) */
    nr_model_mark mark_v[NR_MODEL_MAX_MARKS];
    const char *mark_names[NR_MODEL_MAX_MARK_NAMES];
    uint64_t mark_name_counts[NR_MODEL_MAX_MARK_NAMES];
};

/* a + b, held at INT64_MAX or INT64_MIN instead of overflowing: sums of a
 * crafted store's values (2^62 ns) wrapped to negative I/O times (review 50) */
static inline int64_t nr__sat_add(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? (b > 0 ? INT64_MAX : INT64_MIN) : r;
}

/* Whether an event's syscall is mmap or mmap2, whose bytes are the length
 * mapped (docs/definitions.md, "Mappings"): strncmp(s, "mmap", 4) == 0
 * without a library call per event; NULL is no. */
static inline int nr__is_mapping(const char *s)
{
    return s && s[0] == 'm' && s[1] == 'm' && s[2] == 'a' && s[3] == 'p';
}

/* a + b, held at UINT64_MAX: sums over files of per-file sums that a crafted
 * store can hold at INT64_MAX */
static inline uint64_t nr__sat_addu(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* nr__idmap_get with the dense case inline (per-event lookups). */
static inline int64_t nr__idmap_lookup(const nr__idmap *m, int64_t key)
{
    if (m->dense)
        return key >= 0 && (uint64_t)key < m->ndense && m->dense[key] != NR__IDMAP_NONE ? (int64_t)m->dense[key] : -1;
    return nr__idmap_get(m, key);
}

/* Forgets the pid cache (process indexes changed). */
static inline void nr__pid_cache_reset(nr_model *m)
{
    for (size_t i = 0; i < 64; i++)
        m->pid_cache_key[i] = INT64_MIN;
}

/* Slots of a latency group (a phase's groups are apart: nr__lat_phase). */
/* Whether an event of op class op on file kind (file_row -1: none) is a
 * latency sample's file (docs/definitions.md, "Latency"): a regular file;
 * for the sync class also a directory (the fsync that makes a
 * checkpoint's rename durable) and no file (sync, msync), which flush
 * storage too. A read or write of a pipe or socket waits on its other end,
 * not on storage. */
static inline int nr__latency_file(int op, int kind, int64_t file_row)
{
    return kind == NR_KIND_REGULAR || (op == NR_OP_SYNC && (file_row < 0 || kind == NR_KIND_DIRECTORY));
}
static inline size_t nr__lat_slot_role(const nr_model *m, int role) { (void)m; return 1 + (size_t)role; }
static inline size_t nr__lat_slot_fs(const nr_model *m, int fs) { (void)m; return 1 + NR_ROLE_COUNT + (size_t)fs; }
/* The job's files (the runtime's left out). */
static inline size_t nr__lat_slot_job(const nr_model *m) { return 1 + NR_ROLE_COUNT + m->nfs; }
static inline nr_model_latency *nr__lat(const nr_model *m, int lat_op, size_t slot)
{
    return &m->lat[(size_t)lat_op * m->lat_slots + slot];
}
/* The group of op lat_op in phase (job 1: of the job's files in the phase);
 * one shared empty group (count 0) when the phase has no value of the op. */
const nr_model_latency *nr__lat_phase(const nr_model *m, int lat_op, size_t phase, int job);
/* The latency operation (NR_LAT_*) of an op class, or -1 for classes
 * without latency (pass.c; also used by compare_sample.c). */
int nr__lat_op_of(int64_t op_class);

/* A phase's shares of its wall time (io_share, main_io_share) need at least
 * this much of it, else they are unknown (NAN): phases.c, docs/definitions.md
 * "Shares of wall time". */
#define NR__SHARE_MIN_WALL_NS 1000000

/* Loading the small tables (model.c). */
/* Refuses a store lacking a table or column that every store of a run has
 * (tables.c: which), or holding one of another type. */
int nr__check_schema(const nr_store *s, nr_error *err);
int nr__load_meta(nr_model *m, const nr_store *s, nr_error *err);
int nr__load_files(nr_model *m, const nr_store *s, nr_error *err);
int nr__load_phases(nr_model *m, const nr_store *s, nr_error *err);
/* Decoded chunks of one table's columns, by schema index, freed together. */
#define NR__MAXCOLS 16
typedef struct nr__chunks { nr_col_chunk c[NR__MAXCOLS]; } nr__chunks;
void nr__chunks_init(nr__chunks *k);
void nr__chunks_fini(nr__chunks *k);
/* Decodes the columns of def listed in cols (schema indexes) of row group
 * rg into k; a column the store lacks (added since: nr__check_schema)
 * leaves its chunk empty. Errors: a wrong type, a short row group. */
int nr__read_cols(const nr_store_table *t, const nr_table_def *def, const int *cols, size_t ncols, size_t rg,
                  nr__chunks *k, nr_error *err);
/* NR_E_FORMAT naming table, row (from 1) and phase_id when phase_id is
 * neither -1 (unphased) nor a phase_id of table phases, as merge
 * refuses it (pyio and marks; events: pass.c); else 0. Needs the phase
 * id map (nr__load_phases). */
int nr__check_phase_ref(const nr_model *m, const char *table, uint64_t row, int64_t phase_id, nr_error *err);
/* Refuses time v (ns) of column col of table's row (0-based) unless it is
 * within 2^62 of 0, as the ingest writes every time (an event's beyond is
 * refused too: pass.c): a crafted store's time near 2^63 overflowed the
 * differences the model takes (phases, processes, marks, pyio; the model
 * fuzz target, session 57). Returns 0 or NR_E_FORMAT. */
int nr__check_time(const char *table, const char *col, uint64_t row, int64_t v, nr_error *err);
int nr__load_processes(nr_model *m, const nr_store *s, nr_error *err);
/* A row of table processes (a task). */
typedef struct nr__task_row {
    int64_t tid, pid, ppid, first_ns, last_ns, exit_code, end_ns;
    const char *killed_by, *exe;   /* in the model's arena, or "" */
} nr__task_row;
/* The processes of the rows, in the table's order (proctree.c). */
int nr__procs_from_tasks(nr_model *m, const nr__task_row *rows, size_t n);
/* The process of pid at ts_ns, added when the processes table had no row
 * of pid: of the processes a reused pid named, the last to begin at or
 * before ts_ns, else the first. */
int nr__proc_index(nr_model *m, int64_t pid, int64_t ts_ns, size_t *out);
/* Whether pid names more than one process (a reused pid): which one an
 * event is depends on its time, so no cache by pid holds it. */
static inline int nr__pid_reused(const nr_model *m, int64_t pid)
{
    const int64_t first = nr__idmap_get(&m->pids, pid);
    return first >= 0 && m->proc_next[first] >= 0;
}
/* Counts how the processes ended (m->ends), once they are sorted. */
int nr__process_ends(nr_model *m);
/* Orders nr_model_signal_count by signal name (m->ends.signals' order). */
int nr__cmp_signal_name(const void *a, const void *b);
/* Sorts the processes by (pid, first start) and indexes them again. */
int nr__sort_processes(nr_model *m);
int nr__assign_roles(nr_model *m);
/* Puts "NAME: " (the store's path) before err's message unless it starts so
 * already: a model-side error about a store names its file (review 50).
 * Returns rc. */
int nr__name_store_error(const nr_store *s, int rc, nr_error *err);

/* Streaming passes over table events (pass.c). */
int nr__pass_events(nr_model *m, const nr_store *s, int pass, nr_error *err);

/* Per statistic: pass 1 (phases.c, access.c, fidelity.c, latency.c; timeline.c on a predicted plan), pass 2 (timeline.c otherwise, latency.c). */
void nr__phases_add(nr_model *m, const nr__event *e);
int nr__phases_finish(nr_model *m);
/* After nr__phases_finish: the phases figure 1 keeps, and the others
 * flagged (phase_folded), when more than NR_PHASE_PICK_MAX. */
int nr__phases_fold(nr_model *m);
/* The phases the report and the text summary list (nr_model_phase_listed)
 * and the others' sums: after nr__phases_finish. */
int nr__phases_list(nr_model *m);
/* 1 when the run has stamps and every one is a whole second (strace -t,
 * whose stamps resolve to seconds): from pass 1's counts (fidelity). */
int nr__whole_second_stamps(const nr_model *m);
void nr__access_add(nr_model *m, const nr__event *e);
void nr__access_finish(nr_model *m);
/* Pass 2: e's request size counted exactly when pass 1 kept it (common_sizes.c). */
void nr__access_count_size(nr_model *m, const nr__event *e);
/* common_sizes.c: pass 1 offers every request size, pass 2 counts the
 * kept ones (w: a write); between, nr__sizes_plan; after, nr__sizes_finish. */
void nr__sizes_offer(nr__size_counts *c, int64_t size);
void nr__sizes_plan(nr__size_counts *c);
void nr__sizes_count(nr__size_counts *c, int64_t size, int w);
void nr__sizes_finish(const nr__size_counts *c, nr_model_common_sizes *out);
void nr__fidelity_add(nr_model *m, const nr__event *e);
int nr__fidelity_finish(nr_model *m, const nr_store *s, nr_error *err);
/* Reads table marks (marks.c); needs the phase id map. */
int nr__marks_load(nr_model *m, const nr_store *s, nr_error *err);
/* Reads table waits into the phases' and the run's waits (waits.c); needs
 * the phases' wall times (nr__phases_finish). */
int nr__waits_load(nr_model *m, const nr_store *s, nr_error *err);
/* The waits of a phase or run without any (share and quantiles unknown). */
extern const nr_model_waits nr__no_waits;
int nr__latency_add(nr_model *m, const nr__event *e);
int nr__latency_plan(nr_model *m, nr_error *err);
void nr__latency_slow_bytes(nr_model *m, const nr__event *e);
int nr__latency_collect(nr_model *m, const nr__event *e);
/* After a collecting pass: narrows or resolves each target; returns 1 when another pass is needed. */
int nr__latency_step(nr_model *m, nr_error *err);
int nr__latency_finish(nr_model *m, const nr_store *s, nr_error *err);
/* Frees the fine histograms left and their array (model free). */
void nr__latency_free_fine(nr_model *m);
/* The groups of pass 1 (every fixed group; a phase's as its values come), before pass 1. */
int nr__latency_alloc(nr_model *m);
/* Frees the quantile searches (the passes' state). */
void nr__latency_free_targets(nr_model *m);
/* Frees every group (model free). */
void nr__latency_free(nr_model *m);
enum { NR__TL_NONE, NR__TL_PREDICTED, NR__TL_FILLED, NR__TL_PASS2 };
/* Before pass 1: a plan predicted from the processes table, filled by pass 1. */
int nr__timeline_predict(nr_model *m);
/* After pass 1: keeps pass 1's bins when the prediction held, else plans pass 2's. */
int nr__timeline_plan(nr_model *m);
void nr__timeline_add(nr_model *m, const nr__event *e);
/* Passes 1 and 2: a regular-file write call joins the pieces of its phase. */
int nr__bursts_add(nr_model *m, const nr__event *e);
/* After pass 1 (which found the largest piece): makes pass 2 make the bursts. */
int nr__bursts_plan(nr_model *m);
/* Whether pass 2 feeds nr__bursts_add (some piece may count). */
int nr__bursts_want_pass2(const nr_model *m);
/* After pass 2: the last bursts, in time order; frees the pieces. */
int nr__bursts_finish(nr_model *m);
void nr__bursts_free_state(nr_model *m);
int nr__concentration_compute(nr_model *m, nr_error *err);
int nr__findings_compute(nr_model *m);
/* Last: sums the files' bytes, then keeps the rows opts.keep_files asks for. */
int nr__files_keep_top(nr_model *m);

/* A value source over the store's events, filtered (latency.c). */
typedef struct nr__filter {
    int lat_op;         /* required */
    int value_bytes;    /* 1: the bytes column instead of dur_ns */
    long phase;         /* -1 any */
    int role;           /* -1 any */
    int fs;             /* -1 any */
    int job;            /* 1: the job's files only (the runtime's left out) */
    int folded;         /* 1: the folded phases only (phase_folded) */
} nr__filter;
int nr__quantiles_filtered(nr_model *m, const nr_store *s, const nr__filter *f,
                           int64_t out[NR_MODEL_NQ], uint64_t *count, nr_error *err);

/* Tests: models computed from now on keep the state of their passes (id
 * maps, file rows), which nr__quantiles_filtered reads; normally it is
 * freed when the model is done. */
void nr__model_keep_pass_state(int on);

/* The integer of meta key (all of its text), else def (tables.c). */
int64_t nr__model_meta_i64(const nr_model *m, const char *key, int64_t def);

#endif
