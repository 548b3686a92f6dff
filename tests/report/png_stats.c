/* png_stats FILE.png: prints "width height mean stddev ink_share" of the
 * luminance of a PNG (cairo decodes it), for the screenshot check of the
 * Chromium test: a blank page has stddev ~0 and ink_share ~0. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <cairo.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: png_stats FILE.png\n");
        return 2;
    }
    cairo_surface_t *s = cairo_image_surface_create_from_png(argv[1]);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "png_stats: %s: %s\n", argv[1], cairo_status_to_string(cairo_surface_status(s)));
        return 1;
    }
    cairo_surface_flush(s);
    const int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    const int stride = cairo_image_surface_get_stride(s);
    const unsigned char *data = cairo_image_surface_get_data(s);
    double sum = 0, sum2 = 0;
    uint64_t ink = 0;
    for (int y = 0; y < h; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        for (int x = 0; x < w; x++) {
            uint32_t p = row[x];
            double lum = 0.2126 * ((p >> 16) & 0xFF) + 0.7152 * ((p >> 8) & 0xFF) + 0.0722 * (p & 0xFF);
            sum += lum;
            sum2 += lum * lum;
            ink += lum < 200;
        }
    }
    const double n = (double)w * (double)h;
    const double mean = n > 0 ? sum / n : 0;
    const double var = n > 0 ? sum2 / n - mean * mean : 0;
    printf("%d %d %.3f %.3f %.6f\n", w, h, mean, sqrt(var > 0 ? var : 0), n > 0 ? (double)ink / n : 0);
    cairo_surface_destroy(s);
    return 0;
}
