/* Writes small hand-built stores for the model tests: every row composed by
 * hand so that each expected number can be computed in a comment. */
#ifndef TEST_STORE_BUILDER_H
#define TEST_STORE_BUILDER_H

#include <stdint.h>

#include "nr_schema.h"
#include "nr_store.h"

#define MS 1000000LL        /* ns per millisecond */
#define US 1000LL           /* ns per microsecond */
#define SEC 1000000000LL    /* ns per second */

typedef struct tb {
    nr_store_writer *w;
    nr_table_writer *events, *files, *processes, *phases, *meta, *pyio, *marks, *waits, *diagnostics;
    int waits_without_first; /* the waits table of revision 24 (tb_open_rev24_waits) */
} tb;

/* One event; tb_ev_default gives offset/fd/phase_id -1, syscall by op. */
typedef struct tb_ev {
    int64_t ts, dur, pid, op, file_id, bytes, offset, result, flags, phase_id;
    const char *syscall;
    int has_source;       /* a two-ended call (sendfile, ...): file2_id = source_id; else -1 */
    int64_t source_id;
} tb_ev;

void tb_open(tb *t, const char *path);
/* tb_open with the waits table as an ingest of revision 24 wrote it: no column first. */
void tb_open_rev24_waits(tb *t, const char *path);
void tb_commit(tb *t);
void tb_file(tb *t, int64_t id, const char *path, int kind);
/* A process that exited with status 0 at last_ns, without an execve. */
void tb_proc(tb *t, int64_t pid, int64_t ppid, int64_t first_ns, int64_t last_ns);
/* A task of table processes as given (exe, killed_by: "" none; exit_code, end_ns: -1 none). */
typedef struct tb_task {
    int64_t tid, pid, ppid, first_ns, last_ns, exit_code, end_ns;
    const char *exe, *killed_by;
} tb_task;
void tb_task_row(tb *t, tb_task k);
void tb_phase(tb *t, int64_t id, int64_t pid, const char *name, int64_t begin_ns, int64_t end_ns);
/* tb_phase with the phases table's flags (1: never ended). */
void tb_phase_flags(tb *t, int64_t id, int64_t pid, const char *name, int64_t begin_ns, int64_t end_ns,
                    int64_t flags);
void tb_meta(tb *t, const char *key, const char *value);
void tb_pyio(tb *t, int64_t ts, int64_t pid, const char *path, int64_t bytes);
void tb_mark(tb *t, int64_t ts, int64_t pid, const char *name, const char *attrs, int64_t phase_id);
/* A wait of thread tid of pid for "batch", begun at ts, dur long; not the first of a pass. */
void tb_wait(tb *t, int64_t ts, int64_t pid, int64_t tid, int64_t dur, int64_t phase_id);
/* tb_wait of a pass's first item when first is 1 (any value is written as given). */
void tb_wait_first(tb *t, int64_t ts, int64_t pid, int64_t tid, int64_t dur, int64_t phase_id, int64_t first);
void tb_diag(tb *t, const char *reason, int64_t count);
void tb_event(tb *t, tb_ev e);
/* A data or other call: ts, dur, pid, op class, file, bytes, offset, phase. */
void tb_call(tb *t, int64_t ts, int64_t dur, int64_t pid, int op, int64_t file_id, int64_t bytes,
             int64_t offset, int64_t phase_id);

/* A path under the build tree for a test store (static buffer). */
const char *tb_path(const char *name);

#endif
