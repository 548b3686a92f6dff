/* Access pattern: Darshan's request-size histogram, consecutive /
 * sequential / random classification of offsets per file per op, opens per
 * second and the metadata to data call ratio (the job's regular files only). */
#include <math.h>
#include <string.h>

#include "model_internal.h"

const char *const nr_size_bin_names[NR_SIZE_BINS] = {
    "0-100", "100-1K", "1K-10K", "10K-100K", "100K-1M",
    "1M-4M", "4M-10M", "10M-100M", "100M-1G", "1G+",
};

/* Darshan's POSIX_SIZE_*_ bins (darshan-posix.c): upper bounds inclusive. */
int nr_size_bin(int64_t bytes)
{
    static const int64_t upper[NR_SIZE_BINS - 1] = {
        100, 1024, 10240, 102400, 1048576, 4194304, 10485760, 104857600, 1073741824,
    };
    for (int b = 0; b < NR_SIZE_BINS - 1; b++)
        if (bytes <= upper[b])
            return b;
    return NR_SIZE_BINS - 1;
}

static int is_open_syscall(const char *name)
{
    return name && (strcmp(name, "openat") == 0 || strcmp(name, "open") == 0 ||
                    strcmp(name, "openat2") == 0 || strcmp(name, "creat") == 0);
}

static int is_regular_open(const nr__event *e)
{
    return e->op == NR_OP_OPEN && !(e->flags & NR_EVF_FAILED) && is_open_syscall(e->syscall);
}

/* The runtime's files (file_role.h) are counted apart: in the sample runs
 * their imports were most of the reads, and the request sizes and offsets
 * of `import torch` are not the job's access pattern. */
static void count_runtime_call(nr_model_runtime *r, const nr__event *e)
{
    r->meta_calls += e->op == NR_OP_META;
    r->opens += is_regular_open(e);
}

/* A read or write with a result: until session 46 restarted calls and
 * unknown results were 0 B (review 46). */
static int has_result(const nr__event *e)
{
    return !(e->flags & (NR_EVF_FAILED | NR_EVF_RESTARTED | NR_EVF_RESULT_UNKNOWN));
}

/* A call with a result that is a request size: all but a read that
 * returned 0 B (end of file: the last of Python's read() of a whole file),
 * which tells no size, as for the median read size; until session 49 it
 * was a request of bin 0-100, and half of snn's reads drawn as tiny ones
 * were these (review 49). */
static int tells_size(const nr__event *e)
{
    return e->op == NR_OP_WRITE || e->bytes > 0;
}

/* A call of a regular file that was resumed: the calls the access pattern sees. */
static int is_counted(const nr__event *e)
{
    return e->reg >= 0 && !(e->flags & NR_EVF_NEVER_RESUMED);
}

static int is_transfer(const nr__event *e)
{
    return e->op == NR_OP_READ || e->op == NR_OP_WRITE;
}

/* The bytes a transfer moved; a negative result moved none. */
static int64_t moved(const nr__event *e)
{
    return e->bytes > 0 ? e->bytes : 0;
}

void nr__access_count_size(nr_model *m, const nr__event *e)
{
    if (is_counted(e) && !m->reg_runtime[e->reg] && is_transfer(e) && has_result(e) && tells_size(e))
        nr__sizes_count(m->size_counts, moved(e), e->op == NR_OP_WRITE);
}

void nr__access_add(nr_model *m, const nr__event *e)
{
    if (!is_counted(e))
        return;
    if (m->reg_runtime[e->reg]) {
        count_runtime_call(&m->runtime, e);
        return;
    }
    nr_model_access *a = &m->access;
    if (e->op == NR_OP_META)
        a->meta_calls++;
    if (is_regular_open(e))
        a->opens++;
    if (!is_transfer(e))
        return;
    a->data_calls++;
    if (!has_result(e))
        return;
    const int w = e->op == NR_OP_WRITE;
    const int64_t size = moved(e);
    if (tells_size(e)) {
        a->size_hist[w][nr_size_bin(size)]++;
        nr__sizes_offer(m->size_counts, size);
    } else {
        a->eof_reads++;
    }
    if (e->offset < 0) {
        a->unknown_offset[w]++;
        return;
    }
    int64_t *last_end = &m->reg_last_end[w][e->reg];
    if (*last_end < 0)
        a->first[w]++;
    else if (e->offset == *last_end)
        a->consecutive[w]++;
    else if (e->offset > *last_end)
        a->sequential[w]++;
    else
        a->random[w]++;
    if (__builtin_add_overflow(e->offset, size, last_end))
        *last_end = INT64_MAX; /* a log's offsets are whatever it says */
    if (*last_end > m->reg_extent[w][e->reg])
        m->reg_extent[w][e->reg] = *last_end;
    if (!w && !(e->flags & NR_EVF_OFFSET_GUESSED))
        m->reg_read_placed[e->reg] = nr__sat_add(m->reg_read_placed[e->reg], size);
}

