/* Report engine tests with fixed data: hostile strings stay text, figure ids
 * are unique and their references resolve, nothing external is referenced,
 * the output parses as HTML, the number formats give known answers. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <fontconfig/fontconfig.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "report.h"
#include "report_internal.h"

#define HOSTILE_SCRIPT "<script>alert(1)</script>"
#define HOSTILE_QUOTES "a&b\"c'"
#define HOSTILE_BYTES "data/\xff\xfe-\x01.bin"

static cairo_status_t append_png(void *closure, const unsigned char *data, unsigned int len)
{
    char **buf = closure;
    size_t old = *buf ? strlen(*buf) : 0;
    char *p = realloc(*buf, old + len + 1);
    if (!p)
        return CAIRO_STATUS_NO_MEMORY;
    memcpy(p + old, data, len);
    p[old + len] = '\0';
    *buf = p;
    return CAIRO_STATUS_SUCCESS;
}

/* A real cairo SVG with glyph symbols, a clip path and text: the ids that clash between figures. */
static char *cairo_svg(const char *label)
{
    char *buf = NULL;
    cairo_surface_t *s = cairo_svg_surface_create_for_stream(append_png, &buf, 200, 100);
    cairo_t *cr = cairo_create(s);
    cairo_rectangle(cr, 10, 10, 150, 60);
    cairo_clip(cr);
    cairo_set_source_rgb(cr, 0, 0.45, 0.7);
    cairo_rectangle(cr, 0, 0, 120, 80);
    cairo_fill(cr);
    cairo_reset_clip(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, 20, 50);
    cairo_set_font_size(cr, 14);
    cairo_show_text(cr, label);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    cairo_surface_destroy(s);
    return buf;
}

static char *serialize(nr_report *r)
{
    char *html;
    size_t len;
    nr_error err;
    assert_int_equal(nr_report_serialize(r, &html, &len, &err), 0);
    assert_int_equal(strlen(html), len);
    return html;
}

/* The report of one run whose phases section holds the n figures svgs
 * (fig1, caption "x"), serialised. */
static char *figures_report(const char *const *svgs, size_t n)
{
    nr_report *r;
    nr_error err;
    assert_int_equal(nr_report_create_default(&r, &err), 0);
    nr_report_block *run = nr_report_add_run(r, "one", NULL);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(nr_report_figure(r, nr_report_run_section(run, NR_SEC_PHASES), "fig1", "x", svgs[i],
                                          strlen(svgs[i]), &err), 0);
    char *html = serialize(r);
    nr_report_destroy(r);
    return html;
}

static size_t count_of(const char *hay, const char *needle);

static xmlDoc *parse_html(const char *html)
{
    xmlDoc *d = htmlReadMemory(html, (int)strlen(html), "out.html", "UTF-8", HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
    assert_non_null(d);
    return d;
}

/* 1 when some text node below n equals text exactly. */
static int has_text(const xmlNode *n, const char *text)
{
    for (; n; n = n->next) {
        if (n->type == XML_TEXT_NODE && n->content && strcmp((const char *)n->content, text) == 0)
            return 1;
        if (has_text(n->children, text))
            return 1;
    }
    return 0;
}

static size_t count_elements(const xmlNode *n, const char *name)
{
    size_t c = 0;
    for (; n; n = n->next) {
        if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0)
            c++;
        c += count_elements(n->children, name);
    }
    return c;
}

static void test_hostile_strings_stay_text(void **state)
{
    (void)state;
    nr_report *r;
    nr_error err;
    assert_int_equal(nr_report_create_default(&r, &err), 0);
    nr_report_set_title(r, HOSTILE_SCRIPT);
    nr_report_block *run = nr_report_add_run(r, HOSTILE_SCRIPT, HOSTILE_SCRIPT);
    assert_non_null(run);
    nr_report_block *facts = nr_report_run_section(run, NR_SEC_FACTS);
    const char *headers[] = {"file", "bytes"};
    nr_report_table *t = nr_report_table_new(facts, HOSTILE_QUOTES, 2, headers, 2);
    nr_report_table_row(t);
    nr_report_table_cell_path(t, HOSTILE_SCRIPT);
    nr_report_table_cell_key(t, "1 KiB", "totals.<b>", 1024);
    nr_report_table_row(t);
    nr_report_table_cell_path(t, HOSTILE_QUOTES);
    nr_report_table_cell(t, HOSTILE_BYTES);
    nr_report_finding(nr_report_run_section(run, NR_SEC_FINDINGS), "x\"y", HOSTILE_SCRIPT, HOSTILE_QUOTES);
    char *html = serialize(r);
    assert_null(strstr(html, "<script"));
    assert_null(strstr(html, "<b>"));
    assert_non_null(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_non_null(strstr(html, "a&amp;b"));
    assert_true(strncmp(html, "<!DOCTYPE html>", 15) == 0);
    xmlDoc *d = parse_html(html);
    xmlNode *root = xmlDocGetRootElement(d);
    assert_true(has_text(root, HOSTILE_SCRIPT));          /* round trip: the same text */
    assert_true(has_text(root, HOSTILE_QUOTES));
    assert_true(has_text(root, "data/\\xFF\\xFE-\\x01.bin")); /* non-UTF-8 and control bytes shown as \xNN */
    assert_int_equal(count_elements(root, "script"), 0);
    assert_int_equal(count_elements(root, "article"), 1);
    assert_int_equal(count_elements(root, "b"), 0);
    xmlFreeDoc(d);
    free(html);
    nr_report_destroy(r);
}

static void collect_ids(const xmlNode *n, char ***ids, size_t *nids)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *id = xmlGetProp(n, BAD_CAST "id");
        if (id) {
            *ids = realloc(*ids, (*nids + 1) * sizeof **ids);
            (*ids)[(*nids)++] = strdup((const char *)id);
            xmlFree(id);
        }
        collect_ids(n->children, ids, nids);
    }
}

static int id_known(char **ids, size_t nids, const char *id, size_t len)
{
    for (size_t i = 0; i < nids; i++)
        if (strlen(ids[i]) == len && strncmp(ids[i], id, len) == 0)
            return 1;
    return 0;
}

/* Every href="#x" and url(#x) names an id of the document; counts them. */
static size_t check_refs(const xmlNode *n, char **ids, size_t nids)
{
    size_t refs = 0;
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        for (const xmlAttr *a = n->properties; a; a = a->next) {
            xmlChar *v = xmlNodeListGetString(n->doc, a->children, 1);
            const char *s = v ? (const char *)v : "";
            if (strcmp((const char *)a->name, "href") == 0 && s[0] == '#') {
                if (!id_known(ids, nids, s + 1, strlen(s + 1)))
                    fail_msg("href %s names no id (of %zu)", s, nids);
                refs++;
            }
            for (const char *u = strstr(s, "url(#"); u; u = strstr(u + 1, "url(#")) {
                const char *end = strchr(u, ')');
                assert_non_null(end);
                if (!id_known(ids, nids, u + 5, (size_t)(end - u - 5)))
                    fail_msg("%s names no id", u);
                refs++;
            }
            xmlFree(v);
        }
        refs += check_refs(n->children, ids, nids);
    }
    return refs;
}

static void test_figure_ids_unique(void **state)
{
    (void)state;
    nr_report *r;
    nr_error err;
    assert_int_equal(nr_report_create_default(&r, &err), 0);
    char *svg1 = cairo_svg("Lorenz curve");
    char *svg2 = cairo_svg("Lorenz curve");
    assert_non_null(strstr(svg1, "id=\"glyph"));   /* the clash is real: same ids in both */
    for (int i = 0; i < 2; i++) {
        char name[16];
        snprintf(name, sizeof name, "run%d", i);
        nr_report_block *run = nr_report_add_run(r, name, name);
        nr_report_block *pair = nr_report_pair(nr_report_run_section(run, NR_SEC_CONCENTRATION));
        nr_report_table_new(nr_report_pair_numbers(pair), "numbers", 1, NULL, 1);
        assert_int_equal(nr_report_figure(r, pair, "fig2", "Lorenz", i ? svg2 : svg1, strlen(i ? svg2 : svg1), &err), 0);
    }
    char *html = serialize(r);
    if (getenv("NR_DUMP_HTML"))
        fputs(html, stderr);
    assert_null(strstr(html, "<?xml"));
    xmlDoc *d = parse_html(html);
    xmlNode *root = xmlDocGetRootElement(d);
    assert_int_equal(count_elements(root, "svg"), 3);   /* two figures and the shared glyphs */
    char **ids = NULL;
    size_t nids = 0;
    collect_ids(root, &ids, &nids);
    assert_true(nids > 4);
    for (size_t i = 0; i < nids; i++)
        for (size_t j = i + 1; j < nids; j++)
            if (strcmp(ids[i], ids[j]) == 0)
                fail_msg("duplicate id %s", ids[i]);
    assert_true(check_refs(root, ids, nids) >= 4);
    for (size_t i = 0; i < nids; i++)
        free(ids[i]);
    free(ids);
    xmlFreeDoc(d);
    free(html);
    free(svg1);
    free(svg2);
    nr_report_destroy(r);
}

