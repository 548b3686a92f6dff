/* golden_data: fixed tables covering every type and encoding, odd bytes,
 * extremes, an empty table, a table of two row groups, and the tables of
 * the version 2 (scaled) and version 3 (keyed) transforms. */
#include <string.h>

#include "golden_data.h"

#define I64(n) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_VARINT}
#define DELTA(n) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_DELTA_VARINT}
#define STR(n) {.name = n, .type = NR_COL_STR, .encoding = NR_ENC_DICT}
#define TABLE(var, tname, coldefs) \
    static const nr_table_def var = {.name = tname, .cols = coldefs, .ncols = sizeof coldefs / sizeof coldefs[0]}

static const nr_col_def meta_cols[] = {STR("key"), STR("value")};
TABLE(meta_table, "meta", meta_cols);
static const nr_col_def diag_cols[] = {STR("reason"), I64("count"), STR("file"), I64("line"), STR("example")};
TABLE(diag_table, "diagnostics", diag_cols);
static const nr_col_def events_cols[] = {
    DELTA("ts_ns"), I64("dur_ns"), DELTA("pid"), STR("syscall"), I64("op_class"),
    I64("fd"), I64("bytes"), STR("errno"),
};
TABLE(events_table, "events", events_cols);
static const nr_col_def files_cols[] = {DELTA("file_id"), STR("path"), I64("kind"), I64("bytes_read")};
TABLE(files_table, "files", files_cols);
static const nr_col_def extremes_cols[] = {I64("v"), DELTA("d"), STR("s")};
TABLE(extremes_table, "extremes", extremes_cols);
static const nr_col_def series_cols[] = {DELTA("ts_ns"), I64("k"), STR("name")};
TABLE(series_table, "series", series_cols);
/* format version 2: columns stored against a base column, scaled values */
#define BASE(n, b) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_VARINT, .base = b}
static const nr_col_def scaled_cols[GOLDEN_SCALED_COLS] = {
    DELTA("ts_ns"), I64("dur_ns"), DELTA("pid"), BASE("tid", "pid"),
    I64("bytes"),   BASE("result", "bytes"), I64("w"), BASE("wb", "w"),
};
TABLE(scaled_table, "scaled", scaled_cols);
/* format version 3: columns stored against the previous row of their key */
#define KEY(n, k) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_VARINT, .key = k}
#define KEY_STEP(n, k, st) {.name = n, .type = NR_COL_I64, .encoding = NR_ENC_VARINT, .key = k, .step = st}
static const nr_col_def keyed_cols[GOLDEN_KEYED_COLS] = {
    I64("pid"), KEY("file_id", "pid"), I64("bytes"), KEY_STEP("offset", "file_id", "bytes"),
    I64("x"),   KEY("xk", "x"),       KEY_STEP("xs", "x", "x"),
};
TABLE(keyed_table, "keyed", keyed_cols);
static const nr_col_def empty_cols[] = {I64("x"), STR("y")};
TABLE(empty_table, "empty", empty_cols);

const int64_t golden_extremes_v[GOLDEN_EXTREMES] = {INT64_MIN, INT64_MAX, 0, -1, 1, -64};
const int64_t golden_extremes_d[GOLDEN_EXTREMES] = {INT64_MAX, INT64_MIN, INT64_MAX, -1, 0, INT64_MIN};
const char *const golden_extremes_s[GOLDEN_EXTREMES] = {
    "", "plain", "\xff\xfe bytes", "tab\there \"quoted\", comma", "line\nbreak\r\n", "back\\slash \x01\x7f",
};
const char *const golden_files_path[GOLDEN_FILES] = {
    "/data/train-0.bin", "/data/caf\xc3\xa9.txt", "/data/bad\xff\xfename", "/tmp/with,comma \"q\"\nnl",
};

