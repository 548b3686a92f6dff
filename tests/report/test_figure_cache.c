/* The kept figures of a cached store (cli/figure_cache.c): the file's bytes
 * by hand, every kind of damage read as no figure, and the key of an entry
 * following what the figure depends on. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "figure_cache.h"
#include "fit_cache.h"

static const char svg_text[] = "<svg xmlns=\"http://www.w3.org/2000/svg\"><path d=\"M 0 0 L 1 1\"/></svg>";

static nr_render_buf packed(const char *key, const void *svg, size_t n)
{
    nr_render_buf file;
    assert_int_equal(nr_figure_cache_pack(key, svg, n, &file), 0);
    return file;
}

static int unpacks(const nr_render_buf *file, size_t n, const char *key)
{
    nr_render_buf svg;
    const int found = nr_figure_cache_unpack(file->data, n, key, &svg);
    if (found)
        nr_render_buf_fini(&svg);
    return found;
}

static void pack_layout_by_hand(void **state)
{
    (void)state;
    nr_render_buf file = packed("K\n", svg_text, strlen(svg_text));
    char head[32];
    snprintf(head, sizeof head, "K\nsvg %zu\n", strlen(svg_text));
    assert_memory_equal(file.data, head, strlen(head));
    const unsigned char *frame = file.data + strlen(head);
    assert_memory_equal(frame, "\x28\xb5\x2f\xfd", 4); /* a zstd frame */
    assert_true(frame[4] & 4);                          /* with a checksum */
    nr_render_buf svg;
    assert_int_equal(nr_figure_cache_unpack(file.data, file.len, "K\n", &svg), 1);
    assert_int_equal(svg.len, strlen(svg_text));
    assert_memory_equal(svg.data, svg_text, svg.len);
    nr_render_buf_fini(&svg);
    nr_render_buf_fini(&file);

    file = packed("K\n", "", 0); /* an empty figure is kept as one */
    assert_int_equal(nr_figure_cache_unpack(file.data, file.len, "K\n", &svg), 1);
    assert_int_equal(svg.len, 0);
    nr_render_buf_fini(&svg);
    nr_render_buf_fini(&file);
}

static void other_keys_read_as_none(void **state)
{
    (void)state;
    nr_render_buf file = packed("K\nA\n", svg_text, strlen(svg_text));
    assert_true(unpacks(&file, file.len, "K\nA\n"));
    assert_false(unpacks(&file, file.len, "K\nB\n"));
    assert_false(unpacks(&file, file.len, "K\n"));       /* a key that is a prefix of the kept one */
    assert_false(unpacks(&file, file.len, "K\nA\nX\n")); /* one the kept key is a prefix of */
    nr_render_buf_fini(&file);
}

static void damage_reads_as_none(void **state)
{
    (void)state;
    nr_render_buf file = packed("K\n", svg_text, strlen(svg_text));
    for (size_t n = 0; n < file.len; n++) /* every truncation */
        assert_false(unpacks(&file, n, "K\n"));
    /* every bit flipped but the frame header descriptor's unused bit 4,
       which a decoder must not interpret (RFC 8878, 3.1.1.1.1.3) */
    char head[32];
    const size_t descriptor = (size_t)snprintf(head, sizeof head, "K\nsvg %zu\n", strlen(svg_text)) + 4;
    for (size_t i = 0; i < file.len; i++)
        for (unsigned bit = 0; bit < 8; bit++) {
            if (i == descriptor && bit == 4)
                continue;
            file.data[i] ^= (unsigned char)(1u << bit);
            if (unpacks(&file, file.len, "K\n"))
                fail_msg("bit %u of byte %zu of %zu flipped, read as a figure", bit, i, file.len);
            file.data[i] ^= (unsigned char)(1u << bit);
        }
    assert_true(unpacks(&file, file.len, "K\n"));

    /* bytes after the frame */
    nr_render_buf longer = packed("K\n", svg_text, strlen(svg_text));
    unsigned char *grown = realloc(longer.data, longer.len + 1);
    assert_non_null(grown);
    longer.data = grown;
    longer.data[longer.len] = 0;
    assert_false(unpacks(&longer, longer.len + 1, "K\n"));
    nr_render_buf_fini(&longer);

    /* a header whose size is not the frame's */
    char text[64];
    int w = snprintf(text, sizeof text, "K\nsvg %zu\n", strlen(svg_text) + 1);
    nr_render_buf other = {0};
    other.cap = (size_t)w + file.len;
    other.data = malloc(other.cap);
    assert_non_null(other.data);
    memcpy(other.data, text, (size_t)w);
    const size_t old_head = (size_t)snprintf(text, sizeof text, "K\nsvg %zu\n", strlen(svg_text));
    memcpy(other.data + w, file.data + old_head, file.len - old_head);
    other.len = (size_t)w + file.len - old_head;
    assert_false(unpacks(&other, other.len, "K\n"));
    nr_render_buf_fini(&other);
    nr_render_buf_fini(&file);
}

