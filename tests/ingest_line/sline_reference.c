/* sline_reference: the strace line lexer as it was at main 5852990, before
 * the fast paths, kept verbatim except for names (ref_* instead of nr_*,
 * all static) as the reference that tests/ingest_line/test_sline_diff.c and
 * tests/fuzz/fuzz_strace_line.c compare ingest/strace_line.c against: the
 * fast paths must give exactly what this gives, for every input.
 * Included by those two files; not compiled on its own. Do not edit except
 * to follow a deliberate change of the lexer's results. Two changes since:
 * the -T duration and a negative result are computed without signed
 * overflow (same values, no UB: UBSan flagged "<12345678901.5>"); a line
 * that starts with a word not followed by '(' may be the tail of a call
 * cut by an attach notice ("NULL, 8) = 0", session 39: parse_word_line
 * tries parse_split_tail before unknown_line), "/usr/bin/strace:" notices
 * (session 41), and readv/writev dump headers " * 100 bytes in buffer 0"
 * are continuations and a call ending "<detached ...>" is unfinished
 * (session 42), and an fd's annotation may be followed by strace 6.1's
 * "(deleted)" (13</dev/shm/x>(deleted): followed here in session 43, the
 * lexer has read it so since 37099cf; fuzz_strace_line found the gap),
 * and a call line whose ')' is followed by no " = " anywhere is an
 * unknown_line, not a bad_result (session 47: program text), and a lone
 * " <detached ...>" (the end of a call cut by strace -p's detach notices)
 * is a continuation and a call line ending "<pid changed to N ...>" (a
 * -ff thread's execve) is unfinished, and a line of a summary table
 * with -U columns (ref_summary_columns_line) is one (session 47), and a
 * -T duration above 2^62 ns is unreadable, not wrapped (session 54), and
 * text after a result that holds a control byte other than a tab is no
 * result (lines run together: a log's CR-cut lines before its first LF;
 * session 56). */
#include "strace_line.h"

#define NR_REF_UNUSED __attribute__((unused))

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Linux PID_MAX_LIMIT: pids and tids are below 2^22. */
#define NR__PID_MAX 4194304
/* A seconds value at or above this (1973-03-03) is a Unix time, below it a
 * -r delta: no -r delta is three years long, no -ttt log predates 1973. */
#define NR__UNIX_MIN_SECONDS 100000000
#define NR__NS_PER_S 1000000000LL

static const int64_t pow10_ns[10] = {1000000000, 100000000, 10000000, 1000000, 100000,
                                     10000,      1000,      100,      10,      1};

/* Bytes that matter to the argument scanner; everything else is skipped. */
enum { SC_PLAIN = 0, SC_QUOTE, SC_OPEN, SC_CLOSE_PAREN, SC_CLOSE_OTHER, SC_ANGLE, SC_COMMA };
static const unsigned char scan_class[256] = {
    ['"'] = SC_QUOTE, ['('] = SC_OPEN, ['['] = SC_OPEN, ['{'] = SC_OPEN,
    [')'] = SC_CLOSE_PAREN, [']'] = SC_CLOSE_OTHER, ['}'] = SC_CLOSE_OTHER,
    ['<'] = SC_ANGLE, [','] = SC_COMMA,
};

static inline int is_digit(char c) { return (unsigned char)(c - '0') < 10u; }

/* Bytes that matter inside a <...> annotation. */
static const unsigned char angle_special[256] = {
    ['\\'] = 1, ['"'] = 1, ['['] = 1, [']'] = 1, ['<'] = 1, ['>'] = 1,
};

/* First byte at or after p that the argument scanner must look at (see
 * scan_class), or end. SSE2 tests 16 bytes per step: '(' and ')' differ
 * in bit 0, '[' and '{' (also ']' and '}') in bit 5. */
static inline const char *find_scan_special(const char *p, const char *end)
{
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), paren = _mm_set1_epi8(')'), one = _mm_set1_epi8(1);
    const __m128i fold = _mm_set1_epi8((char)0xDF), open_b = _mm_set1_epi8('['), close_b = _mm_set1_epi8(']');
    const __m128i angle = _mm_set1_epi8('<'), comma = _mm_set1_epi8(',');
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i folded = _mm_and_si128(v, fold);
        __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(_mm_or_si128(v, one), paren));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(folded, open_b));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(folded, close_b));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v, angle));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v, comma));
        int mask = _mm_movemask_epi8(m);
        if (mask)
            return p + __builtin_ctz((unsigned)mask);
        p += 16;
    }
#endif
    while (p < end && scan_class[(unsigned char)*p] == SC_PLAIN)
        p++;
    return p;
}

/* First byte at or after p that matters inside an annotation, or end. */
static inline const char *find_angle_special(const char *p, const char *end)
{
#ifdef __SSE2__
    const __m128i backslash = _mm_set1_epi8('\\'), quote = _mm_set1_epi8('"');
    const __m128i open_b = _mm_set1_epi8('['), close_b = _mm_set1_epi8(']');
    const __m128i fold = _mm_set1_epi8((char)0xFD), lt_gt = _mm_set1_epi8('<');
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i folded = _mm_and_si128(v, fold); /* '<' and '>' differ in bit 1 only */
        __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, quote));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v, open_b));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v, close_b));
        m = _mm_or_si128(m, _mm_cmpeq_epi8(folded, lt_gt));
        int mask = _mm_movemask_epi8(m);
        if (mask)
            return p + __builtin_ctz((unsigned)mask);
        p += 16;
    }
#endif
    while (p < end && !angle_special[(unsigned char)*p])
        p++;
    return p;
}

static inline int is_upper(char c) { return (unsigned char)(c - 'A') < 26u; }
static inline int is_alpha(char c) { return (unsigned char)((c | 0x20) - 'a') < 26u; }
static inline int is_ident(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }
static inline int is_xdigit(char c)
{
    return is_digit(c) || (unsigned char)((c | 0x20) - 'a') < 6u;
}
static inline int xdigit_value(char c) { return is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10; }

