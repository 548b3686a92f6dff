/* axis: nice ticks (1-2-5 steps on linear axes, powers of ten on log axes)
 * and unit-aware tick labels. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_internal.h"

/* Number of multiples of step inside [lo, hi], with a tolerance for
 * floating-point noise at the ends. */
static double multiples_within(double lo, double hi, double step)
{
    const double eps = 1e-9;
    return floor(hi / step + eps) - ceil(lo / step - eps) + 1;
}

double nr__nice_step(double lo, double hi, int max_ticks)
{
    if (max_ticks < 2)
        max_ticks = 2;
    double span = hi - lo;
    if (!(span > 0) || !isfinite(span))
        return 1.0;
    static const double mant[] = {1, 2, 5};
    /* Start one decade below the span's order and walk up the 1-2-5 series. */
    double base = pow(10.0, floor(log10(span / max_ticks)) - 1);
    for (int i = 0; i < 60; i++) {
        double step = base * mant[i % 3] * pow(10.0, i / 3);
        if (multiples_within(lo, hi, step) <= max_ticks)
            return step;
    }
    return span;
}

size_t nr__nice_ticks(double lo, double hi, int max_ticks, double *ticks, size_t cap)
{
    double step = nr__nice_step(lo, hi, max_ticks);
    size_t n = 0;
    double first = ceil(lo / step - 1e-9);
    double last = floor(hi / step + 1e-9);
    for (double k = first; k <= last && n < cap; k += 1.0) {
        double v = k * step;
        ticks[n++] = fabs(v) < step * 1e-9 ? 0.0 : v;
    }
    return n;
}

int nr__log_decades(double lo, double hi, int *k_first, int *k_last)
{
    if (!(lo > 0) || !(hi >= lo))
        return 0;
    int a = (int)ceil(log10(lo) - 1e-9), b = (int)floor(log10(hi) + 1e-9);
    *k_first = a;
    *k_last = b;
    return b >= a ? b - a + 1 : 0;
}

/* Label of a linear tick shown with enough decimals for the step. */
static void linear_label(double shown, double step_shown, char *buf, size_t cap)
{
    int decimals = 0;
    if (step_shown < 1.0)
        decimals = (int)ceil(-log10(step_shown) - 1e-9);
    if (decimals > 9)
        decimals = 9;
    snprintf(buf, cap, "%.*f", decimals, shown);
    if (strcmp(buf, "-0") == 0)
        snprintf(buf, cap, "0");
}

/* Label of the decade 10^k: "10<sup>k</sup>", or "1 ms" on time axes. */
static void decade_label(const nr__axis *a, int k, nr__tick *t)
{
    if (a->unit == NR__UNIT_SECONDS) {
        nr_render_fmt_seconds(pow(10.0, k), t->label, sizeof t->label);
        t->markup = 0;
        return;
    }
    /* An explicit span: pango's <sup> scales badly with a fixed 72 dpi
     * context. U+2212 minus reads better than a hyphen in exponents. */
    double pt = a->label_pt > 0 ? a->label_pt : 7.0;
    const int n = snprintf(t->label, sizeof t->label, "10<span size=\"%ld\" rise=\"%ld\">%s%d</span>",
                           lround(fmax(pt * 0.72, NR__MIN_TEXT_PT) * PANGO_SCALE), lround(pt * 0.45 * PANGO_SCALE),
                           k < 0 ? "\xe2\x88\x92" : "", k < 0 ? -k : k);
    t->markup = n > 0 && (size_t)n < sizeof t->label;
    if (!t->markup) /* a label size no figure asks for: plain text rather than cut markup */
        snprintf(t->label, sizeof t->label, "1e%d", k);
}

static void add_tick(nr__axis *a, double v, int major)
{
    if (a->n_ticks >= NR__MAX_TICKS)
        return;
    nr__tick *t = &a->ticks[a->n_ticks++];
    memset(t, 0, sizeof *t);
    t->v = v;
    t->major = major;
}

/* Log axes are padded by this share of their decades (at least
 * LOG_PAD_MIN decades) at an end the data reach, then out to a minor tick. */
#define LOG_PAD 0.03
#define LOG_PAD_MIN 0.03

/* The largest m x 10^k (m = 1..9) at or below v > 0. */
static double minor_below(double v)
{
    const double d = pow(10.0, floor(log10(v)));
    const double m = floor(v / d + 1e-9);
    return (m < 1 ? 1 : m) * d;
}

/* The smallest m x 10^k (m = 1..10) at or above v > 0. */
static double minor_above(double v)
{
    const double d = pow(10.0, floor(log10(v)));
    const double m = ceil(v / d - 1e-9);
    return (m < 1 ? 1 : m) * d;
}

