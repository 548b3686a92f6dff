/* json_file: a JSON document written as one output file of the CLI
 * (figures.json, a trace's manifest.json, compare --json). */
#ifndef NR_JSON_FILE_H
#define NR_JSON_FILE_H

#include <stddef.h>

#include <jansson.h>

#include "nr_error.h"
#include "nr_outfile.h"

/* Writes doc (borrowed), dumped with the jansson flags, plus a newline to
 * path atomically (common/nr_outfile.h): the old file stays until the new
 * one is complete. */
int nr_cli_write_json(const char *path, const json_t *doc, size_t flags, nr_error *err);

/* Like nr_cli_write_json, but leaves the complete temporary file open in
 * *out for the caller to commit or abort (outputs replaced as a set). On
 * failure nothing is left open. */
int nr_cli_stage_json(const char *path, const json_t *doc, size_t flags, nr_outfile *out, nr_error *err);

#endif