static inline const char *skip_spaces(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

static inline int starts_with(const char *p, const char *end, const char *lit, size_t n)
{
    return (size_t)(end - p) >= n && memcmp(p, lit, n) == 0;
}
#define STARTS(p, end, lit) starts_with((p), (end), (lit), sizeof(lit) - 1)

static inline nr_span span(const char *a, const char *b)
{
    nr_span s = {a, (size_t)(b - a)};
    return s;
}

/* p is just after an opening '"'; returns just after the closing quote, or
 * end when the string is cut. A quote preceded by an odd run of
 * backslashes is escaped. */
static const char *skip_quoted(const char *p, const char *end)
{
    const char *start = p;
    while (p < end) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (!q)
            return end;
        size_t backslashes = 0;
        while (q - backslashes > start && q[-1 - (ptrdiff_t)backslashes] == '\\')
            backslashes++;
        if (backslashes % 2 == 0)
            return q + 1;
        p = q + 1;
    }
    return end;
}

/* p is just after an opening '<' of a -y/-yy annotation or of a marker such
 * as "<unfinished ...>"; returns just after the matching '>', or NULL when
 * the line ends first. Nested <...> count (-yy "</dev/pts/0<char 136:0>>");
 * "->" inside [...] is a socket arrow, not a closer; backslash escapes and
 * quoted strings (unix socket paths) are skipped. */
static const char *skip_angle(const char *p, const char *end)
{
    int depth = 1, brackets = 0;
    while (p < end) {
        p = find_angle_special(p, end);
        if (p == end)
            break;
        char c = *p;
        if (c == '\\') {
            p += 2;
            continue;
        }
        if (c == '"') {
            p = skip_quoted(p + 1, end);
            continue;
        }
        if (c == '[') {
            brackets++;
        } else if (c == ']') {
            if (brackets > 0)
                brackets--;
        } else if (c == '<') {
            depth++;
        } else { /* '>' */
            int arrow = brackets > 0 && p[-1] == '-';
            if (!arrow && --depth == 0)
                return p + 1;
        }
        p++;
    }
    return NULL;
}

/* The path part of an annotation body: up to a nested '<' (-yy device info). */
static nr_span annotation_path(const char *a, const char *b)
{
    const char *lt = memchr(a, '<', (size_t)(b - a));
    return span(a, lt ? lt : b);
}

enum scan_stop { STOP_AT_CLOSE_PAREN, STOP_AT_COMMA };

/* Scans balanced text from p. STOP_AT_CLOSE_PAREN returns the ')' that
 * closes the group p is inside; STOP_AT_COMMA returns the next top-level
 * ','. Returns NULL when the line ends first. */
static const char *scan_group(const char *p, const char *end, enum scan_stop stop)
{
    int depth = 0;
    while ((p = find_scan_special(p, end)) < end) {
        switch (scan_class[(unsigned char)*p]) {
        case SC_QUOTE:
            p = skip_quoted(p + 1, end);
            continue;
        case SC_OPEN:
            depth++;
            break;
        case SC_CLOSE_PAREN:
            if (depth == 0) {
                if (stop == STOP_AT_CLOSE_PAREN)
                    return p;
                break;
            }
            depth--;
            break;
        case SC_CLOSE_OTHER:
            if (depth > 0)
                depth--;
            break;
        case SC_ANGLE:
            if (p + 1 < end && p[1] == '<') { /* "1<<28" shift in futex ops */
                p += 2;
                continue;
            }
            p = skip_angle(p + 1, end);
            if (!p)
                return NULL;
            continue;
        case SC_COMMA:
            if (depth == 0 && stop == STOP_AT_COMMA)
                return p;
            break;
        }
        p++;
    }
    return NULL;
}

/* Up to 8 leading ASCII digits of the 8 bytes at p (little-endian SWAR,
 * as in simdjson's parse_eight_digits): returns how many, value in *v. */
static inline unsigned swar_digits8(const char *p, uint64_t *v)
{
    uint64_t w;
    memcpy(&w, p, 8);
    /* t's byte i is the digit value; a borrow or carry only runs toward
     * later bytes, so the first flagged byte is the first non-digit. */
    uint64_t t = w - 0x3030303030303030ULL;
    uint64_t flags = (t | (t + 0x7676767676767676ULL)) & 0x8080808080808080ULL;
    unsigned n = flags ? (unsigned)__builtin_ctzll(flags) / 8 : 8;
    if (n == 0)
        return 0;
    t <<= 8 * (8 - n); /* the digits into the high bytes, zeros before them */
    t = (t & 0x0F0F0F0F0F0F0F0FULL) * 2561 >> 8;
    t = (t & 0x00FF00FF00FF00FFULL) * 6553601 >> 16;
    t = (t & 0x0000FFFF0000FFFFULL) * 42949672960001ULL >> 32;
    *v = t;
    return n;
}

