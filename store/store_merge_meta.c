/* store_merge_meta: the small tables of a merged run: meta (counters added,
 * extents widened, per-part facts kept under part.K.*), diagnostics (counts
 * added per reason) and phases (numbered again by begin). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_merge_internal.h"

static char *arena_str(nr__merge *m, const char *s, size_t n)
{
    return nr_arena_strndup(&m->arena, s, n);
}

static const char *meta_get(const nr__part *p, const char *key)
{
    for (size_t i = 0; i < p->nmeta; i++)
        if (strcmp(p->meta[i].key, key) == 0)
            return p->meta[i].value;
    return NULL;
}

static int64_t meta_i64(const nr__part *p, const char *key, int64_t def)
{
    return nr_meta_value_i64(meta_get(p, key), def);
}

int nr__merge_read_meta(nr__merge *m, nr__part *p, nr_error *err)
{
    nr__cursor c;
    nr__row r;
    size_t cap = 0;
    int rc = nr__cursor_open(&c, p, &nr_meta_table, err);
    while (rc >= 0 && (rc = nr__cursor_ready(&c, p, err)) == 1) {
        nr__cursor_row(&c, &r);
        c.row++;
        if (NR_GROW(p->meta, cap, p->nmeta + 1) < 0) {
            rc = nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
            break;
        }
        nr__kv *kv = &p->meta[p->nmeta];
        kv->key = arena_str(m, r.s[NR_MT_KEY], r.len[NR_MT_KEY]);
        kv->value = arena_str(m, r.s[NR_MT_VALUE], r.len[NR_MT_VALUE]);
        if (!kv->key || !kv->value) {
            rc = nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
            break;
        }
        p->nmeta++;
    }
    nr__cursor_fini(&c);
    if (rc < 0) {
        free(p->meta);
        p->meta = NULL;
        return rc;
    }
    /* the array lives as long as the arena: copy it there */
    nr__kv *kept = nr_arena_alloc(&m->arena, (p->nmeta + 1) * sizeof *kept);
    if (!kept) {
        free(p->meta);
        return nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
    }
    if (p->nmeta)
        memcpy(kept, p->meta, p->nmeta * sizeof *kept);
    free(p->meta);
    p->meta = kept;
    p->run = meta_get(p, "manifest.labels.run");
    p->node = meta_get(p, "manifest.labels.node");
    p->time_base = meta_get(p, "time_base");
    p->merged_parts = meta_get(p, "merged_parts");
    p->timed = meta_i64(p, "has_durations", 0) == 1;
    return 0;
}

int nr_store_meta_value(const nr_store *s, const char *key, char **value, nr_error *err)
{
    *value = NULL;
    nr__part p = {.path = "store", .store = (nr_store *)s};
    nr__cursor c;
    nr__row r;
    int rc = nr__cursor_open(&c, &p, &nr_meta_table, err);
    while (rc >= 0 && !*value && (rc = nr__cursor_ready(&c, &p, err)) == 1) {
        nr__cursor_row(&c, &r);
        c.row++;
        if (strcmp(r.s[NR_MT_KEY], key) == 0 && !(*value = strndup(r.s[NR_MT_VALUE], r.len[NR_MT_VALUE])))
            rc = nr_error_set(err, NR_E_NOMEM, "out of memory");
    }
    nr__cursor_fini(&c);
    return rc < 0 ? rc : 0;
}

/* ---- phases ----------------------------------------------------------- */

static int cmp_phase_row(const void *a, const void *b)
{
    const nr__phase_row *x = a, *y = b;
    static const int keys[] = {NR_PH_BEGIN_NS, NR_PH_PID, NR_PH_TID};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (x->r.i[keys[k]] != y->r.i[keys[k]])
            return x->r.i[keys[k]] < y->r.i[keys[k]] ? -1 : 1;
    if (x->part != y->part)
        return x->part < y->part ? -1 : 1;
    return x->old_id < y->old_id ? -1 : x->old_id > y->old_id;
}

static int cmp_old_id(const void *a, const void *b)
{
    const nr__idpair *x = a, *y = b;
    return x->old_id < y->old_id ? -1 : x->old_id > y->old_id;
}

