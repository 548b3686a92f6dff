/* json_file: a JSON document written as one output file of the CLI
 * (figures.json, a trace's manifest.json, compare --json), and the text
 * such a document holds. */
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

/* s as a JSON string, each byte that is not UTF-8 (or a control character
 * but tab and newline) as the text \xNN (nr_utf8_clean, as the report and
 * the figures show it): names and paths are bytes, and jansson makes no
 * string of invalid UTF-8. NULL when out of memory. */
json_t *nr_cli_json_text(const char *s);

#endif
