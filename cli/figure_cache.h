/* figure_cache: the SVG of each figure of a run's section in a report,
 * kept beside the run's cached store as <store>.fig<ID>-B-S (bootstraps B,
 * seed S), so that a build of unchanged runs does not draw them again.
 * docs/report.md, "Inputs and the cache". */
#ifndef NR_CLI_FIGURE_CACHE_H
#define NR_CLI_FIGURE_CACHE_H

#include <stddef.h>

#include "nr_error.h"
#include "nr_model.h"
#include "nr_render.h"

/* What every kept figure's key ends with: the code that draws and the fonts
 * it draws with, each file by path, size and mtime (ns): the executable, every
 * shared library loaded with it, the font files (nr_render_font_file). A new string,
 * NULL when out of memory or /proc/self/exe cannot be read. */
char *nr_figure_cache_code_key(void);

/* The key and the file of one figure of a cached store's run. */
typedef struct nr_figure_cache_entry {
    char *key;  /* compared as bytes with the file's start */
    char *path; /* <store>.fig<ID>-B-S */
} nr_figure_cache_entry;

/* The run's part of the keys of its figures: its name (the figures draw
 * it) and the key its model's fits were kept under (nr_fit_cache_key, as
 * nr_runset_model hands it over: the store and its inputs as the model
 * read them, with no second read). A new string; NULL when out of memory. */
char *nr_figure_cache_run_key(const char *model_key, const char *run_name);

/* The entry of figure fig_id at width_pt of the run whose store is at
 * store_path, modelled under opts (resolved: nr_model_resolve_opts);
 * run_key from nr_figure_cache_run_key, code_key from
 * nr_figure_cache_code_key. Returns 1, or 0 when out of memory. */
int nr_figure_cache_entry_open(nr_figure_cache_entry *e, const char *store_path, const nr_model_opts *opts,
                               const char *run_key, const char *code_key, int fig_id, double width_pt);
void nr_figure_cache_entry_close(nr_figure_cache_entry *e);

/* The SVG kept for e: 1 with *svg set (the caller finis it), or 0 when
 * none is kept, it was kept under another key, or the file is damaged. */
int nr_figure_cache_load(const nr_figure_cache_entry *e, nr_render_buf *svg);
/* Keeps the n bytes of svg for e. Returns 0 or NR_E_IO / NR_E_NOMEM naming the file. */
int nr_figure_cache_save(const nr_figure_cache_entry *e, const void *svg, size_t n, nr_error *err);

/* The bytes of a kept figure: key, "svg <n>\n", then one zstd frame of
 * the n bytes with their size and checksum. 0 with *out set (the caller
 * finis it), or NR_E_NOMEM. */
int nr_figure_cache_pack(const char *key, const void *svg, size_t n, nr_render_buf *out);
/* The SVG of the n bytes of file when they are key followed by one frame
 * as nr_figure_cache_pack writes it, whole and unchanged: 1 with *svg set
 * (the caller finis it), else 0. */
int nr_figure_cache_unpack(const void *file, size_t n, const char *key, nr_render_buf *svg);

#endif
