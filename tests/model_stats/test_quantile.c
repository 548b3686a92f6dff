/* model/quantile: exact nearest-rank quantiles through a multi-pass source
 * checked against a full sort, and the fixed log histogram. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nr_error.h"
#include "quantile.h"

/* An in-memory source that hands out batches of at most `batch` values and
 * can misbehave on purpose. */
typedef struct mem_source {
    const int64_t *vals;
    size_t n, pos, batch;
    int passes;
    int fail_on_pass;   /* > 0: next() fails in that pass */
    int grow_on_pass;   /* > 0: yields one value more in that pass */
    int64_t extra;
} mem_source;

static int mem_rewind(void *ctx, nr_error *err)
{
    mem_source *m = ctx;
    m->pos = 0;
    m->passes++;
    return 0;
}

static int mem_next(void *ctx, const int64_t **vals, size_t *n, nr_error *err)
{
    mem_source *m = ctx;
    if (m->fail_on_pass == m->passes)
        return nr_error_set(err, NR_E_IO, "test source: failing on pass %d", m->passes);
    if (m->pos >= m->n) {
        if (m->grow_on_pass == m->passes && m->pos == m->n) {
            m->pos++;
            *vals = &m->extra;
            *n = 1;
            return 1;
        }
        return 0;
    }
    size_t k = m->n - m->pos < m->batch ? m->n - m->pos : m->batch;
    *vals = m->vals + m->pos;
    *n = k;
    m->pos += k;
    return 1;
}

