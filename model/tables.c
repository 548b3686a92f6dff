/* Loading the small tables (meta, files, processes; phases: phase_load.c) whose size is
 * bounded by files + processes + phases, never by events. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_role.h"
#include "model_internal.h"
#include "nr_schema.h"
#include "nr_store_merge.h"
#include "nr_strtab.h"
#include "nr_utf8.h"

/* The tables every store of a run has held since format 1, each with every
 * column of its schema: the ingest has written them all since its first
 * version, and no column has been added to them since but those whose
 * nr_col_def has a since revision, read as missing from an older store.
 * marks came later (session 40): a store without it has no marks, but a
 * marks table, diagnostics or pyio table present must be whole. diagnostics
 * and pyio may be absent (none): a generated store (bench/model_gen.c)
 * has neither. Until session 50 the model read a store lacking any of
 * these as if its values were defaults and printed numbers (review 50). */
static const nr_table_def *const required_tables[] = {&nr_events_table, &nr_files_table, &nr_processes_table,
                                                      &nr_phases_table, &nr_meta_table};
static const nr_table_def *const whole_if_present[] = {&nr_diagnostics_table, &nr_pyio_table, &nr_marks_table};

static int check_table(const nr_store *s, const nr_table_def *def, int required, nr_error *err)
{
    const nr_store_table *t = nr_store_find_table(s, def->name);
    if (!t)
        return required ? nr_error_set(err, NR_E_FORMAT,
                                       "the store has no table %s, which niorep has always written "
                                       "(not a store of niorep ingest or merge?)",
                                       def->name)
                        : 0;
    for (size_t c = 0; c < def->ncols; c++) {
        const int idx = nr_store_col_index(t, def->cols[c].name);
        if (idx < 0 && def->cols[c].since) /* added later: read as missing (i64_at's default) */
            continue;
        if (idx < 0)
            return nr_error_set(err, NR_E_FORMAT,
                                "table %s lacks column %s, which niorep has always written in it "
                                "(not a store of niorep ingest or merge?)",
                                def->name, def->cols[c].name);
        nr_col_info info;
        nr_store_col_info(t, (size_t)idx, &info);
        if (info.type != def->cols[c].type)
            return nr_error_set(err, NR_E_FORMAT, "table %s: column %s has type %s, expected %s", def->name,
                                def->cols[c].name, nr_col_type_name(info.type), nr_col_type_name(def->cols[c].type));
    }
    return 0;
}

int nr__check_schema(const nr_store *s, nr_error *err)
{
    for (size_t i = 0; i < sizeof required_tables / sizeof required_tables[0]; i++)
        NR_TRY(check_table(s, required_tables[i], 1, err));
    for (size_t i = 0; i < sizeof whole_if_present / sizeof whole_if_present[0]; i++)
        NR_TRY(check_table(s, whole_if_present[i], 0, err));
    return 0;
}

/* Decodes column `name` of row group rg into c (nr__check_schema has found
 * every column the model reads; a missing one leaves c empty, n = 0, and
 * the caller uses its default). */
static int read_col(const nr_store_table *t, const char *name, nr_col_type type, size_t rg,
                    nr_col_chunk *c, nr_error *err)
{
    const int idx = nr_store_col_index(t, name);
    if (idx < 0) {
        c->n = 0;
        return 0;
    }
    nr_col_info info;
    nr_store_col_info(t, (size_t)idx, &info);
    if (info.type != type)
        return nr_error_set(err, NR_E_FORMAT, "table %s: column %s has the wrong type",
                            nr_store_table_name(t), name);
    NR_TRY(nr_store_read_chunk(t, (size_t)idx, rg, c, err));
    if (c->n != nr_store_rowgroup_rows(t, rg))
        return nr_error_set(err, NR_E_FORMAT, "table %s: row group %zu of column %s is short",
                            nr_store_table_name(t), rg, name);
    return 0;
}

static int64_t i64_at(const nr_col_chunk *c, size_t i, int64_t def) { return c->n ? c->i64[i] : def; }
static const char *str_at(const nr_col_chunk *c, size_t i) { return c->n ? c->str[i] : ""; }

void nr__chunks_init(nr__chunks *k) { for (int i = 0; i < NR__MAXCOLS; i++) nr_col_chunk_init(&k->c[i]); }
void nr__chunks_fini(nr__chunks *k) { for (int i = 0; i < NR__MAXCOLS; i++) nr_col_chunk_fini(&k->c[i]); }

