/* Tests of nr_store_merge on small node stores written by hand, with every
 * merged row worked out by hand (docs/multi-node.md, "The merge"): the k-way
 * order of events, qualified pids, the file identity rule (and
 * --files-by-node), phases numbered by begin, diagnostics and meta; and the
 * refusals: another run, the same node twice, a different time base, a pid
 * beyond the span, an event naming a missing file; no output then. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "nr_schema.h"
#include "nr_store_merge.h"

static char tmp_dir[256];

static void tmp_path(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", tmp_dir, name);
}

/* ---- writing a node store --------------------------------------------- */

/* One row: i[k] for I64 columns, s[k] for STR columns (NULL = ""). */
typedef struct row { int64_t i[16]; const char *s[16]; } row;

typedef struct node_spec {
    const char *node, *run, *time_base;
    const row *events, *files, *procs, *phases, *diags;
    size_t nevents, nfiles, nprocs, nphases, ndiags;
    const char *const *meta;   /* key, value, key, value, ..., NULL */
    int before_end_ts;         /* 1: table processes as ingest revision 25 wrote it, without end_ts_ns */
} node_spec;

static void put_rows(nr_store_writer *w, const nr_table_def *def, const row *rows, size_t n)
{
    nr_table_writer *t;
    nr_error err;
    assert_int_equal(nr_store_writer_add_table(w, def, &t, &err), 0);
    for (size_t r = 0; r < n; r++) {
        for (size_t k = 0; k < def->ncols; k++) {
            if (def->cols[k].type == NR_COL_I64) {
                nr_table_set_i64(t, k, rows[r].i[k]);
            } else {
                const char *s = rows[r].s[k] ? rows[r].s[k] : "";
                nr_table_set_str(t, k, s, strlen(s));
            }
        }
        assert_int_equal(nr_table_end_row(t, &err), 0);
    }
}

static void write_node(const char *path, const node_spec *n)
{
    nr_store_writer *w;
    nr_error err;
    assert_int_equal(nr_store_writer_create(path, &w, &err), 0);
    put_rows(w, &nr_events_table, n->events, n->nevents);
    put_rows(w, &nr_files_table, n->files, n->nfiles);
    /* end_ts_ns is the last column: a revision 25 store is the others */
    const nr_table_def rev25 = {"processes", nr_processes_table.cols, NR_PR_END_TS_NS};
    put_rows(w, n->before_end_ts ? &rev25 : &nr_processes_table, n->procs, n->nprocs);
    put_rows(w, &nr_diagnostics_table, n->diags, n->ndiags);
    row meta[32];
    size_t nm = 0;
    const char *fixed[] = {"manifest.labels.run", n->run, "manifest.labels.node", n->node, "time_base", n->time_base};
    for (size_t i = 0; i < 6; i += 2)
        if (fixed[i + 1])
            meta[nm++] = (row){.s = {fixed[i], fixed[i + 1]}};
    for (size_t i = 0; n->meta && n->meta[i]; i += 2)
        meta[nm++] = (row){.s = {n->meta[i], n->meta[i + 1]}};
    put_rows(w, &nr_meta_table, meta, nm);
    put_rows(w, &nr_phases_table, n->phases, n->nphases);
    put_rows(w, &nr_pyio_table, NULL, 0);
    assert_int_equal(nr_store_writer_commit(w, &err), 0);
    nr_store_writer_destroy(w);
}

/* events: ts dur pid tid syscall op fd file file2 bytes offset result errno flags phase */
#define EV(ts, pid, op, file, bytes, dur, phase) \
    {.i = {ts, dur, pid, pid, 0, op, 3, file, -1, bytes, 0, bytes, 0, 0, phase}, .s = {[NR_EV_SYSCALL] = (op) ? "write" : "read"}}
/* files: id path kind bytes_read bytes_written read_calls write_calls ... first last */
#define FI(id, path, kind, br, bw, first, last) \
    {.i = {id, 0, kind, br, bw, (br) > 0, (bw) > 0, 1, 1, 0, 0, first, last}, .s = {[NR_FI_PATH] = path}}
