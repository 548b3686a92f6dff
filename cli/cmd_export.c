/* niorep export RUN.nio --table NAME [--format csv|jsonl] [-o FILE]: one table
 * as CSV (RFC 4180 quoting, header row) or JSON lines, for humans and
 * scripts. Codes with names are exported as names (events.op_class,
 * files.kind). Escaping rules: docs/export-format.md. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nr_mem.h"
#include "nr_outfile.h"
#include "nr_schema.h"
#include "nr_store.h"
#include "nr_utf8.h"

static const char export_options[] =
    "  -t, --table NAME     the table to write (required)\n"
    "  -f, --format FMT     csv (default) or jsonl\n"
    "  -o, --output FILE    write to FILE atomically (default, or -: standard output)\n"
    "  -h, --help           show this help\n";

typedef enum export_format { FORMAT_CSV, FORMAT_JSONL } export_format;

/* A column whose integer codes are exported as names. */
typedef const char *(*code_namer)(int code);

/* Where rows go: a buffer flushed to an atomic output file or to stdout. */
typedef struct sink {
    nr_buf buf;
    nr_outfile *file; /* NULL: stdout */
} sink;

static int sink_flush(sink *k, nr_error *err)
{
    int rc = 0;
    if (k->file)
        rc = nr_outfile_write(k->file, k->buf.data, k->buf.len, err);
    else if (k->buf.len && fwrite(k->buf.data, 1, k->buf.len, stdout) != k->buf.len)
        rc = nr_error_errno(err, NR_E_IO, errno ? errno : EIO, "export: cannot write to standard output");
    k->buf.len = 0;
    return rc;
}

static int put(sink *k, const void *p, size_t n)
{
    return nr_buf_put(&k->buf, p, n);
}

static int put_str(sink *k, const char *s)
{
    return put(k, s, strlen(s));
}

/* A JSON string: valid UTF-8 as is; '"', control characters as JSON escapes;
 * a backslash as \\\\ and an invalid byte NN as \\xNN in the decoded text, so
 * that the original bytes are recoverable (docs/export-format.md). */
static int put_json_string(sink *k, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    NR_TRY(put(k, "\"", 1));
    for (size_t i = 0; i < n;) {
        size_t len = nr_utf8_len_within(p + i, n - i);
        unsigned char b = p[i];
        char esc[8];
        if (len == 0) {
            char x[6] = {'\\', '\\', 'x', hex[b >> 4], hex[b & 15], 0};
            NR_TRY(put(k, x, 5));
            i++;
            continue;
        }
        if (b == '\\')
            NR_TRY(put(k, "\\\\\\\\", 4));
        else if (b == '"')
            NR_TRY(put(k, "\\\"", 2));
        else if (b == '\n')
            NR_TRY(put(k, "\\n", 2));
        else if (b == '\t')
            NR_TRY(put(k, "\\t", 2));
        else if (b == '\r')
            NR_TRY(put(k, "\\r", 2));
        else if (b < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", b);
            NR_TRY(put(k, esc, 6));
        } else
            NR_TRY(put(k, p + i, len));
        i += len;
    }
    return put(k, "\"", 1);
}

/* A CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF,
 * quotes doubled; every other byte as it is. */
static int put_csv_field(sink *k, const char *s, size_t n)
{
    if (!memchr(s, ',', n) && !memchr(s, '"', n) && !memchr(s, '\n', n) && !memchr(s, '\r', n))
        return put(k, s, n);
    NR_TRY(put(k, "\"", 1));
    for (const char *q; (q = memchr(s, '"', n)); n -= (size_t)(q + 1 - s), s = q + 1) {
        NR_TRY(put(k, s, (size_t)(q + 1 - s)));
        NR_TRY(put(k, "\"", 1));
    }
    NR_TRY(put(k, s, n));
    return put(k, "\"", 1);
}

static int put_field(sink *k, export_format fmt, const char *s, size_t n)
{
    return fmt == FORMAT_CSV ? put_csv_field(k, s, n) : put_json_string(k, s, n);
}

/* The namer for column `col` of table `table`, or NULL. */
static code_namer namer_for(const char *table, const char *col)
{
    if (strcmp(table, "events") == 0 && strcmp(col, "op_class") == 0)
        return nr_op_class_name;
    if (strcmp(table, "files") == 0 && strcmp(col, "kind") == 0)
        return nr_file_kind_name;
    return NULL;
}

typedef struct export_job {
    const nr_store_table *t;
    export_format fmt;
    size_t ncols;
    nr_col_info *info;
    code_namer *namers;
    nr_col_chunk *chunks;
} export_job;

static int put_header(sink *k, const export_job *j)
{
    if (j->fmt != FORMAT_CSV)
        return 0;
    for (size_t c = 0; c < j->ncols; c++) {
        if (c)
            NR_TRY(put(k, ",", 1));
        NR_TRY(put_csv_field(k, j->info[c].name, strlen(j->info[c].name)));
    }
    return put(k, "\n", 1);
}

static int put_value(sink *k, const export_job *j, size_t c, size_t row)
{
    const nr_col_chunk *ch = &j->chunks[c];
    if (j->info[c].type == NR_COL_STR)
        return put_field(k, j->fmt, ch->str[row], ch->str_len[row]);
    int64_t v = ch->i64[row];
    if (j->namers[c]) {
        const char *name = j->namers[c](v < INT32_MIN || v > INT32_MAX ? -1 : (int)v);
        return put_field(k, j->fmt, name, strlen(name));
    }
    char num[24];
    int n = snprintf(num, sizeof num, "%" PRId64, v);
    return put(k, num, (size_t)n);
}

