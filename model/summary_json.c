/* The summary as one JSON object (docs/summary-schema.md, schema_version 22).
 * Times in seconds, sizes in bytes, shares in [0, 1]; NaN becomes null. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_number.h"
#include "model_internal.h"

#define SCHEMA_VERSION 22

static json_t *real(double v) { return isfinite(v) ? json_real(v) : json_null(); }
static json_t *ju64(uint64_t v) { return json_integer((json_int_t)v); }
static json_t *secs(int64_t ns) { return ns < 0 ? json_null() : json_real((double)ns * 1e-9); }

/* json_object_set_new that keeps going on NULL values (out of memory is checked once at the end). */
static void put(json_t *o, const char *key, json_t *v)
{
    if (o && v)
        json_object_set_new(o, key, v);
    else
        json_decref(v);
}

/* Objects that many places of the summary hold alike, made once and held
 * by reference (jansson counts them; json_dumpf writes each place in
 * full): a phase name without calls had 16 such objects of its own, and
 * 100,000 names held 1.3 GB of them (review 50). The summary is read-only
 * for it: a change to a shared object shows in every place. */
typedef struct shared_json {
    json_t *lat_none;     /* a latency group without values */
    json_t *opsum_none;   /* an op class without calls */
    json_t *waits_none;   /* a phase without waits */
    int spliced;          /* the per-phase arrays are marks, written one phase at a time (nr_model_summary_json_write) */
} shared_json;

/* The arrays of one element per phase: at 100,000 phase names their JSON
 * objects held about 420 MB (session 51); the writer makes and writes one
 * element at a time in their place. */
enum splice { SPLICE_PHASES, SPLICE_LAT_BY_PHASE, SPLICE_JOB_BY_PHASE, SPLICE_COUNT };

/* A new reference to the shared v when there is one (NULL when none). */
static json_t *share(json_t *v) { return v ? json_incref(v) : NULL; }

static json_t *opsum_json(const shared_json *sh, const nr_model_opsum *o)
{
    json_t *j = o->calls == 0 && o->bytes == 0 && o->time_ns == 0 ? share(sh->opsum_none) : NULL;
    if (j)
        return j;
    j = json_object();
    put(j, "calls", ju64(o->calls));
    put(j, "bytes", ju64(o->bytes));
    put(j, "time_s", real((double)o->time_ns * 1e-9));
    return j;
}

/* The hook's waits (schema 20). */
static json_t *waits_json(const shared_json *sh, const nr_model_waits *w)
{
    json_t *j = w->count == 0 ? share(sh->waits_none) : NULL;
    if (j)
        return j;
    j = json_object();
    put(j, "count", ju64(w->count));
    put(j, "threads", ju64(w->threads));
    put(j, "seconds", real(w->seconds));
    put(j, "share", real(w->share));
    put(j, "p50_s", secs(w->p50_ns));
    put(j, "p99_s", secs(w->p99_ns));
    put(j, "max_s", secs(w->max_ns));
    put(j, "passes", ju64(w->passes));
    put(j, "start_seconds", real(w->start_seconds));
    put(j, "start_max_s", secs(w->start_max_ns));
    put(j, "start_share", real(w->start_share));
    put(j, "steady_share", real(w->steady_share));
    put(j, "steady_max_s", secs(w->steady_max_ns));
    put(j, "steady_p50_s", secs(w->steady_p50_ns));
    put(j, "steady_p99_s", secs(w->steady_p99_ns));
    return j;
}

static json_t *totals_json(const nr_model *m)
{
    const nr_model_totals *t = &m->totals;
    json_t *j = json_object();
    put(j, "bytes_read", ju64(t->bytes_read));
    put(j, "bytes_written", ju64(t->bytes_written));
    put(j, "read_calls", ju64(t->read_calls));
    put(j, "write_calls", ju64(t->write_calls));
    put(j, "files_read", ju64(t->files_read));
    put(j, "files_written", ju64(t->files_written));
    put(j, "files", ju64(t->files));
    put(j, "processes", ju64(t->processes));
    put(j, "events", ju64(t->events));
    put(j, "duration_s", real(t->duration_s));
    return j;
}

/* A sum of mapping lengths; null when the store does not record them. */
static json_t *mapped_json(const nr_model *m, uint64_t bytes)
{
    return nr_model_get_fidelity(m)->mmap_lengths_known ? ju64(bytes) : json_null();
}

static json_t *phase_json(const shared_json *sh, const nr_model *m, size_t i)
{
    const nr_model_phase *p = &m->phases[i];
    json_t *j = json_object(), *ops = json_object();
    put(j, "name", json_string(p->name));
    put(j, "instances", ju64(p->instances));
    put(j, "never_ended", ju64(p->never_ended));
    put(j, "ended_by_error", ju64(p->ended_by_error));
    put(j, "wall_s", real(p->wall_s));
    put(j, "bytes_read", ju64(p->ops[NR_OP_READ].bytes));
    put(j, "bytes_written", ju64(p->ops[NR_OP_WRITE].bytes));
    put(j, "read_calls", ju64(p->ops[NR_OP_READ].calls));
    put(j, "write_calls", ju64(p->ops[NR_OP_WRITE].calls));
    put(j, "io_time_s", real(p->io_time_s));
    put(j, "io_share", real(p->io_share));
    put(j, "main_io_time_s", real(p->main_io_time_s));
    put(j, "main_io_share", real(p->main_io_share));
    put(j, "processes_with_io", ju64(p->processes_with_io));
    /* the runtime's part of the phase (schema 13): figure 1's segment
       "Python runtime files" is their sum over the phases */
    put(j, "runtime_bytes_read", ju64(p->runtime_bytes_read));
    put(j, "runtime_bytes_written", ju64(p->runtime_bytes_written));
    put(j, "runtime_io_time_s", real(p->runtime_io_time_s));
    put(j, "job_bytes_mapped", mapped_json(m, p->job_bytes_mapped));
    put(j, "waits", waits_json(sh, &p->waits));
    for (int op = 0; op < NR_OP_CLASS_COUNT; op++)
        put(ops, nr_op_class_name(op), opsum_json(sh, &p->ops[op]));
    put(j, "ops", ops);
    return j;
}

