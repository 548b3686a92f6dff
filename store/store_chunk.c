/* store_chunk: fetches one column chunk, verifies its CRC32 and zstd frame,
 * and decodes its values (FORMAT.md, "Chunks" and "Encodings"). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "nr_mem.h"
#include "store_reader.h"

/* Buffers a chunk value keeps between reads (behind nr_col_chunk.scratch_). */
typedef struct chunk_scratch {
    nr_buf packed;        /* compressed bytes */
    nr_buf raw;           /* decompressed bytes */
    char *strings;        /* dictionary strings, each NUL-terminated */
    size_t strings_cap;
    const char **dict;    /* dictionary id -> string in `strings` */
    uint32_t *dict_len;
    size_t dict_cap, dict_len_cap;
    size_t str_cap, str_len_cap; /* capacity of c->str and c->str_len */
    ZSTD_DCtx *dctx;
    nr_col_chunk *deps[2]; /* v2, v3: the base, key or step columns' values of the same row group */
    nr__keymap keys;       /* v3: per-key state of the KEY_* transforms */
} chunk_scratch;

/* Decompression contexts that this thread's freed chunks left, for its
 * next chunks: a model reads each store in several passes with a chunk
 * per column, and making a context for each (ZSTD_createDCtx, about 96
 * kB set up) was 18% of the models' samples in a cached build of 300
 * runs (docs/performance.md, session 33). At most PARKED_MAX a thread (a
 * bound on the memory they keep, about 3 MB); freed when the thread ends. */
enum { PARKED_MAX = 32 };

typedef struct parked_dctx {
    size_t n;
    ZSTD_DCtx *ctx[PARKED_MAX];
} parked_dctx;

static pthread_key_t parked_key;
static pthread_once_t parked_once = PTHREAD_ONCE_INIT;
static int parked_key_made;

static void parked_free(void *p)
{
    parked_dctx *pk = p;
    for (size_t i = 0; i < pk->n; i++)
        ZSTD_freeDCtx(pk->ctx[i]);
    free(pk);
}

static void parked_make_key(void)
{
    parked_key_made = pthread_key_create(&parked_key, parked_free) == 0;
}

static parked_dctx *parked_of_thread(int create)
{
    pthread_once(&parked_once, parked_make_key);
    if (!parked_key_made)
        return NULL;
    parked_dctx *pk = pthread_getspecific(parked_key);
    if (!pk && create && (pk = calloc(1, sizeof *pk)) && pthread_setspecific(parked_key, pk) != 0) {
        free(pk);
        pk = NULL;
    }
    return pk;
}

static ZSTD_DCtx *dctx_take(void)
{
    parked_dctx *pk = parked_of_thread(0);
    return pk && pk->n ? pk->ctx[--pk->n] : ZSTD_createDCtx();
}

static void dctx_give(ZSTD_DCtx *d)
{
    if (!d)
        return;
    parked_dctx *pk = parked_of_thread(1);
    if (pk && pk->n < PARKED_MAX)
        pk->ctx[pk->n++] = d;
    else
        ZSTD_freeDCtx(d);
}

void nr_col_chunk_init(nr_col_chunk *c)
{
    memset(c, 0, sizeof *c);
}

void nr_col_chunk_fini(nr_col_chunk *c)
{
    chunk_scratch *sc = c->scratch_;
    if (sc) {
        nr_buf_fini(&sc->packed);
        nr_buf_fini(&sc->raw);
        free(sc->strings);
        free(sc->dict);
        free(sc->dict_len);
        dctx_give(sc->dctx);
        for (size_t k = 0; k < 2; k++)
            if (sc->deps[k]) {
                nr_col_chunk_fini(sc->deps[k]);
                free(sc->deps[k]);
            }
        nr__keymap_fini(&sc->keys);
        free(sc);
    }
    free(c->i64);
    free(c->str);
    free(c->str_len);
    nr_col_chunk_init(c);
}

/* Context of one chunk read, for error messages. */
typedef struct chunk_ctx {
    const nr_store_table *t;
    size_t col, rg;
    const nr__chunk_ref *ref;
    const nr_col_chunk *const *known; /* nr__chunk_decoder's */
    nr_error *err;
} chunk_ctx;

