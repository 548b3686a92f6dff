/* Phase breakdown: per phase x op class calls, bytes and summed syscall
 * time of regular-file I/O; per process the same totals; the run totals. */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* A call counts when it is on a regular file and has a result (calls that
 * never resumed are counted by fidelity only). Failed calls count as calls. */
static int counts(const nr__event *e)
{
    return e->reg >= 0 && !(e->flags & NR_EVF_NEVER_RESUMED);
}

/* A process lives at least to the end of its last call (the processes
 * table has its calls' starts: a process ending in a 2 s fsync had 10 x
 * its lifetime in I/O until session 46, review 46). */
static void extend_life(nr_model_process *p, const nr__event *e)
{
    const int64_t end = e->ts >= 0 && e->dur > 0 ? nr__sat_add(e->ts, e->dur) : e->ts;
    if (end > p->last_ns)
        p->last_ns = end;
}

void nr__phases_add(nr_model *m, const nr__event *e)
{
    extend_life(&m->procs[e->proc], e);
    if (!counts(e))
        return;
    const uint64_t bytes = e->bytes > 0 && (e->op == NR_OP_READ || e->op == NR_OP_WRITE) ? (uint64_t)e->bytes : 0;
    const int64_t dur = e->dur > 0 ? e->dur : 0;

    nr_model_opsum *o = &m->phases[e->phase].ops[e->op];
    o->calls++;
    o->bytes += bytes;
    o->time_ns = nr__sat_add(o->time_ns, dur);
    if (e->role == NR_ROLE_MAIN)
        m->phases[e->phase].main_io_time_s += (double)dur * 1e-9;

    nr_model_process *p = &m->procs[e->proc];
    p->calls++;
    p->io_time_s += (double)dur * 1e-9;
    if (e->phase == m->unphased)
        p->unphased_calls++;
    if (m->reg_runtime[e->reg]) {
        /* imports and libraries: kept apart for figures 1 and 7 */
        if (e->op == NR_OP_READ)
            m->phases[e->phase].runtime_bytes_read += bytes;
        else
            m->phases[e->phase].runtime_bytes_written += bytes;
        m->phases[e->phase].runtime_io_time_s += (double)dur * 1e-9;
        p->runtime_bytes += bytes;
        p->runtime_io_time_s += (double)dur * 1e-9;
    }

    if (e->op == NR_OP_READ) {
        p->bytes_read += bytes;
        m->totals.read_calls++;
        m->totals.bytes_read += bytes;
        m->reg_read[e->reg] += (double)bytes;
        m->reg_access[e->reg] += 1;
    } else if (e->op == NR_OP_WRITE) {
        p->bytes_written += bytes;
        m->totals.write_calls++;
        m->totals.bytes_written += bytes;
        m->reg_written[e->reg] += (double)bytes;
        m->reg_access[e->reg] += 1;
    }

    /* processes with I/O per phase: a set of (phase, process) pairs */
    if (m->proc_last_phase[e->proc] != e->phase) {
        m->proc_last_phase[e->proc] = e->phase;
        const int64_t key = (int64_t)(((uint64_t)e->phase << 32) | (uint64_t)e->proc);
        if (nr__idmap_get(&m->phase_procs, key) < 0 && nr__idmap_put(&m->phase_procs, key, 1) == 0)
            m->phases[e->phase].processes_with_io++;
    }
}

int nr__whole_second_stamps(const nr_model *m)
{
    const nr_model_fidelity *f = &m->fidelity;
    return f->events_with_ts > 0 && f->events_ts_subsecond == 0;
}

/* Seconds of the merged intervals iv within [from, to] (unclipped when
 * that is unknown, from < 0). Until session 46 a phase that the hook began
 * before the trace counted its untraced time: train 10.5 s in a 1 s run,
 * and unphased 0 s though it held I/O (review 46). */
static double seconds_within(const nr_model_interval *iv, size_t n, int64_t from, int64_t to)
{
    int64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t b = iv[i].begin_ns, e = iv[i].end_ns;
        if (from >= 0 && to >= from) {
            b = b < from ? from : b;
            e = e > to ? to : e;
        }
        total += e > b ? e - b : 0;
    }
    return (double)total * 1e-9;
}

