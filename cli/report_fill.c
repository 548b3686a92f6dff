/* report_fill: one function per report section. Numbers go in with their
 * units (nr_report_fmt_*); key numbers carry data-nr-key = their path in
 * `niorep summary --json` (docs/report.md) so that tests can compare them. */
#include "report_fill.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "figure_inputs.h"
#include "nr_model.h"
#include "nr_render.h"
#include "nr_schema.h"
#include "nr_store.h"

#define B(x) nr_report_fmt_bytes((double)(x), buf, sizeof buf)
#define S(x) nr_report_fmt_seconds((x), buf, sizeof buf)
#define P(x) nr_report_fmt_percent((x), buf, sizeof buf)
#define C(x) nr_report_fmt_count((double)(x), buf, sizeof buf)
#define R(x) nr_report_fmt_real((x), buf, sizeof buf)
#define RATE(x) nr_report_fmt_rate((x), buf, sizeof buf)

static const char *const lat_keys[NR_MODEL_NQ] = {"p50", "p90", "p99", "p999", "p9999", "max"};
static const char *const lat_heads[NR_MODEL_NQ] = {"p50", "p90", "p99", "p99.9", "p99.99", "max"};

static double ns_to_s(int64_t ns)
{
    return ns < 0 ? NAN : (double)ns * 1e-9;
}

static double share(double part, double whole)
{
    return whole > 0 ? part / whole : NAN;
}

/* Calls fn(ctx, key, value) for every row of the store's meta table. */
static int each_meta(const nr_store *s, void (*fn)(void *ctx, const char *k, const char *v), void *ctx, nr_error *err)
{
    const nr_store_table *t = nr_store_find_table(s, "meta");
    if (!t)
        return 0;
    nr_col_chunk k, v;
    nr_col_chunk_init(&k);
    nr_col_chunk_init(&v);
    int rc = 0;
    for (size_t rg = 0; rc == 0 && rg < nr_store_table_rowgroups(t); rg++) {
        rc = nr_store_read_chunk(t, NR_MT_KEY, rg, &k, err);
        if (rc == 0)
            rc = nr_store_read_chunk(t, NR_MT_VALUE, rg, &v, err);
        for (size_t i = 0; rc == 0 && i < k.n && i < v.n; i++)
            fn(ctx, k.str[i], v.str[i]);
    }
    nr_col_chunk_fini(&k);
    nr_col_chunk_fini(&v);
    return rc;
}