static int collect_phases(nr__merge *m, nr__part *p, size_t part, size_t *cap, nr_error *err)
{
    nr__cursor c;
    nr__row r;
    int rc = nr__cursor_open(&c, p, &nr_phases_table, err);
    while (rc >= 0 && (rc = nr__cursor_ready(&c, p, err)) == 1) {
        nr__cursor_row(&c, &r);
        c.row++;
        if ((rc = nr__merge_qualify(m, p, &r.i[NR_PH_PID], err)) < 0 ||
            (rc = nr__merge_qualify(m, p, &r.i[NR_PH_TID], err)) < 0)
            break;
        r.s[NR_PH_NAME] = arena_str(m, r.s[NR_PH_NAME], r.len[NR_PH_NAME]);
        if (!r.s[NR_PH_NAME] || NR_GROW(m->phase_rows, *cap, m->nphase_rows + 1) < 0) {
            rc = nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
            break;
        }
        m->phase_rows[m->nphase_rows++] = (nr__phase_row){.part = part, .old_id = r.i[NR_PH_PHASE_ID], .r = r};
        p->nphases++;
    }
    nr__cursor_fini(&c);
    return rc < 0 ? rc : 0;
}

int nr__merge_load_phases(nr__merge *m, nr_error *err)
{
    size_t cap = 0;
    for (size_t i = 0; i < m->n; i++)
        NR_TRY(collect_phases(m, &m->parts[i], i, &cap, err));
    if (m->nphase_rows)
        qsort(m->phase_rows, m->nphase_rows, sizeof *m->phase_rows, cmp_phase_row);
    for (size_t i = 0; i < m->n; i++) {
        nr__part *p = &m->parts[i];
        p->phases = calloc(p->nphases + 1, sizeof *p->phases);
        if (!p->phases)
            return nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
        p->nphases = 0;
    }
    for (size_t k = 0; k < m->nphase_rows; k++) {
        nr__part *p = &m->parts[m->phase_rows[k].part];
        p->phases[p->nphases++] = (nr__idpair){.old_id = m->phase_rows[k].old_id, .new_id = (int64_t)k};
    }
    for (size_t i = 0; i < m->n; i++) {
        nr__part *p = &m->parts[i];
        if (p->nphases) /* a part without phases: p->phases NULL */
            qsort(p->phases, p->nphases, sizeof *p->phases, cmp_old_id);
        for (size_t k = 1; k < p->nphases; k++)
            if (p->phases[k].old_id == p->phases[k - 1].old_id)
                return nr_error_set(err, NR_E_FORMAT, "%s: table phases holds phase_id %" PRId64 " twice",
                                    p->path, p->phases[k].old_id);
    }
    return 0;
}

int nr__merge_write_phases(nr__merge *m, nr_error *err)
{
    for (size_t k = 0; k < m->nphase_rows; k++) {
        nr__row r = m->phase_rows[k].r;
        r.i[NR_PH_PHASE_ID] = (int64_t)k;
        NR_TRY(nr__merge_phase(&m->parts[m->phase_rows[k].part], &r.i[NR_PH_PARENT_ID], err));
        NR_TRY(nr__write_row(m->t_phases, &nr_phases_table, &r, err));
    }
    return 0;
}

/* ---- diagnostics ------------------------------------------------------ */

typedef struct diag_row {
    size_t part, seq;
    nr__row r;                    /* strings in the merge arena */
} diag_row;

