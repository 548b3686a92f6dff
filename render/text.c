/* text: the one font family of every figure, set through pango on a font map
 * that sees only the DejaVu Sans files, so no other font on the machine can
 * change a figure. */
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <pango/pangofc-fontmap.h>
#include <stdlib.h>
#include <string.h>

#include "nr_utf8.h"
#include "render_internal.h"

#define NR__FONT_DIR_DEFAULT "/usr/share/fonts/truetype/dejavu"

/* One per thread: pango objects are not shared across threads (each thread
 * that renders ends with nr_render_shutdown). */
static _Thread_local PangoFontMap *the_fontmap;

static const char *const font_files[NR_RENDER_FONT_FILES] = {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf"};

static const char *font_dir(void)
{
    const char *dir = getenv("NR_FONT_DIR");
    return dir && *dir ? dir : NR__FONT_DIR_DEFAULT;
}

int nr_render_font_file(size_t i, char *buf, size_t cap)
{
    if (i >= NR_RENDER_FONT_FILES)
        return -1;
    int n = snprintf(buf, cap, "%s/%s", font_dir(), font_files[i]);
    return n >= 0 && (size_t)n < cap ? 0 : -1;
}

/* A fontconfig configuration holding only DejaVu Sans (regular and bold)
 * from $NR_FONT_DIR or the Debian fonts-dejavu-core directory. */
static FcConfig *dejavu_only_config(nr_error *err)
{
    FcConfig *config = FcConfigCreate();
    if (!config) {
        nr_error_set(err, NR_E_NOMEM, "cannot create a fontconfig configuration");
        return NULL;
    }
    int loaded = 0;
    for (size_t i = 0; i < NR_RENDER_FONT_FILES; i++) {
        char path[4096];
        if (nr_render_font_file(i, path, sizeof path) == 0 && FcConfigAppFontAddFile(config, (const FcChar8 *)path))
            loaded++;
    }
    if (loaded == 0) {
        FcConfigDestroy(config);
        nr_error_set(err, NR_E_NOTFOUND,
                     "font DejaVu Sans not found in %s (install fonts-dejavu-core or set NR_FONT_DIR)", font_dir());
        return NULL;
    }
    return config;
}

int nr__fontmap_get(PangoFontMap **out, nr_error *err)
{
    if (!the_fontmap) {
        FcConfig *config = dejavu_only_config(err);
        if (!config)
            return err ? err->code : NR_E_NOTFOUND;
        PangoFontMap *fm = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
        if (!fm) {
            FcConfigDestroy(config);
            return nr_error_set(err, NR_E_EXTERNAL, "pango has no FreeType font map");
        }
        pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(fm), config);
        FcConfigDestroy(config); /* the font map holds its own reference */
        the_fontmap = fm;
    }
    *out = the_fontmap;
    return 0;
}

void nr_render_shutdown(void)
{
    if (the_fontmap)
        g_object_unref(the_fontmap);
    the_fontmap = NULL;
}

int nr__canvas_init(nr_render_canvas *cv, cairo_t *cr, double width, double height, nr_error *err)
{
    memset(cv, 0, sizeof *cv);
    PangoFontMap *fm;
    NR_TRY(nr__fontmap_get(&fm, err));
    cv->pango = pango_font_map_create_context(fm);
    if (!cv->pango)
        return nr_error_set(err, NR_E_NOMEM, "cannot create a pango context");
    /* Unhinted outlines and metrics: the layout is the same at every scale
     * and on every surface, so SVG, PDF and PNG agree. */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    pango_cairo_context_set_font_options(cv->pango, fo);
    cairo_font_options_destroy(fo);
    pango_cairo_context_set_resolution(cv->pango, 72.0); /* 1 pt = 1 user unit */
    pango_context_set_round_glyph_positions(cv->pango, FALSE);
    cv->cr = cr;
    cv->width = width;
    cv->height = height;
    cv->font_size = width > 400 ? 8.5 : 7.5;
    return 0;
}

void nr__canvas_fini(nr_render_canvas *cv)
{
    if (cv->pango)
        g_object_unref(cv->pango);
    cv->pango = NULL;
}