int nr__read_cols(const nr_store_table *t, const nr_table_def *def, const int *cols, size_t ncols, size_t rg,
                  nr__chunks *k, nr_error *err)
{
    for (size_t i = 0; i < ncols; i++) {
        const nr_col_def *cd = &def->cols[cols[i]];
        NR_TRY(read_col(t, cd->name, cd->type, rg, &k->c[cols[i]], err));
    }
    return 0;
}

/* A merged store's merged_parts must be the number of parts its meta
 * describes (part.K.pid_base, K from 0): the roles look up each part's
 * keys, so a crafted 10^9 stalled every model command (review 50). Each
 * base must leave room for a part's pids. */
static int check_merged_parts(const nr_model *m, const nr_store *s, nr_error *err)
{
    const char *value = nr_model_meta(m, "merged_parts");
    if (!value)
        return 0;
    const int64_t parts = nr_meta_value_i64(value, -1);
    int64_t described = 0;
    for (size_t i = 0; i < m->nmeta; i++) {
        const char *k = m->meta_keys[i], *dot;
        if (strncmp(k, "part.", 5) != 0 || !(dot = strchr(k + 5, '.')) || strcmp(dot, ".pid_base") != 0)
            continue;
        described++;
        /* a part's pids are [base, base + span): a base beyond that overflowed (session 57, fuzz) */
        const int64_t base = nr_meta_value_i64(m->meta_vals[i], -1);
        if (base < 0 || base > INT64_MAX - NR_MERGE_PID_SPAN)
            return nr_error_set(err, NR_E_FORMAT, "%s: meta %s '%s' (expected a pid base from 0 to %" PRId64 ")",
                                nr_store_name(s), k, m->meta_vals[i], INT64_MAX - NR_MERGE_PID_SPAN);
    }
    if (parts >= 0 && parts <= described)
        return 0;
    return nr_error_set(err, NR_E_FORMAT,
                        "%s: meta merged_parts '%s' does not match the store: its meta describes %" PRId64
                        " parts (keys part.K.pid_base)",
                        nr_store_name(s), value, described);
}

int nr__load_meta(nr_model *m, const nr_store *s, nr_error *err)
{
    const nr_store_table *t = nr_store_find_table(s, "meta");
    if (!t)
        return 0;
    const uint64_t rows = nr_store_table_rows(t);
    m->meta_keys = nr_arena_alloc(&m->arena, (rows + 1) * sizeof *m->meta_keys);
    m->meta_vals = nr_arena_alloc(&m->arena, (rows + 1) * sizeof *m->meta_vals);
    if (!m->meta_keys || !m->meta_vals)
        return NR_E_NOMEM;
    static const int cols[] = {NR_MT_KEY, NR_MT_VALUE};
    nr__chunks k;
    nr__chunks_init(&k);
    int rc = 0;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t) && rc == 0; rg++) {
        rc = nr__read_cols(t, &nr_meta_table, cols, 2, rg, &k, err);
        for (size_t i = 0; rc == 0 && i < k.c[NR_MT_KEY].n && m->nmeta < rows; i++) {
            m->meta_keys[m->nmeta] = nr_arena_strndup(&m->arena, k.c[NR_MT_KEY].str[i], k.c[NR_MT_KEY].str_len[i]);
            const char *v = str_at(&k.c[NR_MT_VALUE], i);
            m->meta_vals[m->nmeta] = nr_arena_strndup(&m->arena, v, strlen(v));
            if (!m->meta_keys[m->nmeta] || !m->meta_vals[m->nmeta])
                rc = NR_E_NOMEM;
            else
                m->nmeta++;
        }
    }
    nr__chunks_fini(&k);
    return rc < 0 ? rc : check_merged_parts(m, s, err);
}

const char *nr_model_meta(const nr_model *m, const char *key)
{
    for (size_t i = 0; i < m->nmeta; i++)
        if (strcmp(m->meta_keys[i], key) == 0)
            return m->meta_vals[i];
    return NULL;
}

int64_t nr__model_meta_i64(const nr_model *m, const char *key, int64_t def)
{
    return nr_meta_value_i64(nr_model_meta(m, key), def);
}

/* File systems from the manifest's mount list in meta: keys
 * [manifest.]fs.<N>.mount_point (also .mount, .mountpoint), as `niorep trace`
 * records them. Index 0 is "unknown". */
