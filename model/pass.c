/* The streaming passes over table events: one row group at a time, only the
 * columns a pass needs, each row resolved (file kind, phase, process role,
 * file system) and handed to the statistics. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"
#include "pass.h"

/* Default value of a column the store lacks (older or partial stores). */
static int64_t column_default(int col)
{
    switch (col) {
    case NR_EV_BYTES:
    case NR_EV_FLAGS:
        return 0;
    case NR_EV_OP_CLASS:
        return NR_OP_OTHER;
    default:
        return -1;
    }
}

int nr__reader_open(nr__reader *r, const nr_store *s, uint32_t want, nr_error *err)
{
    memset(r, 0, sizeof *r);
    r->t = nr_store_find_table(s, "events");
    r->want = want;
    for (int c = 0; c < NR_EV_COL_COUNT; c++) {
        nr_col_chunk_init(&r->ch[c]);
        r->col[c] = -1;
        if (!(want & NR__COL(c)) || !r->t)
            continue;
        r->col[c] = nr_store_col_index(r->t, nr_events_table.cols[c].name);
        if (r->col[c] >= 0) {
            nr_col_info info;
            nr_store_col_info(r->t, (size_t)r->col[c], &info);
            const nr_col_type expect = nr_events_table.cols[c].type;
            if (info.type != expect)
                return nr_error_set(err, NR_E_FORMAT, "table events: column %s has type %s, expected %s",
                                    info.name, nr_col_type_name(info.type), nr_col_type_name(expect));
        }
    }
    return 0;
}

void nr__reader_close(nr__reader *r)
{
    nr__ahead_stop(r);
    for (int c = 0; c < NR_EV_COL_COUNT; c++)
        nr_col_chunk_fini(&r->ch[c]);
    free(r->defaults);
    r->defaults = NULL;
}

static int ensure_defaults(nr__reader *r, size_t n)
{
    if (n <= r->defaults_cap)
        return 0;
    free(r->defaults);
    r->defaults_cap = 0;
    r->defaults = malloc(n * NR_EV_COL_COUNT * sizeof *r->defaults);
    if (!r->defaults)
        return NR_E_NOMEM;
    r->defaults_cap = n;
    return 0;
}

/* Fills a missing I64 column of n rows (n <= defaults_cap) with its default. */
static void fill_default(nr__reader *r, int c, size_t n)
{
    int64_t *col = r->defaults + (size_t)c * r->defaults_cap;
    const int64_t v = column_default(c);
    for (size_t i = 0; i < n; i++)
        col[i] = v;
    r->i64[c] = col;
}

int nr__reader_decode(const nr__reader *r, size_t rg, nr_col_chunk ch[NR_EV_COL_COUNT], nr_error *err)
{
    const size_t n = (size_t)nr_store_rowgroup_rows(r->t, rg);
    size_t cols[NR_EV_COL_COUNT], k = 0;
    nr_col_chunk *into[NR_EV_COL_COUNT];
    for (int c = 0; c < NR_EV_COL_COUNT; c++)
        if ((r->want & NR__COL(c)) && r->col[c] >= 0) {
            cols[k] = (size_t)r->col[c];
            into[k++] = &ch[c];
        }
    /* together: tid, file_id, result and offset read pid, bytes or file_id
       (their transforms' columns), decoded once so */
    NR_TRY(nr_store_read_chunks(r->t, rg, k, cols, into, err));
    for (int c = 0; c < NR_EV_COL_COUNT; c++) {
        if (!(r->want & NR__COL(c)) || r->col[c] < 0)
            continue;
        if (ch[c].n != n)
            return nr_error_set(err, NR_E_FORMAT,
                                "table events: row group %zu column %s has %zu values, expected %zu",
                                rg, nr_events_table.cols[c].name, ch[c].n, n);
    }
    return 0;
}

int nr__reader_load(nr__reader *r, size_t rg, size_t *nrows, nr_error *err)
{
    const size_t n = (size_t)nr_store_rowgroup_rows(r->t, rg);
    int taken = r->ahead ? nr__ahead_take(r, rg, err) : 0;
    if (taken < 0)
        return taken;
    if (!taken)
        NR_TRY(nr__reader_decode(r, rg, r->ch, err));
    if (r->ahead && rg + 1 < nr_store_table_rowgroups(r->t))
        nr__ahead_ask(r, rg + 1);
    for (int c = 0; c < NR_EV_COL_COUNT; c++) {
        r->i64[c] = NULL;
        r->str[c] = NULL;
        if (!(r->want & NR__COL(c)))
            continue;
        if (r->col[c] < 0) {
            if (nr_events_table.cols[c].type == NR_COL_STR)
                continue;   /* strings default to NULL */
            NR_TRY(ensure_defaults(r, n));
            fill_default(r, c, n);
            continue;
        }
        r->i64[c] = r->ch[c].i64;
        r->str[c] = r->ch[c].str;
    }
    *nrows = n;
    return 0;
}

