/* Capture fidelity: what the trace could and could not see (durations,
 * timestamps, paths, unfinished calls, processes outside any phase, mmap),
 * how the hook and strace agree (bytes per file, clock ranges), and the
 * traffic that is not regular-file I/O. */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"
#include "nr_schema.h"
#include "nr_strtab.h"

/* An event on no file: its call, and when it is a transfer, its bytes (a
 * read on an fd never seen opened moved data that no file's total holds,
 * and the summary says how much). */
static void add_unnamed(nr_model_nonfile *o, const nr__event *e)
{
    o->no_file_calls++;
    const uint64_t bytes = e->bytes > 0 ? (uint64_t)e->bytes : 0;
    if (e->op == NR_OP_READ) {
        o->no_file_read_calls++;
        o->no_file_bytes_read += bytes;
    } else if (e->op == NR_OP_WRITE) {
        o->no_file_write_calls++;
        o->no_file_bytes_written += bytes;
    }
}

/* An mmap of a regular file: its length (the event's bytes) counted as
 * mapped, apart for the job files by the phase of the call (their sum,
 * mmap_job.bytes, is taken at nr__fidelity_finish). */
static void add_mapping(nr_model *m, const nr__event *e)
{
    nr_model_fidelity *f = &m->fidelity;
    const uint64_t len = e->bytes > 0 ? (uint64_t)e->bytes : 0;
    f->mmap_regular++;
    f->mmap_bytes = nr__sat_addu(f->mmap_bytes, len);
    if (m->reg_runtime[e->reg])
        return;
    f->mmap_job.calls++;
    f->mmap_job.files += !m->reg_mapped[e->reg];
    m->reg_mapped[e->reg] = 1;
    nr_model_phase *p = &m->phases[e->phase];
    p->job_bytes_mapped = nr__sat_addu(p->job_bytes_mapped, len);
}

void nr__fidelity_add(nr_model *m, const nr__event *e)
{
    nr_model_fidelity *f = &m->fidelity;
    if (e->ts >= 0) {
        f->events_with_ts++;
        f->events_ts_subsecond += e->ts % 1000000000 != 0;
        if (f->strace_first_ns < 0 || e->ts < f->strace_first_ns)
            f->strace_first_ns = e->ts;
        const int64_t end = e->dur > 0 ? nr__sat_add(e->ts, e->dur) : e->ts;
        if (end > f->strace_last_ns)
            f->strace_last_ns = end;
    }
    f->events_with_dur += e->dur >= 0;
    f->unfinished_calls += (e->flags & NR_EVF_NEVER_RESUMED) != 0;
    f->failed_calls += (e->flags & NR_EVF_FAILED) != 0;
    if (e->op == NR_OP_READ || e->op == NR_OP_WRITE) {
        f->data_events++;
        f->data_events_with_file += e->file_row >= 0;
    }
    if (e->reg >= 0 && nr__is_mapping(e->syscall))
        add_mapping(m, e);
    if (e->syscall && strncmp(e->syscall, "io_uring_", 9) == 0)
        f->io_uring_calls++;
    if (e->reg >= 0)
        return;
    nr_model_nonfile *o = &m->nonfile;
    if (e->file_row < 0) {
        add_unnamed(o, e);
        return;
    }
    o->calls[e->kind]++;
    if (e->bytes > 0 && e->op == NR_OP_READ)
        o->bytes_read[e->kind] += (uint64_t)e->bytes;
    else if (e->bytes > 0 && e->op == NR_OP_WRITE)
        o->bytes_written[e->kind] += (uint64_t)e->bytes;
}

static int cmp_match(const void *a, const void *b)
{
    return strcmp(((const nr_model_pyio_match *)a)->path, ((const nr_model_pyio_match *)b)->path);
}

/* The regular file each hook path names (match[j] for hook path j of
 * hooks, -1 for none): the first store path equal to it, else the first
 * that ends with it at a '/': "/" + a relative one (hooks before session
 * 45 logged paths as given), or an absolute one whole, under a prefix
 * strace saw and Python did not (a symlinked /home on /gpfs/home: strace
 * -y prints the kernel's path). Method: each store path, in order, looks
 * up itself and its suffixes that start at or just after a '/' in the
 * hash of hook paths (a relative hook path can only equal a suffix after
 * a '/', an absolute one only a suffix at a '/'), skipping the lengths no
 * hook path has; O(store path bytes x depth) instead of O(hook paths x
 * files). */
