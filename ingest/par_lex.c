/* par_lex: chunked read + parallel lex of the logs of one ingest. Method: per
 * log a ring of `depth` chunk slots (their buffers allocated once, reused),
 * filled in order by one reader at a time (flag `reading`) with runs of whole
 * lines from logsrc, lexed by any thread, consumed in order by the caller.
 * Workers prefer side work (which only they and the caller's full queue
 * do) over lexing, and lexing over reading (lexed chunks are what the caller
 * waits for); the caller, while its chunk is not ready, reads or lexes that
 * chunk itself rather than sleep; serial (many logs merged at once), the
 * workers leave both to the caller, which then borrows logsrc's buffer as
 * with no worker. One mutex, one condition variable; a broadcast only when
 * a sleeper may have something to do. */
#include "par_lex.h"

#include "nr_mem.h"
#include "nr_parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define PAR_HAVE_AVX2 1 /* compiled per function (target attribute), used when the CPU has it */
#endif

#define PAR_BUDGET_BYTES ((size_t)24 << 20)  /* text in flight, all logs */
/* A chunk is read (the kernel's copy) and lexed in a worker's cache; 128 kB
 * rather than 1 MB keeps the ring's buffers warm there, and the ordered
 * pass reads the text back sooner (-j 2 CPU 1.18 -> 1.12 s on the 1 GB log;
 * 64 kB was slower). */
#define PAR_CHUNK_MAX ((size_t)128 << 10)
#define PAR_CHUNK_MIN ((size_t)16 << 10)
#define PAR_CHUNK_SERIAL ((size_t)256 << 10) /* jobs 1: a chunk and its lines stay in cache */
/* The first chunk of a log of many, read for its first lines' time long
 * before the merge may reach the log: a few kB, not a whole chunk of fresh
 * pages (1,500 -ff logs: 16 kB of text and 12 kB of lines each). */
#define PAR_CHUNK_FIRST ((size_t)4 << 10)
#define PAR_MAX_WORKERS 256

typedef enum slot_state { SLOT_FREE, SLOT_READING, SLOT_READ, SLOT_LEXING, SLOT_LEXED, SLOT_CONSUMING } slot_state;

typedef struct par_chunk {
    slot_state state;
    const char *text;   /* buf, or a run borrowed from logsrc (depth 1) */
    size_t text_len;
    char *buf;          /* owned */
    size_t buf_cap;
    nr_par_line *lines;
    size_t nlines, lines_cap;
    uint64_t first_line_no;
    int last_unterminated;
    int lexed;          /* lines hold their packed nr_sline */
    int is_last;        /* no chunk of this log follows */
    int rc;             /* a read error met while filling this chunk */
    nr_error err;
    void *spec;         /* the chunk work's result (nr_par_lex_chunk_work), owned until consumed */
    int workers;        /* with chunk work: a worker read it (and works on it) */
    int queued;         /* on the lex stack (nr_par_lex.lex_stack) */
    nr_par_carried carried[NR_PAR_CARRY_MAX]; /* calls carried over from the chunk before */
    size_t ncarried;
    char *carry_text;   /* owned */
    size_t carry_cap;
} par_chunk;

typedef struct par_log {
    nr_logsrc *src;     /* touched by the current reader only */
    par_chunk *ring;
    size_t head, count; /* ring[head] is the oldest chunk in flight */
    int reading;        /* a thread is filling ring[(head + count - 1) % depth] */
    int read_done;      /* the last chunk has been read */
    int finished;       /* the caller has been told the log ended */
    int started;        /* the merge has reached the log (nr_par_lex_reach), or the caller is done
                           with a chunk of it */
    size_t active_at;   /* 1 + its place in nr_par_lex.active, 0 when not there */
    uint64_t line_no;   /* lines read so far (reader) */
    uint64_t hash;      /* the log's fingerprint, set with its last chunk (reader) */
    uint64_t bytes_in_seen;
    int owes_ahead;     /* the caller's alone: it took a chunk of its own without reading its next one
                           (nr_par_lex_read_ahead) */
    int lent;           /* its chunk in flight borrows logsrc's buffer: no read until it is released */
    /* the reader's: the calls the last chunk read carries over to the next */
    nr_par_carried carry[NR_PAR_CARRY_MAX];
    size_t ncarry;
    char *carry_text;
    size_t carry_len, carry_cap;
} par_log;

struct nr_par_lex {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    par_log *logs;
    size_t nlogs, depth, chunk_bytes;
    /* The workers' work, found without a look at every log (a -ff run has
       thousands, most waiting with their first chunk read): */
    size_t *active;      /* logs that may read past their first chunk: started, not read_done */
    size_t nactive, active_cursor;
    size_t first_unread; /* logs before it have begun their first read */
    par_chunk **lex_stack; /* read chunks to lex, the last read on top (stale entries skipped) */
    size_t nlex;
    int lexing_workers;  /* workers may lex (set before they start: nthreads is not yet final then) */
    int avx2;            /* the newline scan may use AVX2 */
    uint64_t bytes_in;
    int stop;
    pthread_t *threads;
    int nthreads;
    int (*side_run)(void *ctx); /* side work, NULL = none */
    void *side_ctx;
    uint64_t side_posted;       /* nr_par_lex_wake calls so far */
    nr_reserve *reserve;        /* blocks the side work makes (nr_par_lex_set_reserve), NULL = none */
    nr_par_lex_chunk_work work; /* whole-chunk work instead of the lex; run NULL = none */
    size_t work_ahead;          /* chunks the workers may work on past the caller's read-ahead */
    int carry;                  /* chunks carry pending calls over (nr_par_carried) */
    int workers_only_read;      /* nr_par_lex_create_reading */
    int serial;                 /* the caller reads and lexes each log's chunks (nr_par_lex_set_live);
                                   written by the caller only, under the lock */
    int caller_waits;           /* the caller sleeps on cv (for a chunk a worker reads or lexes) */
};

/* Chunks read while serial and chunks lexed by workers, in this process
 * (nr__par_lex_counts). */
static _Atomic uint64_t serial_chunks, worker_lexed_chunks;

