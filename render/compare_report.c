/* compare_report: fills templates/compare.html with the tables and inline
 * SVG figures of a comparison (contract: compare_report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_report.h"

static const char MARK_TITLE[] = "<!--niorep:title-->";
static const char MARK_SUBTITLE[] = "<!--niorep:subtitle-->";
static const char MARK_BODY[] = "<!--niorep:body-->";

/* A growing output with a sticky out-of-memory flag. */
typedef struct sink {
    nr_render_buf *b;
    int oom;
} sink;

static void put(sink *s, const void *p, size_t n)
{
    if (s->oom || n == 0)
        return;
    nr_render_buf *b = s->b;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *d = realloc(b->data, cap);
        if (!d) {
            s->oom = 1;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void puts_raw(sink *s, const char *t) { put(s, t, strlen(t)); }

/* Text content and attribute values: & < > " escaped. */
static void puts_esc(sink *s, const char *t)
{
    if (!t)
        return;
    for (const char *p = t; *p; p++) {
        switch (*p) {
        case '&': puts_raw(s, "&amp;"); break;
        case '<': puts_raw(s, "&lt;"); break;
        case '>': puts_raw(s, "&gt;"); break;
        case '"': puts_raw(s, "&quot;"); break;
        default: put(s, p, 1);
        }
    }
}

static void table(sink *s, const nr_crep_table *t)
{
    puts_raw(s, "<table>\n");
    if (t->caption) {
        puts_raw(s, "<caption>");
        puts_esc(s, t->caption);
        puts_raw(s, "</caption>\n");
    }
    puts_raw(s, "<thead><tr>");
    for (size_t c = 0; c < t->ncols; c++) {
        puts_raw(s, "<th>");
        puts_esc(s, t->head[c]);
        puts_raw(s, "</th>");
    }
    puts_raw(s, "</tr></thead>\n<tbody>\n");
    for (size_t r = 0; r < t->nrows; r++) {
        const char *cls = t->row_class ? t->row_class[r] : NULL;
        puts_raw(s, "<tr");
        if (cls) {
            puts_raw(s, " class=\"");
            puts_esc(s, cls);
            puts_raw(s, "\"");
        }
        puts_raw(s, ">");
        for (size_t c = 0; c < t->ncols; c++) {
            puts_raw(s, c == 0 ? "<th scope=\"row\">" : "<td>");
            puts_esc(s, t->cells[r * t->ncols + c]);
            puts_raw(s, c == 0 ? "</th>" : "</td>");
        }
        puts_raw(s, "</tr>\n");
    }
    puts_raw(s, "</tbody>\n</table>\n");
}

static int starts(const unsigned char *p, const unsigned char *end, const char *t)
{
    const size_t n = strlen(t);
    return (size_t)(end - p) >= n && memcmp(p, t, n) == 0;
}

/* Copies an SVG document without its XML prologue, prefixing every id and
 * every reference to one (id="x", href="#x", url(#x)) with prefix. */
static void svg_inline(sink *s, const nr_crep_figure *f, const char *prefix)
{
    const unsigned char *p = f->svg, *end = f->svg + f->len;
    if (starts(p, end, "<?xml")) {
        while (p < end && *p != '>')
            p++;
        if (p < end)
            p++;
        while (p < end && (*p == '\n' || *p == '\r'))
            p++;
    }
    static const char *const refs[] = {"id=\"", "href=\"#", "url(#"};
    while (p < end) {
        size_t k = 0;
        while (k < 3 && !starts(p, end, refs[k]))
            k++;
        /* "id=" must start an attribute, not end one ("clip-pathid" never occurs, but "xml:id" may). */
        if (k < 3 && (k > 0 || p == f->svg || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\t')) {
            puts_raw(s, refs[k]);
            puts_raw(s, prefix);
            p += strlen(refs[k]);
            continue;
        }
        const unsigned char *q = p + 1;
        while (q < end && *q != 'i' && *q != 'h' && *q != 'u')
            q++;
        put(s, p, (size_t)(q - p));
        p = q;
    }
}

static void section(sink *s, const nr_crep_section *sec, size_t index)
{
    puts_raw(s, "<section id=\"");
    puts_esc(s, sec->id);
    puts_raw(s, "\">\n<h2>");
    puts_esc(s, sec->title);
    puts_raw(s, "</h2>\n");
    if (sec->intro) {
        puts_raw(s, "<p>");
        puts_esc(s, sec->intro);
        puts_raw(s, "</p>\n");
    }
    if (sec->nfigures) {
        puts_raw(s, "<div class=\"figures\">\n");
        for (size_t i = 0; i < sec->nfigures; i++) {
            char prefix[48];
            snprintf(prefix, sizeof prefix, "s%zu-f%zu-", index, i);
            puts_raw(s, "<figure>\n");
            svg_inline(s, &sec->figures[i], prefix);
            puts_raw(s, "<figcaption>");
            puts_esc(s, sec->figures[i].caption);
            puts_raw(s, "</figcaption>\n</figure>\n");
        }
        puts_raw(s, "</div>\n");
    }
    for (size_t i = 0; i < sec->ntables; i++)
        table(s, &sec->tables[i]);
    puts_raw(s, "</section>\n");
}

int nr_compare_report_html(const char *template_text, const nr_crep_doc *doc, nr_render_buf *out, nr_error *err)
{
    const char *marks[3] = {MARK_TITLE, MARK_SUBTITLE, MARK_BODY};
    const char *at[3];
    for (int i = 0; i < 3; i++) {
        at[i] = strstr(template_text, marks[i]);
        if (!at[i] || (i > 0 && at[i] < at[i - 1]))
            return nr_error_set(err, NR_E_INPUT, "compare template: marker %s missing or out of order", marks[i]);
    }
    sink s = {.b = out};
    const char *p = template_text;
    for (int i = 0; i < 3; i++) {
        put(&s, p, (size_t)(at[i] - p));
        if (i == 0)
            puts_esc(&s, doc->title);
        else if (i == 1)
            puts_esc(&s, doc->subtitle);
        else
            for (size_t k = 0; k < doc->nsections; k++)
                section(&s, &doc->sections[k], k);
        p = at[i] + strlen(marks[i]);
    }
    puts_raw(&s, p);
    return s.oom ? nr_error_set(err, NR_E_NOMEM, "compare report: out of memory") : 0;
}
