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

/* Every chunk of t, read alone into c with each value touched (a bad
 * pointer shows under ASan), and each row group's columns read together,
 * which must give the same values (a failure together is one of a column
 * alone). */
static void read_table(const nr_store_table *t, nr_col_chunk *c)
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
    volatile uint64_t sum = 0;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t); rg++) {
        const int ok = nr_store_read_chunks(t, rg, ncols, cols, into, &err) == 0;
        int all_alone = 1;
        for (size_t k = 0; k < ncols; k++) {
            if (nr_store_read_chunk(t, k, rg, c, &err) < 0) {
                all_alone = 0;
                continue;
            }
            nr_col_info info;
            nr_store_col_info(t, k, &info);
            const int i64 = info.type == NR_COL_I64;
            for (size_t r = 0; r < c->n; r++)
                sum += i64 ? (uint64_t)c->i64[r] : (uint64_t)c->str[r][c->str_len[r]] + c->str_len[r];
            if (!ok)
                continue;
            if (together[k].n != c->n)
                abort();
            for (size_t r = 0; r < c->n; r++)
                if (i64 ? together[k].i64[r] != c->i64[r]
                        : together[k].str_len[r] != c->str_len[r] ||
                              memcmp(together[k].str[r], c->str[r], c->str_len[r]) != 0)
                    abort();
        }
        if (ok != all_alone)
            abort();
    }
    (void)sum;
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
    for (size_t i = 0; i < nr_store_table_count(s); i++)
        read_table(nr_store_table_at(s, i), &c);
    nr_col_chunk_fini(&c);
    nr_store_close(s);
    return 0;
}
