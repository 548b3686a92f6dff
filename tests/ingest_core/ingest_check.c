#include "ingest_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nr_store.h"

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "ingest_check: %s: %s\n", what, detail);
    abort();
}

void ck_tmpdir(char *out, size_t cap)
{
    const char *base = getenv("NR_BINARY_DIR");
    snprintf(out, cap, "%s/ingest_core_XXXXXX", base ? base : "/tmp");
    if (!mkdtemp(out))
        die("mkdtemp", out);
}

void ck_run_dir(ck_run *r, char *run, size_t cap)
{
    memset(r, 0, sizeof *r);
    ck_tmpdir(r->dir, sizeof r->dir);
    snprintf(run, cap, "%s/run", r->dir);
    if (mkdir(run, 0700) != 0)
        die("mkdir", run);
}

void ck_write(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        die("cannot write", path);
    fwrite(text, 1, strlen(text), f);
    fclose(f);
}

static void read_table(const nr_store *s, const char *name, ck_table *out)
{
    memset(out, 0, sizeof *out);
    const nr_store_table *t = nr_store_find_table(s, name);
    if (!t)
        die("missing table", name);
    out->ncols = nr_store_table_ncols(t);
    out->nrows = (size_t)nr_store_table_rows(t);
    out->names = calloc(out->ncols, sizeof *out->names);
    out->is_str = calloc(out->ncols, sizeof *out->is_str);
    out->i64 = calloc(out->ncols, sizeof *out->i64);
    out->str = calloc(out->ncols, sizeof *out->str);
    nr_col_chunk c;
    nr_col_chunk_init(&c);
    for (size_t col = 0; col < out->ncols; col++) {
        nr_col_info info;
        nr_store_col_info(t, col, &info);
        out->names[col] = strdup(info.name);
        out->is_str[col] = info.type == NR_COL_STR;
        if (out->is_str[col])
            out->str[col] = calloc(out->nrows + 1, sizeof(char *));
        else
            out->i64[col] = calloc(out->nrows + 1, sizeof(int64_t));
        size_t row = 0;
        for (size_t rg = 0; rg < nr_store_table_rowgroups(t); rg++) {
            nr_error err;
            if (nr_store_read_chunk(t, col, rg, &c, &err) < 0)
                die("read chunk", err.msg);
            for (size_t i = 0; i < c.n; i++, row++) {
                if (out->is_str[col])
                    out->str[col][row] = strdup(c.str[i]);
                else
                    out->i64[col][row] = c.i64[i];
            }
        }
    }
    nr_col_chunk_fini(&c);
}

static void free_table(ck_table *t)
{
    for (size_t col = 0; col < t->ncols; col++) {
        free(t->names[col]);
        if (t->str[col])
            for (size_t r = 0; r < t->nrows; r++)
                free(t->str[col][r]);
        free(t->str[col]);
        free(t->i64[col]);
    }
    free(t->names);
    free(t->is_str);
    free(t->i64);
    free(t->str);
    memset(t, 0, sizeof *t);
}

static void free_tables(ck_run *r);

void ck_ingest(ck_run *r, const char *input, const char *start_cwd)
{
    free_tables(r); /* a second ingest into the same run replaces the first */
    char out[512];
    snprintf(out, sizeof out, "%s/out.nio", r->dir);
    nr_ingest_opts opts = {.start_cwd = start_cwd};
    nr_error_clear(&r->err);
    memset(&r->stats, 0, sizeof r->stats);
    r->rc = nr_ingest_run(input, out, &opts, &r->stats, &r->err);
    if (r->rc < 0)
        return;
    nr_store *s;
    nr_error err;
    if (nr_store_open(out, &s, &err) < 0)
        die("open store", err.msg);
    read_table(s, "events", &r->events);
    read_table(s, "files", &r->files);
    read_table(s, "processes", &r->processes);
    read_table(s, "diagnostics", &r->diagnostics);
    read_table(s, "meta", &r->meta);
    read_table(s, "phases", &r->phases);
    read_table(s, "pyio", &r->pyio);
    read_table(s, "marks", &r->marks);
    nr_store_close(s);
}

