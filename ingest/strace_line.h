/* strace_line: splits one line of an strace log into its parts, without
 * allocating and without interpreting syscall arguments. The per-process
 * meaning (fds, offsets, unfinished/resumed pairing) is procmodel's job.
 *
 * Understands the output of strace 5.x, 6.x and 7.x with -f/-ff, any
 * timestamp form (none, -t, -tt, -ttt, --timestamps=unix|format,s|ms|us|ns,
 * -r), -T, -y/-yy, -s N, -X raw|abbrev|verbose, -qq, -Z, written to a file
 * (lines start with the pid) or to stderr (lines start with "[pid N]"). */
#ifndef STRACE_LINE_H
#define STRACE_LINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct nr_span {
    const char *p;   /* points into the line; not NUL-terminated */
    size_t n;
} nr_span;

typedef enum nr_sline_kind {
    NR_SL_SYSCALL,     /* name(args) = ret ...                              */
    NR_SL_UNFINISHED,  /* name(args <unfinished ...>, or "name(argsstrace: Process N attached" */
    NR_SL_RESUMED,     /* <... name resumed>rest-of-args) = ret ...; with an empty name:
                          the tail of a call that an attach notice cut in two (stderr
                          output, see UNFINISHED and docs/strace-formats.md) */
    NR_SL_SIGNAL,      /* --- SIGCHLD {...} ---                              */
    NR_SL_EXITED,      /* +++ exited with N +++                              */
    NR_SL_KILLED,      /* +++ killed by SIGKILL (core dumped) +++            */
    NR_SL_NOTICE,      /* strace's own messages: "strace: Process N attached", ... */
    NR_SL_SUMMARY,     /* lines of a -c/-C summary table                     */
    NR_SL_CONTINUATION,/* -e read=/write= hex dump lines, -k " > /lib/x.so(fn+0x1) [0x...]" frames,
                          a lone " <unfinished ...>" ending a cut call */
    NR_SL_BLANK,       /* empty or white space only                          */
    NR_SL_BAD,         /* none of the above; reason says why                 */
} nr_sline_kind;

/* Whether lines of kind k are events for the process model (syscall,
 * unfinished, resumed, signal, exited, killed); other lines are skipped. */
static inline int nr_sline_is_event(nr_sline_kind k)
{
    const unsigned events = 1u << NR_SL_SYSCALL | 1u << NR_SL_UNFINISHED | 1u << NR_SL_RESUMED |
                            1u << NR_SL_SIGNAL | 1u << NR_SL_EXITED | 1u << NR_SL_KILLED;
    return (unsigned)k < 32 && (events >> k & 1u);
}

/* How the timestamp of a line was written (detected per line; a log uses one). */
typedef enum nr_ts_form {
    NR_TS_NONE = 0,
    NR_TS_CLOCK,     /* -t / -tt / --timestamps=format,*: HH:MM:SS[.frac]: ns since midnight */
    NR_TS_UNIX,      /* -ttt / --timestamps=unix,*: seconds.frac since the epoch: ns since epoch */
    NR_TS_RELATIVE,  /* -r: seconds since the previous line: ns delta */
} nr_ts_form;

typedef struct nr_sline {
    nr_sline_kind kind;
    int64_t pid;          /* pid/tid prefix ("1234 " or "[pid 1234] "); -1 when absent */
    nr_ts_form ts_form;
    int64_t ts_ns;        /* per ts_form; 0 when NR_TS_NONE */
    nr_ts_form ts2_form;  /* a second stamp (-r together with -t...); NR_TS_NONE usually */
    int64_t ts2_ns;
    int64_t dur_ns;       /* -T "<0.000123>"; -1 when absent */

    nr_span name;         /* syscall name (SYSCALL, UNFINISHED, RESUMED) or signal name (SIGNAL, KILLED) */
    nr_span args;         /* SYSCALL: between '(' and the matching ')';
                             UNFINISHED: after '(' up to " <unfinished ...>", trailing space and comma kept as logged;
                             RESUMED: after "resumed>" (and any spaces: 5.x writes one) up to the closing ')'.
                             Every span points into the line; empty spans too (never NULL). */

    /* result, for SYSCALL and RESUMED */
    int has_result;       /* 0 when the line has no "= ..." (a line cut after ')' or after '=') */
    int result_unknown;   /* "= ?" */
    int64_t result;       /* decimal or 0x-hex value as printed (hex taken as unsigned 64-bit) */
    nr_span result_annot; /* -y path after an fd result: "= 3</etc/passwd>" gives "/etc/passwd" (still escaped) */
    nr_span errno_name;   /* "ENOENT", "ERESTARTSYS", ...; empty when none */
    nr_span errno_text;   /* "(No such file or directory)" without parentheses; also any other
                             parenthesised text after the result: "Timeout", "flags FD_CLOEXEC",
                             "[{fd=3, revents=POLLIN}]"; empty when none. errno_name tells failures. */

    int exit_code;        /* EXITED */
    int core_dumped;      /* KILLED */
    const char *reason;   /* BAD: short stable reason key: "unknown_line", "truncated",
                             "bad_result", "bad_resumed"; NULL for other kinds */

    /* name looked up in the syscall table (ingest/syscalls.h), so that the
     * process model need not: NR_SLINE_SYSCALL_UNSET (not looked up), else
     * what nr_syscall_lookup(name) answers: NR_SLINE_SYSCALL_NONE when name
     * is not in the table, NR_SLINE_SYSCALL_FIRST + the entry's index
     * (nr_syscall_at). nr_sline_parse looks up the names of the lines of its
     * fast path (long -ttt call lines: most lines of a big log) only, so
     * that a worker thread does it for the ordered pass. */
    uint16_t syscall_ref;
    /* SYSCALL, RESUMED: 1 when text the lexer does not know follows the
     * result ("= 0 junk"; no strace prints one): the rest of the line is
     * not read, a -T duration there included. The ingest keeps the call
     * and notes the line (result_tail_unread). */
    uint8_t result_tail_unread;
} nr_sline;

