#include "ext_sort.h"

#include <stdlib.h>
#include <string.h>

#include "nr_mem.h"

const nr_ext_sort_limits NR_EXT_SORT_DEFAULT = {
    .chunk_bytes = (size_t)4 << 20,
    .run_block_bytes = (size_t)256 << 10,
    .fan_in = 16,
};

/* The chunk starts at this many records and doubles: a hook of a few
 * phases costs a few records. */
#define FIRST_RECS 64

/* qsort has no context; runs are ingested on several threads at once. */
static _Thread_local const nr_ext_sort *sorting;

static int cmp_sorting(const void *a, const void *b) { return sorting->cmp(a, b, sorting->ctx); }

void nr_ext_sort_init(nr_ext_sort *s, size_t rec_size, nr_ext_sort_limits limits, nr_ext_sort_cmp cmp, const void *ctx)
{
    *s = (nr_ext_sort){.rec_size = rec_size, .limits = limits, .cmp = cmp, .ctx = ctx, .last = SIZE_MAX};
    if (s->limits.fan_in < 2)
        s->limits.fan_in = 2;
    s->chunk_recs = limits.chunk_bytes / rec_size ? limits.chunk_bytes / rec_size : 1;
}

uint64_t nr_ext_sort_count(const nr_ext_sort *s) { return s->count; }

/* Whether the chunk is in order already: phases end in the order they
 * began, but for the ones with children. */
static int chunk_sorted(const nr_ext_sort *s)
{
    for (size_t i = 1; i < s->fill; i++)
        if (s->cmp(s->chunk + (i - 1) * s->rec_size, s->chunk + i * s->rec_size, s->ctx) > 0)
            return 0;
    return 1;
}

static void sort_chunk(nr_ext_sort *s)
{
    sorting = s;
    if (!chunk_sorted(s)) /* an empty chunk is NULL, which qsort may not take */
        qsort(s->chunk, s->fill, s->rec_size, cmp_sorting);
}

/* A new, empty run at the end of runs; its index in *at. */
static int new_run(nr_ext_sort *s, size_t *at, nr_error *err)
{
    if (NR_GROW(s->runs, s->run_cap, s->run_count + 1) < 0)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    nr_rec_queue_init(&s->runs[s->run_count], s->rec_size, s->limits.run_block_bytes);
    s->runs[s->run_count].uncompressed = 1;
    *at = s->run_count++;
    return 0;
}

/* The chunk, sorted, becomes a run. */
static int spill_chunk(nr_ext_sort *s, nr_error *err)
{
    sort_chunk(s);
    size_t at;
    NR_TRY(new_run(s, &at, err));
    for (size_t i = 0; i < s->fill; i++)
        NR_TRY(nr_rec_queue_push(&s->runs[at], s->chunk + i * s->rec_size, err));
    s->fill = 0;
    return nr_rec_queue_park(&s->runs[at], err); /* a run waiting costs no memory */
}

int nr_ext_sort_push(nr_ext_sort *s, const void *rec, nr_error *err)
{
    if (s->finished)
        return nr_error_set(err, NR_E_INPUT, "a sorter takes no records once finished");
    if (s->fill == s->chunk_recs)
        NR_TRY(spill_chunk(s, err));
    if (s->fill == s->chunk_cap) {
        size_t want = s->chunk_cap ? s->chunk_cap * 2 : FIRST_RECS;
        want = want < s->chunk_recs ? want : s->chunk_recs;
        void *p = realloc(s->chunk, want * s->rec_size);
        if (!p)
            return nr_error_set(err, NR_E_NOMEM, "out of memory");
        s->chunk = p;
        s->chunk_cap = want;
    }
    memcpy(s->chunk + s->fill * s->rec_size, rec, s->rec_size);
    s->fill++;
    s->count++;
    return 0;
}

/* Rewinds runs [first, first + n) and reads each one's first record. */
static int open_heads(nr_ext_sort *s, size_t first, size_t n, nr_error *err)
{
    for (size_t i = 0; i < n; i++) {
        NR_TRY(nr_rec_queue_rewind(&s->runs[first + i], err));
        const int rc = nr_rec_queue_next(&s->runs[first + i], &s->heads[i], err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            s->heads[i] = NULL;
    }
    return 0;
}

/* The head that comes first among n, SIZE_MAX when all have ended. */
static size_t least_head(const nr_ext_sort *s, size_t n)
{
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (s->heads[i] && (best == SIZE_MAX || s->cmp(s->heads[i], s->heads[best], s->ctx) < 0))
            best = i;
    return best;
}

static int advance_head(nr_ext_sort *s, size_t first, size_t i, nr_error *err)
{
    const int rc = nr_rec_queue_next(&s->runs[first + i], &s->heads[i], err);
    if (rc == 0)
        s->heads[i] = NULL;
    return rc < 0 ? rc : 0;
}

/* Merges the fan_in runs that come first into a new run at the end. */
static int merge_first_runs(nr_ext_sort *s, nr_error *err)
{
    const size_t first = s->first_run, n = s->limits.fan_in;
    size_t out;
    NR_TRY(new_run(s, &out, err));
    NR_TRY(open_heads(s, first, n, err));
    for (size_t i; (i = least_head(s, n)) != SIZE_MAX;) {
        NR_TRY(nr_rec_queue_push(&s->runs[out], s->heads[i], err));
        NR_TRY(advance_head(s, first, i, err));
    }
    for (size_t i = 0; i < n; i++)
        nr_rec_queue_free(&s->runs[first + i]);
    s->first_run += n;
    return nr_rec_queue_park(&s->runs[out], err);
}

int nr_ext_sort_finish(nr_ext_sort *s, nr_error *err)
{
    if (s->finished)
        return 0;
    s->finished = 1;
    if (s->run_count == 0) {
        sort_chunk(s);
        return 0;
    }
    if (s->fill)
        NR_TRY(spill_chunk(s, err));
    free(s->chunk);
    s->chunk = NULL;
    s->chunk_cap = 0;
    s->heads = calloc(s->limits.fan_in, sizeof *s->heads);
    if (!s->heads)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    while (s->run_count - s->first_run > s->limits.fan_in)
        NR_TRY(merge_first_runs(s, err));
    return open_heads(s, s->first_run, s->run_count - s->first_run, err);
}

int nr_ext_sort_next(nr_ext_sort *s, const void **rec, nr_error *err)
{
    if (!s->finished)
        return nr_error_set(err, NR_E_INPUT, "a sorter is read after finish");
    if (!s->heads) {
        if (s->read_at == s->fill)
            return 0;
        *rec = s->chunk + s->read_at++ * s->rec_size;
        return 1;
    }
    const size_t n = s->run_count - s->first_run;
    if (s->last != SIZE_MAX)
        NR_TRY(advance_head(s, s->first_run, s->last, err));
    s->last = least_head(s, n);
    if (s->last == SIZE_MAX)
        return 0;
    *rec = s->heads[s->last];
    return 1;
}

void nr_ext_sort_free(nr_ext_sort *s)
{
    for (size_t i = s->first_run; i < s->run_count; i++)
        nr_rec_queue_free(&s->runs[i]);
    free(s->runs);
    free(s->chunk);
    free(s->heads);
    *s = (nr_ext_sort){.last = SIZE_MAX};
}