static const uint64_t pow10_u64[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

/* A run of up to 16 digits at p: returns how many (0 = none), value in *v. */
static inline unsigned digit_run16(const char *p, const char *end, uint64_t *v)
{
    uint64_t x = 0, chunk;
    unsigned total = 0;
    while (total < 16 && end - p >= 8) {
        unsigned n = swar_digits8(p, &chunk);
        if (n == 0)
            break;
        x = x * pow10_u64[n] + chunk;
        total += n;
        p += n;
        if (n < 8) {
            *v = x;
            return total;
        }
    }
    while (total < 16 && p < end && is_digit(*p)) {
        x = x * 10 + (uint64_t)(*p++ - '0');
        total++;
    }
    *v = x;
    return total;
}

/* Decimal digits into *v; returns the end, or NULL on no digits/overflow. */
static const char *parse_u64_dec(const char *p, const char *end, uint64_t *v)
{
    uint64_t x;
    unsigned n = digit_run16(p, end, &x);
    if (n == 0)
        return NULL;
    p += n;
    for (; p < end && is_digit(*p); p++) { /* digits 17..20 */
        uint64_t d = (uint64_t)(*p - '0');
        if (x > (UINT64_MAX - d) / 10)
            return NULL;
        x = x * 10 + d;
    }
    *v = x;
    return p;
}

/* Hex digits (after "0x") into *v; returns the end or NULL. */
static const char *parse_u64_hex(const char *p, const char *end, uint64_t *v)
{
    uint64_t x = 0;
    const char *start = p;
    while (p < end && is_xdigit(*p)) {
        if (x >> 60)
            return NULL;
        x = (x << 4) | (uint64_t)xdigit_value(*p);
        p++;
    }
    if (p == start)
        return NULL;
    *v = x;
    return p;
}

/* ".ddd" fraction (1..9 digits) as ns; p at the '.'. Returns the end or NULL. */
static const char *parse_fraction_ns(const char *p, const char *end, int64_t *ns)
{
    uint64_t f;
    unsigned n = digit_run16(p + 1, end, &f);
    if (n == 0 || n > 9)
        return NULL;
    p += 1 + n;
    if (p < end && is_digit(*p))
        return NULL;
    *ns = (int64_t)f * pow10_ns[n];
    return p;
}

/* "S.fff" seconds with an optional fraction into ns; returns the end or NULL. */
static const char *parse_seconds_ns(const char *p, const char *end, int64_t *ns,
                                    uint64_t *whole_seconds, int *has_fraction)
{
    uint64_t s;
    const char *q = parse_u64_dec(p, end, &s);
    if (!q || s > (uint64_t)(INT64_MAX / NR__NS_PER_S) - 1)
        return NULL;
    int64_t frac = 0;
    *has_fraction = q < end && *q == '.';
    if (*has_fraction) {
        q = parse_fraction_ns(q, end, &frac);
        if (!q)
            return NULL;
    }
    *ns = (int64_t)s * NR__NS_PER_S + frac;
    *whole_seconds = s;
    return q;
}

/* A timestamp token at p (a digit): "HH:MM:SS[.f]", "S.f" or, when bare_ok or
 * the value cannot be a pid, a bare "S". It must be followed by a space or
 * the end. Returns the end of the token, or NULL when it is no timestamp. */
static const char *parse_stamp(const char *p, const char *end, int bare_ok, nr_ts_form *form,
                               int64_t *ns)
{
    if (end - p >= 8 && p[2] == ':' && p[5] == ':') {
        if (!is_digit(p[0]) || !is_digit(p[1]) || !is_digit(p[3]) || !is_digit(p[4]) ||
            !is_digit(p[6]) || !is_digit(p[7]))
            return NULL;
        int64_t h = (p[0] - '0') * 10 + (p[1] - '0');
        int64_t m = (p[3] - '0') * 10 + (p[4] - '0');
        int64_t s = (p[6] - '0') * 10 + (p[7] - '0');
        int64_t frac = 0;
        const char *q = p + 8;
        if (q < end && *q == '.') {
            q = parse_fraction_ns(q, end, &frac);
            if (!q)
                return NULL;
        }
        if (q < end && *q != ' ')
            return NULL;
        *form = NR_TS_CLOCK;
        *ns = ((h * 60 + m) * 60 + s) * NR__NS_PER_S + frac;
        return q;
    }
    uint64_t whole;
    int64_t v;
    int has_fraction;
    const char *q = parse_seconds_ns(p, end, &v, &whole, &has_fraction);
    if (!q || (q < end && *q != ' '))
        return NULL;
    if (!has_fraction && !bare_ok && whole <= NR__PID_MAX)
        return NULL;
    *form = whole >= NR__UNIX_MIN_SECONDS ? NR_TS_UNIX : NR_TS_RELATIVE;
    *ns = v;
    return q;
}

static void set_stamp(nr_sline *out, nr_ts_form form, int64_t ns)
{
    if (out->ts_form == NR_TS_NONE) {
        out->ts_form = form;
        out->ts_ns = ns;
    } else {
        out->ts2_form = form;
        out->ts2_ns = ns;
    }
}

/* Skips "<comm>" after a pid (--decode-pids=comm). */
static const char *skip_comm(const char *p, const char *end)
{
    if (p < end && *p == '<') {
        const char *gt = memchr(p, '>', (size_t)(end - p));
        if (gt)
            return gt + 1;
    }
    return p;
}

/* Pid prefix ("[pid  N] " or "N ") and up to two timestamps; returns the body. */
static const char *parse_prefix(const char *line, const char *end, nr_sline *out)
{
    const char *p = line;
    uint64_t v;
    if (STARTS(p, end, "[pid ")) {
        const char *q = parse_u64_dec(skip_spaces(p + 5, end), end, &v);
        if (q) {
            q = skip_comm(q, end);
            if (q < end && *q == ']' && v <= NR__PID_MAX) {
                out->pid = (int64_t)v;
                p = q + 1;
            }
        }
    } else if (is_digit(*p)) {
        const char *q = parse_u64_dec(p, end, &v);
        if (q && v <= NR__PID_MAX && q < end && (*q == ' ' || *q == '<')) {
            q = skip_comm(q, end);
            if (q < end && *q == ' ') {
                out->pid = (int64_t)v;
                p = q;
            }
        }
    }
    int bare_ok = out->pid >= 0 || *line == ' ';
    for (int k = 0; k < 2; k++) {
        p = skip_spaces(p, end);
        if (p == end)
            break;
        nr_ts_form form;
        int64_t ns;
        if (is_digit(*p)) {
            const char *q = parse_stamp(p, end, bare_ok, &form, &ns);
            if (!q)
                break;
            set_stamp(out, form, ns);
            p = q;
            bare_ok = 1;
        } else if (STARTS(p, end, "(+") && out->ts_form != NR_TS_NONE) {
            /* -r next to -t/-tt/-ttt: "(+     0.000123)" */
            uint64_t whole;
            int has_fraction;
            const char *q = parse_seconds_ns(skip_spaces(p + 2, end), end, &ns, &whole, &has_fraction);
            if (!q || q >= end || *q != ')')
                break;
            set_stamp(out, NR_TS_RELATIVE, ns);
            p = q + 1;
        } else {
            break;
        }
    }
    return skip_spaces(p, end);
}

/* Skips the "[ 39] " of -n (syscall number) and the "[00007f80d30a0a07] "
 * (or "[????????????????] ") of -i (instruction pointer), in that order. */
static const char *skip_syscall_number_and_ip(const char *p, const char *end)
{
    for (int k = 0; k < 2 && p < end && *p == '['; k++) {
        const char *q = p + 1, *limit = end - q > 20 ? q + 20 : end;
        while (q < limit && (is_xdigit(*q) || *q == ' ' || *q == '?'))
            q++;
        if (q == p + 1 || q + 1 >= end || q[0] != ']' || q[1] != ' ')
            break;
        p = skip_spaces(q + 1, end);
    }
    return p;
}

static void set_bad(nr_sline *out, const char *reason)
{
    out->kind = NR_SL_BAD;
    out->reason = reason;
}

/* "<0.000123>" (-T; "<5>" with --syscall-times=s) at p; returns just after
 * '>' or NULL. A plain loop: durations are short, the generic path costs more. */
static const char *parse_duration(const char *p, const char *end, int64_t *ns)
{
    const char *q = p + 1, *start = q;
    const char *int_end = end - q > 12 ? q + 12 : end;
    int64_t s = 0, f = 0;
    while (q < int_end && is_digit(*q))
        s = s * 10 + (*q++ - '0');
    if (q == start || q >= end)
        return NULL;
    int n = 0;
    if (*q == '.') {
        q++;
        while (q < end && n < 9 && is_digit(*q)) {
            f = f * 10 + (*q++ - '0');
            n++;
        }
        if (n == 0 || q >= end)
            return NULL;
    }
    if (*q != '>')
        return NULL;
    /* above 2^62 ns: unreadable (session 54; it wrapped modulo 2^64) */
    const uint64_t v = (uint64_t)s * NR__NS_PER_S + (uint64_t)(f * pow10_ns[n]);
    *ns = v / NR__NS_PER_S == (uint64_t)s && v <= (uint64_t)1 << 62 ? (int64_t)v : NR_SLINE_DUR_UNREADABLE;
    return q + 1;
}

/* The -T duration that ends [p, end) (spaces after it aside), when the
 * line's last "<...>" is one. */
static void read_last_duration(const char *p, const char *end, int64_t *ns)
{
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    const char *lt = end;
    while (lt > p && lt[-1] != '<')
        lt--;
    int64_t v;
    if (lt > p && end > p && end[-1] == '>' && parse_duration(lt - 1, end, &v) == end)
        *ns = v;
}

/* Whether [p, q) is strace's "<unavailable>": a call's time it could not
 * measure, which is no unreadable duration. */
static int is_unavailable_mark(const char *p, const char *q)
{
    static const char mark[] = "<unavailable>";
    return (size_t)(q - p) == sizeof mark - 1 && memcmp(p, mark, sizeof mark - 1) == 0;
}

/* Whether [p, end) holds a control byte other than a tab. */
static int has_control_byte(const char *p, const char *end)
{
    for (; p < end; p++)
        if ((unsigned char)*p < 0x20 && *p != '\t')
            return 1;
    return 0;
}

/* Result part after the closing ')': "= ret[<annot>] [ERRNO] [(text)] [<dur>]".
 * Sets has_result etc.; returns 0, or -1 when the text is no result. */
static int parse_result(const char *p, const char *end, nr_sline *out)
{
    p = skip_spaces(p, end);
    if (p == end)
        return 0; /* cut line or no result printed */
    if (*p != '=')
        return -1;
    p = skip_spaces(p + 1, end);
    if (p == end)
        return 0; /* cut right after '=' */
    if (*p == '?') {
        out->result_unknown = 1;
        p++;
    } else {
        int negative = *p == '-';
        const char *q = p + negative;
        uint64_t v;
        if (STARTS(q, end, "0x"))
            q = parse_u64_hex(q + 2, end, &v);
        else
            q = parse_u64_dec(q, end, &v);
        if (!q)
            return -1;
        out->result = negative ? (int64_t)(0 - v) : (int64_t)v; /* "-9223372036854775808" without overflow */
        p = q;
        if (p < end && *p == '<') {
            const char *close = skip_angle(p + 1, end);
            if (!close)
                return -1;
            out->result_annot = annotation_path(p + 1, close - 1);
            p = close;
        }
    }
    out->has_result = 1;
    while ((p = skip_spaces(p, end)) < end) {
        if (is_upper(*p) && out->errno_name.n == 0 && out->errno_text.n == 0) {
            const char *q = p;
            while (q < end && is_ident(*q))
                q++;
            out->errno_name = span(p, q);
            p = q;
        } else if (*p == '(') {
            const char *close = scan_group(p + 1, end, STOP_AT_CLOSE_PAREN);
            if (!close) { /* cut inside the text */
                out->errno_text = span(p + 1, end);
                return 0;
            }
            if (out->errno_text.n == 0)
                out->errno_text = span(p + 1, close);
            p = close + 1;
        } else if (*p == '<') {
            const char *q = parse_duration(p, end, &out->dur_ns);
            if (!q) { /* strace's "<unavailable>" (no time measured), else no duration: noted */
                q = skip_angle(p + 1, end);
                if (!q || !is_unavailable_mark(p, q))
                    out->dur_ns = NR_SLINE_DUR_UNREADABLE;
                if (!q)
                    return 0;
            }
            p = q;
        } else if (STARTS(p, end, "/*")) { /* -X verbose comment */
            const char *q = p + 2;
            while (q < end && !STARTS(q, end, "*/"))
                q++;
            p = q < end ? q + 2 : end;
        } else if (has_control_byte(p, end)) {
            return -1;
        } else {
            out->result_tail_unread = 1; /* unknown trailing text: the rest not read, but its -T duration */
            read_last_duration(p, end, &out->dur_ns);
            return 0;
        }
    }
    return 0;
}

static const char unfinished_marker[] = "<unfinished ...>";
#define UNFINISHED_LEN (sizeof unfinished_marker - 1)
static const char notice_marker[] = "strace: Process ";
#define NOTICE_MARKER_LEN (sizeof notice_marker - 1)

/* Why a call line's text after its ')' is no result: strace prints " = "
 * there, so text without any " = " after the ')' is the traced program's
 * own ("Epoch(1) loss=0.5": unknown_line, since session 47), and text
 * with one is strace's, unreadable ("close(3) = x", a cut call's tail
 * "makedev(0x1, 0x3)) = 0": bad_result). */
static const char *call_result_reason(const char *after, const char *end)
{
    return memmem(after, (size_t)(end - after), " = ", 3) ? "bad_result" : "unknown_line";
}

/* Session 48: the length of the "<pid changed to N ...>" that ends a -ff
 * thread's execve line (its call resumes in the leader's file), or 0. */
static size_t ref_pid_changed_len(const char *args, const char *end)
{
    static const char head[] = "<pid changed to ", tail[] = " ...>";
    const char *lt = memrchr(args, '<', (size_t)(end - args));
    if (!lt || (size_t)(end - lt) < sizeof head - 1 + 1 + sizeof tail - 1 || memcmp(lt, head, sizeof head - 1) != 0)
        return 0;
    const char *q = lt + sizeof head - 1;
    while (q < end && is_digit(*q))
        q++;
    if (q == lt + sizeof head - 1 || (size_t)(end - q) != sizeof tail - 1 || memcmp(q, tail, sizeof tail - 1) != 0)
        return 0;
    return (size_t)(end - lt);
}

/* "name(" at name..open; parses the rest of a call line. */
static void parse_call(const char *name, const char *open, const char *end, nr_sline *out)
{
    const char *args = open + 1;
    out->name = span(name, open);
    static const char detached[] = "<detached ...>"; /* session 42: a call cut by strace's detach */
    size_t mark = (size_t)(end - args) >= UNFINISHED_LEN &&
                          memcmp(end - UNFINISHED_LEN, unfinished_marker, UNFINISHED_LEN) == 0
                      ? UNFINISHED_LEN
                      : 0;
    if (!mark && (size_t)(end - args) >= sizeof detached - 1 &&
        memcmp(end - (sizeof detached - 1), detached, sizeof detached - 1) == 0)
        mark = sizeof detached - 1;
    if (!mark)
        mark = ref_pid_changed_len(args, end);
    if (mark) {
        const char *a_end = end - mark;
        if (a_end > args && a_end[-1] == ' ')
            a_end--;
        out->kind = NR_SL_UNFINISHED;
        out->args = span(args, a_end);
        return;
    }
    const char *close = scan_group(args, end, STOP_AT_CLOSE_PAREN);
    if (!close) {
        /* stderr output: a fork's child attach notice cuts the call in two
         * ("clone(...|SIGCHLDstrace: Process 42 attached"); the rest comes
         * on the next line, which parses as RESUMED with an empty name. */
        const char *notice = memmem(args, (size_t)(end - args), notice_marker, NOTICE_MARKER_LEN);
        if (notice) {
            out->kind = NR_SL_UNFINISHED;
            out->args = span(args, notice);
            return;
        }
        out->args = span(args, end); /* the ingest may join it with its end (a cut call) */
        set_bad(out, "truncated");
        return;
    }
    out->args = span(args, close);
    out->kind = NR_SL_SYSCALL;
    if (parse_result(close + 1, end, out) < 0)
        set_bad(out, call_result_reason(close + 1, end));
}

/* "<... name resumed>rest) = ret". */
static void parse_resumed(const char *p, const char *end, nr_sline *out)
{
    const char *name = p + 5;
    const char *q = name;
    while (q < end && is_ident(*q))
        q++;
    if (q == name || !STARTS(q, end, " resumed>")) {
        set_bad(out, "bad_resumed");
        return;
    }
    out->name = span(name, q);
    const char *args = skip_spaces(q + 9, end); /* 5.x writes a space after '>' */
    const char *close = scan_group(args, end, STOP_AT_CLOSE_PAREN);
    if (!close) {
        set_bad(out, "truncated");
        return;
    }
    out->kind = NR_SL_RESUMED;
    out->args = span(args, close);
    if (parse_result(close + 1, end, out) < 0)
        set_bad(out, "bad_result");
}

static NR_REF_UNUSED void ref_sline_parse(const char *line, size_t len, nr_sline *out);

/* stderr mode: the traced program's output without a newline at its end
 * (a progress bar's "\r42%") runs into the line strace prints next, which
 * is lexed from its "[pid N] " on: the text before it is the program's,
 * not the trace's (until session 42 such a line was an unknown_line, or a
 * resumed tail when it ended in ") = N"). 0 when p..end was such a line.
 * The first OUTPUT_SCAN_TRIES "[pid " only, and not again inside the lex
 * of one of them: a line of many would otherwise be lexed once for each,
 * and each of those again (exponential). */
#define OUTPUT_SCAN_TRIES 4
static _Thread_local int scanning_output;

static int parse_after_output(const char *p, const char *end, nr_sline *out)
{
    if (scanning_output)
        return -1;
    scanning_output = 1;
    int rc = -1, tries = 0;
    for (const char *q = p + 1; rc < 0 && tries < OUTPUT_SCAN_TRIES && q < end &&
                                (q = memmem(q, (size_t)(end - q), "[pid ", 5));
         q++, tries++) {
        nr_sline line;
        ref_sline_parse(q, (size_t)(end - q), &line);
        if (line.pid >= 0 && nr_sline_is_event(line.kind)) {
            *out = line;
            rc = 0;
        }
    }
    scanning_output = 0;
    return rc;
}

/* The tail of a call split by an attach notice (see parse_call): "rest) = ret". */
static int parse_split_tail(const char *p, const char *end, nr_sline *out)
{
    const char *close = scan_group(p, end, STOP_AT_CLOSE_PAREN);
    if (!close)
        return -1;
    nr_sline tmp = *out;
    if (parse_result(close + 1, end, &tmp) < 0 || !tmp.has_result)
        return -1;
    *out = tmp;
    out->kind = NR_SL_RESUMED;
    out->args = span(p, close);
    return 0;
}

/* "--- SIGCHLD {...} ---" or "--- stopped by SIGSTOP ---". */
static void parse_signal(const char *p, const char *end, nr_sline *out)
{
    if ((size_t)(end - p) < 7 || memcmp(end - 4, " ---", 4) != 0) {
        set_bad(out, "truncated");
        return;
    }
    const char *sig = memmem(p + 4, (size_t)(end - p - 4), "SIG", 3);
    if (sig) {
        const char *q = sig;
        while (q < end && is_ident(*q))
            q++;
        out->name = span(sig, q);
    }
    out->kind = NR_SL_SIGNAL;
}

/* "+++ exited with N +++", "+++ killed by SIGX [(core dumped)] +++". */
static void parse_exit(const char *p, const char *end, nr_sline *out)
{
    if ((size_t)(end - p) < 8 || memcmp(end - 4, " +++", 4) != 0) {
        set_bad(out, "truncated");
        return;
    }
    const char *body = p + 4, *body_end = end - 4;
    if (STARTS(body, body_end, "exited with ")) {
        uint64_t code;
        const char *q = parse_u64_dec(body + 12, body_end, &code);
        if (!q || q != body_end || code > 255) {
            set_bad(out, "unknown_line");
            return;
        }
        out->kind = NR_SL_EXITED;
        out->exit_code = (int)code;
    } else if (STARTS(body, body_end, "killed by ")) {
        const char *sig = body + 10, *q = sig;
        while (q < body_end && is_ident(*q))
            q++;
        out->kind = NR_SL_KILLED;
        out->name = span(sig, q);
        out->core_dumped = memmem(q, (size_t)(body_end - q), "(core dumped)", 13) != NULL;
    } else if (STARTS(body, body_end, "superseded by execve")) {
        out->kind = NR_SL_NOTICE;
    } else {
        set_bad(out, "unknown_line");
    }
}

/* A -c/-C table row: numbers, then one name ("total" on the last row). */
static int is_summary_row(const char *p, const char *end)
{
    int numbers = 0;
    while ((p = skip_spaces(p, end)) < end) {
        const char *q = p;
        while (q < end && (is_digit(*q) || *q == '.'))
            q++;
        if (q == p)
            break;
        if (q < end && *q != ' ')
            return 0;
        numbers++;
        p = q;
    }
    if (numbers < 2 || p == end || !(is_alpha(*p) || *p == '_'))
        return 0;
    while (p < end && (is_ident(*p) || *p == '?'))
        p++;
    return p == end;
}

static int is_dash_rule(const char *p, const char *end)
{
    for (; p < end; p++)
        if (*p != '-' && *p != ' ')
            return 0;
    return 1;
}

static int ends_with(const char *p, const char *end, const char *lit, size_t n)
{
    return (size_t)(end - p) >= n && memcmp(end - n, lit, n) == 0;
}

/* Lines that start with a word that is not a call: notices, summary
 * headers, and the tail of a call cut by an attach notice when its rest
 * starts with a word ("rt_sigprocmask(SIG_SETMASK, [], strace: Process 7
 * attached", then "NULL, 8) = 0": until session 39 an unknown_line, and
 * the call never resumed). */
static void parse_word_line(const char *p, const char *word_end, const char *end, nr_sline *out)
{
    if (word_end < end && *word_end == ':' && word_end - p == 6 && memcmp(p, "strace", 6) == 0) {
        out->kind = NR_SL_NOTICE;
        return;
    }
    if (STARTS(p, end, "System call usage summary") || ends_with(p, end, " syscall", 8)) {
        out->kind = NR_SL_SUMMARY;
        return;
    }
    if (parse_after_output(p, end, out) == 0 || parse_split_tail(p, end, out) == 0)
        return;
    set_bad(out, "unknown_line");
}

/* Session 48: a line of a -c/-C summary with -U columns, else unknown:
 * only column header words (two or more), or one name and numbers with a
 * gap of two or more blanks somewhere. */
static int ref_summary_columns_line(const char *line, const char *end)
{
    static const char *const headers[] = {"%", "time", "seconds", "usecs/call", "shortest", "longest",
                                          "calls", "errors", "syscall"};
    while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
        end--;
    int tokens = 0, all_headers = 1, names = 0, others = 0, wide_gap = 0;
    const char *p = line;
    while (p < end) {
        const char *blank = p;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p == end)
            break;
        if (p - blank >= 2)
            wide_gap = 1;
        const char *tok = p;
        while (p < end && *p != ' ' && *p != '\t')
            p++;
        size_t n = (size_t)(p - tok);
        tokens++;
        int header = 0;
        for (size_t i = 0; i < sizeof headers / sizeof *headers; i++)
            header |= strlen(headers[i]) == n && strncmp(headers[i], tok, n) == 0;
        all_headers &= header;
        size_t digits = 0, dots = 0, ident = 0;
        for (size_t i = 0; i < n; i++) {
            digits += is_digit(tok[i]);
            dots += tok[i] == '.';
            ident += is_ident(tok[i]) || tok[i] == '?';
        }
        int number = digits + dots == n && dots <= 1 && is_digit(tok[0]) && is_digit(tok[n - 1]);
        if (!number && ident == n && (is_alpha(tok[0]) || tok[0] == '_'))
            names++;
        else if (!number)
            others++;
    }
    if (tokens >= 2 && all_headers)
        return 1;
    return names == 1 && tokens >= 2 && others == 0 && wide_gap;
}