static int cmp_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t next_u64(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const double QS[] = {0.0001, 0.001, 0.01, 0.07, 0.1, 0.25, 0.3333, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 1.0};
enum { NQ = sizeof QS / sizeof QS[0] };

/* Compares nr_quantiles_exact (batch size `batch`) and nr_quantiles_array
 * with picking ranks from a qsort'ed copy. Returns the passes used. */
static int check_against_sort(const int64_t *v, size_t n, size_t batch)
{
    int64_t *sorted = malloc((n ? n : 1) * sizeof *sorted);
    memcpy(sorted, v, n * sizeof *v);
    qsort(sorted, n, sizeof *sorted, cmp_i64);
    mem_source m = {.vals = v, .n = n, .batch = batch};
    nr_value_source src = {.ctx = &m, .rewind = mem_rewind, .next = mem_next};
    int64_t out[NQ], out_arr[NQ];
    uint64_t count;
    nr_error err;
    nr_error_clear(&err);
    assert_int_equal(nr_quantiles_exact(&src, QS, NQ, out, &count, &err), 0);
    assert_int_equal(count, n);
    assert_int_equal(nr_quantiles_array(v, n, QS, NQ, out_arr), 0);
    for (int i = 0; i < NQ; i++) {
        const uint64_t rank = nr_quantile_rank(QS[i], n);
        if (out[i] != sorted[rank - 1] || out_arr[i] != sorted[rank - 1])
            fail_msg("q=%g n=%zu rank=%llu: exact %lld, array %lld, sort %lld", QS[i], n,
                     (unsigned long long)rank, (long long)out[i], (long long)out_arr[i],
                     (long long)sorted[rank - 1]);
    }
    free(sorted);
    return m.passes;
}

/* ceil(q*N) with decimal q read as intended: 0.07 * 100 is 7.000000000000001 in doubles. */
static void ranks(void **state)
{
    assert_int_equal(nr_quantile_rank(0.5, 10), 5);
    assert_int_equal(nr_quantile_rank(0.5, 11), 6);   /* ceil(5.5) */
    assert_int_equal(nr_quantile_rank(0.07, 100), 7);
    assert_int_equal(nr_quantile_rank(0.999, 1000), 999);
    assert_int_equal(nr_quantile_rank(0.9999, 1000), 1000); /* ceil(999.9) */
    assert_int_equal(nr_quantile_rank(1.0, 12345), 12345);
    assert_int_equal(nr_quantile_rank(1e-9, 12345), 1);
    assert_int_equal(nr_quantile_rank(0.5, 0), 0);
    const int64_t v[] = {5, 1, 3};
    int64_t out[2];
    const double q[] = {0.5, 1.0};
    assert_int_equal(nr_quantiles_array(v, 3, q, 2, out), 0); /* ranks 2 and 3 of 1,3,5 */
    assert_int_equal(out[0], 3);
    assert_int_equal(out[1], 5);
}

static void random_with_duplicates_and_extremes(void **state)
{
    enum { N = 200003 };
    int64_t *v = malloc(N * sizeof *v);
    for (size_t i = 0; i < N; i++) {
        const uint64_t r = next_u64();
        switch (r % 8) {
        case 0: v[i] = (int64_t)(r >> 40) % 100; break;          /* small, many duplicates */
        case 1: v[i] = -(int64_t)((r >> 20) % 5000000); break;    /* negatives */
        case 2: v[i] = (int64_t)(next_u64() >> 1); break;          /* huge positives */
        case 3: v[i] = (int64_t)next_u64(); break;                 /* anything */
        case 4: v[i] = i % 1000 == 0 ? INT64_MIN : INT64_MAX; break;
        default: v[i] = 1000 + (int64_t)((r >> 30) % 3000000); break; /* latency-like */
        }
    }
    check_against_sort(v, N, 7);
    check_against_sort(v, N, 4096);
    check_against_sort(v, 1, 1);
    check_against_sort(v, 17, 3);
    free(v);
}

/* More than COLLECT_MAX (131072) distinct values in one pass-1 bucket force
 * refining passes: 300,000 values in [2^50, 2^50 + 2^20) lie in one bucket
 * (width 2^40), then in one sub-bucket (width 2^24), then 256-wide ranges. */
static void crowded_bucket_is_refined(void **state)
{
    enum { N = 300000 };
    int64_t *v = malloc(N * sizeof *v);
    for (size_t i = 0; i < N; i++)
        v[i] = (INT64_C(1) << 50) + (int64_t)(next_u64() % (1u << 20));
    const int passes = check_against_sort(v, N, 1000);
    assert_int_equal(passes, 4); /* histogram, two refinements, collection */
    for (size_t i = 0; i < N; i++) /* one value repeated: resolved after pass 1 */
        v[i] = i == 5 ? 7 : 123456789;
    assert_int_equal(check_against_sort(v, N, 999), 2); /* histogram, one refinement to a single key */
    free(v);
}

static void empty_source(void **state)
{
    mem_source m = {.n = 0, .batch = 10};
    nr_value_source src = {.ctx = &m, .rewind = mem_rewind, .next = mem_next};
    int64_t out[NQ];
    uint64_t count = 99;
    nr_error err;
    assert_int_equal(nr_quantiles_exact(&src, QS, NQ, out, &count, &err), 0);
    assert_int_equal(count, 0);
    for (int i = 0; i < NQ; i++)
        assert_int_equal(out[i], -1);
    assert_int_equal(nr_quantiles_array(NULL, 0, QS, NQ, out), 0);
    assert_int_equal(out[0], -1);
}

static void errors(void **state)
{
    /* one pass-1 bucket (width 2^19): the values are collected in pass 2 */
    const int64_t v[] = {1000000003, 1000000001, 1000000002, 1000000005, 1000000004};
    int64_t out[NQ];
    uint64_t count;
    nr_error err;
    mem_source m = {.vals = v, .n = 5, .batch = 2, .fail_on_pass = 2};
    nr_value_source src = {.ctx = &m, .rewind = mem_rewind, .next = mem_next};
    assert_int_equal(nr_quantiles_exact(&src, QS, NQ, out, &count, &err), NR_E_IO);
    assert_non_null(strstr(err.msg, "pass 2"));
    mem_source g = {.vals = v, .n = 5, .batch = 2, .grow_on_pass = 2, .extra = 3};
    src.ctx = &g;
    assert_int_equal(nr_quantiles_exact(&src, QS, NQ, out, &count, &err), NR_E_INPUT);
    const double bad[] = {0.5, 0.2};
    mem_source ok = {.vals = v, .n = 5, .batch = 2};
    src.ctx = &ok;
    assert_int_equal(nr_quantiles_exact(&src, bad, 2, out, &count, &err), NR_E_USAGE);
    const double zero[] = {0.0};
    assert_int_equal(nr_quantiles_exact(&src, zero, 1, out, &count, &err), NR_E_USAGE);
    assert_int_equal(nr_quantiles_array(v, 5, bad, 2, out), NR_E_USAGE);
}

/* v with 20 * log10(v) within 1e-9 of edge k: only a power of ten lies on an
 * edge exactly (in bin k); any other v is on one side of it, too near for
 * long double to tell which. */
static void check_bin_at_edge(int64_t v, int b, int k)
{
    int64_t power = 1;
    for (int i = 0; k % 20 == 0 && i < k / 20 && power <= INT64_MAX / 10; i++)
        power *= 10;
    if (k % 20 == 0 && v == power) {
        if (b != k)
            fail_msg("v=%lld, a power of ten, in bin %d, not %d", (long long)v, b, k);
    } else if (b != k && b != k + 1) {
        fail_msg("v=%lld in bin %d, next to edge %d", (long long)v, b, k);
    }
}

/* Bins by definition: bin 0 holds v <= 1, bin b holds 10^((b-1)/20) < v <= 10^(b/20). */
static void loghist_bins(void **state)
{
    assert_int_equal(nr_loghist_bin(-5), 0);
    assert_int_equal(nr_loghist_bin(0), 0);
    assert_int_equal(nr_loghist_bin(1), 0);
    assert_int_equal(nr_loghist_bin(2), 7);     /* 10^(6/20) = 1.995 < 2 <= 10^(7/20) = 2.239 */
    assert_int_equal(nr_loghist_bin(10), 20);   /* exactly 10^1 */
    assert_int_equal(nr_loghist_bin(11), 21);
    assert_int_equal(nr_loghist_bin(1000), 60);
    assert_int_equal(nr_loghist_bin(1001), 61);
    assert_int_equal(nr_loghist_bin(1000000000000), 240); /* 1000 s */
    assert_int_equal(nr_loghist_bin(1000000000001), 241);
    assert_int_equal(nr_loghist_bin(INT64_MAX), 259);
    assert_true(nr_loghist_bin_upper(20) == 10.0);
    assert_true(isinf(nr_loghist_bin_upper(259)));
    assert_int_equal(nr_loghist_bin_limit(20), 10);
    assert_int_equal(nr_loghist_bin_limit(7), 2);
    for (int i = 0; i < 200000; i++) {
        const int64_t v = (int64_t)(next_u64() >> (1 + next_u64() % 62));
        const int b = nr_loghist_bin(v);
        if (v <= 1) {
            assert_int_equal(b, 0);
            continue;
        }
        const long double lv = log10l((long double)v) * 20;
        if (fabsl(lv - roundl(lv)) < 1e-9L) { /* on a bin edge, where log10l's last bit (it differs between CPUs) cannot decide */
            check_bin_at_edge(v, b, (int)roundl(lv));
            continue;
        }
        if (!(b == 259 ? lv > 258 : (lv <= b && lv > b - 1)))
            fail_msg("v=%lld in bin %d, 20*log10(v) = %.12Lf", (long long)v, b, lv);
    }
}

static void loghist_add_merge(void **state)
{
    nr_loghist a, b;
    nr_loghist_init(&a);
    nr_loghist_init(&b);
    nr_loghist_add(&a, 5);
    nr_loghist_add(&a, 2000);
    nr_loghist_add(&b, -3);
    nr_loghist_add(&b, 2000);
    nr_loghist_merge(&a, &b);
    assert_int_equal(a.n, 4);
    assert_int_equal(a.min, -3);
    assert_int_equal(a.max, 2000);
    assert_int_equal(a.counts[nr_loghist_bin(2000)], 2);
    assert_int_equal(a.counts[0], 1);
    nr_loghist e;
    nr_loghist_init(&e);
    nr_loghist_merge(&e, &a);
    assert_int_equal(e.min, -3);
    assert_int_equal(e.n, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ranks),
        cmocka_unit_test(random_with_duplicates_and_extremes),
        cmocka_unit_test(crowded_bucket_is_refined),
        cmocka_unit_test(empty_source),
        cmocka_unit_test(errors),
        cmocka_unit_test(loghist_bins),
        cmocka_unit_test(loghist_add_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
