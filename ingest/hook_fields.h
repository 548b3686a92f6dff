/* hook_fields: the fields of one hook.jsonl line that the hook reader
 * looks at. A fast scan takes the flat objects of plain ASCII that
 * workloads/niorep_hook writes for nearly every line; jansson reads every
 * other line (escapes, other bytes, nested values, a key given twice,
 * bad JSON). For every line the scan takes, both give the same fields
 * (tests/capture/test_hook_fields.c, fuzz target fuzz_hook_fields): the
 * scan is a shortcut, never a second dialect. Until session 67 jansson
 * read every line: a hook of 4 million lines took 7.2 s to ingest, 51
 * MB/s against the strace log's 850 (docs/performance.md). */
#ifndef HOOK_FIELDS_H
#define HOOK_FIELDS_H

#include <stddef.h>
#include <stdint.h>

typedef enum nr_hf_kind {
    NR_HF_ABSENT,
    NR_HF_NULL,
    NR_HF_FALSE,
    NR_HF_TRUE,
    NR_HF_INT,    /* a number without fraction or exponent, in i */
    NR_HF_REAL,   /* any other number, in d */
    NR_HF_STRING, /* s, NUL-terminated (JSON strings hold no NUL here) */
    NR_HF_OBJECT, /* json, a json_t (jansson only) */
    NR_HF_ARRAY,
} nr_hf_kind;

typedef struct nr_hf {
    nr_hf_kind kind;
    int64_t i;
    double d;
    const char *s;
    const void *json;
} nr_hf;

/* The keys the reader looks at; any other key is passed over. */
typedef enum nr_hf_key {
    NR_HF_EVENT, NR_HF_TS, NR_HF_PID, NR_HF_TID, NR_HF_PHASE, NR_HF_ERROR,
    NR_HF_OP, NR_HF_PATH, NR_HF_BYTES, NR_HF_DUR, NR_HF_NAME, NR_HF_ATTRS,
    NR_HF_WHAT, NR_HF_FIRST, NR_HF_VERSION, NR_HF_OUT,
    NR_HF_KEYS
} nr_hf_key;

typedef struct nr_hook_fields {
    nr_hf f[NR_HF_KEYS];
    char *scratch; /* the scan's strings */
    size_t scratch_cap;
} nr_hook_fields;

/* The key's name in the hook's JSON ("event", "ts", ...). */
const char *nr_hf_key_name(nr_hf_key k);
/* The value as a double (an INT's or a REAL's); 0 otherwise. */
double nr_hf_number(const nr_hf *v);

/* 1 and the fields of line[0, len) in out when it is a flat JSON object
 * the scan takes (strings in out's scratch, valid until the next scan);
 * 0 when jansson must read it; NR_E_NOMEM. */
int nr_hook_fields_scan(const char *line, size_t len, nr_hook_fields *out);
/* The fields of jansson's object o (a json_t *; strings and nested
 * values stay o's). */
void nr_hook_fields_from_json(const void *o, nr_hook_fields *out);
void nr_hook_fields_free(nr_hook_fields *f);

#endif
