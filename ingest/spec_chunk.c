/* spec_chunk: a chunk's lines through a speculative model, events captured
 * with their names; a mutex-guarded stack of spent chunks for reuse. */
#include "spec_chunk.h"

#include "syscalls.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Models kept for reuse: more than the chunks ever in flight. */
#define SPEC_POOL_MAX 32

struct nr_spec_pool {
    pthread_mutex_t mu;
    nr_spec_chunk *free[SPEC_POOL_MAX];
    size_t n;
    nr_pm_shared_table tables[NR_SPEC_TABLES_MAX]; /* with mu */
    size_t ntables;
    uint64_t tables_version; /* the pass's alone */
    int tables_set;
};

const char *nr_skip_reason(const nr_sline *sl, int truncated)
{
    switch (sl->kind) {
    case NR_SL_NOTICE: return "notice";
    case NR_SL_SUMMARY: return "summary_table";
    case NR_SL_CONTINUATION: return "continuation";
    default: break;
    }
    if (truncated)
        return "truncated_last_line";
    return sl->reason && sl->reason[0] ? sl->reason : "unknown_line";
}

int nr_take_cut_call(nr_diag *diag, nr_sline *sl, const nr_pm_where *w, int unterminated_last_line,
                     nr_error *err)
{
    /* a cut <... resumed> line has no arguments (the lexer gives a cut
       call's only) */
    if (unterminated_last_line || sl->kind != NR_SL_BAD || !sl->name.n || !sl->args.n || !sl->reason ||
        strcmp(sl->reason, "truncated") != 0)
        return 0;
    sl->kind = NR_SL_UNFINISHED;
    sl->reason = NULL;
    if (nr_diag_add(diag, "cut_call_line", w->file, w->line, w->text, w->len) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 1;
}

int nr_reject_resultless_call(nr_sline *sl, int unterminated_last_line)
{
    if (sl->kind != NR_SL_SYSCALL || sl->has_result || unterminated_last_line)
        return 0;
    sl->kind = NR_SL_BAD;
    sl->reason = "call_without_result";
    return 1;
}

int nr_note_cut_event(nr_diag *diag, const nr_sline *sl, const nr_pm_where *w, nr_error *err)
{
    if (!nr_sline_ends_whole(sl, w->text, w->len) &&
        nr_diag_add(diag, "unterminated_last_line", w->file, w->line, w->text, w->len) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 0;
}

int nr_note_result_tail(nr_diag *diag, nr_sline *sl, const nr_pm_where *w, nr_error *err)
{
    if (sl->dur_ns == NR_SLINE_DUR_UNREADABLE) {
        sl->dur_ns = -1;
        if (nr_diag_add(diag, "duration_unreadable", w->file, w->line, w->text, w->len) < 0)
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    }
    if (sl->result_tail_unread && nr_diag_add(diag, "result_tail_unread", w->file, w->line, w->text, w->len) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 0;
}

static void chunk_destroy(nr_spec_chunk *c)
{
    if (!c)
        return;
    nr_pm_destroy(c->pm);
    nr_diag_destroy(c->diag);
    free(c->events);
    nr_buf_fini(&c->names);
    free(c);
}

nr_spec_pool *nr_spec_pool_create(void)
{
    nr_spec_pool *pool = calloc(1, sizeof *pool);
    if (pool)
        pthread_mutex_init(&pool->mu, NULL);
    return pool;
}

void nr_spec_pool_destroy(nr_spec_pool *pool)
{
    if (!pool)
        return;
    for (size_t i = 0; i < pool->n; i++)
        chunk_destroy(pool->free[i]);
    pthread_mutex_destroy(&pool->mu);
    free(pool);
}

void nr_spec_pool_set_tables(nr_spec_pool *pool, const nr_pm *real)
{
    uint64_t version = nr_pm_tables_version(real);
    if (pool->tables_set && version == pool->tables_version)
        return;
    nr_pm_shared_table tables[NR_SPEC_TABLES_MAX];
    size_t n = nr_pm_shared_tables(real, tables, NR_SPEC_TABLES_MAX);
    pthread_mutex_lock(&pool->mu);
    memcpy(pool->tables, tables, n * sizeof *tables);
    pool->ntables = n;
    pthread_mutex_unlock(&pool->mu);
    pool->tables_version = version;
    pool->tables_set = 1;
}

/* The pool's hint, copied into c. */
static void take_tables(nr_spec_pool *pool, nr_spec_chunk *c)
{
    pthread_mutex_lock(&pool->mu);
    memcpy(c->tables, pool->tables, pool->ntables * sizeof *c->tables);
    c->ntables = pool->ntables;
    pthread_mutex_unlock(&pool->mu);
}

static nr_spec_chunk *pool_take(nr_spec_pool *pool)
{
    pthread_mutex_lock(&pool->mu);
    nr_spec_chunk *c = pool->n ? pool->free[--pool->n] : NULL;
    pthread_mutex_unlock(&pool->mu);
    return c;
}

void nr_spec_chunk_free(nr_spec_pool *pool, nr_spec_chunk *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&pool->mu);
    int kept = pool->n < SPEC_POOL_MAX && c->pm;
    if (kept)
        pool->free[pool->n++] = c;
    pthread_mutex_unlock(&pool->mu);
    if (!kept)
        chunk_destroy(c);
}

/* Copies name s into names: its span then holds the offset there, which
 * nr_spec_chunk_event turns back into a pointer. */
static int keep_name(nr_buf *names, nr_span *s)
{
    size_t at = names->len;
    NR_TRY(nr_buf_put(names, s->p, s->n));
    s->p = (const char *)(uintptr_t)at;
    return 0;
}

nr_pm_event *nr_spec_chunk_event(nr_spec_chunk *c, size_t i)
{
    nr_pm_event *ev = &c->events[i];
    const char *base = (const char *)c->names.data;
    if (!nr_syscall_ref_known(ev->syscall_ref) && ev->syscall.n) /* not the table's name (capture) */
        ev->syscall.p = base + (uintptr_t)ev->syscall.p;
    if (ev->errno_name.n)
        ev->errno_name.p = base + (uintptr_t)ev->errno_name.p;
    return ev;
}

/* The model's emit. */
static int capture(void *ctx, const nr_pm_event *ev, nr_error *err)
{
    nr_spec_chunk *c = ctx;
    if (NR_GROW(c->events, c->events_cap, c->nevents + 1) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    nr_pm_event *e = &c->events[c->nevents++];
    *e = *ev;
    const nr_syscall_info *known = nr_syscall_of_ref(e->syscall_ref);
    if (known)
        e->syscall.p = known->name;
    else if (e->syscall.n && keep_name(&c->names, &e->syscall) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    if (e->errno_name.n && keep_name(&c->names, &e->errno_name) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 0;
}

/* What a model reads of its log per line: a copy, as the ingest's stream
 * is written by the pass at every line (read from there, its cache lines
 * went back and forth between the cores: 88% of this loop's samples). */
typedef struct chunk_log {
    const char *file;
    int64_t pid;
} chunk_log;

/* Line i of v as the pass would take it; 1 when it refuses the speculation. */
static int feed_line(const chunk_log *log, const nr_par_chunk_view *v, nr_spec_chunk *c, size_t i, nr_error *err)
{
    const nr_par_line *pl = &v->lines[i];
    nr_sline sl;
    nr_par_lex_line(v, i, &sl);
    nr_pm_where w = {log->file, v->first_line_no + i, v->text + pl->off, pl->len};
    nr_reject_resultless_call(&sl, v->last_unterminated && i + 1 == v->n);
    if (nr_take_cut_call(c->diag, &sl, &w, v->last_unterminated && i + 1 == v->n, err) < 0)
        return NR_E_NOMEM;
    if (!nr_sline_is_event(sl.kind)) {
        if (sl.kind == NR_SL_BLANK)
            return 0;
        c->skipped++;
        const char *reason = nr_skip_reason(&sl, v->last_unterminated && i + 1 == v->n);
        return nr_diag_add(c->diag, reason, w.file, w.line, w.text, w.len) < 0
                   ? nr_error_set(err, NR_E_NOMEM, "ingest: out of memory")
                   : 0;
    }
    if (sl.ts_form != NR_TS_UNIX || sl.ts2_form != NR_TS_NONE)
        return 1; /* the pass's normalization of other stamps carries state */
    if (__builtin_expect(nr_sline_result_tail_odd(&sl), 0))
        NR_TRY(nr_note_result_tail(c->diag, &sl, &w, err));
    if (c->first_ts < 0) {
        c->first_ts = sl.ts_ns;
        c->first_dur = sl.dur_ns;
        c->first_event_line = i;
    } else {
        const char *reason = nr_clock_step_reason(c->last_ts, sl.ts_ns, sl.dur_ns);
        if (reason && nr_diag_add(c->diag, reason, w.file, w.line, w.text, w.len) < 0)
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    }
    c->last_ts = sl.ts_ns;
    if (sl.dur_ns >= 0)
        c->has_durations = 1;
    int rc = nr_pm_feed(c->pm, &sl, log->pid, sl.ts_ns, &w, err);
    if (rc < 0)
        return rc;
    if (rc >= 1) { /* a <... resumed> of another call than the pending one (1): skipped, as the pass does */
        c->skipped++;
        c->unmatched_resumed += rc == 1;
    } else {
        c->parsed++;
        if (__builtin_expect(v->last_unterminated, 0) && i + 1 == v->n)
            NR_TRY(nr_note_cut_event(c->diag, &sl, &w, err));
    }
    return nr_pm_refused(c->pm) != NULL;
}

/* A chunk from the pool, emptied, with its model reset (or made). */
static nr_spec_chunk *chunk_fresh(nr_spec_pool *pool, nr_error *err)
{
    nr_spec_chunk *c = pool_take(pool);
    if (!c && !(c = calloc(1, sizeof *c)))
        return NULL;
    nr_pm *pm = c->pm;
    nr_pm_event *events = c->events;
    size_t cap = c->events_cap;
    nr_buf names = c->names;
    nr_diag_destroy(c->diag);
    *c = (nr_spec_chunk){.pm = pm, .events = events, .events_cap = cap, .names = names, .first_ts = -1,
                         .last_ts = -1, .first_dur = -1};
    c->names.len = 0;
    nr_pm_config cfg = {.emit = capture, .emit_ctx = c, .speculative = 1};
    int rc = !(cfg.diag = c->diag = nr_diag_create()) ? NR_E_NOMEM
             : pm                                     ? nr_pm_reset(pm, &cfg, err)
                                                      : nr_pm_create(&cfg, &c->pm, err);
    if (rc < 0) {
        chunk_destroy(c);
        return NULL;
    }
    return c;
}

/* The calls v carries over (nr_par_carried), lexed into calls[] and
 * where[]: those that lex as an -ttt <unfinished ...> line of a task. */
static size_t lex_carried(const chunk_log *log, const nr_par_chunk_view *v, nr_sline calls[NR_PAR_CARRY_MAX],
                          nr_pm_where where[NR_PAR_CARRY_MAX])
{
    size_t n = 0;
    for (size_t k = 0; k < v->ncarried && k < NR_PAR_CARRY_MAX; k++) {
        const nr_par_carried *cc = &v->carried[k];
        const char *text = v->carry_text + cc->off;
        nr_sline_parse(text, cc->len, &calls[n]);
        if (calls[n].kind != NR_SL_UNFINISHED || calls[n].pid < 0 || calls[n].ts_form != NR_TS_UNIX ||
            calls[n].ts2_form != NR_TS_NONE)
            continue;
        where[n++] = (nr_pm_where){log->file, cc->line_no, text, cc->len};
    }
    return n;
}

nr_spec_chunk *nr_spec_chunk_run(nr_spec_pool *pool, const char *file, int64_t pid, const nr_par_chunk_view *v)
{
    nr_error err;
    nr_spec_chunk *c = chunk_fresh(pool, &err);
    if (!c)
        return NULL;
    const chunk_log log = {file, pid};
    nr_sline calls[NR_PAR_CARRY_MAX];
    nr_pm_where where[NR_PAR_CARRY_MAX];
    nr_pm_spec_carry(c->pm, calls, where, lex_carried(&log, v, calls, where));
    take_tables(pool, c);
    nr_pm_spec_tables(c->pm, c->tables, c->ntables);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < v->n; i++)
        rc = feed_line(&log, v, c, i, &err);
    nr_pm_spec_carry(c->pm, NULL, NULL, 0);
    nr_pm_spec_tables(c->pm, NULL, 0);
    c->refused = rc != 0;
    return c;
}
