/* par_lex: reads and lexes the logs of one ingest on worker threads and hands
 * the lexed lines back, log by log, in each log's own order.
 *
 * Each log is cut into chunks at line boundaries (as logsrc hands lines
 * out). A chunk is read by one thread at a time per log (reading is serial
 * per log: decompression and the log fingerprint are), then lexed
 * (nr_sline_parse, which is pure) by any thread. The caller - the one
 * ordered pass that applies the per-process semantics - takes the chunks of
 * each log in order with nr_par_lex_next and, while it waits, does pending
 * work itself; with jobs == 1 it does all of it and no thread is started.
 * The lines and their order do not depend on jobs or on the chunk size, so
 * the store does not either.
 *
 * Lexed lines cross threads packed into 64 bytes each (nr_par_line), less
 * than their text, and are unpacked into an nr_sline by nr_par_lex_line on
 * the caller's thread just before use; with jobs == 1, or when the caller
 * takes a chunk no worker has lexed yet, lines are only cut and
 * nr_par_lex_line lexes each one there (its nr_sline stays in the caller's
 * cache instead of going through a chunk's array).
 *
 * Memory: at most `depth` chunks per log in flight, each of about
 * chunk_bytes of text plus one nr_par_line per line (each array of 512 kB
 * to 2 MB rounded up to a 2 MB huge page); chunk_bytes shrinks as the
 * number of logs grows (a fixed budget, with a floor per log). Bounded
 * by the number of logs, never by lines. With jobs == 1 a log has one chunk
 * of at most 256 kB whose text is logsrc's own buffer (not copied: logsrc is
 * read again only after the chunk is released). With many logs, a log the
 * caller has not reached yet (nr_par_lex_reach) holds one chunk, its first,
 * and its reader rests between its reads (nr_logsrc_rest: no fd, no
 * decoder); a log's chunks are freed once its last one is consumed, for
 * the logs after it to reuse.
 *
 * Threads: one mutex and one condition variable guard every chunk's state;
 * a worker finds a chunk to lex on a stack of the chunks read (the last
 * read first) and a log to read among the logs reached, or the next log
 * whose first chunk is unread, without a look at every log (a -ff run's
 * thousands);
 * a chunk's buffers belong to the one thread that holds it (reading,
 * lexing or consuming), so no data is shared without the lock. The workers
 * also run the side work given to them (nr_par_lex_set_side_work: with
 * jobs == 2 the caller and one worker share all the work, and no third
 * thread competes for two cores).
 *
 * With more logs merged at once than NR_PAR_SERIAL_ABOVE (the caller says
 * how many: nr_par_lex_set_live), the workers turn serial: they neither
 * read nor lex, and the caller reads and lexes each log's chunk as with
 * jobs == 1 (one chunk per log, its text logsrc's own), while the workers
 * keep the side work.
 *
 * With chunk work (nr_par_lex_create_working, one log), workers do not lex
 * for the caller: each chunk is read by the thread that takes it, and a
 * worker runs the work (a speculative model: docs/split.md) on the chunks
 * it reads, which the caller gets with their result. */
#ifndef PAR_LEX_H
#define PAR_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "logsrc.h"
#include "nr_error.h"
#include "nr_reserve.h"
#include "strace_line.h"

typedef struct nr_par_lex nr_par_lex;

/* One line of a chunk: its text is text[off, off + len) of the chunk (a
 * chunk holds less than 4 GiB). The other fields are par_lex's packed form
 * of its nr_sline (read it with nr_par_lex_line): spans as 16-bit offsets
 * into the line, the fields a line rarely has left out (such a line is
 * lexed again when read). 64 bytes. */
typedef struct nr_par_line {
    uint32_t off, len;
    int64_t ts_ns, dur_ns, result;
    int32_t pid;
    uint16_t span_off[5], span_len[5]; /* name, args, result_annot, errno_name, errno_text */
    uint16_t syscall_ref;              /* nr_sline.syscall_ref */
    uint8_t kind, ts_form, bits;       /* bits: NR__PAR_* */
} nr_par_line;

_Static_assert(sizeof(nr_par_line) == 64, "a packed line is one cache line");

/* nr_par_line.bits */
enum { NR__PAR_HAS_RESULT = 1, NR__PAR_RESULT_UNKNOWN = 2, NR__PAR_PACKED = 4, NR__PAR_RESULT_TAIL_UNREAD = 8 };

/* A line carried over from the chunk before: an <unfinished ...> call
 * that its task had pending at that chunk's end, as far as the chunk's
 * last NR_PAR_CARRY_WINDOW lines tell (the task's last line there is the
 * call's; a signal line does not count). Its text is carry_text[off, off +
 * len). A speculative model may take such a call's <... resumed> line
 * (docs/split.md); the stitch checks that the real model holds it. */
