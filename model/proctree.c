/* The processes of a run and their tree: which process a pid names at a
 * time, who cloned whom, and the roles (main, worker, other).
 *
 * A pid names one process at a time, but a long job can reuse one (more
 * processes than pid_max): the processes table then has two leader rows
 * of that pid. Each is a process of its own here, and the tree is walked
 * by process, never by pid: until session 51 the two were one, whose
 * parent was the later's, so the tree could loop (1000 -> 2000 -> 3000,
 * 2000 exits, 3000 forks a new 2000) and every worker below the loop
 * counted as `other` (review 50). */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"
#include "nr_store_merge.h"

static int proc_add(nr_model *m, int64_t pid, size_t *out)
{
    NR_TRY(NR_GROW(m->procs, m->procs_cap, m->nprocs + 1));
    NR_TRY(NR_GROW(m->proc_last_phase, m->proc_last_phase_cap, m->nprocs + 1));
    NR_TRY(NR_GROW(m->proc_next, m->proc_next_cap, m->nprocs + 1));
    const size_t idx = m->nprocs;
    m->proc_last_phase[idx] = SIZE_MAX;
    m->proc_next[idx] = -1;
    m->procs[idx] = (nr_model_process){
        .pid = pid, .ppid = -1, .role = pid == m->main_pid ? NR_ROLE_MAIN : NR_ROLE_OTHER,
        .first_ns = -1, .last_ns = -1, .exit_code = -1, .end_ns = -1, .killed_by = "", .program = "",
    };
    int64_t last = nr__idmap_get(&m->pids, pid);
    if (last < 0) {
        NR_TRY(nr__idmap_put(&m->pids, pid, (uint32_t)idx));
    } else {
        while (m->proc_next[last] >= 0)
            last = m->proc_next[last];
        m->proc_next[last] = (int64_t)idx;
    }
    m->nprocs++;
    *out = idx;
    return 0;
}

/* Of the processes of pid, the last to begin at or before ts_ns, else
 * the first; -1 when pid names none. */
static int64_t proc_at(const nr_model *m, int64_t pid, int64_t ts_ns)
{
    int64_t found = nr__idmap_get(&m->pids, pid);
    if (found < 0 || ts_ns < 0)
        return found;
    for (int64_t j = m->proc_next[found]; j >= 0; j = m->proc_next[j]) {
        const int64_t first = m->procs[j].first_ns;
        if (first >= 0 && first <= ts_ns && first >= m->procs[found].first_ns)
            found = j;
    }
    return found;
}

int nr__proc_index(nr_model *m, int64_t pid, int64_t ts_ns, size_t *out)
{
    const int64_t found = proc_at(m, pid, ts_ns);
    if (found >= 0) {
        *out = (size_t)found;
        return 0;
    }
    return proc_add(m, pid, out);
}

static void widen(int64_t *lo, int64_t *hi, int64_t a, int64_t b)
{
    if (a >= 0 && (*lo < 0 || a < *lo))
        *lo = a;
    if (b >= 0 && b > *hi)
        *hi = b;
}

/* A leader row (tid = pid) begins a process; so does a second one of its
 * pid (reused), except that a process made for threads met before their
 * leader's row (tid < pid) is that leader's. Rows are in the table's order
 * (by tid, a reused tid's in creation order), so a pid's processes are in
 * time order. */
static int add_leaders(nr_model *m, const nr__task_row *rows, size_t n, uint8_t **has_leader, size_t *cap)
{
    for (size_t i = 0; i < n; i++) {
        const nr__task_row *r = &rows[i];
        int64_t idx = nr__idmap_get(&m->pids, r->pid);
        if (idx >= 0)
            while (m->proc_next[idx] >= 0)
                idx = m->proc_next[idx];
        if (r->tid != r->pid && idx >= 0)
            continue;
        if (idx < 0 || (r->tid == r->pid && (*has_leader)[idx])) {
            size_t added;
            NR_TRY(proc_add(m, r->pid, &added));
            NR_TRY(NR_GROW(*has_leader, *cap, m->nprocs));
            (*has_leader)[added] = 0;
            idx = (int64_t)added;
        }
        if (r->tid != r->pid)
            continue;
        (*has_leader)[idx] = 1;
        nr_model_process *p = &m->procs[idx];
        p->ppid = r->ppid;
        widen(&p->first_ns, &p->last_ns, r->first_ns, r->last_ns);
        p->exit_code = r->exit_code;
        p->end_ns = r->end_ns;
        p->killed_by = r->killed_by;
        p->program = r->exe;
    }
    return 0;
}