static json_t *process_json(const nr_model_process *p)
{
    json_t *j = json_object();
    put(j, "pid", json_integer(p->pid));
    put(j, "ppid", json_integer(p->ppid));
    put(j, "role", json_string(nr_role_name(p->role)));
    put(j, "calls", ju64(p->calls));
    put(j, "bytes_read", ju64(p->bytes_read));
    put(j, "bytes_written", ju64(p->bytes_written));
    put(j, "io_time_s", real(p->io_time_s));
    put(j, "io_share", real(p->io_share));
    put(j, "bytes_share", real(p->bytes_share));
    return j;
}

static json_t *per_role_json(const uint64_t n[NR_ROLE_COUNT])
{
    json_t *j = json_object();
    for (int r = 0; r < NR_ROLE_COUNT; r++)
        put(j, nr_role_name(r), ju64(n[r]));
    return j;
}

/* A process that was killed or exited with a non-zero status. */
static json_t *failed_json(const nr_model *m, const nr_model_process *p)
{
    json_t *j = json_object();
    put(j, "pid", json_integer(p->pid));
    put(j, "ppid", json_integer(p->ppid));
    put(j, "role", json_string(nr_role_name(p->role)));
    put(j, "program", json_string(p->program));
    put(j, "exit_code", p->killed_by[0] ? json_null() : json_integer(p->exit_code));
    put(j, "killed_by", p->killed_by[0] ? json_string(p->killed_by) : json_null());
    put(j, "end_s", real(nr_model_process_end_s(m, p)));
    return j;
}

/* docs/definitions.md, "How processes ended". */
static json_t *ends_json(const nr_model *m)
{
    const nr_model_process_ends *e = &m->ends;
    json_t *j = json_object(), *signals = json_array(), *failed = json_array();
    for (int k = 0; k < NR_END_COUNT; k++)
        put(j, nr_process_end_name(k), per_role_json(e->count[k]));
    for (size_t i = 0; i < e->nsignals && signals; i++) {
        json_t *s = per_role_json(e->signals[i].processes);
        put(s, "signal", json_string(e->signals[i].signal));
        json_array_append_new(signals, s);
    }
    put(j, "by_signal", signals);
    put(j, "python_killed", json_boolean(e->python_killed));
    put(j, "hook_lines_at_risk", json_boolean(e->hook_lines_at_risk));
    for (size_t i = 0; i < m->nprocs && failed; i++)
        if (nr_model_process_failed(&m->procs[i]))
            json_array_append_new(failed, failed_json(m, &m->procs[i]));
    put(j, "failed", failed);
    return j;
}

/* Per role totals, every process with regular-file I/O (ascending pid), how they ended. */
static json_t *processes_json(const nr_model *m)
{
    json_t *j = json_object(), *roles = json_object(), *list = json_array();
    const double total = (double)(m->totals.bytes_read + m->totals.bytes_written);
    for (int r = 0; r < NR_ROLE_COUNT; r++) {
        uint64_t n = 0, calls = 0, br = 0, bw = 0;
        double t = 0;
        for (size_t i = 0; i < m->nprocs; i++) {
            const nr_model_process *p = &m->procs[i];
            if (p->role != r)
                continue;
            n += p->calls > 0;
            calls += p->calls;
            br += p->bytes_read;
            bw += p->bytes_written;
            t += p->io_time_s;
        }
        json_t *o = json_object();
        put(o, "processes_with_io", ju64(n));
        put(o, "calls", ju64(calls));
        put(o, "bytes_read", ju64(br));
        put(o, "bytes_written", ju64(bw));
        put(o, "io_time_s", real(t));
        put(o, "bytes_share", real(total > 0 ? (double)(br + bw) / total : NAN));
        put(roles, nr_role_name(r), o);
    }
    for (size_t i = 0; i < m->nprocs; i++)
        if (m->procs[i].calls > 0 && list)
            json_array_append_new(list, process_json(&m->procs[i]));
    put(j, "main_pid", json_integer(m->main_pid));
    put(j, "roles", roles);
    put(j, "with_io", list);
    put(j, "ends", ends_json(m));
    return j;
}

static json_t *conc_fields(const nr_concentration *c)
{
    json_t *j = json_object();
    put(j, "files", ju64(c->n));
    put(j, "total_bytes", nr_json_number(c->total));
    put(j, "gini", real(c->gini));
    put(j, "top1_share", real(c->top1_share));
    put(j, "top10_share", real(c->top10_share));
    put(j, "top20_share", real(c->top20_share));
    put(j, "files_for_50", real(c->files_for_50));
    put(j, "files_for_90", real(c->files_for_90));
    put(j, "files_for_90pct", real(c->files_for_90));
    put(j, "files_for_99", real(c->files_for_99));
    return j;
}

