/* store_writer: buffers one row group per table, encodes and compresses each
 * column chunk when the group is full, and writes the footer index on commit.
 * Memory is bounded by one row group per table plus the footer index (and,
 * with a helper, the compressed chunks of one flush). */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NR_STORE_AVX512 1 /* functions for AVX-512, run after a check of the CPU */
#include <immintrin.h>
#endif

#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_c_literalCompressionMode (ZSTD_ps_enable: zstd >= 1.5.1) */
#include <zstd.h>

#include "nr_mem.h"
#include "nr_outfile.h"
#include "nr_strtab.h"
#include "store_internal.h"

/* The compression of a chunk: zstd level 1 (strategy fast) with matches
 * of at least 7 bytes (shorter matches of varints rarely pay for their
 * sequence). A chunk of at most SMALL_CODE_BYTES raw bytes per row is a run
 * of mostly one-byte codes (ids, classes, differences): there Huffman
 * coding of the literals makes nearly all the gain, and the match finder
 * costs more than it finds, so these chunks are compressed with the match
 * search accelerated by FAST_ACCELERATION (zstd's targetLength of strategy
 * fast) and Huffman kept on (zstd turns it off for accelerated fast modes
 * unless asked). On the events chunks of a 26 MB generated log: half the
 * instructions of the plain level 1 and 2.5% fewer bytes; chunks of wider
 * codes (timestamps, paths) keep the plain level 1, where matches pay
 * (docs/performance.md, "Store writer, session 3"), and so do chunks that
 * fail the trial below. The choice depends on the raw bytes only, so the
 * same rows give the same file. Until format
 * version 3 a level-3 retry caught events.file_id; its transform made that
 * retry useless. */
#define DEFAULT_LEVEL 1
#define DEFAULT_MIN_MATCH 7
#define SMALL_CODE_BYTES 2u
#define FAST_ACCELERATION 1024
/* The accelerated search loses much on real traces, whose loops repeat
 * whole sequences of calls (datasets/sample: +10% to +39% per store), and
 * gains on columns without long repeats. So each small-code chunk decides
 * by a trial on its first TRIAL_BYTES: the accelerated way compresses the
 * chunk when it was at most 1/FAST_SLACK larger there. The choice depends
 * on the chunk's bytes only (same rows, same file). */
#define TRIAL_BYTES 4096u
#define FAST_SLACK 16u
/* A column's trial decides for its next TRIAL_EVERY small-code chunks: a
 * column keeps its kind of data from one row group to the next, and a
 * trial per chunk cost 11 M of 1,591 M instructions (0.7%) on the 100 MB
 * generated log. */
#define TRIAL_EVERY 16u

/* Footer entry of a written chunk. */
typedef struct chunk_entry {
    uint64_t offset;
    uint32_t disk_size, raw_size, rows, crc;
} chunk_entry;

/* Direct-mapped cache in front of a STR column's dictionary: columns such
 * as syscall and errno repeat a handful of short strings, and a hit costs one
 * memcmp instead of hashing the string. */
#define STR_CACHE_SLOTS 32u

/* nr_table_append_rows with at least this many rows sizes the column
 * buffers for a whole row group. */
#define APPEND_FULL_GROUP_ROWS 1024u

/* The transform of an I64 column's chunks (FORMAT.md, "I64 chunks") and
 * the earlier columns it reads: base (BASE), key (KEY_*), step (KEY_NEXT). */
typedef struct col_plan {
    int transform;
    int dep[2];
} col_plan;

/* Values of one column in the current row group. */
typedef struct col_buf {
    int64_t *i64;        /* I64: values */
    const int64_t *lent; /* I64: the caller's values of a whole group that nr_table_append_rows
                            flushes without copying them (see col_values); else NULL */
    uint32_t *str_ids;   /* STR: ids into strings */
    nr_strtab strings;   /* STR: distinct strings of the group, first-appearance order */
    const char *const *lent_strs; /* STR: a whole group's strings given distinct (nr_col_values.distinct), */
    const uint32_t *lent_lens;    /* lent like lent: the dictionary in row order, strings unused; else NULL */
    uint32_t recent[STR_CACHE_SLOTS]; /* STR: 1 + id of a recently set string, by cheap key; 0 = empty */
    uint64_t set_serial; /* row serial of the last set; checks that rows are complete */
    uint32_t *remap;     /* STR, nr_table_append_rows: 1 + id in strings of a dict id; 0 = not yet */
    size_t remap_len, remap_cap;
    unsigned small_chunks; /* small-code chunks compressed so far (TRIAL_EVERY) */
    int fast_pick;         /* the last trial chose the accelerated context */
} col_buf;

struct nr_table_writer {
    nr_store_writer *store;
    const nr_table_def *def;
    col_buf *cols;
    size_t nrows;        /* rows in the current group */
    size_t cap;          /* rows the column buffers hold */
    uint64_t row_serial; /* 1-based serial of the row being filled */
    uint64_t total_rows;
    col_plan *plans;     /* per column: how its chunks are transformed */
    chunk_entry *chunks; /* footer index: group-major, ncols per group */
    size_t nchunks, chunks_cap;
    int error;           /* sticky: a failed set_str, reported by end_row */
    int finished;        /* nr_table_append_final_rows has written its last rows */
};

/* What encoding and compressing a chunk needs besides the rows: one per
 * thread that encodes. */
typedef struct encoder {
    ZSTD_CCtx *cctx;     /* compression parameters set once (set_params) */
    ZSTD_CCtx *fast;     /* small-code chunks (set_fast_params); NULL: cctx for all */
    nr_buf raw;          /* encoded chunk */
    nr_buf packed;       /* compressed chunk; later the footer */
    int64_t *xs;         /* transformed values of the chunk being encoded */
    size_t xs_cap;
    int64_t *codes;      /* their codes when scaled (scale_column) */
    size_t codes_cap;
    nr__keymap keys;     /* KEY_* transforms: per-key state of the chunk */
} encoder;

/* A chunk of a shared flush (flush_shared), encoded by either thread. */
typedef struct flush_job {
    nr_table_writer *t;
    size_t c;
    nr_buf frame;        /* the compressed chunk (owned, reused) */
    chunk_entry entry;   /* but the offset */
    int rc;
    nr_error err;
} flush_job;

struct nr_store_writer {
    nr_outfile out;
    encoder enc;         /* the caller's */
    int level;           /* nr_store_writer_set_level's, 0 = the default parameters */
    /* shared flushes (nr_store_writer_set_helper): jobs[next_job..njobs)
     * wait for a thread; mu guards the counts and helper_busy */
    void (*wake)(void *ctx); /* NULL: every flush on the caller's thread */
    void *wake_ctx;
    encoder helper_enc;  /* the helper's */
    int helper_busy;     /* a thread is in nr_store_writer_help */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    flush_job *jobs;
    size_t njobs, jobs_cap, next_job, jobs_done;
    nr_table_writer **tables;
    size_t ntables, tables_cap;
    uint64_t *hashes;    /* append_strs: hashes of the strings of a call */
    size_t hashes_cap;
    uint64_t writeback_from; /* bytes before this offset are handed to the kernel's writeback (start_writeback) */
    int committed;
    int failed;          /* sticky: a chunk write failed, the file is unusable */
};

const char *nr_col_type_name(int type)
{
    switch (type) {
    case NR_COL_I64: return "i64";
    case NR_COL_STR: return "str";
    default: return "?";
    }
}

const char *nr_col_encoding_name(int encoding)
{
    switch (encoding) {
    case NR_ENC_VARINT: return "varint";
    case NR_ENC_DELTA_VARINT: return "delta_varint";
    case NR_ENC_DICT: return "dict";
    default: return "?";
    }
}

/* Sets the parameters chunks are compressed with, once (they persist
 * across frames). min_match 0: the level's own. */
static int set_params(ZSTD_CCtx *cctx, int level, int min_match)
{
    if (ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_minMatch, min_match)))
        return NR_E_INPUT;
    return 0;
}

/* The parameters of small-code chunks (see SMALL_CODE_BYTES); an error
 * when this zstd lacks one of them. */
static int set_fast_params(ZSTD_CCtx *cctx)
{
    NR_TRY(set_params(cctx, DEFAULT_LEVEL, DEFAULT_MIN_MATCH));
    if (ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_targetLength, FAST_ACCELERATION)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_literalCompressionMode, ZSTD_ps_enable)))
        return NR_E_INPUT;
    return 0;
}

/* Sets e's compression to level (1..19), or the default parameters for 0. */
static void encoder_set_level(encoder *e, int level)
{
    if (level == 0)
        return;
    (void)set_params(e->cctx, level, 0); /* valid for every level in range */
    ZSTD_freeCCtx(e->fast);
    e->fast = NULL;
}