int nr__lat_op_of(int64_t op_class)
{
    switch (op_class) {
    case NR_OP_READ: return NR_LAT_READ;
    case NR_OP_WRITE: return NR_LAT_WRITE;
    case NR_OP_OPEN: return NR_LAT_OPEN;
    case NR_OP_SYNC: return NR_LAT_SYNC;
    case NR_OP_META: return NR_LAT_META;
    default: return -1;
    }
}

/* The body of nr__reader_event, inlined into the event loops of the passes
 * (one call per event per pass is a measurable share of the model's time).
 * latency_only: returns 1 as soon as the event is known to be no latency
 * sample's (nr__latency_file; the later passes count nothing else), e left
 * partly filled. */
static inline __attribute__((always_inline)) void resolve_file(const nr_model *m, int64_t file_id, nr__event *e)
{
    e->file_row = file_id >= 0 ? nr__idmap_lookup(&m->file_ids, file_id) : -1;
    if (e->file_row >= 0) {
        const nr__fileinfo fi = m->file_info[e->file_row];
        e->kind = fi.kind;
        e->reg = fi.reg;
        e->fs = fi.fs;
    } else {
        e->kind = NR_KIND_UNKNOWN;
        e->reg = -1;
        e->fs = 0;
    }
}

static inline __attribute__((always_inline)) int resolve_event(const nr__reader *r, nr_model *m, size_t i,
                                                               int may_add_proc, int latency_only, nr__event *e)
{
#define GET(c) (r->i64[c] ? r->i64[c][i] : column_default(c))
    resolve_file(m, GET(NR_EV_FILE_ID), e);
    if (latency_only && e->reg < 0 && !nr__latency_file((int)GET(NR_EV_OP_CLASS), e->kind, e->file_row))
        return 1;
    e->ts = GET(NR_EV_TS_NS);
    e->dur = GET(NR_EV_DUR_NS);
    e->pid = GET(NR_EV_PID);
    e->fd = GET(NR_EV_FD);
    e->bytes = GET(NR_EV_BYTES);
    e->offset = GET(NR_EV_OFFSET);
    e->result = GET(NR_EV_RESULT);
    e->flags = GET(NR_EV_FLAGS);
    const int64_t op = GET(NR_EV_OP_CLASS);
    const int64_t phase_id = GET(NR_EV_PHASE_ID);
#undef GET
    e->syscall = r->str[NR_EV_SYSCALL] ? r->str[NR_EV_SYSCALL][i] : NULL;
    e->op = op >= 0 && op < NR_OP_CLASS_COUNT ? (int)op : NR_OP_OTHER;
    e->lat_op = nr__lat_op_of(e->op);

    const int64_t ph = phase_id >= 0 ? nr__idmap_lookup(&m->phase_ids, phase_id) : -1;
    e->phase = ph >= 0 ? (size_t)ph : m->unphased;

    const size_t slot = (size_t)e->pid & 63;
    if (m->pid_cache_key[slot] == e->pid) {
        e->proc = m->pid_cache_val[slot];
    } else {
        if (!may_add_proc && nr__idmap_get(&m->pids, e->pid) < 0)
            return NR_E_INPUT;   /* cannot happen after pass 1 added every pid */
        size_t p;
        NR_TRY(nr__proc_index(m, e->pid, e->ts, &p));
        if (!nr__pid_reused(m, e->pid)) {
            m->pid_cache_key[slot] = e->pid;
            m->pid_cache_val[slot] = (uint32_t)p;
        }
        e->proc = p;
    }
    e->role = m->procs[e->proc].role;
    return 0;
}

int nr__reader_event(nr__reader *r, nr_model *m, size_t i, int may_add_proc, nr__event *e)
{
    return resolve_event(r, m, i, may_add_proc, 0, e);
}

/* Whether row i is a two-ended call (sendfile, copy_file_range, splice)
 * whose source is known: events.file2_id. */
