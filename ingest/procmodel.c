/* procmodel: replays fd tables, offsets, cwd and the process tree from
 * lexed strace lines. Method: the Linux object model in miniature - a task
 * points to a (possibly shared) fd table and a (possibly shared) fs struct;
 * an fd table maps fds to open file descriptions, which hold the offset and
 * are shared by dup and fork, as in fs/file.c. Objects are pooled and
 * addressed by index, so no per-event allocation happens. */
#include "procmodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "nr_mem.h"
#include "nr_reserve.h"
#include "nr_schema.h"
#include "nr_strtab.h"
#include "syscalls.h"

#define AT_FDCWD_VALUE (-100)
#define DENSE_FD_LIMIT (1 << 16)   /* fds below: an array; from here to INT_MAX: a hash map */
#define DECODE_CAP 16384
#define SYSCALL_CACHE_SLOTS 64  /* power of two */
#define SYSCALL_NAME_MAX 24
#define TASK_CACHE_SLOTS 64     /* power of two */
#define OPEN_FLAGS_TEXT_MAX 48
/* For the handlers of calls other than the hot fd calls: inlined, they make
 * handle_call's frame and register use those of the biggest handler. */
#define NOINLINE __attribute__((noinline))

/* ---- small span helpers ------------------------------------------------ */

static int span_eq(nr_span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n == n && memcmp(s.p, lit, n) == 0;
}

static int span_starts(nr_span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && memcmp(s.p, lit, n) == 0;
}

#define IDENT_DIGITS ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1
#define IDENT_UPPER                                                                                         \
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1,    \
    ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1,    \
    ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1
#define IDENT_LOWER                                                                                         \
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1,    \
    ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1,    \
    ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1

/* [A-Za-z0-9_], as a table: flag words are scanned a byte at a time. */
static const unsigned char ident_char[256] = {IDENT_DIGITS, IDENT_UPPER, IDENT_LOWER, ['_'] = 1};

static int is_ident_char(char c) { return ident_char[(unsigned char)c]; }

/* ---- byte scans of the hot paths ---------------------------------------
 * Annotations and paths are 20 to 100 bytes: 16 bytes per SSE2 step, the
 * last partial step as the 16 bytes that end at the span's end (bytes
 * before the scan's start are known clean, so an earlier match cannot
 * appear); spans under 16 bytes a byte at a time. */

/* '"', '\\', '<' and '>': the bytes that make an annotation need decoding,
 * or make the lexer's angle scan (skip_angle) stop before the closing '>'. */
static const unsigned char annot_special[256] = {['"'] = 1, ['\\'] = 1, ['<'] = 1, ['>'] = 1};

#ifdef __SSE2__
static inline __m128i load16(const char *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }

/* '<' and '>' differ in bit 1 only. */
static inline unsigned annot_special_mask(const char *p)
{
    __m128i v = load16(p);
    __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)0xFD)), _mm_set1_epi8('<')));
    return (unsigned)_mm_movemask_epi8(m);
}

/* The bytes nr_sarg stops at: '"', ',', and the brackets and '<' that
 * sarg_flat leaves to it. '(' and ')' differ in bit 0; '[' and '{' (']'
 * and '}') in bit 5. */
