/* output: one drawing, three surfaces (SVG, PDF, PNG), written to memory and
 * then atomically to a file. */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "nr_outfile.h"
#include "render_internal.h"

void nr_render_buf_init(nr_render_buf *b)
{
    memset(b, 0, sizeof *b);
}

void nr_render_buf_fini(nr_render_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

/* cairo write callback appending to an nr_render_buf. */
static cairo_status_t append(void *closure, const unsigned char *data, unsigned int length)
{
    nr_render_buf *b = closure;
    if (b->len + length > b->cap) {
        size_t cap = b->cap ? b->cap : 16384;
        while (cap < b->len + length) {
            if (cap > SIZE_MAX / 2)
                return CAIRO_STATUS_NO_MEMORY;
            cap *= 2;
        }
        unsigned char *p = realloc(b->data, cap);
        if (!p)
            return CAIRO_STATUS_NO_MEMORY;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, length);
    b->len += length;
    return CAIRO_STATUS_SUCCESS;
}

const char *nr_render_format_ext(nr_render_format fmt)
{
    switch (fmt) {
    case NR_RENDER_PDF: return "pdf";
    case NR_RENDER_PNG: return "png";
    case NR_RENDER_SVG:
    default: return "svg";
    }
}

int nr_render_format_parse(const char *name, nr_render_format *out, nr_error *err)
{
    static const nr_render_format all[] = {NR_RENDER_SVG, NR_RENDER_PDF, NR_RENDER_PNG};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(name, nr_render_format_ext(all[i])) == 0) {
            *out = all[i];
            return 0;
        }
    return nr_error_set(err, NR_E_USAGE, "unknown figure format '%s' (expected svg, pdf or png)", name);
}

#define NOTE_STRIP 9.0 /* points under a figure for the skipped-values note */

/* Draws fig on cr: white page, the figure in the top fig_h points, and the
 * note about skipped values in the strip below when there is one. Returns
 * the number of skipped values through *skipped. */
