/* strace_line: the line lexer. Method: one left-to-right scan per line;
 * prefix (pid, timestamps), then a dispatch on the first byte of the body,
 * then a bracket/quote/annotation-aware scan of the arguments and a small
 * result parser. No allocation, no libc number parsing, no floating point.
 * The forms understood and the ambiguity rules are documented in
 * docs/strace-formats.md. */
#include "strace_line.h"
#include "syscalls.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__SSE2__) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define NR__SLINE_AVX2 1 /* compiled per function (target attribute), used when the CPU has it */
#define NR__SLINE_WIDE_FN __attribute__((target("avx2"))) /* a function run only when wide_scans */
#else
#define NR__SLINE_WIDE_FN
#endif

/* Linux PID_MAX_LIMIT: pids and tids are below 2^22. */
#define NR__PID_MAX 4194304
/* A seconds value at or above this (1973-03-03) is a Unix time, below it a
 * -r delta: no -r delta is three years long, no -ttt log predates 1973. */
#define NR__UNIX_MIN_SECONDS 100000000
#define NR__NS_PER_S 1000000000LL
/* A duration is at most 2^62 ns (146 years), the model's bound. */
#define DUR_MAX_NS ((uint64_t)1 << 62)
#define DUR_MAX_S ((int64_t)(DUR_MAX_NS / NR__NS_PER_S))

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

#ifdef __SSE2__
static inline __m128i load16(const char *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }

/* Bit i set when byte i of v matters to the argument scanner (see
 * scan_class; commas only when with_comma): '(' and ')' differ in bit 0,
 * '[' and '{' (also ']' and '}') in bit 5. */
static inline unsigned scan_mask(__m128i v, int with_comma)
{
    const __m128i folded = _mm_and_si128(v, _mm_set1_epi8((char)0xDF));
    __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                             _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(1)), _mm_set1_epi8(')')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(folded, _mm_set1_epi8('[')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(folded, _mm_set1_epi8(']')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
    if (with_comma)
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(',')));
    return (unsigned)_mm_movemask_epi8(m);
}

/* Bit i set when byte i of v matters inside an annotation: '[', '\\' and
 * ']' are the range 0x5b..0x5d (one signed compare after a shift of the
 * range to -128..-126); '<' and '>' differ in bit 1 only; '"'. */
static inline unsigned angle_mask(__m128i v)
{
    __m128i m = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8((char)(0x80 - '['))), _mm_set1_epi8((char)(0x80 + 3)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)0xFD)), _mm_set1_epi8('<')));
    return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* The finders below test 16 bytes per SSE2 step. The last 1 to 15 bytes,
 * p..end, are tested as the 16 bytes that end at end when those lie at or
 * after lo, a bound the caller knows readable (the start of its span),
 * with the bits of the bytes before p shifted out; else byte by byte. */

/* First byte at or after p that the argument scanner must look at (see
 * scan_class; commas only when with_comma), or end. Inlined with a
 * constant with_comma: a scan for the closing ')' does not stop at every
 * comma. */
static inline const char *find_scan_special(const char *p, const char *end, const char *lo, int with_comma)
{
#ifdef __SSE2__
    for (; end - p >= 16; p += 16) {
        unsigned mask = scan_mask(load16(p), with_comma);
        if (mask)
            return p + __builtin_ctz(mask);
    }
    if (p < end && end - lo >= 16) {
        unsigned mask = scan_mask(load16(end - 16), with_comma) >> (16 - (end - p));
        return mask ? p + __builtin_ctz(mask) : end;
    }
#endif
    (void)lo;
    while (p < end && (scan_class[(unsigned char)*p] == SC_PLAIN || (!with_comma && *p == ',')))
        p++;
    return p;
}

/* First byte at or after p that matters inside an annotation (see
 * angle_special), or end. */
static inline const char *find_angle_special(const char *p, const char *end, const char *lo)
{
#ifdef __SSE2__
    for (; end - p >= 16; p += 16) {
        unsigned mask = angle_mask(load16(p));
        if (mask)
            return p + __builtin_ctz(mask);
    }
    if (p < end && end - lo >= 16) {
        unsigned mask = angle_mask(load16(end - 16)) >> (16 - (end - p));
        return mask ? p + __builtin_ctz(mask) : end;
    }
#endif
    (void)lo;
    while (p < end && !angle_special[(unsigned char)*p])
        p++;
    return p;
}

static inline int is_upper(char c) { return (unsigned char)(c - 'A') < 26u; }
static inline int is_alpha(char c) { return (unsigned char)((c | 0x20) - 'a') < 26u; }
/* [A-Za-z0-9_]: a table, the name scan's test of every byte. */
static const unsigned char ident_char[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
    ['8'] = 1, ['9'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
    ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1,
    ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1,
    ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1,
    ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1,
    ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1,
    ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};
static inline int is_ident(char c) { return ident_char[(unsigned char)c]; }
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
    const char *lo = p;
    int depth = 1, brackets = 0;
    while (p < end) {
        p = find_angle_special(p, end, lo);
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

/* The '>' that ends an annotation body starting at p when the body holds
 * no byte skip_angle looks at but for one "[...]" ("/data/x.bin",
 * "pipe:[884321]"), else NULL (skip_angle then reads it). Where it
 * answers, skip_angle(p, end) returns the answer + 1, and the body holds
 * no '<', so it is all path. lo (at or before p) is readable. */
static inline const char *simple_annotation_end(const char *p, const char *end, const char *lo)
{
    const char *q = find_angle_special(p, end, lo);
    if (q < end && *q == '[') {
        q = find_angle_special(q + 1, end, lo);
        if (q == end || *q != ']')
            return NULL;
        q = find_angle_special(q + 1, end, lo);
    }
    return q < end && *q == '>' ? q : NULL;
}

/* skip_angle with its common cases inline (see simple_annotation_end). */
static inline const char *skip_annotation(const char *p, const char *end)
{
    const char *gt = simple_annotation_end(p, end, p);
    return gt ? gt + 1 : skip_angle(p, end);
}

/* p at the '<' of an fd annotation: returns just after the matching '>' and
 * sets *path (annotation_path of the body), or returns NULL when the line
 * ends first. */
static inline const char *parse_annotation(const char *p, const char *end, nr_span *path)
{
    const char *gt = simple_annotation_end(p + 1, end, p);
    if (gt) {
        *path = span(p + 1, gt);
        return gt + 1;
    }
    const char *close = skip_angle(p + 1, end);
    if (close)
        *path = annotation_path(p + 1, close - 1);
    return close;
}

enum scan_stop { STOP_AT_CLOSE_PAREN, STOP_AT_COMMA };

/* Scans balanced text from p, depth groups deep in the group to scan
 * (0: at its top level). STOP_AT_CLOSE_PAREN returns the ')' that
 * closes that group; STOP_AT_COMMA returns the commas-th (1 or more)
 * top-level ','. Returns NULL when the line ends first. lo (at or before
 * p) is readable, see find_scan_special. */
static inline __attribute__((always_inline)) const char *scan_group_n(const char *p, const char *end, const char *lo,
                                                                      enum scan_stop stop, unsigned commas, int depth)
{
    while ((p = find_scan_special(p, end, lo, stop == STOP_AT_COMMA)) < end) {
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
            p = skip_annotation(p + 1, end);
            if (!p)
                return NULL;
            continue;
        case SC_COMMA:
            if (depth == 0 && stop == STOP_AT_COMMA && --commas == 0)
                return p;
            break;
        }
        p++;
    }
    return NULL;
}

/* scan_group_n for the next ')' or the next top-level ','. */
static inline __attribute__((always_inline)) const char *scan_group(const char *p, const char *end,
                                                                    enum scan_stop stop)
{
    return scan_group_n(p, end, p, stop, 1, 0);
}

#ifdef NR__SLINE_AVX2
/* The scan of a call's arguments for their closing ')' over 32-byte bit
 * masks of the bytes that any of scan_group, skip_quoted and skip_angle
 * look at. AVX2 only (vpshufb); without it scan_group does the work.
 *
 * Bit i set when byte i of the 32 at p is one of " ( ) [ ] { } < > and
 * backslash. Two exact-match lookups by the low nibble (vpshufb; a byte
 * with its high bit set looks up 0): one table holds " ( ) [ \ ] >, the
 * other { < } (their low nibbles clash with [ \ ]); a byte is special when
 * it equals its entry in either. The entries of unused nibbles are 0, and
 * 1 for nibble 0, so that no byte with that low nibble equals them. */
__attribute__((target("avx2"))) static inline uint32_t special32(const char *p)
{
    const __m256i first = _mm256_setr_epi8(1, 0, '"', 0, 0, 0, 0, 0, '(', ')', 0, '[', '\\', ']', '>', 0,
                                           1, 0, '"', 0, 0, 0, 0, 0, '(', ')', 0, '[', '\\', ']', '>', 0);
    const __m256i second = _mm256_setr_epi8(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '{', '<', '}', 0, 0,
                                            1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '{', '<', '}', 0, 0);
    const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    const __m256i hit = _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(first, v), v),
                                        _mm256_cmpeq_epi8(_mm256_shuffle_epi8(second, v), v));
    return (uint32_t)_mm256_movemask_epi8(hit);
}

