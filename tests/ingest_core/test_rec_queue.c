/* Unit tests of ingest/rec_queue.c: records come back in the order they
 * went in, from memory and from the temporary file, any number of times;
 * a queue read takes no more records; a damaged temporary file is an
 * error, not wrong records. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "rec_queue.h"

typedef struct rec {
    int64_t i, square;
} rec;

static void push_n(nr_rec_queue *q, int64_t n)
{
    nr_error err;
    for (int64_t i = 0; i < n; i++) {
        const rec r = {.i = i, .square = i * i};
        assert_int_equal(nr_rec_queue_push(q, &r, &err), 0);
    }
}

/* Reads the queue from its start: records 0..n-1, in order, then the end. */
static void read_back(nr_rec_queue *q, int64_t n)
{
    nr_error err;
    assert_int_equal(nr_rec_queue_rewind(q, &err), 0);
    const void *p;
    for (int64_t i = 0; i < n; i++) {
        assert_int_equal(nr_rec_queue_next(q, &p, &err), 1);
        const rec *r = p;
        assert_int_equal(r->i, i);
        assert_int_equal(r->square, i * i);
    }
    assert_int_equal(nr_rec_queue_next(q, &p, &err), 0);
    assert_int_equal(nr_rec_queue_next(q, &p, &err), 0);
}

static void records_within_a_block_stay_in_memory(void **state)
{
    (void)state;
    nr_rec_queue q;
    nr_rec_queue_init(&q, sizeof(rec), 100 * sizeof(rec));
    push_n(&q, 100);
    assert_int_equal(nr_rec_queue_count(&q), 100);
    read_back(&q, 100);
    read_back(&q, 100);
    assert_int_equal(q.spool.fd, -1); /* no temporary file */
    nr_rec_queue_free(&q);
}

/* 1000 records in blocks of 7: 142 full blocks and one of 6 on disk. */
static void records_past_a_block_go_to_disk(void **state)
{
    (void)state;
    nr_rec_queue q;
    nr_rec_queue_init(&q, sizeof(rec), 7 * sizeof(rec));
    push_n(&q, 1000);
    assert_true(q.spool.fd >= 0);
    assert_int_equal(q.block_cap, 7); /* the memory of a block, whatever the count */
    read_back(&q, 1000);
    read_back(&q, 1000);
    assert_int_equal(nr_rec_queue_count(&q), 1000);
    nr_rec_queue_free(&q);

    nr_rec_queue_init(&q, sizeof(rec), 7 * sizeof(rec)); /* full blocks only */
    push_n(&q, 700);
    read_back(&q, 700);
    nr_rec_queue_free(&q);

    nr_rec_queue_init(&q, sizeof(rec), 7 * sizeof(rec)); /* one block and one record */
    push_n(&q, 8);
    read_back(&q, 8);
    nr_rec_queue_free(&q);
}

static void an_empty_queue_reads_nothing(void **state)
{
    (void)state;
    nr_rec_queue q;
    nr_rec_queue_init(&q, sizeof(rec), 1);
    assert_int_equal(q.block_recs, 1); /* a block is at least a record */
    read_back(&q, 0);
    nr_rec_queue_free(&q);
    nr_rec_queue_free(&q); /* freed twice: nothing to free */
}

static void a_queue_read_takes_no_more_records(void **state)
{
    (void)state;
    nr_rec_queue q;
    nr_rec_queue_init(&q, sizeof(rec), 4 * sizeof(rec));
    push_n(&q, 3);
    nr_error err;
    const void *p;
    assert_int_equal(nr_rec_queue_next(&q, &p, &err), NR_E_INPUT); /* not rewound */
    read_back(&q, 3);
    const rec r = {0};
    assert_int_equal(nr_rec_queue_push(&q, &r, &err), NR_E_INPUT);
    assert_non_null(strstr(err.msg, "once read"));
    read_back(&q, 3);
    nr_rec_queue_free(&q);
}

/* The temporary file's bytes changed under the queue: an error naming
 * its folder, never records made up. */
