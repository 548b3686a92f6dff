/* store_reader: the reader's in-memory model of an open store, shared by the
 * footer parser (store_reader.c) and the chunk decoder (store_chunk.c). */
#ifndef NR_STORE_READER_H
#define NR_STORE_READER_H

#include "store_internal.h"

/* Where a chunk lies and what it holds (one footer entry). */
typedef struct nr__chunk_ref {
    uint64_t offset;
    uint32_t disk_size, raw_size, rows, crc;
} nr__chunk_ref;

typedef struct nr__store_col {
    char *name;
    nr_col_type type;
    nr_col_encoding encoding;
    uint64_t disk_bytes, raw_bytes;
} nr__store_col;

struct nr_store_table {
    const nr_store *store;
    char *name;
    uint64_t rows;
    size_t ncols, nrowgroups;
    nr__store_col *cols;
    nr__chunk_ref *chunks; /* row group major: chunks[rg * ncols + col] */
};

/* Decodes one chunk of the format version the store was written in. known:
 * NULL, or t->ncols entries, each NULL or column i's chunk of row group rg
 * already decoded, which a transform of col reads instead of decoding it
 * again. */
typedef int (*nr__chunk_decoder)(const nr_store_table *t, size_t col, size_t rg, const nr_col_chunk *const *known,
                                 nr_col_chunk *c, nr_error *err);

struct nr_store {
    char *name;           /* path, for messages */
    int fd;               /* -1 when reading from memory */
    const uint8_t *mem;   /* borrowed, or NULL */
    uint64_t size;
    uint32_t version;
    nr_store_table *tables;
    size_t ntables;
    nr__chunk_decoder decode_chunk;
};

int nr__store_read_at(const nr_store *s, uint64_t off, void *buf, size_t n, nr_error *err);
int nr__store_decode_chunk_v1(const nr_store_table *t, size_t col, size_t rg, const nr_col_chunk *const *known,
                              nr_col_chunk *c, nr_error *err);
int nr__store_decode_chunk_v2(const nr_store_table *t, size_t col, size_t rg, const nr_col_chunk *const *known,
                              nr_col_chunk *c, nr_error *err);

#endif