/* Bit i set when byte i of the 32 at p is '"'. */
__attribute__((target("avx2"))) static inline uint32_t quote32(const char *p)
{
    const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')));
}

/* The first '"' at or after p, or end; 32 bytes a step, the last 1 to 31
 * as the 32 bytes that end at end (readable: the line has 64 before end). */
__attribute__((target("avx2"))) static inline const char *find_quote32(const char *p, const char *end)
{
    for (; end - p >= 32; p += 32) {
        const uint32_t m = quote32(p);
        if (m)
            return p + __builtin_ctz(m);
    }
    if (p >= end)
        return end;
    const uint32_t m = quote32(end - 32) >> (32 - (end - p));
    return m ? p + __builtin_ctz(m) : end;
}

/* skip_quoted over 32-byte quote masks: start is just after an opening
 * '"'; returns just after the closing quote, or NULL when the line ends
 * first (where skip_quoted returns end and the scan then ends). */
__attribute__((target("avx2"))) static inline const char *skip_quoted32(const char *start, const char *end)
{
    for (const char *p = start;;) {
        const char *q = find_quote32(p, end);
        if (q == end)
            return NULL;
        if (q == start || q[-1] != '\\')
            return q + 1;
        size_t backslashes = 0;
        while (q - backslashes > start && q[-1 - (ptrdiff_t)backslashes] == '\\')
            backslashes++;
        if (backslashes % 2 == 0)
            return q + 1;
        p = q + 1;
    }
}

/* 32 bytes of special32 bits: base..base+32 (only bytes before end
 * flagged; the bytes before end - 32 are the line's). */
typedef struct scan32 {
    const char *base, *end;
    uint32_t special; /* not yet consumed */
} scan32;

/* Classifies from `from` (the 32 bytes there, or those ending at end). */
__attribute__((target("avx2"))) static inline void scan32_at(scan32 *w, const char *from)
{
    w->base = from;
    if (w->end - from >= 32)
        w->special = special32(from);
    else if (from < w->end)
        w->special = special32(w->end - 32) >> (32 - (w->end - from));
    else
        w->special = 0;
}

/* Consumes and returns the next special byte, or NULL at the end. */
__attribute__((target("avx2"))) static inline const char *scan32_next(scan32 *w)
{
    while (w->special == 0) {
        if (w->end - w->base <= 32)
            return NULL;
        scan32_at(w, w->base + 32);
    }
    const char *s = w->base + __builtin_ctz(w->special);
    w->special &= w->special - 1;
    return s;
}

/* The '>' that ends the annotation body whose bytes w holds next, when
 * the next special bytes are that '>' or '[', ']', '>' ("pipe:[884321]"),
 * consumed; NULL otherwise (w then used up: the caller keeps a copy).
 * Where it answers, skip_angle and simple_annotation_end answer the same:
 * the bytes before the '>' hold nothing else they look at. */
__attribute__((target("avx2"))) static inline const char *scan32_annotation_end(scan32 *w)
{
    const char *gt = scan32_next(w);
    if (gt && *gt == '[') {
        const char *rb = scan32_next(w);
        gt = rb && *rb == ']' ? scan32_next(w) : NULL;
    }
    return gt && *gt == '>' ? gt : NULL;
}

/* scan32_annotation_end of the body at p; the 64 bytes before end are
 * readable. */
__attribute__((target("avx2"))) static inline const char *annotation_end32(const char *p, const char *end)
{
    scan32 w = {.end = end};
    scan32_at(&w, p);
    return scan32_annotation_end(&w);
}

/* The scan of walk_find_close_paren from just after a '<' that opens an
 * annotation it does not close from its mask, depth groups deep: the
 * annotation by skip_annotation, the rest by scan_group. Out of line and
 * without AVX2, so that the walk calls no function but this one, as a tail
 * call (a call in the loop made GCC realign the walk's stack frame: 3
 * instructions more a call). */
static __attribute__((noinline)) const char *scan_close_paren_after_angle(const char *p, const char *end, int depth)
{
    const char *q = skip_annotation(p, end);
    return q ? scan_group_n(q, end, q, STOP_AT_CLOSE_PAREN, 1, depth) : NULL;
}

/* scan_group(p, end, STOP_AT_CLOSE_PAREN) over 32-byte masks of
 * special32: a quoted string is skipped by its quotes alone (its bytes are
 * not classified), an annotation whose next special bytes are its '>' (or
 * '[', ']', '>') by the mask, any other by skip_annotation. The 64 bytes before end are readable. */
__attribute__((target("avx2"), noinline)) static const char *walk_find_close_paren(const char *p, const char *end)
{
    int depth = 0;
    scan32 w = {.end = end};
    scan32_at(&w, p);
    for (;;) {
        const char *s = scan32_next(&w);
        if (!s)
            return NULL;
        const char c = *s;
        /* the commonest bytes first, tested in the order a call line has
           them most often (a ')' ends every scan): fewer steps than a
           jump table */
        if (c == ')') {
            if (depth == 0)
                return s;
            depth--;
        } else if (c == '<') {
            if (s + 1 < end && s[1] == '<') { /* "1<<28" shift in futex ops */
                scan32_at(&w, s + 2);
                continue;
            }
            if (scan32_annotation_end(&w))
                continue;
            return scan_close_paren_after_angle(s + 1, end, depth);
        } else if (c == '"') {
            const char *q = skip_quoted32(s + 1, end);
            if (!q)
                return NULL;
            scan32_at(&w, q);
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        } /* else '>' and backslash: not looked at outside annotations and strings */
    }
}
#endif

/* SWAR over 8 digit values (each byte 0..9; the lowest byte, first in the
 * text, the most significant digit; zero bytes first for a shorter number;
 * as in simdjson's parse_eight_digits): the number they make. */
static inline uint64_t swar_value8(uint64_t t)
{
    t = t * 2561 >> 8; /* bytes 0..9 already: no 0x0F mask; pairs of digits, at most 99 a byte */
    t = (t & 0x00FF00FF00FF00FFULL) * 6553601 >> 16;
    return (t & 0x0000FFFF0000FFFFULL) * 42949672960001ULL >> 32;
}

/* The top bit of every byte of t (a word less '0' in every byte) that was
 * not a digit, and maybe of later bytes: a borrow or carry only runs toward
 * later bytes, so the lowest set bit marks the first non-digit. */
static inline uint64_t swar_nondigit_mask(uint64_t t)
{
    return (t | (t + 0x7676767676767676ULL)) & 0x8080808080808080ULL;
}

/* d loaded from a -T duration "S.FFFFFF": its seven digits (the '.'
 * dropped) less '0', in the high bytes, for swar_value8 after
 * swar_nondigit_mask. */
static inline uint64_t swar_duration_digits(uint64_t d)
{
    return ((d & 0xFF) << 8 | (d >> 16) << 16) - 0x3030303030303000ULL;
}

/* Up to 8 leading ASCII digits of the 8 bytes at p (little-endian SWAR,
 * as in simdjson's parse_eight_digits): returns how many, value in *v. */
static inline unsigned swar_digits8_word(uint64_t w, uint64_t *v)
{
    /* t's byte i is the digit value; a borrow or carry only runs toward
     * later bytes, so the first flagged byte is the first non-digit. */
    uint64_t t = w - 0x3030303030303030ULL;
    uint64_t flags = swar_nondigit_mask(t);
    unsigned n = flags ? (unsigned)__builtin_ctzll(flags) / 8 : 8;
    if (n == 0)
        return 0;
    *v = swar_value8(t << 8 * (8 - n)); /* the digits into the high bytes, zeros before them */
    return n;
}