static inline unsigned flat_stop_mask(const char *p)
{
    __m128i v = load16(p);
    __m128i folded = _mm_and_si128(v, _mm_set1_epi8((char)0xDF));
    __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8(',')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(1)), _mm_set1_epi8(')')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(folded, _mm_set1_epi8('[')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(folded, _mm_set1_epi8(']')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
    return (unsigned)_mm_movemask_epi8(m);
}

static inline unsigned quote_or_backslash_mask(const char *p)
{
    __m128i v = load16(p);
    return (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
}
#endif

/* Whether p[0..n) holds an annot_special byte. */
static int has_annot_special(const char *p, size_t n)
{
#ifdef __SSE2__
    if (n >= 16) {
        size_t i = 0;
        for (; i + 16 <= n; i += 16)
            if (annot_special_mask(p + i))
                return 1;
        return i < n && annot_special_mask(p + n - 16) != 0;
    }
#endif
    for (size_t i = 0; i < n; i++)
        if (annot_special[(unsigned char)p[i]])
            return 1;
    return 0;
}

static const unsigned char flat_stop[256] = {['"'] = 1, [','] = 1, ['('] = 1, [')'] = 1, ['['] = 1,
                                             [']'] = 1, ['{'] = 1, ['}'] = 1, ['<'] = 1};

/* The first byte of [p, end) that `stop` marks, found 16 bytes at a time by
 * `mask` (the same set as a bit mask) where SSE2 is there. Inlined, so each
 * caller gets its own loop with its own mask. */
static inline __attribute__((always_inline)) const char *
find_first(const char *p, const char *end, const unsigned char stop[256], unsigned (*mask)(const char *))
{
#ifdef __SSE2__
    if (end - p >= 16) {
        for (; end - p >= 16; p += 16) {
            unsigned m = mask(p);
            if (m)
                return p + __builtin_ctz(m);
        }
        if (p == end)
            return end;
        unsigned m = mask(end - 16);
        return m ? end - 16 + __builtin_ctz(m) : end;
    }
#else
    (void)mask;
#endif
    while (p < end && !stop[(unsigned char)*p])
        p++;
    return p;
}

static const unsigned char quote_or_backslash[256] = {['"'] = 1, ['\\'] = 1};

#ifdef __SSE2__
#define SSE2_MASK(fn) fn
#else
#define SSE2_MASK(fn) NULL /* the masks exist only with SSE2 */
#endif

/* The first '"' or '\\' in [p, end), or end. */
static const char *find_quote_or_backslash(const char *p, const char *end)
{
    return find_first(p, end, quote_or_backslash, SSE2_MASK(quote_or_backslash_mask));
}

/* The first flat_stop byte in [p, end), or end. */
static const char *find_flat_stop(const char *p, const char *end)
{
    return find_first(p, end, flat_stop, SSE2_MASK(flat_stop_mask));
}

/* nr_sarg(args, i) for arguments without brackets, braces, parentheses or
 * annotations before the end of argument i (quoted strings may hold
 * anything): the buffer, count and offset of pread64. 0 and *out, or -1
 * when nr_sarg must read it. */
static int sarg_flat(nr_span args, unsigned i, nr_span *out)
{
    const char *p = args.p, *end = args.p + args.n;
    if (!p)
        return -1;
    const char *arg = p;
    for (;;) {
        p = find_flat_stop(p, end);
        if (p == end)
            break;
        if (*p == '"') {
            p = nr_sarg_skip_string(p + 1, end);
            continue;
        }
        if (*p != ',')
            return -1;
        if (i == 0)
            break;
        i--;
        arg = ++p;
    }
    if (i > 0)
        return -1;
    while (arg < p && (*arg == ' ' || *arg == '\t'))
        arg++;
    while (p > arg && (p[-1] == ' ' || p[-1] == '\t'))
        p--;
    *out = (nr_span){arg, (size_t)(p - arg)};
    return 0;
}

/* Argument 2 of args (the offset) when argument 0 is a quoted string (the
 * buffer of pread64, pwrite64: "data"..., count, offset) and the text from
 * the string's end to the end of argument 2 holds no flat_stop byte but
 * commas: as nr_sarg gives it. p NULL otherwise. */
static nr_span offset_after_string(nr_span args)
{
    const nr_span none = {NULL, 0};
    const char *p = args.p, *end = args.p + args.n;
    if (!p)
        return none;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p == end || *p != '"')
        return none;
    p = nr_sarg_skip_string(p + 1, end);
    /* the commonest tail, "..."..., count, offset: read without the stop table */
    const char *q = end - p >= 3 && p[0] == '.' && p[1] == '.' && p[2] == '.' ? p + 3 : p, *num = NULL;
    int k = 0;
    for (; k < 2 && end - q >= 3 && q[0] == ',' && q[1] == ' ' && (unsigned)(q[2] - '0') < 10u; k++) {
        num = q += 2;
        while (q < end && (unsigned)(*q - '0') < 10u)
            q++;
    }
    if (k == 2 && q == end)
        return (nr_span){num, (size_t)(end - num)};
    unsigned i = 2;
    const char *arg = NULL;
    for (; p < end; p++) {
        if (!flat_stop[(unsigned char)*p])
            continue;
        if (*p != ',')
            return none;
        if (arg)
            break;
        if (--i == 0)
            arg = p + 1;
    }
    if (!arg)
        return none;
    while (arg < p && (*arg == ' ' || *arg == '\t'))
        arg++;
    while (p > arg && (p[-1] == ' ' || p[-1] == '\t'))
        p--;
    return (nr_span){arg, (size_t)(p - arg)};
}

static int flags_are_raw(nr_span s) { return s.n && s.p[0] >= '0' && s.p[0] <= '9'; }

/* The number of a raw (-X raw) flags argument: its leading identifier
 * characters, as strtoull reads them (0x hex, 0 octal). */
static uint64_t raw_flags_value(nr_span s)
{
    char num[32];
    size_t n = 0;
    while (n < s.n && n < sizeof num - 1 && is_ident_char(s.p[n]))
        num[n] = s.p[n], n++;
    num[n] = '\0';
    return strtoull(num, NULL, 0);
}

/* Calls found(ctx, word, len) for each whole word of a symbolic flags
 * argument ("O_RDONLY|O_CLOEXEC") until it returns nonzero; returns that. */
static int each_flag_word(nr_span s, int (*found)(void *ctx, const char *w, size_t n), void *ctx)
{
    for (size_t i = 0; i < s.n;) {
        if (!is_ident_char(s.p[i])) {
            i++;
            continue;
        }
        size_t w = i;
        while (i < s.n && is_ident_char(s.p[i]))
            i++;
        int rc = found(ctx, s.p + w, i - w);
        if (rc)
            return rc;
    }
    return 0;
}

static int word_is(void *flag, const char *w, size_t n)
{
    const char *f = flag;
    return strlen(f) == n && memcmp(w, f, n) == 0;
}

/* True when the symbolic name `flag` appears in s as a whole word, or, when
 * s is a number (-X raw), when raw_bit is set in it. */
static int flag_present(nr_span s, const char *flag, uint64_t raw_bit)
{
    if (flags_are_raw(s))
        return raw_bit && (raw_flags_value(s) & raw_bit) != 0;
    return each_flag_word(s, word_is, (void *)flag);
}

/* The open flags the model replays, as flag_present finds them, in one pass. */
enum { OPEN_DIRECTORY = 1, OPEN_APPEND = 2, OPEN_CLOEXEC = 4, OPEN_TMPFILE = 8 };

static const struct open_flag {
    const char *name;
    size_t len;
    uint64_t raw;   /* include/uapi/asm-generic/fcntl.h */
    unsigned bit;
} open_flag_table[] = {
    {"O_DIRECTORY", 11, 0200000, OPEN_DIRECTORY},
    {"O_APPEND", 8, 02000, OPEN_APPEND},
    {"O_CLOEXEC", 9, 02000000, OPEN_CLOEXEC},
    {"O_TMPFILE", 9, 020000000, OPEN_TMPFILE}, /* __O_TMPFILE; O_TMPFILE adds O_DIRECTORY's bit */
};

static int add_open_flag(void *bits, const char *w, size_t n)
{
    for (size_t k = 0; k < sizeof open_flag_table / sizeof open_flag_table[0]; k++)
        if (open_flag_table[k].len == n && memcmp(w, open_flag_table[k].name, n) == 0)
            *(unsigned *)bits |= open_flag_table[k].bit;
    return 0;
}

/* The flags field of openat2's struct open_how ("{flags=O_RDONLY|O_CLOEXEC,
 * resolve=0}", "{flags=0x80000, ...}" under -X raw): the text of its value;
 * s itself for any other argument. */
static nr_span open_how_flags(nr_span s)
{
    static const char field[] = "{flags=";
    const size_t n = sizeof field - 1;
    if (s.n <= n || memcmp(s.p, field, n) != 0)
        return s;
    size_t end = n;
    while (end < s.n && s.p[end] != ',' && s.p[end] != '}')
        end++;
    return (nr_span){s.p + n, end - n};
}

static unsigned open_flags(nr_span s)
{
    unsigned bits = 0;
    s = open_how_flags(s);
    if (flags_are_raw(s)) {
        uint64_t v = raw_flags_value(s);
        for (size_t k = 0; k < sizeof open_flag_table / sizeof open_flag_table[0]; k++)
            if (v & open_flag_table[k].raw)
                bits |= open_flag_table[k].bit;
        return bits;
    }
    each_flag_word(s, add_open_flag, &bits);
    return bits;
}

/* ---- objects ----------------------------------------------------------- */

typedef struct ofd {        /* open file description */
    int64_t file_id;        /* -1 unknown */
    int64_t offset;         /* -1 unknown */
    uint32_t refs;
    uint8_t append, kind, offset_guessed, in_use;
    uint8_t annot_plain;    /* annot has no byte that makes the lexer's angle scan stop early (fd_text_quick) */
    char *annot;            /* last -y annotation seen (escaped bytes), cache for file_id */
    uint32_t annot_len, annot_cap;
    uint32_t ghost;         /* speculative: 1 + index in pm->ghosts of the fd this stands for; 0 none */
} ofd;

typedef struct fd_slot {
    int32_t fd;             /* -1 = empty */
    int32_t ofd;
    uint8_t cloexec;
} fd_slot;

/* fds below DENSE_FD_LIMIT (nearly all) index an array; the rare larger ones
 * (legal up to fs.nr_open, at most INT_MAX) live in a small hash map. */
typedef struct fdtab {
    uint32_t refs;
    size_t cap;             /* slots in ofd/cloexec */
    int32_t *ofd;           /* fd -> ofd index, -1 = closed */
    uint8_t *cloexec;
    fd_slot *high;          /* fds >= DENSE_FD_LIMIT; high_slots is a power of two */
    size_t nhigh, high_slots;
} fdtab;

typedef struct fsinfo {
    uint32_t refs;
    char *cwd;              /* "" = unknown; relative when the start was unknown */
    int cwd_set;            /* speculative: cwd was learned from the segment's lines */
} fsinfo;

enum task_origin { ORIGIN_ROOT, ORIGIN_CLONE, ORIGIN_EARLY_CHILD };

typedef struct task {
    int64_t tid, pid, ppid;
    int64_t parent_tid;       /* the thread whose clone made this task; -1 unknown */
    /* The tree by task, not by tid: once a tid is reused, a lookup by its
       number finds the newer task (review 50, a parent cycle). */
    struct task *parent;      /* the task whose clone made this one, created before it; NULL unknown */
    struct task *leader;      /* its thread group's leader (itself for a process) */
    struct task *older;       /* the task that had this tid before it, NULL none */
    uint8_t is_thread, exited, origin;
    uint8_t annotated;        /* -y: an fd of this task (or of the one it was cloned from) was printed annotated */
    uint8_t spec_unfinished;  /* speculative: an <unfinished ...> line of the task was fed */
    uint8_t seeded;           /* speculative: its pending call was carried over (spec_seed_pending) */
    fdtab *fds;
    fsinfo *fs;
    int64_t first_ts, last_ts, end_ts;   /* end_ts: its "+++ exited/killed" line's, -1 none */
    int64_t exe_id, killed_by_id, exit_code;
    uint64_t events, signals;
    size_t serial;            /* creation order: orders two tasks of one reused tid */
    /* the pending <unfinished ...> call */
    int pending;
    int64_t pending_ts;
    size_t pending_name_len;  /* pending_text = name '\0' args */
    nr_buf pending_text;
    char *pending_file;
    uint64_t pending_line;
    int64_t early_child;      /* tid attached to this task's pending clone, -1 none */
    uint64_t seed_line;       /* seeded: the carried call's line, for the stitch to compare */
    uint64_t table_hint;      /* speculative: its table in nr_pm_spec_tables' hint, 0 none */
    int64_t seed_close_file;  /* seeded close: the file the real task's pending close read (the stitch) */
    /* a pending close: the kernel frees the fd at the call's entry, so it
     * was closed at the <unfinished ...> line (another thread may take the
     * number before the <... resumed> one), and what it names was read there */
    uint8_t close_pending;
    uint8_t close_ghost_bits; /* speculative: NR_PM_GHOST_FILE of close_ghost, or NR_PM_GHOST_CLOSE */
    uint32_t close_ghost;
    int64_t close_fd, close_file;
    /* made a root (task_new_seen): the log it was first seen in (1 + index in
       pm->seen_logs, 0 none), whether that log is an -ff one, and the line */
    uint32_t seen_log;
    uint8_t seen_ff;
    uint64_t seen_line;
} task;

/* The first argument when it is an fd printed plainly, lexed without the
 * lexer: "N," or "N" (decimal, an int), "AT_FDCWD,", or "N<annot>," where
 * annot is byte for byte the plain annotation the fd's open file
 * description already holds. Each form gives what nr_sarg_fd_at(args, 0)
 * gives; any other text returns -1 and is left to it. This is the hot path:
 * most calls name an fd whose path has not changed since the last call.
 * "AT_FDCWD<annot>," is taken when annot is plain by itself. */
typedef struct fd_text {
    int64_t fd;
    nr_span annot;       /* empty when none */
    int32_t known_idx;   /* the ofd holding annot already; -1 when none */
    const char *stop;    /* the end of argument 0: its comma, or the end of args (first_rest) */
} fd_text;

typedef struct call {
    nr_pm_event ev;               /* built in place: fill_call sets the line's fields, the handler
                                     the fd, file, bytes and offset, emit the task's */
    const nr_syscall_info *info;  /* NULL when unknown */
    nr_span args, annot;
    fd_text first;                /* argument 0 as fd_text_quick read it, when first_split */
    int first_split;
    int ok;
    int closed_early;             /* a close whose fd went at its <unfinished ...> line (task.close_*) */
    int64_t result;               /* as logged (ev.result is -1 unless ok) */
} call;

/* The arguments after argument 0's comma (empty when it is the last), when
 * c->first_split. */
static inline nr_span first_rest(const call *c)
{
    const char *p = c->first.stop, *end = c->args.p + c->args.n;
    return p < end ? (nr_span){p + 1, (size_t)(end - p - 1)} : (nr_span){end, 0};
}

struct nr_pm {
    size_t pending_clones;   /* tasks whose pending (unfinished) call is a clone: new tids look for them */
    nr_pm_config cfg;
    char *start_cwd;

    task **tasks;
    size_t ntasks, tasks_cap;
    uint32_t *task_slots;     /* open addressing tid -> index + 1 */
    size_t task_nslots;
    task *recent_tasks[TASK_CACHE_SLOTS]; /* by tid: the task the index gives for it, or NULL */
    task *last_unprefixed;
    task *prev_task;          /* task of the previous event line */
    size_t live_tasks;
    int64_t root_pid;

    ofd *ofds;
    size_t nofds, ofds_cap;
    int32_t *ofd_free;
    size_t nfree, free_cap;

    nr_strtab paths;          /* file identity -> file_id */
    nr_pm_file **file_blocks; /* file_id -> totals (file_at) */
    size_t nfiles, nfile_blocks, file_blocks_cap;
    nr_strtab names;          /* exe paths, signal names */
    const nr_syscall_info *syscall_table; /* nr_syscall_at(0): an entry's index is its distance from it */
    uint64_t synthetic_serial;

    struct syscall_cache_entry {
        size_t len;                   /* 0 = empty */
        const nr_syscall_info *info;  /* NULL: not in the table */
        char name[SYSCALL_NAME_MAX];
    } syscall_cache[SYSCALL_CACHE_SLOTS];

    struct open_flags_cache {   /* the last open flags text and its bits: a job opens with a few */
        char text[OPEN_FLAGS_TEXT_MAX];
        size_t len;             /* 0 = empty */
        unsigned bits;
        int is_word;            /* text is all [A-Za-z0-9_|] (word_after_path may take it) */
    } open_flags_cache;

    const nr_pm_where *where;  /* the line being fed (NULL at finish), for diagnostics */
    int64_t where_file_pid;   /* nr_pm_feed's file_pid for that line */
    nr_strtab seen_logs;      /* names of the logs roots were first seen in (seen_log_index) */
    char decode[DECODE_CAP];
    nr_buf resolved, scratch, joined;
    nr_pm_counts counts;
    int finished;

    /* speculation (cfg.speculative): see "speculation" below */
    const char *refused;      /* why the segment cannot be speculated on; NULL while it can */
    int bare_before_annot;    /* an fd printed bare before the segment's first -y annotation */
    struct spec_ghost *ghosts;
    size_t nghosts, ghosts_cap;
    uint8_t *kind0;           /* by local file id: the kind it was interned with */
    size_t kind0_cap;
    uint8_t *kind_used;       /* by local file id: an offset was computed through a regular fd of it */
    size_t kind_used_cap;
    uint32_t adv_ghost;       /* the ghost the event being built refers to (emit_event takes it) */
    uint8_t adv_bits;         /* NR_PM_GHOST_* of adv_ghost */
    int64_t adv_seek;         /* with NR_PM_GHOST_SEEK: the offset it was moved to */
    struct ghost_op *ghost_ops; /* the moves of ghosts' offsets, in order (the stitch replays them) */
    size_t nghost_ops, ghost_ops_cap, ghost_op_next; /* ... next: nr_pm_stitch_event's cursor */
    const nr_sline *carried;  /* the calls carried over (nr_pm_spec_carry), borrowed while fed */
    const nr_pm_where *carried_where;
    size_t ncarried;
    const nr_pm_shared_table *spec_tables; /* nr_pm_spec_tables' hint, borrowed while fed */
    size_t nspec_tables;
    uint64_t tables_version;  /* nr_pm_tables_version */
    uint64_t tree_version;    /* nr_pm_tree_version */
};

/* A speculative model's stand-in for an fd of a task that it did not see
 * opened: the real fd table at the segment's start holds its truth. */
typedef struct spec_ghost {
    int64_t tid, fd;
    uint8_t annotated;        /* first_annot holds the first -y annotation applied to it */
    uint8_t kind_at_annot;    /* the ofd's kind right after that */
    uint8_t materialized;     /* looked up as the real model would create it (not only a look-up) */
    uint8_t reannotated;      /* annotated again, with another annotation */
    uint8_t closed;           /* its fd was closed in the segment */
    uint8_t named_bare;       /* an event took the real fd's file at the segment's start (NR_PM_GHOST_FILE) */
    int64_t file_at_annot;    /* the local file of first_annot */
    char *first_annot;
    size_t first_annot_len;
} spec_ghost;

/* Sets the first reason a speculative model cannot go on. */
static void spec_refuse(nr_pm *pm, const char *why)
{
    if (!pm->refused)
        pm->refused = why;
}

/* The file totals live in blocks of 2 MB that never move: a block is added
 * as the file ids reach it, where one growing array would be copied to
 * fresh memory at every doubling, and a block is one transparent huge
 * page, touched with one fault instead of 512 (first touches are dear in
 * these VMs: docs/performance.md, session 10). */
#define FILES_PER_BLOCK (NR_DENSE_HUGE / sizeof(nr_pm_file))

static inline nr_pm_file *file_at(const nr_pm *pm, int64_t id)
{
    return &pm->file_blocks[(size_t)id / FILES_PER_BLOCK][(size_t)id % FILES_PER_BLOCK];
}

/* Allocates the blocks up to the one of file id. */
static int file_blocks_reach(nr_pm *pm, int64_t id)
{
    while ((size_t)id / FILES_PER_BLOCK >= pm->nfile_blocks) {
        NR_TRY(NR_GROW(pm->file_blocks, pm->file_blocks_cap, pm->nfile_blocks + 1));
        /* a speculative model's few files touch a few pages of a block:
           not the whole huge page */
        size_t bytes = FILES_PER_BLOCK * sizeof(nr_pm_file);
        if (!(pm->file_blocks[pm->nfile_blocks] = pm->cfg.speculative ? malloc(bytes) : nr_alloc_dense(bytes)))
            return NR_E_NOMEM;
        if (!pm->cfg.speculative)
            nr_reserve_expect(bytes); /* the next block, made while this one fills */
        pm->nfile_blocks++;
    }
    return 0;
}

/* A call showed file to be a directory (an O_DIRECTORY open, a listing,
 * a stat's S_IFDIR): a file held for regular becomes one; a path's own
 * kind (/proc, /dev) and a third kind learnt stay. The file's kind only:
 * its open file descriptions keep theirs (known_directory). */
static void make_directory(nr_pm *pm, int64_t file)
{
    if (file >= 0 && file_at(pm, file)->kind == NR_KIND_REGULAR)
        file_at(pm, file)->kind = NR_KIND_DIRECTORY;
}

/* ---- creation ---------------------------------------------------------- */

/* What a model holds before its first line (nr_pm_create, nr_pm_reset):
 * no counts, and name id 0 is "" so that "none" needs no special case.
 * 0 or NR_E_NOMEM. */
static int start_empty(nr_pm *pm)
{
    memset(&pm->counts, 0, sizeof pm->counts);
    pm->counts.first_ts_ns = pm->counts.last_ts_ns = -1;
    return nr_strtab_intern(&pm->names, "", 0) < 0 ? NR_E_NOMEM : 0;
}

int nr_pm_create(const nr_pm_config *cfg, nr_pm **out, nr_error *err)
{
    nr_pm *pm = calloc(1, sizeof *pm);
    if (!pm)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    pm->cfg = *cfg;
    pm->syscall_table = nr_syscall_at(0);
    pm->start_cwd = strdup(cfg->start_cwd ? cfg->start_cwd : "");
    if (!pm->start_cwd) {
        free(pm);
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    }
    nr_strtab_init(&pm->paths);
    nr_strtab_init(&pm->names);
    nr_strtab_init(&pm->seen_logs);
    nr_buf_init(&pm->resolved);
    nr_buf_init(&pm->scratch);
    nr_buf_init(&pm->joined);
    if (start_empty(pm) < 0) {
        nr_pm_destroy(pm);
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    }
    *out = pm;
    return 0;
}

static void fdtab_release(nr_pm *pm, fdtab *t);
static void fs_release(fsinfo *fs);

static void free_tasks(nr_pm *pm)
{
    for (size_t i = 0; i < pm->ntasks; i++) {
        task *t = pm->tasks[i];
        fdtab_release(pm, t->fds);
        fs_release(t->fs);
        nr_buf_fini(&t->pending_text);
        free(t->pending_file);
        free(t);
    }
    pm->ntasks = 0;
}

static void free_ghosts(nr_pm *pm)
{
    for (size_t i = 0; i < pm->nghosts; i++)
        free(pm->ghosts[i].first_annot);
    pm->nghosts = 0;
}

int nr_pm_reset(nr_pm *pm, const nr_pm_config *cfg, nr_error *err)
{
    free_tasks(pm);
    free_ghosts(pm);
    nr_strtab_reset(&pm->seen_logs);
    if (pm->task_slots)
        memset(pm->task_slots, 0, pm->task_nslots * sizeof *pm->task_slots);
    memset(pm->recent_tasks, 0, sizeof pm->recent_tasks);
    pm->pending_clones = pm->live_tasks = 0;
    pm->last_unprefixed = pm->prev_task = NULL;
    pm->root_pid = 0;
    for (size_t i = 0; i < pm->nofds; i++) {
        free(pm->ofds[i].annot);
        pm->ofds[i].annot = NULL;
    }
    pm->nofds = pm->nfree = 0;
    nr_strtab_reset(&pm->paths);
    pm->nfiles = 0;
    nr_strtab_reset(&pm->names);
    pm->synthetic_serial = 0;
    pm->where = NULL;
    pm->finished = 0;
    pm->refused = NULL;
    pm->bare_before_annot = 0;
    pm->adv_ghost = 0;
    pm->adv_bits = 0;
    pm->nghost_ops = pm->ghost_op_next = 0;
    pm->ncarried = 0;
    pm->nspec_tables = 0;
    pm->cfg = *cfg;
    if (strcmp(pm->start_cwd, cfg->start_cwd ? cfg->start_cwd : "") != 0) {
        free(pm->start_cwd);
        if (!(pm->start_cwd = strdup(cfg->start_cwd ? cfg->start_cwd : "")))
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    }
    if (start_empty(pm) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 0;
}

void nr_pm_destroy(nr_pm *pm)
{
    if (!pm)
        return;
    free_tasks(pm);
    free(pm->tasks);
    free(pm->task_slots);
    for (size_t i = 0; i < pm->nofds; i++)
        free(pm->ofds[i].annot);
    free(pm->ofds);
    free(pm->ofd_free);
    nr_strtab_fini(&pm->paths);
    nr_strtab_fini(&pm->names);
    for (size_t b = 0; b < pm->nfile_blocks; b++)
        free(pm->file_blocks[b]);
    free(pm->file_blocks);
    free_ghosts(pm);
    free(pm->ghosts);
    nr_strtab_fini(&pm->seen_logs);
    free(pm->kind0);
    free(pm->kind_used);
    free(pm->ghost_ops);
    nr_buf_fini(&pm->resolved);
    nr_buf_fini(&pm->scratch);
    nr_buf_fini(&pm->joined);
    free(pm->start_cwd);
    free(pm);
}

void nr_pm_set_root_pid(nr_pm *pm, int64_t pid) { pm->root_pid = pid; }

/* ---- files ------------------------------------------------------------- */

/* Kind of a file from its identity (a -y annotation or a resolved path). */
static int kind_of_path(const char *p, size_t n)
{
    nr_span s = {p, n};
    if (n >= 2 && p[0] == '/' && p[1] != 'd' && p[1] != 'p' && p[1] != 's' && p[1] != 'm')
        return NR_KIND_REGULAR; /* not /dev, /proc, /sys, /memfd: (nor pipe:, socket:, ...) */
    if (span_starts(s, "pipe:"))
        return NR_KIND_PIPE;
    if (span_starts(s, "socket:"))
        return NR_KIND_SOCKET;
    if (span_starts(s, "anon_inode:") || span_starts(s, "/memfd:"))
        return NR_KIND_ANON;
    if (span_starts(s, "/dev/shm/"))
        return NR_KIND_REGULAR;
    if (span_starts(s, "/dev/") || span_eq(s, "/dev"))
        return NR_KIND_DEVICE;
    if (span_starts(s, "/proc/") || span_eq(s, "/proc") || span_starts(s, "/sys/") || span_eq(s, "/sys"))
        return NR_KIND_PROCFS;
    if (n && p[0] != '/' && n > 2 && memchr(p, ':', n) && p[n - 1] == ']')
        return NR_KIND_SOCKET; /* -yy "TCP:[...]", "UNIX:[...]", "NETLINK:[...]" */
    return NR_KIND_REGULAR;
}

void nr_pm_prefetch_path_slot(const nr_pm *pm, uint64_t hash) { nr_strtab_prefetch(&pm->paths, hash); }

void nr_pm_prefetch_path_record(const nr_pm *pm, uint64_t hash) { nr_strtab_prefetch_record(&pm->paths, hash); }

void nr_pm_prefetch_path_file(const nr_pm *pm, uint64_t hash)
{
    int64_t id = nr_strtab_peek_id(&pm->paths, hash);
    if (id >= 0 && (size_t)id < pm->nfiles)
        __builtin_prefetch(file_at(pm, id));
}

/* Records the kind local file id was interned with (the stitch checks the
 * real file had the same, so that every kind change in the segment does
 * to both what it did to one). */
static int spec_note_kind0(nr_pm *pm, int64_t id, int kind)
{
    NR_TRY(NR_GROW(pm->kind0, pm->kind0_cap, (size_t)id + 1));
    NR_TRY(NR_GROW(pm->kind_used, pm->kind_used_cap, (size_t)id + 1));
    pm->kind0[id] = (uint8_t)kind;
    pm->kind_used[id] = 0;
    return 0;
}

/* file_intern with h = nr_hash_bytes(path, n). */
static int64_t file_intern_hashed(nr_pm *pm, const char *path, size_t n, int kind, uint64_t h)
{
    int64_t id = nr_strtab_intern_hashed(&pm->paths, path, n, h);
    if (id < 0)
        return id;
    if ((size_t)id < pm->nfiles) {
        if (kind == NR_KIND_DIRECTORY)
            make_directory(pm, id);
        return id;
    }
    if (file_blocks_reach(pm, id) < 0)
        return NR_E_NOMEM;
    nr_pm_file *f = file_at(pm, id);
    pm->nfiles = (size_t)id + 1;
    memset(f, 0, sizeof *f);
    int path_kind = kind_of_path(path, n);
    f->kind = (kind != NR_KIND_UNKNOWN && path_kind == NR_KIND_REGULAR) ? kind : path_kind;
    f->first_ts_ns = f->last_ts_ns = -1;
    if (pm->cfg.speculative && spec_note_kind0(pm, id, f->kind) < 0)
        return NR_E_NOMEM;
    if (n == 0 || (path[0] != '/' && path_kind == NR_KIND_REGULAR)) {
        if (pm->cfg.speculative)
            spec_refuse(pm, "a relative path");
        pm->counts.relative_paths++;
        if (pm->cfg.diag)
            nr_diag_add(pm->cfg.diag, "relative_path", NULL, 0, path, n);
    }
    return id;
}

static int64_t file_intern(nr_pm *pm, const char *path, size_t n, int kind)
{
    return file_intern_hashed(pm, path, n, kind, nr_hash_bytes(path, n));
}

/* Gives fds without a -y annotation (pipes, sockets, ...) a stable identity;
 * NR_KIND_UNKNOWN: a file whose name the log does not give ("unknown:[#N]",
 * of kind unknown). */
static int64_t file_synthetic(nr_pm *pm, int kind)
{
    if (pm->cfg.speculative)
        spec_refuse(pm, "an fd without -y annotation (its name numbers all such fds)");
    char name[64];
    const char *prefix = kind == NR_KIND_PIPE     ? "pipe"
                         : kind == NR_KIND_SOCKET ? "socket"
                         : kind == NR_KIND_UNKNOWN ? "unknown"
                                                   : "anon_inode";
    int n = snprintf(name, sizeof name, "%s:[#%llu]", prefix, (unsigned long long)++pm->synthetic_serial);
    int64_t id = file_intern(pm, name, (size_t)n, kind);
    if (id >= 0 && kind == NR_KIND_UNKNOWN)
        file_at(pm, id)->kind = NR_KIND_UNKNOWN; /* its name reads as a -yy socket's */
    return id;
}

/* [first, last] widened to take [sfirst, slast] (-1: none). */
static inline void merge_time_span(int64_t *first, int64_t *last, int64_t sfirst, int64_t slast)
{
    if (sfirst >= 0 && (*first < 0 || sfirst < *first))
        *first = sfirst;
    if (slast > *last)
        *last = slast;
}

/* *total + bytes, at most INT64_MAX (bytes >= 0): a log's sizes are
 * whatever it says, and saturated sums are the same in any grouping, so a
 * stitched chunk's totals add up as its lines would have. */
static inline void add_bytes(int64_t *total, int64_t bytes)
{
    if (__builtin_add_overflow(*total, bytes, total))
        *total = INT64_MAX;
}

static inline void file_count(nr_pm *pm, int64_t id, int counter, int64_t bytes, int64_t ts)
{
    if (id < 0)
        return;
    nr_pm_file *f = file_at(pm, id);
    switch (counter) {
    case NR_CNT_READ: f->read_calls++; add_bytes(&f->bytes_read, bytes); break;
    case NR_CNT_WRITE: f->write_calls++; add_bytes(&f->bytes_written, bytes); break;
    case NR_CNT_OPEN: f->open_calls++; break;
    case NR_CNT_CLOSE: f->close_calls++; break;
    case NR_CNT_META: f->meta_calls++; break;
    case NR_CNT_SYNC: f->sync_calls++; break;
    default: break;
    }
    if (ts >= 0)
        merge_time_span(&f->first_ts_ns, &f->last_ts_ns, ts, ts);
}

/* Decodes an escaped -y annotation or quoted path into pm->decode. Returns
 * the length or -1. */
static long decode(nr_pm *pm, nr_span s)
{
    int truncated = 0;
    return nr_sarg_unquote(s, pm->decode, sizeof pm->decode, &truncated);
}

/* Whether nr_sarg_unquote would return s unchanged: not quoted, no escape,
 * no blank at either end to trim, short enough for pm->decode. special:
 * whether s holds an annot_special byte (when 0, it has no quote or
 * backslash). */
static int unquote_is_identity(nr_span s, int special)
{
    return s.n > 0 && s.n < DECODE_CAP - 1 && s.p[0] != '"' && s.p[0] != ' ' && s.p[0] != '\t' &&
           s.p[s.n - 1] != ' ' && s.p[s.n - 1] != '\t' && (!special || !memchr(s.p, '\\', s.n));
}

static const char deleted_suffix[] = " (deleted)";
#define DELETED_SUFFIX_LEN (sizeof deleted_suffix - 1)

/* File of a -y annotation: strips -yy device details and, unless
 * keep_deleted, a " (deleted)" that ends it: strace 5.x prints a deleted
 * file so ("3</tmp/x (deleted)>"), 6.1 after the annotation
 * ("3</tmp/x>(deleted)", which the lexer drops), where a " (deleted)"
 * inside is part of the name. keep_deleted: the annotation is the result
 * of an open whose own path ends so (handle_open): the file is named so.
 * special as for unquote_is_identity. */
static int64_t file_of_annotation(nr_pm *pm, nr_span annot, int special, int keep_deleted)
{
    const char *p = annot.p;
    long n = (long)annot.n;
    if (!unquote_is_identity(annot, special)) { /* the common plain path needs no copy */
        n = decode(pm, annot);
        p = pm->decode;
    }
    if (n < 0)
        return -1;
    int kind = NR_KIND_UNKNOWN;
    if (n > 0 && p[n - 1] == '>') { /* -yy: "/dev/null<char 1:3>" */
        const char *lt = memchr(p, '<', (size_t)n);
        nr_span dev = {lt, lt ? (size_t)(p + n - lt) : 0}; /* p may point into the line: no reading past n */
        if (lt && (span_starts(dev, "<char ") || span_starts(dev, "<block "))) {
            kind = NR_KIND_DEVICE;
            n = lt - p;
        }
    }
    if (!keep_deleted && (size_t)n > DELETED_SUFFIX_LEN &&
        memcmp(p + n - DELETED_SUFFIX_LEN, deleted_suffix, DELETED_SUFFIX_LEN) == 0)
        n -= (long)DELETED_SUFFIX_LEN;
    int64_t id = file_intern(pm, p, (size_t)n, NR_KIND_UNKNOWN);
    if (id >= 0 && kind == NR_KIND_DEVICE)
        file_at(pm, id)->kind = NR_KIND_DEVICE;
    return id;
}

/* ---- file types -------------------------------------------------------- */

/* Kind of the type bits (S_IFMT) of a mode as strace prints it in the
 * three -X styles ("S_IFIFO|0644", raw "010644", and verbose's number
 * followed by its comment):
 * NR_KIND_PIPE for a fifo, NR_KIND_SOCKET, NR_KIND_DEVICE for character
 * and block devices, NR_KIND_DIRECTORY; NR_KIND_UNKNOWN for the rest
 * (regular, symlink) and for text that is no mode. */
static int kind_of_mode(nr_span m)
{
    const char *p = m.p, *end = m.p + m.n;
    while (p < end && *p == ' ')
        p++;
    nr_span w = {p, 0};
    while (p + w.n < end && is_ident_char(p[w.n]))
        w.n++;
    if (span_eq(w, "S_IFIFO"))
        return NR_KIND_PIPE;
    if (span_eq(w, "S_IFSOCK"))
        return NR_KIND_SOCKET;
    if (span_eq(w, "S_IFCHR") || span_eq(w, "S_IFBLK"))
        return NR_KIND_DEVICE;
    if (span_eq(w, "S_IFDIR"))
        return NR_KIND_DIRECTORY;
    int64_t v;
    if (!w.n || w.p[0] < '0' || w.p[0] > '9' || nr_sarg_int(w, &v) < 0) /* octal, hex or decimal */
        return NR_KIND_UNKNOWN;
    switch (v & 0170000) {
    case 0010000: return NR_KIND_PIPE;
    case 0140000: return NR_KIND_SOCKET;
    case 0020000: case 0060000: return NR_KIND_DEVICE;
    case 0040000: return NR_KIND_DIRECTORY;
    default: return NR_KIND_UNKNOWN;
    }
}

/* Kind of the file a stat struct in s describes ("{st_mode=S_IFIFO|0644,
 * ...}", statx's "{stx_mask=..., stx_mode=...}"): the mode of the first
 * "_mode=" inside the first {...}. A stat struct holds no string, and its
 * mode comes before any nested struct. NR_KIND_UNKNOWN without one (a
 * failed call prints an address). */
static int kind_of_stat(nr_span s)
{
    const char *open = s.n ? memchr(s.p, '{', s.n) : NULL;
    if (!open)
        return NR_KIND_UNKNOWN;
    const char *end = s.p + s.n;
    const char *close = memchr(open, '}', (size_t)(end - open));
    if (close)
        end = close;
    static const char key[] = "_mode=";
    for (const char *u = open; (u = memchr(u, '_', (size_t)(end - u))) != NULL; u++)
        if ((size_t)(end - u) >= sizeof key - 1 && memcmp(u, key, sizeof key - 1) == 0)
            return kind_of_mode((nr_span){u + sizeof key - 1, (size_t)(end - u) - (sizeof key - 1)});
    return NR_KIND_UNKNOWN;
}

/* What a successful call's mode argument (mknod) or stat struct says the
 * file it names is (kind_of_mode, kind_of_stat); arg is that argument. */
static int kind_of_mode_arg(const nr_syscall_info *in, nr_span arg)
{
    return in->mode_in_stat ? kind_of_stat(arg) : kind_of_mode(arg);
}

/* A stat said that file is a directory: make_directory, as a listing of
 * it does (replay_plain_call), so that a speculative model need not
 * refuse its segment (known_directory). One stat through an fd the
 * segment has not seen names the real fd's file, which the segment cannot
 * change. */
static void learn_directory(nr_pm *pm, int64_t file)
{
    if (pm->adv_bits & NR_PM_GHOST_FILE)
        spec_refuse(pm, "a stat that says directory through an fd not yet seen in the segment");
    else
        make_directory(pm, file);
}

/* A call said that file is a fifo, a socket or a device (kind; a
 * directory is learn_directory's): a file the model holds for regular
 * takes that kind, and so do its open file descriptions (no offsets from
 * now on). The whole file changes, its
 * earlier calls too: a fifo is a pipe, not storage, from its mknod on
 * (and a fifo created outside the trace is learnt at the fstat an
 * open() makes). Other kinds stay: a path's own (/dev, /proc, pipe:[N])
 * and a directory. A speculative model refuses its segment instead of
 * guessing: the real model may hold the file for regular or not. */
static void learn_kind(nr_pm *pm, int64_t file, int kind)
{
    if (kind == NR_KIND_DIRECTORY) {
        learn_directory(pm, file);
        return;
    }
    if (file < 0 || kind == NR_KIND_UNKNOWN || file_at(pm, file)->kind != NR_KIND_REGULAR)
        return;
    if (pm->cfg.speculative)
        spec_refuse(pm, "a regular file that a stat or mknod says is a fifo, socket or device");
    file_at(pm, file)->kind = kind;
    for (size_t i = 0; i < pm->nofds; i++)
        if (pm->ofds[i].in_use && pm->ofds[i].file_id == file)
            pm->ofds[i].kind = (uint8_t)kind;
}

/* ---- paths ------------------------------------------------------------- */

/* Appends path[0..n) to out, resolving "." and ".." lexically and folding
 * repeated slashes. out holds an absolute or relative prefix already. */
static int path_append_normalized(nr_buf *out, const char *path, size_t n)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && path[i] == '/')
            i++;
        size_t start = i;
        while (i < n && path[i] != '/')
            i++;
        size_t len = i - start;
        if (len == 0 || (len == 1 && path[start] == '.'))
            continue;
        if (len == 2 && path[start] == '.' && path[start + 1] == '.') {
            /* pop a component unless there is none (or only "..") */
            size_t end = out->len;
            size_t slash = end;
            while (slash > 0 && out->data[slash - 1] != '/')
                slash--;
            int last_is_dotdot = end - slash == 2 && out->data[slash] == '.' && out->data[slash + 1] == '.';
            if (end > 0 && !(end == 1 && out->data[0] == '/') && !last_is_dotdot) {
                out->len = slash > 1 ? slash - 1 : slash;
                continue;
            }
            if (end == 1 && out->data[0] == '/')
                continue; /* "/.." is "/" */
        }
        if (out->len > 0 && out->data[out->len - 1] != '/')
            NR_TRY(nr_buf_put(out, "/", 1));
        NR_TRY(nr_buf_put(out, path + start, len));
    }
    return 0;
}

/* Resolves path[0..n) against base (NULL/"" = unknown) into pm->resolved
 * (NUL-terminated). */
static int resolve_path(nr_pm *pm, const char *base, const char *path, size_t n)
{
    nr_buf *out = &pm->resolved;
    out->len = 0;
    if (n > 0 && path[0] == '/') {
        NR_TRY(nr_buf_put(out, "/", 1));
    } else if (base && base[0]) {
        if (base[0] == '/')
            NR_TRY(nr_buf_put(out, "/", 1));
        NR_TRY(path_append_normalized(out, base, strlen(base)));
    }
    NR_TRY(path_append_normalized(out, path, n));
    if (out->len == 0)
        NR_TRY(nr_buf_put(out, ".", 1));
    NR_TRY(nr_buf_put(out, "", 1));
    out->len--;
    return 0;
}

/* ---- fd tables and open file descriptions -------------------------------- */

static int32_t ofd_new(nr_pm *pm, int64_t file_id, int kind)
{
    int32_t idx;
    if (pm->nfree) {
        idx = pm->ofd_free[--pm->nfree];
    } else {
        if (NR_GROW(pm->ofds, pm->ofds_cap, pm->nofds + 1) < 0)
            return NR_E_NOMEM;
        idx = (int32_t)pm->nofds++;
        memset(&pm->ofds[idx], 0, sizeof pm->ofds[idx]);
    }
    ofd *o = &pm->ofds[idx];
    o->file_id = file_id;
    o->offset = 0;
    o->refs = 1;
    o->append = 0;
    o->kind = (uint8_t)kind;
    o->offset_guessed = 0;
    o->in_use = 1;
    o->annot_len = 0;
    o->ghost = 0;
    return idx;
}

static void ofd_unref(nr_pm *pm, int32_t idx)
{
    ofd *o = &pm->ofds[idx];
    if (--o->refs > 0)
        return;
    o->in_use = 0;
    o->annot_len = 0;
    if (NR_GROW(pm->ofd_free, pm->free_cap, pm->nfree + 1) == 0)
        pm->ofd_free[pm->nfree++] = idx; /* on failure the slot is leaked, not reused */
}

