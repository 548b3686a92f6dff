/* Internal: a column-selective reader of table events (pass.c). */
#ifndef NR_MODEL_PASS_H
#define NR_MODEL_PASS_H

#include "model_internal.h"

#define NR__COL(c) (1u << (c))

typedef struct nr__ahead nr__ahead;

typedef struct nr__reader {
    const nr_store_table *t;   /* NULL when the store has no events table */
    uint32_t want;             /* NR__COL bits */
    int col[NR_EV_COL_COUNT];  /* store column index, -1 missing or not wanted */
    nr_col_chunk ch[NR_EV_COL_COUNT];
    const int64_t *i64[NR_EV_COL_COUNT];  /* current row group, NULL when not loaded */
    const char **str[NR_EV_COL_COUNT];
    int64_t *defaults;          /* filled columns the store lacks */
    size_t defaults_cap;
    nr__ahead *ahead;           /* the next row group decoded on a thread (read_ahead.c); NULL: none */
} nr__reader;

int nr__reader_open(nr__reader *r, const nr_store *s, uint32_t want, nr_error *err);
void nr__reader_close(nr__reader *r);
/* Decodes the wanted columns of row group rg; *nrows = its rows. With a
 * read-ahead, then starts decoding rg + 1 on its thread. */
int nr__reader_load(nr__reader *r, size_t rg, size_t *nrows, nr_error *err);
/* The store's wanted columns of row group rg into ch (one chunk per
 * column; the others untouched), their counts checked against the row
 * group's. Reads only what nr__reader_open set: any thread. */
int nr__reader_decode(const nr__reader *r, size_t rg, nr_col_chunk ch[NR_EV_COL_COUNT], nr_error *err);

/* read_ahead.c: a thread that decodes row group rg + 1 while the caller
 * models rg (decoding was half of a pass's time on 100 M events). The
 * results are the same with or without it. */
/* Starts it when threads > 1 (a thread that cannot start leaves r as it was). */
void nr__ahead_start(nr__reader *r, int threads);
/* Asks for row group rg (the one before must have been taken). */
void nr__ahead_ask(nr__reader *r, size_t rg);
/* Row group rg's chunks swapped into r->ch when they were asked for: 1,
 * or the decode's error (err set); 0 when rg was not the group asked for. */
int nr__ahead_take(nr__reader *r, size_t rg, nr_error *err);
/* Stops the thread and frees it (nr__reader_close). */
void nr__ahead_stop(nr__reader *r);
/* Resolves row i of the loaded group into e. may_add_proc: unknown pids become new processes. */
int nr__reader_event(nr__reader *r, nr_model *m, size_t i, int may_add_proc, nr__event *e);

#endif
