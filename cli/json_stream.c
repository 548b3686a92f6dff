/* json_stream: long arrays written item by item into a dumped document.
 *
 * A placeholder is the string "\x01niorep deferred array K\x02". jansson
 * dumps it as the text below (PREFIX K SUFFIX, its own escapes), which no
 * other string of a document of the CLI dumps to: the CLI's texts of
 * names and paths show a control character as the text \x01
 * (nr_cli_json_text). Each is checked to be there once all the same
 * while the file is written (the file is abandoned otherwise). */
#include "json_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nr_mem.h"

#define PREFIX "\"\\u0001niorep deferred array "
#define SUFFIX "\\u0002\""
#define OUT_BUF (1u << 20)

void nr_json_stream_init(nr_json_stream *s) { *s = (nr_json_stream){0}; }

void nr_json_stream_fini(nr_json_stream *s)
{
    free(s->arrays);
    nr_json_stream_init(s);
}

json_t *nr_json_stream_defer(nr_json_stream *s, nr_json_item_fn item, const void *ctx, size_t n)
{
    if (NR_GROW(s->arrays, s->cap, s->n + 1) < 0)
        return NULL;
    char marker[64];
    snprintf(marker, sizeof marker, "\x01niorep deferred array %zu\x02", s->n);
    s->arrays[s->n++] = (struct nr_json_deferred){item, ctx, n};
    return json_string(marker);
}

/* Writes through a buffer; the first error sticks. */
typedef struct out_buf {
    nr_outfile *f;
    char *b;
    size_t n;
    int rc;
    nr_error *err;
} out_buf;

static void flush(out_buf *o)
{
    if (o->rc == 0 && o->n)
        o->rc = nr_outfile_write(o->f, o->b, o->n, o->err);
    o->n = 0;
}

static void put(out_buf *o, const char *p, size_t n)
{
    if (o->n + n > OUT_BUF)
        flush(o);
    if (n > OUT_BUF) {
        if (o->rc == 0)
            o->rc = nr_outfile_write(o->f, p, n, o->err);
        return;
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static void put_spaces(out_buf *o, size_t k)
{
    static const char spaces[] = "                                ";
    for (size_t step; k; k -= step) {
        step = k < sizeof spaces - 1 ? k : sizeof spaces - 1;
        put(o, spaces, step);
    }
}

/* item dumped alone, each line after its first indented by extra spaces
 * more: as jansson dumps it extra / indent levels deep. */
static void put_item(out_buf *o, const json_t *item, size_t flags, size_t extra)
{
    char *text = item ? json_dumps(item, flags | JSON_ENCODE_ANY) : NULL;
    if (!text) {
        if (o->rc == 0)
            o->rc = nr_error_set(o->err, NR_E_NOMEM, "out of memory");
        return;
    }
    const char *p = text;
    for (const char *nl; (nl = strchr(p, '\n')); p = nl + 1) {
        put(o, p, (size_t)(nl + 1 - p));
        put_spaces(o, extra);
    }
    put(o, p, strlen(p));
    free(text);
}

/* The array d in the place of a placeholder on a line indented by lead
 * spaces, as jansson dumps an array there. */
static void put_array(out_buf *o, const struct nr_json_deferred *d, size_t flags, size_t lead, size_t indent)
{
    if (d->n == 0) {
        put(o, "[]", 2);
        return;
    }
    put(o, "[", 1);
    for (size_t i = 0; i < d->n && o->rc == 0; i++) {
        put(o, "\n", 1);
        put_spaces(o, lead + indent);
        json_t *item = d->item(d->ctx, i);
        put_item(o, item, flags, lead + indent);
        json_decref(item);
        if (i + 1 < d->n)
            put(o, ",", 1);
    }
    put(o, "\n", 1);
    put_spaces(o, lead);
    put(o, "]", 1);
}

/* The placeholder at m (PREFIX): its index into *k and the text after
 * it; NULL when m is not a whole placeholder of s. */
static const char *placeholder_end(const char *m, const nr_json_stream *s, size_t *k)
{
    char *end;
    const char *digits = m + strlen(PREFIX);
    if (*digits < '0' || *digits > '9')
        return NULL;
    const unsigned long long v = strtoull(digits, &end, 10);
    if (v >= s->n || strncmp(end, SUFFIX, strlen(SUFFIX)) != 0)
        return NULL;
    *k = (size_t)v;
    return end + strlen(SUFFIX);
}

static size_t line_indent(const char *text, const char *at)
{
    const char *line = at;
    while (line > text && line[-1] != '\n')
        line--;
    size_t n = 0;
    while (line + n < at && line[n] == ' ')
        n++;
    return n;
}

/* text with each placeholder of s replaced by its array; each must be
 * there once, and nothing else may look like one. */
static void put_document(out_buf *o, const char *text, const nr_json_stream *s, size_t flags, const char *path)
{
    unsigned char *seen = calloc(s->n + 1, 1);
    if (!seen) {
        o->rc = nr_error_set(o->err, NR_E_NOMEM, "%s: out of memory", path);
        return;
    }
    const char *p = text, *after;
    size_t k, found = 0;
    for (const char *m; o->rc == 0 && (m = strstr(p, PREFIX)); p = after, found++) {
        if (!(after = placeholder_end(m, s, &k)) || seen[k])
            break;
        seen[k] = 1;
        put(o, p, (size_t)(m - p));
        put_array(o, &s->arrays[k], flags, line_indent(text, m), flags & JSON_MAX_INDENT);
    }
    free(seen);
    if (o->rc == 0 && (found != s->n || strstr(p, PREFIX)))
        o->rc = nr_error_set(o->err, NR_E_INPUT, "%s: a placeholder of a long array is missing, twice or malformed "
                             "in the document (expected each once)", path);
    put(o, p, strlen(p));
    put(o, "\n", 1);
    flush(o);
}

int nr_json_stream_stage(const char *path, const json_t *doc, size_t flags, const nr_json_stream *s, nr_outfile *out,
                         nr_error *err)
{
    if ((flags & JSON_MAX_INDENT) == 0)
        return nr_error_set(err, NR_E_USAGE, "%s: a document of long arrays is written indented", path);
    char *text = json_dumps(doc, flags);
    char *buf = malloc(OUT_BUF);
    int rc = text && buf ? 0 : nr_error_set(err, NR_E_NOMEM, "%s: out of memory", path);
    if (rc == 0)
        rc = nr_outfile_open(out, path, err);
    if (rc == 0) {
        out_buf o = {.f = out, .b = buf, .err = err};
        put_document(&o, text, s, flags, path);
        if ((rc = o.rc) < 0)
            nr_outfile_abort(out);
    }
    free(buf);
    free(text);
    return rc;
}