/* Whether the 8 bytes at p are all digits; their value in *v when so. The
 * seconds of a -ttt stamp: no count, no shift. */
static inline int swar_eight_digits(const char *p, uint64_t *v)
{
    uint64_t w;
    memcpy(&w, p, 8);
    uint64_t t = w - 0x3030303030303030ULL;
    if (swar_nondigit_mask(t))
        return 0;
    *v = swar_value8(t);
    return 1;
}

static inline unsigned swar_digits8(const char *p, uint64_t *v)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return swar_digits8_word(w, v);
}

/* swar_digits8 of the 1 to 7 bytes p..end followed by NULs (non-digits),
 * read as the 8 bytes that end at end: the caller knows those are inside
 * the line. For the last number of a line, "<0.000012>". */
static inline unsigned swar_digits8_at_end(const char *p, const char *end, uint64_t *v)
{
    uint64_t w;
    memcpy(&w, end - 8, 8);
    return swar_digits8_word(w >> (8 * (p - (end - 8))), v);
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
static const char *parse_u64_dec_long(const char *p, const char *end, uint64_t *v)
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

/* parse_u64_dec_long with its common case inline: 1 to 8 digits followed
 * by a non-digit or the end, the first 8 bytes readable (one SWAR step). */
static inline const char *parse_u64_dec(const char *p, const char *end, uint64_t *v)
{
    if (end - p >= 8) {
        uint64_t x;
        unsigned n = swar_digits8(p, &x);
        if (n == 0)
            return NULL;
        if (n < 8 || end - p == 8 || !is_digit(p[8])) {
            *v = x;
            return p + n;
        }
    }
    return parse_u64_dec_long(p, end, v);
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

/* Reads the prefix of `strace -f -o FILE -ttt`, "PID SECONDS.FRACTION "
 * with up to 7 pid digits, up to 15 seconds digits and a 1 to 7 digit
 * fraction, not followed by a second stamp: returns the body and sets pid
 * and ts exactly as parse_prefix would, or returns NULL, out untouched, for
 * any other shape (parse_prefix then reads the line). One SWAR step per
 * number instead of the general digit loops. */
static const char *parse_prefix_fast(const char *line, const char *end, nr_sline *out)
{
    uint64_t pid, whole, low, frac;
    if (end - line < 32) /* all reads below stay inside the line */
        return NULL;
    unsigned n = swar_digits8(line, &pid);
    if (n == 0 || n == 8 || line[n] != ' ' || pid > NR__PID_MAX)
        return NULL;
    const char *p = line + n + 1;
    if (*p == ' ' || *p == '\t')
        p = skip_spaces(p, end);
    if (end - p < 24)
        return NULL;
    if (swar_eight_digits(p, &whole) && is_digit(p[8]) && is_digit(p[9]) && p[10] == '.') {
        whole = whole * 100 + (uint64_t)((p[8] - '0') * 10 + (p[9] - '0')); /* 10 digits: 2001 to 2286 */
        n = 10;
    } else if ((n = swar_digits8(p, &whole)) == 8) {
        unsigned more = swar_digits8(p + 8, &low);
        if (more == 8)
            return NULL;
        if (more)
            whole = whole * pow10_u64[more] + low;
        n += more;
    }
    if (n == 0 || p[n] != '.' || whole > (uint64_t)(INT64_MAX / NR__NS_PER_S) - 1)
        return NULL;
    const char *f = p + n + 1;
    unsigned nf = swar_digits8(f, &frac);
    if (nf == 0 || nf == 8 || f[nf] != ' ')
        return NULL;
    const char *body = f + nf + 1;
    if (body < end && (*body == ' ' || *body == '\t'))
        body = skip_spaces(body, end);
    if (body < end && (is_digit(*body) || *body == '('))
        return NULL; /* maybe a second stamp */
    out->pid = (int64_t)pid;
    out->ts_form = whole >= NR__UNIX_MIN_SECONDS ? NR_TS_UNIX : NR_TS_RELATIVE;
    out->ts_ns = (int64_t)whole * NR__NS_PER_S + (int64_t)frac * pow10_ns[nf];
    return body;
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
        uint64_t digits;
        unsigned swar_n = 8;
        if (end - q >= 8)
            swar_n = swar_digits8(q, &digits);
        else if (q < end && end - p >= 8) /* p is the '<', inside the line */
            swar_n = swar_digits8_at_end(q, end, &digits);
        if (swar_n < 8) { /* 0 to 7 digits and a non-digit: the common case in one step */
            f = swar_n ? (int64_t)digits : 0;
            n = (int)swar_n;
            q += swar_n;
        }
        while (q < end && n < 9 && is_digit(*q)) {
            f = f * 10 + (*q++ - '0');
            n++;
        }
        if (n == 0 || q >= end)
            return NULL;
    }
    if (*q != '>')
        return NULL;
    /* a duration above 2^62 ns is no call's: unreadable, as the model refuses
     * it; until session 54 it wrapped modulo 2^64, and a negative one left the
     * call out of the latency statistics unnoted */
    const uint64_t v = (uint64_t)s * NR__NS_PER_S + (uint64_t)(f * pow10_ns[n]);
    *ns = s <= DUR_MAX_S && v <= DUR_MAX_NS ? (int64_t)v : NR_SLINE_DUR_UNREADABLE;
    return q + 1;
}

/* The '<' of the "<...>" group that ends [p, end) (where -T puts its
 * duration), or NULL when the text does not end with '>'. */
static const char *last_angle_group(const char *p, const char *end)
{
    return end > p && end[-1] == '>' ? memrchr(p, '<', (size_t)(end - p)) : NULL;
}

/* The -T duration that ends [p, end) (spaces after it aside), when the
 * line's last "<...>" is one: strace prints it last whatever it printed
 * before, so text after a result that the lexer does not know costs the
 * call that text alone, not its time (since session 58). */
static void read_last_duration(const char *p, const char *end, int64_t *ns)
{
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    const char *lt = last_angle_group(p, end);
    int64_t v;
    if (lt && parse_duration(lt, end, &v) == end)
        *ns = v;
}

/* Whether [p, q) is strace's "<unavailable>": a call's time it could not
 * measure, which is no unreadable duration. */
static int is_unavailable_mark(const char *p, const char *q)
{
    static const char mark[] = "<unavailable>";
    return (size_t)(q - p) == sizeof mark - 1 && memcmp(p, mark, sizeof mark - 1) == 0;
}

/* Whether [p, end) holds a control byte other than a tab. strace escapes
 * them in all it prints, so after a result they are lines run together:
 * the CR-cut lines before the first LF of a log that mixes line ends,
 * read until session 56 as the first call alone (the duration the last
 * one's), the rest ignored without a word. */
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
            p = parse_annotation(p, end, &out->result_annot);
            if (!p)
                return -1;
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
            return -1; /* see has_control_byte */
        } else {
            out->result_tail_unread = 1;
            read_last_duration(p, end, &out->dur_ns);
            return 0;
        }
    }
    return 0;
}

/* Whether "<S.FFFFFF>" (one seconds digit, 1 to 7 fraction digits; -T)
 * runs from p to end, in one SWAR step, else whether parse_duration reads
 * p..end; sets *ns as parse_duration does. The 8 bytes before end must be
 * inside the line. */
static inline int parse_duration_to_end(const char *p, const char *end, int64_t *ns)
{
    const ptrdiff_t frac_len = end - p - 4; /* all but "<S." and ">" */
    if (frac_len >= 1 && frac_len <= 7 && is_digit(p[1]) && p[2] == '.' && end[-1] == '>') {
        uint64_t frac;
        if (swar_digits8_at_end(p + 3, end, &frac) == (unsigned)frac_len) {
            *ns = (p[1] - '0') * NR__NS_PER_S + (int64_t)frac * pow10_ns[frac_len];
            return 1;
        }
    }
    return parse_duration(p, end, ns) == end;
}

/* Length of the run of [A-Za-z0-9_] at p, up to 16 (the 16 bytes at p
 * readable). */
static inline unsigned ident_run16(const char *p)
{
#ifdef __SSE2__
    const __m128i v = load16(p);
    const __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
    __m128i m = _mm_cmplt_epi8(_mm_add_epi8(lower, _mm_set1_epi8((char)(0x80 - 'a'))), _mm_set1_epi8((char)(0x80 + 26)));
    m = _mm_or_si128(m, _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8((char)(0x80 - '0'))), _mm_set1_epi8((char)(0x80 + 10))));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
    return (unsigned)__builtin_ctz(~(unsigned)_mm_movemask_epi8(m));