/* processes: tid pid ppid is_thread first last exe exit killed events signals */
#define PR(tid, ppid) {.i = {tid, tid, ppid, 0, 100, 300, 0, 0, 0, 1, 0}, .s = {[NR_PR_EXE] = "/bin/x"}}
/* phases: id pid tid name begin end depth parent flags */
#define PH(id, pid, name, begin, end) {.i = {id, pid, pid, 0, begin, end, 0, -1, 0}, .s = {[NR_PH_NAME] = name}}
/* diagnostics: reason count file line example */
#define DG(reason, count, file, line, example) \
    {.i = {0, count, 0, line, 0}, .s = {[NR_DG_REASON] = reason, [NR_DG_FILE] = file, [NR_DG_EXAMPLE] = example}}

static const row n1_events[] = {
    EV(100, 10, NR_OP_READ, 0, 5, 7, 0),
    EV(300, 11, NR_OP_WRITE, 1, 3, 9, -1),
};
static const row n1_files[] = {
    FI(0, "/data/a", NR_KIND_REGULAR, 5, 0, 100, 100),
    FI(1, "pipe:[#1]", NR_KIND_PIPE, 0, 3, 300, 300),
};
static const row n1_procs[] = {PR(10, -1), PR(11, 10)};
static const row n1_phases[] = {PH(0, 10, "train", 50, 400)};
static const row n1_diags[] = {
    DG("unknown_line", 3, "strace.log", 7, "junk"),
    DG("unknown_line", 3, "strace.log", 9, "junk2"),
};
static const char *const n1_meta[] = {
    "lines_read", "10", "log_files", "1", "log.0.name", "strace.log", "trace_first_ts_ns", "100",
    "trace_last_ts_ns", "300", "manifest.host.name", "h1", "manifest.labels.workload", "w", "has_hook", "0", NULL,
};

static const row n2_events[] = {
    EV(100, 10, NR_OP_READ, 0, 4, 2, 0),
    EV(200, 10, NR_OP_READ, 1, 1, 1, 1),
    EV(250, 10, NR_OP_WRITE, 2, 6, 1, 1),
};
static const row n2_files[] = {
    FI(0, "/data/a", NR_KIND_REGULAR, 4, 0, 100, 100),
    FI(1, "/tmp/x", NR_KIND_REGULAR, 1, 0, 200, 200),
    FI(2, "pipe:[#1]", NR_KIND_PIPE, 0, 6, 250, 250),
};
static const row n2_procs[] = {PR(10, -1)};
static const row n2_phases[] = {PH(0, 10, "data_prep", 20, 90), PH(1, 10, "train", 150, 260)};
static const row n2_diags[] = {
    DG("no_durations", 1, "", 0, ""),
    DG("unknown_line", 2, "strace.log", 1, "x"),
};
static const char *const n2_meta[] = {
    "lines_read", "5", "log_files", "1", "log.0.name", "strace.log", "trace_first_ts_ns", "90",
    "trace_last_ts_ns", "250", "manifest.host.name", "h2", "manifest.labels.workload", "w", "has_hook", "1", NULL,
};

#define N(a) (sizeof a / sizeof a[0])
static node_spec n1_spec(void)
{
    return (node_spec){"n1", "r", "unix", n1_events, n1_files, n1_procs, n1_phases, n1_diags,
                       N(n1_events), N(n1_files), N(n1_procs), N(n1_phases), N(n1_diags), n1_meta, 0};
}
static node_spec n2_spec(void)
{
    return (node_spec){"n2", "r", "unix", n2_events, n2_files, n2_procs, n2_phases, n2_diags,
                       N(n2_events), N(n2_files), N(n2_procs), N(n2_phases), N(n2_diags), n2_meta, 0};
}

/* ---- reading the merged store ----------------------------------------- */

#define MAX_ROWS 64
typedef struct table_data {
    size_t n;
    int64_t i[MAX_ROWS][16];
    char s[MAX_ROWS][16][64];
} table_data;