const char *nr_file_use_name(int use)
{
    static const char *const names[NR_USE_COUNT] = {"read_only", "write_only", "read_write", "no_bytes"};
    return use >= 0 && use < NR_USE_COUNT ? names[use] : "?";
}

/* Each job file into its nr_file_use by the bytes the pass summed for it. */
static void count_file_uses(nr_model *m)
{
    nr_model_file_use *u = m->access.by_use;
    memset(u, 0, NR_USE_COUNT * sizeof *u);
    double size_sum[NR_USE_COUNT] = {0};
    for (size_t i = 0; i < m->nreg; i++) {
        if (m->reg_runtime[i])
            continue;
        const int read = m->reg_read[i] > 0, written = m->reg_written[i] > 0;
        const int use = read && written ? NR_USE_READ_WRITE
                      : read            ? NR_USE_READ_ONLY
                      : written         ? NR_USE_WRITE_ONLY
                                        : NR_USE_NO_BYTES;
        u[use].files++;
        u[use].bytes_read += (uint64_t)m->reg_read[i];
        u[use].bytes_written += (uint64_t)m->reg_written[i];
        const int64_t size = m->reg_extent[0][i] > m->reg_extent[1][i] ? m->reg_extent[0][i] : m->reg_extent[1][i];
        if (size >= 0) {
            u[use].sized_files++;
            size_sum[use] += (double)size;
            if ((uint64_t)size > u[use].max_size)
                u[use].max_size = (uint64_t)size;
        }
    }
    for (int use = 0; use < NR_USE_COUNT; use++)
        u[use].mean_size = u[use].sized_files ? size_sum[use] / (double)u[use].sized_files : NAN;
}

/* The bytes the job files' reads moved again (docs/definitions.md,
 * "Re-reads"): a file's reads at known offsets all lie below its read
 * extent, so at most extent of their bytes are distinct, and the rest were
 * read before. A bound from below: a file read in part and in part again
 * counts none of its re-reads, and reads of unknown or guessed offset
 * count in none of the sums. */
static void count_rereads(nr_model *m)
{
    nr_model_rereads *r = &m->access.rereads;
    *r = (nr_model_rereads){0};
    for (size_t i = 0; i < m->nreg; i++) {
        const int64_t placed = m->reg_read_placed[i], extent = m->reg_extent[0][i];
        if (m->reg_runtime[i] || placed <= 0)
            continue;
        r->bytes_placed = nr__sat_addu(r->bytes_placed, (uint64_t)placed);
        r->extent_bytes = nr__sat_addu(r->extent_bytes, (uint64_t)extent);
        if (placed > extent) {
            r->at_least_bytes = nr__sat_addu(r->at_least_bytes, (uint64_t)(placed - extent));
            r->files++;
        }
    }
    /* distinct bytes at most: each file's smaller of placed and extent, over 0 when any was placed */
    const uint64_t distinct = r->bytes_placed - r->at_least_bytes;
    r->share = r->bytes_placed ? (double)r->at_least_bytes / (double)r->bytes_placed : NAN;
    r->passes_at_least = distinct ? (double)r->bytes_placed / (double)distinct : NAN;
}

/* Each regular file's bytes into its file system's sums. */
static void count_fs_bytes(nr_model *m)
{
    for (size_t row = 0; row < m->nfile_rows; row++) {
        const nr__fileinfo *fi = &m->file_info[row];
        if (fi->reg < 0 || fi->fs >= m->nfs)
            continue;
        nr_model_fs_bytes *b = &m->fs_bytes[fi->fs];
        b->files++;
        b->bytes_read += (uint64_t)m->reg_read[fi->reg];
        b->bytes_written += (uint64_t)m->reg_written[fi->reg];
    }
}

void nr__access_finish(nr_model *m)
{
    nr_model_access *a = &m->access;
    count_file_uses(m);
    count_rereads(m);
    count_fs_bytes(m);
    a->opens_per_s = m->totals.duration_s > 0 ? (double)a->opens / m->totals.duration_s : NAN;
    a->meta_to_data = a->data_calls ? (double)a->meta_calls / (double)a->data_calls : NAN;
}