/* A layout of s; s made valid UTF-8 first (nr_utf8_clean: a run's name is
 * a file name, bytes), as pango draws no text that is not. max_w > 0: a
 * longer text loses its middle to an ellipsis (a run's name keeps its start
 * and its end, "vit_large_…_run3"). */
static PangoLayout *make_layout(nr_render_canvas *cv, const char *s, int markup, double size, double max_w)
{
    pango_cairo_update_context(cv->cr, cv->pango);
    PangoLayout *layout = pango_layout_new(cv->pango);
    PangoFontDescription *fd = pango_font_description_new();
    pango_font_description_set_family_static(fd, NR__FONT_FAMILY);
    pango_font_description_set_size(fd, (gint)lround(size * PANGO_SCALE));
    pango_layout_set_font_description(layout, fd);
    pango_font_description_free(fd);
    size_t need = nr_utf8_clean_size(s);
    char *clean = need != strlen(s) + 1 ? malloc(need) : NULL;
    if (clean)
        s = nr_utf8_clean(s, clean, need);
    else if (need != strlen(s) + 1)
        s = "?"; /* out of memory: a mark rather than no figure */
    if (markup)
        pango_layout_set_markup(layout, s, -1);
    else
        pango_layout_set_text(layout, s, -1);
    free(clean);
    if (max_w > 0) {
        pango_layout_set_width(layout, (int)floor(max_w * PANGO_SCALE));
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_MIDDLE);
    }
    return layout;
}

void nr__text_size(nr_render_canvas *cv, const char *s, int markup, double size, double *w, double *h)
{
    nr__text_size_max(cv, s, markup, size, 0, w, h);
}

void nr__text_size_max(nr_render_canvas *cv, const char *s, int markup, double size, double max_w, double *w,
                       double *h)
{
    PangoLayout *layout = make_layout(cv, s, markup, size, max_w);
    PangoRectangle logical;
    pango_layout_get_extents(layout, NULL, &logical);
    if (w)
        *w = (double)logical.width / PANGO_SCALE;
    if (h)
        *h = (double)logical.height / PANGO_SCALE;
    g_object_unref(layout);
}

void nr__text_draw(nr_render_canvas *cv, const char *s, int markup, double size,
                   double x, double y, double ha, double va, double angle_deg)
{
    nr__text_draw_max(cv, s, markup, size, 0, x, y, ha, va, angle_deg);
}

void nr__text_draw_max(nr_render_canvas *cv, const char *s, int markup, double size, double max_w,
                       double x, double y, double ha, double va, double angle_deg)
{
    cairo_t *cr = cv->cr;
    cairo_save(cr);
    cairo_translate(cr, x, y);
    if (angle_deg != 0.0)
        cairo_rotate(cr, -angle_deg * M_PI / 180.0);
    PangoLayout *layout = make_layout(cv, s, markup, size, max_w);
    PangoRectangle logical;
    pango_layout_get_extents(layout, NULL, &logical);
    double w = (double)logical.width / PANGO_SCALE, h = (double)logical.height / PANGO_SCALE;
    cairo_move_to(cr, -ha * w - (double)logical.x / PANGO_SCALE, -va * h - (double)logical.y / PANGO_SCALE);
    pango_cairo_show_layout(cr, layout);
    g_object_unref(layout);
    cairo_restore(cr);
}

void nr__name_label(char *buf, size_t cap, const char *name, const char *fmt, ...)
{
    if (cap == 0)
        return;
    char suffix[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(suffix, sizeof suffix, fmt, ap);
    va_end(ap);
    name = name ? name : "?";
    size_t ns = strlen(suffix);
    if (strlen(name) + ns < cap) {
        snprintf(buf, cap, "%s%s", name, suffix);
        return;
    }
    static const char ellipsis[] = "\xe2\x80\xa6";
    size_t room = cap > ns + sizeof ellipsis ? cap - ns - sizeof ellipsis : 0, cut = 0;
    for (;;) {
        size_t n = nr_utf8_seq_len((const unsigned char *)name + cut);
        n = n ? n : 1; /* an invalid byte is one (drawn as \xNN) */
        if (!name[cut] || cut + n > room)
            break;
        cut += n;
    }
    snprintf(buf, cap, "%.*s%s%s", (int)cut, name, ellipsis, suffix);
}
