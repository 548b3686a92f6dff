/* nr_model: the order of the passes, and the accessors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* The run extent: events' first start to last end, else the processes table. */
static void finish_totals(nr_model *m)
{
    nr_model_totals *t = &m->totals;
    t->first_ns = m->fidelity.strace_first_ns;
    t->last_ns = m->fidelity.strace_last_ns;
    if (t->first_ns < 0)
        for (size_t i = 0; i < m->nprocs; i++) {
            const nr_model_process *p = &m->procs[i];
            if (p->first_ns >= 0 && (t->first_ns < 0 || p->first_ns < t->first_ns))
                t->first_ns = p->first_ns;
            if (p->last_ns > t->last_ns)
                t->last_ns = p->last_ns;
        }
    /* no timestamps: unknown, not 0 (a number that does not exist is null) */
    t->duration_s = t->first_ns < 0 ? NAN : t->last_ns > t->first_ns ? (double)(t->last_ns - t->first_ns) * 1e-9 : 0;
}

static int keep_pass_state; /* nr__model_keep_pass_state */

void nr__model_keep_pass_state(int on) { keep_pass_state = on != 0; }

/* Frees what only the passes read (id maps, the file rows' kinds and
 * paths, the access scan's last offsets, the folded phases' flags, the
 * quantiles' collections, the access sizes' counters): a
 * build or a compare holds every run's model at once, and this was a third
 * of a model of many files. */
static void free_pass_state(nr_model *m)
{
    nr__idmap *maps[] = {&m->file_ids, &m->phase_ids, &m->phase_procs};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        nr__idmap_fini(maps[i]); /* empty again */
    free(m->file_info);
    free(m->file_path);
    m->file_info = NULL;
    m->file_path = NULL;
    for (int w = 0; w < 2; w++) {
        free(m->reg_last_end[w]);
        free(m->reg_extent[w]);
        m->reg_last_end[w] = m->reg_extent[w] = NULL;
    }
    free(m->reg_read_placed);
    m->reg_read_placed = NULL;
    free(m->reg_mapped);
    m->reg_mapped = NULL;
    free(m->proc_last_phase);
    m->proc_last_phase = NULL;
    free(m->phase_folded);
    m->phase_folded = NULL;
    m->proc_last_phase_cap = 0;
    nr__latency_free_targets(m);
    free(m->size_counts);
    m->size_counts = NULL;
}

static int compute(nr_model *m, const nr_store *s, nr_error *err)
{
    NR_TRY(nr__check_schema(s, err));
    NR_TRY(nr__load_meta(m, s, err));
    NR_TRY(nr__load_files(m, s, err));
    NR_TRY(nr__load_phases(m, s, err));
    NR_TRY(nr__load_processes(m, s, err));
    NR_TRY(nr__assign_roles(m));
    NR_TRY(nr__idmap_densify(&m->file_ids));
    NR_TRY(nr__idmap_densify(&m->phase_ids));
    NR_TRY(nr__latency_alloc(m));
    NR_TRY(nr__timeline_predict(m));
    if (!(m->size_counts = calloc(1, sizeof *m->size_counts)))
        return NR_E_NOMEM;
    NR_TRY(nr__pass_events(m, s, 1, err));
    NR_TRY(nr__bursts_plan(m));
    nr__sizes_plan(m->size_counts);
    finish_totals(m);
    NR_TRY(nr__phases_finish(m));
    NR_TRY(nr__phases_fold(m));
    NR_TRY(nr__phases_list(m));
    nr__access_finish(m);
    NR_TRY(nr__concentration_compute(m, err));
    NR_TRY(nr__latency_plan(m, err));
    NR_TRY(nr__timeline_plan(m));
    NR_TRY(nr__pass_events(m, s, 2, err));
    NR_TRY(nr__bursts_finish(m));
    nr__sizes_finish(m->size_counts, &m->access.common_sizes);
    int again;
    while ((again = nr__latency_step(m, err)) > 0)
        NR_TRY(nr__pass_events(m, s, 3, err));
    NR_TRY(again);
    NR_TRY(nr__latency_finish(m, s, err));
    NR_TRY(nr__fidelity_finish(m, s, err));
    NR_TRY(nr__marks_load(m, s, err));
    NR_TRY(nr__waits_load(m, s, err));
    /* accessors list processes by pid */
    NR_TRY(nr__sort_processes(m));
    NR_TRY(nr__process_ends(m));
    NR_TRY(nr__findings_compute(m));
    NR_TRY(nr__files_keep_top(m));
    if (!keep_pass_state)
        free_pass_state(m);
    return 0;
}

