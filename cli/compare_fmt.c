/* compare_fmt: values, differences and tests of the compare report as text. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_fmt.h"
#include "nr_render.h"

void nr_compare_fmt_value(const char *unit, double v, char *buf, size_t cap)
{
    if (!isfinite(v)) {
        snprintf(buf, cap, isnan(v) ? "-" : (v > 0 ? "+inf" : "-inf"));
        return;
    }
    const double mag = fabs(v);
    char tmp[64];
    if (strcmp(unit, "s") == 0) {
        nr_render_fmt_seconds(mag, tmp, sizeof tmp);
        snprintf(buf, cap, "%s%s", v < 0 ? "-" : "", tmp);
    } else if (strcmp(unit, "B") == 0 || strcmp(unit, "B/s") == 0) {
        nr_render_fmt_bytes(mag, tmp, sizeof tmp);
        snprintf(buf, cap, "%s%s%s", v < 0 ? "-" : "", tmp, unit[1] ? "/s" : "");
    } else if (strcmp(unit, "share") == 0) {
        nr_render_fmt_percent(v, buf, cap);
    } else if (v == floor(v) && mag < 1e15) {
        snprintf(buf, cap, "%.0f", v); /* a count: every digit */
    } else {
        snprintf(buf, cap, "%.4g", v);
    }
}

/* A difference of unit: as fmt_value, but a difference of shares in
 * percentage points (a share's relative change is the next column). */
void nr_compare_fmt_diff(const char *unit, double v, char *buf, size_t cap)
{
    if (strcmp(unit, "share") == 0 && isfinite(v))
        snprintf(buf, cap, "%+.1f pp", 100.0 * v);
    else
        nr_compare_fmt_value(unit, v, buf, cap);
}

/* A KS p-value: below NR_KS_P_RESOLVED it is shown as a bound, which is all
 * its double arithmetic can tell (compare_stats.h). */
void nr_compare_fmt_ks_p(const nr_ks_result *ks, char *buf, size_t cap)
{
    const char *method = ks->method == NR_KS_EXACT ? "exact" : "asymptotic";
    if (ks->p_value < NR_KS_P_RESOLVED)
        snprintf(buf, cap, "KS p < %.0e (%s)", NR_KS_P_RESOLVED, method);
    else
        snprintf(buf, cap, "KS p = %.3g (%s)", ks->p_value, method);
}

void nr_compare_fmt_rel(double rel, char *buf, size_t cap)
{
    if (isnan(rel))
        snprintf(buf, cap, "-");
    else if (isinf(rel))
        snprintf(buf, cap, "%s", rel > 0 ? "new" : "gone");
    else
        snprintf(buf, cap, "%+.1f%%", 100.0 * rel);
}

int nr_compare_list_init(nr_compare_list *l)
{
    l->len = 0;
    l->cap = 64;
    l->s = malloc(l->cap);
    if (!l->s)
        return -1;
    l->s[0] = '\0';
    return 0;
}

void nr_compare_list_add(nr_compare_list *l, const char *item)
{
    const size_t need = l->len + strlen(item) + 3;
    if (need > l->cap) {
        size_t cap = l->cap;
        while (cap < need)
            cap *= 2;
        char *n = realloc(l->s, cap);
        if (!n)
            return;
        l->s = n;
        l->cap = cap;
    }
    l->len += (size_t)snprintf(l->s + l->len, l->cap - l->len, "%s%s", l->len ? "; " : "", item);
}

char *nr_compare_list_done(nr_compare_list *l)
{
    if (l->len == 0)
        snprintf(l->s, l->cap, "none");
    return l->s;
}