static int match_files(const nr_model *m, const nr_strtab *hooks, int64_t *match)
{
    const size_t nhooks = hooks->count;
    size_t maxlen = 0;
    for (size_t j = 0; j < nhooks; j++) {
        match[j] = -1;
        if (nr_strtab_len(hooks, j) > maxlen)
            maxlen = nr_strtab_len(hooks, j);
    }
    uint8_t *has_len = calloc(maxlen + 1, 1);
    int64_t *suffix = malloc((nhooks + 1) * sizeof *suffix);
    if (!has_len || !suffix) {
        free(has_len);
        free(suffix);
        return NR_E_NOMEM;
    }
    for (size_t j = 0; j < nhooks; j++) {
        has_len[nr_strtab_len(hooks, j)] = 1;
        suffix[j] = -1;
    }
    for (size_t i = 0; i < m->nreg; i++) {
        const char *p = m->reg_paths[i];
        const size_t pn = strlen(p);
        for (size_t k = 0; k < pn; k++) {
            const size_t n = pn - k;
            if (n > maxlen || !has_len[n])
                continue;
            if (k > 0 && p[k] != '/' && p[k - 1] != '/')
                continue;
            const int64_t j = nr_strtab_find(hooks, p + k, n);
            if (j < 0)
                continue;
            if (k == 0 && match[j] < 0)
                match[j] = (int64_t)i;
            else if (k > 0 && suffix[j] < 0)
                suffix[j] = (int64_t)i;
        }
    }
    for (size_t j = 0; j < nhooks; j++)
        if (match[j] < 0)
            match[j] = suffix[j];
    free(has_len);
    free(suffix);
    return 0;
}

static void hook_range(nr_model_fidelity *f, int64_t ts)
{
    if (ts < 0)
        return;
    if (f->hook_first_ns < 0 || ts < f->hook_first_ns)
        f->hook_first_ns = ts;
    if (ts > f->hook_last_ns)
        f->hook_last_ns = ts;
}

/* Adds bytes to hook path (path, n)'s sum, its entry of m->pyio (cap
 * entries) made on its first record. Returns 0 or NR_E_NOMEM. */
static int add_hook_bytes(nr_model *m, nr_strtab *hooks, size_t *cap, const char *path, size_t n, int64_t bytes)
{
    nr_model_fidelity *f = &m->fidelity;
    const int64_t id = nr_strtab_intern(hooks, path, n);
    if (id < 0)
        return (int)id;
    const size_t j = (size_t)id;
    if (j == f->npyio) {
        NR_TRY(NR_GROW(m->pyio, *cap, j + 1));
        const char *copy = nr_arena_strndup(&m->arena, path, n);
        if (!copy)
            return NR_E_NOMEM;
        m->pyio[j] = (nr_model_pyio_match){.path = copy};
        f->npyio++;
    }
    m->pyio[j].hook_bytes += (uint64_t)bytes;
    return 0;
}

/* Each hook path's strace bytes, from the regular file match[] names for
 * it (-1: none), then the paths in report order. */
static void set_strace_bytes(nr_model *m, const int64_t *match)
{
    nr_model_fidelity *f = &m->fidelity;
    for (size_t j = 0; j < f->npyio; j++) {
        nr_model_pyio_match *p = &m->pyio[j];
        const int64_t reg = match[j];
        p->matched = reg >= 0;
        p->strace_bytes = reg >= 0 ? (uint64_t)m->reg_total[reg] : 0;
        p->ratio = p->hook_bytes ? (double)p->strace_bytes / (double)p->hook_bytes : NAN;
    }
    if (f->npyio)
        qsort(m->pyio, f->npyio, sizeof *m->pyio, cmp_match);
    f->pyio = m->pyio;
}

/* Per hook path: bytes the hook reported, against the bytes strace saw.
 * Every row's phase_id is checked (nr__check_phase_ref): until session 55
 * the model read none, and one that phases lacks passed unnoticed while
 * merge refused it. */