static int load_mounts(nr_model *m)
{
    m->fs_names = nr_arena_alloc(&m->arena, (m->nmeta + 1) * sizeof *m->fs_names);
    m->fs_bytes = nr_arena_alloc(&m->arena, (m->nmeta + 1) * sizeof *m->fs_bytes);
    if (!m->fs_names || !m->fs_bytes)
        return NR_E_NOMEM;
    memset(m->fs_bytes, 0, (m->nmeta + 1) * sizeof *m->fs_bytes);
    m->fs_names[0] = "unknown";
    m->nfs = 1;
    for (size_t i = 0; i < m->nmeta; i++) {
        const char *k = m->meta_keys[i];
        if (strncmp(k, "manifest.", 9) == 0)
            k += 9;
        if (strncmp(k, "fs.", 3) != 0)
            continue;
        const char *dot = strchr(k + 3, '.');
        if (!dot || (strcmp(dot, ".mount_point") != 0 && strcmp(dot, ".mount") != 0 &&
                     strcmp(dot, ".mountpoint") != 0))
            continue;
        if (m->meta_vals[i][0] != '/')
            continue;
        int dup = 0;
        for (size_t j = 1; j < m->nfs; j++)
            dup |= strcmp(m->fs_names[j], m->meta_vals[i]) == 0;
        if (!dup)
            m->fs_names[m->nfs++] = m->meta_vals[i];
    }
    return 0;
}

/* The path on its node of a file of a merged run whose identity is its
 * node's (niorep merge --files-by-node: "<node>:/usr/lib/x.so"), for the
 * rules that look at paths (runtime files, file systems); path itself
 * otherwise. Until session 45 those rules saw the node prefix: 893 system
 * files of three sample runs counted as job files, all latency under file
 * system "unknown" (review 45). */
static const char *on_node_path(int merged, const char *path)
{
    if (path[0] == '/' || !merged)
        return path;
    const char *colon = strchr(path, ':');
    if (!colon || colon[1] != '/' || memchr(path, '/', (size_t)(colon - path)))
        return path;
    return colon + 1;
}

/* The file system of path: the longest mount point that is a prefix of it at a '/' boundary. */
static int fs_of(const nr_model *m, const char *path)
{
    int best = 0;
    size_t best_len = 0;
    for (size_t j = 1; j < m->nfs; j++) {
        const char *mp = m->fs_names[j];
        size_t n = strlen(mp);
        while (n > 1 && mp[n - 1] == '/')
            n--;
        const int prefix = strncmp(path, mp, n) == 0 && (n == 1 || path[n] == '/' || path[n] == '\0');
        if (prefix && n >= best_len) {
            best = (int)j;
            best_len = n;
        }
    }
    return best;
}

/* Row i of a loaded row group of table files as the model's next file
 * row: its kind, path and file system, and for a regular file its index
 * among them and whether it is the runtime's (file_role.h). */
static int load_file_row(nr_model *m, const nr__chunks *k, size_t i, int merged, nr_error *err)
{
    const size_t row = m->nfile_rows++;
    const int64_t id = i64_at(&k->c[NR_FI_FILE_ID], i, (int64_t)row);
    const int64_t kind = i64_at(&k->c[NR_FI_KIND], i, NR_KIND_UNKNOWN);
    const char *path = str_at(&k->c[NR_FI_PATH], i);
    nr__fileinfo *fi = &m->file_info[row];
    fi->kind = kind >= 0 && kind < NR_FILE_KIND_COUNT ? (uint8_t)kind : NR_KIND_UNKNOWN;
    m->file_path[row] = nr_arena_strndup(&m->path_arena, path, strlen(path));
    if (!m->file_path[row])
        return NR_E_NOMEM;
    const char *local = on_node_path(merged, path);
    fi->fs = (uint16_t)fs_of(m, local);
    fi->reg = -1;
    if (fi->kind == NR_KIND_REGULAR) {
        m->reg_paths[m->nreg] = m->file_path[row];
        const nr_file_totals totals = {
            .bytes_read = i64_at(&k->c[NR_FI_BYTES_READ], i, -1),
            .bytes_written = i64_at(&k->c[NR_FI_BYTES_WRITTEN], i, -1),
            .read_calls = i64_at(&k->c[NR_FI_READ_CALLS], i, -1),
            .write_calls = i64_at(&k->c[NR_FI_WRITE_CALLS], i, -1),
            .open_calls = i64_at(&k->c[NR_FI_OPEN_CALLS], i, -1),
        };
        m->reg_runtime[m->nreg] = nr_file_role_of_file(local, &totals) == NR_FILE_RUNTIME;
        fi->runtime = m->reg_runtime[m->nreg];
        fi->reg = (int32_t)m->nreg++;
    }
    if (nr__idmap_get(&m->file_ids, id) >= 0) /* as merge refuses it (review 50) */
        return nr_error_set(err, NR_E_FORMAT, "table files holds file_id %" PRId64 " twice", id);
    return nr__idmap_put(&m->file_ids, id, (uint32_t)row);
}