int nr__procs_from_tasks(nr_model *m, const nr__task_row *rows, size_t n)
{
    uint8_t *has_leader = NULL;
    size_t cap = 0;
    const int rc = add_leaders(m, rows, n, &has_leader, &cap);
    free(has_leader);
    NR_TRY(rc);
    /* a thread is of the process of its pid that ran when it began */
    for (size_t i = 0; i < n; i++) {
        const nr__task_row *r = &rows[i];
        if (r->tid == r->pid)
            continue;
        nr_model_process *p = &m->procs[proc_at(m, r->pid, r->first_ns)];
        if (p->ppid < 0)
            p->ppid = r->ppid;
        widen(&p->first_ns, &p->last_ns, r->first_ns, r->last_ns);
        if (!p->killed_by[0] && r->killed_by[0]) { /* a signal that kills a thread kills its process */
            p->killed_by = r->killed_by;
            if (p->end_ns < 0)
                p->end_ns = r->end_ns;
        }
    }
    return 0;
}

static int cmp_proc_pid(const void *a, const void *b)
{
    const nr_model_process *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->first_ns != y->first_ns)
        return x->first_ns < y->first_ns ? -1 : 1;
    if (x->last_ns != y->last_ns)
        return x->last_ns < y->last_ns ? -1 : 1;
    return (x->ppid > y->ppid) - (x->ppid < y->ppid);
}

int nr__sort_processes(nr_model *m)
{
    if (m->nprocs > 1) /* no process: procs is NULL, which qsort may not be given */
        qsort(m->procs, m->nprocs, sizeof *m->procs, cmp_proc_pid);
    for (size_t i = 0; i < m->nprocs; i++) {
        const int first_of_pid = i == 0 || m->procs[i - 1].pid != m->procs[i].pid;
        const int more = i + 1 < m->nprocs && m->procs[i + 1].pid == m->procs[i].pid;
        m->proc_next[i] = more ? (int64_t)i + 1 : -1;
        if (first_of_pid)
            NR_TRY(nr__idmap_put(&m->pids, m->procs[i].pid, (uint32_t)i));
    }
    nr__pid_cache_reset(m);
    return 0;
}

/* ---- the tree and the roles ------------------------------------------ */

typedef struct proc_tree {
    int64_t *parent;  /* per process: the process of its ppid that ran when it began; -1 none */
    size_t *order;    /* every process after its parent */
    size_t *depth;    /* how many parents up its tree reaches a root (0) */
} proc_tree;

static void tree_free(proc_tree *t)
{
    free(t->parent);
    free(t->order);
    free(t->depth);
}

/* Fills t->order (each process after its parent) by walking up from each
 * process not yet placed; a link that closes a cycle (a crafted store: a
 * real tree has none) is cut, its child made a root. Linear: every
 * process is pushed once. */
static int order_parents_first(const nr_model *m, proc_tree *t)
{
    uint8_t *state = calloc(m->nprocs ? m->nprocs : 1, 1); /* 0 new, 1 on the walk, 2 placed */
    size_t *walk = malloc((m->nprocs ? m->nprocs : 1) * sizeof *walk);
    if (!state || !walk) {
        free(state);
        free(walk);
        return NR_E_NOMEM;
    }
    size_t placed = 0;
    for (size_t i = 0; i < m->nprocs; i++) {
        size_t n = 0;
        int64_t j = (int64_t)i;
        for (; j >= 0 && state[j] == 0; j = t->parent[j]) {
            state[j] = 1;
            walk[n++] = (size_t)j;
        }
        if (j >= 0 && state[j] == 1)
            t->parent[walk[n - 1]] = -1;
        while (n--) {
            state[walk[n]] = 2;
            t->order[placed++] = walk[n];
        }
    }
    free(state);
    free(walk);
    return 0;
}

