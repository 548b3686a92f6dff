/* manifest: flattens RUN_DIR/manifest.json (docs/run-directory.md) into
 * sorted dotted keys: objects by member name, arrays by index
 * ("fs.0.type"), scalars as text (reals with up to 17 significant digits,
 * booleans "true"/"false", null ""). */
#include "manifest.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nr_mem.h"

typedef struct flat {
    nr_manifest_kv *items;
    size_t count, cap;
} flat;

static int add_kv(flat *f, const char *key, const char *value)
{
    NR_TRY(NR_GROW(f->items, f->cap, f->count + 1));
    char *k = strdup(key), *v = strdup(value);
    if (!k || !v) {
        free(k);
        free(v);
        return NR_E_NOMEM;
    }
    f->items[f->count++] = (nr_manifest_kv){k, v};
    return 0;
}

static int scalar_text(const json_t *j, char *buf, size_t cap, const char **out)
{
    switch (json_typeof(j)) {
    case JSON_STRING: *out = json_string_value(j); return 0;
    case JSON_INTEGER: snprintf(buf, cap, "%lld", (long long)json_integer_value(j)); break;
    case JSON_REAL: snprintf(buf, cap, "%.17g", json_real_value(j)); break;
    case JSON_TRUE: snprintf(buf, cap, "true"); break;
    case JSON_FALSE: snprintf(buf, cap, "false"); break;
    default: buf[0] = '\0'; break;
    }
    *out = buf;
    return 0;
}

/* Appends the leaves under j with key prefix (prefix_len bytes of key are in use). */
static int flatten(flat *f, const json_t *j, char **key, size_t *key_cap, size_t prefix_len)
{
    if (json_is_object(j) || json_is_array(j)) {
        size_t n = json_is_array(j) ? json_array_size(j) : json_object_size(j);
        if (n == 0)
            return 0;  /* empty containers carry no facts */
        const char *name;
        json_t *child;
        void *iter = json_is_object(j) ? json_object_iter((json_t *)j) : NULL;
        for (size_t i = 0; i < n; i++) {
            char index[32];
            if (json_is_array(j)) {
                snprintf(index, sizeof index, "%zu", i);
                name = index;
                child = json_array_get(j, i);
            } else {
                name = json_object_iter_key(iter);
                child = json_object_iter_value(iter);
                iter = json_object_iter_next((json_t *)j, iter);
            }
            size_t need = prefix_len + 1 + strlen(name) + 1;
            if (need > *key_cap) {
                char *grown = realloc(*key, need * 2);
                if (!grown)
                    return NR_E_NOMEM;
                *key = grown;
                *key_cap = need * 2;
            }
            size_t len = prefix_len;
            if (prefix_len)
                (*key)[len++] = '.';
            strcpy(*key + len, name);
            NR_TRY(flatten(f, child, key, key_cap, len + strlen(name)));
        }
        return 0;
    }
    char buf[64];
    const char *text;
    scalar_text(j, buf, sizeof buf, &text);
    (*key)[prefix_len] = '\0';
    return add_kv(f, *key, text);
}

static int cmp_kv(const void *a, const void *b)
{
    return strcmp(((const nr_manifest_kv *)a)->key, ((const nr_manifest_kv *)b)->key);
}

void nr_manifest_init(nr_manifest *m)
{
    memset(m, 0, sizeof *m);
}

void nr_manifest_fini(nr_manifest *m)
{
    for (size_t i = 0; i < m->count; i++) {
        free(m->items[i].key);
        free(m->items[i].value);
    }
    free(m->items);
    free(m->cwd);
    memset(m, 0, sizeof *m);
}

int nr_manifest_load(const char *path, nr_manifest *m, nr_error *err)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (!root) {
        if (jerr.line < 0)
            return nr_error_set(err, NR_E_IO, "%s: cannot read: %s", path, jerr.text);
        return nr_error_set(err, NR_E_INPUT, "%s: line %d, column %d: %s", path, jerr.line, jerr.column,
                            jerr.text);
    }
    if (!json_is_object(root)) {
        json_decref(root);
        return nr_error_set(err, NR_E_INPUT, "%s: line 1: expected a JSON object", path);
    }
    const json_t *cwd = json_object_get(root, "cwd");
    if (cwd && !json_is_null(cwd) && (!json_is_string(cwd) || json_string_value(cwd)[0] != '/')) {
        /* the paths of the trace are resolved with it: a wrong one is no
           detail to drop without a word (docs/manifest.md) */
        json_decref(root);
        return nr_error_set(err, NR_E_INPUT, "%s: \"cwd\" must be an absolute path (a string starting with /)", path);
    }
    flat f = {0};
    size_t key_cap = 256;
    char *key = malloc(key_cap);
    int rc = key ? flatten(&f, root, &key, &key_cap, 0) : NR_E_NOMEM;
    free(key);
    char *cwd_copy = json_is_string(cwd) ? strdup(json_string_value(cwd)) : NULL;
    int cwd_lost = json_is_string(cwd) && !cwd_copy;
    json_decref(root);
    if (rc < 0 || cwd_lost) {
        for (size_t i = 0; i < f.count; i++) {
            free(f.items[i].key);
            free(f.items[i].value);
        }
        free(f.items);
        free(cwd_copy);
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", path);
    }
    if (f.count)
        qsort(f.items, f.count, sizeof *f.items, cmp_kv);
    nr_manifest_fini(m);
    m->items = f.items;
    m->count = f.count;
    m->cwd = cwd_copy;
    return 0;
}

const char *nr_manifest_get(const nr_manifest *m, const char *key)
{
    size_t lo = 0, hi = m->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(m->items[mid].key, key);
        if (c == 0)
            return m->items[mid].value;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