/* Records "FILE: offset N: chunk of table T column C row group R (B bytes): <what>". */
__attribute__((format(printf, 3, 4)))
static int chunk_fail(const chunk_ctx *x, int code, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return nr_error_set(x->err, code, "%s: offset %llu: chunk of table '%s' column '%s' row group %zu (%u bytes): %s",
                        x->t->store->name, (unsigned long long)x->ref->offset, x->t->name,
                        x->t->cols[x->col].name, x->rg, x->ref->disk_size, what);
}

static int decode_i64(const chunk_ctx *x, const uint8_t *p, const uint8_t *end, nr_col_chunk *c)
{
    size_t n = x->ref->rows;
    if (NR_GROW(c->i64, c->cap_, n) < 0)
        return chunk_fail(x, NR_E_NOMEM, "out of memory for %zu values", n);
    const int delta = x->t->cols[x->col].encoding == NR_ENC_DELTA_VARINT;
    uint64_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t u;
        if (nr_get_uvarint_fast(&p, end, &u) < 0)
            return chunk_fail(x, NR_E_FORMAT, "expected a varint for value %zu of %zu", i, n);
        if (delta) {
            prev += (uint64_t)nr_unzigzag(u);
            c->i64[i] = (int64_t)prev;
        } else {
            c->i64[i] = nr_unzigzag(u);
        }
    }
    if (p != end)
        return chunk_fail(x, NR_E_FORMAT, "expected the values to end the chunk, %zu of %u raw bytes left",
                          (size_t)(end - p), x->ref->raw_size);
    return 0;
}

static int decode_dict(const chunk_ctx *x, chunk_scratch *sc, const uint8_t *p, const uint8_t *end,
                       nr_col_chunk *c)
{
    size_t n = x->ref->rows;
    uint64_t count;
    if (nr_get_uvarint(&p, end, &count) < 0 || count > n)
        return chunk_fail(x, NR_E_FORMAT, "expected a dictionary of at most %zu strings", n);
    size_t raw = x->ref->raw_size;
    if (NR_GROW(sc->dict, sc->dict_cap, count) < 0 || NR_GROW(sc->dict_len, sc->dict_len_cap, count) < 0 ||
        NR_GROW(sc->strings, sc->strings_cap, raw + count) < 0 || NR_GROW(c->str, sc->str_cap, n) < 0 ||
        NR_GROW(c->str_len, sc->str_len_cap, n) < 0)
        return chunk_fail(x, NR_E_NOMEM, "out of memory for %zu raw bytes of strings", raw);
    char *out = sc->strings;
    for (size_t id = 0; id < count; id++) {
        uint64_t len;
        if (nr_get_uvarint(&p, end, &len) < 0 || len > (uint64_t)(end - p))
            return chunk_fail(x, NR_E_FORMAT, "expected dictionary string %zu to fit in the chunk", id);
        memcpy(out, p, (size_t)len);
        out[len] = '\0';
        sc->dict[id] = out;
        sc->dict_len[id] = (uint32_t)len;
        out += len + 1;
        p += len;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t id;
        if (nr_get_uvarint_fast(&p, end, &id) < 0 || id >= count)
            return chunk_fail(x, NR_E_FORMAT, "row %zu: expected a dictionary index below %llu", i, (unsigned long long)count);
        c->str[i] = sc->dict[id];
        c->str_len[i] = sc->dict_len[id];
    }
    if (p != end)
        return chunk_fail(x, NR_E_FORMAT, "expected the indexes to end the chunk, %zu of %zu raw bytes left",
                          (size_t)(end - p), raw);
    return 0;
}

