/* ks_tool: reads two samples (a line "n1 n2", then n1 + n2 numbers) on
 * stdin and prints "D p method" of nr_ks_2samp, for ks_scipy_check.py. */
#include <stdio.h>
#include <stdlib.h>

#include "compare_stats.h"

int main(void)
{
    size_t n1, n2;
    if (scanf("%zu %zu", &n1, &n2) != 2)
        return 2;
    double *x = malloc((n1 + n2 + 1) * sizeof *x);
    if (!x)
        return 1;
    for (size_t i = 0; i < n1 + n2; i++)
        if (scanf("%lf", &x[i]) != 1)
            return 2;
    nr_ks_result r;
    if (nr_ks_2samp(x, n1, x + n1, n2, &r) != 0)
        return 1;
    printf("%.17g %.17g %s\n", r.d, r.p_value, r.method == NR_KS_EXACT ? "exact" : "asymptotic");
    free(x);
    return 0;
}
