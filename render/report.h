/* report: the HTML report engine. Parses a template (templates/report.html,
 * compiled in), fills its marked nodes (data-nr="...") with generated nodes,
 * imports SVG figures as inline SVG, inlines the CSS and serialises one
 * self-contained HTML5 file. docs/report.md documents the marking scheme.
 *
 * Every string given here is inserted as a text node, never parsed as markup:
 * a file name "<script>" stays text. Strings need not be UTF-8: invalid bytes
 * and control characters are shown as \xNN (common/nr_utf8.h).
 *
 * Ownership: nr_report owns the document and every node; block and table
 * handles are borrowed from it and live until nr_report_destroy. String
 * arguments are borrowed for the call. */
#ifndef NR_REPORT_H
#define NR_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "nr_error.h"

typedef struct nr_report nr_report;
typedef struct nr_report_block nr_report_block;   /* a place content goes (an element) */
typedef struct nr_report_table nr_report_table;

/* The per-run sections of the template, in report order (data-nr values). */
#define NR_REPORT_RUN_SECTIONS(X)                          \
    X(NR_SEC_FACTS, "run-facts")                           \
    X(NR_SEC_PHASES, "phases")                             \
    X(NR_SEC_CONCENTRATION, "concentration")               \
    X(NR_SEC_LATENCY, "latency")                           \
    X(NR_SEC_TIMELINE, "timeline")                         \
    X(NR_SEC_ACCESS, "access")                             \
    X(NR_SEC_FINDINGS, "findings")
enum nr_report_section {
#define NR_X_SEC(id, name) id,
    NR_REPORT_RUN_SECTIONS(NR_X_SEC)
#undef NR_X_SEC
    NR_SEC_COUNT
};

/* Creates a report from template html (an HTML document with the marks of
 * docs/report.md) and style sheet css; both borrowed. Returns 0 and a new
 * report in *out, or NR_E_INPUT when the template lacks a required mark. */
int nr_report_create(const char *html, size_t html_len, const char *css, size_t css_len,
                     nr_report **out, nr_error *err);
/* Like nr_report_create with the compiled-in templates/report.html and report.css. */
int nr_report_create_default(nr_report **out, nr_error *err);
/* Accepts NULL. */
void nr_report_destroy(nr_report *r);

/* Sets the document title (<title> and every data-nr="title") and the subtitle line. */
void nr_report_set_title(nr_report *r, const char *title);
void nr_report_set_subtitle(nr_report *r, const char *subtitle);

/* The overview section (shown only when something is added to it). */
nr_report_block *nr_report_overview(nr_report *r);

/* Adds one run: a copy of the run template with heading name; id_hint names
 * the anchor (sanitised, made unique). Returns the run block (NULL on OOM). */
nr_report_block *nr_report_add_run(nr_report *r, const char *name, const char *id_hint);
/* The section sec of a run block. */
nr_report_block *nr_report_run_section(nr_report_block *run, enum nr_report_section sec);

/* ---- content: every text argument is inserted as text ---------------- */

/* A <p> (cls may be NULL: "note", "unavailable"). */
void nr_report_para(nr_report_block *b, const char *cls, const char *text);
/* A <h4> sub-heading. */
void nr_report_heading(nr_report_block *b, const char *text);
/* A figure-and-numbers pair: a flex row; the figure goes into the returned
 * block's first half (nr_report_pair_figure), tables into nr_report_pair_numbers. */
nr_report_block *nr_report_pair(nr_report_block *b);
nr_report_block *nr_report_pair_numbers(nr_report_block *pair);

/* A table with ncols columns and the given header texts; numeric columns
 * (num_cols bit i set = column i is right-aligned numbers). The table goes
 * into b when b is a numbers block (nr_report_pair_numbers), else into a
 * new <div class="numbers"> of b: a table wider than a phone's screen
 * scrolls in its own box, never the page. */
nr_report_table *nr_report_table_new(nr_report_block *b, const char *caption, size_t ncols,
                                     const char *const *headers, uint32_t num_cols);
