#include "nr_schema.h"

#include <stdlib.h>
#include <string.h>

int64_t nr_meta_value_i64(const char *value, int64_t def)
{
    char *end;
    if (!value || !*value)
        return def;
    const long long x = strtoll(value, &end, 10);
    return *end ? def : (int64_t)x;
}

nr_diag_kind nr_diag_reason_kind(const char *reason)
{
    /* the strace lines the ingest skips: the lexer's reasons (BAD lines),
       the kinds of line that are no call (nr_skip_reason), and those the
       ingest and its process model refuse */
    static const char *const skipped[] = {
        "unknown_line",  "truncated",           "bad_result",          "bad_resumed",        "notice",
        "summary_table", "continuation",        "truncated_last_line", "foreign_timestamp",  "call_without_result",
        "unmatched_resumed", "call_while_pending",
    };
    /* hook.jsonl lines left out whole (ingest/hook.c); its other reasons
       keep the line (bad_io_field, phase_end_out_of_order, empty_name) or
       are the run's */
    static const char *const hook_skipped[] = {
        "hook_bad_json",      "hook_not_object",         "hook_missing_field",      "hook_bad_pid",
        "hook_bad_timestamp", "hook_unknown_event",      "hook_unsupported_version", "hook_unmatched_phase_end",
    };
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
        if (strcmp(reason, skipped[i]) == 0)
            return NR_DIAG_SKIPPED_LINE;
    for (size_t i = 0; i < sizeof hook_skipped / sizeof hook_skipped[0]; i++)
        if (strcmp(reason, hook_skipped[i]) == 0)
            return NR_DIAG_SKIPPED_HOOK_LINE;
    return NR_DIAG_NOTE;
}

#define I64(n) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_VARINT}
#define DELTA(n) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_DELTA_VARINT}
/* stored as differences from an earlier column it usually equals */
#define I64_BASE(n, b) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_VARINT, .base = b}
/* stored as differences from the previous row with the same key (format version 3) */
#define I64_KEY(n, k) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_VARINT, .key = k}
/* stored against the previous row with the same key, advanced by its step (format version 3) */
#define I64_KEY_STEP(n, k, st) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_VARINT, .key = k, .step = st}
#define STR(n) {.name = n, .type = NR_COL_STR, .encoding = NR_ENC_DICT}
/* an I64 column added by ingest revision rev: an older store reads as missing */
#define I64_SINCE(n, rev, miss) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_VARINT, .since = rev, .missing = miss}
#define TABLE(var, tname, coldefs) \
    const nr_table_def var = {.name = tname, .cols = coldefs, .ncols = sizeof coldefs / sizeof coldefs[0]}

static const nr_col_def events_cols[NR_EV_COL_COUNT] = {
    [NR_EV_TS_NS] = DELTA("ts_ns"),     [NR_EV_DUR_NS] = I64("dur_ns"),
    [NR_EV_PID] = DELTA("pid"),         [NR_EV_TID] = I64_BASE("tid", "pid"),
    [NR_EV_SYSCALL] = STR("syscall"),   [NR_EV_OP_CLASS] = I64("op_class"),
    [NR_EV_FD] = I64("fd"),             [NR_EV_FILE_ID] = I64_KEY("file_id", "pid"),
    [NR_EV_FILE2_ID] = I64("file2_id"), [NR_EV_BYTES] = I64("bytes"),
    [NR_EV_OFFSET] = I64_KEY_STEP("offset", "file_id", "bytes"),     [NR_EV_RESULT] = I64_BASE("result", "bytes"),
    [NR_EV_ERRNO] = STR("errno"),       [NR_EV_FLAGS] = I64("flags"),
    [NR_EV_PHASE_ID] = I64("phase_id"),
};
TABLE(nr_events_table, "events", events_cols);

static const nr_col_def files_cols[NR_FI_COL_COUNT] = {
    [NR_FI_FILE_ID] = DELTA("file_id"),       [NR_FI_PATH] = STR("path"),
    [NR_FI_KIND] = I64("kind"),
    [NR_FI_BYTES_READ] = I64("bytes_read"),   [NR_FI_BYTES_WRITTEN] = I64("bytes_written"),
    [NR_FI_READ_CALLS] = I64("read_calls"),   [NR_FI_WRITE_CALLS] = I64("write_calls"),
    [NR_FI_OPEN_CALLS] = I64("open_calls"),   [NR_FI_CLOSE_CALLS] = I64("close_calls"),
    [NR_FI_META_CALLS] = I64("meta_calls"),   [NR_FI_SYNC_CALLS] = I64("sync_calls"),
    [NR_FI_FIRST_TS_NS] = DELTA("first_ts_ns"), [NR_FI_LAST_TS_NS] = I64_BASE("last_ts_ns", "first_ts_ns"),
};
TABLE(nr_files_table, "files", files_cols);