static void ref_sline_parse_body(const char *line, size_t len, nr_sline *out);

static NR_REF_UNUSED void ref_sline_parse(const char *line, size_t len, nr_sline *out)
{
    ref_sline_parse_body(line, len, out);
    if (out->kind == NR_SL_BAD && out->reason && strcmp(out->reason, "unknown_line") == 0 &&
        ref_summary_columns_line(line, line + len)) {
        static const nr_sline empty = {.kind = NR_SL_SUMMARY, .pid = -1, .dur_ns = -1};
        *out = empty;
        out->name.p = out->args.p = out->result_annot.p = out->errno_name.p = out->errno_text.p = line;
    }
}

static void ref_sline_parse_body(const char *line, size_t len, nr_sline *out)
{
    if (len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 byte order mark: skipped (session 45) */
        ref_sline_parse(line + 3, len - 3, out);
        return;
    }
    static const nr_sline empty = {
        .kind = NR_SL_BAD, .pid = -1, .dur_ns = -1, .reason = "unknown_line",
    };
    *out = empty;
    /* Empty spans point at the line, never NULL. */
    out->name.p = out->args.p = out->result_annot.p = out->errno_name.p = out->errno_text.p = line;
    const char *end = line + len;
    while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
        end--;
    const char *p = skip_spaces(line, end);
    if (p == end) {
        out->kind = NR_SL_BLANK;
        out->reason = NULL;
        return;
    }
    p = parse_prefix(line, end, out);
    p = skip_syscall_number_and_ip(p, end);
    out->reason = NULL;
    if (p == end) {
        set_bad(out, "truncated");
        return;
    }
    char c = *p;
    if (is_alpha(c) || c == '_') {
        const char *q = p + 1;
        while (q < end && is_ident(*q))
            q++;
        if (q < end && *q == '(')
            parse_call(p, q, end, out);
        else
            parse_word_line(p, q, end, out);
        return;
    }
    switch (c) {
    case '<':
        if (STARTS(p, end, "<... ")) {
            parse_resumed(p, end, out);
            return;
        }
        if (p > line && end - p == (ptrdiff_t)UNFINISHED_LEN &&
            memcmp(p, unfinished_marker, UNFINISHED_LEN) == 0) {
            /* stderr: " <unfinished ...>" ending a call cut by an attach
             * notice on the line before ("vfork(strace: Process N attached") */
            out->kind = NR_SL_CONTINUATION;
            return;
        }
        if (p > line && end - p == (ptrdiff_t)(sizeof "<detached ...>" - 1) &&
            memcmp(p, "<detached ...>", sizeof "<detached ...>" - 1) == 0) {
            out->kind = NR_SL_CONTINUATION; /* session 47: " <detached ...>" after a detach notice */
            return;
        }
        break;
    case '-':
        if (STARTS(p, end, "------") && is_dash_rule(p, end)) {
            out->kind = NR_SL_SUMMARY;
            return;
        }
        if (STARTS(p, end, "--- ")) {
            parse_signal(p, end, out);
            return;
        }
        break;
    case '+':
        if (STARTS(p, end, "+++ ")) {
            parse_exit(p, end, out);
            return;
        }
        break;
    case '%':
        if (STARTS(p, end, "% time")) {
            out->kind = NR_SL_SUMMARY;
            return;
        }
        break;
    case '/':
    case '.': { /* "/usr/bin/strace: Process 42 attached": the first word ends in "/strace:" */
        const char *sp = p;
        while (sp < end && *sp != ' ')
            sp++;
        if (sp < end && sp - p >= 8 && memcmp(sp - 8, "/strace:", 8) == 0 && memchr(p, ':', (size_t)(sp - p)) == sp - 1) {
            out->kind = NR_SL_NOTICE;
            return;
        }
        break;
    }
    case '*': { /* " * 100 bytes in buffer 0": readv/writev dump header (session 42) */
        static const char mid[] = " bytes in buffer ";
        const char *q = p + 1, *d;
        int ok = p > line && p[-1] == ' ' && q < end && *q++ == ' ';
        for (d = q; ok && q < end && is_digit(*q); q++)
            ;
        ok = ok && q > d && (size_t)(end - q) > sizeof mid - 1 && memcmp(q, mid, sizeof mid - 1) == 0;
        for (q += ok ? sizeof mid - 1 : 0, d = q; ok && q < end && is_digit(*q); q++)
            ;
        if (ok && q > d && q == end) {
            out->kind = NR_SL_CONTINUATION;
            return;
        }
        break;
    }
    case '|': /* -e read=/write= hex dump: " | 00000  68 65 ...  hel |" */
        if (p > line && p[-1] == ' ' && end[-1] == '|') {
            out->kind = NR_SL_CONTINUATION;
            return;
        }
        break;
    case '>': /* -k frame: " > /usr/lib/libc.so.6(read+0x12) [0x10f2a2]" */
        if (p > line && p[-1] == ' ' && p + 1 < end && p[1] == ' ') {
            out->kind = NR_SL_CONTINUATION;
            return;
        }
        break;
    default:
        if (is_digit(c) && out->pid < 0 && is_summary_row(line, end)) {
            out->ts_form = out->ts2_form = NR_TS_NONE;
            out->ts_ns = out->ts2_ns = 0;
            out->kind = NR_SL_SUMMARY;
            return;
        }
        break;
    }
    if (parse_after_output(p, end, out) == 0 || parse_split_tail(p, end, out) == 0)
        return;
    set_bad(out, "unknown_line");
}