/* Starts a new row. */
void nr_report_table_row(nr_report_table *t);
/* Appends a cell to the current row. key (may be NULL) marks a key number:
 * data-nr-key="key" data-nr-value="raw" so that tests can compare it with
 * `niorep summary --json` (raw printed with %.17g; NAN gives "null"). */
void nr_report_table_cell(nr_report_table *t, const char *text);
void nr_report_table_cell_key(nr_report_table *t, const char *text, const char *key, double raw);
/* A cell in monospace for a path. */
void nr_report_table_cell_path(nr_report_table *t, const char *path);
/* A cell of text in a column of numbers (a label's value, a host name):
 * left-aligned and wrapped, where a number's cell is kept on one line, so
 * that one long value does not push the column's numbers out of view. */
void nr_report_table_cell_text(nr_report_table *t, const char *text);

/* A findings list item: sentence, then action on its own line (may be NULL). */
void nr_report_finding(nr_report_block *b, const char *id, const char *sentence, const char *action);

/* Imports svg (len bytes, a standalone SVG document such as cairo writes) as
 * an inline <svg> inside <figure> with caption, in b. fig_key ("fig1") and a
 * per-report counter prefix every id so that ids are unique in the report;
 * url(#id), href="#id" and xlink:href="#id" references are rewritten.
 * Scripts, event handlers (on*) and foreign references (href not starting
 * with '#') are dropped. Returns 0 or NR_E_INPUT when svg does not parse. */
int nr_report_figure(nr_report *r, nr_report_block *b, const char *fig_key, const char *caption,
                     const void *svg, size_t len, nr_error *err);
/* The same in two steps, so that figures can be rendered elsewhere (on other
 * threads) between them: nr_report_figure_slot puts an empty <figure> where
 * nr_report_figure would put it and returns it (NULL: out of memory);
 * nr_report_figure_fill imports the SVG into it. Ids are numbered in the
 * order of the fills: fill the slots in the order they were made for the
 * same document as nr_report_figure calls in that order would give. */
nr_report_block *nr_report_figure_slot(nr_report *r, nr_report_block *b, const char *fig_key);
int nr_report_figure_fill(nr_report *r, nr_report_block *slot, const char *fig_key, const char *caption,
                          const void *svg, size_t len, nr_error *err);
/* nr_report_figure_fill in two steps again, so that the parse, which
 * touches no report, can run on the thread that rendered the SVG while the
 * report imports others: nr_report_svg_parse parses svg (NR_E_INPUT naming
 * fig_key when it is no SVG document); nr_report_figure_fill_parsed does
 * the rest of nr_report_figure_fill and frees the parse, whatever it
 * returns. Parse on other threads only once a report exists
 * (nr_report_create initialises libxml2's parser). */
typedef struct nr_report_svg nr_report_svg;
int nr_report_svg_parse(const void *svg, size_t len, const char *fig_key, nr_report_svg **out, nr_error *err);
int nr_report_figure_fill_parsed(nr_report *r, nr_report_block *slot, const char *fig_key, const char *caption,
                                 nr_report_svg *svg, nr_error *err);
/* nr_report_figure_fill_parsed with the figure's accessible name (the
 * svg's aria-label) given apart from its visible caption: the same caption
 * under the figures of every run, a label that names the run and its key
 * number. label NULL: the caption, as nr_report_figure_fill_parsed. */
int nr_report_figure_fill_labelled(nr_report *r, nr_report_block *slot, const char *fig_key, const char *caption,
                                   const char *label, nr_report_svg *svg, nr_error *err);
/* Accepts NULL. */
void nr_report_svg_free(nr_report_svg *svg);

/* ---- a report of many runs in bounded memory ------------------------- */

/* nr_report_figure_slot with the figure's place taken at once: its number
 * (the next, as nr_report_figure_fill would take it now) and its caption
 * go into the <figure>, so that the block holding it is complete before
 * the figure is drawn and may be spooled (nr_report_run_spool). Returns the
 * number (1, 2, ...), or 0 with err set when out of memory. */
