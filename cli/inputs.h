/* inputs: resolves a command-line input of `niorep compare` (and of any
 * command taking TRACES_DIR|RUN_DIR|RUN.nio) into stores, ingesting what is
 * not a store yet into a work directory.
 *
 * An input is, in this order: a store file (opens as one); a run directory
 * or one log file (nr_runfind finds a log in it); a traces folder: every
 * store file and every run directory directly inside it, sorted by name. */
#ifndef NR_CLI_INPUTS_H
#define NR_CLI_INPUTS_H

#include <stddef.h>

#include "nr_error.h"

typedef struct nr_input_run {
    char *name;        /* run directory or store name without ".nio" (owned) */
    char *source;      /* the path given or found (owned) */
    char *store_path;  /* the store to open (owned): source, or a store in the work dir */
    int ingested;      /* 1 when store_path was written by nr_inputs_resolve */
} nr_input_run;

typedef struct nr_input_group {
    const char *arg;   /* the input as given (borrowed) */
    nr_input_run *runs;
    size_t n;
} nr_input_group;

void nr_input_group_init(nr_input_group *g, const char *arg);
void nr_input_group_fini(nr_input_group *g);

/* Resolves arg into g (initialised by nr_input_group_init). Stores that must
 * be ingested are written to work_dir as "<tag>-<index>.nio". Returns 0 or a
 * negative code with err naming the input; NR_E_INPUT when arg holds no run. */
int nr_inputs_resolve(const char *arg, const char *work_dir, const char *tag, nr_input_group *g, nr_error *err);

/* A new empty temporary directory (under $TMPDIR or /tmp); caller frees the
 * string and removes the directory with nr_inputs_remove_work_dir. */
int nr_inputs_make_work_dir(char **out, nr_error *err);
/* Removes the files directly inside dir, then dir. Accepts NULL. */
void nr_inputs_remove_work_dir(const char *dir);

#endif
