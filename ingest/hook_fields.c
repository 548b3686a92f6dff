#include "hook_fields.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nr_error.h"

#define KEY(text) {text, sizeof text - 1}
static const struct { const char *name; size_t len; } keys[NR_HF_KEYS] = {
    KEY("event"), KEY("ts"),    KEY("pid"),  KEY("tid"),   KEY("phase"), KEY("error"),   KEY("op"),  KEY("path"),
    KEY("bytes"), KEY("dur"),   KEY("name"), KEY("attrs"), KEY("what"),  KEY("first"),   KEY("version"), KEY("out"),
};
#undef KEY

const char *nr_hf_key_name(nr_hf_key k) { return keys[k].name; }

double nr_hf_number(const nr_hf *v)
{
    return v->kind == NR_HF_INT ? (double)v->i : v->kind == NR_HF_REAL ? v->d : 0.0;
}

/* The key k[0, n) names (no NUL inside), or -1. */
static int key_of(const char *k, size_t n)
{
    for (int i = 0; i < NR_HF_KEYS; i++)
        if (keys[i].len == n && memcmp(keys[i].name, k, n) == 0)
            return i;
    return -1;
}

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    return p;
}

/* The end of the string whose opening quote is at p (the closing quote),
 * or NULL where jansson must read it: an escape, a control byte or a byte
 * of UTF-8 beyond ASCII (which jansson checks), or no closing quote. */
static const char *plain_string_end(const char *p, const char *end)
{
    for (const char *q = p + 1; q < end; q++) {
        const unsigned char c = (unsigned char)*q;
        if (c == '"')
            return q;
        if (c == '\\' || c < 0x20 || c >= 0x80)
            return NULL;
    }
    return NULL;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* A number's digits as scan_number reads them: the significant ones
 * (leading zeros are none) while there are at most 19, as an integer m,
 * and the power of ten e that m is to be taken at. */
typedef struct decimal {
    uint64_t m;
    int significant, e;
} decimal;

static void take_digit(decimal *d, char c, int after_point)
{
    if (d->m == 0 && c == '0') { /* a leading zero */
        d->e -= after_point;
        return;
    }
    if (++d->significant > 19)
        return; /* too many for m: strtod reads the number */
    d->m = d->m * 10 + (uint64_t)(c - '0');
    d->e -= after_point;
}

/* Clinger's fast path: at most 19 significant digits making an integer m
 * of at most 2^53 and a power of ten e within 22 of 0 give m * 10^e or
 * m / 10^-e, each an exact double's one correctly rounded operation: the
 * double strtod gives. 1 and the value in *out, or 0 (strtod then). */
static int exact_decimal(const decimal *d, int negative, double *out)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (d->significant > 19 || d->m > (uint64_t)1 << 53 || d->e < -22 || d->e > 22)
        return 0;
    const double v = d->e < 0 ? (double)d->m / pow10[-d->e] : (double)d->m * pow10[d->e];
    *out = negative ? -v : v;
    return 1;
}

/* A JSON number at p into v: its end, or NULL where jansson must read it
 * (no JSON number; an integer of more than 18 digits, which jansson may
 * refuse as too big; a real that overflows, which it refuses). One pass
 * checks the grammar and gathers the digits; reals the fast path cannot
 * take go through strtod, as jansson's do (the process keeps the C
 * locale). */
static const char *scan_number(const char *p, const char *end, nr_hf *v)
{
    const int negative = *p == '-';
    const char *q = p + negative, *digits = q;
    decimal d = {0};
    if (q >= end || !is_digit(*q))
        return NULL;
    if (*q == '0')
        q++;
    else
        for (; q < end && is_digit(*q); q++)
            take_digit(&d, *q, 0);
    const char *int_end = q;
    int real = 0;
    if (q < end && *q == '.') {
        real = 1;
        if (++q >= end || !is_digit(*q))
            return NULL;
        for (; q < end && is_digit(*q); q++)
            take_digit(&d, *q, 1);
    }
    if (q < end && (*q == 'e' || *q == 'E')) {
        real = 1;
        const int minus = ++q < end && *q == '-';
        if (q < end && (*q == '+' || *q == '-'))
            q++;
        if (q >= end || !is_digit(*q))
            return NULL;
        int x = 0;
        for (; q < end && is_digit(*q); q++)
            x = x > 1000 ? x : x * 10 + (*q - '0'); /* past 1000: far beyond the fast path's 22 */
        d.e += minus ? -x : x;
    }
    if (q >= end) /* the object's '}' must follow */
        return NULL;
    if (!real) {
        if (int_end - digits > 18)
            return NULL;
        *v = (nr_hf){.kind = NR_HF_INT, .i = negative ? -(int64_t)d.m : (int64_t)d.m};
        return q;
    }
    double r;
    if (!exact_decimal(&d, negative, &r)) {
        char *stop;
        r = strtod(p, &stop);
        if (stop != q || isinf(r))
            return NULL;
    }
    *v = (nr_hf){.kind = NR_HF_REAL, .d = r};
    return q;
}