unsigned nr_report_figure_reserve(nr_report *r, nr_report_block *b, const char *fig_key, const char *caption,
                                  nr_error *err);
/* Imports svg as figure number of nr_report_figure_reserve (fig_key and
 * caption as given there; label: the svg's accessible name, NULL: the
 * caption) and frees svg, whatever it returns. Fill the numbers in the
 * order they were reserved, with no other fill between: figures share
 * their glyphs and styles in the order of the fills, so that order is
 * the bytes' (a report that fills in slot order as nr_report_figure_fill
 * does is byte for byte the same). */
int nr_report_figure_fill_reserved(nr_report *r, unsigned number, const char *fig_key, const char *caption,
                                   const char *label, nr_report_svg *svg, nr_error *err);
/* nr_report_figure_fill_reserved in two steps, so that most of an import
 * runs on the thread that drew or loaded the figure: nr_report_figure_part
 * does all that needs none of the report's shared glyphs, styles and text
 * groups (ids prefixed, the figure cleaned, its glyphs, styles and text
 * groups numbered within it, the figure serialised) and frees svg,
 * whatever it returns; it reads nothing of r that changes after
 * nr_report_create, so it may run on any thread while r is in use.
 * nr_report_figure_fill_part merges *part into r (each number of the
 * figure's made the report's, the bytes spooled) and frees it, whatever
 * it returns: on r's thread, in the order of the numbers, as
 * nr_report_figure_fill_reserved. */
typedef struct nr_report_part nr_report_part;
int nr_report_figure_part(const nr_report *r, unsigned number, const char *fig_key, const char *caption,
                          const char *label, nr_report_svg *svg, nr_report_part **part, nr_error *err);
int nr_report_figure_fill_part(nr_report *r, nr_report_part *part, nr_error *err);
/* Accepts NULL. */
void nr_report_part_free(nr_report_part *part);
/* Serialises run block run (nr_report_add_run's, filled; its figures
 * reserved, filled or not) into the report's spool, as the document's
 * serialiser would write it there, and frees its nodes: the run's blocks
 * and tables must not be used again. The report then holds a few bytes
 * of the run rather than its tree (about 340 kB a run of `niorep build`:
 * docs/report.md, "Memory"); the bytes written are the same. */
int nr_report_run_spool(nr_report *r, nr_report_block *run, nr_error *err);
/* A figure placeholder with the reason it is missing. */
void nr_report_figure_missing(nr_report_block *b, const char *caption, const char *reason);

/* Serialises the document as HTML5 (<!DOCTYPE html>) with the CSS inlined
 * and unused marks removed. Returns 0 and a new malloc'ed buffer in *buf
 * (caller frees; NUL-terminated, *len without the NUL). */
int nr_report_serialize(nr_report *r, char **buf, size_t *len, nr_error *err);
/* Serialises and writes to path atomically (nr_outfile). */
int nr_report_write(nr_report *r, const char *path, nr_error *err);

/* ---- helpers --------------------------------------------------------- */

/* Number formats with units (3 significant digits): bytes in binary units
 * ("1.5 GiB", "512 B"), durations adaptive ("870 ns", "1.2 µs", "35 ms",
 * "4.1 s", "2 min 5 s", "1 h 3 min"), shares as percentages ("92.4%"),
 * counts with thin grouping ("1 234 567"), rates ("1.2 GiB/s").
 * NAN gives "n/a". Each writes at most cap bytes and returns buf. */
char *nr_report_fmt_bytes(double bytes, char *buf, size_t cap);
char *nr_report_fmt_seconds(double s, char *buf, size_t cap);
char *nr_report_fmt_percent(double fraction, char *buf, size_t cap);
char *nr_report_fmt_count(double n, char *buf, size_t cap);
char *nr_report_fmt_rate(double bytes_per_s, char *buf, size_t cap);
char *nr_report_fmt_real(double x, char *buf, size_t cap);

#endif