nr_model_opts nr_model_resolve_opts(const nr_model_opts *in)
{
    nr_model_opts o = in ? *in : (nr_model_opts){.bootstraps = -1, .threads = 1};
    if (o.bootstraps < 0)
        o.bootstraps = NR_MODEL_DEFAULT_BOOTSTRAPS;
    if (o.seed == 0)
        o.seed = NR_MODEL_DEFAULT_SEED;
    return o;
}

int nr__name_store_error(const nr_store *s, int rc, nr_error *err)
{
    const char *name = nr_store_name(s);
    const size_t n = strlen(name);
    if (!err || (strncmp(err->msg, name, n) == 0 && err->msg[n] == ':'))
        return rc;
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    nr_error_set(err, err->code != NR_OK ? err->code : rc, "%s: %s", name, msg);
    return rc;
}

int nr_model_compute(const nr_store *s, const nr_model_opts *opts, nr_model **out, nr_error *err)
{
    *out = NULL;
    nr_model *m = calloc(1, sizeof *m);
    if (!m)
        return nr_error_set(err, NR_E_NOMEM, "out of memory creating the model");
    nr_arena_init(&m->arena);
    nr_arena_init(&m->path_arena);
    m->burst_totals.highest_rate = NAN;
    nr__idmap_init(&m->file_ids);
    nr__idmap_init(&m->phase_ids);
    nr__idmap_init(&m->pids);
    nr__idmap_init(&m->phase_procs);
    m->main_pid = -1;
    m->fidelity.hook_first_ns = m->fidelity.hook_last_ns = -1;
    m->fidelity.strace_first_ns = m->fidelity.strace_last_ns = -1;
    m->opts = nr_model_resolve_opts(opts);
    const int rc = compute(m, s, err);
    m->opts.known_pl = NULL; /* the caller's, valid during the call only */
    if (rc < 0) {
        if (err && err->code == NR_OK)
            nr_error_set(err, rc, "computing the model failed: %s", nr_error_name(rc));
        nr_model_free(m);
        return nr__name_store_error(s, rc, err);
    }
    *out = m;
    return 0;
}

void nr_model_free(nr_model *m)
{
    if (!m)
        return;
    free_pass_state(m);
    free(m->reg_paths);
    free(m->reg_runtime);
    free(m->reg_read);
    free(m->reg_written);
    free(m->reg_total);
    free(m->reg_access);
    free(m->phases);
    free(m->phase_listed);
    free(m->procs);
    free(m->signals);
    free(m->proc_next);
    free(m->phase_pids);
    for (int i = 0; i < NR_CONC_COUNT; i++) {
        free(m->lorenz_x[i]);
        free(m->lorenz_y[i]);
    }
    for (int i = 0; i < NR_PL_COUNT; i++) {
        free(m->ccdf_x[i]);
        free(m->ccdf_p[i]);
    }
    nr__latency_free(m);
    free(m->tl_read);
    free(m->tl_write);
    free(m->tl_job_read);
    free(m->tl_job_write);
    free(m->tl_waiting);
    free(m->tl_start_waiting);
    free(m->bursts);
    free(m->burst_phase_time_s);
    free(m->burst_phase_count);
    nr__bursts_free_state(m);
    free(m->findings);
    free(m->rules);
    free(m->pyio);
    free(m->reason_names);
    free(m->reason_counts);
    nr__idmap_fini(&m->pids);
    nr_arena_fini(&m->arena);
    nr_arena_fini(&m->path_arena);
    free(m);
}

/* ---- accessors -------------------------------------------------------- */

const nr_model_totals *nr_model_get_totals(const nr_model *m) { return &m->totals; }
size_t nr_model_phase_count(const nr_model *m) { return m->nphases; }
const nr_model_phase *nr_model_phase_at(const nr_model *m, size_t i) { return i < m->nphases ? &m->phases[i] : NULL; }
size_t nr_model_process_count(const nr_model *m) { return m->nprocs; }
const nr_model_process *nr_model_process_at(const nr_model *m, size_t i) { return i < m->nprocs ? &m->procs[i] : NULL; }
int64_t nr_model_main_pid(const nr_model *m) { return m->main_pid; }
const nr_model_process_ends *nr_model_get_process_ends(const nr_model *m) { return &m->ends; }
const nr_model_files *nr_model_get_files(const nr_model *m) { return &m->files; }
const nr_model_runtime *nr_model_runtime_files(const nr_model *m) { return &m->runtime; }