static int tree_build(const nr_model *m, proc_tree *t)
{
    const size_t n = m->nprocs ? m->nprocs : 1;
    t->parent = malloc(n * sizeof *t->parent);
    t->order = malloc(n * sizeof *t->order);
    t->depth = malloc(n * sizeof *t->depth);
    if (!t->parent || !t->order || !t->depth)
        return NR_E_NOMEM;
    for (size_t i = 0; i < m->nprocs; i++) {
        const nr_model_process *p = &m->procs[i];
        t->parent[i] = p->ppid >= 0 ? proc_at(m, p->ppid, p->first_ns) : -1;
        if (t->parent[i] == (int64_t)i)
            t->parent[i] = -1;
    }
    NR_TRY(order_parents_first(m, t));
    for (size_t k = 0; k < m->nprocs; k++) {
        const size_t i = t->order[k];
        t->depth[i] = t->parent[i] < 0 ? 0 : t->depth[t->parent[i]] + 1;
    }
    return 0;
}

static int cmp_proc_first(const nr_model_process *a, const nr_model_process *b)
{
    if (a->first_ns != b->first_ns) {
        if (a->first_ns < 0 || b->first_ns < 0)
            return a->first_ns < 0 ? 1 : -1;
        return a->first_ns < b->first_ns ? -1 : 1;
    }
    return a->pid < b->pid ? -1 : a->pid > b->pid;
}

/* The earliest root of the process tree among pids [lo, hi), or -1. */
static int64_t earliest_root(const nr_model *m, const proc_tree *t, int64_t lo, int64_t hi)
{
    int64_t best = -1;
    for (size_t i = 0; i < m->nprocs; i++) {
        const nr_model_process *p = &m->procs[i];
        if (t->parent[i] < 0 && p->pid >= lo && p->pid < hi && (best < 0 || cmp_proc_first(p, &m->procs[best]) < 0))
            best = (int64_t)i;
    }
    return best;
}

/* Of the processes among pids [lo, hi) that began phases, the one nearest
 * the root of the tree, of equals the first to begin one; -1 for none. Until session 45
 * simply the first to begin one: a preparation subprocess with a phase of
 * its own, begun before the training script's first, was taken for the
 * main process, and the training's "main in I/O" read 0%. A reused pid's
 * phases are taken for its first process's. */
static int64_t topmost_phase_proc(const nr_model *m, const proc_tree *t, int64_t lo, int64_t hi)
{
    int64_t best = -1;
    for (size_t i = 0; i < m->nphase_pids; i++) {
        const int64_t p = nr__idmap_get(&m->pids, m->phase_pids[i]);
        if (m->phase_pids[i] < lo || m->phase_pids[i] >= hi || p < 0)
            continue;
        if (best < 0 || t->depth[p] < t->depth[best])
            best = p;
    }
    return best;
}

/* The main process among pids [lo, hi): the topmost that began phases,
 * else the earliest root; -1 for none. */
static int64_t main_among(const nr_model *m, const proc_tree *t, int64_t lo, int64_t hi)
{
    const int64_t p = topmost_phase_proc(m, t, lo, hi);
    return p >= 0 ? p : earliest_root(m, t, lo, hi);
}

/* Marks the main process of every node of a merged run (niorep merge:
 * part K's pids are part.K.pid_base + pid, docs/multi-node.md):
 * main_among its pids, which is the run's main on the node that holds it
 * (the run's main ranks first among any of its pids too). */
static void mark_node_mains(const nr_model *m, const proc_tree *t, uint8_t *is_main)
{
    const int64_t parts = nr__model_meta_i64(m, "merged_parts", 0);
    for (int64_t k = 0; parts >= 2 && k < parts; k++) {
        char key[64];
        snprintf(key, sizeof key, "part.%" PRId64 ".pid_base", k);
        const int64_t lo = nr__model_meta_i64(m, key, -1);
        const int64_t main_proc = lo >= 0 ? main_among(m, t, lo, lo + NR_MERGE_PID_SPAN) : -1;
        if (main_proc >= 0)
            is_main[main_proc] = 1;
    }
}

/* main = of the processes that began phases, the nearest the root (then
 * the first to begin one), else the earliest root of the tree (in a merged
 * run, also each other node's main: see mark_node_mains); worker = any
 * descendant of a main; other = the rest. */
