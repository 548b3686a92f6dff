/* fit_cache: the power-law fits of a cached store's model, kept beside the
 * store as <store>.fits-B-S (bootstraps B, seed S), so that a build of unchanged runs does not fit
 * (and bootstrap) again. docs/report.md, "Inputs and the cache". */
#ifndef NR_CLI_FIT_CACHE_H
#define NR_CLI_FIT_CACHE_H

#include "nr_error.h"
#include "nr_model.h"

/* The key and the file of a cached store's fits under some options. */
typedef struct nr_fit_cache_entry {
    char *key;  /* the file's first lines, compared as bytes */
    char *path; /* <store>.fits-B-S */
} nr_fit_cache_entry;

/* The key of a cached store's model under opts (resolved): the niorep
 * version and the fits' format, the options, the store's size and mtime
 * and its fingerprint <store>.inputs. A new string; NULL when the store
 * has no fingerprint or out of memory. The kept figures of the store's
 * run start with it too (figure_cache.h). */
char *nr_fit_cache_key(const char *store_path, const nr_model_opts *opts);

/* The entry of the store at store_path under the model options opts
 * (resolved: nr_model_resolve_opts), its key read once (the niorep
 * version, the options, the store's size and mtime and its fingerprint
 * <store>.inputs): 1, or 0 when the store has no fingerprint (a store
 * niorep did not cache keeps no fits) or out of memory. */
int nr_fit_cache_entry_open(nr_fit_cache_entry *e, const char *store_path, const nr_model_opts *opts);
void nr_fit_cache_entry_close(nr_fit_cache_entry *e);

/* The fits kept for e: 1 with fits[NR_PL_COUNT] set, or 0 when none are
 * kept or they were kept under another key. */
int nr_fit_cache_load(const nr_fit_cache_entry *e, nr_powerlaw_fit fits[NR_PL_COUNT]);

/* Keeps the fits of model m, computed from e's store under e's options.
 * Returns 0 or NR_E_IO / NR_E_NOMEM naming the file. */
int nr_fit_cache_save(const nr_fit_cache_entry *e, const nr_model *m, nr_error *err);

/* The text of a fits file: key, then one line per fit. A new string, NULL
 * when out of memory. */
char *nr_fit_cache_format(const char *key, const nr_powerlaw_fit fits[NR_PL_COUNT]);
/* The fits of text when it is key followed by NR_PL_COUNT fit lines, as
 * nr_fit_cache_format writes them: 1 with fits set, else 0. */
int nr_fit_cache_parse(const char *text, const char *key, nr_powerlaw_fit fits[NR_PL_COUNT]);

#endif
