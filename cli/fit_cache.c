/* fit_cache: <store>.fits-B-S, text: a key of four parts (the format and the
 * niorep version; the model options the fits depend on; the store file's
 * size and mtime; its fingerprint, the text of <store>.inputs), then one
 * line per fit with its numbers as C99 hex floats, which read back to the
 * same bits, then "check H\n": H the 16 hex digits of nr_hash_bytes of all
 * before it. The key is compared as bytes; anything else, a changed digit
 * included, reads as no fit (until session 46, format 4, a changed digit
 * was trusted: review 46). */
#include "fit_cache.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nr_strtab.h"
#include "runset_internal.h"

/* Bump when a fit changes for the same store and options. */
#define FIT_CACHE_FORMAT 5

enum { FIT_FIELDS = 10 };

/* <store>.fits-B-S for bootstraps B and seed S: the fits of other options
 * (`compare` models without bootstraps) have a file of their own, so
 * that `compare` and `build` on the same runs do not replace each
 * other's. A new string, NULL when out of memory. */
static char *fits_path(const char *store_path, const nr_model_opts *opts)
{
    char suffix[64];
    snprintf(suffix, sizeof suffix, ".fits-%d-%" PRIu64, opts->bootstraps, opts->seed);
    return nr__rs_path_with(store_path, suffix);
}

char *nr_fit_cache_key(const char *store_path, const nr_model_opts *opts)
{
    char *inputs_path = nr__rs_path_with(store_path, ".inputs");
    char *inputs = inputs_path ? nr__rs_read_small_file(inputs_path) : NULL;
    free(inputs_path);
    struct stat st;
    if (!inputs || stat(store_path, &st) != 0) {
        free(inputs);
        return NULL;
    }
    char head[256];
    int w = snprintf(head, sizeof head,
                     "niorep %s fits %d model %d\nbootstraps %d seed %" PRIu64 "\nstore %lld %lld.%09ld\n",
                     NR_VERSION, FIT_CACHE_FORMAT, NR_MODEL_REVISION, opts->bootstraps, opts->seed, (long long)st.st_size,
                     (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
    size_t n = (size_t)w + strlen(inputs) + 1;
    char *key = w > 0 && (size_t)w < sizeof head ? malloc(n) : NULL;
    if (key)
        snprintf(key, n, "%s%s", head, inputs);
    free(inputs);
    return key;
}

static void fit_values(const nr_powerlaw_fit *f, double v[FIT_FIELDS])
{
    const double all[FIT_FIELDS] = {f->valid, (double)f->n_tail, (double)f->n, f->alpha, f->alpha_se,
                                    f->xmin, f->ks_d, f->p_value, f->vs_lognormal_R, f->vs_lognormal_p};
    memcpy(v, all, sizeof all);
}

/* One fit line: FIT_FIELDS numbers; 0 when it is not one. */
static int parse_fit(const char *line, nr_powerlaw_fit *f, const char **next)
{
    double v[FIT_FIELDS];
    const char *p = line;
    for (int i = 0; i < FIT_FIELDS; i++) {
        char *end;
        v[i] = strtod(p, &end); /* a subnormal (a p-value of 1e-320) is a value like any other */
        if (end == p || (*end != ' ' && *end != '\n'))
            return 0;
        p = end + 1;
        if (*end == '\n' && i != FIT_FIELDS - 1)
            return 0;
    }
    if (p[-1] != '\n' || !(v[0] == 0 || v[0] == 1) || !(v[1] >= 0 && v[1] <= v[2]) || !(v[2] >= 0 && v[2] < 0x1p53))
        return 0;
    *f = (nr_powerlaw_fit){.valid = (int)v[0], .n_tail = (size_t)v[1], .n = (size_t)v[2], .alpha = v[3],
                           .alpha_se = v[4], .xmin = v[5], .ks_d = v[6], .p_value = v[7],
                           .vs_lognormal_R = v[8], .vs_lognormal_p = v[9]};
    *next = p;
    return 1;
}

enum { CHECK_LINE = 23 }; /* "check " + 16 hex digits + "\n" */

/* Where text's check line starts when it holds the hash of all before it; NULL otherwise. */
static const char *checked_end(const char *text)
{
    const size_t len = strlen(text);
    if (len < CHECK_LINE)
        return NULL;
    const char *line = text + len - CHECK_LINE;
    uint64_t want = 0;
    if (memcmp(line, "check ", 6) != 0 || line[CHECK_LINE - 1] != '\n')
        return NULL;
    for (int i = 6; i < CHECK_LINE - 1; i++) {
        const char c = line[i];
        const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (digit < 0)
            return NULL;
        want = want << 4 | (uint64_t)digit;
    }
    return nr_hash_bytes(text, (size_t)(line - text)) == want ? line : NULL;
}

int nr_fit_cache_parse(const char *text, const char *key, nr_powerlaw_fit fits[NR_PL_COUNT])
{
    const size_t n = strlen(key);
    const char *end = checked_end(text);
    if (!end || strncmp(text, key, n) != 0)
        return 0;
    const char *p = text + n;
    for (int i = 0; i < NR_PL_COUNT; i++)
        if (p >= end || !parse_fit(p, &fits[i], &p))
            return 0;
    return p == end;
}

char *nr_fit_cache_format(const char *key, const nr_powerlaw_fit fits[NR_PL_COUNT])
{
    enum { MAX_NUMBER = 32 }; /* "-0x1.fffffffffffffp+1023" and a separator */
    const size_t cap = strlen(key) + NR_PL_COUNT * FIT_FIELDS * MAX_NUMBER + CHECK_LINE + 1;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    size_t len = (size_t)snprintf(text, cap, "%s", key);
    for (int i = 0; i < NR_PL_COUNT; i++) {
        double v[FIT_FIELDS];
        fit_values(&fits[i], v);
        for (int k = 0; k < FIT_FIELDS; k++)
            len += (size_t)snprintf(text + len, cap - len, "%a%c", v[k], k + 1 < FIT_FIELDS ? ' ' : '\n');
    }
    snprintf(text + len, cap - len, "check %016" PRIx64 "\n", nr_hash_bytes(text, len));
    return text;
}

int nr_fit_cache_entry_open(nr_fit_cache_entry *e, const char *store_path, const nr_model_opts *opts)
{
    e->key = nr_fit_cache_key(store_path, opts);
    e->path = e->key ? fits_path(store_path, opts) : NULL;
    if (e->path)
        return 1;
    nr_fit_cache_entry_close(e);
    return 0;
}

void nr_fit_cache_entry_close(nr_fit_cache_entry *e)
{
    free(e->key);
    free(e->path);
    e->key = e->path = NULL;
}

int nr_fit_cache_load(const nr_fit_cache_entry *e, nr_powerlaw_fit fits[NR_PL_COUNT])
{
    char *text = nr__rs_read_small_file(e->path);
    const int found = text && nr_fit_cache_parse(text, e->key, fits);
    free(text);
    return found;
}

int nr_fit_cache_save(const nr_fit_cache_entry *e, const nr_model *m, nr_error *err)
{
    nr_powerlaw_fit fits[NR_PL_COUNT];
    for (int i = 0; i < NR_PL_COUNT; i++)
        fits[i] = *nr_model_powerlaw(m, i);
    char *text = nr_fit_cache_format(e->key, fits);
    int rc = text ? nr__rs_write_text_file(e->path, text, err)
                  : nr_error_set(err, NR_E_NOMEM, "out of memory keeping the fits in %s", e->path);
    free(text);
    return rc;
}