static inline int has_source(const nr__reader *r, size_t i)
{
    return r->i64[NR_EV_FILE2_ID] && r->i64[NR_EV_FILE2_ID][i] != -1; /* below -1: dangling */
}

/* The source side of e, a two-ended call (has_source): one read call of
 * file2_id of e's bytes (docs/definitions.md, "Bytes"). Its time is the
 * destination's (no second duration, no latency) and its offset unknown
 * (the store keeps the destination's). Until session 46 the model read no
 * file2_id: a file staged with sendfile showed no bytes read (review 46). */
static inline void source_side(const nr__reader *r, const nr_model *m, size_t i, const nr__event *e,
                               nr__event *src)
{
    *src = *e;
    resolve_file(m, r->i64[NR_EV_FILE2_ID][i], src);
    src->op = NR_OP_READ;
    src->lat_op = -1;
    src->dur = -1;
    src->offset = -1;
}

/* An event's file or phase id that its table lacks: refused, as merge
 * refuses it; until session 50 the model counted such a call as of an
 * unknown file or unphased (review 50), and until session 55 one below -1
 * (-1 is none) as such a call still. */
static int dangling(const char *table, const char *col, int64_t id, nr_error *err)
{
    return nr_error_set(err, NR_E_FORMAT, "an event refers to %s %" PRId64 ", which table %s lacks", col, id, table);
}

/* Times, durations and sizes beyond 2^62 (a time after the year 2116) come
 * from no trace: refused, so that no sum of them overflows (review 50:
 * crafted stores made the model's sums wrap, a negative I/O time); so does a
 * duration below -1 (none), which the latency statistics left out unnoted
 * until session 54 (the lexer's wrapped "<10000000000.0>" made one). */
#define EVENT_VALUE_MAX ((int64_t)1 << 62)

static int out_of_range(const nr__event *e, nr_error *err)
{
    if (e->dur < -1) /* no ingest writes one since revision 16 */
        return nr_error_set(err, NR_E_FORMAT, "an event's dur_ns %" PRId64 " is out of range (negative; -1 is "
                                              "none): a store of an older ingest? ingest its run again", e->dur);
    const char *col = e->ts > EVENT_VALUE_MAX ? "ts_ns" : e->dur > EVENT_VALUE_MAX ? "dur_ns" : "bytes";
    const int64_t v = e->ts > EVENT_VALUE_MAX ? e->ts : e->dur > EVENT_VALUE_MAX ? e->dur : e->bytes;
    return nr_error_set(err, NR_E_FORMAT, "an event's %s %" PRId64 " is out of range (above 2^62)", col, v);
}

/* The rows of one loaded row group, one loop per pass: the pass is decided
 * once per row group, not per event. Pass 1 also checks every event's ids
 * and values. */
static int pass1_rows(const nr__reader *r, nr_model *m, size_t n, nr_error *err)
{
    for (size_t i = 0; i < n; i++) {
        nr__event e;
        NR_TRY(resolve_event(r, m, i, 1, 0, &e));
        if (e.file_row < 0 && r->i64[NR_EV_FILE_ID][i] != -1)
            return dangling("files", "file_id", r->i64[NR_EV_FILE_ID][i], err);
        if (e.phase == m->unphased && r->i64[NR_EV_PHASE_ID][i] != -1)
            return dangling("phases", "phase_id", r->i64[NR_EV_PHASE_ID][i], err);
        if (e.ts > EVENT_VALUE_MAX || e.dur > EVENT_VALUE_MAX || e.dur < -1 || e.bytes > EVENT_VALUE_MAX)
            return out_of_range(&e, err);
        m->totals.events++;
        nr__phases_add(m, &e);
        nr__access_add(m, &e);
        nr__fidelity_add(m, &e);
        if (m->tl_state == NR__TL_PREDICTED)
            nr__timeline_add(m, &e);
        if (e.op == NR_OP_WRITE)   /* the rest are no burst's: no call for them */
            NR_TRY(nr__bursts_add(m, &e));
        NR_TRY(nr__latency_add(m, &e));
        if (has_source(r, i)) {
            nr__event src;
            source_side(r, m, i, &e, &src);
            if (src.file_row < 0)
                return dangling("files", "file2_id", r->i64[NR_EV_FILE2_ID][i], err);
            nr__phases_add(m, &src);
            nr__access_add(m, &src);
            if (m->tl_state == NR__TL_PREDICTED)
                nr__timeline_add(m, &src);
        }
    }
    return 0;
}

