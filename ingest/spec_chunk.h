/* spec_chunk: one chunk of a log fed to a speculative process model
 * (procmodel.h, "speculation") on any thread, ahead of the ordered pass,
 * which then stitches it (docs/split.md). The chunk's events, diagnostics
 * and line counts wait here until the stitch takes or refuses them.
 * Models are pooled: made afresh per chunk, their arrays were first
 * touched again each time (docs/performance.md, session 15). */
#ifndef SPEC_CHUNK_H
#define SPEC_CHUNK_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "nr_mem.h"
#include "par_lex.h"
#include "procmodel.h"

/* Shared fd tables the pool passes on to the models (nr_pm_spec_tables):
 * more give no hint. */
#define NR_SPEC_TABLES_MAX 256

typedef struct nr_spec_chunk {
    nr_pm *pm;               /* the speculative model, fed the chunk's lines */
    nr_diag *diag;           /* what the lines and the model found, line numbers absolute */
    /* The captured events. The emit on the pass's core seldom reads their
     * names (the batch knows a known syscall's name by its table index, and
     * most calls succeed, with no errno name), so they are not copied beside
     * them, where they made an event three cache lines crossing the cores
     * instead of two: a known syscall's name points into the syscall table
     * (syscall_ref), and any other nonempty name (an unknown syscall's, an
     * errno name) is copied to names, its span holding the offset there
     * until nr_spec_chunk_event makes it a pointer. (A copy, because a
     * resumed call's name lives in its task's buffer, which the task's next
     * unfinished call overwrites before the emit.) */
    nr_pm_event *events;
    size_t nevents, events_cap;
    nr_buf names;            /* the events' names not in the syscall table */
    uint64_t skipped, parsed;/* lines, as the pass counts them */
    uint64_t unmatched_resumed;
    int has_durations;
    int64_t first_ts, last_ts; /* of the event lines; -1 none */
    int64_t first_dur;         /* the -T duration of the first event line; -1 none */
    size_t first_event_line; /* index in the chunk (the pass checks its clock step) */
    int refused;             /* a line refused the speculation, or memory ran out */
    nr_pm_shared_table tables[NR_SPEC_TABLES_MAX]; /* the pool's hint when the chunk began */
    size_t ntables;
} nr_spec_chunk;

typedef struct nr_spec_pool nr_spec_pool;

/* A pool of models for one ingest, or NULL when out of memory. */
nr_spec_pool *nr_spec_pool_create(void);
/* Frees the pool and every model in it. Accepts NULL. */
void nr_spec_pool_destroy(nr_spec_pool *pool);
/* The ordered pass, between two lines: gives the chunks run from now on
 * the real model's shared fd tables as a hint (nr_pm_shared_tables), when
 * they changed since the last call. */
void nr_spec_pool_set_tables(nr_spec_pool *pool, const nr_pm *real);

/* Feeds chunk v of the log `file` (pid: an -ff file's, -1 for -f logs) to a
 * speculative model from the pool, as the ingest's ordered pass would feed
 * its lines to the real model: -ttt stamps only (any other refuses). Reads
 * nothing else of the ingest, so it runs on any thread. NULL when out of
 * memory. */
nr_spec_chunk *nr_spec_chunk_run(nr_spec_pool *pool, const char *file, int64_t pid, const nr_par_chunk_view *v);
/* Event i with its spans pointing at its copied names. */
nr_pm_event *nr_spec_chunk_event(nr_spec_chunk *c, size_t i);
/* Gives c back to the pool. Accepts NULL. */
void nr_spec_chunk_free(nr_spec_pool *pool, nr_spec_chunk *c);

/* The reason a line that is no event is skipped (diagnostics key);
 * truncated: it is a last line without newline. Shared with the pass. */
const char *nr_skip_reason(const nr_sline *sl, int truncated);
/* stderr mode: the traced program's writes to stderr, where strace prints
 * too, land in the middle of a call's line, which then ends in the
 * program's text ("write(2, \"step 9\\n\", 7step 9": truncated). The
 * call's end follows on a line of its own, after the program's lines: its
 * tail (") = 7 <0.000018>"), or " <unfinished ...>" when another task's
 * line came first and later its <... resumed> line. So a call's line cut
 * before its arguments end, other than a log's unterminated last line, is
 * made the call's unfinished half (its arguments with the program's text
 * after them: the model reads the fd; the result comes with the end):
 * 1 when sl (line w) was such a line, counted in diag as cut_call_line;
 * 0 when not; NR_E_NOMEM. Until session 42 it was skipped as truncated,
 * and its tail was unmatched or ended the pending call of the task before
 * it. Shared with the pass. */
int nr_take_cut_call(nr_diag *diag, nr_sline *sl, const nr_pm_where *w, int unterminated_last_line,
                     nr_error *err);
/* A call line whose arguments close but that has no result ("close(3)"),
 * other than a log's unterminated last line: strace prints a call's ')'
 * only together with its result, so this is the traced program's own text
 * in a stderr log (a print, a traceback's source line). sl becomes a BAD
 * line of reason call_without_result: 1 when it did, 0 when not. Until
 * session 46 such a line was an event: a printed "close(3)" closed fd 3.
 * Shared with the pass. */
int nr_reject_resultless_call(nr_sline *sl, int unterminated_last_line);
/* Notes an event line that the model kept and that is a last line without
 * newline: "unterminated_last_line" in diag, unless its end proves it whole
 * (nr_sline_ends_whole: the log may be cut inside its result, "= 40" of
 * "= 4096"). Call it for that line only. Shared with the pass. Returns 0 or
 * NR_E_NOMEM. */
int nr_note_cut_event(nr_diag *diag, const nr_sline *sl, const nr_pm_where *w, nr_error *err);
/* Notes what the lexer could not read after the result of the event line
 * sl of w (nr_sline_result_tail_odd): a "<...>" that is no duration
 * (dur_ns NR_SLINE_DUR_UNREADABLE) as duration_unreadable, making it a
 * call without one (-1; until session 48 such a call lost its latency
 * without a word), and text it does not know (result_tail_unread; until
 * session 57 ignored without a word). Returns 0 or NR_E_NOMEM. */
int nr_note_result_tail(nr_diag *diag, nr_sline *sl, const nr_pm_where *w, nr_error *err);

/* Clock sanity within one log: strace stamps lines in the order it prints
 * them, so a stamp more than NR_CLOCK_SLACK_NS before the previous one, or
 * more than NR_CLOCK_JUMP_NS after it, means the clock was set (NTP step,
 * VM resume) or the log was spliced: "clock_backwards", "clock_jump", or
 * NULL. One exception: with -z/-Z strace prints a call only at its return,
 * stamped with its start, so a long call comes after the shorter ones of
 * other tasks that returned first; it is no step back while it ended
 * (ts + dur_ns, its -T duration; -1 none) at or after the previous stamp. */
#define NR_CLOCK_SLACK_NS 1000000LL
#define NR_CLOCK_JUMP_NS (3600LL * 1000000000LL)

static inline const char *nr_clock_step_reason(int64_t prev_ts, int64_t ts, int64_t dur_ns)
{
    const int64_t end = dur_ns > 0 && ts <= INT64_MAX - dur_ns ? ts + dur_ns : ts;
    return end < prev_ts - NR_CLOCK_SLACK_NS ? "clock_backwards" : ts > prev_ts + NR_CLOCK_JUMP_NS ? "clock_jump" : NULL;
}

#endif
