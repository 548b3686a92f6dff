/* Hand-built stores for the model tests (aborts on any store error: a test
 * fixture that cannot be written is a broken test, not a result). */
#include "store_builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(int rc, const nr_error *err)
{
    if (rc < 0) {
        fprintf(stderr, "store builder: %s\n", err->msg);
        abort();
    }
}

static void open_with(tb *t, const char *path, const nr_table_def *waits)
{
    nr_error err;
    nr_error_clear(&err);
    memset(t, 0, sizeof *t);
    check(nr_store_writer_create(path, &t->w, &err), &err);
    check(nr_store_writer_add_table(t->w, &nr_events_table, &t->events, &err), &err);
    check(nr_store_writer_add_table(t->w, &nr_files_table, &t->files, &err), &err);
    check(nr_store_writer_add_table(t->w, &nr_processes_table, &t->processes, &err), &err);
    check(nr_store_writer_add_table(t->w, &nr_diagnostics_table, &t->diagnostics, &err), &err);
    check(nr_store_writer_add_table(t->w, &nr_meta_table, &t->meta, &err), &err);
    check(nr_store_writer_add_table(t->w, &nr_phases_table, &t->phases, &err), &err);
    check(nr_store_writer_add_table(t->w, &nr_pyio_table, &t->pyio, &err), &err);
    check(nr_store_writer_add_table(t->w, &nr_marks_table, &t->marks, &err), &err);
    check(nr_store_writer_add_table(t->w, waits, &t->waits, &err), &err);
}

void tb_open(tb *t, const char *path) { open_with(t, path, &nr_waits_table); }

void tb_open_rev24_waits(tb *t, const char *path)
{
    static nr_table_def rev24; /* the writer keeps the definition until commit */
    rev24 = nr_waits_table;
    rev24.ncols = NR_WT_FIRST; /* its columns before first */
    open_with(t, path, &rev24);
    t->waits_without_first = 1;
}

void tb_commit(tb *t)
{
    nr_error err;
    nr_error_clear(&err);
    check(nr_store_writer_commit(t->w, &err), &err);
    nr_store_writer_destroy(t->w);
    t->w = NULL;
}

static void end_row(nr_table_writer *w)
{
    nr_error err;
    nr_error_clear(&err);
    check(nr_table_end_row(w, &err), &err);
}

static void set_str(nr_table_writer *w, size_t col, const char *s) { nr_table_set_str(w, col, s, strlen(s)); }

void tb_file(tb *t, int64_t id, const char *path, int kind)
{
    nr_table_writer *w = t->files;
    for (size_t c = 0; c < NR_FI_COL_COUNT; c++)
        if (c != NR_FI_PATH)
            nr_table_set_i64(w, c, 0);
    nr_table_set_i64(w, NR_FI_FILE_ID, id);
    set_str(w, NR_FI_PATH, path);
    nr_table_set_i64(w, NR_FI_KIND, kind);
    end_row(w);
}

void tb_task_row(tb *t, tb_task k)
{
    nr_table_writer *w = t->processes;
    nr_table_set_i64(w, NR_PR_TID, k.tid);
    nr_table_set_i64(w, NR_PR_PID, k.pid);
    nr_table_set_i64(w, NR_PR_PPID, k.ppid);
    nr_table_set_i64(w, NR_PR_IS_THREAD, k.tid != k.pid);
    nr_table_set_i64(w, NR_PR_FIRST_TS_NS, k.first_ns);
    nr_table_set_i64(w, NR_PR_LAST_TS_NS, k.last_ns);
    set_str(w, NR_PR_EXE, k.exe ? k.exe : "");
    nr_table_set_i64(w, NR_PR_EXIT_CODE, k.exit_code);
    set_str(w, NR_PR_KILLED_BY, k.killed_by ? k.killed_by : "");
    nr_table_set_i64(w, NR_PR_EVENTS, 0);
    nr_table_set_i64(w, NR_PR_SIGNALS, 0);
    nr_table_set_i64(w, NR_PR_END_TS_NS, k.end_ns);
    end_row(w);
}

void tb_proc(tb *t, int64_t pid, int64_t ppid, int64_t first_ns, int64_t last_ns)
{
    tb_task_row(t, (tb_task){.tid = pid, .pid = pid, .ppid = ppid, .first_ns = first_ns, .last_ns = last_ns,
                             .exit_code = 0, .end_ns = last_ns});
}

void tb_phase(tb *t, int64_t id, int64_t pid, const char *name, int64_t begin_ns, int64_t end_ns)
{
    tb_phase_flags(t, id, pid, name, begin_ns, end_ns, 0);
}

void tb_phase_flags(tb *t, int64_t id, int64_t pid, const char *name, int64_t begin_ns, int64_t end_ns,
                    int64_t flags)
{
    nr_table_writer *w = t->phases;
    nr_table_set_i64(w, NR_PH_PHASE_ID, id);
    nr_table_set_i64(w, NR_PH_PID, pid);
    nr_table_set_i64(w, NR_PH_TID, pid);
    set_str(w, NR_PH_NAME, name);
    nr_table_set_i64(w, NR_PH_BEGIN_NS, begin_ns);
    nr_table_set_i64(w, NR_PH_END_NS, end_ns);
    nr_table_set_i64(w, NR_PH_DEPTH, 0);
    nr_table_set_i64(w, NR_PH_PARENT_ID, -1);
    nr_table_set_i64(w, NR_PH_FLAGS, flags);
    end_row(w);
}

