/* Fuzz target: the model on a store of any rows. The input is read as a
 * list of rows (files, processes, phases, events, meta, pyio, marks,
 * diagnostics, waits) whose fields are drawn from values that matter to the model
 * (ids in and out of their tables, -1 and -2, 2^62 and beyond, paths of
 * job and runtime files and of a merged run's nodes, meta keys the model
 * reads); the rows are written with the store writer (as a store of any
 * ingest could hold them, tests/model/store_builder.c), and the model is
 * computed with its summary JSON both ways (tree and streamed). Checksums
 * hold, so every input reaches the model, where a crafted store is
 * refused with an error or modelled: any outcome but a crash, a leak, an
 * over-allocation or a sanitizer report is fine. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nr_model.h"
#include "store_builder.h"

/* The input, read a byte at a time; zeros once it is used up. */
typedef struct input {
    const uint8_t *p, *end;
} input;

static unsigned next(input *in) { return in->p < in->end ? *in->p++ : 0; }

static const char *pick(input *in, const char *const *from, size_t n) { return from[next(in) % n]; }

/* A value the model's checks and sums care about, or a few bytes of the input. */
static int64_t value(input *in)
{
    static const int64_t edges[] = {0,
                                    1,
                                    -1,
                                    -2,
                                    7,
                                    4096,
                                    1000000,
                                    1000000000,
                                    (int64_t)1 << 62,
                                    ((int64_t)1 << 62) + 1,
                                    INT64_MAX,
                                    INT64_MIN,
                                    1700000000000000000LL};
    const unsigned sel = next(in);
    if (sel < 128)
        return edges[sel % (sizeof edges / sizeof edges[0])];
    int64_t v = 0;
    for (unsigned k = 0; k < 1 + sel % 4; k++)
        v = v << 8 | next(in);
    return sel & 4 ? -v : v;
}

/* An id of a table of up to 8 rows, or one outside it. */
static int64_t id(input *in) { return (int64_t)(next(in) % 11) - 2; }

static const char *const paths[] = {"/d/a",
                                    "/d/b",
                                    "/data/x",
                                    "/usr/lib/python3/dist-packages/torch/__init__.py",
                                    "/usr/lib/x86_64-linux-gnu/libc.so.6",
                                    "n0:/d/a",
                                    "n1:/usr/lib/x.so",
                                    "ckpt/e1.pt",
                                    "",
                                    "/",
                                    "pipe:[9]",
                                    "/d/a (deleted)"};
static const char *const names[] = {"train", "eval", "checkpoint", "data_prep", "", "(unnamed)", "x\xff", "epoch"};
static const char *const syscalls[] = {"read", "write", "openat", "pread64", "sendfile", "mmap", "fsync",
                                       "newfstatat", "close", "", "unknown_call"};
static const char *const meta_keys[] = {"manifest.fs.0.mount_point", "fs.1.mount", "manifest.fs.2.mountpoint",
                                        "merged_parts", "part.0.pid_base", "part.1.pid_base", "part.0.node",
                                        "time_base", "trace_first_ts_ns", "trace_last_ts_ns", "start_cwd",
                                        "format_version", "manifest.labels.workload", "lines_skipped"};
static const char *const meta_values[] = {"/", "/d", "/data/", "0", "1", "2", "-5", "999999999999999999999",
                                          "x", "", "monotonic", "unix"};
static const char *const signals[] = {"", "", "SIGKILL", "SIGBUS", "SIGTERM", "SIG\xff", "x"};
static const char *const programs[] = {"", "/usr/bin/python3", "/bin/sh", "python", "/opt/\xfe/python3.11"};
static const char *const attrs[] = {"", "{}", "{\"loss\":0.5,\"n\":0}", "[1]", "nope", "{\"a\":"};

