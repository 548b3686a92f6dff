/* report_styles: one CSS rule for each distinct style of the report's figures.
 * cairo writes every path and text group of an SVG with its whole style
 * inline ("fill:none;stroke-width:1.1;stroke-linecap:butt;..."), about 150
 * bytes an element; a report of 300 runs held 180 k elements with a style
 * and 47 distinct ones besides the glyph outlines'. At import each figure
 * element's style becomes the class nr-sN of the N-th distinct style, and
 * the report's style sheet ends with ".nr-sN{style}" (docs/report.md,
 * "Styles are shared"): the figure's distinct styles are found where it
 * is loaded (nr__report_part_styles), N given in figure order
 * (nr__report_merge_styles). No other rule of the sheet selects inside a
 * figure, so every element computes the same style as before. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "report_internal.h"

#define SHARED_CLASS_PREFIX "nr-s"

/* Whether style text can stand in a rule of the <style> element: the HTML
 * serialiser writes that element's content raw, so '<' could end it, and
 * braces, comments or escapes could change what the rule means. Other
 * styles stay inline. */
static int fits_a_rule(const char *style)
{
    return style[0] && !strpbrk(style, "<>{}\\@") && !strstr(style, "/*");
}

/* Replaces the style of n by the mark of its class in p (kept beside any
 * class n has). */
static int part_style(nr__report_part *p, xmlNode *n, const char *style, nr_error *err)
{
    const int64_t s = nr_strtab_intern(&p->styles, style, strlen(style));
    if (s < 0)
        return nr_error_set(err, (int)s, "report: out of memory");
    char cls[128];
    nr__report_part_name(p, SHARED_CLASS_PREFIX, 's', (size_t)s, cls, sizeof cls);
    xmlChar *had = xmlGetProp(n, BAD_CAST "class");
    xmlChar *both = had ? xmlStrncatNew(had, BAD_CAST " ", 1) : NULL;
    xmlChar *value = both ? xmlStrcat(both, BAD_CAST cls) : NULL;
    xmlFree(had);
    const int ok = xmlSetProp(n, BAD_CAST "class", value ? value : BAD_CAST cls) != NULL;
    xmlFree(value);
    if (!ok)
        return nr_error_set(err, NR_E_NOMEM, "report: out of memory");
    xmlUnsetProp(n, BAD_CAST "style");
    return 0;
}

int nr__report_part_styles(nr__report_part *p, xmlNode *n, nr_error *err)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *style = xmlGetProp(n, BAD_CAST "style");
        const int rc = style && fits_a_rule((const char *)style) ? part_style(p, n, (const char *)style, err) : 0;
        xmlFree(style);
        NR_TRY(rc);
        NR_TRY(nr__report_part_styles(p, n->children, err));
    }
    return 0;
}

int nr__report_merge_styles(nr_report *r, const nr__report_part *p, int64_t *styles, nr_error *err)
{
    for (size_t i = 0; i < p->styles.count; i++) {
        styles[i] = nr_strtab_intern(&r->style_keys, nr_strtab_str(&p->styles, i), nr_strtab_len(&p->styles, i));
        if (styles[i] < 0)
            return nr_error_set(err, (int)styles[i], "report: out of memory");
    }
    return 0;
}

char *nr__report_css_with_styles(const nr_report *r)
{
    static const char head[] = "\n/* the figures' styles, one rule each (docs/report.md) */\n";
    size_t len = strlen(r->css) + sizeof head;
    for (size_t s = 0; s < r->style_keys.count; s++)
        len += nr_strtab_len(&r->style_keys, s) + 32;
    char *css = malloc(len);
    if (!css)
        return NULL;
    size_t at = (size_t)snprintf(css, len, "%s", r->css);
    if (r->style_keys.count)
        at += (size_t)snprintf(css + at, len - at, "%s", head);
    for (size_t s = 0; s < r->style_keys.count; s++)
        at += (size_t)snprintf(css + at, len - at, "." SHARED_CLASS_PREFIX "%lld{%s}\n", (long long)s,
                               nr_strtab_str(&r->style_keys, s));
    return css;
}