static json_t *runtime_json(const nr_model *m)
{
    const nr_model_runtime *r = nr_model_runtime_files(m);
    json_t *j = json_object();
    put(j, "files", ju64(r->files));
    put(j, "bytes_read", ju64(r->bytes_read));
    put(j, "bytes_written", ju64(r->bytes_written));
    put(j, "accesses", ju64(r->accesses));
    put(j, "opens", ju64(r->opens));
    put(j, "meta_calls", ju64(r->meta_calls));
    return j;
}

static json_t *concentration_json(const nr_model *m)
{
    json_t *j = conc_fields(&m->conc[NR_CONC_TOTAL]);
    put(j, "read", conc_fields(&m->conc[NR_CONC_READ]));
    put(j, "write", conc_fields(&m->conc[NR_CONC_WRITE]));
    return j;
}

static json_t *fit_json(const nr_powerlaw_fit *f)
{
    json_t *j = json_object();
    put(j, "valid", json_boolean(f->valid));
    put(j, "n", ju64(f->n));
    put(j, "n_tail", ju64(f->n_tail));
    put(j, "alpha", real(f->valid ? f->alpha : NAN));
    put(j, "alpha_se", real(f->valid ? f->alpha_se : NAN));
    put(j, "xmin", nr_json_number(f->valid ? f->xmin : NAN));
    put(j, "ks_d", real(f->valid ? f->ks_d : NAN));
    put(j, "p_value", real(f->valid ? f->p_value : NAN));
    put(j, "vs_lognormal_R", real(f->valid ? f->vs_lognormal_R : NAN));
    put(j, "vs_lognormal_p", real(f->valid ? f->vs_lognormal_p : NAN));
    return j;
}

static json_t *powerlaw_json(const nr_model *m)
{
    json_t *j = fit_json(&m->pl[NR_PL_BYTES]);
    put(j, "of", json_string("bytes per file"));
    put(j, "bootstraps", json_integer(m->opts.bootstraps));
    put(j, "seed", ju64(m->opts.seed));
    put(j, "accesses", fit_json(&m->pl[NR_PL_ACCESSES]));
    return j;
}

static json_t *lat_json(const shared_json *sh, const nr_model_latency *l)
{
    static const char *const keys[NR_MODEL_NQ] = {"p50", "p90", "p99", "p999", "p9999", "max"};
    json_t *j = l->count == 0 ? share(sh->lat_none) : NULL;
    if (j)
        return j;
    j = json_object();
    put(j, "count", ju64(l->count));
    for (int q = 0; q < NR_MODEL_NQ; q++)
        put(j, keys[q], l->count ? secs(l->q_ns[q]) : json_null());
    put(j, "mean", real(l->mean_s));
    return j;
}

/* {read: {...}, write: ..., open, sync, metadata} of one slot. */
static json_t *lat_ops_json(const shared_json *sh, const nr_model *m, size_t slot)
{
    json_t *j = json_object();
    for (int op = 0; op < NR_LAT_OP_COUNT; op++)
        put(j, nr_lat_op_name(op), lat_json(sh, nr__lat(m, op, slot)));
    return j;
}

/* The same of phase i (job 1: the job's files of the phase), named. */
static json_t *lat_phase_json(const shared_json *sh, const nr_model *m, size_t i, int job)
{
    json_t *j = json_object();
    for (int op = 0; op < NR_LAT_OP_COUNT; op++)
        put(j, nr_lat_op_name(op), lat_json(sh, nr__lat_phase(m, op, i, job)));
    put(j, "phase", json_string(m->phases[i].name));
    return j;
}

static json_t *lat_by_phase_json(const shared_json *sh, const nr_model *m, size_t i)
{
    return lat_phase_json(sh, m, i, 0);
}

static json_t *job_by_phase_json(const shared_json *sh, const nr_model *m, size_t i)
{
    return lat_phase_json(sh, m, i, 1);
}

/* Element i of a per-phase array. */
typedef json_t *phase_element_fn(const shared_json *sh, const nr_model *m, size_t i);
static phase_element_fn *const splice_element[SPLICE_COUNT] = {
    [SPLICE_PHASES] = phase_json,
    [SPLICE_LAT_BY_PHASE] = lat_by_phase_json,
    [SPLICE_JOB_BY_PHASE] = job_by_phase_json,
};

/* What stands for an array while the rest is dumped: a string no summary
 * holds but by a phase named so, which the writer notices (it counts each
 * mark once in the dump) and then dumps the whole tree instead. */
static const char *const splice_mark[SPLICE_COUNT] = {
    [SPLICE_PHASES] = "\x01niorep: the phases, one at a time",
    [SPLICE_LAT_BY_PHASE] = "\x01niorep: latency by phase, one at a time",
    [SPLICE_JOB_BY_PHASE] = "\x01niorep: job files' latency by phase, one at a time",
};

/* The array of every phase's element, or its mark when spliced. */
static json_t *per_phase_array(const shared_json *sh, const nr_model *m, enum splice which)
{
    if (sh->spliced)
        return json_string(splice_mark[which]);
    json_t *a = json_array();
    for (size_t i = 0; i < m->nphases && a; i++) {
        json_t *o = splice_element[which](sh, m, i);
        if (o)
            json_array_append_new(a, o);
    }
    return a;
}