void ck_ingest_text(ck_run *r, const char *log_text, const char *start_cwd)
{
    memset(r, 0, sizeof *r);
    ck_tmpdir(r->dir, sizeof r->dir);
    char logdir[300];
    snprintf(logdir, sizeof logdir, "%s/run", r->dir);
    mkdir(logdir, 0700);
    ck_write(logdir, "strace.log", log_text);
    ck_ingest(r, logdir, start_cwd);
}

int ck_same_store(const ck_run *a, const ck_run *b)
{
    char pa[300], pb[300];
    snprintf(pa, sizeof pa, "%s/out.nio", a->dir);
    snprintf(pb, sizeof pb, "%s/out.nio", b->dir);
    FILE *fa = fopen(pa, "rb"), *fb = fopen(pb, "rb");
    if (!fa || !fb)
        die("open store", !fa ? pa : pb);
    int ca, cb;
    long n = 0;
    do {
        ca = fgetc(fa);
        cb = fgetc(fb);
        n++;
    } while (ca == cb && ca != EOF);
    fclose(fa);
    fclose(fb);
    return ca == cb && n > 100;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

static void free_tables(ck_run *r)
{
    free_table(&r->events);
    free_table(&r->files);
    free_table(&r->processes);
    free_table(&r->diagnostics);
    free_table(&r->meta);
    free_table(&r->phases);
    free_table(&r->pyio);
    free_table(&r->marks);
}

void ck_free(ck_run *r)
{
    if (r->dir[0] && !getenv("NR_KEEP_TMP"))
        nftw(r->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free_tables(r);
}

static size_t col_index(const ck_table *t, const char *col)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (strcmp(t->names[i], col) == 0)
            return i;
    die("no column", col);
    return 0;
}

int64_t ck_i64(const ck_table *t, size_t row, const char *col)
{
    size_t c = col_index(t, col);
    if (row >= t->nrows || t->is_str[c])
        die("bad i64 cell", col);
    return t->i64[c][row];
}

const char *ck_str(const ck_table *t, size_t row, const char *col)
{
    size_t c = col_index(t, col);
    if (row >= t->nrows || !t->is_str[c])
        die("bad str cell", col);
    return t->str[c][row];
}

long ck_file_row(const ck_run *r, const char *path)
{
    for (size_t i = 0; i < r->files.nrows; i++)
        if (strcmp(ck_str(&r->files, i, "path"), path) == 0)
            return (long)i;
    return -1;
}

int64_t ck_file(const ck_run *r, const char *path, const char *col)
{
    long row = ck_file_row(r, path);
    if (row < 0) {
        for (size_t i = 0; i < r->files.nrows; i++)
            fprintf(stderr, "  file %zu: %s\n", i, ck_str(&r->files, i, "path"));
        die("no file", path);
    }
    return ck_i64(&r->files, (size_t)row, col);
}

const char *ck_meta(const ck_run *r, const char *key)
{
    for (size_t i = 0; i < r->meta.nrows; i++)
        if (strcmp(ck_str(&r->meta, i, "key"), key) == 0)
            return ck_str(&r->meta, i, "value");
    return NULL;
}

int64_t ck_diag(const ck_run *r, const char *reason)
{
    for (size_t i = 0; i < r->diagnostics.nrows; i++)
        if (strcmp(ck_str(&r->diagnostics, i, "reason"), reason) == 0)
            return ck_i64(&r->diagnostics, i, "count");
    return 0;
}

long ck_proc_row(const ck_run *r, int64_t tid)
{
    for (size_t i = 0; i < r->processes.nrows; i++)
        if (ck_i64(&r->processes, i, "tid") == tid)
            return (long)i;
    return -1;
}

long ck_event_row(const ck_run *r, const char *syscall, unsigned nth)
{
    for (size_t i = 0; i < r->events.nrows; i++)
        if (strcmp(ck_str(&r->events, i, "syscall"), syscall) == 0 && nth-- == 0)
            return (long)i;
    return -1;
}

const char *ck_event_path(const ck_run *r, long row, const char *col)
{
    if (row < 0)
        die("no such event", col);
    int64_t id = ck_i64(&r->events, (size_t)row, col);
    if (id < 0)
        return "";
    for (size_t i = 0; i < r->files.nrows; i++)
        if (ck_i64(&r->files, i, "file_id") == id)
            return ck_str(&r->files, i, "path");
    die("dangling file id", col);
    return "";
}