static fdtab *fdtab_new(void)
{
    fdtab *t = calloc(1, sizeof *t);
    if (t)
        t->refs = 1;
    return t;
}

/* ---- the sparse part: fds from DENSE_FD_LIMIT up to INT_MAX -------------
 * Open addressing with linear probing and backward-shift deletion (Knuth
 * 6.4 algorithm R), so that a log of a million scattered high fds stays
 * linear and no tombstones pile up. */

static size_t high_home(int64_t fd, size_t nslots)
{
    uint64_t h = (uint64_t)fd * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 32) & (nslots - 1);
}

/* Slot of fd in the sparse part, or -1. */
static long high_find(const fdtab *t, int64_t fd)
{
    if (!t->nhigh)
        return -1;
    for (size_t s = high_home(fd, t->high_slots); t->high[s].fd >= 0; s = (s + 1) & (t->high_slots - 1))
        if (t->high[s].fd == fd)
            return (long)s;
    return -1;
}

/* Places an entry known to be absent (the table has room). */
static void high_place(fd_slot *slots, size_t nslots, fd_slot e)
{
    size_t s = high_home(e.fd, nslots);
    while (slots[s].fd >= 0)
        s = (s + 1) & (nslots - 1);
    slots[s] = e;
}

static int high_resize(fdtab *t, size_t nslots)
{
    fd_slot *slots = malloc(nslots * sizeof *slots);
    if (!slots)
        return NR_E_NOMEM;
    for (size_t s = 0; s < nslots; s++)
        slots[s].fd = -1;
    for (size_t s = 0; s < t->high_slots; s++)
        if (t->high[s].fd >= 0)
            high_place(slots, nslots, t->high[s]);
    free(t->high);
    t->high = slots;
    t->high_slots = nslots;
    return 0;
}

/* Adds fd (absent) with ofd idx; keeps the load at most one half. */
static int high_add(fdtab *t, int64_t fd, int32_t idx, int cloexec)
{
    if ((t->nhigh + 1) * 2 > t->high_slots) {
        if (t->high_slots > SIZE_MAX / 2 / sizeof *t->high)
            return NR_E_NOMEM;
        NR_TRY(high_resize(t, t->high_slots ? t->high_slots * 2 : 16));
    }
    high_place(t->high, t->high_slots, (fd_slot){.fd = (int32_t)fd, .ofd = idx, .cloexec = (uint8_t)(cloexec != 0)});
    t->nhigh++;
    return 0;
}

/* Empties slot s and moves back the entries of its probe run behind it. */
static void high_remove_at(fdtab *t, size_t s)
{
    size_t mask = t->high_slots - 1;
    size_t hole = s;
    for (size_t j = (s + 1) & mask; t->high[j].fd >= 0; j = (j + 1) & mask) {
        size_t home = high_home(t->high[j].fd, t->high_slots);
        /* the entry at j may fill the hole when its home is not in (hole, j] */
        int home_between = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!home_between) {
            t->high[hole] = t->high[j];
            hole = j;
        }
    }
    t->high[hole].fd = -1;
    t->nhigh--;
}

/* ---- the fd table ------------------------------------------------------ */

static void fdtab_release(nr_pm *pm, fdtab *t)
{
    if (!t)
        return;
    if (t->refs > 1)
        pm->tables_version++;
    if (--t->refs > 0)
        return;
    for (size_t fd = 0; fd < t->cap; fd++)
        if (t->ofd[fd] >= 0)
            ofd_unref(pm, t->ofd[fd]);
    for (size_t s = 0; s < t->high_slots; s++)
        if (t->high[s].fd >= 0)
            ofd_unref(pm, t->high[s].ofd);
    free(t->ofd);
    free(t->cloexec);
    free(t->high);
    free(t);
}

static int fdtab_reserve(fdtab *t, size_t fd)
{
    if (fd < t->cap)
        return 0;
    size_t cap = t->cap ? t->cap : 16;
    while (cap <= fd)
        cap *= 2;
    int32_t *o = realloc(t->ofd, cap * sizeof *o);
    if (!o)
        return NR_E_NOMEM;
    t->ofd = o;
    uint8_t *c = realloc(t->cloexec, cap);
    if (!c)
        return NR_E_NOMEM;
    t->cloexec = c;
    for (size_t i = t->cap; i < cap; i++)
        t->ofd[i] = -1, t->cloexec[i] = 0;
    t->cap = cap;
    return 0;
}

static inline int32_t fdtab_get(const fdtab *t, int64_t fd)
{
    if (fd >= 0 && (size_t)fd < t->cap)
        return t->ofd[fd];
    if (fd < DENSE_FD_LIMIT)
        return -1;
    long s = high_find(t, fd);
    return s >= 0 ? t->high[s].ofd : -1;
}

/* Speculative fd tables mark in the cloexec byte each fd the segment
 * closed or installed: its entry no longer stands for the real one. */
#define SPEC_TOUCHED 2u

static void spec_touch(nr_pm *pm, fdtab *t, int64_t fd)
{
    if (fd < 0 || fd > INT32_MAX)
        return;
    if (fd >= DENSE_FD_LIMIT || fdtab_reserve(t, (size_t)fd) < 0) {
        spec_refuse(pm, "an fd beyond the dense table");
        return;
    }
    t->cloexec[fd] |= SPEC_TOUCHED;
}

static void fdtab_close_fd(nr_pm *pm, fdtab *t, int64_t fd);

static void fdtab_close(nr_pm *pm, fdtab *t, int64_t fd)
{
    if (pm->cfg.speculative && fd >= 0 && (size_t)fd < t->cap && t->ofd[fd] >= 0 && pm->ofds[t->ofd[fd]].ghost)
        pm->ghosts[pm->ofds[t->ofd[fd]].ghost - 1].closed = 1;
    fdtab_close_fd(pm, t, fd);
    if (pm->cfg.speculative)
        spec_touch(pm, t, fd);
}

static void fdtab_close_fd(nr_pm *pm, fdtab *t, int64_t fd)
{
    if (fd >= 0 && (size_t)fd < t->cap) {
        if (t->ofd[fd] < 0)
            return;
        ofd_unref(pm, t->ofd[fd]);
        t->ofd[fd] = -1;
        t->cloexec[fd] = 0;
        return;
    }
    long s = fd >= DENSE_FD_LIMIT ? high_find(t, fd) : -1;
    if (s < 0)
        return;
    ofd_unref(pm, t->high[s].ofd);
    high_remove_at(t, (size_t)s);
}

/* Sets the close-on-exec flag of an open fd. */
static void fdtab_set_cloexec(fdtab *t, int64_t fd, int cloexec)
{
    if (fd >= 0 && (size_t)fd < t->cap) {
        t->cloexec[fd] = (uint8_t)(cloexec != 0);
        return;
    }
    long s = fd >= DENSE_FD_LIMIT ? high_find(t, fd) : -1;
    if (s >= 0)
        t->high[s].cloexec = (uint8_t)(cloexec != 0);
}

/* A value beyond int is not an fd (the kernel's fds are ints up to
 * fs.nr_open): counted (diagnostics reason fd_out_of_range) so that the I/O
 * that has no file is visible. */
static int note_fd_out_of_range(nr_pm *pm, int64_t fd)
{
    if (!pm->cfg.diag)
        return 0;
    char msg[96];
    int n = snprintf(msg, sizeof msg, "fd %lld is beyond int: its I/O has no file", (long long)fd);
    const nr_pm_where *w = pm->where;
    return nr_diag_add(pm->cfg.diag, "fd_out_of_range", w ? w->file : NULL, w ? w->line : 0, msg, (size_t)n) < 0
               ? NR_E_NOMEM
               : 0;
}

/* Installs ofd idx at fd (taking one reference), closing what was there. */
static int fdtab_install(nr_pm *pm, fdtab *t, int64_t fd, int32_t idx, int cloexec)
{
    if (fd < 0 || fd > INT32_MAX) {
        ofd_unref(pm, idx);
        return fd > INT32_MAX ? note_fd_out_of_range(pm, fd) : 0;
    }
    fdtab_close(pm, t, fd);
    if (fd >= DENSE_FD_LIMIT) {
        if (pm->cfg.speculative)
            spec_refuse(pm, "an fd beyond the dense table");
        int rc = high_add(t, fd, idx, cloexec);
        if (rc < 0)
            ofd_unref(pm, idx);
        return rc;
    }
    NR_TRY(fdtab_reserve(t, (size_t)fd));
    t->ofd[fd] = idx;
    t->cloexec[fd] = (uint8_t)((cloexec != 0) | (pm->cfg.speculative ? SPEC_TOUCHED : 0));
    return 0;
}

static fdtab *fdtab_copy(nr_pm *pm, const fdtab *src)
{
    fdtab *t = fdtab_new();
    if (!t)
        return NULL;
    if ((src->cap && fdtab_reserve(t, src->cap - 1) < 0) ||
        (src->high_slots && !(t->high = malloc(src->high_slots * sizeof *t->high)))) {
        fdtab_release(pm, t);
        return NULL;
    }
    for (size_t fd = 0; fd < src->cap; fd++) {
        t->ofd[fd] = src->ofd[fd];
        t->cloexec[fd] = src->cloexec[fd];
        if (src->ofd[fd] >= 0)
            pm->ofds[src->ofd[fd]].refs++;
    }
    if (src->high_slots)
        memcpy(t->high, src->high, src->high_slots * sizeof *t->high);
    t->high_slots = src->high_slots;
    t->nhigh = src->nhigh;
    for (size_t s = 0; s < t->high_slots; s++)
        if (t->high[s].fd >= 0)
            pm->ofds[t->high[s].ofd].refs++;
    return t;
}

/* Whether fd (open) goes: in [first, last], and marked close-on-exec when
 * only those are asked for. */
typedef struct fd_filter {
    int64_t first, last;
    int cloexec_only;
} fd_filter;

static int fd_selected(const fd_filter *f, int64_t fd, uint8_t cloexec)
{
    return fd >= f->first && fd <= f->last && (!f->cloexec_only || cloexec);
}

/* Closes the selected fds (close_range, execve). Visits only the open fds
 * of the dense part in range and the entries of the sparse part, never each
 * value of a range up to INT_MAX. */
static void fdtab_close_selected(nr_pm *pm, fdtab *t, const fd_filter *f)
{
    size_t end = f->last < (int64_t)t->cap ? (size_t)f->last + 1 : t->cap;
    for (size_t fd = f->first > 0 ? (size_t)f->first : 0; fd < end; fd++)
        if (t->ofd[fd] >= 0 && fd_selected(f, (int64_t)fd, t->cloexec[fd]))
            fdtab_close(pm, t, (int64_t)fd);
    /* a removal can move a later entry into the slot just emptied: look again */
    for (size_t s = 0; s < t->high_slots;) {
        if (t->high[s].fd >= 0 && fd_selected(f, t->high[s].fd, t->high[s].cloexec)) {
            ofd_unref(pm, t->high[s].ofd);
            high_remove_at(t, s);
        } else {
            s++;
        }
    }
}

/* Marks the open fds in [first, last] close-on-exec (CLOSE_RANGE_CLOEXEC). */
static void fdtab_mark_cloexec(fdtab *t, int64_t first, int64_t last)
{
    size_t end = last < (int64_t)t->cap ? (size_t)last + 1 : t->cap;
    for (size_t fd = first > 0 ? (size_t)first : 0; fd < end; fd++)
        if (t->ofd[fd] >= 0)
            t->cloexec[fd] = 1;
    for (size_t s = 0; s < t->high_slots; s++)
        if (t->high[s].fd >= first && t->high[s].fd <= last)
            t->high[s].cloexec = 1;
}

static fsinfo *fs_new(const char *cwd)
{
    fsinfo *fs = calloc(1, sizeof *fs);
    if (!fs)
        return NULL;
    fs->refs = 1;
    if (!(fs->cwd = strdup(cwd))) {
        free(fs);
        return NULL;
    }
    return fs;
}

static void fs_release(fsinfo *fs)
{
    if (!fs || --fs->refs > 0)
        return;
    free(fs->cwd);
    free(fs);
}

static int fs_set_cwd(fsinfo *fs, const char *cwd, size_t n)
{
    char *copy = malloc(n + 1);
    if (!copy)
        return NR_E_NOMEM;
    memcpy(copy, cwd, n);
    copy[n] = '\0';
    free(fs->cwd);
    fs->cwd = copy;
    return 0;
}

/* Gives t a table of its own, a copy, when it shares one (execve,
 * close_range's CLOSE_RANGE_UNSHARE, unshare's CLONE_FILES). */
static int unshare_fds(nr_pm *pm, task *t)
{
    if (t->fds->refs <= 1)
        return 0;
    fdtab *copy = fdtab_copy(pm, t->fds);
    if (!copy)
        return NR_E_NOMEM;
    fdtab_release(pm, t->fds);
    t->fds = copy;
    return 0;
}

/* Gives t a cwd of its own when it shares one (unshare's CLONE_FS). */
static int unshare_fs(task *t)
{
    if (t->fs->refs <= 1)
        return 0;
    fsinfo *copy = fs_new(t->fs->cwd);
    if (!copy)
        return NR_E_NOMEM;
    fs_release(t->fs);
    t->fs = copy;
    return 0;
}

/* ---- tasks ------------------------------------------------------------- */

static size_t tid_slot(int64_t tid, size_t nslots)
{
    uint64_t h = (uint64_t)tid * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (nslots - 1);
}

static task *task_lookup(nr_pm *pm, int64_t tid)
{
    if (!pm->task_nslots)
        return NULL;
    for (size_t s = tid_slot(tid, pm->task_nslots); pm->task_slots[s]; s = (s + 1) & (pm->task_nslots - 1)) {
        task *t = pm->tasks[pm->task_slots[s] - 1];
        if (t->tid == tid)
            return pm->recent_tasks[(uint64_t)tid & (TASK_CACHE_SLOTS - 1)] = t;
    }
    return NULL;
}

static int task_index_rebuild(nr_pm *pm, size_t nslots)
{
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return NR_E_NOMEM;
    for (size_t i = 0; i < pm->ntasks; i++) {
        /* of two tasks with one tid (reuse), the later one is found */
        int64_t tid = pm->tasks[i]->tid;
        size_t s = tid_slot(tid, nslots);
        while (slots[s] && pm->tasks[slots[s] - 1]->tid != tid)
            s = (s + 1) & (nslots - 1);
        if (!slots[s] || pm->tasks[slots[s] - 1]->serial < pm->tasks[i]->serial)
            slots[s] = (uint32_t)(i + 1);
    }
    free(pm->task_slots);
    pm->task_slots = slots;
    pm->task_nslots = nslots;
    return 0;
}

/* The task of tid, or NULL. A job's lines come from a few dozen tasks,
 * interleaved: a small direct-mapped cache in front of the index. */
static inline task *task_find(nr_pm *pm, int64_t tid)
{
    task *t = pm->recent_tasks[(uint64_t)tid & (TASK_CACHE_SLOTS - 1)];
    if (t && t->tid == tid)
        return t;
    return task_lookup(pm, tid);
}

/* Adds a task with no fd table or fs yet (the caller sets them). */
static task *task_add(nr_pm *pm, int64_t tid)
{
    if (NR_GROW(pm->tasks, pm->tasks_cap, pm->ntasks + 1) < 0)
        return NULL;
    if ((pm->ntasks + 1) * 2 > pm->task_nslots &&
        task_index_rebuild(pm, pm->task_nslots ? pm->task_nslots * 2 : 64) < 0)
        return NULL;
    task *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->tid = t->pid = tid;
    t->ppid = t->parent_tid = -1;
    t->first_ts = t->last_ts = t->end_ts = -1;
    t->exit_code = -1;
    t->early_child = -1;
    nr_buf_init(&t->pending_text);
    t->serial = pm->ntasks;
    t->leader = t;
    pm->tasks[pm->ntasks] = t;
    /* a reused tid: the slot of the exited task now names the new one */
    size_t s = tid_slot(tid, pm->task_nslots);
    while (pm->task_slots[s] && pm->tasks[pm->task_slots[s] - 1]->tid != tid)
        s = (s + 1) & (pm->task_nslots - 1);
    if (pm->task_slots[s])
        t->older = pm->tasks[pm->task_slots[s] - 1];
    pm->task_slots[s] = (uint32_t)(pm->ntasks + 1);
    pm->ntasks++;
    pm->live_tasks++;
    return pm->recent_tasks[(uint64_t)tid & (TASK_CACHE_SLOTS - 1)] = t;
}

/* Gives child the fd table and fs of parent according to clone flags. */
static int task_inherit(nr_pm *pm, task *child, task *parent, int thread, int share_files, int share_fs)
{
    if (child == parent) /* a garbled log: a task cannot be its own child */
        return 0;
    fdtab_release(pm, child->fds);
    fs_release(child->fs);
    child->fds = NULL;
    child->fs = NULL;
    if (thread || share_files) {
        child->fds = parent->fds;
        parent->fds->refs++;
        pm->tables_version++;
    } else if (!(child->fds = fdtab_copy(pm, parent->fds))) {
        return NR_E_NOMEM;
    }
    if (thread || share_fs) {
        child->fs = parent->fs;
        parent->fs->refs++;
    } else if (!(child->fs = fs_new(parent->fs->cwd))) {
        return NR_E_NOMEM;
    }
    child->is_thread = (uint8_t)(thread != 0);
    child->annotated = parent->annotated;
    child->pid = thread ? parent->pid : child->tid;
    child->ppid = thread ? parent->ppid : parent->pid;
    child->parent_tid = parent->tid;
    /* a task made before its parent is a garbled log's: no cycle */
    child->parent = parent->serial < child->serial ? parent : NULL;
    child->leader = thread ? parent->leader : child;
    return 0;
}

/* The value after "flags=" in clone's or clone3's arguments ("CLONE_VM|...",
 * or "0x50f00|17" with -X raw), up to the next ',' or '}'. */
static nr_span clone_flags_value(nr_span args)
{
    static const char key[] = "flags=";
    for (size_t i = 0; i + sizeof key - 1 <= args.n; i++) {
        if (memcmp(args.p + i, key, sizeof key - 1) != 0 || (i > 0 && is_ident_char(args.p[i - 1])))
            continue;
        size_t start = i + sizeof key - 1, end = start;
        while (end < args.n && args.p[end] != ',' && args.p[end] != '}')
            end++;
        return (nr_span){args.p + start, end - start};
    }
    return args;
}

/* Clone flags of a clone/clone3 call (fork and vfork share nothing); raw
 * bits from include/uapi/linux/sched.h for -X raw. */
static void clone_flags(nr_span name, nr_span args, int *thread, int *files, int *fs)
{
    int is_clone = span_eq(name, "clone") || span_eq(name, "clone3");
    nr_span flags = clone_flags_value(args);
    *thread = is_clone && flag_present(flags, "CLONE_THREAD", 0x10000);
    *files = is_clone && flag_present(flags, "CLONE_FILES", 0x400);
    *fs = is_clone && flag_present(flags, "CLONE_FS", 0x200);
}

static int is_clone_name(nr_span name)
{
    return span_eq(name, "clone") || span_eq(name, "clone3") || span_eq(name, "fork") || span_eq(name, "vfork");
}

/* A task with a pending clone that a newly seen tid may belong to: the
 * earliest pending clone (then the lowest tid) without an early child yet. */
static task *pending_clone_parent(nr_pm *pm)
{
    task *best = NULL;
    if (pm->pending_clones == 0) /* the usual case: no scan, so a million processes stay linear */
        return NULL;
    for (size_t i = 0; i < pm->ntasks; i++) {
        task *t = pm->tasks[i];
        if (!t->pending || t->exited || t->early_child >= 0)
            continue;
        nr_span name = {(const char *)t->pending_text.data, t->pending_name_len};
        if (!is_clone_name(name))
            continue;
        if (!best || t->pending_ts < best->pending_ts || (t->pending_ts == best->pending_ts && t->tid < best->tid))
            best = t;
    }
    return best;
}

/* Makes t (new, of task_add) a root: an empty fd table, cwd cwd. */
static int make_root(task *t, const char *cwd)
{
    t->origin = ORIGIN_ROOT;
    t->fds = fdtab_new();
    t->fs = fs_new(cwd);
    return t->fds && t->fs ? 0 : NR_E_NOMEM;
}

/* Speculative: new task t takes the fd table of the segment's task of its
 * table in the hint (nr_pm_spec_tables), if there is one. */
static void spec_share_table(nr_pm *pm, task *t)
{
    for (size_t i = 0; i < pm->nspec_tables && !t->table_hint; i++)
        if (pm->spec_tables[i].tid == t->tid)
            t->table_hint = pm->spec_tables[i].table;
    for (size_t i = 0; t->table_hint && i < pm->ntasks; i++) {
        task *u = pm->tasks[i];
        if (u != t && u->table_hint == t->table_hint) {
            fdtab_release(pm, t->fds);
            t->fds = u->fds;
            u->fds->refs++;
            return;
        }
    }
}

/* 1 + the id of log name file in pm->seen_logs (added when new); 0 with
 * no file (a line fed without where) or out of memory. */
static uint32_t seen_log_index(nr_pm *pm, const char *file)
{
    const int64_t id = file ? nr_strtab_intern(&pm->seen_logs, file, strlen(file)) : -1;
    return id >= 0 && id < UINT32_MAX ? (uint32_t)(id + 1) : 0;
}

/* Notes where root t was first seen (note_tasks_without_clone). */
static void note_root_seen(nr_pm *pm, task *t)
{
    const nr_pm_where *w = pm->where;
    t->seen_log = seen_log_index(pm, w ? w->file : NULL);
    /* a log's pid from its -ff name; the synthetic ones (2^22 and up, of logs
       without a pid in their names) are traces of their own */
    t->seen_ff = pm->where_file_pid >= 0 && pm->where_file_pid < ((int64_t)1 << 22);
    t->seen_line = w ? w->line : 0;
}

/* A task seen for the first time: the child of a pending clone, or a root. */
static task *task_new_seen(nr_pm *pm, int64_t tid, nr_error *err)
{
    if (pm->cfg.speculative && pm->pending_clones)
        spec_refuse(pm, "a task seen while a clone is pending");
    task *parent = pm->cfg.speculative ? NULL : pending_clone_parent(pm);
    task *t = task_add(pm, tid);
    if (!t) {
        nr_error_set(err, NR_E_NOMEM, "ingest: out of memory (tasks)");
        return NULL;
    }
    if (parent) {
        nr_span name = {(const char *)parent->pending_text.data, parent->pending_name_len};
        nr_span args = {name.p + name.n + 1, parent->pending_text.len - name.n - 1};
        int thread, files, fs;
        clone_flags(name, args, &thread, &files, &fs);
        if (task_inherit(pm, t, parent, thread, files, fs) < 0) {
            nr_error_set(err, NR_E_NOMEM, "ingest: out of memory (tasks)");
            return NULL;
        }
        t->origin = ORIGIN_EARLY_CHILD;
        parent->early_child = tid;
        return t;
    }
    /* a speculative task's cwd: unknown */
    if (make_root(t, pm->cfg.speculative ? "" : pm->start_cwd) < 0) {
        nr_error_set(err, NR_E_NOMEM, "ingest: out of memory (tasks)");
        return NULL;
    }
    note_root_seen(pm, t);
    if (pm->nspec_tables)
        spec_share_table(pm, t);
    return t;
}

/* The task a line without pid prefix belongs to (stderr mode): the only live
 * task; else the task of the previous unprefixed line while it lives; else
 * the first task; else a new root with the looked-ahead pid (or 0). */
