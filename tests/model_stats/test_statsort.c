/* Known answers of model/statsort.c: its radix sorts against qsort, at the
 * sizes where it changes method (insertion sort up to 64 keys, 8-bit digits
 * below 1024, 11-bit digits from there). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "statsort.h"

static const size_t sizes[] = {0, 1, 2, 63, 64, 65, 300, 1023, 1024, 1025, 100000};

static int cmp_f64(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    if (x != y)
        return x < y ? -1 : 1;
    return signbit(y) - signbit(x); /* -0.0 before +0.0, as the sort's keys order them */
}

static int cmp_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* xorshift64*: the test's own stream, the same on every machine. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dULL;
}

/* Values of every kind the statistics sort: wide and narrow ranges (so
 * that passes are skipped), duplicates, negatives, signed zeros. */
static double draw_f64(uint64_t *s, int kind)
{
    const uint64_t r = next(s);
    switch (kind) {
    case 0: return (double)(r % 1000);                                  /* small counts, many ties */
    case 1: return ldexp((double)(r >> 11), -53) * 1e12;                /* byte totals */
    case 2: return (r & 1 ? -1.0 : 1.0) * ldexp((double)(r >> 12), (int)(r % 200) - 100); /* any sign and scale */
    default: return r % 3 == 0 ? -0.0 : r % 3 == 1 ? 0.0 : (double)(int64_t)(r % 5) - 2;
    }
}

static void sorts_doubles_as_qsort(void **state)
{
    (void)state;
    uint64_t seed = 36;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        for (int kind = 0; kind < 4; kind++) {
            const size_t n = sizes[i];
            double *got = malloc((n + 1) * sizeof *got), *want = malloc((n + 1) * sizeof *want);
            assert_non_null(got);
            assert_non_null(want);
            for (size_t j = 0; j < n; j++)
                got[j] = want[j] = draw_f64(&seed, kind);
            qsort(want, n, sizeof *want, cmp_f64);
            assert_int_equal(nr__sort_f64(got, n), 0);
            for (size_t j = 0; j < n; j++)
                if (memcmp(&got[j], &want[j], sizeof *got) != 0)
                    fail_msg("n %zu kind %d: [%zu] %.17g, qsort %.17g", n, kind, j, got[j], want[j]);
            free(got);
            free(want);
        }
    }
}

static void sorts_int64_as_qsort(void **state)
{
    (void)state;
    uint64_t seed = 7;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const size_t n = sizes[i];
        int64_t *got = malloc((n + 1) * sizeof *got), *want = malloc((n + 1) * sizeof *want);
        assert_non_null(got);
        assert_non_null(want);
        for (size_t j = 0; j < n; j++) {
            const uint64_t r = next(&seed);
            got[j] = want[j] = j % 2 ? (int64_t)r : (int64_t)(r % 100000) - 50000;
        }
        qsort(want, n, sizeof *want, cmp_i64);
        assert_int_equal(nr__sort_i64(got, n), 0);
        assert_memory_equal(got, want, n * sizeof *got);
        free(got);
        free(want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sorts_doubles_as_qsort),
        cmocka_unit_test(sorts_int64_as_qsort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
