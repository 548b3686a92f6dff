/* report_format: numbers with units for the report. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nr_percent.h"
#include "render_internal.h"
#include "report.h"

/* Three significant digits, trailing zeros dropped: 1.50 -> "1.5", 123.4 -> "123".
 * Unlike the figures' labels (units.c), values below 1 keep two decimals only. */
static void sig3(double x, char *buf, size_t cap)
{
    double a = fabs(x);
    nr__fmt_trimmed(x, a >= 100 ? 0 : a >= 10 ? 1 : 2, buf, cap);
}

static int not_a_number(double x, char *buf, size_t cap)
{
    if (isfinite(x))
        return 0;
    snprintf(buf, cap, "n/a");
    return 1;
}

/* value scaled by 1024 per step through units, rounded so that "1024 KiB" becomes "1 MiB". */
static char *fmt_binary(double v, const char *const *units, size_t nunits, char *buf, size_t cap)
{
    if (not_a_number(v, buf, cap))
        return buf;
    size_t u = nr__binary_unit(&v, nunits);
    char num[48];
    if (u == 0)
        snprintf(num, sizeof num, "%.0f", v);
    else
        sig3(v, num, sizeof num);
    snprintf(buf, cap, "%s %s", num, units[u]);
    return buf;
}

char *nr_report_fmt_bytes(double bytes, char *buf, size_t cap)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    return fmt_binary(bytes, units, sizeof units / sizeof units[0], buf, cap);
}

char *nr_report_fmt_rate(double bytes_per_s, char *buf, size_t cap)
{
    static const char *const units[] = {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s", "PiB/s"};
    return fmt_binary(bytes_per_s, units, sizeof units / sizeof units[0], buf, cap);
}

char *nr_report_fmt_seconds(double s, char *buf, size_t cap)
{
    if (not_a_number(s, buf, cap))
        return buf;
    char num[48];
    double a = fabs(s);
    if (a == 0) {
        snprintf(buf, cap, "0 s");
    } else if (a < 999.5e-9) {
        sig3(s * 1e9, num, sizeof num);
        snprintf(buf, cap, "%s ns", num);
    } else if (a < 999.5e-6) {
        sig3(s * 1e6, num, sizeof num);
        snprintf(buf, cap, "%s \xC2\xB5s", num);
    } else if (a < 999.5e-3) {
        sig3(s * 1e3, num, sizeof num);
        snprintf(buf, cap, "%s ms", num);
    } else if (a < 59.95) {
        sig3(s, num, sizeof num);
        snprintf(buf, cap, "%s s", num);
    } else if (a < 3600) {
        long total = lround(a);
        snprintf(buf, cap, "%s%ld min %ld s", s < 0 ? "-" : "", total / 60, total % 60);
    } else {
        long total = lround(a / 60);
        snprintf(buf, cap, "%s%ld h %ld min", s < 0 ? "-" : "", total / 60, total % 60);
    }
    return buf;
}

char *nr_report_fmt_percent(double fraction, char *buf, size_t cap) { return nr_fmt_percent(fraction, buf, cap); }

char *nr_report_fmt_count(double n, char *buf, size_t cap)
{
    if (not_a_number(n, buf, cap))
        return buf;
    char digits[48];
    snprintf(digits, sizeof digits, "%.0f", fabs(n));
    size_t len = strlen(digits), o = 0;
    if (n < 0 && o + 1 < cap)
        buf[o++] = '-';
    for (size_t i = 0; i < len && o + 4 < cap; i++) {
        if (i > 0 && (len - i) % 3 == 0) {   /* U+202F narrow no-break space between groups */
            buf[o++] = '\xE2';
            buf[o++] = '\x80';
            buf[o++] = '\xAF';
        }
        buf[o++] = digits[i];
    }
    buf[o < cap ? o : cap - 1] = '\0';
    return buf;
}

char *nr_report_fmt_real(double x, char *buf, size_t cap)
{
    if (not_a_number(x, buf, cap))
        return buf;
    if (x != 0 && (fabs(x) < 0.01 || fabs(x) >= 1e6))
        snprintf(buf, cap, "%.3g", x);
    else
        sig3(x, buf, cap);
    return buf;
}
