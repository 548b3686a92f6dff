/* runset: the runs of `niorep build` and `niorep figures`. Expands the inputs
 * (stores, run directories, traces folders of run directories), ingests each
 * run directory into a cached store unless the cache is fresh, opens the
 * stores and computes their models. docs/report.md, "Inputs and the cache". */
#ifndef NR_RUNSET_H
#define NR_RUNSET_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "nr_error.h"
#include "nr_model.h"
#include "nr_store.h"

typedef struct nr_run {
    char *name;          /* run name: directory or store base name, unique in the set */
    char *source;        /* what the report shows: the path relative to the input given */
    char *input_path;    /* run dir or log file to ingest; NULL for a store input */
    char *store_path;    /* the store read (given, cached or temporary) */
    uint64_t input_dev, input_ino; /* of the input given (folder, log or store): a run given
                            twice is read once; 0 when unknown */
    char **inputs;       /* the files the ingest of input_path reads (nr_ingest_input_files),
                            found once for the fingerprint and the outputs' check (owned);
                            NULL until then */
    size_t ninputs;
    char **not_read;     /* the other entries of its folder, "NAME\tREASON", which its
                            store notes (nr_ingest_input_files; owned): in the fingerprint */
    size_t nnot_read;
    int cache_hit;       /* 1 when a cached store was reused */
    char *fingerprint;   /* of the inputs, while the run waits for its ingest (owned) */
    uint64_t input_bytes; /* the files of a run to ingest, for the progress of the load */
    int temporary;       /* 1 when store_path is a temporary file removed at the end */
    int made_cache_dir;  /* 1 when this build made the cache folder of store_path (removed at
                            the end when left empty) */
    nr_store *store;     /* open after nr_runset_load */
    nr_model *model;
    char *model_key;     /* the key its model's fits were kept under (nr_fit_cache_key), NULL
                            when they are not kept; set with model by nr_runset_load */
    char **parts;        /* a run merged from node stores reused from the cache: the
                            stores it was made of, to merge again when the cache is
                            damaged (owned); NULL otherwise */
    size_t nparts;
} nr_run;

/* A folder of a traces folder that is no run, and why (the text niorep
 * printed on stderr, without the folder's path). */
typedef struct nr_left_out {
    char *path, *why; /* owned */
} nr_left_out;

typedef struct nr_runset {
    size_t n;
    nr_run *runs;        /* owned */
    /* The folders of traces folders left out of the runs (each also said on
       stderr), in the order found, but those holding no file or only what
       `--figures` writes (runset.c, holds_only_figures): a report that listed
       those would change once a first build wrote its figures there.
       Owned. */
    nr_left_out *left_out;
    size_t nleft_out;
    double ingest_s, model_s;   /* monotonic time spent, for --timings */
    double model_wall_s;        /* nr_runset_model_each: the calling thread's wall time waiting for models (modelling some itself) */
    size_t models_held, models_peak; /* models alive now, and at most at once (--timings) */
    size_t ingested, reused;    /* run directories whose store was made, or reused from the cache */
    size_t merged, merges_reused; /* the same for the stores merged from node stores */
    char *tmpdir;        /* owned; created when a cache directory was not writable */
    int jobs;            /* threads for nr_runset_load (runs ingested and modelled in
                            parallel); 0 = all cores. Set after nr_runset_expand. */
    int per_node;        /* 1: node stores of one run stay separate runs (no merge).
                            Set after nr_runset_expand. */
    int files_by_node;   /* 1: merged runs name every file "<node>:<path>"
                            (nr_merge_opts). Set after nr_runset_expand. */
    int no_models;       /* 1: nr_runset_load ingests and opens, and models
                            nothing: the caller models a run when it needs
                            it (nr_runset_model). Set after nr_runset_expand. */
    /* The ingest of the runs whose cache is stale, as bytes of their files
       done and in all: called from the worker threads, one call at a time,
       every few MB, and once with done == total at the end of the ingests.
       Never called when every cache is fresh. NULL = none. Set after
       nr_runset_expand. */
    void (*ingest_progress)(void *ctx, uint64_t done, uint64_t total);
    void *ingest_progress_ctx;
    /* Each merge of the node stores of run `run` (its label) into its
       store, as rows merged and in all (nr_merge_opts.progress): called on
       the thread of nr_runset_load, first with done == 0, last with done ==
       total. Never called for a merged store reused from the cache. NULL =
       none. Set after nr_runset_expand. */
    void (*merge_progress)(void *ctx, const char *run, uint64_t done, uint64_t total);
    void *merge_progress_ctx;
} nr_runset;

