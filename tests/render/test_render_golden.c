/* Golden test: each figure rendered to SVG from the fixed example data must
 * equal tests/render/golden/<stem>-<case>-<width>.svg byte for byte.
 *   test_render_golden GOLDEN_DIR [--update-golden]
 * Only --update-golden rewrites the goldens (look at them before committing:
 * render_demo writes PNGs of the same figures). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example_data.h"

typedef struct golden_set {
    example_case c;
    double width;
    const char *width_name;
} golden_set;

static const golden_set sets[] = {
    {EXAMPLE_SIX_RUNS, NR_RENDER_COLUMN_WIDTH_PT, "col"},
    {EXAMPLE_SIX_RUNS, NR_RENDER_FULL_WIDTH_PT, "full"},
    {EXAMPLE_ONE_RUN, NR_RENDER_COLUMN_WIDTH_PT, "col"},
    {EXAMPLE_EMPTY, NR_RENDER_COLUMN_WIDTH_PT, "col"},
    {EXAMPLE_ONE_POINT, NR_RENDER_COLUMN_WIDTH_PT, "col"},
    {EXAMPLE_ZEROS, NR_RENDER_COLUMN_WIDTH_PT, "col"},
    {EXAMPLE_NAN, NR_RENDER_COLUMN_WIDTH_PT, "col"},
    {EXAMPLE_FEW_FILES, NR_RENDER_COLUMN_WIDTH_PT, "col"},
    {EXAMPLE_LONG_NAMES, NR_RENDER_COLUMN_WIDTH_PT, "col"},
};

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *data = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            unsigned char *p = realloc(data, cap);
            if (!p)
                break;
            data = p;
        }
        got = fread(data + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return data;
}

/* First differing byte, to point at the change. */
static size_t first_difference(const unsigned char *a, size_t na, const unsigned char *b, size_t nb)
{
    size_t i = 0;
    while (i < na && i < nb && a[i] == b[i])
        i++;
    return i;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_render_golden GOLDEN_DIR [--update-golden]\n");
        return 2;
    }
    int update = argc > 2 && strcmp(argv[2], "--update-golden") == 0;
    int failures = 0, checked = 0;
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        nr_figure_inputs in;
        example_inputs(sets[s].c, &in);
        for (size_t f = 0; f < nr_figures_count; f++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s-%s-%s.svg", argv[1], nr_figures[f].stem,
                     example_case_name(sets[s].c), sets[s].width_name);
            nr_render_buf svg;
            nr_render_buf_init(&svg);
            nr_error err;
            nr_error_clear(&err);
            if (nr_render_figure(&nr_figures[f], &in, NR_RENDER_SVG, sets[s].width, &svg, &err) < 0) {
                fprintf(stderr, "FAIL %s: %s\n", path, err.msg);
                failures++;
                continue;
            }
            if (update) {
                FILE *out = fopen(path, "wb");
                if (!out || fwrite(svg.data, 1, svg.len, out) != svg.len || fclose(out) != 0) {
                    fprintf(stderr, "FAIL cannot write %s\n", path);
                    failures++;
                }
            } else {
                size_t len = 0;
                unsigned char *want = slurp(path, &len);
                if (!want) {
                    fprintf(stderr, "FAIL %s missing (run with --update-golden)\n", path);
                    failures++;
                } else if (len != svg.len || memcmp(want, svg.data, len) != 0) {
                    fprintf(stderr, "FAIL %s: got %zu bytes, golden %zu, first difference at byte %zu\n", path,
                            svg.len, len, first_difference(svg.data, svg.len, want, len));
                    failures++;
                }
                free(want);
            }
            checked++;
            nr_render_buf_fini(&svg);
        }
    }
    nr_render_shutdown();
    printf("%s %d golden SVGs, %d failures\n", update ? "updated" : "checked", checked, failures);
    return failures ? 1 : 0;
}
