/* report_svg: imports an SVG document (as cairo writes it) into the report as
 * inline <svg>. cairo names its glyphs and clips "glyph0-1", "clip1" in every
 * file, so each figure's ids get a prefix unique in the report and every
 * reference to them (url(#id) in any attribute, href/xlink:href="#id") is
 * rewritten to match. Anything that could run or fetch is dropped: <script>,
 * <foreignObject>, on* attributes, href not starting with '#'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "report_internal.h"

/* A growing string for attribute rewriting. */
typedef struct strbuf {
    char *p;
    size_t len, cap;
    int failed;
} strbuf;

static void sb_add(strbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 64) + n;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

/* value with every "url(#" followed by prefix; NULL when there is none (or OOM). */
static char *rewrite_urls(const char *value, const char *prefix)
{
    if (!strstr(value, "url(#"))
        return NULL;
    strbuf b = {0};
    const char *p = value;
    for (const char *hit; (hit = strstr(p, "url(#")) != NULL; p = hit + 5) {
        sb_add(&b, p, (size_t)(hit - p) + 5);
        sb_add(&b, prefix, strlen(prefix));
    }
    sb_add(&b, p, strlen(p));
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

static int is_href(const xmlAttr *a)
{
    return strcmp((const char *)a->name, "href") == 0;
}

static int starts_with_ci(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if ((*s | 0x20) != *prefix)
            return 0;
    return 1;
}

/* Rewrites or drops the attributes of one element; notes their values in seen. */
static void fix_attributes(xmlNode *n, const char *prefix, nr__report_seen *seen)
{
    xmlAttr *a = n->properties;
    while (a) {
        xmlAttr *next = a->next;
        xmlChar *v = xmlNodeListGetString(n->doc, a->children, 1);
        const char *value = v ? (const char *)v : "";
        nr__report_seen_note(seen, value);
        const char *name = (const char *)a->name;
        if (starts_with_ci(name, "on")) {
            xmlRemoveProp(a);
        } else if (is_href(a)) {
            if (value[0] != '#') {
                xmlRemoveProp(a);
            } else {
                strbuf b = {0};
                sb_add(&b, "#", 1);
                sb_add(&b, prefix, strlen(prefix));
                sb_add(&b, value + 1, strlen(value + 1));
                a->ns = NULL;   /* xlink:href becomes SVG 2 href, rewritten in place: no namespace needed */
                if (!b.failed)
                    xmlSetProp(n, BAD_CAST "href", BAD_CAST b.p);
                free(b.p);
            }
        } else if (a->ns) {
            xmlRemoveProp(a);   /* other namespaced attributes (xml:space, ...) are not needed inline */
        } else if (strcmp(name, "id") == 0) {
            strbuf b = {0};
            sb_add(&b, prefix, strlen(prefix));
            sb_add(&b, value, strlen(value));
            if (!b.failed)
                xmlSetNsProp(n, a->ns, a->name, BAD_CAST b.p);
            free(b.p);
        } else {
            char *fixed = rewrite_urls(value, prefix);
            if (fixed)
                xmlSetNsProp(n, a->ns, a->name, BAD_CAST fixed);
            free(fixed);
        }
        xmlFree(v);
        a = next;
    }
}

static int is_dangerous_element(const xmlNode *n)
{
    const char *name = (const char *)n->name;
    return strcmp(name, "script") == 0 || strcmp(name, "foreignObject") == 0 ||
           strcmp(name, "iframe") == 0 || strcmp(name, "image") == 0;
}

/* Inline SVG in HTML needs no namespace: the HTML parser puts <svg> in the
 * SVG namespace by itself. Dropping them keeps every URL out of the report. */
static void strip_namespace(xmlNode *n)
{
    n->ns = NULL;
    if (n->nsDef) {
        xmlFreeNsList(n->nsDef);
        n->nsDef = NULL;
    }
}

/* Walks the tree below n: fixes attributes, drops dangerous elements,
 * comments and processing instructions; notes the texts kept in seen. */
static void sanitize_tree(xmlNode *n, const char *prefix, nr__report_seen *seen)
{
    while (n) {
        xmlNode *next = n->next;
        if (n->type == XML_ELEMENT_NODE && !is_dangerous_element(n)) {
            fix_attributes(n, prefix, seen);
            strip_namespace(n);
            sanitize_tree(n->children, prefix, seen);
        } else if (n->content && n->type != XML_COMMENT_NODE && n->type != XML_PI_NODE) {
            nr__report_seen_note(seen, (const char *)n->content);
        } else if (n->type == XML_ELEMENT_NODE || n->type == XML_COMMENT_NODE || n->type == XML_PI_NODE) {
            xmlUnlinkNode(n);
            xmlFreeNode(n);
        }
        n = next;
    }
}

/* fig_key as an id fragment: the report's text cleaning, then [A-Za-z0-9_]. */
static void clean_fig_key(const char *fig_key, char *out, size_t cap)
{
    nr_utf8_clean(fig_key, out, cap);
    for (char *c = out; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
            *c = '_';
}

nr_report_block *nr_report_figure_slot(nr_report *r, nr_report_block *b, const char *fig_key)
{
    char clean_key[32];
    clean_fig_key(fig_key, clean_key, sizeof clean_key);
    xmlNode *parent = (xmlNode *)b;
    xmlNode *fig = xmlNewDocNode(r->doc, NULL, BAD_CAST "figure", NULL);
    if (!fig)
        return NULL;
    xmlSetProp(fig, BAD_CAST "data-nr-figure", BAD_CAST clean_key);
    /* In a figure-and-numbers pair the figure comes first. */
    xmlChar *cls = xmlGetProp(parent, BAD_CAST "class");
    int in_pair = cls && strcmp((const char *)cls, "pair") == 0;
    xmlFree(cls);
    if (in_pair && parent->children)
        xmlAddPrevSibling(parent->children, fig);
    else
        xmlAddChild(parent, fig);
    return (nr_report_block *)fig;
}

int nr_report_svg_parse(const void *svg, size_t len, const char *fig_key, nr_report_svg **out, nr_error *err)
{
    *out = NULL;
    if (len > (size_t)INT32_MAX)
        return nr_error_set(err, NR_E_LIMIT, "figure %s: SVG too large", fig_key);
    /* HUGE: a figure of 100,000 shapes is over libxml2's 10 MB limits; the
       SVG is niorep-render's own, with no DTD, and one with a DTD is
       refused before any entity of it is expanded (an attribute's value
       expands when read) */
    xmlDoc *sd = xmlReadMemory(svg, (int)len, "figure.svg", NULL,
                               XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA |
                                   XML_PARSE_HUGE);
    if (sd && (sd->intSubset || sd->extSubset)) { /* HUGE lets nested entities grow without bound */
        xmlFreeDoc(sd);
        return nr_error_set(err, NR_E_INPUT, "figure %s: an SVG with a DTD (niorep-render writes none): not read",
                            fig_key);
    }
    xmlNode *root = sd ? xmlDocGetRootElement(sd) : NULL;
    if (!root || strcmp((const char *)root->name, "svg") != 0) {
        xmlFreeDoc(sd);
        return nr_error_set(err, NR_E_INPUT, "figure %s: not an SVG document", fig_key);
    }
    *out = (nr_report_svg *)sd; /* an nr_report_svg is an xmlDoc under the API's own name */
    return 0;
}

void nr_report_svg_free(nr_report_svg *svg) { xmlFreeDoc((xmlDoc *)svg); }

int nr_report_figure_fill_parsed(nr_report *r, nr_report_block *slot, const char *fig_key, const char *caption,
                                 nr_report_svg *svg, nr_error *err)
{
    return nr_report_figure_fill_labelled(r, slot, fig_key, caption, NULL, svg, err);
}

/* Cleans sd's tree for figure number: ids prefixed f<number>-<key>-,
 * what could run or fetch dropped, its role and accessible name set; the
 * texts it keeps noted in seen. */
static void clean_figure(xmlDoc *sd, unsigned number, const char *fig_key, const char *caption, const char *label,
                         nr__report_seen *seen)
{
    xmlNode *root = xmlDocGetRootElement(sd);
    char prefix[64], clean_key[32];
    clean_fig_key(fig_key, clean_key, sizeof clean_key);
    snprintf(prefix, sizeof prefix, "f%u-%s-", number, clean_key);
    fix_attributes(root, prefix, seen);
    sanitize_tree(root->children, prefix, seen);
    strip_namespace(root);   /* last: the attributes above may still point at its xlink declaration */
    xmlSetProp(root, BAD_CAST "role", BAD_CAST "img");
    if (label || caption) {
        char clean[1024];
        nr_utf8_clean(label ? label : caption, clean, sizeof clean);
        nr__report_seen_note(seen, clean);
        xmlSetProp(root, BAD_CAST "aria-label", BAD_CAST clean);
    }
}

/* The figure's glyphs, styles and text groups into p, in that order (the
 * groups' bytes name the glyphs and styles), and its bytes: serialised
 * from the figure's own tree, no copy into the report's. The marks in the
 * bytes must be those written: another occurrence of the mark would be
 * replaced as one (nr__report_part_pick_mark says why there is none). */
static int part_of_figure(const nr_report *r, nr__report_part *p, xmlNode *root, nr_error *err)
{
    NR_TRY(nr__report_part_glyphs(p, root, err));
    NR_TRY(nr__report_part_styles(p, root->children, err));
    NR_TRY(nr__report_part_texts(r, p, root, err));
    nr__report_bytes b;
    if (nr__report_bytes_open(r, &b) < 0 || nr__report_bytes_of(r, &b, root) < 0) {
        nr__report_bytes_close(&b);
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    }
    xmlOutputBufferClose(b.out); /* flushed by nr__report_bytes_of: writes nothing more */
    p->bytes = b.p;
    p->len = b.len;
    if (nr__report_part_count_marks(p, p->bytes, p->len) + p->marks_in_groups != 2 * p->marks)
        return nr_error_set(err, NR_E_INPUT, "report: figure %u holds the import's mark %s in its text", p->number,
                            p->mark);
    return 0;
}

int nr_report_figure_part(const nr_report *r, unsigned number, const char *fig_key, const char *caption,
                          const char *label, nr_report_svg *svg, nr_report_part **part, nr_error *err)
{
    *part = NULL;
    xmlDoc *sd = (xmlDoc *)svg;
    nr__report_part *p = calloc(1, sizeof *p);
    if (!p) {
        xmlFreeDoc(sd);
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    }
    p->number = number;
    p->doc = sd;
    nr_strtab_init(&p->glyph_keys);
    nr_strtab_init(&p->styles);
    nr_strtab_init(&p->texts);
    nr__report_seen seen = {0};
    clean_figure(sd, number, fig_key, caption, label, &seen);
    int rc = nr__report_part_pick_mark(p, &seen, err);
    xmlNode *root = xmlDocGetRootElement(sd);
    if (rc == 0)
        rc = part_of_figure(r, p, root, err);
    xmlUnlinkNode(root); /* the part keeps the document for its glyphs only */
    xmlFreeNode(root);
    if (rc < 0) {
        nr__report_part_free(p);
        return rc;
    }
    *part = p;
    return 0;
}

void nr_report_part_free(nr_report_part *part) { nr__report_part_free(part); }

/* Merges p into r: the report's number of each of its glyphs, styles and
 * text groups, then its bytes with them into the spool. */
static int merge_part(nr_report *r, const nr__report_part *p, nr_error *err)
{
    const size_t ng = p->glyph_keys.count, ns = p->styles.count, nt = p->texts.count;
    int64_t *numbers = malloc((ng + ns + nt + 1) * sizeof *numbers);
    if (!numbers)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    nr__report_maps maps = {numbers, numbers + ng, numbers + ng + ns, ng, ns, nt};
    nr__report_bytes b = {0};
    int rc = nr__report_merge_glyphs(r, p, numbers, err);
    if (rc == 0)
        rc = nr__report_merge_styles(r, p, numbers + ng, err);
    if (rc == 0)
        rc = nr__report_merge_texts(r, p, &maps, numbers + ng + ns, err);
    if (rc == 0)
        rc = nr__report_part_unmark(p, p->bytes, p->len, &maps, &b, err);
    if (rc == 0)
        rc = nr__report_spool_figure_bytes(r, p->number, b.p, b.len, err);
    free(b.p);
    free(numbers);
    return rc;
}

int nr_report_figure_fill_part(nr_report *r, nr_report_part *part, nr_error *err)
{
    int rc = 0;
    if (part->number == 0 || part->number > r->figures)
        rc = nr_error_set(err, NR_E_INPUT, "report: figure number %u was not reserved", part->number);
    if (rc == 0)
        rc = merge_part(r, part, err);
    nr__report_part_free(part);
    return rc;
}

/* Imports sd (a parsed SVG document) as figure number: its part made
 * (nr_report_figure_part) and merged at once; frees sd. */
static int import_figure(nr_report *r, unsigned number, const char *fig_key, const char *caption, const char *label,
                         xmlDoc *sd, nr_error *err)
{
    nr_report_part *part;
    NR_TRY(nr_report_figure_part(r, number, fig_key, caption, label, (nr_report_svg *)sd, &part, err));
    return nr_report_figure_fill_part(r, part, err);
}

/* Figure number's mark, then its caption, in slot. */
static int place_figure(nr_report *r, xmlNode *slot, unsigned number, const char *caption, nr_error *err)
{
    xmlNode *mark = nr__report_figure_mark(r, number);
    if (!mark)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    xmlAddChild(slot, mark);
    if (caption) {
        xmlNode *cap = nr__report_child(slot, "figcaption", NULL);
        nr__report_add_text(cap, caption);
    }
    return 0;
}

int nr_report_figure_fill_labelled(nr_report *r, nr_report_block *slot, const char *fig_key, const char *caption,
                                   const char *label, nr_report_svg *svg, nr_error *err)
{
    const unsigned number = ++r->figures;
    NR_TRY(import_figure(r, number, fig_key, caption, label, (xmlDoc *)svg, err));
    return place_figure(r, (xmlNode *)slot, number, caption, err);
}

unsigned nr_report_figure_reserve(nr_report *r, nr_report_block *b, const char *fig_key, const char *caption,
                                  nr_error *err)
{
    nr_report_block *slot = nr_report_figure_slot(r, b, fig_key);
    if (!slot) {
        nr_error_set(err, NR_E_NOMEM, "figure %s: out of memory", fig_key);
        return 0;
    }
    const unsigned number = ++r->figures;
    return place_figure(r, (xmlNode *)slot, number, caption, err) < 0 ? 0 : number;
}

int nr_report_figure_fill_reserved(nr_report *r, unsigned number, const char *fig_key, const char *caption,
                                   const char *label, nr_report_svg *svg, nr_error *err)
{
    if (number == 0 || number > r->figures) {
        nr_report_svg_free(svg);
        return nr_error_set(err, NR_E_INPUT, "figure %s: number %u was not reserved", fig_key, number);
    }
    return import_figure(r, number, fig_key, caption, label, (xmlDoc *)svg, err);
}

int nr_report_figure_fill(nr_report *r, nr_report_block *slot, const char *fig_key, const char *caption,
                          const void *svg, size_t len, nr_error *err)
{
    nr_report_svg *parsed;
    NR_TRY(nr_report_svg_parse(svg, len, fig_key, &parsed, err));
    return nr_report_figure_fill_parsed(r, slot, fig_key, caption, parsed, err);
}

int nr_report_figure(nr_report *r, nr_report_block *b, const char *fig_key, const char *caption,
                     const void *svg, size_t len, nr_error *err)
{
    nr_report_block *slot = nr_report_figure_slot(r, b, fig_key);
    if (!slot)
        return nr_error_set(err, NR_E_NOMEM, "figure %s: out of memory", fig_key);
    int rc = nr_report_figure_fill(r, slot, fig_key, caption, svg, len, err);
    if (rc < 0) {
        xmlUnlinkNode((xmlNode *)slot);   /* as before the split: a figure that fails leaves nothing */
        xmlFreeNode((xmlNode *)slot);
    }
    return rc;
}
