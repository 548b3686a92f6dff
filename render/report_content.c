/* report_content: paragraphs, tables and lists built as nodes. Every string
 * goes in through nr__report_add_text, i.e. as a cleaned text node. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"

void nr__report_add_text(xmlNode *n, const char *text)
{
    if (!text || !*text)
        return;
    size_t cap = strlen(text) * 4 + 1;   /* every byte may become \xNN */
    char stackbuf[1024];
    char *clean = cap <= sizeof stackbuf ? stackbuf : malloc(cap);
    if (!clean)
        return;
    nr_utf8_clean(text, clean, cap);
    xmlAddChild(n, xmlNewDocText(n->doc, BAD_CAST clean));
    if (clean != stackbuf)
        free(clean);
}

void nr__report_set_text(xmlNode *n, const char *text)
{
    while (n->children) {
        xmlNode *c = n->children;
        xmlUnlinkNode(c);
        xmlFreeNode(c);
    }
    nr__report_add_text(n, text);
}

xmlNode *nr__report_child(xmlNode *parent, const char *name, const char *cls)
{
    xmlNode *n = xmlNewDocNode(parent->doc, NULL, BAD_CAST name, NULL);
    if (!n)
        return NULL;
    xmlAddChild(parent, n);
    if (cls)
        xmlSetProp(n, BAD_CAST "class", BAD_CAST cls);
    return n;
}

int nr__report_find_id(const nr_report *r, const char *id)
{
    for (size_t i = 0; i < r->nids; i++)
        if (strcmp(r->ids[i], id) == 0)
            return 1;
    return 0;
}

void nr__report_remember_id(nr_report *r, const char *id)
{
    if (r->nids == r->cap_ids) {
        size_t cap = r->cap_ids ? r->cap_ids * 2 : 16;
        char **ids = realloc(r->ids, cap * sizeof *ids);
        if (!ids)
            return;
        r->ids = ids;
        r->cap_ids = cap;
    }
    char *copy = strdup(id);
    if (copy)
        r->ids[r->nids++] = copy;
}

void nr_report_para(nr_report_block *b, const char *cls, const char *text)
{
    xmlNode *p = nr__report_child((xmlNode *)b, "p", cls);
    if (p)
        nr__report_add_text(p, text);
}

void nr_report_heading(nr_report_block *b, const char *text)
{
    xmlNode *h = nr__report_child((xmlNode *)b, "h4", NULL);
    if (h)
        nr__report_add_text(h, text);
}

nr_report_block *nr_report_pair(nr_report_block *b)
{
    return (nr_report_block *)nr__report_child((xmlNode *)b, "div", "pair");
}

nr_report_block *nr_report_pair_numbers(nr_report_block *pair)
{
    xmlNode *p = (xmlNode *)pair;
    for (xmlNode *c = p->children; c; c = c->next) {
        xmlChar *cls = xmlGetProp(c, BAD_CAST "class");
        int hit = cls && strcmp((const char *)cls, "numbers") == 0;
        xmlFree(cls);
        if (hit)
            return (nr_report_block *)c;
    }
    return (nr_report_block *)nr__report_child(p, "div", "numbers");
}

/* 1 when n is a <div class="numbers">. */
static int is_numbers(const xmlNode *n)
{
    if (n->type != XML_ELEMENT_NODE || strcmp((const char *)n->name, "div") != 0)
        return 0;
    xmlChar *cls = xmlGetProp(n, BAD_CAST "class");
    const int hit = cls && strcmp((const char *)cls, "numbers") == 0;
    xmlFree(cls);
    return hit;
}

nr_report_table *nr_report_table_new(nr_report_block *b, const char *caption, size_t ncols,
                                     const char *const *headers, uint32_t num_cols)
{
    nr_report *r = nr__report_of((xmlNode *)b);
    if (!r)
        return NULL;
    /* the scroll box of a table outside a pair's numbers (the overview's
       made a phone's page 1126 px wide; templates/report.css, .numbers) */
    xmlNode *box = is_numbers((xmlNode *)b) ? (xmlNode *)b : nr__report_child((xmlNode *)b, "div", "numbers");
    if (!box)
        return NULL;
    if (r->ntables == r->cap_tables) {
        size_t cap = r->cap_tables ? r->cap_tables * 2 : 32;
        nr_report_table **tables = realloc(r->tables, cap * sizeof *tables);
        if (!tables)
            return NULL;
        r->tables = tables;
        r->cap_tables = cap;
    }
    nr_report_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    r->tables[r->ntables++] = t;
    t->ncols = ncols;
    t->num_cols = num_cols;
    t->table = nr__report_child(box, "table", NULL);
    if (caption) {
        xmlNode *cap = nr__report_child(t->table, "caption", NULL);
        nr__report_add_text(cap, caption);
    }
    xmlNode *head = nr__report_child(nr__report_child(t->table, "thead", NULL), "tr", NULL);
    for (size_t i = 0; i < ncols; i++) {
        int num = i < 32 && (num_cols >> i) & 1u;
        xmlNode *th = nr__report_child(head, "th", num ? "num" : NULL);
        xmlSetProp(th, BAD_CAST "scope", BAD_CAST "col");
        nr__report_add_text(th, headers ? headers[i] : "");
    }
    t->tbody = nr__report_child(t->table, "tbody", NULL);
    return t;
}

