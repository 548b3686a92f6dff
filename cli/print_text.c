#include "print_text.h"

#include <string.h>

#include "nr_utf8.h"

/* The length of the valid UTF-8 sequence at p[0..n) that is no control
 * character, or 0 when p[0] must be escaped. */
static size_t shown_as_is(const unsigned char *p, size_t n)
{
    const size_t len = nr_utf8_len_within(p, n);
    return len == 1 && (p[0] < 0x20 || p[0] == 0x7f) ? 0 : len;
}

/* One character of p[0..n) as it is printed: its bytes in the input, and
 * the columns it takes (a character of UTF-8 counted as one). */
typedef struct shown_char {
    size_t bytes, columns;
} shown_char;

static shown_char next_char(const unsigned char *p, size_t n)
{
    const size_t len = shown_as_is(p, n);
    if (len == 0)
        return (shown_char){1, 4}; /* \xNN */
    return (shown_char){len, p[0] == '\\' ? 2 : 1};
}

static void put_char(FILE *out, const unsigned char *p, shown_char c)
{
    if (c.columns == 4)
        fprintf(out, "\\x%02x", p[0]);
    else if (p[0] == '\\')
        fputs("\\\\", out);
    else
        fwrite(p, 1, c.bytes, out);
}

void nr_cli_print_text(FILE *out, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        const shown_char c = next_char(p + i, n - i);
        put_char(out, p + i, c);
        i += c.bytes;
    }
}

void nr_cli_print_cell(FILE *out, const char *s, size_t width)
{
    const unsigned char *p = (const unsigned char *)s;
    const size_t n = strlen(s);
    size_t used = 0;
    for (size_t i = 0; i < n;) {
        const shown_char c = next_char(p + i, n - i);
        if (used + c.columns > width)
            break;
        put_char(out, p + i, c);
        used += c.columns;
        i += c.bytes;
    }
    for (; used < width; used++)
        fputc(' ', out);
}