/* ---- argument helpers ---- */

static nr_span trim(nr_span s)
{
    if (!s.p)
        return s;
    const char *a = s.p, *b = s.p + s.n;
    while (a < b && (*a == ' ' || *a == '\t'))
        a++;
    while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
        b--;
    return span(a, b);
}

static NR_REF_UNUSED nr_span ref_sarg(nr_span args, unsigned i)
{
    const char *p = args.p, *end = args.p + args.n;
    nr_span none = {args.p ? args.p + args.n : NULL, 0};
    if (!p)
        return none;
    for (unsigned k = 0;; k++) {
        const char *comma = scan_group(p, end, STOP_AT_COMMA);
        const char *arg_end = comma ? comma : end;
        if (k == i)
            return trim(span(p, arg_end));
        if (!comma)
            return none;
        p = comma + 1;
    }
}

static NR_REF_UNUSED unsigned ref_sarg_count(nr_span args)
{
    nr_span t = trim(args);
    if (!t.p || t.n == 0)
        return 0;
    const char *p = t.p, *end = t.p + t.n;
    unsigned n = 1;
    for (;;) {
        const char *comma = scan_group(p, end, STOP_AT_COMMA);
        if (!comma)
            return n;
        p = comma + 1;
        if (skip_spaces(p, end) == end) /* "3, " of an unfinished call */
            return n;
        n++;
    }
}