static void encoder_fini(encoder *e)
{
    nr_buf_fini(&e->raw);
    nr_buf_fini(&e->packed);
    free(e->xs);
    free(e->codes);
    nr__keymap_fini(&e->keys);
    ZSTD_freeCCtx(e->cctx);
    ZSTD_freeCCtx(e->fast);
    memset(e, 0, sizeof *e);
}

/* An encoder with the default parameters, then level's; NR_E_NOMEM. */
static int encoder_init(encoder *e, int level)
{
    memset(e, 0, sizeof *e);
    nr_buf_init(&e->raw);
    nr_buf_init(&e->packed);
    e->cctx = ZSTD_createCCtx();
    e->fast = ZSTD_createCCtx();
    if (e->fast && set_fast_params(e->fast) < 0) { /* an older zstd: the plain level for every chunk */
        ZSTD_freeCCtx(e->fast);
        e->fast = NULL;
    }
    if (!e->cctx || set_params(e->cctx, DEFAULT_LEVEL, DEFAULT_MIN_MATCH) < 0) {
        encoder_fini(e);
        return NR_E_NOMEM;
    }
    encoder_set_level(e, level);
    return 0;
}

int nr_store_writer_create(const char *path, nr_store_writer **out, nr_error *err)
{
    *out = NULL;
    nr_store_writer *w = calloc(1, sizeof *w);
    if (!w)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", path);
    w->out.fd = -1;
    if (encoder_init(&w->enc, 0) < 0) {
        free(w);
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", path);
    }
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    int rc = nr_outfile_open(&w->out, path, err);
    if (rc < 0) {
        nr_store_writer_destroy(w);
        return rc;
    }
    uint8_t header[NR__STORE_HEADER_SIZE];
    memcpy(header, NR__STORE_MAGIC, NR__STORE_MAGIC_SIZE);
    nr__put_le32(header + 8, NR_STORE_FORMAT_VERSION);
    nr__put_le32(header + 12, 0);
    rc = nr_outfile_write(&w->out, header, sizeof header, err);
    if (rc < 0) {
        nr_store_writer_destroy(w);
        return rc;
    }
    *out = w;
    return 0;
}

void nr_store_writer_set_level(nr_store_writer *w, int level)
{
    w->level = level < 1 ? 1 : level > 19 ? 19 : level;
    encoder_set_level(&w->enc, w->level);
}

static int valid_name(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    return n >= 1 && n <= NR__STORE_MAX_NAME;
}

/* Index of the I64 column named name before column c; -1 when there is
 * none (or name is NULL). */
static int earlier_i64(const nr_table_def *def, size_t c, const char *name)
{
    if (!name || def->cols[c].type != NR_COL_I64)
        return -1;
    for (size_t d = 0; d < c; d++)
        if (def->cols[d].type == NR_COL_I64 && strcmp(def->cols[d].name, name) == 0)
            return (int)d;
    return -1;
}

/* The transform of column c, from its definition (checked by check_table_def). */
static col_plan plan_column(const nr_table_def *def, size_t c)
{
    const nr_col_def *col = &def->cols[c];
    if (col->key && col->step)
        return (col_plan){NR__I64_KEY_NEXT, {earlier_i64(def, c, col->key), earlier_i64(def, c, col->step)}};
    if (col->key)
        return (col_plan){NR__I64_KEY_DELTA, {earlier_i64(def, c, col->key), -1}};
    if (col->base)
        return (col_plan){NR__I64_BASE, {earlier_i64(def, c, col->base), -1}};
    if (col->encoding == NR_ENC_DELTA_VARINT)
        return (col_plan){NR__I64_DELTA, {-1, -1}};
    return (col_plan){NR__I64_VALUES, {-1, -1}};
}

static int check_table_def(const nr_store_writer *w, const nr_table_def *def, nr_error *err)
{
    const char *file = w->out.target;
    if (!valid_name(def->name))
        return nr_error_set(err, NR_E_INPUT, "%s: table name must be 1 to %u bytes", file, NR__STORE_MAX_NAME);
    for (size_t i = 0; i < w->ntables; i++)
        if (strcmp(w->tables[i]->def->name, def->name) == 0)
            return nr_error_set(err, NR_E_INPUT, "%s: table '%s' added twice", file, def->name);
    if (def->ncols == 0 || def->ncols > UINT32_MAX)
        return nr_error_set(err, NR_E_INPUT, "%s: table '%s' needs at least one column", file, def->name);
    for (size_t c = 0; c < def->ncols; c++) {
        const nr_col_def *col = &def->cols[c];
        int ok_type = (col->type == NR_COL_I64 && (col->encoding == NR_ENC_VARINT || col->encoding == NR_ENC_DELTA_VARINT)) ||
                      (col->type == NR_COL_STR && col->encoding == NR_ENC_DICT);
        if (!valid_name(col->name) || !ok_type)
            return nr_error_set(err, NR_E_INPUT, "%s: table '%s' column %zu: bad name, type or encoding",
                                file, def->name, c);
        for (size_t d = 0; d < c; d++)
            if (strcmp(def->cols[d].name, col->name) == 0)
                return nr_error_set(err, NR_E_INPUT, "%s: table '%s': column '%s' declared twice",
                                    file, def->name, col->name);
        const char *deps[3] = {col->base, col->key, col->step};
        for (size_t k = 0; k < 3; k++)
            if (deps[k] && earlier_i64(def, c, deps[k]) < 0)
                return nr_error_set(err, NR_E_INPUT, "%s: table '%s' column '%s': '%s' is not an earlier i64 column",
                                    file, def->name, col->name, deps[k]);
        if ((col->base && col->key) || (col->step && !col->key))
            return nr_error_set(err, NR_E_INPUT, "%s: table '%s' column '%s': a base excludes a key, a step needs one",
                                file, def->name, col->name);
    }
    return 0;
}

/* The values of I64 column c of the current group: its own buffer, or the
 * caller's array it was lent. */
static inline const int64_t *col_values(const nr_table_writer *t, size_t c)
{
    return t->cols[c].lent ? t->cols[c].lent : t->cols[c].i64;
}

/* Grows every column buffer of t to hold `need` rows. */
static int grow_columns(nr_table_writer *t, size_t need)
{
    size_t cap = 0;
    for (size_t c = 0; c < t->def->ncols; c++) {
        col_buf *col = &t->cols[c];
        cap = t->cap;
        if (t->def->cols[c].type == NR_COL_I64)
            NR_TRY(NR_GROW(col->i64, cap, need));
        else
            NR_TRY(NR_GROW(col->str_ids, cap, need));
    }
    if (need > NR_STORE_ROWS_PER_GROUP)
        return NR_E_LIMIT;
    t->cap = cap;
    return 0;
}

static void free_table(nr_table_writer *t)
{
    if (!t)
        return;
    if (t->cols)
        for (size_t c = 0; c < t->def->ncols; c++) {
            free(t->cols[c].i64);
            free(t->cols[c].str_ids);
            free(t->cols[c].remap);
            nr_strtab_fini(&t->cols[c].strings);
        }
    free(t->cols);
    free(t->plans);
    free(t->chunks);
    free(t);
}

int nr_store_writer_add_table(nr_store_writer *w, const nr_table_def *def,
                              nr_table_writer **out, nr_error *err)
{
    *out = NULL;
    NR_TRY(check_table_def(w, def, err));
    nr_table_writer *t = calloc(1, sizeof *t);
    if (!t)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", w->out.target);
    t->store = w;
    t->def = def;
    t->row_serial = 1;
    t->cols = calloc(def->ncols, sizeof *t->cols);
    t->plans = calloc(def->ncols, sizeof *t->plans);
    int rc = t->cols && t->plans ? 0 : NR_E_NOMEM;
    if (rc == 0) {
        for (size_t c = 0; c < def->ncols; c++) {
            nr_strtab_init(&t->cols[c].strings);
            t->plans[c] = plan_column(def, c);
        }
        rc = grow_columns(t, 64);
    }
    if (rc == 0)
        rc = NR_GROW(w->tables, w->tables_cap, w->ntables + 1);
    if (rc < 0) {
        free_table(t);
        return nr_error_set(err, rc, "%s: out of memory adding table '%s'", w->out.target, def->name);
    }
    w->tables[w->ntables++] = t;
    *out = t;
    return 0;
}

void nr_table_set_i64(nr_table_writer *t, size_t col, int64_t v)
{
    t->cols[col].i64[t->nrows] = v;
    t->cols[col].set_serial = t->row_serial;
}

static size_t recent_slot(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    return ((unsigned char)s[0] * 7u + (unsigned char)s[n - 1] * 13u + n) & (STR_CACHE_SLOTS - 1);
}