static json_t *split_json(const nr_model *m)
{
    const nr_cache_split *s = &m->split;
    json_t *j = json_object();
    put(j, "found", json_boolean(s->found));
    put(j, "method", s->found && s->method ? json_string(s->method) : json_null());
    put(j, "threshold_s", s->found ? secs(s->threshold_ns) : json_null());
    put(j, "slow_share", real(s->found ? s->slow_share : NAN));
    put(j, "slow_count", ju64(s->found ? s->slow_count : 0));
    put(j, "fast_count", ju64(s->found ? s->fast_count : 0));
    put(j, "slow_bytes", ju64(m->slow_read_bytes));
    put(j, "slow_bytes_share", real(s->found ? s->slow_bytes_share : NAN));
    put(j, "misses_plausible", json_boolean(s->misses_plausible)); /* 0 without a split */
    return j;
}

/* The reads of the job's files in the phases figure 1 folds (schema 14):
 * figure 4's "other N phases", with the phases kept; null when none folds. */
static json_t *other_phases_json(const shared_json *sh, const nr_model *m)
{
    if (m->n_phase_kept == 0)
        return json_null();
    json_t *j = json_object(), *kept = json_array();
    for (size_t k = 0; k < m->n_phase_kept && kept; k++)
        json_array_append_new(kept, json_string(m->phases[m->phase_kept[k]].name));
    put(j, "phases", ju64(m->nphases - m->n_phase_kept));
    put(j, "kept", kept);
    put(j, "read", lat_json(sh, nr_model_latency_job_folded(m)));
    return j;
}

/* The job's files alone (schema 13): the groups figure 4 draws, every op
 * class, per phase, and the folded phases' reads (schema 14). */
static json_t *job_latency_json(const shared_json *sh, const nr_model *m)
{
    json_t *j = lat_ops_json(sh, m, nr__lat_slot_job(m));
    put(j, "by_phase", per_phase_array(sh, m, SPLICE_JOB_BY_PHASE));
    put(j, "other_phases", other_phases_json(sh, m));
    return j;
}

static json_t *latency_json(const shared_json *sh, const nr_model *m)
{
    json_t *j = lat_ops_json(sh, m, 0);
    json_t *roles = json_object(), *fs = json_array();
    for (int r = 0; r < NR_ROLE_COUNT; r++)
        put(roles, nr_role_name(r), lat_ops_json(sh, m, nr__lat_slot_role(m, r)));
    for (size_t i = 0; i < m->nfs; i++) {
        json_t *o = lat_ops_json(sh, m, nr__lat_slot_fs(m, (int)i));
        put(o, "fs", json_string(m->fs_names[i]));
        if (o && fs)
            json_array_append_new(fs, o);
    }
    put(j, "by_phase", per_phase_array(sh, m, SPLICE_LAT_BY_PHASE));
    put(j, "by_role", roles);
    put(j, "by_fs", fs);
    put(j, "cache_split", split_json(m));
    put(j, "job_files", job_latency_json(sh, m));
    return j;
}

static json_t *bursts_json(const nr_model *m)
{
    json_t *a = json_array();
    for (size_t i = 0; i < m->nbursts && a; i++) {
        const nr_model_burst *b = &m->bursts[i];
        json_t *j = json_object();
        put(j, "start_s", real((double)(b->start_ns - m->timeline.start_ns) * 1e-9));
        put(j, "end_s", real((double)(b->end_ns - m->timeline.start_ns) * 1e-9));
        put(j, "phase", json_string(m->phases[b->phase].name));
        put(j, "bytes", ju64(b->bytes));
        put(j, "calls", ju64(b->calls));
        put(j, "duration_s", real(b->duration_s));
        put(j, "mean_rate", real(b->mean_rate));
        put(j, "interval_s", real(b->interval_s));
        json_array_append_new(a, j);
    }
    return a;
}

/* Every burst's sums, listed or not. */
static json_t *burst_totals_json(const nr_model *m)
{
    const nr_model_burst_totals *t = &m->burst_totals;
    json_t *j = json_object();
    put(j, "count", ju64(t->count));
    put(j, "listed", ju64(m->nbursts));
    put(j, "bytes", ju64(t->bytes));
    put(j, "calls", ju64(t->calls));
    put(j, "time_s", real(t->time_s));
    put(j, "highest_rate", real(t->highest_rate));
    return j;
}

/* A mark's attrs as the object they were; the text itself if it does not parse. */
static json_t *attrs_json(const char *attrs)
{
    if (!attrs[0])
        return json_object();
    json_t *o = json_loads(attrs, 0, NULL);
    return o ? o : json_string(attrs);
}

static json_t *marks_json(const nr_model *m)
{
    const nr_model_marks *mk = &m->marks;
    json_t *j = json_object(), *by = json_object(), *list = json_array();
    put(j, "count", ju64(mk->total));
    for (size_t i = 0; i < mk->nnames; i++)
        put(by, mk->names[i], ju64(mk->name_counts[i]));
    put(j, "by_name", by);
    put(j, "other_names", ju64(mk->other_names));
    for (size_t i = 0; i < mk->n && list; i++) {
        const nr_model_mark *k = &mk->v[i];
        json_t *o = json_object();
        /* on the timeline's clock, as the bursts; none without one */
        put(o, "t_s", m->timeline.nbins ? real((double)(k->ts_ns - m->timeline.start_ns) * 1e-9) : json_null());
        put(o, "name", json_string(k->name));
        put(o, "pid", json_integer((json_int_t)k->pid));
        put(o, "phase", json_string(k->phase));
        put(o, "attrs", attrs_json(k->attrs));
        json_array_append_new(list, o);
    }
    put(j, "list", list);
    return j;
}