static void setup_log(nr__axis *a, double dlo, double dhi, int max_major)
{
    const double data_lo = dlo > 0 ? dlo : INFINITY, data_hi = dhi;   /* the ends the data reach */
    if (!(dlo > 0))
        dlo = dhi > 0 ? dhi / 10 : 1;
    if (!(dhi > dlo)) { /* one value: show its decade, below it at the bound */
        if (a->bound > 0 && dlo * 10 > a->bound * (1 + 1e-9))
            dlo = dhi / 10;
        else
            dhi = dlo * 10;
    }
    int k0 = 0, k1 = 0;
    if (!a->fixed) {
        /* Fewer than two labelled decades: widen to whole decades. */
        if (nr__log_decades(dlo, dhi, &k0, &k1) < 2) {
            dlo = pow(10.0, floor(log10(dlo) + 1e-9));
            dhi = pow(10.0, ceil(log10(dhi) - 1e-9));
            if (dhi <= dlo)
                dhi = dlo * 10;
        }
        /* An end that the data reach is padded out (a probability's bound
           excepted), so that the extreme point and its marker sit inside
           the frame: until session 49 a CCDF's 1/n lay on the bottom frame */
        const double ratio = pow(10.0, fmax(LOG_PAD * log10(dhi / dlo), LOG_PAD_MIN));
        if (dlo >= data_lo * (1 - 1e-9))
            dlo = minor_below(dlo / ratio);
        if (dhi <= data_hi * (1 + 1e-9) && !(a->bound > 0 && dhi >= a->bound * (1 - 1e-9))) {
            dhi = minor_above(dhi * ratio);
            if (a->bound > 0 && dhi > a->bound)
                dhi = a->bound;
        }
    }
    a->lo = dlo;
    a->hi = dhi;
    a->scale = 1.0;
    a->unit_text[0] = '\0';
    if (a->unit == NR__UNIT_BYTES)
        snprintf(a->unit_text, sizeof a->unit_text, "B");
    else if (a->unit == NR__UNIT_BYTES_PER_S)
        snprintf(a->unit_text, sizeof a->unit_text, "B/s");
    int n = nr__log_decades(dlo, dhi, &k0, &k1);
    int stride = 1;
    while (n / stride > max_major)
        stride++;
    int decades_shown = (int)ceil(log10(dhi / dlo));
    int minors = decades_shown <= 8;
    a->n_ticks = 0;
    for (int k = (int)floor(log10(dlo)) ; k <= k1 + 1; k++) {
        double d = pow(10.0, k);
        if (d >= dlo * (1 - 1e-9) && d <= dhi * (1 + 1e-9)) {
            add_tick(a, d, 1);
            if (((k % stride) + stride) % stride == 0)
                decade_label(a, k, &a->ticks[a->n_ticks - 1]);
        }
        for (int m = 2; minors && m <= 9; m++) {
            double v = m * d;
            if (v > dlo && v < dhi)
                add_tick(a, v, 0);
        }
    }
}

static void setup_linear(nr__axis *a, double dlo, double dhi, int max_major)
{
    if (a->include_zero) {
        if (dlo > 0)
            dlo = 0;
        if (dhi < 0)
            dhi = 0;
    }
    if (!(dhi > dlo)) {
        double pad = dlo == 0 ? 1.0 : fabs(dlo) * 0.5;
        dlo -= a->include_zero && dlo == 0 ? 0 : pad;
        dhi += pad;
    }
    double vmax = fmax(fabs(dlo), fabs(dhi));
    a->scale = nr__unit_scale(a->unit, vmax, a->unit_text, sizeof a->unit_text);
    double slo = dlo / a->scale, shi = dhi / a->scale;
    double step = nr__nice_step(slo, shi, max_major);
    if (!a->fixed) {
        slo = floor(slo / step + 1e-9) * step;
        shi = ceil(shi / step - 1e-9) * step;
    }
    a->lo = slo * a->scale;
    a->hi = shi * a->scale;
    a->n_ticks = 0;
    double first = ceil(slo / step - 1e-9), last = floor(shi / step + 1e-9);
    for (double k = first; k <= last; k += 1.0) {
        double shown = fabs(k * step) < step * 1e-9 ? 0.0 : k * step;
        add_tick(a, shown * a->scale, 1);
        linear_label(shown, step, a->ticks[a->n_ticks - 1].label, sizeof a->ticks[0].label);
    }
}

void nr__axis_setup(nr__axis *a, double dlo, double dhi, int max_major)
{
    if (max_major < 2)
        max_major = 2;
    if (a->log)
        setup_log(a, dlo, dhi, max_major);
    else
        setup_linear(a, dlo, dhi, max_major);
}

void nr__axis_title(const nr__axis *a, char *buf, size_t cap)
{
    if (!a->title) {
        snprintf(buf, cap, "%s", a->unit_text);
        return;
    }
    const char *title = a->title;
    if (a->unit_text[0])
        snprintf(buf, cap, "%s (%s)", title, a->unit_text);
    else
        snprintf(buf, cap, "%s", title);
}

double nr__axis_map(const nr__axis *a, double v)
{
    double t;
    if (a->log) {
        if (!(v > 0))
            return a->p0 - (a->p1 - a->p0) * 10; /* far off the low end */
        t = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    } else {
        t = (v - a->lo) / (a->hi - a->lo);
    }
    return a->p0 + t * (a->p1 - a->p0);
}