/* The pass's per-regular-file arrays, and the job files' view of them. */
static int alloc_regular_arrays(nr_model *m)
{
    const size_t nr = m->nreg + 1;
    m->reg_read = calloc(nr, sizeof *m->reg_read);
    m->reg_written = calloc(nr, sizeof *m->reg_written);
    m->reg_total = calloc(nr, sizeof *m->reg_total);
    m->reg_access = calloc(nr, sizeof *m->reg_access);
    m->reg_read_placed = calloc(nr, sizeof *m->reg_read_placed);
    m->reg_mapped = calloc(nr, sizeof *m->reg_mapped);
    for (int w = 0; w < 2; w++) {
        m->reg_last_end[w] = malloc(nr * sizeof *m->reg_last_end[w]);
        m->reg_extent[w] = malloc(nr * sizeof *m->reg_extent[w]);
        if (!m->reg_last_end[w] || !m->reg_extent[w])
            return NR_E_NOMEM;
        for (size_t i = 0; i < nr; i++)
            m->reg_last_end[w][i] = m->reg_extent[w][i] = -1;
    }
    if (!m->reg_read || !m->reg_written || !m->reg_total || !m->reg_access || !m->reg_read_placed || !m->reg_mapped)
        return NR_E_NOMEM;
    m->totals.files = m->nreg;
    m->files = (nr_model_files){
        .n = m->nreg, .paths = m->reg_paths, .bytes_read = m->reg_read,
        .bytes_written = m->reg_written, .bytes_total = m->reg_total, .accesses = m->reg_access,
    };
    return 0;
}

int nr__load_files(nr_model *m, const nr_store *s, nr_error *err)
{
    NR_TRY(load_mounts(m));
    const nr_store_table *t = nr_store_find_table(s, "files");
    const size_t rows = t ? (size_t)nr_store_table_rows(t) : 0;
    m->nfile_rows = 0;
    m->file_info = calloc(rows + 1, sizeof *m->file_info);
    m->file_path = calloc(rows + 1, sizeof *m->file_path);
    m->reg_paths = calloc(rows + 1, sizeof *m->reg_paths);
    m->reg_runtime = calloc(rows + 1, sizeof *m->reg_runtime);
    if (!m->file_info || !m->file_path || !m->reg_paths || !m->reg_runtime)
        return NR_E_NOMEM;
    const int merged = nr_model_meta(m, "merged_parts") != NULL; /* its files may be "<node>:<path>" */
    if (rows > INT32_MAX || m->nfs > UINT16_MAX)
        return nr_error_set(err, NR_E_LIMIT, "table files: %zu rows, at most %d supported", rows, INT32_MAX);
    if (!t)
        return 0;
    static const int cols[] = {NR_FI_FILE_ID,    NR_FI_PATH,       NR_FI_KIND,       NR_FI_BYTES_READ,
                               NR_FI_BYTES_WRITTEN, NR_FI_READ_CALLS, NR_FI_WRITE_CALLS, NR_FI_OPEN_CALLS};
    nr__chunks k;
    nr__chunks_init(&k);
    int rc = 0;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t) && rc == 0; rg++) {
        rc = nr__read_cols(t, &nr_files_table, cols, sizeof cols / sizeof cols[0], rg, &k, err);
        const size_t n = rc == 0 ? (size_t)nr_store_rowgroup_rows(t, rg) : 0;
        for (size_t i = 0; i < n && rc == 0 && m->nfile_rows < rows; i++)
            rc = load_file_row(m, &k, i, merged, err);
    }
    nr__chunks_fini(&k);
    if (rc < 0)
        return rc;
    return alloc_regular_arrays(m);
}