void nr_table_set_str(nr_table_writer *t, size_t col, const char *s, size_t n)
{
    col_buf *cb = &t->cols[col];
    uint32_t *recent = &cb->recent[recent_slot(s, n)];
    int64_t id;
    if (*recent && nr_strtab_len(&cb->strings, *recent - 1) == n &&
        memcmp(nr_strtab_str(&cb->strings, *recent - 1), s, n) == 0) {
        id = *recent - 1;
    } else {
        id = nr_strtab_intern(&cb->strings, s, n);
        if (id < 0) {
            t->error = (int)id;
            id = 0;
        } else {
            *recent = (uint32_t)id + 1;
        }
    }
    cb->str_ids[t->nrows] = (uint32_t)id;
    cb->set_serial = t->row_serial;
}

static uint8_t *put_uvarint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* x[i] = v[i] minus the previous value of the same key (0 for a key's
 * first row): KEY_DELTA. */
static void key_delta(nr__keymap *m, int64_t *x, const int64_t *v, const int64_t *k, size_t rows)
{
    for (size_t i = 0; i < rows; i++) {
        uint64_t *last = nr__keymap_at(m, k[i]);
        x[i] = (int64_t)((uint64_t)v[i] - *last);
        *last = (uint64_t)v[i];
    }
}

/* Row i of key_next, whose key's prediction is at next; scratch takes the
 * store of a row whose value is -1. Without a branch: on the offsets of
 * the 1 GB log -1 is 64% of the rows in no order the predictor learns, and
 * the branch on it cost half of key_next's time. The key's slot is left
 * alone on such rows by storing elsewhere rather than storing its old value
 * back, which would chain each row's store to the load before it. */
__attribute__((always_inline)) static inline void key_next_row(uint64_t *next, uint64_t *scratch, int64_t *x,
                                                               const int64_t *v, const int64_t *step, size_t i)
{
    const uint64_t value = (uint64_t)v[i], p = *next, d = value - p;
    const uint64_t none = 0 - (uint64_t)(value == UINT64_MAX); /* all ones for -1 */
    const uint64_t moved = 0 - (uint64_t)(d == UINT64_MAX);    /* the difference -1 */
    x[i] = (int64_t)((d & ~moved) | (~p & moved) | none);
    uint64_t *to = (uint64_t *)((uintptr_t)next ^ (((uintptr_t)next ^ (uintptr_t)scratch) & (uintptr_t)none));
    *to = value + (uint64_t)step[i];
}

/* KEY_NEXT: the prediction p of a row is value plus step of the previous
 * row of its key whose value was not -1 (0 for none); x[i] = v[i] - p,
 * except that -1 stays -1 and the difference -1 (v[i] = p - 1) takes
 * -1's place, -1 - p (~p): a permutation of the 2^64 values. The direct
 * map's loop apart, its fields in registers (the stores through the slots
 * could alias them). */
static void key_next(nr__keymap *m, int64_t *x, const int64_t *v, const int64_t *k, const int64_t *step,
                     size_t rows)
{
    uint64_t scratch;
    if (m->dense) {
        uint64_t *dense = m->dense;
        const uint64_t min = (uint64_t)m->min;
        for (size_t i = 0; i < rows; i++)
            key_next_row(&dense[(uint64_t)k[i] - min], &scratch, x, v, step, i);
        return;
    }
    for (size_t i = 0; i < rows; i++)
        key_next_row(nr__keymap_at(m, k[i]), &scratch, x, v, step, i);
}

/* Transformed values of column c (FORMAT.md, "I64 chunks"): w->xs, or the
 * column's own values for transform 0 (no copy). Differences wrap modulo
 * 2^64. */
static const int64_t *transform_i64(encoder *w, const nr_table_writer *t, size_t c)
{
    const col_plan *plan = &t->plans[c];
    const int64_t *v = col_values(t, c);
    int64_t *x = w->xs;
    size_t rows = t->nrows;
    switch (plan->transform) {
    case NR__I64_BASE: {
        const int64_t *b = col_values(t, (size_t)plan->dep[0]);
        for (size_t i = 0; i < rows; i++)
            x[i] = (int64_t)((uint64_t)v[i] - (uint64_t)b[i]);
        return x;
    }
    case NR__I64_DELTA:
        if (rows)
            x[0] = v[0];
        for (size_t i = 1; i < rows; i++) /* no carried variable: vectorized */
            x[i] = (int64_t)((uint64_t)v[i] - (uint64_t)v[i - 1]);
        return x;
    case NR__I64_KEY_DELTA:
        key_delta(&w->keys, x, v, col_values(t, (size_t)plan->dep[0]), rows);
        return x;
    case NR__I64_KEY_NEXT:
        key_next(&w->keys, x, v, col_values(t, (size_t)plan->dep[0]), col_values(t, (size_t)plan->dep[1]), rows);
        return x;
    default:
        return v;
    }
}

/* Division by a fixed d > 0 known to be exact, and the divisibility test,
 * without a 64-bit divide: d = 2^shift * odd, and x / odd is x times the
 * inverse of odd modulo 2^64 when odd divides x (Granlund and Montgomery,
 * "Division by invariant integers using multiplication", 1994, sec. 9). */
typedef struct exact_divisor {
    uint64_t inv;   /* odd * inv = 1 modulo 2^64 */
    uint64_t limit; /* (2^64 - 1) / odd: y is a multiple of odd iff y * inv <= limit */
    unsigned shift;
} exact_divisor;

static exact_divisor exact_divisor_of(uint64_t d)
{
    exact_divisor e = {.shift = (unsigned)__builtin_ctzll(d)};
    uint64_t odd = d >> e.shift, inv = odd; /* correct to 3 bits; each step doubles them */
    for (int i = 0; i < 5; i++)
        inv *= 2 - odd * inv;
    e.inv = inv;
    e.limit = UINT64_MAX / odd;
    return e;
}

static int divides(const exact_divisor *e, uint64_t a)
{
    return (a & ((UINT64_C(1) << e->shift) - 1)) == 0 && (a >> e->shift) * e->inv <= e->limit;
}

/* The greatest common divisor of g and the values but -1 (0 when g is 0 and
 * all are 0 or -1): strace prints times in us, so ns values and their
 * differences are multiples of 1000. The gcd changes a few times per chunk
 * at most, so each value costs a divisibility test by multiplication. */
static uint64_t values_gcd(const int64_t *x, size_t rows, uint64_t g)
{
    exact_divisor e = g ? exact_divisor_of(g) : (exact_divisor){0};
    for (size_t i = 0; i < rows; i++) {
        if ((uint64_t)x[i] + 1 <= 1) /* -1 or 0: divisible by any scale */
            continue;
        uint64_t a = x[i] < 0 ? 0 - (uint64_t)x[i] : (uint64_t)x[i];
        if (g == 0 || !divides(&e, a)) {
            g = gcd_u64(a, g);
            if (g == 1)
                return 1;
            if (g != 0)
                e = exact_divisor_of(g);
        }
    }
    return g;
}

static uint64_t common_scale(const int64_t *x, size_t rows)
{
    uint64_t g = values_gcd(x, rows, 0);
    return g > 1 ? g : 1;
}

/* One svarint of zig-zag code z at p; returns the end. */
static uint8_t *put_code(uint8_t *p, uint64_t z)
{
    if (z < 0x80) {
        *p = (uint8_t)z;
        return p + 1;
    }
    return put_uvarint(p, z);
}

/* put_code without a branch on the length for codes below 2^56 (up to 8
 * bytes): the 7-bit groups spread to the bytes in three steps (28-bit
 * halves, 14-bit quarters, 7-bit eighths), the continuation bits on all
 * bytes but the last, and one 8-byte store (the chunk buffer has 10 bytes a
 * row: room for the store's tail). The loop of put_uvarint mispredicted its
 * exit on columns of mixed lengths (times, sizes, offsets), the codes of
 * the blocks put_8_small_codes leaves. The length is ceil(bits / 7), as
 * (bits + 6) * 37 >> 8 (exact up to 64 bits). */
static inline uint8_t *put_code_spread(uint8_t *p, uint64_t z)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (z >> 56)
        return put_uvarint(p, z);
    const unsigned bits = 64 - (unsigned)__builtin_clzll(z | 1);
    const unsigned len = (bits + 6) * 37 >> 8;
    uint64_t g = (z & 0xfffffff) | (z & (UINT64_C(0xfffffff) << 28)) << 4;
    g = (g & UINT64_C(0x00003fff00003fff)) | (g & UINT64_C(0x0fffc0000fffc000)) << 2;
    g = (g & UINT64_C(0x007f007f007f007f)) | (g & UINT64_C(0x3f803f803f803f80)) << 1;
    g |= UINT64_C(0x8080808080808080) & ((UINT64_C(1) << (8 * (len - 1))) - 1);
    memcpy(p, &g, sizeof g); /* little-endian: the first group first */
    return p + len;
#else
    return put_code(p, z);
#endif
}