const nr_concentration *nr_model_concentration(const nr_model *m, int which)
{
    return which >= 0 && which < NR_CONC_COUNT ? &m->conc[which] : NULL;
}

size_t nr_model_lorenz(const nr_model *m, int which, const double **xs, const double **ys)
{
    if (which < 0 || which >= NR_CONC_COUNT)
        return 0;
    *xs = m->lorenz_x[which];
    *ys = m->lorenz_y[which];
    return m->nlorenz[which];
}

const nr_powerlaw_fit *nr_model_powerlaw(const nr_model *m, int which)
{
    return which >= 0 && which < NR_PL_COUNT ? &m->pl[which] : NULL;
}

size_t nr_model_ccdf(const nr_model *m, int which, const double **xs, const double **ps)
{
    if (which < 0 || which >= NR_PL_COUNT)
        return 0;
    *xs = m->ccdf_x[which];
    *ps = m->ccdf_p[which];
    return m->nccdf[which];
}

static int lat_ok(int lat_op) { return lat_op >= 0 && lat_op < NR_LAT_OP_COUNT; }

const nr_model_latency *nr_model_latency_all(const nr_model *m, int lat_op)
{
    return lat_ok(lat_op) ? nr__lat(m, lat_op, 0) : NULL;
}

const nr_model_latency *nr_model_latency_phase(const nr_model *m, int lat_op, size_t phase)
{
    return lat_ok(lat_op) && phase < m->nphases ? nr__lat_phase(m, lat_op, phase, 0) : NULL;
}

const nr_model_latency *nr_model_latency_role(const nr_model *m, int lat_op, int role)
{
    return lat_ok(lat_op) && role >= 0 && role < NR_ROLE_COUNT ? nr__lat(m, lat_op, nr__lat_slot_role(m, role)) : NULL;
}

size_t nr_model_fs_count(const nr_model *m) { return m->nfs; }
const nr_model_fs_bytes *nr_model_fs_bytes_at(const nr_model *m, size_t fs)
{
    return fs < m->nfs ? &m->fs_bytes[fs] : NULL;
}
const char *nr_model_fs_name(const nr_model *m, size_t i) { return i < m->nfs ? m->fs_names[i] : NULL; }

const nr_model_latency *nr_model_latency_fs(const nr_model *m, int lat_op, size_t fs)
{
    return lat_ok(lat_op) && fs < m->nfs ? nr__lat(m, lat_op, nr__lat_slot_fs(m, (int)fs)) : NULL;
}

const nr_model_latency *nr_model_latency_job(const nr_model *m, int lat_op)
{
    return lat_ok(lat_op) ? nr__lat(m, lat_op, nr__lat_slot_job(m)) : NULL;
}

const nr_model_latency *nr_model_latency_job_phase(const nr_model *m, int lat_op, size_t phase)
{
    return lat_ok(lat_op) && phase < m->nphases ? nr__lat_phase(m, lat_op, phase, 1) : NULL;
}

const nr_cache_split *nr_model_cache_split(const nr_model *m) { return &m->split; }
uint64_t nr_model_slow_read_bytes(const nr_model *m) { return m->slow_read_bytes; }
const nr_model_timeline *nr_model_get_timeline(const nr_model *m) { return &m->timeline; }
size_t nr_model_burst_count(const nr_model *m) { return m->nbursts; }
const nr_model_burst_totals *nr_model_get_burst_totals(const nr_model *m) { return &m->burst_totals; }
const nr_model_burst *nr_model_burst_at(const nr_model *m, size_t i) { return i < m->nbursts ? &m->bursts[i] : NULL; }
const nr_model_access *nr_model_get_access(const nr_model *m) { return &m->access; }
const nr_model_nonfile *nr_model_get_nonfile(const nr_model *m) { return &m->nonfile; }
const nr_model_fidelity *nr_model_get_fidelity(const nr_model *m) { return &m->fidelity; }

size_t nr_model_finding_count(const nr_model *m) { return m->nfindings; }
const nr_model_finding *nr_model_finding_at(const nr_model *m, size_t i) { return i < m->nfindings ? &m->findings[i] : NULL; }
size_t nr_model_rule_count(const nr_model *m) { return m->nrules; }
const nr_model_rule *nr_model_rule_at(const nr_model *m, size_t i) { return i < m->nrules ? &m->rules[i] : NULL; }
