/* json_stream: a JSON document with a few long arrays (figure 5's phase
 * spans: one per merged interval, a million in a run of a phase a step),
 * written without holding those arrays as a jansson tree (hundreds of
 * bytes an item). The document is built with a placeholder in each long
 * array's place; on writing, each placeholder becomes its array, item by
 * item, each item dumped alone and indented as jansson indents it in
 * place: the bytes of a dump of the whole tree. */
#ifndef NR_JSON_STREAM_H
#define NR_JSON_STREAM_H

#include <stddef.h>

#include <jansson.h>

#include "nr_error.h"
#include "nr_outfile.h"

/* Item i of a long array: a new reference, NULL when out of memory. */
typedef json_t *(*nr_json_item_fn)(const void *ctx, size_t i);

typedef struct nr_json_stream {
    struct nr_json_deferred { nr_json_item_fn item; const void *ctx; size_t n; } *arrays;
    size_t n, cap;
} nr_json_stream;

void nr_json_stream_init(nr_json_stream *s);
void nr_json_stream_fini(nr_json_stream *s);

/* The placeholder of the array of items item(ctx, 0..n): a new
 * reference to put where the array goes; NULL when out of memory. ctx
 * must live until the document is written. */
json_t *nr_json_stream_defer(nr_json_stream *s, nr_json_item_fn item, const void *ctx, size_t n);

/* nr_cli_stage_json for a document holding s's placeholders: flags must
 * indent (JSON_INDENT(n), n > 0). */
int nr_json_stream_stage(const char *path, const json_t *doc, size_t flags, const nr_json_stream *s, nr_outfile *out,
                         nr_error *err);

#endif
