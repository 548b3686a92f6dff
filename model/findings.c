/* Findings: rules that turn the numbers into plain sentences with their
 * evidence and a suggested action. Every rule and its threshold lives in the
 * one table below; docs/findings.md gives the rationale of each. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

#define MIB 1048576.0    /* bytes */
#define GIB 1073741824.0

/* The numbers a rule looks at: applicable = 0 when the run lacks them,
 * and why says what is missing; value is compared to the threshold; args
 * fill the sentence template. */
typedef struct evidence {
    int applicable;
    char why[NR_RULE_WHY_MAX];
    double value;
    double gate;      /* second condition, compared to rule.gate (>=) */
    double args[4];
} evidence;

typedef struct rule {
    const char *id;
    int fires_below;        /* 1: fires when value < threshold; 0: when value > threshold */
    double threshold;
    double gate;            /* fires only when evidence.gate >= gate (0 = no gate) */
    const char *gate_why;   /* printf template over evidence.gate x gate_scale: why the gate stops the rule */
    double gate_scale;
    const char *unit;       /* of value and threshold: "share" (0..1) or "B" */
    const char *number;     /* what value is, in words */
    const char *sentence;   /* printf template over evidence.args[0..3] */
    const char *action;
    void (*measure)(const nr_model *m, evidence *ev);
} rule;

static const nr_model_phase *phase_named(const nr_model *m, const char *name)
{
    for (size_t i = 0; i < m->nphases; i++)
        if (i != m->unphased && strcmp(m->phases[i].name, name) == 0)
            return &m->phases[i];
    return NULL;
}

static void hot_set(const nr_model *m, evidence *ev)
{
    const nr_concentration *c = &m->conc[NR_CONC_TOTAL];
    ev->applicable = c->n >= 10 && c->total > 0;
    if (!ev->applicable && c->total > 0)
        snprintf(ev->why, sizeof ev->why, "%zu job files; the rule needs 10", c->n);
    else if (!ev->applicable)
        snprintf(ev->why, sizeof ev->why, "no job file moved a byte");
    ev->value = c->files_for_90;
    ev->args[0] = 100.0 * c->files_for_90;
    /* files_for_90 is k / n: rounded, not ceil'ed (k / n * n may come out
       above k: "8 of 100 files" for 7, review 46) */
    ev->args[1] = round(c->files_for_90 * (double)c->n);
    ev->args[2] = (double)c->n;
}

