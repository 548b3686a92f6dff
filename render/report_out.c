/* report_out: the figures and runs kept out of the document and the
 * report's output. An imported figure is serialised at once, as the whole
 * document's serialiser would write it, into a spool file (nr_spool), and
 * the document keeps a comment <!--nr-figure:N--> in its place; a run done
 * (nr_report_run_spool) likewise, as <!--nr-run:N-->, its figures' marks
 * in its bytes, and a table body's rows every NR__REPORT_ROWS of them
 * (nr__report_spool_rows), as <!--nr-rows:N-->. The output is the
 * document's serialisation with each such comment replaced by its bytes,
 * a run's with its figures'; the comment <!--nr-texts--> in the hidden
 * <svg> by the shared text groups, kept as bytes (report_texts.c). So a report's
 * memory holds its overview and a mark per run, not the trees of its
 * figures (4-5 MB a run in `niorep build`) nor of its runs' tables (about
 * 340 kB a run: docs/report.md), and the bytes written are those the
 * whole tree would give. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLtree.h>
#include <libxml/encoding.h>
#include <libxml/xmlIO.h>

#include "nr_mem.h"
#include "nr_outfile.h"
#include "report_internal.h"

#define FIG_MARK "nr-figure:"
#define FIG_MARK_OPEN "<!--" FIG_MARK
#define RUN_MARK "nr-run:"
#define RUN_MARK_OPEN "<!--" RUN_MARK
#define ROWS_MARK "nr-rows:"
#define ROWS_MARK_OPEN "<!--" ROWS_MARK
#define TEXTS_MARK "nr-texts"
#define TEXTS_MARK_OPEN "<!--" TEXTS_MARK "-->"
#define MARK_CLOSE "-->"
enum { COPY_BYTES = 1 << 20 }; /* a figure is copied out of the spool in pieces of this size */

/* The name of the encoder htmlDocDumpMemoryFormat picks for doc (libxml2
 * 2.9), so that a node serialised on its own has the bytes it has in the
 * document: none (NULL) for a UTF-8 meta charset, the named one for
 * another, else "HTML". A new string; *failed set when out of memory. */
static char *dump_encoding_of(xmlDoc *doc, int *failed)
{
    const xmlChar *enc = htmlGetMetaEncoding(doc);
    const char *name = NULL;
    if (enc && xmlParseCharEncoding((const char *)enc) != XML_CHAR_ENCODING_UTF8)
        name = (const char *)enc;
    else if (!enc)
        name = xmlFindCharEncodingHandler("HTML") ? "HTML" : "ascii";
    xmlCharEncodingHandlerPtr h = name ? xmlFindCharEncodingHandler(name) : NULL;
    if (!h) /* no such encoder: the serialiser writes UTF-8 */
        return NULL;
    xmlCharEncCloseFunc(h);
    char *copy = strdup(name);
    *failed = !copy;
    return copy;
}

int nr__report_set_dump_encoding(nr_report *r, nr_error *err)
{
    int failed = 0;
    free(r->dump_encoding);
    r->dump_encoding = dump_encoding_of(r->doc, &failed);
    return failed ? nr_error_set(err, NR_E_NOMEM, "report: out of memory") : 0;
}

/* A new encoder for r's serialisation (the template's meta charset is
 * read once, by nr_report_create: any thread may call this). */
static xmlCharEncodingHandlerPtr dump_encoder(const nr_report *r)
{
    return r->dump_encoding ? xmlFindCharEncodingHandler(r->dump_encoding) : NULL;
}

typedef struct spool_sink {
    nr_spool *spool;
    nr_error *err;
    int failed;
} spool_sink;

/* libxml2's write callback. A failure is kept in the sink, and the bytes
 * are taken as written all the same: told of it, libxml2 would print its
 * own "I/O error" beside niorep's message, which names the cause. */
static int spool_write(void *ctx, const char *buf, int len)
{
    spool_sink *s = ctx;
    if (!s->failed && (len < 0 || nr_spool_append(s->spool, buf, (size_t)len, s->err) < 0))
        s->failed = 1;
    return len;
}

/* Serialises n and, when rows, its element siblings after it, into r's
 * spool, as the document's serialiser writes them there; *at: where their
 * bytes lie. */
