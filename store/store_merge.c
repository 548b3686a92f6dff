/* store_merge: the node stores of one run -> one store of the run
 * (docs/multi-node.md, "The merge"). Reads the parts through the public
 * reader API and writes through the writer: the events of all parts in one
 * k-way merge by start time, files unioned by identity, pids qualified by
 * the part. Memory: one decoded row group per part and table being merged,
 * plus the small tables (files, phases, diagnostics, meta) of every part. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "store_merge_internal.h"

/* ---- cursors ---------------------------------------------------------- */

int nr__cursor_open(nr__cursor *c, const nr__part *p, const nr_table_def *def, nr_error *err)
{
    memset(c, 0, sizeof *c);
    c->def = def;
    for (size_t k = 0; k < NR__MERGE_MAXCOLS; k++)
        nr_col_chunk_init(&c->c[k]);
    if (def->ncols > NR__MERGE_MAXCOLS)
        return nr_error_set(err, NR_E_LIMIT, "merge: table %s has more than %d columns", def->name, NR__MERGE_MAXCOLS);
    const nr_store_table *t = nr_store_find_table(p->store, def->name);
    if (!t)
        return 0;
    for (size_t k = 0; k < def->ncols; k++) {
        const int idx = nr_store_col_index(t, def->cols[k].name);
        if (idx < 0 && def->cols[k].since) { /* a store of an older ingest: its rows read as missing */
            c->col[k] = -1;
            continue;
        }
        if (idx < 0)
            return nr_error_set(err, NR_E_FORMAT, "%s: table %s lacks column %s (written by an older niorep? ingest it again)",
                                p->path, def->name, def->cols[k].name);
        nr_col_info info;
        nr_store_col_info(t, (size_t)idx, &info);
        if (info.type != def->cols[k].type)
            return nr_error_set(err, NR_E_FORMAT, "%s: table %s: column %s has the wrong type",
                                p->path, def->name, def->cols[k].name);
        c->col[k] = idx;
    }
    c->t = t;
    return 0;
}

int nr__cursor_ready(nr__cursor *c, const nr__part *p, nr_error *err)
{
    while (c->t && c->row == c->rows) {
        if (c->rg == nr_store_table_rowgroups(c->t))
            return 0;
        const size_t rg = c->rg++;
        c->row = 0;
        c->rows = (size_t)nr_store_rowgroup_rows(c->t, rg);
        for (size_t k = 0; k < c->def->ncols; k++) {
            if (c->col[k] < 0)
                continue;
            NR_TRY(nr_store_read_chunk(c->t, (size_t)c->col[k], rg, &c->c[k], err));
            if (c->c[k].n != c->rows)
                return nr_error_set(err, NR_E_FORMAT, "%s: table %s: row group %zu of column %s is short",
                                    p->path, c->def->name, rg, c->def->cols[k].name);
        }
    }
    return c->t != NULL;
}

void nr__cursor_row(const nr__cursor *c, nr__row *r)
{
    for (size_t k = 0; k < c->def->ncols; k++) {
        const int missing = c->col[k] < 0;
        if (c->def->cols[k].type == NR_COL_I64) {
            r->i[k] = missing ? c->def->cols[k].missing : c->c[k].i64[c->row];
        } else {
            r->s[k] = missing ? "" : c->c[k].str[c->row];
            r->len[k] = missing ? 0 : c->c[k].str_len[c->row];
        }
    }
}

void nr__cursor_fini(nr__cursor *c)
{
    for (size_t k = 0; k < NR__MERGE_MAXCOLS; k++)
        nr_col_chunk_fini(&c->c[k]);
}

int nr__write_row(nr_table_writer *t, const nr_table_def *def, const nr__row *r, nr_error *err)
{
    for (size_t k = 0; k < def->ncols; k++) {
        if (def->cols[k].type == NR_COL_I64)
            nr_table_set_i64(t, k, r->i[k]);
        else
            nr_table_set_str(t, k, r->s[k], r->len[k]);
    }
    return nr_table_end_row(t, err);
}