void tb_meta(tb *t, const char *key, const char *value)
{
    set_str(t->meta, NR_MT_KEY, key);
    set_str(t->meta, NR_MT_VALUE, value);
    end_row(t->meta);
}

void tb_pyio(tb *t, int64_t ts, int64_t pid, const char *path, int64_t bytes)
{
    nr_table_writer *w = t->pyio;
    nr_table_set_i64(w, NR_PY_TS_NS, ts);
    nr_table_set_i64(w, NR_PY_PID, pid);
    nr_table_set_i64(w, NR_PY_TID, pid);
    set_str(w, NR_PY_OP, "read");
    set_str(w, NR_PY_PATH, path);
    nr_table_set_i64(w, NR_PY_BYTES, bytes);
    nr_table_set_i64(w, NR_PY_DUR_NS, -1);
    nr_table_set_i64(w, NR_PY_PHASE_ID, -1);
    end_row(w);
}

void tb_mark(tb *t, int64_t ts, int64_t pid, const char *name, const char *attrs, int64_t phase_id)
{
    nr_table_writer *w = t->marks;
    nr_table_set_i64(w, NR_MK_TS_NS, ts);
    nr_table_set_i64(w, NR_MK_PID, pid);
    nr_table_set_i64(w, NR_MK_TID, pid);
    set_str(w, NR_MK_NAME, name);
    set_str(w, NR_MK_ATTRS, attrs);
    nr_table_set_i64(w, NR_MK_PHASE_ID, phase_id);
    end_row(w);
}

void tb_wait(tb *t, int64_t ts, int64_t pid, int64_t tid, int64_t dur, int64_t phase_id)
{
    tb_wait_first(t, ts, pid, tid, dur, phase_id, 0);
}

void tb_wait_first(tb *t, int64_t ts, int64_t pid, int64_t tid, int64_t dur, int64_t phase_id, int64_t first)
{
    nr_table_writer *w = t->waits;
    nr_table_set_i64(w, NR_WT_TS_NS, ts);
    nr_table_set_i64(w, NR_WT_PID, pid);
    nr_table_set_i64(w, NR_WT_TID, tid);
    set_str(w, NR_WT_WHAT, "batch");
    nr_table_set_i64(w, NR_WT_DUR_NS, dur);
    nr_table_set_i64(w, NR_WT_PHASE_ID, phase_id);
    if (!t->waits_without_first)
        nr_table_set_i64(w, NR_WT_FIRST, first);
    end_row(w);
}

void tb_diag(tb *t, const char *reason, int64_t count)
{
    nr_table_writer *w = t->diagnostics;
    set_str(w, NR_DG_REASON, reason);
    nr_table_set_i64(w, NR_DG_COUNT, count);
    set_str(w, NR_DG_FILE, "strace.log");
    nr_table_set_i64(w, NR_DG_LINE, 1);
    set_str(w, NR_DG_EXAMPLE, "?");
    end_row(w);
}

static const char *default_syscall(int64_t op)
{
    static const char *const names[NR_OP_CLASS_COUNT] = {
        [NR_OP_READ] = "read", [NR_OP_WRITE] = "write", [NR_OP_OPEN] = "openat",
        [NR_OP_META] = "newfstatat", [NR_OP_SYNC] = "fsync", [NR_OP_OTHER] = "ioctl",
    };
    return op >= 0 && op < NR_OP_CLASS_COUNT ? names[op] : "?";
}

void tb_event(tb *t, tb_ev e)
{
    nr_table_writer *w = t->events;
    nr_table_set_i64(w, NR_EV_TS_NS, e.ts);
    nr_table_set_i64(w, NR_EV_DUR_NS, e.dur);
    nr_table_set_i64(w, NR_EV_PID, e.pid);
    nr_table_set_i64(w, NR_EV_TID, e.pid);
    set_str(w, NR_EV_SYSCALL, e.syscall ? e.syscall : default_syscall(e.op));
    nr_table_set_i64(w, NR_EV_OP_CLASS, e.op);
    nr_table_set_i64(w, NR_EV_FD, 3);
    nr_table_set_i64(w, NR_EV_FILE_ID, e.file_id);
    nr_table_set_i64(w, NR_EV_FILE2_ID, e.has_source ? e.source_id : -1);
    nr_table_set_i64(w, NR_EV_BYTES, e.bytes);
    nr_table_set_i64(w, NR_EV_OFFSET, e.offset);
    nr_table_set_i64(w, NR_EV_RESULT, e.result);
    set_str(w, NR_EV_ERRNO, (e.flags & NR_EVF_FAILED) ? "ENOENT" : "");
    nr_table_set_i64(w, NR_EV_FLAGS, e.flags);
    nr_table_set_i64(w, NR_EV_PHASE_ID, e.phase_id);
    end_row(w);
}

void tb_call(tb *t, int64_t ts, int64_t dur, int64_t pid, int op, int64_t file_id, int64_t bytes,
             int64_t offset, int64_t phase_id)
{
    const int data = op == NR_OP_READ || op == NR_OP_WRITE;
    tb_event(t, (tb_ev){.ts = ts, .dur = dur, .pid = pid, .op = op, .file_id = file_id,
                        .bytes = bytes, .offset = offset, .result = data ? bytes : (op == NR_OP_OPEN ? 3 : 0),
                        .flags = 0, .phase_id = phase_id});
}

const char *tb_path(const char *name)
{
    static char buf[4096];
    const char *dir = getenv("NR_BINARY_DIR");
    snprintf(buf, sizeof buf, "%s/tests/model/%s", dir ? dir : ".", name);
    return buf;
}