#ifdef __SSE2__
/* Eight codes x[0..8) at p when all eight take one byte, that is when every
 * x[i] is in [-64, 63], where x[i] + 64 has no bit above the low 7; returns
 * NULL otherwise. SSE2: the low halves of the eight values packed to bytes
 * (no saturation in range), then zig-zag on bytes (x + x, xor the sign).
 * Packing before the zig-zag takes 26 instructions for eight codes against
 * 36 for the zig-zag of the 64-bit lanes first. */
static uint8_t *put_8_small_codes(uint8_t *p, const void *values)
{
    const int64_t *x = values;
    const __m128i bias = _mm_set1_epi64x(64);
    __m128i v[4];
    for (int k = 0; k < 4; k++)
        v[k] = _mm_loadu_si128((const __m128i *)(const void *)(x + 2 * k));
    __m128i any = _mm_or_si128(_mm_or_si128(_mm_add_epi64(v[0], bias), _mm_add_epi64(v[1], bias)),
                               _mm_or_si128(_mm_add_epi64(v[2], bias), _mm_add_epi64(v[3], bias)));
    __m128i high = _mm_andnot_si128(_mm_set1_epi64x(0x7f), any);
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(high, _mm_setzero_si128())) != 0xffff)
        return NULL;
    /* the low 32 bits of each lane, in row order: 4 + 4 int32 */
    __m128i lo01 = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(v[0]), _mm_castsi128_ps(v[1]), _MM_SHUFFLE(2, 0, 2, 0)));
    __m128i lo23 = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(v[2]), _mm_castsi128_ps(v[3]), _MM_SHUFFLE(2, 0, 2, 0)));
    __m128i w = _mm_packs_epi32(lo01, lo23);
    __m128i b = _mm_packs_epi16(w, w);
    __m128i zz = _mm_xor_si128(_mm_add_epi8(b, b), _mm_cmpgt_epi8(_mm_setzero_si128(), b));
    _mm_storel_epi64((__m128i *)(void *)p, zz);
    return p + 8;
}
#endif

/* A writer of blocks of one-byte values, or NULL without SSE2. */
#ifdef __SSE2__
#define SSE2_ONLY(put_block) put_block
#else
#define SSE2_ONLY(put_block) NULL
#endif

/* Writes the n values at values (each size bytes) at p, returns the end:
 * in blocks of `block` by put_block (NULL: none), which returns NULL when a
 * value of the block takes more than one byte, and value by value by
 * put_one for such blocks and the rest. Always inlined, with constant
 * functions (put_codes, put_ids), it compiles to their own loops (GCC kept
 * the indirect calls otherwise: 1.8 M more instructions on the quarter of
 * the 100 MB log). */
__attribute__((always_inline))
static inline uint8_t *put_in_blocks(uint8_t *p, const void *values, size_t size, size_t n, size_t block,
                                     uint8_t *(*put_block)(uint8_t *p, const void *v),
                                     uint8_t *(*put_one)(uint8_t *p, const void *v))
{
    const char *v = values;
    size_t i = 0;
    if (put_block)
        for (; i + block <= n; i += block) {
            uint8_t *q = put_block(p, v + i * size);
            if (q) {
                p = q;
                continue;
            }
            for (size_t k = 0; k < block; k++)
                p = put_one(p, v + (i + k) * size);
        }
    for (; i < n; i++)
        p = put_one(p, v + i * size);
    return p;
}

static uint8_t *put_one_code(uint8_t *p, const void *x)
{
    return put_code_spread(p, nr_zigzag(*(const int64_t *)x));
}

static uint8_t *put_one_id(uint8_t *p, const void *id)
{
    return put_uvarint(p, *(const uint32_t *)id);
}

#ifdef __SSE2__
/* Sixteen uvarints of ids[0..16) at p when all sixteen are below 128 (one
 * byte each); returns NULL otherwise. */
static uint8_t *put_16_small_ids(uint8_t *p, const void *values)
{
    const uint32_t *ids = values;
    __m128i v[4];
    for (int k = 0; k < 4; k++)
        v[k] = _mm_loadu_si128((const __m128i *)(const void *)(ids + 4 * k));
    __m128i any = _mm_or_si128(_mm_or_si128(v[0], v[1]), _mm_or_si128(v[2], v[3]));
    __m128i high = _mm_andnot_si128(_mm_set1_epi32(0x7f), any);
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(high, _mm_setzero_si128())) != 0xffff)
        return NULL;
    __m128i b = _mm_packus_epi16(_mm_packs_epi32(v[0], v[1]), _mm_packs_epi32(v[2], v[3]));
    _mm_storeu_si128((__m128i *)(void *)p, b);
    return p + 16;
}
#endif

/* The svarints of x[0..rows) at p; returns the end. Most codes take one
 * byte: with SSE2 eight such codes are written at once. (An AVX2 version,
 * sixteen at a time, ran fewer instructions but took more CPU time:
 * docs/performance.md, "Store writer and event hand-over, session 4".) */
static uint8_t *put_codes_sse2(uint8_t *p, const int64_t *x, size_t rows)
{
    return put_in_blocks(p, x, sizeof *x, rows, 8, SSE2_ONLY(put_8_small_codes), put_one_code);
}

#ifdef NR_STORE_AVX512
#define AVX512_CODES "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2"
/* Eight codes x[0..8) at p whatever their lengths, when all are below 2^56
 * (else NULL): in each 64-bit lane, byte k gets bits 7k.. of the code
 * (multishift), byte k is kept when the code has fewer than 64 - 7k
 * leading zeros and byte 0 always (a compare of the lane's lzcnt, copied
 * to its bytes, with these bounds), the kept bytes but a lane's last get
 * the continuation bit (the bounds of byte k + 1), and compress packs the
 * kept bytes for one 64-byte store: eight codes have at least 8 rows' 80
 * bytes of the chunk buffer from p, whose codes take at most 64. A chunk
 * of times or offsets has a longer code in most blocks of eight, each of
 * which put_codes_sse2 writes one by one. */
__attribute__((target(AVX512_CODES))) static uint8_t *put_8_codes_avx512(uint8_t *p, const void *values)
{
    const __m512i v = _mm512_loadu_si512(values);
    const __m512i z = _mm512_xor_si512(_mm512_slli_epi64(v, 1), _mm512_srai_epi64(v, 63));
    if (_mm512_test_epi64_mask(z, _mm512_set1_epi64((int64_t)UINT64_C(0xff00000000000000))))
        return NULL;
    const __m512i groups = _mm512_and_si512(_mm512_multishift_epi64_epi8(_mm512_set1_epi64(0x312a231c150e0700), z),
                                            _mm512_set1_epi8(0x7f)); /* bit offsets 0, 7, .., 49 */
    const __m512i lz = _mm512_shuffle_epi8(_mm512_lzcnt_epi64(z), /* byte 0 of each lane to its 8 bytes */
                                           _mm512_broadcast_i32x4(_mm_set_epi64x(0x0808080808080808, 0)));
    const __mmask64 keep = _mm512_cmplt_epu8_mask(lz, _mm512_set1_epi64(0x0f161d242b323941)); /* 65, 57, 50, .., 15 */
    const __mmask64 more = _mm512_cmplt_epu8_mask(lz, _mm512_set1_epi64(0x000f161d242b3239)); /* 57, 50, .., 15, 0 */
    const __m512i out = _mm512_mask_add_epi8(groups, more, groups, _mm512_set1_epi8((char)0x80));
    _mm512_storeu_si512(p, _mm512_maskz_compress_epi8(keep, out));
    return p + __builtin_popcountll(keep);
}

__attribute__((target(AVX512_CODES))) static uint8_t *put_codes_avx512(uint8_t *p, const int64_t *x, size_t rows)
{
    return put_in_blocks(p, x, sizeof *x, rows, 8, put_8_codes_avx512, put_one_code);
}

static int has_avx512_codes(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512vbmi") &&
           __builtin_cpu_supports("avx512vbmi2");
}
#endif

/* put_codes_sse2, or with AVX-512 (put_8_codes_avx512) when the CPU has it. */
static uint8_t *put_codes(uint8_t *p, const int64_t *x, size_t rows)
{
#ifdef NR_STORE_AVX512
    if (has_avx512_codes())
        return put_codes_avx512(p, x, rows);
#endif
    return put_codes_sse2(p, x, rows);
}

/* The uvarints of ids[0..rows) at p; returns the end. Most chunks have
 * dictionaries of fewer than 128 strings: with SSE2 sixteen one-byte ids
 * are written at once. */
static uint8_t *put_ids(uint8_t *p, const uint32_t *ids, size_t rows)
{
    return put_in_blocks(p, ids, sizeof *ids, rows, 16, SSE2_ONLY(put_16_small_ids), put_one_id);
}

/* codes[i] = nr__scale_down(x[i], scale) for scale > 1, the exact
 * divisions done by multiplication; codes may be x. */