/* Reads the compressed bytes, checks CRC and frame, and decompresses into sc->raw. */
static int fetch_chunk(const chunk_ctx *x, chunk_scratch *sc)
{
    const nr__chunk_ref *ref = x->ref;
    if (NR_GROW(sc->packed.data, sc->packed.cap, ref->disk_size) < 0 ||
        NR_GROW(sc->raw.data, sc->raw.cap, ref->raw_size) < 0)
        return chunk_fail(x, NR_E_NOMEM, "out of memory for %u raw bytes", ref->raw_size);
    NR_TRY(nr__store_read_at(x->t->store, ref->offset, sc->packed.data, ref->disk_size, x->err));
    uint32_t crc = nr__store_crc32(sc->packed.data, ref->disk_size);
    if (crc != ref->crc && NR__STORE_CHECKS_CRC)
        return chunk_fail(x, NR_E_FORMAT, "checksum mismatch: expected CRC32 0x%08x, computed 0x%08x", ref->crc, crc);
    unsigned long long content = ZSTD_getFrameContentSize(sc->packed.data, ref->disk_size);
    if (content != ref->raw_size)
        return chunk_fail(x, NR_E_FORMAT, "expected a zstd frame declaring %u content bytes, found %llu",
                          ref->raw_size, content);
    size_t frame = ZSTD_findFrameCompressedSize(sc->packed.data, ref->disk_size);
    if (ZSTD_isError(frame) || frame != ref->disk_size)
        return chunk_fail(x, NR_E_FORMAT, "expected one zstd frame filling the chunk, found %s",
                          ZSTD_isError(frame) ? ZSTD_getErrorName(frame) : "a shorter frame");
    if (!sc->dctx && !(sc->dctx = dctx_take()))
        return chunk_fail(x, NR_E_NOMEM, "out of memory for zstd");
    size_t got = ZSTD_decompressDCtx(sc->dctx, sc->raw.data, ref->raw_size, sc->packed.data, ref->disk_size);
    if (ZSTD_isError(got) || got != ref->raw_size)
        return chunk_fail(x, NR_E_FORMAT, "expected the zstd frame to decompress to %u bytes: %s",
                          ref->raw_size, ZSTD_isError(got) ? ZSTD_getErrorName(got) : "wrong size");
    sc->raw.len = got;
    return 0;
}

int nr__store_decode_chunk_v1(const nr_store_table *t, size_t col, size_t rg, const nr_col_chunk *const *known,
                              nr_col_chunk *c, nr_error *err)
{
    (void)known; /* version 1 has no transforms */
    const chunk_ctx x = {.t = t, .col = col, .rg = rg, .ref = &t->chunks[rg * t->ncols + col], .err = err};
    chunk_scratch *sc = c->scratch_;
    if (!sc && !(sc = c->scratch_ = calloc(1, sizeof *sc)))
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", t->store->name);
    NR_TRY(fetch_chunk(&x, sc));
    const uint8_t *p = sc->raw.data, *end = sc->raw.data + sc->raw.len;
    if (t->cols[col].type == NR_COL_I64)
        NR_TRY(decode_i64(&x, p, end, c));
    else
        NR_TRY(decode_dict(&x, sc, p, end, c));
    c->n = x.ref->rows;
    return 0;
}

/* Columns an I64 transform reads besides the chunk's own (FORMAT.md). */
static size_t transform_deps(unsigned transform)
{
    switch (transform) {
    case NR__I64_BASE:
    case NR__I64_KEY_DELTA: return 1;
    case NR__I64_KEY_NEXT: return 2;
    default: return 0;
    }
}

/* Reads the header's column index k (base, key or step) and decodes that
 * column's chunk of the same row group into sc->deps[k]; returns its values. */
static int decode_dep(const chunk_ctx *x, chunk_scratch *sc, const uint8_t **p, const uint8_t *end, size_t k,
                      const int64_t **out)
{
    static const char *const what[2] = {"base, key", "step"};
    uint64_t col;
    if (nr_get_uvarint(p, end, &col) < 0 || col >= x->col || x->t->cols[col].type != NR_COL_I64)
        return chunk_fail(x, NR_E_FORMAT, "expected the index of an earlier i64 column as the %s column", what[k]);
    const nr_col_chunk *dep = x->known ? x->known[col] : NULL;
    if (!dep) {
        if (!sc->deps[k]) {
            if (!(sc->deps[k] = malloc(sizeof *sc->deps[k])))
                return chunk_fail(x, NR_E_NOMEM, "out of memory");
            nr_col_chunk_init(sc->deps[k]);
        }
        /* col < x->col: the recursion ends at a column without dependencies */
        NR_TRY(nr__store_decode_chunk_v2(x->t, (size_t)col, x->rg, x->known, sc->deps[k], x->err));
        dep = sc->deps[k];
    }
    if (dep->n != x->ref->rows)
        return chunk_fail(x, NR_E_FORMAT, "expected the %s column to hold %u rows", what[k], x->ref->rows);
    *out = dep->i64;
    return 0;
}

/* Row i's value from its difference d (a decoded code), prev being row i -
 * 1's (FORMAT.md, "I64 chunks"). */
