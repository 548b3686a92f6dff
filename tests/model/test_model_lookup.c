/* The model's look-ups by name and path (hook paths to store paths, phase
 * names, phase pids) against straightforward linear references, on tables
 * of thousands of paths and names chosen to collide: equal paths, suffixes
 * at and not at a '/', ties, names and pids met again and again (review 50,
 * findings 3 and 4: the look-ups were linear searches, quadratic in all). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model_internal.h"
#include "store_builder.h"

static nr_model *model_of(const char *path)
{
    nr_error err;
    nr_error_clear(&err);
    nr_store *s = NULL;
    if (nr_store_open(path, &s, &err) < 0)
        fail_msg("open %s: %s", path, err.msg);
    nr_model *m = NULL;
    const nr_model_opts opts = {.bootstraps = 0, .seed = 1};
    if (nr_model_compute(s, &opts, &m, &err) < 0)
        fail_msg("model %s: %s", path, err.msg);
    nr_store_close(s);
    return m;
}

/* A fixed xorshift sequence: the same tables on every run. */
static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* A path of 1-4 components from a small alphabet ("a", "b", "ab", "x.bin",
 * ...), absolute or not: many paths end alike, at a '/' and inside a name. */
static void random_path(uint64_t *x, char *out, size_t cap, int absolute)
{
    static const char *const parts[] = {"a", "b", "ab", "ba", "x.bin", "bx.bin", "home", "gpfs"};
    size_t at = 0;
    const int depth = 1 + (int)(rnd(x) % 4);
    for (int d = 0; d < depth; d++) {
        const char *p = parts[rnd(x) % (sizeof parts / sizeof *parts)];
        at += (size_t)snprintf(out + at, cap - at, "%s%s", d || absolute ? "/" : "", p);
    }
}

/* The matching rule as written before session 50, one store path after
 * another: the first equal path, else the first that ends with the hook
 * path after a '/' (relative) or whole (absolute). */
static int64_t match_reference(const nr_model *m, const char *path)
{
    const size_t n = strlen(path);
    int64_t suffix = -1;
    for (size_t i = 0; i < m->nreg; i++) {
        const char *p = m->reg_paths[i];
        if (strcmp(p, path) == 0)
            return (int64_t)i;
        const size_t pn = strlen(p);
        if (suffix < 0 && pn > n && (path[0] == '/' || p[pn - n - 1] == '/') && strcmp(p + pn - n, path) == 0)
            suffix = (int64_t)i;
    }
    return suffix;
}

enum { NFILES = 3000, NHOOK = 6000, PATHLEN = 64 };

/* 3,000 store paths (some twice, some not regular) read i + 1 bytes each,
 * so that the bytes name the file matched; 6,000 hook records of paths
 * drawn from the same alphabet, some of them store paths and suffixes of
 * them, each path's bytes summed. */
static void hook_paths_match_as_the_linear_rule(void **state)
{
    (void)state;
    static char paths[NFILES][PATHLEN], hooks[NHOOK][PATHLEN];
    static int64_t bytes[NHOOK];
    uint64_t x = 0x9e3779b97f4a7c15u;
    tb t;
    tb_open(&t, tb_path("lookup_pyio.nio"));
    tb_proc(&t, 1, -1, 0, SEC);
    for (int i = 0; i < NFILES; i++) {
        if (i > 10 && rnd(&x) % 10 == 0)
            memcpy(paths[i], paths[rnd(&x) % (uint64_t)i], PATHLEN); /* the same path again */
        else
            random_path(&x, paths[i], PATHLEN, rnd(&x) % 8 != 0);
        const int kind = rnd(&x) % 10 == 0 ? NR_KIND_PIPE : NR_KIND_REGULAR;
        tb_file(&t, i, paths[i], kind);
        tb_call(&t, i * US, US, 1, NR_OP_READ, i, i + 1, 0, -1);
    }
    for (int j = 0; j < NHOOK; j++) {
        const uint64_t how = rnd(&x) % 4;
        if (how == 0) { /* a store path */
            memcpy(hooks[j], paths[rnd(&x) % NFILES], PATHLEN);
        } else if (how == 1) { /* a tail of one, cut anywhere (at a '/', before it, inside a name) */
            const char *p = paths[rnd(&x) % NFILES];
            snprintf(hooks[j], PATHLEN, "%s", p + rnd(&x) % strlen(p));
        } else {
            random_path(&x, hooks[j], PATHLEN, how == 2);
        }
        if (!hooks[j][0])
            snprintf(hooks[j], PATHLEN, "a");
        bytes[j] = (int64_t)(rnd(&x) % 3) * 1000; /* 0: opened only */
        tb_pyio(&t, j * US, 1, hooks[j], bytes[j]);
    }
    tb_commit(&t);
    nr_model *m = model_of(tb_path("lookup_pyio.nio"));
    const nr_model_fidelity *f = nr_model_get_fidelity(m);
    size_t distinct = 0, matched = 0, by_suffix = 0;
    for (int j = 0; j < NHOOK; j++) {
        int first = 1;
        for (int k = 0; k < j && first; k++)
            first = strcmp(hooks[k], hooks[j]) != 0;
        distinct += first;
    }
    assert_int_equal(f->npyio, distinct);
    for (size_t i = 0; i < f->npyio; i++) {
        const nr_model_pyio_match *p = &f->pyio[i];
        if (i > 0)
            assert_true(strcmp(f->pyio[i - 1].path, p->path) < 0); /* sorted, distinct */
        uint64_t hook_bytes = 0;
        for (int j = 0; j < NHOOK; j++)
            hook_bytes += strcmp(hooks[j], p->path) == 0 ? (uint64_t)bytes[j] : 0;
        assert_int_equal(p->hook_bytes, hook_bytes);
        const int64_t ref = match_reference(m, p->path);
        assert_int_equal(p->matched, ref >= 0);
        assert_int_equal(p->strace_bytes, ref >= 0 ? (uint64_t)m->reg_total[ref] : 0);
        matched += ref >= 0;
        by_suffix += ref >= 0 && strcmp(m->reg_paths[ref], p->path) != 0;
    }
    /* the tables exercise both rules, and leave paths unmatched */
    assert_true(matched > 100 && by_suffix > 100 && matched < f->npyio);
    nr_model_free(m);
}