/* ---- identities ------------------------------------------------------- */

int nr__merge_qualify(const nr__merge *m, const nr__part *p, int64_t *v, nr_error *err)
{
    (void)m;
    if (*v < 0)
        return 0;
    if (*v >= NR_MERGE_PID_SPAN)
        return nr_error_set(err, NR_E_LIMIT, "%s: pid %" PRId64 " is not below %d, the span of one node in a merged run",
                            p->path, *v, NR_MERGE_PID_SPAN);
    *v += p->pid_base;
    return 0;
}

static int cmp_idpair(const void *a, const void *b)
{
    const nr__idpair *x = a, *y = b;
    return x->old_id < y->old_id ? -1 : x->old_id > y->old_id;
}

static const nr__idpair *find_id(const nr__idpair *pairs, size_t n, int64_t old_id)
{
    const nr__idpair key = {.old_id = old_id};
    return n ? bsearch(&key, pairs, n, sizeof *pairs, cmp_idpair) : NULL; /* a part without files: pairs NULL */
}

/* -1 is the only id of none (unphased, no file); one below it points
 * nowhere as one beyond the table does (until session 55 it passed as -1). */
int nr__merge_phase(const nr__part *p, int64_t *v, nr_error *err)
{
    if (*v == -1)
        return 0;
    const nr__idpair *f = find_id(p->phases, p->nphases, *v);
    if (!f)
        return nr_error_set(err, NR_E_FORMAT, "%s: a row refers to phase_id %" PRId64 ", which table phases lacks",
                            p->path, *v);
    *v = f->new_id;
    return 0;
}

/* Shared by path on every node: absolute paths of regular files, directories
 * and files of unknown kind; the rest belongs to its node. */
static int shared_identity(const nr__merge *m, const char *path, int64_t kind)
{
    return !m->opts.files_by_node && path[0] == '/' &&
           (kind == NR_KIND_REGULAR || kind == NR_KIND_DIRECTORY || kind == NR_KIND_UNKNOWN);
}

/* "<node>:<path>" in m->scratch (NUL-terminated). */
static int qualified(nr__merge *m, const nr__part *p, const char *path, size_t len)
{
    m->scratch.len = 0;
    NR_TRY(nr_buf_put(&m->scratch, p->node, strlen(p->node)));
    NR_TRY(nr_buf_put(&m->scratch, ":", 1));
    NR_TRY(nr_buf_put(&m->scratch, path, len));
    NR_TRY(nr_buf_put(&m->scratch, "", 1));
    m->scratch.len--;
    return 0;
}

/* Adds one files row of part p to the union. */
static int add_file(nr__merge *m, nr__part *p, const nr__row *r, nr_error *err)
{
    const char *path = r->s[NR_FI_PATH];
    size_t len = r->len[NR_FI_PATH];
    const int64_t kind = r->i[NR_FI_KIND];
    if (!shared_identity(m, path, kind)) {
        if (qualified(m, p, path, len) < 0)
            return nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
        path = (const char *)m->scratch.data;
        len = m->scratch.len;
    }
    const int64_t u = nr_strtab_intern(&m->ids, path, len);
    if (u < 0 || NR_GROW(p->files, p->files_cap, p->nfiles + 1) < 0)
        return nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
    if ((size_t)u == m->nfiles) {
        if (NR_GROW(m->files, m->files_cap, m->nfiles + 1) < 0)
            return nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
        m->files[m->nfiles++] = (nr__ufile){.new_id = -1, .kind = kind, .first_ns = -1, .last_ns = -1};
    }
    nr__ufile *f = &m->files[u];
    /* as the ingest learns kinds: regular is the default of a path, and
       any node that saw another kind (a directory it made or listed)
       wins, whichever node sorts first (review 45: a stat-only node before
       the node that ran mkdir made the directory a regular file) */
    if (f->kind == NR_KIND_UNKNOWN || (f->kind == NR_KIND_REGULAR && kind != NR_KIND_UNKNOWN))
        f->kind = kind;
    for (int k = 0; k < 8; k++)
        f->sums[k] += r->i[NR_FI_BYTES_READ + k];
    const int64_t first = r->i[NR_FI_FIRST_TS_NS], last = r->i[NR_FI_LAST_TS_NS];
    if (first >= 0 && (f->first_ns < 0 || first < f->first_ns))
        f->first_ns = first;
    if (last > f->last_ns)
        f->last_ns = last;
    p->files[p->nfiles++] = (nr__idpair){.old_id = r->i[NR_FI_FILE_ID], .new_id = u};
    return 0;
}

