/* Loading table phases: a row per phase instance, millions of them in a run
 * that marks a phase a step, read a row group at a time. What the model
 * keeps is bounded by the phase names and the pids that began phases, plus
 * each name's merged intervals and their union (figure 5 draws them; phases
 * that touch merge into one) and 4 bytes a row for the events' phase_id.
 * Until session 66 every row was held at once (56 bytes, and as much again
 * to merge): 148 MiB for a million steps.
 *
 * ingest and merge write the rows in order of begin_ns (docs/store-schema.md):
 * the first read counts each name's merged intervals as it goes, and a
 * second read fills them. A table in another order (a crafted store) is
 * sorted in memory instead, 24 bytes a row. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"
#include "nr_schema.h"
#include "nr_strtab.h"
#include "nr_utf8.h"

/* The first read's columns, and the second's (what merging needs). */
static const int all_cols[] = {NR_PH_PHASE_ID, NR_PH_PID, NR_PH_NAME, NR_PH_BEGIN_NS, NR_PH_END_NS, NR_PH_FLAGS};
static const int span_cols[] = {NR_PH_NAME, NR_PH_BEGIN_NS, NR_PH_END_NS};

/* One row; name is its name's id in the reader's string table. id, pid
 * and flags are read by the first read only. */
typedef struct phase_row { int64_t id, pid, begin, end, flags; uint32_t name; } phase_row;

/* The table a row group at a time. Names keep their ids from one read to
 * the next: ids in order of first appearance in the table. */
typedef struct phase_reader {
    const nr_store_table *t;
    const int *cols;         /* all_cols or span_cols */
    size_t ncols;
    nr__chunks k;
    size_t rg, at, in_rg;
    uint64_t row, rows;      /* rows read in this read; rows the table holds */
    nr_strtab names;
} phase_reader;

static void reader_init(phase_reader *r, const nr_store_table *t)
{
    *r = (phase_reader){.t = t, .rows = t ? nr_store_table_rows(t) : 0};
    nr__chunks_init(&r->k);
    nr_strtab_init(&r->names);
}

static void reader_fini(phase_reader *r)
{
    nr__chunks_fini(&r->k);
    nr_strtab_fini(&r->names);
}

/* A read from the first row, of the columns cols. */
static void reader_start(phase_reader *r, const int *cols, size_t ncols)
{
    r->cols = cols;
    r->ncols = ncols;
    r->rg = r->at = r->in_rg = 0;
    r->row = 0;
}

/* The next row into *out: 1, or 0 at the end. */
static int reader_next(phase_reader *r, phase_row *out, nr_error *err)
{
    while (r->at == r->in_rg) {
        if (r->row == r->rows || r->rg == nr_store_table_rowgroups(r->t))
            return 0;
        NR_TRY(nr__read_cols(r->t, &nr_phases_table, r->cols, r->ncols, r->rg, &r->k, err));
        r->in_rg = (size_t)nr_store_rowgroup_rows(r->t, r->rg++);
        r->at = 0;
    }
    const nr_col_chunk *c = r->k.c;
    const size_t i = r->at++;
    const char *name = c[NR_PH_NAME].str[i];
    if (nr_utf8_blank(name)) /* a store of an ingest before session 54: as the ingest now stores it */
        name = NR_UNNAMED;
    const int64_t id = nr_strtab_intern(&r->names, name, strlen(name));
    if (id < 0)
        return (int)id;
    *out = (phase_row){.begin = c[NR_PH_BEGIN_NS].i64[i], .end = c[NR_PH_END_NS].i64[i], .name = (uint32_t)id};
    if (r->cols == all_cols) {
        out->id = c[NR_PH_PHASE_ID].i64[i];
        out->pid = c[NR_PH_PID].i64[i];
        out->flags = c[NR_PH_FLAGS].i64[i];
    }
    r->row++;
    return 1;
}

/* Intervals merged where they overlap or touch, fed in order of begin:
 * counted while out is NULL, written to out when it is set. */