static void scale_codes(int64_t *codes, const int64_t *x, size_t rows, uint64_t scale)
{
    const exact_divisor e = exact_divisor_of(scale);
    for (size_t i = 0; i < rows; i++) {
        int64_t code = -1;
        if (x[i] >= 0)
            code = (int64_t)(((uint64_t)x[i] >> e.shift) * e.inv);
        else if (x[i] != -1)
            code = -(int64_t)(((0 - (uint64_t)x[i]) >> e.shift) * e.inv) - 1;
        codes[i] = code;
    }
}

/* scale_codes for a scale guessed from the first rows (scale_column): the
 * same codes when scale divides every value but -1, checked on the way in
 * blocks of SCALE_CHECK_ROWS; returns rows, or the start of the first block
 * where it does not divide, with codes partly written. The test and the
 * division are one product: with scale = 2^k * odd, a is a multiple of
 * scale iff r = (a * inv) rotated right by k is at most (2^64 - 1) / scale,
 * and then r = a / scale (Hacker's Delight, 2nd ed., sec. 10-17). */
#define SCALE_CHECK_ROWS 256u
/* Rows whose greatest common divisor is the guess (see scale_column). */
#define SCALE_GUESS_ROWS 512u
#ifdef NR_STORE_AVX512
/* Rows i.. of a block of scale_codes_checked that ends at end, eight at a
 * time (64-bit products, rotations and compares in eight lanes; GCC left
 * the loop scalar); returns the first row left, fewer than eight from end,
 * with *bad set when a code was above limit. */
__attribute__((target("avx512f,avx512dq"))) static size_t scale_rows_avx512(int64_t *codes, const int64_t *x, size_t i,
                                                                           size_t end, const exact_divisor *e,
                                                                           uint64_t limit, uint64_t *bad)
{
    const __m512i inv = _mm512_set1_epi64((int64_t)e->inv), shift = _mm512_set1_epi64(e->shift);
    const __m512i lim = _mm512_set1_epi64((int64_t)limit), minus1 = _mm512_set1_epi64(-1);
    __mmask8 over = 0;
    for (; i + 8 <= end; i += 8) {
        const __m512i v = _mm512_loadu_si512(x + i);
        const __m512i a = _mm512_maskz_abs_epi64(_mm512_cmpneq_epi64_mask(v, minus1), v); /* -1: 0 */
        const __m512i r = _mm512_rorv_epi64(_mm512_mullo_epi64(a, inv), shift);
        over |= _mm512_cmpgt_epu64_mask(r, lim);
        _mm512_storeu_si512(codes + i, _mm512_xor_si512(r, _mm512_srai_epi64(v, 63)));
    }
    *bad |= over != 0;
    return i;
}
#endif

static size_t scale_codes_checked(int64_t *codes, const int64_t *x, size_t rows, uint64_t scale)
{
    const exact_divisor e = exact_divisor_of(scale);
    const uint64_t limit = UINT64_MAX / scale;
    const unsigned left = (64 - e.shift) & 63;
#ifdef NR_STORE_AVX512
    const int wide = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#endif
    for (size_t start = 0; start < rows; start += SCALE_CHECK_ROWS) {
        size_t end = rows - start < SCALE_CHECK_ROWS ? rows : start + SCALE_CHECK_ROWS;
        uint64_t bad = 0;
        size_t i = start;
#ifdef NR_STORE_AVX512
        if (wide)
            i = scale_rows_avx512(codes, x, i, end, &e, limit, &bad);
#endif
        for (; i < end; i++) {
            /* a = |x[i]|, but 0 for -1; the code of a negative value is
             * -q - 1 = ~q (-1 for -1) */
            uint64_t a = (uint64_t)x[i], sign = 0;
            if (x[i] < 0) {
                sign = UINT64_MAX;
                a = x[i] == -1 ? 0 : 0 - a;
            }
            const uint64_t p = a * e.inv;
            const uint64_t r = (p >> e.shift) | (p << left);
            bad |= (uint64_t)(r > limit);
            codes[i] = (int64_t)(r ^ sign);
        }
        if (bad)
            return start;
    }
    return rows;
}

/* Whether every x[i] equals x[0] (tid = pid, no second file, no phase):
 * such a chunk is one code repeated. Stops at the first block of 8 that
 * differs (SSE2: the block's xor with x[0] in four registers; the compiler
 * left the loop of 8 scalar). */
static int all_equal(const int64_t *x, size_t rows)
{
    size_t i = 1;
#ifdef __SSE2__
    const __m128i first = _mm_set1_epi64x(x[0]);
    for (; i + 8 <= rows; i += 8) {
        __m128i diff = _mm_setzero_si128();
        for (size_t k = 0; k < 8; k += 2)
            diff = _mm_or_si128(diff, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(x + i + k)), first));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(diff, _mm_setzero_si128())) != 0xffff)
            return 0;
    }
#else
    for (; i + 8 <= rows; i += 8) {
        uint64_t diff = 0;
        for (size_t k = 0; k < 8; k++)
            diff |= (uint64_t)(x[i + k] ^ x[0]);
        if (diff)
            return 0;
    }
#endif
    for (; i < rows; i++)
        if (x[i] != x[0])
            return 0;
    return 1;
}

/* The codes of rows copies of x0 at p, scaled as common_scale decides. */
static uint8_t *put_constant(uint8_t *p, int64_t x0, uint64_t scale, size_t rows)
{
    int64_t code = x0;
    if (scale > 1)
        scale_codes(&code, &x0, 1, scale);
    uint8_t one[10];
    size_t n = (size_t)(put_code(one, nr_zigzag(code)) - one);
    if (n == 1) {
        memset(p, one[0], rows);
        return p + rows;
    }
    for (size_t i = 0; i < rows; i++, p += n)
        memcpy(p, one, n);
    return p;
}

/* The scale of the (not constant) transformed values *x (common_scale),
 * and *x replaced by their codes in w->codes when it is > 1. The gcd of the
 * first SCALE_GUESS_ROWS is only a guess, checked while scaling the rest;
 * when it fails, the exact gcd is the guess's with that of the rows from the
 * failed block on (the rows before are multiples of the guess, the first
 * ones with exactly that gcd), and the codes are computed again from *x,
 * which the failed pass left intact. */
static int scale_column(encoder *w, const int64_t **x, size_t rows, uint64_t *scale)
{
    NR_TRY(NR_GROW(w->codes, w->codes_cap, rows));
    size_t head = rows < SCALE_GUESS_ROWS ? rows : SCALE_GUESS_ROWS;
    uint64_t g = values_gcd(*x, head, 0);
    if (g == 0 && head < rows) /* no guess from the first rows: the gcd of the rest */
        g = values_gcd(*x + head, rows - head, 0);
    else if (g > 1 && head < rows) {
        size_t good = scale_codes_checked(w->codes, *x, rows, g);
        if (good == rows) {
            *x = w->codes;
            *scale = g;
            return 0;
        }
        g = values_gcd(*x + good, rows - good, g);
    }
    *scale = g > 1 ? g : 1;
    if (g > 1) {
        scale_codes(w->codes, *x, rows, g);
        *x = w->codes;
    }
    return 0;
}

/* Encodes I64 column c of t into w->raw (FORMAT.md, "I64 chunks, version 2"). */
static int encode_i64(encoder *w, const nr_table_writer *t, size_t c)
{
    size_t rows = t->nrows;
    NR_TRY(NR_GROW(w->raw.data, w->raw.cap, rows * 10 + NR__I64_HEADER_MAX_V3));
    NR_TRY(NR_GROW(w->xs, w->xs_cap, rows));
    const col_plan *plan = &t->plans[c];
    if (plan->transform >= NR__I64_KEY_DELTA)
        NR_TRY(nr__keymap_reset(&w->keys, col_values(t, (size_t)plan->dep[0]), rows));
    const int64_t *x = transform_i64(w, t, c);
    const int constant = all_equal(x, rows);
    uint64_t scale;
    if (constant)
        scale = common_scale(x, 1); /* the gcd of equal values is the first one's */
    else
        NR_TRY(scale_column(w, &x, rows, &scale));
    uint8_t *p = w->raw.data;
    *p++ = (uint8_t)plan->transform;
    for (size_t k = 0; k < 2; k++)
        if (plan->dep[k] >= 0)
            p = put_uvarint(p, (uint64_t)plan->dep[k]);
    p = put_uvarint(p, scale);
    if (constant)
        p = put_constant(p, x[0], scale, rows);
    else
        p = put_codes(p, x, rows); /* scaled above */
    w->raw.len = (size_t)(p - w->raw.data);
    return 0;
}

/* The dictionary of STR column cb of a group of rows rows: its size, and
 * string id with its length (the lent strings, else cb->strings). */
