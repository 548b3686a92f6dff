/* report: the template, the run copies and the serialiser of the HTML report.
 * The document is a libxml2 HTML tree; blocks are its elements. The report
 * hangs on doc->_private so that a block can find its report. */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>

#include "nr_templates.h"
#include "report_internal.h"

static const char *const section_marks[NR_SEC_COUNT] = {
#define NR_X_SEC(id, name) [id] = name,
    NR_REPORT_RUN_SECTIONS(NR_X_SEC)
#undef NR_X_SEC
};

/* Whether element n carries data-nr="mark". */
static int has_mark(xmlNode *n, const char *mark)
{
    xmlChar *v = xmlGetProp(n, BAD_CAST "data-nr");
    const int hit = v && strcmp((const char *)v, mark) == 0;
    xmlFree(v);
    return hit;
}

xmlNode *nr__report_find_mark(xmlNode *from, const char *mark)
{
    for (xmlNode *n = from; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (has_mark(n, mark))
            return n;
        xmlNode *inner = nr__report_find_mark(n->children, mark);
        if (inner)
            return inner;
    }
    return NULL;
}

nr_report *nr__report_of(const xmlNode *n)
{
    return n && n->doc ? (nr_report *)n->doc->_private : NULL;
}

static int require_mark(nr_report *r, const char *mark, xmlNode **out, nr_error *err)
{
    *out = nr__report_find_mark(xmlDocGetRootElement(r->doc), mark);
    if (!*out)
        return nr_error_set(err, NR_E_INPUT, "report template: no element with data-nr=\"%s\"", mark);
    return 0;
}

/* Marks whose element the engine keeps a pointer to, or whose children it
 * replaces by text: none of them may hold another mark, or filling one would
 * free or move the other (found by fuzzing the template reader). */
static const char *const page_marks[] = {"title", "subtitle", "css", "runs", "run-template", "overview", "toc"};

static int is_page_mark(const char *mark)
{
    for (size_t i = 0; i < sizeof page_marks / sizeof page_marks[0]; i++)
        if (strcmp(page_marks[i], mark) == 0)
            return 1;
    return 0;
}

/* Returns the first page mark found inside another page mark (or inside
 * any mark when that outer one is replaced by text), else NULL; *outer names
 * the enclosing mark. Section marks may nest inside run-template, and
 * run-template inside runs (it is unlinked from there at creation). */
static xmlChar *find_nested_mark(xmlNode *from, const char *enclosing, char *outer, size_t outer_cap)
{
    for (xmlNode *n = from; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *v = xmlGetProp(n, BAD_CAST "data-nr");
        const char *mark = (const char *)v;
        int text_filled = enclosing && (strcmp(enclosing, "title") == 0 || strcmp(enclosing, "subtitle") == 0 ||
                                        strcmp(enclosing, "css") == 0);
        int by_design = enclosing && v && strcmp(enclosing, "runs") == 0 && strcmp(mark, "run-template") == 0;
        if (v && enclosing && !by_design && (is_page_mark(mark) || text_filled)) {
            snprintf(outer, outer_cap, "%s", enclosing);
            return v;
        }
        char here[64];
        snprintf(here, sizeof here, "%s", v && is_page_mark(mark) ? mark : enclosing ? enclosing : "");
        xmlFree(v);
        xmlChar *inner = find_nested_mark(n->children, here[0] ? here : NULL, outer, outer_cap);
        if (inner)
            return inner;
    }
    return NULL;
}

