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
    char *dump_encoding;               /* the encoder of the document's serialiser (report_out.c); NULL: none */
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

/* Puts figure number's bytes (its ids prefixed with that number, every
 * mark replaced) into r's spool, where the document's mark of the figure
 * takes them from. Returns 0 or a negative code with err set. */
int nr__report_spool_figure_bytes(nr_report *r, unsigned number, const char *bytes, size_t len, nr_error *err);
/* The comment that stands for figure number in the document (unlinked), NULL when out of memory. */
xmlNode *nr__report_figure_mark(nr_report *r, unsigned number);
/* The id of shared text group N (report_texts.c), written by report_out.c. */
#define NR__REPORT_TEXT_ID_PREFIX "nr-t"
#define NR__REPORT_TEXT_ID NR__REPORT_TEXT_ID_PREFIX "%lld"

/* A figure imported as far as it can be without the report's shared
 * glyphs, styles and text groups (report_parts.c): its ids prefixed, its
 * distinct symbols, styles and text groups numbered in the figure (L = 0,
 * 1, ... in order of first use) and the figure serialised, each number
 * the report gives later written as a mark "<mark><kind><L><mark>" (kind
 * 'g' glyph, 's' style, 't' text group) in the bytes. Made on any thread
 * (nr_report_figure_part reads no state of the report that changes),
 * merged on the report's in figure order (nr_report_figure_fill_part). */
struct nr_report_part {
    unsigned number;          /* the figure's number in the report */
    char mark[24];            /* "~<k>:" with k that no text of the figure holds after a '~' */
    size_t mark_len;
    size_t marks;             /* marks written into the figure's attributes */
    size_t marks_in_groups;   /* occurrences of mark in the text groups' bytes, one per group replaced */
    xmlDoc *doc;              /* the figure's document: its dictionary holds the names of glyphs[] */
    nr_strtab glyph_keys;     /* local glyph L: the key of its symbol (report_glyphs.c) */
    xmlNode **glyphs;         /* local glyph L: its first symbol, unlinked, without id */
    size_t cap_glyphs;
    nr_strtab styles;         /* local style L: its text */
    nr_strtab texts;          /* local text group L: its bytes, marks in them */
    char *bytes;              /* the figure's bytes, marks in them (malloc) */
    size_t len;
};
typedef struct nr_report_part nr__report_part;
/* prefix then the mark of local number index of kind ('g', 's', 't') in
 * out (a NUL-terminated string, "" when it does not fit), counted in
 * p->marks as one written into the figure. */
void nr__report_part_name(nr__report_part *p, const char *prefix, char kind, size_t index, char *out, size_t cap);
/* The report's number of each of a part's glyphs, styles and text groups. */
typedef struct nr__report_maps {
    const int64_t *glyphs, *styles, *texts;
    size_t nglyphs, nstyles, ntexts;
} nr__report_maps;
typedef struct nr__report_bytes nr__report_bytes;
/* s[0..n) into out (emptied first), each of p's marks replaced by the
 * report's number of its kind in maps: 0, NR_E_NOMEM, or NR_E_INPUT for
 * a mark whose kind or number is not known. */
int nr__report_part_unmark(const nr__report_part *p, const char *s, size_t n, const nr__report_maps *maps,
                           nr__report_bytes *out, nr_error *err);
/* Occurrences of p's mark in s[0..n). */
size_t nr__report_part_count_marks(const nr__report_part *p, const char *s, size_t n);

/* The numbers that a figure's texts hold after a '~' and before a ':'
 * ("~12:"), noted as the figure is cleaned (report_svg.c), so that its
 * part's mark is none of them (nr__report_part_pick_mark). */
typedef struct nr__report_seen {
    uint64_t *numbers;
    size_t n, cap;
    int failed;               /* out of memory */
} nr__report_seen;
void nr__report_seen_note(nr__report_seen *s, const char *text);
/* Sets p's mark to "~<k>:" for the least k not in s: 0, or
 * NR_E_NOMEM with err set. Frees s's numbers. */
