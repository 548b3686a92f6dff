/* golden_data: the fixed contents of tests/store/golden/v1.nio, v2.nio (v2
 * adds table "scaled") and v3.nio (v3 adds table "keyed"). The table
 * definitions are frozen copies (not nr_schema's), so that schema changes
 * never change the golden store. */
#ifndef NR_GOLDEN_DATA_H
#define NR_GOLDEN_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "nr_store.h"

enum { GOLDEN_SCALED = 50, GOLDEN_SCALED_COLS = 8 };
/* Table "scaled" (only in v2.nio): value of column col in row row. */
int64_t golden_scaled(size_t col, size_t row);
enum { GOLDEN_KEYED = 60, GOLDEN_KEYED_COLS = 7 };
/* Table "keyed" (only in v3.nio): value of column col in row row. */
int64_t golden_keyed(size_t col, size_t row);
enum { GOLDEN_EVENTS = 40, GOLDEN_SERIES = 70000, GOLDEN_EXTREMES = 6, GOLDEN_FILES = 4, GOLDEN_META = 6 };

/* Writes the golden store to path; returns 0 or a negative NR_E_* code. */
int golden_write(const char *path, nr_error *err);

/* Expected values, computed independently of the writer. */
int64_t golden_events_ts(size_t row);
const char *golden_events_syscall(size_t row);
int64_t golden_series_ts(size_t row);
const char *golden_series_name(size_t row);
extern const int64_t golden_extremes_v[GOLDEN_EXTREMES];
extern const int64_t golden_extremes_d[GOLDEN_EXTREMES];
extern const char *const golden_extremes_s[GOLDEN_EXTREMES];
extern const char *const golden_files_path[GOLDEN_FILES];

#endif