static int draw_on(cairo_t *cr, const nr_figure_def *fig, const nr_figure_inputs *in,
                   double w, double fig_h, double page_h, unsigned long *skipped, nr_error *err)
{
    nr_render_canvas cv;
    NR_TRY(nr__canvas_init(&cv, cr, w, fig_h, err));
    cairo_save(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_restore(cr);
    int rc = fig->draw(&cv, in, err);
    if (rc == 0 && cv.skipped > 0 && page_h > fig_h) {
        char note[96];
        snprintf(note, sizeof note, "%lu non-finite value%s not shown", cv.skipped, cv.skipped == 1 ? "" : "s");
        cv.height = page_h;
        nr__draw_note(&cv, note);
    }
    *skipped = cv.skipped;
    nr__canvas_fini(&cv);
    if (rc < 0)
        return rc;
    cairo_status_t st = cairo_status(cr);
    if (st != CAIRO_STATUS_SUCCESS)
        return nr_error_set(err, NR_E_EXTERNAL, "drawing %s failed: %s", fig->stem, cairo_status_to_string(st));
    return 0;
}

/* Dry run on a recording surface: does the figure skip values (and so need
 * the note strip)? */
static int count_skipped(const nr_figure_def *fig, const nr_figure_inputs *in, double w, double h,
                         unsigned long *skipped, nr_error *err)
{
    cairo_surface_t *rec = cairo_recording_surface_create(CAIRO_CONTENT_COLOR, NULL);
    cairo_t *cr = cairo_create(rec);
    int rc = draw_on(cr, fig, in, w, h, h, skipped, err);
    cairo_destroy(cr);
    cairo_surface_destroy(rec);
    return rc;
}

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* cairo writes no pHYs chunk, so a PNG of 1050 pixels would be placed
 * 14.6 in wide at 72 dpi: inserts one after the IHDR of the PNG at
 * b->data + start (PNG 1.2, 11.3.5.3): NR_RENDER_PNG_DPI in pixels per
 * metre, both axes, its CRC-32 over type and data (zlib's crc32). */
static int insert_phys(nr_render_buf *b, size_t start, nr_error *err)
{
    enum { SIG = 8, IHDR_CHUNK = 4 + 4 + 13 + 4, PHYS_CHUNK = 4 + 4 + 9 + 4 };
    const size_t at = start + SIG + IHDR_CHUNK;
    if (b->len < at || memcmp(b->data + start + SIG, "\0\0\0\x0dIHDR", 8) != 0)
        return nr_error_set(err, NR_E_EXTERNAL, "cairo wrote a PNG without its IHDR first");
    unsigned char chunk[PHYS_CHUNK];
    const uint32_t ppm = (uint32_t)lround(NR_RENDER_PNG_DPI / 0.0254); /* 300 dpi: 11811 */
    put_be32(chunk, 9);
    memcpy(chunk + 4, "pHYs", 4);
    put_be32(chunk + 8, ppm);
    put_be32(chunk + 12, ppm);
    chunk[16] = 1; /* unit: the metre */
    put_be32(chunk + 17, (uint32_t)crc32(crc32(0L, Z_NULL, 0), chunk + 4, 4 + 9));
    const size_t tail = b->len - at;
    if (append(b, chunk, PHYS_CHUNK) != CAIRO_STATUS_SUCCESS) /* room at the end, then moved in place */
        return nr_error_set(err, NR_E_NOMEM, "no memory for a PNG");
    memmove(b->data + at + PHYS_CHUNK, b->data + at, tail);
    memcpy(b->data + at, chunk, PHYS_CHUNK);
    return 0;
}

/* cairo 1.16 names the SVG page group after a process-wide surface counter
 * ("surface17"), so the same figure would differ with what the process drew
 * before. Renumbers every "surface<digits>" token by first appearance. */
static int normalize_svg_ids(nr_render_buf *b, nr_error *err)
{
    static const char token[] = "surface";
    const size_t tlen = sizeof token - 1;
    enum { MAX_IDS = 64 };
    unsigned long seen[MAX_IDS];
    size_t n_seen = 0;
    nr_render_buf out;
    nr_render_buf_init(&out);
    size_t i = 0;
    while (i < b->len) {
        if (i + tlen < b->len && memcmp(b->data + i, token, tlen) == 0 && b->data[i + tlen] >= '0' &&
            b->data[i + tlen] <= '9') {
            size_t j = i + tlen;
            unsigned long id = 0;
            while (j < b->len && b->data[j] >= '0' && b->data[j] <= '9')
                id = id * 10 + (unsigned long)(b->data[j++] - '0');
            size_t k = 0;
            while (k < n_seen && seen[k] != id)
                k++;
            if (k == n_seen && n_seen < MAX_IDS)
                seen[n_seen++] = id;
            char num[32];
            int len = snprintf(num, sizeof num, "surface%zu", k + 1);
            if (append(&out, (const unsigned char *)num, (unsigned)len) != CAIRO_STATUS_SUCCESS)
                goto fail_nomem;
            i = j;
            continue;
        }
        size_t j = i + 1;
        while (j < b->len && b->data[j] != 's')
            j++;
        if (append(&out, b->data + i, (unsigned)(j - i)) != CAIRO_STATUS_SUCCESS)
            goto fail_nomem;
        i = j;
    }
    nr_render_buf_fini(b);
    *b = out;
    return 0;
fail_nomem:
    nr_render_buf_fini(&out);
    return nr_error_set(err, NR_E_NOMEM, "no memory to normalise SVG ids");
}

/* Normalises the SVG written at out->data + start (out may hold earlier bytes). */
static int normalize_svg_tail(nr_render_buf *out, size_t start, nr_error *err)
{
    nr_render_buf copy;
    nr_render_buf_init(&copy);
    if (append(&copy, out->data + start, (unsigned)(out->len - start)) != CAIRO_STATUS_SUCCESS)
        return nr_error_set(err, NR_E_NOMEM, "no memory to normalise SVG ids");
    int rc = normalize_svg_ids(&copy, err);
    if (rc == 0) {
        out->len = start;
        if (append(out, copy.data, (unsigned)copy.len) != CAIRO_STATUS_SUCCESS)
            rc = nr_error_set(err, NR_E_NOMEM, "no memory to normalise SVG ids");
    }
    nr_render_buf_fini(&copy);
    return rc;
}

static cairo_surface_t *vector_surface(nr_render_format fmt, nr_render_buf *out, double w, double h)
{
    if (fmt == NR_RENDER_PDF) {
        cairo_surface_t *s = cairo_pdf_surface_create_for_stream(append, out, w, h);
        /* No creation date: the same figure gives the same bytes (docs/figures.md). */
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, "");
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "niorep");
        return s;
    }
    cairo_surface_t *s = cairo_svg_surface_create_for_stream(append, out, w, h);
    cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PT);
    return s;
}