static int cmp_diag_row(const void *a, const void *b)
{
    const diag_row *x = a, *y = b;
    const int c = strcmp(x->r.s[NR_DG_REASON], y->r.s[NR_DG_REASON]);
    if (c)
        return c;
    if (x->part != y->part)
        return x->part < y->part ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int collect_diag(nr__merge *m, size_t part, diag_row **rows, size_t *n, size_t *cap, nr_error *err)
{
    nr__part *p = &m->parts[part];
    nr__cursor c;
    nr__row r;
    char *file = NULL;
    int rc = nr__cursor_open(&c, p, &nr_diagnostics_table, err);
    for (size_t seq = 0; rc >= 0 && (rc = nr__cursor_ready(&c, p, err)) == 1; seq++) {
        nr__cursor_row(&c, &r);
        c.row++;
        /* the example's file, as the merged run names it: "<node>/<file>" */
        const size_t flen = strlen(p->node) + 1 + r.len[NR_DG_FILE];
        file = r.len[NR_DG_FILE] ? nr_arena_alloc(&m->arena, flen + 1) : arena_str(m, "", 0);
        if (file && r.len[NR_DG_FILE])
            snprintf(file, flen + 1, "%s/%s", p->node, r.s[NR_DG_FILE]);
        r.s[NR_DG_FILE] = file;
        r.len[NR_DG_FILE] = file ? (uint32_t)strlen(file) : 0;
        r.s[NR_DG_REASON] = arena_str(m, r.s[NR_DG_REASON], r.len[NR_DG_REASON]);
        r.s[NR_DG_EXAMPLE] = arena_str(m, r.s[NR_DG_EXAMPLE], r.len[NR_DG_EXAMPLE]);
        if (!file || !r.s[NR_DG_REASON] || !r.s[NR_DG_EXAMPLE] || NR_GROW(*rows, *cap, *n + 1) < 0) {
            rc = nr_error_set(err, NR_E_NOMEM, "merge: out of memory");
            break;
        }
        (*rows)[(*n)++] = (diag_row){.part = part, .seq = seq, .r = r};
    }
    nr__cursor_fini(&c);
    return rc < 0 ? rc : 0;
}

/* Rows [from, to) share a reason: their total is the sum of each part's
 * count (repeated on every row of the part); examples are kept, a row
 * without one only when the reason has no example at all. */
static int write_reason(nr__merge *m, diag_row *rows, size_t from, size_t to, nr_error *err)
{
    int64_t total = 0;
    int any_example = 0;
    for (size_t i = from; i < to; i++) {
        if (i == from || rows[i].part != rows[i - 1].part)
            total += rows[i].r.i[NR_DG_COUNT] > 0 ? rows[i].r.i[NR_DG_COUNT] : 0;
        any_example |= rows[i].r.len[NR_DG_EXAMPLE] > 0;
    }
    for (size_t i = from; i < to; i++) {
        if (any_example ? rows[i].r.len[NR_DG_EXAMPLE] == 0 : i > from)
            continue;
        rows[i].r.i[NR_DG_COUNT] = total;
        NR_TRY(nr__write_row(m->t_diag, &nr_diagnostics_table, &rows[i].r, err));
    }
    return 0;
}

int nr__merge_write_diagnostics(nr__merge *m, nr_error *err)
{
    diag_row *rows = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (size_t p = 0; p < m->n && rc == 0; p++)
        rc = collect_diag(m, p, &rows, &n, &cap, err);
    if (rc == 0 && n)
        qsort(rows, n, sizeof *rows, cmp_diag_row);
    for (size_t from = 0, to; rc == 0 && from < n; from = to) {
        for (to = from + 1; to < n && strcmp(rows[to].r.s[NR_DG_REASON], rows[from].r.s[NR_DG_REASON]) == 0;)
            to++;
        rc = write_reason(m, rows, from, to, err);
    }
    free(rows);
    return rc;
}

/* ---- meta ------------------------------------------------------------- */

typedef struct meta_out {
    nr__kv *kv;
    size_t n, cap;
} meta_out;

static int put(nr__merge *m, meta_out *o, const char *key, const char *value)
{
    NR_TRY(NR_GROW(o->kv, o->cap, o->n + 1));
    o->kv[o->n].key = arena_str(m, key, strlen(key));
    o->kv[o->n].value = arena_str(m, value, strlen(value));
    if (!o->kv[o->n].key || !o->kv[o->n].value)
        return NR_E_NOMEM;
    o->n++;
    return 0;
}

static int put_i64(nr__merge *m, meta_out *o, const char *key, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    return put(m, o, key, buf);
}

/* Keys the merge computes; the rest are kept when equal in every part. */
static const char *const summed_keys[] = {
    "log_files", "lines_read", "lines_parsed", "lines_skipped", "unfinished_never_resumed",
    "unfinished_resumed", "relative_paths",
};
/* ... summed when every part has them (a part ingested before they were
   counted has none, and its number is unknown, not 0) */
static const char *const summed_if_known_keys[] = {"files_not_read"};
static const char *const any_keys[] = {"has_durations", "has_paths", "has_hook"};
static const char *const own_keys[] = {
    "niorep_version", "format_version", "time_base", "events", "trace_first_ts_ns", "trace_last_ts_ns",
};

static int listed(const char *key, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(keys[i], key) == 0)
            return 1;
    return 0;
}