static json_t *timeline_json(const nr_model *m)
{
    const nr_model_timeline *t = &m->timeline;
    json_t *j = json_object();
    put(j, "bins", ju64(t->nbins));
    put(j, "bin_width_s", t->nbins ? real((double)t->width_ns * 1e-9) : json_null());
    /* the zero of bursts[].start_s and marks' t_s, on the log's clock: an
       integer, as no double of 6 digits holds a Unix time in ns */
    put(j, "start_ns", t->nbins ? json_integer((json_int_t)t->start_ns) : json_null());
    const char *base = nr_model_meta(m, "time_base");
    put(j, "time_base", base ? json_string(base) : json_null());
    return j;
}

static json_t *pattern_json(const nr_model_access *a, int w)
{
    json_t *j = json_object(), *hist = json_object();
    for (int b = 0; b < NR_SIZE_BINS; b++)
        put(hist, nr_size_bin_names[b], ju64(a->size_hist[w][b]));
    const uint64_t classified = a->consecutive[w] + a->sequential[w] + a->random[w];
    const double n = (double)classified;
    put(j, "size_hist", hist);
    if (!w)
        put(j, "eof_reads", ju64(a->eof_reads));
    put(j, "consecutive", ju64(a->consecutive[w]));
    put(j, "sequential", ju64(a->sequential[w]));
    put(j, "random", ju64(a->random[w]));
    put(j, "first", ju64(a->first[w]));
    put(j, "unknown_offset", ju64(a->unknown_offset[w]));
    put(j, "consecutive_share", real(classified ? (double)a->consecutive[w] / n : NAN));
    put(j, "sequential_share", real(classified ? (double)a->sequential[w] / n : NAN));
    put(j, "random_share", real(classified ? (double)a->random[w] / n : NAN));
    return j;
}

/* Darshan's most common access sizes (docs/definitions.md). */
static json_t *common_sizes_json(const nr_model_common_sizes *c)
{
    json_t *j = json_object(), *list = json_array();
    for (size_t k = 0; list && k < c->n; k++) {
        const nr_model_common_size *t = &c->top[k];
        json_t *o = json_object();
        put(o, "bytes", ju64(t->bytes));
        put(o, "calls", ju64(nr_common_size_calls(t)));
        put(o, "reads", ju64(t->reads));
        put(o, "writes", ju64(t->writes));
        if (o)
            json_array_append_new(list, o);
    }
    put(j, "calls", ju64(c->calls));
    put(j, "exact", json_boolean(c->exact));
    put(j, "unlisted_at_most", ju64(c->unlisted_at_most));
    put(j, "list", list);
    return j;
}

/* The job files' bytes read again, a bound from below (docs/definitions.md). */
static json_t *rereads_json(const nr_model_rereads *r)
{
    json_t *j = json_object();
    put(j, "bytes_placed", ju64(r->bytes_placed));
    put(j, "extent_bytes", ju64(r->extent_bytes));
    put(j, "at_least_bytes", ju64(r->at_least_bytes));
    put(j, "files", ju64(r->files));
    put(j, "share", real(r->share));
    put(j, "passes_at_least", real(r->passes_at_least));
    return j;
}

static json_t *access_json(const nr_model *m)
{
    const nr_model_access *a = &m->access;
    json_t *j = json_object();
    put(j, "read", pattern_json(a, 0));
    put(j, "write", pattern_json(a, 1));
    put(j, "opens", ju64(a->opens));
    put(j, "opens_per_s", real(a->opens_per_s));
    put(j, "meta_calls", ju64(a->meta_calls));
    put(j, "data_calls", ju64(a->data_calls));
    put(j, "meta_to_data", real(a->meta_to_data));
    /* no read returned data: no median (0 until session 46, review 46) */
    put(j, "median_read_size", a->sized_reads ? ju64(a->median_read_size) : json_null());
    json_t *uses = json_object();
    for (int u = 0; u < NR_USE_COUNT; u++) {
        json_t *e = json_object();
        put(e, "files", ju64(a->by_use[u].files));
        put(e, "bytes_read", ju64(a->by_use[u].bytes_read));
        put(e, "bytes_written", ju64(a->by_use[u].bytes_written));
        put(e, "sized_files", ju64(a->by_use[u].sized_files));
        put(e, "mean_size", nr_json_number(a->by_use[u].mean_size)); /* whole bytes exact */
        put(e, "max_size", a->by_use[u].sized_files ? ju64(a->by_use[u].max_size) : json_null());
        put(uses, nr_file_use_name(u), e);
    }
    put(j, "files_by_use", uses);
    put(j, "common_sizes", common_sizes_json(&a->common_sizes));
    put(j, "rereads", rereads_json(&a->rereads));
    return j;
}

/* The regular files and their bytes per file system, in by_fs's order. */
static json_t *file_systems_json(const nr_model *m)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < m->nfs; i++) {
        const nr_model_fs_bytes *b = &m->fs_bytes[i];
        json_t *o = json_object();
        put(o, "fs", json_string(m->fs_names[i]));
        put(o, "files", ju64(b->files));
        put(o, "bytes_read", ju64(b->bytes_read));
        put(o, "bytes_written", ju64(b->bytes_written));
        if (o)
            json_array_append_new(a, o);
    }
    return a;
}

