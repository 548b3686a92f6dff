/* niorep info RUN.nio: what a store holds (tables, columns, sizes and
 * compression), then the ingest facts of its `meta` table and the reasons
 * and examples of its `diagnostics` table. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nr_schema.h"
#include "nr_store.h"
#include "nr_store_merge.h"
#include "print_text.h"

enum { EXAMPLES_PER_REASON = 3 };

static const char info_options[] =
    "  --check             also read every chunk of every table and verify its checksum\n"
    "                      (without it: the header, footer, meta and diagnostics only)\n"
    "  -h, --help          show this help\n";

static void print_ratio(FILE *out, uint64_t raw, uint64_t disk)
{
    if (disk == 0)
        fprintf(out, "%8s", "-");
    else
        fprintf(out, "%8.2f", (double)raw / (double)disk);
}

/* Prints one table's columns; adds its sizes to *disk and *raw. */
static void print_table(FILE *out, const nr_store_table *t, uint64_t *disk, uint64_t *raw)
{
    size_t rgs = nr_store_table_rowgroups(t);
    fprintf(out, "\ntable %s: %" PRIu64 " row%s, %zu row group%s\n", nr_store_table_name(t),
            nr_store_table_rows(t), nr_store_table_rows(t) == 1 ? "" : "s", rgs, rgs == 1 ? "" : "s");
    fprintf(out, "  %-20s %-4s %-13s %12s %12s %8s\n", "column", "type", "encoding", "on disk", "raw", "ratio");
    uint64_t tdisk = 0, traw = 0;
    for (size_t c = 0; c < nr_store_table_ncols(t); c++) {
        nr_col_info ci;
        nr_store_col_info(t, c, &ci);
        fprintf(out, "  %-20s %-4s %-13s %12" PRIu64 " %12" PRIu64 " ", ci.name, nr_col_type_name(ci.type),
                nr_col_encoding_name(ci.encoding), ci.disk_bytes, ci.raw_bytes);
        print_ratio(out, ci.raw_bytes, ci.disk_bytes);
        fputc('\n', out);
        tdisk += ci.disk_bytes;
        traw += ci.raw_bytes;
    }
    fprintf(out, "  %-20s %-4s %-13s %12" PRIu64 " %12" PRIu64 " ", "(table)", "", "", tdisk, traw);
    print_ratio(out, traw, tdisk);
    fputc('\n', out);
    *disk += tdisk;
    *raw += traw;
}

/* Reads every row group of the named columns of t; calls row() per row.
 * Returns 0 or a negative code with err set. */
typedef void (*row_fn)(FILE *out, const nr_col_chunk *cols, size_t k, void *ctx);

static int for_each_row(const nr_store_table *t, const char *const *names, size_t ncols,
                        row_fn row, FILE *out, void *ctx, nr_error *err)
{
    nr_col_chunk chunks[8];
    int idx[8];
    for (size_t c = 0; c < ncols; c++) {
        idx[c] = nr_store_col_index(t, names[c]);
        if (idx[c] < 0)
            return nr_error_set(err, NR_E_FORMAT, "table '%s' lacks column '%s'", nr_store_table_name(t), names[c]);
        nr_col_chunk_init(&chunks[c]);
    }
    int rc = 0;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t) && rc == 0; rg++) {
        for (size_t c = 0; c < ncols && rc == 0; c++)
            rc = nr_store_read_chunk(t, (size_t)idx[c], rg, &chunks[c], err);
        for (size_t k = 0; rc == 0 && k < chunks[0].n; k++)
            row(out, chunks, k, ctx);
    }
    for (size_t c = 0; c < ncols; c++)
        nr_col_chunk_fini(&chunks[c]);
    return rc;
}

static void print_meta_row(FILE *out, const nr_col_chunk *cols, size_t k, void *ctx)
{
    fputs("  ", out);
    nr_cli_print_text(out, cols[0].str[k], cols[0].str_len[k]);
    fputs(" = ", out);
    nr_cli_print_text(out, cols[1].str[k], cols[1].str_len[k]);
    fputc('\n', out);
}

/* Rows of one reason are consecutive; the reason and count print once. */
typedef struct diag_state {
    char last_reason[256];
    int examples;
} diag_state;

static void print_diag_row(FILE *out, const nr_col_chunk *cols, size_t k, void *ctx)
{
    diag_state *st = ctx;
    const char *reason = cols[0].str[k];
    if (strcmp(reason, st->last_reason) != 0) {
        snprintf(st->last_reason, sizeof st->last_reason, "%s", reason);
        st->examples = 0;
        fputs("  ", out);
        nr_cli_print_text(out, reason, cols[0].str_len[k]);
        /* a note is no skipped line: the skipped lines' counts add up to
           meta lines_skipped, the notes' do not (review 46) */
        fprintf(out, ": %" PRId64 "%s\n", cols[1].i64[k],
                nr_diag_reason_kind(reason) == NR_DIAG_NOTE ? " (note)" : "");
    }
    if (st->examples++ >= EXAMPLES_PER_REASON)
        return;
    fputs("    ", out);
    nr_cli_print_text(out, cols[2].str[k], cols[2].str_len[k]);
    if (cols[3].i64[k] > 0)
        fprintf(out, ":%" PRId64, cols[3].i64[k]);
    if (cols[2].str_len[k] || cols[3].i64[k] > 0) /* a note of the whole run names no file */
        fputs(": ", out);
    nr_cli_print_text(out, cols[4].str[k], cols[4].str_len[k]);
    fputc('\n', out);
}