static int spool_nodes(nr_report *r, xmlNode *n, int rows, nr__report_fig *at, nr_error *err)
{
    const uint64_t start = r->spool.size;
    spool_sink sink = {&r->spool, err, 0};
    xmlOutputBufferPtr out = xmlOutputBufferCreateIO(spool_write, NULL, &sink, dump_encoder(r));
    if (!out)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    for (xmlNode *c = n; c; c = rows ? c->next : NULL)
        if (c->type == XML_ELEMENT_NODE)
            htmlNodeDumpFormatOutput(out, r->doc, c, NULL, 0);
    const int closed = xmlOutputBufferClose(out); /* flushes the rest */
    if (sink.failed)
        return err->code < 0 ? err->code : NR_E_IO;
    if (closed < 0)
        return nr_error_set(err, NR_E_NOMEM, "report: could not serialise <%s>", (const char *)n->name);
    *at = (nr__report_fig){start, r->spool.size - start};
    return 0;
}

/* libxml2's write callback for nr__report_bytes. */
static int bytes_write(void *ctx, const char *buf, int len)
{
    nr__report_bytes *b = ctx;
    if (b->failed || len < 0 || nr__report_bytes_add(b, buf, (size_t)len) < 0)
        b->failed = 1;
    return len;
}

int nr__report_bytes_open(const nr_report *r, nr__report_bytes *b)
{
    *b = (nr__report_bytes){0};
    b->out = xmlOutputBufferCreateIO(bytes_write, NULL, b, dump_encoder(r));
    return b->out ? 0 : -1;
}

int nr__report_bytes_add(nr__report_bytes *b, const char *s, size_t n)
{
    if (NR_GROW(b->p, b->cap, b->len + n + 1) < 0)
        return -1;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
    return 0;
}

int nr__report_bytes_of(const nr_report *r, nr__report_bytes *b, xmlNode *n)
{
    b->len = 0;
    htmlNodeDumpFormatOutput(b->out, r->doc, n, NULL, 0);
    xmlOutputBufferFlush(b->out);
    return b->failed || b->out->error || !b->p ? -1 : 0;
}

void nr__report_bytes_close(nr__report_bytes *b)
{
    if (b->out)
        xmlOutputBufferClose(b->out);
    free(b->p);
    *b = (nr__report_bytes){0};
}

/* Figure number's bytes lie at at in the spool (fig_at has room). */
static int place_figure_bytes(nr_report *r, unsigned number, nr__report_fig at)
{
    while (r->nfig_at < number) /* a figure not imported (yet, or its import failed) leaves a hole */
        r->fig_at[r->nfig_at++] = (nr__report_fig){0, 0};
    r->fig_at[number - 1] = at;
    return 0;
}

int nr__report_spool_figure_bytes(nr_report *r, unsigned number, const char *bytes, size_t len, nr_error *err)
{
    if (number == 0 || NR_GROW(r->fig_at, r->cap_fig_at, number) < 0)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    const nr__report_fig at = {r->spool.size, len};
    NR_TRY(nr_spool_append(&r->spool, bytes, len, err));
    return place_figure_bytes(r, number, at);
}

/* The comment <!--PREFIX<number>--> (unlinked), NULL when out of memory. */
static xmlNode *mark_comment(nr_report *r, const char *prefix, size_t number)
{
    char text[48];
    snprintf(text, sizeof text, "%s%zu", prefix, number);
    return xmlNewDocComment(r->doc, BAD_CAST text);
}

xmlNode *nr__report_figure_mark(nr_report *r, unsigned number) { return mark_comment(r, FIG_MARK, number); }

xmlNode *nr__report_texts_mark(nr_report *r) { return xmlNewDocComment(r->doc, BAD_CAST TEXTS_MARK); }

/* Whether n lies at or below top. */
static int is_within(const xmlNode *n, const xmlNode *top)
{
    for (; n; n = n->parent)
        if (n == top)
            return 1;
    return 0;
}

/* Frees the handles of the tables below run, the last ones made (a run
 * is filled before the next is added): their nodes are about to go. */
static void forget_tables_in(nr_report *r, const xmlNode *run)
{
    while (r->ntables > 0 && is_within(r->tables[r->ntables - 1]->table, run))
        free(r->tables[--r->ntables]);
}

/* Serialises from (with rows, its element siblings after it too) into
 * the spool as entry N = *n + 1 of *at, and makes its mark <!--PREFIX<N>-->
 * (*mark, unlinked) for the caller to put in their place. */