typedef struct nr_par_carried {
    uint32_t off, len;
    uint64_t line_no;        /* 1-based, in the log */
} nr_par_carried;

#define NR_PAR_CARRY_WINDOW 256  /* lines looked at */
#define NR_PAR_CARRY_MAX 32      /* calls carried */
#define NR_PAR_CARRY_LINE_MAX 4096 /* longer lines are not */

/* A lexed chunk, valid until the next nr_par_lex_next of the same log. */
typedef struct nr_par_chunk_view {
    const nr_par_line *lines;
    size_t n;
    const char *text;
    uint64_t first_line_no;  /* 1-based number of lines[0] in its log */
    int last_unterminated;   /* lines[n - 1] is a last line without newline */
    int lexed;               /* the lines hold their packed nr_sline (else only cut) */
    void *spec;              /* what the chunk work made of the chunk (now the caller's), or NULL */
    const nr_par_carried *carried; /* with chunk work: the calls carried over, in log order */
    size_t ncarried;
    const char *carry_text;
} nr_par_chunk_view;

/* The <unfinished ...> lines among the last NR_PAR_CARRY_WINDOW of lines
 * [0, n) of text that their tasks had pending at the end (see
 * nr_par_carried): their indexes into idx, in log order; returns how many
 * (at most NR_PAR_CARRY_MAX). Pure: par_lex runs it on each chunk it
 * reads with chunk work. */
size_t nr_par_lex_tail_pending(const char *text, const nr_par_line *lines, size_t n, size_t idx[NR_PAR_CARRY_MAX]);

/* Work on whole chunks that the workers do instead of lexing them (a
 * speculative model of the chunk, procmodel.h): run(ctx, view) on a read
 * chunk the caller has not reached yet, the newest first, on a worker's
 * thread; its result comes with the chunk (nr_par_chunk_view.spec). The
 * caller does the chunks it reaches first itself. drop(ctx, result) frees
 * the results of chunks never consumed. */
typedef struct nr_par_lex_chunk_work {
    void *(*run)(void *ctx, const nr_par_chunk_view *v);
    void (*drop)(void *ctx, void *result);
    void *ctx;               /* borrowed until nr_par_lex_destroy */
    size_t chunk_bytes;      /* the chunk size for such work */
    int carry_always;        /* carry calls over (nr_par_carried) with no worker too (tests) */
} nr_par_lex_chunk_work;

/* Unpacks a packed line (NR__PAR_PACKED) whose text is line. */
void nr__par_lex_unpack(const nr_par_line *pl, const char *line, nr_sline *out);

/* Line i of v lexed into *out (its spans point into v->text): exactly what
 * nr_sline_parse(v->text + off, len, out) gives, unpacked when a worker lexed
 * the line, else lexed now. Inline: the per-line path of jobs == 1. */
static inline void nr_par_lex_line(const nr_par_chunk_view *v, size_t i, nr_sline *out)
{
    const nr_par_line *pl = &v->lines[i];
    if (v->lexed && (pl->bits & NR__PAR_PACKED))
        nr__par_lex_unpack(pl, v->text + pl->off, out);
    else
        nr_sline_parse(v->text + pl->off, pl->len, out);
}

/* Starts reading the logs srcs[0..n) (borrowed: they must outlive p and are
 * touched only by p's threads until nr_par_lex_destroy) with jobs threads in
 * all (the caller's included; 0 = all cores). Returns 0 and *out, or
 * NR_E_NOMEM / NR_E_IO. */
int nr_par_lex_create(nr_logsrc *const *srcs, size_t n, int jobs, nr_par_lex **out, nr_error *err);
/* The same, with the workers doing work (copied; NULL = none) on whole
 * chunks instead of lexing them when there are workers. */
int nr_par_lex_create_working(nr_logsrc *const *srcs, size_t n, int jobs, const nr_par_lex_chunk_work *work,
                              nr_par_lex **out, nr_error *err);
/* The same, with workers that read (decompress) ahead and do side work
 * but do not lex: the caller lexes each line as it takes it. For a
 * compressed log, whose reading is serial and a large share of the work. */
int nr_par_lex_create_reading(nr_logsrc *const *srcs, size_t n, int jobs, nr_par_lex **out, nr_error *err);
/* The size of the chunks in which n logs are read with jobs threads (the
 * budget shared by the logs, without chunk work): what each log's source
 * need read at a time (nr_logsrc_open_sized). */
size_t nr_par_lex_read_bytes(size_t n, int jobs);
/* Stops and joins the threads, frees every chunk. Accepts NULL. */
void nr_par_lex_destroy(nr_par_lex *p);

/* The next chunk of log i (releasing the previous one): 1 and *view, 0 when
 * the log has ended, or the negative code of a read error in the log (err
 * names the file and offset), in the log's order. */
