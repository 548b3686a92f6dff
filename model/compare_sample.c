/* compare_sample: one streaming pass over a store's events that keeps a
 * deterministic reservoir of calls per latency op group, for the KS tests
 * and bootstraps of `niorep compare`. Memory: the ids of the regular files
 * and directories plus cap calls per op group, whatever the number of events. */
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "model_internal.h"
#include "nr_schema.h"

void nr_compare_sample_init(nr_compare_sample *s)
{
    memset(s, 0, sizeof *s);
}

void nr_compare_sample_fini(nr_compare_sample *s)
{
    for (int i = 0; i < NR_LAT_OP_COUNT; i++) {
        nr_reservoir_fini(&s->op[i]);
        free(s->sorted[i]);
    }
    memset(s, 0, sizeof *s);
}

static int cmp_double(const void *pa, const void *pb)
{
    const double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static int find_col(const nr_store_table *t, const nr_table_def *def, size_t col, int *out, nr_error *err)
{
    *out = nr_store_col_index(t, def->cols[col].name);
    if (*out < 0)
        return nr_error_set(err, NR_E_FORMAT, "table %s lacks column %s", def->name, def->cols[col].name);
    return 0;
}

/* A file that can hold a latency sample (nr__latency_file): its id and kind. */
typedef struct file_kind {
    int64_t id, kind;
} file_kind;

static int cmp_file_kind(const void *pa, const void *pb)
{
    const int64_t a = ((const file_kind *)pa)->id, b = ((const file_kind *)pb)->id;
    return (a > b) - (a < b);
}

/* The regular files and directories of table files, sorted by id. */
static int latency_files(const nr_store *st, file_kind **files, size_t *n, nr_error *err)
{
    *files = NULL;
    *n = 0;
    const nr_store_table *t = nr_store_find_table(st, nr_files_table.name);
    if (!t)
        return 0;   /* no files: no file's call */
    int c_id, c_kind;
    NR_TRY(find_col(t, &nr_files_table, NR_FI_FILE_ID, &c_id, err));
    NR_TRY(find_col(t, &nr_files_table, NR_FI_KIND, &c_kind, err));
    const uint64_t rows = nr_store_table_rows(t);
    file_kind *out = malloc((rows ? rows : 1) * sizeof *out);
    if (!out)
        return nr_error_set(err, NR_E_NOMEM, "compare: out of memory for %llu file ids", (unsigned long long)rows);
    nr_col_chunk cid, ckind;
    nr_col_chunk_init(&cid);
    nr_col_chunk_init(&ckind);
    size_t k = 0;
    int rc = 0;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t) && rc == 0; rg++) {
        rc = nr_store_read_chunk(t, (size_t)c_id, rg, &cid, err);
        if (rc == 0)
            rc = nr_store_read_chunk(t, (size_t)c_kind, rg, &ckind, err);
        for (size_t i = 0; rc == 0 && i < cid.n && i < ckind.n && k < rows; i++)
            if (ckind.i64[i] == NR_KIND_REGULAR || ckind.i64[i] == NR_KIND_DIRECTORY)
                out[k++] = (file_kind){cid.i64[i], ckind.i64[i]};
    }
    nr_col_chunk_fini(&cid);
    nr_col_chunk_fini(&ckind);
    if (rc < 0) {
        free(out);
        return rc;
    }
    if (k)
        qsort(out, k, sizeof *out, cmp_file_kind);
    *files = out;
    *n = k;
    return 0;
}

/* Whether a call of op class op on file id is a latency sample's, as the
 * model decides (nr__latency_file): id -1 names no file. */
static int latency_call(const file_kind *files, size_t n, int64_t id, int64_t op)
{
    if (id < 0)
        return nr__latency_file((int)op, NR_KIND_UNKNOWN, -1);
    const file_kind key = {id, 0};
    const file_kind *f = n ? bsearch(&key, files, n, sizeof *files, cmp_file_kind) : NULL; /* no files: NULL */
    return f && nr__latency_file((int)op, (int)f->kind, 0);
}

enum { C_DUR, C_OP, C_FILE, C_FLAGS, C_BYTES, C_COUNT };