static int spool_entry(nr_report *r, xmlNode *from, int rows, const char *prefix, nr__report_fig **at, size_t *n,
                       size_t *cap, xmlNode **mark, nr_error *err)
{
    const size_t number = *n + 1;
    if (NR_GROW(*at, *cap, number) < 0 || !(*mark = mark_comment(r, prefix, number)))
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    const int rc = spool_nodes(r, from, rows, &(*at)[number - 1], err);
    if (rc < 0) {
        xmlFreeNode(*mark);
        return rc;
    }
    *n = number;
    return 0;
}

int nr__report_rows_failed(const nr_report *r, nr_error *err)
{
    if (r->rows_err.code == NR_OK)
        return 0;
    *err = r->rows_err;
    return r->rows_err.code;
}

int nr_report_run_spool(nr_report *r, nr_report_block *run, nr_error *err)
{
    NR_TRY(nr__report_rows_failed(r, err));
    xmlNode *n = (xmlNode *)run, *mark;
    NR_TRY(spool_entry(r, n, 0, RUN_MARK, &r->run_at, &r->nrun_at, &r->cap_run_at, &mark, err));
    forget_tables_in(r, n);
    xmlReplaceNode(n, mark);
    xmlFreeNode(n);
    return 0;
}

/* The first row of body after its marks (the rows spooled before). */
static xmlNode *first_row(xmlNode *body)
{
    xmlNode *c = body->children;
    while (c && c->type != XML_ELEMENT_NODE)
        c = c->next;
    return c;
}

int nr__report_spool_rows(nr_report *r, nr_report_table *t, nr_error *err)
{
    xmlNode *from = first_row(t->tbody);
    if (!from)
        return 0;
    xmlNode *mark;
    NR_TRY(spool_entry(r, from, 1, ROWS_MARK, &r->rows_at, &r->nrows_at, &r->cap_rows_at, &mark, err));
    while (from) {   /* the rows, and nothing between them: the marks stand before them */
        xmlNode *next = from->next;
        xmlUnlinkNode(from);
        xmlFreeNode(from);
        from = next;
    }
    xmlAddChild(t->tbody, mark);
    t->row = NULL;
    return 0;
}

typedef int (*out_fn)(void *ctx, const void *p, size_t n, nr_error *err);

/* The bytes at f in the spool to out, in pieces of COPY_BYTES. */
static int put_piece(const nr_report *r, nr__report_fig f, out_fn out, void *ctx, char **copy, nr_error *err)
{
    if (!*copy && !(*copy = malloc(COPY_BYTES)))
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    for (uint64_t done = 0; done < f.len;) {
        const size_t n = f.len - done < COPY_BYTES ? (size_t)(f.len - done) : COPY_BYTES;
        NR_TRY(nr_spool_read(&r->spool, f.off + done, *copy, n, err));
        NR_TRY(out(ctx, *copy, n, err));
        done += n;
    }
    return 0;
}

/* Figure number's bytes from the spool to out. */
static int put_figure(const nr_report *r, unsigned long number, out_fn out, void *ctx, char **copy,
                      nr_error *err)
{
    if (number == 0 || number > r->nfig_at || r->fig_at[number - 1].len == 0)
        return nr_error_set(err, NR_E_INPUT, "report: the document names figure %lu, which was not imported",
                            number);
    return put_piece(r, r->fig_at[number - 1], out, ctx, copy, err);
}

/* Rows number's bytes from the spool to out. */
static int put_rows(const nr_report *r, unsigned long number, out_fn out, void *ctx, char **copy, nr_error *err)
{
    if (number == 0 || number > r->nrows_at)
        return nr_error_set(err, NR_E_INPUT, "report: the document names rows %lu, which were not spooled", number);
    return put_piece(r, r->rows_at[number - 1], out, ctx, copy, err);
}

/* The shared text groups to out, each <g id="nr-tN" + its bytes after
 * "<g", gathered in pieces of COPY_BYTES. */
