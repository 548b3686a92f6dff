/* Fuzz target: the input is the text of a kept fits file (cli/fit_cache.c)
 * after the key "K\n" and before its check line (appended here). When it
 * parses, writing the fits again and parsing that must give the same bits
 * (NaN as NaN); any other outcome but a crash, a leak or a hang is fine. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <inttypes.h>
#include <stdio.h>

#include "fit_cache.h"
#include "nr_strtab.h"
#include "runset_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The file functions of runset.c, which the parse and format never call. */
char *nr__rs_read_small_file(const char *path)
{
    (void)path;
    abort();
}

int nr__rs_write_text_file(const char *path, const char *text, nr_error *err)
{
    (void)path, (void)text, (void)err;
    abort();
}

char *nr__rs_path_with(const char *path, const char *suffix)
{
    (void)path, (void)suffix;
    abort();
}

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b)); }

static void check_same(const nr_powerlaw_fit *a, const nr_powerlaw_fit *b)
{
    if (a->valid != b->valid || a->n_tail != b->n_tail || a->n != b->n || !same(a->alpha, b->alpha) ||
        !same(a->alpha_se, b->alpha_se) || !same(a->xmin, b->xmin) || !same(a->ks_d, b->ks_d) ||
        !same(a->p_value, b->p_value) || !same(a->vs_lognormal_R, b->vs_lognormal_R) ||
        !same(a->vs_lognormal_p, b->vs_lognormal_p))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char key[] = "K\n";
    /* the input with a check line of its own hash appended (so that the
       fits' parse is reached: a file whose check fails reads as no fit) */
    char *text = malloc(sizeof key + size + 24);
    if (!text)
        return 0;
    memcpy(text, key, sizeof key - 1);
    memcpy(text + sizeof key - 1, data, size);
    text[sizeof key - 1 + size] = '\0';
    const size_t len = strlen(text);
    snprintf(text + len, 24, "check %016" PRIx64 "\n", nr_hash_bytes(text, len));
    nr_powerlaw_fit fits[NR_PL_COUNT], again[NR_PL_COUNT];
    if (nr_fit_cache_parse(text, key, fits)) {
        char *written = nr_fit_cache_format(key, fits);
        if (written) {
            if (!nr_fit_cache_parse(written, key, again))
                abort();
            for (int i = 0; i < NR_PL_COUNT; i++)
                check_same(&fits[i], &again[i]);
        }
        free(written);
    }
    free(text);
    return 0;
}