int nr_par_lex_next(nr_par_lex *p, size_t i, nr_par_chunk_view *view, nr_error *err);
/* The merge has reached log i (its first line is the run's next): from now
 * on its chunks are read ahead as the ring's depth allows. Before, a log of
 * many holds only its first chunk, and its reader rests between reads. */
void nr_par_lex_reach(nr_par_lex *p, size_t i);
/* With chunk work: reads the caller's next chunk of log i now when
 * nr_par_lex_next could not (a worker was reading), so that the workers
 * may go on past it. The caller calls it every few lines of its own
 * chunks; with nothing owed it is one load. */
void nr_par_lex_read_ahead(nr_par_lex *p, size_t i);

/* The fingerprint of log i (meta log.N.nrhash, "nrhash-v2", nr_logsrc_hash);
 * set once nr_par_lex_next(i) has returned 0. */
uint64_t nr_par_lex_hash(nr_par_lex *p, size_t i);
/* Input bytes (compressed bytes of compressed logs) read so far, all logs. */
uint64_t nr_par_lex_bytes_in(nr_par_lex *p);
/* Number of threads started besides the caller's. */
int nr_par_lex_workers(const nr_par_lex *p);

/* Gives the workers other work that may run out of order (the events'
 * writer, par_write): run(ctx) does what is ready and returns 1, or 0 when
 * nothing was; it is called without p's lock, by one or more workers at
 * once, after each nr_par_lex_wake, before any reading or lexing. ctx is
 * borrowed until nr_par_lex_destroy. */
void nr_par_lex_set_side_work(nr_par_lex *p, int (*run)(void *ctx), void *ctx);
/* The workers also make the blocks expected of r (nr_reserve_fill) as
 * side work, after each nr_par_lex_wake; NULL: no more. r is borrowed
 * until this is called with NULL or nr_par_lex_destroy. */
void nr_par_lex_set_reserve(nr_par_lex *p, nr_reserve *r);
/* Logs merged at once (reached, not ended) above which the workers of a
 * run leave the reading and lexing to the caller: each line the merge
 * takes is of another log than the last, whose chunk, lexed on another
 * core, was no longer in any cache near the caller (the look-ahead of
 * TEXT_AHEAD lines of each log reaches TEXT_AHEAD times the logs' lines
 * ahead: at 64 logs about the caller's L2 cache), and every log held two
 * chunks where one does: at 3,000 -ff logs -j 2 took twice -j 1's time and
 * 1.7 times its memory (docs/performance.md, session 51). */
#define NR_PAR_SERIAL_ABOVE 64

/* Tells p how many logs the merge takes lines from at once now (reached
 * and not ended): above NR_PAR_SERIAL_ABOVE the workers turn serial
 * (nr_par_lex_set_serial), and at NR_PAR_SERIAL_ABOVE / 2 or fewer
 * parallel again (a run of many -ff logs one after the other stays
 * parallel). A run of more logs than NR_PAR_SERIAL_ABOVE starts serial
 * (the first chunk of every log is read before the merge starts). */
void nr_par_lex_set_live(nr_par_lex *p, size_t live);
/* With on, the workers neither read nor lex (they still do side work):
 * the caller reads each log's next chunk when it needs it, borrowing
 * logsrc's buffer, and lexes its lines as it takes them, as with jobs ==
 * 1; with off, they read ahead and lex again. Chunks already read or lexed
 * stay as they are; the lines and their order are the same either way.
 * Nothing without lexing workers (jobs == 1, nr_par_lex_create_reading). */
void nr_par_lex_set_serial(nr_par_lex *p, int on);
/* Whether p is serial now. */
int nr_par_lex_serial(const nr_par_lex *p);
/* Ends the chunk work: from now on the workers read ahead and lex as
 * without it (results already made still come with their chunks). */
void nr_par_lex_stop_work(nr_par_lex *p);
/* Tells the workers that side work is ready. Accepts NULL. */
void nr_par_lex_wake(nr_par_lex *p);

/* For tests: chunks of about bytes of text from now on (0 = the default
 * budget). Process-wide; call before any ingest starts, never during one. */
void nr__par_lex_set_chunk_bytes(size_t bytes);
/* For tests: 1 = cut lines with SSE2 even on a CPU with AVX2 (both paths
 * tested on one machine); same rules as above. */
void nr__par_lex_no_avx2(int off);
/* For tests: chunks read while serial (nr_par_lex_set_serial) and chunks
 * lexed by workers, by every par_lex of this process so far. */
void nr__par_lex_counts(uint64_t *serial, uint64_t *lexed);
/* For tests: packs sl, lexed from line[0..pl->len), into pl as a worker
 * does; returns 1 when the packed form holds it (else nr_par_lex_line lexes
 * the line again). */
int nr__par_lex_pack(const nr_sline *sl, const char *line, nr_par_line *pl);

#endif