/* Tests' chunk size (0 = the budget's); set before any ingest starts. */
static size_t chunk_bytes_for_tests;

void nr__par_lex_set_chunk_bytes(size_t bytes) { chunk_bytes_for_tests = bytes; }

/* Tests' switch off of the AVX2 newline scan; set before any ingest starts. */
static int avx2_off_for_tests;

void nr__par_lex_no_avx2(int off) { avx2_off_for_tests = off; }

/* ---- the work, done without the lock ------------------------------------ */

/* The size of a ring buffer's first block for `bytes`: from a quarter of
 * a huge page up to one, a whole one, which nr_alloc_dense gives as one
 * huge page (while huge pages pay there), touched with one fault where its
 * 4 kB pages took one each (15 us a fault in this VM: about 1,000 of the
 * 1 GB log's faults at -j 2, docs/performance.md, session 19). realloc and
 * free take the block as any other. */
static size_t ring_block_bytes(size_t bytes)
{
    return bytes >= NR_DENSE_HUGE / 4 && bytes <= NR_DENSE_HUGE ? NR_DENSE_HUGE : bytes;
}

/* Room the block loops reserve ahead of the lines cut so far: a line per
 * byte of an AVX2 step of four 64-byte blocks, and one. */
#define CUT_STEP_ROOM 257

/* Grows c->lines for n more lines. The first guess is a line per 48 bytes
 * of text plus the room a block step reserves: without that room, a chunk
 * of lines as short as the guess outgrew it in its last steps and every
 * chunk's lines were copied into an array twice as large (3,000 copies,
 * 8% of the samples of 1,500 -ff logs of 16 kB chunks at -j 2). */
static int grow_lines(par_chunk *c, size_t n, size_t chunk_bytes)
{
    size_t cap = c->lines_cap ? c->lines_cap : chunk_bytes / 48 + CUT_STEP_ROOM + 64;
    while (cap - c->nlines < n) {
        if (cap > SIZE_MAX / 2 / sizeof *c->lines)
            return -1;
        cap *= 2;
    }
    nr_par_line *p;
    if (c->lines) {
        p = realloc(c->lines, cap * sizeof *p);
    } else {
        const size_t bytes = ring_block_bytes(cap * sizeof *p);
        p = nr_alloc_dense(bytes);
        cap = bytes / sizeof *p;
    }
    if (!p)
        return -1;
    c->lines = p;
    c->lines_cap = cap;
    return 0;
}

/* Lines being cut from a chunk's text, kept in locals (registers) by the
 * block loops rather than in the chunk: the next line's slot, the end of
 * the room, and where the current line starts. next == NULL: out of memory. */
typedef struct line_cut {
    nr_par_line *next, *room_end;
    size_t line;
} line_cut;

static line_cut cut_begin(const par_chunk *c, size_t from)
{
    return (line_cut){c->lines + c->nlines, c->lines + c->lines_cap, from};
}

/* The count of lines cut into c so far. */
static void cut_end(par_chunk *c, line_cut k) { c->nlines = (size_t)(k.next - c->lines); }

/* Grows the chunk's lines to room for need more; k by value so that the
 * block loops keep theirs in registers. */
static line_cut cut_grow(par_chunk *c, line_cut k, size_t need, size_t chunk_bytes)
{
    cut_end(c, k);
    if (grow_lines(c, need, chunk_bytes) < 0)
        return (line_cut){NULL, NULL, k.line};
    return cut_begin(c, k.line);
}

/* Ends a line at text[nl] (the newline, or the end of a cut last line);
 * a '\r' before it is dropped, as logsrc does. The room is reserved. */
static inline void cut_line(line_cut *k, const char *t, size_t nl)
{
    size_t len = nl - k->line;
    if (len > 0 && t[nl - 1] == '\r')
        len--;
    nr_par_line *pl = k->next++;  /* the rest is the lexer's to fill */
    pl->off = (uint32_t)k->line;  /* chunks stay under 4 GiB (read_chunk) */
    pl->len = (uint32_t)len;
    k->line = nl + 1;
}

/* Ends a line at each newline of the block at t[base..], given as a bit mask. */
static inline void cut_mask(line_cut *k, const char *t, size_t base, uint64_t m)
{
    for (; m; m &= m - 1)
        cut_line(k, t, base + (size_t)(uint64_t)__builtin_ctzll(m));
}

/* Cuts the lines of the 64-byte blocks of t[i, to), room reserved per
 * block; returns where the blocks end, or SIZE_MAX when out of memory. */
#ifdef __SSE2__
static size_t cut_blocks_sse2(par_chunk *c, line_cut *kp, const char *t, size_t i, size_t to, size_t chunk_bytes)
{
    const __m128i nl = _mm_set1_epi8('\n');
    line_cut k = *kp;
    for (; i + 64 <= to; i += 64) {
        if (k.room_end - k.next < 65 && !(k = cut_grow(c, k, 65, chunk_bytes)).next)
            return SIZE_MAX;
        uint64_t m = 0;
        for (unsigned q = 0; q < 4; q++) {
            const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(t + i + 16 * q));
            m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)) << (16 * q);
        }
        cut_mask(&k, t, i, m);
    }
    *kp = k;
    return i;
}
#endif

#ifdef PAR_HAVE_AVX2
/* The newlines of the 64 bytes at p as a bit mask (AVX2). */
__attribute__((target("avx2"))) static inline uint64_t newline_mask64(const char *p)
{
    const __m256i nl = _mm256_set1_epi8('\n');
    const __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
    const __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, nl)) |
           (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, nl)) << 32;
}

/* The same with AVX2: four blocks per step (one room check for the four),
 * then single blocks. */
