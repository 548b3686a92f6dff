/* Fuzz target: the input is a store file. It is opened from memory (the
 * same validation as a file) and every chunk of every table is decoded,
 * alone and with the row group's other columns (nr_store_read_chunks, which
 * must give the same values and the same success); any other outcome but a
 * crash, a leak or an over-allocation is fine. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nr_store.h"
#include "store_internal.h"

/* The columns of each row group of t read together equal each read alone
 * into c (a failure together is one of a column alone). */
static void check_together(const nr_store_table *t, nr_col_chunk *c)
{
    const size_t ncols = nr_store_table_ncols(t);
    nr_col_chunk *together = calloc(ncols ? ncols : 1, sizeof *together);
    nr_col_chunk **into = calloc(ncols ? ncols : 1, sizeof *into);
    size_t *cols = calloc(ncols ? ncols : 1, sizeof *cols);
    if (!together || !into || !cols)
        abort();
    for (size_t k = 0; k < ncols; k++) {
        nr_col_chunk_init(&together[k]);
        cols[k] = k;
        into[k] = &together[k];
    }
    nr_error err;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t); rg++) {
        const int ok = nr_store_read_chunks(t, rg, ncols, cols, into, &err) == 0;
        int all_alone = 1;
        for (size_t k = 0; k < ncols; k++) {
            if (nr_store_read_chunk(t, k, rg, c, &err) < 0) {
                all_alone = 0;
                continue;
            }
            if (!ok)
                continue;
            if (together[k].n != c->n)
                abort();
            nr_col_info info;
            nr_store_col_info(t, k, &info);
            for (size_t r = 0; r < c->n; r++)
                if (info.type == NR_COL_I64 ? together[k].i64[r] != c->i64[r]
                           : together[k].str_len[r] != c->str_len[r] ||
                                 memcmp(together[k].str[r], c->str[r], c->str_len[r]) != 0)
                    abort();
        }
        if (ok != all_alone)
            abort();
    }
    for (size_t k = 0; k < ncols; k++)
        nr_col_chunk_fini(&together[k]);
    free(together);
    free(into);
    free(cols);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nr_store *s;
    nr_error err;
    if (nr__store_open_memory(data, size, "fuzz.nio", &s, &err) < 0)
        return 0;
    nr_col_chunk c;
    nr_col_chunk_init(&c);
    volatile uint64_t sum = 0;
    for (size_t i = 0; i < nr_store_table_count(s); i++) {
        const nr_store_table *t = nr_store_table_at(s, i);
        for (size_t col = 0; col < nr_store_table_ncols(t); col++) {
            nr_col_info info;
            nr_store_col_info(t, col, &info);
            for (size_t rg = 0; rg < nr_store_table_rowgroups(t); rg++) {
                if (nr_store_read_chunk(t, col, rg, &c, &err) < 0)
                    continue;
                /* Touch every value, so that a bad pointer shows under ASan. */
                for (size_t k = 0; k < c.n; k++)
                    sum += info.type == NR_COL_I64 ? (uint64_t)c.i64[k] : (uint64_t)c.str[k][c.str_len[k]] + c.str_len[k];
            }
        }
    }
    (void)sum;
    for (size_t i = 0; i < nr_store_table_count(s); i++)
        check_together(nr_store_table_at(s, i), &c);
    nr_col_chunk_fini(&c);
    nr_store_close(s);
    return 0;
}