enum { NROWS = 5000, NNAMES = 800, NPIDS = 400 };

typedef struct ref_row { int64_t id, pid, begin, end, flags; char name[16]; } ref_row;

static int cmp_ref_row(const void *a, const void *b)
{
    const ref_row *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The intervals of rows named name (all when NULL), merged, as before
 * session 50: every row looked at for every name. */
static size_t merge_reference(const ref_row *r, size_t n, const char *name, nr_model_interval *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if ((name && strcmp(r[i].name, name) != 0) || r[i].end < r[i].begin)
            continue;
        if (k && r[i].begin <= out[k - 1].end_ns) {
            if (r[i].end > out[k - 1].end_ns)
                out[k - 1].end_ns = r[i].end;
            continue;
        }
        out[k++] = (nr_model_interval){r[i].begin, r[i].end};
    }
    return k;
}

/* 5,000 phase instances of 800 names by 400 pids, overlapping, touching,
 * some with equal begins, some never ended or ended before they began:
 * the names (in order of first begin), their counts, extents and merged
 * intervals, the union of all, and the pids in order of first begin are
 * those of a linear search. as_ingest: the rows in order of begin with
 * ids 0, 1, 2, ... in that order, as ingest and merge write them (the
 * model merges them as it reads them); else in no order (a copy sorted in
 * memory). */
static void check_phase_tables(const char *store, int as_ingest)
{
    static ref_row r[NROWS];
    static nr_model_interval want[NROWS];
    uint64_t x = 0x2545f4914f6cdd1du;
    for (int i = 0; i < NROWS; i++) {
        r[i].id = (int64_t)((uint64_t)(i * 7919) % NROWS); /* ids not in begin order */
        r[i].pid = 1 + (int64_t)(rnd(&x) % NPIDS);
        r[i].begin = (int64_t)(rnd(&x) % 20000) * MS / 4;
        const int64_t len = (int64_t)(rnd(&x) % 400) * MS - 10 * MS; /* a few end before they begin */
        r[i].end = r[i].begin + len;
        r[i].flags = (int64_t)(rnd(&x) % 4);
        snprintf(r[i].name, sizeof r[i].name, "p%u", (unsigned)(rnd(&x) % NNAMES));
    }
    if (as_ingest) {
        qsort(r, NROWS, sizeof *r, cmp_ref_row);
        for (int i = 0; i < NROWS; i++)
            r[i].id = i;
    }
    tb t;
    tb_open(&t, tb_path(store));
    tb_file(&t, 0, "/d/x", NR_KIND_REGULAR);
    tb_proc(&t, 1, -1, 0, 100 * SEC);
    for (int i = 0; i < NROWS; i++)
        tb_phase_flags(&t, r[i].id, r[i].pid, r[i].name, r[i].begin, r[i].end, r[i].flags);
    tb_call(&t, 0, US, 1, NR_OP_READ, 0, 10, 0, -1);
    tb_commit(&t);
    nr_model *m = model_of(tb_path(store));
    qsort(r, NROWS, sizeof *r, cmp_ref_row);

    /* names in order of first begin, each checked against its rows */
    size_t nnames = 0;
    for (size_t i = 0; i < NROWS; i++) {
        int first = 1;
        for (size_t k = 0; k < i && first; k++)
            first = strcmp(r[k].name, r[i].name) != 0;
        if (!first)
            continue;
        const nr_model_phase *p = nr_model_phase_at(m, nnames++);
        assert_string_equal(p->name, r[i].name);
        uint64_t instances = 0, never = 0, error = 0;
        int64_t last = r[i].end;
        for (size_t k = i; k < NROWS; k++) {
            if (strcmp(r[k].name, r[i].name) != 0)
                continue;
            instances++;
            never += (r[k].flags & 1) != 0;
            error += (r[k].flags & 2) != 0;
            last = r[k].end > last ? r[k].end : last;
        }
        assert_int_equal(p->instances, instances);
        assert_int_equal(p->never_ended, never);
        assert_int_equal(p->ended_by_error, error);
        assert_int_equal(p->first_ns, r[i].begin);
        assert_int_equal(p->last_ns, last);
        const size_t n = merge_reference(r, NROWS, r[i].name, want);
        assert_int_equal(p->n_intervals, n);
        assert_memory_equal(p->intervals, want, n * sizeof *want);
    }
    assert_int_equal(nr_model_phase_count(m), nnames + 1);
    assert_string_equal(nr_model_phase_at(m, nnames)->name, "unphased");
    assert_true(nnames > NNAMES / 2);
    const size_t nu = merge_reference(r, NROWS, NULL, want);
    assert_int_equal(m->n_phase_union, nu);
    assert_memory_equal(m->phase_union, want, nu * sizeof *want);

    size_t npids = 0;
    for (size_t i = 0; i < NROWS; i++) {
        int first = 1;
        for (size_t k = 0; k < i && first; k++)
            first = r[k].pid != r[i].pid;
        if (first) {
            assert_true(npids < m->nphase_pids);
            assert_int_equal(m->phase_pids[npids], r[i].pid);
            npids++;
        }
    }
    assert_int_equal(m->nphase_pids, npids);
    nr_model_free(m);
}

