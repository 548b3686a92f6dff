/* nr_store: one run in one self-describing file (RUN.nio): named tables of
 * named columns, split into row groups, each column chunk encoded and
 * zstd-compressed with its own checksum, and a footer index so that a reader
 * fetches one column without decoding the rest. Byte layout: store/FORMAT.md.
 *
 * Two column types exist: signed 64-bit integers and byte strings (no NUL).
 * Every quantity is stored as an integer (times in ns, sizes in bytes). */
#ifndef NR_STORE_H
#define NR_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"
#include "nr_strtab.h"

#define NR_STORE_FORMAT_VERSION 3u
#define NR_STORE_ROWS_PER_GROUP 65536u

typedef enum nr_col_type {
    NR_COL_I64 = 1,
    NR_COL_STR = 2,
} nr_col_type;

typedef enum nr_col_encoding {
    NR_ENC_VARINT = 1,       /* I64: zig-zag LEB128 of each value */
    NR_ENC_DELTA_VARINT = 2, /* I64: zig-zag LEB128 of the difference to the previous value */
    NR_ENC_DICT = 3,         /* STR: chunk-local dictionary + varint indexes */
} nr_col_encoding;

/* "i64"/"str" and "varint"/"delta_varint"/"dict"; "?" when out of range. */
const char *nr_col_type_name(int type);
const char *nr_col_encoding_name(int encoding);

typedef struct nr_col_def {
    const char *name;
    nr_col_type type;
    nr_col_encoding encoding;
    /* I64 only, optional: the name of an earlier I64 column of the same
     * table that this one usually equals or follows closely (tid ~ pid,
     * result ~ bytes); the writer then stores the differences from it
     * (format version 2). NULL: none. */
    const char *base;
    /* I64 only, optional, not with base: the name of an earlier I64 column
     * that groups rows (events.file_id by pid); the writer stores the
     * difference from the previous row of the same group in the row group
     * (format version 3). NULL: none. */
    const char *key;
    /* With key only, optional: the name of an earlier I64 column by which
     * this one advances within a group (offset by bytes): the previous row
     * of the group, value plus step, predicts the next; rows of value -1
     * (unknown) predict nothing. NULL: none. */
    const char *step;
    /* Optional: the ingest revision that added this column to its table
     * (0: the table has always had it). A store written before lacks the
     * column; its readers (the model, merge) take every row's value as
     * missing (I64) or "" (STR), as the ingest would have written for a
     * value it did not see. */
    int since;
    int64_t missing;
} nr_col_def;

typedef struct nr_table_def {
    const char *name;
    const nr_col_def *cols;
    size_t ncols;
} nr_table_def;

/* ---- writing ---------------------------------------------------------- */

typedef struct nr_store_writer nr_store_writer;
typedef struct nr_table_writer nr_table_writer;

/* Starts a store that will replace `path` on commit (written to a temporary
 * file beside it). Returns 0 and a new writer in *out, or a negative code. */
int nr_store_writer_create(const char *path, nr_store_writer **out, nr_error *err);

/* Sets the zstd level of the chunks written from now on (range 1..19;
 * out-of-range values are clamped). The default is level 1 with a minimum
 * match of 7 bytes, and an accelerated match search for chunks of one-byte
 * codes that pass a trial, tuned for these chunks (store_writer.c); a level
 * set here is zstd's own for every chunk. The level changes the bytes, not
 * what a reader sees. */
void nr_store_writer_set_level(nr_store_writer *w, int level);

/* Adds a table. The writer borrows def (it must outlive the writer) and
 * returns a table writer it owns in *out. Tables may be filled interleaved.
 * Table and column names are 1..255 bytes, unique; a table has >= 1 column. */
int nr_store_writer_add_table(nr_store_writer *w, const nr_table_def *def,
                              nr_table_writer **out, nr_error *err);

/* Sets column col of the current row; every column of a row must be set
 * before nr_table_end_row. Strings are copied. */