#define LISTED(key, arr) listed(key, arr, sizeof arr / sizeof arr[0])

#define MOUNT_PREFIX "manifest.fs."

static int computed_key(const char *key)
{
    return LISTED(key, summed_keys) || LISTED(key, summed_if_known_keys) || LISTED(key, any_keys) ||
           LISTED(key, own_keys) ||
           strncmp(key, "log.", 4) == 0 || strncmp(key, MOUNT_PREFIX, strlen(MOUNT_PREFIX)) == 0;
}

/* key = own, the merge's value (the merged file's writer); when a part
 * holds another value, or none, each part's value is kept as
 * part.K.<key>: until session 50 a part's niorep_version or
 * format_version was dropped (review 50). */
static int put_own(nr__merge *m, meta_out *o, const char *key, const char *own)
{
    NR_TRY(put(m, o, key, own));
    int same = 1;
    for (size_t p = 0; same && p < m->n; p++) {
        const char *v = meta_get(&m->parts[p], key);
        same = v && strcmp(v, own) == 0;
    }
    for (size_t p = 0; !same && p < m->n; p++) {
        const char *v = meta_get(&m->parts[p], key);
        char k[64];
        snprintf(k, sizeof k, "part.%zu.%s", p, key);
        if (v)
            NR_TRY(put(m, o, k, v));
    }
    return 0;
}

static int put_computed(nr__merge *m, meta_out *o)
{
    char buf[32];
    NR_TRY(put_own(m, o, "niorep_version", NR_VERSION));
    snprintf(buf, sizeof buf, "%u", NR_STORE_FORMAT_VERSION);
    NR_TRY(put_own(m, o, "format_version", buf));
    NR_TRY(put(m, o, "time_base", m->parts[0].time_base ? m->parts[0].time_base : ""));
    NR_TRY(put_i64(m, o, "events", (int64_t)m->events));
    for (size_t k = 0; k < sizeof summed_keys / sizeof summed_keys[0]; k++) {
        int64_t sum = 0;
        for (size_t p = 0; p < m->n; p++)
            sum += meta_i64(&m->parts[p], summed_keys[k], 0);
        NR_TRY(put_i64(m, o, summed_keys[k], sum));
    }
    for (size_t k = 0; k < sizeof summed_if_known_keys / sizeof summed_if_known_keys[0]; k++) {
        int64_t sum = 0;
        size_t p = 0;
        for (; p < m->n && meta_i64(&m->parts[p], summed_if_known_keys[k], -1) >= 0; p++)
            sum += meta_i64(&m->parts[p], summed_if_known_keys[k], 0);
        if (p == m->n)
            NR_TRY(put_i64(m, o, summed_if_known_keys[k], sum));
    }
    for (size_t k = 0; k < sizeof any_keys / sizeof any_keys[0]; k++) {
        int any = 0;
        for (size_t p = 0; p < m->n; p++)
            any |= meta_i64(&m->parts[p], any_keys[k], 0) == 1;
        NR_TRY(put(m, o, any_keys[k], any ? "1" : "0"));
    }
    int64_t first = -1, last = -1;
    for (size_t p = 0; p < m->n; p++) {
        const int64_t f = meta_i64(&m->parts[p], "trace_first_ts_ns", -1);
        const int64_t l = meta_i64(&m->parts[p], "trace_last_ts_ns", -1);
        if (f >= 0 && (first < 0 || f < first))
            first = f;
        if (l > last)
            last = l;
    }
    NR_TRY(put_i64(m, o, "trace_first_ts_ns", first));
    return put_i64(m, o, "trace_last_ts_ns", last);
}