/* Skips " /\* ... *\/" (-X verbose) at p; returns p when there is none. */
static const char *skip_comment(const char *p, const char *end)
{
    const char *q = skip_spaces(p, end);
    if (!STARTS(q, end, "/*"))
        return p;
    for (q += 2; q + 1 < end; q++)
        if (q[0] == '*' && q[1] == '/')
            return q + 2;
    return p;
}

/* Signed integer "-12", "0x1f", "017"; returns the end or NULL. */
static const char *parse_int(const char *p, const char *end, int64_t *out, int octal)
{
    int negative = p < end && *p == '-';
    p += negative;
    uint64_t v;
    const char *q;
    if (STARTS(p, end, "0x") || STARTS(p, end, "0X")) {
        q = parse_u64_hex(p + 2, end, &v);
    } else if (octal && p + 1 < end && *p == '0' && is_digit(p[1])) {
        v = 0;
        q = p + 1;
        while (q < end && *q >= '0' && *q <= '7') {
            if (v >> 61)
                return NULL;
            v = v * 8 + (uint64_t)(*q - '0');
            q++;
        }
    } else {
        q = parse_u64_dec(p, end, &v);
    }
    if (!q)
        return NULL;
    if (negative) {
        if (v > (uint64_t)INT64_MAX + 1)
            return NULL;
        *out = (int64_t)(0 - v);
    } else {
        *out = (int64_t)v;
    }
    return q;
}