static json_t *nonfile_json(const nr_model *m)
{
    const nr_model_nonfile *o = &m->nonfile;
    json_t *j = json_object();
    for (int k = 0; k < NR_FILE_KIND_COUNT; k++) {
        if (k == NR_KIND_REGULAR)
            continue;
        json_t *e = json_object();
        put(e, "calls", ju64(o->calls[k]));
        put(e, "bytes_read", ju64(o->bytes_read[k]));
        put(e, "bytes_written", ju64(o->bytes_written[k]));
        put(j, nr_file_kind_name(k), e);
    }
    put(j, "no_file_calls", ju64(o->no_file_calls));
    put(j, "no_file_read_calls", ju64(o->no_file_read_calls));
    put(j, "no_file_write_calls", ju64(o->no_file_write_calls));
    put(j, "no_file_bytes_read", ju64(o->no_file_bytes_read));
    put(j, "no_file_bytes_written", ju64(o->no_file_bytes_written));
    return j;
}

static json_t *fidelity_json(const nr_model *m)
{
    const nr_model_fidelity *f = &m->fidelity;
    json_t *j = json_object(), *py = json_array();
    put(j, "processes_io_no_phase", ju64(f->processes_io_no_phase));
    put(j, "phases_without_io", ju64(f->phases_without_io));
    put(j, "unfinished_calls", ju64(f->unfinished_calls));
    put(j, "failed_calls", ju64(f->failed_calls));
    put(j, "durations_available", json_boolean(f->durations_available));
    put(j, "timestamps_available", json_boolean(f->timestamps_available));
    put(j, "paths_available", json_boolean(f->paths_available));
    put(j, "times_reliable", json_boolean(f->times_reliable));
    put(j, "whole_second_stamps", json_boolean(f->whole_second_stamps));
    put(j, "events_with_dur", ju64(f->events_with_dur));
    put(j, "events_with_ts", ju64(f->events_with_ts));
    put(j, "skew_start_s", real(f->skew_start_s));
    put(j, "skew_end_s", real(f->skew_end_s));
    put(j, "hook_span_s", f->hook_first_ns >= 0 ? real((double)(f->hook_last_ns - f->hook_first_ns) * 1e-9) : json_null());
    put(j, "strace_span_s", f->strace_first_ns >= 0 ? real((double)(f->strace_last_ns - f->strace_first_ns) * 1e-9) : json_null());
    put(j, "mmap_regular", ju64(f->mmap_regular));
    put(j, "mmap_bytes", mapped_json(m, f->mmap_bytes));
    json_t *job = json_object();
    put(job, "calls", ju64(f->mmap_job.calls));
    put(job, "bytes", mapped_json(m, f->mmap_job.bytes));
    put(job, "files", ju64(f->mmap_job.files));
    put(j, "mmap_job", job);
    put(j, "io_uring_calls", ju64(f->io_uring_calls));
    json_t *layers = json_object();
    put(layers, "files", ju64(f->layers.files));
    put(layers, "matched", ju64(f->layers.matched));
    put(layers, "equal", ju64(f->layers.equal));
    put(layers, "more_in_strace", ju64(f->layers.more_in_strace));
    put(layers, "fewer_in_strace", ju64(f->layers.fewer_in_strace));
    put(j, "layers", layers);
    for (size_t i = 0; i < f->npyio && py; i++) {
        const nr_model_pyio_match *p = &f->pyio[i];
        json_t *o = json_object();
        put(o, "path", json_string(p->path));
        put(o, "hook_bytes", ju64(p->hook_bytes));
        put(o, "strace_bytes", ju64(p->strace_bytes));
        put(o, "ratio", real(p->ratio));
        put(o, "matched", json_boolean(p->matched));
        json_array_append_new(py, o);
    }
    put(j, "hook_vs_strace", py);
    return j;
}

static json_t *findings_json(const nr_model *m)
{
    json_t *a = json_array();
    for (size_t i = 0; i < m->nfindings && a; i++) {
        const nr_model_finding *f = &m->findings[i];
        json_t *j = json_object();
        put(j, "id", json_string(f->id));
        put(j, "sentence", json_string(f->sentence));
        put(j, "action", json_string(f->action));
        put(j, "value", nr_json_number(f->value));
        put(j, "threshold", nr_json_number(f->threshold));
        json_array_append_new(a, j);
    }
    return a;
}

/* Every rule's outcome (docs/findings.md, "Outcomes"). */
static json_t *rules_json(const nr_model *m)
{
    json_t *a = json_array();
    for (size_t i = 0; i < m->nrules && a; i++) {
        const nr_model_rule *r = &m->rules[i];
        json_t *j = json_object();
        put(j, "id", json_string(r->id));
        put(j, "state", json_string(nr_rule_state_name(r->state)));
        put(j, "value", nr_json_number(r->value));
        put(j, "threshold", nr_json_number(r->threshold));
        put(j, "unit", json_string(r->unit));
        put(j, "number", json_string(r->number));
        put(j, "fires", json_string(r->fires_below ? "below" : "above"));
        put(j, "why", r->why[0] ? json_string(r->why) : json_null());
        json_array_append_new(a, j);
    }
    return a;
}

