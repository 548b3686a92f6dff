/* palette: Okabe-Ito colours (Okabe & Ito 2008, "Color Universal Design"),
 * with a dash pattern, a marker and a hatch per index so that series stay
 * apart in greyscale print and for colour-blind readers. */
#include <math.h>
#include <string.h>

#include "render_internal.h"

/* Ordered for contrast on white; yellow, the weakest, comes last. */
static const nr__rgb okabe_ito[NR__STYLES] = {
    {0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0}, /* blue */
    {0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0}, /* vermillion */
    {0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0}, /* bluish green */
    {0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0}, /* orange */
    {0xCC / 255.0, 0x79 / 255.0, 0xA7 / 255.0}, /* reddish purple */
    {0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0}, /* sky blue */
    {0x00 / 255.0, 0x00 / 255.0, 0x00 / 255.0}, /* black */
    {0xF0 / 255.0, 0xE4 / 255.0, 0x42 / 255.0}, /* yellow */
};

nr__rgb nr__palette_color(size_t i)
{
    if (i == NR__COLOR_CROWD)
        return (nr__rgb){0.72, 0.72, 0.72};
    if (i == NR__COLOR_RUNTIME)
        return (nr__rgb){0.42, 0.42, 0.42};
    return okabe_ito[i % NR__STYLES];
}

/* Canonical phases keep one colour in every figure. */
static const struct {
    const char *name;
    size_t color;
} phase_colors[] = {
    {"data_prep", 5}, {"model_load", 4}, {"train", 0}, {"eval", 2},
    {"checkpoint", 1}, {"unphased", 6},
};

/* The colour of a canonical phase, or NR__STYLES for another name. */
static size_t canonical_color(const char *phase)
{
    for (size_t i = 0; phase && i < sizeof phase_colors / sizeof phase_colors[0]; i++)
        if (strcmp(phase, phase_colors[i].name) == 0)
            return phase_colors[i].color;
    return NR__STYLES;
}

/* More names than colours: the colour of the fewest names so far, not the
 * previous name's (neighbouring bands stay apart), the lowest of a tie.
 * Until session 47 the j-th name took colour j % 8, which gave the 8th of
 * eight epochs (with "unphased") the 7th one's yellow. */
static size_t least_used(const size_t *uses, size_t previous)
{
    size_t best = previous == 0 ? 1 : 0;
    for (size_t c = 0; c < NR__STYLES; c++)
        if (c != previous && uses[c] < uses[best])
            best = c;
    return best;
}

void nr__palette_phase_colors(const char *const *phases, size_t n, size_t *colors)
{
    size_t uses[NR__STYLES] = {0};
    for (size_t j = 0; j < n; j++)
        if ((colors[j] = canonical_color(phases[j])) < NR__STYLES)
            uses[colors[j]]++;
    size_t next = 0;
    for (size_t j = 0; j < n; j++) {
        if (colors[j] < NR__STYLES)
            continue;
        while (next < NR__STYLES && uses[next])
            next++;
        colors[j] = next < NR__STYLES ? next++ : least_used(uses, j > 0 ? colors[j - 1] : NR__STYLES);
        uses[colors[j]]++;
    }
}

