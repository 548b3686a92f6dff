/* Fuzz target: the input is a store file. It is opened from memory (the
 * same validation as a file) and every chunk of every table is decoded; any
 * outcome but a crash, a leak or an over-allocation is fine. */
#include <stddef.h>
#include <stdint.h>

#include "nr_store.h"
#include "store_internal.h"

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
    nr_col_chunk_fini(&c);
    nr_store_close(s);
    return 0;
}
