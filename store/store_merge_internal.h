/* Internals of nr_store_merge shared by store_merge.c (parts, files, events,
 * processes, pyio) and store_merge_meta.c (meta, diagnostics, phases). */
#ifndef STORE_MERGE_INTERNAL_H
#define STORE_MERGE_INTERNAL_H

#include <stdint.h>

#include "nr_mem.h"
#include "nr_schema.h"
#include "nr_store_merge.h"
#include "nr_strtab.h"

#define NR__MERGE_MAXCOLS 16

/* Row-wise reading of one table of one part: one decoded row group at a time. */
typedef struct nr__cursor {
    const nr_store_table *t;      /* NULL: the part lacks the table (no rows) */
    const nr_table_def *def;
    int col[NR__MERGE_MAXCOLS];   /* schema column -> column of the part */
    nr_col_chunk c[NR__MERGE_MAXCOLS];
    size_t rg, row, rows;         /* next row group, row within the current, its rows */
} nr__cursor;

/* One row in schema column order; strings borrowed from a cursor or an arena. */
typedef struct nr__row {
    int64_t i[NR__MERGE_MAXCOLS];
    const char *s[NR__MERGE_MAXCOLS];
    uint32_t len[NR__MERGE_MAXCOLS];
} nr__row;

typedef struct nr__kv { const char *key, *value; } nr__kv;
typedef struct nr__idpair { int64_t old_id, new_id; } nr__idpair;

typedef struct nr__part {
    const char *path;             /* borrowed */
    const char *name;             /* base name of path, for messages and meta */
    nr_store *store;
    nr__kv *meta;                 /* arena */
    size_t nmeta;
    const char *run, *node, *time_base;   /* meta values, arena; NULL when absent */
    const char *merged_parts;             /* meta value of a merged store, arena; NULL when absent */
    int timed;                            /* meta has_durations 1: traced with -T */
    int64_t pid_base;
    nr__idpair *files;            /* old file_id -> union index, sorted by old id */
    size_t nfiles, files_cap;
    nr__idpair *phases;           /* old phase_id -> new phase_id, sorted by old id */
    size_t nphases;
} nr__part;

/* One file of the merged run: the union of the parts' rows with its identity. */
typedef struct nr__ufile {
    int64_t new_id;               /* -1 until first used */
    int64_t kind;
    int64_t sums[8];              /* bytes_read .. sync_calls */
    int64_t first_ns, last_ns;
} nr__ufile;

/* One phases row of a part while the phases are numbered again. */
typedef struct nr__phase_row {
    size_t part;
    int64_t old_id;
    nr__row r;                    /* pid and tid qualified; name in the merge arena */
} nr__phase_row;

typedef struct nr__merge {
    nr__part *parts;
    size_t n;
    nr_merge_opts opts;
    nr_arena arena;
    nr_strtab ids;                /* file identities; id = index into files */
    nr__ufile *files;
    size_t nfiles, files_cap;
    size_t *order;                /* new file id -> union index */
    size_t nassigned, order_cap;
    nr_buf scratch;               /* a qualified path being built */
    nr__phase_row *phase_rows;    /* every part's phases, in the new order */
    size_t nphase_rows;
    uint64_t events;
    uint64_t rows_done, rows_total; /* of events, pyio, marks and waits, for opts.progress */
    nr_store_writer *w;
    nr_table_writer *t_events, *t_files, *t_processes, *t_diag, *t_meta, *t_phases, *t_pyio, *t_marks, *t_waits;
} nr__merge;

int nr__cursor_open(nr__cursor *c, const nr__part *p, const nr_table_def *def, nr_error *err);
/* 1 when a row is ready, 0 at the end, negative on damage. */
int nr__cursor_ready(nr__cursor *c, const nr__part *p, nr_error *err);
void nr__cursor_row(const nr__cursor *c, nr__row *r);
void nr__cursor_fini(nr__cursor *c);
int nr__write_row(nr_table_writer *t, const nr_table_def *def, const nr__row *r, nr_error *err);

/* pid or tid v of part p in the merged run (-1 stays -1). */
int nr__merge_qualify(const nr__merge *m, const nr__part *p, int64_t *v, nr_error *err);
/* phase_id v of part p in the merged run (-1 stays -1). */
int nr__merge_phase(const nr__part *p, int64_t *v, nr_error *err);

int nr__merge_read_meta(nr__merge *m, nr__part *p, nr_error *err);
int nr__merge_load_phases(nr__merge *m, nr_error *err);
int nr__merge_write_phases(nr__merge *m, nr_error *err);
int nr__merge_write_diagnostics(nr__merge *m, nr_error *err);
int nr__merge_write_meta(nr__merge *m, nr_error *err);

#endif