static int load_pyio(nr_model *m, const nr_store *s, nr_error *err)
{
    nr_model_fidelity *f = &m->fidelity;
    const nr_store_table *t = nr_store_find_table(s, "pyio");
    if (!t)
        return 0;
    const int cpath = nr_store_col_index(t, "path"), cbytes = nr_store_col_index(t, "bytes");
    const int cts = nr_store_col_index(t, "ts_ns"), cphase = nr_store_col_index(t, "phase_id");
    if (cpath < 0 || cbytes < 0 || cphase < 0) /* nr__check_schema refused such a table */
        return 0;
    nr_col_chunk path, bytes, ts, phase;
    nr_col_chunk_init(&path);
    nr_col_chunk_init(&bytes);
    nr_col_chunk_init(&ts);
    nr_col_chunk_init(&phase);
    nr_strtab hooks; /* distinct hook paths; id = index of m->pyio */
    nr_strtab_init(&hooks);
    int64_t *match = NULL;
    size_t cap = 0;
    uint64_t row0 = 0; /* the row group's first row */
    int rc = 0;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t) && rc == 0; rg++, row0 += path.n) {
        if ((rc = nr_store_read_chunk(t, (size_t)cpath, rg, &path, err)) < 0 ||
            (rc = nr_store_read_chunk(t, (size_t)cbytes, rg, &bytes, err)) < 0 ||
            (rc = nr_store_read_chunk(t, (size_t)cphase, rg, &phase, err)) < 0 ||
            (cts >= 0 && (rc = nr_store_read_chunk(t, (size_t)cts, rg, &ts, err)) < 0))
            break;
        for (size_t i = 0; i < path.n && i < bytes.n; i++) {
            if (i < phase.n && (rc = nr__check_phase_ref(m, "pyio", row0 + i, phase.i64[i], err)) < 0)
                break;
            if (cts >= 0 && i < ts.n) {
                if ((rc = nr__check_time("pyio", "ts_ns", row0 + i, ts.i64[i], err)) < 0)
                    break;
                hook_range(f, ts.i64[i]);
            }
            if (path.str[i][0] && bytes.i64[i] >= 0 &&
                (rc = add_hook_bytes(m, &hooks, &cap, path.str[i], path.str_len[i], bytes.i64[i])) < 0)
                break;
        }
    }
    nr_col_chunk_fini(&path);
    nr_col_chunk_fini(&bytes);
    nr_col_chunk_fini(&ts);
    nr_col_chunk_fini(&phase);
    if (rc == 0 && !(match = malloc((f->npyio + 1) * sizeof *match)))
        rc = NR_E_NOMEM;
    if (rc == 0)
        rc = match_files(m, &hooks, match);
    nr_strtab_fini(&hooks);
    if (rc < 0) {
        free(match);
        return rc;
    }
    set_strace_bytes(m, match);
    free(match);
    return 0;
}

/* Distinct reasons of table diagnostics and their summed counts. */
static int load_diagnostics(nr_model *m, const nr_store *s, nr_error *err)
{
    const nr_store_table *t = nr_store_find_table(s, "diagnostics");
    if (!t)
        return 0;
    const int creason = nr_store_col_index(t, "reason"), ccount = nr_store_col_index(t, "count");
    if (creason < 0 || ccount < 0)
        return 0;
    nr_col_chunk reason, count;
    nr_col_chunk_init(&reason);
    nr_col_chunk_init(&count);
    char **seen = NULL;
    uint64_t *counts = NULL;
    size_t nseen = 0, cap = 0, ccap = 0;
    int rc = 0;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t) && rc == 0; rg++) {
        if ((rc = nr_store_read_chunk(t, (size_t)creason, rg, &reason, err)) < 0 ||
            (rc = nr_store_read_chunk(t, (size_t)ccount, rg, &count, err)) < 0)
            break;
        for (size_t i = 0; i < reason.n && i < count.n; i++) {
            size_t j = 0;
            while (j < nseen && strcmp(seen[j], reason.str[i]) != 0)
                j++;
            if (j < nseen)
                continue;
            if ((rc = NR_GROW(seen, cap, nseen + 1)) < 0 || (rc = NR_GROW(counts, ccap, nseen + 1)) < 0)
                break;
            counts[nseen] = count.i64[i] > 0 ? (uint64_t)count.i64[i] : 0;
            if (!(seen[nseen] = nr_arena_strndup(&m->arena, reason.str[i], reason.str_len[i]))) {
                rc = NR_E_NOMEM;
                break;
            }
            nseen++;
            m->fidelity.diagnostics_total += counts[nseen - 1];
            if (nr_diag_reason_kind(seen[nseen - 1]) == NR_DIAG_NOTE)
                m->fidelity.notes_total += counts[nseen - 1];
        }
    }
    m->fidelity.diagnostics_reasons = nseen;
    m->reason_names = seen;
    m->reason_counts = counts;
    m->fidelity.reason_names = (const char *const *)seen;
    m->fidelity.reason_counts = counts;
    nr_col_chunk_fini(&reason);
    nr_col_chunk_fini(&count);
    return rc;
}

uint64_t nr_model_diag_count(const nr_model *m, const char *reason)
{
    const nr_model_fidelity *f = &m->fidelity;
    for (uint64_t i = 0; i < f->diagnostics_reasons; i++)
        if (strcmp(f->reason_names[i], reason) == 0)
            return f->reason_counts[i];
    return 0;
}

/* Whether the trace holds calls of class open (open, close, dup, ...) on regular files. */
static int opens_traced(const nr_model *m)
{
    for (size_t i = 0; i < m->nphases; i++)
        if (m->phases[i].ops[NR_OP_OPEN].calls)
            return 1;
    return 0;
}