static void read_table(const nr_store *s, const nr_table_def *def, table_data *d)
{
    const nr_store_table *t = nr_store_find_table(s, def->name);
    assert_non_null(t);
    memset(d, 0, sizeof *d);
    nr_col_chunk c;
    nr_col_chunk_init(&c);
    nr_error err;
    size_t base = 0;
    for (size_t rg = 0; rg < nr_store_table_rowgroups(t); rg++) {
        for (size_t k = 0; k < def->ncols; k++) {
            assert_int_equal(nr_store_read_chunk(t, (size_t)nr_store_col_index(t, def->cols[k].name), rg, &c, &err), 0);
            for (size_t r = 0; r < c.n && base + r < MAX_ROWS; r++) {
                if (def->cols[k].type == NR_COL_I64)
                    d->i[base + r][k] = c.i64[r];
                else
                    snprintf(d->s[base + r][k], 64, "%s", c.str[r]);
            }
        }
        base += nr_store_rowgroup_rows(t, rg);
    }
    d->n = base;
    nr_col_chunk_fini(&c);
    assert_true(base <= MAX_ROWS);
}

static const char *meta_of(const table_data *m, const char *key)
{
    for (size_t r = 0; r < m->n; r++)
        if (strcmp(m->s[r][NR_MT_KEY], key) == 0)
            return m->s[r][NR_MT_VALUE];
    return NULL;
}

static void assert_meta(const table_data *m, const char *key, const char *want)
{
    const char *got = meta_of(m, key);
    if (!want) {
        if (got)
            fail_msg("meta %s = '%s', expected none", key, got);
        return;
    }
    if (!got)
        fail_msg("meta %s missing, expected '%s'", key, want);
    assert_string_equal(got, want);
}

/* Merges parts a and b (in that argument order) into `out`; returns the code. */
static int merge2(const node_spec *a, const node_spec *b, const char *out, int by_node, nr_error *err)
{
    char pa[512], pb[512];
    tmp_path(pa, sizeof pa, "a.nio");
    tmp_path(pb, sizeof pb, "b.nio");
    write_node(pa, a);
    write_node(pb, b);
    const char *parts[] = {pa, pb};
    const nr_merge_opts opts = {.files_by_node = by_node};
    nr_error_clear(err);
    return nr_store_merge(parts, 2, out, &opts, err);
}

/* ---- tests ------------------------------------------------------------ */

