/* fit_cache: <store>.fits, text: a key of four parts (the format and the
 * niorep version; the model options the fits depend on; the store file's
 * size and mtime; its fingerprint, the text of <store>.inputs), then one
 * line per fit with its numbers as C99 hex floats, which read back to the
 * same bits. The key is compared as bytes; anything else reads as no fit. */
#include "fit_cache.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runset_internal.h"

/* Bump when a fit changes for the same store and options. */
#define FIT_CACHE_FORMAT 1

enum { FIT_FIELDS = 10 };

static char *path_with(const char *store_path, const char *suffix)
{
    size_t n = strlen(store_path) + strlen(suffix) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s", store_path, suffix);
    return p;
}

/* The key of the fits of store_path under opts, a new string; NULL when
 * the store has no fingerprint (or out of memory). */
static char *fit_key(const char *store_path, const nr_model_opts *opts)
{
    char *inputs_path = path_with(store_path, ".inputs");
    char *inputs = inputs_path ? nr__rs_read_small_file(inputs_path) : NULL;
    free(inputs_path);
    struct stat st;
    if (!inputs || stat(store_path, &st) != 0) {
        free(inputs);
        return NULL;
    }
    char head[256];
    int w = snprintf(head, sizeof head, "niorep %s fits %d\nbootstraps %d seed %" PRIu64 "\nstore %lld %lld.%09ld\n",
                     NR_VERSION, FIT_CACHE_FORMAT, opts->bootstraps, opts->seed, (long long)st.st_size,
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
        errno = 0;
        v[i] = strtod(p, &end);
        if (end == p || errno == ERANGE || (*end != ' ' && *end != '\n'))
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

int nr_fit_cache_load(const char *store_path, const nr_model_opts *opts, nr_powerlaw_fit fits[NR_PL_COUNT])
{
    char *key = fit_key(store_path, opts);
    char *path = path_with(store_path, ".fits");
    char *text = key && path ? nr__rs_read_small_file(path) : NULL;
    int found = 0;
    if (text && strncmp(text, key, strlen(key)) == 0) {
        const char *p = text + strlen(key);
        found = 1;
        for (int i = 0; i < NR_PL_COUNT && found; i++)
            found = parse_fit(p, &fits[i], &p);
        found = found && *p == '\0';
    }
    free(text);
    free(path);
    free(key);
    return found;
}

int nr_fit_cache_save(const char *store_path, const nr_model_opts *opts, const nr_model *m, nr_error *err)
{
    char *key = fit_key(store_path, opts);
    if (!key)
        return 0; /* not a store of the cache */
    size_t cap = strlen(key) + NR_PL_COUNT * FIT_FIELDS * 32 + 1, len = 0;
    char *text = malloc(cap);
    char *path = path_with(store_path, ".fits");
    int rc = 0;
    if (!text || !path) {
        rc = nr_error_set(err, NR_E_NOMEM, "out of memory keeping the fits of %s", store_path);
    } else {
        len = (size_t)snprintf(text, cap, "%s", key);
        for (int i = 0; i < NR_PL_COUNT; i++) {
            double v[FIT_FIELDS];
            fit_values(nr_model_powerlaw(m, i), v);
            for (int k = 0; k < FIT_FIELDS; k++)
                len += (size_t)snprintf(text + len, cap - len, "%a%c", v[k], k + 1 < FIT_FIELDS ? ' ' : '\n');
        }
        rc = nr__rs_write_text_file(path, text, err);
    }
    free(path);
    free(text);
    free(key);
    return rc;
}
