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
    const char *p = (const char *)data, *end = p + size;
    uint64_t line_no = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = nl ? nl : end;
        nr_sline sl;
        nr_sline_parse(p, (size_t)(line_end - p), &sl);
        nr_pm_where where = {"fuzz", ++line_no, p, (size_t)(line_end - p)};
        if (nr_pm_feed(pm, &sl, -1, sl.ts_form ? sl.ts_ns : -1, &where, &err) < 0)
            goto done;
        p = nl ? nl + 1 : end;
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
        events += strlen(t.exe) + strlen(t.killed_by) + (uint64_t)(nr_pm_parent_of(pm, t.pid) >= 0);
    }
done:
    nr_pm_destroy(pm);
    nr_diag_destroy(diag);
    return events == UINT64_MAX;
}