static void test_merged_rows(void **state)
{
    (void)state;
    char out[512];
    tmp_path(out, sizeof out, "r.nio");
    const node_spec a = n2_spec(), b = n1_spec();   /* given n2 first: parts go by node label */
    nr_error err;
    assert_int_equal(merge2(&a, &b, out, 0, &err), 0);
    nr_store *s;
    assert_int_equal(nr_store_open(out, &s, &err), 0);
    static table_data d;

    /* events: k-way by (ts, part); n1 = part 0, n2 = part 1 (pids + 10^7) */
    read_table(s, &nr_events_table, &d);
    assert_int_equal(d.n, 5);
    const int64_t want_ev[5][4] = {
        /* ts, pid, file_id, phase_id */
        {100, 10, 0, 1},             /* n1: /data/a, n1's train (begin 50) */
        {100, 10000010, 0, 0},       /* n2: /data/a (shared), n2's data_prep (begin 20) */
        {200, 10000010, 1, 2},       /* n2: /tmp/x, n2's train (begin 150) */
        {250, 10000010, 2, 2},       /* n2: n2:pipe:[#1] */
        {300, 11, 3, -1},            /* n1: n1:pipe:[#1] */
    };
    for (size_t r = 0; r < 5; r++) {
        assert_int_equal(d.i[r][NR_EV_TS_NS], want_ev[r][0]);
        assert_int_equal(d.i[r][NR_EV_PID], want_ev[r][1]);
        assert_int_equal(d.i[r][NR_EV_TID], want_ev[r][1]);
        assert_int_equal(d.i[r][NR_EV_FILE_ID], want_ev[r][2]);
        assert_int_equal(d.i[r][NR_EV_PHASE_ID], want_ev[r][3]);
        assert_int_equal(d.i[r][NR_EV_FILE2_ID], -1);
    }

    /* files: by first use; /data/a is one file with the sum of both nodes */
    read_table(s, &nr_files_table, &d);
    assert_int_equal(d.n, 4);
    const char *want_path[] = {"/data/a", "/tmp/x", "n2:pipe:[#1]", "n1:pipe:[#1]"};
    const int64_t want_fi[4][4] = {{5 + 4, 0, 100, 100}, {1, 0, 200, 200}, {0, 6, 250, 250}, {0, 3, 300, 300}};
    for (size_t r = 0; r < 4; r++) {
        assert_int_equal(d.i[r][NR_FI_FILE_ID], (int64_t)r);
        assert_string_equal(d.s[r][NR_FI_PATH], want_path[r]);
        assert_int_equal(d.i[r][NR_FI_BYTES_READ], want_fi[r][0]);
        assert_int_equal(d.i[r][NR_FI_BYTES_WRITTEN], want_fi[r][1]);
        assert_int_equal(d.i[r][NR_FI_FIRST_TS_NS], want_fi[r][2]);
        assert_int_equal(d.i[r][NR_FI_LAST_TS_NS], want_fi[r][3]);
    }
    assert_int_equal(d.i[0][NR_FI_OPEN_CALLS], 2);

    /* processes: part 0 then part 1, qualified (ppid too) */
    read_table(s, &nr_processes_table, &d);
    assert_int_equal(d.n, 3);
    const int64_t want_pr[3][3] = {{10, 10, -1}, {11, 11, 10}, {10000010, 10000010, -1}};
    for (size_t r = 0; r < 3; r++) {
        assert_int_equal(d.i[r][NR_PR_TID], want_pr[r][0]);
        assert_int_equal(d.i[r][NR_PR_PID], want_pr[r][1]);
        assert_int_equal(d.i[r][NR_PR_PPID], want_pr[r][2]);
    }

    /* phases: by begin over both nodes */
    read_table(s, &nr_phases_table, &d);
    assert_int_equal(d.n, 3);
    const char *want_ph[] = {"data_prep", "train", "train"};
    const int64_t want_begin[] = {20, 50, 150}, want_ph_pid[] = {10000010, 10, 10000010};
    for (size_t r = 0; r < 3; r++) {
        assert_int_equal(d.i[r][NR_PH_PHASE_ID], (int64_t)r);
        assert_string_equal(d.s[r][NR_PH_NAME], want_ph[r]);
        assert_int_equal(d.i[r][NR_PH_BEGIN_NS], want_begin[r]);
        assert_int_equal(d.i[r][NR_PH_PID], want_ph_pid[r]);
        assert_int_equal(d.i[r][NR_PH_PARENT_ID], -1);
    }

    /* diagnostics: counts added per reason, examples kept with "<node>/" files */
    read_table(s, &nr_diagnostics_table, &d);
    assert_int_equal(d.n, 4);
    assert_string_equal(d.s[0][NR_DG_REASON], "no_durations");
    assert_int_equal(d.i[0][NR_DG_COUNT], 1);
    assert_string_equal(d.s[0][NR_DG_FILE], "");
    const char *want_dg_file[] = {"n1/strace.log", "n1/strace.log", "n2/strace.log"};
    const char *want_dg_ex[] = {"junk", "junk2", "x"};
    for (size_t r = 1; r < 4; r++) {
        assert_string_equal(d.s[r][NR_DG_REASON], "unknown_line");
        assert_int_equal(d.i[r][NR_DG_COUNT], 3 + 2);
        assert_string_equal(d.s[r][NR_DG_FILE], want_dg_file[r - 1]);
        assert_string_equal(d.s[r][NR_DG_EXAMPLE], want_dg_ex[r - 1]);
    }

    /* meta */
    read_table(s, &nr_meta_table, &d);
    assert_meta(&d, "manifest.labels.run", "r");
    assert_meta(&d, "manifest.labels.workload", "w");
    assert_meta(&d, "manifest.labels.node", NULL);
    assert_meta(&d, "manifest.host.name", NULL);
    assert_meta(&d, "part.0.manifest.host.name", "h1");
    assert_meta(&d, "part.1.manifest.host.name", "h2");
    assert_meta(&d, "part.1.manifest.labels.node", "n2");
    assert_meta(&d, "part.0.node", "n1");
    assert_meta(&d, "part.1.pid_base", "10000000");
    assert_meta(&d, "part.1.store", "a.nio");
    assert_meta(&d, "merged_parts", "2");
    assert_meta(&d, "lines_read", "15");
    assert_meta(&d, "log_files", "2");
    assert_meta(&d, "log.0.name", "n1/strace.log");
    assert_meta(&d, "log.1.name", "n2/strace.log");
    assert_meta(&d, "trace_first_ts_ns", "90");
    assert_meta(&d, "trace_last_ts_ns", "300");
    assert_meta(&d, "events", "5");
    assert_meta(&d, "has_hook", "1");
    assert_meta(&d, "time_base", "unix");
    nr_store_close(s);
}