static int load_files(nr__merge *m, nr__part *p, nr_error *err)
{
    nr__cursor c;
    nr__row r;
    int rc = nr__cursor_open(&c, p, &nr_files_table, err);
    while (rc >= 0 && (rc = nr__cursor_ready(&c, p, err)) == 1) {
        nr__cursor_row(&c, &r);
        c.row++;
        rc = add_file(m, p, &r, err);
    }
    nr__cursor_fini(&c);
    NR_TRY(rc);
    if (p->nfiles) /* a part without table files: p->files NULL */
        qsort(p->files, p->nfiles, sizeof *p->files, cmp_idpair);
    for (size_t i = 1; i < p->nfiles; i++)
        if (p->files[i].old_id == p->files[i - 1].old_id)
            return nr_error_set(err, NR_E_FORMAT, "%s: table files holds file_id %" PRId64 " twice",
                                p->path, p->files[i].old_id);
    return 0;
}

/* file_id v of part p in the merged run: ids are given in order of first use. */
static int map_file(nr__merge *m, const nr__part *p, int64_t *v, nr_error *err)
{
    if (*v == -1) /* none; below -1 points nowhere (nr__merge_phase) */
        return 0;
    const nr__idpair *f = find_id(p->files, p->nfiles, *v);
    if (!f)
        return nr_error_set(err, NR_E_FORMAT, "%s: an event refers to file_id %" PRId64 ", which table files lacks",
                            p->path, *v);
    nr__ufile *u = &m->files[f->new_id];
    if (u->new_id < 0) {
        if (NR_GROW(m->order, m->order_cap, m->nassigned + 1) < 0)
            return nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
        u->new_id = (int64_t)m->nassigned;
        m->order[m->nassigned++] = (size_t)f->new_id;
    }
    *v = u->new_id;
    return 0;
}

/* ---- the k-way merge by time ------------------------------------------ */

typedef int (*row_fix_fn)(nr__merge *m, nr__part *p, nr__row *r, nr_error *err);

/* Heap order: earlier key first, ties by part index. */
static int heap_before(const int64_t *key, size_t a, size_t b)
{
    return key[a] != key[b] ? key[a] < key[b] : a < b;
}

static void sift_down(size_t *heap, size_t n, const int64_t *key, size_t i)
{
    for (;;) {
        size_t best = i;
        const size_t l = 2 * i + 1, r = l + 1;
        if (l < n && heap_before(key, heap[l], heap[best]))
            best = l;
        if (r < n && heap_before(key, heap[r], heap[best]))
            best = r;
        if (best == i)
            return;
        const size_t t = heap[i];
        heap[i] = heap[best];
        heap[best] = t;
        i = best;
    }
}

typedef struct kway {
    nr__cursor *cur;
    int64_t *key;
    size_t *heap;
    size_t nheap;
} kway;

/* Opens a cursor per part and heaps the parts that have rows. */
static int kway_start(nr__merge *m, kway *k, const nr_table_def *def, size_t ts_col, nr_error *err)
{
    for (size_t p = 0; p < m->n; p++) {
        NR_TRY(nr__cursor_open(&k->cur[p], &m->parts[p], def, err));
        const int ready = nr__cursor_ready(&k->cur[p], &m->parts[p], err);
        NR_TRY(ready);
        if (ready) {
            k->key[p] = k->cur[p].c[ts_col].i64[k->cur[p].row];
            k->heap[k->nheap++] = p;
        }
    }
    for (size_t i = k->nheap; i-- > 0;)
        sift_down(k->heap, k->nheap, k->key, i);
    return 0;
}

