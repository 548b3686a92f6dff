/* report_texts: each distinct text group of the report's figures drawn once.
 * cairo draws a text as a <g> (its fill, by now class nr-sN) of one
 * <use href="#nr-gA" x=".." y=".."> per glyph. The same words stand at the
 * same place in every run's figures (axis titles, tick labels, legends):
 * of the 126 MB report of 800 runs, 54.6 MB were such groups, 49.2 MB of
 * them byte-identical repeats (docs/performance.md, session 51). At import
 * each figure's text group is serialised as the report would write it; a
 * group the report has not met yet is kept once, by those bytes, as
 * <g id="nr-tN"> (N counts the distinct groups in order of first use) in a
 * second <defs> of the hidden <svg> of the shared glyphs, and every group
 * becomes <use href="#nr-tN"> in its place (docs/report.md, "Text groups
 * are shared"). The groups are kept as bytes, not trees: their <defs> holds
 * a mark that the output replaces by them (report_out.c), since the runs
 * are written to the spool as they are filled. A figure's groups are
 * serialised, with marks for the numbers of glyphs and styles, where it is
 * loaded (nr__report_part_texts); their bytes with the report's numbers
 * are looked up in figure order (nr__report_merge_texts). */
#include <stdio.h>
#include <string.h>

#include <libxml/tree.h>

#include "report_internal.h"

static int is_element(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* Whether use names a shared glyph and holds nothing. */
static int draws_a_glyph(const xmlNode *use)
{
    if (!is_element(use, "use") || use->children || xmlHasProp(use, BAD_CAST "id"))
        return 0;
    xmlChar *href = xmlGetProp(use, BAD_CAST "href");
    const int ok = href && strncmp((const char *)href, "#nr-g", 5) == 0;
    xmlFree(href);
    return ok;
}

/* Whether g is a text group: a <g> without id (nothing names it) holding
 * one or more glyph <use>s and nothing else but white space. Its bytes
 * then mean the same in any figure: coordinates in the figure's user
 * space, which a <use> without x, y or transform keeps, and references to
 * the report's shared glyphs and styles only. */
static int is_text_group(const xmlNode *g)
{
    if (!is_element(g, "g") || xmlHasProp(g, BAD_CAST "id"))
        return 0;
    int glyphs = 0;
    for (const xmlNode *c = g->children; c; c = c->next) {
        if (c->type == XML_TEXT_NODE && xmlIsBlankNode(c))
            continue;
        if (!draws_a_glyph(c))
            return 0;
        glyphs++;
    }
    return glyphs > 0;
}

/* The <defs> of the shared text groups, after the glyphs' in the hidden
 * <svg>, made at the first group: it holds the mark the output replaces. */
static xmlNode *text_defs(nr_report *r)
{
    if (r->text_defs)
        return r->text_defs;
    xmlNode *glyphs = nr__report_glyph_defs(r);
    xmlNode *defs = glyphs ? xmlNewDocNode(r->doc, NULL, BAD_CAST "defs", NULL) : NULL;
    xmlNode *mark = defs ? nr__report_texts_mark(r) : NULL;
    if (!mark) {
        xmlFreeNode(defs);
        return NULL;
    }
    xmlAddChild(defs, mark);
    xmlAddNextSibling(glyphs, defs);
    return r->text_defs = defs;
}

/* Replaces text group g by a <use> of the mark of p's group of its bytes. */
static int part_group(const nr_report *r, nr__report_part *p, xmlNode *g, nr__report_bytes *b, nr_error *err)
{
    if (nr__report_bytes_of(r, b, g) < 0)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory for a text group's bytes");
    p->marks_in_groups += nr__report_part_count_marks(p, b->p, b->len);
    const int64_t t = nr_strtab_intern(&p->texts, b->p, b->len);
    if (t < 0)
        return nr_error_set(err, (int)t, "report: out of memory");
    char ref[128];
    nr__report_part_name(p, "#" NR__REPORT_TEXT_ID_PREFIX, 't', (size_t)t, ref, sizeof ref);
    xmlNode *use = xmlNewDocNode(g->doc, NULL, BAD_CAST "use", NULL);
    if (!use || !xmlSetProp(use, BAD_CAST "href", BAD_CAST ref)) {
        xmlFreeNode(use);
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    }
    xmlReplaceNode(g, use);
    xmlFreeNode(g);
    return 0;
}

/* Replaces the text groups at or after n (and below). Not inside a
 * <clipPath>, whose <use>s may name shapes and text only. */
static int part_below(const nr_report *r, nr__report_part *p, xmlNode *n, nr__report_bytes *b, nr_error *err)
{
    while (n) {
        xmlNode *next = n->next;
        if (n->type == XML_ELEMENT_NODE && !is_element(n, "clipPath"))
            NR_TRY(is_text_group(n) ? part_group(r, p, n, b, err) : part_below(r, p, n->children, b, err));
        n = next;
    }
    return 0;
}

int nr__report_part_texts(const nr_report *r, nr__report_part *p, xmlNode *svg, nr_error *err)
{
    nr__report_bytes b = {0};
    if (nr__report_bytes_open(r, &b) < 0)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    const int rc = part_below(r, p, svg->children, &b, err);
    nr__report_bytes_close(&b);
    return rc;
}

int nr__report_merge_texts(nr_report *r, const nr__report_part *p, const nr__report_maps *maps, int64_t *texts,
                           nr_error *err)
{
    nr__report_bytes b = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < p->texts.count; i++) {
        rc = nr__report_part_unmark(p, nr_strtab_str(&p->texts, i), nr_strtab_len(&p->texts, i), maps, &b, err);
        const size_t before = r->text_keys.count;
        texts[i] = rc < 0 ? rc : nr_strtab_intern(&r->text_keys, b.p, b.len);
        if (rc == 0 && texts[i] < 0)
            rc = nr_error_set(err, (int)texts[i], "report: out of memory");
        if (rc == 0 && r->text_keys.count > before && !text_defs(r))
            rc = nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    }
    free(b.p);
    return rc;
}
