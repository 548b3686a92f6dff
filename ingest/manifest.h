/* manifest: reads RUN_DIR/manifest.json (docs/run-directory.md) into a
 * flat, sorted list of key/value strings for table meta, plus the facts
 * ingest itself needs. */
#ifndef MANIFEST_H
#define MANIFEST_H

#include <stddef.h>

#include "nr_error.h"

typedef struct nr_manifest_kv {
    char *key;    /* dotted path: "labels.workload", "host.name", "fs.0.type", ... */
    char *value;  /* scalars as text; JSON null as "" */
} nr_manifest_kv;

typedef struct nr_manifest {
    nr_manifest_kv *items;  /* sorted by key */
    size_t count;
    char *cwd;              /* working directory of the traced command, or NULL */
} nr_manifest;

void nr_manifest_init(nr_manifest *m);
void nr_manifest_fini(nr_manifest *m);
/* Loads path into m. A malformed manifest is NR_E_INPUT naming the file,
 * line and column (jansson's). */
int nr_manifest_load(const char *path, nr_manifest *m, nr_error *err);
/* The value of key, or NULL. */
const char *nr_manifest_get(const nr_manifest *m, const char *key);

#endif
