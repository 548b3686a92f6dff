/* Fuzz target of the strace line lexer: splits the input into lines, parses
 * each (from an exact-size copy, so ASan sees any read past the line) and
 * runs every nr_sarg_* helper over every argument of the result. Every line
 * is also parsed by the frozen reference lexer (tests/ingest_line/
 * sline_reference.c): any difference in any field or helper answer aborts,
 * so the fast paths of ingest/strace_line.c are checked against it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strace_line.h"
#include "../ingest_line/sline_diff.h"

static void exercise_args(nr_span args)
{
    unsigned n = nr_sarg_count(args);
    for (unsigned i = 0; i <= n; i++) {
        nr_span arg = nr_sarg(args, i);
        int64_t v;
        nr_span annot;
        char buf[256];
        int truncated;
        int64_t v_at = 0;
        nr_span annot_at = {0};
        int rc = nr_sarg_fd(arg, &v, &annot);
        /* the one-pass form must agree with nr_sarg + nr_sarg_fd */
        if (nr_sarg_fd_at(args, i, &v_at, &annot_at) != rc ||
            (rc == 0 && (v_at != v || annot_at.n != annot.n || memcmp(annot_at.p, annot.p, annot.n) != 0)))
            abort();
        if (rc == 0 && annot.n) {
            long k = nr_sarg_unquote(annot, buf, sizeof buf, &truncated);
            if (k >= (long)sizeof buf)
                abort();
        }
        (void)nr_sarg_int(arg, &v);
        (void)nr_sarg_has_flag(arg, "O_CLOEXEC", 0x80000);
        (void)nr_sarg_has_flag(arg, "O_CREAT", 0x40);
        long k = nr_sarg_unquote(arg, buf, sizeof buf, &truncated);
        if (k >= (long)sizeof buf || (k >= 0 && buf[k] != '\0'))
            abort();
        (void)nr_sarg_unquote(arg, buf, 1, &truncated);
    }
}

static void parse_one(const uint8_t *p, size_t n)
{
    char *copy = malloc(n ? n : 1);
    if (!copy)
        return;
    if (n)
        memcpy(copy, p, n);
    if (sline_diff(copy, n, 8)) /* 8 suffixes: more makes the target too slow to fuzz */
        abort();
    nr_sline s;
    nr_sline_parse(copy, n, &s);
    if (s.kind > NR_SL_BAD || (s.kind == NR_SL_BAD) != (s.reason != NULL))
        abort();
    exercise_args(s.args);
    if (s.result_annot.n) {
        char buf[64];
        int truncated;
        (void)nr_sarg_unquote(s.result_annot, buf, sizeof buf, &truncated);
    }
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p = data, *end = data + size;
    while (p < end) {
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        const uint8_t *line_end = nl ? nl : end;
        parse_one(p, (size_t)(line_end - p));
        p = nl ? nl + 1 : end;
    }
    return 0;
}