static void test_files_by_node(void **state)
{
    (void)state;
    char out[512];
    tmp_path(out, sizeof out, "r-by-node.nio");
    const node_spec a = n1_spec(), b = n2_spec();
    nr_error err;
    assert_int_equal(merge2(&a, &b, out, 1, &err), 0);
    nr_store *s;
    assert_int_equal(nr_store_open(out, &s, &err), 0);
    static table_data d;
    read_table(s, &nr_files_table, &d);
    assert_int_equal(d.n, 5);
    const char *want[] = {"n1:/data/a", "n2:/data/a", "n2:/tmp/x", "n2:pipe:[#1]", "n1:pipe:[#1]"};
    for (size_t r = 0; r < 5; r++)
        assert_string_equal(d.s[r][NR_FI_PATH], want[r]);
    assert_int_equal(d.i[0][NR_FI_BYTES_READ], 5);
    assert_int_equal(d.i[1][NR_FI_BYTES_READ], 4);
    nr_store_close(s);
}

/* Mount lists are united entry by entry, not compared key by key: n2's
 * second mount differs from n1's, and n2 lists n1's second one third. */
static void test_mount_lists_united(void **state)
{
    (void)state;
    static const char *const a_meta[] = {
        "manifest.fs.0.mount_point", "/", "manifest.fs.0.type", "ext4",
        "manifest.fs.1.mount_point", "/data", "manifest.fs.1.type", "nfs", NULL,
    };
    static const char *const b_meta[] = {
        "manifest.fs.0.mount_point", "/", "manifest.fs.0.type", "ext4",
        "manifest.fs.1.mount_point", "/scratch", "manifest.fs.1.type", "lustre",
        "manifest.fs.10.mount_point", "/z", "manifest.fs.10.type", "xfs",
        "manifest.fs.2.mount_point", "/data", "manifest.fs.2.type", "nfs", NULL,
    };
    node_spec a = n1_spec(), b = n2_spec();
    a.meta = a_meta;
    b.meta = b_meta;
    char out[512];
    tmp_path(out, sizeof out, "r-mounts.nio");
    nr_error err;
    assert_int_equal(merge2(&a, &b, out, 0, &err), 0);
    nr_store *s;
    assert_int_equal(nr_store_open(out, &s, &err), 0);
    static table_data d;
    read_table(s, &nr_meta_table, &d);
    const char *const want[] = {
        "manifest.fs.0.mount_point", "/", "manifest.fs.0.type", "ext4",
        "manifest.fs.1.mount_point", "/data", "manifest.fs.1.type", "nfs",
        "manifest.fs.2.mount_point", "/scratch", "manifest.fs.2.type", "lustre",
        "manifest.fs.3.mount_point", "/z", "manifest.fs.3.type", "xfs",
        "manifest.fs.4.mount_point", NULL, "part.1.manifest.fs.1.mount_point", NULL,
        "part.0.manifest.fs.1.type", NULL,
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i += 2)
        assert_meta(&d, want[i], want[i + 1]);
    nr_store_close(s);
}

/* files_not_read (the run folder's entries not read) is the parts' sum
 * when every part has it, and absent when one part, of a niorep before
 * session 50, has none: its number is unknown, not 0. */