static inline size_t dict_count(const col_buf *cb, size_t rows)
{
    return cb->lent_strs ? rows : cb->strings.count;
}

static inline const char *dict_str(const col_buf *cb, size_t id, size_t *len)
{
    if (cb->lent_strs) {
        *len = cb->lent_lens[id];
        return cb->lent_strs[id];
    }
    *len = nr_strtab_len(&cb->strings, id);
    return nr_strtab_str(&cb->strings, id);
}

/* Encodes STR column c of t into w->raw (FORMAT.md, "DICT (3)"): sized
 * once, then written without further checks. */
static int encode_dict(encoder *w, const nr_table_writer *t, size_t c)
{
    const col_buf *cb = &t->cols[c];
    size_t rows = t->nrows;
    size_t count = dict_count(cb, rows);
    size_t need = 10 + rows * 5;
    for (size_t id = 0; id < count; id++) {
        size_t n;
        (void)dict_str(cb, id, &n);
        if (need > SIZE_MAX - n - 5)
            return NR_E_LIMIT;
        need += n + 5;
    }
    NR_TRY(NR_GROW(w->raw.data, w->raw.cap, need));
    uint8_t *p = put_uvarint(w->raw.data, count);
    for (size_t id = 0; id < count; id++) {
        size_t n;
        const char *str = dict_str(cb, id, &n);
        p = put_uvarint(p, n);
        memcpy(p, str, n);
        p += n;
    }
    p = put_ids(p, cb->str_ids, rows);
    w->raw.len = (size_t)(p - w->raw.data);
    return 0;
}

/* Encodes column c of t into w->raw (FORMAT.md, "Encodings"). */
static int encode_chunk(encoder *w, const nr_table_writer *t, size_t c)
{
    w->raw.len = 0;
    if (t->def->cols[c].type == NR_COL_I64)
        return encode_i64(w, t, c);
    return encode_dict(w, t, c);
}

/* Compresses w->raw, a chunk of column cb, into w->packed (capacity
 * bound); returns the frame's size or a zstd error code. Every
 * TRIAL_EVERY-th small-code chunk of a column, from its first, is tried on
 * its first TRIAL_BYTES with both contexts (frames thrown away); that
 * chunk and the column's next small-code chunks until the next trial use
 * the accelerated context when its trial frame was at most 1/FAST_SLACK
 * larger (see SMALL_CODE_BYTES). */
static size_t compress_chunk(encoder *w, col_buf *cb, size_t rows, size_t bound)
{
    ZSTD_CCtx *cctx = w->cctx;
    if (w->fast && w->raw.len <= rows * SMALL_CODE_BYTES) {
        if (cb->small_chunks++ % TRIAL_EVERY == 0) {
            size_t sample = w->raw.len < TRIAL_BYTES ? w->raw.len : TRIAL_BYTES;
            size_t n = ZSTD_compress2(w->cctx, w->packed.data, bound, w->raw.data, sample);
            size_t m = ZSTD_compress2(w->fast, w->packed.data, bound, w->raw.data, sample);
            cb->fast_pick = !ZSTD_isError(n) && !ZSTD_isError(m) && m <= n + n / FAST_SLACK;
        }
        if (cb->fast_pick)
            cctx = w->fast;
    }
    return ZSTD_compress2(cctx, w->packed.data, bound, w->raw.data, w->raw.len);
}

/* Encodes and compresses chunk c of the current group of t with e: the
 * frame in e->packed, its entry but the offset in *entry. */
static int compress_column(const char *file, encoder *e, nr_table_writer *t, size_t c, chunk_entry *entry,
                           nr_error *err)
{
    int rc = encode_chunk(e, t, c);
    if (rc < 0)
        return nr_error_set(err, rc, "%s: cannot encode table '%s' column '%s': %s", file,
                            t->def->name, t->def->cols[c].name, nr_error_name(rc));
    if (e->raw.len > NR__STORE_MAX_CHUNK_RAW)
        return nr_error_set(err, NR_E_LIMIT, "%s: table '%s' column '%s': a row group holds %zu bytes, over the limit of %u",
                            file, t->def->name, t->def->cols[c].name, e->raw.len, NR__STORE_MAX_CHUNK_RAW);
    size_t bound = ZSTD_compressBound(e->raw.len);
    if (NR_GROW(e->packed.data, e->packed.cap, bound) < 0)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", file);
    size_t n = compress_chunk(e, &t->cols[c], t->nrows, bound);
    if (ZSTD_isError(n))
        return nr_error_set(err, NR_E_IO, "%s: zstd: %s", file, ZSTD_getErrorName(n));
    *entry = (chunk_entry){
        .disk_size = (uint32_t)n,
        .raw_size = (uint32_t)e->raw.len,
        .rows = (uint32_t)t->nrows,
        .crc = nr__store_crc32(e->packed.data, n),
    };
    return 0;
}

/* Writes the frame of a chunk of t and adds its entry at the current offset. */
static int put_chunk(nr_store_writer *w, nr_table_writer *t, const void *frame, chunk_entry entry, nr_error *err)
{
    if (NR_GROW(t->chunks, t->chunks_cap, t->nchunks + 1) < 0)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", w->out.target);
    entry.offset = w->out.offset;
    t->chunks[t->nchunks++] = entry;
    return nr_outfile_write(&w->out, frame, entry.disk_size, err);
}

/* Encodes, compresses and writes chunk c of the current group of t. */
static int write_chunk(nr_store_writer *w, nr_table_writer *t, size_t c, nr_error *err)
{
    chunk_entry entry;
    NR_TRY(compress_column(w->out.target, &w->enc, t, c, &entry, err));
    return put_chunk(w, t, w->enc.packed.data, entry, err);
}

/* Bytes written between two starts of the kernel's writeback. */
#define WRITEBACK_BYTES ((uint64_t)4 << 20)

/* Starts the writeback of the bytes written since the last start, every
 * WRITEBACK_BYTES: the fsync of the commit then waits for the last few
 * megabytes instead of the whole store (the disk writes overlap the
 * ingest). A hint: failures are ignored; the fsync still checks. */
static void start_writeback(nr_store_writer *w)
{
#ifdef SYNC_FILE_RANGE_WRITE
    if (w->out.offset - w->writeback_from < WRITEBACK_BYTES)
        return;
    (void)sync_file_range(w->out.fd, (off_t)w->writeback_from, (off_t)(w->out.offset - w->writeback_from),
                          SYNC_FILE_RANGE_WRITE);
    w->writeback_from = w->out.offset;
#else
    (void)w;
#endif
}

/* ---- shared flushes ------------------------------------------------------ */

int nr_store_writer_set_helper(nr_store_writer *w, void (*wake)(void *ctx), void *ctx, nr_error *err)
{
    if (!w->wake && encoder_init(&w->helper_enc, w->level) < 0)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", w->out.target);
    pthread_mutex_lock(&w->mu); /* a helper may already be calling nr_store_writer_help */
    w->wake = wake;
    w->wake_ctx = ctx;
    pthread_mutex_unlock(&w->mu);
    return 0;
}

/* The commit's fsync waited 20-30 ms for the whole file (the kernel's
 * journal commit, even with the writeback started as the chunks were
 * written); after a sync of all but the last tables it waits 2.3-2.8 ms
 * (`strace -T`, 1 GB log; docs/performance.md, sessions 10 and 11). */
void nr_store_writer_sync_early(nr_store_writer *w)
{
    nr_outfile_sync_start(&w->out);
}

/* Encodes job j with e (any thread; j is its alone). */
static void run_job(nr_store_writer *w, encoder *e, flush_job *j)
{
    j->rc = compress_column(w->out.target, e, j->t, j->c, &j->entry, &j->err);
    if (j->rc == 0) {
        j->frame.len = 0;
        if (nr_buf_put(&j->frame, e->packed.data, j->entry.disk_size) < 0)
            j->rc = nr_error_set(&j->err, NR_E_NOMEM, "%s: out of memory", w->out.target);
    }
}