static task *task_for_unprefixed(nr_pm *pm, nr_error *err)
{
    /* checked first (same answer as the rule order): no scan per line */
    if (pm->last_unprefixed && !pm->last_unprefixed->exited)
        return pm->last_unprefixed;
    if (pm->live_tasks == 1) {
        for (size_t i = pm->ntasks; i-- > 0;)
            if (!pm->tasks[i]->exited)
                return pm->last_unprefixed = pm->tasks[i];
    }
    if (pm->ntasks)
        return pm->last_unprefixed = pm->tasks[0];
    task *t = task_new_seen(pm, pm->root_pid, err);
    return pm->last_unprefixed = t;
}

/* ---- events ------------------------------------------------------------ */

/* A move of a ghost's offset, as the segment made it (bits: ADVANCE by
 * bytes, as a WRITE, or SEEK to at); the stitch puts the real offset it
 * gives the event in offset and guessed. */
typedef struct ghost_op {
    uint32_t ghost;
    uint8_t bits, guessed;
    uint8_t bare;             /* before the ghost's first annotation: its kind (seekable or not) was unknown */
    int64_t bytes, at, offset;
} ghost_op;

static void note_ghost_op(nr_pm *pm, const nr_pm_event *ev)
{
    if (pm->adv_bits & (NR_PM_GHOST_ADVANCE | NR_PM_GHOST_SEEK)) {
        if (NR_GROW(pm->ghost_ops, pm->ghost_ops_cap, pm->nghost_ops + 1) < 0)
            spec_refuse(pm, "out of memory");
        else
            pm->ghost_ops[pm->nghost_ops++] = (ghost_op){.ghost = pm->adv_ghost, .bits = pm->adv_bits,
                                                         .bare = !pm->ghosts[pm->adv_ghost - 1].annotated,
                                                         .bytes = ev->bytes, .at = pm->adv_seek};
    }
    pm->adv_ghost = 0;
    pm->adv_bits = 0;
}

/* Completes ev (the task's and the syscall's columns, result) and hands it
 * to the emit callback. */
static inline __attribute__((always_inline)) int emit_event(nr_pm *pm, task *t, nr_pm_event *ev,
                                                            const nr_syscall_info *info, int64_t result,
                                                            nr_error *err)
{
    ev->pid = t->pid;
    ev->tid = t->tid;
    ev->op_class = info ? info->op : NR_OP_OTHER;
    ev->syscall_ref = info ? (uint16_t)(NR_SLINE_SYSCALL_FIRST + (size_t)(info - pm->syscall_table))
                           : NR_SLINE_SYSCALL_NONE;
    ev->result = result;
    ev->ghost = pm->adv_ghost;
    ev->ghost_bits = pm->adv_bits;
    if (pm->adv_bits) /* speculative models only */
        note_ghost_op(pm, ev);
    t->events++;
    pm->counts.events++;
    if (ev->ts_ns >= 0) {
        if (t->first_ts < 0)
            t->first_ts = ev->ts_ns;
        if (ev->ts_ns > t->last_ts)
            t->last_ts = ev->ts_ns;
    }
    return pm->cfg.emit ? pm->cfg.emit(pm->cfg.emit_ctx, ev, err) : 0;
}

static int emit(nr_pm *pm, task *t, call *c, nr_error *err)
{
    return emit_event(pm, t, &c->ev, c->info, c->ok ? c->result : -1, err);
}

/* A speculative model's ghost for fd of t: an ofd that stands for what the
 * real fd table holds at the segment's start (maybe nothing), made on the
 * first look-up of an fd the segment has not closed or installed. Returns
 * its index, -1 when fd was touched (the segment's own entry is the truth),
 * or NR_E_NOMEM. */
static int32_t spec_ghost_of(nr_pm *pm, task *t, int64_t fd, int create)
{
    if (fd >= DENSE_FD_LIMIT) {
        spec_refuse(pm, "an fd beyond the dense table");
        return -1;
    }
    if ((size_t)fd < t->fds->cap && (t->fds->cloexec[fd] & SPEC_TOUCHED))
        return -1;
    NR_TRY(NR_GROW(pm->ghosts, pm->ghosts_cap, pm->nghosts + 1));
    int32_t idx = ofd_new(pm, -1, NR_KIND_UNKNOWN);
    if (idx < 0)
        return idx;
    NR_TRY(fdtab_reserve(t->fds, (size_t)fd));
    t->fds->ofd[fd] = idx; /* not touched: it is the real entry */
    t->fds->cloexec[fd] = 0;
    ofd *o = &pm->ofds[idx];
    o->offset_guessed = 1;
    o->ghost = (uint32_t)++pm->nghosts;
    pm->ghosts[pm->nghosts - 1] = (spec_ghost){.tid = t->tid, .fd = fd, .materialized = (uint8_t)create};
    return idx;
}

/* The ofd an fd refers to; created (offset unknown) when the fd was never
 * seen opened and `create` is set. -1 when none. */
static int32_t ofd_of_fd(nr_pm *pm, task *t, int64_t fd, int create)
{
    int32_t idx = fdtab_get(t->fds, fd);
    if (idx >= 0) {
        if (create && pm->ofds[idx].ghost)
            pm->ghosts[pm->ofds[idx].ghost - 1].materialized = 1;
        return idx;
    }
    if (pm->cfg.speculative && fd >= 0 && fd <= INT32_MAX && (idx = spec_ghost_of(pm, t, fd, create)) != -1)
        return idx;
    if (!create || fd < 0 || fd > INT32_MAX)
        return idx;
    idx = ofd_new(pm, -1, NR_KIND_UNKNOWN);
    if (idx < 0)
        return idx;
    pm->ofds[idx].offset_guessed = 1;
    if (fdtab_install(pm, t->fds, fd, idx, 0) < 0)
        return NR_E_NOMEM;
    return idx;
}

/* Whether the lexer's scan of "<annot>" (skip_angle in strace_line.c) stops
 * exactly at the '>' after annot: annot has no quote, backslash or angle
 * bracket, and does not end in '-' (a "->" inside brackets is no end).
 * special: has_annot_special(annot). */
static int annot_is_plain(nr_span annot, int special)
{
    return annot.n && annot.p[annot.n - 1] != '-' && !special;
}

/* Keeps annotation p[0..n) in o (the cache ofd_apply_annotation and
 * fd_text_known compare lines against). 0 or NR_E_NOMEM. */
static int ofd_keep_annot(ofd *o, const char *p, size_t n, int plain)
{
    if (n > o->annot_cap) {
        char *a = realloc(o->annot, n);
        if (!a)
            return NR_E_NOMEM;
        o->annot = a;
        o->annot_cap = (uint32_t)n;
    }
    if (n)
        memcpy(o->annot, p, n);
    o->annot_len = (uint32_t)n;
    o->annot_plain = (uint8_t)plain;
    return 0;
}

/* Applies a -y annotation to ofd idx (cached: unchanged annotations are not
 * decoded again); keep_deleted as for file_of_annotation. */
static int ofd_apply_annotation_kept(nr_pm *pm, int32_t idx, nr_span annot, int keep_deleted)
{
    ofd *o = &pm->ofds[idx];
    pm->counts.annotated_fds++;
    if (o->annot_len == annot.n && o->file_id >= 0 && memcmp(o->annot, annot.p, annot.n) == 0)
        return 0;
    int special = has_annot_special(annot.p, annot.n);
    int64_t id = file_of_annotation(pm, annot, special, keep_deleted);
    if (id < -1)
        return (int)id;
    o = &pm->ofds[idx];
    NR_TRY(ofd_keep_annot(o, annot.p, annot.n, annot_is_plain(annot, special)));
    if (id >= 0) {
        o->file_id = id;
        o->kind = (uint8_t)file_at(pm, id)->kind;
    }
    if (o->ghost && pm->ghosts[o->ghost - 1].annotated)
        pm->ghosts[o->ghost - 1].reannotated = 1;
    if (o->ghost && !pm->ghosts[o->ghost - 1].annotated) {
        spec_ghost *g = &pm->ghosts[o->ghost - 1];
        g->file_at_annot = o->file_id;
        if (!(g->first_annot = malloc(annot.n ? annot.n : 1)))
            return NR_E_NOMEM;
        memcpy(g->first_annot, annot.p, annot.n);
        g->first_annot_len = annot.n;
        g->kind_at_annot = o->kind;
        g->annotated = 1;
    }
    return 0;
}

static int ofd_apply_annotation(nr_pm *pm, int32_t idx, nr_span annot)
{
    return ofd_apply_annotation_kept(pm, idx, annot, 0);
}

/* a[0..n) == b[0..n), inline: the annotation an fd already holds against
 * the line's (20 to 100 bytes), 16 bytes per SSE2 step, the last step the
 * 16 bytes that end at n. */
static inline __attribute__((always_inline)) int bytes_equal(const char *a, const char *b, size_t n)
{
#ifdef __SSE2__
    if (n >= 16) {
        for (size_t i = 0; i + 16 < n; i += 16)
            if (_mm_movemask_epi8(_mm_cmpeq_epi8(load16(a + i), load16(b + i))) != 0xFFFF)
                return 0;
        return _mm_movemask_epi8(_mm_cmpeq_epi8(load16(a + n - 16), load16(b + n - 16))) == 0xFFFF;
    }
#endif
    return memcmp(a, b, n) == 0;
}

/* The rest of fd_text_quick after the fd v, at p = its '<': the annotation
 * must be byte for byte the plain one ofd of v holds (the hot path). */
static inline __attribute__((always_inline)) int fd_text_known(const nr_pm *pm, const task *t, int64_t v,
                                                               const char *p, const char *end, fd_text *out)
{
    int32_t idx = fdtab_get(t->fds, v);
    if (idx < 0)
        return -1;
    const ofd *o = &pm->ofds[idx];
    size_t n = o->annot_len;
    const char *a = p + 1;
    if (!o->annot_plain || o->file_id < 0 || (size_t)(end - a) < n + 1 || a[n] != '>' || !bytes_equal(a, o->annot, n))
        return -1;
    p = a + n + 1;
    if (p < end && *p != ',')
        return -1;
    out->fd = v;
    out->annot = (nr_span){a, n};
    out->known_idx = idx;
    out->stop = p;
    return 0;
}

/* Reads argument 0 of args as the forms of fd_text describe; 0, or -1 when
 * the lexer must read it. */
static inline __attribute__((always_inline)) int fd_text_quick(const nr_pm *pm, const task *t, nr_span args, fd_text *out)
{
    const char *p = args.p, *end = args.p + args.n;
    if (!p)
        return -1;
    if (end - p >= 3) { /* the commonest: "N<" or "NN<" */
        unsigned d0 = (unsigned char)p[0] - (unsigned)'0', d1 = (unsigned char)p[1] - (unsigned)'0';
        if (d0 < 10u && d1 >= 10u && p[1] == '<')
            return fd_text_known(pm, t, d0, p + 1, end, out);
        if (d0 < 10u && d1 < 10u && p[2] == '<')
            return fd_text_known(pm, t, d0 * 10 + d1, p + 2, end, out);
    }
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    const char *digits = p;
    int64_t v = 0;
    unsigned d0 = p < end ? (unsigned char)p[0] - (unsigned)'0' : 10u;
    unsigned d1 = end - p >= 2 ? (unsigned char)p[1] - (unsigned)'0' : 10u;
    if (d0 < 10u && d1 >= 10u) { /* most fds have one or two digits */
        v = d0;
        p += 1;
    } else if (d0 < 10u && d1 < 10u && (end - p == 2 || (unsigned char)p[2] - (unsigned)'0' >= 10u)) {
        v = d0 * 10 + d1;
        p += 2;
    } else {
        size_t room = (size_t)(end - p) < 10 ? (size_t)(end - p) : 10; /* INT_MAX has 10 digits */
        for (unsigned d; room > 0 && (d = (unsigned char)*p - (unsigned)'0') < 10u; room--, p++)
            v = v * 10 + d;
    }
    int at_fdcwd = p == digits && end - p >= 8 && memcmp(p, "AT_FDCWD", 8) == 0;
    if (at_fdcwd) {
        v = AT_FDCWD_VALUE;
        p += 8;
    } else if (p == digits || v > INT32_MAX) {
        return -1;
    }
    out->fd = v;
    out->annot = (nr_span){p, 0};
    out->known_idx = -1;
    if (at_fdcwd && p < end && *p == '<') { /* the cwd: plain up to the first '>' */
        const char *gt = memchr(p + 1, '>', (size_t)(end - p - 1));
        nr_span annot = {p + 1, gt ? (size_t)(gt - p - 1) : 0};
        if (!gt || !annot_is_plain(annot, has_annot_special(annot.p, annot.n)))
            return -1;
        out->annot = annot;
        p = gt + 1;
    } else if (p < end && *p == '<') {
        return fd_text_known(pm, t, v, p, end, out);
    }
    if (p < end && *p != ',')
        return -1;
    out->stop = p;
    return 0;
}

/* An fd argument that is no fd: a number beyond int is counted
 * (note_fd_out_of_range); other text (a NULL, a struct) is not an fd use. */
static int32_t fd_arg_unparsed(nr_pm *pm, nr_span args, unsigned arg)
{
    int64_t v;
    if (nr_sarg_int(nr_sarg(args, arg), &v) == 0 && (v > INT32_MAX || v < INT32_MIN))
        return note_fd_out_of_range(pm, v) < 0 ? NR_E_NOMEM : -1;
    return -1;
}

/* An fd argument printed with the annotation the model holds for it (the
 * fast paths' known_idx): counted, and t known to print -y annotations. */
static inline void note_known_annotation(nr_pm *pm, task *t)
{
    pm->counts.annotated_fds++;
    t->annotated = 1;
}

/* The description of fd (made when the model has none), named by its -y
 * annotation when it has one: or -1, or NR_E_NOMEM. */
static int32_t ofd_of_annotated(nr_pm *pm, task *t, int64_t fd, nr_span annot)
{
    if (annot.n)
        t->annotated = 1;
    int32_t idx = ofd_of_fd(pm, t, fd, 1);
    if (idx >= 0 && annot.n)
        NR_TRY(ofd_apply_annotation(pm, idx, annot));
    return idx;
}

/* Parses fd argument arg (quick: argument 0 read by fd_text_quick, or
 * NULL); returns its ofd (created if unseen) or -1, and the fd. */
static int32_t ofd_of_arg(nr_pm *pm, task *t, nr_span args, unsigned arg, const fd_text *quick, int64_t *fd_out)
{
    int64_t fd;
    nr_span annot = {0};
    *fd_out = -1;
    if (quick) {
        fd = quick->fd;
        annot = quick->annot;
        if (quick->known_idx >= 0) { /* ofd_apply_annotation would find it unchanged */
            *fd_out = fd;
            note_known_annotation(pm, t);
            return quick->known_idx;
        }
    } else if (nr_sarg_fd_at(args, arg, &fd, &annot) < 0) {
        return fd_arg_unparsed(pm, args, arg);
    }
    *fd_out = fd;
    if (fd < 0)
        return -1;
    if (!annot.n && pm->cfg.speculative && !t->annotated)
        pm->bare_before_annot = 1; /* right only if the real task has seen no annotation either */
    if (!annot.n && t->annotated) {
        /* with -y strace annotates every open fd: one printed bare is not
         * open (e.g. -Z logs only failed calls, so the close is missing).
         * Per task, not per ingest: until session 45 one -y line anywhere
         * (a -y log and a plain one in one run) voided every later bare fd,
         * those of the plain log's own opens too. */
        fdtab_close(pm, t->fds, fd);
        return -1;
    }
    return ofd_of_annotated(pm, t, fd, annot);
}

static int64_t ofd_file(const nr_pm *pm, int32_t idx) { return idx >= 0 ? pm->ofds[idx].file_id : -1; }

/* Offsets only mean something for regular files (and unknown kinds). */
static int ofd_seekable(nr_pm *pm, int32_t idx)
{
    int kind = pm->ofds[idx].kind;
    if (pm->cfg.speculative && kind == NR_KIND_REGULAR && pm->ofds[idx].file_id >= 0)
        pm->kind_used[pm->ofds[idx].file_id] = 1; /* see known_directory */
    return kind == NR_KIND_REGULAR || kind == NR_KIND_UNKNOWN;
}

/* Offset a transfer of `bytes` at the fd's position started at; advances it. */
static int64_t ofd_advance(nr_pm *pm, int32_t idx, int64_t bytes, int is_write, uint32_t *flags)
{
    if (idx < 0 || !ofd_seekable(pm, idx))
        return -1;
    ofd *o = &pm->ofds[idx];
    if (is_write && o->append) {
        o->offset = -1; /* the end of the file: unknown to the trace */
        return -1;
    }
    if (o->offset < 0)
        return -1;
    int64_t at = o->offset;
    if (o->offset_guessed)
        *flags |= NR_EVF_OFFSET_GUESSED;
    if (bytes > 0 && __builtin_add_overflow(o->offset, bytes, &o->offset))
        o->offset = -1; /* past 2^63 - 1: no offset a file can have, unknown from here */
    if (o->ghost) { /* the stitch replays the move on the real offset */
        pm->adv_ghost = o->ghost;
        pm->adv_bits |= NR_PM_GHOST_ADVANCE | (is_write ? NR_PM_GHOST_WRITE : 0);
    }
    return at;
}

/* The open file description of dirfd (not AT_FDCWD), or -1, or NR_E_NOMEM.
 * Its -y annotation is the kernel's path of the fd now, and wins over what
 * the model holds, as for an fd argument (ofd_of_arg): an fd the model
 * never saw opened (inherited, or passed over a socket) gets a description,
 * and one whose description names another file (the model out of date)
 * names the annotation's. */
static int32_t ofd_of_dirfd(nr_pm *pm, task *t, int64_t dirfd, nr_span annot)
{
    return annot.n ? ofd_of_annotated(pm, t, dirfd, annot) : ofd_of_fd(pm, t, dirfd, 0);
}

/* Base directory for a relative path: cwd, or the path of dirfd. */
static const char *base_dir(nr_pm *pm, task *t, int64_t dirfd, nr_span dirfd_annot)
{
    if (dirfd == AT_FDCWD_VALUE) {
        if (dirfd_annot.n) {
            long n = decode(pm, dirfd_annot); /* -y prints AT_FDCWD</cwd>: the annotation wins */
            const char *cwd = t->fs->cwd;
            int same = n >= 0 && strlen(cwd) == (size_t)n && memcmp(cwd, pm->decode, (size_t)n) == 0;
            if (n > 0 && pm->decode[0] == '/' && !same)
                fs_set_cwd(t->fs, pm->decode, (size_t)n); /* out of memory: the old cwd stays */
            if (n > 0 && pm->decode[0] == '/')
                t->fs->cwd_set = 1;
        }
        if (pm->cfg.speculative && !t->fs->cwd_set)
            spec_refuse(pm, "a path relative to a cwd not yet seen in the segment");
        return t->fs->cwd;
    }
    int32_t idx = ofd_of_dirfd(pm, t, dirfd, dirfd_annot);
    if (idx < -1)
        return NULL;
    if (idx >= 0 && pm->ofds[idx].ghost && pm->ofds[idx].file_id < 0)
        spec_refuse(pm, "a path relative to a dirfd not yet seen in the segment");
    int64_t id = ofd_file(pm, idx);
    if (id < 0)
        return NULL;
    return nr_strtab_str(&pm->paths, (size_t)id);
}

/* Argument i >= 1 of a call, found without scanning the fd argument again
 * when ofd_of_arg split it off (a split after a top-level comma is the
 * split of the whole). */
static nr_span call_arg(const call *c, unsigned i)
{
    nr_span args = c->first_split && i > 0 ? first_rest(c) : c->args;
    unsigned k = c->first_split && i > 0 ? i - 1 : i;
    nr_span arg;
    return sarg_flat(args, k, &arg) == 0 ? arg : nr_sarg(args, k);
}

/* The first argument of args when it is the empty string "" (AT_EMPTY_PATH
 * calls: fstat by fd), as nr_sarg(args, 0) gives it; p NULL otherwise. */
static nr_span empty_string_arg(nr_span args)
{
    const char *p = args.p, *end = args.p + args.n;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (end - p < 2 || p[0] != '"' || p[1] != '"')
        return (nr_span){NULL, 0};
    const char *q = p + 2;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    return q == end || *q == ',' ? (nr_span){p, 2} : (nr_span){NULL, 0};
}

/* nr_sarg_int for an integer argument; a plain decimal (no sign, no leading
 * 0, the offsets of pread/pwrite) is read here. */
static int64_t arg_int(nr_span arg, int64_t dflt)
{
    if (arg.n >= 1 && arg.n <= 18 && (arg.n == 1 || arg.p[0] != '0')) {
        int64_t v = 0;
        size_t i = 0;
        for (; i < arg.n && (unsigned)(arg.p[i] - '0') < 10u; i++)
            v = v * 10 + (arg.p[i] - '0');
        if (i == arg.n)
            return v;
    }
    int64_t v;
    return nr_sarg_int(arg, &v) == 0 ? v : dflt;
}

/* The event being built names the file of ghost's real fd as it is at the
 * segment's start (the stitch reads it there). */
static void name_by_ghost(nr_pm *pm, uint32_t ghost)
{
    pm->adv_ghost = ghost;
    pm->adv_bits |= NR_PM_GHOST_FILE;
    pm->ghosts[ghost - 1].named_bare = 1;
}

/* Resolves a path argument into pm->resolved. Returns 0, -1 when the
 * argument is not a string, or 1 with *empty_path_file set for AT_EMPTY_PATH
 * (the dirfd itself). */
static int resolve_path_arg(nr_pm *pm, task *t, const call *c, int path_arg, int dirfd_arg, int64_t *empty_path_file)
{
    int64_t dirfd = AT_FDCWD_VALUE;
    nr_span dannot = {0};
    nr_span arg = path_arg == 1 && c->first_split ? empty_string_arg(first_rest(c)) : (nr_span){NULL, 0};
    if (!arg.p)
        arg = call_arg(c, (unsigned)path_arg);
    if (dirfd_arg == 0 && c->first_split) {
        dirfd = c->first.fd;
        dannot = c->first.annot;
    } else if (dirfd_arg >= 0 && nr_sarg_fd_at(c->args, (unsigned)dirfd_arg, &dirfd, &dannot) < 0) {
        dirfd = AT_FDCWD_VALUE;
    }
    if (!arg.n || arg.p[0] != '"')
        return -1;
    long n;
    if (arg.n == 2 && arg.p[1] == '"') { /* "" (AT_EMPTY_PATH): what decode gives, without its call */
        pm->decode[0] = '\0';
        n = 0;
    } else {
        n = decode(pm, arg);
    }
    if (n < 0)
        return -1;
    if (n == 0 && dirfd != AT_FDCWD_VALUE) { /* AT_EMPTY_PATH: the dirfd itself */
        int32_t idx = ofd_of_dirfd(pm, t, dirfd, dannot);
        if (idx < -1)
            return idx;
        *empty_path_file = ofd_file(pm, idx);
        if (idx >= 0 && pm->ofds[idx].ghost && *empty_path_file < 0)
            name_by_ghost(pm, pm->ofds[idx].ghost); /* the real fd's file, known at the stitch */
        return 1;
    }
    /* the decoded path lives in pm->decode, which base_dir may reuse: copy it */
    pm->scratch.len = 0;
    if (nr_buf_put(&pm->scratch, pm->decode, (size_t)n) < 0)
        return NR_E_NOMEM;
    const char *base = pm->decode[0] == '/' ? NULL : base_dir(pm, t, dirfd, dannot);
    if (base) {
        pm->joined.len = 0;
        if (nr_buf_put(&pm->joined, base, strlen(base) + 1) < 0)
            return NR_E_NOMEM;
        base = (const char *)pm->joined.data;
    }
    if (resolve_path(pm, base, (const char *)pm->scratch.data, pm->scratch.len) < 0)
        return NR_E_NOMEM;
    return 0;
}