int nr__phases_finish(nr_model *m)
{
    nr_model_phase *un = &m->phases[m->unphased];
    /* a phase's time is the traced time it covers: within the stamps of
       the trace's first and last lines (exit lines included), the range of
       diagnostics hook_outside_trace */
    const int64_t trace_from = nr__model_meta_i64(m, "trace_first_ts_ns", -1),
                  trace_to = nr__model_meta_i64(m, "trace_last_ts_ns", -1);
    for (size_t i = 0; i < m->unphased; i++)
        m->phases[i].wall_s = seconds_within(m->phases[i].intervals, m->phases[i].n_intervals, trace_from, trace_to);
    /* the rest of the run (its events' extent) is unphased: exactly the
       extent less the phases' union within it */
    const double covered = seconds_within(m->phase_union, m->n_phase_union, m->totals.first_ns, m->totals.last_ns);
    const double run = m->totals.duration_s;
    un->wall_s = isnan(run) ? NAN : run > covered ? run - covered : 0;
    un->first_ns = m->totals.first_ns;
    un->last_ns = m->totals.last_ns;
    const int coarse = nr__whole_second_stamps(m);
    size_t mains = 0; /* one, or one per node of a merged run */
    for (size_t i = 0; i < m->nprocs; i++)
        mains += m->procs[i].role == NR_ROLE_MAIN;
    for (size_t i = 0; i < m->nphases; i++) {
        nr_model_phase *p = &m->phases[i];
        int64_t t = 0;
        for (int op = 0; op < NR_OP_CLASS_COUNT; op++)
            t += p->ops[op].time_ns;
        p->io_time_s = (double)t * 1e-9;
        /* a wall time of 1-second stamps is known to within 1 s: a run of
           70 ms read 0.002 s and 4.03 processes in I/O (strace -t); without
           -T no call has a duration, and 0 s in I/O would claim none. Below
           1 ms the stamps' microsecond and the hook's rounding are too much
           of it: unphased, the rounding left between phases and the run's
           edge, had 375,000 processes in I/O over a few microseconds
           (review 50) */
        const int known = p->wall_s >= NR__SHARE_MIN_WALL_NS * 1e-9 && !coarse && m->fidelity.events_with_dur > 0;
        p->io_share = known ? p->io_time_s / p->wall_s : NAN;
        p->main_io_share = known && mains > 0 ? p->main_io_time_s / (p->wall_s * (double)mains) : NAN;
    }
    const double total = (double)(m->totals.bytes_read + m->totals.bytes_written);
    for (size_t i = 0; i < m->nprocs; i++) {
        nr_model_process *p = &m->procs[i];
        const double life = p->first_ns >= 0 && p->last_ns > p->first_ns ? (double)(p->last_ns - p->first_ns) * 1e-9 : 0;
        /* unknown as a phase's is: whole-second stamps, no durations */
        p->io_share = life > 0 && !coarse && m->fidelity.events_with_dur > 0 ? p->io_time_s / life : NAN;
        p->bytes_share = total > 0 ? (double)(p->bytes_read + p->bytes_written) / total : NAN;
    }
    for (size_t f = 0; f < m->nreg; f++) {
        m->reg_total[f] = m->reg_read[f] + m->reg_written[f];
        m->totals.files_read += m->reg_read[f] > 0;
        m->totals.files_written += m->reg_written[f] > 0;
    }
    m->totals.processes = m->nprocs;
    return 0;
}

double nr_model_phase_job_bytes(const nr_model_phase *p)
{
    return (double)(p->ops[NR_OP_READ].bytes + p->ops[NR_OP_WRITE].bytes - p->runtime_bytes_read -
                    p->runtime_bytes_written);
}

double nr_model_phase_job_io_time_s(const nr_model_phase *p)
{
    return fmax(p->io_time_s - p->runtime_io_time_s, 0);
}

/* The phases' weights in figure 1's rule (nr_phase_pick.h): two arrays
 * of m->nphases (malloc'd into *bytes, *time; freed by the caller, also
 * on failure). Returns 0 or NR_E_NOMEM. */