int nr__check_time(const char *table, const char *col, uint64_t row, int64_t v, nr_error *err)
{
    const int64_t max = (int64_t)1 << 62;
    if (v > -max && v <= max)
        return 0;
    return nr_error_set(err, NR_E_FORMAT, "table %s, row %" PRIu64 ": %s %" PRId64
                        " is out of range (expected a time in ns within 2^62 of 0)", table, row + 1, col, v);
}

int nr__check_phase_ref(const nr_model *m, const char *table, uint64_t row, int64_t phase_id, nr_error *err)
{
    if (phase_id == -1 || nr__idmap_lookup(&m->phase_ids, phase_id) >= 0)
        return 0;
    return nr_error_set(err, NR_E_FORMAT, "table %s, row %" PRIu64 ": phase_id %" PRId64 ", which table phases "
                        "lacks (expected -1, unphased, or a phase_id of table phases)", table, row + 1, phase_id);
}

/* *out = a copy of s in the model's arena, made valid UTF-8 as it is
 * shown everywhere (nr_utf8_clean: a crafted store's bytes would drop the
 * key from summary --json); "" without one: most tasks have neither an
 * execve nor a killing signal. */
static int arena_name(nr_model *m, const char *s, const char **out)
{
    *out = "";
    if (!s[0])
        return 0;
    const size_t n = nr_utf8_clean_size(s);
    char *copy = nr_arena_alloc(&m->arena, n);
    if (!copy)
        return NR_E_NOMEM;
    *out = nr_utf8_clean(s, copy, n);
    return 0;
}

int nr__load_processes(nr_model *m, const nr_store *s, nr_error *err)
{
    const nr_store_table *t = nr_store_find_table(s, "processes");
    if (!t)
        return 0;
    static const int cols[] = {NR_PR_TID,        NR_PR_PID,       NR_PR_PPID,      NR_PR_FIRST_TS_NS,
                               NR_PR_LAST_TS_NS, NR_PR_EXIT_CODE, NR_PR_KILLED_BY, NR_PR_EXE,
                               NR_PR_END_TS_NS};
    nr__chunks k;
    nr__chunks_init(&k);
    nr__task_row *rows = NULL;
    size_t nrows = 0, cap = 0;
    int rc = 0;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t) && rc == 0; rg++) {
        rc = nr__read_cols(t, &nr_processes_table, cols, sizeof cols / sizeof cols[0], rg, &k, err);
        const size_t n = rc == 0 ? (size_t)nr_store_rowgroup_rows(t, rg) : 0;
        if (n && (rc = NR_GROW(rows, cap, nrows + n)) < 0)
            break;
        for (size_t i = 0; i < n && rc == 0; i++) {
            const int64_t tid = i64_at(&k.c[NR_PR_TID], i, -1);
            rows[nrows++] = (nr__task_row){
                .tid = tid, .pid = i64_at(&k.c[NR_PR_PID], i, tid), .ppid = i64_at(&k.c[NR_PR_PPID], i, -1),
                .first_ns = i64_at(&k.c[NR_PR_FIRST_TS_NS], i, -1), .last_ns = i64_at(&k.c[NR_PR_LAST_TS_NS], i, -1),
                .exit_code = i64_at(&k.c[NR_PR_EXIT_CODE], i, -1),
                .end_ns = i64_at(&k.c[NR_PR_END_TS_NS], i, nr_processes_table.cols[NR_PR_END_TS_NS].missing),
            };
            if ((rc = arena_name(m, str_at(&k.c[NR_PR_KILLED_BY], i), &rows[nrows - 1].killed_by)) < 0 ||
                (rc = arena_name(m, str_at(&k.c[NR_PR_EXE], i), &rows[nrows - 1].exe)) < 0)
                break;
            if ((rc = nr__check_time("processes", "first_ts_ns", nrows - 1, rows[nrows - 1].first_ns, err)) == 0 &&
                (rc = nr__check_time("processes", "last_ts_ns", nrows - 1, rows[nrows - 1].last_ns, err)) == 0)
                rc = nr__check_time("processes", "end_ts_ns", nrows - 1, rows[nrows - 1].end_ns, err);
        }
    }
    nr__chunks_fini(&k);
    if (rc == 0)
        rc = nr__procs_from_tasks(m, rows, nrows);
    free(rows);
    return rc;
}