/* The fd text at p ("3", "3</path>", "AT_FDCWD", "0xffffff9c", ...): sets
 * *fd and *annot (empty when none) and returns the end of the text, or NULL.
 * With comments == 0 a " /\* ... *\/" after the number gives NULL too. */
static const char *parse_fd_text(const char *p, const char *end, int comments, int64_t *fd, nr_span *annot)
{
    int64_t v;
    const char *q;
    if (STARTS(p, end, "AT_FDCWD")) {
        v = -100;
        q = p + 8;
    } else {
        q = parse_int(p, end, &v, 0);
        if (!q)
            return NULL;
        if (*p == '0' && q - p > 2 && (p[1] == 'x' || p[1] == 'X') && v >= 0 && v <= 0xffffffffLL)
            v = (int64_t)(int32_t)(uint32_t)v; /* -X raw prints AT_FDCWD as 0xffffff9c */
        if (v < INT32_MIN || v > INT32_MAX)
            return NULL;
    }
    const char *after_comment = skip_comment(q, end);
    if (after_comment != q && !comments)
        return NULL;
    q = after_comment;
    *annot = (nr_span){q, 0};
    if (q < end && *q == '<') {
        const char *close = skip_angle(q + 1, end);
        if (!close)
            return NULL;
        *annot = annotation_path(q + 1, close - 1);
        q = close;
        if (STARTS(q, end, "(deleted)"))
            q += sizeof "(deleted)" - 1;
    }
    *fd = v;
    return q;
}

