/* nr_utf8: validation by RFC 3629's table of well-formed sequences. */
#include "nr_utf8.h"

#include <stdio.h>
#include <string.h>

size_t nr_utf8_seq_len(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned cp;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    if (cp == 0xFFFE || cp == 0xFFFF) /* not XML characters */
        return 0;
    return n;
}

/* Whether the byte at p (a sequence of length n) is written as \xNN. */
static int escaped(const unsigned char *p, size_t n)
{
    return n == 0 || (n == 1 && ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7F));
}

char *nr_utf8_clean(const char *s, char *out, size_t cap)
{
    if (cap == 0)
        return out;
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        size_t n = nr_utf8_seq_len(p);
        if (escaped(p, n)) {
            if (o + 4 >= cap)
                break;
            snprintf(out + o, 5, "\\x%02X", *p);
            o += 4;
            p++;
            continue;
        }
        if (o + n >= cap)
            break;
        memcpy(out + o, p, n);
        o += n;
        p += n;
    }
    out[o] = '\0';
    return out;
}

size_t nr_utf8_clean_size(const char *s)
{
    size_t size = 1;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        size_t n = nr_utf8_seq_len(p);
        if (escaped(p, n)) {
            size += 4;
            p++;
        } else {
            size += n;
            p += n;
        }
    }
    return size;
}

size_t nr_utf8_len_within(const unsigned char *p, size_t n)
{
    const unsigned char b = p[0];
    const size_t len = b < 0x80 ? 1 : (b & 0xe0) == 0xc0 && b >= 0xc2 ? 2 : (b & 0xf0) == 0xe0 ? 3
                     : (b & 0xf8) == 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    for (size_t k = 1; k < len; k++)
        if ((p[k] & 0xc0) != 0x80)
            return 0;
    if (len == 3 && ((b == 0xe0 && p[1] < 0xa0) || (b == 0xed && p[1] >= 0xa0))) /* overlong, surrogate */
        return 0;
    if (len == 4 && ((b == 0xf0 && p[1] < 0x90) || (b == 0xf4 && p[1] >= 0x90))) /* overlong, past U+10FFFF */
        return 0;
    return len;
}

/* The blank code points, inclusive ranges in order: Cc, White_Space, the
 * format characters that draw nothing (soft hyphen, bidi marks and
 * controls, zero-width ones, BOM), the other default-ignorable code points
 * (grapheme joiner, Khmer inherent vowels, Mongolian free variation
 * selectors, variation selectors, Hangul fillers, U+FFF0-FFF8, shorthand
 * format controls, musical symbol format controls, tags) and the braille
 * blank. workloads/niorep_hook holds the same table (_BLANK_RANGES). */
static const struct { unsigned lo, hi; } blank_ranges[] = {
    {0x0000, 0x0020}, {0x007F, 0x00A0}, {0x00AD, 0x00AD}, {0x034F, 0x034F}, {0x061C, 0x061C},
    {0x115F, 0x1160}, {0x1680, 0x1680}, {0x17B4, 0x17B5}, {0x180B, 0x180F}, {0x2000, 0x200F},
    {0x2028, 0x202F}, {0x205F, 0x206F}, {0x2800, 0x2800}, {0x3000, 0x3000}, {0x3164, 0x3164},
    {0xFE00, 0xFE0F}, {0xFEFF, 0xFEFF}, {0xFFA0, 0xFFA0}, {0xFFF0, 0xFFF8}, {0x1BCA0, 0x1BCA3},
    {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF},
};

int nr_utf8_blank(const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        const size_t n = nr_utf8_seq_len(p);
        if (n == 0)
            return 0;
        unsigned cp = n == 1 ? p[0] : p[0] & (0x7F >> n);
        for (size_t i = 1; i < n; i++)
            cp = cp << 6 | (p[i] & 0x3F);
        size_t k = 0;
        while (k < sizeof blank_ranges / sizeof *blank_ranges && blank_ranges[k].hi < cp)
            k++;
        if (k == sizeof blank_ranges / sizeof *blank_ranges || cp < blank_ranges[k].lo)
            return 0;
        p += n;
    }
    return 1;
}
