/* Unit tests of ingest/ext_sort.c: the records come back in the order of
 * qsort over all of them (an independent sort of the same records), in
 * memory below a chunk and through merged runs on disk past one, with
 * one merge pass or several; the sorter takes no records once finished. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ext_sort.h"

typedef struct rec {
    int64_t key;
    uint32_t serial; /* the tie-break: a total order */
    uint32_t check;
} rec;

static int cmp_rec(const void *a, const void *b, const void *ctx)
{
    const rec *x = a, *y = b;
    int *calls = (int *)ctx;
    if (calls)
        (*calls)++;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->serial < y->serial ? -1 : x->serial > y->serial;
}

static int cmp_plain(const void *a, const void *b) { return cmp_rec(a, b, NULL); }

/* n records of keys drawn from few values (many ties) or many. */
static rec *make_records(size_t n, uint64_t seed, int64_t key_range)
{
    rec *r = malloc((n ? n : 1) * sizeof *r);
    uint64_t x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        r[i] = (rec){.key = (int64_t)((x >> 33) % (uint64_t)key_range) - key_range / 2,
                     .serial = (uint32_t)i, .check = (uint32_t)(x >> 7)};
    }
    return r;
}

/* Sorts n records under limits and checks them against qsort's order. */
static void sorts_like_qsort(size_t n, nr_ext_sort_limits limits, int64_t key_range, size_t *runs_made)
{
    rec *r = make_records(n, n * 31 + limits.fan_in, key_range);
    nr_ext_sort s;
    int calls = 0;
    nr_ext_sort_init(&s, sizeof(rec), limits, cmp_rec, &calls);
    nr_error err;
    for (size_t i = 0; i < n; i++)
        assert_int_equal(nr_ext_sort_push(&s, &r[i], &err), 0);
    assert_int_equal(nr_ext_sort_count(&s), n);
    assert_int_equal(nr_ext_sort_finish(&s, &err), 0);
    *runs_made = s.run_count;
    qsort(r, n, sizeof *r, cmp_plain);
    const void *p;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(nr_ext_sort_next(&s, &p, &err), 1);
        assert_memory_equal(p, &r[i], sizeof(rec));
    }
    assert_int_equal(nr_ext_sort_next(&s, &p, &err), 0);
    assert_int_equal(nr_ext_sort_next(&s, &p, &err), 0);
    assert_true(n < 2 || calls > 0); /* the context reached the comparison */
    nr_ext_sort_free(&s);
    free(r);
}

static void below_a_chunk_stays_in_memory(void **state)
{
    (void)state;
    const nr_ext_sort_limits lim = {.chunk_bytes = 100 * sizeof(rec), .run_block_bytes = 3 * sizeof(rec), .fan_in = 2};
    size_t runs;
    for (size_t n = 0; n <= 100; n += n < 3 ? 1 : 13) {
        sorts_like_qsort(n, lim, 1000, &runs);
        assert_int_equal(runs, 0);
    }
    sorts_like_qsort(100, lim, 1000, &runs);
    assert_int_equal(runs, 0);
}

/* 7 records a chunk: 1000 records make 143 runs, merged 16, 3 and 2 at
 * a time (intermediate passes, then the last merge as it is read). */
static void past_a_chunk_merges_runs(void **state)
{
    (void)state;
    const size_t fan_ins[] = {16, 3, 2};
    for (size_t k = 0; k < 3; k++) {
        const nr_ext_sort_limits lim = {.chunk_bytes = 7 * sizeof(rec), .run_block_bytes = 3 * sizeof(rec), .fan_in = fan_ins[k]};
        size_t runs;
        sorts_like_qsort(1000, lim, 1 << 20, &runs);
        assert_true(runs >= 143);
        sorts_like_qsort(1000, lim, 4, &runs); /* ties everywhere */
        sorts_like_qsort(8, lim, 100, &runs);  /* a chunk and one */
        assert_int_equal(runs, 2);
        sorts_like_qsort(7 * 16, lim, 100, &runs); /* whole chunks only */
    }
}

static void many_records_with_the_default_limits(void **state)
{
    (void)state;
    size_t runs;
    sorts_like_qsort(300000, NR_EXT_SORT_DEFAULT, INT64_C(1) << 40, &runs);
    assert_int_equal(runs, 300000 / (NR_EXT_SORT_DEFAULT.chunk_bytes / sizeof(rec)) + 1);
}

static void a_finished_sorter_takes_no_records(void **state)
{
    (void)state;
    nr_ext_sort s;
    nr_ext_sort_init(&s, sizeof(rec), NR_EXT_SORT_DEFAULT, cmp_rec, NULL);
    nr_error err;
    const rec r = {0};
    const void *p;
    assert_int_equal(nr_ext_sort_next(&s, &p, &err), NR_E_INPUT);
    assert_int_equal(nr_ext_sort_push(&s, &r, &err), 0);
    assert_int_equal(nr_ext_sort_finish(&s, &err), 0);
    assert_int_equal(nr_ext_sort_push(&s, &r, &err), NR_E_INPUT);
    assert_int_equal(nr_ext_sort_next(&s, &p, &err), 1);
    assert_int_equal(nr_ext_sort_next(&s, &p, &err), 0);
    nr_ext_sort_free(&s);
    nr_ext_sort_free(&s); /* freed twice: the second is a no-op */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(below_a_chunk_stays_in_memory),
        cmocka_unit_test(past_a_chunk_merges_runs),
        cmocka_unit_test(many_records_with_the_default_limits),
        cmocka_unit_test(a_finished_sorter_takes_no_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