static int pass2_rows(const nr__reader *r, nr_model *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        nr__event e;
        const int two_ended = has_source(r, i);
        const int rc = resolve_event(r, m, i, 0, !two_ended, &e);
        if (rc < 0)
            return rc;
        if (two_ended) {
            nr__event src;
            source_side(r, m, i, &e, &src);
            if (m->tl_state == NR__TL_PASS2)
                nr__timeline_add(m, &src);
            nr__access_count_size(m, &src);
        }
        if (rc != 0)
            continue;   /* no latency file: no timeline, no latency */
        if (e.reg < 0) {   /* a sync of a directory or of no file: latency only */
            NR_TRY(nr__latency_collect(m, &e));
            continue;
        }
        if (m->tl_state == NR__TL_PASS2)
            nr__timeline_add(m, &e);
        nr__access_count_size(m, &e);
        if (e.op == NR_OP_WRITE && m->burst_state)   /* pass 2 of the bursts (bursts.c) */
            NR_TRY(nr__bursts_add(m, &e));
        nr__latency_slow_bytes(m, &e);
        NR_TRY(nr__latency_collect(m, &e));
    }
    return 0;
}

static int pass3_rows(const nr__reader *r, nr_model *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        nr__event e;
        const int rc = resolve_event(r, m, i, 0, 1, &e);
        if (rc != 0) {
            if (rc < 0)
                return rc;
            continue;   /* no latency file: no latency */
        }
        NR_TRY(nr__latency_collect(m, &e));
    }
    return 0;
}

/* Pass 1: every per-event statistic (the bursts' largest piece included); pass 2: timeline,
 * the bursts, slow-read bytes and the first quantile search; pass 3 (repeated while needed): quantile search. */
int nr__pass_events(nr_model *m, const nr_store *s, int pass, nr_error *err)
{
    static const uint32_t pass_cols[4] = {
        [1] = NR__COL(NR_EV_TS_NS) | NR__COL(NR_EV_DUR_NS) | NR__COL(NR_EV_PID) |
              NR__COL(NR_EV_SYSCALL) | NR__COL(NR_EV_OP_CLASS) | NR__COL(NR_EV_FILE_ID) |
              NR__COL(NR_EV_BYTES) | NR__COL(NR_EV_OFFSET) | NR__COL(NR_EV_FLAGS) |
              NR__COL(NR_EV_PHASE_ID) | NR__COL(NR_EV_FILE2_ID),
        [2] = NR__COL(NR_EV_TS_NS) | NR__COL(NR_EV_DUR_NS) | NR__COL(NR_EV_PID) |
              NR__COL(NR_EV_OP_CLASS) | NR__COL(NR_EV_FILE_ID) | NR__COL(NR_EV_BYTES) |
              NR__COL(NR_EV_FLAGS) | NR__COL(NR_EV_PHASE_ID) | NR__COL(NR_EV_FILE2_ID),
        [3] = NR__COL(NR_EV_DUR_NS) | NR__COL(NR_EV_PID) | NR__COL(NR_EV_OP_CLASS) |
              NR__COL(NR_EV_FILE_ID) | NR__COL(NR_EV_BYTES) | NR__COL(NR_EV_FLAGS) |
              NR__COL(NR_EV_PHASE_ID),
    };
    uint32_t want = pass_cols[pass];
    if (pass == 2 && m->tl_state != NR__TL_PASS2 && !nr__bursts_want_pass2(m))
        want &= ~NR__COL(NR_EV_TS_NS);   /* only the timeline and the bursts need timestamps again */
    nr__reader r;
    int rc = nr__reader_open(&r, s, want, err);
    if (rc < 0 || !r.t) {
        nr__reader_close(&r);
        return rc;
    }
    nr__ahead_start(&r, m->opts.threads);
    nr__pid_cache_reset(m);
    const size_t ngroups = nr_store_table_rowgroups(r.t);
    for (size_t rg = 0; rg < ngroups && rc >= 0; rg++) {
        size_t n;
        rc = nr__reader_load(&r, rg, &n, err);
        if (rc < 0)
            break;
        if (pass == 1)
            rc = pass1_rows(&r, m, n, err);
        else if (pass == 2)
            rc = pass2_rows(&r, m, n);
        else
            rc = pass3_rows(&r, m, n);
    }
    if (rc == NR_E_NOMEM && !err->msg[0])
        nr_error_set(err, rc, "out of memory while reading table events");
    nr__reader_close(&r);
    return rc < 0 ? rc : 0;
}