int nr_report_create(const char *html, size_t html_len, const char *css, size_t css_len,
                     nr_report **out, nr_error *err)
{
    *out = NULL;
    if (html_len > (size_t)INT32_MAX)
        return nr_error_set(err, NR_E_LIMIT, "report template: too large");
    xmlInitParser(); /* here, on one thread: figures may be parsed on others (nr_report_svg_parse) */
    nr_report *r = calloc(1, sizeof *r);
    if (!r)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    r->css = malloc(css_len + 1);
    if (!r->css) {
        free(r);
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    }
    memcpy(r->css, css, css_len);
    r->css[css_len] = '\0';
    r->spool = (nr_spool)NR_SPOOL_INIT;
    nr_strtab_init(&r->glyph_keys);
    nr_strtab_init(&r->style_keys);
    nr_strtab_init(&r->text_keys);
    r->doc = htmlReadMemory(html, (int)html_len, "report.html", "UTF-8",
                            HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
    if (!r->doc) {
        nr_report_destroy(r);
        return nr_error_set(err, NR_E_INPUT, "report template: not parseable as HTML");
    }
    r->doc->_private = r;
    int rc = nr__report_set_dump_encoding(r, err);
    if (rc == 0)
        rc = require_mark(r, "runs", &r->runs, err);
    if (rc == 0)
        rc = require_mark(r, "run-template", &r->run_template, err);
    if (rc == 0)
        rc = require_mark(r, "css", &r->style, err);
    if (rc == 0)
        rc = require_mark(r, "overview", &r->overview, err);
    for (int s = 0; rc == 0 && s < NR_SEC_COUNT; s++) {
        if (!nr__report_find_mark(r->run_template, section_marks[s]))
            rc = nr_error_set(err, NR_E_INPUT, "report template: run template lacks data-nr=\"%s\"",
                              section_marks[s]);
    }
    char outer[64];
    xmlChar *nested = rc == 0 ? find_nested_mark(xmlDocGetRootElement(r->doc), NULL, outer, sizeof outer) : NULL;
    if (nested) {
        rc = nr_error_set(err, NR_E_INPUT, "report template: data-nr=\"%s\" must not stand inside data-nr=\"%s\"",
                          (const char *)nested, outer);
        xmlFree(nested);
    }
    if (rc < 0) {
        nr_report_destroy(r);
        return rc;
    }
    r->toc = nr__report_find_mark(xmlDocGetRootElement(r->doc), "toc");
    r->subtitle = nr__report_find_mark(xmlDocGetRootElement(r->doc), "subtitle");
    xmlUnlinkNode(r->run_template);
    r->overview_children = xmlChildElementCount(r->overview);
    *out = r;
    return 0;
}

int nr_report_create_default(nr_report **out, nr_error *err)
{
    return nr_report_create((const char *)nr_tmpl_report_html, nr_tmpl_report_html_len,
                            (const char *)nr_tmpl_report_css, nr_tmpl_report_css_len, out, err);
}

void nr_report_destroy(nr_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->ntables; i++)
        free(r->tables[i]);
    free(r->tables);
    for (size_t i = 0; i < r->nids; i++)
        free(r->ids[i]);
    free(r->ids);
    if (r->run_template && !r->run_template->parent)   /* unlinked from the document */
        xmlFreeNode(r->run_template);
    if (r->doc)
        xmlFreeDoc(r->doc);
    free(r->css);
    free(r->dump_encoding);
    nr_spool_close(&r->spool);
    nr_strtab_fini(&r->glyph_keys);
    nr_strtab_fini(&r->style_keys);
    nr_strtab_fini(&r->text_keys);
    free(r->fig_at);
    free(r->run_at);
    free(r->rows_at);
    free(r);
}

/* Replaces the children of every element marked mark (below from) by text. */
static void set_marked_text(xmlNode *from, const char *mark, const char *text)
{
    for (xmlNode *n = from; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (has_mark(n, mark))
            nr__report_set_text(n, text);
        else
            set_marked_text(n->children, mark, text);
    }
}

void nr_report_set_title(nr_report *r, const char *title)
{
    set_marked_text(xmlDocGetRootElement(r->doc), "title", title);
}

void nr_report_set_subtitle(nr_report *r, const char *subtitle)
{
    if (r->subtitle)
        nr__report_set_text(r->subtitle, subtitle);
}

nr_report_block *nr_report_overview(nr_report *r)
{
    return (nr_report_block *)r->overview;
}