/* Writes the rows of table def of every part in (ts, part) order, each through fix. */
static int merge_by_time(nr__merge *m, const nr_table_def *def, size_t ts_col, nr_table_writer *tw,
                         row_fix_fn fix, nr_error *err)
{
    kway k = {.cur = calloc(m->n, sizeof *k.cur), .key = calloc(m->n, sizeof *k.key),
              .heap = calloc(m->n, sizeof *k.heap)};
    int rc = k.cur && k.key && k.heap ? 0 : nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
    for (size_t p = 0; k.cur && p < m->n; p++)
        for (size_t c = 0; c < NR__MERGE_MAXCOLS; c++)
            nr_col_chunk_init(&k.cur[p].c[c]);
    if (rc == 0)
        rc = kway_start(m, &k, def, ts_col, err);
    nr__row r;
    while (rc == 0 && k.nheap > 0) {
        const size_t p = k.heap[0];
        nr__cursor *c = &k.cur[p];
        nr__cursor_row(c, &r);
        c->row++;
        if ((rc = fix(m, &m->parts[p], &r, err)) < 0 || (rc = nr__write_row(tw, def, &r, err)) < 0)
            break;
        if ((++m->rows_done & 0x3fff) == 0 && m->opts.progress)
            m->opts.progress(m->opts.progress_ctx, m->rows_done, m->rows_total);
        const int ready = nr__cursor_ready(c, &m->parts[p], err);
        if (ready < 0) {
            rc = ready;
        } else if (ready) {
            k.key[p] = c->c[ts_col].i64[c->row];
        } else {
            k.heap[0] = k.heap[--k.nheap];
        }
        sift_down(k.heap, k.nheap, k.key, 0);
    }
    for (size_t p = 0; k.cur && p < m->n; p++)
        nr__cursor_fini(&k.cur[p]);
    free(k.cur);
    free(k.key);
    free(k.heap);
    return rc;
}

static int fix_event(nr__merge *m, nr__part *p, nr__row *r, nr_error *err)
{
    NR_TRY(nr__merge_qualify(m, p, &r->i[NR_EV_PID], err));
    NR_TRY(nr__merge_qualify(m, p, &r->i[NR_EV_TID], err));
    NR_TRY(map_file(m, p, &r->i[NR_EV_FILE_ID], err));
    NR_TRY(map_file(m, p, &r->i[NR_EV_FILE2_ID], err));
    NR_TRY(nr__merge_phase(p, &r->i[NR_EV_PHASE_ID], err));
    m->events++;
    return 0;
}

static int fix_pyio(nr__merge *m, nr__part *p, nr__row *r, nr_error *err)
{
    NR_TRY(nr__merge_qualify(m, p, &r->i[NR_PY_PID], err));
    NR_TRY(nr__merge_qualify(m, p, &r->i[NR_PY_TID], err));
    NR_TRY(nr__merge_phase(p, &r->i[NR_PY_PHASE_ID], err));
    /* a hook path names the same file as the strace path it matches */
    if (r->len[NR_PY_PATH] && !shared_identity(m, r->s[NR_PY_PATH], NR_KIND_UNKNOWN) &&
        r->s[NR_PY_PATH][0] == '/') {
        if (qualified(m, p, r->s[NR_PY_PATH], r->len[NR_PY_PATH]) < 0)
            return nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
        r->s[NR_PY_PATH] = (const char *)m->scratch.data;
        r->len[NR_PY_PATH] = (uint32_t)m->scratch.len;
    }
    return 0;
}

static int fix_mark(nr__merge *m, nr__part *p, nr__row *r, nr_error *err)
{
    NR_TRY(nr__merge_qualify(m, p, &r->i[NR_MK_PID], err));
    NR_TRY(nr__merge_qualify(m, p, &r->i[NR_MK_TID], err));
    return nr__merge_phase(p, &r->i[NR_MK_PHASE_ID], err);
}