/* File of a path argument, resolved against cwd or dirfd. -1 when the
 * argument is not a string (NULL pointer, unreadable memory). */
static int64_t file_of_path_arg(nr_pm *pm, task *t, const call *c, int path_arg, int dirfd_arg, int kind)
{
    int64_t empty_path_file = -1;
    int rc = resolve_path_arg(pm, t, c, path_arg, dirfd_arg, &empty_path_file);
    if (rc != 0)
        return rc == 1 ? empty_path_file : rc;
    return file_intern(pm, (const char *)pm->resolved.data, pm->resolved.len, kind);
}

/* The unnamed file an O_TMPFILE open makes in the directory its path
 * argument names: <dir>/#tmpfile[#N], N counting with the synthetic names
 * (file_synthetic). The directory is interned as one (file_intern makes
 * a regular file of that path one). */
static NOINLINE int64_t file_of_tmpfile(nr_pm *pm, task *t, const call *c, int path_arg, int dirfd_arg)
{
    const int64_t dir = file_of_path_arg(pm, t, c, path_arg, dirfd_arg, NR_KIND_DIRECTORY);
    if (dir < 0)
        return dir;
    if (pm->cfg.speculative)
        spec_refuse(pm, "an O_TMPFILE open without -y annotation (its name numbers all such files)");
    const char *path;
    size_t len;
    nr_pm_file_get(pm, (size_t)dir, &path, &len);
    while (len > 1 && path[len - 1] == '/')
        len--;
    char suffix[48];
    const int n = snprintf(suffix, sizeof suffix, "/#tmpfile[#%llu]", (unsigned long long)++pm->synthetic_serial);
    pm->resolved.len = 0;
    if (nr_buf_put(&pm->resolved, path, len) < 0 || nr_buf_put(&pm->resolved, suffix, (size_t)n) < 0)
        return NR_E_NOMEM;
    return file_intern(pm, (const char *)pm->resolved.data, pm->resolved.len, NR_KIND_REGULAR);
}

/* ---- handlers ---------------------------------------------------------- */

/* The argument after a quoted path as nr_sarg gives it, when args reads:
 * blanks, a quoted string without backslash, blanks, ',', blanks, a word of
 * [A-Za-z0-9_|], blanks, then ',' or the end ("\"/x.bin\", O_RDONLY|O_CLOEXEC,
 * 0666"): the scanner stops at no byte of it but the quotes and the comma.
 * p NULL otherwise. known: a word likely there (the last flags), compared
 * first instead of scanned. */
static nr_span word_after_path(nr_span args, nr_span known)
{
    const nr_span none = {NULL, 0};
    const char *p = args.p, *end = args.p + args.n;
    if (!p)
        return none;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p == end || *p != '"')
        return none;
    const char *q = find_quote_or_backslash(p + 1, end);
    if (q == end || *q != '"')
        return none;
    for (q++; q < end && (*q == ' ' || *q == '\t'); q++)
        ;
    if (q == end || *q != ',')
        return none;
    for (q++; q < end && (*q == ' ' || *q == '\t'); q++)
        ;
    const char *word = q;
    if (known.n && (size_t)(end - q) >= known.n && memcmp(q, known.p, known.n) == 0)
        q += known.n; /* the scan below goes on from there: the same word either way */
    while (q < end && (is_ident_char(*q) || *q == '|'))
        q++;
    nr_span w = {word, (size_t)(q - word)};
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    return w.n && (q == end || *q == ',') ? w : none;
}

/* The flags argument of an open call (p NULL when it has none). */
static nr_span open_flags_arg(const nr_pm *pm, const call *c)
{
    const nr_syscall_info *in = c->info;
    if (in->flags_arg < 0)
        return (nr_span){0};
    nr_span quick = {NULL, 0};
    nr_span known = {pm->open_flags_cache.text, pm->open_flags_cache.is_word ? pm->open_flags_cache.len : 0};
    if (in->path_arg == 0 && in->flags_arg == 1)
        quick = word_after_path(c->args, known);
    else if (in->path_arg == 1 && in->flags_arg == 2 && c->first_split)
        quick = word_after_path(first_rest(c), known);
    return quick.p ? quick : call_arg(c, (unsigned)in->flags_arg);
}

/* open_flags behind a one-entry cache. */
static unsigned open_flags_cached(nr_pm *pm, nr_span s)
{
    struct open_flags_cache *k = &pm->open_flags_cache;
    if (s.n && s.n == k->len && memcmp(s.p, k->text, s.n) == 0)
        return k->bits;
    unsigned bits = open_flags(s);
    if (s.n && s.n <= sizeof k->text) {
        memcpy(k->text, s.p, s.n);
        k->len = s.n;
        k->bits = bits;
        k->is_word = 1;
        for (size_t i = 0; i < s.n; i++)
            k->is_word &= is_ident_char(s.p[i]) || s.p[i] == '|';
    }
    return bits;
}

/* An open whose path argument is no string (-e raw=all prints a pointer,
 * "openat(0xffffff9c, 0x7ffe239940f0, 0x80000, 0) = 0x3"): counted
 * (diagnostics reason paths_not_decoded), as its file's name is unknown. */
static int note_path_not_decoded(nr_pm *pm, const call *c, int path_arg)
{
    const nr_span arg = call_arg(c, (unsigned)path_arg);
    if (!pm->cfg.diag || !arg.n || arg.p[0] == '"' || span_eq(arg, "NULL"))
        return 0;
    const nr_pm_where *w = pm->where;
    return nr_diag_add(pm->cfg.diag, "paths_not_decoded", w ? w->file : NULL, w ? w->line : 0, w ? w->text : NULL,
                       w ? w->len : 0) < 0
               ? NR_E_NOMEM
               : 0;
}

/* Whether open call c names a file whose name ends in " (deleted)": its
 * result's annotation ends so (looked at first: the rare case), and so
 * does its path argument, decoded (a file really named "x (deleted)";
 * strace 5.x's mark of a deleted file is never in a path it opens). */
static NOINLINE int open_path_ends_deleted(nr_pm *pm, const call *c)
{
    static const char mark[] = "(deleted)";
    const size_t n = sizeof mark - 1;
    if (c->annot.n <= n || memcmp(c->annot.p + c->annot.n - n, mark, n) != 0 || c->info->path_arg < 0)
        return 0;
    const long len = decode(pm, call_arg(c, (unsigned)c->info->path_arg));
    return len > (long)DELETED_SUFFIX_LEN &&
           memcmp(pm->decode + len - DELETED_SUFFIX_LEN, deleted_suffix, DELETED_SUFFIX_LEN) == 0;
}

static NOINLINE int handle_open(nr_pm *pm, task *t, const call *c, nr_pm_event *ev)
{
    const nr_syscall_info *in = c->info;
    int is_creat = span_eq(c->ev.syscall, "creat");
    unsigned oflags = open_flags_cached(pm, open_flags_arg(pm, c));
    const int tmpfile = (oflags & OPEN_TMPFILE) != 0;
    int directory = (oflags & OPEN_DIRECTORY) != 0 && !tmpfile;
    int64_t file = -1;
    int annotated = c->ok && c->result >= 0 && c->annot.n;
    /* with a -y result the annotation is the identity: resolving the path as
     * well would add a second name for the file (/lib vs /usr/lib) */
    if (in->path_arg >= 0 && !annotated && tmpfile && c->ok && c->result >= 0) {
        file = file_of_tmpfile(pm, t, c, in->path_arg, in->dirfd_arg);
        if (file < -1)
            return (int)file;
    } else if (in->path_arg >= 0 && !annotated) {
        /* a failed O_TMPFILE open names its directory */
        file = file_of_path_arg(pm, t, c, in->path_arg, in->dirfd_arg,
                                directory || tmpfile ? NR_KIND_DIRECTORY : NR_KIND_UNKNOWN);
        if (file < -1)
            return (int)file;
        if (file < 0)
            NR_TRY(note_path_not_decoded(pm, c, in->path_arg));
    }
    if (c->ok && c->result >= 0) {
        int32_t idx = ofd_new(pm, file, file >= 0 ? file_at(pm, file)->kind : NR_KIND_UNKNOWN);
        if (idx < 0)
            return idx;
        pm->ofds[idx].append = (oflags & OPEN_APPEND) != 0;
        if (c->annot.n) {
            NR_TRY(ofd_apply_annotation_kept(pm, idx, c->annot, open_path_ends_deleted(pm, c)));
            file = pm->ofds[idx].file_id;
        } else if (file < 0) {
            /* a path not printed as a string (-e raw=, a NULL): a file of
               unknown name; open_by_handle_at without -y: no path at all */
            file = file_synthetic(pm, in->path_arg >= 0 ? NR_KIND_UNKNOWN : NR_KIND_ANON);
            if (file < 0)
                return (int)file;
            pm->ofds[idx].file_id = file;
        }
        if (directory)
            make_directory(pm, file);
        NR_TRY(fdtab_install(pm, t->fds, c->result, idx, !is_creat && (oflags & OPEN_CLOEXEC)));
        ev->fd = c->result;
    }
    ev->file_id = file;
    return 0;
}

static NOINLINE int handle_close_range(nr_pm *pm, task *t, const call *c)
{
    int64_t first = -1, last = -1;
    nr_span a0 = nr_sarg(c->args, 0), a1 = nr_sarg(c->args, 1), fl = nr_sarg(c->args, 2);
    nr_span annot;
    if (nr_sarg_fd(a0, &first, &annot) < 0 && nr_sarg_int(a0, &first) < 0)
        return 0;
    if (nr_sarg_int(a1, &last) < 0 || last < 0) /* "~0U", "4294967295", "-1": to the end */
        last = INT64_MAX;
    if (!c->ok || first < 0)
        return 0;
    if (flag_present(fl, "CLOSE_RANGE_UNSHARE", 2))
        NR_TRY(unshare_fds(pm, t));
    if (flag_present(fl, "CLOSE_RANGE_CLOEXEC", 4)) {
        fdtab_mark_cloexec(t->fds, first, last);
    } else {
        fd_filter range = {.first = first, .last = last, .cloexec_only = 0};
        fdtab_close_selected(pm, t->fds, &range);
    }
    return 0;
}

static int dup_to(nr_pm *pm, task *t, int32_t idx, int64_t newfd, int cloexec)
{
    if (idx < 0 || newfd < 0)
        return 0;
    pm->ofds[idx].refs++;
    return fdtab_install(pm, t->fds, newfd, idx, cloexec);
}

/* The fcntl commands the model replays, by name or as a raw number. */
typedef enum fcntl_cmd { FCNTL_OTHER, FCNTL_DUPFD, FCNTL_DUPFD_CLOEXEC, FCNTL_SETFD, FCNTL_SETFL } fcntl_cmd;

static fcntl_cmd fcntl_command(const call *c)
{
    nr_span cmd = call_arg(c, 1);
    int64_t raw = -1;
    if (cmd.n && cmd.p[0] >= '0' && cmd.p[0] <= '9')
        nr_sarg_int(cmd, &raw);
    return span_eq(cmd, "F_DUPFD_CLOEXEC") || raw == 1030 ? FCNTL_DUPFD_CLOEXEC
           : span_eq(cmd, "F_DUPFD") || raw == 0          ? FCNTL_DUPFD
           : span_eq(cmd, "F_SETFD") || raw == 2          ? FCNTL_SETFD
           : span_eq(cmd, "F_SETFL") || raw == 4          ? FCNTL_SETFL
                                                          : FCNTL_OTHER;
}

/* Whether cmd sets an fd's close-on-exec flag or its description's status
 * flags: the stitch does not carry those over to a ghost's real fd. */
static int fcntl_sets_flags(fcntl_cmd cmd) { return cmd == FCNTL_SETFD || cmd == FCNTL_SETFL; }

static NOINLINE int handle_fcntl(nr_pm *pm, task *t, const call *c, int32_t idx, int64_t fd)
{
    if (!c->ok || idx < 0)
        return 0;
    nr_span arg = call_arg(c, 2);
    switch (fcntl_command(c)) {
    case FCNTL_DUPFD_CLOEXEC: return dup_to(pm, t, idx, c->result, 1);
    case FCNTL_DUPFD: return dup_to(pm, t, idx, c->result, 0);
    case FCNTL_SETFD: fdtab_set_cloexec(t->fds, fd, flag_present(arg, "FD_CLOEXEC", 1)); return 0;
    case FCNTL_SETFL: pm->ofds[idx].append = (uint8_t)flag_present(arg, "O_APPEND", 02000); return 0;
    default: return 0;
    }
}

/* An ioctl's request, arg the text from it to the end of the arguments:
 * 1 for FIOCLEX, 0 for FIONCLEX (as -X abbrev and verbose print them, or
 * raw: the values of x86 and most architectures), -1 for any other.
 * CPython's os.set_inheritable() is an ioctl, not an fcntl: an fd it made
 * inheritable and the model closed at execve lost the new program's I/O. */
static int ioctl_cloexec(nr_span arg)
{
    while (arg.n && arg.p[0] == ' ')
        arg.p++, arg.n--;
    size_t n = 0;
    while (n < arg.n && arg.p[n] != ',' && arg.p[n] != ' ')
        n++;
    const nr_span word = {arg.p, n};
    if (span_eq(word, "FIOCLEX") || span_eq(word, "0x5451"))
        return 1;
    if (span_eq(word, "FIONCLEX") || span_eq(word, "0x5450"))
        return 0;
    return -1;
}

/* Replays a successful ioctl on fd: close-on-exec set or cleared. */
static void replay_ioctl(nr_pm *pm, task *t, int ok, int64_t fd, nr_span request)
{
    const int cloexec = ok ? ioctl_cloexec(request) : -1;
    if (cloexec < 0)
        return;
    if (pm->cfg.speculative)
        spec_refuse(pm, "an ioctl that sets an fd's close-on-exec flag");
    fdtab_set_cloexec(t->fds, fd, cloexec);
}

/* "[3, 4]" (maybe with annotations) of pipe/socketpair: installs both ends. */
static int handle_fd_pair(nr_pm *pm, task *t, const call *c, unsigned arg_index, int kind, nr_pm_event *ev)
{
    if (!c->ok)
        return 0;
    nr_span arr = nr_sarg(c->args, arg_index);
    if (arr.n < 2 || arr.p[0] != '[')
        return 0;
    nr_span inner = {arr.p + 1, arr.n - 2};
    nr_span flags = c->info->flags_arg >= 0 ? nr_sarg(c->args, (unsigned)c->info->flags_arg) : (nr_span){0};
    int cloexec = flag_present(kind == NR_KIND_PIPE ? flags : nr_sarg(c->args, 1),
                               kind == NR_KIND_PIPE ? "O_CLOEXEC" : "SOCK_CLOEXEC", 02000000);
    int64_t pipe_file = -1; /* both ends of a pipe are one object */
    for (unsigned end = 0; end < 2; end++) {
        int64_t fd;
        nr_span annot = {0};
        if (nr_sarg_fd(nr_sarg(inner, end), &fd, &annot) < 0 || fd < 0)
            continue;
        int64_t file = -1;
        if (!annot.n) {
            file = pipe_file >= 0 ? pipe_file : file_synthetic(pm, kind);
            if (file < 0)
                return (int)file;
            if (kind == NR_KIND_PIPE)
                pipe_file = file;
        }
        int32_t idx = ofd_new(pm, file, kind);
        if (idx < 0)
            return idx;
        if (annot.n)
            NR_TRY(ofd_apply_annotation(pm, idx, annot));
        NR_TRY(fdtab_install(pm, t->fds, fd, idx, cloexec));
        if (end == 0) {
            ev->fd = fd;
            ev->file_id = pm->ofds[idx].file_id;
        }
    }
    return 0;
}

/* Close-on-exec flag of a new fd: SOCK_/EFD_/EPOLL_/TFD_/SFD_/IN_/MFD_CLOEXEC
 * by name, or with -X raw the bit in the flags argument (all of them are
 * O_CLOEXEC, 02000000, except MFD_CLOEXEC, 1). */