/* Encodes waiting jobs with e until none waits; 1 when it did one. */
static int take_jobs(nr_store_writer *w, encoder *e)
{
    int did = 0;
    pthread_mutex_lock(&w->mu);
    while (w->next_job < w->njobs) {
        flush_job *j = &w->jobs[w->next_job++];
        pthread_mutex_unlock(&w->mu);
        run_job(w, e, j);
        did = 1;
        pthread_mutex_lock(&w->mu);
        if (++w->jobs_done == w->njobs)
            pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return did;
}

int nr_store_writer_help(nr_store_writer *w)
{
    pthread_mutex_lock(&w->mu);
    const int busy = w->helper_busy || !w->wake;
    if (!busy) /* before set_helper (no wake), helper_busy stays 0 */
        w->helper_busy = 1;
    pthread_mutex_unlock(&w->mu);
    if (busy)
        return 0; /* one helper at a time: it has the one helper encoder */
    int did = take_jobs(w, &w->helper_enc);
    pthread_mutex_lock(&w->mu);
    w->helper_busy = 0;
    pthread_mutex_unlock(&w->mu);
    return did;
}

/* Forgets the rows of t's group after its chunks are written. */
static void group_reset(nr_table_writer *t)
{
    for (size_t c = 0; c < t->def->ncols; c++)
        if (t->def->cols[c].type == NR_COL_STR) {
            nr_strtab_reset(&t->cols[c].strings);
            memset(t->cols[c].recent, 0, sizeof t->cols[c].recent);
            if (t->cols[c].remap_len)
                memset(t->cols[c].remap, 0, t->cols[c].remap_len * sizeof *t->cols[c].remap);
        }
    t->nrows = 0;
}

/* Queues the chunks of the groups of tabs[0..n) that hold rows as jobs;
 * NR_E_NOMEM. With w->mu held, no job running. */
static int queue_jobs(nr_store_writer *w, nr_table_writer *const *tabs, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += tabs[i]->nrows ? tabs[i]->def->ncols : 0;
    size_t old_cap = w->jobs_cap;
    NR_TRY(NR_GROW(w->jobs, w->jobs_cap, count));
    if (w->jobs_cap > old_cap)
        memset(w->jobs + old_cap, 0, (w->jobs_cap - old_cap) * sizeof *w->jobs); /* frames: empty nr_bufs */
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; tabs[i]->nrows && c < tabs[i]->def->ncols; c++, k++) {
            w->jobs[k].t = tabs[i];
            w->jobs[k].c = c;
        }
    w->njobs = count;
    w->next_job = 0;
    w->jobs_done = 0;
    return 0;
}

/* Flushes the groups of tabs[0..n) with rows: their chunks encoded by this
 * thread and the helper (whichever takes a chunk first), written in
 * table and column order, the order of flush_group's one after the other:
 * the same bytes. */
static int flush_shared(nr_store_writer *w, nr_table_writer *const *tabs, size_t n, nr_error *err)
{
    pthread_mutex_lock(&w->mu);
    int rc = queue_jobs(w, tabs, n);
    pthread_mutex_unlock(&w->mu);
    if (rc < 0)
        return nr_error_set(err, rc, "%s: out of memory", w->out.target);
    if (w->njobs == 0)
        return 0;
    w->wake(w->wake_ctx);
    take_jobs(w, &w->enc);
    pthread_mutex_lock(&w->mu);
    while (w->jobs_done < w->njobs)
        pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
    for (size_t k = 0; k < w->njobs; k++) {
        flush_job *j = &w->jobs[k];
        rc = j->rc < 0 ? j->rc : put_chunk(w, j->t, j->frame.data, j->entry, err);
        if (j->rc < 0)
            *err = j->err;
        if (rc < 0) {
            w->failed = rc; /* a half-written row group cannot be indexed */
            return rc;
        }
    }
    for (size_t i = 0; i < n; i++)
        group_reset(tabs[i]);
    start_writeback(w);
    return 0;
}

static int flush_group(nr_table_writer *t, nr_error *err)
{
    if (t->nrows == 0)
        return 0;
    if (t->store->failed < 0)
        return nr_error_set(err, t->store->failed, "%s: an earlier write failed", t->store->out.target);
    if (t->store->wake)
        return flush_shared(t->store, &t, 1, err);
    for (size_t c = 0; c < t->def->ncols; c++) {
        int rc = write_chunk(t->store, t, c, err);
        if (rc < 0) {
            t->store->failed = rc; /* a half-written row group cannot be indexed */
            return rc;
        }
    }
    group_reset(t);
    start_writeback(t->store);
    return 0;
}

/* 0 when t takes rows; else the error of a failed string (sticky) or of
 * rows after nr_table_append_final_rows. */
static int check_takes_rows(const nr_table_writer *t, nr_error *err)
{
    const char *file = t->store->out.target;
    if (t->error < 0)
        return nr_error_set(err, t->error, "%s: table '%s': cannot keep a string: %s", file,
                            t->def->name, nr_error_name(t->error));
    if (t->finished)
        return nr_error_set(err, NR_E_INPUT, "%s: table '%s': rows after its last ones", file, t->def->name);
    return 0;
}

int nr_table_end_row(nr_table_writer *t, nr_error *err)
{
    const char *file = t->store->out.target;
    NR_TRY(check_takes_rows(t, err));
    for (size_t c = 0; c < t->def->ncols; c++)
        if (t->cols[c].set_serial != t->row_serial)
            return nr_error_set(err, NR_E_INPUT, "%s: table '%s': column '%s' was not set in row %llu",
                                file, t->def->name, t->def->cols[c].name,
                                (unsigned long long)t->total_rows);
    t->row_serial++;
    t->total_rows++;
    t->nrows++;
    if (t->nrows == NR_STORE_ROWS_PER_GROUP)
        return flush_group(t, err);
    if (t->nrows == t->cap) {
        size_t want = t->cap * 2 < NR_STORE_ROWS_PER_GROUP ? t->cap * 2 : NR_STORE_ROWS_PER_GROUP;
        int rc = grow_columns(t, want);
        if (rc < 0)
            return nr_error_set(err, rc, "%s: out of memory for table '%s'", file, t->def->name);
    }
    return 0;
}

/* Maps the caller's dict ids of a STR column to ids of the row group's
 * strings, interning each distinct one at its first row (the order
 * nr_table_set_str would give). Writes k ids at str_ids + t->nrows. */
static int append_ids(nr_table_writer *t, size_t c, const nr_col_values *v, size_t from, size_t k)
{
    col_buf *cb = &t->cols[c];
    const nr_strtab *dict = v->dict;
    const uint32_t *ids = v->ids + from;
    uint32_t *out = cb->str_ids + t->nrows;
    for (size_t i = 0; i < k; i++) {
        uint32_t id = ids[i];
        if (id >= cb->remap_len)
            return NR_E_INPUT;
        uint32_t m = cb->remap[id];
        if (m == 0) {
            int64_t s = nr_strtab_intern(&cb->strings, nr_strtab_str(dict, id), nr_strtab_len(dict, id));
            if (s < 0)
                return (int)s;
            m = cb->remap[id] = (uint32_t)s + 1;
        }
        out[i] = m - 1;
    }
    return 0;
}

/* Rows ahead whose dictionary slot append_strs requests early. */
#define STR_PREFETCH_AHEAD 8u

/* Interns the strings of rows [from, from + k) of STR column c given as
 * strings (nr_col_values.strs) at str_ids + t->nrows: all hashed first,
 * then each looked up while the slot of the string STR_PREFETCH_AHEAD rows
 * on loads (a row group of distinct paths has a dictionary of megabytes:
 * one cache miss per row otherwise, taken in turn). */
static int append_strs(nr_table_writer *t, size_t c, const nr_col_values *v, size_t from, size_t k)
{
    nr_store_writer *w = t->store;
    col_buf *cb = &t->cols[c];
    NR_TRY(NR_GROW(w->hashes, w->hashes_cap, k));
    const char *const *strs = v->strs + from;
    const uint32_t *lens = v->lens + from;
    uint64_t *h = w->hashes;
    for (size_t i = 0; i < k; i++)
        h[i] = nr_hash_bytes(strs[i], lens[i]);
    uint32_t *out = cb->str_ids + t->nrows;
    for (size_t i = 0; i < k; i++) {
        if (i + STR_PREFETCH_AHEAD < k)
            nr_strtab_prefetch(&cb->strings, h[i + STR_PREFETCH_AHEAD]);
        int64_t id = nr_strtab_intern_hashed(&cb->strings, strs[i], lens[i], h[i]);
        if (id < 0)
            return (int)id;
        out[i] = (uint32_t)id;
    }
    return 0;
}

/* Rows [from, from + k) of STR column c given as distinct strings
 * (nr_col_values.distinct): the dictionary's next ids, in row order. A
 * whole group's are lent, not copied (end_lending gives them back). */
static int append_distinct(nr_table_writer *t, size_t c, const nr_col_values *v, size_t from, size_t k, int lend)
{
    col_buf *cb = &t->cols[c];
    uint32_t *out = cb->str_ids + t->nrows;
    if (lend) {
        cb->lent_strs = v->strs + from;
        cb->lent_lens = v->lens + from;
        for (size_t i = 0; i < k; i++)
            out[i] = (uint32_t)i;
        return 0;
    }
    for (size_t i = 0; i < k; i++) {
        int64_t id = nr_strtab_push(&cb->strings, v->strs[from + i], v->lens[from + i]);
        if (id < 0)
            return (int)id;
        out[i] = (uint32_t)id;
    }
    return 0;
}