/* true, false or null at p. */
static const char *scan_literal(const char *p, const char *end, nr_hf *v)
{
    static const struct { const char *text; size_t len; nr_hf_kind kind; } lits[] = {
        {"true", 4, NR_HF_TRUE}, {"false", 5, NR_HF_FALSE}, {"null", 4, NR_HF_NULL}};
    for (size_t i = 0; i < sizeof lits / sizeof lits[0]; i++)
        if ((size_t)(end - p) >= lits[i].len && memcmp(p, lits[i].text, lits[i].len) == 0) {
            *v = (nr_hf){.kind = lits[i].kind};
            return p + lits[i].len;
        }
    return NULL;
}

/* The value at p into v (a string copied to *scratch, NUL-terminated):
 * its end, or NULL where jansson must read it (objects and arrays too). */
static const char *scan_value(const char *p, const char *end, char **scratch, nr_hf *v)
{
    if (*p == '"') {
        const char *q = plain_string_end(p, end);
        if (!q)
            return NULL;
        const size_t n = (size_t)(q - p - 1);
        memcpy(*scratch, p + 1, n);
        (*scratch)[n] = '\0';
        *v = (nr_hf){.kind = NR_HF_STRING, .s = *scratch};
        *scratch += n + 1;
        return q + 1;
    }
    if (*p == '-' || is_digit(*p))
        return scan_number(p, end, v);
    return scan_literal(p, end, v);
}

/* The members after the object's '{' at p, through its '}': 1, or 0. */
static int scan_members(const char *p, const char *end, char *scratch, nr_hook_fields *out)
{
    p = skip_space(p, end);
    if (p < end && *p == '}')
        return skip_space(p + 1, end) == end;
    for (;;) {
        if (p >= end || *p != '"')
            return 0;
        const char *key_end = plain_string_end(p, end);
        if (!key_end)
            return 0;
        const int key = key_of(p + 1, (size_t)(key_end - p - 1));
        p = skip_space(key_end + 1, end);
        if (p >= end || *p != ':')
            return 0;
        p = skip_space(p + 1, end);
        nr_hf v;
        if (p >= end || !(p = scan_value(p, end, &scratch, &v)))
            return 0;
        if (key >= 0) {
            if (out->f[key].kind != NR_HF_ABSENT) /* jansson keeps the last: let it */
                return 0;
            out->f[key] = v;
        }
        p = skip_space(p, end);
        if (p < end && *p == ',') {
            p = skip_space(p + 1, end);
            continue;
        }
        return p < end && *p == '}' && skip_space(p + 1, end) == end;
    }
}

int nr_hook_fields_scan(const char *line, size_t len, nr_hook_fields *out)
{
    if (len + 1 > out->scratch_cap) {
        char *s = realloc(out->scratch, len + 1);
        if (!s)
            return NR_E_NOMEM;
        out->scratch = s;
        out->scratch_cap = len + 1;
    }
    for (int k = 0; k < NR_HF_KEYS; k++)
        out->f[k] = (nr_hf){.kind = NR_HF_ABSENT};
    const char *end = line + len, *p = skip_space(line, end);
    if (p >= end || *p != '{')
        return 0;
    return scan_members(p + 1, end, out->scratch, out);
}

static nr_hf field_of_json(const json_t *v)
{
    switch (v ? json_typeof(v) : JSON_NULL) {
    case JSON_OBJECT: return (nr_hf){.kind = NR_HF_OBJECT, .json = v};
    case JSON_ARRAY: return (nr_hf){.kind = NR_HF_ARRAY, .json = v};
    case JSON_STRING: return (nr_hf){.kind = NR_HF_STRING, .s = json_string_value(v)};
    case JSON_INTEGER: return (nr_hf){.kind = NR_HF_INT, .i = (int64_t)json_integer_value(v)};
    case JSON_REAL: return (nr_hf){.kind = NR_HF_REAL, .d = json_real_value(v)};
    case JSON_TRUE: return (nr_hf){.kind = NR_HF_TRUE};
    case JSON_FALSE: return (nr_hf){.kind = NR_HF_FALSE};
    case JSON_NULL: break;
    }
    return (nr_hf){.kind = v ? NR_HF_NULL : NR_HF_ABSENT};
}

void nr_hook_fields_from_json(const void *o, nr_hook_fields *out)
{
    for (int k = 0; k < NR_HF_KEYS; k++)
        out->f[k] = field_of_json(json_object_get(o, keys[k].name));
}

void nr_hook_fields_free(nr_hook_fields *f)
{
    free(f->scratch);
    *f = (nr_hook_fields){0};
}