static NR_REF_UNUSED int ref_sarg_fd(nr_span arg, int64_t *fd, nr_span *annot)
{
    nr_span t = trim(arg);
    const char *p = t.p, *end = t.p + t.n;
    if (!p || p == end)
        return -1;
    int64_t v;
    nr_span a;
    const char *q = parse_fd_text(p, end, 1, &v, &a);
    if (!q || q != end)
        return -1;
    *fd = v;
    *annot = a;
    return 0;
}

static NR_REF_UNUSED int ref_sarg_fd_at(nr_span args, unsigned i, int64_t *fd, nr_span *annot)
{
    if (i == 0 && args.p) {
        /* the common case in one pass: "4</data/x.bin>, ..." - the fd text,
         * then blanks, then the first top-level comma or the end; anything
         * else (a comment, a "1<<2" shift) takes the general path */
        const char *p = args.p, *end = args.p + args.n;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        int64_t v;
        nr_span a;
        const char *q = p < end ? parse_fd_text(p, end, 0, &v, &a) : NULL;
        if (q && !(q + 1 < end && q[0] == '<' && q[1] == '<')) {
            const char *r = q;
            while (r < end && (*r == ' ' || *r == '\t'))
                r++;
            if (r == end || *r == ',') {
                *fd = v;
                *annot = a;
                return 0;
            }
        }
    }
    return ref_sarg_fd(ref_sarg(args, i), fd, annot);
}

static NR_REF_UNUSED int ref_sarg_int(nr_span arg, int64_t *out)
{
    nr_span t = trim(arg);
    const char *p = t.p, *end = t.p + t.n;
    if (!p || p == end)
        return -1;
    if (*p == '[')
        p = skip_spaces(p + 1, end);
    int64_t v;
    const char *q = parse_int(p, end, &v, 1);
    if (!q || (q < end && (is_ident(*q) || *q == '.')))
        return -1;
    *out = v;
    return 0;
}

static NR_REF_UNUSED int ref_sarg_has_flag(nr_span arg, const char *flag, uint64_t raw_bit)
{
    const char *p = arg.p, *end = arg.p + arg.n;
    if (!p)
        return 0;
    size_t flen = flag ? strlen(flag) : 0;
    uint64_t numeric = 0;
    while (p < end) {
        if (is_ident(*p)) {
            const char *q = p;
            while (q < end && is_ident(*q))
                q++;
            if (flen && (size_t)(q - p) == flen && memcmp(p, flag, flen) == 0)
                return 1;
            if (is_digit(*p)) {
                int64_t v;
                if (parse_int(p, q, &v, 1) == q)
                    numeric |= (uint64_t)v;
            }
            p = q;
        } else {
            p++;
        }
    }
    return raw_bit != 0 && (numeric & raw_bit) != 0;
}

static int put_byte(char *dst, size_t cap, size_t *n, unsigned char b)
{
    if (*n + 1 < cap)
        dst[*n] = (char)b;
    else
        return -1;
    (*n)++;
    return 0;
}

static NR_REF_UNUSED long ref_sarg_unquote(nr_span arg, char *dst, size_t dst_cap, int *truncated)
{
    nr_span t = trim(arg);
    const char *p = t.p, *end = t.p + t.n;
    int quoted = p && p < end && *p == '"';
    size_t n = 0;
    int cut = 0;
    if (truncated)
        *truncated = 0;
    if (!p)
        p = end = "";
    if (quoted)
        p++;
    int closed = 0;
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (quoted && c == '"') {
            closed = 1;
            p++;
            break;
        }
        if (c != '\\') {
            if (put_byte(dst, dst_cap, &n, c) < 0)
                cut = 1;
            p++;
            continue;
        }
        if (++p == end)
            return -1;
        unsigned value;
        switch (*p) {
        case 'n': value = '\n'; p++; break;
        case 't': value = '\t'; p++; break;
        case 'r': value = '\r'; p++; break;
        case 'v': value = '\v'; p++; break;
        case 'f': value = '\f'; p++; break;
        case 'a': value = '\a'; p++; break;
        case 'b': value = '\b'; p++; break;
        case '"': case '\\': case '\'': case '?': value = (unsigned char)*p; p++; break;
        case 'x':
            p++;
            if (p == end || !is_xdigit(*p))
                return -1;
            value = 0;
            for (int k = 0; k < 2 && p < end && is_xdigit(*p); k++, p++)
                value = value * 16 + (unsigned)xdigit_value(*p);
            break;
        default:
            if (*p < '0' || *p > '7')
                return -1;
            value = 0;
            for (int k = 0; k < 3 && p < end && *p >= '0' && *p <= '7'; k++, p++)
                value = value * 8 + (unsigned)(*p - '0');
            if (value > 255)
                return -1;
            break;
        }
        if (put_byte(dst, dst_cap, &n, (unsigned char)value) < 0)
            cut = 1;
    }
    if (quoted) {
        if (!closed)
            return -1;
        if (p < end) {
            if (end - p == 3 && memcmp(p, "...", 3) == 0) {
                if (truncated)
                    *truncated = 1;
            } else {
                return -1;
            }
        }
    }
    (void)cut;
    if (n >= dst_cap && dst_cap > 0)
        n = dst_cap - 1;
    if (dst_cap > 0)
        dst[n] = '\0';
    return (long)n;
}