static void test_files_not_read_summed_when_known(void **state)
{
    (void)state;
    static const char *const a_meta[] = {"files_not_read", "2", NULL};
    static const char *const b_meta[] = {"files_not_read", "1", NULL};
    for (int known = 1; known >= 0; known--) {
        node_spec a = n1_spec(), b = n2_spec();
        a.meta = a_meta;
        b.meta = known ? b_meta : NULL;
        char out[512];
        tmp_path(out, sizeof out, known ? "r-notread.nio" : "r-notread-old.nio");
        nr_error err;
        assert_int_equal(merge2(&a, &b, out, 0, &err), 0);
        nr_store *s;
        assert_int_equal(nr_store_open(out, &s, &err), 0);
        static table_data d;
        read_table(s, &nr_meta_table, &d);
        assert_meta(&d, "files_not_read", known ? "3" : NULL);
        assert_meta(&d, "part.0.files_not_read", NULL);
        nr_store_close(s);
    }
}

static void test_no_timestamps_concatenate(void **state)
{
    (void)state;
    row e1[] = {EV(-1, 10, NR_OP_READ, 0, 5, -1, -1), EV(-1, 11, NR_OP_READ, 0, 6, -1, -1)};
    row e2[] = {EV(-1, 10, NR_OP_READ, 0, 7, -1, -1)};
    node_spec a = n1_spec(), b = n2_spec();
    a.time_base = b.time_base = "none";
    a.events = e1;
    a.nevents = 2;
    b.events = e2;
    b.nevents = 1;
    char out[512];
    tmp_path(out, sizeof out, "r-none.nio");
    nr_error err;
    assert_int_equal(merge2(&b, &a, out, 0, &err), 0);
    nr_store *s;
    assert_int_equal(nr_store_open(out, &s, &err), 0);
    static table_data d;
    read_table(s, &nr_events_table, &d);
    assert_int_equal(d.n, 3);
    const int64_t want_bytes[] = {5, 6, 7};
    for (size_t r = 0; r < 3; r++)
        assert_int_equal(d.i[r][NR_EV_BYTES], want_bytes[r]);
    nr_store_close(s);
}

/* A shared path takes the kind a node learned over the default regular,
 * whichever node sorts first: n1 only stat'd /ck (regular), n2 made it
 * (directory). Until session 45 the first node's kind stayed (review 45). */
static void test_kind_learned_by_any_node(void **state)
{
    (void)state;
    row f1[] = {FI(0, "/ck", NR_KIND_REGULAR, 0, 0, 100, 100)};
    row f2[] = {FI(0, "/ck", NR_KIND_DIRECTORY, 0, 0, 90, 90)};
    row ev[] = {EV(100, 10, NR_OP_META, 0, 0, -1, -1)};
    node_spec a = n1_spec(), b = n2_spec();
    a.files = f1, a.nfiles = 1, a.events = ev, a.nevents = 1, a.nphases = 0;
    b.files = f2, b.nfiles = 1, b.events = ev, b.nevents = 1, b.nphases = 0;
    for (int order = 0; order < 2; order++) {
        char out[512];
        tmp_path(out, sizeof out, "r-kind.nio");
        nr_error err;
        assert_int_equal(order ? merge2(&b, &a, out, 0, &err) : merge2(&a, &b, out, 0, &err), 0);
        nr_store *s;
        assert_int_equal(nr_store_open(out, &s, &err), 0);
        static table_data d;
        read_table(s, &nr_files_table, &d);
        assert_int_equal(d.n, 1);
        assert_int_equal(d.i[0][NR_FI_KIND], NR_KIND_DIRECTORY);
        nr_store_close(s);
    }
}

/* The merge fails with code and a message holding needle; no output is left. */
static void expect_refusal(const node_spec *a, const node_spec *b, int code, const char *needle)
{
    char out[512];
    tmp_path(out, sizeof out, "refused.nio");
    unlink(out);
    nr_error err;
    assert_int_equal(merge2(a, b, out, 0, &err), code);
    if (!strstr(err.msg, needle))
        fail_msg("message '%s' lacks '%s'", err.msg, needle);
    assert_int_not_equal(access(out, F_OK), 0);
}