__attribute__((target("avx2"))) static size_t cut_blocks_avx2(par_chunk *c, line_cut *kp, const char *t, size_t i,
                                                                size_t to, size_t chunk_bytes)
{
    line_cut k = *kp;
    for (; i + 256 <= to; i += 256) {
        if (k.room_end - k.next < CUT_STEP_ROOM && !(k = cut_grow(c, k, CUT_STEP_ROOM, chunk_bytes)).next)
            return SIZE_MAX;
        const uint64_t m0 = newline_mask64(t + i), m1 = newline_mask64(t + i + 64);
        const uint64_t m2 = newline_mask64(t + i + 128), m3 = newline_mask64(t + i + 192);
        cut_mask(&k, t, i, m0);
        cut_mask(&k, t, i + 64, m1);
        cut_mask(&k, t, i + 128, m2);
        cut_mask(&k, t, i + 192, m3);
    }
    for (; i + 64 <= to; i += 64) {
        if (k.room_end - k.next < 65 && !(k = cut_grow(c, k, 65, chunk_bytes)).next)
            return SIZE_MAX;
        cut_mask(&k, t, i, newline_mask64(t + i));
    }
    *kp = k;
    return i;
}
#endif

/* Whether this CPU runs the AVX2 block scan (checked once per par_lex). */
static int cpu_has_avx2(void)
{
#ifdef PAR_HAVE_AVX2
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

/* The block scan this build and CPU have; none leaves all to the byte loop. */
static size_t cut_blocks(par_chunk *c, line_cut *k, const char *t, size_t i, size_t to, size_t chunk_bytes,
                         int avx2)
{
#ifdef PAR_HAVE_AVX2
    if (avx2)
        return cut_blocks_avx2(c, k, t, i, to, chunk_bytes);
#endif
#ifdef __SSE2__
    return cut_blocks_sse2(c, k, t, i, to, chunk_bytes);
#else
    return i;
#endif
}

/* Cuts text[from, to) - whole lines, the last perhaps without newline - into
 * lines. Method: 64-byte blocks, newlines as a bit mask (AVX2 when the CPU
 * has it, else SSE2), room reserved for a line per byte of a step rather than
 * checked per line; then the tail byte by byte. */
static int split_lines(par_chunk *c, size_t from, size_t to, size_t chunk_bytes, int avx2)
{
    const char *t = c->text;
    if (!c->lines && grow_lines(c, 1, chunk_bytes) < 0) /* no arithmetic on NULL in cut_begin */
        return -1;
    line_cut k = cut_begin(c, from);
    size_t i = cut_blocks(c, &k, t, from, to, chunk_bytes, avx2);
    if (i == SIZE_MAX)
        return -1;
    for (; i < to; i++)
        if (t[i] == '\n') {
            if (k.room_end - k.next < 2 && !(k = cut_grow(c, k, 2, chunk_bytes)).next)
                return -1;
            cut_line(&k, t, i);
        }
    if (k.line < to) {
        c->last_unterminated = 1;
        if (k.room_end - k.next < 1 && !(k = cut_grow(c, k, 1, chunk_bytes)).next)
            return -1;
        cut_line(&k, t, to);
    }
    cut_end(c, k);
    return 0;
}

/* The tid that starts line l (strace -f's "PID "), and the line past its
 * stamp in *rest; 0 when it has none. */
static int line_tid(const char *l, size_t len, int64_t *tid, size_t *rest)
{
    size_t i = 0;
    int64_t v = 0;
    for (; i < len && i < 10 && l[i] >= '0' && l[i] <= '9'; i++)
        v = v * 10 + (l[i] - '0');
    if (i == 0 || i >= len || l[i] != ' ')
        return 0;
    while (i < len && l[i] == ' ')
        i++;
    while (i < len && l[i] != ' ')
        i++;
    while (i < len && l[i] == ' ')
        i++;
    *tid = v;
    *rest = i;
    return 1;
}

size_t nr_par_lex_tail_pending(const char *text, const nr_par_line *lines, size_t n, size_t idx[NR_PAR_CARRY_MAX])
{
    enum { TIDS_MAX = 64 };
    int64_t decided[TIDS_MAX];
    size_t ndecided = 0, nout = 0;
    const size_t stop = n > NR_PAR_CARRY_WINDOW ? n - NR_PAR_CARRY_WINDOW : 0;
    for (size_t i = n; i-- > stop && ndecided < TIDS_MAX && nout < NR_PAR_CARRY_MAX;) {
        const char *l = text + lines[i].off;
        const size_t len = lines[i].len;
        int64_t tid;
        size_t rest;
        if (!line_tid(l, len, &tid, &rest) || (len - rest >= 4 && memcmp(l + rest, "--- ", 4) == 0))
            continue; /* no task's, or a signal: it may come while a call is pending */
        size_t k = 0;
        while (k < ndecided && decided[k] != tid)
            k++;
        if (k < ndecided)
            continue;
        decided[ndecided++] = tid; /* its last line: a pending call's, or the task has none */
        if (nr_sline_ends_unfinished(l, len) && len <= NR_PAR_CARRY_LINE_MAX)
            idx[nout++] = i;
    }
    for (size_t a = 0, b = nout; a + 1 < b; a++, b--) { /* log order */
        size_t t = idx[a];
        idx[a] = idx[b - 1];
        idx[b - 1] = t;
    }
    return nout;
}

/* Gives c the calls g carries over, then makes those of c's own tail g's:
 * the reader's, with c just read. Out of memory, nothing is carried (a
 * speculation then refuses the call's <... resumed>, as without carry). */
static void carry_over(par_log *g, par_chunk *c)
{
    if (g->ncarry && nr_grow((void **)&c->carry_text, &c->carry_cap, g->carry_len, 1) == 0) {
        memcpy(c->carry_text, g->carry_text, g->carry_len);
        memcpy(c->carried, g->carry, g->ncarry * sizeof *g->carry);
        c->ncarried = g->ncarry;
    }
    size_t idx[NR_PAR_CARRY_MAX];
    g->ncarry = g->carry_len = 0;
    const size_t n = nr_par_lex_tail_pending(c->text, c->lines, c->nlines, idx);
    for (size_t k = 0; k < n; k++) {
        const nr_par_line *pl = &c->lines[idx[k]];
        if (nr_grow((void **)&g->carry_text, &g->carry_cap, g->carry_len + pl->len, 1) < 0)
            break;
        memcpy(g->carry_text + g->carry_len, c->text + pl->off, pl->len);
        g->carry[g->ncarry++] = (nr_par_carried){(uint32_t)g->carry_len, pl->len, c->first_line_no + idx[k]};
        g->carry_len += pl->len;
    }
}

/* Fills c with the next run of whole lines of g (the caller holds g's
 * reading right), cut into lines. With borrow (depth 1: logsrc is not read
 * again before c is released) the run stays in logsrc's buffer; otherwise
 * logsrc reads it straight into c's own buffer (allocated once at
 * chunk_bytes, grown only for a longer line). */
static void read_chunk(par_log *g, par_chunk *c, size_t chunk_bytes, int borrow, int avx2, int carry, int first)
{
    const size_t text_bytes = first && chunk_bytes > PAR_CHUNK_FIRST ? PAR_CHUNK_FIRST : chunk_bytes;
    c->text_len = c->nlines = 0;
    c->first_line_no = g->line_no + 1;
    c->last_unterminated = c->lexed = c->is_last = c->rc = 0;
    c->ncarried = 0;
    const char *run = c->buf;
    size_t len = 0;
    int rc;
    if (borrow)
        rc = nr_logsrc_next_lines(g->src, text_bytes, &run, &len, &c->err);
    else if (!c->buf && !(c->buf = nr_alloc_dense(ring_block_bytes(chunk_bytes))))
        rc = nr_error_set(&c->err, NR_E_NOMEM, "ingest: out of memory reading a log chunk");
    else {
        c->buf_cap = c->buf_cap ? c->buf_cap : chunk_bytes; /* the chunk's size, whatever the block's */
        size_t cap = text_bytes < c->buf_cap ? text_bytes : c->buf_cap; /* what logsrc fills */
        const size_t lent = cap;
        rc = nr_logsrc_read_lines(g->src, &c->buf, &cap, &len, &c->err);
        if (cap != lent) /* logsrc grew the buffer for a longer line: its size now */
            c->buf_cap = cap;
        run = c->buf;
    }
    if (rc > 0 && len > UINT32_MAX)
        rc = nr_error_set(&c->err, NR_E_NOMEM, "ingest: a line of 4 GiB or more after line %llu of a log",
                          (unsigned long long)g->line_no);
    if (rc > 0) {
        c->text = run;
        c->text_len = len;
        if (split_lines(c, 0, len, chunk_bytes, avx2) < 0)
            rc = nr_error_set(&c->err, NR_E_NOMEM, "ingest: out of memory reading a log chunk");
        else if (carry)
            carry_over(g, c);
    }
    if (rc <= 0) {
        c->rc = rc;
        c->is_last = 1;
    }
    g->line_no += c->nlines;
    if (c->is_last)
        g->hash = nr_logsrc_hash(g->src);
}

/* Packs span s of a line of len bytes (at most 64 kB) at line; returns
 * nonzero when the span is not inside the line. */
static inline unsigned pack_span(nr_span s, const char *line, size_t len, uint16_t *off, uint16_t *n)
{
    const uintptr_t at = (uintptr_t)s.p - (uintptr_t)line;
    *off = (uint16_t)at;
    *n = (uint16_t)s.n;
    return (at > len) | (s.n > len - at);
}

/* pack_line reads the nr_sline that nr_sline_parse has just stored field by
 * field. GCC's SLP vectorizer merged pairs of those reads into 16-byte
 * loads, which cannot be forwarded from two 8-byte stores: each waited for
 * the stores to reach the cache (38% of the worker's own samples at -j 2;
 * docs/performance.md, session 11). Field by field, they are forwarded. */
#if defined(__GNUC__) && !defined(__clang__)
#define NR_FIELD_BY_FIELD __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define NR_FIELD_BY_FIELD
#endif

/* Packs sl, lexed from line, into pl; a line whose nr_sline the packed form
 * cannot hold (a second stamp, an exit code or core dump, a reason, a line
 * over 64 kB) is left unpacked, to be lexed again when read. */
static NR_FIELD_BY_FIELD void pack_line(const nr_sline *sl, const char *line, nr_par_line *pl)
{
    const size_t len = pl->len;
    pl->syscall_ref = sl->syscall_ref;
    pl->kind = (uint8_t)sl->kind;
    pl->ts_form = (uint8_t)sl->ts_form;
    pl->pid = (int32_t)sl->pid;
    pl->ts_ns = sl->ts_ns;
    pl->dur_ns = sl->dur_ns;
    pl->result = sl->result;
    unsigned bad = len > UINT16_MAX;
    bad |= pack_span(sl->name, line, len, &pl->span_off[0], &pl->span_len[0]);
    bad |= pack_span(sl->args, line, len, &pl->span_off[1], &pl->span_len[1]);
    bad |= pack_span(sl->result_annot, line, len, &pl->span_off[2], &pl->span_len[2]);
    bad |= pack_span(sl->errno_name, line, len, &pl->span_off[3], &pl->span_len[3]);
    bad |= pack_span(sl->errno_text, line, len, &pl->span_off[4], &pl->span_len[4]);
    bad |= (sl->ts2_form != NR_TS_NONE) | (sl->ts2_ns != 0) | (sl->exit_code != 0) | (sl->core_dumped != 0) |
           (sl->reason != NULL) | (sl->pid != (int32_t)sl->pid) | ((unsigned)sl->kind > UINT8_MAX) |
           ((unsigned)sl->ts_form > UINT8_MAX) | ((unsigned)sl->has_result > 1) |
           ((unsigned)sl->result_unknown > 1);
    pl->bits = (uint8_t)((sl->has_result ? NR__PAR_HAS_RESULT : 0) | (sl->result_unknown ? NR__PAR_RESULT_UNKNOWN : 0) |
                         (sl->result_tail_unread ? NR__PAR_RESULT_TAIL_UNREAD : 0) | (bad ? 0 : NR__PAR_PACKED));
}

int nr__par_lex_pack(const nr_sline *sl, const char *line, nr_par_line *pl)
{
    pack_line(sl, line, pl);
    return (pl->bits & NR__PAR_PACKED) != 0;
}

static void lex_chunk(par_chunk *c)
{
    for (size_t i = 0; i < c->nlines; i++) {
        nr_par_line *pl = &c->lines[i];
        nr_sline sl;
        nr_sline_parse(c->text + pl->off, pl->len, &sl);
        pack_line(&sl, c->text + pl->off, pl);
    }
    c->lexed = 1;
}

/* Span k of pl into *out with one 16-byte store where SSE2 is: the model
 * copies spans with 16-byte loads, which a pair of 8-byte stores cannot
 * forward to (the load waits for both stores to reach the cache: the
 * load of errno_name in feed_known_fd took 20% of its samples at -j 2;
 * docs/performance.md, session 11). */
static inline void unpack_span(nr_span *out, const char *line, const nr_par_line *pl, unsigned k)
{
#ifdef __SSE2__
    _Static_assert(sizeof(nr_span) == 16 && offsetof(nr_span, n) == 8, "a span is a pointer, then a length");
    _mm_storeu_si128((__m128i *)(void *)out, _mm_set_epi64x((long long)pl->span_len[k],
                                                           (long long)(uintptr_t)(line + pl->span_off[k])));
#else
    *out = (nr_span){line + pl->span_off[k], pl->span_len[k]};
#endif
}

void nr__par_lex_unpack(const nr_par_line *pl, const char *line, nr_sline *out)
{
    out->kind = (nr_sline_kind)pl->kind;
    out->pid = pl->pid;
    out->ts_form = (nr_ts_form)pl->ts_form;
    out->ts_ns = pl->ts_ns;
    out->ts2_form = NR_TS_NONE;
    out->ts2_ns = 0;
    out->dur_ns = pl->dur_ns;
    unpack_span(&out->name, line, pl, 0);
    unpack_span(&out->args, line, pl, 1);
    out->has_result = (pl->bits & NR__PAR_HAS_RESULT) != 0;
    out->result_unknown = (pl->bits & NR__PAR_RESULT_UNKNOWN) != 0;
    out->result = pl->result;
    unpack_span(&out->result_annot, line, pl, 2);
    unpack_span(&out->errno_name, line, pl, 3);
    unpack_span(&out->errno_text, line, pl, 4);
    out->exit_code = 0;
    out->core_dumped = 0;
    out->reason = NULL;
    out->syscall_ref = pl->syscall_ref;
    out->result_tail_unread = (pl->bits & NR__PAR_RESULT_TAIL_UNREAD) != 0;
}

/* ---- scheduling, under the lock ----------------------------------------- */

/* Offers c, just read, to the lexing workers (find_lex_work). A chunk is on
 * the stack at most once, so it holds at most every chunk of every ring. */
static void queue_lex_work(nr_par_lex *p, par_chunk *c)
{
    if (p->lexing_workers && !p->serial && !c->queued) {
        c->queued = 1;
        p->lex_stack[p->nlex++] = c;
    }
}

/* g may read past its first chunk from now on (started, or the only log). */
static void activate(nr_par_lex *p, par_log *g)
{
    if (!g->active_at && !g->read_done) {
        p->active[p->nactive++] = (size_t)(g - p->logs);
        g->active_at = p->nactive;
    }
}

/* g has read its last chunk: no more reads to find for it. */
static void deactivate(nr_par_lex *p, par_log *g)
{
    if (!g->active_at)
        return;
    const size_t at = g->active_at - 1, last = p->active[--p->nactive];
    p->active[at] = last;
    p->logs[last].active_at = at + 1;
    g->active_at = 0;
}

/* A log of many that the merge has not reached yet holds one chunk, its
 * first lines (for their time), not the ring's depth: most of a -ff run's
 * logs wait so at its start. */
static int can_read(const nr_par_lex *p, const par_log *g)
{
    const size_t room = (p->nlogs > 1 && !g->started) || p->serial ? 1 : p->depth;
    return !g->reading && !g->read_done && !g->lent && g->count < room;
}

/* Reads the next chunk of g: called and returns with the lock held. The
 * reader of a log of many that the caller has not reached yet (it took
 * only the log's first lines, for their time) rests after each read,
 * without its fd and decoder (a .zst log's window): logs of threads that
 * do not run at once are not all held at once. Its next read opens it
 * again and decompresses its first chunks again (at most the ring's). */
static par_chunk *do_read(nr_par_lex *p, par_log *g)
{
    par_chunk *c = &g->ring[(g->head + g->count) % p->depth];
    g->count++;
    g->reading = 1;
    c->state = SLOT_READING;
    c->workers = 0;
    const int rest = p->nlogs > 1 && !g->started;
    /* one chunk at a time (no worker, or serial): logsrc is not read again
       before the chunk is released (lent), so the chunk borrows its text */
    const int borrow = p->depth == 1 || p->serial;
    g->lent = borrow;
    if (p->serial)
        serial_chunks++;
    pthread_mutex_unlock(&p->mu);
    read_chunk(g, c, p->chunk_bytes, borrow, p->avx2, p->carry, rest && g->line_no == 0);
    if (rest)
        nr_logsrc_rest(g->src);
    uint64_t seen = nr_logsrc_bytes_in(g->src);
    pthread_mutex_lock(&p->mu);
    p->bytes_in += seen - g->bytes_in_seen;
    g->bytes_in_seen = seen;
    g->reading = 0;
    g->read_done = c->is_last;
    c->state = SLOT_READ;
    queue_lex_work(p, c);
    if (g->read_done)
        deactivate(p, g);
    if (!p->serial || p->caller_waits) /* serial: the chunk is work for no worker */
        pthread_cond_broadcast(&p->cv);
    return c;
}

/* What the caller (and the chunk work) see of c. */
static nr_par_chunk_view chunk_view(const par_chunk *c)
{
    return (nr_par_chunk_view){c->lines,     c->nlines, c->text,     c->first_line_no, c->last_unterminated,
                               c->lexed,     c->spec,   c->carried,  c->ncarried,      c->carry_text};
}

/* Runs the side work once, and the reserve's blocks, without the lock
 * (called and returns with it held): 1 when it did something. */
static int run_side_work(nr_par_lex *p)
{
    int (*run)(void *) = p->side_run;
    void *ctx = p->side_ctx;
    nr_reserve *reserve = p->reserve;
    pthread_mutex_unlock(&p->mu);
    int did = reserve ? nr_reserve_fill(reserve) : 0;
    if (run)
        did |= run(ctx);
    pthread_mutex_lock(&p->mu);
    return did;
}

static int has_side_work(const nr_par_lex *p) { return p->side_run || p->reserve; }

/* Runs the chunk work on c (state SLOT_READ) instead of lexing it: called
 * and returns with the lock held. */
static void do_chunk_work(nr_par_lex *p, par_chunk *c)
{
    void *(*run)(void *, const nr_par_chunk_view *) = p->work.run; /* nr_par_lex_stop_work may clear it */
    c->state = SLOT_LEXING;
    pthread_mutex_unlock(&p->mu);
    const nr_par_chunk_view v = chunk_view(c); /* not lexed, no result yet */
    void *r = c->rc < 0 || !run ? NULL : run(p->work.ctx, &v);
    pthread_mutex_lock(&p->mu);
    c->spec = r;
    c->state = SLOT_LEXED;
    pthread_cond_broadcast(&p->cv);
}

/* Lexes c (state SLOT_READ): called and returns with the lock held. */
static void do_lex(nr_par_lex *p, par_chunk *c)
{
    c->state = SLOT_LEXING;
    pthread_mutex_unlock(&p->mu);
    lex_chunk(c);
    worker_lexed_chunks++;
    pthread_mutex_lock(&p->mu);
    c->state = SLOT_LEXED;
    pthread_cond_broadcast(&p->cv);
}

/* A read chunk waiting for a lexer, the newest of its log first, or NULL.
 * The caller takes the chunk it reaches unlexed and lexes it as it goes, so
 * workers lex ahead of it instead of racing it to the same chunk (and lex
 * a chunk just after reading it, while its text is in cache). */
static par_chunk *find_lex_work(nr_par_lex *p)
{
    if (p->serial)
        return NULL; /* the stack keeps its chunks for a later parallel phase */
    while (p->nlex) {
        par_chunk *c = p->lex_stack[--p->nlex];
        c->queued = 0;
        if (c->state == SLOT_READ)
            return c;
    }
    return NULL;
}

/* A log with room for one more chunk, the emptiest first, or NULL. */
static par_log *find_read_work(nr_par_lex *p)
{
    if (p->serial)
        return NULL;
    par_log *best = NULL;
    for (size_t j = 0; j < p->nactive && !(best && best->count == 0); j++) {
        par_log *g = &p->logs[p->active[(p->active_cursor + j) % p->nactive]];
        if (can_read(p, g) && (!best || g->count < best->count))
            best = g;
    }
    if (best) {
        p->active_cursor = best->active_at % p->nactive; /* the next one first next time */
        if (best->count == 0)
            return best;
    }
    while (p->first_unread < p->nlogs) { /* a log's first chunk, in the logs' order */
        par_log *g = &p->logs[p->first_unread];
        if (g->count == 0 && !g->reading && !g->read_done && !g->started)
            return g; /* emptier than best */
        p->first_unread++;
    }
    return best;
}

/* With chunk work (one log), each chunk is read by the thread that takes
 * it, shortly before it does, so that its text is in that core's cache
 * (read by another thread and left in the ring, the caller's lines cost it
 * two to three times as much: perf samples per line, session 15). Reading
 * stays in order. The caller keeps one chunk of its own read ahead; a
 * worker reads and works on the next chunk while it does, so it has the
 * caller's whole chunk of time before the caller needs its result. The one
 * that runs ahead takes more of the chunks.
 *
 * WORK_AHEAD_PER_WORKER: chunks each worker may have read and be working
 * on past the caller's read-ahead: 1 and 3 were no faster than 2 (1 GB and
 * 4 GB logs, 2 cores, within the host's noise). */
#define WORK_AHEAD_PER_WORKER 2
#define WORK_AHEAD_MAX 32

static int caller_has_ahead(const nr_par_lex *p, const par_log *g)
{
    for (size_t k = 1; k < g->count; k++) {
        const par_chunk *c = &g->ring[(g->head + k) % p->depth];
        if (!c->workers && c->state == SLOT_READ)
            return 1;
    }
    return 0;
}

static size_t workers_ahead(const nr_par_lex *p, const par_log *g)
{
    size_t n = 0;
    for (size_t k = 1; k < g->count; k++)
        n += g->ring[(g->head + k) % p->depth].workers;
    return n;
}

static int worker_may_read(const nr_par_lex *p, const par_log *g)
{
    return can_read(p, g) && g->count >= 1 && caller_has_ahead(p, g) && workers_ahead(p, g) < p->work_ahead;
}

/* Runs the side work once per nr_par_lex_wake since *seen: 1 when it did
 * (called and returns with the lock held). */
static int run_posted_side_work(nr_par_lex *p, uint64_t *seen)
{
    if (!has_side_work(p) || *seen == p->side_posted)
        return 0;
    *seen = p->side_posted;
    run_side_work(p);
    return 1;
}

/* Returns with the lock released, when p stops or its chunk work does. */
static void work_main(nr_par_lex *p, uint64_t *side_seen_io)
{
    uint64_t side_seen = *side_seen_io;
    par_log *g = &p->logs[0];
    pthread_mutex_lock(&p->mu);
    while (!p->stop && p->work.run) {
        if (worker_may_read(p, g)) {
            par_chunk *c = do_read(p, g);
            c->workers = 1;
            do_chunk_work(p, c);
            continue;
        }
        if (run_posted_side_work(p, &side_seen))
            continue;
        pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    *side_seen_io = side_seen;
}

static void *worker_main(void *arg)
{
    nr_par_lex *p = arg;
    uint64_t side_seen = 0;
    if (p->work.run)
        work_main(p, &side_seen);
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        if (run_posted_side_work(p, &side_seen))
            continue;
        par_chunk *c = p->workers_only_read ? NULL : find_lex_work(p);
        if (c) {
            do_lex(p, c);
            continue;
        }
        par_log *g = find_read_work(p);
        if (g) {
            do_read(p, g);
            continue;
        }
        pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* ---- the caller's side --------------------------------------------------- */

/* Whether the oldest chunk of g is read (and lexed or worked on, if a
 * worker took it): the caller may take it. */
static int head_ready(const par_log *g)
{
    const slot_state st = g->count ? g->ring[g->head].state : SLOT_FREE;
    return st == SLOT_LEXED || st == SLOT_READ;
}

/* Frees the buffers of g's ring once its last chunk is consumed: a run of
 * many logs whose threads do not all run at once then reuses them for the
 * logs after it instead of touching fresh memory for each (a page fault
 * per 4 kB page, 15 us in this VM). */
static void free_ring_buffers(const nr_par_lex *p, par_log *g)
{
    for (size_t k = 0; k < p->depth; k++) {
        par_chunk *c = &g->ring[k];
        free(c->buf);
        free(c->lines);
        free(c->carry_text);
        c->buf = c->carry_text = NULL;
        c->lines = NULL;
        c->buf_cap = c->lines_cap = c->carry_cap = 0;
        c->text = NULL;
    }
}

/* The caller sleeps until a worker's chunk changes state (lock held). */
static void caller_wait(nr_par_lex *p)
{
    p->caller_waits = 1;
    pthread_cond_wait(&p->cv, &p->mu);
    p->caller_waits = 0;
}

int nr_par_lex_next(nr_par_lex *p, size_t i, nr_par_chunk_view *view, nr_error *err)
{
    par_log *g = &p->logs[i];
    pthread_mutex_lock(&p->mu);
    if (g->count && g->ring[g->head].state == SLOT_CONSUMING) {
        par_chunk *done = &g->ring[g->head];
        done->state = SLOT_FREE;
        g->count--;
        if (g->count) /* else the next chunk reuses this slot's buffers, warm */
            g->head = (g->head + 1) % p->depth;
        g->lent = 0;
        g->finished = done->is_last;
        g->started = 1;
        activate(p, g);
        if (g->finished && p->nlogs > 1)
            free_ring_buffers(p, g);
        if (!p->serial) /* serial: room for a read is the caller's alone */
            pthread_cond_broadcast(&p->cv);
    }
    for (;;) {
        if (g->finished) {
            pthread_mutex_unlock(&p->mu);
            return 0;
        }
        par_chunk *c = g->count ? &g->ring[g->head] : NULL;
        if (head_ready(g)) {
            /* a chunk no worker has lexed: its lines are lexed as they are
               read (nr_par_lex_line), not packed first */
            c->state = SLOT_CONSUMING;
            g->owes_ahead = 0;
            if (p->work.run && p->nthreads > 0 && !caller_has_ahead(p, g)) {
                /* the caller's next, so that a worker may read the one after; while
                   a worker reads, the caller reads it later (nr_par_lex_read_ahead),
                   else the worker waited for the caller's whole chunk (695 of its
                   1092 chunks of the 1 GB log, session 16) */
                if (can_read(p, g))
                    do_read(p, g);
                else
                    g->owes_ahead = !g->read_done && !c->workers;
            }
            pthread_mutex_unlock(&p->mu);
            if (c->rc < 0) {
                *err = c->err;
                return c->rc;
            }
            *view = chunk_view(c);
            c->spec = NULL;
            return 1;
        }
        if (!c && can_read(p, g)) {
            do_read(p, g);
        } else if (p->work.run && has_side_work(p)) {
            /* waiting for a worker's chunk: the side work meanwhile */
            if (!run_side_work(p) && !head_ready(g))
                caller_wait(p);
        } else {
            caller_wait(p);
        }
    }
}

void nr_par_lex_reach(nr_par_lex *p, size_t i)
{
    par_log *g = &p->logs[i];
    pthread_mutex_lock(&p->mu);
    if (!g->started) {
        g->started = 1;
        activate(p, g);
        if (!p->serial) /* its next chunk may be read ahead */
            pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
}

void nr_par_lex_read_ahead(nr_par_lex *p, size_t i)
{
    par_log *g = &p->logs[i];
    if (!g->owes_ahead)
        return;
    pthread_mutex_lock(&p->mu);
    if (!p->work.run || g->read_done || caller_has_ahead(p, g))
        g->owes_ahead = 0;
    else if (can_read(p, g)) {
        g->owes_ahead = 0;
        do_read(p, g);
    }
    pthread_mutex_unlock(&p->mu);
}

uint64_t nr_par_lex_hash(nr_par_lex *p, size_t i)
{
    pthread_mutex_lock(&p->mu);
    uint64_t h = p->logs[i].hash;
    pthread_mutex_unlock(&p->mu);
    return h;
}

uint64_t nr_par_lex_bytes_in(nr_par_lex *p)
{
    pthread_mutex_lock(&p->mu);
    uint64_t b = p->bytes_in;
    pthread_mutex_unlock(&p->mu);
    return b;
}

int nr_par_lex_workers(const nr_par_lex *p) { return p->nthreads; }

void nr_par_lex_set_side_work(nr_par_lex *p, int (*run)(void *ctx), void *ctx)
{
    pthread_mutex_lock(&p->mu);
    p->side_run = run;
    p->side_ctx = ctx;
    pthread_mutex_unlock(&p->mu);
}

void nr_par_lex_set_reserve(nr_par_lex *p, nr_reserve *r)
{
    pthread_mutex_lock(&p->mu);
    p->reserve = r;
    pthread_mutex_unlock(&p->mu);
}

void nr_par_lex_set_serial(nr_par_lex *p, int on)
{
    if (!p->lexing_workers || p->serial == (on != 0))
        return;
    pthread_mutex_lock(&p->mu);
    p->serial = on != 0;
    pthread_cond_broadcast(&p->cv); /* parallel again: reads and lexes to find */
    pthread_mutex_unlock(&p->mu);
}

void nr_par_lex_set_live(nr_par_lex *p, size_t live)
{
    nr_par_lex_set_serial(p, p->serial ? live > NR_PAR_SERIAL_ABOVE / 2 : live > NR_PAR_SERIAL_ABOVE);
}

int nr_par_lex_serial(const nr_par_lex *p) { return p->serial; }

void nr__par_lex_counts(uint64_t *serial, uint64_t *lexed)
{
    *serial = serial_chunks;
    *lexed = worker_lexed_chunks;
}

void nr_par_lex_stop_work(nr_par_lex *p)
{
    pthread_mutex_lock(&p->mu);
    p->work.run = NULL; /* results in flight stay: drop still frees them */
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

void nr_par_lex_wake(nr_par_lex *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->side_posted++;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* ---- create / destroy ---------------------------------------------------- */

static int jobs_or_cores(int jobs)
{
    return jobs > 0 ? jobs : nr_cores();
}

int nr_par_lex_create(nr_logsrc *const *srcs, size_t n, int jobs, nr_par_lex **out, nr_error *err)
{
    return nr_par_lex_create_working(srcs, n, jobs, NULL, out, err);
}

static int workers_for(int jobs)
{
    const int workers = jobs_or_cores(jobs) - 1;
    return workers > PAR_MAX_WORKERS ? PAR_MAX_WORKERS : workers;
}

/* no workers: one chunk per log, read and lexed just before it is
   consumed; one log: two chunks for every thread plus ten, so that a
   worker held up by another job on its core (a few ms) does not stall
   the pass at once (measured: -j 2 wall 1.02-1.03x under a neighbour
   taking 25-50% of a core, unchanged without one; docs/performance.md,
   "A deeper ring"); many logs: two each (one consumed, one read
   ahead) */
static size_t ring_depth(size_t n, int workers) { return workers <= 0 ? 1 : n == 1 ? (size_t)workers * 2 + 10 : 2; }

/* The text budget shared by the logs' rings (without chunk work). */
static size_t chunk_bytes_for(size_t n, int workers)
{
    const size_t chunk_max = workers <= 0 ? PAR_CHUNK_SERIAL : PAR_CHUNK_MAX;
    const size_t per = n ? PAR_BUDGET_BYTES / (n * ring_depth(n, workers)) : chunk_max;
    return per > chunk_max ? chunk_max : per < PAR_CHUNK_MIN ? PAR_CHUNK_MIN : per;
}

size_t nr_par_lex_read_bytes(size_t n, int jobs) { return chunk_bytes_for(n, workers_for(jobs)); }

static int create(nr_logsrc *const *srcs, size_t n, int jobs, const nr_par_lex_chunk_work *work, int only_read,
                  nr_par_lex **out, nr_error *err)
{
    *out = NULL;
    nr_par_lex *p = calloc(1, sizeof *p);
    if (!p)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    const int workers = workers_for(jobs);
    p->depth = ring_depth(n, workers);
    p->chunk_bytes = chunk_bytes_for(n, workers);
    p->carry = work && (workers > 0 || work->carry_always);
    if (work && workers > 0) {
        p->work = *work;
        p->chunk_bytes = work->chunk_bytes;
        /* the caller's chunk and its read-ahead, each worker's chunks, two spare */
        p->work_ahead = WORK_AHEAD_PER_WORKER * (size_t)workers;
        if (p->work_ahead > WORK_AHEAD_MAX) /* memory: chunks in flight, whatever the cores */
            p->work_ahead = WORK_AHEAD_MAX;
        p->depth = 4 + p->work_ahead;
    }
    if (chunk_bytes_for_tests)
        p->chunk_bytes = chunk_bytes_for_tests;
    p->nlogs = n;
    p->workers_only_read = only_read;
    p->avx2 = !avx2_off_for_tests && cpu_has_avx2();
    p->logs = calloc(n ? n : 1, sizeof *p->logs);
    if (!p->logs) {
        free(p);
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    *out = p;
    for (size_t i = 0; i < n; i++) {
        p->logs[i].src = srcs[i];
        if (!(p->logs[i].ring = calloc(p->depth, sizeof *p->logs[i].ring)))
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    }
    if (!(p->active = calloc(n ? n : 1, sizeof *p->active)) ||
        !(p->lex_stack = calloc((n ? n : 1) * p->depth, sizeof *p->lex_stack)))
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    if (n == 1)
        activate(p, &p->logs[0]); /* reads ahead from its start */
    if (workers > 0 && !(p->threads = calloc((size_t)workers, sizeof *p->threads)))
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    p->lexing_workers = workers > 0 && !only_read;
    /* before the merge says how many logs it takes lines from at once, a run
       of many: their first chunks are read by the caller, as they are taken */
    p->serial = p->lexing_workers && !p->work.run && n > NR_PAR_SERIAL_ABOVE;
    for (; p->nthreads < workers; p->nthreads++)
        if (pthread_create(&p->threads[p->nthreads], NULL, worker_main, p) != 0)
            break; /* fewer threads still give the same result */
    return 0;
}

int nr_par_lex_create_working(nr_logsrc *const *srcs, size_t n, int jobs, const nr_par_lex_chunk_work *work,
                              nr_par_lex **out, nr_error *err)
{
    return create(srcs, n, jobs, work, 0, out, err);
}

int nr_par_lex_create_reading(nr_logsrc *const *srcs, size_t n, int jobs, nr_par_lex **out, nr_error *err)
{
    return create(srcs, n, jobs, NULL, 1, out, err);
}

void nr_par_lex_destroy(nr_par_lex *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (int t = 0; t < p->nthreads; t++)
        pthread_join(p->threads[t], NULL);
    free(p->threads);
    for (size_t i = 0; i < p->nlogs; i++) {
        if (p->logs[i].ring)
            free_ring_buffers(p, &p->logs[i]);
        for (size_t k = 0; p->logs[i].ring && k < p->depth; k++)
            if (p->logs[i].ring[k].spec)
                p->work.drop(p->work.ctx, p->logs[i].ring[k].spec);
        free(p->logs[i].ring);
        free(p->logs[i].carry_text);
    }
    free(p->logs);
    free(p->active);
    free(p->lex_stack);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