typedef struct merge_run { int64_t begin, end; size_t n; nr_model_interval *out; } merge_run;

static void merge_add(merge_run *u, int64_t begin, int64_t end)
{
    if (end < begin)
        return;
    if (u->n && begin <= u->end) {
        u->end = end > u->end ? end : u->end;
        return;
    }
    if (u->n && u->out)
        u->out[u->n - 1] = (nr_model_interval){u->begin, u->end};
    *u = (merge_run){begin, end, u->n + 1, u->out};
}

static void merge_close(merge_run *u)
{
    if (u->n && u->out)
        u->out[u->n - 1] = (nr_model_interval){u->begin, u->end};
}

/* What the first read gathers of one name. */
typedef struct name_acc {
    int64_t first_begin, first_id, last_end;
    uint64_t instances, never_ended, ended_by_error;
    merge_run run;
} name_acc;

/* A pid that began phases: its first begin. */
typedef struct pid_first { int64_t pid, begin, id; } pid_first;

typedef struct phase_load {
    nr_model *m;
    phase_reader r;
    name_acc *names;
    size_t nnames, names_cap;
    pid_first *pids;
    size_t npids, pids_cap;
    nr__idmap pid_index; /* pid -> index of pids */
    int have_min_pid;    /* INT64_MIN, the map's empty key, is a pid too */
    size_t min_pid_at;
    uint32_t *phase_of;  /* name id -> index of m->phases */
    merge_run all;       /* the union of every phase */
    int sorted;          /* the rows came in order of begin */
    int64_t last_begin;
} phase_load;

static int before(int64_t begin, int64_t id, int64_t than_begin, int64_t than_id)
{
    return begin != than_begin ? begin < than_begin : id < than_id;
}

static int note_name(phase_load *L, const phase_row *p)
{
    if (p->name == L->nnames) {
        NR_TRY(NR_GROW(L->names, L->names_cap, L->nnames + 1));
        L->names[L->nnames++] = (name_acc){.first_begin = p->begin, .first_id = p->id, .last_end = p->end};
    }
    name_acc *a = &L->names[p->name];
    if (before(p->begin, p->id, a->first_begin, a->first_id)) {
        a->first_begin = p->begin;
        a->first_id = p->id;
    }
    a->last_end = p->end > a->last_end ? p->end : a->last_end;
    a->instances++;
    a->never_ended += (p->flags & 1) != 0;
    a->ended_by_error += (p->flags & 2) != 0;
    merge_add(&a->run, p->begin, p->end); /* a count, right when the rows are in order */
    merge_add(&L->all, p->begin, p->end);
    return 0;
}

static int note_pid(phase_load *L, const phase_row *p)
{
    const int is_min = p->pid == INT64_MIN;
    const int64_t at = is_min ? (L->have_min_pid ? (int64_t)L->min_pid_at : -1) : nr__idmap_get(&L->pid_index, p->pid);
    if (at >= 0) {
        pid_first *f = &L->pids[at];
        if (before(p->begin, p->id, f->begin, f->id))
            *f = (pid_first){p->pid, p->begin, p->id};
        return 0;
    }
    NR_TRY(NR_GROW(L->pids, L->pids_cap, L->npids + 1));
    if (is_min) {
        L->have_min_pid = 1;
        L->min_pid_at = L->npids;
    } else {
        NR_TRY(nr__idmap_put(&L->pid_index, p->pid, (uint32_t)L->npids));
    }
    L->pids[L->npids++] = (pid_first){p->pid, p->begin, p->id};
    return 0;
}

/* One row of the first read; row is its 0-based number. A phase_id met
 * twice is an error, as merge refuses it (review 50). */