static void add_row(tb *t, input *in)
{
    const unsigned sel = next(in);
    switch (sel % 8) {
    case 0: {
        const int64_t file = id(in);
        tb_file(t, file, pick(in, paths, sizeof paths / sizeof *paths), (int)(next(in) % (NR_FILE_KIND_COUNT + 1)));
        break;
    }
    case 1: {
        const int64_t pid = id(in), ppid = id(in), first = value(in), last = value(in);
        if (!(sel & 0x80)) { /* the seeds of before kept their rows */
            tb_proc(t, pid, ppid, first, last);
            break;
        }
        /* a task and how it ended: a thread (tid not pid), an exit code or a signal, a program */
        const int64_t tid = next(in) % 2 ? pid : id(in), code = value(in), end = value(in);
        tb_task_row(t, (tb_task){.tid = tid, .pid = pid, .ppid = ppid, .first_ns = first, .last_ns = last,
                                 .exit_code = code, .end_ns = end,
                                 .killed_by = pick(in, signals, sizeof signals / sizeof *signals),
                                 .exe = pick(in, programs, sizeof programs / sizeof *programs)});
        break;
    }
    case 2: {
        const int64_t phase = id(in), pid = id(in);
        const char *name = pick(in, names, sizeof names / sizeof *names);
        const int64_t begin = value(in), end = value(in);
        tb_phase_flags(t, phase, pid, name, begin, end, next(in) % 5);
        break;
    }
    case 3: {
        tb_ev e = {.ts = value(in), .dur = value(in), .pid = id(in), .op = (int64_t)(next(in) % (NR_OP_CLASS_COUNT + 1)),
                   .file_id = id(in), .bytes = value(in), .offset = value(in), .result = value(in),
                   .flags = next(in), .phase_id = id(in), .syscall = pick(in, syscalls, sizeof syscalls / sizeof *syscalls)};
        e.has_source = next(in) % 4 == 0;
        e.source_id = id(in);
        tb_event(t, e);
        break;
    }
    case 4: {
        const char *key = pick(in, meta_keys, sizeof meta_keys / sizeof *meta_keys);
        tb_meta(t, key, pick(in, meta_values, sizeof meta_values / sizeof *meta_values));
        break;
    }
    case 5: {
        const int64_t ts = value(in), pid = id(in);
        const char *path = pick(in, paths, sizeof paths / sizeof *paths);
        tb_pyio(t, ts, pid, path, value(in));
        break;
    }
    case 6: {
        const int64_t ts = value(in), pid = id(in);
        const char *name = pick(in, names, sizeof names / sizeof *names);
        tb_mark(t, ts, pid, name, pick(in, attrs, sizeof attrs / sizeof *attrs), id(in));
        break;
    }
    default: /* a wait when the selector's high bit is set: the seeds of before kept their rows */
        if (sel & 0x80) {
            const int64_t ts = value(in), pid = id(in), tid = id(in), dur = value(in), phase = id(in);
            const uint64_t f = next(in) % 8; /* first: 0 or 1 mostly, 2 and -1 the refused */
            tb_wait_first(t, ts, pid, tid, dur, phase, f < 6 ? (int64_t)(f & 1) : f == 6 ? 2 : -1);
        } else {
            tb_diag(t, pick(in, names, sizeof names / sizeof *names), value(in));
        }
        break;
    }
}

/* The summary both ways, to nowhere. */
static void summarize(const nr_model *m)
{
    json_t *j = nr_model_summary_json(m);
    char *text = j ? json_dumps(j, NR_MODEL_JSON_FLAGS) : NULL;
    free(text);
    json_decref(j);
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        (void)nr_model_summary_json_write(m, null, NR_MODEL_JSON_FLAGS);
        fclose(null);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64]; /* in RAM where it can be, as fuzz_strace_file: the commit fsyncs (94 us on /tmp here) */
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(path, sizeof path, "%s/niorep-fuzz-model-%ld.nio", base, (long)getpid());
    input in = {data, data + (size < 4096 ? size : 4096)}; /* at most a few hundred rows */
    tb t;
    tb_open(&t, path);
    while (in.p < in.end)
        add_row(&t, &in);
    tb_commit(&t);
    nr_store *s;
    nr_error err;
    nr_error_clear(&err);
    if (nr_store_open(path, &s, &err) == 0) {
        for (size_t keep = 0; keep < 2; keep++) { /* every job file kept, and one */
            const nr_model_opts opts = {.bootstraps = 0, .threads = 1, .keep_files = keep};
            nr_model *m = NULL;
            if (nr_model_compute(s, &opts, &m, &err) == 0)
                summarize(m);
            nr_model_free(m);
        }
        nr_store_close(s);
    }
    unlink(path);
    return 0;
}
