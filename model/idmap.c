/* An int64 -> uint32 open-addressing hash map with linear probing (ids of
 * files, processes and phases; never per event). */
#include <stdlib.h>

#include "model_internal.h"

#define EMPTY_KEY INT64_MIN

void nr__idmap_init(nr__idmap *m)
{
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->len = 0;
    m->dense = NULL;
    m->ndense = m->dense_cap = 0;
}

void nr__idmap_fini(nr__idmap *m)
{
    free(m->keys);
    free(m->vals);
    free(m->dense);
    nr__idmap_init(m);
}

/* splitmix64 finaliser: spreads consecutive ids over the table. */
static size_t slot_of(int64_t key, size_t cap)
{
    uint64_t z = (uint64_t)key + 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return (size_t)((z ^ (z >> 31)) & (cap - 1));
}

int64_t nr__idmap_get(const nr__idmap *m, int64_t key)
{
    if (m->dense)
        return key >= 0 && (uint64_t)key < m->ndense && m->dense[key] != NR__IDMAP_NONE ? (int64_t)m->dense[key] : -1;
    if (m->cap == 0 || key == EMPTY_KEY)
        return -1;
    for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == key)
            return m->vals[i];
        if (m->keys[i] == EMPTY_KEY)
            return -1;
    }
}

static int rehash(nr__idmap *m, size_t cap)
{
    int64_t *keys = malloc(cap * sizeof *keys);
    uint32_t *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return NR_E_NOMEM;
    }
    for (size_t i = 0; i < cap; i++)
        keys[i] = EMPTY_KEY;
    for (size_t j = 0; j < m->cap; j++) {
        if (m->keys[j] == EMPTY_KEY)
            continue;
        size_t i = slot_of(m->keys[j], cap);
        while (keys[i] != EMPTY_KEY)
            i = (i + 1) & (cap - 1);
        keys[i] = m->keys[j];
        vals[i] = m->vals[j];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

static int put_hashed(nr__idmap *m, int64_t key, uint32_t val);

/* Direct-indexed only so far (every key was the next): the keys move into
 * the hash, which every later put uses. */
static int hash_the_dense(nr__idmap *m)
{
    uint32_t *dense = m->dense;
    const size_t n = m->ndense;
    m->dense = NULL;
    m->ndense = m->dense_cap = m->len = 0;
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0; k++)
        if (dense[k] != NR__IDMAP_NONE)
            rc = put_hashed(m, (int64_t)k, dense[k]);
    free(dense);
    return rc;
}

int nr__idmap_put(nr__idmap *m, int64_t key, uint32_t val)
{
    if (key == EMPTY_KEY || val == NR__IDMAP_NONE)
        return NR_E_INPUT;
    if (m->cap == 0 && key >= 0 && (uint64_t)key == m->ndense) {
        NR_TRY(NR_GROW(m->dense, m->dense_cap, m->ndense + 1));
        m->dense[m->ndense++] = val;
        m->len++;
        return 0;
    }
    if (m->cap == 0 && m->dense)
        NR_TRY(hash_the_dense(m));
    return put_hashed(m, key, val);
}

static int put_hashed(nr__idmap *m, int64_t key, uint32_t val)
{
    free(m->dense);
    m->dense = NULL;
    m->ndense = m->dense_cap = 0;
    if ((m->len + 1) * 2 > m->cap)
        NR_TRY(rehash(m, m->cap ? m->cap * 2 : 64));
    size_t i = slot_of(key, m->cap);
    while (m->keys[i] != EMPTY_KEY && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    if (m->keys[i] == EMPTY_KEY)
        m->len++;
    m->keys[i] = key;
    m->vals[i] = val;
    return 0;
}

void nr__idmap_remap(nr__idmap *m, const uint32_t *to, size_t nto)
{
    for (size_t k = 0; k < m->ndense; k++)
        if (m->dense[k] < nto)
            m->dense[k] = to[m->dense[k]];
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i] != EMPTY_KEY && m->vals[i] < nto)
            m->vals[i] = to[m->vals[i]];
}

int nr__idmap_densify(nr__idmap *m)
{
    if (m->dense)
        return 0; /* direct-indexed already */
    const size_t limit = 4 * m->len + 1024;
    int64_t max = -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i] == EMPTY_KEY)
            continue;
        if (m->keys[i] < 0 || (uint64_t)m->keys[i] >= limit)
            return 0;   /* sparse or negative ids: keep hashing */
        max = m->keys[i] > max ? m->keys[i] : max;
    }
    uint32_t *dense = malloc((size_t)(max + 1) * sizeof *dense + 1);
    if (!dense)
        return NR_E_NOMEM;
    for (int64_t k = 0; k <= max; k++)
        dense[k] = NR__IDMAP_NONE;
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i] != EMPTY_KEY)
            dense[m->keys[i]] = m->vals[i];
    free(m->dense);
    m->dense = dense;
    m->ndense = m->dense_cap = (size_t)(max + 1);
    return 0;
}
