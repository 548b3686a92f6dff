/* ingest: the pipeline of nr_ingest_run. Finds the run's inputs (runfind),
 * opens one stream per log, merges the streams by time (k-way, a binary
 * heap), feeds each line to the process model (procmodel) and streams the
 * events into the store; at the end writes files, processes, diagnostics,
 * meta, phases and pyio. Reading and lexing run on opts->jobs threads
 * (par_lex: chunks of each log, lexed in parallel); the merge and the
 * per-process model are one ordered pass on the caller's thread; with jobs >
 * 1 the rows of table events are built, encoded and compressed on par_lex's
 * workers (par_write), one batch at a time in the pass's order, and after
 * the last event a worker shares the encoding of the other tables' row
 * groups (nr_store_writer_set_helper). With one plain log, a worker
 * instead models whole chunks ahead of the pass with a speculative model
 * (spec_chunk), which the pass stitches onto the real one (docs/split.md);
 * with one compressed log, workers decompress ahead (with one worker, the
 * pass lexes). With more than NR_PAR_SERIAL_ABOVE logs merged at once
 * (-ff logs of threads that run together), the pass reads and lexes them
 * itself, as with jobs == 1, and the workers only write the events.
 * The store is byte for byte the same for any number of jobs
 * (docs/performance.md, "Parallel ingest and scale"). */
#include "nr_ingest.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "logsrc.h"
#include "par_lex.h"
#include "par_write.h"
#include "nr_mem.h"
#include "nr_outfile.h"
#include "nr_parallel.h"
#include "nr_schema.h"
#include "nr_store.h"
#include "nr_strtab.h"
#include "procmodel.h"
#include "spec_chunk.h"
#include "runfind.h"
#include "strace_line.h"
#include "hook.h"
#include "manifest.h"

#define NS_PER_DAY (86400LL * 1000000000LL)
#define PRESCAN_MAX_LINES 1000000

/* The path look-ahead (prefetch_paths): the slot of the file an open
 * returns is loaded 2 * PATH_AHEAD lines ahead, its record PATH_AHEAD.
 * It runs from the chunk on that the model knows PATH_AHEAD_MIN_FILES
 * files: below that the table (about 90 bytes a file) stays in this core's
 * cache, and the look-ahead would only add its instructions. */
#define PATH_AHEAD 8
#define PATH_AHEAD_MIN_FILES 32768

static size_t path_ahead_min_files = PATH_AHEAD_MIN_FILES;

void nr__ingest_path_ahead_always(int on) { path_ahead_min_files = on ? 0 : PATH_AHEAD_MIN_FILES; }

/* One log being read. */
typedef struct stream {
    const nr_runlog *log;
    size_t index;           /* position in the run's sorted log list (tie-break) */
    nr_logsrc *src;         /* read by par_lex's threads until the ingest ends */
    nr_par_chunk_view chunk;/* the chunk being fed (par_lex) */
    size_t next_line;       /* index in chunk of the line after the current one */
    nr_sline lexed;         /* the current line (nr_par_lex_line) */
    uint64_t ahead_hash[2 * PATH_AHEAD]; /* prefetch_paths: hash of line i's annotation at i % (2 * PATH_AHEAD) */
    int look_ahead;         /* prefetch_paths runs in this chunk */
    int text_ahead;         /* prefetch_lexed_line runs: a worker read (and lexed or modelled) the chunk */
    const nr_sline *sl;     /* &lexed: the current event line (its spans point into chunk) */
    nr_pm_where where;      /* the current line: log name, 1-based number, text (handed to the model as is) */
    int64_t ts;             /* normalized time of sl; -1 none */
    int at_end;
    int reached;            /* the merge has fed a line of it (nr_par_lex_reach) */
    /* time normalization */
    int64_t last_ts, day_offset, rel_acc;
    nr_ts_form first_form;
    int seen_event;
    /* facts for meta */
    uint64_t lines, parsed, skipped;
} stream;

/* A stream in the merge's heap: (ts, index) as one unsigned key, the
 * stamp's sign bit flipped above the index, so that one compare orders
 * two streams. */
typedef unsigned __int128 heap_entry;

/* Of each process (by nr_pm_process_key), the nearest ancestor whose
 * process opened phases, and the thread of it on the way down: the
 * phase walk visits only those, so a deep tree costs an event no more
 * than its phased ancestors (until session 51, at most 64 hops of every
 * ancestor: any process deeper below its phase's owner was unphased). */
typedef struct phased_ancestry {
    const nr_pm_proc **up;  /* NULL: none */
    int64_t *by_tid;
    uint8_t *known;
    size_t cap;
    const nr_pm_proc **stack;
    size_t stack_cap;
    uint64_t tree_version;  /* of the tree the entries were derived from */
} phased_ancestry;

typedef struct ingest {
    const nr_ingest_opts *opts;
    nr_runfiles run;
    nr_diag *diag;
    nr_pm *pm;
    nr_store_writer *writer;
    nr_table_writer *t_events, *t_files, *t_processes, *t_diag, *t_meta, *t_phases, *t_pyio, *t_marks, *t_waits;
    stream *streams;
    size_t nstreams;
    nr_par_lex *par;
    nr_par_write *events_out; /* rows of t_events, on par's workers when jobs > 1 */
    uint64_t bytes_total;   /* input bytes of every log, for progress */
    uint64_t progress_at;   /* bytes_in when progress was last reported */
    heap_entry *heap;       /* the streams, min-heap by (ts, index) */
    nr_ingest_stats stats;
    char *start_cwd;        /* owned */
    nr_ts_form time_base;
    int time_base_set, has_durations, saw_event;
    uint64_t unmatched_resumed;
    nr_hook *hook;
    struct { uint64_t outside; int64_t worst; } hook_clock; /* hook records outside the trace's times, as written */
    struct { uint64_t lost; int64_t example; } hook_untraced; /* phases of pids the trace never saw, as written */
    nr_manifest manifest;
    nr_spec_pool *pool;     /* speculative models of chunks (workers, one log) */
    nr_reserve *reserve;    /* the pass's big blocks, faulted in by the workers (start_reserve) */
    phased_ancestry ancestry;
    size_t live;            /* streams the merge has reached and not ended (nr_par_lex_set_live) */
} ingest;

/* ---- timestamps -------------------------------------------------------- */

/* The absolute form wins when a line has two stamps (-r with -t...). */
static void pick_stamp(const nr_sline *sl, nr_ts_form *form, int64_t *ts)
{
    *form = sl->ts_form;
    *ts = sl->ts_ns;
    if (sl->ts2_form == NR_TS_UNIX || (sl->ts2_form == NR_TS_CLOCK && sl->ts_form == NR_TS_RELATIVE)) {
        *form = sl->ts2_form;
        *ts = sl->ts2_ns;
    }
}

/* normalize_ts of a line whose stamp is of another form than its Unix-time
 * log's (a -r or -tt line in a -ttt log: a line of another strace run). */
#define FOREIGN_STAMP INT64_MIN

/* Unix stamps as they are; clock-of-day stamps add a day each time they
 * wrap past midnight (a jump back of more than 12 h); relative stamps
 * accumulate from 0; lines without a stamp take the previous line's. A
 * clock or relative stamp in a log of Unix stamps is FOREIGN_STAMP: until
 * session 46 one such line made a run last 53 years (review 46). */
static int64_t normalize_ts(stream *s, const nr_sline *sl)
{
    if (sl->ts_form == NR_TS_UNIX && sl->ts2_form == NR_TS_NONE && s->seen_event) /* -ttt: as it is */
        return s->last_ts = sl->ts_ns;
    nr_ts_form form;
    int64_t ts;
    pick_stamp(sl, &form, &ts);
    if (!s->seen_event) {
        s->first_form = form;
        s->seen_event = 1;
    } else if (s->first_form == NR_TS_UNIX && form != NR_TS_UNIX && form != NR_TS_NONE) {
        return FOREIGN_STAMP;
    }
    switch (form) {
    case NR_TS_UNIX: break;
    case NR_TS_CLOCK:
        ts += s->day_offset;
        if (s->last_ts >= 0 && ts + NS_PER_DAY / 2 < s->last_ts) {
            s->day_offset += NS_PER_DAY;
            ts += NS_PER_DAY;
        }
        break;
    case NR_TS_RELATIVE:
        s->rel_acc += ts;
        ts = s->rel_acc;
        break;
    default: return s->last_ts;
    }
    s->last_ts = ts;
    return ts;
}

/* ---- line handling ----------------------------------------------------- */

/* The current line is a last line without newline (a cut log). */
static int at_unterminated_line(const stream *s)
{
    return s->chunk.last_unterminated && s->next_line == s->chunk.n;
}

static const char *skip_reason(const stream *s, const nr_sline *sl)
{
    return nr_skip_reason(sl, at_unterminated_line(s));
}

/* Clock sanity within one log (nr_clock_step_reason; dur_ns: the line's -T
 * duration, -1 none): the events keep their stamps; the lines are counted. */
