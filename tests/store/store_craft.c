/* Copies a store with one change, checksums valid: the crafted stores of the
 * model's refusal tests (review 50 made them with a Python writer). The copy
 * is written by today's writer with plain column definitions (no base or
 * key transforms); its values are those of IN but for the change.
 *
 * usage: store_craft IN OUT CHANGE
 *   copy                       no change
 *   drop-table T               leaves table T out
 *   drop-col T C               leaves column C of table T out
 *   set T C EVERY V            sets I64 column C to V in rows 0, EVERY, 2*EVERY, ...
 *   str T C                    stores I64 column C of table T as strings (its decimal values)
 *   meta K V                   sets meta key K to V (a row added if K is absent) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nr_store.h"

static void die(const nr_error *err)
{
    fprintf(stderr, "store_craft: %s\n", err->msg);
    exit(1);
}

static int is(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/* The table definitions the writer borrows until the commit, freed after it. */
static void *borrowed[64];
static size_t n_borrowed;

static void *lend(void *p)
{
    if (!p || n_borrowed == sizeof borrowed / sizeof *borrowed) {
        fprintf(stderr, "store_craft: out of memory or too many tables\n");
        exit(1);
    }
    return borrowed[n_borrowed++] = p;
}

/* Copies table t of in to w, applying the change named by argv[3..]. */
static void copy_table(const nr_store_table *t, nr_store_writer *w, char **argv, int argc)
{
    const char *op = argv[3], *tname = nr_store_table_name(t);
    if (is(op, "drop-table") && is(argv[4], tname))
        return;
    const size_t ncols = nr_store_table_ncols(t);
    nr_col_def *defs = lend(calloc(ncols ? ncols : 1, sizeof *defs));
    size_t *src = calloc(ncols, sizeof *src);
    int *was_i64 = calloc(ncols, sizeof *was_i64);
    size_t nout = 0;
    for (size_t c = 0; c < ncols; c++) {
        nr_col_info info;
        nr_store_col_info(t, c, &info);
        if (is(op, "drop-col") && is(argv[4], tname) && is(argv[5], info.name))
            continue;
        was_i64[nout] = info.type == NR_COL_I64;
        if (is(op, "str") && is(argv[4], tname) && is(argv[5], info.name))
            info.type = NR_COL_STR; /* written from the decimal text of the I64 values */
        defs[nout] = (nr_col_def){.name = info.name, .type = info.type,
                                  .encoding = info.type == NR_COL_STR ? NR_ENC_DICT : NR_ENC_VARINT};
        src[nout++] = c;
    }
    nr_table_def *def = lend(malloc(sizeof *def));
    *def = (nr_table_def){.name = tname, .cols = defs, .ncols = nout};
    nr_error err = {0};
    nr_table_writer *tw;
    if (nr_store_writer_add_table(w, def, &tw, &err) < 0)
        die(&err);
    nr_col_chunk *chunks = calloc(nout, sizeof *chunks);
    for (size_t c = 0; c < nout; c++)
        nr_col_chunk_init(&chunks[c]);
    const int set = is(op, "set") && is(argv[4], tname);
    const long every = set ? atol(argv[6]) : 0;
    const long long value = set ? atoll(argv[7]) : 0;
    const int meta = is(op, "meta") && is(tname, "meta") && argc == 6;
    int found = 0;
    uint64_t row = 0;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t); rg++) {
        for (size_t c = 0; c < nout; c++)
            if (nr_store_read_chunk(t, src[c], rg, &chunks[c], &err) < 0)
                die(&err);
        for (size_t r = 0; r < chunks[0].n; r++, row++) {
            const int key = meta && nout == 2 && is(chunks[0].str[r], argv[4]);
            found |= key;
            for (size_t c = 0; c < nout; c++) {
                char text[32];
                if (key && c == 1)
                    nr_table_set_str(tw, c, argv[5], strlen(argv[5]));
                else if (defs[c].type == NR_COL_STR && was_i64[c]) /* an I64 column made str */
                    nr_table_set_str(tw, c, text,
                                     (size_t)snprintf(text, sizeof text, "%lld", (long long)chunks[c].i64[r]));
                else if (defs[c].type == NR_COL_STR)
                    nr_table_set_str(tw, c, chunks[c].str[r], chunks[c].str_len[r]);
                else if (set && is(argv[5], defs[c].name) && every > 0 && row % (uint64_t)every == 0)
                    nr_table_set_i64(tw, c, (int64_t)value);
                else
                    nr_table_set_i64(tw, c, chunks[c].i64[r]);
            }
            if (nr_table_end_row(tw, &err) < 0)
                die(&err);
        }
    }
    if (meta && !found) { /* an absent key is added as a last row */
        nr_table_set_str(tw, 0, argv[4], strlen(argv[4]));
        nr_table_set_str(tw, 1, argv[5], strlen(argv[5]));
        if (nr_table_end_row(tw, &err) < 0)
            die(&err);
    }
    for (size_t c = 0; c < nout; c++)
        nr_col_chunk_fini(&chunks[c]);
    free(chunks);
    free(src);
    free(was_i64);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: store_craft IN OUT copy|drop-table T|drop-col T C|set T C EVERY V|str T C|meta K V\n");
        return 2;
    }
    nr_error err = {0};
    nr_store *in;
    nr_store_writer *w;
    if (nr_store_open(argv[1], &in, &err) < 0 || nr_store_writer_create(argv[2], &w, &err) < 0)
        die(&err);
    for (size_t i = 0; i < nr_store_table_count(in); i++)
        copy_table(nr_store_table_at(in, i), w, argv, argc);
    if (nr_store_writer_commit(w, &err) < 0)
        die(&err);
    nr_store_writer_destroy(w);
    nr_store_close(in);
    while (n_borrowed)
        free(borrowed[--n_borrowed]);
    return 0;
}