static int fix_wait(nr__merge *m, nr__part *p, nr__row *r, nr_error *err)
{
    NR_TRY(nr__merge_qualify(m, p, &r->i[NR_WT_PID], err));
    NR_TRY(nr__merge_qualify(m, p, &r->i[NR_WT_TID], err));
    return nr__merge_phase(p, &r->i[NR_WT_PHASE_ID], err);
}

/* ---- the other tables ------------------------------------------------- */

/* Files in new-id order; files no event names get ids after, in part order. */
static int write_files(nr__merge *m, nr_error *err)
{
    for (size_t u = 0; u < m->nfiles; u++) {
        if (m->files[u].new_id >= 0)
            continue;
        if (NR_GROW(m->order, m->order_cap, m->nassigned + 1) < 0)
            return nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
        m->files[u].new_id = (int64_t)m->nassigned;
        m->order[m->nassigned++] = u;
    }
    nr__row r;
    for (size_t id = 0; id < m->nassigned; id++) {
        const nr__ufile *f = &m->files[m->order[id]];
        r.i[NR_FI_FILE_ID] = (int64_t)id;
        r.s[NR_FI_PATH] = nr_strtab_str(&m->ids, m->order[id]);
        r.len[NR_FI_PATH] = (uint32_t)nr_strtab_len(&m->ids, m->order[id]);
        r.i[NR_FI_KIND] = f->kind;
        for (int k = 0; k < 8; k++)
            r.i[NR_FI_BYTES_READ + k] = f->sums[k];
        r.i[NR_FI_FIRST_TS_NS] = f->first_ns;
        r.i[NR_FI_LAST_TS_NS] = f->last_ns;
        NR_TRY(nr__write_row(m->t_files, &nr_files_table, &r, err));
    }
    return 0;
}

/* The parts' tasks one after the other: sorted by qualified tid, since each
 * part is sorted by tid and the bases grow with the part. */
static int write_processes(nr__merge *m, nr_error *err)
{
    int rc = 0;
    for (size_t p = 0; p < m->n && rc == 0; p++) {
        nr__part *part = &m->parts[p];
        nr__cursor c;
        nr__row r;
        rc = nr__cursor_open(&c, part, &nr_processes_table, err);
        while (rc >= 0 && (rc = nr__cursor_ready(&c, part, err)) == 1) {
            nr__cursor_row(&c, &r);
            c.row++;
            if ((rc = nr__merge_qualify(m, part, &r.i[NR_PR_TID], err)) < 0 ||
                (rc = nr__merge_qualify(m, part, &r.i[NR_PR_PID], err)) < 0 ||
                (rc = nr__merge_qualify(m, part, &r.i[NR_PR_PPID], err)) < 0)
                break;
            rc = nr__write_row(m->t_processes, &nr_processes_table, &r, err);
        }
        nr__cursor_fini(&c);
    }
    return rc < 0 ? rc : 0;
}

/* ---- parts ------------------------------------------------------------ */

static int cmp_part_node(const void *a, const void *b)
{
    return strcmp(((const nr__part *)a)->node, ((const nr__part *)b)->node);
}