static int check_clock(ingest *in, stream *s, int64_t prev_ts, int64_t dur_ns, nr_error *err)
{
    if (prev_ts < 0 || s->ts < 0 || s->first_form == NR_TS_RELATIVE)
        return 0;
    const char *reason = nr_clock_step_reason(prev_ts, s->ts, dur_ns);
    if (reason && nr_diag_add(in->diag, reason, s->where.file, s->where.line, s->where.text, s->where.len) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 0;
}

static int skip_line(ingest *in, stream *s, const char *reason, nr_error *err)
{
    s->skipped++;
    in->stats.lines_skipped++;
    if (nr_diag_add(in->diag, reason, s->where.file, s->where.line, s->where.text, s->where.len) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 0;
}

/* A call's line cut before its arguments end is the call's unfinished
 * half (nr_take_cut_call). 1 when s->lexed is now that half. */
static int take_cut_call(ingest *in, stream *s, nr_error *err)
{
    return nr_take_cut_call(in->diag, &s->lexed, &s->where, at_unterminated_line(s), err);
}

/* Tells opts->progress how far the reading is, every few MB. */
static void report_progress(ingest *in)
{
    if (!in->opts || !in->opts->progress)
        return;
    uint64_t done = nr_par_lex_bytes_in(in->par);
    if (done - in->progress_at < ((uint64_t)4 << 20) && done < in->bytes_total)
        return;
    in->progress_at = done;
    in->opts->progress(in->opts->progress_ctx, done, in->bytes_total);
}

/* The result annotation of an unlexed call line t[0..n) (no newline)
 * ending in "= FD<PATH>" and an optional -T " <S.UUUUUU>": PATH, or an
 * empty span. A guess from fixed places at the line's end, a few
 * instructions for the lines without one. It misses a path holding '<', a
 * duration of 10 s or more, and, without -T, a path with a '.' 7 bytes
 * before its end (read as a duration's): only a hint. */
static inline nr_span tail_annotation(const char *t, size_t n)
{
    const nr_span none = {t, 0};
    if (n < 24 || t[n - 1] != '>')
        return none;
    size_t end = n - 1; /* the annotation's '>' without -T */
    if (t[n - 8] == '.') { /* -T: " <S.UUUUUU>" */
        if (t[n - 10] != '<' || t[n - 11] != ' ' || t[n - 12] != '>')
            return none;
        end = n - 12;
    }
    const char *lt = memrchr(t, '<', end);
    if (!lt || lt - t < 4 || lt[-1] < '0' || lt[-1] > '9')
        return none;
    return (nr_span){lt + 1, (size_t)(t + end - (lt + 1))};
}

/* A line with a result annotation is an open (or dup, socket, ...) whose
 * path the model looks up in its path table: two dependent cache misses
 * (slot, then the path's record) once the table outgrows the cache (172 k
 * files in the 1 GB log). At line i, line i + 2 * PATH_AHEAD starts its
 * slot's load and line i + PATH_AHEAD its record's, so both overlap the
 * lines between. The annotation is the packed span of a lexed chunk, else
 * tail_annotation's guess. Only hints: the model does the lookup. */
static inline __attribute__((always_inline)) void prefetch_paths(const ingest *in, stream *s, size_t i)
{
    const size_t far = i + 2 * PATH_AHEAD, near = i + PATH_AHEAD, nearest = i + PATH_AHEAD / 2;
    uint64_t *ring = s->ahead_hash;
    if (far < s->chunk.n) {
        const nr_par_line *pl = &s->chunk.lines[far];
        nr_span annot = {NULL, 0};
        if (!s->chunk.lexed)
            annot = tail_annotation(s->chunk.text + pl->off, pl->len);
        else if (pl->bits & NR__PAR_PACKED)
            annot = (nr_span){s->chunk.text + pl->off + pl->span_off[2], pl->span_len[2]};
        uint64_t h = 0;
        if (annot.n) {
            h = nr_hash_bytes(annot.p, annot.n);
            nr_pm_prefetch_path_slot(in->pm, h);
        }
        ring[far % (2 * PATH_AHEAD)] = h;
    }
    if (near < s->chunk.n && ring[near % (2 * PATH_AHEAD)])
        nr_pm_prefetch_path_record(in->pm, ring[near % (2 * PATH_AHEAD)]);
    if (nearest < s->chunk.n && ring[nearest % (2 * PATH_AHEAD)])
        nr_pm_prefetch_path_file(in->pm, ring[nearest % (2 * PATH_AHEAD)]);
}

/* A chunk lexed by another thread (jobs > 1) is in that core's cache: the
 * model's first reads of each line (fd annotation, numbers, path) waited
 * on transfers between the cores: on the 1 GB log feed_known_fd, the
 * look-ahead's hash and memcmp took 369 more samples at -j 2 than at -j 1,
 * about 15% of the pass's. TEXT_AHEAD lines ahead the line's text starts moving here,
 * 2 * TEXT_AHEAD lines ahead its entry in the chunk's line table (which
 * the text's hint reads). 48: 24 and 96 measured slower. */
#define TEXT_AHEAD 48

static inline __attribute__((always_inline)) void prefetch_lexed_line(const stream *s, size_t i)
{
    const size_t far = i + 2 * TEXT_AHEAD, near = i + TEXT_AHEAD;
    if (far < s->chunk.n)
        __builtin_prefetch(&s->chunk.lines[far]);
    if (near >= s->chunk.n)
        return;
    const nr_par_line *pl = &s->chunk.lines[near];
    const char *t = s->chunk.text + pl->off;
    for (size_t k = 0; k < pl->len; k += 64)
        __builtin_prefetch(t + k);
    if (pl->len) /* the last cache line, when the line starts late in its first */
        __builtin_prefetch(t + pl->len - 1);
}

/* ---- speculation -------------------------------------------------------- */

static int emit_event(void *ctx, const nr_pm_event *ev, nr_error *err);

static int speculate_chunks; /* nr__ingest_speculate */

/* Chunks of one log that a worker models ahead of the pass (a model and a
 * stitch per chunk against the text staying in the core's cache): 512 kB
 * took 0.92 s where 256 kB took 0.99 s (1 GB log, -j 2, 5 alternated
 * rounds); 1 MB was no faster in single runs (docs/performance.md,
 * session 15). */
#define SPLIT_CHUNK_BYTES ((size_t)512 << 10)

/* Lines of its own chunk between two of the pass's checks of whether it
 * owes its next chunk's read (nr_par_lex_read_ahead): about 20 us. */
#define READ_AHEAD_POLL 128u

void nr__ingest_speculate(int on) { speculate_chunks = on != 0; }

/* Whether a chunk of s may be stitched (speculated on, with jobs == 1):
 * one log (no merge by time), -ttt stamps, and an event already fed (the
 * time base is set). */
static int can_stitch(const ingest *in, const stream *s)
{
    return in->nstreams == 1 && s->seen_event && s->first_form == NR_TS_UNIX && in->time_base == NR_TS_UNIX;
}

/* The stitched chunk's lines as the real pass would have counted them. */
static int spec_take_counts(ingest *in, stream *s, nr_spec_chunk *c, nr_error *err)
{
    if (c->first_ts >= 0) {
        const nr_par_line *pl = &s->chunk.lines[c->first_event_line];
        s->where.line = s->chunk.first_line_no + c->first_event_line;
        s->where.text = s->chunk.text + pl->off;
        s->where.len = pl->len;
        s->ts = c->first_ts;
        NR_TRY(check_clock(in, s, s->last_ts, c->first_dur, err));
        s->ts = s->last_ts = c->last_ts;
    }
    if (nr_diag_merge(in->diag, c->diag) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    s->skipped += c->skipped;
    in->stats.lines_skipped += c->skipped;
    in->unmatched_resumed += c->unmatched_resumed;
    s->parsed += c->parsed;
    in->stats.lines_parsed += c->parsed;
    in->has_durations |= c->has_durations;
    in->saw_event |= c->parsed > 0;
    return 0;
}

/* Emits the stitched chunk's events in the real model's terms. */
static int spec_emit(ingest *in, nr_spec_chunk *c, nr_pm_stitch *st, nr_error *err)
{
    for (size_t i = 0; i < c->nevents; i++) {
        if (i + 4 < c->nevents) { /* written on the worker's core: their lines come from there */
            const char *next = (const char *)&c->events[i + 4];
            __builtin_prefetch(next);
            __builtin_prefetch(next + 64); /* an event is two cache lines */
        }
        nr_pm_event *ev = nr_spec_chunk_event(c, i);
        nr_pm_stitch_event(st, ev);
        NR_TRY(emit_event(in, ev, err));
    }
    return 0;
}

/* A quarter of the workers' chunks refused (once 8 are): the speculation
 * costs the workers more than it saves the pass, and the pass's lines are
 * cheaper lexed by them. */
static int too_many_refused(const nr_ingest_stats *st)
{
    return st->chunks_refused >= 8 && st->chunks_refused * 4 >= st->chunks_stitched + st->chunks_refused;
}

/* Stitches c, the speculative model of the current chunk of s, onto the
 * real model: 1 when the chunk is done, 0 when the speculation did not hold
 * (nothing changed: the caller feeds the chunk line by line). */
static int stitch_chunk(ingest *in, stream *s, nr_spec_chunk *c, nr_error *err)
{
    const char *why = NULL;
    nr_pm_stitch *st = NULL;
    int rc = c->refused || !can_stitch(in, s) ? 1 : nr_pm_stitch_begin(in->pm, c->pm, &st, &why, err);
    if (rc == 0)
        rc = spec_take_counts(in, s, c, err);
    if (rc == 0)
        rc = spec_emit(in, c, st, err);
    nr_pm_stitch_end(st);
    in->stats.chunks_stitched += rc == 0;
    in->stats.chunks_refused += rc == 1;
    if (rc == 1 && in->par && too_many_refused(&in->stats))
        nr_par_lex_stop_work(in->par); /* the log is one the workers' models cannot take: they lex for the pass */
    return rc < 0 ? rc : rc == 0;
}

/* The current chunk of s, when it is one a speculative model may take:
 * stitched (1), or not (0: fed line by line); with jobs == 1 in tests
 * (nr__ingest_speculate), speculated on here first. */
static int take_chunk(ingest *in, stream *s, nr_error *err)
{
    nr_spec_chunk *c = s->chunk.spec;
    s->chunk.spec = NULL;
    if (!c && speculate_chunks && can_stitch(in, s) &&
        !(c = nr_spec_chunk_run(in->pool, s->where.file, s->log->pid, &s->chunk)))
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    int rc = c ? stitch_chunk(in, s, c, err) : 0;
    nr_spec_chunk_free(in->pool, c);
    return rc;
}

/* par_lex's chunk work (workers, jobs > 1): a speculative model of the chunk. */
static void *speculate_work(void *ctx, const nr_par_chunk_view *v)
{
    ingest *in = ctx;
    return nr_spec_chunk_run(in->pool, in->streams[0].where.file, in->streams[0].log->pid, v);
}

static void drop_work(void *ctx, void *result)
{
    ingest *in = ctx;
    nr_spec_chunk_free(in->pool, result);
}

/* Reads lines of s until the next event line (left in s->sl) or the end;
 * other lines are counted (and skipped ones diagnosed) on the way. Inlined
 * with stream_feed into the loops that call them per line: one function per
 * line instead of three saves their register saves and reloads. */
static inline __attribute__((always_inline)) int stream_advance(ingest *in, stream *s, nr_error *err)
{
    for (;;) {
        if (s->next_line == s->chunk.n) {
            int rc = nr_par_lex_next(in->par, s->index, &s->chunk, err);
            if (rc < 0)
                return rc;
            if (rc == 0) {
                s->at_end = 1;
                return 0;
            }
            s->next_line = 0;
            memset(s->ahead_hash, 0, sizeof s->ahead_hash);
            s->look_ahead = nr_pm_file_count(in->pm) >= path_ahead_min_files;
            s->lines += s->chunk.n; /* counted here, not line by line */
            in->stats.lines_read += s->chunk.n;
            report_progress(in);
            /* a worker's chunk is in its core's cache; the pass's own
               chunks (with chunk work, read by the pass) are in this one's,
               unless other logs' chunks were read since (-ff files: at -j 1
               nine 256 kB chunks outgrow the cache, and the look-ahead's
               reads of the lines' ends missed it: a quarter of an -ff
               run's samples) */
            s->text_ahead = s->chunk.lexed || s->chunk.spec || in->nstreams > 1;
            if (in->pool)
                nr_spec_pool_set_tables(in->pool, in->pm); /* for the chunks the workers take next */
            if (s->chunk.spec || speculate_chunks) {
                int done = take_chunk(in, s, err);
                if (done < 0)
                    return done;
                if (done)
                    s->next_line = s->chunk.n;
            }
            continue;
        }
        if ((s->next_line & (READ_AHEAD_POLL - 1)) == READ_AHEAD_POLL / 2 && in->par)
            nr_par_lex_read_ahead(in->par, s->index);
        if (s->look_ahead)
            prefetch_paths(in, s, s->next_line);
        if (s->text_ahead)
            prefetch_lexed_line(s, s->next_line);
        const nr_par_line *pl = &s->chunk.lines[s->next_line++];
        nr_par_lex_line(&s->chunk, s->next_line - 1, &s->lexed);
        s->sl = &s->lexed;
        s->where.text = s->chunk.text + pl->off;
        s->where.len = pl->len;
        s->where.line = s->chunk.first_line_no + s->next_line - 1;
        if (__builtin_expect(!s->sl->has_result, 0))
            nr_reject_resultless_call(&s->lexed, at_unterminated_line(s));
        if (!nr_sline_is_event(s->sl->kind)) {
            const int joined = s->sl->kind == NR_SL_BAD ? take_cut_call(in, s, err) : 0;
            if (joined < 0)
                return joined;
            if (!joined) {
                if (s->sl->kind != NR_SL_BLANK)
                    NR_TRY(skip_line(in, s, skip_reason(s, s->sl), err));
                continue;
            }
        }
        if (__builtin_expect(nr_sline_result_tail_odd(&s->lexed), 0))
            NR_TRY(nr_note_result_tail(in->diag, &s->lexed, &s->where, err));
        const int64_t prev_ts = s->last_ts;
        if (s->sl->ts_form == NR_TS_UNIX && s->sl->ts2_form == NR_TS_NONE && s->seen_event)
            s->ts = s->last_ts = s->sl->ts_ns; /* -ttt, normalize_ts's first case, inline */
        else if ((s->ts = normalize_ts(s, s->sl)) == FOREIGN_STAMP) {
            s->ts = prev_ts;
            NR_TRY(skip_line(in, s, "foreign_timestamp", err));
            continue;
        }
        /* check_clock only when the step is outside [-NR_CLOCK_SLACK_NS,
         * NR_CLOCK_JUMP_NS] (one unsigned compare; it tests the rest) */
        if ((uint64_t)s->ts - (uint64_t)prev_ts + NR_CLOCK_SLACK_NS > (uint64_t)NR_CLOCK_SLACK_NS + NR_CLOCK_JUMP_NS)
            NR_TRY(check_clock(in, s, prev_ts, s->sl->dur_ns, err));
        if (s->sl->dur_ns >= 0)
            in->has_durations = 1;
        return 0;
    }
}

/* Feeds the current event line of s to the model. */
static inline __attribute__((always_inline)) int stream_feed(ingest *in, stream *s, nr_error *err)
{
    int rc = nr_pm_feed(in->pm, s->sl, s->log->pid, s->ts, &s->where, err);
    if (rc < 0)
        return rc;
    if (rc >= 1) { /* skipped, counted by the model */
        s->skipped++;
        in->stats.lines_skipped++;
        in->unmatched_resumed += rc == 1;
        return 0;
    }
    s->parsed++;
    in->stats.lines_parsed++;
    in->saw_event = 1;
    if (__builtin_expect(at_unterminated_line(s), 0))
        NR_TRY(nr_note_cut_event(in->diag, s->sl, &s->where, err));
    return 0;
}

/* stream_feed until the run has an event: the run's form of time is its
 * first event's, set before that event is emitted, since its phase needs
 * it (until session 51 the run's first event was unphased), and unset
 * again when the model skips the line. */
static __attribute__((noinline)) int stream_feed_first(ingest *in, stream *s, nr_error *err)
{
    int64_t ts;
    pick_stamp(s->sl, &in->time_base, &ts);
    in->time_base_set = 1;
    const uint64_t skipped = in->stats.lines_skipped;
    const int rc = stream_feed(in, s, err);
    if (rc == 0 && in->stats.lines_skipped != skipped) {
        in->time_base_set = 0;
        in->time_base = NR_TS_NONE;
    }
    return rc;
}

/* What the merge loops call for each line. */
static inline __attribute__((always_inline)) int feed(ingest *in, stream *s, nr_error *err)
{
    if (__builtin_expect(!in->time_base_set, 0))
        return stream_feed_first(in, s, err);
    return stream_feed(in, s, err);
}

/* ---- the k-way merge --------------------------------------------------- */

static inline heap_entry heap_key(int64_t ts, size_t index)
{
    return (heap_entry)((uint64_t)ts ^ UINT64_C(0x8000000000000000)) << 64 | index;
}

static inline size_t heap_index(heap_entry e) { return (size_t)(uint64_t)e; }

/* The stamps sit in the heap beside the indexes, in keys compared without
 * a branch: the -ff files' lines interleave, so nearly every line moves
 * the root, and a branch on the stamps was mispredicted at every level
 * (heap_sift_down was 6% of an -ff run's samples). */
static void heap_sift_down(heap_entry *h, size_t n, size_t i)
{
    const heap_entry e = h[i];
    for (size_t l; (l = 2 * i + 1) < n; i = l) {
        if (l + 1 < n)
            l += h[l + 1] < h[l];
        if (!(h[l] < e))
            break;
        h[i] = h[l];
    }
    h[i] = e;
}

/* Tells par_lex how many logs the merge takes lines from at once: past
 * NR_PAR_SERIAL_ABOVE, the pass reads and lexes their lines itself. */
static void count_live(ingest *in, size_t live)
{
    in->live = live;
    if (in->par)
        nr_par_lex_set_live(in->par, live);
}

/* Tells par_lex that the merge has reached s: its reader may read ahead now. */
static void reach(ingest *in, stream *s)
{
    s->reached = 1;
    count_live(in, in->live + 1);
    if (in->par)
        nr_par_lex_reach(in->par, s->index);
}

/* A line of s merged after a line of another log with the same stamp (in
 * that stamp's run of lines): the stamps cannot order them, and pid order
 * decides. Counted
 * (docs/definitions.md, "Order"), with the first examples: with coarse
 * stamps (-t, ms) a thread's reads can land after its leader's close of
 * the fd in the same tick, and lose their file. */
#define NR_DIAG_MERGE_TIE "merge_same_stamp"

static int note_merge_tie(ingest *in, const stream *s, uint64_t ties, nr_error *err)
{
    if (ties > NR_DIAG_EXAMPLES)
        return 0;
    if (nr_diag_add(in->diag, NR_DIAG_MERGE_TIE, s->where.file, s->where.line, s->where.text, s->where.len) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 0;
}

static int merge_by_time(ingest *in, nr_error *err)
{
    heap_entry *h = in->heap;
    size_t n = 0;
    uint64_t ties = 0;
    int64_t tick = -1;            /* the stamp of the lines merged last */
    size_t tick_first = SIZE_MAX; /* the log of the first of them */
    int tick_shared = 0;          /* another log's line had it too */
    for (size_t i = 0; i < in->nstreams; i++)
        if (!in->streams[i].at_end)
            h[n++] = heap_key(in->streams[i].ts, i);
    for (size_t i = n / 2; i-- > 0;)
        heap_sift_down(h, n, i);
    while (n) {
        const size_t index = heap_index(h[0]);
        stream *s = &in->streams[index];
        if (!s->reached)
            reach(in, s);
        if (s->ts != tick)
            tick = s->ts, tick_first = index, tick_shared = 0;
        else if (index != tick_first)
            tick_shared = 1;
        if (tick_shared && s->ts >= 0)
            NR_TRY(note_merge_tie(in, s, ++ties, err));
        NR_TRY(feed(in, s, err));
        NR_TRY(stream_advance(in, s, err));
        if (s->at_end) {
            h[0] = h[--n];
            count_live(in, in->live - 1);
        } else {
            h[0] = heap_key(s->ts, index);
        }
        heap_sift_down(h, n, 0);
    }
    if (ties > NR_DIAG_EXAMPLES && nr_diag_add_n(in->diag, NR_DIAG_MERGE_TIE, ties - NR_DIAG_EXAMPLES, NULL, 0, "", 0) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 0;
}

/* One stream after the other, in the run's order (pid order for -ff). */
static int feed_in_order(ingest *in, nr_error *err)
{
    for (size_t i = 0; i < in->nstreams; i++) {
        stream *s = &in->streams[i];
        if (!s->at_end)
            reach(in, s);
        while (!s->at_end) {
            NR_TRY(feed(in, s, err));
            NR_TRY(stream_advance(in, s, err));
        }
        count_live(in, 0);
    }
    return 0;
}

/* ---- stderr mode: the first process's pid ------------------------------- */

static int is_clone_span(nr_span name)
{
    static const char *const names[] = {"clone", "clone3", "fork", "vfork"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (name.n == strlen(names[i]) && memcmp(name.p, names[i], name.n) == 0)
            return 1;
    return 0;
}

/* The N of "strace: Process N attached", or -1. */
static int64_t attached_pid(const char *line, size_t len)
{
    static const char marker[] = "Process ";
    const char *p = memmem(line, len, marker, sizeof marker - 1);
    if (!p)
        return -1;
    p += sizeof marker - 1;
    const char *end = line + len;
    int64_t pid = 0;
    int digits = 0;
    for (; p < end && *p >= '0' && *p <= '9' && digits < 10; p++, digits++)
        pid = pid * 10 + (*p - '0');
    static const char attached[] = " attached";
    if (!digits || (size_t)(end - p) < sizeof attached - 1 || memcmp(p, attached, sizeof attached - 1) != 0)
        return -1;
    return pid;
}

/* Whether sl, a line without pid while an unprefixed clone is pending,
 * ends that clone: the tail of its line cut by the child's attach notice
 * (a resumed line without name: ", child_tidptr=0x7f...) = N"), or its
 * own resumed line. */
static int ends_pending_clone(const nr_sline *sl)
{
    return sl->kind == NR_SL_RESUMED && (sl->name.n == 0 || is_clone_span(sl->name));
}

/* The N of "strace: Process N attached" anywhere in a line: a notice, a
 * line cut by it ("clone(...SIGCHLDstrace: Process N attached"), one of
 * strace run by its path ("/usr/bin/strace: Process N attached"); or -1. */
static int64_t notice_in_line(const char *line, size_t len)
{
    static const char marker[] = "strace: Process ";
    const char *p = memmem(line, len, marker, sizeof marker - 1);
    return p ? attached_pid(p, (size_t)(line + len - p)) : -1;
}

/* Whether sl, a line without pid of the first process while it is the
 * only task, returns its pid: set_tid_address (which every program's
 * start calls; it returns the caller's tid), getpid, gettid. */
static int returns_own_pid(const nr_sline *sl)
{
    static const char *const names[] = {"set_tid_address", "getpid", "gettid"};
    if (sl->kind != NR_SL_SYSCALL || !sl->has_result || sl->result <= 0 || sl->errno_name.n)
        return 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (sl->name.n == strlen(names[i]) && memcmp(sl->name.p, names[i], sl->name.n) == 0)
            return 1;
    return 0;
}

/* What prescan_root_pid found. */
typedef struct root_scan {
    int64_t pid;          /* the first process's pid, or -1 */
    int mixed;            /* lines without pid, then lines with one (stderr mode) */
    uint64_t first_line;  /* 1-based number of the first event line without pid; 0 none */
} root_scan;

/* In a log written to stderr, the first process's lines carry no pid until
 * a second process exists. Looks ahead for its pid: the pid of the first
 * prefixed "<... clone resumed>" when the unprefixed part ended inside a
 * clone, else the first prefixed pid that is not a child created by an
 * unprefixed clone or named by an attach notice after the first
 * unprefixed line; failing both, N of a leading "Process N attached"
 * notice (strace -p); failing that, the result of its own set_tid_address,
 * getpid or gettid while it is the only task (before any clone, notice or
 * prefixed line). A clone cut by the attach notice and finished by its
 * unprefixed tail ended in the unprefixed part: its child is one of those
 * (until session 39 the clone stayed pending, no prefixed line resumed it,
 * and the first process became pid 0 beside its own pid). Until session
 * 40 a notice's pid was no child: with -e trace= hiding the clones, the
 * first child's pid was taken for the first process's (the two merged
 * into one), and a log naming the first process nowhere left it pid 0
 * without a word. pid -1 when the log has prefixes from the start or
 * never names it. */
static root_scan prescan_root_pid(const char *path)
{
    root_scan rs = {-1, 0, 0};
    nr_logsrc *src;
    nr_error err;
    if (nr_logsrc_open(path, &src, &err) < 0)
        return rs;
    int64_t children[64];
    size_t nchildren = 0;
    int clone_pending = 0, unprefixed = 0, alone = 1;
    const char *line;
    size_t len;
    int64_t attached = -1; /* "strace: Process N attached" before any event: strace -p N */
    int64_t own = -1;      /* what the first process's own set_tid_address/getpid/gettid returned */
    for (uint64_t n = 0; n < PRESCAN_MAX_LINES && nr_logsrc_next(src, &line, &len, &err) == 1; n++) {
        nr_sline sl;
        nr_sline_parse(line, len, &sl);
        if (sl.kind == NR_SL_NOTICE && !unprefixed && attached < 0)
            attached = attached_pid(line, len);
        if (unprefixed && (sl.kind == NR_SL_NOTICE || sl.kind == NR_SL_UNFINISHED || sl.kind == NR_SL_BAD)) {
            const int64_t child = notice_in_line(line, len);
            if (child >= 0) {
                alone = 0;
                if (nchildren < sizeof children / sizeof children[0])
                    children[nchildren++] = child;
            }
        }
        if (!nr_sline_is_event(sl.kind))
            continue;
        if (sl.pid < 0) {
            if (!unprefixed)
                rs.first_line = n + 1;
            unprefixed = 1;
            if (alone && own < 0 && returns_own_pid(&sl))
                own = sl.result;
            const int ends = clone_pending && ends_pending_clone(&sl);
            if (is_clone_span(sl.name) && (sl.kind == NR_SL_UNFINISHED || sl.kind == NR_SL_SYSCALL))
                alone = 0;
            if (sl.kind == NR_SL_UNFINISHED && is_clone_span(sl.name))
                clone_pending = 1;
            else if (ends)
                clone_pending = 0; /* it returned in the unprefixed part */
            if ((ends || (sl.kind == NR_SL_SYSCALL && is_clone_span(sl.name))) && sl.has_result && sl.result > 0 &&
                nchildren < sizeof children / sizeof children[0])
                children[nchildren++] = sl.result;
            continue;
        }
        if (!unprefixed)
            break; /* a log with pid prefixes from the start */
        rs.mixed = 1;
        alone = 0;
        if (clone_pending) {
            if (sl.kind == NR_SL_RESUMED && is_clone_span(sl.name)) {
                rs.pid = sl.pid;
                break;
            }
            continue;
        }
        int is_child = 0;
        for (size_t i = 0; i < nchildren; i++)
            is_child |= children[i] == sl.pid;
        if (!is_child) {
            rs.pid = sl.pid;
            break;
        }
    }
    nr_logsrc_close(src);
    if (rs.pid < 0 && unprefixed)
        rs.pid = attached >= 0 ? attached : own;
    return rs;
}

/* ---- store output ------------------------------------------------------ */

static void ancestry_free(phased_ancestry *a)
{
    free(a->up);
    free(a->by_tid);
    free(a->known);
    free(a->stack);
    *a = (phased_ancestry){0};
}

/* Makes room for key; forgets every entry when the tree changed since
 * they were derived. Returns -1 when out of memory. */
static int ancestry_reserve(phased_ancestry *a, const nr_pm *pm, size_t key)
{
    if (nr_pm_tree_version(pm) != a->tree_version) {
        if (a->known)
            memset(a->known, 0, a->cap);
        a->tree_version = nr_pm_tree_version(pm);
    }
    if (key < a->cap)
        return 0;
    size_t cap = a->cap ? a->cap : 64;
    while (cap <= key)
        cap *= 2;
    const nr_pm_proc **up = realloc(a->up, cap * sizeof *up);
    if (up)
        a->up = up;
    int64_t *by = realloc(a->by_tid, cap * sizeof *by);
    if (by)
        a->by_tid = by;
    uint8_t *known = realloc(a->known, cap);
    if (known)
        a->known = known;
    if (!up || !by || !known)
        return -1;
    memset(known + a->cap, 0, cap - a->cap);
    a->cap = cap;
    return 0;
}

/* Sets *up to the nearest proper ancestor of p whose process opened
 * phases (NULL: none) and *by_tid to the thread of it whose clone leads
 * down to p, each process's answer derived once: every process the walk
 * passes shares the answer of the first it stops at. */
static int phased_ancestor(ingest *in, const nr_pm_proc *p, const nr_pm_proc **up, int64_t *by_tid)
{
    phased_ancestry *a = &in->ancestry;
    size_t n = 0;
    *up = NULL;
    *by_tid = -1;
    for (const nr_pm_proc *q = p;;) {
        const size_t key = nr_pm_process_key(q);
        if (ancestry_reserve(a, in->pm, key) < 0 || NR_GROW(a->stack, a->stack_cap, n + 1) < 0)
            return NR_E_NOMEM;
        if (a->known[key]) {
            *up = a->up[key];
            *by_tid = a->by_tid[key];
            break;
        }
        a->stack[n++] = q;
        q = nr_pm_parent_process(q, by_tid);
        if (!q || nr_hook_pid_has_phases(in->hook, nr_pm_process_pid(q))) {
            *up = q;
            break;
        }
    }
    while (n--) {
        const size_t key = nr_pm_process_key(a->stack[n]);
        a->up[key] = *up;
        a->by_tid[key] = *by_tid;
        a->known[key] = 1;
    }
    return 0;
}

/* err's message after the hook file's name: the hook's temporary files
 * (its sorted phases, its threads' runs) fail after it was read. */
static int hook_error(const ingest *in, int rc, nr_error *err)
{
    char why[sizeof err->msg];
    memcpy(why, err->msg, sizeof why);
    why[sizeof why - 1] = '\0';
    return nr_error_set(err, rc, "%s: %s", in->run.hook_path, why);
}

/* *phase: the phase of (pid, tid) at ts: its own, else that of the
 * nearest ancestor with one in force, the forking thread's first (a
 * data-loading thread that runs a subprocess while the main thread
 * trains). The walk goes by process, not by pid: a reused pid names two
 * (review 50). */
static int phase_for(ingest *in, int64_t pid, int64_t tid, int64_t ts, int64_t *phase, nr_error *err)
{
    *phase = -1;
    if (!in->hook || ts < 0 || in->time_base != NR_TS_UNIX)
        return 0;
    if ((*phase = nr_hook_phase_at(in->hook, pid, tid, ts)) >= 0)
        return 0;
    const nr_pm_proc *p = *phase == -1 ? nr_pm_process_at(in->pm, pid, ts) : NULL;
    int64_t by;
    while (*phase == -1 && p) {
        if (phased_ancestor(in, p, &p, &by) < 0)
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
        if (p)
            *phase = nr_hook_phase_at(in->hook, nr_pm_process_pid(p), by, ts);
    }
    return *phase == NR_HOOK_LOOKUP_FAILED ? hook_error(in, nr_hook_lookup_error(in->hook, err), err) : 0;
}

static int emit_event(void *ctx, const nr_pm_event *ev, nr_error *err)
{
    ingest *in = ctx;
    int64_t phase = -1;
    if (in->hook) /* no call per event without a hook */
        NR_TRY(phase_for(in, ev->pid, ev->tid, ev->ts_ns, &phase, err));
    in->stats.events++;
    return nr_par_write_event(in->events_out, ev, phase, err);
}

/* The columns of up to a row group of table files (the path as a string,
 * every other column as values), in one block. A whole group is lent to
 * the store writer, which then encodes these columns without copying
 * them into its own (first touches of 5.6 MB per table in 4 kB pages:
 * docs/performance.md, session 10). Each column is one cache line longer
 * than its rows: 2^k-byte columns would put row i of every column in one
 * L1 set, whose ways a row's 13 stores overflow. */
typedef struct files_batch {
    void *block;
    int64_t *i64[NR_FI_COL_COUNT];
    const char **path;
    uint32_t *path_len;
} files_batch;

/* Room for rows rows; 0 or NR_E_NOMEM. */
static int files_batch_alloc(files_batch *b, size_t rows)
{
    const size_t col = (rows + 8) * sizeof(int64_t);
    char *p = b->block = nr_alloc_dense(NR_FI_COL_COUNT * col + rows * (sizeof *b->path + sizeof *b->path_len));
    if (!p)
        return NR_E_NOMEM;
    for (size_t c = 0; c < NR_FI_COL_COUNT; c++)
        b->i64[c] = (int64_t *)(void *)(p + c * col);
    b->path = (const char **)(void *)(p + NR_FI_COL_COUNT * col);
    b->path_len = (uint32_t *)(void *)(b->path + rows);
    return 0;
}

/* Fills b with files [first, first + n) of the model. */
static void fill_files_batch(const ingest *in, files_batch *b, size_t first, size_t n, const char *tool_path,
                             size_t tool_len)
{
    for (size_t i = 0; i < n; i++) {
        const size_t id = first + i;
        const char *path;
        size_t len;
        const nr_pm_file *f = nr_pm_file_get(in->pm, id, &path, &len);
        int kind = f->kind;
        if (kind == NR_KIND_REGULAR && tool_path && tool_len == len && memcmp(tool_path, path, len) == 0)
            kind = NR_KIND_TOOL;
        b->path[i] = path;
        b->path_len[i] = (uint32_t)len;
        b->i64[NR_FI_FILE_ID][i] = (int64_t)id;
        b->i64[NR_FI_KIND][i] = kind;
        b->i64[NR_FI_BYTES_READ][i] = f->bytes_read;
        b->i64[NR_FI_BYTES_WRITTEN][i] = f->bytes_written;
        b->i64[NR_FI_READ_CALLS][i] = f->read_calls;
        b->i64[NR_FI_WRITE_CALLS][i] = f->write_calls;
        b->i64[NR_FI_OPEN_CALLS][i] = f->open_calls;
        b->i64[NR_FI_CLOSE_CALLS][i] = f->close_calls;
        b->i64[NR_FI_META_CALLS][i] = f->meta_calls;
        b->i64[NR_FI_SYNC_CALLS][i] = f->sync_calls;
        b->i64[NR_FI_FIRST_TS_NS][i] = f->first_ts_ns;
        b->i64[NR_FI_LAST_TS_NS][i] = f->last_ts_ns;
    }
}

/* Table files, one row per file id, appended a row group at a time, the
 * last one too (nr_table_append_final_rows), with the paths as distinct
 * strings (each file id has its own path): nothing copied. */
static int write_files(ingest *in, nr_error *err)
{
    size_t n = nr_pm_file_count(in->pm);
    in->stats.files = n;
    if (n == 0)
        return 0;
    const size_t rows = n < NR_STORE_ROWS_PER_GROUP ? n : NR_STORE_ROWS_PER_GROUP;
    files_batch b;
    if (files_batch_alloc(&b, rows) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    const char *tool_path = in->hook ? nr_hook_output_path(in->hook) : NULL;
    const size_t tool_len = tool_path ? strlen(tool_path) : 0;
    nr_col_values cols[NR_FI_COL_COUNT];
    for (size_t c = 0; c < NR_FI_COL_COUNT; c++)
        cols[c] = (nr_col_values){.i64 = b.i64[c]};
    cols[NR_FI_PATH] = (nr_col_values){.strs = b.path, .lens = b.path_len, .distinct = 1};
    int rc = 0;
    for (size_t first = 0; first < n && rc == 0; first += rows) {
        size_t k = n - first < rows ? n - first : rows;
        fill_files_batch(in, &b, first, k, tool_path, tool_len);
        rc = first + k == n ? nr_table_append_final_rows(in->t_files, cols, k, err)
                            : nr_table_append_rows(in->t_files, cols, k, err);
    }
    free(b.block);
    return rc;
}

static int write_processes(ingest *in, nr_error *err)
{
    nr_table_writer *t = in->t_processes;
    size_t n = nr_pm_task_count(in->pm);
    for (size_t i = 0; i < n; i++) {
        nr_pm_task k;
        nr_pm_task_get(in->pm, i, &k);
        nr_table_set_i64(t, NR_PR_TID, k.tid);
        nr_table_set_i64(t, NR_PR_PID, k.pid);
        nr_table_set_i64(t, NR_PR_PPID, k.ppid);
        nr_table_set_i64(t, NR_PR_IS_THREAD, k.is_thread);
        nr_table_set_i64(t, NR_PR_FIRST_TS_NS, k.first_ts_ns);
        nr_table_set_i64(t, NR_PR_LAST_TS_NS, k.last_ts_ns);
        nr_table_set_str(t, NR_PR_EXE, k.exe, strlen(k.exe));
        nr_table_set_i64(t, NR_PR_EXIT_CODE, k.exit_code);
        nr_table_set_str(t, NR_PR_KILLED_BY, k.killed_by, strlen(k.killed_by));
        nr_table_set_i64(t, NR_PR_EVENTS, (int64_t)k.events);
        nr_table_set_i64(t, NR_PR_SIGNALS, (int64_t)k.signals);
        nr_table_set_i64(t, NR_PR_END_TS_NS, k.end_ts_ns);
        NR_TRY(nr_table_end_row(t, err));
        in->stats.processes += !k.is_thread;
    }
    return 0;
}

static int meta_put(ingest *in, const char *key, const char *value, nr_error *err)
{
    nr_table_set_str(in->t_meta, NR_MT_KEY, key, strlen(key));
    nr_table_set_str(in->t_meta, NR_MT_VALUE, value, strlen(value));
    return nr_table_end_row(in->t_meta, err);
}

static int meta_put_u64(ingest *in, const char *key, uint64_t v, nr_error *err)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return meta_put(in, key, buf, err);
}

static const char *time_base_name(nr_ts_form f)
{
    switch (f) {
    case NR_TS_UNIX: return "unix";
    case NR_TS_CLOCK: return "clock";
    case NR_TS_RELATIVE: return "relative";
    default: return "none";
    }
}

/* Where start_cwd came from: the --cwd option, the manifest, or nowhere. */
static const char *start_cwd_source(const ingest *in)
{
    if (!in->start_cwd)
        return "none";
    if (in->opts && in->opts->start_cwd && in->opts->start_cwd[0])
        return "option";
    return "manifest";
}

static int write_meta(ingest *in, nr_error *err)
{
    nr_pm_counts c;
    nr_pm_get_counts(in->pm, &c);
    char key[96], val[64];
    NR_TRY(meta_put(in, "niorep_version", NR_VERSION, err));
    snprintf(val, sizeof val, "%u", NR_STORE_FORMAT_VERSION);
    NR_TRY(meta_put(in, "format_version", val, err));
    snprintf(val, sizeof val, "%d", NR_INGEST_REVISION); /* the rules the store was made by (review 50) */
    NR_TRY(meta_put(in, "ingest_revision", val, err));
    NR_TRY(meta_put(in, "time_base", time_base_name(in->time_base), err));
    NR_TRY(meta_put(in, "has_durations", in->has_durations ? "1" : "0", err));
    NR_TRY(meta_put(in, "has_paths", c.annotated_fds ? "1" : "0", err));
    NR_TRY(meta_put_u64(in, "log_files", in->nstreams, err));
    for (size_t i = 0; i < in->nstreams; i++) {
        const stream *s = &in->streams[i];
        snprintf(key, sizeof key, "log.%zu.name", i);
        NR_TRY(meta_put(in, key, s->log->name, err));
        snprintf(key, sizeof key, "log.%zu.bytes", i);
        NR_TRY(meta_put_u64(in, key, nr_logsrc_bytes_out(s->src), err));
        snprintf(key, sizeof key, "log.%zu.lines", i);
        NR_TRY(meta_put_u64(in, key, s->lines, err));
        snprintf(key, sizeof key, "log.%zu.nrhash", i);
        snprintf(val, sizeof val, "%016" PRIx64, nr_par_lex_hash(in->par, i));
        NR_TRY(meta_put(in, key, val, err));
    }
    NR_TRY(meta_put_u64(in, "lines_read", in->stats.lines_read, err));
    NR_TRY(meta_put_u64(in, "lines_parsed", in->stats.lines_parsed, err));
    NR_TRY(meta_put_u64(in, "lines_skipped", in->stats.lines_skipped, err));
    NR_TRY(meta_put_u64(in, "files_not_read", in->run.nskipped, err));
    NR_TRY(meta_put_u64(in, "events", in->stats.events, err));
    NR_TRY(meta_put_u64(in, "unfinished_never_resumed", c.never_resumed, err));
    NR_TRY(meta_put_u64(in, "unfinished_resumed", c.resumed, err));
    NR_TRY(meta_put_u64(in, "relative_paths", c.relative_paths, err));
    NR_TRY(meta_put(in, "start_cwd", in->start_cwd ? in->start_cwd : "", err));
    NR_TRY(meta_put(in, "start_cwd_source", start_cwd_source(in), err));
    snprintf(val, sizeof val, "%" PRId64, c.first_ts_ns);
    NR_TRY(meta_put(in, "trace_first_ts_ns", val, err));
    snprintf(val, sizeof val, "%" PRId64, c.last_ts_ns);
    NR_TRY(meta_put(in, "trace_last_ts_ns", val, err));
    NR_TRY(meta_put(in, "has_hook", in->hook ? "1" : "0", err));
    for (size_t i = 0; i < in->manifest.count; i++) {
        const nr_manifest_kv *kv = &in->manifest.items[i];
        char *k = malloc(strlen(kv->key) + 10);
        if (!k)
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
        sprintf(k, "manifest.%s", kv->key);
        int rc = meta_put(in, k, kv->value, err);
        free(k);
        NR_TRY(rc);
    }
    return 0;
}

static void hook_diag(void *ctx, const char *reason, uint64_t line_no, const char *line, size_t len)
{
    ingest *in = ctx;
    char key[64];
    in->stats.hook_diagnosed++;
    snprintf(key, sizeof key, "hook_%s", reason);
    const char *slash = in->run.hook_path ? strrchr(in->run.hook_path, '/') : NULL;
    const char *name = slash ? slash + 1 : in->run.hook_path;
    nr_diag_add(in->diag, key, name, line_no, line, len);
}

/* When thread tid (of its tasks, a tid being reused, the last to start by
 * ts, else the first) ended, when the trace saw it end (exited or killed):
 * its end line's stamp (a line without one takes the line before's, so it
 * is -1 only in a log without stamps); else -1. Tasks are sorted by tid,
 * then by creation. */
static int64_t ended_task_end_ts(const nr_pm *pm, int64_t tid, int64_t ts)
{
    size_t lo = 0, hi = nr_pm_task_count(pm);
    nr_pm_task k;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        nr_pm_task_get(pm, mid, &k);
        if (k.tid < tid)
            lo = mid + 1;
        else
            hi = mid;
    }
    int found = 0;
    nr_pm_task best = {.exit_code = -1, .killed_by = "", .end_ts_ns = -1};
    for (; lo < nr_pm_task_count(pm); lo++) {
        nr_pm_task_get(pm, lo, &k);
        if (k.tid != tid || (found && k.first_ts_ns > ts))
            break;
        best = k;
        found = 1;
    }
    return found && (best.exit_code >= 0 || best.killed_by[0]) ? best.end_ts_ns : -1;
}

/* Where a phase never ended is cut: at the end of its thread when the
 * trace saw it end (a worker killed inside its phase), else at the end of
 * the trace. Until session 45 always the trace end: a worker killed 7 ms
 * into its eval made eval last the rest of the run; until session 64 the
 * thread's last event, not its death: a worker killed after computing
 * without a file call lost that time. */
static int64_t never_ended_cut(const ingest *in, const nr_hook_phase *p, int64_t trace_end)
{
    const int64_t thread_end = ended_task_end_ts(in->pm, p->tid, p->begin_ns);
    const int64_t end = thread_end >= p->begin_ns ? thread_end : trace_end;
    return p->end_ns > end ? end : p->end_ns;
}

/* Clock sanity: the hook runs inside the traced job, so its records must fall
 * within the strace time range; those that do not are counted (clock skew or a
 * hook file from another run), never silently trusted. */
/* How far [begin, end] reaches outside [first, last]; 0 when inside. */
static int64_t outside_by(int64_t begin, int64_t end, int64_t first, int64_t last)
{
    return begin < first ? first - begin : end > last ? end - last : 0;
}

/* Below this a record's offset is the hook's own rounding: its "ts" is a
 * double of Unix seconds, 2^-22 s (238 ns) apart around 2026, and strace's
 * -ttt stamps are microseconds; a record 100 ns outside was counted as
 * "outside by up to 0.000000 s (clock skew?)" (review 47). */
#define HOOK_CLOCK_SLACK_NS 1000

/* Counts a hook record spanning [lo, hi] that lies outside the trace, and its offset. */
static void tally_outside(ingest *in, int64_t lo, int64_t hi, const nr_pm_counts *c)
{
    const int64_t off = outside_by(lo, hi, c->first_ts_ns, c->last_ts_ns);
    if (off <= HOOK_CLOCK_SLACK_NS)
        return;
    in->hook_clock.outside += 1;
    in->hook_clock.worst = off > in->hook_clock.worst ? off : in->hook_clock.worst;
}

/* Table phases, in id order; tallies each phase's times against the
 * trace's (c) and its pid against the traced ones as it goes. */
static int write_phases(ingest *in, const nr_pm_counts *c, nr_error *err)
{
    const int64_t end = c->last_ts_ns > nr_hook_last_ns(in->hook) ? c->last_ts_ns : nr_hook_last_ns(in->hook);
    NR_TRY(nr_hook_rewind_phases(in->hook, err));
    nr_hook_phase phase;
    const nr_hook_phase *p = &phase;
    int more;
    while ((more = nr_hook_next_phase(in->hook, &phase, err)) > 0) {
        /* a never-ended phase ends at the trace end */
        tally_outside(in, p->begin_ns, p->never_ended ? p->begin_ns : p->end_ns, c);
        if (!nr_pm_knows_task(in->pm, p->pid) && in->hook_untraced.lost++ == 0)
            in->hook_untraced.example = p->pid;
        nr_table_writer *t = in->t_phases;
        nr_table_set_i64(t, NR_PH_PHASE_ID, p->phase_id);
        nr_table_set_i64(t, NR_PH_PID, p->pid);
        nr_table_set_i64(t, NR_PH_TID, p->tid);
        nr_table_set_str(t, NR_PH_NAME, p->name, strlen(p->name));
        nr_table_set_i64(t, NR_PH_BEGIN_NS, p->begin_ns);
        nr_table_set_i64(t, NR_PH_END_NS, p->never_ended ? never_ended_cut(in, p, end) : p->end_ns);
        nr_table_set_i64(t, NR_PH_DEPTH, p->depth);
        nr_table_set_i64(t, NR_PH_PARENT_ID, p->parent_id);
        nr_table_set_i64(t, NR_PH_FLAGS, (p->never_ended ? 1 : 0) | (p->ended_by_error ? 2 : 0));
        NR_TRY(nr_table_end_row(t, err));
    }
    return more;
}

static int write_pyio(ingest *in, const nr_pm_counts *c, nr_error *err)
{
    const nr_hook_io *io;
    int more;
    while ((more = nr_hook_next_io(in->hook, &io, err)) > 0) {
        tally_outside(in, io->ts_ns, io->ts_ns, c);
        nr_table_writer *t = in->t_pyio;
        nr_table_set_i64(t, NR_PY_TS_NS, io->ts_ns);
        nr_table_set_i64(t, NR_PY_PID, io->pid);
        nr_table_set_i64(t, NR_PY_TID, io->tid);
        nr_table_set_str(t, NR_PY_OP, io->op, strlen(io->op));
        nr_table_set_str(t, NR_PY_PATH, io->path, strlen(io->path));
        nr_table_set_i64(t, NR_PY_BYTES, io->bytes);
        nr_table_set_i64(t, NR_PY_DUR_NS, io->dur_ns);
        int64_t phase;
        NR_TRY(phase_for(in, io->pid, io->tid, io->ts_ns, &phase, err));
        nr_table_set_i64(t, NR_PY_PHASE_ID, phase);
        NR_TRY(nr_table_end_row(t, err));
    }
    return more;
}

static int write_marks(ingest *in, const nr_pm_counts *c, nr_error *err)
{
    const nr_hook_mark *mk;
    int more;
    while ((more = nr_hook_next_mark(in->hook, &mk, err)) > 0) {
        tally_outside(in, mk->ts_ns, mk->ts_ns, c);
        nr_table_writer *t = in->t_marks;
        nr_table_set_i64(t, NR_MK_TS_NS, mk->ts_ns);
        nr_table_set_i64(t, NR_MK_PID, mk->pid);
        nr_table_set_i64(t, NR_MK_TID, mk->tid);
        nr_table_set_str(t, NR_MK_NAME, mk->name, strlen(mk->name));
        nr_table_set_str(t, NR_MK_ATTRS, mk->attrs, strlen(mk->attrs));
        int64_t phase;
        NR_TRY(phase_for(in, mk->pid, mk->tid, mk->ts_ns, &phase, err));
        nr_table_set_i64(t, NR_MK_PHASE_ID, phase);
        NR_TRY(nr_table_end_row(t, err));
    }
    return more;
}

static int write_waits(ingest *in, const nr_pm_counts *c, nr_error *err)
{
    const nr_hook_wait *wt;
    int more;
    while ((more = nr_hook_next_wait(in->hook, &wt, err)) > 0) {
        tally_outside(in, wt->ts_ns, wt->ts_ns, c);
        nr_table_writer *t = in->t_waits;
        nr_table_set_i64(t, NR_WT_TS_NS, wt->ts_ns);
        nr_table_set_i64(t, NR_WT_PID, wt->pid);
        nr_table_set_i64(t, NR_WT_TID, wt->tid);
        nr_table_set_str(t, NR_WT_WHAT, wt->what, strlen(wt->what));
        nr_table_set_i64(t, NR_WT_DUR_NS, wt->dur_ns);
        int64_t phase;
        NR_TRY(phase_for(in, wt->pid, wt->tid, wt->ts_ns, &phase, err));
        nr_table_set_i64(t, NR_WT_PHASE_ID, phase);
        nr_table_set_i64(t, NR_WT_FIRST, wt->first);
        NR_TRY(nr_table_end_row(t, err));
    }
    return more;
}

/* The hook's tables, each read once from the hook's queues. */
static int write_hook_tables(ingest *in, nr_error *err)
{
    if (!in->hook)
        return 0;
    nr_pm_counts c;
    nr_pm_get_counts(in->pm, &c);
    NR_TRY(write_phases(in, &c, err));
    NR_TRY(nr_hook_rewind_records(in->hook, err));
    NR_TRY(write_pyio(in, &c, err));
    NR_TRY(write_marks(in, &c, err));
    return write_waits(in, &c, err);
}

/* ---- setup ------------------------------------------------------------- */

static int load_side_inputs(ingest *in, nr_error *err)
{
    const char *cwd = in->opts && in->opts->start_cwd && in->opts->start_cwd[0] ? in->opts->start_cwd : NULL;
    nr_manifest_init(&in->manifest);
    if (in->run.manifest_path) {
        NR_TRY(nr_manifest_load(in->run.manifest_path, &in->manifest, err));
        if (!cwd && in->manifest.cwd && in->manifest.cwd[0] == '/')
            cwd = in->manifest.cwd;
    }
    if (cwd && !(in->start_cwd = strdup(cwd)))
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    if (in->run.hook_path) {
        NR_TRY(nr_hook_load(in->run.hook_path, hook_diag, in, &in->hook, err));
        /* never-ended phases are cut at the trace end when written */
        const int rc = nr_hook_finish(in->hook, INT64_MAX, err);
        if (rc < 0)
            return hook_error(in, rc, err);
    }
    return 0;
}

/* opts->jobs, or the cores this process may use (nr_cores). */
static int effective_jobs(const ingest *in)
{
    return in->opts && in->opts->jobs > 0 ? in->opts->jobs : nr_cores();
}

/* Logs of at least this many bytes (of 100-200 a line) give more than a
 * row group of events: a worker makes the events' second batch before the
 * pass needs it (nr_par_write_make_spare). */
#define SPARE_BATCH_MIN_BYTES ((uint64_t)NR_STORE_ROWS_PER_GROUP * 200)

static int open_store(ingest *in, const char *out_path, nr_error *err)
{
    NR_TRY(nr_store_writer_create(out_path, &in->writer, err));
    nr_store_writer_file_id(in->writer, &in->stats.store_dev, &in->stats.store_ino);
    NR_TRY(nr_store_writer_add_table(in->writer, &nr_events_table, &in->t_events, err));
    NR_TRY(nr_store_writer_add_table(in->writer, &nr_files_table, &in->t_files, err));
    NR_TRY(nr_store_writer_add_table(in->writer, &nr_processes_table, &in->t_processes, err));
    NR_TRY(nr_store_writer_add_table(in->writer, &nr_diagnostics_table, &in->t_diag, err));
    NR_TRY(nr_store_writer_add_table(in->writer, &nr_meta_table, &in->t_meta, err));
    NR_TRY(nr_store_writer_add_table(in->writer, &nr_phases_table, &in->t_phases, err));
    NR_TRY(nr_store_writer_add_table(in->writer, &nr_pyio_table, &in->t_pyio, err));
    NR_TRY(nr_store_writer_add_table(in->writer, &nr_marks_table, &in->t_marks, err));
    NR_TRY(nr_store_writer_add_table(in->writer, &nr_waits_table, &in->t_waits, err));
    NR_TRY(nr_par_write_create(in->t_events, effective_jobs(in) > 1 ? in->par : NULL, &in->events_out, err));
    if (in->bytes_total >= SPARE_BATCH_MIN_BYTES)
        nr_par_write_make_spare(in->events_out);
    return 0;
}

/* Above any pid Linux gives (PID_MAX_LIMIT, 2^22 on 64-bit): the
 * synthetic pids of give_logs_pids. */
#define SYNTHETIC_PID_BASE ((int64_t)1 << 22)

/* In a run of several logs, a log whose name carries no pid gets a pid of
 * its own for its lines without one: they would otherwise go to the one
 * task alive, another log's process (task_for_unprefixed serves a single
 * log's stderr mode). docs/definitions.md, "Processes". */
static void give_logs_pids(ingest *in)
{
    if (in->nstreams < 2)
        return;
    int64_t next = SYNTHETIC_PID_BASE;
    for (size_t i = 0; i < in->nstreams; i++)
        if (in->run.logs[i].pid < 0)
            in->run.logs[i].pid = next++;
}

/* One diagnostic per log whose synthetic pid some line used. */
static int report_synthetic_pids(ingest *in)
{
    for (size_t i = 0; i < in->nstreams; i++) {
        const stream *s = &in->streams[i];
        if (s->log->pid < SYNTHETIC_PID_BASE) /* its name's, or none */
            continue;
        for (size_t k = 0; k < nr_pm_task_count(in->pm); k++) {
            nr_pm_task t;
            nr_pm_task_get(in->pm, k, &t);
            if (t.tid != s->log->pid)
                continue;
            char msg[160];
            int n = snprintf(msg, sizeof msg,
                             "lines without a pid in a log whose name has none: given the synthetic pid %lld",
                             (long long)s->log->pid);
            NR_TRY(nr_diag_add(in->diag, "log_without_pid", s->log->name, 0, msg, (size_t)n));
            break;
        }
    }
    return 0;
}

/* The logs' opening, spread over the ingest's threads (a -ff run's
 * thousands of logs each read their first chunk here). */
typedef struct opening {
    ingest *in;
    size_t read_bytes;
    pthread_mutex_t mu;
    size_t failed;     /* the first log (in the run's order) that failed to open, or SIZE_MAX */
    nr_error err;      /* its error */
} opening;

static void open_stream(void *ctx, size_t i)
{
    opening *o = ctx;
    stream *s = &o->in->streams[i];
    pthread_mutex_lock(&o->mu);
    const int after_failed = i > o->failed;
    pthread_mutex_unlock(&o->mu);
    if (after_failed)
        return; /* its error would not be the one reported */
    nr_error err;
    nr_error_clear(&err);
    int rc = o->in->nstreams == 1 ? nr_logsrc_open(s->log->path, &s->src, &err)
                                  : nr_logsrc_open_sized(s->log->path, o->read_bytes, &s->src, &err);
    if (rc == 0 && o->in->nstreams > 1)
        nr_logsrc_rest(s->src); /* until par_lex reads it: the logs' fds are not all open at once */
    if (rc < 0) {
        pthread_mutex_lock(&o->mu);
        if (i < o->failed) {
            o->failed = i;
            o->err = err;
        }
        pthread_mutex_unlock(&o->mu);
    }
}

static int open_streams(ingest *in, nr_error *err)
{
    in->nstreams = in->run.nlogs;
    in->streams = calloc(in->nstreams, sizeof *in->streams);
    in->heap = calloc(in->nstreams, sizeof *in->heap);
    if (!in->streams || !in->heap)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    const int jobs = effective_jobs(in);
    /* many logs (-ff): each read in par_lex's chunks, so that their buffers
       share its budget (1,500 logs took 1 MB each until session 41) */
    opening o = {.in = in, .read_bytes = nr_par_lex_read_bytes(in->nstreams, jobs), .failed = SIZE_MAX};
    for (size_t i = 0; i < in->nstreams; i++) {
        stream *s = &in->streams[i];
        s->log = &in->run.logs[i];
        s->where.file = s->log->name;
        s->index = i;
        s->last_ts = -1;
        s->ts = -1;
    }
    pthread_mutex_init(&o.mu, NULL);
    nr_parallel_for(in->nstreams, jobs, open_stream, &o, NULL);
    pthread_mutex_destroy(&o.mu);
    if (o.failed != SIZE_MAX) { /* the first log's error, whatever the threads */
        *err = o.err;
        return err->code;
    }
    for (size_t i = 0; i < in->nstreams; i++)
        in->bytes_total += nr_logsrc_size_at_open(in->streams[i].src);
    give_logs_pids(in);
    nr_logsrc **srcs = malloc(in->nstreams * sizeof *srcs);
    if (!srcs)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    for (size_t i = 0; i < in->nstreams; i++)
        srcs[i] = in->streams[i].src;
    /* one plain log: the workers model chunks ahead of the pass, which
       stitches them (speculate, stitch_chunk). One compressed log: its
       decompression is serial and a large share of the work, so they read
       ahead instead, and a single worker leaves the lexing to the pass
       (docs/performance.md, session 41: at -j 2 a .zst log took 2.45 s
       with the chunk models, 2.0 s at -j 1) */
    if (!(in->pool = nr_spec_pool_create())) {
        free(srcs);
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    }
    nr_par_lex_chunk_work work = {speculate_work, drop_work, in, SPLIT_CHUNK_BYTES, speculate_chunks};
    const int compressed = in->nstreams == 1 && nr_logsrc_compression(srcs[0]) != NR_LOG_PLAIN;
    const int split = in->nstreams == 1 && !compressed;
    int rc = compressed && jobs == 2
                 ? nr_par_lex_create_reading(srcs, in->nstreams, jobs, &in->par, err)
                 : nr_par_lex_create_working(srcs, in->nstreams, jobs, split ? &work : NULL, &in->par, err);
    free(srcs);
    return rc;
}

/* Stderr mode whose first process the log never names: its lines stay
 * pid 0, said once (docs/definitions.md, "stderr mode"). */
static int note_root_unknown(ingest *in, uint64_t first_line, nr_error *err)
{
    static const char msg[] = "the first process's lines carry no [pid N] and the log never names its pid: "
                              "they are given pid 0";
    if (nr_diag_add(in->diag, "root_pid_unknown", in->streams[0].log->name, first_line, msg, sizeof msg - 1) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 0;
}

static int create_model(ingest *in, nr_error *err)
{
    nr_pm_config cfg = {.start_cwd = in->start_cwd, .emit = emit_event, .emit_ctx = in, .diag = in->diag};
    NR_TRY(nr_pm_create(&cfg, &in->pm, err));
    /* stderr mode only happens in a single -f log (not in -ff files) */
    if (in->nstreams == 1 && in->streams[0].log->pid < 0) {
        const root_scan rs = prescan_root_pid(in->streams[0].log->path);
        if (rs.pid >= 0)
            nr_pm_set_root_pid(in->pm, rs.pid);
        else if (rs.mixed)
            NR_TRY(note_root_unknown(in, rs.first_line, err));
    }
    return 0;
}

/* Whether stamps of this form order the lines of different logs: Unix and
 * clock-of-day stamps do (a -t stamp's whole second too: ties go to pid
 * order, as without stamps, so it orders no two lines worse than that);
 * -r deltas do not: they add up from each log's own first line, so a
 * child's lines would come before the clone that made it. */
static int orders_across_logs(nr_ts_form form) { return form == NR_TS_UNIX || form == NR_TS_CLOCK; }

/* The merge of several logs when their stamps cannot order them: said
 * once in diagnostics (docs/definitions.md, "Order"). */
static int note_order_inferred(ingest *in, int any_untimed)
{
    const char *reason = any_untimed ? "no_timestamps" : "order_inferred";
    const char *msg = any_untimed
                          ? "logs without timestamps: -ff files processed one after the other, parents first (pid order)"
                          : "stamps that cannot order the logs (-r counts from each log's start): -ff files processed "
                            "one after the other, parents first (pid order); their order is inferred, not timed";
    return nr_diag_add(in->diag, reason, NULL, 0, msg, strlen(msg));
}

/* Several logs of -r stamps (-ff -r): strace keeps one "previous
 * syscall" stamp for all the processes it traces, so each delta is the
 * gap to the previous call of any process, not of the log's own; summed
 * per log they are no one's time. Said once (docs/definitions.md,
 * "Time"); the model marks the run's times unreliable by this reason. */
static int note_relative_times(ingest *in)
{
    static const char msg[] = "-ff -r: a delta is the gap to the previous call of any process, not of the log's "
                              "own: times are not wall times (timeline, bursts, durations of the run and phases; "
                              "-T is right). Use -ttt";
    return nr_diag_add(in->diag, NR_DIAG_RELATIVE_TIMES, NULL, 0, msg, sizeof msg - 1);
}

static int compare_i64(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The run's start on the clock: of the logs' first clock stamps (each in
 * [0, 1 day): a log counts days from its own first line), the one after
 * the widest gap between them around the clock. first is sorted, n >= 1. */
static int64_t clock_run_start(const int64_t *first, size_t n)
{
    int64_t start = first[0], widest = first[0] + NS_PER_DAY - first[n - 1];
    for (size_t i = 1; i < n; i++)
        if (first[i] - first[i - 1] > widest) {
            widest = first[i] - first[i - 1];
            start = first[i];
        }
    return start;
}

/* -ff logs of clock-of-day stamps (-t, -tt): each log's days count from
 * its own first line, so a worker whose log starts after midnight would
 * go a day before its parent's clone. The logs whose first stamp is
 * before the run's start (clock_run_start) start the day after it
 * (docs/definitions.md, "Time"). */
static int align_clock_days(ingest *in, nr_error *err)
{
    int64_t *first = malloc(in->nstreams * sizeof *first);
    if (!first)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    size_t n = 0;
    for (size_t i = 0; i < in->nstreams; i++)
        if (!in->streams[i].at_end)
            first[n++] = in->streams[i].ts;
    if (n) {
        qsort(first, n, sizeof *first, compare_i64);
        const int64_t start = clock_run_start(first, n);
        for (size_t i = 0; i < in->nstreams; i++) {
            stream *s = &in->streams[i];
            if (s->at_end || s->ts >= start)
                continue;
            s->day_offset += NS_PER_DAY;
            s->ts += NS_PER_DAY;
            s->last_ts += NS_PER_DAY;
        }
    }
    free(first);
    return 0;
}

/* Reads every stream and feeds the model, merged by time when the logs'
 * stamps can order them, else one log after the other. */
static int run_streams(ingest *in, nr_error *err)
{
    int any_untimed = 0, any_relative = 0, comparable = 1;
    nr_ts_form form = NR_TS_NONE;
    size_t live = 0;
    for (size_t i = 0; i < in->nstreams; i++) {
        stream *s = &in->streams[i];
        NR_TRY(stream_advance(in, s, err));
        if (s->at_end)
            continue;
        any_untimed |= s->first_form == NR_TS_NONE;
        any_relative |= s->first_form == NR_TS_RELATIVE;
        comparable &= orders_across_logs(s->first_form) && (live == 0 || s->first_form == form);
        form = s->first_form;
        live++;
    }
    if (in->nstreams > 1 && !comparable && note_order_inferred(in, any_untimed) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    if (in->nstreams > 1 && any_relative && note_relative_times(in) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    if (comparable && in->nstreams > 1 && form == NR_TS_CLOCK)
        NR_TRY(align_clock_days(in, err));
    /* one stream needs no merge */
    return comparable && in->nstreams > 1 ? merge_by_time(in, err) : feed_in_order(in, err);
}

/* A run with no strace line at all is an error naming the log. */
static int check_not_empty(ingest *in, nr_error *err)
{
    for (size_t i = 0; i < in->nstreams; i++) {
        const stream *s = &in->streams[i];
        if (s->parsed == 0 && in->nstreams > 1) {
            char msg[96];
            int n = snprintf(msg, sizeof msg, "no strace line in %llu lines", (unsigned long long)s->lines);
            NR_TRY(nr_diag_add(in->diag, s->lines ? "not_a_strace_log" : "empty_log", s->log->name, 0, msg, (size_t)n));
        }
    }
    if (in->saw_event)
        return 0;
    /* the log itself when there is one, else the run's folder */
    const char *name = in->run.nlogs == 1 || !in->run.dir ? in->run.logs[0].path : in->run.dir;
    if (in->stats.lines_read == 0)
        return nr_error_set(err, NR_E_INPUT, "%s: the strace log is empty", name);
    const uint64_t blank = in->stats.lines_read - in->stats.lines_parsed - in->stats.lines_skipped;
    const uint64_t summary = nr_diag_count(in->diag, "summary_table");
    if (summary > 0 && summary == in->stats.lines_skipped) /* strace -c: a log, but of no call */
        return nr_error_set(err, NR_E_INPUT,
                            "%s: holds only the call summary table of strace -c (%llu lines), no call to analyse: "
                            "trace without -c (-C prints the calls and the table)",
                            name, (unsigned long long)summary);
    return nr_error_set(err, NR_E_INPUT,
                        "%s: not an strace log: none of its %llu lines is a syscall, signal or exit line "
                        "(%llu skipped, %llu blank)",
                        name, (unsigned long long)in->stats.lines_read, (unsigned long long)in->stats.lines_skipped,
                        (unsigned long long)blank);
}

/* What write_hook_tables tallied as it wrote the phases and records (one
 * read of the hook's record queues). */
static int check_hook_clock(ingest *in)
{
    const uint64_t outside = in->hook_clock.outside;
    const int64_t worst = in->hook_clock.worst;
    if (!outside)
        return 0;
    in->stats.hook_diagnosed += outside;
    char msg[160];
    int n = snprintf(msg, sizeof msg, "hook records outside the strace time range by up to %.6f s (clock skew?)",
                     (double)worst * 1e-9);
    return nr_diag_add_n(in->diag, "hook_outside_trace", outside, "hook.jsonl", 0, msg, (size_t)n);
}

/* A phase applies to the events of its process and that process's
 * descendants: a phase whose pid the trace never saw (a pid namespace, a
 * hook file of another run, a first process left pid 0) phases nothing,
 * and its events would be unphased without a word. */
static int check_hook_pids(ingest *in)
{
    const uint64_t lost = in->hook_untraced.lost;
    const int64_t example = in->hook_untraced.example;
    if (!lost)
        return 0;
    in->stats.hook_diagnosed += lost;
    char msg[200];
    const int n = snprintf(msg, sizeof msg,
                           "%" PRIu64 " phases name no traced process, the first of pid %" PRId64
                           ": they phase no event (a pid namespace, or a hook file of another run?)",
                           lost, example);
    return nr_diag_add_n(in->diag, "hook_pid_not_traced", lost, "hook.jsonl", 0, msg, (size_t)n);
}

/* Events from which the store is big enough for an early sync to pay
 * (about 0.5 MB of store). Measured (perf stat): a 2 MB log (13 k events)
 * 51.4-52.5 ms without, 52.8-55.2 ms with one (two fsyncs of a small
 * file); a 100 MB log (672 k events) at -j 2 0.151-0.183 s with one,
 * 0.186-0.195 s without. */
#define EARLY_SYNC_MIN_EVENTS 100000u

/* par_lex's side work after the events: the store's shared flushes. */
static int help_store(void *ctx) { return nr_store_writer_help(ctx); }

/* A wake of par_lex's workers for side work, as a callback. */
static void wake_workers(void *ctx) { nr_par_lex_wake(ctx); }

/* With workers, one of them encodes row groups beside the caller from now
 * on (the events' writer, par_write, is done). */
static int share_flushes(ingest *in, nr_error *err)
{
    if (effective_jobs(in) < 2 || nr_par_lex_workers(in->par) < 1)
        return 0;
    NR_TRY(nr_store_writer_set_helper(in->writer, wake_workers, in->par, err));
    nr_par_lex_set_side_work(in->par, help_store, in->writer);
    nr_par_lex_wake(in->par);
    return 0;
}

static int finish_store(ingest *in, nr_error *err)
{
    NR_TRY(nr_pm_finish(in->pm, err));
    NR_TRY(nr_par_write_finish(in->events_out, err)); /* the other tables only after the last event */
    if (in->stats.events >= EARLY_SYNC_MIN_EVENTS)
        nr_store_writer_sync_early(in->writer); /* the events are most of the store */
    NR_TRY(share_flushes(in, err));
    NR_TRY(write_files(in, err));
    NR_TRY(write_processes(in, err));
    NR_TRY(write_hook_tables(in, err));
    nr_pm_counts c;
    nr_pm_get_counts(in->pm, &c);
    in->stats.unfinished_never_resumed = c.never_resumed;
    NR_TRY(report_synthetic_pids(in));
    if (!in->has_durations)
        NR_TRY(nr_diag_add(in->diag, "no_durations", NULL, 0, "the trace lacks -T: no latencies", 32));
    if (in->time_base == NR_TS_NONE && nr_diag_count(in->diag, "no_timestamps") == 0)
        NR_TRY(nr_diag_add(in->diag, "no_timestamps", NULL, 0, "the trace lacks -t/-tt/-ttt/-r: no times", 40));
    if (in->hook && in->time_base == NR_TS_UNIX)
        NR_TRY(check_hook_clock(in));
    if (in->hook)
        NR_TRY(check_hook_pids(in));
    if (in->hook && in->time_base != NR_TS_UNIX) {
        const char *msg = "phases need -ttt (Unix) timestamps in the strace log: every event is unphased";
        NR_TRY(nr_diag_add(in->diag, "hook_needs_unix_time", "hook.jsonl", 0, msg, strlen(msg)));
    }
    NR_TRY(write_meta(in, err));
    NR_TRY(nr_diag_write(in->diag, in->t_diag, err));
    return nr_store_writer_commit(in->writer, err);
}

/* With workers, the pass's growing path table and file records get
 * their next blocks from a reserve that the workers fault in as side work
 * (nr_reserve.h): at -j 2 the pass bounds the ingest, and the kernel's
 * zeroing of those pages was 5-8% of its samples (docs/performance.md,
 * session 54). The pass is this thread until stop_readers. */
static int start_reserve(ingest *in, nr_error *err)
{
    if (effective_jobs(in) < 2 || nr_par_lex_workers(in->par) < 1)
        return 0;
    if (!(in->reserve = nr_reserve_new(wake_workers, in->par)))
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    nr_par_lex_set_reserve(in->par, in->reserve);
    nr_reserve_bind(in->reserve);
    return 0;
}

/* Joins par_lex's threads: the logs are the caller's alone after this. */
static void stop_readers(ingest *in)
{
    if (in->reserve)
        nr_reserve_bind(NULL);
    nr_par_lex_destroy(in->par); /* gives the chunks' models back to the pool */
    in->par = NULL;
    if (in->reserve) {
        size_t made, taken;
        nr_reserve_counts(in->reserve, &made, &taken);
        in->stats.blocks_made = made;
        in->stats.blocks_taken = taken;
    }
    nr_reserve_free(in->reserve); /* after its workers: one may be filling it */
    in->reserve = NULL;
    nr_spec_pool_destroy(in->pool);
    in->pool = NULL;
    nr_par_write_destroy(in->events_out);
    in->events_out = NULL;
}

static void ingest_free(ingest *in)
{
    stop_readers(in);
    for (size_t i = 0; i < in->nstreams; i++)
        nr_logsrc_close(in->streams[i].src);
    free(in->streams);
    free(in->heap);
    nr_pm_destroy(in->pm);
    ancestry_free(&in->ancestry);
    nr_store_writer_destroy(in->writer);
    nr_diag_destroy(in->diag);
    nr_runfiles_fini(&in->run);
    free(in->start_cwd);
    nr_hook_free(in->hook);
    nr_manifest_fini(&in->manifest);
}

/* An output in the run folder that its scan would take, by its name, for a
 * log, the hook or the manifest is a usage error: the next ingest of the
 * run would read the store as one (review 49: -o R/strace.log.77). */
static int check_output_name(const nr_runfiles *run, const char *out_path, nr_error *err)
{
    const char *slash = strrchr(out_path, '/');
    const char *base = slash ? slash + 1 : out_path;
    const char *role = run->dir ? nr_runfind_role_by_name(base) : NULL;
    if (!role)
        return 0;
    char *parent = slash ? strndup(out_path, (size_t)(slash - out_path) + 1) : strdup(".");
    if (!parent)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    struct stat a, b;
    const int same = stat(parent, &a) == 0 && stat(run->dir, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    free(parent);
    if (same)
        return nr_error_set(err, NR_E_USAGE, "%s: the run folder %s would take this output for %s by its name: "
                            "write the store elsewhere or name it *.nio", out_path, run->dir, role);
    return 0;
}

/* Notes, once the diagnostics exist, the files named like a log that are
 * binary (nr_runfiles.binary): skipped, never silently. */
static int note_binary_files(ingest *in)
{
    static const char msg[] = "binary (a NUL byte in its first 8192 bytes; a niorep store?): not read as a log";
    for (size_t i = 0; i < in->run.nbinary; i++)
        NR_TRY(nr_diag_add(in->diag, "not_a_strace_log", in->run.binary[i], 0, msg, sizeof msg - 1));
    return 0;
}

/* Notes the entries of the run folder that the ingest does not read (a
 * README, a report written there, a store, a sub-folder), one
 * file_not_read each with its reason: until session 50 they were counted
 * in a field nothing showed. */
static int note_skipped_files(ingest *in)
{
    for (size_t i = 0; i < in->run.nskipped; i++) {
        const char *msg = nr_runskip_message(in->run.skipped[i].why);
        NR_TRY(nr_diag_add(in->diag, "file_not_read", in->run.skipped[i].name, 0, msg, strlen(msg)));
    }
    in->stats.files_not_read = in->run.nskipped;
    return 0;
}

/* The store must not replace a file of the run it reads, nor be one it would read. */
static int check_output(const nr_runfiles *run, const char *out_path, nr_error *err)
{
    NR_TRY(check_output_name(run, out_path, err));
    const char **inputs = malloc((run->nlogs + 2) * sizeof *inputs);
    if (!inputs)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    for (size_t i = 0; i < run->nlogs; i++)
        inputs[i] = run->logs[i].path;
    inputs[run->nlogs] = run->hook_path;
    inputs[run->nlogs + 1] = run->manifest_path;
    const int rc = nr_outfile_check_inputs(out_path, inputs, run->nlogs + 2, err);
    free(inputs);
    return rc;
}

static int ingest_steps(ingest *in, const char *input, const char *out_path, nr_error *err)
{
    NR_TRY(nr_runfind(input, &in->run, err));
    NR_TRY(check_output(&in->run, out_path, err));
    if (!(in->diag = nr_diag_create()) || note_binary_files(in) < 0 || note_skipped_files(in) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    NR_TRY(load_side_inputs(in, err));
    NR_TRY(open_streams(in, err));
    NR_TRY(start_reserve(in, err));
    NR_TRY(create_model(in, err));
    NR_TRY(open_store(in, out_path, err));
    NR_TRY(run_streams(in, err));
    if (in->opts && in->opts->progress)
        in->opts->progress(in->opts->progress_ctx, in->bytes_total, in->bytes_total);
    NR_TRY(check_not_empty(in, err));
    return finish_store(in, err);
}

int nr_ingest_finds_log(const char *dir, nr_error *err)
{
    nr_runfiles run;
    nr_runfiles_init(&run);
    const int rc = nr_runfind(dir, &run, err);
    nr_runfiles_fini(&run);
    return rc == NR_E_INPUT ? 0 : rc < 0 ? rc : 1;
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of run not read, as "NAME\tMESSAGE" (new strings). */
static int list_not_read(const nr_runfiles *run, char ***out, size_t *n, nr_error *err)
{
    *out = NULL;
    *n = 0;
    if (run->nskipped && !(*out = calloc(run->nskipped, sizeof **out)))
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", run->dir);
    for (size_t i = 0; i < run->nskipped; i++) {
        const char *name = run->skipped[i].name, *msg = nr_runskip_message(run->skipped[i].why);
        const size_t len = strlen(name) + strlen(msg) + 2;
        if (!((*out)[i] = malloc(len))) {
            for (size_t k = 0; k < i; k++)
                free((*out)[k]);
            free(*out);
            *out = NULL;
            return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", run->dir);
        }
        snprintf((*out)[i], len, "%s\t%s", name, msg);
    }
    *n = run->nskipped;
    return 0;
}

int nr_ingest_input_files(const char *input, int logs_only, char ***paths, size_t *n, char ***not_read,
                          size_t *n_not_read, nr_error *err)
{
    *paths = NULL;
    *n = 0;
    if (not_read) {
        *not_read = NULL;
        *n_not_read = 0;
    }
    nr_runfiles run;
    nr_runfiles_init(&run);
    run.names_only = !logs_only; /* the binary files named like logs are listed unread, as logs */
    int rc = nr_runfind(input, &run, err);
    if (rc == 0 && not_read)
        rc = list_not_read(&run, not_read, n_not_read, err);
    const char *extra[2] = {logs_only ? NULL : run.hook_path, logs_only ? NULL : run.manifest_path};
    char **out = rc == 0 ? calloc(run.nlogs + 2, sizeof *out) : NULL;
    if (rc == 0 && !out)
        rc = nr_error_set(err, NR_E_NOMEM, "%s: out of memory", input);
    size_t k = 0;
    for (size_t i = 0; rc == 0 && i < run.nlogs + 2; i++) {
        const char *p = i < run.nlogs ? run.logs[i].path : extra[i - run.nlogs];
        if (p && !(out[k++] = strdup(p)))
            rc = nr_error_set(err, NR_E_NOMEM, "%s: out of memory", input);
    }
    nr_runfiles_fini(&run);
    if (rc < 0) {
        for (size_t i = 0; out && i < k; i++)
            free(out[i]);
        free(out);
        for (size_t i = 0; not_read && i < *n_not_read; i++)
            free((*not_read)[i]);
        if (not_read) {
            free(*not_read);
            *not_read = NULL;
            *n_not_read = 0;
        }
        return rc;
    }
    qsort(out, k, sizeof *out, cmp_path);
    *paths = out;
    *n = k;
    return 0;
}

int nr_ingest_run(const char *input, const char *out_path, const nr_ingest_opts *opts,
                  nr_ingest_stats *stats, nr_error *err)
{
    ingest in;
    memset(&in, 0, sizeof in);
    in.opts = opts;
    nr_runfiles_init(&in.run);
    int rc = ingest_steps(&in, input, out_path, err);
    stop_readers(&in);
    in.stats.log_files = in.nstreams;
    for (size_t i = 0; i < in.nstreams; i++)
        if (in.streams[i].src)
            in.stats.bytes_in += nr_logsrc_bytes_out(in.streams[i].src);
    if (stats)
        *stats = in.stats;
    ingest_free(&in);
    return rc;
}