static void phase_tables_match_the_linear_search(void **state)
{
    (void)state;
    check_phase_tables("lookup_phases.nio", 0);
}

static void phase_tables_in_begin_order_match_the_linear_search(void **state)
{
    (void)state;
    check_phase_tables("lookup_phases_sorted.nio", 1);
}

/* Keys 0, 1, 2, ... go to the direct-indexed array; another key moves
 * them into the hash, and every value stays found; remap and densify
 * keep them. */
static void idmap_keeps_keys_in_order_and_out(void **state)
{
    (void)state;
    nr__idmap m;
    nr__idmap_init(&m);
    for (int64_t k = 0; k < 1000; k++)
        assert_int_equal(nr__idmap_put(&m, k, (uint32_t)(k % 7)), 0);
    assert_non_null(m.dense);
    assert_int_equal(m.cap, 0);
    assert_int_equal(nr__idmap_get(&m, 999), 999 % 7);
    assert_int_equal(nr__idmap_get(&m, 1000), -1);
    assert_int_equal(nr__idmap_get(&m, -1), -1);
    assert_int_equal(nr__idmap_put(&m, 1000, NR__IDMAP_NONE), NR_E_INPUT);
    const uint32_t to[7] = {10, 11, 12, 13, 14, 15, 16};
    nr__idmap_remap(&m, to, 7);
    assert_int_equal(nr__idmap_lookup(&m, 13), 10 + 13 % 7);
    assert_int_equal(nr__idmap_put(&m, 5000, 3), 0); /* out of order: the hash from now on */
    assert_null(m.dense);
    assert_int_equal(m.len, 1001);
    for (int64_t k = 0; k < 1000; k++)
        assert_int_equal(nr__idmap_get(&m, k), 10 + k % 7);
    assert_int_equal(nr__idmap_get(&m, 5000), 3);
    assert_int_equal(nr__idmap_put(&m, 7, 2), 0); /* a key again: replaced, not counted twice */
    assert_int_equal(m.len, 1001);
    assert_int_equal(nr__idmap_densify(&m), 0);
    assert_non_null(m.dense);
    assert_int_equal(nr__idmap_lookup(&m, 7), 2);
    assert_int_equal(nr__idmap_lookup(&m, 4999), -1);
    assert_int_equal(nr__idmap_lookup(&m, 5000), 3);
    nr__idmap_fini(&m);
    nr__idmap_init(&m); /* a first key other than 0: the hash at once */
    assert_int_equal(nr__idmap_put(&m, 3, 1), 0);
    assert_null(m.dense);
    assert_int_equal(nr__idmap_get(&m, 3), 1);
    nr__idmap_fini(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hook_paths_match_as_the_linear_rule),
        cmocka_unit_test(phase_tables_match_the_linear_search),
        cmocka_unit_test(phase_tables_in_begin_order_match_the_linear_search),
        cmocka_unit_test(idmap_keeps_keys_in_order_and_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
