/* nr_percent: a share as a percentage for people to read ("92.4%"), the
 * same in the report and on the terminal. */
#ifndef NR_PERCENT_H
#define NR_PERCENT_H

#include <stddef.h>

/* fraction 0.924 -> "92.4%"; under 0.1% two significant digits ("0.042%");
 * from 99.95% up to 100% two decimals, cut rather than rounded to 100.00%
 * (99.97% must not print as 100.0%, nor 99.996% as 100.00%);
 * "n/a" when not finite. Returns buf. */
char *nr_fmt_percent(double fraction, char *buf, size_t cap);

#endif