/* The first element named name at or below n (depth first), or NULL. */
static xmlNode *find_element(xmlNode *n, const char *name)
{
    for (; n; n = n->next) {
        if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0)
            return n;
        xmlNode *inner = find_element(n->children, name);
        if (inner)
            return inner;
    }
    return NULL;
}

/* The element below n whose id is id, or NULL. */
static xmlNode *find_id(xmlNode *n, const char *id)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *v = xmlGetProp(n, BAD_CAST "id");
        const int hit = v && strcmp((const char *)v, id) == 0;
        xmlFree(v);
        if (hit)
            return n;
        xmlNode *inner = find_id(n->children, id);
        if (inner)
            return inner;
    }
    return NULL;
}

/* What the <use> elements below n draw, in order, as text: each one's x, y
 * and the d of the <path> of the symbol it names (looked up in doc_root),
 * one line each. A <use> of a shared text group (a <g>, no x, y or
 * transform of its own) draws what the group's <use>s draw. */
static void glyphs_drawn(xmlNode *n, xmlNode *doc_root, char **out, size_t *len)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (strcmp((const char *)n->name, "use") == 0) {
            xmlChar *href = xmlGetProp(n, BAD_CAST "href");
            xmlChar *x = xmlGetProp(n, BAD_CAST "x"), *y = xmlGetProp(n, BAD_CAST "y");
            assert_non_null(href);
            xmlNode *sym = find_id(doc_root, (const char *)href + 1);
            assert_non_null(sym);
            if (strcmp((const char *)sym->name, "g") == 0) {
                assert_null(x);
                assert_null(y);
                assert_null(xmlHasProp(n, BAD_CAST "transform"));
                assert_true(strncmp((const char *)href, "#nr-t", 5) == 0);
                glyphs_drawn(sym->children, doc_root, out, len);
                xmlFree(href);
                continue;
            }
            assert_string_equal((const char *)sym->name, "symbol");
            xmlNode *path = find_element(sym->children, "path");
            xmlChar *d = path ? xmlGetProp(path, BAD_CAST "d") : NULL;
            char line[4096];
            int k = snprintf(line, sizeof line, "%s %s %s\n", (const char *)x, (const char *)y, d ? (const char *)d : "-");
            *out = realloc(*out, *len + (size_t)k + 1);
            memcpy(*out + *len, line, (size_t)k + 1);
            *len += (size_t)k;
            xmlFree(href), xmlFree(x), xmlFree(y), xmlFree(d);
        }
        glyphs_drawn(n->children, doc_root, out, len);
    }
}

/* cairo's SVG with xlink:href read as an XML document (the uses name their
 * symbols through xlink:href there: copied to href for glyphs_drawn). */
static xmlDoc *parse_svg(const char *svg)
{
    xmlDoc *d = xmlReadMemory(svg, (int)strlen(svg), "in.svg", NULL, XML_PARSE_NONET);
    assert_non_null(d);
    return d;
}

static void xlink_to_href(xmlNode *n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *v = xmlGetNsProp(n, BAD_CAST "href", BAD_CAST "http://www.w3.org/1999/xlink");
        if (v)
            xmlSetProp(n, BAD_CAST "href", v);
        xmlFree(v);
        xlink_to_href(n->children);
    }
}

/* The distinct d of the glyph paths of the svgs, counted by hand. */
static size_t distinct_glyph_outlines(char *const *svgs, size_t n)
{
    char *seen[512];
    size_t nseen = 0;
    for (size_t i = 0; i < n; i++) {
        xmlDoc *d = parse_svg(svgs[i]);
        for (xmlNode *sym = find_element(xmlDocGetRootElement(d), "symbol"); sym; sym = sym->next) {
            if (sym->type != XML_ELEMENT_NODE)
                continue;
            xmlNode *path = find_element(sym->children, "path");
            xmlChar *dv = path ? xmlGetProp(path, BAD_CAST "d") : xmlStrdup(BAD_CAST "");
            size_t k = 0;
            while (k < nseen && strcmp(seen[k], (const char *)dv) != 0)
                k++;
            if (k == nseen && nseen < 512)
                seen[nseen++] = strdup((const char *)dv);
            xmlFree(dv);
        }
        xmlFreeDoc(d);
    }
    for (size_t k = 0; k < nseen; k++)
        free(seen[k]);
    return nseen;
}

/* Figures that draw the same glyphs share one copy of each: the report holds
 * one <symbol> per distinct outline, in one hidden <svg> first in <body>,
 * none inside the figures, and every figure draws the same outlines at the
 * same places as the SVG it was given. */
static void test_glyphs_shared(void **state)
{
    (void)state;
    char *svgs[3] = {cairo_svg("Lorenz curve"), cairo_svg("Lorenz curve"), cairo_svg("tail 99.9%")};
    char *html = figures_report((const char *const *)svgs, 3);
    xmlDoc *d = parse_html(html);
    xmlNode *root = xmlDocGetRootElement(d);
    xmlNode *body = find_element(root, "body");
    assert_non_null(body);
    xmlNode *sprite = xmlFirstElementChild(body);
    assert_non_null(sprite);
    assert_string_equal((const char *)sprite->name, "svg");
    assert_true(xmlHasProp(sprite, BAD_CAST "data-nr-glyphs") != NULL);
    const size_t symbols = count_elements(sprite, "symbol");
    assert_int_equal(symbols, distinct_glyph_outlines(svgs, 3));
    assert_true(symbols > 10);
    assert_int_equal(count_elements(root, "symbol"), symbols);   /* none left in the figures */
    char **ids = NULL;
    size_t nids = 0;
    collect_ids(root, &ids, &nids);
    for (size_t i = 0; i < nids; i++)
        for (size_t j = i + 1; j < nids; j++)
            if (strcmp(ids[i], ids[j]) == 0)
                fail_msg("duplicate id %s", ids[i]);
    size_t fig = 0;
    for (xmlNode *f = find_element(root, "figure"); f; f = xmlNextElementSibling(f), fig++) {
        xmlDoc *in = parse_svg(svgs[fig]);
        xlink_to_href(xmlDocGetRootElement(in));
        char *want = NULL, *got = NULL;
        size_t nwant = 0, ngot = 0;
        glyphs_drawn(xmlDocGetRootElement(in), xmlDocGetRootElement(in), &want, &nwant);
        glyphs_drawn(f->children, root, &got, &ngot);
        assert_non_null(want);
        assert_string_equal(got, want);
        free(want);
        free(got);
        xmlFreeDoc(in);
    }
    assert_int_equal(fig, 3);
    for (size_t i = 0; i < nids; i++)
        free(ids[i]);
    free(ids);
    xmlFreeDoc(d);
    free(html);
    for (int i = 0; i < 3; i++)
        free(svgs[i]);
}

/* A real cairo SVG of two texts: a at (20, ya), b at (20, yb) in red when
 * b_red, else black (as axis titles and tick labels are drawn). */
static char *cairo_two_texts(const char *a, double ya, const char *b, double yb, int b_red)
{
    char *buf = NULL;
    cairo_surface_t *s = cairo_svg_surface_create_for_stream(append_png, &buf, 200, 100);
    cairo_t *cr = cairo_create(s);
    cairo_set_font_size(cr, 14);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, 20, ya);
    cairo_show_text(cr, a);
    cairo_set_source_rgb(cr, b_red ? 0.8 : 0, 0, 0);
    cairo_move_to(cr, 20, yb);
    cairo_show_text(cr, b);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    cairo_surface_destroy(s);
    return buf;
}

static void add_line(char **s, size_t *len, const char *a, const char *b, const char *c)
{
    const size_t k = strlen(a) + strlen(b) + strlen(c) + 3;
    *s = realloc(*s, *len + k + 1);
    *len += (size_t)snprintf(*s + *len, k + 1, "%s %s %s;", a, b, c);
}

/* Whether g is a <g> of <use>s of glyphs only (white space aside): a text group. */
static int is_glyph_group(const xmlNode *g)
{
    if (g->type != XML_ELEMENT_NODE || strcmp((const char *)g->name, "g") != 0 || !xmlFirstElementChild((xmlNode *)g))
        return 0;
    for (const xmlNode *c = g->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *href = xmlGetProp(c, BAD_CAST "href");
        const int glyph = strcmp((const char *)c->name, "use") == 0 && href && strncmp((const char *)href, "#nr-t", 5) != 0;
        xmlFree(href);
        if (!glyph)
            return 0;
    }
    return 1;
}

/* The text one text group draws, as one string: its style, then each
 * glyph's x, y and outline (the d of the symbol's path, found in
 * doc_root). */