static int put_texts(const nr_report *r, out_fn out, void *ctx, char **copy, nr_error *err)
{
    if (!*copy && !(*copy = malloc(COPY_BYTES)))
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    size_t used = 0;
    for (size_t t = 0; t < r->text_keys.count; t++) {
        const char *bytes = nr_strtab_str(&r->text_keys, t);
        const size_t len = nr_strtab_len(&r->text_keys, t);
        if (len < 3 || memcmp(bytes, "<g", 2) != 0)
            return nr_error_set(err, NR_E_INPUT, "report: shared text group %zu is not a <g>", t);
        char head[48];
        const size_t h = (size_t)snprintf(head, sizeof head, "<g id=\"" NR__REPORT_TEXT_ID "\"", (long long)t);
        if (used + h + len - 2 > COPY_BYTES) {
            NR_TRY(out(ctx, *copy, used, err));
            used = 0;
        }
        if (h + len - 2 > COPY_BYTES) { /* a group of over 1 MiB: written as it is */
            NR_TRY(out(ctx, head, h, err));
            NR_TRY(out(ctx, bytes + 2, len - 2, err));
            continue;
        }
        memcpy(*copy + used, head, h);
        memcpy(*copy + used + h, bytes + 2, len - 2);
        used += h + len - 2;
    }
    return used ? out(ctx, *copy, used, err) : 0;
}

static int starts_with(const char *p, const char *end, const char *prefix)
{
    const size_t n = strlen(prefix);
    return (size_t)(end - p) >= n && memcmp(p, prefix, n) == 0;
}

/* Just after the '>' that ends the tag whose name starts at p, its quoted
 * attribute values skipped; end when it does not end. */
static const char *after_tag(const char *p, const char *end)
{
    for (; p < end; p++) {
        if (*p == '"' || *p == '\'') {
            const char *q = memchr(p + 1, *p, (size_t)(end - p - 1));
            if (!q)
                return end;
            p = q;
        } else if (*p == '>') {
            return p + 1;
        }
    }
    return end;
}

/* The next figure mark the document placed in doc[p, end), p outside any
 * tag; NULL when none. Only marks between tags count: libxml2 escapes a
 * '<' of the text everywhere but inside an attribute's value, where it
 * writes a whole "<!--...-->" as it is (server-side includes), so a run
 * named "a<!--nr-figure:1-->" put figure 1 into its data-nr-run
 * attribute, and "...:99-->" failed the build (until session 47). The
 * <style> sheet's raw text is skipped whole. A run's marks are found
 * alike. */
static const char *next_mark(const char *p, const char *end)
{
    while ((p = memchr(p, '<', (size_t)(end - p)))) {
        if (starts_with(p, end, FIG_MARK_OPEN) || starts_with(p, end, RUN_MARK_OPEN) ||
            starts_with(p, end, ROWS_MARK_OPEN) || starts_with(p, end, TEXTS_MARK_OPEN))
            return p;
        if (starts_with(p, end, "<!--")) {
            const char *c = memmem(p + 4, (size_t)(end - p - 4), "-->", 3);
            p = c ? c + 3 : end;
        } else if (starts_with(p, end, "<style")) {
            const char *c = memmem(p, (size_t)(end - p), "</style", 7);
            p = c ? after_tag(c, end) : end;
        } else {
            p = after_tag(p + 1, end);
        }
    }
    return NULL;
}

static int splice(const nr_report *r, const char *doc, size_t n, int in_run, out_fn out, void *ctx, char **copy,
                  int *texts_put, nr_error *err);

/* Run number's bytes from the spool to out, its figure marks replaced:
 * read whole (one run's article, tens of kB). */
static int put_run(const nr_report *r, unsigned long number, out_fn out, void *ctx, char **copy, int *texts_put,
                   nr_error *err)
{
    if (number == 0 || number > r->nrun_at)
        return nr_error_set(err, NR_E_INPUT, "report: the document names run %lu, which was not spooled", number);
    const nr__report_fig f = r->run_at[number - 1];
    char *bytes = malloc(f.len ? (size_t)f.len : 1);
    if (!bytes)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    int rc = nr_spool_read(&r->spool, f.off, bytes, (size_t)f.len, err);
    if (rc == 0)
        rc = splice(r, bytes, (size_t)f.len, 1, out, ctx, copy, texts_put, err);
    free(bytes);
    return rc;
}

/* doc[0..n) to out, each figure mark replaced by its figure, each run
 * mark (in_run 0: the document's) by its run, and the mark of the text
 * groups (the document's, once, where the report placed it) by them. */
