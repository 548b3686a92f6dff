/* Fuzz target: arbitrary text through the line lexer into the process model
 * (fd tables, offsets, cwd, clone/execve, unfinished/resumed), then the
 * results read back. Nothing may crash, leak or read out of bounds. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "diag.h"
#include "procmodel.h"
#include "strace_line.h"

static int count_event(void *ctx, const nr_pm_event *ev, nr_error *err)
{
    uint64_t *n = ctx;
    *n += (uint64_t)(ev->bytes >= 0) + (ev->syscall.n > 0);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t events = 0;
    nr_diag *diag = nr_diag_create();
    nr_pm *pm = NULL;
    nr_error err;
    /* the first byte picks the start cwd: known, unknown or relative */
    static const char *const cwds[] = {"/w", NULL, "rel"};
    const char *cwd = size ? cwds[data[0] % 3] : NULL;
    nr_pm_config cfg = {.start_cwd = cwd, .emit = count_event, .emit_ctx = &events, .diag = diag};
    if (!diag || nr_pm_create(&cfg, &pm, &err) < 0)
        goto done;
    /* each line is lexed one ahead (as the ingest did until session 5:
     * the model must not depend on the next line's nr_sline staying put) */
    const char *p = (const char *)data, *end = p + size;
    uint64_t line_no = 0;
    nr_sline sl[2];
    const char *line[2] = {NULL, NULL};
    size_t line_len[2] = {0, 0};
    int cur = 0;
    if (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        line[0] = p;
        line_len[0] = (size_t)((nl ? nl : end) - p);
        nr_sline_parse(line[0], line_len[0], &sl[0]);
        p = nl ? nl + 1 : end;
    }
    while (line[cur]) {
        int next = !cur;
        line[next] = NULL;
        if (p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            line[next] = p;
            line_len[next] = (size_t)((nl ? nl : end) - p);
            nr_sline_parse(line[next], line_len[next], &sl[next]);
            p = nl ? nl + 1 : end;
        }
        nr_pm_where where = {"fuzz", ++line_no, line[cur], line_len[cur]};
        if (nr_pm_feed(pm, &sl[cur], -1, sl[cur].ts_form ? sl[cur].ts_ns : -1, &where, &err) < 0)
            goto done;
        cur = next;
    }
    if (nr_pm_finish(pm, &err) < 0)
        goto done;
    for (size_t i = 0; i < nr_pm_file_count(pm); i++) {
        const char *path;
        size_t len;
        const nr_pm_file *f = nr_pm_file_get(pm, i, &path, &len);
        events += (uint64_t)f->kind + len;
    }
    for (size_t i = 0; i < nr_pm_task_count(pm); i++) {
        nr_pm_task t;
        nr_pm_task_get(pm, i, &t);
        events += strlen(t.exe) + strlen(t.killed_by);
        /* the walk up the tree ends whatever the log (a cycle would hang here) */
        int64_t by;
        for (const nr_pm_proc *up = nr_pm_process_at(pm, t.pid, t.first_ts_ns); up; up = nr_pm_parent_process(up, &by))
            events += (uint64_t)nr_pm_process_pid(up);
    }
done:
    nr_pm_destroy(pm);
    nr_diag_destroy(diag);
    return events == UINT64_MAX;
}
