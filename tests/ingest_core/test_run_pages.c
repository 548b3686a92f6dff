/* Unit tests of ingest/run_pages.c: a lookup finds the run a linear scan
 * of the same runs finds, in memory and through pages on disk, for times
 * in order, backwards and at random; two threads' pages share a spool;
 * a damaged page is an error, not a wrong phase. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "run_pages.h"

/* Runs begin in pairs 10 apart, the second of a pair 4 later or (every
 * third run) at the same time, an empty run; run i is phase i * 7, or
 * UINT32_MAX (no phase). */
static int64_t begin_of(size_t i) { return (int64_t)(10 * (i / 2) + (i % 2 && i % 3 ? 4 : 0)); }
static uint32_t phase_of(size_t i) { return i % 5 == 4 ? UINT32_MAX : (uint32_t)(i * 7); }

/* What a lookup must answer: the last run that begins at or before ts. */
static int reference_at(size_t n, int64_t ts, uint32_t *phase)
{
    int found = 0;
    for (size_t i = 0; i < n && begin_of(i) <= ts; i++) {
        *phase = phase_of(i);
        found = 1;
    }
    return found;
}

static void fill(nr_run_pages *p, nr_spool *s, size_t n)
{
    nr_error err;
    for (size_t i = 0; i < n; i++)
        assert_int_equal(nr_run_pages_push(p, s, begin_of(i), phase_of(i), &err), 0);
    assert_int_equal(nr_run_pages_seal(p, s, &err), 0);
}

static void check_at(nr_run_pages *p, nr_spool *s, size_t n, int64_t ts)
{
    nr_error err;
    uint32_t want = 0, got = 0;
    const int want_rc = reference_at(n, ts, &want);
    const int rc = nr_run_pages_at(p, s, ts, &got, &err);
    if (rc != want_rc || (rc == 1 && got != want))
        fail_msg("%zu runs, ts %lld: expected %d/%u, got %d/%u", n, (long long)ts, want_rc, want, rc, got);
}

/* Every time from before the first run to past the last, forwards, then
 * backwards, then at random. */
static void check_all(nr_run_pages *p, nr_spool *s, size_t n)
{
    const int64_t last = n ? begin_of(n - 1) + 12 : 12;
    for (int64_t ts = -3; ts <= last; ts++)
        check_at(p, s, n, ts);
    for (int64_t ts = last; ts >= -3; ts--)
        check_at(p, s, n, ts);
    uint64_t x = 12345;
    for (int k = 0; k < 2000; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        check_at(p, s, n, (int64_t)((x >> 33) % (uint64_t)(last + 5)) - 3);
    }
}

static void runs_within_a_page_stay_in_memory(void **state)
{
    (void)state;
    nr_spool s = NR_SPOOL_INIT;
    for (size_t n = 0; n <= 50; n += 7) {
        nr_run_pages p;
        nr_run_pages_init(&p, 50);
        fill(&p, &s, n);
        assert_int_equal(p.page_count, 0);
        check_all(&p, &s, n);
        nr_run_pages_free(&p);
    }
    assert_int_equal(s.fd, -1); /* no temporary file */
    nr_spool_close(&s);
}

/* Pages of 8 runs: 1000 runs are 125 pages, 1001 one more of one run,
 * 9 a page and one; two threads write their pages into one spool. */
static void past_a_page_runs_go_to_disk(void **state)
{
    (void)state;
    const size_t counts[] = {1000, 1001, 9, 8};
    nr_spool s = NR_SPOOL_INIT;
    nr_run_pages p[4];
    for (size_t k = 0; k < 4; k++) {
        nr_run_pages_init(&p[k], 8);
        nr_error err;
        for (size_t i = 0; i < counts[k]; i++) /* interleaved: the threads share the spool */
            assert_int_equal(nr_run_pages_push(&p[k], &s, begin_of(i), phase_of(i), &err), 0);
    }
    for (size_t k = 0; k < 4; k++) {
        nr_error err;
        assert_int_equal(nr_run_pages_seal(&p[k], &s, &err), 0);
    }
    assert_int_equal(p[0].page_count, 125);
    assert_int_equal(p[1].page_count, 126);
    assert_int_equal(p[2].page_count, 2);
    assert_int_equal(p[3].page_count, 0); /* exactly a page: never left memory */
    assert_true(p[0].cap <= 8);
    for (size_t k = 0; k < 4; k++) {
        check_all(&p[k], &s, counts[k]);
        nr_run_pages_free(&p[k]);
    }
    nr_spool_close(&s);
}

static void a_damaged_page_is_an_error(void **state)
{
    (void)state;
    nr_spool s = NR_SPOOL_INIT;
    nr_run_pages p;
    nr_run_pages_init(&p, 8);
    fill(&p, &s, 100);
    const unsigned char junk[16] = {0x5a};
    assert_int_equal(pwrite(s.fd, junk, sizeof junk, (off_t)p.pages[3].off), (ssize_t)sizeof junk);
    nr_error err;
    uint32_t phase;
    assert_int_equal(nr_run_pages_at(&p, &s, begin_of(0), &phase, &err), 1);
    assert_int_equal(nr_run_pages_at(&p, &s, begin_of(3 * 8 + 1), &phase, &err), NR_E_IO);
    assert_non_null(strstr(err.msg, "changed under niorep"));
    assert_int_equal(nr_run_pages_at(&p, &s, begin_of(5 * 8), &phase, &err), 1); /* the other pages still read */
    assert_int_equal(phase, phase_of(5 * 8));
    nr_run_pages_free(&p);
    nr_spool_close(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(runs_within_a_page_stay_in_memory),
        cmocka_unit_test(past_a_page_runs_go_to_disk),
        cmocka_unit_test(a_damaged_page_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