static void small_reads(const nr_model *m, evidence *ev)
{
    const nr_model_access *a = &m->access;
    int64_t io = 0;
    for (size_t i = 0; i < m->nphases; i++)
        for (int op = 0; op < NR_OP_CLASS_COUNT; op++)
            io = nr__sat_add(io, m->phases[i].ops[op].time_ns);
    int64_t rd = 0;
    for (size_t i = 0; i < m->nphases; i++)
        rd = nr__sat_add(rd, m->phases[i].ops[NR_OP_READ].time_ns);
    ev->applicable = m->read_size.count > 0 && io > 0;
    if (m->read_size.count == 0)
        snprintf(ev->why, sizeof ev->why, "no read of a job file returned data");
    else if (io == 0)
        snprintf(ev->why, sizeof ev->why, "no call has a duration (trace with -T)");
    ev->value = (double)a->median_read_size;
    ev->gate = io > 0 ? (double)rd / (double)io : 0;
    ev->args[0] = (double)a->median_read_size;
    ev->args[1] = 100.0 * ev->gate;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A file's size as far as the job read it: the furthest end offset of its
 * reads, or its bytes read when no read's offset is known. Not the bytes
 * read, which grow with every epoch that reads the file again. */
static double read_extent(const nr_model *m, size_t i)
{
    return m->reg_extent[0][i] > 0 ? (double)m->reg_extent[0][i] : m->reg_read[i];
}

static void small_files(const nr_model *m, evidence *ev)
{
    double *v = malloc((m->nreg + 1) * sizeof *v);
    size_t k = 0;
    for (size_t i = 0; v && i < m->nreg; i++)
        if (m->reg_read[i] > 0 && !m->reg_runtime[i])
            v[k++] = read_extent(m, i);
    ev->applicable = v && k > 0;
    if (!ev->applicable)
        snprintf(ev->why, sizeof ev->why, v ? "no job file was read" : "out of memory");
    if (ev->applicable) {
        qsort(v, k, sizeof *v, cmp_double);
        ev->value = v[(k + 1) / 2 - 1];   /* nearest-rank median */
    }
    ev->gate = (double)k;
    ev->args[0] = (double)k;
    ev->args[1] = ev->value;
    free(v);
}

/* The runtime's share of the bytes read (nr_model_runtime). */
static void runtime_reads(const nr_model *m, evidence *ev)
{
    const uint64_t all = m->totals.bytes_read, mine = m->runtime.bytes_read;
    ev->applicable = all > 0;
    if (!ev->applicable)
        snprintf(ev->why, sizeof ev->why, "nothing was read");
    ev->value = all > 0 ? (double)mine / (double)all : 0;
    ev->gate = (double)mine;
    ev->args[0] = 100.0 * ev->value;
    ev->args[1] = (double)mine / MIB;
    ev->args[2] = (double)m->runtime.files;
}

/* The job files' bytes read again (nr_model_rereads): a bound from below. */
static void rereads(const nr_model *m, evidence *ev)
{
    const nr_model_rereads *r = &m->access.rereads;
    ev->applicable = r->bytes_placed > 0;
    if (!ev->applicable)
        snprintf(ev->why, sizeof ev->why, "no read of a job file at a known offset returned data");
    ev->value = r->share;
    ev->gate = (double)r->at_least_bytes;
    ev->args[0] = (double)r->at_least_bytes / GIB;
    ev->args[1] = 100.0 * r->share;
    ev->args[2] = r->passes_at_least;
    ev->args[3] = (double)r->files;
}

/* The job files' mappings against their reads: what reads through memory
 * could reach, of all the job files' data the trace shows moved or mapped. */
static void mapped_data(const nr_model *m, evidence *ev)
{
    const nr_model_fidelity *f = &m->fidelity;
    const uint64_t read = m->totals.bytes_read - m->runtime.bytes_read, mapped = f->mmap_job.bytes;
    const double reach = (double)mapped + (double)read;
    ev->applicable = reach > 0 && f->mmap_lengths_known;
    if (!f->mmap_lengths_known)
        snprintf(ev->why, sizeof ev->why, "the store does not record the mappings' lengths (an ingest before "
                                          "revision 23): ingest the run again");
    else if (!ev->applicable)
        snprintf(ev->why, sizeof ev->why, "no job file was read or mapped");
    ev->value = reach > 0 ? (double)mapped / reach : 0;
    ev->gate = (double)mapped;
    ev->args[0] = (double)mapped / GIB;
    ev->args[1] = (double)f->mmap_job.files;
    ev->args[2] = 100.0 * ev->value;
}

/* Whether a burst of this phase may be a checkpoint: not one of the hook's
 * canonical phases that are not (a data_prep's output is a write burst,
 * and the language sample's largest). */
static int may_be_checkpoint(const char *phase)
{
    static const char *const not_ckpt[] = {"data_prep", "model_load", "eval"};
    for (size_t i = 0; i < sizeof not_ckpt / sizeof not_ckpt[0]; i++)
        if (strcmp(phase, not_ckpt[i]) == 0)
            return 0;
    return 1;
}

static void async_checkpoints(const nr_model *m, evidence *ev)
{
    const double run = m->totals.duration_s;
    const nr_model_phase *ck = phase_named(m, "checkpoint");
    double t = 0;
    size_t bursts = 0;
    if (ck) {
        t = ck->wall_s;
    } else {
        for (size_t p = 0; m->burst_phase_count && p < m->nphases; p++)
            if (may_be_checkpoint(m->phases[p].name)) {   /* every burst, listed or not */
                t += m->burst_phase_time_s[p];
                bursts += m->burst_phase_count[p];
            }
    }
    ev->applicable = run > 0 && (ck || (bursts > 0 && isfinite(t)));
    if (!(run > 0))
        snprintf(ev->why, sizeof ev->why, "the run's duration is unknown (no timestamps, or times not wall times)");
    else if (!ck && bursts > 0 && !isfinite(t))
        snprintf(ev->why, sizeof ev->why, "no checkpoint phase, and the write bursts have no duration: "
                                          "whole-second stamps (strace -t), use -ttt");
    else if (!ev->applicable)
        snprintf(ev->why, sizeof ev->why,
                 "no checkpoint phase, and no write burst outside data_prep, model_load and eval");
    ev->value = run > 0 && isfinite(t) ? t / run : 0;
    ev->args[0] = 100.0 * ev->value;
    ev->args[1] = isfinite(t) ? t : 0;
    ev->args[2] = ck ? 1 : 0;
}

static void cache_tail(const nr_model *m, evidence *ev)
{
    const nr_cache_split *s = &m->split;
    const nr_model_latency *rd = nr__lat(m, NR_LAT_READ, 0);
    ev->applicable = s->found && s->misses_plausible && rd->count > 0;
    if (rd->count == 0)
        snprintf(ev->why, sizeof ev->why, "no read has a duration (no reads, or trace with -T)");
    else if (!s->found) /* the summary's words */
        nr_cache_split_why_none(rd->count, ev->why, sizeof ev->why);
    else if (!s->misses_plausible)
        snprintf(ev->why, sizeof ev->why, "the cache split is at %.3g us, below %d us: the slow mode is not misses",
                 (double)s->threshold_ns * 1e-3, NR_CACHE_MISS_MIN_NS / 1000);
    ev->value = s->slow_share;
    ev->gate = 1.0 - s->slow_share;   /* misses are the minority: they make the tail */
    ev->args[0] = 100.0 * s->slow_share;
    ev->args[1] = (double)s->threshold_ns * 1e-6;
    ev->args[2] = (double)rd->q_ns[2] * 1e-6;
    ev->args[3] = 100.0 * s->slow_bytes_share;
}

/* Why train's main_io_share is unknown (phases.c sets it NAN). */
static void data_bound_why(const nr_model *m, const nr_model_phase *p, evidence *ev)
{
    size_t mains = 0;
    for (size_t i = 0; i < m->nprocs; i++)
        mains += m->procs[i].role == NR_ROLE_MAIN;
    const char *why = !p                                ? "no phase named train (the hook marks phases)"
                      : !(p->wall_s > 0)                ? "the train phase has no wall time"
                      : m->fidelity.events_with_dur == 0 ? "no call has a duration (trace with -T)"
                      : nr__whole_second_stamps(m)       ? "whole-second stamps (strace -t): use -ttt"
                      : mains == 0                       ? "no main process"
                                                         : "the main process's I/O share is unknown";
    snprintf(ev->why, sizeof ev->why, "%s", why);
}

static void data_bound(const nr_model *m, evidence *ev)
{
    const nr_model_phase *p = phase_named(m, "train");
    ev->applicable = p && p->wall_s > 0 && !isnan(p->main_io_share);
    if (!ev->applicable) {
        data_bound_why(m, p, ev);
        return;
    }
    ev->value = p->main_io_share;
    ev->args[0] = 100.0 * p->main_io_share;
    ev->args[1] = p->main_io_time_s;
    ev->args[2] = p->wall_s;
}

/* train's waits (niorep_hook.batches), or NULL with why said. */
static const nr_model_waits *train_waits(const nr_model *m, evidence *ev)
{
    const nr_model_phase *p = phase_named(m, "train");
    const nr_model_waits *w = p ? &p->waits : NULL;
    ev->applicable = w && w->count > 0 && !isnan(w->share);
    if (!ev->applicable)
        snprintf(ev->why, sizeof ev->why, "%s",
                 !p             ? "no phase named train (the hook marks phases)"
                 : !w->count    ? "no wait recorded in phase train (iterate the loader with niorep_hook.batches)"
                                : "the train phase lasted under 1 ms");
    return ev->applicable ? w : NULL;
}

/* The loop's own wait for its data after the first item of each pass, from
 * the hook's waits in train: with DataLoader workers the wait on their
 * queue, which no file call shows. The first items are loader_start's. */
static void batch_wait(const nr_model *m, evidence *ev)
{
    const nr_model_waits *w = train_waits(m, ev);
    if (!w)
        return;
    if (isnan(w->steady_share)) {
        ev->applicable = 0;
        snprintf(ev->why, sizeof ev->why, "the first items of train's passes fill its time: no steady state");
        return;
    }
    ev->value = w->steady_share;
    ev->args[0] = 100.0 * w->steady_share;
    ev->args[1] = (double)(w->count - w->passes);
    ev->args[2] = w->seconds - w->start_seconds;
    ev->args[3] = w->steady_max_ns >= 0 ? (double)w->steady_max_ns * 1e-9 : 0;
}

/* The loop's wait for the first item of each pass: the loader's start
 * (DataLoader workers started, their queues filled). */
static void loader_start(const nr_model *m, evidence *ev)
{
    const nr_model_waits *w = train_waits(m, ev);
    if (!w)
        return;
    if (!w->passes) {
        ev->applicable = 0;
        snprintf(ev->why, sizeof ev->why, "no wait in train is marked as a pass's first (a hook before session 63)");
        return;
    }
    ev->value = w->start_share;
    ev->args[0] = 100.0 * w->start_share;
    ev->args[1] = (double)w->passes;
    ev->args[2] = w->start_seconds;
    ev->args[3] = (double)w->start_max_ns * 1e-9;
}

/* The job's processes (main and its workers) killed by signal, from the
 * model's counts of the ends; not applicable when no process's end is in
 * the log. */
static void killed_by(const nr_model *m, const char *signal, evidence *ev)
{
    const nr_model_process_ends *e = &m->ends;
    uint64_t seen = 0;
    for (int k = 0; k < NR_END_COUNT; k++)
        seen += k == NR_END_UNSEEN ? 0 : nr_model_role_sum(e->count[k]);
    const nr_model_signal_count key = {.signal = signal};
    const nr_model_signal_count *c =
        e->nsignals ? bsearch(&key, e->signals, e->nsignals, sizeof *e->signals, nr__cmp_signal_name) : NULL;
    const double workers = c ? (double)c->processes[NR_ROLE_WORKER] : 0;
    ev->applicable = seen > 0;
    if (!seen)
        snprintf(ev->why, sizeof ev->why, "no process's end (+++ exited or killed +++) is in the log");
    ev->value = (c ? (double)c->processes[NR_ROLE_MAIN] : 0) + workers;
    ev->args[0] = ev->value;
    ev->args[1] = workers;
}

static void killed_sigkill(const nr_model *m, evidence *ev) { killed_by(m, "SIGKILL", ev); }
static void killed_sigbus(const nr_model *m, evidence *ev) { killed_by(m, "SIGBUS", ev); }

/* The rules. Thresholds are documented with their rationale in docs/findings.md. */
static const rule rules[] = {
    {.id = "hot_set", .fires_below = 1, .threshold = 0.10, .unit = "share",
     .number = "share of the job files that carry 90% of their bytes",
     .sentence = "90%% of the job's file bytes came from %.1f%% of its files (%.0f of %.0f files).",
     .action = "Prefetch or pin the hot set on a faster tier (page cache, local NVMe).",
     .measure = hot_set},
    {.id = "small_reads", .fires_below = 1, .threshold = 65536, .gate = 0.5, .unit = "B",
     .number = "median read of the job files",
     .gate_why = "reads are %.0f%% of the file I/O time; the rule needs 50%%", .gate_scale = 100,
     .sentence = "The median read is %.0f bytes and reads take %.0f%% of the file I/O time.",
     .action = "Read larger blocks: bigger buffers, batched or sharded record formats.",
     .measure = small_reads},
    {.id = "small_files", .fires_below = 1, .threshold = MIB, .gate = 100, .unit = "B",
     .number = "median size of the job files read, as far as read",
     .gate_why = "%.0f job files were read; the rule needs 100", .gate_scale = 1,
     .sentence = "%.0f of the job's files were read, of a median size of %.0f bytes as far as read.",
     .action = "Pack small files into larger shards (tar/WebDataset, TFRecord, HDF5).",
     .measure = small_files},
    {.id = "async_checkpoints", .fires_below = 0, .threshold = 0.10, .unit = "share",
     .number = "checkpoint time over the run's duration",
     .sentence = "Checkpointing took %.1f%% of the run's wall time (%.3g s).",
     .action = "Write checkpoints asynchronously, or stage them locally and copy in the background.",
     .measure = async_checkpoints},
    {.id = "cache_miss_tail", .fires_below = 0, .threshold = 0.01, .gate = 0.5, .unit = "share",
     .number = "share of slow reads (cache split)",
     .gate_why = "slow reads are more than half of the reads (fast ones %.0f%%): the misses are no tail",
     .gate_scale = 100,
     .sentence = "%.1f%% of reads are slow (>= %.3g ms, cache misses) and set the read p99 of %.3g ms; "
                 "they carry %.1f%% of the bytes read.",
     .action = "Warm the page cache or stage the data set on local storage: the tail is misses.",
     .measure = cache_tail},
    {.id = "data_bound", .fires_below = 0, .threshold = 0.30, .unit = "share",
     .number = "share of train's wall time the main process spent in file I/O",
     .sentence = "In phase train, the main process waited in file I/O system calls for %.0f%% of the wall time "
                 "(%.3g s of %.3g s).",
     .action = "Training waits on data: add DataLoader workers, prefetch, or stage the data closer.",
     .measure = data_bound},
    {.id = "runtime_reads", .fires_below = 0, .threshold = 0.50, .gate = MIB, .unit = "share",
     .number = "share of the bytes read that came from runtime files",
     .gate_why = "%.2f MiB read from runtime files; the rule needs 1 MiB", .gate_scale = 1.0 / MIB,
     .sentence = "%.0f%% of the bytes read (%.1f MiB, %.0f files) were the job's software: Python modules, "
                 "shared libraries and system files, not its data.",
     .action = "Keep the software environment on local storage or in a container image: on a shared file "
               "system every node and every restart reads it again. The per-file numbers count the job's "
               "own files only.",
     .measure = runtime_reads},
    {.id = "rereads", .fires_below = 0, .threshold = 0.50, .gate = GIB, .unit = "share",
     .number = "share of the job files' bytes read that had been read before, at least",
     .gate_why = "%.2f GiB were read again, at least; the rule needs 1 GiB", .gate_scale = 1.0 / GIB,
     .sentence = "At least %.2f GiB of the job files' reads (%.0f%%) read bytes that had been read before: each "
                 "byte %.2f times at least, on average, in %.0f files.",
     .action = "The job reads its data anew in every pass (epoch). If the data set fits, keep it after the first "
               "pass: in memory, on node-local storage, or behind a caching loader; on a shared file system every "
               "pass loads its servers again.",
     .measure = rereads},
    {.id = "mapped_data", .fires_below = 0, .threshold = 0.50, .gate = 100 * MIB, .unit = "share",
     .number = "share of the job files' bytes read or mapped that were mapped",
     .gate_why = "%.0f MiB of job files were mapped; the rule needs 100 MiB", .gate_scale = 1.0 / MIB,
     .sentence = "%.2f GiB of %.0f job files were mapped into memory, %.0f%% of what the job files' reads and "
                 "mappings could reach: reads through memory are invisible to strace.",
     .action = "The bytes read, access pattern and latencies of these files miss their reads through memory "
               "(np.memmap, safetensors, Arrow). To measure them, trace one run that reads them with read() "
               "(np.fromfile, loading into memory), or record page faults (perf trace -F maj).",
     .measure = mapped_data},
    {.id = "batch_wait", .fires_below = 0, .threshold = 0.30, .unit = "share",
     .number = "share of train's wall time the training loop waited for its next batch, the first of each pass "
               "aside",
     .sentence = "In phase train, the training loop waited for its next batch %.0f%% of the time, the first batch of "
                 "each pass aside (%.0f waits, %.3g s in all, the longest %.3g s).",
     .action = "Training waits on data: add DataLoader workers or prefetch more batches per worker, make each "
               "sample cheaper to load (larger shards, lighter decoding), or stage the data closer.",
     .measure = batch_wait},
    {.id = "loader_start", .fires_below = 0, .threshold = 0.10, .unit = "share",
     .number = "share of train's wall time the training loop waited for the first batch of its passes",
     .sentence = "In phase train, the training loop waited for the first batch of its passes %.0f%% of the time "
                 "(%.0f passes, %.3g s in all, the longest %.3g s): the data loader's start.",
     .action = "Start the loader once: with DataLoader workers, persistent_workers=True keeps them between passes "
               "(epochs); keep each worker's start light (the dataset object it receives, its imports, "
               "worker_init_fn).",
     .measure = loader_start},
    {.id = "killed_sigkill", .fires_below = 0, .threshold = 0, .unit = "processes",
     .number = "processes of the job (main and workers) killed by SIGKILL",
     .sentence = "%.0f of the job's processes (%.0f of them workers) were killed by SIGKILL, the signal of the "
                 "kernel's out-of-memory killer (and of kill -9 and a scheduler's hard limit).",
     .action = "Look for \"Out of memory: Killed process\" in the kernel log (dmesg, journalctl -k) and compare the "
               "job's peak memory with its limit (the node's, the cgroup's, the container's). Each DataLoader worker "
               "holds a copy of what its dataset object holds, and prefetch_factor batches: fewer workers, a smaller "
               "prefetch_factor, or samples loaded lazily in the worker lower the peak.",
     .measure = killed_sigkill},
    {.id = "killed_sigbus", .fires_below = 0, .threshold = 0, .unit = "processes",
     .number = "processes of the job (main and workers) killed by SIGBUS",
     .sentence = "%.0f of the job's processes (%.0f of them workers) were killed by SIGBUS: a write to a full "
                 "shared memory (/dev/shm), through which DataLoader workers hand their batches over, or a read of "
                 "a mapped file cut short.",
     .action = "Enlarge /dev/shm (docker run --shm-size, a Kubernetes emptyDir with medium Memory), or have PyTorch "
               "share tensors through files: torch.multiprocessing.set_sharing_strategy(\"file_system\"). A file "
               "truncated while mapped (np.memmap, safetensors) raises it too.",
     .measure = killed_sigbus},
};

/* The rule's outcome from its evidence, into out. */
static void judge(const rule *r, const evidence *ev, nr_model_rule *out)
{
    *out = (nr_model_rule){.id = r->id, .unit = r->unit, .number = r->number, .fires_below = r->fires_below, .threshold = r->threshold,
                           .value = NAN};
    if (!ev->applicable || isnan(ev->value)) {
        out->state = NR_RULE_NOT_APPLICABLE;
        snprintf(out->why, sizeof out->why, "%s", ev->why[0] ? ev->why : "its number is not defined for this run");
        return;
    }
    out->value = ev->value;
    if (r->gate > 0 && !(ev->gate >= r->gate)) {
        out->state = NR_RULE_GATED;
        snprintf(out->why, sizeof out->why, r->gate_why, ev->gate * r->gate_scale);
        return;
    }
    const int fires = r->fires_below ? ev->value < r->threshold : ev->value > r->threshold;
    out->state = fires ? NR_RULE_FIRED : NR_RULE_NOT_FIRED;
}

const char *nr_rule_state_name(nr_rule_state s)
{
    static const char *const names[] = {
        [NR_RULE_FIRED] = "fired",
        [NR_RULE_NOT_FIRED] = "not fired",
        [NR_RULE_GATED] = "gate not met",
        [NR_RULE_NOT_APPLICABLE] = "not applicable",
    };
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

int nr__findings_compute(nr_model *m)
{
    const size_t nrules = sizeof rules / sizeof rules[0];
    m->findings = calloc(nrules, sizeof *m->findings);
    m->rules = calloc(nrules, sizeof *m->rules);
    if (!m->findings || !m->rules)
        return NR_E_NOMEM;
    m->nrules = nrules;
    for (size_t i = 0; i < nrules; i++) {
        const rule *r = &rules[i];
        evidence ev = {0};
        r->measure(m, &ev);
        judge(r, &ev, &m->rules[i]);
        if (m->rules[i].state != NR_RULE_FIRED)
            continue;
        nr_model_finding *f = &m->findings[m->nfindings++];
        f->id = r->id;
        f->action = r->action;
        f->value = ev.value;
        f->threshold = r->threshold;
        snprintf(f->sentence, sizeof f->sentence, r->sentence, ev.args[0], ev.args[1], ev.args[2], ev.args[3]);
    }
    return 0;
}