static int put_row(sink *k, const export_job *j, size_t row)
{
    for (size_t c = 0; c < j->ncols; c++) {
        if (j->fmt == FORMAT_JSONL) {
            NR_TRY(put(k, c ? ", " : "{", c ? 2 : 1));
            NR_TRY(put_json_string(k, j->info[c].name, strlen(j->info[c].name)));
            NR_TRY(put(k, ": ", 2));
        } else if (c) {
            NR_TRY(put(k, ",", 1));
        }
        NR_TRY(put_value(k, j, c, row));
    }
    return put_str(k, j->fmt == FORMAT_JSONL ? "}\n" : "\n");
}

static int export_rows(sink *k, export_job *j, nr_error *err)
{
    int rc = put_header(k, j);
    for (size_t rg = 0; rc == 0 && rg < nr_store_table_rowgroups(j->t); rg++) {
        for (size_t c = 0; c < j->ncols; c++)
            NR_TRY(nr_store_read_chunk(j->t, c, rg, &j->chunks[c], err));
        for (size_t row = 0; rc == 0 && row < j->chunks[0].n; row++)
            rc = put_row(k, j, row);
        if (rc == 0)
            rc = sink_flush(k, err);
    }
    if (rc == 0)
        rc = sink_flush(k, err);
    if (rc < 0 && !err->msg[0])
        nr_error_set(err, rc, "export: %s", nr_error_name(rc));
    return rc;
}

static int export_table(const nr_store_table *t, export_format fmt, sink *k, nr_error *err)
{
    export_job j = {.t = t, .fmt = fmt, .ncols = nr_store_table_ncols(t)};
    j.info = calloc(j.ncols, sizeof *j.info);
    j.namers = calloc(j.ncols, sizeof *j.namers);
    j.chunks = calloc(j.ncols, sizeof *j.chunks);
    int rc = 0;
    if (!j.info || !j.namers || !j.chunks)
        rc = nr_error_set(err, NR_E_NOMEM, "export: out of memory");
    for (size_t c = 0; rc == 0 && c < j.ncols; c++) {
        nr_store_col_info(t, c, &j.info[c]);
        if (j.info[c].type == NR_COL_I64)
            j.namers[c] = namer_for(nr_store_table_name(t), j.info[c].name);
        nr_col_chunk_init(&j.chunks[c]);
    }
    if (rc == 0)
        rc = export_rows(k, &j, err);
    for (size_t c = 0; j.chunks && c < j.ncols; c++)
        nr_col_chunk_fini(&j.chunks[c]);
    free(j.info);
    free(j.namers);
    free(j.chunks);
    return rc;
}

static int fail_unknown_table(const nr_store *s, const char *path, const char *name)
{
    nr_error err = {.code = NR_E_NOTFOUND};
    int n = snprintf(err.msg, sizeof err.msg, "%s: no table '%s'; tables:", path, name);
    for (size_t i = 0; i < nr_store_table_count(s) && n > 0 && (size_t)n < sizeof err.msg; i++)
        n += snprintf(err.msg + n, sizeof err.msg - (size_t)n, "%s %s", i ? "," : "",
                      nr_store_table_name(nr_store_table_at(s, i)));
    return nr_cli_fail(&err);
}

static int run_export(const char *path, const char *table, export_format fmt, const char *out_path)
{
    nr_error err;
    nr_error_clear(&err);
    nr_store *s;
    if ((out_path && nr_outfile_check_inputs(out_path, &path, 1, &err) < 0) || nr_store_open(path, &s, &err) < 0)
        return nr_cli_fail(&err);
    const nr_store_table *t = nr_store_find_table(s, table);
    if (!t) {
        int status = fail_unknown_table(s, path, table);
        nr_store_close(s);
        return status;
    }
    nr_outfile file = {.fd = -1};
    sink k = {.file = out_path ? &file : NULL};
    nr_buf_init(&k.buf);
    int rc = out_path ? nr_outfile_open(&file, out_path, &err) : 0;
    if (rc == 0)
        rc = export_table(t, fmt, &k, &err);
    if (rc == 0 && out_path)
        rc = nr_outfile_commit(&file, &err);
    else if (rc == 0 && fflush(stdout) != 0)
        rc = nr_error_errno(&err, NR_E_IO, errno ? errno : EIO, "export: cannot write to standard output");
    if (out_path)
        nr_outfile_abort(&file);
    nr_buf_fini(&k.buf);
    nr_store_close(s);
    return rc < 0 ? nr_cli_fail(&err) : 0;
}

int nr_cmd_export(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"table", required_argument, NULL, 't'}, {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *table = NULL, *out = NULL;
    export_format fmt = FORMAT_CSV;
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, ":t:f:o:h", longopts, NULL)) != -1;) {
        switch (c) {
        case 't':
            /* one table a call: until session 49 the last -t won silently */
            if (table && strcmp(table, optarg) != 0)
                return nr_cli_usage("export", "one --table a call, got '%s' and '%s'", table, optarg);
            table = optarg;
            break;
        case 'o': out = strcmp(optarg, "-") == 0 ? NULL : optarg; break; /* until session 48 a file named '-' */
        case 'f':
            if (strcmp(optarg, "csv") == 0)
                fmt = FORMAT_CSV;
            else if (strcmp(optarg, "jsonl") == 0)
                fmt = FORMAT_JSONL;
            else
                return nr_cli_usage("export", "--format expects csv or jsonl, got '%s'", optarg);
            break;
        case 'h': nr_cli_help(nr_cli_find("export"), export_options, stdout); return 0;
        default: return nr_cli_bad_option("export", c, argv);
        }
    }
    if (optind != argc - 1)
        return nr_cli_usage("export", "expected one RUN.nio, got %d arguments", argc - optind);
    if (!table)
        return nr_cli_usage("export", "missing --table NAME");
    return run_export(argv[optind], table, fmt, out);
}
