/* diag: reasons kept in a small array, looked up linearly (there are a few
 * dozen reason keys at most); examples copied into fixed-size slots. */
#include "diag.h"

#include <stdlib.h>
#include <string.h>

#include "nr_mem.h"
#include "nr_schema.h"

typedef struct diag_example {
    char *file;
    uint64_t line;
    char text[NR_DIAG_EXAMPLE_MAX + 1];
    size_t len;
} diag_example;

typedef struct diag_reason {
    char *key;
    uint64_t count;
    size_t nexamples;
    diag_example examples[NR_DIAG_EXAMPLES];
} diag_reason;

struct nr_diag {
    diag_reason *reasons;
    size_t count, cap;
    size_t last_hit; /* the same reason usually repeats: try it first */
};

nr_diag *nr_diag_create(void) { return calloc(1, sizeof(nr_diag)); }

void nr_diag_destroy(nr_diag *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->count; i++) {
        free(d->reasons[i].key);
        for (size_t e = 0; e < d->reasons[i].nexamples; e++)
            free(d->reasons[i].examples[e].file);
    }
    free(d->reasons);
    free(d);
}

static diag_reason *find_reason(const nr_diag *d, const char *reason)
{
    if (d->last_hit < d->count && strcmp(d->reasons[d->last_hit].key, reason) == 0)
        return &d->reasons[d->last_hit];
    for (size_t i = 0; i < d->count; i++)
        if (strcmp(d->reasons[i].key, reason) == 0) {
            ((nr_diag *)d)->last_hit = i;
            return &d->reasons[i];
        }
    return NULL;
}

static diag_reason *add_reason(nr_diag *d, const char *reason)
{
    char *key = strdup(reason);
    if (!key || NR_GROW(d->reasons, d->cap, d->count + 1) < 0) {
        free(key);
        return NULL;
    }
    diag_reason *r = &d->reasons[d->count];
    memset(r, 0, sizeof *r);
    r->key = key;
    d->last_hit = d->count++;
    return r;
}

int nr_diag_add_n(nr_diag *d, const char *reason, uint64_t count, const char *file, uint64_t line,
                  const char *example, size_t n)
{
    diag_reason *r = find_reason(d, reason);
    if (!r && !(r = add_reason(d, reason)))
        return NR_E_NOMEM;
    r->count += count;
    if (r->nexamples >= NR_DIAG_EXAMPLES || (!example && !file && line == 0))
        return 0;
    diag_example *e = &r->examples[r->nexamples];
    e->file = file ? strdup(file) : NULL;
    if (file && !e->file)
        return NR_E_NOMEM;
    e->line = line;
    e->len = example ? (n < NR_DIAG_EXAMPLE_MAX ? n : NR_DIAG_EXAMPLE_MAX) : 0;
    if (e->len)
        memcpy(e->text, example, e->len);
    e->text[e->len] = '\0';
    /* the store keeps strings without NUL bytes: a binary line is shown with '?' */
    for (size_t i = 0; i < e->len; i++)
        if (e->text[i] == '\0')
            e->text[i] = '?';
    r->nexamples++;
    return 0;
}

int nr_diag_add(nr_diag *d, const char *reason, const char *file, uint64_t line,
                const char *example, size_t n)
{
    return nr_diag_add_n(d, reason, 1, file, line, example, n);
}

int nr_diag_merge(nr_diag *d, const nr_diag *src)
{
    for (size_t i = 0; i < src->count; i++) {
        const diag_reason *sr = &src->reasons[i];
        NR_TRY(nr_diag_add_n(d, sr->key, sr->count, NULL, 0, NULL, 0)); /* the count, no example */
        for (size_t e = 0; e < sr->nexamples; e++) { /* src's examples after d's, as many as fit */
            const diag_example *x = &sr->examples[e];
            NR_TRY(nr_diag_add_n(d, sr->key, 0, x->file, x->line, x->text, x->len));
        }
    }
    return 0;
}

uint64_t nr_diag_count(const nr_diag *d, const char *reason)
{
    const diag_reason *r = find_reason(d, reason);
    return r ? r->count : 0;
}

size_t nr_diag_reasons(const nr_diag *d) { return d->count; }

static int compare_reason_keys(const void *a, const void *b)
{
    const diag_reason *const *ra = a, *const *rb = b;
    return strcmp((*ra)->key, (*rb)->key);
}

static int write_row(nr_table_writer *t, const diag_reason *r, const diag_example *e, nr_error *err)
{
    nr_table_set_str(t, NR_DG_REASON, r->key, strlen(r->key));
    nr_table_set_i64(t, NR_DG_COUNT, (int64_t)r->count);
    const char *file = e && e->file ? e->file : "";
    nr_table_set_str(t, NR_DG_FILE, file, strlen(file));
    nr_table_set_i64(t, NR_DG_LINE, e ? (int64_t)e->line : 0);
    nr_table_set_str(t, NR_DG_EXAMPLE, e ? e->text : "", e ? e->len : 0);
    return nr_table_end_row(t, err);
}

int nr_diag_write(const nr_diag *d, nr_table_writer *t, nr_error *err)
{
    const diag_reason **sorted = malloc((d->count ? d->count : 1) * sizeof *sorted);
    if (!sorted)
        return nr_error_set(err, NR_E_NOMEM, "diagnostics: out of memory");
    for (size_t i = 0; i < d->count; i++)
        sorted[i] = &d->reasons[i];
    qsort(sorted, d->count, sizeof *sorted, compare_reason_keys);
    int rc = 0;
    for (size_t i = 0; i < d->count && rc == 0; i++) {
        const diag_reason *r = sorted[i];
        if (r->nexamples == 0)
            rc = write_row(t, r, NULL, err);
        for (size_t e = 0; e < r->nexamples && rc == 0; e++)
            rc = write_row(t, r, &r->examples[e], err);
    }
    free(sorted);
    return rc;
}