/* A directory of its own under the build tree, emptied first. */
static void scratch_dir(char *dir, size_t cap)
{
    const char *bin = getenv("NR_BINARY_DIR");
    snprintf(dir, cap, "%s/test_figure_cache.%d", bin && *bin ? bin : "/tmp", (int)getpid());
    mkdir(dir, 0755);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The entry of a figure of the run named name, as a build opens it: under
 * the key its model's fits are kept under. */
static int open_entry(nr_figure_cache_entry *e, const char *store, const nr_model_opts *o, const char *code,
                      const char *name, int fig, double width)
{
    char *model = nr_fit_cache_key(store, o);
    char *run = model ? nr_figure_cache_run_key(model, name) : NULL;
    const int opened = run && nr_figure_cache_entry_open(e, store, o, run, code, fig, width);
    free(run);
    free(model);
    return opened;
}

static char *entry_key(const char *store, const nr_model_opts *o, const char *code, const char *name, int fig,
                       double width)
{
    nr_figure_cache_entry e;
    if (!open_entry(&e, store, o, code, name, fig, width))
        return NULL;
    char *key = strdup(e.key);
    nr_figure_cache_entry_close(&e);
    return key;
}

static void keys_follow_what_figures_depend_on(void **state)
{
    (void)state;
    char dir[512], store[600], inputs[620];
    scratch_dir(dir, sizeof dir);
    snprintf(store, sizeof store, "%s/run.nio", dir);
    snprintf(inputs, sizeof inputs, "%s/run.nio.inputs", dir);
    write_file(store, "not a store: the key only stats it");
    unlink(inputs);
    nr_model_opts o = nr_model_resolve_opts(NULL);
    char *code = nr_figure_cache_code_key();
    assert_non_null(code);
    assert_non_null(strstr(code, "exe "));
    assert_non_null(strstr(code, "libcairo"));
    assert_non_null(strstr(code, "DejaVuSans.ttf"));
    assert_null(entry_key(store, &o, code, "run", 1, 252)); /* no fingerprint: not kept */

    write_file(inputs, "fingerprint 1\n");
    char *base = entry_key(store, &o, code, "run", 1, 252);
    assert_non_null(base);
    char *same = entry_key(store, &o, code, "run", 1, 252);
    assert_string_equal(base, same);
    const char *differ[] = {"figure", "width", "name", "name made of another", "options", "code", "inputs"};
    char *keys[7];
    nr_model_opts o30 = o;
    o30.bootstraps = 30;
    keys[0] = entry_key(store, &o, code, "run", 2, 252);
    keys[1] = entry_key(store, &o, code, "run", 1, 504);
    keys[2] = entry_key(store, &o, code, "run2", 1, 252);
    keys[3] = entry_key(store, &o, code, "run\nfigure 1", 1, 252);
    keys[4] = entry_key(store, &o30, code, "run", 1, 252);
    keys[5] = entry_key(store, &o, "exe 3:/x 1 1.000000000\n", "run", 1, 252);
    write_file(inputs, "fingerprint 2\n");
    keys[6] = entry_key(store, &o, code, "run", 1, 252);
    for (size_t i = 0; i < 7; i++) {
        assert_non_null(keys[i]);
        if (strcmp(keys[i], base) == 0)
            fail_msg("the key does not follow the %s", differ[i]);
        free(keys[i]);
    }

    /* kept, read back, and kept under the file name of its options */
    nr_figure_cache_entry e;
    assert_int_equal(open_entry(&e, store, &o30, code, "run", 3, 252), 1);
    char want[700];
    snprintf(want, sizeof want, "%s.fig3-30-1", store);
    assert_string_equal(e.path, want);
    nr_render_buf svg;
    assert_int_equal(nr_figure_cache_load(&e, &svg), 0);
    nr_error err = {0};
    assert_int_equal(nr_figure_cache_save(&e, svg_text, strlen(svg_text), &err), 0);
    assert_int_equal(nr_figure_cache_load(&e, &svg), 1);
    assert_int_equal(svg.len, strlen(svg_text));
    assert_memory_equal(svg.data, svg_text, svg.len);
    nr_render_buf_fini(&svg);
    nr_figure_cache_entry_close(&e);
    write_file(inputs, "fingerprint 3\n"); /* the run's inputs changed: not the same figure */
    assert_int_equal(open_entry(&e, store, &o30, code, "run", 3, 252), 1);
    assert_int_equal(nr_figure_cache_load(&e, &svg), 0);
    nr_figure_cache_entry_close(&e);

    unlink(want);
    unlink(inputs);
    unlink(store);
    rmdir(dir);
    free(base);
    free(same);
    free(code);
}

/* A library opened after start-up (as iconv opens its gconv modules) does
 * not change the key of the running code. */
static void code_key_ignores_libraries_opened_later(void **state)
{
    (void)state;
    char *before = nr_figure_cache_code_key();
    assert_non_null(before);
    assert_null(strstr(before, "libanl.so"));
    void *lib = dlopen("libanl.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        skip();
    char *after = nr_figure_cache_code_key();
    assert_non_null(after);
    assert_string_equal(before, after);
    dlclose(lib);
    free(before);
    free(after);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pack_layout_by_hand),
        cmocka_unit_test(other_keys_read_as_none),
        cmocka_unit_test(damage_reads_as_none),
        cmocka_unit_test(keys_follow_what_figures_depend_on),
        cmocka_unit_test(code_key_ignores_libraries_opened_later),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
