/* report internals shared by report*.c (not a public header). */
#ifndef NR_REPORT_INTERNAL_H
#define NR_REPORT_INTERNAL_H

#include <stddef.h>

#include <libxml/tree.h>

#include "nr_spool.h"
#include "nr_strtab.h"
#include "nr_utf8.h"
#include "report.h"

/* Where an imported figure's serialised bytes lie in the report's spool. */
typedef struct nr__report_fig {
    uint64_t off, len;
} nr__report_fig;

struct nr_report {
    xmlDoc *doc;
    xmlNode *runs, *run_template, *style, *overview, *toc, *toc_list, *subtitle;
    unsigned long overview_children;   /* element children of the overview in the template */
    char *css;                         /* owned, NUL-terminated */
    size_t nruns;
    unsigned figures;                  /* figures imported so far: id prefix counter */
    nr_spool spool;                    /* the imported figures, serialised (report_out.c) */
    nr__report_fig *fig_at;            /* figure N at fig_at[N - 1] */
    size_t nfig_at, cap_fig_at;
    nr__report_fig *run_at;            /* run N spooled (nr_report_run_spool) at run_at[N - 1] */
    size_t nrun_at, cap_run_at;
    nr__report_fig *rows_at;           /* a table's rows N spooled (nr__report_spool_rows) at rows_at[N - 1] */
    size_t nrows_at, cap_rows_at;
    size_t rows_per_spool;             /* rows a table body holds before they go to the spool; 0: NR__REPORT_ROWS */
    nr_error rows_err;                 /* the first failure to spool a table's rows, told by the run's spool and the output */
    nr_strtab glyph_keys;              /* shared glyph N: the serialisation of its symbol, without id */
    xmlNode *glyph_defs;               /* their <defs> in the hidden <svg>; NULL before the first */
    nr_strtab style_keys;              /* shared style N (class nr-sN): its text */
    nr_strtab text_keys;               /* shared text group N (id nr-tN): its bytes in a figure, without id */
    xmlNode *text_defs;                /* their <defs> in the hidden <svg> (a mark); NULL before the first */
    nr_report_table **tables;          /* owned */
    size_t ntables, cap_tables;
    char **ids;                        /* run anchors given so far, owned */
    size_t nids, cap_ids;
};

struct nr_report_table {
    xmlNode *table, *tbody, *row;
    size_t ncols, col;
    uint32_t num_cols;
    size_t rows;        /* rows in tbody, not yet spooled */
};

/* A table body's rows go to the spool in runs of this many: a run of
 * 100,000 phase names made per-phase tables of 10 tree nodes a cell,
 * about 700 MB in `niorep build` (session 52). */
#define NR__REPORT_ROWS 1024
/* Serialises the rows of t's body (complete: a new row is about to
 * start) into r's spool, as the document's serialiser writes them, and
 * puts the comment <!--nr-rows:N--> in their place. Returns 0 or a
 * negative code with err set (the rows then stay where they are). */
int nr__report_spool_rows(nr_report *r, nr_report_table *t, nr_error *err);
/* 0, or the code of r->rows_err (err set to it) once a table's rows could
 * not be spooled: nr_report_table_row has no caller to tell. */
int nr__report_rows_failed(const nr_report *r, nr_error *err);

/* The first element at or after from (depth first) with data-nr="mark", or NULL. */
xmlNode *nr__report_find_mark(xmlNode *from, const char *mark);
/* The report that owns n's document. */
nr_report *nr__report_of(const xmlNode *n);
/* Appends text (cleaned by nr_utf8_clean) as a text node of n. */
void nr__report_add_text(xmlNode *n, const char *text);
/* Removes n's children and appends text. */
void nr__report_set_text(xmlNode *n, const char *text);
/* A new child element name of parent with class cls (may be NULL). */
xmlNode *nr__report_child(xmlNode *parent, const char *name, const char *cls);
/* Run anchor bookkeeping. */
int nr__report_find_id(const nr_report *r, const char *id);
void nr__report_remember_id(nr_report *r, const char *id);

/* Serialises svg (a figure's root; its own document's or r's) into r's
 * spool as figure number (1, 2, ...; the ids in it prefixed with that
 * number already), with the bytes the document's serialiser would give it.
 * Returns 0 or a negative code with err set. */
int nr__report_spool_figure(nr_report *r, unsigned number, xmlNode *svg, nr_error *err);
/* The comment that stands for figure number in the document (unlinked), NULL when out of memory. */
xmlNode *nr__report_figure_mark(nr_report *r, unsigned number);
/* The id of shared text group N (report_texts.c), written by report_out.c. */
#define NR__REPORT_TEXT_ID "nr-t%lld"

/* Serialises one node at a time into memory, with the bytes the document's
 * serialiser gives it in place (report_out.c): p[0..len), NUL after. */
typedef struct nr__report_bytes {
    xmlOutputBuffer *out;
    char *p;
    size_t len, cap;
    int failed;
} nr__report_bytes;
/* 0, or -1 when out of memory. */
int nr__report_bytes_open(nr_report *r, nr__report_bytes *b);
/* n's bytes into b->p, b->len: 0, or -1 when out of memory. */
int nr__report_bytes_of(nr_report *r, nr__report_bytes *b, xmlNode *n);
void nr__report_bytes_close(nr__report_bytes *b);
/* The comment that stands for the shared text groups (unlinked), NULL when out of memory. */
xmlNode *nr__report_texts_mark(nr_report *r);
/* The <defs> of the shared glyphs in the hidden <svg> first in <body>,
 * made at the first call; NULL when out of memory (report_glyphs.c). */
xmlNode *nr__report_glyph_defs(nr_report *r);
/* Moves every distinct text group of svg (an imported figure, its glyphs
 * and styles shared already: a <g> of glyph <use>s) into the report's
 * shared text groups, once per distinct serialisation, and draws each
 * with <use href="#nr-tN"> in its place (report_texts.c). */
int nr__report_share_texts(nr_report *r, xmlNode *svg, nr_error *err);
/* Moves every <symbol> with an id out of svg (an imported figure, ids
 * already unique in the report) into the report's shared glyphs, one copy
 * per distinct symbol, and points svg's href="#id" references at them
 * (report_glyphs.c). */
int nr__report_share_glyphs(nr_report *r, xmlNode *svg, nr_error *err);
/* Moves the style of every element at or after n (and below) into the
 * report's shared styles: class nr-sN in place of the style attribute,
 * for a style that can stand in a rule (report_styles.c). */
int nr__report_share_styles(nr_report *r, xmlNode *n, nr_error *err);
/* The report's CSS followed by a rule per shared style: a new string
 * (free), NULL when out of memory. */
char *nr__report_css_with_styles(const nr_report *r);
/* The document, pruned and with its CSS, serialised with its figure marks:
 * *doc (xmlFree) of *len bytes. */
int nr__report_dump(nr_report *r, char **doc, size_t *len, nr_error *err);

#endif