static char *group_drawn(const xmlNode *g, const char *style, xmlNode *doc_root)
{
    char *line = NULL;
    size_t len = 0;
    add_line(&line, &len, "style", style, "");
    for (xmlNode *u = xmlFirstElementChild((xmlNode *)g); u; u = xmlNextElementSibling(u)) {
        xmlChar *href = xmlGetProp(u, BAD_CAST "href"), *x = xmlGetProp(u, BAD_CAST "x"),
                *y = xmlGetProp(u, BAD_CAST "y");
        assert_non_null(href);
        xmlNode *sym = find_id(doc_root, (const char *)href + 1);
        assert_non_null(sym);
        assert_string_equal((const char *)sym->name, "symbol");
        xmlNode *path = find_element(sym->children, "path");
        xmlChar *d = path ? xmlGetProp(path, BAD_CAST "d") : xmlStrdup(BAD_CAST "-");
        add_line(&line, &len, (const char *)x, (const char *)y, (const char *)d);
        xmlFree(href), xmlFree(x), xmlFree(y), xmlFree(d);
    }
    return line;
}

/* The texts drawn below n, in order, one string each (group_drawn), into
 * texts[*ntexts]. In cairo's SVG (in): each text group, its style inline.
 * In the report: each <use> of a shared group (none may be left in
 * place), its style the rule of its class in html. */
static void texts_drawn(xmlNode *n, xmlNode *doc_root, const char *html, char ***texts, size_t *ntexts)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        char *drawn = NULL;
        if (!html && is_glyph_group(n)) {
            xmlChar *style = xmlGetProp(n, BAD_CAST "style");
            assert_non_null(style);
            drawn = group_drawn(n, (const char *)style, doc_root);
            xmlFree(style);
        } else if (html && is_glyph_group(n)) {
            fail_msg("a text group left in a figure");
        } else if (html && strcmp((const char *)n->name, "use") == 0) {
            xmlChar *href = xmlGetProp(n, BAD_CAST "href");
            xmlNode *g = href && strncmp((const char *)href, "#nr-t", 5) == 0 ? find_id(doc_root, (const char *)href + 1) : NULL;
            xmlFree(href);
            if (g) {
                assert_true(is_glyph_group(g));
                assert_null(xmlHasProp(n, BAD_CAST "x"));
                assert_null(xmlHasProp(n, BAD_CAST "y"));
                assert_null(xmlHasProp(n, BAD_CAST "transform"));
                assert_null(xmlHasProp(n, BAD_CAST "class"));
                xmlChar *cls = xmlGetProp(g, BAD_CAST "class");
                assert_non_null(cls);
                assert_null(xmlHasProp(g, BAD_CAST "style"));
                char rule[64];
                snprintf(rule, sizeof rule, "\n.%s{", (const char *)cls);
                const char *at = strstr(html, rule);
                assert_non_null(at);
                at += strlen(rule);
                char *style = strndup(at, (size_t)(strchr(at, '}') - at));
                drawn = group_drawn(g, style, doc_root);
                free(style);
                xmlFree(cls);
            }
        }
        if (drawn) {
            *texts = realloc(*texts, (*ntexts + 1) * sizeof **texts);
            (*texts)[(*ntexts)++] = drawn;
            continue;
        }
        texts_drawn(n->children, doc_root, html, texts, ntexts);
    }
}