void nr_table_set_i64(nr_table_writer *t, size_t col, int64_t v);
void nr_table_set_str(nr_table_writer *t, size_t col, const char *s, size_t n);
/* Completes the row; flushes a row group when full. */
int nr_table_end_row(nr_table_writer *t, nr_error *err);

/* The values of one column for n rows of nr_table_append_rows. I64
 * columns read i64[0..n). STR columns read ids[0..n), indexes into dict
 * (a string table of the caller's, borrowed for the call), or, when strs is
 * not NULL, the strings themselves: row i is strs[i][0..lens[i]) (borrowed
 * for the call; the faster form for strings that rarely repeat). distinct
 * (with strs) is the caller's promise that no string of the call equals
 * another one or one already in the current row group of the column (the
 * paths of table files): they enter the group's dictionary in row order
 * without being looked up, the fastest form; a broken promise gives a
 * dictionary with repeats (still read correctly). */
typedef struct nr_col_values {
    const int64_t *i64;
    const uint32_t *ids;
    const nr_strtab *dict;
    const char *const *strs;
    const uint32_t *lens;
    int distinct;
} nr_col_values;

/* Appends n complete rows given column by column (cols[c] for every column
 * c of the table): the faster path for many rows, and the same store as n
 * rows of set and end_row calls. Values set for an unfinished row are
 * dropped (a string so set may still enter its row group's dictionary).
 * Flushes row groups as they fill; rows that make a whole row group
 * (NR_STORE_ROWS_PER_GROUP, starting one) are encoded from cols' I64 arrays
 * in place, not copied: the fastest form. Returns 0 or a negative code
 * (NR_E_INPUT for an id outside its dict; the table is then unusable). The
 * cost is O(n + the dictionaries' sizes). */
int nr_table_append_rows(nr_table_writer *t, const nr_col_values *cols, size_t n, nr_error *err);
/* nr_table_append_rows for the table's last rows: the row group they end
 * is flushed before the call returns, so that a last, partial group is
 * encoded in place as well, when the call starts it (the form for a table
 * written in one go, such as files: its chunks are then written here, not
 * at the commit). Rows after these are an error (NR_E_INPUT). */
int nr_table_append_final_rows(nr_table_writer *t, const nr_col_values *cols, size_t n, nr_error *err);

/* Lets one other thread share the encoding and compression of the row
 * groups flushed from now on: at each flush the writer calls wake(ctx)
 * (on the caller's thread), and that thread should then call
 * nr_store_writer_help(w); the caller encodes what the helper does not
 * take and waits for the rest. Chunks are written in the order of an
 * unshared flush: the same bytes. The caller of the other functions stays
 * one thread at a time, as before; wake and ctx are borrowed until
 * nr_store_writer_destroy. Returns 0 or NR_E_NOMEM. */
int nr_store_writer_set_helper(nr_store_writer *w, void (*wake)(void *ctx), void *ctx, nr_error *err);
/* The helper's side (any thread, at any time after nr_store_writer_set_helper
 * and before nr_store_writer_destroy): encodes the chunks of the current
 * flush that no thread has taken. Returns 1 when it encoded one, 0 when
 * there was nothing (or another thread is helping). */
int nr_store_writer_help(nr_store_writer *w);

/* Starts making the bytes written so far durable on a thread of its own
 * (nr_outfile_sync_start), once: a head start for the commit's fsync,
 * which then waits for the rest only. For when most of the store is
 * written (ingest: after the events); the caller writes on meanwhile. */
void nr_store_writer_sync_early(nr_store_writer *w);

/* Flushes every table, writes the footer, fsyncs and renames into place. */
int nr_store_writer_commit(nr_store_writer *w, nr_error *err);
/* The device and inode of the file w writes (the store at its path once
 * committed: the rename keeps them), so that a cache can tell its store
 * from one another writer renamed over it. 0 when unknown. */
