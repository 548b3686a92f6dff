/* ingest_check: runs nr_ingest_run on handwritten logs and reads the store
 * back through the store reader, for known-answer tests. */
#ifndef INGEST_CHECK_H
#define INGEST_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"
#include "nr_ingest.h"

typedef struct ck_table {
    size_t ncols, nrows;
    char **names;        /* column names */
    int *is_str;
    int64_t **i64;       /* [col][row] */
    char ***str;         /* [col][row] */
} ck_table;

typedef struct ck_run {
    int rc;
    nr_error err;
    nr_ingest_stats stats;
    ck_table events, files, processes, diagnostics, meta, phases, pyio, marks;
    char dir[256];       /* temporary run dir */
} ck_run;

/* Makes a fresh temporary directory; returns its path (static storage per call site copy). */
void ck_tmpdir(char *out, size_t cap);
/* Clears r, makes its temporary directory and in it an empty run
 * directory, whose path goes to run (cap bytes). */
void ck_run_dir(ck_run *r, char *run, size_t cap);
/* Writes text to dir/name. */
void ck_write(const char *dir, const char *name, const char *text);
/* Writes log_text as dir/strace.log of a new run dir and ingests it. */
void ck_ingest_text(ck_run *r, const char *log_text, const char *start_cwd);
/* Ingests input (run dir or log) into r->dir/out.nio (r->dir must exist). */
void ck_ingest(ck_run *r, const char *input, const char *start_cwd);
void ck_free(ck_run *r);
/* 1 when the stores of a and b (their dir/out.nio) are byte for byte the
 * same and larger than 100 bytes, else 0. */
int ck_same_store(const ck_run *a, const ck_run *b);

/* Column lookups; abort (test failure) when the column is missing. */
int64_t ck_i64(const ck_table *t, size_t row, const char *col);
const char *ck_str(const ck_table *t, size_t row, const char *col);
/* Row of table files whose path is path, or -1. */
long ck_file_row(const ck_run *r, const char *path);
/* Value of a files column for path; aborts when the file is missing. */
int64_t ck_file(const ck_run *r, const char *path, const char *col);
/* Value of meta key, or NULL. */
const char *ck_meta(const ck_run *r, const char *key);
/* Count of a diagnostics reason (0 when absent). */
int64_t ck_diag(const ck_run *r, const char *reason);
/* Row of table processes for tid, or -1. */
long ck_proc_row(const ck_run *r, int64_t tid);
/* The n-th (0-based) event named syscall, or -1. */
long ck_event_row(const ck_run *r, const char *syscall, unsigned nth);
/* Path of the file an event's file_id column (col) refers to ("" for -1). */
const char *ck_event_path(const ck_run *r, long row, const char *col);

#endif