static int note_row(phase_load *L, const phase_row *p, uint64_t row, nr_error *err)
{
    NR_TRY(nr__check_time("phases", "begin_ns", row, p->begin, err));
    NR_TRY(nr__check_time("phases", "end_ns", row, p->end, err));
    if (nr__idmap_get(&L->m->phase_ids, p->id) >= 0)
        return nr_error_set(err, NR_E_FORMAT, "table phases holds phase_id %" PRId64 " twice", p->id);
    NR_TRY(nr__idmap_put(&L->m->phase_ids, p->id, p->name)); /* the name's id until the names are ordered */
    if (row && p->begin < L->last_begin)
        L->sorted = 0;
    L->last_begin = p->begin;
    NR_TRY(note_name(L, p));
    return note_pid(L, p);
}

static _Thread_local const name_acc *sort_names; /* qsort has no context; models load in parallel */
static int cmp_first_begin(const void *a, const void *b)
{
    const name_acc *x = &sort_names[*(const uint32_t *)a], *y = &sort_names[*(const uint32_t *)b];
    return before(x->first_begin, x->first_id, y->first_begin, y->first_id) ? -1
         : before(y->first_begin, y->first_id, x->first_begin, x->first_id);
}

static int cmp_pid_first(const void *a, const void *b)
{
    const pid_first *x = a, *y = b;
    return before(x->begin, x->id, y->begin, y->id) ? -1 : before(y->begin, y->id, x->begin, x->id);
}

/* m->phases: the names in order of first begin (ties by phase_id), and
 * "unphased" after them; the events' phase_ids then map to them. */
static int name_phases(phase_load *L)
{
    nr_model *m = L->m;
    uint32_t *order = malloc((L->nnames + 1) * sizeof *order), *phase_of = malloc((L->nnames + 1) * sizeof *phase_of);
    L->phase_of = phase_of;
    /* one a name, and "unphased" (nr_model_phase is 408 bytes) */
    m->phases = calloc(L->nnames + 1, sizeof *m->phases);
    int rc = order && phase_of && m->phases ? 0 : NR_E_NOMEM;
    for (size_t j = 0; j < L->nnames && rc == 0; j++)
        order[j] = (uint32_t)j;
    sort_names = L->names;
    if (rc == 0 && L->nnames)
        qsort(order, L->nnames, sizeof *order, cmp_first_begin);
    for (size_t j = 0; j < L->nnames && rc == 0; j++) {
        const name_acc *a = &L->names[order[j]];
        const char *name = nr_strtab_str(&L->r.names, order[j]);
        phase_of[order[j]] = (uint32_t)j;
        m->phases[j] = (nr_model_phase){.name = nr_arena_strndup(&m->arena, name, strlen(name)),
                                        .instances = a->instances, .never_ended = a->never_ended,
                                        .ended_by_error = a->ended_by_error, .first_ns = a->first_begin,
                                        .last_ns = a->last_end};
        rc = m->phases[j].name ? 0 : NR_E_NOMEM;
    }
    if (rc == 0) {
        nr__idmap_remap(&m->phase_ids, phase_of, L->nnames);
        m->nphases = L->nnames;
        m->unphased = m->nphases++;
        m->phases[m->unphased] = (nr_model_phase){.name = "unphased", .first_ns = -1, .last_ns = -1};
    }
    free(order);
    return rc;
}

/* m->phase_pids: the pids that began phases, in order of first begin
 * (nr__assign_roles finds the main process among them). */
static int order_pids(phase_load *L)
{
    nr_model *m = L->m;
    if (L->npids == 0)
        return 0;
    qsort(L->pids, L->npids, sizeof *L->pids, cmp_pid_first);
    if (!(m->phase_pids = malloc(L->npids * sizeof *m->phase_pids)))
        return NR_E_NOMEM;
    for (size_t i = 0; i < L->npids; i++)
        m->phase_pids[i] = L->pids[i].pid;
    m->nphase_pids = L->npids;
    return 0;
}

/* Room in the model's arena for each name's counted intervals and the
 * union's; the runs start over, to be filled. */