void nr_store_writer_file_id(const nr_store_writer *w, uint64_t *dev, uint64_t *ino);
/* Frees the writer; if it was not committed, removes the temporary file.
 * Accepts NULL. */
void nr_store_writer_destroy(nr_store_writer *w);

/* ---- reading ---------------------------------------------------------- */

typedef struct nr_store nr_store;
typedef struct nr_store_table nr_store_table;

/* Opens and validates a store (header, footer, footer checksum, every
 * chunk's bounds). Chunk checksums are checked when a chunk is read.
 * On damage, err names the file and the byte offset. */
int nr_store_open(const char *path, nr_store **out, nr_error *err);
/* Accepts NULL. Invalidates every table pointer of the store. */
void nr_store_close(nr_store *s);
/* The device and inode of the file s reads (as nr_store_writer_file_id
 * gives them for its writer), so that a cache can tell that the file it
 * opened by path is the store it wrote or checked, not one another writer
 * renamed there since. 0 when unknown (a store in memory). */
void nr_store_file_id(const nr_store *s, uint64_t *dev, uint64_t *ino);

uint32_t nr_store_format_version(const nr_store *s);
/* The path the store was opened from (the name given for a store in
 * memory), for messages; borrowed, valid until nr_store_close. */
const char *nr_store_name(const nr_store *s);
uint64_t nr_store_file_size(const nr_store *s);
size_t nr_store_table_count(const nr_store *s);
const nr_store_table *nr_store_table_at(const nr_store *s, size_t i);
/* Returns the table named name, or NULL. */
const nr_store_table *nr_store_find_table(const nr_store *s, const char *name);

const char *nr_store_table_name(const nr_store_table *t);
uint64_t nr_store_table_rows(const nr_store_table *t);
size_t nr_store_table_ncols(const nr_store_table *t);
size_t nr_store_table_rowgroups(const nr_store_table *t);
/* Rows in row group rg. */
uint64_t nr_store_rowgroup_rows(const nr_store_table *t, size_t rg);

typedef struct nr_col_info {
    const char *name;
    nr_col_type type;
    nr_col_encoding encoding;
    uint64_t disk_bytes;  /* compressed, summed over chunks */
    uint64_t raw_bytes;   /* encoded before compression, summed over chunks */
} nr_col_info;

void nr_store_col_info(const nr_store_table *t, size_t col, nr_col_info *out);
/* Index of the column named name, or -1. */
int nr_store_col_index(const nr_store_table *t, const char *name);

/* A decoded column chunk (value type: init/fini, reused across reads). */
typedef struct nr_col_chunk {
    size_t n;              /* values in the chunk */
    int64_t *i64;          /* I64 columns: n values */
    const char **str;      /* STR columns: n NUL-terminated strings */
    uint32_t *str_len;     /* STR columns: their lengths */
    void *scratch_;        /* internal */
    size_t cap_, scratch_cap_;
} nr_col_chunk;

void nr_col_chunk_init(nr_col_chunk *c);
void nr_col_chunk_fini(nr_col_chunk *c);

/* Decodes row group rg of column col into c (replacing its contents),
 * verifying the chunk checksum. The arrays and strings of c stay valid until
 * the next read into c or nr_col_chunk_fini. Several threads may read chunks
 * of one store at once, each into its own nr_col_chunk. On failure c->n is 0. */
int nr_store_read_chunk(const nr_store_table *t, size_t col, size_t rg,
                        nr_col_chunk *c, nr_error *err);
/* nr_store_read_chunk of columns cols[0..n) of row group rg into chunks[k]
 * (borrowed; n distinct chunks), with the same values and errors, in that
 * order, stopping at the first error. A column that a later one's
 * transform reads (its base, key or step column: FORMAT.md) is decoded
 * once when it comes earlier in cols, instead of again for each column
 * that reads it. */
int nr_store_read_chunks(const nr_store_table *t, size_t rg, size_t n, const size_t *cols,
                         nr_col_chunk *const *chunks, nr_error *err);

#endif