static json_t *diagnostics_json(const nr_model *m)
{
    const nr_model_fidelity *f = &m->fidelity;
    json_t *j = json_object();
    put(j, "events", ju64(m->totals.events));
    put(j, "reasons", ju64(f->diagnostics_reasons));
    /* lines skipped apart from notes (schema 10): until schema 9 the
       notes (a call never resumed, a cut call line) were summed in */
    put(j, "skipped_total", ju64(f->diagnostics_total - f->notes_total));
    put(j, "notes_total", ju64(f->notes_total));
    put(j, "unfinished_calls", ju64(f->unfinished_calls));
    json_t *by = json_object();
    for (size_t i = 0; i < f->diagnostics_reasons; i++)
        put(by, f->reason_names[i], ju64(f->reason_counts[i]));
    put(j, "by_reason", by);
    const char *keys[] = {"lines_read", "lines_parsed", "lines_skipped"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = nr_model_meta(m, keys[i]);
        char *end = NULL;
        const unsigned long long n = v ? strtoull(v, &end, 10) : 0;
        put(j, keys[i], v && *v && !*end ? ju64(n) : json_null());
    }
    return j;
}

/* The shared objects of a summary (their members NULL when out of memory). */
static shared_json shared_make(int spliced)
{
    const shared_json none = {0};
    const nr_model_latency no_values = {.mean_s = NAN};
    const nr_model_opsum no_calls = {0};
    return (shared_json){.lat_none = lat_json(&none, &no_values), .opsum_none = opsum_json(&none, &no_calls),
                         .waits_none = waits_json(&none, &nr__no_waits), .spliced = spliced};
}

static void shared_free(shared_json *sh)
{
    json_decref(sh->lat_none);
    json_decref(sh->opsum_none);
    json_decref(sh->waits_none);
}

/* The summary's tree, its per-phase arrays as marks when spliced. */
static json_t *summary_tree(const nr_model *m, int spliced)
{
    shared_json sh = shared_make(spliced);
    json_t *j = json_object();
    put(j, "schema_version", json_integer(SCHEMA_VERSION));
    put(j, "totals", totals_json(m));
    put(j, "phases", per_phase_array(&sh, m, SPLICE_PHASES));
    put(j, "processes", processes_json(m));
    put(j, "concentration", concentration_json(m));
    put(j, "runtime_files", runtime_json(m));
    put(j, "powerlaw", powerlaw_json(m));
    put(j, "latency", latency_json(&sh, m));
    put(j, "timeline", timeline_json(m));
    put(j, "bursts", bursts_json(m));
    put(j, "burst_totals", burst_totals_json(m));
    put(j, "marks", marks_json(m));
    put(j, "waits", waits_json(&sh, &m->waits));
    put(j, "access", access_json(m));
    put(j, "file_systems", file_systems_json(m));
    put(j, "nonfile", nonfile_json(m));
    put(j, "fidelity", fidelity_json(m));
    put(j, "findings", findings_json(m));
    put(j, "rules", rules_json(m));
    put(j, "diagnostics", diagnostics_json(m));
    shared_free(&sh);
    return j;
}

json_t *nr_model_summary_json(const nr_model *m)
{
    return summary_tree(m, 0);
}

/* ---- the summary written one phase at a time ---------------------------- */

/* An element's text: the dump (json_dumpb's, grown to fit), then text: the
 * dump with indent spaces after each newline (JSON strings hold no raw
 * newline, so each one is the dump's own), written in one step. Until
 * session 53 jansson's callback dump handed each token to fwrite, a third
 * of the CPU of `summary --json` of 100,000 phase names (docs/performance.md). */
typedef struct indented_out {
    char *dump;
    size_t dump_cap;
    nr_buf text;
    size_t indent;
} indented_out;

static int put_spaces(nr_buf *text, size_t n)
{
    static const char spaces[] = "                                                                ";
    while (n) {
        const size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        NR_TRY(nr_buf_put(text, spaces, k));
        n -= k;
    }
    return 0;
}

/* e's text in o->dump; *len its length. */
static int dump_element(const json_t *e, size_t flags, indented_out *o, size_t *len)
{
    size_t need = json_dumpb(e, o->dump, o->dump_cap, flags);
    if (need > o->dump_cap) {
        const size_t cap = need > 2 * o->dump_cap ? need : 2 * o->dump_cap;
        char *dump = realloc(o->dump, cap);
        if (!dump)
            return NR_E_NOMEM;
        o->dump = dump;
        o->dump_cap = cap;
        need = json_dumpb(e, o->dump, o->dump_cap, flags);
    }
    if (need == 0 || need > o->dump_cap)
        return NR_E_NOMEM;   /* jansson fails only to allocate */
    *len = need;
    return 0;
}

/* Element i of a per-phase array, after its separator, as write_per_phase
 * places it (o: its indent and buffers). */
static int write_element(const shared_json *sh, const nr_model *m, enum splice which, size_t i, size_t flags,
                         indented_out *o, FILE *out)
{
    json_t *e = splice_element[which](sh, m, i);
    if (!e)
        return NR_E_NOMEM;
    size_t len;
    const int rc = dump_element(e, flags, o, &len);
    json_decref(e);
    NR_TRY(rc);
    o->text.len = 0;
    NR_TRY(nr_buf_put(&o->text, i ? ",\n" : "\n", i ? 2 : 1));
    NR_TRY(put_spaces(&o->text, o->indent));
    for (const char *p = o->dump, *end = o->dump + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const size_t line = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
        NR_TRY(nr_buf_put(&o->text, p, line));
        if (nl)
            NR_TRY(put_spaces(&o->text, o->indent));
        p += line;
    }
    return fwrite(o->text.data, 1, o->text.len, out) == o->text.len ? 0 : NR_E_IO;
}