static int newfd_cloexec(const call *c)
{
    static const char *const names[] = {"SOCK_CLOEXEC", "EFD_CLOEXEC", "EPOLL_CLOEXEC", "TFD_CLOEXEC",
                                        "SFD_CLOEXEC", "IN_CLOEXEC", "MFD_CLOEXEC", "O_CLOEXEC"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (flag_present(c->args, names[i], 0))
            return 1;
    if (c->info->flags_arg < 0)
        return 0;
    nr_span fl = nr_sarg(c->args, (unsigned)c->info->flags_arg);
    return flag_present(fl, "\x01" /* no name: the raw bit only */, span_eq(c->ev.syscall, "memfd_create") ? 1 : 02000000);
}

static NOINLINE int handle_newfd(nr_pm *pm, task *t, const call *c, nr_pm_event *ev)
{
    if (!c->ok || c->result < 0)
        return 0;
    int kind = c->info->kind;
    int32_t idx = ofd_new(pm, -1, kind);
    if (idx < 0)
        return idx;
    if (c->annot.n) {
        NR_TRY(ofd_apply_annotation(pm, idx, c->annot));
    } else {
        int64_t file = file_synthetic(pm, kind);
        if (file < 0)
            return (int)file;
        pm->ofds[idx].file_id = file;
    }
    if (pm->ofds[idx].file_id >= 0 && kind != NR_KIND_UNKNOWN) {
        nr_pm_file *f = file_at(pm, pm->ofds[idx].file_id);
        if (f->kind == NR_KIND_REGULAR || f->kind == NR_KIND_UNKNOWN)
            f->kind = kind; /* memfd: "/memfd:x" is already anon */
    }
    ev->fd = c->result;
    ev->file_id = pm->ofds[idx].file_id;
    return fdtab_install(pm, t->fds, c->result, idx, newfd_cloexec(c));
}

/* Installs into to each fd of from whose description to does not hold at
 * that number (the opens a task made in a table it should not have had). */
static int carry_over_fds(nr_pm *pm, const fdtab *from, fdtab *to)
{
    for (size_t fd = 0; fd < from->cap; fd++) {
        const int32_t idx = from->ofd[fd];
        if (idx >= 0 && fdtab_get(to, (int64_t)fd) != idx) {
            pm->ofds[idx].refs++;
            NR_TRY(fdtab_install(pm, to, (int64_t)fd, idx, from->cloexec[fd] & 1));
        }
    }
    for (size_t s = 0; s < from->high_slots; s++) {
        const fd_slot e = from->high[s];
        if (e.fd >= 0 && fdtab_get(to, e.fd) != e.ofd) {
            pm->ofds[e.ofd].refs++;
            NR_TRY(fdtab_install(pm, to, e.fd, e.ofd, e.cloexec));
        }
    }
    return 0;
}

/* child, seen while several clones were pending, was attached to the
 * clone of another task than t, whose clone returns its tid: set up again
 * as t's, with this clone's flags. The opens it made in the table it was
 * given move to its real one when the two tables came from one shared
 * table (threads of one process cloning at once, the usual case); its
 * events already emitted keep the pid they had. */
static int reattach_early_child(nr_pm *pm, task *child, task *t, int thread, int files, int fs)
{
    task *wrong = task_find(pm, child->parent_tid);
    if (wrong && wrong->early_child == child->tid)
        wrong->early_child = -1; /* its clone's child is still to come */
    const int one_table = wrong && wrong->fds == t->fds;
    fdtab *given = child->fds;
    given->refs++;
    int rc = task_inherit(pm, child, t, thread, files, fs);
    if (rc == 0 && one_table && given != child->fds)
        rc = carry_over_fds(pm, given, child->fds);
    fdtab_release(pm, given);
    return rc;
}

static NOINLINE int handle_clone(nr_pm *pm, task *t, const call *c)
{
    if (!c->ok || c->result <= 0)
        return 0;
    int thread, files, fs;
    clone_flags(c->ev.syscall, c->args, &thread, &files, &fs);
    task *child = task_find(pm, c->result);
    if (child && child->exited)
        child = NULL; /* the tid is reused */
    if (child && child->origin == ORIGIN_CLONE)
        return 0; /* already set up */
    const int met_before = child != NULL; /* seen before its clone: its place in the tree changes */
    if (!child && !(child = task_add(pm, c->result)))
        return NR_E_NOMEM;
    if (child->origin == ORIGIN_EARLY_CHILD) {
        /* attached while the clone was pending: it was set up from the
         * flags of the unfinished part, and may have opened files since;
         * with several clones pending, maybe to another task's */
        child->origin = ORIGIN_CLONE;
        if (child->parent_tid == t->tid)
            return 0;
        pm->tree_version++;
        return reattach_early_child(pm, child, t, thread, files, fs);
    }
    pm->tree_version += met_before;
    NR_TRY(task_inherit(pm, child, t, thread, files, fs));
    child->origin = ORIGIN_CLONE;
    return 0;
}

static NOINLINE int handle_execve(nr_pm *pm, task *t, const call *c)
{
    if (!c->ok)
        return 0;
    /* the program is a name of the task, not a file it did I/O on */
    int64_t unused;
    int rc = resolve_path_arg(pm, t, c, c->info->path_arg, c->info->dirfd_arg, &unused);
    if (rc < -1)
        return rc;
    if (rc == 0) {
        int64_t id = nr_strtab_intern(&pm->names, (const char *)pm->resolved.data, pm->resolved.len);
        if (id < 0)
            return (int)id;
        t->exe_id = id;
    } else {
        t->exe_id = 0; /* "": a program replaced by one whose path the line lacks */
    }
    NR_TRY(unshare_fds(pm, t)); /* execve unshares the fd table (fs/exec.c unshare_files) */
    fd_filter marked = {.first = 0, .last = INT64_MAX, .cloexec_only = 1};
    fdtab_close_selected(pm, t->fds, &marked);
    return 0;
}

/* unshare(flags): CLONE_FILES gives the task a copy of the fd table it
 * shared (its later opens and closes are its own), CLONE_FS a cwd of its
 * own; raw bits from include/uapi/linux/sched.h for -X raw. */
static NOINLINE int handle_unshare(nr_pm *pm, task *t, const call *c)
{
    if (!c->ok)
        return 0;
    nr_span flags = call_arg(c, 0);
    if (flag_present(flags, "CLONE_FILES", 0x400))
        NR_TRY(unshare_fds(pm, t));
    if (flag_present(flags, "CLONE_FS", 0x200))
        NR_TRY(unshare_fs(t));
    return 0;
}

static NOINLINE int handle_chdir(nr_pm *pm, task *t, const call *c)
{
    if (!c->ok)
        return 0;
    int64_t file = file_of_path_arg(pm, t, c, 0, -1, NR_KIND_DIRECTORY);
    if (file < 0)
        return file < -1 ? (int)file : 0;
    return fs_set_cwd(t->fs, nr_strtab_str(&pm->paths, (size_t)file), nr_strtab_len(&pm->paths, (size_t)file));
}

/* The offset of a pread/pwrite at off on idx: -1 where offsets mean
 * nothing, and for a pwrite to a description opened to append, which Linux
 * appends whatever off says (pwrite(2), BUGS): where that is, the trace
 * does not tell, as for an O_APPEND write. A speculative model does not
 * know whether a ghost's description appends: it leaves the chunk to the
 * real one. */
static int64_t explicit_offset(nr_pm *pm, int32_t idx, int64_t off, int is_write)
{
    if (!ofd_seekable(pm, idx))
        return -1;
    if (is_write && pm->ofds[idx].ghost)
        spec_refuse(pm, "a pwrite through an fd not yet seen in the segment (does it append?)");
    return is_write && pm->ofds[idx].append ? -1 : off;
}

/* The transfer calls: read/write families, sendfile, copy_file_range. */
static int handle_transfer(nr_pm *pm, task *t, const call *c, int32_t idx, nr_pm_event *ev)
{
    int h = c->info->handler;
    int is_write = h == NR_H_WRITE || h == NR_H_PWRITE;
    int64_t bytes = c->ok && c->result > 0 ? c->result : 0;
    ev->bytes = bytes;
    if (!c->ok || idx < 0)
        return 0;
    if (h == NR_H_READ || h == NR_H_WRITE) {
        ev->offset = ofd_advance(pm, idx, bytes, is_write, &ev->flags);
    } else { /* explicit offset; preadv2/pwritev2 with -1 use and advance the fd's */
        nr_span off_arg = c->first_split ? offset_after_string(first_rest(c)) : (nr_span){NULL, 0};
        int64_t off = arg_int(off_arg.p ? off_arg : call_arg(c, 3), -1);
        if (off == -1 && (span_eq(c->ev.syscall, "preadv2") || span_eq(c->ev.syscall, "pwritev2")))
            ev->offset = ofd_advance(pm, idx, bytes, is_write, &ev->flags);
        else
            ev->offset = explicit_offset(pm, idx, off, is_write);
    }
    return 0;
}

/* Source offset of sendfile/copy_file_range: "NULL" = the fd's own (advanced),
 * "[N]" or "[N] => [M]" = N (the fd's offset is untouched). */
static int64_t side_offset(nr_pm *pm, int32_t idx, nr_span off_arg, int64_t bytes, int is_write, uint32_t *flags)
{
    if (idx < 0)
        return -1;
    if (!off_arg.n || span_eq(off_arg, "NULL") || span_eq(off_arg, "0"))
        return ofd_advance(pm, idx, bytes, is_write, flags);
    int64_t off;
    return nr_sarg_int(off_arg, &off) == 0 && ofd_seekable(pm, idx) ? off : -1;
}

static NOINLINE int handle_two_ended(nr_pm *pm, task *t, const call *c, nr_pm_event *ev)
{
    int is_sendfile = c->info->handler == NR_H_SENDFILE;
    unsigned out_arg = is_sendfile ? 0 : 2, in_arg = is_sendfile ? 1 : 0;
    int64_t out_fd, in_fd;
    int32_t out_idx = ofd_of_arg(pm, t, c->args, out_arg, NULL, &out_fd);
    if (out_idx < -1)
        return out_idx;
    int32_t in_idx = ofd_of_arg(pm, t, c->args, in_arg, NULL, &in_fd);
    if (in_idx < -1)
        return in_idx;
    int64_t bytes = c->ok && c->result > 0 ? c->result : 0;
    ev->fd = out_fd;
    ev->file_id = ofd_file(pm, out_idx);
    ev->file2_id = ofd_file(pm, in_idx);
    ev->bytes = bytes;
    if (c->ok) {
        nr_span in_off = is_sendfile ? nr_sarg(c->args, 2) : nr_sarg(c->args, 1);
        nr_span out_off = is_sendfile ? (nr_span){0} : nr_sarg(c->args, 3);
        side_offset(pm, in_idx, in_off, bytes, 0, &ev->flags);
        ev->offset = side_offset(pm, out_idx, out_off, bytes, 1, &ev->flags);
    }
    file_count(pm, ev->file_id, NR_CNT_WRITE, bytes, c->ev.ts_ns);
    file_count(pm, ev->file2_id, NR_CNT_READ, bytes, c->ev.ts_ns);
    return 0;
}

/* An lseek's result is the fd's offset from now on. */
static inline void ofd_seek_to(nr_pm *pm, int32_t idx, int64_t offset)
{
    pm->ofds[idx].offset = offset;
    pm->ofds[idx].offset_guessed = 0;
    if (pm->ofds[idx].ghost) {
        pm->adv_ghost = pm->ofds[idx].ghost;
        pm->adv_bits |= NR_PM_GHOST_SEEK;
        pm->adv_seek = offset;
    }
}

/* A close leaves fd in the table only when it failed with EBADF (it was
 * not open); other failures (EIO, EINTR) close it all the same. */
static inline void replay_close(nr_pm *pm, task *t, int ok, nr_span errno_name, int64_t fd)
{
    if (ok || !span_eq(errno_name, "EBADF"))
        fdtab_close(pm, t->fds, fd);
}

/* The effects of a call without a handler on an fd or path: listing a
 * file's entries shows it is a directory; returns the bytes of a read or
 * write op (recv*, on a socket). */
static inline int64_t replay_plain_call(nr_pm *pm, const nr_syscall_info *in, int64_t file_id, int ok,
                                        int64_t result)
{
    if (in->lists_dir)
        make_directory(pm, file_id);
    return ok && result > 0 && (in->op == NR_OP_READ || in->op == NR_OP_WRITE) ? result : 0;
}

/* The handlers a speculative model does not replay: each changes state it
 * cannot name without the real model (fd tables shared or copied, cwd,
 * close-on-exec flags, the process tree). */
static void spec_check_handler(nr_pm *pm, const nr_syscall_info *in, const call *c)
{
    switch (in->handler) {
    case NR_H_FCNTL:
        if (!fcntl_sets_flags(fcntl_command(c)))
            break; /* a dup is the segment's own fd (the stitch installs it); the rest change nothing */
        /* fallthrough */
    case NR_H_CLOSE_RANGE: case NR_H_SENDFILE: case NR_H_COPY_RANGE: case NR_H_CLONE: case NR_H_FORK:
    case NR_H_EXECVE: case NR_H_UNSHARE: case NR_H_CHDIR: case NR_H_FCHDIR:
        spec_refuse(pm, "a call that changes fd tables, cwd or tasks beyond the segment's own");
        break;
    default: break;
    }
}

/* Reads c's fd argument, when its call has one: ev's fd and file, the
 * fd's description in *idx (-1 none). Returns 0, or NR_E_NOMEM. */
static int read_fd_arg(nr_pm *pm, task *t, call *c, int32_t *idx, int64_t *fd)
{
    const nr_syscall_info *in = c->info;
    nr_pm_event *ev = &c->ev;
    if (in->fd_arg == 0 || in->dirfd_arg == 0)
        c->first_split = fd_text_quick(pm, t, c->args, &c->first) == 0;
    if (in->fd_arg < 0 || in->handler == NR_H_SENDFILE || in->handler == NR_H_COPY_RANGE)
        return 0;
    const fd_text *quick = in->fd_arg == 0 && c->first_split ? &c->first : NULL;
    if (quick && quick->known_idx >= 0) { /* the hot path, as ofd_of_arg takes it */
        *idx = quick->known_idx;
        *fd = quick->fd;
        note_known_annotation(pm, t);
    } else if ((*idx = ofd_of_arg(pm, t, c->args, (unsigned)in->fd_arg, quick, fd)) < -1) {
        return NR_E_NOMEM;
    }
    ev->fd = *fd;
    ev->file_id = ofd_file(pm, *idx);
    if (*idx >= 0 && pm->ofds[*idx].ghost && ev->file_id < 0) /* a bare fd: the real one's file */
        name_by_ghost(pm, pm->ofds[*idx].ghost);
    return 0;
}

/* The fd and file of t's close, read at its <unfinished ...> line. */
static void take_early_close(nr_pm *pm, const task *t, nr_pm_event *ev)
{
    ev->fd = t->close_fd;
    ev->file_id = t->close_file;
    if (t->close_ghost_bits) {
        pm->adv_ghost = t->close_ghost;
        pm->adv_bits |= t->close_ghost_bits;
    }
}

/* The length of a mapping (mmap's second argument, in decimal); 0 when
 * it is no such number. A mapping moves nothing: the model reports the
 * bytes mapped apart, as what reads through memory could reach unseen. */
static int64_t mapped_length(nr_span arg)
{
    int64_t n = arg_int(arg, 0);
    return n > 0 ? n : 0;
}

/* Replays one complete call and emits its event. */
static int handle_call(nr_pm *pm, task *t, call *c, nr_error *err)
{
    nr_pm_event *ev = &c->ev;
    ev->fd = ev->file_id = ev->file2_id = ev->offset = -1;
    ev->bytes = 0;
    const nr_syscall_info *in = c->info;
    int rc = 0;
    int counted = 0;
    if (in) {
        int32_t idx = -1;
        int64_t fd = -1;
        if (c->closed_early)
            take_early_close(pm, t, ev);
        else if (read_fd_arg(pm, t, c, &idx, &fd) < 0)
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory (fd tables)");
        if (pm->cfg.speculative)
            spec_check_handler(pm, in, c);
        switch (in->handler) {
        case NR_H_OPEN: rc = handle_open(pm, t, c, ev); break;
        case NR_H_CLOSE:
            if (!c->closed_early)
                replay_close(pm, t, c->ok, c->ev.errno_name, fd);
            break;
        case NR_H_CLOSE_RANGE: rc = handle_close_range(pm, t, c); break;
        case NR_H_DUP:
            if (c->ok)
                rc = dup_to(pm, t, idx, c->result, 0);
            break;
        case NR_H_DUP2:
            if (c->ok && c->result != fd) {
                nr_span fl = in->flags_arg >= 0 ? call_arg(c, (unsigned)in->flags_arg) : (nr_span){0};
                rc = dup_to(pm, t, idx, c->result, flag_present(fl, "O_CLOEXEC", 02000000));
            }
            break;
        case NR_H_FCNTL: rc = handle_fcntl(pm, t, c, idx, fd); break;
        case NR_H_IOCTL: replay_ioctl(pm, t, c->ok, fd, call_arg(c, 1)); break;
        case NR_H_READ: case NR_H_PREAD: case NR_H_WRITE: case NR_H_PWRITE:
            rc = handle_transfer(pm, t, c, idx, ev);
            break;
        case NR_H_LSEEK:
            if (c->ok && idx >= 0)
                ofd_seek_to(pm, idx, c->result);
            break;
        case NR_H_LLSEEK:
            for (unsigned i = 1; c->ok && idx >= 0 && i < nr_sarg_count(c->args); i++) {
                nr_span a = nr_sarg(c->args, i);
                int64_t off;
                if (a.n && a.p[0] == '[' && nr_sarg_int(a, &off) == 0) {
                    ofd_seek_to(pm, idx, off);
                    break;
                }
            }
            break;
        case NR_H_SENDFILE: case NR_H_COPY_RANGE:
            rc = handle_two_ended(pm, t, c, ev);
            counted = 1;
            break;
        case NR_H_PIPE: rc = handle_fd_pair(pm, t, c, 0, NR_KIND_PIPE, ev); break;
        case NR_H_SOCKETPAIR: rc = handle_fd_pair(pm, t, c, 3, NR_KIND_SOCKET, ev); break;
        case NR_H_NEWFD: rc = handle_newfd(pm, t, c, ev); break;
        case NR_H_CLONE: case NR_H_FORK: rc = handle_clone(pm, t, c); break;
        case NR_H_EXECVE: rc = handle_execve(pm, t, c); break;
        case NR_H_UNSHARE: rc = handle_unshare(pm, t, c); break;
        case NR_H_CHDIR: rc = handle_chdir(pm, t, c); break;
        case NR_H_FCHDIR:
            if (c->ok && ev->file_id >= 0 && nr_strtab_str(&pm->paths, (size_t)ev->file_id)[0] == '/')
                rc = fs_set_cwd(t->fs, nr_strtab_str(&pm->paths, (size_t)ev->file_id),
                                nr_strtab_len(&pm->paths, (size_t)ev->file_id));
            break;
        default:
            if (in->path_arg >= 0 && in->fd_arg < 0) {
                int64_t file = file_of_path_arg(pm, t, c, in->path_arg, in->dirfd_arg, in->kind);
                if (file < -1)
                    rc = (int)file;
                ev->file_id = file;
            }
            if (in->mode_arg >= 0 && c->ok)
                learn_kind(pm, ev->file_id, kind_of_mode_arg(in, call_arg(c, (unsigned)in->mode_arg)));
            if ((pm->adv_bits & NR_PM_GHOST_FILE) && in->lists_dir)
                spec_refuse(pm, "a directory listed through an fd not yet seen in the segment");
            ev->bytes = replay_plain_call(pm, in, ev->file_id, c->ok, c->result);
            if (in->maps && c->ok && ev->fd >= 0)
                ev->bytes = mapped_length(call_arg(c, 1));
            break;
        }
        if (rc < 0)
            return nr_error_set(err, rc, "ingest: out of memory (process model)");
        if (!counted)
            file_count(pm, ev->file_id, in->counter, ev->bytes, c->ev.ts_ns);
    }
    return emit(pm, t, c, err);
}

/* ---- line dispatch ----------------------------------------------------- */

/* memcmp(a, b, n) == 0 for n <= 24 (a syscall name), in a few word loads
 * that overlap instead of a call into the library. */
static inline __attribute__((always_inline)) int short_equal(const char *a, const char *b, size_t n)
{
    if (n >= 8) {
        uint64_t a0, b0, a1, b1, a2 = 0, b2 = 0;
        memcpy(&a0, a, 8), memcpy(&b0, b, 8);
        memcpy(&a1, a + n - 8, 8), memcpy(&b1, b + n - 8, 8);
        if (n > 16)
            memcpy(&a2, a + 8, 8), memcpy(&b2, b + 8, 8);
        return ((a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2)) == 0;
    }
    if (n >= 4) {
        uint32_t a0, b0, a1, b1;
        memcpy(&a0, a, 4), memcpy(&b0, b, 4);
        memcpy(&a1, a + n - 4, 4), memcpy(&b1, b + n - 4, 4);
        return ((a0 ^ b0) | (a1 ^ b1)) == 0;
    }
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

/* nr_syscall_lookup behind a small direct-mapped cache of the model:
 * logs repeat a handful of syscalls, and a hit costs one short memcmp. */
static const nr_syscall_info *syscall_cache_miss(struct syscall_cache_entry *e, nr_span name)
{
    e->info = nr_syscall_lookup(name.p, name.n);
    memcpy(e->name, name.p, name.n);
    e->len = name.n;
    return e->info;
}

static inline const nr_syscall_info *syscall_cached(nr_pm *pm, nr_span name)
{
    if (name.n == 0 || name.n > SYSCALL_NAME_MAX)
        return nr_syscall_lookup(name.p, name.n);
    size_t slot = ((unsigned char)name.p[0] * 7u + (unsigned char)name.p[name.n - 1] * 13u + name.n) &
                  (SYSCALL_CACHE_SLOTS - 1);
    struct syscall_cache_entry *e = &pm->syscall_cache[slot];
    if (e->len == name.n && short_equal(e->name, name.p, name.n))
        return e->info;
    return syscall_cache_miss(e, name);
}

/* The syscall table entry of a SYSCALL line: the one a reader looked up
 * ahead (nr_sline.syscall_ref), else from the cache. */
static inline const nr_syscall_info *syscall_of_line(nr_pm *pm, const nr_sline *sl)
{
    return sl->syscall_ref != NR_SLINE_SYSCALL_UNSET ? nr_syscall_of_ref(sl->syscall_ref)
                                                    : syscall_cached(pm, sl->name);
}

/* The flags of a call line's result. */
static inline uint32_t line_flags(const nr_sline *sl)
{
    uint32_t flags = 0;
    if (sl->result_unknown)
        flags |= NR_EVF_RESULT_UNKNOWN;
    if (sl->errno_name.n)
        flags |= span_starts(sl->errno_name, "ERESTART") ? NR_EVF_RESTARTED : NR_EVF_FAILED;
    return flags;
}

/* Whether a call line's result is a success the handlers replay. */
static inline int line_ok(const nr_sline *sl)
{
    return sl->has_result && !sl->result_unknown && sl->errno_name.n == 0;
}

static inline void fill_call(call *c, const nr_syscall_info *info, nr_span name, nr_span args, const nr_sline *sl,
                             int64_t ts)
{
    c->info = info;
    c->ev.syscall = name;
    c->args = args;
    c->annot = sl->result_annot;
    c->ev.errno_name = sl->errno_name;
    c->result = sl->result;
    c->ev.ts_ns = ts;
    c->ev.dur_ns = sl->dur_ns;
    c->first_split = 0;
    c->closed_early = 0;
    c->ev.flags = line_flags(sl);
    c->ok = line_ok(sl);
}

/* handle_call's results for the commonest calls of a job's log, in fewer
 * steps: read, write, pread64, pwrite64 (and their v forms), lseek, close,
 * the fd calls without a handler (ioctl, fstat, fsync, ...) and the *at
 * calls of an empty path (newfstatat(3, "", ..., AT_EMPTY_PATH)), when
 * argument 0 is an fd whose -y annotation its open file description holds
 * already (fd_text_quick's known_idx). The event and every total come out
 * as handle_call makes them (test_ingest_core's fast_path_matches_general
 * compares the stores of both paths). Returns FAST_DECLINED, having changed
 * nothing, for any other line. */
enum { FAST_DECLINED = 2 };

static int fast_path_off; /* nr__pm_no_fast_path */

void nr__pm_no_fast_path(int off) { fast_path_off = off != 0; }

static const uint8_t fast_handler[256] = { /* by nr_syscall_info.handler (a uint8_t) */
    [NR_H_NONE] = 1, [NR_H_READ] = 1, [NR_H_WRITE] = 1, [NR_H_PREAD] = 1,
    [NR_H_PWRITE] = 1, [NR_H_LSEEK] = 1, [NR_H_CLOSE] = 1, [NR_H_IOCTL] = 1,
};

static NOINLINE int feed_known_fd(nr_pm *pm, task *t, const nr_sline *sl, const nr_syscall_info *in, int64_t ts,
                         nr_error *err)
{
    const int h = in->handler;
    const int empty_path_call = in->fd_arg != 0; /* past the check below: the *at shape */
    if (in->fd_arg == 0 ? !fast_handler[h]
                        : !(h == NR_H_NONE && in->fd_arg < 0 && in->dirfd_arg == 0 && in->path_arg == 1))
        return FAST_DECLINED;
    fd_text first;
    if (fd_text_quick(pm, t, sl->args, &first) < 0 || first.known_idx < 0)
        return FAST_DECLINED;
    const char *end = sl->args.p + sl->args.n;
    const nr_span rest = first.stop < end ? (nr_span){first.stop + 1, (size_t)(end - first.stop - 1)}
                                          : (nr_span){end, 0};
    const int ok = line_ok(sl);
    const int32_t idx = first.known_idx;
    nr_pm_event ev; /* every field set here or by emit_event: no zeroing first */
    ev.ts_ns = ts;
    ev.dur_ns = sl->dur_ns;
    ev.syscall = sl->name;
    ev.errno_name = sl->errno_name;
    ev.flags = line_flags(sl);
    ev.fd = first.fd;
    ev.file_id = pm->ofds[idx].file_id;
    ev.file2_id = -1;
    ev.bytes = 0;
    ev.offset = -1;
    switch (h) {
    case NR_H_READ: case NR_H_WRITE:
        ev.bytes = ok && sl->result > 0 ? sl->result : 0;
        if (ok)
            ev.offset = ofd_advance(pm, idx, ev.bytes, h == NR_H_WRITE, &ev.flags);
        break;
    case NR_H_PREAD: case NR_H_PWRITE:
        ev.bytes = ok && sl->result > 0 ? sl->result : 0;
        if (ok) {
            nr_span off_arg = offset_after_string(rest);
            int64_t off = off_arg.p ? arg_int(off_arg, -1) : -1;
            if (off == -1) /* another form, or preadv2's "current offset": handle_call's */
                return FAST_DECLINED;
            ev.offset = explicit_offset(pm, idx, off, h == NR_H_PWRITE);
        }
        break;
    case NR_H_LSEEK:
        if (ok)
            ofd_seek_to(pm, idx, sl->result);
        break;
    case NR_H_CLOSE:
        replay_close(pm, t, ok, sl->errno_name, first.fd);
        break;
    case NR_H_IOCTL:
        replay_ioctl(pm, t, ok, first.fd, rest);
        break;
    default: /* NR_H_NONE */
        if (empty_path_call) { /* the dirfd itself, as resolve_path_arg finds it; not an fd argument */
            if (!empty_string_arg(rest).p)
                return FAST_DECLINED;
            ev.fd = -1;
        }
        /* a stat of an fd: its struct is the first {...} after the fd (and the "" path) */
        if (in->mode_arg >= 0 && ok) {
            if (!in->mode_in_stat)
                return FAST_DECLINED;
            learn_kind(pm, ev.file_id, kind_of_stat(rest));
        }
        ev.bytes = replay_plain_call(pm, in, ev.file_id, ok, sl->result);
        break;
    }
    if (in->fd_arg == 0)
        note_known_annotation(pm, t);
    file_count(pm, ev.file_id, in->counter, ev.bytes, ts);
    return emit_event(pm, t, &ev, in, ok ? sl->result : -1, err);
}

/* Whether t's pending call is a clone (counted in pm->pending_clones). */
static int pending_is_clone(const task *t)
{
    nr_span name = {(const char *)t->pending_text.data, t->pending_name_len};
    return t->pending && is_clone_name(name);
}

/* Ends t's pending call (resumed or flushed). */
static void pending_clear(nr_pm *pm, task *t)
{
    if (pending_is_clone(t))
        pm->pending_clones--;
    t->pending = 0;
    t->close_pending = 0;
    t->early_child = -1;
}

/* Emits the pending call of t as never resumed. */
static int flush_pending(nr_pm *pm, task *t, nr_error *err)
{
    if (!t->pending)
        return 0;
    call c = {0};
    c.closed_early = t->close_pending;
    pending_clear(pm, t);
    nr_span name = {(const char *)t->pending_text.data, t->pending_name_len};
    nr_span args = {name.p + name.n + 1, t->pending_text.len - name.n - 1};
    c.info = syscall_cached(pm, name);
    c.ev.syscall = name;
    c.args = args;
    c.ev.ts_ns = t->pending_ts;
    c.ev.dur_ns = -1;
    c.ev.flags = NR_EVF_NEVER_RESUMED;
    pm->counts.never_resumed++;
    if (pm->cfg.diag) {
        /* the call as its line gave it: until session 48 the example was its name alone (review 48) */
        char example[NR_DIAG_EXAMPLE_MAX + 1];
        const int n = snprintf(example, sizeof example, "%.*s(%.*s <unfinished ...>", (int)name.n, name.p,
                               (int)(args.n < NR_DIAG_EXAMPLE_MAX ? args.n : NR_DIAG_EXAMPLE_MAX), args.p);
        const size_t len = n < 0 ? 0 : (size_t)n < sizeof example ? (size_t)n : sizeof example - 1;
        if (nr_diag_add(pm->cfg.diag, "never_resumed", t->pending_file, t->pending_line, example, len) < 0)
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    }
    return handle_call(pm, t, &c, err);
}

/* The close of t's pending call, at its <unfinished ...> line: reads its fd
 * as it is now and frees it, as the kernel does at the call's entry. The
 * <... resumed> line may come after another thread of the fd table took
 * the number (a dup, an open); closed there, the close took that fd and
 * gave its annotation to the new description (a real DataLoader trace).
 * A failed close keeps nothing either: EBADF means the fd was not open.
 * Returns 0, or NR_E_NOMEM. */
static int close_at_entry(nr_pm *pm, task *t, const nr_syscall_info *info, const nr_sline *sl, int64_t ts)
{
    call c;
    fill_call(&c, info, sl->name, sl->args, sl, ts);
    int32_t idx = -1;
    int64_t fd = -1;
    NR_TRY(read_fd_arg(pm, t, &c, &idx, &fd));
    t->close_pending = 1;
    t->close_fd = fd;
    t->close_file = c.ev.file_id;
    t->close_ghost = pm->adv_ghost;
    t->close_ghost_bits = pm->adv_bits;
    pm->adv_ghost = 0; /* they are the event's, built at the <... resumed> line */
    pm->adv_bits = 0;
    fdtab_close(pm, t->fds, fd);
    return 0;
}

/* A close carried over and seeded (spec_seed_pending): the real model
 * freed its fd at the <unfinished ...> line before the segment, and read
 * its file there; the event takes that file at the stitch. */
static void seed_close(task *t, const nr_sline *sl)
{
    int64_t fd = -1;
    nr_span annot;
    t->close_pending = 1;
    t->close_fd = nr_sarg_fd_at(sl->args, 0, &fd, &annot) == 0 ? fd : -1;
    t->close_file = -1;
    t->close_ghost = 0;
    t->close_ghost_bits = NR_PM_GHOST_CLOSE;
}

/* Makes sl t's pending call (after flushing the one before); carried: a
 * call carried over into a speculative segment, whose line the real model
 * fed already. */
static int on_unfinished(nr_pm *pm, task *t, const nr_sline *sl, int64_t ts, const nr_pm_where *w, int carried,
                         nr_error *err)
{
    NR_TRY(flush_pending(pm, t, err));
    nr_buf *b = &t->pending_text;
    b->len = 0;
    if (nr_buf_put(b, sl->name.p, sl->name.n) < 0 || nr_buf_put(b, "", 1) < 0 ||
        nr_buf_put(b, sl->args.p, sl->args.n) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    t->pending_name_len = sl->name.n;
    t->pending = 1;
    pm->pending_clones += pending_is_clone(t);
    t->pending_ts = ts;
    t->pending_line = w ? w->line : 0;
    t->early_child = -1;
    if (w && w->file && (!t->pending_file || strcmp(t->pending_file, w->file) != 0)) {
        free(t->pending_file);
        t->pending_file = strdup(w->file);
    }
    const nr_syscall_info *info = syscall_of_line(pm, sl);
    if (!info || info->handler != NR_H_CLOSE)
        return 0;
    if (carried)
        seed_close(t, sl);
    else if (close_at_entry(pm, t, info, sl, ts) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory (fd tables)");
    return 0;
}

/* t has ended (exited, killed, or gone in another thread's execve). */
static int task_end(nr_pm *pm, task *t, nr_error *err)
{
    if (!t->exited) {
        t->exited = 1;
        pm->live_tasks--;
    }
    /* the fd table is dropped now: memory follows live tasks, not all tasks */
    fdtab_release(pm, t->fds);
    t->fds = fdtab_new();
    if (!t->fds)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 0;
}

/* Whether t's pending call is an execve (execve, execveat). */
static int pending_execve(nr_pm *pm, const task *t)
{
    if (!t->pending)
        return 0;
    const nr_syscall_info *info = syscall_cached(pm, (nr_span){(const char *)t->pending_text.data, t->pending_name_len});
    return info && info->handler == NR_H_EXECVE; /* a name the table does not know has no entry */
}

/* The thread of leader's process whose execve is pending, or NULL. */
static task *thread_in_execve(nr_pm *pm, const task *leader)
{
    for (size_t i = 0; i < pm->ntasks; i++) {
        task *x = pm->tasks[i];
        if (x != leader && !x->exited && x->pid == leader->tid && pending_execve(pm, x))
            return x;
    }
    return NULL;
}

/* A thread that is not its process's leader runs execve: the kernel ends
 * every other thread and gives it the leader's tid, and strace prints its
 * <... execve resumed> under that tid, after "+++ superseded by execve in
 * pid N +++" (a notice; N the thread). At such a resumed line of leader,
 * with no execve of its own pending, the thread's pending execve becomes
 * the leader's (a call of its own still pending never returns) and the
 * thread ends. Returns 1 when it did, 0 when no thread's execve is
 * pending, or an error. */
static int take_thread_execve(nr_pm *pm, task *leader, const nr_sline *sl, nr_error *err)
{
    const nr_syscall_info *info = syscall_of_line(pm, sl);
    if (!info || info->handler != NR_H_EXECVE || leader->pid != leader->tid)
        return 0;
    task *x = thread_in_execve(pm, leader);
    if (!x)
        return 0;
    if (pm->cfg.speculative) { /* the thread is the real model's to end */
        spec_refuse(pm, "an execve resumed by its process's leader");
        return 0;
    }
    NR_TRY(flush_pending(pm, leader, err));
    /* x's execve ends here, before its text goes to the leader: after the
       swap x's name length no longer fits its text (the leader's, maybe
       none yet: a NULL read as a name, session 43's fuzzing) */
    pending_clear(pm, x);
    const nr_buf text = leader->pending_text;
    leader->pending_text = x->pending_text;
    x->pending_text = text;
    char *const file = leader->pending_file;
    leader->pending_file = x->pending_file;
    x->pending_file = file;
    leader->pending_name_len = x->pending_name_len;
    leader->pending_ts = x->pending_ts;
    leader->pending_line = x->pending_line;
    leader->pending = 1;
    leader->early_child = -1;
    x->pending_name_len = 0;
    NR_TRY(task_end(pm, x, err));
    return 1;
}

/* Whether sl, a <... resumed> line of t, resumes t's pending call (a
 * resumed line without name, the tail of a cut line, resumes any). */
static int resumes_pending(const task *t, const nr_sline *sl)
{
    return t->pending && (!sl->name.n || (sl->name.n == t->pending_name_len &&
                                          memcmp(sl->name.p, t->pending_text.data, sl->name.n) == 0));
}

/* A successful <... execve resumed> of a leader with no call pending and no
 * thread's execve pending: a thread's execve whose start strace did not
 * print (-z prints a call only once it succeeded; or the log began later).
 * The exec happened: the call becomes the leader's, with no arguments (its
 * program unknown), starting its duration before the line, and every other
 * thread of the process ends (the kernel's de_thread). Returns 1 when it
 * did, 0 when sl is not such a line, or an error. */
static int adopt_unprinted_execve(nr_pm *pm, task *leader, const nr_sline *sl, const nr_pm_where *w,
                                  nr_error *err)
{
    const nr_syscall_info *info = syscall_of_line(pm, sl);
    if (leader->pending || !info || info->handler != NR_H_EXECVE || leader->pid != leader->tid ||
        !sl->has_result || sl->result != 0)
        return 0;
    nr_sline start = *sl;
    start.args = (nr_span){sl->args.p, 0};
    const int64_t ts = sl->ts_form != NR_TS_NONE && sl->dur_ns > 0 ? sl->ts_ns - sl->dur_ns : sl->ts_ns;
    NR_TRY(on_unfinished(pm, leader, &start, ts, w, 0, err));
    for (size_t i = 0; i < pm->ntasks; i++) {
        task *x = pm->tasks[i];
        if (x != leader && !x->exited && x->pid == leader->tid) {
            NR_TRY(flush_pending(pm, x, err)); /* a call of its own never returns */
            NR_TRY(task_end(pm, x, err));
        }
    }
    if (pm->cfg.diag && nr_diag_add(pm->cfg.diag, "execve_start_not_printed", w ? w->file : NULL, w ? w->line : 0,
                                    w ? w->text : NULL, w ? w->len : 0) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 1;
}

static int on_resumed(nr_pm *pm, task *t, const nr_sline *sl, const nr_pm_where *w, nr_error *err)
{
    if (!resumes_pending(t, sl)) {
        int taken = take_thread_execve(pm, t, sl, err);
        if (taken == 0 && !pm->refused)
            taken = adopt_unprinted_execve(pm, t, sl, w, err);
        if (taken < 0)
            return taken;
        if (pm->refused)
            return 0;
    }
    nr_span pname = {(const char *)t->pending_text.data, t->pending_name_len};
    if (!resumes_pending(t, sl)) {
        if (pm->cfg.diag && nr_diag_add(pm->cfg.diag, "unmatched_resumed", w ? w->file : NULL, w ? w->line : 0,
                                        w ? w->text : NULL, w ? w->len : 0) < 0)
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
        return 1; /* skipped */
    }
    /* the call = pending part + resumed part, joined in the task's own buffer */
    nr_buf *b = &t->pending_text;
    if (nr_buf_put(b, sl->args.p, sl->args.n) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    pname.p = (const char *)b->data;
    nr_span args = {pname.p + pname.n + 1, b->len - pname.n - 1};
    call c;
    fill_call(&c, syscall_cached(pm, pname), pname, args, sl, t->pending_ts);
    c.ev.flags |= NR_EVF_RESUMED;
    c.closed_early = t->close_pending;
    pending_clear(pm, t);
    pm->counts.resumed++;
    return handle_call(pm, t, &c, err);
}

uint64_t nr_pm_tables_version(const nr_pm *pm) { return pm->tables_version; }

/* Tasks nr_pm_shared_tables looks through: more (tids reused many times)
 * give no hint, rather than a look at every task per chunk. */
#define SHARED_TABLES_TASKS_MAX 16384

size_t nr_pm_shared_tables(const nr_pm *pm, nr_pm_shared_table *out, size_t cap)
{
    if (pm->ntasks > SHARED_TABLES_TASKS_MAX)
        return 0;
    size_t n = 0;
    for (size_t i = 0; i < pm->ntasks; i++) {
        const task *t = pm->tasks[i];
        if (t->exited || t->fds->refs < 2)
            continue;
        if (n == cap)
            return 0;
        out[n++] = (nr_pm_shared_table){t->tid, (uint64_t)(uintptr_t)t->fds};
    }
    return n;
}

void nr_pm_spec_tables(nr_pm *spec, const nr_pm_shared_table *tables, size_t n)
{
    spec->spec_tables = tables;
    spec->nspec_tables = n;
}

void nr_pm_spec_carry(nr_pm *spec, const nr_sline *calls, const nr_pm_where *where, size_t n)
{
    spec->carried = calls;
    spec->carried_where = where;
    spec->ncarried = n;
}

/* Speculative, at a <... resumed> of t with no call pending: makes the call
 * carried over for t (nr_pm_spec_carry) t's pending one, as the real model
 * holds it if the stitch finds it so (check_tasks): 1, or 0 when none is
 * carried, or t's was taken already, or t had an <unfinished ...> line in
 * the segment (which ended the carried call as never resumed there: found
 * by fuzzing). A clone is not: its task is the real model's to make. A
 * close is taken without its fd (seed_close). */
static int spec_seed_pending(nr_pm *pm, task *t, nr_error *err)
{
    if (t->seeded || t->spec_unfinished)
        return 0;
    for (size_t k = 0; k < pm->ncarried; k++) {
        const nr_sline *c = &pm->carried[k];
        if (c->pid != t->tid)
            continue;
        if (is_clone_name(c->name))
            return 0;
        NR_TRY(on_unfinished(pm, t, c, c->ts_ns, &pm->carried_where[k], 1, err));
        t->seeded = 1;
        t->seed_line = t->pending_line;
        return 1;
    }
    return 0;
}

static int on_task_end(nr_pm *pm, task *t, const nr_sline *sl, int64_t ts_ns, nr_error *err)
{
    NR_TRY(flush_pending(pm, t, err));
    t->end_ts = ts_ns;
    if (sl->kind == NR_SL_EXITED) {
        t->exit_code = sl->exit_code;
    } else {
        int64_t id = nr_strtab_intern(&pm->names, sl->name.p, sl->name.n);
        if (id < 0)
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
        t->killed_by_id = id;
    }
    return task_end(pm, t, err);
}

/* Whether a speculative model stops at this line: once refused it reads no
 * more (the segment goes to the real model); lines without a pid (stderr
 * mode) and task ends refuse. */
static int spec_refuses_line(nr_pm *pm, const nr_sline *sl, int64_t tid)
{
    if (!pm->refused && tid < 0)
        spec_refuse(pm, "a line without pid (stderr mode)");
    if (!pm->refused && (sl->kind == NR_SL_EXITED || sl->kind == NR_SL_KILLED))
        spec_refuse(pm, "a task's end");
    return pm->refused != NULL;
}

/* stderr mode: a whole call line without pid while two or more tasks
 * live, for a task that has a call pending (task_for_unprefixed). strace
 * 6.1 prefixes every line while it traces more than one task, and a task
 * with a call pending makes no other call: it is the traced program's own
 * text ("read(3, \"fake\", 4) = 4" printed to stderr), skipped and counted
 * (diagnostics call_while_pending). Until session 47 it was a call of that
 * task, and moved the offset of the fd it named. Returns 2 (nr_pm_feed). */
static int reject_call_while_pending(nr_pm *pm, const nr_pm_where *w, nr_error *err)
{
    if (pm->cfg.diag && nr_diag_add(pm->cfg.diag, "call_while_pending", w ? w->file : NULL, w ? w->line : 0,
                                    w ? w->text : NULL, w ? w->len : 0) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    return 2;
}

int nr_pm_feed(nr_pm *pm, const nr_sline *sl, int64_t file_pid, int64_t ts_ns,
               const nr_pm_where *where, nr_error *err)
{
    switch (sl->kind) {
    case NR_SL_SYSCALL: case NR_SL_UNFINISHED: case NR_SL_RESUMED:
    case NR_SL_SIGNAL: case NR_SL_EXITED: case NR_SL_KILLED:
        break;
    default:
        return 0;
    }
    int64_t tid = sl->pid >= 0 ? sl->pid : file_pid;
    if (pm->cfg.speculative && spec_refuses_line(pm, sl, tid))
        return 0;
    pm->where = where; /* a root's first line (note_root_seen) */
    pm->where_file_pid = file_pid;
    task *t;
    if (tid >= 0) {
        t = task_find(pm, tid);
        if (t && t->exited && sl->kind != NR_SL_EXITED && sl->kind != NR_SL_KILLED)
            t = NULL; /* a line after "+++ exited": the tid is reused */
        if (!t && !(t = task_new_seen(pm, tid, err)))
            return err ? err->code : NR_E_NOMEM;
    } else if (sl->kind == NR_SL_RESUMED && sl->name.n == 0 && pm->prev_task) {
        /* the tail of a line cut by an attach notice (stderr mode): it
         * continues the line before it, whatever task that was; with no
         * call pending there it is unmatched, never another task's call
         * (the program's output cut the line: "write(2, "abc\n", 4abc") */
        t = pm->prev_task;
    } else if (!(t = task_for_unprefixed(pm, err))) {
        return err ? err->code : NR_E_NOMEM;
    } else if (sl->kind == NR_SL_SYSCALL && t->pending && pm->live_tasks >= 2) {
        return reject_call_while_pending(pm, where, err);
    }
    pm->prev_task = t;
    if (ts_ns >= 0)
        merge_time_span(&pm->counts.first_ts_ns, &pm->counts.last_ts_ns, ts_ns, ts_ns);
    switch (sl->kind) {
    case NR_SL_SYSCALL: {
        const nr_syscall_info *info = syscall_of_line(pm, sl);
        if (info && !fast_path_off) {
            int rc = feed_known_fd(pm, t, sl, info, ts_ns, err);
            if (rc != FAST_DECLINED)
                return rc;
        }
        call c;
        fill_call(&c, info, sl->name, sl->args, sl, ts_ns);
        return handle_call(pm, t, &c, err);
    }
    case NR_SL_UNFINISHED:
        t->spec_unfinished = 1;
        return on_unfinished(pm, t, sl, ts_ns, where, 0, err);
    case NR_SL_RESUMED:
        if (pm->cfg.speculative && !t->pending) {
            int seeded = spec_seed_pending(pm, t, err);
            if (seeded < 0)
                return seeded;
            if (!seeded) {
                spec_refuse(pm, "a <... resumed> whose call may be pending in the real model");
                return 0;
            }
        }
        return on_resumed(pm, t, sl, where, err);
    case NR_SL_SIGNAL:
        t->signals++;
        return 0;
    default: return on_task_end(pm, t, sl, ts_ns, err);
    }
}

static int compare_tasks_by_tid(const void *a, const void *b)
{
    const task *x = *(task *const *)a, *y = *(task *const *)b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->serial < y->serial ? -1 : x->serial > y->serial;
}

/* The trace a root belongs to: every -ff log is one (1), any other log
 * one of its own (2 + its index); 0 unknown. */
static uint32_t root_trace(const task *t)
{
    return t->seen_ff ? 1 : t->seen_log ? 1 + t->seen_log : 0;
}

/* Roots that no clone made, after the first of their trace (a log, or
 * all -ff logs): a task first seen without the clone that made it (a trace
 * without clone, -e trace=%file; -Z; strace -p of a process with threads)
 * is a root with an empty fd table of its own, so the process tree is
 * unknown and the fds it shares are not its. Counted (diagnostics
 * task_without_clone) with the line it was first seen at, in creation
 * order; a root that a later clone adopted (handle_clone) is none. */
static int note_tasks_without_clone(nr_pm *pm, nr_error *err)
{
    if (!pm->cfg.diag)
        return 0;
    uint8_t had_root[64] = {0}; /* by root_trace, below 64; the rest by a scan */
    for (size_t i = 0; i < pm->ntasks; i++) {
        const task *t = pm->tasks[i];
        const uint32_t trace = root_trace(t);
        if (t->origin != ORIGIN_ROOT || !trace)
            continue;
        int first = 1;
        if (trace < sizeof had_root) {
            first = !had_root[trace];
            had_root[trace] = 1;
        } else {
            for (size_t k = 0; k < i && first; k++)
                first = !(pm->tasks[k]->origin == ORIGIN_ROOT && root_trace(pm->tasks[k]) == trace);
        }
        if (first)
            continue;
        const char *file = t->seen_log ? nr_strtab_str(&pm->seen_logs, t->seen_log - 1) : NULL;
        char msg[200];
        int n = snprintf(msg, sizeof msg,
                         "task %lld first seen here without the clone that made it: its own process, fd table "
                         "empty; trace with -e trace=...,%%process",
                         (long long)t->tid);
        if (nr_diag_add(pm->cfg.diag, "task_without_clone", file, t->seen_line, msg, (size_t)n) < 0)
            return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    }
    return 0;
}

int nr_pm_finish(nr_pm *pm, nr_error *err)
{
    if (pm->finished)
        return 0;
    pm->finished = 1;
    pm->where = NULL;
    NR_TRY(note_tasks_without_clone(pm, err));
    if (pm->ntasks)
        qsort(pm->tasks, pm->ntasks, sizeof *pm->tasks, compare_tasks_by_tid);
    memset(pm->recent_tasks, 0, sizeof pm->recent_tasks);
    if (pm->ntasks && task_index_rebuild(pm, pm->task_nslots) < 0)
        return nr_error_set(err, NR_E_NOMEM, "ingest: out of memory");
    for (size_t i = 0; i < pm->ntasks; i++)
        NR_TRY(flush_pending(pm, pm->tasks[i], err));
    return 0;
}

/* ---- results ----------------------------------------------------------- */

size_t nr_pm_file_count(const nr_pm *pm) { return pm->paths.count; }

const nr_pm_file *nr_pm_file_get(const nr_pm *pm, size_t id, const char **path, size_t *len)
{
    *path = nr_strtab_str(&pm->paths, id);
    *len = nr_strtab_len(&pm->paths, id);
    return file_at(pm, id);
}

size_t nr_pm_task_count(const nr_pm *pm) { return pm->ntasks; }

void nr_pm_task_get(const nr_pm *pm, size_t i, nr_pm_task *out)
{
    const task *t = pm->tasks[i];
    out->tid = t->tid;
    out->pid = t->pid;
    out->ppid = t->ppid;
    out->is_thread = t->is_thread;
    out->first_ts_ns = t->first_ts;
    out->last_ts_ns = t->last_ts;
    out->end_ts_ns = t->end_ts;
    out->exe = nr_strtab_str(&pm->names, (size_t)t->exe_id);
    out->exit_code = t->exit_code;
    out->killed_by = nr_strtab_str(&pm->names, (size_t)t->killed_by_id);
    out->events = t->events;
    out->signals = t->signals;
}

const nr_pm_proc *nr_pm_process_at(const nr_pm *pm, int64_t pid, int64_t ts_ns)
{
    const task *leader = NULL;
    for (const task *t = task_find((nr_pm *)pm, pid); t; t = t->older) {
        if (t->leader != t)
            continue; /* a thread that had the number */
        leader = t;
        if (t->first_ts <= ts_ns) /* -1 (no event yet) too */
            break;
    }
    return leader;
}

const nr_pm_proc *nr_pm_parent_process(const nr_pm_proc *p, int64_t *by_tid)
{
    const task *by = p->parent;
    *by_tid = by ? by->tid : -1;
    return by ? by->leader : NULL;
}

int64_t nr_pm_process_pid(const nr_pm_proc *p) { return p->pid; }

size_t nr_pm_process_key(const nr_pm_proc *p) { return p->serial; }

uint64_t nr_pm_tree_version(const nr_pm *pm) { return pm->tree_version; }

int nr_pm_knows_task(const nr_pm *pm, int64_t tid) { return task_find((nr_pm *)pm, tid) != NULL; }

void nr_pm_get_counts(const nr_pm *pm, nr_pm_counts *out) { *out = pm->counts; }

/* ---- speculation --------------------------------------------------------- */

const char *nr_pm_refused(const nr_pm *spec) { return spec->refused; }

typedef struct nr_pm_stitch stitch;

struct nr_pm_stitch {
    nr_pm *pm;
    nr_pm *spec;
    int64_t *file_map;     /* spec's file id -> pm's */
    uint8_t *dir_upgrade;  /* by spec's file id: a known_directory (its kind and its fds' are pm's) */
    /* by ghost */
    int32_t *target;       /* the real ofd it stands for, -1 none */
    size_t *slot;          /* the ghost whose replay state it shares (one per real ofd) */
    int64_t *off;          /* replay state (at the slot's index): the real offset, -1 unknown */
    uint8_t *guessed, *append, *seekable;
    int64_t *ghost_file;   /* the real fd's file at the segment's start; -1 none */
    int32_t *copied;       /* by spec ofd: the real ofd made for it (apply_fds), -1 none yet */
};

static void stitch_free(stitch *st)
{
    free(st->file_map);
    free(st->dir_upgrade);
    free(st->target);
    free(st->slot);
    free(st->off);
    free(st->guessed);
    free(st->append);
    free(st->seekable);
    free(st->ghost_file);
    free(st->copied);
}

static int stitch_alloc(stitch *st, size_t nfiles, size_t nghosts, size_t nofds)
{
    nfiles += !nfiles;
    nghosts += !nghosts;
    nofds += !nofds;
    st->copied = malloc(nofds * sizeof *st->copied);
    for (size_t i = 0; st->copied && i < nofds; i++)
        st->copied[i] = -1;
    st->file_map = malloc(nfiles * sizeof *st->file_map);
    st->dir_upgrade = malloc(nfiles);
    st->target = malloc(nghosts * sizeof *st->target);
    st->slot = malloc(nghosts * sizeof *st->slot);
    st->off = malloc(nghosts * sizeof *st->off);
    st->guessed = malloc(nghosts);
    st->append = malloc(nghosts);
    st->seekable = malloc(nghosts);
    st->ghost_file = malloc(nghosts * sizeof *st->ghost_file);
    return st->file_map && st->dir_upgrade && st->target && st->slot && st->off && st->guessed && st->append &&
                   st->seekable && st->ghost_file && st->copied
               ? 0
               : NR_E_NOMEM;
}

/* The live task of tid in pm (a line of an exited tid starts a new one). */
static task *live_task(nr_pm *pm, int64_t tid)
{
    task *t = task_find(pm, tid);
    return t && !t->exited ? t : NULL;
}

/* The real ofd a ghost stands for, or -1. */
static int32_t ghost_target(nr_pm *pm, const spec_ghost *g)
{
    task *rt = live_task(pm, g->tid);
    return rt ? fdtab_get(rt->fds, g->fd) : -1;
}

static int fdtab_has_touched(const fdtab *t)
{
    for (size_t fd = 0; fd < t->cap; fd++)
        if (t->cloexec[fd] & SPEC_TOUCHED)
            return 1;
    return 0;
}

/* Tasks and their shared tables: spec's tasks share the fd tables the
 * hint gave them (nr_pm_spec_tables), which the real tasks must share too;
 * two spec tasks of their own tables that share a real one must not change
 * it (one's open would be the other's fd), and two that share a real fs
 * must not both set its cwd. */
#define STITCH_TASKS_MAX 512

/* Whether rt's pending call is the one seeded into st (spec_seed_pending):
 * the same line of the one log, so the same call (its text and stamp). */
static int holds_seed(const task *rt, const task *st)
{
    return rt && rt->pending && rt->pending_line == st->seed_line;
}

static const char *check_tasks(nr_pm *pm, const nr_pm *spec)
{
    if (spec->ntasks > STITCH_TASKS_MAX)
        return "more tasks in the segment than the stitch compares";
    for (size_t i = 0; i < spec->ntasks; i++) {
        const task *st = spec->tasks[i];
        task *rt = live_task(pm, st->tid);
        if (!rt && pm->pending_clones)
            return "a new task while a clone is pending in the real model";
        if (st->seeded && !holds_seed(rt, st))
            return "a call carried over that the real model does not hold pending";
        if (rt && st->spec_unfinished && rt->pending && !st->seeded)
            return "an <unfinished ...> of a task whose call is pending in the real model";
        if (!rt && st->fds->refs > 1)
            return "a new task the segment took for sharing an fd table";
        if (!rt)
            continue;
        int touched = fdtab_has_touched(st->fds);
        for (size_t j = i + 1; j < spec->ntasks; j++) {
            const task *su = spec->tasks[j];
            task *ru = live_task(pm, su->tid);
            int real_shared = ru && ru->fds == rt->fds;
            if (su->fds == st->fds && !real_shared)
                return "two tasks the segment took for sharing an fd table that do not";
            if (su->fds != st->fds && real_shared && (touched || fdtab_has_touched(su->fds)))
                return "two tasks that share an fd table, one changing it";
            if (ru && ru->fs == rt->fs && st->fs->cwd_set && su->fs->cwd_set)
                return "two tasks that share a cwd, both setting it";
        }
    }
    return NULL;
}

/* Whether local file i is a directory pm knows as one that spec took for a
 * regular file, without consequence: it computed no offset through an fd
 * of it (seekability is the one thing the two kinds change), nor gave it a
 * third kind. */
static int known_directory(const nr_pm *pm, const nr_pm *spec, size_t i, int64_t g)
{
    int final_kind = file_at(spec, (int64_t)i)->kind;
    return file_at(pm, g)->kind == NR_KIND_DIRECTORY && spec->kind0[i] == NR_KIND_REGULAR && !spec->kind_used[i] &&
           (final_kind == NR_KIND_REGULAR || final_kind == NR_KIND_DIRECTORY);
}

/* Local files: a file pm knows must have had the kind spec interned it
 * with (or be a known_directory). Fills st->file_map (new files get the ids they will be given). */
static const char *check_files(nr_pm *pm, const nr_pm *spec, stitch *st)
{
    enum { AHEAD = 8 }; /* the look-ups' three cache misses overlap, as prefetch_paths does */
    const struct nr_strtab_entry *local = spec->paths.entries;
    const size_t n = spec->paths.count;
    size_t next = pm->paths.count;
    for (size_t i = 0; i < n; i++) {
        if (i + 2 * AHEAD < n)
            nr_pm_prefetch_path_slot(pm, local[i + 2 * AHEAD].hash);
        if (i + AHEAD < n)
            nr_pm_prefetch_path_record(pm, local[i + AHEAD].hash);
        if (i + AHEAD / 2 < n)
            nr_pm_prefetch_path_file(pm, local[i + AHEAD / 2].hash);
        int64_t g = nr_strtab_find_hashed(&pm->paths, local[i].str, local[i].len, local[i].hash);
        st->dir_upgrade[i] = 0;
        if (g >= 0 && file_at(pm, g)->kind != spec->kind0[i]) {
            if (!known_directory(pm, spec, i, g))
                return "a file whose kind the segment saw otherwise";
            st->dir_upgrade[i] = 1;
        }
        st->file_map[i] = g >= 0 ? g : (int64_t)next++;
    }
    return NULL;
}

/* Ghosts: what each stands for, and whether the segment's use of it is
 * what the real model would have done. Two ghosts of one real open file
 * description share one offset replay (st->slot). */
static const char *check_ghosts(nr_pm *pm, const nr_pm *spec, stitch *st)
{
    for (size_t i = 0; i < spec->nghosts; i++) {
        const spec_ghost *g = &spec->ghosts[i];
        int32_t r = ghost_target(pm, g);
        st->target[i] = r;
        st->slot[i] = i;
        st->off[i] = r >= 0 ? pm->ofds[r].offset : 0;
        st->guessed[i] = r >= 0 ? pm->ofds[r].offset_guessed : 1;
        st->append[i] = r >= 0 ? pm->ofds[r].append : 0;
        st->seekable[i] = r >= 0 ? (uint8_t)ofd_seekable(pm, r) : 1; /* a fresh one's kind is unknown */
        st->ghost_file[i] = r >= 0 ? pm->ofds[r].file_id : -1;
        if (r < 0)
            continue;
        const ofd *o = &pm->ofds[r];
        int same_annot = g->annotated && o->annot_len == g->first_annot_len && o->file_id >= 0 &&
                         memcmp(o->annot, g->first_annot, g->first_annot_len) == 0;
        if (g->closed && o->refs > 1 && g->annotated && !(same_annot && !g->reannotated))
            return "a shared open file description annotated otherwise, then its fd closed";
        /* the real description's file is its open's: a name ending in " (deleted)" is kept
           there (file_of_annotation), stripped in a ghost's first annotation */
        if (same_annot && g->file_at_annot >= 0 && st->file_map[g->file_at_annot] != o->file_id)
            return "an fd whose annotation names another file in the real model";
        if (same_annot && o->kind != g->kind_at_annot &&
            !(o->kind == NR_KIND_DIRECTORY && g->kind_at_annot == NR_KIND_REGULAR && g->file_at_annot >= 0 &&
              st->dir_upgrade[g->file_at_annot]))
            return "an fd whose kind the segment saw otherwise";
        for (size_t j = 0; j < i; j++) {
            if (st->target[j] != r)
                continue;
            const spec_ghost *h = &spec->ghosts[j];
            /* the order of their annotations is not known: only one, the same for both, is safe */
            if (g->annotated && h->annotated &&
                (g->reannotated || h->reannotated || g->first_annot_len != h->first_annot_len ||
                 memcmp(g->first_annot, h->first_annot, g->first_annot_len) != 0))
                return "two fds of one open file description, annotated otherwise";
            /* one's annotation may name the description anew before the other's event that
               took its file at the segment's start */
            if ((g->annotated && h->named_bare) || (h->annotated && g->named_bare))
                return "two fds of one open file description, one annotated, one named by the real fd";
            st->slot[i] = st->slot[j]; /* every earlier ghost of r: each pair is checked */
        }
    }
    return NULL;
}

/* Replays the moves of the ghosts' offsets on the real ones (in order:
 * two ghosts of one description interleave as they did), giving each move
 * the offset ofd_advance would have given it. */
static void replay_offsets(stitch *st, nr_pm *spec)
{
    for (size_t i = 0; i < spec->nghost_ops; i++) {
        ghost_op *op = &spec->ghost_ops[i];
        size_t k = st->slot[op->ghost - 1];
        op->offset = -1;
        op->guessed = 0;
        if (op->bits & NR_PM_GHOST_SEEK) {
            st->off[k] = op->at;
            st->guessed[k] = 0;
        } else if (op->bare && !st->seekable[k]) {
            continue; /* a pipe or socket the unannotated ghost did not know for one (once annotated,
                         the ghost's kind is the real one's, and it moved only if seekable) */
        } else if ((op->bits & NR_PM_GHOST_WRITE) && st->append[k]) {
            st->off[k] = -1; /* the end of the file: unknown to the trace */
        } else if (st->off[k] >= 0) {
            op->offset = st->off[k];
            op->guessed = st->guessed[k];
            if (op->bytes > 0 && __builtin_add_overflow(st->off[k], op->bytes, &st->off[k]))
                st->off[k] = -1; /* as ofd_advance */
        }
    }
}

/* Every real description a ghost stands for takes its replayed offset,
 * before any fd is closed: also one whose fd the segment closed, which
 * another fd (a forked task's) may share. */
static void apply_ghost_offsets(nr_pm *pm, const nr_pm *spec, const stitch *st)
{
    for (size_t i = 0; i < spec->nghosts; i++) {
        if (st->target[i] < 0)
            continue;
        pm->ofds[st->target[i]].offset = st->off[st->slot[i]];
        pm->ofds[st->target[i]].offset_guessed = st->guessed[st->slot[i]];
    }
}

/* The files: new ones appended in spec's order, totals added. */
static int apply_files(nr_pm *pm, const nr_pm *spec, const stitch *st)
{
    for (size_t i = 0; i < spec->paths.count; i++) {
        const nr_pm_file *lf = file_at(spec, (int64_t)i);
        int64_t g = st->file_map[i];
        if ((size_t)g >= pm->paths.count) {
            const struct nr_strtab_entry *e = &spec->paths.entries[i]; /* hashed by spec, looked up by check_files */
            int64_t id = nr_strtab_intern_hashed(&pm->paths, e->str, e->len, e->hash);
            if (id < 0)
                return (int)id;
            NR_TRY(file_blocks_reach(pm, id));
            pm->nfiles = (size_t)id + 1;
            *file_at(pm, id) = *lf;
            continue;
        }
        nr_pm_file *f = file_at(pm, g);
        if (!st->dir_upgrade[i])
            f->kind = lf->kind;
        add_bytes(&f->bytes_read, lf->bytes_read);
        add_bytes(&f->bytes_written, lf->bytes_written);
        f->read_calls += lf->read_calls;
        f->write_calls += lf->write_calls;
        f->open_calls += lf->open_calls;
        f->close_calls += lf->close_calls;
        f->meta_calls += lf->meta_calls;
        f->sync_calls += lf->sync_calls;
        merge_time_span(&f->first_ts_ns, &f->last_ts_ns, lf->first_ts_ns, lf->last_ts_ns);
    }
    return 0;
}

/* The kind pm gives an ofd of spec's: a known_directory's fds are
 * directories there. */
static int mapped_kind(const ofd *o, const stitch *st)
{
    return o->kind == NR_KIND_REGULAR && o->file_id >= 0 && st->dir_upgrade[o->file_id] ? NR_KIND_DIRECTORY : o->kind;
}

/* A copy of spec's ofd o in pm (file mapped), or NR_E_NOMEM. */
static int32_t copy_ofd(nr_pm *pm, const ofd *o, const stitch *st)
{
    int32_t idx = ofd_new(pm, o->file_id >= 0 ? st->file_map[o->file_id] : -1, mapped_kind(o, st));
    if (idx < 0)
        return idx;
    ofd *n = &pm->ofds[idx];
    n->offset = o->offset;
    n->offset_guessed = o->offset_guessed;
    n->append = o->append;
    return ofd_keep_annot(n, o->annot, o->annot_len, o->annot_plain) < 0 ? NR_E_NOMEM : idx;
}

/* The real ofd r takes the annotations the segment gave its ghost o (g)
 * (its replayed offset it took in apply_ghost_offsets): the first one
 * changed r only if r held another, later ones changed it as they changed
 * o. */
static int update_ofd(nr_pm *pm, int32_t r, const ofd *o, const spec_ghost *g, const stitch *st)
{
    ofd *n = &pm->ofds[r];
    int kept = g->annotated && !g->reannotated && n->annot_len == g->first_annot_len && n->file_id >= 0 &&
               memcmp(n->annot, g->first_annot, g->first_annot_len) == 0;
    if (!o->annot_len || kept)
        return 0; /* never annotated (looked up only), or as r was: r's file and kind stand */
    n->file_id = o->file_id >= 0 ? st->file_map[o->file_id] : -1;
    n->kind = (uint8_t)mapped_kind(o, st);
    return ofd_keep_annot(n, o->annot, o->annot_len, o->annot_plain);
}

/* The real ofd for spec's ofd idx (not a ghost's, or a ghost's the real
 * model made fresh), made at its first fd: one per description, so that
 * fds the segment dup'ed share it. A reference to it, or NR_E_NOMEM. */
static int32_t copied_ofd(nr_pm *pm, const nr_pm *spec, int32_t idx, const stitch *st)
{
    int32_t n = st->copied[idx];
    if (n >= 0) {
        pm->ofds[n].refs++;
        return n;
    }
    const ofd *o = &spec->ofds[idx];
    if ((n = copy_ofd(pm, o, st)) < 0)
        return n;
    if (o->ghost) { /* made fresh by the real model: offset 0, guessed, then replayed */
        pm->ofds[n].offset = st->off[st->slot[o->ghost - 1]];
        pm->ofds[n].offset_guessed = st->guessed[st->slot[o->ghost - 1]];
    }
    return st->copied[idx] = n;
}

/* The real task's fd table takes the final state of spec task su's. The
 * descriptions ghosts stand for are pinned (pin_targets), so closing an fd
 * frees none that a later fd of the segment's table takes. */
static int apply_fds(nr_pm *pm, const nr_pm *spec, const task *su, task *rt, const stitch *st)
{
    const fdtab *t = su->fds;
    for (size_t fd = 0; fd < t->cap; fd++) {
        int32_t idx = t->ofd[fd];
        if (idx < 0) {
            if (t->cloexec[fd] & SPEC_TOUCHED)
                fdtab_close(pm, rt->fds, (int64_t)fd);
            continue;
        }
        const ofd *o = &spec->ofds[idx];
        const size_t gi = o->ghost ? o->ghost - 1u : 0;
        int32_t r = o->ghost ? st->target[gi] : -1;
        if (r >= 0) {
            NR_TRY(update_ofd(pm, r, o, &spec->ghosts[gi], st));
            if (fdtab_get(rt->fds, (int64_t)fd) == r &&
                (!(t->cloexec[fd] & SPEC_TOUCHED) || (rt->fds->cloexec[fd] & 1u) == (t->cloexec[fd] & 1u)))
                continue; /* the ghost's own fd, as it was */
            pm->ofds[r].refs++; /* a dup of it, or its own fd made again */
        } else if (o->ghost && !spec->ghosts[gi].materialized) {
            continue; /* only looked up: the real model made nothing */
        } else if ((r = copied_ofd(pm, spec, idx, st)) < 0) {
            return r;
        }
        NR_TRY(fdtab_install(pm, rt->fds, (int64_t)fd, r, t->cloexec[fd] & 1u));
    }
    return 0;
}

/* Takes (pin) or gives back a reference to every real description a
 * ghost stands for, around apply_tasks. */
static void pin_targets(nr_pm *pm, const nr_pm *spec, const stitch *st, int pin)
{
    for (size_t i = 0; i < spec->nghosts; i++) {
        if (st->target[i] < 0)
            continue;
        if (pin)
            pm->ofds[st->target[i]].refs++;
        else
            ofd_unref(pm, st->target[i]);
    }
}

/* A new real task, as task_new_seen makes a root of su (spec's task). */
static task *add_root_task(nr_pm *pm, const nr_pm *spec, const task *su)
{
    task *t = task_add(pm, su->tid);
    if (!t || make_root(t, pm->start_cwd) < 0)
        return NULL;
    t->seen_log = su->seen_log ? seen_log_index(pm, nr_strtab_str(&spec->seen_logs, su->seen_log - 1)) : 0;
    t->seen_ff = su->seen_ff;
    t->seen_line = su->seen_line;
    return t;
}

/* Moves su's pending call to rt; a close's file in pm's ids (read at the
 * <unfinished ...> line: a bare ghost's is the real fd's). */
static int move_pending(nr_pm *pm, task *rt, const task *su, const stitch *st)
{
    rt->close_pending = su->close_pending;
    rt->close_fd = su->close_fd;
    rt->close_ghost = 0;
    rt->close_ghost_bits = 0;
    if (su->close_ghost_bits & NR_PM_GHOST_FILE)
        rt->close_file = st->ghost_file[su->close_ghost - 1];
    else
        rt->close_file = su->close_file >= 0 ? st->file_map[su->close_file] : -1;
    rt->pending_text.len = 0;
    NR_TRY(nr_buf_put(&rt->pending_text, su->pending_text.data, su->pending_text.len));
    rt->pending_name_len = su->pending_name_len;
    rt->pending = 1;
    rt->pending_ts = su->pending_ts;
    rt->pending_line = su->pending_line;
    rt->early_child = -1;
    free(rt->pending_file);
    rt->pending_file = NULL;
    if (su->pending_file && !(rt->pending_file = strdup(su->pending_file)))
        return NR_E_NOMEM;
    pm->pending_clones += pending_is_clone(rt);
    return 0;
}

/* Whether spec's task i shares the fd table of an earlier one (its final
 * state applied once is enough). */
static int table_applied(const nr_pm *spec, size_t i)
{
    for (size_t k = 0; spec->tasks[i]->fds->refs > 1 && k < i; k++)
        if (spec->tasks[k]->fds == spec->tasks[i]->fds)
            return 1;
    return 0;
}

static int apply_tasks(nr_pm *pm, const nr_pm *spec, const stitch *st)
{
    for (size_t i = 0; i < spec->ntasks; i++) {
        const task *su = spec->tasks[i];
        task *rt = live_task(pm, su->tid);
        if (!rt && !(rt = add_root_task(pm, spec, su)))
            return NR_E_NOMEM;
        rt->events += su->events;
        rt->signals += su->signals;
        rt->annotated |= su->annotated;
        if (rt->first_ts < 0)
            rt->first_ts = su->first_ts;
        if (su->last_ts > rt->last_ts)
            rt->last_ts = su->last_ts;
        /* the carried call the segment took, unless it is still pending
           there (a <... resumed> of another call was skipped): rt holds it */
        int took_seed = su->seeded && !(su->pending && su->pending_line == su->seed_line);
        if (took_seed) {
            spec->tasks[i]->seed_close_file = rt->close_pending ? rt->close_file : -1;
            pending_clear(pm, rt);
        }
        if (su->pending && (took_seed || !su->seeded))
            NR_TRY(move_pending(pm, rt, su, st));
        if (su->fs->cwd_set && strcmp(rt->fs->cwd, su->fs->cwd) != 0)
            NR_TRY(fs_set_cwd(rt->fs, su->fs->cwd, strlen(su->fs->cwd)));
        if (!table_applied(spec, i))
            NR_TRY(apply_fds(pm, spec, su, rt, st));
        if (spec->prev_task == su)
            pm->prev_task = rt;
    }
    return 0;
}

static void add_counts(nr_pm_counts *c, const nr_pm_counts *s)
{
    c->events += s->events;
    c->resumed += s->resumed;
    c->never_resumed += s->never_resumed; /* a second <unfinished ...> of a task flushes its first */
    c->annotated_fds += s->annotated_fds;
    merge_time_span(&c->first_ts_ns, &c->last_ts_ns, s->first_ts_ns, s->last_ts_ns);
}

void nr_pm_stitch_event(nr_pm_stitch *st, nr_pm_event *ev)
{
    nr_pm *pm = st->pm;
    ev->pid = task_find(pm, ev->tid)->pid;
    if (ev->file_id >= 0)
        ev->file_id = st->file_map[ev->file_id];
    if (ev->file2_id >= 0)
        ev->file2_id = st->file_map[ev->file2_id];
    if (ev->ghost_bits & (NR_PM_GHOST_ADVANCE | NR_PM_GHOST_SEEK)) {
        const ghost_op *op = &st->spec->ghost_ops[st->spec->ghost_op_next++];
        if (op->bits & NR_PM_GHOST_ADVANCE) {
            ev->offset = op->offset;
            ev->flags = (ev->flags & ~(uint32_t)NR_EVF_OFFSET_GUESSED) | (op->guessed ? NR_EVF_OFFSET_GUESSED : 0);
        }
    }
    if (ev->ghost_bits & (NR_PM_GHOST_FILE | NR_PM_GHOST_CLOSE)) {
        ev->file_id = ev->ghost_bits & NR_PM_GHOST_FILE ? st->ghost_file[ev->ghost - 1]
                                                        : task_find(st->spec, ev->tid)->seed_close_file;
        const nr_syscall_info *in = nr_syscall_of_ref(ev->syscall_ref);
        if (in)
            file_count(pm, ev->file_id, in->counter, ev->bytes, ev->ts_ns);
    }
    ev->ghost = 0;
    ev->ghost_bits = 0;
}

static const char *stitch_check(nr_pm *pm, const nr_pm *spec, stitch *st)
{
    if (spec->bare_before_annot && pm->counts.annotated_fds > 0)
        return "a bare fd before the segment's first -y annotation (the real model has seen one)";
    const char *why = check_tasks(pm, spec);
    if (!why)
        why = check_files(pm, spec, st);
    if (!why)
        why = check_ghosts(pm, spec, st);
    return why;
}

void nr_pm_stitch_end(nr_pm_stitch *st)
{
    if (!st)
        return;
    stitch_free(st);
    free(st);
}

int nr_pm_stitch_begin(nr_pm *pm, nr_pm *spec, nr_pm_stitch **out, const char **why, nr_error *err)
{
    *out = NULL;
    *why = spec->refused;
    if (*why)
        return 1;
    stitch *st = calloc(1, sizeof *st);
    int rc = st ? stitch_alloc(st, spec->paths.count, spec->nghosts, spec->nofds) : NR_E_NOMEM;
    if (rc == 0 && (*why = stitch_check(pm, spec, st)))
        rc = 1;
    if (rc == 0) {
        st->pm = pm;
        st->spec = spec;
        replay_offsets(st, spec);
        apply_ghost_offsets(pm, spec, st);
        rc = apply_files(pm, spec, st);
    }
    if (rc == 0) {
        pin_targets(pm, spec, st, 1);
        rc = apply_tasks(pm, spec, st);
        pin_targets(pm, spec, st, 0);
    }
    if (rc != 0) {
        nr_pm_stitch_end(st);
        return rc < 0 ? nr_error_set(err, NR_E_NOMEM, "ingest: out of memory (stitch)") : rc;
    }
    add_counts(&pm->counts, &spec->counts);
    *out = st;
    return 0;
}