int nr_render_figure(const nr_figure_def *fig, const nr_figure_inputs *in,
                     nr_render_format fmt, double width_pt,
                     nr_render_buf *out, nr_error *err)
{
    if (!(width_pt >= 72 && width_pt <= 72 * 40))
        return nr_error_set(err, NR_E_USAGE, "figure width %g pt is outside 1..40 in", width_pt);
    double fig_h = fig->height(in, width_pt), h = fig_h;
    unsigned long skipped = 0;
    NR_TRY(count_skipped(fig, in, width_pt, fig_h, &skipped, err));
    if (skipped > 0)
        h += NOTE_STRIP;
    cairo_surface_t *surface;
    double scale = 1.0;
    if (fmt == NR_RENDER_PNG) {
        scale = NR_RENDER_PNG_DPI / 72.0;
        surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(width_pt * scale - 1e-6), (int)ceil(h * scale - 1e-6));
    } else {
        surface = vector_surface(fmt, out, width_pt, h);
    }
    cairo_t *cr = cairo_create(surface);
    cairo_scale(cr, scale, scale);
    int rc = draw_on(cr, fig, in, width_pt, fig_h, h, &skipped, err);
    size_t start = out->len; /* the SVG is normalised, the PNG given its pHYs, on its own bytes */
    cairo_destroy(cr);
    if (rc == 0 && fmt == NR_RENDER_PNG) {
        cairo_status_t st = cairo_surface_write_to_png_stream(surface, append, out);
        if (st != CAIRO_STATUS_SUCCESS)
            rc = nr_error_set(err, NR_E_EXTERNAL, "writing PNG of %s failed: %s", fig->stem, cairo_status_to_string(st));
        else
            rc = insert_phys(out, start, err);
    }
    cairo_surface_finish(surface);
    cairo_status_t st = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    if (rc == 0 && st != CAIRO_STATUS_SUCCESS)
        rc = nr_error_set(err, NR_E_EXTERNAL, "writing %s of %s failed: %s", nr_render_format_ext(fmt),
                          fig->stem, cairo_status_to_string(st));
    if (rc == 0 && fmt == NR_RENDER_SVG)
        rc = normalize_svg_tail(out, start, err);
    return rc;
}

int nr_render_figure_to_file(const nr_figure_def *fig, const nr_figure_inputs *in,
                             nr_render_format fmt, double width_pt,
                             const char *path, nr_error *err)
{
    nr_render_buf buf;
    nr_render_buf_init(&buf);
    int rc = nr_render_figure(fig, in, fmt, width_pt, &buf, err);
    if (rc < 0)
        goto fail_render;
    nr_outfile f;
    rc = nr_outfile_open(&f, path, err);
    if (rc < 0)
        goto fail_render;
    rc = nr_outfile_write(&f, buf.data, buf.len, err);
    if (rc < 0)
        goto fail_write;
    rc = nr_outfile_commit(&f, err);
    if (rc < 0)
        goto fail_write;
    nr_render_buf_fini(&buf);
    return 0;
fail_write:
    nr_outfile_abort(&f);
fail_render:
    nr_render_buf_fini(&buf);
    return rc;
}
