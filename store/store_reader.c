/* store_reader: opens a store, validates its header, trailer and footer index
 * (FORMAT.md), and answers questions about its tables. Chunks are fetched and
 * decoded by store_chunk.c. The footer parser is chosen by format version so
 * that every earlier version stays readable. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nr_mem.h"
#include "store_reader.h"

/* Reads n bytes at offset off of the store. */
int nr__store_read_at(const nr_store *s, uint64_t off, void *buf, size_t n, nr_error *err)
{
    if (off > s->size || n > s->size - off)
        return nr_error_set(err, NR_E_FORMAT, "%s: offset %llu: expected %zu more bytes, the file ends at %llu",
                            s->name, (unsigned long long)off, n, (unsigned long long)s->size);
    if (s->mem) {
        memcpy(buf, s->mem + off, n);
        return 0;
    }
    uint8_t *p = buf;
    while (n > 0) {
        ssize_t got = pread(s->fd, p, n, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return nr_error_errno(err, NR_E_IO, errno, "%s: cannot read at offset %llu", s->name,
                                  (unsigned long long)off);
        if (got == 0)
            return nr_error_set(err, NR_E_FORMAT, "%s: offset %llu: the file is shorter than when it was opened",
                                s->name, (unsigned long long)off);
        p += got;
        n -= (size_t)got;
        off += (uint64_t)got;
    }
    return 0;
}

/* ---- footer v1 ---------------------------------------------------------- */

/* A bounds-checked reader over the footer bytes; `base` is the file offset of bytes[0]. */
typedef struct cursor {
    const nr_store *s;
    const uint8_t *bytes, *p, *end;
    uint64_t base;
} cursor;

static uint64_t cursor_offset(const cursor *c)
{
    return c->base + (uint64_t)(c->p - c->bytes);
}

static int cursor_need(cursor *c, size_t n, const char *what, nr_error *err)
{
    if ((size_t)(c->end - c->p) >= n)
        return 0;
    return nr_error_set(err, NR_E_FORMAT, "%s: footer offset %llu: expected %s (%zu bytes), only %zu bytes left",
                        c->s->name, (unsigned long long)cursor_offset(c), what, n, (size_t)(c->end - c->p));
}

static int get_u8(cursor *c, const char *what, uint8_t *out, nr_error *err)
{
    NR_TRY(cursor_need(c, 1, what, err));
    *out = *c->p++;
    return 0;
}

static int get_u32(cursor *c, const char *what, uint32_t *out, nr_error *err)
{
    NR_TRY(cursor_need(c, 4, what, err));
    *out = nr__get_le32(c->p);
    c->p += 4;
    return 0;
}

static int get_u64(cursor *c, const char *what, uint64_t *out, nr_error *err)
{
    NR_TRY(cursor_need(c, 8, what, err));
    *out = nr__get_le64(c->p);
    c->p += 8;
    return 0;
}

/* Reads a u16-length-prefixed name into a new NUL-terminated string. */
static int get_name(cursor *c, const char *what, char **out, nr_error *err)
{
    NR_TRY(cursor_need(c, 2, what, err));
    uint64_t at = cursor_offset(c);
    uint16_t n = nr__get_le16(c->p);
    c->p += 2;
    if (n == 0 || n > NR__STORE_MAX_NAME)
        return nr_error_set(err, NR_E_FORMAT, "%s: footer offset %llu: expected a %s of 1 to %u bytes, found length %u",
                            c->s->name, (unsigned long long)at, what, NR__STORE_MAX_NAME, n);
    NR_TRY(cursor_need(c, n, what, err));
    if (memchr(c->p, 0, n))
        return nr_error_set(err, NR_E_FORMAT, "%s: footer offset %llu: %s holds a NUL byte",
                            c->s->name, (unsigned long long)at, what);
    *out = malloc((size_t)n + 1);
    if (!*out)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", c->s->name);
    memcpy(*out, c->p, n);
    (*out)[n] = '\0';
    c->p += n;
    return 0;
}

static int parse_column_v1(cursor *c, const nr_store_table *t, size_t i, nr_error *err)
{
    nr__store_col *col = &t->cols[i];
    NR_TRY(get_name(c, "column name", &col->name, err));
    for (size_t j = 0; j < i; j++)
        if (strcmp(t->cols[j].name, col->name) == 0)
            return nr_error_set(err, NR_E_FORMAT, "%s: footer offset %llu: table '%s' names column '%s' twice",
                                t->store->name, (unsigned long long)cursor_offset(c), t->name, col->name);
    uint8_t type, enc;
    uint64_t at = cursor_offset(c);
    NR_TRY(get_u8(c, "column type", &type, err));
    NR_TRY(get_u8(c, "column encoding", &enc, err));
    int ok = (type == NR_COL_I64 && (enc == NR_ENC_VARINT || enc == NR_ENC_DELTA_VARINT)) ||
             (type == NR_COL_STR && enc == NR_ENC_DICT);
    if (!ok)
        return nr_error_set(err, NR_E_FORMAT,
                            "%s: footer offset %llu: column '%s': expected type 1 with encoding 1 or 2, or type 2 with encoding 3; found type %u encoding %u",
                            t->store->name, (unsigned long long)at, col->name, type, enc);
    col->type = type;
    col->encoding = enc;
    return 0;
}

/* Checks one chunk entry against the file and the limits of its version. */
static int check_chunk_v1(const nr_store_table *t, size_t col, uint64_t at,
                          const nr__chunk_ref *ref, uint64_t footer_offset, nr_error *err)
{
    const char *file = t->store->name;
    const char *cname = t->cols[col].name;
    if (ref->offset < NR__STORE_HEADER_SIZE || ref->disk_size == 0 || ref->offset > footer_offset ||
        ref->disk_size > footer_offset - ref->offset)
        return nr_error_set(err, NR_E_FORMAT,
                            "%s: footer offset %llu: chunk of table '%s' column '%s' at offset %llu (%u bytes) "
                            "should lie between the header (byte %u) and the footer (byte %llu)",
                            file, (unsigned long long)at, t->name, cname, (unsigned long long)ref->offset,
                            ref->disk_size, NR__STORE_HEADER_SIZE, (unsigned long long)footer_offset);
    if (ref->rows == 0 || ref->rows > NR_STORE_ROWS_PER_GROUP)
        return nr_error_set(err, NR_E_FORMAT, "%s: footer offset %llu: chunk of table '%s' column '%s': expected 1 to %u rows, found %u",
                            file, (unsigned long long)at, t->name, cname, NR_STORE_ROWS_PER_GROUP, ref->rows);
    /* version 2 (3) I64 chunks carry a 2..21 (31)-byte header before the values */
    const uint32_t version = t->store->version;
    const uint64_t header_max = version >= 3 ? NR__I64_HEADER_MAX_V3 : version == 2 ? NR__I64_HEADER_MAX : 0u;
    uint64_t min_raw = t->cols[col].type == NR_COL_I64 ? ref->rows + (version >= 2 ? 2u : 0u) : (uint64_t)ref->rows + 1;
    uint64_t max_raw = t->cols[col].type == NR_COL_I64 ? (uint64_t)ref->rows * 10 + header_max
                                                       : NR__STORE_MAX_CHUNK_RAW;
    if ((uint64_t)ref->disk_size * NR__ZSTD_MAX_RATIO < max_raw)
        max_raw = (uint64_t)ref->disk_size * NR__ZSTD_MAX_RATIO;
    if (ref->raw_size < min_raw || ref->raw_size > max_raw)
        return nr_error_set(err, NR_E_FORMAT,
                            "%s: footer offset %llu: chunk of table '%s' column '%s': expected a raw size of %llu to %llu bytes, found %u",
                            file, (unsigned long long)at, t->name, cname, (unsigned long long)min_raw,
                            (unsigned long long)max_raw, ref->raw_size);
    return 0;
}

static int parse_chunks_v1(cursor *c, nr_store_table *t, uint64_t footer_offset, nr_error *err)
{
    const char *file = t->store->name;
    uint64_t sum = 0;
    for (size_t rg = 0; rg < t->nrowgroups; rg++) {
        for (size_t col = 0; col < t->ncols; col++) {
            nr__chunk_ref *ref = &t->chunks[rg * t->ncols + col];
            uint64_t at = cursor_offset(c);
            NR_TRY(cursor_need(c, NR__CHUNK_ENTRY_SIZE, "a chunk entry", err));
            ref->offset = nr__get_le64(c->p);
            ref->disk_size = nr__get_le32(c->p + 8);
            ref->raw_size = nr__get_le32(c->p + 12);
            ref->rows = nr__get_le32(c->p + 16);
            ref->crc = nr__get_le32(c->p + 20);
            c->p += NR__CHUNK_ENTRY_SIZE;
            NR_TRY(check_chunk_v1(t, col, at, ref, footer_offset, err));
            t->cols[col].disk_bytes += ref->disk_size;
            t->cols[col].raw_bytes += ref->raw_size;
            if (ref->rows != t->chunks[rg * t->ncols].rows)
                return nr_error_set(err, NR_E_FORMAT,
                                    "%s: footer offset %llu: table '%s' row group %zu: column '%s' has %u rows, expected %u like column '%s'",
                                    file, (unsigned long long)at, t->name, rg, t->cols[col].name, ref->rows,
                                    t->chunks[rg * t->ncols].rows, t->cols[0].name);
        }
        sum += t->chunks[rg * t->ncols].rows;
    }
    if (sum != t->rows)
        return nr_error_set(err, NR_E_FORMAT, "%s: footer offset %llu: table '%s' declares %llu rows, its row groups hold %llu",
                            file, (unsigned long long)cursor_offset(c), t->name, (unsigned long long)t->rows,
                            (unsigned long long)sum);
    return 0;
}

static int parse_table_v1(cursor *c, nr_store_table *t, uint64_t footer_offset, nr_error *err)
{
    const char *file = t->store->name;
    NR_TRY(get_name(c, "table name", &t->name, err));
    for (const nr_store_table *o = t->store->tables; o < t; o++)
        if (strcmp(o->name, t->name) == 0)
            return nr_error_set(err, NR_E_FORMAT, "%s: footer offset %llu: table '%s' appears twice",
                                file, (unsigned long long)cursor_offset(c), t->name);
    uint32_t ncols, nrg;
    uint64_t at = cursor_offset(c);
    NR_TRY(get_u32(c, "a column count", &ncols, err));
    NR_TRY(get_u64(c, "a row count", &t->rows, err));
    NR_TRY(get_u32(c, "a row group count", &nrg, err));
    /* Each column takes >= 4 footer bytes and each chunk 24: counts that do
     * not fit in the bytes left are damage, caught before allocating. */
    size_t left = (size_t)(c->end - c->p);
    if (ncols == 0 || ncols > left / 4 || (uint64_t)nrg * ncols > left / NR__CHUNK_ENTRY_SIZE)
        return nr_error_set(err, NR_E_FORMAT,
                            "%s: footer offset %llu: table '%s': %u columns and %u row groups do not fit in the %zu footer bytes left",
                            file, (unsigned long long)at, t->name, ncols, nrg, left);
    t->ncols = ncols;
    t->nrowgroups = nrg;
    t->cols = calloc(ncols, sizeof *t->cols);
    t->chunks = calloc(nrg ? (size_t)nrg * ncols : 1, sizeof *t->chunks);
    if (!t->cols || !t->chunks)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", file);
    for (size_t i = 0; i < ncols; i++)
        NR_TRY(parse_column_v1(c, t, i, err));
    return parse_chunks_v1(c, t, footer_offset, err);
}

static int compare_chunk_offsets(const void *a, const void *b)
{
    const nr__chunk_ref *x = *(const nr__chunk_ref *const *)a, *y = *(const nr__chunk_ref *const *)b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Chunks may not overlap: a footer that points two chunks at the same bytes is damaged. */
static int check_no_overlap(const nr_store *s, nr_error *err)
{
    size_t n = 0;
    for (size_t i = 0; i < s->ntables; i++)
        n += s->tables[i].nrowgroups * s->tables[i].ncols;
    if (n < 2)
        return 0;
    const nr__chunk_ref **refs = malloc(n * sizeof *refs);
    if (!refs)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", s->name);
    size_t k = 0;
    for (size_t i = 0; i < s->ntables; i++)
        for (size_t j = 0; j < s->tables[i].nrowgroups * s->tables[i].ncols; j++)
            refs[k++] = &s->tables[i].chunks[j];
    qsort(refs, n, sizeof *refs, compare_chunk_offsets);
    int rc = 0;
    for (size_t i = 1; i < n && rc == 0; i++)
        if (refs[i - 1]->offset + refs[i - 1]->disk_size > refs[i]->offset)
            rc = nr_error_set(err, NR_E_FORMAT, "%s: chunk at offset %llu overlaps the chunk at offset %llu (%u bytes)",
                              s->name, (unsigned long long)refs[i]->offset,
                              (unsigned long long)refs[i - 1]->offset, refs[i - 1]->disk_size);
    free(refs);
    return rc;
}

/* Versions 1 and 2 share the footer layout; they differ in the I64 chunks. */
static int parse_footer_v1(nr_store *s, const uint8_t *footer, size_t len, uint64_t footer_offset, nr_error *err)
{
    uint8_t header[NR__STORE_HEADER_SIZE];
    NR_TRY(nr__store_read_at(s, 0, header, sizeof header, err));
    if (nr__get_le32(header + 12) != 0)
        return nr_error_set(err, NR_E_FORMAT, "%s: offset 12: expected header flags 0 in format version %u, found 0x%08x",
                            s->name, s->version, nr__get_le32(header + 12));
    cursor c = {.s = s, .bytes = footer, .p = footer, .end = footer + len, .base = footer_offset};
    uint32_t ntables;
    NR_TRY(get_u32(&c, "a table count", &ntables, err));
    if (ntables > (len - 4) / 16)
        return nr_error_set(err, NR_E_FORMAT, "%s: footer offset %llu: %u tables do not fit in a footer of %zu bytes",
                            s->name, (unsigned long long)footer_offset, ntables, len);
    s->tables = calloc(ntables ? ntables : 1, sizeof *s->tables);
    if (!s->tables)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", s->name);
    for (size_t i = 0; i < ntables; i++) {
        s->tables[i].store = s;
        s->ntables = i + 1;
        NR_TRY(parse_table_v1(&c, &s->tables[i], footer_offset, err));
    }
    if (c.p != c.end)
        return nr_error_set(err, NR_E_FORMAT, "%s: footer offset %llu: expected the end of the footer, found %zu more bytes",
                            s->name, (unsigned long long)cursor_offset(&c), (size_t)(c.end - c.p));
    s->decode_chunk = s->version >= 2 ? nr__store_decode_chunk_v2 : nr__store_decode_chunk_v1;
    return check_no_overlap(s, err);
}

/* ---- opening ------------------------------------------------------------ */

typedef int (*footer_parser)(nr_store *s, const uint8_t *footer, size_t len, uint64_t footer_offset, nr_error *err);

/* Every format version this reader understands. */
static const struct {
    uint32_t version;
    footer_parser parse;
} format_readers[] = {
    {1, parse_footer_v1},
    {2, parse_footer_v1},
    {3, parse_footer_v1},
};

static footer_parser find_parser(uint32_t version)
{
    for (size_t i = 0; i < sizeof format_readers / sizeof format_readers[0]; i++)
        if (format_readers[i].version == version)
            return format_readers[i].parse;
    return NULL;
}

static int read_header(nr_store *s, footer_parser *parse, nr_error *err)
{
    uint8_t header[NR__STORE_HEADER_SIZE];
    if (s->size < NR__STORE_HEADER_SIZE + NR__STORE_TRAILER_SIZE)
        return nr_error_set(err, NR_E_FORMAT, "%s: the file is %llu bytes, a store has at least %u (header and trailer)",
                            s->name, (unsigned long long)s->size, NR__STORE_HEADER_SIZE + NR__STORE_TRAILER_SIZE);
    NR_TRY(nr__store_read_at(s, 0, header, sizeof header, err));
    if (memcmp(header, NR__STORE_MAGIC, NR__STORE_MAGIC_SIZE) != 0)
        return nr_error_set(err, NR_E_FORMAT, "%s: offset 0: expected the store magic 89 4E 49 4F 0D 0A 1A 0A: not a niorep store",
                            s->name);
    s->version = nr__get_le32(header + 8);
    *parse = find_parser(s->version);
    if (!*parse)
        return nr_error_set(err, NR_E_FORMAT, "%s: offset 8: format version %u is not one this niorep reads (1 to %u)",
                            s->name, s->version, NR_STORE_FORMAT_VERSION);
    return 0;
}

static int open_common(nr_store *s, nr_error *err)
{
    footer_parser parse;
    NR_TRY(read_header(s, &parse, err));
    uint8_t trailer[NR__STORE_TRAILER_SIZE];
    uint64_t trailer_offset = s->size - NR__STORE_TRAILER_SIZE;
    NR_TRY(nr__store_read_at(s, trailer_offset, trailer, sizeof trailer, err));
    if (memcmp(trailer + 12, NR__STORE_END_MAGIC, NR__STORE_MAGIC_SIZE) != 0)
        return nr_error_set(err, NR_E_FORMAT, "%s: offset %llu: expected the end magic 4E 49 4F 45 4E 44 1A 0A: the store is truncated or damaged",
                            s->name, (unsigned long long)(trailer_offset + 12));
    uint64_t footer_len = nr__get_le64(trailer);
    if (footer_len < 4 || footer_len > trailer_offset - NR__STORE_HEADER_SIZE)
        return nr_error_set(err, NR_E_FORMAT, "%s: offset %llu: expected a footer length of 4 to %llu bytes, found %llu",
                            s->name, (unsigned long long)trailer_offset,
                            (unsigned long long)(trailer_offset - NR__STORE_HEADER_SIZE), (unsigned long long)footer_len);
    uint64_t footer_offset = trailer_offset - footer_len;
    uint8_t *footer = malloc((size_t)footer_len);
    if (!footer)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory for a footer of %llu bytes", s->name,
                            (unsigned long long)footer_len);
    int rc = nr__store_read_at(s, footer_offset, footer, (size_t)footer_len, err);
    uint32_t want = nr__get_le32(trailer + 8);
    uint32_t got = rc == 0 ? nr__store_crc32(footer, (size_t)footer_len) : 0;
    if (rc == 0 && got != want && NR__STORE_CHECKS_CRC)
        rc = nr_error_set(err, NR_E_FORMAT, "%s: offset %llu: footer checksum mismatch (expected CRC32 0x%08x, computed 0x%08x over bytes %llu..%llu)",
                          s->name, (unsigned long long)(trailer_offset + 8), want, got,
                          (unsigned long long)footer_offset, (unsigned long long)(trailer_offset - 1));
    if (rc == 0)
        rc = parse(s, footer, (size_t)footer_len, footer_offset, err);
    free(footer);
    return rc;
}

static nr_store *new_store(const char *name)
{
    nr_store *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->fd = -1;
    s->name = strdup(name);
    if (!s->name) {
        free(s);
        return NULL;
    }
    return s;
}

int nr__store_open_memory(const void *data, size_t size, const char *name, nr_store **out, nr_error *err)
{
    *out = NULL;
    nr_store *s = new_store(name);
    if (!s)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", name);
    s->mem = data;
    s->size = size;
    int rc = open_common(s, err);
    if (rc < 0) {
        nr_store_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

int nr_store_open(const char *path, nr_store **out, nr_error *err)
{
    *out = NULL;
    nr_store *s = new_store(path);
    if (!s)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", path);
    /* O_NONBLOCK: the open of a fifo would wait for a writer; the S_ISREG
     * check below then refuses it (review 50) */
    s->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    int rc = 0;
    if (s->fd < 0)
        rc = nr_error_errno(err, errno == ENOENT ? NR_E_NOTFOUND : NR_E_IO, errno, "%s: cannot open store", path);
    else if (fstat(s->fd, &st) != 0)
        rc = nr_error_errno(err, NR_E_IO, errno, "%s: cannot stat store", path);
    else if (!S_ISREG(st.st_mode))
        rc = nr_error_set(err, NR_E_INPUT, "%s: not a regular file", path);
    if (rc == 0) {
        s->size = (uint64_t)st.st_size;
        rc = open_common(s, err);
    }
    if (rc < 0) {
        nr_store_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

void nr_store_file_id(const nr_store *s, uint64_t *dev, uint64_t *ino)
{
    struct stat st;
    const int known = s && s->fd >= 0 && fstat(s->fd, &st) == 0;
    *dev = known ? (uint64_t)st.st_dev : 0;
    *ino = known ? (uint64_t)st.st_ino : 0;
}

void nr_store_close(nr_store *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->ntables; i++) {
        nr_store_table *t = &s->tables[i];
        if (t->cols)
            for (size_t c = 0; c < t->ncols; c++)
                free(t->cols[c].name);
        free(t->cols);
        free(t->chunks);
        free(t->name);
    }
    free(s->tables);
    if (s->fd >= 0)
        close(s->fd);
    free(s->name);
    free(s);
}

/* ---- accessors ---------------------------------------------------------- */

uint32_t nr_store_format_version(const nr_store *s) { return s->version; }
const char *nr_store_name(const nr_store *s) { return s->name; }
uint64_t nr_store_file_size(const nr_store *s) { return s->size; }
size_t nr_store_table_count(const nr_store *s) { return s->ntables; }

const nr_store_table *nr_store_table_at(const nr_store *s, size_t i)
{
    return i < s->ntables ? &s->tables[i] : NULL;
}

const nr_store_table *nr_store_find_table(const nr_store *s, const char *name)
{
    for (size_t i = 0; i < s->ntables; i++)
        if (strcmp(s->tables[i].name, name) == 0)
            return &s->tables[i];
    return NULL;
}

const char *nr_store_table_name(const nr_store_table *t) { return t->name; }
uint64_t nr_store_table_rows(const nr_store_table *t) { return t->rows; }
size_t nr_store_table_ncols(const nr_store_table *t) { return t->ncols; }
size_t nr_store_table_rowgroups(const nr_store_table *t) { return t->nrowgroups; }

uint64_t nr_store_rowgroup_rows(const nr_store_table *t, size_t rg)
{
    return rg < t->nrowgroups ? t->chunks[rg * t->ncols].rows : 0;
}

void nr_store_col_info(const nr_store_table *t, size_t col, nr_col_info *out)
{
    const nr__store_col *c = &t->cols[col];
    *out = (nr_col_info){.name = c->name, .type = c->type, .encoding = c->encoding,
                         .disk_bytes = c->disk_bytes, .raw_bytes = c->raw_bytes};
}

int nr_store_col_index(const nr_store_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->cols[c].name, name) == 0)
            return (int)c;
    return -1;
}
