/* nr_schema: the tables every store holds, their columns, and the codes stored
 * in them. This is the contract between ingest/ (which writes) and model/
 * (which reads); docs/store-schema.md explains every column. Adding a column
 * is compatible (readers look columns up by name); changing a meaning bumps
 * NR_STORE_FORMAT_VERSION. */
#ifndef NR_SCHEMA_H
#define NR_SCHEMA_H

#include "nr_store.h"

/* ---- codes ------------------------------------------------------------ */

/* Operation classes of a syscall: X(code, name). */
#define NR_OP_CLASSES(X)   \
    X(NR_OP_READ, "read")  \
    X(NR_OP_WRITE, "write") \
    X(NR_OP_OPEN, "open")  /* open/close/dup and friends */ \
    X(NR_OP_META, "metadata") \
    X(NR_OP_SYNC, "sync")  \
    X(NR_OP_OTHER, "other")

typedef enum nr_op_class {
#define NR_X(code, name) code,
    NR_OP_CLASSES(NR_X)
#undef NR_X
    NR_OP_CLASS_COUNT
} nr_op_class;

/* What an fd or path refers to: X(code, name). Only NR_KIND_REGULAR is file I/O. */
#define NR_FILE_KINDS(X)          \
    X(NR_KIND_UNKNOWN, "unknown") \
    X(NR_KIND_REGULAR, "regular") \
    X(NR_KIND_DIRECTORY, "directory") \
    X(NR_KIND_PIPE, "pipe")       \
    X(NR_KIND_SOCKET, "socket")   \
    X(NR_KIND_DEVICE, "device")   \
    X(NR_KIND_PROCFS, "procfs")   /* /proc and /sys */ \
    X(NR_KIND_ANON, "anon_inode") \
    X(NR_KIND_TOOL, "tool_output") /* niorep's own capture output (hook.jsonl): not the job's I/O */

typedef enum nr_file_kind {
#define NR_X(code, name) code,
    NR_FILE_KINDS(NR_X)
#undef NR_X
    NR_FILE_KIND_COUNT
} nr_file_kind;

/* Bits of events.flags. */
enum nr_event_flag {
    NR_EVF_FAILED = 1 << 0,         /* returned -1 with an errno */
    NR_EVF_RESUMED = 1 << 1,        /* logged as <unfinished ...> + <... resumed> */
    NR_EVF_NEVER_RESUMED = 1 << 2,  /* unfinished and never resumed: no result */
    NR_EVF_RESTARTED = 1 << 3,      /* ERESTART* result; the call is restarted */
    NR_EVF_RESULT_UNKNOWN = 1 << 4, /* result printed as '?' */
    NR_EVF_OFFSET_GUESSED = 1 << 5, /* offset came from an fd whose start offset was not seen */
};

const char *nr_op_class_name(int op);     /* "read", ...; "?" when out of range */
const char *nr_file_kind_name(int kind);  /* "regular", ...; "?" when out of range */
int nr_file_kind_from_name(const char *name); /* -1 when unknown */

/* ---- tables ----------------------------------------------------------- */

/* events: one row per syscall, in log order per input file and merged by time. */
enum nr_events_col {
    NR_EV_TS_NS,      /* start time, ns (see meta time_base); -1 when the log has none */
    NR_EV_DUR_NS,     /* -T duration, ns; -1 when absent */
    NR_EV_PID,        /* process (thread group) id */
    NR_EV_TID,        /* thread id as logged */
    NR_EV_SYSCALL,    /* syscall name */
    NR_EV_OP_CLASS,   /* nr_op_class */
    NR_EV_FD,         /* first fd argument, or the fd returned by an open; -1 none */
    NR_EV_FILE_ID,    /* files.file_id the fd or path refers to; -1 none */
    NR_EV_FILE2_ID,   /* source file of sendfile/copy_file_range; -1 none */
    NR_EV_BYTES,      /* bytes transferred (non-negative result of a data call); an mmap's length; else 0 */
    NR_EV_OFFSET,     /* file offset the transfer started at; -1 unknown */
    NR_EV_RESULT,     /* return value; -1 on failure */
    NR_EV_ERRNO,      /* errno name ("ENOENT"), "" when none */
    NR_EV_FLAGS,      /* enum nr_event_flag bits */
    NR_EV_PHASE_ID,   /* phases.phase_id in force; -1 = unphased */
    NR_EV_COL_COUNT
};

/* files: one row per distinct file (path), with totals by the definitions of docs/definitions.md. */
enum nr_files_col {
    NR_FI_FILE_ID, NR_FI_PATH, NR_FI_KIND,
    NR_FI_BYTES_READ, NR_FI_BYTES_WRITTEN,
    NR_FI_READ_CALLS, NR_FI_WRITE_CALLS, NR_FI_OPEN_CALLS,
    NR_FI_CLOSE_CALLS, NR_FI_META_CALLS, NR_FI_SYNC_CALLS,
    NR_FI_FIRST_TS_NS, NR_FI_LAST_TS_NS,
    NR_FI_COL_COUNT
};

