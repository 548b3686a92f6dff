/* cli/json_stream.c: a document whose long arrays are written item by item
 * is byte for byte jansson's dump of the whole tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "json_file.h"
#include "json_stream.h"

#define FLAGS (JSON_SORT_KEYS | JSON_INDENT(1) | JSON_REAL_PRECISION(9))
#define NSPANS 50000 /* about 3.5 MB of text: past the 1 MiB write buffer */

typedef struct span { const char *name; double t0, t1; } span;

static json_t *span_item(const void *ctx, size_t i)
{
    const span *s = (const span *)ctx + i;
    return json_pack("{s:o, s:f, s:f}", "name", nr_cli_json_text(s->name), "t1_s", s->t1, "t0_s", s->t0);
}

static json_t *real_item(const void *ctx, size_t i) { return json_real(((const double *)ctx)[i]); }

typedef json_t *(*item_fn)(const void *, size_t);

/* The array itself (js NULL) or its placeholder. */
static json_t *array_of(nr_json_stream *js, item_fn item, const void *ctx, size_t n)
{
    if (js)
        return nr_json_stream_defer(js, item, ctx, n);
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, item(ctx, i));
    return a;
}

static span spans[NSPANS];
static const double reals[] = {1.5, -2e-05, 3.0176e-05, 1e300, 0.1};

/* Long arrays as object members at two depths, as array elements, empty,
 * and a name that reads as a placeholder. */
static json_t *document(nr_json_stream *js)
{
    json_t *series = json_array();
    json_array_append_new(series, json_pack("{s:s, s:o, s:o, s:i}", "name", "r0", "phases",
                                            array_of(js, span_item, spans, NSPANS), "bursts",
                                            array_of(js, span_item, spans, 0), "zz", 1));
    json_array_append_new(series, json_pack("{s:s, s:o}", "name", "r1", "phases", array_of(js, span_item, spans + 7, 1)));
    return json_pack("{s:{s:o}, s:[o, i, o], s:o, s:[]}", "a", "series", series, "b",
                     array_of(js, real_item, reals, 5), 5, array_of(js, real_item, reals, 1), "c",
                     nr_cli_json_text("\x01niorep deferred array 0\x02"), "d");
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *b = malloc(64 << 20);
    *n = fread(b, 1, 64 << 20, f);
    fclose(f);
    return b;
}

static const char *tmp_path(const char *name)
{
    static char p[4][512];
    static int k;
    const char *dir = getenv("NR_BINARY_DIR");
    snprintf(p[k & 3], sizeof p[0], "%s/tests/report/%s", dir ? dir : ".", name);
    return p[k++ & 3];
}

static void placeholders_write_the_whole_tree(void **state)
{
    (void)state;
    for (int i = 0; i < NSPANS; i++)
        spans[i] = (span){i % 3 ? "step" : "ev\"al\\\n\x01", i * 1e-4 - 2e-5, i * 1e-4 + 5e-5};
    json_t *whole = document(NULL);
    nr_error err = {0};
    assert_int_equal(nr_cli_write_json(tmp_path("stream_whole.json"), whole, FLAGS, &err), 0);
    json_decref(whole);

    nr_json_stream js;
    nr_json_stream_init(&js);
    json_t *doc = document(&js);
    assert_int_equal(js.n, 5);
    nr_outfile out;
    assert_int_equal(nr_json_stream_stage(tmp_path("stream_parts.json"), doc, FLAGS, &js, &out, &err), 0);
    assert_int_equal(nr_outfile_commit(&out, &err), 0);
    json_decref(doc);
    nr_json_stream_fini(&js);

    size_t na, nb;
    char *a = slurp(tmp_path("stream_whole.json"), &na), *b = slurp(tmp_path("stream_parts.json"), &nb);
    assert_true(na > (3u << 20));
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    free(a);
    free(b);
}

/* A placeholder twice, one left out of the document, or a document not
 * indented: an error, no file. */
static void misplaced_placeholders_are_errors(void **state)
{
    (void)state;
    nr_json_stream js;
    nr_json_stream_init(&js);
    json_t *p = nr_json_stream_defer(&js, real_item, reals, 2);
    json_t *twice = json_pack("{s:O, s:O}", "x", p, "y", p);
    nr_error err = {0};
    nr_outfile out;
    const char *path = tmp_path("stream_bad.json");
    unlink(path);
    assert_int_equal(nr_json_stream_stage(path, twice, FLAGS, &js, &out, &err), NR_E_INPUT);
    assert_non_null(strstr(err.msg, "stream_bad.json"));
    json_t *none = json_pack("{s:i}", "x", 1);
    assert_int_equal(nr_json_stream_stage(path, none, FLAGS, &js, &out, &err), NR_E_INPUT);
    json_t *once = json_pack("{s:O}", "x", p);
    assert_int_equal(nr_json_stream_stage(path, once, JSON_SORT_KEYS, &js, &out, &err), NR_E_USAGE);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(nr_json_stream_stage(path, once, FLAGS, &js, &out, &err), 0);
    assert_int_equal(nr_outfile_commit(&out, &err), 0);
    size_t n;
    char *text = slurp(path, &n);
    assert_int_equal(n, strlen("{\n \"x\": [\n  1.5,\n  -2e-5\n ]\n}\n"));
    assert_memory_equal(text, "{\n \"x\": [\n  1.5,\n  -2e-5\n ]\n}\n", n);
    free(text);
    json_decref(p);
    json_decref(twice);
    json_decref(none);
    json_decref(once);
    nr_json_stream_fini(&js);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(placeholders_write_the_whole_tree),
        cmocka_unit_test(misplaced_placeholders_are_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