/* Every part names the same run and its own node, on the same clock. */
static int check_parts(const nr__merge *m, nr_error *err)
{
    const nr__part *first = &m->parts[0];
    /* first, as it has no node label: until session 50 the advice was to
       trace with one (review 50) */
    for (size_t i = 0; i < m->n; i++)
        if (m->parts[i].merged_parts)
            return nr_error_set(err, NR_E_INPUT, "%s is a merged store of run '%s' (%s nodes: meta merged_parts), a "
                                "whole run that cannot be merged again: merge its node stores instead",
                                m->parts[i].path, m->parts[i].run ? m->parts[i].run : "", m->parts[i].merged_parts);
    for (size_t i = 0; i < m->n; i++) {
        const nr__part *p = &m->parts[i];
        if (!p->run || !*p->run)
            return nr_error_set(err, NR_E_INPUT, "%s: no run label (meta manifest.labels.run): trace each node with "
                                "--label run=NAME --label node=NAME", p->path);
        if (!p->node || !*p->node)
            return nr_error_set(err, NR_E_INPUT, "%s: no node label (meta manifest.labels.node): trace each node with "
                                "--label node=NAME", p->path);
        if (strcmp(p->run, first->run) != 0)
            return nr_error_set(err, NR_E_INPUT, "%s is part of run '%s' but %s of run '%s': merge the nodes of one run only",
                                p->path, p->run, first->path, first->run);
        const char *tb = p->time_base ? p->time_base : "", *tb0 = first->time_base ? first->time_base : "";
        if (strcmp(tb, tb0) != 0)
            return nr_error_set(err, NR_E_INPUT, "%s has time base '%s' but %s has '%s': trace every node with the same "
                                "timestamps (-ttt)", p->path, tb, first->path, tb0);
        /* -t/-tt stamps carry no date (and each node its own time zone), -r
           ones count from each node's start: merged, the nodes' times would
           be laid over each other (review 45: a run of 86,399.6 s across
           midnight, an invented burst of two nodes' writes) */
        if (m->n > 1 && (strcmp(tb, "clock") == 0 || strcmp(tb, "relative") == 0))
            return nr_error_set(err, NR_E_INPUT, "%s has time base '%s': the nodes of a run merge on the Unix clock "
                                "only (trace every node with -ttt; -t/-tt stamps carry no date, -r ones count from "
                                "each node's start)", p->path, tb);
        if (p->timed != first->timed)
            return nr_error_set(err, NR_E_INPUT, "%s was traced %s -T but %s %s: the nodes without durations would "
                                "count as 0 s in I/O; trace every node with -T", p->path,
                                p->timed ? "with" : "without", first->path, first->timed ? "with" : "without");
    }
    for (size_t i = 1; i < m->n; i++)
        if (strcmp(m->parts[i].node, m->parts[i - 1].node) == 0)
            return nr_error_set(err, NR_E_INPUT, "%s and %s both hold node '%s' of run '%s': each node once",
                                m->parts[i - 1].path, m->parts[i].path, m->parts[i].node, m->parts[i].run);
    return 0;
}

static int open_parts(nr__merge *m, const char *const *paths, nr_error *err)
{
    for (size_t i = 0; i < m->n; i++) {
        nr__part *p = &m->parts[i];
        p->path = paths[i];
        const char *slash = strrchr(paths[i], '/');
        p->name = slash ? slash + 1 : paths[i];
        NR_TRY(nr_store_open(p->path, &p->store, err));
        NR_TRY(nr__merge_read_meta(m, p, err));
    }
    for (size_t i = 0; i < m->n; i++)
        if (!m->parts[i].node)
            return check_parts(m, err);   /* names the part without a label */
    qsort(m->parts, m->n, sizeof *m->parts, cmp_part_node);
    NR_TRY(check_parts(m, err));
    for (size_t i = 0; i < m->n; i++)
        m->parts[i].pid_base = (int64_t)i * NR_MERGE_PID_SPAN;
    return 0;
}

