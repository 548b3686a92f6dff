/* report_glyphs: one copy of each glyph outline for all the report's figures.
 * cairo defines every glyph an SVG draws as a <symbol> of outlines and draws
 * it with <use>; the same glyphs recur in every figure, and their definitions
 * were 62% of the bytes of a report of 100 runs (docs/report.md, "Glyphs are
 * shared"). Inline SVGs share the ids of the HTML document, so the report
 * keeps each distinct symbol once, in a hidden <svg> at the start of <body>,
 * and the figures' references point there. A figure's symbols are keyed
 * and numbered within it where it is loaded (nr__report_part_glyphs), the
 * report's numbers given in figure order (nr__report_merge_glyphs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "nr_mem.h"
#include "report_internal.h"

#define SHARED_ID_PREFIX "nr-g"

/* The symbols of a figure, and the figure's glyph each became. */
typedef struct figure_symbols {
    xmlNode **nodes;
    size_t n, cap;
    nr_strtab local_ids;   /* the figure's id of nodes[i] has id i */
    int64_t *glyph;        /* nodes[i] became the figure's glyph glyph[i] */
} figure_symbols;

static int is_element(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* Every <symbol> with an id below n, in document order (not those inside a symbol). */
static int collect_symbols(xmlNode *n, figure_symbols *s)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (is_element(n, "symbol") && xmlHasProp(n, BAD_CAST "id")) {
            if (NR_GROW(s->nodes, s->cap, s->n + 1) < 0)
                return -1;
            s->nodes[s->n++] = n;
        } else if (collect_symbols(n->children, s) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The hidden <svg> of shared glyphs, made at the first glyph: its <defs>. */
xmlNode *nr__report_glyph_defs(nr_report *r)
{
    if (r->glyph_defs)
        return r->glyph_defs;
    xmlNode *root = xmlDocGetRootElement(r->doc), *body = NULL;
    for (xmlNode *c = root ? root->children : NULL; c && !body; c = c->next)
        if (is_element(c, "body"))
            body = c;
    xmlNode *parent = body ? body : root;
    xmlNode *svg = xmlNewDocNode(r->doc, NULL, BAD_CAST "svg", NULL);
    if (!parent || !svg) {
        xmlFreeNode(svg);
        return NULL;
    }
    xmlSetProp(svg, BAD_CAST "data-nr-glyphs", BAD_CAST "");
    xmlSetProp(svg, BAD_CAST "aria-hidden", BAD_CAST "true");
    xmlSetProp(svg, BAD_CAST "width", BAD_CAST "0");
    xmlSetProp(svg, BAD_CAST "height", BAD_CAST "0");
    /* absolute: an inline box of no size still takes a line in the flow */
    xmlSetProp(svg, BAD_CAST "style", BAD_CAST "position:absolute");
    if (parent->children)
        xmlAddPrevSibling(parent->children, svg);
    else
        xmlAddChild(parent, svg);
    r->glyph_defs = xmlNewChild(svg, NULL, BAD_CAST "defs", NULL);
    return r->glyph_defs;
}

/* Appends s (NULL: absent) to key after its length in decimal, so that no
 * two sequences of fields run together. */
static int key_field(xmlBuffer *key, const xmlChar *s)
{
    char digits[24];
    size_t n = s ? (size_t)xmlStrlen(s) : 0, at = sizeof digits;
    digits[--at] = s ? ':' : '-';
    do
        digits[--at] = (char)('0' + n % 10);
    while ((n /= 10) > 0);
    if (xmlBufferAdd(key, (const xmlChar *)digits + at, (int)(sizeof digits - at)) != 0)
        return -1;
    return s && *s ? xmlBufferAdd(key, s, -1) : 0;
}

static int key_of_list(xmlBuffer *key, const xmlNode *n);

/* Appends node n and its subtree to key: its type, namespace prefix, name
 * and content (text and the like), its attributes and children in order. */
static int key_of_node(xmlBuffer *key, const xmlNode *n)
{
    const xmlChar type = (xmlChar)('A' + (int)n->type); /* the types are 1 to 21 */
    if (xmlBufferAdd(key, &type, 1) != 0 || key_field(key, n->ns ? n->ns->prefix : NULL) < 0 ||
        key_field(key, n->name) < 0)
        return -1;
    if (n->type != XML_ELEMENT_NODE)
        return key_field(key, n->content);
    for (const xmlAttr *a = n->properties; a; a = a->next)
        if (xmlBufferAdd(key, BAD_CAST "@", 1) != 0 || key_field(key, a->ns ? a->ns->prefix : NULL) < 0 ||
            key_field(key, a->name) < 0 || key_of_list(key, a->children) < 0)
            return -1;
    return xmlBufferAdd(key, BAD_CAST "(", 1) != 0 || key_of_list(key, n->children) < 0 ||
                   xmlBufferAdd(key, BAD_CAST ")", 1) != 0
               ? -1
               : 0;
}

static int key_of_list(xmlBuffer *key, const xmlNode *n)
{
    for (; n; n = n->next)
        if (key_of_node(key, n) < 0)
            return -1;
    return 0;
}

/* Symbol sym (its id already removed, unlinked) as a glyph of p: the
 * number of p's glyph of the same tree, sym itself when p has none (p
 * takes it; else it is freed). The key is the tree written field by field
 * (key_of_node): two symbols share it exactly when they have the same
 * names, attributes and contents, as their serialisations would be the
 * same; xmlNodeDump, which escaped every outline's path data on the way,
 * was 4.6% of a cached build of 300 runs (docs/performance.md, session
 * 33). */
static int64_t part_symbol(nr__report_part *p, xmlNode *sym, xmlBuffer *key, nr_error *err)
{
    xmlBufferEmpty(key);
    const size_t before = p->glyph_keys.count;
    if (key_of_node(key, sym) < 0 || NR_GROW(p->glyphs, p->cap_glyphs, before + 1) < 0) {
        xmlFreeNode(sym);
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory for a glyph's key");
    }
    const int64_t g = nr_strtab_intern(&p->glyph_keys, (const char *)xmlBufferContent(key),
                                       (size_t)xmlBufferLength(key));
    if (g >= 0 && p->glyph_keys.count > before)
        p->glyphs[g] = sym;
    else
        xmlFreeNode(sym);
    return g < 0 ? nr_error_set(err, (int)g, "report: out of memory") : g;
}

/* Points every href="#id" below n that names one of the figure's symbols at
 * its glyph's mark. */
static void point_at_glyphs(nr__report_part *p, xmlNode *n, const figure_symbols *s)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *href = xmlGetProp(n, BAD_CAST "href");
        if (href && href[0] == '#') {
            const char *id = (const char *)href + 1;
            const int64_t i = nr_strtab_find(&s->local_ids, id, strlen(id));
            if (i >= 0) {
                char ref[128];
                nr__report_part_name(p, "#" SHARED_ID_PREFIX, 'g', (size_t)s->glyph[i], ref, sizeof ref);
                xmlSetProp(n, BAD_CAST "href", BAD_CAST ref);
            }
        }
        xmlFree(href);
        point_at_glyphs(p, n->children, s);
    }
}