void nr__set_color(cairo_t *cr, nr__rgb c, double alpha)
{
    if (alpha >= 1.0)
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
    else
        cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

void nr__set_dash(cairo_t *cr, size_t i, double lw)
{
    static const double patterns[NR__STYLES][6] = {
        {0}, {4, 2}, {1, 1.5}, {4, 1.5, 1, 1.5},
        {7, 2}, {2, 2}, {4, 1.5, 1, 1.5, 1, 1.5}, {1, 3},
    };
    static const int counts[NR__STYLES] = {0, 2, 2, 4, 2, 2, 6, 2};
    size_t k = i % NR__STYLES;
    double d[6];
    for (int j = 0; j < counts[k]; j++)
        d[j] = patterns[k][j] * (lw < 0.8 ? 0.8 : lw);
    cairo_set_dash(cr, d, counts[k], 0);
}

static void polygon(cairo_t *cr, double x, double y, double r, int sides, double rot)
{
    for (int k = 0; k < sides; k++) {
        double a = rot + 2.0 * M_PI * k / sides;
        double px = x + r * cos(a), py = y + r * sin(a);
        if (k == 0)
            cairo_move_to(cr, px, py);
        else
            cairo_line_to(cr, px, py);
    }
    cairo_close_path(cr);
}

void nr__draw_marker(cairo_t *cr, size_t i, double x, double y, double size)
{
    double r = size / 2;
    cairo_save(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_new_path(cr);
    switch (i % NR__STYLES) {
    case 0: cairo_arc(cr, x, y, r * 0.9, 0, 2 * M_PI); break;
    case 1: cairo_rectangle(cr, x - r * 0.8, y - r * 0.8, r * 1.6, r * 1.6); break;
    case 2: polygon(cr, x, y + r * 0.15, r * 1.1, 3, -M_PI / 2); break;
    case 3: polygon(cr, x, y, r * 1.05, 4, 0); break;
    case 4: polygon(cr, x, y - r * 0.15, r * 1.1, 3, M_PI / 2); break;
    case 5: polygon(cr, x, y, r, 5, -M_PI / 2); break;
    case 6: polygon(cr, x, y, r * 0.95, 6, 0); break;
    default: /* a plus made of a filled cross outline */
        cairo_rectangle(cr, x - r, y - r * 0.35, 2 * r, r * 0.7);
        cairo_rectangle(cr, x - r * 0.35, y - r, r * 0.7, 2 * r);
        break;
    }
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 0.4);
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* Hatches: none, /, \, x, -, |, dots, dense /; and a grid (NR__HATCH_GRID) */
static void hatch_lines(cairo_t *cr, double x, double y, double w, double h, double dx, double dy, double gap)
{
    /* Offsets perpendicular to the lines: |t| <= half the diagonal covers the box. */
    double span = hypot(w, h) / 2 + gap;
    for (double t = -span; t <= span; t += gap) {
        double cx = x + w / 2 + t * dy, cy = y + h / 2 - t * dx;
        cairo_move_to(cr, cx - dx * span, cy - dy * span);
        cairo_line_to(cr, cx + dx * span, cy + dy * span);
    }
}

void nr__fill_swatch(cairo_t *cr, size_t color, size_t hatch, double x, double y, double w, double h)
{
    if (w <= 0 || h <= 0)
        return;
    cairo_save(cr);
    nr__set_color(cr, nr__palette_color(color), 1.0);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill_preserve(cr);
    cairo_clip(cr);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.55);
    cairo_set_line_width(cr, 0.5);
    cairo_set_dash(cr, NULL, 0, 0);
    const double s = M_SQRT1_2;
    if (hatch == NR__HATCH_GRID) {
        hatch_lines(cr, x, y, w, h, 1, 0, 2.0);
        hatch_lines(cr, x, y, w, h, 0, 1, 2.0);
        cairo_stroke(cr);
        cairo_restore(cr);
        return;
    }
    switch (hatch % NR__STYLES) {
    case 0: break;
    case 1: hatch_lines(cr, x, y, w, h, s, -s, 3.0); break;
    case 2: hatch_lines(cr, x, y, w, h, s, s, 3.0); break;
    case 3: hatch_lines(cr, x, y, w, h, s, -s, 3.5); hatch_lines(cr, x, y, w, h, s, s, 3.5); break;
    case 4: hatch_lines(cr, x, y, w, h, 1, 0, 2.5); break;
    case 5: hatch_lines(cr, x, y, w, h, 0, 1, 2.5); break;
    case 6:
        for (double py = y + 1.25; py < y + h; py += 2.5)
            for (double px = x + 1.25; px < x + w; px += 2.5) {
                cairo_new_sub_path(cr);
                cairo_arc(cr, px, py, 0.45, 0, 2 * M_PI);
            }
        cairo_fill(cr);
        break;
    default: hatch_lines(cr, x, y, w, h, s, -s, 1.8); break;
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

void nr__fill_tint(cairo_t *cr, size_t color, double x, double y, double w, double h)
{
    nr__fill_tint_part(cr, color, x, y, w, h, 1);
}

void nr__fill_tint_part(cairo_t *cr, size_t color, double x, double y, double w, double h, double part)
{
    if (w <= 0 || h <= 0 || !(part > 0))
        return;
    cairo_save(cr);
    nr__set_color(cr, nr__palette_color(color), 0.16 * fmin(part, 1));
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
    cairo_restore(cr);
}