/* An anchor id from hint: [A-Za-z0-9_-] kept, the rest '-', unique in r. */
static void make_run_id(nr_report *r, const char *hint, char *out, size_t cap)
{
    char base[64];
    size_t n = 0;
    for (const char *p = hint ? hint : ""; *p && n < sizeof base - 1; p++) {
        unsigned char c = (unsigned char)*p;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        base[n++] = ok ? (char)c : '-';
    }
    base[n] = '\0';
    snprintf(out, cap, "run-%s", n ? base : "x");
    for (int k = 2; nr__report_find_id(r, out); k++)
        snprintf(out, cap, "run-%s-%d", n ? base : "x", k);
}

nr_report_block *nr_report_add_run(nr_report *r, const char *name, const char *id_hint)
{
    xmlNode *run = xmlDocCopyNode(r->run_template, r->doc, 1);
    if (!run)
        return NULL;
    xmlAddChild(r->runs, run);
    char id[96];
    make_run_id(r, id_hint ? id_hint : name, id, sizeof id);
    xmlUnsetProp(run, BAD_CAST "data-nr");
    xmlSetProp(run, BAD_CAST "id", BAD_CAST id);
    char clean[1024];
    nr_utf8_clean(name, clean, sizeof clean);
    xmlSetProp(run, BAD_CAST "data-nr-run", BAD_CAST clean);
    xmlNode *title = nr__report_find_mark(run->children, "run-title");
    if (title)
        nr__report_set_text(title, name);
    nr__report_remember_id(r, id);
    if (r->toc) {
        if (!r->toc_list)
            r->toc_list = xmlNewChild(r->toc, NULL, BAD_CAST "ul", NULL);
        xmlNode *li = xmlNewChild(r->toc_list, NULL, BAD_CAST "li", NULL);
        xmlNode *a = xmlNewChild(li, NULL, BAD_CAST "a", NULL);
        char href[100];
        snprintf(href, sizeof href, "#%s", id);
        xmlSetProp(a, BAD_CAST "href", BAD_CAST href);
        nr__report_add_text(a, name);
    }
    r->nruns++;
    return (nr_report_block *)run;
}

nr_report_block *nr_report_run_section(nr_report_block *run, enum nr_report_section sec)
{
    if (sec < 0 || sec >= NR_SEC_COUNT)
        return NULL;
    return (nr_report_block *)nr__report_find_mark(((xmlNode *)run)->children, section_marks[sec]);
}

/* Removes what the filled document does not need: the empty overview, an
 * empty subtitle, a table of contents with fewer than two runs. */
static void prune(nr_report *r)
{
    if (r->overview && xmlChildElementCount(r->overview) <= r->overview_children) {
        xmlUnlinkNode(r->overview);
        xmlFreeNode(r->overview);
        r->overview = NULL;
    }
    if (r->subtitle && !r->subtitle->children) {
        xmlUnlinkNode(r->subtitle);
        xmlFreeNode(r->subtitle);
        r->subtitle = NULL;
    }
    if (r->toc && r->nruns < 2) {
        xmlUnlinkNode(r->toc);
        xmlFreeNode(r->toc);
        r->toc = NULL;
        r->toc_list = NULL;
    }
}

int nr__report_dump(nr_report *r, char **doc, size_t *len, nr_error *err)
{
    *doc = NULL;
    *len = 0;
    NR_TRY(nr__report_rows_failed(r, err));
    prune(r);
    /* CSS goes in as one text node; the HTML serialiser writes <style> content raw. */
    while (r->style->children) {
        xmlNode *c = r->style->children;
        xmlUnlinkNode(c);
        xmlFreeNode(c);
    }
    char *css = nr__report_css_with_styles(r);
    xmlNode *text = css ? xmlNewDocText(r->doc, BAD_CAST css) : NULL;
    free(css);
    if (!text)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    xmlAddChild(r->style, text);
    xmlChar *mem = NULL;
    int n = 0;
    htmlDocDumpMemoryFormat(r->doc, &mem, &n, 0);
    if (!mem || n <= 0) {
        xmlFree(mem);
        return nr_error_set(err, NR_E_NOMEM, "report: could not serialise the document");
    }
    *doc = (char *)mem;
    *len = (size_t)n;
    return 0;
}