static int place_intervals(phase_load *L)
{
    nr_model *m = L->m;
    for (size_t i = 0; i < L->nnames; i++) {
        nr_model_phase *p = &m->phases[L->phase_of[i]];
        nr_model_interval *out = nr_arena_alloc(&m->arena, L->names[i].run.n * sizeof *out);
        if (!out)
            return NR_E_NOMEM;
        p->intervals = out;
        p->n_intervals = L->names[i].run.n;
        L->names[i].run = (merge_run){.out = out};
    }
    m->n_phase_union = L->all.n;
    if (!(m->phase_union = nr_arena_alloc(&m->arena, (m->n_phase_union + 1) * sizeof *m->phase_union)))
        return NR_E_NOMEM;
    L->all = (merge_run){.out = m->phase_union};
    return 0;
}

static void close_intervals(phase_load *L)
{
    for (size_t i = 0; i < L->nnames; i++)
        merge_close(&L->names[i].run);
    merge_close(&L->all);
}

/* The rows in order of begin a second time, into the room counted. */
static int fill_from_table(phase_load *L, nr_error *err)
{
    NR_TRY(place_intervals(L));
    reader_start(&L->r, span_cols, sizeof span_cols / sizeof span_cols[0]);
    phase_row p;
    int rc;
    while ((rc = reader_next(&L->r, &p, err)) == 1) {
        merge_add(&L->names[p.name].run, p.begin, p.end);
        merge_add(&L->all, p.begin, p.end);
    }
    close_intervals(L);
    return rc;
}

/* An interval of a table in another order, sorted in memory. */
typedef struct span_row { int64_t begin, end; uint32_t name; } span_row;

static int cmp_span_begin(const void *a, const void *b)
{
    const span_row *x = a, *y = b;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

static void merge_spans(phase_load *L, const span_row *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        merge_add(&L->names[v[i].name].run, v[i].begin, v[i].end);
        merge_add(&L->all, v[i].begin, v[i].end);
    }
    close_intervals(L);
}

/* The rows out of order: read again into memory and sorted, then counted
 * and filled. */
static int fill_from_sorted_copy(phase_load *L, uint64_t rows, nr_error *err)
{
    span_row *v = malloc((rows + 1) * sizeof *v);
    if (!v)
        return NR_E_NOMEM;
    reader_start(&L->r, span_cols, sizeof span_cols / sizeof span_cols[0]);
    size_t n = 0;
    phase_row p;
    int rc = 0;
    while (n < rows && (rc = reader_next(&L->r, &p, err)) == 1)
        v[n++] = (span_row){p.begin, p.end, p.name};
    if (rc >= 0) {
        qsort(v, n, sizeof *v, cmp_span_begin);
        for (size_t i = 0; i < L->nnames; i++)
            L->names[i].run = (merge_run){0};
        L->all = (merge_run){0};
        merge_spans(L, v, n); /* the count */
        rc = place_intervals(L);
    }
    if (rc >= 0)
        merge_spans(L, v, n);
    free(v);
    return rc < 0 ? rc : 0;
}

static int load(phase_load *L, nr_error *err)
{
    phase_row p;
    int rc;
    reader_start(&L->r, all_cols, sizeof all_cols / sizeof all_cols[0]);
    while ((rc = reader_next(&L->r, &p, err)) == 1)
        NR_TRY(note_row(L, &p, L->r.row - 1, err));
    NR_TRY(rc);
    const uint64_t rows = L->r.row;
    L->m->phase_rows = rows;
    NR_TRY(name_phases(L));
    NR_TRY(order_pids(L));
    return L->sorted ? fill_from_table(L, err) : fill_from_sorted_copy(L, rows, err);
}

int nr__load_phases(nr_model *m, const nr_store *s, nr_error *err)
{
    phase_load L = {.m = m, .sorted = 1};
    reader_init(&L.r, nr_store_find_table(s, "phases"));
    nr__idmap_init(&L.pid_index);
    const int rc = L.r.t ? load(&L, err) : name_phases(&L);
    reader_fini(&L.r);
    nr__idmap_fini(&L.pid_index);
    free(L.names);
    free(L.pids);
    free(L.phase_of);
    return rc;
}