static void test_refusals(void **state)
{
    (void)state;
    const node_spec n1 = n1_spec(), n2 = n2_spec();
    node_spec other = n2;
    other.run = "r2";
    expect_refusal(&n1, &other, NR_E_INPUT, "is part of run 'r2' but");
    expect_refusal(&n1, &n1, NR_E_INPUT, "both hold node 'n1' of run 'r'");
    node_spec unlabelled = n2;
    unlabelled.node = NULL;
    expect_refusal(&n1, &unlabelled, NR_E_INPUT, "no node label");
    node_spec clock = n2;
    clock.time_base = "clock";
    expect_refusal(&n1, &clock, NR_E_INPUT, "time base 'clock'");
    /* stamps without a date, or counted from each node's start, cannot
       line the nodes up even when every node has them (review 45) */
    node_spec clock1 = n1;
    clock1.time_base = "clock";
    expect_refusal(&clock1, &clock, NR_E_INPUT, "merge on the Unix clock only");
    node_spec rel1 = n1, rel2 = n2;
    rel1.time_base = rel2.time_base = "relative";
    expect_refusal(&rel1, &rel2, NR_E_INPUT, "time base 'relative': the nodes of a run merge on the Unix clock");
    /* a node traced with -T and one without: the latter's calls would
       count as 0 s in I/O */
    static const char *const timed_meta[] = {"has_durations", "1", NULL};
    node_spec timed = n2;
    timed.meta = timed_meta;
    expect_refusal(&n1, &timed, NR_E_INPUT, "was traced with -T but");
    row big_pid[] = {EV(100, NR_MERGE_PID_SPAN, NR_OP_READ, 0, 4, 2, 0)};
    node_spec big = n2;
    big.events = big_pid;
    big.nevents = 1;
    expect_refusal(&n1, &big, NR_E_LIMIT, "pid 10000000 is not below");
    row lost_file[] = {EV(100, 10, NR_OP_READ, 9, 4, 2, 0)};
    node_spec lost = n2;
    lost.events = lost_file;
    lost.nevents = 1;
    expect_refusal(&n1, &lost, NR_E_FORMAT, "file_id 9, which table files lacks");
}

/* opts.progress: first 0 of the parts' rows (events, pyio, marks: 2 + 3
 * events here), last all of them, never going back. Until session 49 a
 * merge had no callback and `niorep merge` no bar. */
typedef struct progress_log {
    uint64_t done[16], total[16];
    size_t n;
} progress_log;

static void log_progress(void *ctx, uint64_t done, uint64_t total)
{
    progress_log *l = ctx;
    if (l->n < 16) {
        l->done[l->n] = done;
        l->total[l->n] = total;
    }
    l->n++;
}

static void test_progress_counts_the_rows(void **state)
{
    (void)state;
    char pa[512], pb[512], out[512];
    tmp_path(pa, sizeof pa, "a.nio");
    tmp_path(pb, sizeof pb, "b.nio");
    tmp_path(out, sizeof out, "r.nio");
    const node_spec a = n1_spec(), b = n2_spec();
    write_node(pa, &a);
    write_node(pb, &b);
    const char *parts[] = {pa, pb};
    progress_log l = {0};
    const nr_merge_opts opts = {.progress = log_progress, .progress_ctx = &l};
    nr_error err;
    assert_int_equal(nr_store_merge(parts, 2, out, &opts, &err), 0);
    assert_true(l.n >= 2 && l.n <= 16);
    assert_int_equal(l.done[0], 0);
    assert_int_equal(l.done[l.n - 1], 5);
    for (size_t i = 0; i < l.n; i++) {
        assert_int_equal(l.total[i], 5);
        assert_true(i == 0 || l.done[i] >= l.done[i - 1]);
    }
}

/* One node store merges into a run of one part (since session 49): its
 * rows as they were (part 0's pid base is 0), node-local files named by
 * the node, merged_parts 1. */