#else
    unsigned n = 0;
    while (n < 16 && is_ident(p[n]))
        n++;
    return n;
#endif
}

/* The end of the run of [A-Za-z0-9_] at p (an errno name), 16 bytes a step
 * while 32 stay readable before end. */
static inline const char *ident_end(const char *p, const char *end)
{
    if (end - p >= 16) {
        unsigned n16;
        while ((n16 = ident_run16(p)) == 16 && end - p >= 32)
            p += 16;
        p += n16;
    }
    while (p < end && is_ident(*p))
        p++;
    return p;
}

static int avx2_off_for_tests;

void nr__sline_no_avx2(int off) { avx2_off_for_tests = off; }

/* Whether the 32-byte AVX2 scans may run on the line that ends at end:
 * the CPU has AVX2 and the line (from line) has the 64 bytes they read. */
static inline int wide_scans(const char *line, const char *end)
{
#ifdef NR__SLINE_AVX2
    return end - line >= 64 && !avx2_off_for_tests && __builtin_cpu_supports("avx2");
#else
    (void)line, (void)end;
    return 0;
#endif
}

/* scan_group for the ')' that closes the group from p, out of line: the
 * caller's fast path (find_close_paren) then saves no registers for it. */
static __attribute__((noinline)) const char *scan_close_paren(const char *p, const char *end)
{
    return scan_group(p, end, STOP_AT_CLOSE_PAREN);
}

/* The ')' that closes the group from p (scan_group), over 32-byte masks
 * when wide (see wide_scans). */
static inline __attribute__((always_inline)) const char *find_close_paren(const char *p, const char *end, int wide)
{
#ifdef NR__SLINE_AVX2
    if (wide)
        return walk_find_close_paren(p, end);
#endif
    (void)wide;
    return scan_close_paren(p, end);
}

/* Whether the up to 32 bytes p..close hold no byte of special32, so that
 * the walk's first stop from p is close when close is a ')'; the 32 bytes
 * before close must be the line's. 0 without AVX2. */
NR__SLINE_WIDE_FN static inline int no_special32_before(const char *p, const char *close)
{
#ifdef NR__SLINE_AVX2
    const ptrdiff_t n = close - p;
    return n <= 32 && (n == 0 || special32(close - 32) >> (32 - n) == 0);
#else
    (void)p, (void)close;
    return 0;
#endif
}

/* The '>' that ends a simple annotation body from body, over 32-byte masks
 * when wide; NULL when not wide or the body is not simple. */
static inline const char *annotation_end_wide(const char *body, const char *end, int wide)
{
#ifdef NR__SLINE_AVX2
    if (wide)
        return annotation_end32(body, end);
#endif
    (void)body, (void)end, (void)wide;
    return NULL;
}

/* parse_annotation over 32-byte masks when wide and the body is simple. */
static inline const char *parse_annotation_wide(const char *p, const char *end, int wide, nr_span *path)
{
    const char *gt = annotation_end_wide(p + 1, end, wide);
    if (gt) {
        *path = span(p + 1, gt);
        return gt + 1;
    }
    return parse_annotation(p, end, path);
}

/* The commonest results, " = N <0.000012>", " = N</path> <0.000012>" and
 * " = -1 ENAME (text) <0.000012>" (N of 1 to 7 digits, maybe negative, the
 * duration ending the line), in one pass: returns 1 with out set exactly
 * as parse_result would set it, or 0, out untouched, for any other shape
 * (parse_result then reads it). */
static inline __attribute__((always_inline)) int parse_result_fast(const char *p, const char *end, int wide,
                                                                   nr_sline *out)
{
    if (end - p < 12 || p[0] != ' ' || p[1] != '=' || p[2] != ' ')
        return 0;
    const char *q = p + 3;
    int negative = *q == '-';
    q += negative;
    uint64_t v;
    unsigned n;
    if (is_digit(q[0]) && !is_digit(q[1])) { /* "= 0", "= -1": no SWAR step */
        v = (uint64_t)(q[0] - '0');
        n = 1;
    } else {
        n = swar_digits8(q, &v); /* q + 8 <= p + 12 <= end */
        if (n == 0 || n == 8)
            return 0;
    }
    const char *r = q + n;
    nr_span annot = out->result_annot;
    if (*r == '<') {
        r = parse_annotation_wide(r, end, wide, &annot);
        if (!r)
            return 0;
    }
    if (end - r < 2 || r[0] != ' ')
        return 0;
    nr_span errno_name = out->errno_name, errno_text = out->errno_text;
    if (is_upper(r[1])) {
        const char *name_end = ident_end(r + 2, end); /* "ENOTTY": one mask */
        if (end - name_end < 2 || name_end[0] != ' ' || name_end[1] != '(')
            return 0;
        const char *close = find_close_paren(name_end + 2, end, wide);
        if (!close || end - close < 3 || close[1] != ' ')
            return 0;
        errno_name = span(r + 1, name_end);
        errno_text = span(name_end + 2, close);
        r = close + 1;
    }
    if (r[1] != '<')
        return 0;
    int64_t dur;
    if (!parse_duration_to_end(r + 1, end, &dur)) /* end - 8 >= p: the line */
        return 0;
    out->has_result = 1;
    out->result = negative ? (int64_t)(0 - v) : (int64_t)v; /* "-9223372036854775808" without overflow */
    out->result_annot = annot;
    out->errno_name = errno_name;
    out->errno_text = errno_text;
    out->dur_ns = dur;
    return 1;
}

/* The commonest result of all, " = N <S.FFFFFF>" (N of 1 to 7 digits, -T
 * in microseconds) up to the end, read from its two ends: returns 1 with
 * out set exactly as parse_result_fast would set it, or 0, out untouched. */
static inline __attribute__((always_inline)) int parse_result_plain(const char *p, const char *end, nr_sline *out)
{
    const ptrdiff_t n = end - p - 14; /* " = " N " <S.FFFFFF>" */
    if (n < 1 || n > 7)
        return 0;
    uint32_t eq;
    uint16_t lt;
    uint64_t w, d;
    memcpy(&eq, p, 4);
    memcpy(&lt, end - 11, 2);
    memcpy(&w, p + 3, 8);
    memcpy(&d, end - 9, 8);
    /* little-endian words: " = " in the low three bytes of eq, " <" in lt */
    if ((eq & 0xFFFFFF) != (' ' | '=' << 8 | ' ' << 16) || lt != (' ' | '<' << 8) || end[-1] != '>' ||
        (d >> 8 & 0xFF) != '.')
        return 0;
    const unsigned drop = 8 * (8 - (unsigned)n); /* the digits into the high bytes, zeros before them */
    uint64_t t = (w << drop) - (0x3030303030303030ULL << drop);
    /* "S.FFFFFF" without its '.': the seven digits of the microseconds
       into the high bytes */
    const uint64_t u = swar_duration_digits(d);
    if (swar_nondigit_mask(t) | swar_nondigit_mask(u))
        return 0;
    out->has_result = 1;
    out->result = (int64_t)swar_value8(t);
    out->dur_ns = (int64_t)swar_value8(u) * 1000;
    return 1;
}

/* The last 11 bytes before end as " <S.FFFFFF>" (-T in microseconds):
 * 1 with the digits for swar_value8 in *u, else 0. */
static inline int duration_tail_us(const char *end, uint64_t *u)
{
    uint16_t lt;
    uint64_t d;
    memcpy(&lt, end - 11, 2);
    memcpy(&d, end - 9, 8);
    if (lt != (' ' | '<' << 8) || end[-1] != '>' || (d >> 8 & 0xFF) != '.')
        return 0;
    *u = swar_duration_digits(d);
    return !swar_nondigit_mask(*u);
}

/* The commonest result with an annotation, " = N</path> <S.FFFFFF>" (N of
 * 1 to 7 digits, -y, -T in microseconds; openat), up to the end, when
 * wide (see wide_scans: the path's body over 32-byte masks): returns 1 with
 * out set exactly as parse_result_fast would set it, or 0, out untouched.
 * Out of line: inlined, it cost the plain lines more than it saved. */