static int open_output(nr__merge *m, const char *out_path, nr_error *err)
{
    NR_TRY(nr_store_writer_create(out_path, &m->w, err));
    if (m->opts.store_dev && m->opts.store_ino)
        nr_store_writer_file_id(m->w, m->opts.store_dev, m->opts.store_ino);
    if (m->opts.level > 0)
        nr_store_writer_set_level(m->w, m->opts.level);
    /* the tables in the order ingest adds them */
    NR_TRY(nr_store_writer_add_table(m->w, &nr_events_table, &m->t_events, err));
    NR_TRY(nr_store_writer_add_table(m->w, &nr_files_table, &m->t_files, err));
    NR_TRY(nr_store_writer_add_table(m->w, &nr_processes_table, &m->t_processes, err));
    NR_TRY(nr_store_writer_add_table(m->w, &nr_diagnostics_table, &m->t_diag, err));
    NR_TRY(nr_store_writer_add_table(m->w, &nr_meta_table, &m->t_meta, err));
    NR_TRY(nr_store_writer_add_table(m->w, &nr_phases_table, &m->t_phases, err));
    NR_TRY(nr_store_writer_add_table(m->w, &nr_pyio_table, &m->t_pyio, err));
    NR_TRY(nr_store_writer_add_table(m->w, &nr_marks_table, &m->t_marks, err));
    NR_TRY(nr_store_writer_add_table(m->w, &nr_waits_table, &m->t_waits, err));
    return 0;
}

/* The rows the k-way merges will write, from the parts' footers. */
static uint64_t rows_to_merge(const nr__merge *m)
{
    static const nr_table_def *const merged[] = {&nr_events_table, &nr_pyio_table, &nr_marks_table,
                                                        &nr_waits_table};
    uint64_t rows = 0;
    for (size_t i = 0; i < m->n; i++)
        for (size_t k = 0; k < sizeof merged / sizeof *merged; k++) {
            const nr_store_table *t = nr_store_find_table(m->parts[i].store, merged[k]->name);
            rows += t ? nr_store_table_rows(t) : 0;
        }
    return rows;
}

static int run_merge(nr__merge *m, const char *const *paths, const char *out_path, nr_error *err)
{
    NR_TRY(open_parts(m, paths, err));
    m->rows_total = rows_to_merge(m);
    if (m->opts.progress)
        m->opts.progress(m->opts.progress_ctx, 0, m->rows_total);
    for (size_t i = 0; i < m->n; i++)
        NR_TRY(load_files(m, &m->parts[i], err));
    NR_TRY(nr__merge_load_phases(m, err));
    NR_TRY(open_output(m, out_path, err));
    NR_TRY(merge_by_time(m, &nr_events_table, NR_EV_TS_NS, m->t_events, fix_event, err));
    NR_TRY(write_files(m, err));
    NR_TRY(write_processes(m, err));
    NR_TRY(nr__merge_write_diagnostics(m, err));
    NR_TRY(nr__merge_write_meta(m, err));
    NR_TRY(nr__merge_write_phases(m, err));
    NR_TRY(merge_by_time(m, &nr_pyio_table, NR_PY_TS_NS, m->t_pyio, fix_pyio, err));
    NR_TRY(merge_by_time(m, &nr_marks_table, NR_MK_TS_NS, m->t_marks, fix_mark, err));
    NR_TRY(merge_by_time(m, &nr_waits_table, NR_WT_TS_NS, m->t_waits, fix_wait, err));
    if (m->opts.progress)
        m->opts.progress(m->opts.progress_ctx, m->rows_total, m->rows_total);
    return nr_store_writer_commit(m->w, err);
}

int nr_store_merge(const char *const *parts, size_t n, const char *out_path,
                   const nr_merge_opts *opts, nr_error *err)
{
    if (n == 0)
        return nr_error_set(err, NR_E_INPUT, "merge: no store to merge");
    nr__merge m = {.n = n};
    if (opts)
        m.opts = *opts;
    nr_arena_init(&m.arena);
    nr_strtab_init(&m.ids);
    nr_buf_init(&m.scratch);
    m.parts = calloc(n, sizeof *m.parts);
    int rc = m.parts ? run_merge(&m, parts, out_path, err) : nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
    nr_store_writer_destroy(m.w);
    for (size_t i = 0; m.parts && i < n; i++) {
        nr_store_close(m.parts[i].store);
        free(m.parts[i].files);
        free(m.parts[i].phases);
    }
    free(m.parts);
    free(m.files);
    free(m.order);
    free(m.phase_rows);
    nr_buf_fini(&m.scratch);
    nr_strtab_fini(&m.ids);
    nr_arena_fini(&m.arena);
    return rc;
}
