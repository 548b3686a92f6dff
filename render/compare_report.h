/* compare_report: the HTML of `niorep compare`, from plain inputs (titles,
 * tables of preformatted cells, SVG figures) and the template
 * templates/compare.html. render/ never sees the model: cli/cmd_compare.c
 * turns a comparison into these structs.
 *
 * The template holds three markers, each an HTML comment alone:
 * <!--niorep:title-->, <!--niorep:subtitle--> and <!--niorep:body-->.
 * Text is escaped; SVG figures are inlined with their ids prefixed per
 * figure (cairo names glyphs and clips alike in every file) and without
 * their XML prologue, so the page needs no network and no script.
 *
 * Ownership: every input is borrowed for the duration of the call. */
#ifndef NR_COMPARE_REPORT_H
#define NR_COMPARE_REPORT_H

#include <stddef.h>

#include "nr_error.h"
#include "nr_render.h"

typedef struct nr_crep_table {
    const char *caption;            /* may be NULL */
    size_t ncols, nrows;
    const char *const *head;        /* ncols header cells */
    const char *const *cells;       /* nrows * ncols cells, row-major; NULL cell = empty */
    const char *const *row_class;   /* nrows CSS classes ("significant"), NULL = none; may be NULL */
} nr_crep_table;

typedef struct nr_crep_figure {
    const char *caption;
    const unsigned char *svg;       /* an SVG document (cairo output) */
    size_t len;
} nr_crep_figure;

typedef struct nr_crep_section {
    const char *id;                 /* anchor, [A-Za-z0-9_-] */
    const char *title;
    const char *intro;              /* a paragraph, may be NULL */
    size_t ntables;
    const nr_crep_table *tables;
    size_t nfigures;
    const nr_crep_figure *figures;
} nr_crep_section;

typedef struct nr_crep_doc {
    const char *title;
    const char *subtitle;
    size_t nsections;
    const nr_crep_section *sections;
} nr_crep_doc;

/* Fills template_text (NUL-terminated) with doc and appends the page to
 * out. Returns 0, NR_E_INPUT when a marker is missing from the template,
 * or NR_E_NOMEM. */
int nr_compare_report_html(const char *template_text, const nr_crep_doc *doc, nr_render_buf *out, nr_error *err);

#endif