NR__SLINE_WIDE_FN static __attribute__((noinline)) int parse_result_annotated(const char *p, const char *end, int wide,
                                                                              nr_sline *out)
{
    if (!wide || end - p < 19) /* " = N<>" and " <S.FFFFFF>" */
        return 0;
    uint32_t eq;
    uint64_t w, v, u;
    memcpy(&eq, p, 4);
    memcpy(&w, p + 3, 8);
    const unsigned n = swar_digits8_word(w, &v);
    const char *open = p + 3 + n, *close = end - 12;
    if ((eq & 0xFFFFFF) != (' ' | '=' << 8 | ' ' << 16) || n - 1 >= 7 || *open != '<' || close <= open ||
        *close != '>' || !duration_tail_us(end, &u) || annotation_end_wide(open + 1, end, wide) != close)
        return 0;
    out->has_result = 1;
    out->result = (int64_t)v;
    out->result_annot = span(open + 1, close);
    out->dur_ns = (int64_t)swar_value8(u) * 1000;
    return 1;
}

/* Sets out to the failure parse_result_failed reads: the errno name at
 * name..name_end, its text up to end - 12, u the -T digits; returns 1. */
static inline int set_result_failed(const char *name, const char *name_end, const char *end, uint64_t u,
                                    nr_sline *out)
{
    out->has_result = 1;
    out->result = -1;
    out->errno_name = span(name, name_end);
    out->errno_text = span(name_end + 2, end - 12);
    out->dur_ns = (int64_t)swar_value8(u) * 1000;
    return 1;
}

/* parse_result_failed's end when the errno text holds bytes the scan acts
 * on, or more than 32: 1 when the walk from the text stops at the ')'
 * before the duration. Out of line and reached by a tail call, so that
 * parse_result_failed calls nothing and saves no registers. */
static __attribute__((noinline)) int result_failed_by_scan(const char *name, const char *name_end, const char *end,
                                                           uint64_t u, nr_sline *out)
{
    if (find_close_paren(name_end + 2, end, 1) != end - 12)
        return 0;
    return set_result_failed(name, name_end, end, u, out);
}

/* The commonest failure, " = -1 ENAME (text) <S.FFFFFF>" (-T in
 * microseconds; ENOENT of openat, ENOTTY of ioctl), up to the end, when
 * wide (see wide_scans: the text over 32-byte masks): returns 1 with out
 * set exactly as parse_result_fast would set it, or 0, out untouched. */
NR__SLINE_WIDE_FN static __attribute__((noinline)) int parse_result_failed(const char *p, const char *end, int wide,
                                                                           nr_sline *out)
{
    if (!wide || end - p < 22) /* " = -1 E (" and ") <S.FFFFFF>" */
        return 0;
    uint64_t head, u;
    memcpy(&head, p, 8);
    const char *name = p + 6, *close = end - 12;
    if ((head & 0xFFFFFFFFFFFFULL) !=
            ((uint64_t)' ' | (uint64_t)'=' << 8 | (uint64_t)' ' << 16 | (uint64_t)'-' << 24 | (uint64_t)'1' << 32 |
             (uint64_t)' ' << 40) ||
        !is_upper(*name) || *close != ')' || !duration_tail_us(end, &u))
        return 0;
    const char *name_end = ident_end(name + 1, end); /* as parse_result_fast reads the name */
    if (close - name_end < 2 || name_end[0] != ' ' || name_end[1] != '(')
        return 0;
    if (!no_special32_before(name_end + 2, close)) /* close - 32: end - 44, the line's */
        return result_failed_by_scan(name, name_end, end, u, out);
    return set_result_failed(name, name_end, end, u, out);
}

/* Whether [p, end) ends with lit[0..n). */
static inline int ends_with(const char *p, const char *end, const char *lit, size_t n)
{
    return (size_t)(end - p) >= n && memcmp(end - n, lit, n) == 0;
}

static const char unfinished_marker[] = "<unfinished ...>";
#define UNFINISHED_LEN (sizeof unfinished_marker - 1)

/* strace's mark of a call cut by its detach (strace -p stopped by Ctrl-C):
 * the call is left as unfinished, and never resumes. */
static const char detached_marker[] = "<detached ...>";
#define DETACHED_LEN (sizeof detached_marker - 1)

/* strace -ff's mark ending the execve line of a thread that is not its
 * process's leader: the thread took the leader's pid, and its call resumes
 * in the leader's file ("<pid changed to 17549 ...>", 6.1). */
static const char pid_changed_head[] = "<pid changed to ";
#define PID_CHANGED_HEAD_LEN (sizeof pid_changed_head - 1)

/* The length of a "<pid changed to N ...>" that ends [p, end); 0 none. */
static size_t pid_changed_mark_len(const char *p, const char *end)
{
    if (!ends_with(p, end, " ...>", 5))
        return 0;
    const char *digits = end - 5;
    while (digits > p && is_digit(digits[-1]))
        digits--;
    if (digits == end - 5 || !ends_with(p, digits, pid_changed_head, PID_CHANGED_HEAD_LEN))
        return 0;
    return (size_t)(end - digits) + PID_CHANGED_HEAD_LEN;
}

/* The length of the mark that ends [p, end) as an unfinished call:
 * "<unfinished ...>", "<detached ...>" (a call strace stopped tracing
 * in, which never resumes: until session 42 a truncated line), or
 * "<pid changed to N ...>" (a thread's execve, resumed in its leader's
 * -ff file: until session 47 a cut_call_line); 0 none. */
static inline size_t unfinished_mark_len(const char *p, const char *end)
{
    if (ends_with(p, end, unfinished_marker, UNFINISHED_LEN))
        return UNFINISHED_LEN;
    if (ends_with(p, end, detached_marker, DETACHED_LEN))
        return DETACHED_LEN;
    return pid_changed_mark_len(p, end);
}

/* Whether [p, end) ends as an unfinished call does. */
static inline int ends_unfinished(const char *p, const char *end) { return unfinished_mark_len(p, end) != 0; }

int nr_sline_ends_unfinished(const char *line, size_t len) { return ends_unfinished(line, line + len); }

/* The -T group that ends a line: "<S.F>" or "<unavailable>" from the last
 * '<' to end. */
static int ends_with_duration(const char *line, const char *end)
{
    const char *lt = last_angle_group(line, end);
    int64_t ns;
    return lt && (parse_duration(lt, end, &ns) == end || is_unavailable_mark(lt, end));
}

int nr_sline_ends_whole(const nr_sline *sl, const char *line, size_t len)
{
    const char *end = line + len;
    while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
        end--;
    switch (sl->kind) {
    case NR_SL_SIGNAL:
    case NR_SL_EXITED:
    case NR_SL_KILLED: return 1; /* lexed only with their closing " ---" / " +++" */
    case NR_SL_UNFINISHED: return ends_unfinished(line, end);
    case NR_SL_SYSCALL:
    case NR_SL_RESUMED:
        if (!sl->has_result || end == line)
            return 0;
        if (end[-1] == ')') /* the errno's (or another) text closes the line */
            return sl->errno_text.n && sl->errno_text.p + sl->errno_text.n == end - 1;
        return ends_with_duration(line, end);
    default: return 0;
    }
}
static const char notice_marker[] = "strace: Process ";
#define NOTICE_MARKER_LEN (sizeof notice_marker - 1)

static void parse_call_args(const char *line, const char *args, const char *end, nr_sline *out);

/* "name(" at name..open; parses the rest of a call line. */
static void parse_call(const char *line, const char *name, const char *open, const char *end, nr_sline *out)
{
    const char *args = open + 1;
    out->name = span(name, open);
    const size_t mark = unfinished_mark_len(args, end);
    if (mark) {
        const char *a_end = end - mark;
        if (a_end > args && a_end[-1] == ' ')
            a_end--;
        out->kind = NR_SL_UNFINISHED;
        out->args = span(args, a_end);
        return;
    }
    parse_call_args(line, args, end, out);
}

/* Why a call line's text after its ')' is no result: strace prints " = "
 * there, so text without any " = " after the ')' is the traced program's
 * own ("Epoch(1) loss=0.5": unknown_line, since session 47), and text
 * with one is strace's, unreadable ("close(3) = x", a cut call's tail
 * "makedev(0x1, 0x3)) = 0": bad_result). */
static const char *call_result_reason(const char *after, const char *end)
{
    return memmem(after, (size_t)(end - after), " = ", 3) ? "bad_result" : "unknown_line";
}