int nr__assign_roles(nr_model *m)
{
    proc_tree t = {0};
    uint8_t *is_main = calloc(m->nprocs ? m->nprocs : 1, 1);
    int rc = is_main ? tree_build(m, &t) : NR_E_NOMEM;
    if (rc == 0) {
        const int64_t main_proc = main_among(m, &t, INT64_MIN, INT64_MAX);
        m->main_pid = main_proc >= 0 ? m->procs[main_proc].pid : -1;
        if (main_proc >= 0)
            is_main[main_proc] = 1;
        mark_node_mains(m, &t, is_main);
        for (size_t k = 0; k < m->nprocs; k++) {
            const size_t i = t.order[k];
            const int64_t up = t.parent[i];
            m->procs[i].role = is_main[i]                                             ? NR_ROLE_MAIN
                               : up >= 0 && (is_main[up] || m->procs[up].role == NR_ROLE_WORKER) ? NR_ROLE_WORKER
                                                                                         : NR_ROLE_OTHER;
            if (!m->procs[i].program[0] && up >= 0) /* a fork runs its parent's program until it execs */
                m->procs[i].program = m->procs[up].program;
        }
    }
    tree_free(&t);
    free(is_main);
    return rc;
}

/* ---- how the processes ended ------------------------------------------ */

int nr_model_process_end(const nr_model_process *p)
{
    if (p->killed_by[0])
        return NR_END_KILLED;
    return p->exit_code == 0 ? NR_END_EXITED_ZERO : p->exit_code > 0 ? NR_END_EXITED_NONZERO : NR_END_UNSEEN;
}

const char *nr_process_end_name(int end)
{
    static const char *const names[NR_END_COUNT] = {"exited_zero", "exited_nonzero", "killed", "unseen"};
    return end >= 0 && end < NR_END_COUNT ? names[end] : "?";
}

int nr_model_process_failed(const nr_model_process *p)
{
    const int end = nr_model_process_end(p);
    return end == NR_END_KILLED || end == NR_END_EXITED_NONZERO;
}

uint64_t nr_model_role_sum(const uint64_t n[NR_ROLE_COUNT])
{
    uint64_t sum = 0;
    for (int r = 0; r < NR_ROLE_COUNT; r++)
        sum += n[r];
    return sum;
}

uint64_t nr_model_ends_failed(const nr_model_process_ends *e)
{
    return nr_model_role_sum(e->count[NR_END_EXITED_NONZERO]) + nr_model_role_sum(e->count[NR_END_KILLED]);
}

double nr_model_process_end_s(const nr_model *m, const nr_model_process *p)
{
    return p->end_ns >= 0 ? (double)(p->end_ns - m->timeline.start_ns) * 1e-9 : NAN;
}

/* Whether a program's file name starts with "python" (python3, python3.11). */
static int runs_python(const char *program)
{
    const char *slash = strrchr(program, '/');
    return strncmp(slash ? slash + 1 : program, "python", 6) == 0;
}

int nr__cmp_signal_name(const void *a, const void *b)
{
    return strcmp(((const nr_model_signal_count *)a)->signal, ((const nr_model_signal_count *)b)->signal);
}

/* m->signals from one entry per killed process (signals[0..n)): sorted by
 * name and merged, in n log n (a crafted store may name a million signals). */
static void merge_signals(nr_model *m, size_t n)
{
    if (n > 1)
        qsort(m->signals, n, sizeof *m->signals, nr__cmp_signal_name);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && strcmp(m->signals[k - 1].signal, m->signals[i].signal) == 0) {
            for (int r = 0; r < NR_ROLE_COUNT; r++)
                m->signals[k - 1].processes[r] += m->signals[i].processes[r];
        } else {
            m->signals[k++] = m->signals[i];
        }
    }
    m->ends.nsignals = k;
    m->ends.signals = m->signals;
}

int nr__process_ends(nr_model *m)
{
    nr_model_process_ends *e = &m->ends;
    size_t nkilled = 0;
    for (size_t i = 0; i < m->nprocs; i++) {
        const nr_model_process *p = &m->procs[i];
        const int end = nr_model_process_end(p);
        e->count[end][p->role]++;
        if (end != NR_END_KILLED)
            continue;
        e->python_killed |= runs_python(p->program);
        NR_TRY(NR_GROW(m->signals, m->signals_cap, nkilled + 1));
        m->signals[nkilled] = (nr_model_signal_count){.signal = p->killed_by};
        m->signals[nkilled++].processes[p->role] = 1;
    }
    e->hook_lines_at_risk = e->python_killed && nr__model_meta_i64(m, "has_hook", 0) == 1;
    merge_signals(m, nkilled);
    return 0;
}