static void a_damaged_temporary_file_is_an_error(void **state)
{
    (void)state;
    nr_rec_queue q;
    nr_rec_queue_init(&q, sizeof(rec), 5 * sizeof(rec));
    push_n(&q, 20);
    nr_error err;
    assert_int_equal(nr_rec_queue_rewind(&q, &err), 0);
    const uint32_t bad_count = 1000; /* more records than a block holds */
    assert_int_equal(pwrite(q.spool.fd, &bad_count, sizeof bad_count, 0), (ssize_t)sizeof bad_count);
    const void *p;
    assert_int_equal(nr_rec_queue_next(&q, &p, &err), NR_E_IO);
    assert_non_null(strstr(err.msg, "changed under niorep"));
    nr_rec_queue_free(&q);

    nr_rec_queue_init(&q, sizeof(rec), 5 * sizeof(rec));
    push_n(&q, 20);
    assert_int_equal(nr_rec_queue_rewind(&q, &err), 0);
    const unsigned char junk[8] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4}; /* the first block's compressed bytes */
    assert_int_equal(pwrite(q.spool.fd, junk, sizeof junk, 8), (ssize_t)sizeof junk);
    assert_int_equal(nr_rec_queue_next(&q, &p, &err), NR_E_IO);
    nr_rec_queue_free(&q);
}

/* A parked queue holds no buffers and all its records on disk; more
 * records may follow, and it reads back whole. */
static void a_parked_queue_frees_its_buffers(void **state)
{
    (void)state;
    nr_error err;
    for (int uncompressed = 0; uncompressed <= 1; uncompressed++) {
        nr_rec_queue q;
        nr_rec_queue_init(&q, sizeof(rec), 7 * sizeof(rec));
        q.uncompressed = uncompressed;
        push_n(&q, 3); /* less than a block: to disk all the same */
        assert_int_equal(nr_rec_queue_park(&q, &err), 0);
        assert_null(q.block);
        assert_null(q.packed);
        assert_null(q.cctx);
        assert_true(q.spool.fd >= 0);
        for (int64_t i = 3; i < 40; i++) { /* and more after it */
            const rec r = {.i = i, .square = i * i};
            assert_int_equal(nr_rec_queue_push(&q, &r, &err), 0);
        }
        assert_int_equal(nr_rec_queue_park(&q, &err), 0);
        assert_int_equal(nr_rec_queue_park(&q, &err), 0); /* twice: nothing new */
        read_back(&q, 40);
        read_back(&q, 40);
        assert_int_equal(nr_rec_queue_park(&q, &err), NR_E_INPUT);
        nr_rec_queue_free(&q);

        nr_rec_queue_init(&q, sizeof(rec), 7 * sizeof(rec)); /* parked empty */
        q.uncompressed = uncompressed;
        assert_int_equal(nr_rec_queue_park(&q, &err), 0);
        read_back(&q, 0);
        nr_rec_queue_free(&q);
    }
}

/* Blocks as they are: the same records, and a head that does not match
 * its block's size is an error. */
static void uncompressed_blocks_read_back(void **state)
{
    (void)state;
    nr_rec_queue q;
    nr_rec_queue_init(&q, sizeof(rec), 7 * sizeof(rec));
    q.uncompressed = 1;
    push_n(&q, 1000);
    read_back(&q, 1000);
    assert_int_equal(q.spool.size, 143 * 8 + 1000 * sizeof(rec)); /* heads and the records' own bytes */
    const uint32_t bad_size[2] = {7, 7 * sizeof(rec) - 1};
    assert_int_equal(pwrite(q.spool.fd, bad_size, sizeof bad_size, 0), (ssize_t)sizeof bad_size);
    nr_error err;
    const void *p;
    assert_int_equal(nr_rec_queue_rewind(&q, &err), 0);
    assert_int_equal(nr_rec_queue_next(&q, &p, &err), NR_E_IO);
    assert_non_null(strstr(err.msg, "changed under niorep"));
    nr_rec_queue_free(&q);
}

/* $TMPDIR that cannot hold the file: /tmp does. */
static void tmpdir_that_cannot_hold_it_falls_back(void **state)
{
    (void)state;
    setenv("TMPDIR", "/nonexistent/niorep-test", 1);
    nr_rec_queue q;
    nr_rec_queue_init(&q, sizeof(rec), 2 * sizeof(rec));
    push_n(&q, 9);
    read_back(&q, 9);
    assert_string_equal(q.spool.dir, "/tmp");
    nr_rec_queue_free(&q);
    unsetenv("TMPDIR");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(records_within_a_block_stay_in_memory),
        cmocka_unit_test(records_past_a_block_go_to_disk),
        cmocka_unit_test(an_empty_queue_reads_nothing),
        cmocka_unit_test(a_queue_read_takes_no_more_records),
        cmocka_unit_test(a_damaged_temporary_file_is_an_error),
        cmocka_unit_test(tmpdir_that_cannot_hold_it_falls_back),
        cmocka_unit_test(a_parked_queue_frees_its_buffers),
        cmocka_unit_test(uncompressed_blocks_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
