#include "nr_percent.h"

#include <math.h>
#include <stdio.h>

char *nr_fmt_percent(double fraction, char *buf, size_t cap)
{
    if (!isfinite(fraction)) {
        snprintf(buf, cap, "n/a");
        return buf;
    }
    double pct = fraction * 100.0;
    double a = fabs(pct);
    if (a != 0 && a < 0.1)
        snprintf(buf, cap, "%.2g%%", pct);
    else if (a < 99.95 || a >= 100)
        snprintf(buf, cap, "%.1f%%", pct);
    else /* rounded unless that gives 100.00: 99.996% is 99.99% (review 47) */
        snprintf(buf, cap, "%.2f%%", a * 100 >= 9999.5 ? copysign(floor(a * 100) / 100, pct) : pct);
    return buf;
}