/* parse_call_args after the scan for the closing ')' (close, or NULL). */
static void parse_call_rest(const char *args, const char *close, const char *end, int wide, nr_sline *out)
{
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
    if (!parse_result_plain(close + 1, end, out) && !parse_result_fast(close + 1, end, wide, out) &&
        parse_result(close + 1, end, out) < 0)
        set_bad(out, call_result_reason(close + 1, end));
}

/* The arguments from args (after the '(' of a call that is not
 * unfinished) and the result. */
static void parse_call_args(const char *line, const char *args, const char *end, nr_sline *out)
{
    const int wide = wide_scans(line, end);
    parse_call_rest(args, find_close_paren(args, end, wide), end, wide, out);
}

/* "<... name resumed>rest) = ret". */
static void parse_resumed(const char *line, const char *p, const char *end, nr_sline *out)
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
    const int wide = wide_scans(line, end);
    const char *close = find_close_paren(args, end, wide);
    if (!close) {
        set_bad(out, "truncated");
        return;
    }
    out->kind = NR_SL_RESUMED;
    out->args = span(args, close);
    if (!parse_result_fast(close + 1, end, wide, out) && parse_result(close + 1, end, out) < 0)
        set_bad(out, "bad_result");
}

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
        nr_sline_parse(q, (size_t)(end - q), &line);
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

/* Whether p..end is a message of strace run by its path, which names
 * itself so ("/usr/bin/strace: Process 42 attached", "./strace: ..."):
 * a first word without spaces ending in "/strace:". Until session 41 an
 * unknown_line, skipped where "strace: Process 42 attached" is a notice. */
static int is_strace_by_path(const char *p, const char *end)
{
    static const char tail[] = "/strace: ";
    const size_t n = sizeof tail - 1;
    const char *colon = memchr(p, ':', (size_t)(end - p));
    if (!colon || colon - p < (ptrdiff_t)n - 2 || end - colon < 2 || memcmp(colon - (n - 2), tail, n) != 0)
        return 0;
    return memchr(p, ' ', (size_t)(colon - p)) == NULL;
}

/* Whether [p, end) is the header strace prints before each buffer's hex
 * dump of a readv/writev (-e read=/write=): "* 100 bytes in buffer 0"
 * (strace's dumpiov: " * %lu bytes in buffer %lu"). Until session 42 an
 * unknown_line, where the dump's " | ..." lines were continuations. */