static const char *const meta_rows[GOLDEN_META][2] = {
    {"niorep_version", "0.1.0"},       {"lines_read", "1234"},
    {"lines_parsed", "1200"},          {"lines_skipped", "34"},
    {"input_sha256:strace.log", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
    {"label", "golden"},
};

static const struct {
    const char *reason;
    int64_t count;
    const char *file;
    int64_t line;
    const char *example;
} diag_rows[] = {
    {"unknown_line", 30, "strace.log", 17, "garbage here"},
    {"unknown_line", 30, "strace.log", 99, "more garbage, \"quoted\""},
    {"truncated_line", 4, "strace.log.1234", 500, "1234 read(3, \"abc\"..."},
};

static const char *const syscalls[] = {"openat", "read", "read", "write", "fstat", "close", "fsync"};
static const int64_t syscall_class[] = {2, 0, 0, 1, 3, 2, 4};

int64_t golden_events_ts(size_t row) { return 1764480000000000000 + (int64_t)row * 1500 + (int64_t)(row % 3); }
const char *golden_events_syscall(size_t row) { return syscalls[row % 7]; }
int64_t golden_series_ts(size_t row) { return (int64_t)row * 1000; }
const char *golden_series_name(size_t row) { return row % 3 ? "a" : "b"; }

static int fill_events(nr_table_writer *t, nr_error *err)
{
    for (size_t i = 0; i < GOLDEN_EVENTS; i++) {
        size_t k = i % 7;
        nr_table_set_i64(t, 0, golden_events_ts(i));
        nr_table_set_i64(t, 1, k == 4 ? -1 : (int64_t)(i * 10));
        nr_table_set_i64(t, 2, 100 + (int64_t)(i % 3));
        nr_table_set_str(t, 3, syscalls[k], strlen(syscalls[k]));
        nr_table_set_i64(t, 4, syscall_class[k]);
        nr_table_set_i64(t, 5, 3 + (int64_t)(i % 2));
        nr_table_set_i64(t, 6, k == 1 || k == 2 || k == 3 ? 4096 : 0);
        const char *e = i == 7 ? "ENOENT" : "";
        nr_table_set_str(t, 7, e, strlen(e));
        NR_TRY(nr_table_end_row(t, err));
    }
    return 0;
}

static int fill_small_tables(nr_store_writer *w, nr_error *err)
{
    nr_table_writer *t;
    NR_TRY(nr_store_writer_add_table(w, &meta_table, &t, err));
    for (size_t i = 0; i < GOLDEN_META; i++) {
        nr_table_set_str(t, 0, meta_rows[i][0], strlen(meta_rows[i][0]));
        nr_table_set_str(t, 1, meta_rows[i][1], strlen(meta_rows[i][1]));
        NR_TRY(nr_table_end_row(t, err));
    }
    NR_TRY(nr_store_writer_add_table(w, &diag_table, &t, err));
    for (size_t i = 0; i < sizeof diag_rows / sizeof diag_rows[0]; i++) {
        nr_table_set_str(t, 0, diag_rows[i].reason, strlen(diag_rows[i].reason));
        nr_table_set_i64(t, 1, diag_rows[i].count);
        nr_table_set_str(t, 2, diag_rows[i].file, strlen(diag_rows[i].file));
        nr_table_set_i64(t, 3, diag_rows[i].line);
        nr_table_set_str(t, 4, diag_rows[i].example, strlen(diag_rows[i].example));
        NR_TRY(nr_table_end_row(t, err));
    }
    NR_TRY(nr_store_writer_add_table(w, &files_table, &t, err));
    for (size_t i = 0; i < GOLDEN_FILES; i++) {
        nr_table_set_i64(t, 0, (int64_t)i);
        nr_table_set_str(t, 1, golden_files_path[i], strlen(golden_files_path[i]));
        nr_table_set_i64(t, 2, i == 3 ? 0 : 1);
        nr_table_set_i64(t, 3, (int64_t)(i * 4096));
        NR_TRY(nr_table_end_row(t, err));
    }
    NR_TRY(nr_store_writer_add_table(w, &extremes_table, &t, err));
    for (size_t i = 0; i < GOLDEN_EXTREMES; i++) {
        nr_table_set_i64(t, 0, golden_extremes_v[i]);
        nr_table_set_i64(t, 1, golden_extremes_d[i]);
        nr_table_set_str(t, 2, golden_extremes_s[i], strlen(golden_extremes_s[i]));
        NR_TRY(nr_table_end_row(t, err));
    }
    return nr_store_writer_add_table(w, &empty_table, &t, err);
}

/* Fills events and series interleaved, as an ingest fills several tables. */
static int fill_interleaved(nr_store_writer *w, nr_error *err)
{
    nr_table_writer *events, *series;
    NR_TRY(nr_store_writer_add_table(w, &events_table, &events, err));
    NR_TRY(nr_store_writer_add_table(w, &series_table, &series, err));
    NR_TRY(fill_events(events, err));
    for (size_t i = 0; i < GOLDEN_SERIES; i++) {
        nr_table_set_i64(series, 0, golden_series_ts(i));
        nr_table_set_i64(series, 1, (int64_t)(i % 7));
        nr_table_set_str(series, 2, golden_series_name(i), 1);
        NR_TRY(nr_table_end_row(series, err));
    }
    return 0;
}

static const int64_t scaled_extremes[] = {INT64_MIN, INT64_MAX, -1, 0, 1, -2};

int64_t golden_scaled(size_t col, size_t row)
{
    int64_t r = (int64_t)row;
    switch (col) {
    case 0: return 1764480000000000000 + r * 7000 - (row % 5 == 4 ? 9000 : 0); /* us, some out of order */
    case 1: return row % 9 == 8 ? -1 : (r % 13 + 1) * 1000;                      /* -1: unknown */
    case 2: return 4242 + r % 3;
    case 3: return row % 4 == 3 ? 5000 + r : 4242 + r % 3;                        /* = pid mostly */
    case 4: return row % 3 == 0 ? 4096 * (r % 5) : 0;
    case 5: return row % 3 == 0 ? 4096 * (r % 5) : row % 3 == 1 ? -1 : 3 + r % 4; /* = bytes for data */
    case 6: return scaled_extremes[row % 6];
    default: return scaled_extremes[(row + 1) % 6];                              /* wraps */
    }
}

/* The offset a sequential transfer of row's file would start at: offset
 * plus bytes of the file's last earlier row with a known offset, else 0. */
static int64_t keyed_next_offset(size_t row)
{
    for (size_t j = row; j-- > 0;)
        if (golden_keyed(1, j) == golden_keyed(1, row) && golden_keyed(3, j) != -1)
            return (int64_t)((uint64_t)golden_keyed(3, j) + (uint64_t)golden_keyed(2, j));
    return 0;
}

int64_t golden_keyed(size_t col, size_t row)
{
    int64_t r = (int64_t)row;
    switch (col) {
    case 0: return 4242 + r % 3;
    case 1: return row % 3 == 0 ? 7 + r / 6 : row % 3 == 1 ? 500 : scaled_extremes[row % 6]; /* file_id */
    case 2: return row % 4 == 0 ? 0 : 4096;                                                  /* bytes */
    case 3:                                                                                  /* offset */
        if (row % 5 == 4)
            return -1;                             /* unknown */
        if (row % 7 == 3)
            return (int64_t)((uint64_t)keyed_next_offset(row) - 1); /* one before the prediction: -1's code */
        if (row % 11 == 5)
            return INT64_MIN + r;                  /* wraps */
        return keyed_next_offset(row);             /* sequential */
    case 4: return scaled_extremes[row % 6];
    case 5: return scaled_extremes[(row + 1) % 6];
    default: return row % 8 == 1 ? -1 : (int64_t)((uint64_t)scaled_extremes[(row + 2) % 6] + (uint64_t)r); /* wraps */
    }
}

static int fill_keyed(nr_store_writer *w, nr_error *err)
{
    nr_table_writer *t;
    NR_TRY(nr_store_writer_add_table(w, &keyed_table, &t, err));
    for (size_t row = 0; row < GOLDEN_KEYED; row++) {
        for (size_t c = 0; c < GOLDEN_KEYED_COLS; c++)
            nr_table_set_i64(t, c, golden_keyed(c, row));
        NR_TRY(nr_table_end_row(t, err));
    }
    return 0;
}

static int fill_scaled(nr_store_writer *w, nr_error *err)
{
    nr_table_writer *t;
    NR_TRY(nr_store_writer_add_table(w, &scaled_table, &t, err));
    for (size_t row = 0; row < GOLDEN_SCALED; row++) {
        for (size_t c = 0; c < GOLDEN_SCALED_COLS; c++)
            nr_table_set_i64(t, c, golden_scaled(c, row));
        NR_TRY(nr_table_end_row(t, err));
    }
    return 0;
}

int golden_write(const char *path, nr_error *err)
{
    nr_store_writer *w;
    NR_TRY(nr_store_writer_create(path, &w, err));
    int rc = fill_small_tables(w, err);
    if (rc == 0)
        rc = fill_interleaved(w, err);
    if (rc == 0)
        rc = fill_scaled(w, err);
    if (rc == 0)
        rc = fill_keyed(w, err);
    if (rc == 0)
        rc = nr_store_writer_commit(w, err);
    nr_store_writer_destroy(w);
    return rc;
}