/* log.N.* of every part, numbered on across the parts; names "<node>/<name>". */
static int put_logs(nr__merge *m, meta_out *o)
{
    int64_t base = 0;
    char key[96];
    for (size_t p = 0; p < m->n; p++) {
        const nr__part *part = &m->parts[p];
        int64_t count = meta_i64(part, "log_files", 0);
        for (size_t i = 0; i < part->nmeta; i++) {
            const char *k = part->meta[i].key;
            char *rest;
            if (strncmp(k, "log.", 4) != 0)
                continue;
            const long long idx = strtoll(k + 4, &rest, 10);
            if (rest == k + 4 || *rest != '.' || idx < 0)
                continue;
            if (idx >= count)
                count = (int64_t)idx + 1;
            snprintf(key, sizeof key, "log.%" PRId64 "%s", base + (int64_t)idx, rest);
            if (strcmp(rest, ".name") != 0) {
                NR_TRY(put(m, o, key, part->meta[i].value));
                continue;
            }
            const size_t n = strlen(part->node) + strlen(part->meta[i].value) + 2;
            char *name = nr_arena_alloc(&m->arena, n);
            if (!name)
                return NR_E_NOMEM;
            snprintf(name, n, "%s/%s", part->node, part->meta[i].value);
            NR_TRY(put(m, o, key, name));
        }
        base += count;
    }
    return 0;
}

/* The index N of key "manifest.fs.<N>.<field>", and where <field> starts; -1 otherwise. */
static long long mount_index(const char *key, const char **field)
{
    const size_t n = strlen(MOUNT_PREFIX);
    char *rest;
    if (strncmp(key, MOUNT_PREFIX, n) != 0 || key[n] < '0' || key[n] > '9')
        return -1;
    const long long idx = strtoll(key + n, &rest, 10);
    if (*rest != '.' || idx < 0 || idx > INT32_MAX)
        return -1;
    *field = rest + 1;
    return idx;
}

/* Entry idx of the part's mount list as "field=value\n..." in the meta's key
 * order (the part's meta is sorted), so that equal entries compare equal. */
static char *mount_entry(nr__merge *m, const nr__part *p, long long idx)
{
    size_t len = 1;
    const char *field;
    for (size_t i = 0; i < p->nmeta; i++)
        if (mount_index(p->meta[i].key, &field) == idx)
            len += strlen(field) + strlen(p->meta[i].value) + 2;
    char *entry = nr_arena_alloc(&m->arena, len);
    if (!entry)
        return NULL;
    size_t at = 0;
    for (size_t i = 0; i < p->nmeta; i++)
        if (mount_index(p->meta[i].key, &field) == idx)
            at += (size_t)snprintf(entry + at, len - at, "%s=%s\n", field, p->meta[i].value);
    entry[at] = '\0';
    return entry;
}

static int put_mount(nr__merge *m, meta_out *o, const nr__part *p, long long idx, int64_t to)
{
    const char *field;
    for (size_t i = 0; i < p->nmeta; i++) {
        if (mount_index(p->meta[i].key, &field) != idx)
            continue;
        char *key = nr_arena_alloc(&m->arena, strlen(MOUNT_PREFIX) + strlen(field) + 24);
        if (!key)
            return NR_E_NOMEM;
        sprintf(key, MOUNT_PREFIX "%" PRId64 ".%s", to, field);
        NR_TRY(put(m, o, key, p->meta[i].value));
    }
    return 0;
}

/* manifest.fs.N.*: the distinct entries of every part's mount list, numbered
 * anew in the order of first appearance (part by part). Compared by position,
 * two nodes' different second mounts had moved to part.K.* keys, where the
 * model's file-system lookup did not see them (review 45). */
static int cmp_ll(const void *a, const void *b)
{
    const long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

static int put_part_mounts(nr__merge *m, meta_out *o, const nr__part *part, nr_strtab *seen)
{
    long long *idx = malloc((part->nmeta + 1) * sizeof *idx);
    size_t n = 0;
    const char *field;
    if (!idx)
        return NR_E_NOMEM;
    for (size_t i = 0; i < part->nmeta; i++)
        if ((idx[n] = mount_index(part->meta[i].key, &field)) >= 0)
            n++;
    qsort(idx, n, sizeof *idx, cmp_ll);
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        if (k > 0 && idx[k] == idx[k - 1])
            continue;
        const char *entry = mount_entry(m, part, idx[k]);
        if (!entry) {
            rc = NR_E_NOMEM;
            break;
        }
        if (nr_strtab_find(seen, entry, strlen(entry)) >= 0)
            continue;
        const int64_t to = nr_strtab_intern(seen, entry, strlen(entry));
        rc = to < 0 ? (int)to : put_mount(m, o, part, idx[k], to);
    }
    free(idx);
    return rc;
}