static int is_iov_dump_header(const char *p, const char *end)
{
    static const char mid[] = " bytes in buffer ";
    const size_t n = sizeof mid - 1;
    if (end - p < 2 || p[0] != '*' || p[1] != ' ')
        return 0;
    const char *q = p + 2, *digits = q;
    while (q < end && is_digit(*q))
        q++;
    if (q == digits || (size_t)(end - q) <= n || memcmp(q, mid, n) != 0)
        return 0;
    const char *buffer = q + n;
    for (q = buffer; q < end && is_digit(*q); q++)
        ;
    return q > buffer && q == end;
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

/* The value of the n (1 to 8) digits at p, all known digits, the 8 bytes
 * at p readable: one SWAR step without the digit test. */
static inline uint64_t digits_value8(const char *p, unsigned n)
{
    uint64_t w;
    memcpy(&w, p, 8);
    const unsigned drop = 8 * (8 - n); /* the digits into the high bytes, zeros before them */
    return swar_value8((w << drop) - (0x3030303030303030ULL << drop));
}

/* digits_value8 for 1 to 16 digits, the 16 bytes at p readable. */
static inline uint64_t digits_value16(const char *p, unsigned n)
{
    if (n <= 8)
        return digits_value8(p, n);
    return digits_value8(p, n - 8) * 100000000 + digits_value8(p + n - 8, 8);
}

/* Bit i set when line[i] (i < 32) is an ASCII digit. */
static inline uint32_t digit_mask32(const char *line)
{
#ifdef __SSE2__
    const __m128i shift = _mm_set1_epi8((char)(0x80 - '0')), limit = _mm_set1_epi8((char)(0x80 + 10));
    const __m128i a = _mm_cmplt_epi8(_mm_add_epi8(load16(line), shift), limit);
    const __m128i b = _mm_cmplt_epi8(_mm_add_epi8(load16(line + 16), shift), limit);
    return (uint32_t)_mm_movemask_epi8(a) | (uint32_t)_mm_movemask_epi8(b) << 16;
#else
    uint32_t m = 0;
    for (unsigned i = 0; i < 32; i++)
        m |= (uint32_t)is_digit(line[i]) << i;
    return m;
#endif
}

/* nr_sline.syscall_ref of a name of 1 to 15 bytes, its 16 bytes readable. */
_Static_assert((int)NR__SYSCALL_SHORT_BASE == (int)NR_SLINE_SYSCALL_FIRST && (int)NR_SLINE_SYSCALL_NONE == (int)NR_SLINE_SYSCALL_FIRST - 1,
               "nr_syscall_short_ref answers in syscall_ref's codes");
static inline uint16_t short_syscall_ref(const char *name, unsigned n)
{
#define M(k) (~UINT64_C(0) >> (64 - 8 * (k)))
    static const uint64_t low[16] = {0, M(1), M(2), M(3), M(4), M(5), M(6), M(7),
                                     M(8), M(8), M(8), M(8), M(8), M(8), M(8), M(8)};
    static const uint64_t high[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, M(1), M(2), M(3), M(4), M(5), M(6), M(7)};
#undef M
    uint64_t w0, w1;
    memcpy(&w0, name, 8);
    memcpy(&w1, name + 8, 8);
    return (uint16_t)nr_syscall_short_ref(w0 & low[n & 15], w1 & high[n & 15]);
}

/* The pid of the prefix "[pid  N] " of `strace -f` to stderr (spaces
 * only, 1 to 7 digits) when a digit follows it: returns where the stamp
 * starts, or NULL (parse_prefix then reads the line). The line has at
 * least 64 bytes. */
static inline const char *after_bracket_pid(const char *line, int64_t *pid)
{
    if (memcmp(line, "[pid ", 5) != 0)
        return NULL;
    const char *p = line + 5;
    while (*p == ' ' && p < line + 10)
        p++;
    uint64_t v;
    const unsigned n = swar_digits8(p, &v);
    if (n == 0 || n == 8 || p[n] != ']' || p[n + 1] != ' ' || !is_digit(p[n + 2]) || v > NR__PID_MAX)
        return NULL;
    *pid = (int64_t)v;
    return p + n + 2;
}

/* The rest of parse_call_line_fast from the digit mask of `at` on: the
 * pid's digits at `at` (pid_end of them, then its padding) or none (pid_end 0:
 * the stamp starts at `at`, pid is the line's given pid), the stamp, and
 * the call. Inlined in two forms, so that the commonest keeps its code. */
static inline __attribute__((always_inline)) int fast_call(const char *line, const char *end, const char *at,
                                                            uint64_t digits, unsigned pid_end, int64_t pid,
                                                            nr_sline *out)
{
    enum { PID_COLUMNS = 5 }; /* strace pads a shorter pid with spaces: "42    S.F name(" */
    unsigned sec_start = pid_end ? pid_end + 1 : 0;
    if (pid_end - 1 < PID_COLUMNS - 1 && at[sec_start] == ' ') {
        for (unsigned k = sec_start + 1; k <= PID_COLUMNS; k++)
            if (at[k] != ' ')
                return 0;
        sec_start = PID_COLUMNS + 1;
    }
    unsigned frac_end;
    nr_ts_form ts_form;
    int64_t ts_ns;
    if (((digits >> sec_start) & 0x3FFFF) == 0x1FBFF && at[sec_start + 10] == '.' && at[sec_start + 17] == ' ') {
        /* -ttt now: "SSSSSSSS" "SS.FFFFFF" (10 digits, '.', 6 digits, ' '
         * by the digit mask) as the 16 digits of the stamp in
         * microseconds, in two SWAR steps */
        const uint64_t high8 = digits_value8(at + sec_start, 8);
        uint64_t low2, low6, low;
        memcpy(&low2, at + sec_start + 8, 8);
        memcpy(&low6, at + sec_start + 11, 8);
        low = (low2 & 0xFFFF) | low6 << 16;
        if (high8 >= 92233720) /* whole seconds of 9223372036 and up: parse_prefix's limit is below */
            return 0;
        low = swar_value8(low - 0x3030303030303030ULL);
        ts_form = high8 >= NR__UNIX_MIN_SECONDS / 100 ? NR_TS_UNIX : NR_TS_RELATIVE;
        ts_ns = (int64_t)(high8 * 100000000 + low) * 1000;
        frac_end = sec_start + 17;
    } else {
        /* the next two non-digits: '.', ' ' */
        uint64_t other = ~digits & (~0ULL << sec_start);
        const unsigned dot = (unsigned)__builtin_ctzll(other);
        other &= other - 1;
        frac_end = (unsigned)__builtin_ctzll(other);
        const unsigned frac_start = dot + 1, nf = frac_end - frac_start;
        if (dot - sec_start - 1 >= 10 || nf - 1 >= 9 || at[dot] != '.' || at[frac_end] != ' ')
            return 0;
        const uint64_t whole = digits_value16(at + sec_start, dot - sec_start);
        const uint64_t frac = digits_value16(at + frac_start, nf);
        if (whole > (uint64_t)(INT64_MAX / NR__NS_PER_S) - 1)
            return 0;
        ts_form = whole >= NR__UNIX_MIN_SECONDS ? NR_TS_UNIX : NR_TS_RELATIVE;
        ts_ns = (int64_t)whole * NR__NS_PER_S + (int64_t)frac * pow10_ns[nf];
    }
    const char *name = at + frac_end + 1; /* frac_end < 32: the 16 bytes of name inside the line */
    if (!(is_alpha(*name) || *name == '_'))
        return 0;
    const unsigned name_len = ident_run16(name);
    if (name_len == 16 || name[name_len] != '(')
        return 0;
    if (pid_end) { /* the bytes after the digits are the line's */
        const uint64_t v = digits_value8(at, pid_end);
        if (v > NR__PID_MAX)
            return 0;
        pid = (int64_t)v;
    }
    out->ts_form = ts_form;
    /* every field once (no 200-byte clear first): what nr_sline_parse's
     * initial value and parse_prefix would leave */
    const nr_span none = {line, 0};
    out->pid = pid;
    out->ts_ns = ts_ns;
    out->ts2_form = NR_TS_NONE;
    out->ts2_ns = 0;
    out->dur_ns = -1;
    out->name = span(name, name + name_len);
    out->args = none;
    out->has_result = 0;
    out->result_unknown = 0;
    out->result = 0;
    out->result_annot = none;
    out->errno_name = none;
    out->errno_text = none;
    out->exit_code = 0;
    out->core_dumped = 0;
    out->reason = NULL;
    out->syscall_ref = short_syscall_ref(name, name_len);
    out->result_tail_unread = 0;
    const char *args = name + name_len + 1;
    const int wide = wide_scans(line, end); /* the line has 64 bytes */
    const char *close = find_close_paren(args, end, wide);
    if (close && (parse_result_plain(close + 1, end, out) ||
                  (end - close > 4 && (close[4] == '-' ? parse_result_failed(close + 1, end, wide, out)
                                                       : parse_result_annotated(close + 1, end, wide, out))))) {
        out->args = span(args, close);
        out->kind = NR_SL_SYSCALL;
        return 1;
    }
    parse_call_rest(args, close, end, wide, out);
    return 1;
}

/* The commonest line, `strace -f -o FILE -ttt` of a call: "PID S.F name("
 * with 1 to 7 pid digits (padded with spaces to 5 columns, as strace
 * writes them), 1 to 10 seconds digits, 1 to 9 fraction digits, else
 * single spaces, a name of up to 15 bytes, at least 64 bytes, not ending
 * in "<unfinished ...>"; or the same line of an `-ff` file, without the
 * pid, or of `-f` to stderr, "[pid  N] S.F name(" with 64 bytes from the
 * stamp on: reads the prefix and the name from one digit mask and one name
 * mask, sets pid (-1 without one) and ts exactly as parse_prefix would and
 * parses the call; returns 1. Returns 0, out untouched, for any other line
 * (nr_sline_parse then reads it). */
static inline int parse_call_line_fast(const char *line, const char *end, nr_sline *out)
{
    if (end - line < 64 || end[-1] != '>' || end[-2] == '.') /* "...>": maybe unfinished */
        return 0;
    const uint64_t digits = digit_mask32(line);
    const unsigned first_end = (unsigned)__builtin_ctzll(~digits); /* the pid's or the seconds' */
    if (line[first_end] == ' ') /* "PID S.F name(" */
        return first_end - 1 < 7 && fast_call(line, end, line, digits, first_end, -1, out);
    int64_t pid = -1;
    const char *at = line;
    if (*line == '[') { /* "[pid  N] S.F name(" */
        if (!(at = after_bracket_pid(line, &pid)) || end - at < 64)
            return 0;
    } else if (first_end == 0 || line[first_end] != '.') { /* not "S.F name(" */
        return 0;
    }
    return fast_call(line, end, at, at == line ? digits : digit_mask32(at), 0, pid, out);
}

/* The value parse_line starts from: a bad line, empty spans pointing at
 * the line (never NULL). Field by field: a compound literal was cleared
 * with `rep stos` first, 29% of parse_line's samples on a trace of threads
 * (the rl sample, where 80% of the lines are unfinished or resumed calls). */
static inline void sline_start(nr_sline *out, const char *line)
{
    /* a field added before syscall_ref moves it, one added after
       result_tail_unread grows the struct (unless it fits the 5 bytes of
       padding): either needs its start value here */
    _Static_assert(offsetof(nr_sline, syscall_ref) == 168 && offsetof(nr_sline, result_tail_unread) == 170 &&
                       sizeof(nr_sline) == 176,
                   "a new field of nr_sline needs its start value here");
    const nr_span none = {line, 0};
    out->kind = NR_SL_BAD;
    out->pid = -1;
    out->ts_form = out->ts2_form = NR_TS_NONE;
    out->ts_ns = out->ts2_ns = 0;
    out->dur_ns = -1;
    out->name = none; /* one by one: a chain reads each span back from out, a stall */
    out->args = none;
    out->result_annot = none;
    out->errno_name = none;
    out->errno_text = none;
    out->has_result = out->result_unknown = 0;
    out->result = 0;
    out->exit_code = out->core_dumped = 0;
    out->reason = "unknown_line";
    out->syscall_ref = NR_SLINE_SYSCALL_UNSET;
    out->result_tail_unread = 0;
}

/* The words of the headers of a -c/-C summary's columns (strace's -U:
 * "% time" is two). */
static int is_summary_header_word(const char *p, size_t n)
{
    static const char *const words[] = {"%", "time", "seconds", "usecs/call", "shortest", "longest",
                                        "calls", "errors", "syscall"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i]) == n && memcmp(words[i], p, n) == 0)
            return 1;
    return 0;
}

/* Whether [p, end) is a number of a summary row: digits, at most one '.'. */
static int is_summary_number(const char *p, const char *end)
{
    int dots = 0;
    for (const char *q = p; q < end; q++) {
        if (*q == '.')
            dots++;
        else if (!is_digit(*q))
            return 0;
    }
    return dots <= 1 && is_digit(*p) && is_digit(end[-1]);
}

/* Whether line..end (its trailing blanks ignored) is a line of a summary
 * table whose columns -U chose ("-C -U name,calls,errors"): a header of
 * two or more column words ("syscall              calls    errors",
 * "    calls syscall    errors"), or a row of one name and numbers, laid
 * out in columns (a gap of two or more spaces somewhere):
 * "newfstatat             634        84", "        7 read". Tried only
 * on lines that are otherwise unknown_line: the default columns are
 * recognised before (a header "% time ..." or "... syscall", a row of
 * numbers then one name). */
static int is_summary_columns_line(const char *line, const char *end)
{
    while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
        end--;
    size_t tokens = 0, headers = 0, names = 0, numbers = 0;
    int wide_gap = 0;
    for (const char *p = line;;) {
        const char *q = skip_spaces(p, end);
        if (q == end)
            break;
        wide_gap |= q - p >= 2;
        p = q;
        while (q < end && *q != ' ' && *q != '\t')
            q++;
        tokens++;
        headers += (size_t)is_summary_header_word(p, (size_t)(q - p));
        if (is_summary_number(p, q)) {
            numbers++;
        } else if (is_alpha(*p) || *p == '_') {
            const char *r = p;
            while (r < q && (is_ident(*r) || *r == '?'))
                r++;
            names += r == q;
        }
        p = q;
    }
    if (tokens >= 2 && headers == tokens)
        return 1;
    return names == 1 && numbers >= 1 && names + numbers == tokens && wide_gap;
}