static void free_strings(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Text drawn again elsewhere is drawn once: each distinct text group of the
 * figures (the same bytes: style, glyphs and places; counted here by what
 * they draw) is one <g id="nr-tN"> in the second <defs> of the hidden
 * <svg>, N in order of first use, and every figure draws it with
 * <use href="#nr-tN">: each figure draws the same texts, in the same
 * style, as the SVG it was given. */
static void test_texts_shared(void **state)
{
    (void)state;
    enum { FIGS = 4 };
    char *svgs[FIGS] = {
        cairo_two_texts("Lorenz curve", 50, "bytes", 80, 0),
        cairo_two_texts("Lorenz curve", 50, "bytes", 80, 1),   /* the second in another colour */
        cairo_two_texts("tail", 50, "Lorenz curve", 80, 0),    /* at another place */
        cairo_two_texts("Lorenz curve", 50, "bytes", 80, 0),   /* the first again */
    };
    char *html = figures_report((const char *const *)svgs, FIGS);
    if (getenv("NR_DUMP_HTML"))
        fputs(html, stderr);
    xmlDoc *d = parse_html(html);
    xmlNode *root = xmlDocGetRootElement(d);
    xmlNode *sprite = xmlFirstElementChild(find_element(root, "body"));
    assert_true(xmlHasProp(sprite, BAD_CAST "data-nr-glyphs") != NULL);
    xmlNode *glyph_defs = xmlFirstElementChild(sprite), *text_defs = xmlNextElementSibling(glyph_defs);
    assert_non_null(text_defs);
    assert_string_equal((const char *)text_defs->name, "defs");
    assert_int_equal(count_elements(glyph_defs->children, "g"), 0);

    /* by hand: the distinct texts the inputs draw */
    char **want_all = NULL, **distinct = NULL;
    size_t nwant_all = 0, ndistinct = 0;
    for (int f = 0; f < FIGS; f++) {
        xmlDoc *in = parse_svg(svgs[f]);
        xlink_to_href(xmlDocGetRootElement(in));
        texts_drawn(xmlDocGetRootElement(in), xmlDocGetRootElement(in), NULL, &want_all, &nwant_all);
        xmlFreeDoc(in);
    }
    assert_int_equal(nwant_all, 2 * FIGS);
    for (size_t i = 0; i < nwant_all; i++) {
        size_t k = 0;
        while (k < ndistinct && strcmp(distinct[k], want_all[i]) != 0)
            k++;
        if (k == ndistinct) {
            distinct = realloc(distinct, (ndistinct + 1) * sizeof *distinct);
            distinct[ndistinct++] = want_all[i];
        }
    }
    assert_int_equal(ndistinct, 5);
    /* one <g id="nr-tN"> per distinct text, N = 0, 1, ... */
    size_t n = 0;
    for (xmlNode *g = xmlFirstElementChild(text_defs); g; g = xmlNextElementSibling(g), n++) {
        char id[32];
        snprintf(id, sizeof id, "nr-t%zu", n);
        xmlChar *v = xmlGetProp(g, BAD_CAST "id");
        assert_string_equal((const char *)v, id);
        xmlFree(v);
        assert_true(is_glyph_group(g));
    }
    assert_int_equal(n, ndistinct);
    assert_int_equal(count_of(html, "<use href=\"#nr-t"), nwant_all);
    assert_int_equal(count_of(html, "<g id=\"nr-t"), ndistinct);
    /* each figure draws what its SVG draws; the ids in order of first use */
    size_t fig = 0, at = 0, next_new = 0;
    for (xmlNode *f = find_element(root, "figure"); f; f = xmlNextElementSibling(f), fig++) {
        char **got = NULL;
        size_t ngot = 0;
        texts_drawn(f->children, root, html, &got, &ngot);
        assert_int_equal(ngot, 2);
        for (size_t i = 0; i < ngot; i++, at++) {
            assert_string_equal(got[i], want_all[at]);
            size_t k = 0;
            while (strcmp(distinct[k], want_all[at]) != 0)
                k++;
            if (k == next_new)
                next_new++;
            assert_true(k < next_new);
        }
        free_strings(got, ngot);
    }
    assert_int_equal(fig, FIGS);
    const char *first = strstr(html, "<use href=\"#nr-t");
    for (size_t k = 0; k < ndistinct; k++) {   /* each id first used in order */
        char ref[48];
        snprintf(ref, sizeof ref, "<use href=\"#nr-t%zu\"", k);
        const char *use = strstr(html, ref);
        assert_non_null(use);
        assert_true(use >= first);
        first = use;
    }
    char **ids = NULL;
    size_t nids = 0;
    collect_ids(root, &ids, &nids);
    assert_true(check_refs(root, ids, nids) > nwant_all);
    free_strings(ids, nids);
    free(distinct);
    free_strings(want_all, nwant_all);
    xmlFreeDoc(d);
    free(html);
    for (int i = 0; i < FIGS; i++)
        free(svgs[i]);
}

/* Only text groups are shared: a <g> with an id (something may name it),
 * one that holds more than glyphs, one that names no shared glyph and one
 * inside a <clipPath> stay in place; a report without text has no <defs>
 * for them, and a template's comment that reads as their mark fails. */
static void test_text_groups_only(void **state)
{
    (void)state;
    static const char svg[] =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" viewBox=\"0 0 9 9\">"
        "<defs><g><symbol overflow=\"visible\" id=\"glyph0-1\"><path style=\"stroke:none;\" d=\"M 0 0 L 5 -7 Z\"/>"
        "</symbol></g><clipPath id=\"c\"><g><use xlink:href=\"#glyph0-1\" x=\"1\" y=\"2\"/></g></clipPath></defs>"
        "<g id=\"named\" style=\"fill:red\"><use xlink:href=\"#glyph0-1\" x=\"1\" y=\"2\"/></g>"
        "<g style=\"fill:red\"><use xlink:href=\"#glyph0-1\" x=\"1\" y=\"2\"/><path d=\"M 0 0 L 1 1\"/></g>"
        "<g style=\"fill:red\"><use xlink:href=\"#c\" x=\"1\" y=\"2\"/></g>"
        "<g style=\"fill:red\">\n<use xlink:href=\"#glyph0-1\" x=\"1\" y=\"2\"/>\n</g></svg>";
    const char *svgs[] = {svg, svg};
    char *html = figures_report(svgs, 2);
    assert_int_equal(count_of(html, "<g id=\"nr-t"), 1);
    assert_non_null(strstr(html, "<defs><g id=\"nr-t0\" class=\"nr-s0\">\n<use href=\"#nr-g0\" x=\"1\" y=\"2\"></use>\n"
                                 "</g></defs></svg>"));
    assert_int_equal(count_of(html, "<use href=\"#nr-t0\"></use></svg>"), 2);   /* the last group of each */
    assert_int_equal(count_of(html, "<g id=\"f1-fig1-named\""), 1);
    assert_int_equal(count_of(html, "<g class=\"nr-s0\"><use href=\"#nr-g0\" x=\"1\" y=\"2\"></use><path"), 2);
    assert_int_equal(count_of(html, "<g class=\"nr-s0\"><use href=\"#f1-fig1-c\""), 1);
    assert_int_equal(count_of(html, "<clipPath id=\"f2-fig1-c\"><g><use href=\"#nr-g0\""), 1);
    free(html);

    static const char bare[] = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 9 9\"><path d=\"M 0 0\"/></svg>";
    const char *no_text[] = {bare};
    html = figures_report(no_text, 1);
    assert_null(strstr(html, "<defs"));
    assert_null(strstr(html, "nr-texts"));
    free(html);

    static const char tmpl[] = "<!DOCTYPE html><html><head><style data-nr=\"css\"></style></head><body>"
                               "<p><!--nr-texts--></p><section data-nr=\"overview\"></section>"
                               "<main data-nr=\"runs\"><article data-nr=\"run-template\">"
                               "<section data-nr=\"run-facts\"></section><section data-nr=\"phases\"></section>"
                               "<section data-nr=\"concentration\"></section><section data-nr=\"latency\"></section>"
                               "<section data-nr=\"timeline\"></section><section data-nr=\"access\"></section>"
                               "<section data-nr=\"findings\"></section></article></main></body></html>";
    for (int with_text = 0; with_text < 2; with_text++) {
        nr_report *r;
        nr_error err;
        assert_int_equal(nr_report_create(tmpl, strlen(tmpl), "", 0, &r, &err), 0);
        nr_report_block *run = nr_report_add_run(r, "one", NULL);
        const char *fig = with_text ? svg : bare;
        assert_int_equal(nr_report_figure(r, nr_report_run_section(run, NR_SEC_PHASES), "fig1", "x", fig,
                                          strlen(fig), &err), 0);
        char *out = NULL;
        size_t len = 0;
        assert_int_equal(nr_report_serialize(r, &out, &len, &err), NR_E_INPUT);   /* the template's comment first */
        assert_non_null(strstr(err.msg, "text groups"));
        assert_null(out);
        nr_report_destroy(r);
    }
}

/* Each distinct style of the figures becomes one rule of the style sheet,
 * in order of first use, and the elements name it by class (beside a class
 * they had); a style that could break out of the <style> element or change
 * a rule's meaning stays inline. */
static void test_styles_shared(void **state)
{
    (void)state;
    static const char *const svgs[] = {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 9 9\"><path id=\"a\" style=\"fill:none;stroke:red\"/>"
        "<g id=\"b\" style=\"fill:blue\"><path id=\"c\" class=\"k\" style=\"stroke:red\"/></g></svg>",
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 9 9\"><path id=\"d\" style=\"fill:none;stroke:red\"/>"
        "<path id=\"e\" style=\"fill:red}&lt;/style&gt;&lt;script&gt;x\"/><path id=\"f\" style=\"@import x\"/>"
        "<path id=\"g\" style=\"fill:red/*x*/\"/></svg>",
    };
    char *html = figures_report(svgs, 2);
    assert_non_null(strstr(html, "\n.nr-s0{fill:none;stroke:red}\n.nr-s1{fill:blue}\n.nr-s2{stroke:red}\n</style>"));
    assert_null(strstr(html, ".nr-s3"));
    xmlDoc *d = parse_html(html);
    static const struct { const char *id, *cls, *style; } want[] = {
        {"f1-fig1-a", "nr-s0", NULL}, {"f1-fig1-b", "nr-s1", NULL}, {"f1-fig1-c", "k nr-s2", NULL},
        {"f2-fig1-d", "nr-s0", NULL}, {"f2-fig1-e", NULL, "fill:red}</style><script>x"},
        {"f2-fig1-f", NULL, "@import x"}, {"f2-fig1-g", NULL, "fill:red/*x*/"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        xmlNode *n = find_id(xmlDocGetRootElement(d), want[i].id);
        assert_non_null(n);
        xmlChar *cls = xmlGetProp(n, BAD_CAST "class"), *style = xmlGetProp(n, BAD_CAST "style");
        if (want[i].cls)
            assert_string_equal((const char *)cls, want[i].cls);
        else
            assert_null(cls);
        if (want[i].style)
            assert_string_equal((const char *)style, want[i].style);
        else
            assert_null(style);
        xmlFree(cls);
        xmlFree(style);
    }
    xmlFreeDoc(d);
    free(html);
}

static void test_no_external_reference(void **state)
{
    (void)state;
    static const char hostile_svg[] =
        "<?xml version=\"1.0\"?>\n<!-- comment -->\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
        "width=\"10pt\" height=\"10pt\" viewBox=\"0 0 10 10\" onload=\"alert(1)\">"
        "<script>alert(2)</script><image xlink:href=\"http://example.com/x.png\"/>"
        "<a href=\"https://example.com/\"><path d=\"M0 0L1 1\" style=\"fill:url(#g)\"/></a>"
        "<use xlink:href=\"file:///etc/passwd\"/><linearGradient id=\"g\"/>"
        "<foreignObject><div xmlns=\"http://www.w3.org/1999/xhtml\">x</div></foreignObject></svg>";
    nr_report *r;
    nr_error err;
    assert_int_equal(nr_report_create_default(&r, &err), 0);
    nr_report_block *run = nr_report_add_run(r, "one", NULL);
    assert_int_equal(nr_report_figure(r, nr_report_run_section(run, NR_SEC_PHASES), "fig1", "x", hostile_svg,
                                      strlen(hostile_svg), &err), 0);
    assert_int_equal(nr_report_figure(r, nr_report_run_section(run, NR_SEC_PHASES), "fig1", "x", "<p>not svg",
                                      10, &err), NR_E_INPUT);
    char *html = serialize(r);
    assert_null(strstr(html, "http:"));
    assert_null(strstr(html, "https:"));
    assert_null(strstr(html, "file:"));
    assert_null(strstr(html, "src="));
    assert_null(strstr(html, "<script"));
    assert_null(strstr(html, "onload"));
    assert_null(strstr(html, "foreignObject"));
    assert_null(strstr(html, "<!--"));
    assert_non_null(strstr(html, "url(#f1-fig1-g)"));
    assert_non_null(strstr(html, "id=\"f1-fig1-g\""));
    free(html);
    nr_report_destroy(r);
}

static void test_template_marks_required(void **state)
{
    (void)state;
    static const char bad[] = "<!DOCTYPE html><html><head><style data-nr=\"css\"></style></head><body>"
                              "<main data-nr=\"runs\"><article data-nr=\"run-template\"></article></main></body></html>";
    nr_report *r = NULL;
    nr_error err;
    assert_int_equal(nr_report_create(bad, strlen(bad), "", 0, &r, &err), NR_E_INPUT);
    assert_null(r);
    assert_non_null(strstr(err.msg, "overview"));
}

/* A figure's bytes in the output: those the whole document's serialiser
 * wrote before figures were spooled (the known answer below is that code's
 * output, commit ab498da), non-ASCII caption included; since session 31
 * with the path's style attribute as its shared class. */
static const char figure_svg[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"10pt\" "
    "height=\"8pt\" viewBox=\"0 0 10 8\"><defs><clipPath id=\"c\"><rect x=\"0\" y=\"0\" width=\"5\" height=\"5\"/>"
    "</clipPath></defs><g clip-path=\"url(#c)\"><path d=\"M 0 0 L 1 1 \" style=\"stroke:#000\"/>"
    "<use xlink:href=\"#c\" x=\"1\"/><text>a&lt;b &#956;s</text></g></svg>";

static char *figure_report(const char *caption, const char *tmpl, size_t tmpl_len, int *rc)
{
    nr_report *r;
    nr_error err;
    if (tmpl)
        assert_int_equal(nr_report_create(tmpl, tmpl_len, "", 0, &r, &err), 0);
    else
        assert_int_equal(nr_report_create_default(&r, &err), 0);
    nr_report_block *run = nr_report_add_run(r, "one", NULL);
    for (int i = 0; i < 2; i++)
        assert_int_equal(nr_report_figure(r, nr_report_run_section(run, NR_SEC_PHASES), "fig1", caption,
                                          figure_svg, strlen(figure_svg), &err), 0);
    char *html = NULL;
    size_t len = 0;
    *rc = nr_report_serialize(r, &html, &len, &err);
    if (*rc == 0)
        assert_int_equal(strlen(html), len);
    else
        assert_non_null(strstr(err.msg, "figure 7"));
    nr_report_destroy(r);
    return html;
}

static void test_figure_bytes(void **state)
{
    (void)state;
    static const char want[] =
        "<figure data-nr-figure=\"fig1\"><svg width=\"10pt\" height=\"8pt\" viewBox=\"0 0 10 8\" role=\"img\" "
        "aria-label=\"lat&eacute;ncy &mu;s\"><defs><clipPath id=\"f%d-fig1-c\"><rect x=\"0\" y=\"0\" width=\"5\" "
        "height=\"5\"></rect></clipPath></defs><g clip-path=\"url(#f%d-fig1-c)\"><path d=\"M 0 0 L 1 1 \" "
        "class=\"nr-s0\"></path><use href=\"#f%d-fig1-c\" x=\"1\"></use><text>a&lt;b &mu;s</text></g></svg>"
        "<figcaption>lat&eacute;ncy &mu;s</figcaption></figure>";
    int rc;
    char *html = figure_report("lat\xc3\xa9ncy \xce\xbcs", NULL, 0, &rc);
    assert_int_equal(rc, 0);
    const char *at = html;
    for (int n = 1; n <= 2; n++) {
        char expect[sizeof want + 16];
        snprintf(expect, sizeof expect, want, n, n, n);
        const char *fig = strstr(at, "<figure");
        assert_non_null(fig);
        assert_memory_equal(fig, expect, strlen(expect));
        at = fig + strlen(expect);
    }
    assert_null(strstr(html, "nr-figure:"));   /* every mark replaced */
    assert_non_null(strstr(html, "\n.nr-s0{stroke:#000}\n</style>"));   /* one rule for both figures */
    free(html);

    /* a template comment that reads as the mark of a figure never imported */
    static const char tmpl[] = "<!DOCTYPE html><html><head><style data-nr=\"css\"></style></head><body>"
                               "<p><!--nr-figure:7--></p><section data-nr=\"overview\"></section>"
                               "<main data-nr=\"runs\"><article data-nr=\"run-template\">"
                               "<section data-nr=\"run-facts\"></section><section data-nr=\"phases\"></section>"
                               "<section data-nr=\"concentration\"></section><section data-nr=\"latency\"></section>"
                               "<section data-nr=\"timeline\"></section><section data-nr=\"access\"></section>"
                               "<section data-nr=\"findings\"></section></article></main></body></html>";
    html = figure_report("x", tmpl, strlen(tmpl), &rc);
    assert_int_equal(rc, NR_E_INPUT);
    assert_null(html);
}

static size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *at = hay; (at = strstr(at, needle)); at++)
        n++;
    return n;
}

/* A run's name is text wherever it goes: libxml2 writes a whole
 * "<!--...-->" inside an attribute as it is, and the splice took the one in
 * data-nr-run for a figure's place (review 47: figure 1 was put into the
 * attribute; a number never imported failed the build). */
static void test_run_name_never_places_a_figure(void **state)
{
    (void)state;
    nr_report *r;
    nr_error err;
    assert_int_equal(nr_report_create_default(&r, &err), 0);
    nr_report_block *a = nr_report_add_run(r, "a<!--nr-figure:1-->b", NULL);
    nr_report_block *c = nr_report_add_run(r, "c<!--nr-figure:99-->\"'>", NULL);
    assert_non_null(nr_report_add_run(r, "d<!--nr-texts-->", NULL));   /* no text group: taken, it fails */
    assert_non_null(a);
    assert_non_null(c);
    assert_int_equal(nr_report_figure(r, nr_report_run_section(a, NR_SEC_PHASES), "fig1", "one", figure_svg,
                                      strlen(figure_svg), &err), 0);
    char *html = NULL;
    size_t len = 0;
    assert_int_equal(nr_report_serialize(r, &html, &len, &err), 0);
    assert_int_equal(count_of(html, "<svg"), 1);
    assert_int_equal(count_of(html, "nr-figure:1-->"), 1); /* the name's, as libxml2 writes it */
    assert_int_equal(count_of(html, "nr-figure:99-->"), 1);
    assert_int_equal(count_of(html, "<!--nr-texts-->"), 1);
    const char *svg = strstr(html, "<svg"), *figure = strstr(html, "<figure data-nr-figure=\"fig1\"><svg");
    assert_ptr_equal(svg, figure ? figure + strlen("<figure data-nr-figure=\"fig1\">") : NULL);
    free(html);
    nr_report_destroy(r);
}

/* A figure's part to make on another thread (nr_report_figure_part). */
typedef struct part_job {
    const nr_report *r;
    unsigned number;
    const char *key, *caption, *svg;
    char label[32];
    nr_report_part *part;
} part_job;

/* Makes the parts of the jobs given (a part_job ** ending in NULL). */
static void *make_parts(void *arg)
{
    for (part_job **j = arg; *j; j++) {
        nr_report_svg *parsed;
        nr_error err;
        assert_int_equal(nr_report_svg_parse((*j)->svg, strlen((*j)->svg), (*j)->key, &parsed, &err), 0);
        assert_int_equal(nr_report_figure_part((*j)->r, (*j)->number, (*j)->key, (*j)->caption, (*j)->label, parsed,
                                               &(*j)->part, &err),
                         0);
    }
    return NULL;
}

/* Fills the reserved figures (numbers[k] of svgs[k], k < n) as `niorep
 * build` does: their parts made on two threads, each taking every other
 * job from the last, while the report is in use; merged in order. */
static void fill_parts_on_threads(nr_report *r, char *const *svgs, const unsigned *numbers, size_t n)
{
    part_job jobs[8];
    part_job *halves[2][8];
    size_t nhalf[2] = {0, 0};
    assert_true(n <= 7);
    for (size_t k = 0; k < n; k++) {
        jobs[k] = (part_job){r, numbers[k], k == 0 || k % 2 == 1 ? "fig1" : "fig5",
                             k == 0 ? "every run" : k % 2 == 1 ? "phases" : NULL, svgs[k], "", NULL};
        snprintf(jobs[k].label, sizeof jobs[k].label, "figure %zu", k);
        const size_t h = (n - 1 - k) % 2;
        halves[h][nhalf[h]++] = &jobs[n - 1 - k];
    }
    halves[0][nhalf[0]] = halves[1][nhalf[1]] = NULL;
    pthread_t tid[2];
    for (int t = 0; t < 2; t++)
        assert_int_equal(pthread_create(&tid[t], NULL, make_parts, halves[t]), 0);
    for (int t = 0; t < 2; t++)
        assert_int_equal(pthread_join(tid[t], NULL), 0);
    nr_error err;
    for (size_t k = 0; k < n; k++)
        assert_int_equal(nr_report_figure_fill_part(r, jobs[k].part, &err), 0);
}

/* How three_runs_report fills its figures. */
enum fill_mode { FILL_SLOTS, FILL_RESERVED, FILL_PARTS_ON_THREADS };

/* A report of three runs as `niorep build` writes it: the overview's
 * figure and each run's two figures, their places made first and filled
 * in that order; spooled (FILL_RESERVED, FILL_PARTS_ON_THREADS): each
 * run spooled once filled (nr_report_run_spool), its figures filled after
 * (places reserved), so that the document never holds more than one run's
 * tree. */
static char *three_runs_report(char *const *svgs, enum fill_mode mode)
{
    const int spooled = mode != FILL_SLOTS;
    static const char *const names[] = {"a<!--nr-run:1-->", "b<!--nr-figure:2-->\"'>", "c\xce\xbc"};
    nr_report *r;
    nr_error err;
    assert_int_equal(nr_report_create_default(&r, &err), 0);
    nr_report_block *slots[7];
    unsigned numbers[7];
    size_t nfig = 0;
#define PLACE(where, key, caption)                                                        \
    do {                                                                                  \
        if (spooled)                                                                      \
            assert_int_not_equal(numbers[nfig] = nr_report_figure_reserve(r, where, key, caption, &err), 0); \
        else                                                                              \
            assert_non_null(slots[nfig] = nr_report_figure_slot(r, where, key));          \
        nfig++;                                                                           \
    } while (0)
    PLACE(nr_report_pair(nr_report_overview(r)), "fig1", "every run");
    for (int i = 0; i < 3; i++) {
        nr_report_block *run = nr_report_add_run(r, names[i], names[i]);
        nr_report_block *facts = nr_report_run_section(run, NR_SEC_FACTS);
        nr_report_table *t = nr_report_table_new(facts, "Run facts", 2, (const char *const[]){"fact", "value"}, 2);
        nr_report_table_row(t);
        nr_report_table_cell_text(t, names[i]);
        nr_report_table_cell_key(t, "1 \xc2\xb5s", "totals.duration_s", 1e-6);
        nr_report_block *pair = nr_report_pair(nr_report_run_section(run, NR_SEC_PHASES));
        PLACE(pair, "fig1", "phases");
        nr_report_para(nr_report_pair_numbers(pair), "note", HOSTILE_SCRIPT);
        PLACE(nr_report_run_section(run, NR_SEC_TIMELINE), "fig5", NULL);
        nr_report_finding(nr_report_run_section(run, NR_SEC_FINDINGS), "rule", names[i], "act");
        if (spooled)
            assert_int_equal(nr_report_run_spool(r, run, &err), 0);
    }
#undef PLACE
    if (mode == FILL_PARTS_ON_THREADS)
        fill_parts_on_threads(r, svgs, numbers, nfig);
    for (size_t k = 0; mode != FILL_PARTS_ON_THREADS && k < nfig; k++) {
        char label[32];
        snprintf(label, sizeof label, "figure %zu", k);
        const char *svg = svgs[k];
        const char *key = k == 0 || k % 2 == 1 ? "fig1" : "fig5";
        const char *caption = k == 0 ? "every run" : k % 2 == 1 ? "phases" : NULL;
        nr_report_svg *parsed;
        assert_int_equal(nr_report_svg_parse(svg, strlen(svg), key, &parsed, &err), 0);
        if (spooled)
            assert_int_equal(nr_report_figure_fill_reserved(r, numbers[k], key, caption, label, parsed, &err), 0);
        else
            assert_int_equal(nr_report_figure_fill_labelled(r, slots[k], key, caption, label, parsed, &err), 0);
    }
    char *html = serialize(r);
    nr_report_destroy(r);
    return html;
}

/* Element children of n. */
static size_t element_children(const xmlNode *n)
{
    size_t k = 0;
    for (const xmlNode *c = n->children; c; c = c->next)
        k += c->type == XML_ELEMENT_NODE;
    return k;
}

/* A report with a table of rows rows in the overview and one in each of
 * two runs (spooled when spool_runs), the body's rows spooled every
 * per_spool rows (SIZE_MAX: never); *most: the most rows a body held. */
static char *many_rows_report(size_t rows, size_t per_spool, int spool_runs, size_t *most)
{
    nr_report *r;
    nr_error err;
    assert_int_equal(nr_report_create_default(&r, &err), 0);
    r->rows_per_spool = per_spool;
    *most = 0;
    static const char *const heads[] = {"phase", "bytes", "path"};
    for (int k = 0; k < 3; k++) {
        nr_report_block *where = k == 0 ? nr_report_overview(r) : NULL;
        nr_report_block *run = NULL;
        if (k > 0) {
            run = nr_report_add_run(r, k == 1 ? "a<!--nr-rows:1-->" : "b", "run");
            where = nr_report_run_section(run, NR_SEC_PHASES);
        }
        nr_report_table *t = nr_report_table_new(where, "Per phase", 3, heads, 2);
        for (size_t i = 0; i < rows; i++) {
            char name[64], path[64];
            snprintf(name, sizeof name, i % 97 ? "step_%zu" : "<!--nr-rows:%zu-->\xce\xbc", i);
            snprintf(path, sizeof path, "/d/\"%zu\"<b>", i);
            nr_report_table_row(t);
            nr_report_table_cell_text(t, name);
            nr_report_table_cell_key(t, "4 KiB", name, 4096.0 * (double)i);
            nr_report_table_cell_path(t, path);
            const size_t held = element_children(t->tbody);
            *most = held > *most ? held : *most;
        }
        nr_report_para(where, "note", HOSTILE_SCRIPT);
        if (run && spool_runs)
            assert_int_equal(nr_report_run_spool(r, run, &err), 0);
    }
    char *html = serialize(r);
    nr_report_destroy(r);
    return html;
}

/* A table body's rows go to the spool every NR__REPORT_ROWS rows (7 here),
 * with the bytes of the whole tree, in the overview, in a run and in a run
 * spooled; names that look like the marks stay text (session 52: a run of
 * 100,000 phase names held its per-phase tables whole, about 700 MB in
 * `niorep build`). */
static void test_table_rows_spooled_same_bytes(void **state)
{
    (void)state;
    size_t most_whole, most;
    char *whole = many_rows_report(2500, SIZE_MAX, 0, &most_whole);
    assert_int_equal(most_whole, 2500);
    const size_t per[] = {7, 1, 0};   /* 0: NR__REPORT_ROWS */
    for (size_t i = 0; i < 3; i++)
        for (int spool_runs = 0; spool_runs < 2; spool_runs++) {
            char *html = many_rows_report(2500, per[i], spool_runs, &most);
            assert_string_equal(html, whole);
            const size_t limit = per[i] ? per[i] : NR__REPORT_ROWS;
            if (most > limit)
                fail_msg("a body held %zu rows (spooled every %zu)", most, limit);
            free(html);
        }
    assert_int_equal(count_of(whole, "<tr>"), 3 * 2500 + 3);   /* and the heads' rows */
    assert_int_equal(count_of(whole, "&lt;!--nr-rows:0--&gt;"), 3);   /* the names' marks, as text */
    free(whole);
}

/* Points r's spool at /dev/full (pwrite: ENOSPC), as a full TMPDIR. */
static void spool_on_a_full_disk(nr_report *r)
{
    nr_spool_close(&r->spool);
    r->spool.fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
    assert_true(r->spool.fd >= 0);
    r->spool.dir = strdup("/dev/full's folder");
    assert_non_null(r->spool.dir);
}

/* A table's rows that cannot go to the spool fail the run's spool and the
 * output with the spool's message, and the spool is not tried again, nor
 * are rows made for a report that cannot be written: each new row retried
 * the spool with every row held (a build of 20,000 phase names with
 * TMPDIR full ran for hours, review 53), and the report was written as if
 * nothing had happened when the spool worked again. */
static void test_rows_spool_failure_told_once(void **state)
{
    (void)state;
    for (int in_run = 0; in_run < 2; in_run++) {
        nr_report *r;
        nr_error err;
        assert_int_equal(nr_report_create_default(&r, &err), 0);
        r->rows_per_spool = 7;
        spool_on_a_full_disk(r);
        nr_report_block *run = in_run ? nr_report_add_run(r, "a", "run") : NULL;
        nr_report_block *where = run ? nr_report_run_section(run, NR_SEC_PHASES) : nr_report_overview(r);
        static const char *const heads[] = {"phase"};
        nr_report_table *t = nr_report_table_new(where, "Per phase", 1, heads, 0);
        for (int i = 0; i < 100; i++) {
            if (i == 50) {   /* the disk has room again: the rows are not spooled any more */
                nr_spool_close(&r->spool);
                assert_int_equal(r->spool.size, 0);
            }
            nr_report_table_row(t);
            nr_report_table_cell(t, "step");
        }
        assert_int_equal(r->spool.size, 0);   /* nothing spooled after the failure */
        assert_int_equal(element_children(t->tbody), 7);   /* the rows that met the failure */
        if (run) {
            nr_error_clear(&err);
            assert_int_equal(nr_report_run_spool(r, run, &err), NR_E_IO);
            assert_non_null(strstr(err.msg, "/dev/full's folder"));
        }
        char *html = NULL;
        size_t len = 0;
        nr_error_clear(&err);
        assert_int_equal(nr_report_serialize(r, &html, &len, &err), NR_E_IO);
        assert_null(html);
        assert_non_null(strstr(err.msg, "cannot write"));
        assert_non_null(strstr(err.msg, "/dev/full's folder"));
        nr_report_destroy(r);
    }
}

/* A run spooled once filled, its figures filled after, gives the bytes of
 * the whole tree (session 51: `niorep build` of 800 runs held 340 kB of
 * tree a run); the marks in run names stay text. */
static void test_spooled_runs_same_bytes(void **state)
{
    (void)state;
    char *svgs[7]; /* drawn once: cairo numbers its surfaces across the process */
    for (int k = 0; k < 7; k++) {
        char label[32];
        snprintf(label, sizeof label, "figure %d", k);
        svgs[k] = cairo_svg(label);
    }
    char *whole = three_runs_report(svgs, FILL_SLOTS), *spooled = three_runs_report(svgs, FILL_RESERVED);
    assert_string_equal(spooled, whole);
    assert_int_equal(count_of(spooled, "<article"), 3);
    assert_int_equal(count_of(spooled, "<svg"), 8); /* 7 figures and the shared glyphs' */
    assert_int_equal(count_of(spooled, "<!--nr-"), 2); /* the names', in their data-nr-run attributes */
    free(whole);
    free(spooled);
    for (int k = 0; k < 7; k++)
        free(svgs[k]);
}

/* Figures imported as far as they can be on two threads at once, while
 * the report is in use, and merged in order (nr_report_figure_part,
 * nr_report_figure_fill_part: `niorep build`): the same report as filled
 * in order on one thread, and a figure whose text holds what would be the
 * marks of its part's numbers ("~0:g0~0:") keeps that text. */
static void test_parts_on_threads_same_bytes(void **state)
{
    (void)state;
    char *svgs[7];
    for (int k = 0; k < 7; k++) {
        char label[32];
        snprintf(label, sizeof label, "figure %d", k);
        svgs[k] = cairo_svg(label);
    }
    /* text that holds the first marks a part would take, in an attribute
       the import keeps and in an href it rewrites */
    static const char *const held[] = {"~0:g0~0:", "~1:s0~1:", "~2:t0~2:"};
    char *root = strstr(svgs[3], "<svg ");
    assert_non_null(root);
    char *with = NULL;
    assert_true(asprintf(&with, "%.*s<svg class=\"%s %s\" %s", (int)(root - svgs[3]), svgs[3], held[0], held[1],
                         root + 5) > 0);
    char *use = strstr(with, "xlink:href=\"#");
    assert_non_null(use);
    char *hrefs = NULL;
    assert_true(asprintf(&hrefs, "%.*s%s%s", (int)(use + 13 - with), with, held[2], use + 13) > 0);
    free(with);
    free(svgs[3]);
    svgs[3] = hrefs;
    char *in_order = three_runs_report(svgs, FILL_RESERVED), *threads = three_runs_report(svgs, FILL_PARTS_ON_THREADS);
    assert_string_equal(threads, in_order);
    for (int i = 0; i < 3; i++)
        assert_int_equal(count_of(threads, held[i]), 1);
    assert_int_equal(count_of(threads, "<svg"), 8);
    free(in_order);
    free(threads);
    for (int k = 0; k < 7; k++)
        free(svgs[k]);
}

/* A mark inside a mark whose children the engine replaces (found by fuzzing:
 * the subtitle element was freed by set_title, then written). */
static void test_template_nested_marks_refused(void **state)
{
    (void)state;
    static const char bad[] = "<!DOCTYPE html><html><head><style data-nr=\"css\"></style></head><body>"
                              "<h1 data-nr=\"title\">t<span data-nr=\"subtitle\"></span></h1>"
                              "<section data-nr=\"overview\"></section>"
                              "<main data-nr=\"runs\"><article data-nr=\"run-template\">"
                              "<section data-nr=\"run-facts\"></section><section data-nr=\"phases\"></section>"
                              "<section data-nr=\"concentration\"></section><section data-nr=\"latency\"></section>"
                              "<section data-nr=\"timeline\"></section><section data-nr=\"access\"></section>"
                              "<section data-nr=\"findings\"></section></article></main></body></html>";
    nr_report *r = NULL;
    nr_error err;
    assert_int_equal(nr_report_create(bad, strlen(bad), "", 0, &r, &err), NR_E_INPUT);
    assert_null(r);
    assert_non_null(strstr(err.msg, "data-nr=\"subtitle\" must not stand inside data-nr=\"title\""));
}

/* Every table sits in a <div class="numbers">, the box that scrolls a
 * table wider than a phone's screen (templates/report.css): one of its
 * own outside a pair (the overview's table made the whole page scroll),
 * the pair's own numbers block inside one, never a box in a box. */
static void test_tables_scroll_in_their_box(void **state)
{
    (void)state;
    nr_report *r;
    nr_error err;
    assert_int_equal(nr_report_create_default(&r, &err), 0);
    nr_report_table_new(nr_report_overview(r), "Wide overview", 1, (const char *const[]){"x"}, 0);
    nr_report_block *run = nr_report_add_run(r, "a", "a");
    nr_report_table_new(nr_report_run_section(run, NR_SEC_LATENCY), "Per phase", 1, (const char *const[]){"x"}, 0);
    nr_report_block *numbers = nr_report_pair_numbers(nr_report_pair(nr_report_run_section(run, NR_SEC_PHASES)));
    nr_report_table_new(numbers, "Beside", 1, (const char *const[]){"x"}, 0);
    nr_report_table_new(numbers, "Below", 1, (const char *const[]){"x"}, 0);
    char *html = serialize(r);
    assert_non_null(strstr(html, "<div class=\"numbers\"><table><caption>Wide overview</caption>"));
    assert_non_null(strstr(html, "<div class=\"numbers\"><table><caption>Per phase</caption>"));
    assert_non_null(strstr(html, "<div class=\"numbers\"><table><caption>Beside</caption>"));
    assert_non_null(strstr(html, "</table><table><caption>Below</caption>"));
    assert_null(strstr(html, "<div class=\"numbers\"><div class=\"numbers\">"));
    free(html);
    nr_report_destroy(r);
}

static void test_sections_and_overview(void **state)
{
    (void)state;
    nr_report *r;
    nr_error err;
    /* One run: no overview, no table of contents; CSS inlined raw. */
    assert_int_equal(nr_report_create_default(&r, &err), 0);
    nr_report_add_run(r, "solo", NULL);
    char *html = serialize(r);
    assert_null(strstr(html, "data-nr=\"overview\""));
    assert_null(strstr(html, "data-nr=\"run-template\""));
    assert_non_null(strstr(html, ".pair > figure"));   /* CSS not escaped inside <style> */
    assert_non_null(strstr(html, "@media print"));
    const char *order[] = {"run-facts", "phases", "concentration", "latency", "timeline", "access", "findings"};
    const char *at = html;
    for (size_t i = 0; i < 7; i++) {
        char mark[64];
        snprintf(mark, sizeof mark, "data-nr=\"%s\"", order[i]);
        const char *p = strstr(at, mark);
        assert_non_null(p);
        at = p;
    }
    free(html);
    nr_report_destroy(r);
    /* Two runs and an overview table: overview first, unique anchors, contents links. */
    assert_int_equal(nr_report_create_default(&r, &err), 0);
    nr_report_table *t = nr_report_table_new(nr_report_overview(r), "runs", 1, NULL, 0);
    nr_report_table_cell(t, "x");
    nr_report_add_run(r, "same", "same");
    nr_report_add_run(r, "same", "same");
    html = serialize(r);
    const char *ov = strstr(html, "data-nr=\"overview\"");
    const char *run1 = strstr(html, "id=\"run-same\"");
    assert_non_null(ov);
    assert_non_null(run1);
    assert_true(ov < run1);
    assert_non_null(strstr(html, "id=\"run-same-2\""));
    assert_non_null(strstr(html, "href=\"#run-same-2\""));
    free(html);
    nr_report_destroy(r);
}

static void check_fmt(char *(*fmt)(double, char *, size_t), double x, const char *want)
{
    char buf[64];
    fmt(x, buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        fail_msg("format of %.17g: got \"%s\", want \"%s\"", x, buf, want);
}

static void test_formats(void **state)
{
    (void)state;
    check_fmt(nr_report_fmt_bytes, 0, "0 B");
    check_fmt(nr_report_fmt_bytes, 1023, "1023 B");
    check_fmt(nr_report_fmt_bytes, 1536, "1.5 KiB");
    check_fmt(nr_report_fmt_bytes, 1048575, "1 MiB");
    check_fmt(nr_report_fmt_bytes, 3.0 * 1073741824.0, "3 GiB");
    check_fmt(nr_report_fmt_bytes, 123456789, "118 MiB");
    check_fmt(nr_report_fmt_bytes, NAN, "n/a");
    check_fmt(nr_report_fmt_seconds, 0, "0 s");
    check_fmt(nr_report_fmt_seconds, 870e-9, "870 ns");
    check_fmt(nr_report_fmt_seconds, 1.5e-6, "1.5 \xC2\xB5s");
    check_fmt(nr_report_fmt_seconds, 0.0351, "35.1 ms");
    check_fmt(nr_report_fmt_seconds, 4.126, "4.13 s");
    check_fmt(nr_report_fmt_seconds, 125, "2 min 5 s");
    check_fmt(nr_report_fmt_seconds, 3780, "1 h 3 min");
    check_fmt(nr_report_fmt_percent, 0.924, "92.4%");
    check_fmt(nr_report_fmt_percent, 0.9997, "99.97%");
    check_fmt(nr_report_fmt_percent, 1, "100.0%");
    check_fmt(nr_report_fmt_percent, 0.0001234, "0.012%");
    check_fmt(nr_report_fmt_count, 1234567, "1\xE2\x80\xAF" "234\xE2\x80\xAF" "567");
    check_fmt(nr_report_fmt_count, 999, "999");
    check_fmt(nr_report_fmt_rate, 2.5 * 1048576, "2.5 MiB/s");
    check_fmt(nr_report_fmt_real, 0.4567, "0.46");
    check_fmt(nr_report_fmt_real, 2.3456, "2.35");
}

/* A fixed report (two runs, every kind of content, a hand-written SVG used
 * three times, its text group shared since session 52, hostile strings)
 * compared byte for byte with tests/report/golden/engine.html;
 * `test_report --update-golden` rewrites the golden file. */
static int update_golden;

static void test_golden_report(void **state)
{
    (void)state;
    static const char svg[] =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"100pt\" "
        "height=\"50pt\" viewBox=\"0 0 100 50\" version=\"1.1\">\n<defs>\n<g>\n<symbol overflow=\"visible\" id=\"glyph0-1\">\n"
        "<path style=\"stroke:none;\" d=\"M 0 0 L 5 -7 L 10 0 Z\"/>\n</symbol>\n</g>\n<clipPath id=\"clip1\">\n"
        "<path d=\"M 0 0 L 100 0 L 100 50 L 0 50 Z\"/>\n</clipPath>\n</defs>\n"
        "<g clip-path=\"url(#clip1)\" clip-rule=\"nonzero\">\n<path style=\"fill:none;stroke:rgb(0%,44.7%,69.8%);\" "
        "d=\"M 5 45 L 95 5\"/>\n</g>\n<g style=\"fill:rgb(0%,0%,0%);fill-opacity:1;\">\n"
        "<use xlink:href=\"#glyph0-1\" x=\"10\" y=\"40\"/>\n</g>\n</svg>\n";
    nr_report *r;
    nr_error err;
    assert_int_equal(nr_report_create_default(&r, &err), 0);
    nr_report_set_title(r, "Golden & <fixed>");
    nr_report_set_subtitle(r, "two runs");
    nr_report_block *ov = nr_report_overview(r);
    const char *heads[] = {"run", "bytes"};
    nr_report_table *t = nr_report_table_new(ov, "Every run", 2, heads, 2);
    char buf[64];
    for (int i = 0; i < 2; i++) {
        nr_report_table_row(t);
        nr_report_table_cell(t, i ? "b" : "a<1>");
        nr_report_table_cell(t, nr_report_fmt_bytes(i ? 1536.0 : 3.0 * 1073741824.0, buf, sizeof buf));
    }
    assert_int_equal(nr_report_figure(r, nr_report_pair(ov), "fig1", "both runs", svg, strlen(svg), &err), 0);
    for (int i = 0; i < 2; i++) {
        nr_report_block *run = nr_report_add_run(r, i ? "b" : "a<1>", NULL);
        nr_report_block *facts = nr_report_run_section(run, NR_SEC_FACTS);
        t = nr_report_table_new(facts, "Run facts", 2, (const char *const[]){"fact", "value"}, 2);
        nr_report_table_row(t);
        nr_report_table_cell(t, "duration");
        nr_report_table_cell_key(t, nr_report_fmt_seconds(125.0, buf, sizeof buf), "totals.duration_s", 125.0);
        nr_report_table_row(t);
        nr_report_table_cell_path(t, HOSTILE_BYTES);
        nr_report_table_cell_key(t, "n/a", "x.missing", NAN);
        nr_report_para(facts, "unavailable", "Latency unavailable: the trace lacks -T.");
        nr_report_block *pair = nr_report_pair(nr_report_run_section(run, NR_SEC_PHASES));
        nr_report_table_new(nr_report_pair_numbers(pair), "numbers", 1, (const char *const[]){"x"}, 0);
        assert_int_equal(nr_report_figure(r, pair, "fig1", "one run", svg, strlen(svg), &err), 0);
        nr_report_figure_missing(nr_report_run_section(run, NR_SEC_TIMELINE), "timeline", "no timestamps");
        nr_report_heading(nr_report_run_section(run, NR_SEC_ACCESS), "sub");
        nr_report_finding(nr_report_run_section(run, NR_SEC_FINDINGS), "rule", HOSTILE_SCRIPT, "do this");
        nr_report_finding(nr_report_run_section(run, NR_SEC_FINDINGS), "rule2", "second", NULL);
    }
    char *html = serialize(r);
    const char *src = getenv("NR_SOURCE_DIR");
    if (!src)
        skip();
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/report/golden/engine.html", src);
    if (update_golden) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fputs(html, f);
        fclose(f);
    } else {
        FILE *f = fopen(path, "rb");
        if (!f)
            fail_msg("no golden file %s (run test_report --update-golden)", path);
        char *want = calloc(1, strlen(html) * 2 + 2);
        size_t n = fread(want, 1, strlen(html) * 2 + 1, f);
        fclose(f);
        if (n != strlen(html) || memcmp(want, html, n) != 0) {
            size_t i = 0;
            while (i < n && want[i] == html[i])
                i++;
            fail_msg("report differs from %s at byte %zu (got %zu bytes, golden %zu); "
                     "refresh with test_report --update-golden if intended", path, i, strlen(html), n);
        }
        free(want);
    }
    free(html);
    nr_report_destroy(r);
}

/* A figure of tens of thousands of shapes is tens of megabytes of SVG
 * (figure 5 of 100,000 phase names: 21 MB): libxml2's default limits
 * ("Huge input lookup" past 10 MB) refused it, and build failed with
 * "not an SVG document". The SVG is niorep-render's own output. */
static void test_huge_svg_parses(void **state)
{
    (void)state;
    static const char head[] = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10pt\" height=\"10pt\">"
                               "<path d=\"M 0 0", tail[] = "\"/></svg>";
    const size_t body = 12u << 20;
    char *svg = malloc(sizeof head + body + sizeof tail);
    assert_non_null(svg);
    memcpy(svg, head, sizeof head - 1);
    for (size_t i = 0; i < body; i += 6)
        memcpy(svg + sizeof head - 1 + i, " L 1 1", 6);
    memcpy(svg + sizeof head - 1 + body, tail, sizeof tail);
    nr_report_svg *parsed = NULL;
    nr_error err;
    nr_error_clear(&err);
    assert_int_equal(nr_report_svg_parse(svg, strlen(svg), "fig5", &parsed, &err), 0);
    nr_report_svg_free(parsed);
    free(svg);
}

/* The parse is HUGE (above), and libxml2 then takes nested entities that
 * it refuses without it: an SVG of 1 kB of entity definitions expanded
 * one attribute to 30 MB, and a kept figure edited so took a build 58 s
 * and 611 MB (review 53). niorep-render's SVGs have no DTD: a document
 * with one is refused, whatever it defines. */
static void test_svg_with_dtd_refused(void **state)
{
    (void)state;
    static const char *const svgs[] = {
        "<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;\">"
        "<!ENTITY c \"&b;&b;&b;&b;&b;&b;\">]><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"&c;\"/>",
        "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">"
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    };
    for (size_t i = 0; i < sizeof svgs / sizeof *svgs; i++) {
        nr_report_svg *parsed = NULL;
        nr_error err;
        nr_error_clear(&err);
        assert_int_equal(nr_report_svg_parse(svgs[i], strlen(svgs[i]), "fig2", &parsed, &err), NR_E_INPUT);
        assert_null(parsed);
        assert_non_null(strstr(err.msg, "figure fig2"));
        assert_non_null(strstr(err.msg, "DTD"));
    }
}

int main(int argc, char **argv)
{
    update_golden = argc > 1 && strcmp(argv[1], "--update-golden") == 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostile_strings_stay_text),
        cmocka_unit_test(test_huge_svg_parses),
        cmocka_unit_test(test_svg_with_dtd_refused),
        cmocka_unit_test(test_figure_ids_unique),
        cmocka_unit_test(test_glyphs_shared),
        cmocka_unit_test(test_styles_shared),
        cmocka_unit_test(test_texts_shared),
        cmocka_unit_test(test_text_groups_only),
        cmocka_unit_test(test_no_external_reference),
        cmocka_unit_test(test_template_marks_required),
        cmocka_unit_test(test_template_nested_marks_refused),
        cmocka_unit_test(test_tables_scroll_in_their_box),
        cmocka_unit_test(test_sections_and_overview),
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_golden_report),
        cmocka_unit_test(test_figure_bytes),
        cmocka_unit_test(test_run_name_never_places_a_figure),
        cmocka_unit_test(test_spooled_runs_same_bytes),
        cmocka_unit_test(test_parts_on_threads_same_bytes),
        cmocka_unit_test(test_table_rows_spooled_same_bytes),
        cmocka_unit_test(test_rows_spool_failure_told_once),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    /* Release cairo's and fontconfig's caches so that LeakSanitizer sees only our leaks. */
    cairo_debug_reset_static_data();
    FcFini();
    return failed;
}