/* processes: one row per task (thread or process) seen. */
enum nr_processes_col {
    NR_PR_TID,        /* task id */
    NR_PR_PID,        /* thread group id */
    NR_PR_PPID,       /* parent process (thread group) id; -1 unknown */
    NR_PR_IS_THREAD,  /* 1 when created with CLONE_THREAD */
    NR_PR_FIRST_TS_NS, NR_PR_LAST_TS_NS,
    NR_PR_EXE,        /* last execve path, "" when none seen */
    NR_PR_EXIT_CODE,  /* -1 when not seen */
    NR_PR_KILLED_BY,  /* signal name, "" when none */
    NR_PR_EVENTS,     /* syscalls logged */
    NR_PR_SIGNALS,    /* signals delivered */
    NR_PR_END_TS_NS,  /* stamp of its "+++ exited/killed" line; -1 not seen (since ingest revision 26) */
    NR_PR_COL_COUNT
};

/* diagnostics: one row per example of each reason (at most a few per reason). */
enum nr_diagnostics_col {
    NR_DG_REASON,     /* stable reason key, e.g. "unknown_line" */
    NR_DG_COUNT,      /* total occurrences of the reason (repeated on each example row) */
    NR_DG_FILE,       /* input file of the example, relative to the run dir */
    NR_DG_LINE,       /* 1-based line number of the example; 0 when none */
    NR_DG_EXAMPLE,    /* the line (cut to 200 bytes) or a message */
    NR_DG_COL_COUNT
};
/* What a diagnostics reason counts (docs/definitions.md, "Lines"): lines
 * of the strace logs skipped (meta lines_skipped counts each under exactly
 * one such reason), lines of hook.jsonl skipped, or notes: on lines that
 * were kept (a cut call line, a call never resumed) or on the whole run.
 * One list for the ingest that writes them and every reader that shows
 * them: the report put notes under "lines skipped" (review 46). */
typedef enum nr_diag_kind { NR_DIAG_SKIPPED_LINE, NR_DIAG_SKIPPED_HOOK_LINE, NR_DIAG_NOTE } nr_diag_kind;
nr_diag_kind nr_diag_reason_kind(const char *reason);

/* The diagnostics reason of a run whose events' times are not wall times
 * (-ff -r: docs/definitions.md, "Time"): the ingest writes it, the model
 * reads it (fidelity.times_reliable). */
#define NR_DIAG_RELATIVE_TIMES "relative_times_not_wall"


/* meta: key/value facts (manifest, ingest options, counters, input hashes). */
enum nr_meta_col { NR_MT_KEY, NR_MT_VALUE, NR_MT_COL_COUNT };
/* A meta value read as a whole decimal integer; def when value is NULL,
 * empty or not one (the store merge and the model read their integers so). */
int64_t nr_meta_value_i64(const char *value, int64_t def);

/* phases: one row per phase instance from the hook (capture layer). */
enum nr_phases_col {
    NR_PH_PHASE_ID, NR_PH_PID, NR_PH_TID, NR_PH_NAME,
    NR_PH_BEGIN_NS, NR_PH_END_NS, NR_PH_DEPTH, NR_PH_PARENT_ID,
    NR_PH_FLAGS,      /* 1 = never ended (closed at the end of the trace) */
    NR_PH_COL_COUNT
};

/* pyio: Python-level I/O records from the hook. */
enum nr_pyio_col {
    NR_PY_TS_NS, NR_PY_PID, NR_PY_TID, NR_PY_OP, NR_PY_PATH,
    NR_PY_BYTES, NR_PY_DUR_NS, NR_PY_PHASE_ID,
    NR_PY_COL_COUNT
};

/* marks: instant events from the hook (niorep_hook.mark: epochs, steps). */
enum nr_marks_col {
    NR_MK_TS_NS, NR_MK_PID, NR_MK_TID,
    NR_MK_NAME,       /* the mark's name ("epoch") */
    NR_MK_ATTRS,      /* its attrs as compact JSON with sorted keys ("{\"loss\":0.5,\"n\":1}"), "" none */
    NR_MK_PHASE_ID,   /* phase in force, as for pyio; -1 unphased */
    NR_MK_COL_COUNT
};

/* waits: how long a thread waited for its next item (niorep_hook.batches:
 * the training loop's wait for a batch). */
enum nr_waits_col {
    NR_WT_TS_NS,      /* when the wait began */
    NR_WT_PID, NR_WT_TID,
    NR_WT_WHAT,       /* what was waited for ("batch") */
    NR_WT_DUR_NS,
    NR_WT_PHASE_ID,   /* phase in force at ts_ns, as for pyio; -1 unphased */
    NR_WT_FIRST,      /* 1: the first item of a pass (the wait includes the loader's start), else 0 */
    NR_WT_COL_COUNT
};

extern const nr_table_def nr_events_table;
extern const nr_table_def nr_files_table;
extern const nr_table_def nr_processes_table;
extern const nr_table_def nr_diagnostics_table;
extern const nr_table_def nr_meta_table;
extern const nr_table_def nr_phases_table;
extern const nr_table_def nr_pyio_table;
extern const nr_table_def nr_marks_table;
extern const nr_table_def nr_waits_table;

#endif