/* Whether n holds nothing but white space. */
static int is_blank(const xmlNode *n)
{
    for (const xmlNode *c = n->children; c; c = c->next)
        if (c->type != XML_TEXT_NODE || !xmlIsBlankNode(c))
            return 0;
    return 1;
}

/* Drops the <g> wrappers the symbols leave empty in <defs>, and their blanks. */
static void drop_empty_wrappers(xmlNode *n)
{
    while (n) {
        xmlNode *next = n->next;
        if (is_element(n, "defs") || is_element(n, "g")) {
            drop_empty_wrappers(n->children);
            if (is_element(n, "g") && is_blank(n) && n->parent && is_element(n->parent, "defs")) {
                xmlUnlinkNode(n);
                xmlFreeNode(n);
            }
        }
        n = next;
    }
}

/* Moves the symbols of s out of their figure into p's glyphs. */
static int move_symbols(nr__report_part *p, figure_symbols *s, nr_error *err)
{
    xmlBuffer *key = xmlBufferCreate();
    if (!key || !(s->glyph = malloc(s->n * sizeof *s->glyph))) {
        xmlBufferFree(key);
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    }
    int rc = 0;
    for (size_t i = 0; i < s->n; i++) {
        xmlNode *sym = s->nodes[i];
        xmlChar *id = xmlGetProp(sym, BAD_CAST "id");
        xmlUnsetProp(sym, BAD_CAST "id");
        xmlUnlinkNode(sym);
        const size_t known = s->local_ids.count;
        const int64_t local = id && rc == 0 ? nr_strtab_intern(&s->local_ids, (const char *)id, strlen((const char *)id))
                                            : -1;
        xmlFree(id);
        if (rc == 0 && local < 0)
            rc = nr_error_set(err, NR_E_NOMEM, "report: out of memory");
        if (rc == 0 && s->local_ids.count > known) { /* a repeated id names the first symbol, as in SVG */
            s->glyph[local] = part_symbol(p, sym, key, err);
            rc = s->glyph[local] < 0 ? (int)s->glyph[local] : 0;
        } else {
            xmlFreeNode(sym);
        }
    }
    xmlBufferFree(key);
    return rc;
}

int nr__report_part_glyphs(nr__report_part *p, xmlNode *svg, nr_error *err)
{
    figure_symbols s = {0};
    nr_strtab_init(&s.local_ids);
    int rc = collect_symbols(svg->children, &s) < 0 ? nr_error_set(err, NR_E_NOMEM, "report: out of memory") : 0;
    if (rc == 0 && s.n) {
        rc = move_symbols(p, &s, err);
        if (rc == 0) {
            point_at_glyphs(p, svg->children, &s);
            drop_empty_wrappers(svg->children);
        }
    }
    nr_strtab_fini(&s.local_ids);
    free(s.nodes);
    free(s.glyph);
    return rc;
}

/* The report's glyph of key key (len bytes), its copy made from sym when new. */
static int64_t share_glyph(nr_report *r, const char *key, size_t len, const xmlNode *sym, nr_error *err)
{
    const size_t before = r->glyph_keys.count;
    const int64_t g = nr_strtab_intern(&r->glyph_keys, key, len);
    if (g < 0)
        return nr_error_set(err, (int)g, "report: out of memory");
    if (r->glyph_keys.count == before)
        return g;
    xmlNode *defs = nr__report_glyph_defs(r);
    xmlNode *copy = defs ? xmlDocCopyNode((xmlNode *)sym, r->doc, 1) : NULL;
    if (!copy)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    char id[32];
    snprintf(id, sizeof id, SHARED_ID_PREFIX "%lld", (long long)g);
    xmlSetProp(copy, BAD_CAST "id", BAD_CAST id);
    xmlAddChild(defs, copy);
    return g;
}

int nr__report_merge_glyphs(nr_report *r, const nr__report_part *p, int64_t *glyphs, nr_error *err)
{
    for (size_t i = 0; i < p->glyph_keys.count; i++) {
        glyphs[i] = share_glyph(r, nr_strtab_str(&p->glyph_keys, i), nr_strtab_len(&p->glyph_keys, i), p->glyphs[i], err);
        if (glyphs[i] < 0)
            return (int)glyphs[i];
    }
    return 0;
}
