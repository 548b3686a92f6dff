/* units: human labels for bytes (binary units), durations and shares. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_internal.h"

void nr__fmt_trimmed(double v, int decimals, char *buf, size_t cap)
{
    snprintf(buf, cap, "%.*f", decimals, v);
    if (strchr(buf, '.')) {
        size_t n = strlen(buf);
        while (n > 0 && buf[n - 1] == '0')
            buf[--n] = '\0';
        if (n > 0 && buf[n - 1] == '.')
            buf[--n] = '\0';
    }
    if (strcmp(buf, "-0") == 0)
        snprintf(buf, cap, "0");
}

size_t nr__binary_unit(double *v, size_t nunits)
{
    size_t k = 0;
    while (k + 1 < nunits && fabs(*v) >= 1023.5) {
        *v /= 1024.0;
        k++;
    }
    return k;
}

/* Writes v with at most 3 significant digits (more decimals below 1, so
 * that small values keep 3 digits) and no trailing zeros. */
static void fmt_sig3(double v, char *buf, size_t cap)
{
    double a = fabs(v);
    int decimals = a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2;
    if (a == 0.0)
        decimals = 0;
    else if (a < 0.9995)
        decimals = (int)ceil(-log10(a)) + 2;
    if (decimals > 12)
        decimals = 12;
    nr__fmt_trimmed(v, decimals, buf, cap);
}

static const char *const byte_units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

char *nr_render_fmt_bytes(double bytes, char *buf, size_t cap)
{
    if (!isfinite(bytes)) {
        snprintf(buf, cap, "n/a");
        return buf;
    }
    double v = bytes;
    size_t k = nr__binary_unit(&v, sizeof byte_units / sizeof byte_units[0]);
    char num[64];
    fmt_sig3(v, num, sizeof num);
    snprintf(buf, cap, "%s %s", num, byte_units[k]);
    return buf;
}

char *nr_render_fmt_seconds(double s, char *buf, size_t cap)
{
    if (!isfinite(s)) {
        snprintf(buf, cap, "n/a");
        return buf;
    }
    static const struct {
        double limit, scale;
        const char *unit;
    } steps[] = {{999.5e-9, 1e-9, "ns"}, {999.5e-6, 1e-6, "µs"}, {999.5e-3, 1e-3, "ms"}};
    double a = fabs(s);
    const char *unit = "s";
    double scale = 1.0;
    if (a > 0) {
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
            if (a < steps[i].limit) {
                unit = steps[i].unit;
                scale = steps[i].scale;
                break;
            }
    }
    char num[64];
    fmt_sig3(s / scale, num, sizeof num);
    snprintf(buf, cap, "%s %s", num, unit);
    return buf;
}

char *nr_render_fmt_percent(double fraction, char *buf, size_t cap)
{
    if (!isfinite(fraction)) {
        snprintf(buf, cap, "n/a");
        return buf;
    }
    char num[64];
    fmt_sig3(fraction * 100.0, num, sizeof num);
    snprintf(buf, cap, "%s%%", num);
    return buf;
}

double nr__unit_scale(nr__unit unit, double vmax, char *text, size_t cap)
{
    double a = fabs(vmax);
    switch (unit) {
    case NR__UNIT_BYTES:
    case NR__UNIT_BYTES_PER_S: {
        size_t k = 0;
        double scale = 1.0;
        while (k + 1 < sizeof byte_units / sizeof byte_units[0] && a >= 1024.0 * scale) {
            scale *= 1024.0;
            k++;
        }
        snprintf(text, cap, "%s%s", byte_units[k], unit == NR__UNIT_BYTES_PER_S ? "/s" : "");
        return scale;
    }
    case NR__UNIT_SECONDS:
        if (a > 0 && a < 1e-6) {
            snprintf(text, cap, "ns");
            return 1e-9;
        }
        if (a > 0 && a < 1e-3) {
            snprintf(text, cap, "µs");
            return 1e-6;
        }
        if (a > 0 && a < 1.0) {
            snprintf(text, cap, "ms");
            return 1e-3;
        }
        if (a >= 3 * 3600.0) { /* a 100 h run: 0..100 h, not 0..300000 s */
            snprintf(text, cap, "h");
            return 3600.0;
        }
        snprintf(text, cap, "s");
        return 1.0;
    case NR__UNIT_PERCENT:
        snprintf(text, cap, "%%");
        return 0.01;
    case NR__UNIT_NONE:
    default:
        text[0] = '\0';
        return 1.0;
    }
}