static int phase_weights(const nr_model *m, double **bytes, double **time)
{
    *bytes = malloc(m->nphases * sizeof **bytes);
    *time = malloc(m->nphases * sizeof **time);
    if (!*bytes || !*time)
        return NR_E_NOMEM;
    for (size_t i = 0; i < m->nphases; i++) {
        (*bytes)[i] = nr_model_phase_job_bytes(&m->phases[i]);
        (*time)[i] = nr_model_phase_job_io_time_s(&m->phases[i]);
    }
    return 0;
}

/* Figure 1's rule (nr_phase_pick_kept) over the phases' job-file weights,
 * which figure 1 is given (cli/figure_inputs.c): the same doubles, so the
 * same phases. */
int nr__phases_fold(nr_model *m)
{
    if (m->nphases <= NR_PHASE_PICK_MAX)
        return 0;
    double *bytes, *time;
    int rc = phase_weights(m, &bytes, &time);
    if (rc == 0)
        rc = nr_phase_pick_kept(1, m->nphases, bytes, time, m->phase_kept, &m->n_phase_kept);
    free(bytes);
    free(time);
    if (rc == 0 && !(m->phase_folded = malloc(m->nphases)))
        rc = NR_E_NOMEM;
    if (rc < 0) {
        m->n_phase_kept = 0;
        return rc;
    }
    memset(m->phase_folded, 1, m->nphases);
    for (size_t k = 0; k < m->n_phase_kept; k++)
        m->phase_folded[m->phase_kept[k]] = 0;
    return 0;
}

void nr_model_phase_add(nr_model_phase *sum, const nr_model_phase *p)
{
    sum->instances += p->instances;
    sum->never_ended += p->never_ended;
    sum->ended_by_error += p->ended_by_error;
    for (int op = 0; op < NR_OP_CLASS_COUNT; op++) {
        sum->ops[op].calls += p->ops[op].calls;
        sum->ops[op].bytes += p->ops[op].bytes;
        sum->ops[op].time_ns += p->ops[op].time_ns;
    }
    sum->io_time_s += p->io_time_s;
    sum->main_io_time_s += p->main_io_time_s;
    sum->runtime_bytes_read += p->runtime_bytes_read;
    sum->runtime_bytes_written += p->runtime_bytes_written;
    sum->runtime_io_time_s += p->runtime_io_time_s;
    sum->job_bytes_mapped += p->job_bytes_mapped;
    sum->waits.count += p->waits.count;
    sum->waits.seconds += p->waits.seconds;
    sum->waits.passes += p->waits.passes;
    sum->waits.start_seconds += p->waits.start_seconds;
}

/* Figure 1's rule again (nr_phase_pick_top), for the NR_MODEL_PHASES_LISTED
 * of the largest weight: a table of 100,000 phases made a report of 135 MB
 * that Chromium took 286 s to show (docs/performance.md, session 65). */
int nr__phases_list(nr_model *m)
{
    m->phase_rest = (nr_model_phase){.name = "", .wall_s = NAN, .io_share = NAN, .main_io_share = NAN};
    if (m->nphases <= NR_MODEL_PHASES_LISTED)
        return 0;
    double *bytes, *time;
    int rc = phase_weights(m, &bytes, &time);
    if (rc == 0 && !(m->phase_listed = malloc(m->nphases)))
        rc = NR_E_NOMEM;
    if (rc == 0)
        rc = nr_phase_pick_top(1, m->nphases, bytes, time, NR_MODEL_PHASES_LISTED, m->phase_listed);
    free(bytes);
    free(time);
    if (rc < 0)
        return rc;
    for (size_t i = 0; i < m->nphases; i++)
        if (!m->phase_listed[i])
            nr_model_phase_add(&m->phase_rest, &m->phases[i]);
    return 0;
}

int nr_model_phase_listed(const nr_model *m, size_t i) { return !m->phase_listed || m->phase_listed[i]; }

const nr_model_phase *nr_model_phases_unlisted(const nr_model *m, size_t *n_unlisted)
{
    *n_unlisted = m->phase_listed ? m->nphases - NR_MODEL_PHASES_LISTED : 0;
    return *n_unlisted ? &m->phase_rest : NULL;
}

size_t nr_model_phase_kept(const nr_model *m, const size_t **kept)
{
    *kept = m->phase_kept;
    return m->n_phase_kept;
}