static const nr_col_def processes_cols[NR_PR_COL_COUNT] = {
    [NR_PR_TID] = DELTA("tid"),           [NR_PR_PID] = I64("pid"),
    [NR_PR_PPID] = I64("ppid"),           [NR_PR_IS_THREAD] = I64("is_thread"),
    [NR_PR_FIRST_TS_NS] = I64("first_ts_ns"), [NR_PR_LAST_TS_NS] = I64("last_ts_ns"),
    [NR_PR_EXE] = STR("exe"),             [NR_PR_EXIT_CODE] = I64("exit_code"),
    [NR_PR_KILLED_BY] = STR("killed_by"), [NR_PR_EVENTS] = I64("events"),
    [NR_PR_SIGNALS] = I64("signals"),     [NR_PR_END_TS_NS] = I64_SINCE("end_ts_ns", 26, -1),
};
TABLE(nr_processes_table, "processes", processes_cols);

static const nr_col_def diagnostics_cols[NR_DG_COL_COUNT] = {
    [NR_DG_REASON] = STR("reason"), [NR_DG_COUNT] = I64("count"),
    [NR_DG_FILE] = STR("file"),     [NR_DG_LINE] = I64("line"),
    [NR_DG_EXAMPLE] = STR("example"),
};
TABLE(nr_diagnostics_table, "diagnostics", diagnostics_cols);

static const nr_col_def meta_cols[NR_MT_COL_COUNT] = {
    [NR_MT_KEY] = STR("key"), [NR_MT_VALUE] = STR("value"),
};
TABLE(nr_meta_table, "meta", meta_cols);

static const nr_col_def phases_cols[NR_PH_COL_COUNT] = {
    [NR_PH_PHASE_ID] = DELTA("phase_id"), [NR_PH_PID] = I64("pid"),
    [NR_PH_TID] = I64_BASE("tid", "pid"),             [NR_PH_NAME] = STR("name"),
    [NR_PH_BEGIN_NS] = DELTA("begin_ns"), [NR_PH_END_NS] = I64("end_ns"),
    [NR_PH_DEPTH] = I64("depth"),         [NR_PH_PARENT_ID] = I64("parent_id"),
    [NR_PH_FLAGS] = I64("flags"),
};
TABLE(nr_phases_table, "phases", phases_cols);

static const nr_col_def pyio_cols[NR_PY_COL_COUNT] = {
    [NR_PY_TS_NS] = DELTA("ts_ns"), [NR_PY_PID] = I64("pid"),
    [NR_PY_TID] = I64_BASE("tid", "pid"),       [NR_PY_OP] = STR("op"),
    [NR_PY_PATH] = STR("path"),     [NR_PY_BYTES] = I64("bytes"),
    [NR_PY_DUR_NS] = I64("dur_ns"), [NR_PY_PHASE_ID] = I64("phase_id"),
};
TABLE(nr_pyio_table, "pyio", pyio_cols);

static const nr_col_def marks_cols[NR_MK_COL_COUNT] = {
    [NR_MK_TS_NS] = DELTA("ts_ns"), [NR_MK_PID] = I64("pid"),
    [NR_MK_TID] = I64_BASE("tid", "pid"), [NR_MK_NAME] = STR("name"),
    [NR_MK_ATTRS] = STR("attrs"),  [NR_MK_PHASE_ID] = I64("phase_id"),
};
TABLE(nr_marks_table, "marks", marks_cols);

static const nr_col_def waits_cols[NR_WT_COL_COUNT] = {
    [NR_WT_TS_NS] = DELTA("ts_ns"), [NR_WT_PID] = I64("pid"),
    [NR_WT_TID] = I64_BASE("tid", "pid"), [NR_WT_WHAT] = STR("what"),
    [NR_WT_DUR_NS] = I64("dur_ns"), [NR_WT_PHASE_ID] = I64("phase_id"),
    [NR_WT_FIRST] = I64("first"),
};
TABLE(nr_waits_table, "waits", waits_cols);

static const char *const op_class_names[] = {
#define NR_X(code, name) [code] = name,
    NR_OP_CLASSES(NR_X)
#undef NR_X
};

static const char *const file_kind_names[] = {
#define NR_X(code, name) [code] = name,
    NR_FILE_KINDS(NR_X)
#undef NR_X
};

const char *nr_op_class_name(int op)
{
    return op >= 0 && op < NR_OP_CLASS_COUNT ? op_class_names[op] : "?";
}

const char *nr_file_kind_name(int kind)
{
    return kind >= 0 && kind < NR_FILE_KIND_COUNT ? file_kind_names[kind] : "?";
}

int nr_file_kind_from_name(const char *name)
{
    for (int k = 0; k < NR_FILE_KIND_COUNT; k++)
        if (strcmp(file_kind_names[k], name) == 0)
            return k;
    return -1;
}
