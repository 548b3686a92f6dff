/* Internal: a column-selective reader of table events (pass.c). */
#ifndef NR_MODEL_PASS_H
#define NR_MODEL_PASS_H

#include "model_internal.h"

#define NR__COL(c) (1u << (c))

typedef struct nr__reader {
    const nr_store_table *t;   /* NULL when the store has no events table */
    uint32_t want;             /* NR__COL bits */
    int col[NR_EV_COL_COUNT];  /* store column index, -1 missing or not wanted */
    nr_col_chunk ch[NR_EV_COL_COUNT];
    const int64_t *i64[NR_EV_COL_COUNT];  /* current row group, NULL when not loaded */
    const char **str[NR_EV_COL_COUNT];
    int64_t *defaults;          /* filled columns the store lacks */
    size_t defaults_cap;
} nr__reader;

int nr__reader_open(nr__reader *r, const nr_store *s, uint32_t want, nr_error *err);
void nr__reader_close(nr__reader *r);
/* Decodes the wanted columns of row group rg; *nrows = its rows. */
int nr__reader_load(nr__reader *r, size_t rg, size_t *nrows, nr_error *err);
/* Resolves row i of the loaded group into e. may_add_proc: unknown pids become new processes. */
int nr__reader_event(nr__reader *r, nr_model *m, size_t i, int may_add_proc, nr__event *e);

#endif