/* nr_sline_parse of any line parse_call_line_fast does not read; out of
 * line, so that the fast path saves only the registers it uses. */
static void parse_line_body(const char *line, const char *end, nr_sline *out);

/* parse_line_body, then a line it found unknown that is a line of a
 * summary table with -U columns is one (until session 47 an unknown_line). */
static __attribute__((noinline)) void parse_line(const char *line, const char *end, nr_sline *out)
{
    parse_line_body(line, end, out);
    if (out->kind == NR_SL_BAD && out->reason && strcmp(out->reason, "unknown_line") == 0 &&
        is_summary_columns_line(line, end)) {
        sline_start(out, line);
        out->kind = NR_SL_SUMMARY;
        out->reason = NULL;
    }
}

static void parse_line_body(const char *line, const char *end, nr_sline *out)
{
    static const char bom[] = "\xEF\xBB\xBF"; /* UTF-8's byte order mark: a log saved by an editor */
    if (end - line >= 3 && memcmp(line, bom, 3) == 0) {
        nr_sline_parse(line + 3, (size_t)(end - line - 3), out); /* until session 45 an unknown_line */
        return;
    }
    sline_start(out, line);
    while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
        end--;
    const char *p = skip_spaces(line, end);
    if (p == end) {
        out->kind = NR_SL_BLANK;
        out->reason = NULL;
        return;
    }
    p = parse_prefix_fast(line, end, out);
    if (!p)
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
            parse_call(line, p, q, end, out);
        else
            parse_word_line(p, q, end, out);
        return;
    }
    switch (c) {
    case '<':
        if (STARTS(p, end, "<... ")) {
            parse_resumed(line, p, end, out);
            return;
        }
        if (p > line && ((end - p == (ptrdiff_t)UNFINISHED_LEN && memcmp(p, unfinished_marker, UNFINISHED_LEN) == 0) ||
                         (end - p == (ptrdiff_t)DETACHED_LEN && memcmp(p, detached_marker, DETACHED_LEN) == 0))) {
            /* stderr: " <unfinished ...>" ending a call cut by an attach
             * notice on the line before ("vfork(strace: Process N attached"),
             * or " <detached ...>" one cut by the detach notices (strace -p
             * stopped: "...}, strace: Process 25694 detached"; an
             * unknown_line until session 47) */
            out->kind = NR_SL_CONTINUATION;
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
    case '/': /* strace run by its path: "/usr/bin/strace: Process 42 attached" */
    case '.':
        if (is_strace_by_path(p, end)) {
            out->kind = NR_SL_NOTICE;
            return;
        }
        break;
    case '|': /* -e read=/write= hex dump: " | 00000  68 65 ...  hel |" */
        if (p > line && p[-1] == ' ' && end[-1] == '|') {
            out->kind = NR_SL_CONTINUATION;
            return;
        }
        break;
    case '*': /* -e read=/write= of readv/writev: " * 100 bytes in buffer 0" before each dump */
        if (p > line && p[-1] == ' ' && is_iov_dump_header(p, end)) {
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

void nr_sline_parse(const char *line, size_t len, nr_sline *out)
{
    const char *end = line + len;
    if (!parse_call_line_fast(line, end, out))
        parse_line(line, end, out);
}

/* ---- argument helpers ---- */

static inline nr_span trim(nr_span s)
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

nr_span nr_sarg(nr_span args, unsigned i)
{
    const char *p = args.p, *end = args.p + args.n;
    nr_span none = {args.p ? args.p + args.n : NULL, 0};
    if (!p)
        return none;
    if (i > 0) { /* past i top-level commas in one scan */
        const char *comma = scan_group_n(p, end, p, STOP_AT_COMMA, i, 0);
        if (!comma)
            return none;
        p = comma + 1;
    }
    const char *comma = scan_group_n(p, end, args.p, STOP_AT_COMMA, 1, 0);
    return trim(span(p, comma ? comma : end));
}

unsigned nr_sarg_count(nr_span args)
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
        q = parse_annotation(q, end, annot);
        if (!q)
            return NULL;
        if (STARTS(q, end, "(deleted)"))
            q += sizeof "(deleted)" - 1; /* strace 6.1: "13</dev/shm/x>(deleted)", an unlinked file */
    }
    *fd = v;
    return q;
}

int nr_sarg_fd(nr_span arg, int64_t *fd, nr_span *annot)
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

/* nr_sarg_fd_at beyond its commonest case (kept out of line so that the
 * fast path needs no stack frame). */
static __attribute__((noinline)) int sarg_fd_at_general(nr_span args, unsigned i, int64_t *fd, nr_span *annot);

int nr_sarg_fd_at(nr_span args, unsigned i, int64_t *fd, nr_span *annot)
{
    if (i == 0 && args.p && args.n >= 9) {
        /* the commonest cases, "4</data/x.bin>", "5<pipe:[123]>" or
         * "AT_FDCWD</cwd>" and a comma or the end, with one annotation scan: what parse_fd_text
         * and the checks of sarg_fd_at_general would give for them */
        const char *p = args.p, *end = args.p + args.n;
        uint64_t u;
        int64_t v;
        unsigned n;
        if (is_digit(p[0]) && p[1] == '<') { /* fds are small: no SWAR step for one or two digits */
            v = p[0] - '0';
            n = 1;
        } else if (is_digit(p[0]) && is_digit(p[1]) && p[2] == '<') {
            v = (p[0] - '0') * 10 + (p[1] - '0');
            n = 2;
        } else if (memcmp(p, "AT_FDCWD<", 9) == 0) {
            v = -100;
            n = 8;
        } else {
            n = swar_digits8(p, &u);
            v = (int64_t)u;
            if (n == 8)
                n = 0;
        }
        if (n && p[n] == '<') {
            const char *gt = simple_annotation_end(p + n + 1, end, p);
            if (gt && (gt + 1 == end || gt[1] == ',')) {
                *fd = v;
                *annot = span(p + n + 1, gt);
                return 0;
            }
        }
    }
    return sarg_fd_at_general(args, i, fd, annot);
}

static int sarg_fd_at_general(nr_span args, unsigned i, int64_t *fd, nr_span *annot)
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
    return nr_sarg_fd(nr_sarg(args, i), fd, annot);
}

int nr_sarg_int(nr_span arg, int64_t *out)
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

int nr_sarg_has_flag(nr_span arg, const char *flag, uint64_t raw_bit)
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

/* First '\\' at or after p, or with quoted also the first '"', or end;
 * lo (at or before p) is readable. */
static inline const char *find_escape_or_quote(const char *p, const char *end, const char *lo, int quoted)
{
#ifdef __SSE2__
    const __m128i backslash = _mm_set1_epi8('\\'), quote = _mm_set1_epi8(quoted ? '"' : '\\');
    for (; end - p >= 16; p += 16) {
        __m128i v = load16(p);
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, quote)));
        if (mask)
            return p + __builtin_ctz(mask);
    }
    if (p < end && end - lo >= 16) { /* the last bytes as in find_scan_special */
        __m128i v = load16(end - 16);
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, quote)));
        mask >>= 16 - (end - p);
        return mask ? p + __builtin_ctz(mask) : end;
    }
#endif
    (void)lo;
    while (p < end && *p != '\\' && !(quoted && *p == '"'))
        p++;
    return p;
}

/* Appends the plain bytes a..b to dst as far as they fit (as put_byte
 * would, one by one). */
static void put_run(char *dst, size_t cap, size_t *n, const char *a, const char *b)
{
    size_t run = (size_t)(b - a), room = cap > *n + 1 ? cap - 1 - *n : 0;
    size_t k = run < room ? run : room;
    if (k)
        memcpy(dst + *n, a, k);
    *n += k;
}

const char *nr_sarg_skip_string(const char *p, const char *end) { return skip_quoted(p, end); }

long nr_sarg_unquote(nr_span arg, char *dst, size_t dst_cap, int *truncated)
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
        const char *run_end = find_escape_or_quote(p, end, t.p, quoted);
        put_run(dst, dst_cap, &n, p, run_end);
        p = run_end;
        if (p == end)
            break;
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
