/* Output tests: every figure renders in every format, twice to identical
 * bytes; PNGs decode to the right size, say 300 dpi and are not blank;
 * degenerate inputs draw a figure instead of failing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cairo.h>
#include <cmocka.h>

#include "example_data.h"
#include "nr_render.h"

static void render(const nr_figure_def *fig, const nr_figure_inputs *in, nr_render_format fmt,
                   double width, nr_render_buf *out)
{
    nr_error err;
    nr_error_clear(&err);
    nr_render_buf_init(out);
    int rc = nr_render_figure(fig, in, fmt, width, out, &err);
    if (rc != 0)
        fail_msg("%s (%s): %s", fig->stem, nr_render_format_ext(fmt), err.msg);
    assert_true(out->len > 100);
}

static void same_input_same_bytes(void **state)
{
    nr_figure_inputs in;
    example_inputs(EXAMPLE_SIX_RUNS, &in);
    for (size_t f = 0; f < nr_figures_count; f++)
        for (int fmt = 0; fmt < 3; fmt++) {
            nr_render_buf a, b;
            render(&nr_figures[f], &in, (nr_render_format)fmt, NR_RENDER_COLUMN_WIDTH_PT, &a);
            render(&nr_figures[f], &in, (nr_render_format)fmt, NR_RENDER_COLUMN_WIDTH_PT, &b);
            if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
                fail_msg("%s.%s differs between two renders", nr_figures[f].stem,
                         nr_render_format_ext((nr_render_format)fmt));
            nr_render_buf_fini(&a);
            nr_render_buf_fini(&b);
        }
}

typedef struct reader {
    const nr_render_buf *buf;
    size_t pos;
} reader;

static cairo_status_t read_png(void *closure, unsigned char *data, unsigned int length)
{
    reader *r = closure;
    if (r->pos + length > r->buf->len)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, r->buf->data + r->pos, length);
    r->pos += length;
    return CAIRO_STATUS_SUCCESS;
}

/* Share of pixels that are not white. */
static double ink_share(cairo_surface_t *img)
{
    cairo_surface_flush(img);
    int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
    int stride = cairo_image_surface_get_stride(img);
    const unsigned char *px = cairo_image_surface_get_data(img);
    size_t ink = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t v;
            memcpy(&v, px + (size_t)y * stride + (size_t)x * 4, 4);
            ink += (v & 0xffffff) != 0xffffff;
        }
    return (double)ink / ((double)w * h);
}

static void png_decodes_at_300_dpi_and_has_ink(void **state)
{
    nr_figure_inputs in;
    example_inputs(EXAMPLE_SIX_RUNS, &in);
    for (size_t f = 0; f < nr_figures_count; f++) {
        for (int wi = 0; wi < 2; wi++) {
            double width = wi ? NR_RENDER_FULL_WIDTH_PT : NR_RENDER_COLUMN_WIDTH_PT;
            nr_render_buf png;
            render(&nr_figures[f], &in, NR_RENDER_PNG, width, &png);
            /* right after the IHDR: pHYs of 11811 px/m (300 dpi) both ways, CRC-32 0x78a53f76 */
            static const unsigned char phys[21] = {0, 0, 0, 9, 'p', 'H', 'Y', 's', 0, 0, 0x2e, 0x23, 0, 0, 0x2e,
                                                   0x23, 1, 0x78, 0xa5, 0x3f, 0x76};
            if (png.len < 33 + sizeof phys || memcmp(png.data + 33, phys, sizeof phys) != 0)
                fail_msg("%s at %g pt: no pHYs chunk of 300 dpi after the IHDR", nr_figures[f].stem, width);
            reader r = {&png, 0};
            cairo_surface_t *img = cairo_image_surface_create_from_png_stream(read_png, &r);
            assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
            double h = nr_figures[f].height(&in, width);
            assert_int_equal(cairo_image_surface_get_width(img), (int)ceil(width * 300 / 72));
            assert_int_equal(cairo_image_surface_get_height(img), (int)ceil(h * 300 / 72));
            double ink = ink_share(img);
            if (!(ink > 0.03 && ink < 0.9))
                fail_msg("%s at %g pt: ink share %.3f is not a drawn figure", nr_figures[f].stem, width, ink);
            cairo_surface_destroy(img);
            nr_render_buf_fini(&png);
        }
    }
}

static void degenerate_inputs_still_draw(void **state)
{
    static const example_case cases[] = {EXAMPLE_EMPTY, EXAMPLE_ONE_POINT, EXAMPLE_ZEROS, EXAMPLE_NAN,
                                         EXAMPLE_ONE_RUN};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        nr_figure_inputs in;
        example_inputs(cases[c], &in);
        for (size_t f = 0; f < nr_figures_count; f++)
            for (int fmt = 0; fmt < 3; fmt++) {
                nr_render_buf out;
                render(&nr_figures[f], &in, (nr_render_format)fmt, NR_RENDER_COLUMN_WIDTH_PT, &out);
                nr_render_buf_fini(&out);
            }
    }
}

/* Long run names (45 and 202 characters) in the bar charts' category
 * labels, the legends and the timeline's panel titles: every glyph of the
 * SVG (cairo writes each as <use x=".." y="..">, rotated ones too) starts
 * on the canvas: before, the labels of figures 1
 * and 7 ran off the left edge and the legends off the right. */