enum { NR_SLINE_SYSCALL_UNSET = 0, NR_SLINE_SYSCALL_NONE = 1, NR_SLINE_SYSCALL_FIRST = 2 };

/* dur_ns of a call line whose "<...>" after the result is no duration
 * ("<0.0000x0>", "<1e-5>", an unclosed "<0.000020") and not strace's own
 * "<unavailable>": the ingest notes it (duration_unreadable) and takes
 * the call as one without a duration (-1). */
enum { NR_SLINE_DUR_UNREADABLE = -2 };

/* Whether the lexer left part of sl's text after the result unread: a
 * "<...>" that is no duration or text it does not know. One test a line. */
static inline int nr_sline_result_tail_odd(const nr_sline *sl)
{
    return (sl->dur_ns == NR_SLINE_DUR_UNREADABLE) | sl->result_tail_unread;
}

/* Parses line[0..len) (no trailing newline) into *out. Never reads outside
 * the line, never fails: unknown text becomes NR_SL_BAD with a reason. */
void nr_sline_parse(const char *line, size_t len, nr_sline *out);
/* Whether line ends with strace's "<unfinished ...>" (or "<detached ...>",
 * a call strace detached from, or "<pid changed to N ...>", a -ff thread's
 * execve), as the call line of an unfinished call
 * does (nr_sline_parse's test, without the rest). */
int nr_sline_ends_unfinished(const char *line, size_t len);
/* Whether the end of line[0..len), lexed into *sl, proves that strace
 * wrote the whole line, so that a last line without newline (a cut log) is
 * known not to be cut: a -T duration ("<0.000024>", "<unavailable>") or
 * an errno's parenthesised text ("(No such file or directory)") after the
 * result, "<unfinished ...>", or a signal, exit or kill line (lexed only
 * with their closing "---" / "+++"). Anything else may be cut anywhere, a
 * result inside its digits ("= 40" of "= 4096"). */
int nr_sline_ends_whole(const nr_sline *sl, const char *line, size_t len);

/* Argument helpers over an args span (top-level split on commas, respecting
 * quotes, (), [], {} and <> annotations). */

/* Returns argument i (0-based) of args, trimmed, or an empty span when absent. */
nr_span nr_sarg(nr_span args, unsigned i);
/* Number of top-level arguments. A trailing empty argument after a last
 * comma (the "3, " of an unfinished call) is not counted. */
unsigned nr_sarg_count(nr_span args);

/* Parses an fd argument "3", "3</path>", "3<socket:[123]>", "AT_FDCWD",
 * "AT_FDCWD</cwd>", "-100" or "0xffffff9c" (AT_FDCWD as -X raw prints it).
 * Sets *fd (AT_FDCWD = -100) and *annot (the path inside <>, still escaped;
 * empty when none). Returns 0, or -1 when arg is not an fd. */
int nr_sarg_fd(nr_span arg, int64_t *fd, nr_span *annot);
/* nr_sarg_fd(nr_sarg(args, i), ...), in one pass over the text when i is 0
 * (the fd of read/write/close/...: the hot path of the process model). */
int nr_sarg_fd_at(nr_span args, unsigned i, int64_t *fd, nr_span *annot);

/* Parses an integer argument: decimal, 0x-hex, 0-octal, with an optional
 * leading '-'; also the first number of "[123]" forms. Returns 0 or -1. */
int nr_sarg_int(nr_span arg, int64_t *out);

/* True when a flags argument names `flag` (e.g. "O_CLOEXEC" within
 * "O_RDONLY|O_CLOEXEC" or "0x80000 /\* O_CLOEXEC *\/"), or, for -X raw output,
 * when the numeric value has raw_bit set. */
int nr_sarg_has_flag(nr_span arg, const char *flag, uint64_t raw_bit);

/* p is just after an opening '"' of a quoted argument: returns just after
 * its closing quote (the first not escaped by an odd run of backslashes),
 * or end when the string is cut. */
const char *nr_sarg_skip_string(const char *p, const char *end);

/* Decodes a quoted C string as strace prints it ("..." with \" \\ \n \t \r
 * \v \f, octal \NNN and \xHH escapes; "..." after the quote marks -s
 * truncation) into dst (up to dst_cap - 1 bytes, NUL-terminated). The
 * quotes are optional (for -y annotations). Returns the number of bytes
 * written to dst (at most dst_cap - 1: longer strings are cut), sets
 * *truncated (may be NULL) when strace cut the string. Returns -1 when malformed. */
long nr_sarg_unquote(nr_span arg, char *dst, size_t dst_cap, int *truncated);

/* For tests: with off nonzero nr_sline_parse uses its SSE2 scan even
 * where the CPU has AVX2 (not thread-safe; set before parsing). */
void nr__sline_no_avx2(int off);

#endif
