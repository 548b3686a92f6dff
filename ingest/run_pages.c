#include "run_pages.h"

#include <stdlib.h>
#include <string.h>

#include "nr_mem.h"

/* The page in memory starts at this many runs and doubles to a page. */
#define FIRST_RUNS 16

void nr_run_pages_init(nr_run_pages *p, size_t page_runs)
{
    *p = (nr_run_pages){.page_runs = page_runs ? page_runs : 1};
}

static int nomem(nr_error *err) { return nr_error_set(err, NR_E_NOMEM, "out of memory"); }

static int changed(const nr_spool *s, nr_error *err)
{
    return nr_error_set(err, NR_E_IO, "a temporary file in %s was changed under niorep", s->dir);
}

/* The runs in memory become a page on disk, as they are: zstd level 1
 * cost a sixth of the ingest of a million phases (callgrind, session
 * 68), for pages read back once. */
static int write_page(nr_run_pages *p, nr_spool *s, nr_error *err)
{
    if (NR_GROW(p->pages, p->page_cap, p->page_count + 1) < 0)
        return nomem(err);
    const nr_run_page_ref ref = {.first = p->runs[0].begin, .off = s->size, .runs = p->count};
    NR_TRY(nr_spool_append(s, p->runs, p->count * sizeof *p->runs, err));
    p->pages[p->page_count++] = ref;
    p->count = 0;
    return 0;
}

int nr_run_pages_push(nr_run_pages *p, nr_spool *s, int64_t begin, uint32_t phase, nr_error *err)
{
    if (p->count == p->page_runs)
        NR_TRY(write_page(p, s, err));
    if (p->count == p->cap) {
        size_t want = p->cap ? p->cap * 2 : FIRST_RUNS;
        want = want < p->page_runs ? want : p->page_runs;
        nr_run *q = realloc(p->runs, want * sizeof *q);
        if (!q)
            return nomem(err);
        p->runs = q;
        p->cap = want;
    }
    p->runs[p->count++] = (nr_run){.begin = begin, .phase = phase};
    p->last_phase = phase;
    p->total++;
    return 0;
}

int nr_run_pages_seal(nr_run_pages *p, nr_spool *s, nr_error *err)
{
    if (p->page_count && p->count)
        NR_TRY(write_page(p, s, err));
    p->loaded = SIZE_MAX;
    p->cursor = 0;
    return 0;
}

/* A page read back is what was written: its first begin, begins in
 * order, no padding set (cheap next to the read). */
static int page_in_order(const nr_run *runs, const nr_run_page_ref *ref)
{
    if (runs[0].begin != ref->first)
        return 0;
    for (size_t i = 0; i < ref->runs; i++)
        if (runs[i].zero != 0 || (i && runs[i].begin < runs[i - 1].begin))
            return 0;
    return 1;
}

/* Reads page k back into runs. */
static int load_page(nr_run_pages *p, nr_spool *s, size_t k, nr_error *err)
{
    const nr_run_page_ref *ref = &p->pages[k];
    p->count = 0; /* until the page is read whole */
    p->loaded = SIZE_MAX;
    if (ref->runs == 0 || ref->runs > p->cap)
        return changed(s, err);
    NR_TRY(nr_spool_read(s, ref->off, p->runs, ref->runs * sizeof *p->runs, err));
    if (!page_in_order(p->runs, ref))
        return changed(s, err);
    p->count = ref->runs;
    p->loaded = k;
    p->cursor = 0;
    return 0;
}

/* The page on disk that holds ts: the last whose first run begins at or
 * before it; SIZE_MAX when ts is before them all. */
static size_t page_of(const nr_run_pages *p, int64_t ts)
{
    const size_t k = p->loaded;
    if (k < p->page_count && p->pages[k].first <= ts && (k + 1 == p->page_count || p->pages[k + 1].first > ts))
        return k;
    size_t lo = 0, hi = p->page_count; /* the first page that begins after ts */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (p->pages[mid].first <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : SIZE_MAX;
}

/* The run in memory that holds ts, from the cursor a few runs forward
 * for nondecreasing times, else by binary search; SIZE_MAX when ts is
 * before the first. */
static size_t run_of(nr_run_pages *p, int64_t ts)
{
    const size_t n = p->count;
    size_t i = p->cursor < n ? p->cursor : 0;
    if (p->runs[i].begin <= ts) {
        for (int steps = 0; steps < 8 && i + 1 < n && p->runs[i + 1].begin <= ts; steps++)
            i++;
        if (i + 1 == n || p->runs[i + 1].begin > ts)
            return p->cursor = i;
    }
    size_t lo = 0, hi = n; /* the first run that begins after ts */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (p->runs[mid].begin <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    p->cursor = lo ? lo - 1 : 0;
    return lo ? lo - 1 : SIZE_MAX;
}

int nr_run_pages_at(nr_run_pages *p, nr_spool *s, int64_t ts, uint32_t *phase, nr_error *err)
{
    if (p->page_count) {
        const size_t k = page_of(p, ts);
        if (k == SIZE_MAX)
            return 0;
        if (k != p->loaded)
            NR_TRY(load_page(p, s, k, err));
    }
    if (!p->count)
        return 0;
    const size_t i = run_of(p, ts);
    if (i == SIZE_MAX)
        return 0;
    *phase = p->runs[i].phase;
    return 1;
}

void nr_run_pages_free(nr_run_pages *p)
{
    free(p->runs);
    free(p->pages);
    nr_run_pages_init(p, p->page_runs);
}
