/* json_number: a statistic as a JSON number that keeps whole numbers exact.
 * The summaries print reals with 6 significant digits (NR_MODEL_JSON_FLAGS,
 * so that sums in another order print the same), which turned byte counts
 * and thresholds into 1048580.0 for 1 MiB; a whole number up to 2^53 is
 * printed as an integer instead, every digit kept. */
#ifndef NR_JSON_NUMBER_H
#define NR_JSON_NUMBER_H

#include <jansson.h>
#include <math.h>

/* null for NaN and infinities (JSON has none). */
static inline json_t *nr_json_number(double v)
{
    if (!isfinite(v))
        return json_null();
    if (v == floor(v) && fabs(v) <= 9007199254740992.0)
        return json_integer((json_int_t)v);
    return json_real(v);
}

#endif