const char *nr_model_unnamed_fd_advice(const nr_model *m)
{
    if (nr_model_diag_count(m, "task_without_clone"))
        return "tasks seen without the clone that made them (diagnostics task_without_clone) had none of the fds "
               "their process opened, or the fds were opened before strace attached: trace with "
               "-e trace=...,%process (clone, fork), and -y";
    if (nr_model_diag_count(m, "merge_same_stamp") || nr_model_diag_count(m, "no_timestamps") ||
        nr_model_diag_count(m, "order_inferred"))
        return "the open was not traced, or, in -ff logs whose stamps could not order every line (diagnostics "
               "merge_same_stamp, no_timestamps, order_inferred), another task's close of the fd was ordered "
               "before them: trace with -ttt (and -y)";
    if (opens_traced(m))
        return "opened before strace attached (strace -p), or by a call the trace left out: trace with -y";
    return "opened before strace attached, or the open was not traced: trace with -y, or trace open/openat";
}

static int agreement_of(const nr_model_pyio_match *p)
{
    if (p->hook_bytes == 0)
        return NR_LAYERS_NO_BYTES; /* opened only: nothing to compare */
    if (!p->matched)
        return NR_LAYERS_UNMATCHED;
    if (fabs(p->ratio - 1) <= NR_LAYERS_EQUAL_TOLERANCE)
        return NR_LAYERS_EQUAL;
    return p->ratio > 1 ? NR_LAYERS_MORE : NR_LAYERS_FEWER;
}

/* Each hook path's agreement, and their counts (nr_model_layers). */
static nr_model_layers classify_layers(nr_model_pyio_match *pyio, size_t n)
{
    nr_model_layers c = {0};
    for (size_t i = 0; i < n; i++) {
        const int a = pyio[i].agreement = agreement_of(&pyio[i]);
        c.files += a != NR_LAYERS_NO_BYTES;
        c.matched += a >= NR_LAYERS_EQUAL;
        c.equal += a == NR_LAYERS_EQUAL;
        c.more_in_strace += a == NR_LAYERS_MORE;
        c.fewer_in_strace += a == NR_LAYERS_FEWER;
    }
    return c;
}

/* The ingest revision from which a store's mmap events carry the length
 * mapped (docs/store-schema.md, events.bytes). */
#define MMAP_LENGTHS_REVISION 23

/* Whether the store's ingest recorded mapping lengths (meta
 * ingest_revision); a store without the key is older still. */
static int records_mmap_lengths(const nr_model *m)
{
    const char *rev = nr_model_meta(m, "ingest_revision");
    return rev && atoi(rev) >= MMAP_LENGTHS_REVISION;
}

int nr__fidelity_finish(nr_model *m, const nr_store *s, nr_error *err)
{
    nr_model_fidelity *f = &m->fidelity;
    f->mmap_lengths_known = f->mmap_regular == 0 || records_mmap_lengths(m);
    for (size_t i = 0; i < m->nphases; i++)
        f->mmap_job.bytes = nr__sat_addu(f->mmap_job.bytes, m->phases[i].job_bytes_mapped);
    const uint64_t events = m->totals.events;
    f->durations_available = events > 0 && f->events_with_dur > 0;
    f->timestamps_available = events > 0 && f->events_with_ts > 0;
    f->whole_second_stamps = nr__whole_second_stamps(m);
    f->paths_available = f->data_events > 0 && f->data_events_with_file > 0;
    if (m->phase_rows > 0)
        for (size_t i = 0; i < m->nprocs; i++)
            f->processes_io_no_phase += m->procs[i].calls > 0 && m->procs[i].unphased_calls == m->procs[i].calls;
    for (size_t i = 0; i < m->nphases; i++) {
        if (i == m->unphased)
            continue;
        uint64_t calls = 0;
        for (int op = 0; op < NR_OP_CLASS_COUNT; op++)
            calls += m->phases[i].ops[op].calls;
        f->phases_without_io += calls == 0;
        hook_range(f, m->phases[i].first_ns);
        hook_range(f, m->phases[i].last_ns);
    }
    NR_TRY(load_pyio(m, s, err));
    f->layers = classify_layers(m->pyio, f->npyio);
    NR_TRY(load_diagnostics(m, s, err));
    f->times_reliable = f->timestamps_available && !nr_model_diag_count(m, NR_DIAG_RELATIVE_TIMES);
    const int both = f->hook_first_ns >= 0 && f->strace_first_ns >= 0;
    f->skew_start_s = both ? (double)(f->hook_first_ns - f->strace_first_ns) * 1e-9 : NAN;
    f->skew_end_s = both ? (double)(f->hook_last_ns - f->strace_last_ns) * 1e-9 : NAN;
    return 0;
}