void nr_report_table_row(nr_report_table *t)
{
    if (!t)
        return;
    nr_report *r = nr__report_of(t->tbody);
    const size_t most = r && r->rows_per_spool ? r->rows_per_spool : NR__REPORT_ROWS;
    if (r && t->rows >= most && r->rows_err.code == NR_OK) {
        /* out of the tree: the bytes written are the same */
        if (nr__report_spool_rows(r, t, &r->rows_err) == 0)
            t->rows = 0;
        else if (r->rows_err.code == NR_OK)
            nr_error_set(&r->rows_err, NR_E_IO, "report: a table's rows could not be spooled");
    }
    if (r && r->rows_err.code != NR_OK) {
        /* The spool failed: the report cannot be written any more (the
           run's spool and the output fail with the error, as no caller is
           told here), so no row is made, nor is the spool tried again:
           each new row retried it with every row held, and a full TMPDIR
           kept a build of 20,000 phase names busy for hours (review 53). */
        t->row = NULL;
        return;
    }
    t->row = nr__report_child(t->tbody, "tr", NULL);
    t->col = 0;
    t->rows += t->row != NULL;
}

static xmlNode *next_cell(nr_report_table *t, const char *cls_override)
{
    if (!t)
        return NULL;
    if (!t->row)
        nr_report_table_row(t);
    if (!t->row)   /* out of memory, or the rows' spool failed */
        return NULL;
    size_t i = t->col++;
    int num = i < 32 && (t->num_cols >> i) & 1u;
    return nr__report_child(t->row, "td", cls_override ? cls_override : num ? "num" : NULL);
}

void nr_report_table_cell(nr_report_table *t, const char *text)
{
    xmlNode *td = next_cell(t, NULL);
    if (td)
        nr__report_add_text(td, text);
}

void nr_report_table_cell_key(nr_report_table *t, const char *text, const char *key, double raw)
{
    xmlNode *td = next_cell(t, NULL);
    if (!td)
        return;
    nr__report_add_text(td, text);
    if (!key)
        return;
    char value[40];
    if (isfinite(raw))
        snprintf(value, sizeof value, "%.17g", raw);
    else
        snprintf(value, sizeof value, "null");
    char clean[256];
    xmlSetProp(td, BAD_CAST "data-nr-key", BAD_CAST nr_utf8_clean(key, clean, sizeof clean));
    xmlSetProp(td, BAD_CAST "data-nr-value", BAD_CAST value);
}

void nr_report_table_cell_path(nr_report_table *t, const char *path)
{
    xmlNode *td = next_cell(t, "path");
    if (td)
        nr__report_add_text(td, path);
}

void nr_report_table_cell_text(nr_report_table *t, const char *text)
{
    xmlNode *td = next_cell(t, "text");
    if (td)
        nr__report_add_text(td, text);
}

void nr_report_finding(nr_report_block *b, const char *id, const char *sentence, const char *action)
{
    xmlNode *parent = (xmlNode *)b;
    xmlNode *list = NULL;
    for (xmlNode *c = parent->last; c; c = NULL) {
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "ul") == 0)
            list = c;
    }
    if (!list)
        list = nr__report_child(parent, "ul", "findings");
    xmlNode *li = nr__report_child(list, "li", NULL);
    if (!li)
        return;
    if (id) {
        char clean[128];
        xmlSetProp(li, BAD_CAST "data-nr-finding", BAD_CAST nr_utf8_clean(id, clean, sizeof clean));
    }
    nr__report_add_text(li, sentence);
    if (action && *action) {
        xmlNode *a = nr__report_child(li, "span", "action");
        nr__report_add_text(a, action);
    }
}

void nr_report_figure_missing(nr_report_block *b, const char *caption, const char *reason)
{
    xmlNode *fig = nr__report_child((xmlNode *)b, "figure", "missing");
    if (!fig)
        return;
    xmlNode *p = nr__report_child(fig, "p", "unavailable");
    nr__report_add_text(p, reason);
    if (caption) {
        xmlNode *cap = nr__report_child(fig, "figcaption", NULL);
        nr__report_add_text(cap, caption);
    }
}