/* Per-phase array which, as json_dumpf writes it where its mark stood at
 * indent key_indent (jansson 2.x, dump.c: "[", each element on its own
 * line one step in, "]" back at the key's indent; "[]" when empty), each
 * element made, written and freed in turn. */
static int write_per_phase(const shared_json *sh, const nr_model *m, enum splice which, FILE *out, size_t flags,
                           size_t key_indent)
{
    const size_t step = flags & JSON_MAX_INDENT;
    if (m->nphases == 0)
        return fputs("[]", out) == EOF ? NR_E_IO : 0;
    if (fputc('[', out) == EOF)
        return NR_E_IO;
    indented_out o = {.indent = key_indent + step};
    nr_buf_init(&o.text);
    int rc = 0;
    for (size_t i = 0; i < m->nphases && rc == 0; i++)
        rc = write_element(sh, m, which, i, flags, &o, out);
    nr_buf_fini(&o.text);
    free(o.dump);
    NR_TRY(rc);
    return fprintf(out, "\n%*s]", (int)key_indent, "") < 0 ? NR_E_IO : 0;
}

/* Where each mark stands in the dumped skeleton; -1 unless each is there
 * exactly once. */
static int find_marks(const char *text, const char *const quoted[SPLICE_COUNT], size_t at[SPLICE_COUNT])
{
    for (int k = 0; k < SPLICE_COUNT; k++) {
        const char *hit = strstr(text, quoted[k]);
        if (!hit || strstr(hit + 1, quoted[k]))
            return -1;
        at[k] = (size_t)(hit - text);
    }
    return 0;
}

/* The spaces that begin the line holding text[pos]. */
static size_t line_indent(const char *text, size_t pos)
{
    size_t start = pos;
    while (start && text[start - 1] != '\n')
        start--;
    size_t n = 0;
    while (text[start + n] == ' ')
        n++;
    return n;
}

/* The skeleton's text with each mark replaced by its array, in the order
 * the marks stand. */
static int write_spliced(const nr_model *m, const shared_json *sh, const char *text,
                         const char *const quoted[SPLICE_COUNT], const size_t at[SPLICE_COUNT], FILE *out,
                         size_t flags)
{
    int order[SPLICE_COUNT];
    for (int k = 0; k < SPLICE_COUNT; k++) {   /* insertion sort of three by position */
        int i = k;
        while (i > 0 && at[order[i - 1]] > at[k]) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = k;
    }
    size_t done = 0;
    for (int i = 0; i < SPLICE_COUNT; i++) {
        const int k = order[i];
        if (fwrite(text + done, 1, at[k] - done, out) != at[k] - done)
            return NR_E_IO;
        NR_TRY(write_per_phase(sh, m, (enum splice)k, out, flags, line_indent(text, at[k])));
        done = at[k] + strlen(quoted[k]);
    }
    const size_t rest = strlen(text + done);
    return fwrite(text + done, 1, rest, out) == rest ? 0 : NR_E_IO;
}

/* j's text with flags, in memory of malloc (json_dumps's is of jansson's
 * allocator, which need not be free()'s); NULL on out-of-memory. */
static char *dump_text(const json_t *j, size_t flags)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = j ? open_memstream(&text, &len) : NULL;
    if (!mem)
        return NULL;
    const int rc = json_dumpf(j, mem, flags);
    if (fclose(mem) != 0 || rc < 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* Each mark as the dump writes it (quoted, escaped). */
static int quote_marks(char *quoted[SPLICE_COUNT])
{
    for (int k = 0; k < SPLICE_COUNT; k++) {
        json_t *s = json_string(splice_mark[k]);
        quoted[k] = dump_text(s, JSON_ENCODE_ANY);
        json_decref(s);
        if (!quoted[k])
            return NR_E_NOMEM;
    }
    return 0;
}

/* The whole tree at once: the answer when the splice cannot be used. */
static int write_whole(const nr_model *m, FILE *out, size_t flags)
{
    json_t *j = summary_tree(m, 0);
    if (!j)
        return NR_E_NOMEM;
    const int rc = json_dumpf(j, out, flags);
    json_decref(j);
    return rc < 0 ? NR_E_IO : 0;
}

int nr_model_summary_json_write(const nr_model *m, FILE *out, size_t flags)
{
    if (!(flags & JSON_MAX_INDENT))   /* one line: the splice writes the indented form only */
        return write_whole(m, out, flags);
    shared_json sh = shared_make(0);
    char *quoted[SPLICE_COUNT] = {NULL};
    json_t *skeleton = summary_tree(m, 1);
    char *text = dump_text(skeleton, flags);
    json_decref(skeleton);
    int rc = !text || !sh.lat_none || !sh.opsum_none ? NR_E_NOMEM : quote_marks(quoted);
    size_t at[SPLICE_COUNT];
    if (rc == 0 && find_marks(text, (const char *const *)quoted, at) < 0)
        rc = 1;   /* a name equal to a mark: the whole tree */
    if (rc == 0)
        rc = write_spliced(m, &sh, text, (const char *const *)quoted, at, out, flags);
    else if (rc == 1)
        rc = write_whole(m, out, flags);
    for (int k = 0; k < SPLICE_COUNT; k++)
        free(quoted[k]);
    free(text);
    shared_free(&sh);
    return rc;
}
