/* hook_fields_agree: the fast scan of a hook line against jansson's
 * reading of it (ingest/hook_fields.h), shared by the unit test
 * (tests/capture/test_hook_fields.c) and the fuzz target
 * (fuzz_hook_fields.c). */
#ifndef HOOK_FIELDS_AGREE_H
#define HOOK_FIELDS_AGREE_H

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "hook_fields.h"

static int hf_same(const nr_hf *a, const nr_hf *b)
{
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case NR_HF_INT: return a->i == b->i;
    case NR_HF_REAL: return memcmp(&a->d, &b->d, sizeof a->d) == 0; /* bit for bit: -0.0 too */
    case NR_HF_STRING: return strcmp(a->s, b->s) == 0;
    default: return 1;
    }
}

/* 0 when the scan leaves line[0, len) to jansson (*taken 0) or takes it
 * (*taken 1) with jansson's fields; -1 and why (room n) otherwise. */
static int hook_fields_agree(const char *line, size_t len, int *taken, char *why, size_t n)
{
    nr_hook_fields fast = {0}, slow = {0};
    const int rc = nr_hook_fields_scan(line, len, &fast);
    *taken = rc == 1;
    int ok = rc >= 0;
    if (!ok)
        snprintf(why, n, "the scan failed: %d", rc);
    json_error_t jerr;
    json_t *o = rc == 1 ? json_loadb(line, len, JSON_DECODE_ANY, &jerr) : NULL;
    if (ok && rc == 1 && !json_is_object(o)) {
        snprintf(why, n, "the scan took a line jansson reads as no object (%s)", o ? "not an object" : jerr.text);
        ok = 0;
    }
    if (ok && rc == 1) {
        nr_hook_fields_from_json(o, &slow);
        for (int k = 0; k < NR_HF_KEYS && ok; k++)
            if (!hf_same(&fast.f[k], &slow.f[k])) {
                snprintf(why, n, "field %s: kind %d (%lld, %.17g) against jansson's kind %d (%lld, %.17g)",
                         nr_hf_key_name((nr_hf_key)k), fast.f[k].kind, (long long)fast.f[k].i, fast.f[k].d,
                         slow.f[k].kind, (long long)slow.f[k].i, slow.f[k].d);
                ok = 0;
            }
    }
    json_decref(o);
    nr_hook_fields_free(&fast);
    return ok ? 0 : -1;
}

#endif