/* manifest.fs.N.*: the distinct entries of every part's mount list, numbered
 * anew in the order of first appearance (part by part, then by N). Compared
 * key by key, two nodes' different second mounts had moved to part.K.* keys,
 * where the model's file-system lookup did not see them (review 45). */
static int put_mounts(nr__merge *m, meta_out *o)
{
    nr_strtab seen;
    nr_strtab_init(&seen);
    int rc = 0;
    for (size_t p = 0; p < m->n && rc == 0; p++)
        rc = put_part_mounts(m, o, &m->parts[p], &seen);
    nr_strtab_fini(&seen);
    return rc;
}

/* A key the merge does not compute: kept when every part has the same value,
 * else each part's value as part.K.<key>. */
static int put_other(nr__merge *m, meta_out *o, const char *key)
{
    const char *v0 = meta_get(&m->parts[0], key);
    int same = v0 != NULL;
    for (size_t p = 1; same && p < m->n; p++) {
        const char *v = meta_get(&m->parts[p], key);
        same = v && strcmp(v, v0) == 0;
    }
    if (same)
        return put(m, o, key, v0);
    for (size_t p = 0; p < m->n; p++) {
        const char *v = meta_get(&m->parts[p], key);
        char *k = v ? nr_arena_alloc(&m->arena, strlen(key) + 32) : NULL;
        if (v && !k)
            return NR_E_NOMEM;
        if (v) {
            sprintf(k, "part.%zu.%s", p, key);
            NR_TRY(put(m, o, k, v));
        }
    }
    return 0;
}

static int put_parts(nr__merge *m, meta_out *o)
{
    char key[64];
    NR_TRY(put_i64(m, o, "merged_parts", (int64_t)m->n));
    for (size_t p = 0; p < m->n; p++) {
        snprintf(key, sizeof key, "part.%zu.node", p);
        NR_TRY(put(m, o, key, m->parts[p].node));
        snprintf(key, sizeof key, "part.%zu.pid_base", p);
        NR_TRY(put_i64(m, o, key, m->parts[p].pid_base));
        snprintf(key, sizeof key, "part.%zu.store", p);
        NR_TRY(put(m, o, key, m->parts[p].name));
    }
    return 0;
}

static int cmp_kv(const void *a, const void *b)
{
    return strcmp(((const nr__kv *)a)->key, ((const nr__kv *)b)->key);
}

static int build_meta(nr__merge *m, meta_out *o)
{
    NR_TRY(put_computed(m, o));
    NR_TRY(put_logs(m, o));
    NR_TRY(put_mounts(m, o));
    NR_TRY(put_parts(m, o));
    nr_strtab seen;
    nr_strtab_init(&seen);
    int rc = 0;
    for (size_t p = 0; p < m->n && rc == 0; p++) {
        for (size_t i = 0; i < m->parts[p].nmeta && rc == 0; i++) {
            const char *k = m->parts[p].meta[i].key;
            if (computed_key(k) || nr_strtab_find(&seen, k, strlen(k)) >= 0)
                continue;
            const int64_t id = nr_strtab_intern(&seen, k, strlen(k));
            rc = id < 0 ? (int)id : put_other(m, o, k);
        }
    }
    nr_strtab_fini(&seen);
    return rc;
}

int nr__merge_write_meta(nr__merge *m, nr_error *err)
{
    meta_out o = {0};
    int rc = build_meta(m, &o);
    if (rc < 0) {
        free(o.kv);
        return nr_error_set(err, rc, "merge: out of memory");
    }
    qsort(o.kv, o.n, sizeof *o.kv, cmp_kv);
    nr__row r;
    for (size_t i = 0; i < o.n && rc == 0; i++) {
        r.s[NR_MT_KEY] = o.kv[i].key;
        r.len[NR_MT_KEY] = (uint32_t)strlen(o.kv[i].key);
        r.s[NR_MT_VALUE] = o.kv[i].value;
        r.len[NR_MT_VALUE] = (uint32_t)strlen(o.kv[i].value);
        rc = nr__write_row(m->t_meta, &nr_meta_table, &r, err);
    }
    free(o.kv);
    return rc;
}