static int print_facts(FILE *out, const nr_store *s, nr_error *err)
{
    const nr_store_table *meta = nr_store_find_table(s, "meta");
    fprintf(out, "\nmeta:%s\n", meta && nr_store_table_rows(meta) ? "" : " (none)");
    if (meta) {
        static const char *const cols[] = {"key", "value"};
        NR_TRY(for_each_row(meta, cols, 2, print_meta_row, out, NULL, err));
    }
    const nr_store_table *diag = nr_store_find_table(s, "diagnostics");
    fprintf(out, "\ndiagnostics:%s\n", diag && nr_store_table_rows(diag) ? "" : " (none)");
    if (diag) {
        static const char *const cols[] = {"reason", "count", "file", "line", "example"};
        diag_state st = {.last_reason = "", .examples = 0};
        st.last_reason[0] = '\x01'; /* matches no reason: the first row prints its header */
        NR_TRY(for_each_row(diag, cols, 5, print_diag_row, out, &st, err));
    }
    return 0;
}

/* Reads every chunk of s (its checksum verified by the read); adds their
 * number to *chunks. Until session 48 no command checked a whole store,
 * and info said nothing of a damaged chunk its description did not read
 * (review 48). */
static int check_chunks(const nr_store *s, uint64_t *chunks, nr_error *err)
{
    nr_col_chunk c;
    nr_col_chunk_init(&c);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < nr_store_table_count(s); i++) {
        const nr_store_table *t = nr_store_table_at(s, i);
        for (size_t rg = 0; rc == 0 && rg < nr_store_table_rowgroups(t); rg++)
            for (size_t col = 0; rc == 0 && col < nr_store_table_ncols(t); col++, ++*chunks)
                rc = nr_store_read_chunk(t, col, rg, &c, err);
    }
    nr_col_chunk_fini(&c);
    return rc;
}

/* The header's version against meta format_version, which every store
 * niorep writes holds (a test store may lack it): a damaged version field
 * that names another supported version opens, and a store whose chunks
 * use no transform of the later versions even reads (review 50). */
static int check_version(const nr_store *s, const char *path, nr_error *err)
{
    char *meta;
    NR_TRY(nr_store_meta_value(s, "format_version", &meta, err));
    const uint32_t header = nr_store_format_version(s);
    int rc = 0;
    if (meta && nr_meta_value_i64(meta, -1) != (int64_t)header)
        rc = nr_error_set(err, NR_E_FORMAT,
                          "%s: offset 8: the header says format version %u but meta format_version is '%s' "
                          "(a damaged header?)",
                          path, header, meta);
    free(meta);
    return rc;
}

static int print_info(FILE *out, const char *path, int check, nr_error *err)
{
    nr_store *s;
    NR_TRY(nr_store_open(path, &s, err));
    const int bad_version = check_version(s, path, err);
    if (bad_version < 0) {
        nr_store_close(s);
        return bad_version;
    }
    fprintf(out, "store: %s\nformat version: %u\nfile size: %" PRIu64 " bytes\ntables: %zu\n", path,
            nr_store_format_version(s), nr_store_file_size(s), nr_store_table_count(s));
    uint64_t disk = 0, raw = 0;
    for (size_t i = 0; i < nr_store_table_count(s); i++)
        print_table(out, nr_store_table_at(s, i), &disk, &raw);
    fprintf(out, "\nall chunks: %" PRIu64 " bytes on disk, %" PRIu64 " raw, ratio ", disk, raw);
    if (disk)
        fprintf(out, "%.2f\n", (double)raw / (double)disk);
    else
        fprintf(out, "-\n");
    int rc = print_facts(out, s, err);
    uint64_t chunks = 0;
    if (rc == 0 && check && (rc = check_chunks(s, &chunks, err)) == 0)
        fprintf(out, "\ncheck: all %" PRIu64 " chunks read, every checksum verified\n", chunks);
    if (rc < 0 && err->code == NR_E_FORMAT && !strstr(err->msg, path)) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        nr_error_set(err, rc, "%s: %s", path, msg);
    }
    nr_store_close(s);
    return rc;
}

int nr_cmd_info(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"check", no_argument, NULL, 'c'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int check = 0;
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1;) {
        switch (c) {
        case 'c': check = 1; break;
        case 'h': nr_cli_help(nr_cli_find("info"), info_options, stdout); return 0;
        default: return nr_cli_bad_option("info", c, argv);
        }
    }
    if (optind != argc - 1)
        return nr_cli_usage("info", "expected one RUN.nio, got %d arguments", argc - optind);
    /* Everything is composed in memory first, so a damaged store prints only the error. */
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        nr_error err = {.code = NR_E_NOMEM, .msg = "info: out of memory"};
        return nr_cli_fail(&err);
    }
    nr_error err;
    nr_error_clear(&err);
    int rc = print_info(mem, argv[optind], check, &err);
    fclose(mem);
    /* a write that fails fails in fwrite itself (a large one bypasses the
       buffer) or in the flush: until session 48 only the flush was looked
       at, and info > /dev/full exited 0 without a word (review 48) */
    errno = 0;
    if (rc == 0 && (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0))
        rc = nr_error_errno(&err, NR_E_IO, errno ? errno : EIO, "info: cannot write to standard output");
    free(text);
    return rc < 0 ? nr_cli_fail(&err) : 0;
}