static inline __attribute__((always_inline)) uint64_t undo_transform(chunk_scratch *sc, const unsigned transform,
                                                                     const int scaled, uint64_t scale, int64_t d,
                                                                     uint64_t prev, const int64_t *dep0,
                                                                     const int64_t *dep1, size_t i)
{
    if (scaled)
        d = nr__scale_up(d, scale);
    switch (transform) {
    case NR__I64_DELTA: return prev + (uint64_t)d;
    case NR__I64_BASE: return (uint64_t)dep0[i] + (uint64_t)d;
    case NR__I64_KEY_DELTA: {
        uint64_t *last = nr__keymap_at(&sc->keys, dep0[i]);
        return *last += (uint64_t)d;
    }
    case NR__I64_KEY_NEXT: {
        uint64_t *next = nr__keymap_at(&sc->keys, dep0[i]);
        if (d == -1)
            return UINT64_MAX;
        uint64_t v = (uint64_t)d + *next;
        if (v == UINT64_MAX) /* the difference -1 took -1's code */
            v = *next - 1;
        *next = v + (uint64_t)dep1[i];
        return v;
    }
    default: return (uint64_t)d;
    }
}

/* How many of the 16 bytes at p come before the first with its high bit
 * set: one-byte codes, all 16 when there is none. */
static inline unsigned one_byte_codes16(const uint8_t *p)
{
    const uint64_t high = UINT64_C(0x8080808080808080);
    uint64_t a, b;
    memcpy(&a, p, sizeof a);
    memcpy(&b, p + 8, sizeof b);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (a & high)
        return (unsigned)__builtin_ctzll(a & high) / 8;
    return b & high ? 8 + (unsigned)__builtin_ctzll(b & high) / 8 : 16;
#else
    unsigned k = 0;
    while (k < 16 && !(p[k] & 0x80))
        k++;
    return k;
#endif
}

/* decode_values for one transform, with or without a scale, by single codes
 * or (runs) by runs of one-byte codes: inlined into a copy per choice, so
 * that neither the switch nor the scale's test is taken per value. Runs
 * suit chunks of mostly one-byte codes (most columns of table events),
 * where a test of 16 bytes replaces 16 codes' tests. */
static inline __attribute__((always_inline)) const uint8_t *
decode_values_as(chunk_scratch *sc, const unsigned transform, const int scaled, const int runs, uint64_t scale,
                 const int64_t *dep0, const int64_t *dep1, const uint8_t *p, const uint8_t *end, int64_t *out,
                 size_t n)
{
    uint64_t prev = 0;
    for (size_t i = 0; i < n;) {
        if (runs && n - i >= 16 && end - p >= 16) {
            const unsigned ones = one_byte_codes16(p);
            for (unsigned j = 0; j < ones; j++, i++)
                out[i] = (int64_t)(prev = undo_transform(sc, transform, scaled, scale, nr_unzigzag(p[j]), prev,
                                                         dep0, dep1, i));
            p += ones;
            if (ones == 16)
                continue;
        }
        uint64_t u;
        if (nr_get_uvarint_fast(&p, end, &u) < 0)
            return NULL;
        out[i] = (int64_t)(prev = undo_transform(sc, transform, scaled, scale, nr_unzigzag(u), prev, dep0, dep1, i));
        i++;
    }
    return p;
}

/* Undoes transforms 0..4 on the n codes at p, given the columns they read
 * (FORMAT.md, "I64 chunks"): returns the end of the codes or NULL. */
static const uint8_t *decode_values(chunk_scratch *sc, unsigned transform, uint64_t scale, const int64_t *dep0,
                                    const int64_t *dep1, const uint8_t *p, const uint8_t *end, int64_t *out,
                                    size_t n)
{
    const int runs = (size_t)(end - p) < n + n / 4; /* under 1.25 bytes a code */
#define DECODE_AS(tr, run)                                                                                     \
    (scale != 1 ? decode_values_as(sc, tr, 1, run, scale, dep0, dep1, p, end, out, n)                          \
                : decode_values_as(sc, tr, 0, run, 1, dep0, dep1, p, end, out, n))
    switch (transform) { /* no runs for the keyed transforms: their look-ups of the key dominate */
    case NR__I64_DELTA: return runs ? DECODE_AS(NR__I64_DELTA, 1) : DECODE_AS(NR__I64_DELTA, 0);
    case NR__I64_BASE: return runs ? DECODE_AS(NR__I64_BASE, 1) : DECODE_AS(NR__I64_BASE, 0);
    case NR__I64_KEY_DELTA: return DECODE_AS(NR__I64_KEY_DELTA, 0);
    case NR__I64_KEY_NEXT: return DECODE_AS(NR__I64_KEY_NEXT, 0);
    default: return runs ? DECODE_AS(NR__I64_VALUES, 1) : DECODE_AS(NR__I64_VALUES, 0);
    }
#undef DECODE_AS
}