int nr__report_part_pick_mark(nr__report_part *p, nr__report_seen *s, nr_error *err);
void nr__report_part_free(nr__report_part *p);

/* Serialises one node at a time into memory, with the bytes the document's
 * serialiser gives it in place (report_out.c): p[0..len), NUL after. */
struct nr__report_bytes {
    xmlOutputBuffer *out;
    char *p;
    size_t len, cap;
    int failed;
};
/* 0, or -1 when out of memory. Reads only what does not change after
 * nr_report_create (the encoder's name), so any thread may call it. */
int nr__report_bytes_open(const nr_report *r, nr__report_bytes *b);
/* n's bytes into b->p, b->len: 0, or -1 when out of memory. n may be of
 * another document than r's (a figure's), whose serialisation reads of
 * r's document only its type and encoding: any thread may call it. */
int nr__report_bytes_of(const nr_report *r, nr__report_bytes *b, xmlNode *n);
/* Appends s[0..n) to b->p: 0, or -1 when out of memory. */
int nr__report_bytes_add(nr__report_bytes *b, const char *s, size_t n);
void nr__report_bytes_close(nr__report_bytes *b);
/* The encoder's name for r's document, as htmlDocDumpMemoryFormat picks
 * it (libxml2 2.9): set once by nr_report_create. 0 or NR_E_NOMEM. */
int nr__report_set_dump_encoding(nr_report *r, nr_error *err);
/* The comment that stands for the shared text groups (unlinked), NULL when out of memory. */
xmlNode *nr__report_texts_mark(nr_report *r);
/* The <defs> of the shared glyphs in the hidden <svg> first in <body>,
 * made at the first call; NULL when out of memory (report_glyphs.c). */
xmlNode *nr__report_glyph_defs(nr_report *r);
/* Replaces every text group of svg (an imported figure, its glyphs and
 * styles numbered in p already: a <g> of glyph <use>s) by <use
 * href="#nr-t<mark>">, its bytes kept once per distinct serialisation
 * in p->texts (report_texts.c; any thread: r's document is only read). */
int nr__report_part_texts(const nr_report *r, nr__report_part *p, xmlNode *svg, nr_error *err);
/* The report's shared text group of each of p's (its bytes with the
 * numbers of maps, which has p's glyphs and styles already), made when
 * new: maps->texts[L] (an array of p->texts.count). */
int nr__report_merge_texts(nr_report *r, const nr__report_part *p, const nr__report_maps *maps, int64_t *texts,
                           nr_error *err);
/* Moves every <symbol> with an id out of svg (an imported figure, ids
 * already unique in the report) into p's glyphs, one per distinct
 * symbol, and points svg's href="#id" references at them with marks
 * (report_glyphs.c; any thread). */
int nr__report_part_glyphs(nr__report_part *p, xmlNode *svg, nr_error *err);
/* The report's shared glyph of each of p's, made when new: glyphs[L]. */
int nr__report_merge_glyphs(nr_report *r, const nr__report_part *p, int64_t *glyphs, nr_error *err);
/* Moves the style of every element at or after n (and below) into p's
 * styles: class nr-s<mark> in place of the style attribute, for a style
 * that can stand in a rule (report_styles.c; any thread). */
int nr__report_part_styles(nr__report_part *p, xmlNode *n, nr_error *err);
/* The report's shared style of each of p's: styles[L]. */
int nr__report_merge_styles(nr_report *r, const nr__report_part *p, int64_t *styles, nr_error *err);
/* The report's CSS followed by a rule per shared style: a new string
 * (free), NULL when out of memory. */
char *nr__report_css_with_styles(const nr_report *r);
/* The document, pruned and with its CSS, serialised with its figure marks:
 * *doc (xmlFree) of *len bytes. */
int nr__report_dump(nr_report *r, char **doc, size_t *len, nr_error *err);

#endif