static void test_one_part(void **state)
{
    (void)state;
    char pa[512], out[512];
    tmp_path(pa, sizeof pa, "a.nio");
    tmp_path(out, sizeof out, "r.nio");
    const node_spec a = n1_spec();
    write_node(pa, &a);
    const char *parts[] = {pa};
    nr_error err;
    assert_int_equal(nr_store_merge(parts, 1, out, NULL, &err), 0);
    nr_store *s;
    assert_int_equal(nr_store_open(out, &s, &err), 0);
    static table_data d;
    read_table(s, &nr_events_table, &d);
    assert_int_equal(d.n, 2);
    assert_int_equal(d.i[0][NR_EV_PID], 10);
    assert_int_equal(d.i[1][NR_EV_PID], 11);
    read_table(s, &nr_files_table, &d);
    assert_int_equal(d.n, 2);
    assert_string_equal(d.s[0][NR_FI_PATH], "/data/a");
    assert_string_equal(d.s[1][NR_FI_PATH], "n1:pipe:[#1]");
    read_table(s, &nr_meta_table, &d);
    assert_meta(&d, "merged_parts", "1");
    assert_meta(&d, "part.0.node", "n1");
    assert_meta(&d, "part.0.pid_base", "0");
    nr_store_close(s);
}

/* A node still on an ingest before revision 26 (a rolling upgrade): its
 * processes table lacks end_ts_ns, which the model reads as -1 (not
 * seen), and merge reads so too, where it refused the part before
 * ("lacks column end_ts_ns"); the other node's stamps are kept. */
static void test_older_part_reads_added_columns_as_missing(void **state)
{
    (void)state;
    char out[512];
    tmp_path(out, sizeof out, "old.nio");
    static const row stamped[] = {
        {.i = {10, 10, -1, 0, 100, 300, 0, 0, 0, 1, 0, 310}, .s = {[NR_PR_EXE] = "/bin/x"}},
    };
    node_spec a = n1_spec(), b = n2_spec();
    a.before_end_ts = 1;
    b.procs = stamped;
    b.nprocs = 1;
    nr_error err;
    assert_int_equal(merge2(&a, &b, out, 0, &err), 0);
    nr_store *s;
    assert_int_equal(nr_store_open(out, &s, &err), 0);
    static table_data d;
    read_table(s, &nr_processes_table, &d);
    assert_int_equal(d.n, 3);
    assert_int_equal(d.i[0][NR_PR_TID], 10); /* n1's: no column, not seen */
    assert_int_equal(d.i[0][NR_PR_END_TS_NS], -1);
    assert_int_equal(d.i[1][NR_PR_TID], 11);
    assert_int_equal(d.i[1][NR_PR_END_TS_NS], -1);
    assert_int_equal(d.i[2][NR_PR_TID], 10000010); /* n2's stamp */
    assert_int_equal(d.i[2][NR_PR_END_TS_NS], 310);
    assert_string_equal(d.s[0][NR_PR_EXE], "/bin/x");
    nr_store_close(s);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmp_dir, sizeof tmp_dir, "/tmp/nr_test_merge_XXXXXX");
    return mkdtemp(tmp_dir) ? 0 : -1;
}

/* every file the tests made, whatever its name: a list of names here
   missed one a later test added, and left the folder behind */
static int teardown(void **state)
{
    (void)state;
    DIR *dir = opendir(tmp_dir);
    if (!dir)
        return -1;
    char p[512];
    for (struct dirent *entry; (entry = readdir(dir));) {
        if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..")) {
            tmp_path(p, sizeof p, entry->d_name);
            unlink(p);
        }
    }
    closedir(dir);
    return rmdir(tmp_dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merged_rows),
        cmocka_unit_test(test_files_by_node),
        cmocka_unit_test(test_no_timestamps_concatenate),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_kind_learned_by_any_node),
        cmocka_unit_test(test_mount_lists_united),
        cmocka_unit_test(test_files_not_read_summed_when_known),
        cmocka_unit_test(test_progress_counts_the_rows),
        cmocka_unit_test(test_one_part),
        cmocka_unit_test(test_older_part_reads_added_columns_as_missing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