/* Version 2 and 3 I64 chunk: transform byte, [base, key or key and step
 * columns], scale, then the values (FORMAT.md, "I64 chunks"). */
static int decode_i64_v2(const chunk_ctx *x, chunk_scratch *sc, const uint8_t *p, const uint8_t *end,
                         nr_col_chunk *c)
{
    size_t n = x->ref->rows;
    if (NR_GROW(c->i64, c->cap_, n) < 0)
        return chunk_fail(x, NR_E_NOMEM, "out of memory for %zu values", n);
    unsigned transform = *p++;
    unsigned last = x->t->store->version >= 3 ? NR__I64_KEY_NEXT : NR__I64_BASE;
    if (transform > last)
        return chunk_fail(x, NR_E_FORMAT, "expected a transform 0 to %u, found %u", last, transform);
    const int64_t *deps[2] = {NULL, NULL};
    for (size_t k = 0; k < transform_deps(transform); k++)
        NR_TRY(decode_dep(x, sc, &p, end, k, &deps[k]));
    uint64_t scale;
    if (nr_get_uvarint(&p, end, &scale) < 0 || scale == 0)
        return chunk_fail(x, NR_E_FORMAT, "expected a scale of at least 1");
    if (transform >= NR__I64_KEY_DELTA && nr__keymap_reset(&sc->keys, deps[0], n) < 0)
        return chunk_fail(x, NR_E_NOMEM, "out of memory for %zu keys", n);
    const uint8_t *q = decode_values(sc, transform, scale, deps[0], deps[1], p, end, c->i64, n);
    if (!q)
        return chunk_fail(x, NR_E_FORMAT, "expected %zu varints", n);
    if (q != end)
        return chunk_fail(x, NR_E_FORMAT, "expected the values to end the chunk, %zu of %u raw bytes left",
                          (size_t)(end - q), x->ref->raw_size);
    return 0;
}

int nr__store_decode_chunk_v2(const nr_store_table *t, size_t col, size_t rg, const nr_col_chunk *const *known,
                              nr_col_chunk *c, nr_error *err)
{
    const chunk_ctx x = {
        .t = t, .col = col, .rg = rg, .ref = &t->chunks[rg * t->ncols + col], .known = known, .err = err};
    chunk_scratch *sc = c->scratch_;
    if (!sc && !(sc = c->scratch_ = calloc(1, sizeof *sc)))
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", t->store->name);
    NR_TRY(fetch_chunk(&x, sc));
    const uint8_t *p = sc->raw.data, *end = sc->raw.data + sc->raw.len;
    if (t->cols[col].type == NR_COL_I64)
        NR_TRY(decode_i64_v2(&x, sc, p, end, c));
    else
        NR_TRY(decode_dict(&x, sc, p, end, c));
    c->n = x.ref->rows;
    return 0;
}

int nr_store_read_chunk(const nr_store_table *t, size_t col, size_t rg, nr_col_chunk *c, nr_error *err)
{
    c->n = 0;
    if (col >= t->ncols || rg >= t->nrowgroups)
        return nr_error_set(err, NR_E_NOTFOUND, "%s: table '%s' has %zu columns and %zu row groups, asked for column %zu row group %zu",
                            t->store->name, t->name, t->ncols, t->nrowgroups, col, rg);
    return t->store->decode_chunk(t, col, rg, NULL, c, err);
}

int nr_store_read_chunks(const nr_store_table *t, size_t rg, size_t n, const size_t *cols, nr_col_chunk *const *chunks,
                         nr_error *err)
{
    for (size_t k = 0; k < n; k++)
        chunks[k]->n = 0;
    const nr_col_chunk **known = calloc(t->ncols ? t->ncols : 1, sizeof *known);
    if (!known)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", t->store->name);
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        if (cols[k] >= t->ncols || rg >= t->nrowgroups) {
            rc = nr_store_read_chunk(t, cols[k], rg, chunks[k], err); /* its message */
            break;
        }
        rc = t->store->decode_chunk(t, cols[k], rg, known, chunks[k], err);
        if (rc == 0 && !known[cols[k]] && t->cols[cols[k]].type == NR_COL_I64)
            known[cols[k]] = chunks[k];
    }
    free(known);
    return rc;
}