static int splice(const nr_report *r, const char *doc, size_t n, int in_run, out_fn out, void *ctx, char **copy,
                  int *texts_put, nr_error *err)
{
    int rc = 0;
    const char *p = doc, *end = doc + n;
    while (rc == 0 && p < end) {
        const char *m = next_mark(p, end);
        if (!m)
            return out(ctx, p, (size_t)(end - p), err);
        rc = out(ctx, p, (size_t)(m - p), err);
        if (starts_with(m, end, TEXTS_MARK_OPEN)) {
            if (rc == 0 && (in_run || *texts_put || !r->text_defs))
                rc = nr_error_set(err, NR_E_INPUT, "report: a mark of the text groups the report did not place, at "
                                  "byte %zu", (size_t)(m - doc));
            if (rc == 0)
                rc = put_texts(r, out, ctx, copy, err);
            *texts_put = 1;
            p = m + sizeof TEXTS_MARK_OPEN - 1;
            continue;
        }
        const int is_run = starts_with(m, end, RUN_MARK_OPEN), is_rows = starts_with(m, end, ROWS_MARK_OPEN);
        const char *digits = m + (is_run ? sizeof RUN_MARK_OPEN : is_rows ? sizeof ROWS_MARK_OPEN
                                                                           : sizeof FIG_MARK_OPEN) - 1;
        const char *q = digits;
        unsigned long number = 0;
        while (q < end && q - digits < 9 && *q >= '0' && *q <= '9')
            number = number * 10 + (unsigned long)(*q++ - '0');
        if (rc == 0 && (q == digits || (size_t)(end - q) < sizeof MARK_CLOSE - 1 ||
                        memcmp(q, MARK_CLOSE, sizeof MARK_CLOSE - 1) || (is_run && in_run)))
            rc = nr_error_set(err, NR_E_INPUT, "report: a %s mark without its number at byte %zu",
                              is_run ? "run" : is_rows ? "rows" : "figure", (size_t)(m - doc));
        if (rc == 0)
            rc = is_run    ? put_run(r, number, out, ctx, copy, texts_put, err)
                 : is_rows ? put_rows(r, number, out, ctx, copy, err)
                           : put_figure(r, number, out, ctx, copy, err);
        p = q + sizeof MARK_CLOSE - 1;
    }
    return rc;
}

/* The document's serialisation doc[0..n) to out, its marks replaced. */
static int splice_document(const nr_report *r, const char *doc, size_t n, out_fn out, void *ctx, nr_error *err)
{
    char *copy = NULL;
    int texts_put = 0;
    int rc = splice(r, doc, n, 0, out, ctx, &copy, &texts_put, err);
    if (rc == 0 && r->text_defs && !texts_put)
        rc = nr_error_set(err, NR_E_INPUT, "report: the shared text groups have no place in the document");
    free(copy);
    return rc;
}

typedef struct mem_out {
    char *buf;
    size_t len, cap;
} mem_out;

static int to_memory(void *ctx, const void *p, size_t n, nr_error *err)
{
    mem_out *m = ctx;
    if (NR_GROW(m->buf, m->cap, m->len + n + 1) < 0)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    memcpy(m->buf + m->len, p, n);
    m->len += n;
    m->buf[m->len] = '\0';
    return 0;
}

static int to_file(void *ctx, const void *p, size_t n, nr_error *err)
{
    return nr_outfile_write(ctx, p, n, err);
}

int nr_report_serialize(nr_report *r, char **buf, size_t *len, nr_error *err)
{
    *buf = NULL;
    *len = 0;
    char *doc;
    size_t n;
    NR_TRY(nr__report_dump(r, &doc, &n, err));
    mem_out m = {0};
    int rc = splice_document(r, doc, n, to_memory, &m, err); /* n > 0: m.buf is set */
    xmlFree(doc);
    if (rc < 0) {
        free(m.buf);
        return rc;
    }
    *buf = m.buf;
    *len = m.len;
    return 0;
}

int nr_report_write(nr_report *r, const char *path, nr_error *err)
{
    char *doc;
    size_t n;
    NR_TRY(nr__report_dump(r, &doc, &n, err));
    nr_outfile f = {.fd = -1};
    int rc = nr_outfile_open(&f, path, err);
    if (rc == 0)
        rc = splice_document(r, doc, n, to_file, &f, err);
    if (rc == 0)
        rc = nr_outfile_commit(&f, err);
    else
        nr_outfile_abort(&f);
    xmlFree(doc);
    return rc;
}