/* Sizes and clears the id maps of the STR columns for this call's dicts. */
static int reset_remaps(nr_table_writer *t, const nr_col_values *cols)
{
    for (size_t c = 0; c < t->def->ncols; c++) {
        if (t->def->cols[c].type != NR_COL_STR)
            continue;
        col_buf *cb = &t->cols[c];
        size_t count = cols[c].dict && !cols[c].strs ? cols[c].dict->count : 0;
        NR_TRY(NR_GROW(cb->remap, cb->remap_cap, count));
        cb->remap_len = count;
        if (count)
            memset(cb->remap, 0, count * sizeof *cb->remap);
    }
    return 0;
}

/* Appends rows [from, from + k) of cols to the current group (k fits).
 * With lend (a whole group, or a table's last rows that start a group),
 * its I64 columns and distinct strings are lent instead of copied:
 * nr_table_append_rows flushes the group before it returns, and the copy
 * was the bulk of the call (docs/performance.md, "The lent row group"). */
static int append_group(nr_table_writer *t, const nr_col_values *cols, size_t from, size_t k, int lend)
{
    if (t->nrows + k > t->cap) {
        /* batches of many rows: the whole group at once, no copying as it fills */
        size_t want = k >= APPEND_FULL_GROUP_ROWS ? NR_STORE_ROWS_PER_GROUP : t->cap;
        while (want < t->nrows + k)
            want *= 2;
        NR_TRY(grow_columns(t, want < NR_STORE_ROWS_PER_GROUP ? want : NR_STORE_ROWS_PER_GROUP));
    }
    for (size_t c = 0; c < t->def->ncols; c++) {
        if (t->def->cols[c].type == NR_COL_I64 && lend)
            t->cols[c].lent = cols[c].i64 + from;
        else if (t->def->cols[c].type == NR_COL_I64)
            memcpy(t->cols[c].i64 + t->nrows, cols[c].i64 + from, k * sizeof(int64_t));
        else if (cols[c].strs && cols[c].distinct)
            NR_TRY(append_distinct(t, c, &cols[c], from, k, lend));
        else if (cols[c].strs)
            NR_TRY(append_strs(t, c, &cols[c], from, k));
        else
            NR_TRY(append_ids(t, c, &cols[c], from, k));
    }
    t->nrows += k;
    t->total_rows += k;
    t->row_serial += k; /* a row begun with set_* must be set again */
    return 0;
}

/* The columns lent by append_group back to their own buffers. */
static void end_lending(nr_table_writer *t)
{
    for (size_t c = 0; c < t->def->ncols; c++) {
        t->cols[c].lent = NULL;
        t->cols[c].lent_strs = NULL;
        t->cols[c].lent_lens = NULL;
    }
}

/* nr_table_append_rows, and with final nr_table_append_final_rows. */
static int append_rows(nr_table_writer *t, const nr_col_values *cols, size_t n, int final, nr_error *err)
{
    const char *file = t->store->out.target;
    NR_TRY(check_takes_rows(t, err));
    int rc = reset_remaps(t, cols);
    for (size_t done = 0; rc == 0 && done < n;) {
        size_t room = NR_STORE_ROWS_PER_GROUP - t->nrows;
        size_t k = n - done < room ? n - done : room;
        const int last = final && done + k == n;
        rc = append_group(t, cols, done, k, k == NR_STORE_ROWS_PER_GROUP || (last && t->nrows == 0));
        done += k;
        if (rc == 0 && (t->nrows == NR_STORE_ROWS_PER_GROUP || last)) {
            int flushed = flush_group(t, err); /* sets err and fails the store itself */
            end_lending(t);
            if (flushed < 0)
                return flushed;
        }
    }
    if (rc < 0) {
        end_lending(t); /* a whole group whose append failed */
        t->error = rc;
        return nr_error_set(err, rc, "%s: table '%s': cannot append rows: %s%s", file, t->def->name,
                            nr_error_name(rc), rc == NR_E_INPUT ? " (a string id outside its dictionary)" : "");
    }
    t->finished = final;
    return 0;
}

int nr_table_append_rows(nr_table_writer *t, const nr_col_values *cols, size_t n, nr_error *err)
{
    return append_rows(t, cols, n, 0, err);
}

int nr_table_append_final_rows(nr_table_writer *t, const nr_col_values *cols, size_t n, nr_error *err)
{
    return append_rows(t, cols, n, 1, err);
}

static int put_name(nr_buf *b, const char *name)
{
    uint8_t len[2];
    size_t n = strlen(name);
    nr__put_le16(len, (uint16_t)n);
    NR_TRY(nr_buf_put(b, len, 2));
    return nr_buf_put(b, name, n);
}

/* Appends the v1 footer entry of table t (FORMAT.md, "Footer"). */
static int put_table_footer(nr_buf *b, const nr_table_writer *t)
{
    uint8_t tmp[NR__CHUNK_ENTRY_SIZE];
    NR_TRY(put_name(b, t->def->name));
    size_t ncols = t->def->ncols;
    nr__put_le32(tmp, (uint32_t)ncols);
    nr__put_le64(tmp + 4, t->total_rows);
    nr__put_le32(tmp + 12, (uint32_t)(t->nchunks / ncols));
    NR_TRY(nr_buf_put(b, tmp, 16));
    for (size_t c = 0; c < ncols; c++) {
        NR_TRY(put_name(b, t->def->cols[c].name));
        tmp[0] = (uint8_t)t->def->cols[c].type;
        tmp[1] = (uint8_t)t->def->cols[c].encoding;
        NR_TRY(nr_buf_put(b, tmp, 2));
    }
    for (size_t i = 0; i < t->nchunks; i++) {
        const chunk_entry *e = &t->chunks[i];
        nr__put_le64(tmp, e->offset);
        nr__put_le32(tmp + 8, e->disk_size);
        nr__put_le32(tmp + 12, e->raw_size);
        nr__put_le32(tmp + 16, e->rows);
        nr__put_le32(tmp + 20, e->crc);
        NR_TRY(nr_buf_put(b, tmp, NR__CHUNK_ENTRY_SIZE));
    }
    return 0;
}

static int write_footer(nr_store_writer *w, nr_error *err)
{
    nr_buf *b = &w->enc.packed;
    b->len = 0;
    uint8_t tmp[NR__STORE_TRAILER_SIZE];
    nr__put_le32(tmp, (uint32_t)w->ntables);
    int rc = nr_buf_put(b, tmp, 4);
    for (size_t i = 0; i < w->ntables && rc == 0; i++)
        rc = put_table_footer(b, w->tables[i]);
    if (rc < 0)
        return nr_error_set(err, rc, "%s: out of memory writing the footer", w->out.target);
    nr__put_le64(tmp, b->len);
    nr__put_le32(tmp + 8, nr__store_crc32(b->data, b->len));
    memcpy(tmp + 12, NR__STORE_END_MAGIC, NR__STORE_MAGIC_SIZE);
    NR_TRY(nr_outfile_write(&w->out, b->data, b->len, err));
    return nr_outfile_write(&w->out, tmp, sizeof tmp, err);
}

int nr_store_writer_commit(nr_store_writer *w, nr_error *err)
{
    if (w->committed || w->out.fd < 0 || w->failed < 0)
        return nr_error_set(err, w->failed < 0 ? w->failed : NR_E_INPUT, "store writer: already committed or failed");
    for (size_t i = 0; i < w->ntables; i++) {
        nr_table_writer *t = w->tables[i];
        if (t->error < 0)
            return nr_error_set(err, t->error, "%s: table '%s': cannot keep a string: %s",
                                w->out.target, t->def->name, nr_error_name(t->error));
        if (!w->wake)
            NR_TRY(flush_group(t, err));
    }
    if (w->wake) /* every table's last group at once: the two threads share them */
        NR_TRY(flush_shared(w, w->tables, w->ntables, err));
    NR_TRY(write_footer(w, err));
    NR_TRY(nr_outfile_commit(&w->out, err));
    w->committed = 1;
    return 0;
}

void nr_store_writer_file_id(const nr_store_writer *w, uint64_t *dev, uint64_t *ino)
{
    struct stat st;
    const int known = w && w->out.fd >= 0 && fstat(w->out.fd, &st) == 0;
    *dev = known ? (uint64_t)st.st_dev : 0;
    *ino = known ? (uint64_t)st.st_ino : 0;
}

void nr_store_writer_destroy(nr_store_writer *w)
{
    if (!w)
        return;
    nr_outfile_abort(&w->out);
    for (size_t i = 0; i < w->ntables; i++)
        free_table(w->tables[i]);
    free(w->tables);
    encoder_fini(&w->enc);
    if (w->wake)
        encoder_fini(&w->helper_enc);
    for (size_t k = 0; k < w->jobs_cap; k++)
        nr_buf_fini(&w->jobs[k].frame);
    free(w->jobs);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w->hashes);
    free(w);
}