/* rs's left_out as a JSON array of {"folder", "why"} (figures.json,
 * compare --json); NULL when out of memory. */
json_t *nr_left_out_json(const nr_runset *rs);

/* Expands inputs (borrowed) into rs (zeroed first). Returns 0, NR_E_NOTFOUND
 * naming an input that does not exist, or NR_E_INPUT for an empty traces folder. */
int nr_runset_expand(nr_runset *rs, char *const *inputs, size_t n, nr_error *err);
/* Ingests (or reuses the cache), opens and models every run, rs->jobs runs
 * at a time (results do not depend on it). progress names each run modelled
 * (run, "model") and each run merged from node stores (run, "merge"); the
 * ingests report bytes (ingest_progress). Unless rs->per_node, the node
 * stores of one run (same meta manifest.labels.run, each with its
 * manifest.labels.node) become one merged run first (docs/multi-node.md). progress may be NULL; it is called
 * from the worker threads, one call at a time. On failure returns the error of
 * the first failing run in run order. */
int nr_runset_load(nr_runset *rs, const nr_model_opts *opts,
                   void (*progress)(const nr_run *run, const char *what), nr_error *err);
/* The model of run r, opened by nr_runset_load, as nr_runset_load models
 * it (its power-law fits kept beside a cached store); the caller frees it.
 * model_key (may be NULL) gets the key the fits were kept under, a new
 * string the caller frees, NULL when they are not kept. Several threads
 * may model runs at once, the same run too. */
int nr_runset_model(const nr_run *r, const nr_model_opts *opts, nr_model **out, char **model_key, nr_error *err);
/* What nr_runset_model_each does with run i (its model set): 0 or a
 * negative code with err set. */
typedef int (*nr_runset_use_fn)(void *ctx, size_t i, const nr_run *run, nr_error *err);
/* Models the runs of rs (nr_runset_load with no_models set) on rs->jobs
 * threads (the calling one among them), at most 2 per job ahead of their
 * use, and calls use on each, in run order, on the calling thread, then
 * frees its model (model_key stays): memory holds the models of a few runs
 * whatever their number (models_peak). progress as nr_runset_load's.
 * Returns 0, the first error of a model or of use in run order, the runs
 * after it not used (those already modelled freed). */
int nr_runset_model_each(nr_runset *rs, const nr_model_opts *opts,
                         void (*progress)(const nr_run *run, const char *what), nr_runset_use_fn use, void *ctx,
                         nr_error *err);

/* NR_E_USAGE when output out is one of the files a run of rs reads (a
 * run folder's logs, hook or manifest, a store given), naming both, or is
 * named like a store (.nio) or lies in a cache folder (.niorep), else
 * 0: `build T -o T/R/strace.log` replaced the log with the report, and
 * `compare --json T/R/manifest.json` the manifest (review 48). Call after
 * nr_runset_expand, before any work; it finds each run's inputs (kept on
 * the run for its fingerprint). */
int nr_runset_check_output(nr_runset *rs, const char *out, nr_error *err);

/* Says on stderr how many stores nr_runset_load made and how many it
 * reused from the cache: one line for run folders, one for merged node
 * stores, each only when there were any. group prefixes them ("A: " for
 * compare's groups, else ""). */
void nr_runset_say_reuse(const nr_runset *rs, const char *group);

/* Closes everything, removes temporary stores. Accepts a zeroed rs. */
void nr_runset_fini(nr_runset *rs);

/* Seconds on the monotonic clock. */
double nr_runset_now(void);

#endif
