/* report_parts: a figure's import split in two (docs/report.md, "Figures
 * are imported on the threads that load them"). The shared glyphs, styles
 * and text groups are numbered in the order of the report's figures, so
 * a figure's numbers are known only once the figures before it are in;
 * everything else (cleaning, finding what to share, serialising) is not.
 * So a figure is made a part on any thread, with its own numbers L written
 * as marks "~<k>:<kind><L>~<k>:" where the report's go, and the report's
 * thread merges the parts in order: it looks up each distinct key once
 * and writes the bytes with the marks replaced. k is a number that no
 * text of the figure holds between a '~' and a ':' (nr__report_seen), and
 * the serialiser writes '~', digits, ':' and the kind letters as they are
 * (in href too: xmlURIEscapeStr keeps them), so every occurrence of the
 * mark in the bytes is one of the part's; part_of_figure (report_svg.c)
 * checks the count all the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nr_mem.h"
#include "report_internal.h"

/* Whether c is an ASCII digit. */
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The digits a mark's k may have, and its number L: more read as text. */
enum { MAX_DIGITS = 18 };

void nr__report_seen_note(nr__report_seen *s, const char *text)
{
    for (const char *t = strchr(text, '~'); t; t = strchr(t + 1, '~')) {
        const char *d = t + 1;
        uint64_t k = 0;
        while (is_digit(*d) && d - t <= MAX_DIGITS)
            k = k * 10 + (uint64_t)(*d++ - '0');
        if (d == t + 1 || *d != ':' || d - t > MAX_DIGITS)
            continue;
        if (NR_GROW(s->numbers, s->cap, s->n + 1) < 0) {
            s->failed = 1;
            return;
        }
        s->numbers[s->n++] = k;
    }
}

int nr__report_part_pick_mark(nr__report_part *p, nr__report_seen *s, nr_error *err)
{
    /* the least k not seen is at most s->n: a flag for each of 0..n */
    unsigned char *taken = s->failed ? NULL : calloc(s->n + 1, 1);
    if (!taken) {
        free(s->numbers);
        *s = (nr__report_seen){0};
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    }
    for (size_t i = 0; i < s->n; i++)
        if (s->numbers[i] <= s->n)
            taken[s->numbers[i]] = 1;
    size_t k = 0;
    while (taken[k])
        k++;
    free(taken);
    free(s->numbers);
    *s = (nr__report_seen){0};
    p->mark_len = (size_t)snprintf(p->mark, sizeof p->mark, "~%zu:", k);
    return 0;
}

/* v in decimal at out (room for 20 digits): the digits' count. */
static size_t put_decimal(uint64_t v, char *out)
{
    char digits[20];
    size_t n = 0;
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    for (size_t i = 0; i < n; i++)
        out[i] = digits[n - 1 - i];
    return n;
}

void nr__report_part_name(nr__report_part *p, const char *prefix, char kind, size_t index, char *out, size_t cap)
{
    const size_t plen = strlen(prefix);
    if (cap < plen + 2 * p->mark_len + 22) {
        if (cap)
            out[0] = '\0';
        return;
    }
    p->marks++;
    memcpy(out, prefix, plen);
    memcpy(out + plen, p->mark, p->mark_len);
    size_t at = plen + p->mark_len;
    out[at++] = kind;
    at += put_decimal(index, out + at);
    memcpy(out + at, p->mark, p->mark_len);
    out[at + p->mark_len] = '\0';
}

/* The first occurrence of p's mark in [s, end), NULL when none: the
 * mark's '~' by memchr (glibc's memmem was 1.7% of a warm build). */
static const char *find_mark(const nr__report_part *p, const char *s, const char *end)
{
    for (; (s = memchr(s, '~', (size_t)(end - s))); s++)
        if ((size_t)(end - s) >= p->mark_len && memcmp(s, p->mark, p->mark_len) == 0)
            return s;
    return NULL;
}

size_t nr__report_part_count_marks(const nr__report_part *p, const char *s, size_t n)
{
    size_t count = 0;
    for (const char *end = s + n, *m; (m = find_mark(p, s, end)); s = m + p->mark_len)
        count++;
    return count;
}

/* The report's number for local number index of kind, -1 when unknown. */
static int64_t mapped(const nr__report_maps *maps, char kind, uint64_t index)
{
    if (kind == 'g' && index < maps->nglyphs)
        return maps->glyphs[index];
    if (kind == 's' && index < maps->nstyles)
        return maps->styles[index];
    if (kind == 't' && index < maps->ntexts)
        return maps->texts[index];
    return -1;
}

int nr__report_part_unmark(const nr__report_part *p, const char *s, size_t n, const nr__report_maps *maps,
                           nr__report_bytes *out, nr_error *err)
{
    out->len = 0;
    const char *end = s + n;
    for (const char *m; (m = find_mark(p, s, end)); ) {
        const char *kind = m + p->mark_len, *d = kind + 1;
        uint64_t index = 0;
        while (d < end && is_digit(*d) && d - kind <= MAX_DIGITS)
            index = index * 10 + (uint64_t)(*d++ - '0');
        const int64_t to = kind < end && d > kind + 1 ? mapped(maps, *kind, index) : -1;
        if (to < 0 || (size_t)(end - d) < p->mark_len || memcmp(d, p->mark, p->mark_len) != 0)
            return nr_error_set(err, NR_E_INPUT, "report: figure %u has a mark of no known number at byte %zu",
                                p->number, (size_t)(m - (end - n)));
        char digits[24];
        const size_t nd = put_decimal((uint64_t)to, digits);
        if (nr__report_bytes_add(out, s, (size_t)(m - s)) < 0 || nr__report_bytes_add(out, digits, nd) < 0)
            return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
        s = d + p->mark_len;
    }
    if (nr__report_bytes_add(out, s, (size_t)(end - s)) < 0)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    return 0;
}

void nr__report_part_free(nr__report_part *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->glyph_keys.count; i++)
        xmlFreeNode(p->glyphs[i]);
    free(p->glyphs);
    xmlFreeDoc(p->doc); /* after the glyphs: their names are in its dictionary */
    nr_strtab_fini(&p->glyph_keys);
    nr_strtab_fini(&p->styles);
    nr_strtab_fini(&p->texts);
    free(p->bytes);
    free(p);
}