static void long_names_stay_on_the_canvas(void **state)
{
    nr_figure_inputs in;
    example_inputs(EXAMPLE_LONG_NAMES, &in);
    for (size_t f = 0; f < nr_figures_count; f++)
        for (int wi = 0; wi < 2; wi++) {
            double width = wi ? NR_RENDER_FULL_WIDTH_PT : NR_RENDER_COLUMN_WIDTH_PT;
            double height = nr_figures[f].height(&in, width);
            nr_render_buf svg;
            render(&nr_figures[f], &in, NR_RENDER_SVG, width, &svg);
            char *text = malloc(svg.len + 1);
            assert_non_null(text);
            memcpy(text, svg.data, svg.len);
            text[svg.len] = '\0';
            size_t glyphs = 0;
            for (const char *p = strstr(text, "<use xlink:href=\"#glyph"); p; p = strstr(p + 1, "<use xlink:href=\"#glyph")) {
                const char *xs = strstr(p, " x=\""), *ys = strstr(p, " y=\"");
                assert_non_null(xs);
                assert_non_null(ys);
                double x = strtod(xs + 4, NULL), y = strtod(ys + 4, NULL);
                if (!(x >= 0 && x < width - 2 && y > 0 && y <= height))
                    fail_msg("%s at %g pt: a glyph at (%g, %g), off the %g x %g canvas", nr_figures[f].stem, width, x, y,
                             width, height);
                glyphs++;
            }
            assert_true(glyphs > 20);
            free(text);
            nr_render_buf_fini(&svg);
        }
}

/* Long names that differ only in the middle stay told apart: they lose
 * the start they share, not their middle (before, "..._lustre_run03" and
 * "..._nvme_run03" both read "vit-b16... _run03"). Same bars, so the two
 * labels drawn alike would give the bytes of one name drawn twice. */
static void long_names_differing_in_the_middle_stay_apart(void **state)
{
    nr_figure_inputs in;
    example_inputs(EXAMPLE_SIX_RUNS, &in);
    static const char *const apart[2] = {"vit-b16_imagenet1k_bs256_4nodes_lustre_run03",
                                         "vit-b16_imagenet1k_bs256_4nodes_nvme_run03"};
    static const char *const alike[2] = {"vit-b16_imagenet1k_bs256_4nodes_lustre_run03",
                                         "vit-b16_imagenet1k_bs256_4nodes_lustre_run03"};
    nr_fig_phase_input ph = *in.phase;
    ph.n_runs = 2;
    const nr_figure_def *fig = nr_figure_find("fig1-phase-breakdown");
    assert_non_null(fig);
    nr_render_buf a, b;
    ph.run_names = apart;
    in.phase = &ph;
    render(fig, &in, NR_RENDER_SVG, NR_RENDER_COLUMN_WIDTH_PT, &a);
    ph.run_names = alike;
    render(fig, &in, NR_RENDER_SVG, NR_RENDER_COLUMN_WIDTH_PT, &b);
    assert_false(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    nr_render_buf_fini(&a);
    nr_render_buf_fini(&b);
}

/* A Lorenz curve of one file (two points with the origin) is "no data", as
 * the docs say below two files: the same figure as a run of no points
 * (before, the line of equality was drawn as its curve with "Gini 0.00"). */
static void lorenz_of_one_file_is_no_data(void **state)
{
    static const double x[2] = {0, 1}, y[2] = {0, 1};
    nr_fig_lorenz_run run = {.name = "one", .n = 2, .file_share = x, .byte_share = y, .top10_share = 1,
                             .top10_x = 0, .gini = 0};
    const nr_fig_lorenz_input l = {.n_runs = 1, .runs = &run};
    const nr_figure_inputs in = {.lorenz = &l};
    const nr_figure_def *fig = nr_figure_find("fig2-lorenz");
    assert_non_null(fig);
    nr_render_buf one, none;
    render(fig, &in, NR_RENDER_SVG, NR_RENDER_COLUMN_WIDTH_PT, &one);
    run.n = 0;
    render(fig, &in, NR_RENDER_SVG, NR_RENDER_COLUMN_WIDTH_PT, &none);
    assert_true(one.len == none.len && memcmp(one.data, none.data, one.len) == 0);
    nr_render_buf_fini(&one);
    nr_render_buf_fini(&none);
}

static void bad_width_is_a_usage_error(void **state)
{
    nr_figure_inputs in = {0};
    nr_render_buf out;
    nr_render_buf_init(&out);
    nr_error err;
    nr_error_clear(&err);
    assert_int_equal(nr_render_figure(&nr_figures[0], &in, NR_RENDER_SVG, 10, &out, &err), NR_E_USAGE);
    assert_non_null(strstr(err.msg, "width"));
    assert_int_equal(nr_render_figure(&nr_figures[0], &in, NR_RENDER_SVG, NAN, &out, &err), NR_E_USAGE);
    nr_render_buf_fini(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_input_same_bytes),
        cmocka_unit_test(png_decodes_at_300_dpi_and_has_ink),
        cmocka_unit_test(degenerate_inputs_still_draw),
        cmocka_unit_test(long_names_stay_on_the_canvas),
        cmocka_unit_test(long_names_differing_in_the_middle_stay_apart),
        cmocka_unit_test(lorenz_of_one_file_is_no_data),
        cmocka_unit_test(bad_width_is_a_usage_error),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    nr_render_shutdown();
    return failed;
}