static int stream_events(const nr_store_table *t, const file_kind *files, size_t nfiles,
                         nr_compare_sample *s, int64_t *tick, nr_error *err)
{
    static const size_t wanted[C_COUNT] = {NR_EV_DUR_NS, NR_EV_OP_CLASS, NR_EV_FILE_ID, NR_EV_FLAGS, NR_EV_BYTES};
    int col[C_COUNT];
    for (int c = 0; c < C_COUNT; c++)
        NR_TRY(find_col(t, &nr_events_table, wanted[c], &col[c], err));
    nr_col_chunk ch[C_COUNT];
    for (int c = 0; c < C_COUNT; c++)
        nr_col_chunk_init(&ch[c]);
    int rc = 0;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t) && rc == 0; rg++) {
        for (int c = 0; c < C_COUNT && rc == 0; c++)
            rc = nr_store_read_chunk(t, (size_t)col[c], rg, &ch[c], err);
        size_t n = ch[0].n;
        for (int c = 1; c < C_COUNT; c++)
            n = ch[c].n < n ? ch[c].n : n;
        for (size_t i = 0; rc == 0 && i < n; i++) {
            const int op = nr__lat_op_of(ch[C_OP].i64[i]);
            const int64_t dur = ch[C_DUR].i64[i];
            if (op < 0 || dur < 0 || (ch[C_FLAGS].i64[i] & NR_EVF_NEVER_RESUMED) ||
                !latency_call(files, nfiles, ch[C_FILE].i64[i], ch[C_OP].i64[i]))
                continue;
            while (tick[op] > 1 && dur % tick[op] != 0)
                tick[op] /= 10;
            if (s->op[op].seen == 0 || (double)dur * 1e-9 < s->min_s[op])
                s->min_s[op] = (double)dur * 1e-9;
            s->all_dur_ns[op] = nr__sat_add(s->all_dur_ns[op], dur);
            s->all_bytes[op] = nr__sat_add(s->all_bytes[op], ch[C_BYTES].i64[i]);
            rc = nr_reservoir_add(&s->op[op], (double)dur * 1e-9, (double)ch[C_BYTES].i64[i]);
            if (rc < 0)
                rc = nr_error_set(err, NR_E_NOMEM, "compare: out of memory for the call sample");
        }
    }
    for (int c = 0; c < C_COUNT; c++)
        nr_col_chunk_fini(&ch[c]);
    return rc;
}

int nr_compare_sample_read(const nr_store *st, size_t cap, uint64_t seed,
                           nr_compare_sample *s, nr_error *err)
{
    nr_compare_sample_fini(s);
    for (int i = 0; i < NR_LAT_OP_COUNT; i++)
        /* One stream per op group, so that adding write calls to a run does not reshuffle its read sample. */
        nr_reservoir_init(&s->op[i], cap, seed * 1000003u + (uint64_t)i);
    file_kind *files;
    size_t nfiles;
    if (latency_files(st, &files, &nfiles, err) < 0)
        return nr__name_store_error(st, err->code, err);
    const nr_store_table *t = nr_store_find_table(st, nr_events_table.name);
    int64_t tick[NR_LAT_OP_COUNT];
    for (int i = 0; i < NR_LAT_OP_COUNT; i++)
        tick[i] = 1000000;   /* 1 ms: coarser timers than that are not worth guessing */
    int rc = t ? stream_events(t, files, nfiles, s, tick, err) : 0;
    for (int i = 0; i < NR_LAT_OP_COUNT; i++)
        s->tick_s[i] = s->op[i].seen ? (double)tick[i] * 1e-9 : 0.0;
    free(files);
    for (int i = 0; rc == 0 && i < NR_LAT_OP_COUNT; i++) {
        const size_t n = s->op[i].n;
        s->sorted[i] = malloc((n ? n : 1) * sizeof(double));
        if (!s->sorted[i]) {
            rc = nr_error_set(err, NR_E_NOMEM, "compare: out of memory for the call sample");
            break;
        }
        if (n)
            memcpy(s->sorted[i], s->op[i].value, n * sizeof(double));
        qsort(s->sorted[i], n, sizeof(double), cmp_double);
    }
    return rc < 0 ? nr__name_store_error(st, rc, err) : 0;
}