/* "1764480000.12" (the trace's own clock) as "2025-11-30 05:20:00 UTC"; other text unchanged. */
static const char *unix_time_text(const char *value, char *buf, size_t cap)
{
    char *end;
    double t = strtod(value, &end);
    if (end == value || *end || !(t > 0 && t < 4e9))
        return value;
    time_t secs = (time_t)t;
    struct tm tm;
    if (!gmtime_r(&secs, &tm) || strftime(buf, cap, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
        return value;
    return buf;
}

/* The facts of the store's meta shown, in this order (the meta's own is
 * by key: "end" came before "start"). */
static const struct { const char *key, *label; } shown_facts[] = {
    {"manifest.host.name", "host"},
    {"manifest.host.kernel.release", "kernel"},
    {"manifest.host.cpus", "CPUs"},
    {"manifest.strace.version", "strace version"},
    {"manifest.start", "start (from the manifest)"},
    {"manifest.end", "end (from the manifest)"},
    {"time_base", "timestamps"},
    {"niorep_version", "ingested by niorep"},
    {"merged_parts", "nodes merged into this run"},
};
#define NFACTS (sizeof shown_facts / sizeof shown_facts[0])

typedef struct facts_ctx {
    nr_report_table *t;
    char *values[NFACTS]; /* shown_facts' values, kept until the walk ends */
} facts_ctx;

/* Shows manifest labels as they come, and keeps the host and capture facts
 * for fact_rows; never absolute paths of the machine the report is built on
 * (these come from the trace's manifest). */
static void fact_from_meta(void *ctx, const char *key, const char *value)
{
    facts_ctx *f = ctx;
    char date[64];
    if (strcmp(key, "manifest.start") == 0 || strcmp(key, "manifest.end") == 0)
        value = unix_time_text(value, date, sizeof date);
    if (strncmp(key, "manifest.labels.", 16) == 0) {
        /* the whole key: cut to a buffer, it was cut inside a UTF-8
           character, and two long keys of one prefix read the same */
        char *label = malloc(strlen(key + 16) + sizeof "label ");
        if (!label)
            return; /* out of memory: the row is left out, as fact_rows' */
        sprintf(label, "label %s", key + 16);
        nr_report_table_row(f->t);
        nr_report_table_cell(f->t, label);
        nr_report_table_cell_text(f->t, value);
        free(label);
        return;
    }
    for (size_t i = 0; i < NFACTS; i++)
        if (strcmp(key, shown_facts[i].key) == 0 && !f->values[i])
            f->values[i] = strdup(value); /* NULL when out of memory: the row is left out */
}

/* The kept facts as rows, in shown_facts' order; frees them. */
static void fact_rows(facts_ctx *f)
{
    for (size_t i = 0; i < NFACTS; i++) {
        if (!f->values[i])
            continue;
        nr_report_table_row(f->t);
        nr_report_table_cell(f->t, shown_facts[i].label);
        nr_report_table_cell_text(f->t, f->values[i]);
        free(f->values[i]);
        f->values[i] = NULL;
    }
}

static void kv_row(nr_report_table *t, const char *name, const char *text, const char *key, double raw)
{
    nr_report_table_row(t);
    nr_report_table_cell(t, name);
    nr_report_table_cell_key(t, text, key, raw);
}

/* The files of largest disagreement listed. */
#define LAYERS_WORST 5

/* How far a file's two counts disagree, as a factor (1: they agree). */
static double disagreement(const nr_model_pyio_match *p)
{
    return p->ratio >= 1 ? p->ratio : p->ratio > 0 ? 1 / p->ratio : INFINITY;
}

static int cmp_disagreement(const void *x, const void *y, void *pyio)
{
    const nr_model_pyio_match *v = pyio;
    const double a = disagreement(&v[*(const size_t *)x]), b = disagreement(&v[*(const size_t *)y]);
    if (a != b)
        return a < b ? 1 : -1;
    return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

/* The files whose two counts differ most, at most LAYERS_WORST of them. */
static int add_layers_worst(nr_report_block *sec, const nr_model_fidelity *fid, nr_error *err)
{
    size_t *order = malloc((fid->npyio + 1) * sizeof *order), n = 0;
    if (!order)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    for (size_t i = 0; i < fid->npyio; i++) {
        const nr_model_pyio_match *p = &fid->pyio[i];
        if (p->agreement == NR_LAYERS_MORE || p->agreement == NR_LAYERS_FEWER)
            order[n++] = i;
    }
    qsort_r(order, n, sizeof *order, cmp_disagreement, (void *)fid->pyio);
    if (n > 0) {
        static const char *const heads[] = {"file", "hook bytes", "strace bytes", "strace / hook"};
        nr_report_table *t = nr_report_table_new(sec, "Files whose two counts differ most", 4, heads, 0xEu);
        char buf[64];
        for (size_t k = 0; k < n && k < LAYERS_WORST; k++) {
            const nr_model_pyio_match *p = &fid->pyio[order[k]];
            nr_report_table_row(t);
            nr_report_table_cell_path(t, p->path);
            nr_report_table_cell(t, B(p->hook_bytes));
            nr_report_table_cell(t, B(p->strace_bytes));
            nr_report_table_cell(t, R(p->ratio));
        }
    }
    free(order);
    return 0;
}

/* "1.41 s after", "929 µs before": a signed offset in words, since a
 * negative "after" read as an error. */
static const char *skew_text(double s, char *out, size_t cap)
{
    char t[64];
    if (!isfinite(s) || s == 0)
        return nr_report_fmt_seconds(s, out, cap);
    snprintf(out, cap, "%s %s", nr_report_fmt_seconds(fabs(s), t, sizeof t), s > 0 ? "after" : "before");
    return out;
}

/* The two layers side by side: the hook's Python-level file I/O against
 * strace's bytes of the same files, and where each layer's records start
 * and end (docs/summary-schema.md, "fidelity"). Nothing when the hook
 * recorded nothing. */
static int add_layers(nr_report_block *sec, const nr_model *m, nr_error *err)
{
    const nr_model_fidelity *fid = nr_model_get_fidelity(m);
    if (fid->hook_first_ns < 0 && fid->npyio == 0)
        return 0;
    char buf[64];
    const nr_model_layers *c = &fid->layers;
    nr_report_heading(sec, "The two layers: hook and strace");
    static const char *const heads[] = {"measure", "value"};
    nr_report_table *t = nr_report_table_new(sec, "Python-level file I/O (hook) against the system calls (strace)", 2,
                                             heads, 1u << 1);
    kv_row(t, "files the hook saw read or written", C(c->files), "fidelity.layers.files", (double)c->files);
    kv_row(t, "of them found among strace's files", C(c->matched), "fidelity.layers.matched", (double)c->matched);
    kv_row(t, "same bytes in both layers (within 1%)", C(c->equal), "fidelity.layers.equal", (double)c->equal);
    kv_row(t, "more bytes in strace (reads outside Python's open: imports, libraries)", C(c->more_in_strace),
           "fidelity.layers.more_in_strace", (double)c->more_in_strace);
    kv_row(t, "fewer bytes in strace (mmap'd or not traced)", C(c->fewer_in_strace), "fidelity.layers.fewer_in_strace",
           (double)c->fewer_in_strace);
    kv_row(t, "hook's first record, against strace's first event", skew_text(fid->skew_start_s, buf, sizeof buf),
           "fidelity.skew_start_s", fid->skew_start_s);
    kv_row(t, "hook's last record, against strace's last event", skew_text(fid->skew_end_s, buf, sizeof buf),
           "fidelity.skew_end_s", fid->skew_end_s);
    return add_layers_worst(sec, fid, err);
}

/* The diagnostics rows of one kind (skipped lines, then notes) in a table
 * of their own, made at its first row; rows of one reason are consecutive:
 * its name and count once. Returns the rows shown, or an error. */
static long diagnostics_table(nr_report_block *sec, const nr_store_table *t, int notes, nr_error *err)
{
    static const char *const heads[] = {"reason", "count", "example (file:line)", "example"};
    nr_report_table *dt = NULL;
    nr_col_chunk c[NR_DG_COL_COUNT];
    for (int i = 0; i < NR_DG_COL_COUNT; i++)
        nr_col_chunk_init(&c[i]);
    int rc = 0;
    long shown = 0;
    char previous[128] = "";
    for (size_t rg = 0; rc == 0 && rg < nr_store_table_rowgroups(t); rg++) {
        for (int col = 0; rc == 0 && col < NR_DG_COL_COUNT; col++)
            rc = nr_store_read_chunk(t, (size_t)col, rg, &c[col], err);
        for (size_t i = 0; rc == 0 && i < c[NR_DG_REASON].n; i++) {
            char buf[64], where[1200];
            const char *reason = c[NR_DG_REASON].str[i];
            if ((nr_diag_reason_kind(reason) == NR_DIAG_NOTE) != notes)
                continue;
            if (!dt)
                dt = nr_report_table_new(sec,
                                         notes ? "Notes on lines kept, and on the run, by reason, with examples"
                                               : "Lines skipped, by reason, with examples (the strace logs' add "
                                                 "up to lines skipped; hook_* are lines of hook.jsonl)",
                                         4, heads, 1u << 1);
            const int first = strncmp(reason, previous, sizeof previous - 1) != 0;
            snprintf(previous, sizeof previous, "%s", reason);
            nr_report_table_row(dt);
            nr_report_table_cell(dt, first ? reason : "");
            nr_report_table_cell(dt, first ? C(c[NR_DG_COUNT].i64[i]) : "");
            if (c[NR_DG_LINE].i64[i] > 0)
                snprintf(where, sizeof where, "%s:%" PRId64, c[NR_DG_FILE].str[i], c[NR_DG_LINE].i64[i]);
            else
                snprintf(where, sizeof where, "%s", c[NR_DG_FILE].str[i]);
            nr_report_table_cell_path(dt, where);
            nr_report_table_cell_path(dt, c[NR_DG_EXAMPLE].str[i]);
            shown++;
        }
    }
    for (int i = 0; i < NR_DG_COL_COUNT; i++)
        nr_col_chunk_fini(&c[i]);
    return rc < 0 ? rc : shown;
}

/* Skipped lines and notes apart (nr_diag_reason_kind): until session 47
 * one table titled "Lines skipped" held both, under "lines skipped 0". */
static int fill_diagnostics(nr_report_block *sec, const nr_store *s, nr_error *err)
{
    const nr_store_table *t = nr_store_find_table(s, "diagnostics");
    const long skipped = t ? diagnostics_table(sec, t, 0, err) : 0;
    if (skipped < 0)
        return (int)skipped;
    if (skipped == 0)
        nr_report_para(sec, "note", "No line was skipped: every line of the logs was understood.");
    const long notes = t ? diagnostics_table(sec, t, 1, err) : 0;
    return notes < 0 ? (int)notes : 0;
}

/* Transfers on fds the trace never saw opened: their bytes are in no total
 * of the report, so it says how many (docs/definitions.md, "Bytes"). */
static void unnamed_note(nr_report_block *sec, nr_report_table *d, const nr_model *m)
{
    const nr_model_nonfile *nf = nr_model_get_nonfile(m);
    char buf[64], rb[64], wb[64], text[400];
    kv_row(d, "reads on fds never seen opened (in no total)", C(nf->no_file_read_calls),
           "nonfile.no_file_read_calls", (double)nf->no_file_read_calls);
    kv_row(d, "bytes they read", B(nf->no_file_bytes_read), "nonfile.no_file_bytes_read",
           (double)nf->no_file_bytes_read);
    kv_row(d, "writes on fds never seen opened (in no total)", C(nf->no_file_write_calls),
           "nonfile.no_file_write_calls", (double)nf->no_file_write_calls);
    kv_row(d, "bytes they wrote", B(nf->no_file_bytes_written), "nonfile.no_file_bytes_written",
           (double)nf->no_file_bytes_written);
    if (!nf->no_file_read_calls && !nf->no_file_write_calls)
        return;
    snprintf(rb, sizeof rb, "%s", B(nf->no_file_bytes_read));
    snprintf(wb, sizeof wb, "%s", B(nf->no_file_bytes_written));
    snprintf(text, sizeof text,
             "%s read in %" PRIu64 " calls and %s written in %" PRIu64 " calls on fds never seen opened "
             "are in no total of this report: no file is known for them (%s).",
             rb, nf->no_file_read_calls, wb, nf->no_file_write_calls, nr_model_unnamed_fd_advice(m));
    nr_report_para(sec, "unavailable", text);
}

/* Why the times of a -ff -r run are shown nowhere (docs/definitions.md, "Time"). */
#define TIMES_UNRELIABLE                                                                                        \
    "Timeline unavailable: the times are not wall times. With -ff, strace's -r delta is the gap to the "      \
    "previous call of any traced process, not of the log's own, so the run's and phases' durations, the "    \
    "timeline and write bursts built on them mean nothing (-T latencies are right). Trace with -ttt."

/* Why a trace of 1-second stamps shows no share of wall time. */
static const char whole_seconds_note[] =
    "Shares of wall time unavailable: the trace's timestamps resolve only to whole seconds (strace -t), so "
    "wall times are known to within a second; trace with -tt or -ttt.";

/* The processes killed or failed the report lists; summary --json has every one. */
#define ENDS_LISTED 50

/* One row of the ends table: a count per role, each keyed to summary --json. */
static void ends_row(nr_report_table *t, const char *label, const uint64_t n[NR_ROLE_COUNT], const char *key)
{
    char buf[64], k[128];
    nr_report_table_row(t);
    nr_report_table_cell_text(t, label);
    for (int r = 0; r < NR_ROLE_COUNT; r++) {
        snprintf(k, sizeof k, "processes.ends.%s.%s", key, nr_role_name(r));
        nr_report_table_cell_key(t, C(n[r]), k, (double)n[r]);
    }
}

/* The processes killed by a signal or ended with a non-zero status (failed
 * of them), the first ENDS_LISTED. */
static void failed_table(nr_report_block *sec, const nr_model *m, uint64_t failed)
{
    static const char *const heads[] = {"pid", "role", "end", "how", "program"};
    nr_report_table *t = nr_report_table_new(sec, "Processes killed by a signal or ended with another status "
                                             "(end: seconds from the run's start)", 5, heads, 1u << 0 | 1u << 2);
    char buf[64], k[96];
    size_t listed = 0;
    for (size_t i = 0; i < nr_model_process_count(m) && listed < ENDS_LISTED; i++) {
        const nr_model_process *p = nr_model_process_at(m, i);
        if (!nr_model_process_failed(p))
            continue;
        nr_report_table_row(t);
        snprintf(buf, sizeof buf, "%" PRId64, p->pid);
        nr_report_table_cell(t, buf);
        nr_report_table_cell(t, nr_role_name(p->role));
        snprintf(k, sizeof k, "processes.ends.failed.%zu.end_s", listed);
        nr_report_table_cell_key(t, nr_report_fmt_real(nr_model_process_end_s(m, p), buf, sizeof buf), k,
                                 nr_model_process_end_s(m, p));
        if (p->killed_by[0]) {
            nr_report_table_cell_text(t, p->killed_by);
        } else {
            snprintf(buf, sizeof buf, "exit %" PRId64, p->exit_code);
            nr_report_table_cell(t, buf);
        }
        nr_report_table_cell_path(t, p->program[0] ? p->program : "unknown");
        listed++;
    }
    if (failed > listed) {
        snprintf(buf, sizeof buf, "%" PRIu64 " more", failed - (uint64_t)listed);
        nr_report_para(sec, "note", buf);
    }
}

/* docs/definitions.md, "How processes ended". */
static void fill_process_ends(nr_report_block *sec, const nr_model *m)
{
    const nr_model_process_ends *e = nr_model_get_process_ends(m);
    nr_report_heading(sec, "How the processes ended");
    static const char *const heads[] = {"end", "main", "workers", "other"};
    nr_report_table *t = nr_report_table_new(sec, "Processes by how they ended, per role", 4, heads, 0xEu);
    static const char *const what[NR_END_COUNT] = {"exited with status 0", "exited with another status",
                                                    "killed by a signal", "not seen to end (the trace ended first)"};
    for (int k = 0; k < NR_END_COUNT; k++) {
        ends_row(t, what[k], e->count[k], nr_process_end_name(k));
        for (size_t i = 0; k == NR_END_KILLED && i < e->nsignals; i++) {
            char label[96], key[64];
            snprintf(label, sizeof label, "\u2003by %s", e->signals[i].signal);
            snprintf(key, sizeof key, "by_signal.%zu", i);
            ends_row(t, label, e->signals[i].processes, key);
        }
    }
    const uint64_t failed = nr_model_ends_failed(e);
    if (failed)
        failed_table(sec, m, failed);
    if (e->hook_lines_at_risk)
        nr_report_para(sec, "note", "A Python process killed by a signal loses the hook records it had not written "
                                    "yet (its last phases, file reads, waits): the hook writes its buffer at 64 KiB, "
                                    "when a record comes a second after the last write, at phase boundaries, before "
                                    "each multiprocessing queue's put and get, and at exit (docs/hook-format.md).");
}

static int fill_facts(nr_report_block *sec, const nr_run *run, nr_error *err)
{
    const nr_model *m = run->model;
    const nr_model_totals *tot = nr_model_get_totals(m);
    char buf[64];
    static const char *const heads[] = {"fact", "value"};
    nr_report_table *t = nr_report_table_new(sec, "Run facts", 2, heads, 1u << 1);
    nr_report_table_row(t);
    nr_report_table_cell(t, "run");
    nr_report_table_cell_text(t, run->name);
    nr_report_table_row(t);
    nr_report_table_cell(t, "input");
    nr_report_table_cell_path(t, run->source);
    facts_ctx fc = {t, {0}};
    const int rc = each_meta(run->store, fact_from_meta, &fc, err);
    fact_rows(&fc);
    NR_TRY(rc);
    kv_row(t, "duration", S(tot->duration_s), "totals.duration_s", tot->duration_s);
    kv_row(t, "processes", C(tot->processes), "totals.processes", (double)tot->processes);
    kv_row(t, "events (syscalls kept)", C(tot->events), "totals.events", (double)tot->events);
    kv_row(t, "regular files", C(tot->files), "totals.files", (double)tot->files);
    kv_row(t, "files read", C(tot->files_read), "totals.files_read", (double)tot->files_read);
    kv_row(t, "files written", C(tot->files_written), "totals.files_written", (double)tot->files_written);
    kv_row(t, "bytes read", B(tot->bytes_read), "totals.bytes_read", (double)tot->bytes_read);
    kv_row(t, "bytes written", B(tot->bytes_written), "totals.bytes_written", (double)tot->bytes_written);
    kv_row(t, "read calls", C(tot->read_calls), "totals.read_calls", (double)tot->read_calls);
    kv_row(t, "write calls", C(tot->write_calls), "totals.write_calls", (double)tot->write_calls);
    fill_process_ends(sec, m);

    nr_report_heading(sec, "Ingest diagnostics");
    const nr_model_fidelity *fid = nr_model_get_fidelity(m);
    static const char *const dheads[] = {"counter", "value"};
    nr_report_table *d = nr_report_table_new(sec, "What the ingest read and kept", 2, dheads, 1u << 1);
    static const struct { const char *key, *label; } counters[] = {
        {"log_files", "log files"},
        {"lines_read", "lines read"},
        {"lines_parsed", "lines parsed"},
        {"lines_skipped", "lines skipped (reasons below)"},
        {"files_not_read", "entries of the run folder not read (file_not_read below)"},
        {"unfinished_resumed", "unfinished calls resumed"},
    };
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++) {
        const char *v = nr_model_meta(m, counters[i].key);
        nr_report_table_row(d);
        nr_report_table_cell(d, counters[i].label);
        nr_report_table_cell(d, v ? C(strtod(v, NULL)) : "n/a");
    }
    kv_row(d, "unfinished calls never resumed", C(fid->unfinished_calls), "fidelity.unfinished_calls", (double)fid->unfinished_calls);
    kv_row(d, "failed calls (= -1 E...)", C(fid->failed_calls), "fidelity.failed_calls", (double)fid->failed_calls);
    kv_row(d, "mmap calls on regular files (reads through them are invisible)", C(fid->mmap_regular), NULL, 0);
    if (fid->mmap_job.calls) {
        kv_row(d, "job files mapped", C(fid->mmap_job.files), "fidelity.mmap_job.files", (double)fid->mmap_job.files);
        kv_row(d, "bytes of job files mapped (what reads through memory could reach, unseen)",
               fid->mmap_lengths_known ? B(fid->mmap_job.bytes) : "not recorded (an ingest before revision 23)",
               "fidelity.mmap_job.bytes", fid->mmap_lengths_known ? (double)fid->mmap_job.bytes : NAN);
    }
    if (fid->io_uring_calls)
        kv_row(d, "io_uring calls (the I/O they submit is invisible)", C(fid->io_uring_calls),
               "fidelity.io_uring_calls", (double)fid->io_uring_calls);
    unnamed_note(sec, d, m);
    if (!fid->durations_available)
        nr_report_para(sec, "unavailable", "Latency unavailable: the trace lacks -T (no syscall durations).");
    if (!fid->timestamps_available)
        nr_report_para(sec, "unavailable", "Timeline unavailable: the trace has no timestamps (-tt/-ttt).");
    else if (!fid->times_reliable)
        nr_report_para(sec, "unavailable", TIMES_UNRELIABLE);

    if (fid->whole_second_stamps)
        nr_report_para(sec, "unavailable", whole_seconds_note);
    if (!fid->paths_available)
        nr_report_para(sec, "note", "The trace lacks -y: paths come from the replayed fd tables.");
    NR_TRY(fill_diagnostics(sec, run->store, err));
    return add_layers(sec, m, err);
}

/* The share of the run's bytes that its main process moved (NAN: none). */
/* The median read size as the report shows it: "n/a" when no read returned data. */
static const char *median_read_text(const nr_model_access *acc, char *buf, size_t cap)
{
    return acc->sized_reads ? nr_report_fmt_bytes((double)acc->median_read_size, buf, cap) : "n/a";
}

/* The main process's share of the job files' bytes (figure 7's). */
static double main_bytes_share(const nr_model *m)
{
    double main = 0, all = 0;
    for (size_t i = 0; i < nr_model_process_count(m); i++) {
        const nr_model_process *p = nr_model_process_at(m, i);
        const double b = (double)(p->bytes_read + p->bytes_written - p->runtime_bytes);
        all += b;
        main += p->role == NR_ROLE_MAIN ? b : 0;
    }
    return share(main, all);
}

/* The key number of figure fig of run m, as words. */
static void figure_key_text(int fig, const nr_model *m, char *out, size_t cap)
{
    char a[64], b[64], c[64];
    const nr_model_totals *tot = nr_model_get_totals(m);
    const nr_concentration *co = nr_model_concentration(m, NR_CONC_TOTAL);
    const nr_powerlaw_fit *pl = nr_model_powerlaw(m, NR_PL_BYTES);
    const nr_model_latency *rd = nr_model_latency_job(m, NR_LAT_READ);
    double io = 0, rt_io = 0, rt_bytes = 0;
    char d[64];
    switch (fig) {
    case 1:
        for (size_t i = 0; i < nr_model_phase_count(m); i++) {
            io += nr_model_phase_at(m, i)->io_time_s;
            rt_io += nr_model_phase_at(m, i)->runtime_io_time_s;
            rt_bytes += (double)(nr_model_phase_at(m, i)->runtime_bytes_read + nr_model_phase_at(m, i)->runtime_bytes_written);
        }
        snprintf(out, cap, "job files %s moved and %s in I/O calls summed over processes; Python runtime files %s and %s",
                 nr_report_fmt_bytes((double)(tot->bytes_read + tot->bytes_written) - rt_bytes, a, sizeof a),
                 nr_report_fmt_seconds(fmax(io - rt_io, 0), b, sizeof b), nr_report_fmt_bytes(rt_bytes, c, sizeof c),
                 nr_report_fmt_seconds(rt_io, d, sizeof d));
        break;
    case 2:
        snprintf(out, cap, "Gini %s; the top %zu of %zu files hold %s of the bytes", nr_report_fmt_real(co->gini, a, sizeof a),
                 co->top10_items, co->n, nr_report_fmt_percent(co->top10_share, b, sizeof b));
        break;
    case 3:
        if (!pl->valid)
            snprintf(out, cap, "no power law fitted");
        else if (nr_powerlaw_rejected(pl))
            snprintf(out, cap, "power law rejected (p = %.2f)", pl->p_value);
        else
            snprintf(out, cap, "power law alpha %s from %s (p = %s)", nr_report_fmt_real(pl->alpha, a, sizeof a),
                     nr_report_fmt_bytes(pl->xmin, b, sizeof b), nr_report_fmt_real(pl->p_value, c, sizeof c));
        break;
    case 4:
        snprintf(out, cap, "reads of job files: p50 %s, p99 %s", nr_report_fmt_seconds(rd->count ? ns_to_s(rd->q_ns[0]) : NAN, a, sizeof a),
                 nr_report_fmt_seconds(rd->count ? ns_to_s(rd->q_ns[2]) : NAN, b, sizeof b));
        break;
    case 5:
        snprintf(out, cap, "%s long, %llu write bursts", nr_report_fmt_seconds(tot->duration_s, a, sizeof a),
                 (unsigned long long)nr_model_get_burst_totals(m)->count);
        break;
    case 6:
        snprintf(out, cap, "median read size %s", median_read_text(nr_model_get_access(m), a, sizeof a));
        break;
    default:
        snprintf(out, cap, "the main process moved %s of the job files' bytes", nr_report_fmt_percent(main_bytes_share(m), a, sizeof a));
        break;
    }
}

#define FIG_LABEL_MAX 512

/* A run's figure's accessible name: its caption, the run and the key
 * number, since the caption is the same in every run and the figure's
 * text is glyph outlines a screen reader cannot read. */
static const char *figure_label(const char *caption, const char *name, int fig, const nr_model *m, char *out,
                                size_t cap)
{
    char key[256];
    figure_key_text(fig, m, key, sizeof key);
    snprintf(out, cap, "%s. Run %s: %s.", caption, name, key);
    return out;
}

/* "3", or "3 (1 never ended, 1 ended by an exception)": the instances of p
 * in out. */
static const char *phase_instances(const nr_model_phase *p, char *out, size_t cap)
{
    char n[32], ne[32], ee[32];
    nr_report_fmt_count((double)p->instances, n, sizeof n);
    nr_report_fmt_count((double)p->never_ended, ne, sizeof ne);
    nr_report_fmt_count((double)p->ended_by_error, ee, sizeof ee);
    if (p->never_ended && p->ended_by_error)
        snprintf(out, cap, "%s (%s never ended, %s ended by an exception)", n, ne, ee);
    else if (p->never_ended)
        snprintf(out, cap, "%s (%s never ended)", n, ne);
    else if (p->ended_by_error)
        snprintf(out, cap, "%s (%s ended by an exception)", n, ee);
    else
        snprintf(out, cap, "%s", n);
    return out;
}

/* The regular files and their bytes per file system that holds any. */
static void add_fs_bytes_table(nr_report_block *sec, const nr_model *m)
{
    char buf[64], key[96];
    const nr_model_totals *tot = nr_model_get_totals(m);
    static const char *const heads[] = {"file system", "files", "bytes read", "of all read", "bytes written",
                                        "of all written"};
    nr_report_table *t = nr_report_table_new(sec,
                                             "Bytes per file system (the mount points the manifest lists, "
                                             "unknown: under none; every regular file)",
                                             6, heads, 0x3Eu);
    for (size_t i = 0; i < nr_model_fs_count(m); i++) {
        const nr_model_fs_bytes *b = nr_model_fs_bytes_at(m, i);
        if (b->files == 0)
            continue;
        nr_report_table_row(t);
        nr_report_table_cell_path(t, nr_model_fs_name(m, i));
        snprintf(key, sizeof key, "file_systems.%zu.files", i);
        nr_report_table_cell_key(t, C(b->files), key, (double)b->files);
        snprintf(key, sizeof key, "file_systems.%zu.bytes_read", i);
        nr_report_table_cell_key(t, B(b->bytes_read), key, (double)b->bytes_read);
        nr_report_table_cell(t, P(share((double)b->bytes_read, (double)tot->bytes_read)));
        snprintf(key, sizeof key, "file_systems.%zu.bytes_written", i);
        nr_report_table_cell_key(t, B(b->bytes_written), key, (double)b->bytes_written);
        nr_report_table_cell(t, P(share((double)b->bytes_written, (double)tot->bytes_written)));
    }
}

/* What the per-phase table's two time columns measure: the main process's
 * blocked share answers "is training data-bound?"; the summed I/O time
 * over wall reads like a share of time but counts every process. */
static const char phase_columns_note[] =
    "Main process in I/O: the share of the phase's wall time that the main process (the training loop) spent "
    "in file I/O calls, the evidence of a data-bound phase (finding data_bound: above 30% in train). "
    "I/O time (all): the time in file I/O calls of every process, summed. Processes in I/O: that time over "
    "the wall time, the mean number of processes in file I/O at once; workers reading beside the loop raise "
    "it, above 1 when several read in parallel, without the loop waiting.";

/* The row of the phases a table does not list (nr_model_phases_unlisted):
 * its name, "other N phases", into out; NULL when every phase is listed. */
static const nr_model_phase *unlisted_phases(const nr_model *m, char *out, size_t cap)
{
    size_t n;
    const nr_model_phase *rest = nr_model_phases_unlisted(m, &n);
    if (rest)
        snprintf(out, cap, "other %zu %s", n, nr_cli_noun(n, "phase", "phases"));
    return rest;
}

/* Said under the tables of a run with more phases than they list. */
static void add_unlisted_note(nr_report_block *b, const nr_model *m)
{
    char note[320], other[64];
    if (!unlisted_phases(m, other, sizeof other))
        return;
    snprintf(note, sizeof note,
             "The tables of this section list the %d phases with the most bytes and I/O time of the job files "
             "(figure 1's rule, its phases among them) in phase order, and the others as one row of their sums, "
             "\"%s\". niorep summary --json lists every phase.", NR_MODEL_PHASES_LISTED, other);
    nr_report_para(b, "note", note);
}

/* The job files' mappings per phase, when the run made any: the bytes
 * reads through memory could reach, which no column of bytes holds. */
static void add_mapped_table(nr_report_block *sec, const nr_model *m)
{
    const nr_model_fidelity *fid = nr_model_get_fidelity(m);
    if (!fid->mmap_job.calls || !fid->mmap_lengths_known)
        return; /* unknown lengths: the facts table says so */
    char buf[64];
    static const char *const heads[] = {"phase", "bytes of job files mapped"};
    nr_report_table *t = nr_report_table_new(sec, "Job files mapped per phase (reads through memory are invisible to "
                                             "strace: these bytes are in no column above)", 2, heads, 0x2u);
    for (size_t i = 0; i < nr_model_phase_count(m); i++) {
        const nr_model_phase *p = nr_model_phase_at(m, i);
        if (!p->job_bytes_mapped || !nr_model_phase_listed(m, i))
            continue;
        char key[96];
        nr_report_table_row(t);
        nr_report_table_cell(t, p->name);
        snprintf(key, sizeof key, "phases.%zu.job_bytes_mapped", i);
        nr_report_table_cell_key(t, B(p->job_bytes_mapped), key, (double)p->job_bytes_mapped);
    }
    char other[64];
    const nr_model_phase *rest = unlisted_phases(m, other, sizeof other);
    if (rest && rest->job_bytes_mapped) {
        nr_report_table_row(t);
        nr_report_table_cell(t, other);
        nr_report_table_cell(t, B(rest->job_bytes_mapped));
    }
}

/* A cell of the waits table, keyed phases.I.waits.FIELD. */
static void wait_cell(nr_report_table *t, const char *text, size_t phase, const char *field, double raw)
{
    char key[96];
    snprintf(key, sizeof key, "phases.%zu.waits.%s", phase, field);
    nr_report_table_cell_key(t, text, key, raw);
}

/* The loop's waits for its next batch per phase (niorep_hook.batches),
 * when the run recorded any: with DataLoader workers the one measure of
 * the loop waiting for data, which no file call shows. */
static void add_waits_table(nr_report_block *sec, const nr_model *m)
{
    if (!nr_model_get_waits(m)->count)
        return;
    char buf[64];
    static const char *const heads[] = {"phase", "waits", "threads", "time waiting", "share of the phase", "p50",
                                        "p99", "max", "passes", "first batches", "share without them",
                                        "p99 without them"};
    nr_report_table *t = nr_report_table_new(sec, "Waits for the next batch per phase (niorep_hook.batches): the "
                                             "time the loop spent in next() on its data loader", 12, heads, 0xFFEu);
    for (size_t i = 0; i < nr_model_phase_count(m); i++) {
        const nr_model_phase *p = nr_model_phase_at(m, i);
        const nr_model_waits *w = &p->waits;
        if (!nr_model_waits_listed(p))
            continue;
        nr_report_table_row(t);
        nr_report_table_cell(t, p->name);
        wait_cell(t, C(w->count), i, "count", (double)w->count);
        wait_cell(t, C(w->threads), i, "threads", (double)w->threads);
        wait_cell(t, S(w->seconds), i, "seconds", w->seconds);
        wait_cell(t, P(w->share), i, "share", w->share);
        wait_cell(t, S(ns_to_s(w->p50_ns)), i, "p50_s", ns_to_s(w->p50_ns));
        wait_cell(t, S(ns_to_s(w->p99_ns)), i, "p99_s", ns_to_s(w->p99_ns));
        wait_cell(t, S(ns_to_s(w->max_ns)), i, "max_s", ns_to_s(w->max_ns));
        wait_cell(t, C(w->passes), i, "passes", (double)w->passes);
        wait_cell(t, S(w->start_seconds), i, "start_seconds", w->start_seconds);
        wait_cell(t, P(w->steady_share), i, "steady_share", w->steady_share);
        wait_cell(t, S(ns_to_s(w->steady_p99_ns)), i, "steady_p99_s", ns_to_s(w->steady_p99_ns));
    }
    size_t rest;
    double rest_s;
    nr_model_waits_unlisted(m, &rest, &rest_s);
    if (rest) {
        char note[160], secs[32];
        snprintf(note, sizeof note, "%zu more %s waited %s in all: niorep summary --json lists every phase.", rest,
                 nr_cli_noun(rest, "phase", "phases"), nr_report_fmt_seconds(rest_s, secs, sizeof secs));
        nr_report_para(sec, "note", note);
    }
    nr_report_para(sec, "note", "Share of the phase: the time waiting over the phase's wall time per waiting "
                                "thread. Passes: the loops over the loader; the first batch of each waits for the "
                                "loader's start as well (DataLoader workers started, their queues filled): first "
                                "batches is that time, above 10% of train finding loader_start; the share without "
                                "them above 30% in train means the loop is data-bound (finding batch_wait), and "
                                "their p99 is the steady state's (the p99 of every wait is the start's when a phase "
                                "has fewer than 100 waits). The table lists the 16 phases with the most time "
                                "waiting, with exact p50 and p99.");
}

/* Phase p's rows of the table per phase and operation class, named name. */
static void add_op_class_rows(nr_report_table *o, const nr_model_phase *p, const char *name)
{
    static const char *const op_names[NR_OP_CLASS_COUNT] = {"read", "write", "open/close", "metadata", "sync", "other"};
    char buf[64];
    for (int op = 0; op < NR_OP_CLASS_COUNT; op++) {
        if (p->ops[op].calls == 0)
            continue;
        nr_report_table_row(o);
        nr_report_table_cell(o, name);
        nr_report_table_cell(o, op_names[op]);
        nr_report_table_cell(o, C(p->ops[op].calls));
        nr_report_table_cell(o, B(p->ops[op].bytes));
        nr_report_table_cell(o, S(ns_to_s(p->ops[op].time_ns)));
    }
}

static int fill_phases(nr_report *rep, nr_report_block *sec, const nr_run *run, size_t ri,
                       nr_fill_figure_fn figure, void *ctx, nr_error *err)
{
    const nr_model *m = run->model;
    char buf[64];
    nr_report_block *pair = nr_report_pair(sec);
    static const char cap1[] = "Bytes moved and time in I/O calls per phase, summed over every process; the Python "
                               "runtime's files apart";
    char label[FIG_LABEL_MAX];
    NR_TRY(figure(ctx, rep, pair, ri, 1, cap1, figure_label(cap1, run->name, 1, m, label, sizeof label), err));
    static const char *const heads[] = {"phase", "instances", "wall time", "main process in I/O", "bytes read",
                                        "bytes written", "I/O time (all)", "processes in I/O", "processes with I/O"};
    nr_report_block *numbers = nr_report_pair_numbers(pair);
    /* figure 1 draws the runtime's files apart: said, with their sums */
    nr_report_table *t = nr_report_table_new(numbers, "Per phase (regular files, the Python runtime's included: figure 1 "
                                             "draws those apart, last row)", 9, heads, 0x1FEu);
    uint64_t rt_read = 0, rt_written = 0;
    double rt_time = 0;
    const int durations = nr_model_get_fidelity(m)->durations_available;
    for (size_t i = 0; i < nr_model_phase_count(m); i++) {
        const nr_model_phase *p = nr_model_phase_at(m, i);
        char key[96], inst[160];
        rt_read += p->runtime_bytes_read;
        rt_written += p->runtime_bytes_written;
        rt_time += p->runtime_io_time_s;
        if (!nr_model_phase_listed(m, i))
            continue;
        nr_report_table_row(t);
        nr_report_table_cell(t, p->name);
        /* said where the phase is: it ran to the end of the trace, or its block raised */
        nr_report_table_cell(t, phase_instances(p, inst, sizeof inst));
        nr_report_table_cell(t, S(p->wall_s));
        snprintf(key, sizeof key, "phases.%zu.main_io_share", i);
        nr_report_table_cell_key(t, P(p->main_io_share), key, p->main_io_share);
        snprintf(key, sizeof key, "phases.%zu.bytes_read", i);
        nr_report_table_cell_key(t, B(p->ops[NR_OP_READ].bytes), key, (double)p->ops[NR_OP_READ].bytes);
        snprintf(key, sizeof key, "phases.%zu.bytes_written", i);
        nr_report_table_cell_key(t, B(p->ops[NR_OP_WRITE].bytes), key, (double)p->ops[NR_OP_WRITE].bytes);
        snprintf(key, sizeof key, "phases.%zu.io_time_s", i);
        /* without -T no call has a duration: not "0 s" */
        nr_report_table_cell_key(t, S(durations ? p->io_time_s : NAN), key, p->io_time_s);
        snprintf(key, sizeof key, "phases.%zu.io_share", i);
        nr_report_table_cell_key(t, R(p->io_share), key, p->io_share);
        nr_report_table_cell(t, C(p->processes_with_io));
    }
    char other[64];
    const nr_model_phase *rest = unlisted_phases(m, other, sizeof other);
    if (rest) { /* sums where they add: times of phases that overlap do not */
        char inst[160];
        nr_report_table_row(t);
        nr_report_table_cell(t, other);
        nr_report_table_cell(t, phase_instances(rest, inst, sizeof inst));
        nr_report_table_cell(t, "");
        nr_report_table_cell(t, "");
        nr_report_table_cell(t, B(rest->ops[NR_OP_READ].bytes));
        nr_report_table_cell(t, B(rest->ops[NR_OP_WRITE].bytes));
        nr_report_table_cell(t, S(durations ? rest->io_time_s : NAN));
        nr_report_table_cell(t, "");
        nr_report_table_cell(t, "");
    }
    nr_report_table_row(t);
    nr_report_table_cell(t, "of these: Python runtime files");
    nr_report_table_cell(t, "");
    nr_report_table_cell(t, "");
    nr_report_table_cell(t, "");
    nr_report_table_cell(t, B(rt_read));
    nr_report_table_cell(t, B(rt_written));
    nr_report_table_cell(t, S(durations ? rt_time : NAN));
    nr_report_table_cell(t, "");
    nr_report_table_cell(t, "");
    nr_report_para(numbers, "note", phase_columns_note);
    if (nr_model_get_fidelity(m)->whole_second_stamps)
        nr_report_para(numbers, "unavailable", whole_seconds_note);
    static const char *const oheads[] = {"phase", "op class", "calls", "bytes", "time"};
    nr_report_table *o = nr_report_table_new(sec, "Per phase and operation class", 5, oheads, 0x1Cu);
    for (size_t i = 0; i < nr_model_phase_count(m); i++)
        if (nr_model_phase_listed(m, i))
            add_op_class_rows(o, nr_model_phase_at(m, i), nr_model_phase_at(m, i)->name);
    if (rest)
        add_op_class_rows(o, rest, other);
    add_unlisted_note(sec, m);
    add_waits_table(sec, m);
    add_mapped_table(sec, m);
    add_fs_bytes_table(sec, m);
    return 0;
}

static int cmp_desc_bytes(const void *a, const void *b, void *files)
{
    const double *v = files;
    double x = v[*(const size_t *)a], y = v[*(const size_t *)b];
    if (x != y)
        return x < y ? 1 : -1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static const char *const measure_heads[] = {"measure", "value"};

/* "share of bytes from the top 10% of files, rounded up: 3 of 22 (13.6%)":
 * the top pct% counts ceil(pct n / 100) whole files, which for few files is
 * more than pct% of them; said with the count, as the share is of it. */
static const char *top_label(const nr_concentration *c, unsigned pct, char *out, size_t cap)
{
    const size_t k = nr_concentration_top_count(c->n, pct);
    if (c->n == 0 || k * 100 == (size_t)pct * c->n) {
        snprintf(out, cap, "share of bytes from the top %u%% of files", pct);
        return out;
    }
    char kn[32], n[32], share[32];
    snprintf(out, cap, "share of bytes from the top %u%% of files, rounded up: %s of %s (%s)", pct,
             nr_report_fmt_count((double)k, kn, sizeof kn), nr_report_fmt_count((double)c->n, n, sizeof n),
             nr_report_fmt_percent((double)k / (double)c->n, share, sizeof share));
    return out;
}

/* The Lorenz figure beside the concentration measures. */
static int add_lorenz_pair(nr_report *rep, nr_report_block *sec, const nr_model *m, const char *name, size_t ri,
                           nr_fill_figure_fn figure, void *ctx, nr_error *err)
{
    char buf[64];
    const nr_concentration *c = nr_model_concentration(m, NR_CONC_TOTAL);
    nr_report_block *pair = nr_report_pair(sec);
    static const char cap2[] = "Lorenz curve of the job files' bytes (the top 10% of files, rounded up to whole files, marked)";
    char label[FIG_LABEL_MAX];
    NR_TRY(figure(ctx, rep, pair, ri, 2, cap2, figure_label(cap2, name, 2, m, label, sizeof label), err));
    nr_report_table *t =
        nr_report_table_new(nr_report_pair_numbers(pair), "Concentration of the job files' bytes", 2, measure_heads, 2);
    kv_row(t, "job files with bytes", C(c->n), "concentration.files", (double)c->n);
    kv_row(t, "their bytes", B(c->total), "concentration.total_bytes", c->total);
    kv_row(t, "Gini coefficient", R(c->gini), "concentration.gini", c->gini);
    kv_row(t, top_label(c, 1, label, sizeof label), P(c->top1_share), "concentration.top1_share", c->top1_share);
    kv_row(t, top_label(c, 10, label, sizeof label), P(c->top10_share), "concentration.top10_share", c->top10_share);
    kv_row(t, top_label(c, 20, label, sizeof label), P(c->top20_share), "concentration.top20_share", c->top20_share);
    kv_row(t, "fewest files holding 50% of bytes", P(c->files_for_50), "concentration.files_for_50", c->files_for_50);
    kv_row(t, "fewest files holding 90% of bytes", P(c->files_for_90), "concentration.files_for_90", c->files_for_90);
    kv_row(t, "fewest files holding 99% of bytes", P(c->files_for_99), "concentration.files_for_99", c->files_for_99);
    return 0;
}

/* What the lognormal comparison adds to a plausible power law: CSN's
 * advice (docs/statistics.md) is to say "power law" only when R > 0 with
 * a small p(R). Empty for R = 0, p = 1, which has a note of its own. */
static const char *lognormal_clause(const nr_powerlaw_fit *pl, char *out, size_t cap)
{
    char r[32], p[32];
    nr_report_fmt_real(pl->vs_lognormal_R, r, sizeof r);
    nr_report_fmt_real(pl->vs_lognormal_p, p, sizeof p);
    if (!isfinite(pl->vs_lognormal_R) || (pl->vs_lognormal_R == 0 && pl->vs_lognormal_p == 1))
        snprintf(out, cap, ".");
    else if (pl->vs_lognormal_p < NR_POWERLAW_PLAUSIBLE_P)
        snprintf(out, cap, pl->vs_lognormal_R > 0 ? ", and it fits the tail better than a lognormal (R = %s, p = %s)."
                                                  : ", but a lognormal fits the tail better (R = %s, p = %s).",
                 r, p);
    else
        snprintf(out, cap, ", but a lognormal fits the tail as well (R = %s, p = %s): the files cannot tell "
                           "the two apart.", r, p);
    return out;
}

/* The fit's plausibility in words, beside its table: rejected (p <= 0.1,
 * Clauset-Shalizi-Newman's rule), plausible, or not tested. */
static const char *plausibility_text(const nr_powerlaw_fit *pl, char *out, size_t cap)
{
    char p[32], clause[256];
    nr_report_fmt_real(pl->p_value, p, sizeof p);
    if (isnan(pl->p_value))
        snprintf(out, cap, "Goodness of fit not tested (--bootstraps 0): whether a power law describes these "
                           "files at all is unknown, so alpha is a fit, not a finding.");
    else if (nr_powerlaw_rejected(pl))
        snprintf(out, cap, "The power law is rejected: p = %.2f, at most 0.1 (Clauset, Shalizi and Newman's rule): "
                           "samples drawn from the fitted power law stray as far from it as these files do in at most one "
                           "draw in ten. "
                           "alpha describes no power law here, and figure 3 draws no fit line.", pl->p_value);
    else
        snprintf(out, cap, "A power law is plausible (p = %s, above 0.1)%s", p,
                 lognormal_clause(pl, clause, sizeof clause));
    return out;
}

/* The CCDF figure beside the power-law fit. */
static int add_powerlaw_pair(nr_report *rep, nr_report_block *sec, const nr_model *m, const char *name, size_t ri,
                             nr_fill_figure_fn figure, void *ctx, nr_error *err)
{
    char buf[64];
    const nr_powerlaw_fit *pl = nr_model_powerlaw(m, NR_PL_BYTES);
    nr_report_block *pair = nr_report_pair(sec);
    const char *cap3 =
        !pl->valid ? "CCDF of the job files' bytes (log-log); no power law fitted (too few files or values)"
        : nr_powerlaw_rejected(pl)
            ? "CCDF of the job files' bytes (log-log); the power law fitted from xmin is rejected (p \xe2\x89\xa4 0.1): no line"
            : "CCDF of the job files' bytes (log-log) with the fitted power law from xmin";
    char label[FIG_LABEL_MAX];
    NR_TRY(figure(ctx, rep, pair, ri, 3, cap3, figure_label(cap3, name, 3, m, label, sizeof label), err));
    nr_report_table *t = nr_report_table_new(nr_report_pair_numbers(pair),
                                             "Power-law tail fit (Clauset-Shalizi-Newman 2009, discrete)", 2, measure_heads, 2);
    if (!pl->valid) {
        kv_row(t, "fit", "not made: too few files or distinct values", NULL, 0);
    } else {
        char two[128], b1[64], b2[64];
        snprintf(two, sizeof two, "%s \xC2\xB1 %s", nr_report_fmt_real(pl->alpha, b1, sizeof b1),
                 nr_report_fmt_real(pl->alpha_se, b2, sizeof b2));
        kv_row(t, "exponent alpha \xC2\xB1 s.e.", two, "powerlaw.alpha", pl->alpha);
        kv_row(t, "xmin", B(pl->xmin), "powerlaw.xmin", pl->xmin);
        snprintf(two, sizeof two, "%s of %s", nr_report_fmt_count((double)pl->n_tail, b1, sizeof b1),
                 nr_report_fmt_count((double)pl->n, b2, sizeof b2));
        kv_row(t, "files in the tail", two, "powerlaw.n_tail", (double)pl->n_tail);
        kv_row(t, "KS distance", R(pl->ks_d), "powerlaw.ks_d", pl->ks_d);
        kv_row(t, "goodness of fit p (bootstrap)", R(pl->p_value), "powerlaw.p_value", pl->p_value);
        kv_row(t, "vs lognormal R (> 0 favours power law)", R(pl->vs_lognormal_R), "powerlaw.vs_lognormal_R", pl->vs_lognormal_R);
        kv_row(t, "vs lognormal p", R(pl->vs_lognormal_p), "powerlaw.vs_lognormal_p", pl->vs_lognormal_p);
        char text[640];
        nr_report_para(nr_report_pair_numbers(pair), "note", plausibility_text(pl, text, sizeof text));
        if (pl->vs_lognormal_R == 0 && pl->vs_lognormal_p == 1) /* docs/statistics.md, "Same model" */
            nr_report_para(nr_report_pair_numbers(pair), "note",
                           "R = 0, p = 1: the best lognormal on this tail is the power law itself, so the "
                           "two cannot be told apart.");
    }
    return 0;
}

/* The NR_FILL_TOP_FILES files with the most bytes. */
static int add_top_files(nr_report_block *sec, const nr_model *m, nr_error *err)
{
    char buf[64];
    const nr_model_files *f = nr_model_get_files(m);
    if (f->n == 0)
        return 0;
    size_t *order = malloc(f->n * sizeof *order);
    if (!order)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    for (size_t i = 0; i < f->n; i++)
        order[i] = i;
    qsort_r(order, f->n, sizeof *order, cmp_desc_bytes, (void *)f->bytes_total);
    static const char *const fheads[] = {"file", "bytes read", "bytes written", "share of bytes", "read+write calls"};
    _Static_assert(NR_FILL_TOP_FILES == 10, "the table's title names the count");
    nr_report_table *ft = nr_report_table_new(sec, "Top job files by bytes (at most 10)", 5, fheads, 0x1Eu);
    const double total = f->bytes_total_sum;
    for (size_t k = 0; k < f->n && k < NR_FILL_TOP_FILES && f->bytes_total[order[k]] > 0; k++) {
        size_t i = order[k];
        nr_report_table_row(ft);
        nr_report_table_cell_path(ft, f->paths[i]);
        nr_report_table_cell(ft, B(f->bytes_read[i]));
        nr_report_table_cell(ft, B(f->bytes_written[i]));
        nr_report_table_cell(ft, P(share(f->bytes_total[i], total)));
        nr_report_table_cell(ft, C(f->accesses[i]));
    }
    free(order);
    return 0;
}

/* What the per-file numbers leave out: the runtime's files (file_role.h). */
static void runtime_note(nr_report_block *sec, const nr_model *m)
{
    const nr_model_runtime *r = nr_model_runtime_files(m);
    if (r->files == 0)
        return;
    char text[512], b1[64], b2[64], b3[64];
    snprintf(text, sizeof text,
             "Per-file numbers cover the job's own files. The %s runtime files it read or wrote "
             "(Python modules, shared libraries, system files, shared memory, Python's probes of the "
             "temporary folder: %s read, %s written) are left out here "
             "and from the access pattern, and counted everywhere else (docs/definitions.md, \"Job files and runtime files\").",
             nr_report_fmt_count((double)r->files, b1, sizeof b1), nr_report_fmt_bytes((double)r->bytes_read, b2, sizeof b2),
             nr_report_fmt_bytes((double)r->bytes_written, b3, sizeof b3));
    nr_report_para(sec, "note", text);
}

static int fill_concentration(nr_report *rep, nr_report_block *sec, const nr_run *run, size_t ri,
                              nr_fill_figure_fn figure, void *ctx, nr_error *err)
{
    runtime_note(sec, run->model);
    NR_TRY(add_lorenz_pair(rep, sec, run->model, run->name, ri, figure, ctx, err));
    NR_TRY(add_powerlaw_pair(rep, sec, run->model, run->name, ri, figure, ctx, err));
    return add_top_files(sec, run->model, err);
}

static void latency_row(nr_report_table *t, const char *name, const nr_model_latency *lat, const char *key_prefix)
{
    char buf[64], key[128];
    nr_report_table_row(t);
    nr_report_table_cell(t, name);
    nr_report_table_cell(t, C(lat->count));
    for (int q = 0; q < NR_MODEL_NQ; q++) {
        double v = lat->count ? ns_to_s(lat->q_ns[q]) : NAN;
        if (key_prefix) {
            snprintf(key, sizeof key, "%s.%s", key_prefix, lat_keys[q]);
            nr_report_table_cell_key(t, S(v), key, v);
        } else {
            nr_report_table_cell(t, S(v));
        }
    }
    nr_report_table_cell(t, S(lat->mean_s));
}

static nr_report_table *latency_table(nr_report_block *b, const char *caption, const char *first)
{
    const char *heads[3 + NR_MODEL_NQ] = {first, "calls"};
    for (int q = 0; q < NR_MODEL_NQ; q++)
        heads[2 + q] = lat_heads[q];
    heads[2 + NR_MODEL_NQ] = "mean";
    return nr_report_table_new(b, caption, 3 + NR_MODEL_NQ, heads, ~1u);
}

/* The write bursts, from the start of the run, each named by the phase its
 * writes fell in (a burst is any intense writing: a checkpoint's, or a
 * data_prep's output). */
static void add_bursts_table(nr_report_block *sec, const nr_model *m, const nr_model_timeline *tl)
{
    const size_t nb = nr_model_burst_count(m);
    if (nb == 0) {
        nr_report_para(sec, "note", "No write burst detected (docs/definitions.md, \"Write bursts\").");
        return;
    }
    char buf[64];
    static const char *const bheads[] = {"burst", "phase", "start", "duration", "bytes written", "calls",
                                         "rate", "since previous"};
    const uint64_t all = nr_model_get_burst_totals(m)->count;
    if (all > nb) {
        char note[256];
        snprintf(note, sizeof note,
                 "The %zu largest of %llu bursts, in start order; since previous is to the previous one listed. "
                 "The counts and sums above are over all of them.",
                 nb, (unsigned long long)all);
        nr_report_para(sec, "note", note);
    }
    nr_report_table *bt = nr_report_table_new(
        sec, "Write bursts, measured from their calls: start from the beginning of the run, duration from the "
             "first call's start to the last call's end, rate = bytes / duration",
        8, bheads, 0xFCu);
    for (size_t i = 0; i < nb; i++) {
        const nr_model_burst *b = nr_model_burst_at(m, i);
        char key[64];
        nr_report_table_row(bt);
        nr_report_table_cell(bt, C(i + 1));
        nr_report_table_cell(bt, nr_model_phase_at(m, b->phase)->name);
        nr_report_table_cell(bt, S((double)(b->start_ns - tl->start_ns) * 1e-9));
        nr_report_table_cell(bt, S(b->duration_s));
        snprintf(key, sizeof key, "bursts.%zu.bytes", i);
        nr_report_table_cell_key(bt, B(b->bytes), key, (double)b->bytes);
        nr_report_table_cell(bt, C(b->calls));
        nr_report_table_cell(bt, RATE(b->mean_rate));
        nr_report_table_cell(bt, S(b->interval_s));
    }
}

/* At most this many marks in the report, and bytes of a mark's attrs (the
 * job writes them: a list would fill the page); summary --json gives them whole. */
#define REPORT_MARKS 20
#define REPORT_MARK_ATTRS 200

/* The hook's marks (epochs with their loss), on the timeline's clock. */
static void add_marks_table(nr_report_block *sec, const nr_model *m, const nr_model_timeline *tl)
{
    const nr_model_marks *mk = nr_model_get_marks(m);
    if (mk->total == 0)
        return;
    char buf[64], pid[32];
    static const char *const heads[] = {"mark", "at", "phase", "process", "attributes"};
    nr_report_table *t = nr_report_table_new(sec, "Marks from the hook (niorep_hook.mark), from the beginning of the run",
                                             5, heads, 0x2u);
    const size_t shown = mk->n < REPORT_MARKS ? mk->n : REPORT_MARKS;
    for (size_t i = 0; i < shown; i++) {
        const nr_model_mark *k = &mk->v[i];
        nr_report_table_row(t);
        nr_report_table_cell(t, k->name);
        nr_report_table_cell(t, S((double)(k->ts_ns - tl->start_ns) * 1e-9));
        nr_report_table_cell(t, k->phase);
        snprintf(pid, sizeof pid, "%" PRId64, k->pid);
        nr_report_table_cell(t, pid);
        char attrs[REPORT_MARK_ATTRS + 4];
        const size_t len = strlen(k->attrs);
        snprintf(attrs, sizeof attrs, "%.*s%s", REPORT_MARK_ATTRS, k->attrs, len > REPORT_MARK_ATTRS ? "..." : "");
        nr_report_table_cell_path(t, attrs);
    }
    if (shown < mk->total) {
        char note[160];
        snprintf(note, sizeof note, "%" PRIu64 " more marks: niorep summary --json lists the first %d.",
                 mk->total - shown, NR_MODEL_MAX_MARKS);
        nr_report_para(sec, "note", note);
    }
}

/* Why no cache-hit/miss split is shown: too few reads, or none found by a
 * test that looks only for modes of NR_CACHE_SPLIT_MIN_MODE_SHARE of reads
 * or more. Never "unimodal": a slow mode of 1-2% of reads, which sets the
 * p99, passes the test unseen. */
static const char *no_split_text(uint64_t reads, char *out, size_t cap)
{
    char n[32], least[32], share[32];
    nr_report_fmt_count((double)reads, n, sizeof n);
    nr_report_fmt_count(NR_CACHE_SPLIT_MIN_READS, least, sizeof least);
    nr_report_fmt_percent(NR_CACHE_SPLIT_MIN_MODE_SHARE, share, sizeof share);
    if (reads < NR_CACHE_SPLIT_MIN_READS)
        snprintf(out, cap, "Too few reads (%s, fewer than %s) to look for a cache-hit/miss split.", n, least);
    else
        snprintf(out, cap,
                 "No cache-hit/miss split found. The test looks for two modes of at least %s of reads each: a "
                 "slower mode of fewer reads is not tested for, and can still set the p99 (the CCDF of figure 4 "
                 "shows the tail).",
                 share);
    return out;
}

/* The rows of a per-phase latency table: the listed phases with reads
 * (nr_model_phase_listed), and a word under it on the others'. Their
 * quantiles do not add up to one row's: summary --json has each. */
static void add_phase_latency_rows(nr_report_block *sec, nr_report_table *t, const nr_model *m,
                                   const nr_model_latency *(*of_phase)(const nr_model *, int, size_t))
{
    size_t unlisted = 0;
    uint64_t reads = 0;
    for (size_t i = 0; i < nr_model_phase_count(m); i++) {
        const nr_model_latency *lat = of_phase(m, NR_LAT_READ, i);
        if (!lat || !lat->count)
            continue;
        if (nr_model_phase_listed(m, i)) {
            latency_row(t, nr_model_phase_at(m, i)->name, lat, NULL);
        } else {
            unlisted++;
            reads += lat->count;
        }
    }
    if (unlisted) {
        char note[256], phases[64], calls[64];
        snprintf(note, sizeof note, "%s more %s with %s %s, not listed (see Phase breakdown): niorep summary --json "
                 "gives every phase's quantiles.", nr_report_fmt_count((double)unlisted, phases, sizeof phases),
                 nr_cli_noun(unlisted, "phase", "phases"), nr_report_fmt_count((double)reads, calls, sizeof calls),
                 nr_cli_noun(reads, "read", "reads"));
        nr_report_para(sec, "note", note);
    }
}

static int fill_latency(nr_report *rep, nr_report_block *sec, const nr_run *run, size_t ri,
                        nr_fill_figure_fn figure, void *ctx, nr_error *err)
{
    const nr_model *m = run->model;
    if (!nr_model_get_fidelity(m)->durations_available) {
        nr_report_para(sec, "unavailable", "Latency unavailable: the trace lacks -T.");
        return 0;
    }
    nr_report_block *pair = nr_report_pair(sec);
    static const char cap4[] = "Read latency of the job files (the Python runtime's left out): CDF (log x) and CCDF "
                               "tail (log-log), all phases and per phase";
    /* figure 4 folds as figure 1 (nr_figin_latency_folds); the folded
       series' percentiles are exact, as every series' (until session 55
       read off its histogram, and the caption gave their bound, 12.2%) */
    static const char cap4_folded[] = "Read latency of the job files (the Python runtime's left out): CDF (log x) and "
                                      "CCDF tail (log-log), all phases, the phases of figure 1 and its other phases as "
                                      "one in grey (the table below has every phase's)";
    const int folds = nr_figin_latency_folds(m);
    const char *c4 = folds ? cap4_folded : cap4;
    char label[FIG_LABEL_MAX];
    NR_TRY(figure(ctx, rep, pair, ri, 4, c4, figure_label(c4, run->name, 4, m, label, sizeof label), err));
    nr_report_table *t = latency_table(nr_report_pair_numbers(pair),
                                       "Latency per operation class (exact order statistics; every regular file, the "
                                       "runtime's included, and for sync also directories and no file; the "
                                       "first row is figure 4's)",
                                       "operation");
    latency_row(t, "read, job files", nr_model_latency_job(m, NR_LAT_READ), NULL);
    for (int op = 0; op < NR_LAT_OP_COUNT; op++) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "latency.%s", nr_lat_op_name(op));
        /* the open class holds close, dup, pipe and socket calls too
           (docs/definitions.md): named as the phase table names it */
        latency_row(t, op == NR_LAT_OPEN ? "open/close" : nr_lat_op_name(op), nr_model_latency_all(m, op), prefix);
    }
    t = latency_table(sec,
                      folds ? "Read latency of the job files per phase (every phase: figure 4 draws the phases of "
                              "figure 1 and the others as one, the last row)"
                            : "Read latency of the job files per phase (figure 4's series)",
                      "phase");
    add_phase_latency_rows(sec, t, m, nr_model_latency_job_phase);
    if (folds && nr_model_latency_job_folded(m)->count) { /* figure 4's grey series, last */
        const size_t *kept;
        char other[64];
        snprintf(other, sizeof other, "other %zu phases (figure 4)", nr_model_phase_count(m) - nr_model_phase_kept(m, &kept));
        latency_row(t, other, nr_model_latency_job_folded(m), NULL);
    }
    t = latency_table(sec, "Read latency per phase, every regular file (the runtime's included)", "phase");
    add_phase_latency_rows(sec, t, m, nr_model_latency_phase);
    t = latency_table(sec, "Read latency per file system (mount point; every regular file)", "file system");
    for (size_t i = 0; i < nr_model_fs_count(m); i++) {
        const nr_model_latency *lat = nr_model_latency_fs(m, NR_LAT_READ, i);
        if (lat && lat->count)
            latency_row(t, nr_model_fs_name(m, i), lat, NULL);
    }
    const nr_cache_split *cs = nr_model_cache_split(m);
    if (cs && cs->found) {
        char text[512], b1[64], b2[64], b3[64];
        int n = snprintf(text, sizeof text, "Reads split into two modes at %s (%s): %s of reads are %s, carrying %s of bytes read.",
                         nr_report_fmt_seconds((double)cs->threshold_ns * 1e-9, b1, sizeof b1),
                         cs->method ? cs->method : "valley", nr_report_fmt_percent(cs->slow_share, b2, sizeof b2),
                         cs->misses_plausible ? "slow (page-cache misses, likely)" : "in the slower mode",
                         nr_report_fmt_percent(cs->slow_bytes_share, b3, sizeof b3));
        if (!cs->misses_plausible && n > 0 && (size_t)n < sizeof text)
            snprintf(text + n, sizeof text - (size_t)n,
                     " The split lies below %s, faster than any storage device answers: both modes are page-cache "
                     "hits (reads of different sizes, likely), not hits and misses.",
                     nr_report_fmt_seconds(NR_CACHE_MISS_MIN_NS * 1e-9, b1, sizeof b1));
        nr_report_para(sec, NULL, text);
    } else {
        char text[512];
        nr_report_para(sec, "note", no_split_text(nr_model_latency_all(m, NR_LAT_READ)->count, text, sizeof text));
    }
    return 0;
}

static int fill_timeline(nr_report *rep, nr_report_block *sec, const nr_run *run, size_t ri,
                         nr_fill_figure_fn figure, void *ctx, nr_error *err)
{
    const nr_model *m = run->model;
    char buf[64];
    if (!nr_model_get_fidelity(m)->timestamps_available) {
        nr_report_para(sec, "unavailable", "Timeline unavailable: the trace has no timestamps.");
        return 0;
    }
    if (!nr_model_get_fidelity(m)->times_reliable) {
        nr_report_para(sec, "unavailable", TIMES_UNRELIABLE);
        return 0;
    }
    const nr_model_timeline *tl = nr_model_get_timeline(m);
    if (nr_model_get_fidelity(m)->whole_second_stamps)
        nr_report_para(sec, "note",
                       "The trace's timestamps resolve only to whole seconds (strace -t): the bins are whole "
                       "seconds, and the write bursts have no duration and no rate; trace with -tt or -ttt.");
    /* The timeline is full width: figure above, numbers below. */
    static const char cap5[] = "Read and write throughput of the job files over time (the Python runtime's left out), "
                               "phases coloured, write bursts shaded";
    char label[FIG_LABEL_MAX];
    NR_TRY(figure(ctx, rep, sec, ri, 5, cap5, figure_label(cap5, run->name, 5, m, label, sizeof label), err));
    static const char *const heads[] = {"measure", "value"};
    nr_report_table *t = nr_report_table_new(sec, "Timeline", 2, heads, 2);
    double bin_s = (double)tl->width_ns * 1e-9, peak_r = 0, peak_w = 0;
    for (size_t i = 0; i < tl->nbins && bin_s > 0; i++) {
        peak_r = fmax(peak_r, (double)tl->job_read[i] / bin_s);
        peak_w = fmax(peak_w, (double)tl->job_write[i] / bin_s);
    }
    /* the bins' peaks are the figure's, and the width follows the run's
       length (checkpoints of similar size peak at 17.8 MiB/s in diffusion's
       20 ms bins, 8.66 in language's 50 ms ones): the labels name the
       width, and the bursts' rates from their calls stand beside them */
    char width[32], rlabel[96], wlabel[96];
    nr_report_fmt_seconds(bin_s, width, sizeof width);
    snprintf(rlabel, sizeof rlabel, "peak read rate of the job files (busiest %s bin)", width);
    snprintf(wlabel, sizeof wlabel, "peak write rate of the job files (busiest %s bin)", width);
    const nr_model_burst_totals *bursts = nr_model_get_burst_totals(m);
    kv_row(t, "bin width", S(bin_s), NULL, 0);
    kv_row(t, "bins", C(tl->nbins), NULL, 0);
    kv_row(t, rlabel, RATE(peak_r), NULL, 0);
    kv_row(t, wlabel, RATE(peak_w), NULL, 0);
    kv_row(t, "write bursts", C(bursts->count), "burst_totals.count", (double)bursts->count);
    kv_row(t, "highest write-burst rate (bytes / duration of its calls)", RATE(bursts->highest_rate), NULL, 0);
    kv_row(t, "marks (niorep_hook.mark)", C(nr_model_get_marks(m)->total), "marks.count",
           (double)nr_model_get_marks(m)->total);
    add_bursts_table(sec, m, tl);
    add_marks_table(sec, m, tl);
    return 0;
}

/* A cell of the common-sizes table: text, keyed access.common_sizes.list.K.FIELD. */
static void common_size_cell(nr_report_table *t, const char *text, size_t k, const char *field, double raw)
{
    char key[96];
    snprintf(key, sizeof key, "access.common_sizes.list.%zu.%s", k, field);
    nr_report_table_cell_key(t, text, key, raw);
}

/* Darshan's most common access sizes, each with its exact calls. */
static void add_common_sizes_table(nr_report_block *numbers, const nr_model_common_sizes *c)
{
    char buf[64], caption[192];
    static const char *const heads[] = {"access size (bytes)", "calls", "reads", "writes"};
    if (c->exact)
        snprintf(caption, sizeof caption, "Most common access sizes (Darshan), of %" PRIu64 " sized requests", c->calls);
    else
        snprintf(caption, sizeof caption,
                 "Most common access sizes (Darshan), of %" PRIu64 " sized requests; not exact: a size not listed "
                 "may have up to %" PRIu64 " calls", c->calls, c->unlisted_at_most);
    nr_report_table *t = nr_report_table_new(numbers, caption, 4, heads, 0xFu);
    for (size_t k = 0; k < c->n; k++) {
        const nr_model_common_size *s = &c->top[k];
        nr_report_table_row(t);
        common_size_cell(t, C(s->bytes), k, "bytes", (double)s->bytes);
        common_size_cell(t, C(nr_common_size_calls(s)), k, "calls", (double)nr_common_size_calls(s));
        common_size_cell(t, C(s->reads), k, "reads", (double)s->reads);
        common_size_cell(t, C(s->writes), k, "writes", (double)s->writes);
    }
    if (c->n == 0) {
        nr_report_table_row(t);
        nr_report_table_cell(t, "none");
        for (int col = 0; col < 3; col++)
            nr_report_table_cell(t, "");
    }
}

/* The request-size figure beside the requests per size bin. */
static int add_reqsize_pair(nr_report *rep, nr_report_block *sec, const nr_model *m, const char *name, size_t ri,
                            nr_fill_figure_fn figure, void *ctx, nr_error *err)
{
    char buf[64];
    const nr_model_access *a = nr_model_get_access(m);
    nr_report_block *pair = nr_report_pair(sec);
    static const char cap6[] = "Request-size histogram of the job files (Darshan bins; end-of-file reads, 0 B, left "
                               "out)";
    char label[FIG_LABEL_MAX];
    NR_TRY(figure(ctx, rep, pair, ri, 6, cap6, figure_label(cap6, name, 6, m, label, sizeof label), err));
    static const char *const heads[] = {"request size (bytes)", "reads", "writes"};
    nr_report_table *t = nr_report_table_new(nr_report_pair_numbers(pair), "Requests per size bin", 3, heads, 6);
    for (int b = 0; b < NR_SIZE_BINS; b++) {
        nr_report_table_row(t);
        nr_report_table_cell(t, nr_size_bin_names[b]);
        nr_report_table_cell(t, C(a->size_hist[0][b]));
        nr_report_table_cell(t, C(a->size_hist[1][b]));
    }
    nr_report_table_row(t);
    nr_report_table_cell(t, "end of file (0 B returned; in no bin)");
    nr_report_table_cell_key(t, C(a->eof_reads), "access.read.eof_reads", (double)a->eof_reads);
    nr_report_table_cell(t, "");
    add_common_sizes_table(nr_report_pair_numbers(pair), &a->common_sizes);
    return 0;
}

/* A cell of the files-by-use table: text, keyed access.files_by_use.USE.FIELD. */
static void file_use_cell(nr_report_table *t, const char *text, int use, const char *field, double raw)
{
    char key[96];
    snprintf(key, sizeof key, "access.files_by_use.%s.%s", nr_file_use_name(use), field);
    nr_report_table_cell_key(t, text, key, raw);
}

/* The job files by the bytes they moved, with what they moved and their
 * sizes (the furthest offset reached). */
static void add_file_use_table(nr_report_block *sec, const nr_model_access *a)
{
    char buf[64];
    static const char *const heads[] = {"files",         "count",     "bytes read",  "bytes written",
                                        "with a size",   "mean size", "largest size"};
    static const char *const names[NR_USE_COUNT] = {"read only", "written only", "read and written",
                                                    "no bytes (opened, looked up or read at their end only)"};
    nr_report_table *t = nr_report_table_new(sec,
                                             "The job files by the bytes they moved (Darshan's file count "
                                             "summary, by bytes rather than calls), and their sizes (the "
                                             "furthest offset their reads and writes reached)",
                                             7, heads, 0x7Eu);
    for (int u = 0; u < NR_USE_COUNT; u++) {
        const nr_model_file_use *f = &a->by_use[u];
        const double largest = f->sized_files ? (double)f->max_size : NAN;
        nr_report_table_row(t);
        nr_report_table_cell(t, names[u]);
        file_use_cell(t, C(f->files), u, "files", (double)f->files);
        file_use_cell(t, B(f->bytes_read), u, "bytes_read", (double)f->bytes_read);
        file_use_cell(t, B(f->bytes_written), u, "bytes_written", (double)f->bytes_written);
        file_use_cell(t, C(f->sized_files), u, "sized_files", (double)f->sized_files);
        file_use_cell(t, f->sized_files ? B(f->mean_size) : "none", u, "mean_size", f->mean_size);
        file_use_cell(t, f->sized_files ? B(largest) : "none", u, "max_size", largest);
    }
}

/* The job files' bytes read again: a bound from below (docs/definitions.md,
 * "Re-reads"). */
static void add_rereads_table(nr_report_block *sec, const nr_model_rereads *r)
{
    char buf[64];
    static const char *const heads[] = {"measure", "value"};
    nr_report_table *t = nr_report_table_new(sec,
                                             "Bytes read again (epochs that read the data anew), at least: per "
                                             "job file, its reads at known offsets less the furthest offset they "
                                             "reached",
                                             2, heads, 2);
    kv_row(t, "bytes the job files' reads moved at known offsets", B(r->bytes_placed), "access.rereads.bytes_placed",
           (double)r->bytes_placed);
    kv_row(t, "of them read before, at least", B(r->at_least_bytes), "access.rereads.at_least_bytes",
           (double)r->at_least_bytes);
    kv_row(t, "share read before, at least", P(r->share), "access.rereads.share", r->share);
    kv_row(t, "files with bytes read again", C(r->files), "access.rereads.files", (double)r->files);
    kv_row(t, "reads of each byte, at least (mean)", R(r->passes_at_least), "access.rereads.passes_at_least",
           r->passes_at_least);
}

/* Sequentiality shares, opens and metadata, the files by what they moved. */
static void add_access_tables(nr_report_block *sec, const nr_model_access *a)
{
    char buf[64];
    static const char *const sheads[] = {"access", "reads", "writes"};
    /* two denominators, said in the caption and the last row: the three
       kinds add up to 100% of the accesses that have a previous one */
    nr_report_table *s = nr_report_table_new(sec,
                                             "Sequentiality (per file, against the previous access; Darshan): "
                                             "consecutive, sequential and random are shares of the accesses "
                                             "with a previous one, the last row a share of all",
                                             3, sheads, 6);
    for (int row = 0; row < 4; row++) {
        static const char *const names[] = {"consecutive (offset = previous end)", "sequential (forward gap)", "random (backward)",
                                            "first access / offset unknown (of all accesses)"};
        nr_report_table_row(s);
        nr_report_table_cell(s, names[row]);
        for (int d = 0; d < 2; d++) {
            double classified = (double)(a->consecutive[d] + a->sequential[d] + a->random[d]);
            double all = classified + (double)(a->first[d] + a->unknown_offset[d]);
            double v = row == 0 ? share((double)a->consecutive[d], classified)
                     : row == 1 ? share((double)a->sequential[d], classified)
                     : row == 2 ? share((double)a->random[d], classified)
                                : share((double)(a->first[d] + a->unknown_offset[d]), all);
            nr_report_table_cell(s, P(v));
        }
    }
    static const char *const mheads[] = {"measure", "value"};
    nr_report_table *mt = nr_report_table_new(sec, "Opens and metadata", 2, mheads, 2);
    kv_row(mt, "opens of the job's regular files", C(a->opens), "access.opens", (double)a->opens);
    char rate[64];
    nr_report_fmt_real(a->opens_per_s, buf, sizeof buf);
    snprintf(rate, sizeof rate, isfinite(a->opens_per_s) ? "%s /s" : "%s", buf); /* "n/a", not "n/a /s" */
    kv_row(mt, "opens per second", rate, NULL, 0);
    kv_row(mt, "metadata calls per data call", R(a->meta_to_data), NULL, 0);
    kv_row(mt, "median read size", median_read_text(a, buf, sizeof buf), NULL, 0);
    add_file_use_table(sec, a);
    add_rereads_table(sec, &a->rereads);
}

/* The process-share figure beside the bytes and I/O time per process role. */
static int add_roles_pair(nr_report *rep, nr_report_block *sec, const nr_model *m, const char *name, size_t ri,
                          nr_fill_figure_fn figure, void *ctx, nr_error *err)
{
    char buf[64];
    nr_report_block *pair = nr_report_pair(sec);
    static const char cap7[] = "Share of the job files' bytes and I/O time: main process vs workers (the Python "
                               "runtime's left out)";
    char label[FIG_LABEL_MAX];
    NR_TRY(figure(ctx, rep, pair, ri, 7, cap7, figure_label(cap7, name, 7, m, label, sizeof label), err));
    static const char *const pheads[] = {"role", "processes with I/O", "bytes", "share of bytes", "I/O time"};
    nr_report_table *pt = nr_report_table_new(nr_report_pair_numbers(pair),
                                              "Per process role, the job files (as figure 7; processes with I/O: "
                                              "with any regular-file call)",
                                              5, pheads, 0x1Eu);
    uint64_t job_bytes = 0;
    for (size_t i = 0; i < nr_model_process_count(m); i++) {
        const nr_model_process *p = nr_model_process_at(m, i);
        job_bytes += p->bytes_read + p->bytes_written - p->runtime_bytes;
    }
    for (int role = 0; role < NR_ROLE_COUNT; role++) {
        uint64_t procs = 0, bytes = 0;
        double time = 0;
        for (size_t i = 0; i < nr_model_process_count(m); i++) {
            const nr_model_process *p = nr_model_process_at(m, i);
            if (p->role != role || p->calls == 0)
                continue;
            procs++;
            bytes += p->bytes_read + p->bytes_written - p->runtime_bytes;
            time += isfinite(p->io_time_s) ? fmax(p->io_time_s - p->runtime_io_time_s, 0) : 0;
        }
        nr_report_table_row(pt);
        nr_report_table_cell(pt, nr_role_name(role));
        nr_report_table_cell(pt, C(procs));
        nr_report_table_cell(pt, B(bytes));
        nr_report_table_cell(pt, P(share((double)bytes, (double)job_bytes)));
        nr_report_table_cell(pt, S(time));
    }
    return 0;
}

/* What the access pattern leaves out: the runtime's calls (file_role.h). */
static void runtime_access_note(nr_report_block *sec, const nr_model *m)
{
    const nr_model_runtime *r = nr_model_runtime_files(m);
    if (r->accesses + r->opens + r->meta_calls == 0)
        return;
    char text[512], b1[64], b2[64], b3[64];
    snprintf(text, sizeof text,
             "Request sizes, sequentiality, opens and metadata calls count the job's own files only. The runtime's "
             "files (Python modules, shared libraries, system files) took %s read and write calls, %s opens and "
             "%s metadata calls, left out here (docs/definitions.md, \"Job files and runtime files\").",
             nr_report_fmt_count((double)r->accesses, b1, sizeof b1), nr_report_fmt_count((double)r->opens, b2, sizeof b2),
             nr_report_fmt_count((double)r->meta_calls, b3, sizeof b3));
    nr_report_para(sec, "note", text);
}

static int fill_access(nr_report *rep, nr_report_block *sec, const nr_run *run, size_t ri,
                       nr_fill_figure_fn figure, void *ctx, nr_error *err)
{
    runtime_access_note(sec, run->model);
    NR_TRY(add_reqsize_pair(rep, sec, run->model, run->name, ri, figure, ctx, err));
    add_access_tables(sec, nr_model_get_access(run->model));
    return add_roles_pair(rep, sec, run->model, run->name, ri, figure, ctx, err);
}

/* A rule's number or threshold in its unit. */
static const char *rule_number(const char *unit, double v, char *buf, size_t cap)
{
    if (isnan(v))
        return "-";
    if (strcmp(unit, "processes") == 0)
        return nr_report_fmt_count(v, buf, cap);
    return strcmp(unit, "share") == 0 ? nr_report_fmt_percent(v, buf, cap) : nr_report_fmt_bytes(v, buf, cap);
}

/* s with its spaces made no-break (U+00A0), as far as cap allows: a short
 * cell that must not wrap ("below 64 KiB"). */
static void unbreakable(char *s, size_t cap)
{
    char out[128];
    size_t n = 0;
    for (const char *p = s; *p && n + 3 < sizeof out; p++) {
        if (*p == ' ') {
            out[n++] = '\xc2';
            out[n++] = '\xa0';
        } else {
            out[n++] = *p;
        }
    }
    out[n] = 0;
    snprintf(s, cap, "%s", out);
}

/* Every rule's outcome: a finding's absence told apart from a rule that
 * could not look (docs/findings.md, "Outcomes"). */
static void rules_table(nr_report_block *sec, const nr_model *m)
{
    static const char *const heads[] = {"rule", "outcome", "measures", "value", "fires", "why not"};
    nr_report_table *t = nr_report_table_new(sec, "Every rule, fired or not (docs/findings.md)", 6, heads, 0x8u);
    for (size_t i = 0; i < nr_model_rule_count(m); i++) {
        const nr_model_rule *r = nr_model_rule_at(m, i);
        char buf[64], th[64], fires[96], key[48];
        nr_report_table_row(t);
        nr_report_table_cell(t, r->id);
        nr_report_table_cell(t, nr_rule_state_name(r->state));
        nr_report_table_cell(t, r->number);
        snprintf(key, sizeof key, "rules.%zu.value", i);
        nr_report_table_cell_key(t, rule_number(r->unit, r->value, buf, sizeof buf), key, r->value);
        snprintf(fires, sizeof fires, "%s %s", r->fires_below ? "below" : "above",
                 rule_number(r->unit, r->threshold, th, sizeof th));
        unbreakable(fires, sizeof fires);
        nr_report_table_cell(t, fires);
        nr_report_table_cell(t, r->why[0] ? r->why : "-");
    }
}

static void fill_findings(nr_report_block *sec, const nr_model *m)
{
    size_t n = nr_model_finding_count(m);
    if (n == 0)
        nr_report_para(sec, "note", "No rule fired (docs/findings.md lists the rules and thresholds).");
    for (size_t i = 0; i < n; i++) {
        const nr_model_finding *f = nr_model_finding_at(m, i);
        nr_report_finding(sec, f->id, f->sentence, f->action);
    }
    rules_table(sec, m);
}

/* "62.6% (3 of 22)": the overview's top-10% share with the files it
 * counts, ceil(n / 10) of n (docs/definitions.md). */
static const char *top10_cell(const nr_concentration *c, char *out, size_t cap)
{
    char share[32], k[32], n[32];
    nr_report_fmt_percent(c->top10_share, share, sizeof share);
    if (c->n == 0 || !isfinite(c->top10_share))
        snprintf(out, cap, "%s", share);
    else
        snprintf(out, cap, "%s (%s of %s)", share, nr_report_fmt_count((double)c->top10_items, k, sizeof k),
                 nr_report_fmt_count((double)c->n, n, sizeof n));
    return out;
}

/* The overview's findings cell: the rules that fired, and beside them
 * those that could not look, so that a run without a finding is told
 * apart from one whose rules lacked their inputs (docs/findings.md,
 * "Outcomes"). */
static const char *findings_cell(const nr_model *m, char *out, size_t cap)
{
    size_t not_applicable = 0;
    for (size_t i = 0; i < nr_model_rule_count(m); i++)
        not_applicable += nr_model_rule_at(m, i)->state == NR_RULE_NOT_APPLICABLE;
    const size_t fired = nr_model_finding_count(m);
    if (not_applicable)
        snprintf(out, cap, "%zu (%zu %s n/a)", fired, not_applicable, nr_cli_noun(not_applicable, "rule", "rules"));
    else
        snprintf(out, cap, "%zu", fired);
    return out;
}

struct nr_fill {
    nr_report *rep;
    const nr_runset *rs;
    nr_fill_figure_fn figure;
    void *ctx;
    nr_report_table *overview; /* its table, when several runs */
};

/* The multi-run overview: the table whose rows overview_row adds, then the
 * figures with every run. */
static int fill_overview(nr_fill *f, nr_error *err)
{
    const nr_runset *rs = f->rs;
    nr_report_block *ov = nr_report_overview(f->rep);
    static const char *const heads[] = {"run", "duration", "processes", "files", "bytes read", "bytes written",
                                        "read p50 (job files)", "read p99 (job files)", "Gini (job files)", "top-10% share (files)", "write bursts",
                                        "train waiting for data (first batches aside)", "findings"};
    f->overview = nr_report_table_new(ov, "Every run at a glance", 13, heads, 0x1FFEu);
    if (!f->overview)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    static const char *const captions[7] = {
        "Phase breakdown, one bar per run, the Python runtime's files apart", "Lorenz curves of the job files' bytes, every run",
        "The job files' bytes CCDF with power-law fits where one was made and not rejected, every run", "Read latency of the job files, CDF and CCDF, one series per run",
        "Throughput timelines of the job files, one panel per run, all in bins of one width",
        "Request-size histograms of the job files (end-of-file reads left out), every run",
        "Per-process share of the job files (main vs workers), one bar per run"};
    /* what figures 2 to 6 draw of more runs than they tell apart
       (nr_render.h); static: the figure jobs read the captions later */
#define NR_STR_(x) #x
#define NR_STR(x) NR_STR_(x)
    static const char *const crowded[7] = {
        [1] = "Lorenz curves of the job files' bytes: every run in grey, the runs of lowest, median and highest Gini in "
              "colour",
        [2] = "The job files' bytes CCDF: every run in grey, the runs of lowest, median and highest power-law \xce\xb1 in "
              "colour with their fits",
        [3] = "Read latency of the job files, CDF and CCDF: every run in grey, the runs of lowest, median and highest p99 in colour",
        [4] = "Throughput timelines of the job files of the first " NR_STR(NR_FIG_DISTINCT_RUNS) " runs by name, all in bins "
              "of one width over every run (each run's section has its own timeline)",
        [5] = "Request-size histograms of the job files: the lowest, median and highest share of each size bin over the "
              "runs"};
#undef NR_STR
#undef NR_STR_
    const int many = rs->n > NR_FIG_DISTINCT_RUNS;
    nr_report_block *grid = nr_report_pair(ov);   /* figures side by side, wrapping */
    for (int fig = 7; fig >= 1; fig--)              /* each goes first in a pair: add in reverse */
        NR_TRY(f->figure(f->ctx, f->rep, grid, NR_FILL_ALL_RUNS, fig,
                         many && crowded[fig - 1] ? crowded[fig - 1] : captions[fig - 1], NULL, err));
    return 0;
}

/* The number rule id measured, NAN when it could not look (the share of
 * train the loop waited for its next batch, each pass's first aside:
 * batch_wait's). */
static double rule_value(const nr_model *m, const char *id)
{
    for (size_t i = 0; i < nr_model_rule_count(m); i++)
        if (strcmp(nr_model_rule_at(m, i)->id, id) == 0)
            return nr_model_rule_at(m, i)->value;
    return NAN;
}

/* Run r's row of the overview's table. */
static void overview_row(nr_report_table *t, const nr_run *run)
{
    char buf[64];
    const nr_model *m = run->model;
    const nr_model_totals *tot = nr_model_get_totals(m);
    const nr_model_latency *rd = nr_model_latency_job(m, NR_LAT_READ);
    const nr_concentration *c = nr_model_concentration(m, NR_CONC_TOTAL);
    nr_report_table_row(t);
    nr_report_table_cell(t, run->name);
    nr_report_table_cell(t, S(tot->duration_s));
    nr_report_table_cell(t, C(tot->processes));
    nr_report_table_cell(t, C(tot->files));
    nr_report_table_cell(t, B(tot->bytes_read));
    nr_report_table_cell(t, B(tot->bytes_written));
    nr_report_table_cell(t, S(rd->count ? ns_to_s(rd->q_ns[0]) : NAN));
    nr_report_table_cell(t, S(rd->count ? ns_to_s(rd->q_ns[2]) : NAN));
    nr_report_table_cell(t, R(c->gini));
    nr_report_table_cell(t, top10_cell(c, buf, sizeof buf));
    nr_report_table_cell(t, C(nr_model_get_burst_totals(m)->count));
    nr_report_table_cell(t, P(rule_value(m, "batch_wait")));
    nr_report_table_cell(t, findings_cell(m, buf, sizeof buf));
}

/* The folders of the traces folders that are no run, and why, in the
 * overview (a report of one run too): until session 56 only stderr said
 * so, and a report could lack a run folder whose log was missing or
 * hidden, or a folder of runs one level too deep, without a word. */
static int fill_left_out(nr_fill *f, nr_error *err)
{
    const nr_runset *rs = f->rs;
    if (rs->nleft_out == 0)
        return 0;
    static const char *const heads[] = {"folder", "left out of the runs because"};
    nr_report_table *t = nr_report_table_new(nr_report_overview(f->rep), "Folders left out of the runs", 2, heads, 0);
    if (!t)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    for (size_t i = 0; i < rs->nleft_out; i++) {
        nr_report_table_row(t);
        nr_report_table_cell_path(t, rs->left_out[i].path);
        nr_report_table_cell(t, rs->left_out[i].why);
    }
    return 0;
}

int nr_fill_begin(nr_report *rep, const nr_runset *rs, nr_fill_figure_fn figure, void *ctx, nr_fill **out,
                  nr_error *err)
{
    nr_fill *f = calloc(1, sizeof *f);
    if (!f)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    *f = (nr_fill){rep, rs, figure, ctx, NULL};
    int rc = fill_left_out(f, err);
    if (rc == 0 && rs->n > 1)
        rc = fill_overview(f, err);
    if (rc < 0) {
        free(f);
        return rc;
    }
    *out = f;
    return 0;
}

int nr_fill_run(nr_fill *f, size_t r, nr_error *err)
{
    const nr_run *run = &f->rs->runs[r];
    nr_report *rep = f->rep;
    if (f->overview)
        overview_row(f->overview, run);
    nr_report_block *art = nr_report_add_run(rep, run->name, run->name);
    if (!art)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    NR_TRY(fill_facts(nr_report_run_section(art, NR_SEC_FACTS), run, err));
    NR_TRY(fill_phases(rep, nr_report_run_section(art, NR_SEC_PHASES), run, r, f->figure, f->ctx, err));
    NR_TRY(fill_concentration(rep, nr_report_run_section(art, NR_SEC_CONCENTRATION), run, r, f->figure, f->ctx, err));
    NR_TRY(fill_latency(rep, nr_report_run_section(art, NR_SEC_LATENCY), run, r, f->figure, f->ctx, err));
    NR_TRY(fill_timeline(rep, nr_report_run_section(art, NR_SEC_TIMELINE), run, r, f->figure, f->ctx, err));
    NR_TRY(fill_access(rep, nr_report_run_section(art, NR_SEC_ACCESS), run, r, f->figure, f->ctx, err));
    fill_findings(nr_report_run_section(art, NR_SEC_FINDINGS), run->model);
    /* done: its tree out of memory (its figures have their places) */
    return nr_report_run_spool(rep, art, err);
}

void nr_fill_end(nr_fill *f) { free(f); }
