/* sline_diff: compares ingest/strace_line.c with the frozen reference lexer
 * (sline_reference.c) on one line: the nr_sline of nr_sline_parse (with
 * its SSE2 and its AVX2 argument scan), then
 * every nr_sarg_* helper over every argument of the parsed args and over
 * every suffix of the line taken as an args span. Shared by the
 * differential unit test and the fuzz target; include once per program. */
#ifndef SLINE_DIFF_H
#define SLINE_DIFF_H

#include <stdio.h>
#include <string.h>

#include "sline_reference.c"
#include "syscalls.h"

static int span_eq(nr_span a, nr_span b) { return a.p == b.p && a.n == b.n; }

static int reason_eq(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* syscall_ref is not looked up, or is nr_syscall_lookup's answer for name
 * (the reference lexer does not look names up). */
static int syscall_ref_ok(const nr_sline *s)
{
    if (s->syscall_ref == NR_SLINE_SYSCALL_UNSET)
        return 1;
    const nr_syscall_info *e = nr_syscall_lookup(s->name.p, s->name.n);
    return e ? nr_syscall_of_ref(s->syscall_ref) == e : s->syscall_ref == NR_SLINE_SYSCALL_NONE;
}

/* Names the first field where the two parses differ, or NULL; syscall_ref
 * (only the lexer's) is checked against the syscall table. */
static const char *sline_field_diff(const nr_sline *a, const nr_sline *b)
{
    if (a->kind != b->kind)
        return "kind";
    if (a->pid != b->pid)
        return "pid";
    if (a->ts_form != b->ts_form || a->ts_ns != b->ts_ns)
        return "ts";
    if (a->ts2_form != b->ts2_form || a->ts2_ns != b->ts2_ns)
        return "ts2";
    if (a->dur_ns != b->dur_ns)
        return "dur_ns";
    if (!span_eq(a->name, b->name))
        return "name";
    if (!span_eq(a->args, b->args))
        return "args";
    if (a->has_result != b->has_result || a->result_unknown != b->result_unknown || a->result != b->result)
        return "result";
    if (a->result_tail_unread != b->result_tail_unread)
        return "result_tail_unread";
    if (!span_eq(a->result_annot, b->result_annot))
        return "result_annot";
    if (!span_eq(a->errno_name, b->errno_name))
        return "errno_name";
    if (!span_eq(a->errno_text, b->errno_text))
        return "errno_text";
    if (a->exit_code != b->exit_code || a->core_dumped != b->core_dumped)
        return "exit";
    if (!reason_eq(a->reason, b->reason))
        return "reason";
    if (!syscall_ref_ok(a) || b->syscall_ref != NR_SLINE_SYSCALL_UNSET)
        return "syscall_ref";
    return NULL;
}

/* Whether nr_sarg_unquote agrees with the reference on text, into buffers
 * of a few sizes (the cut at the buffer's end included). */
static int unquote_eq(nr_span text)
{
    static const size_t caps[] = {256, 7, 1};
    for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
        char got[256], want[256];
        int cut = -1, rcut = -1;
        long n = nr_sarg_unquote(text, got, caps[k], &cut);
        long rn = ref_sarg_unquote(text, want, caps[k], &rcut);
        if (n != rn || cut != rcut || (n >= 0 && memcmp(got, want, (size_t)n + 1) != 0))
            return 0;
    }
    return 1;
}

/* Names the first nr_sarg_* helper that differs on argument i of args, or NULL. */
static const char *sarg_diff_at(nr_span args, unsigned i)
{
    nr_span a = nr_sarg(args, i), ra = ref_sarg(args, i);
    if (!span_eq(a, ra))
        return "nr_sarg";
    int64_t fd = 0, rfd = 0;
    nr_span annot = {0}, rannot = {0};
    int rc = nr_sarg_fd(a, &fd, &annot), rrc = ref_sarg_fd(a, &rfd, &rannot);
    if (rc != rrc || (rc == 0 && (fd != rfd || !span_eq(annot, rannot))))
        return "nr_sarg_fd";
    if (!unquote_eq(a) || (rc == 0 && !unquote_eq(annot)))
        return "nr_sarg_unquote";
    rc = nr_sarg_fd_at(args, i, &fd, &annot);
    rrc = ref_sarg_fd_at(args, i, &rfd, &rannot);
    if (rc != rrc || (rc == 0 && (fd != rfd || !span_eq(annot, rannot))))
        return "nr_sarg_fd_at";
    int64_t v = 0, rv = 0;
    rc = nr_sarg_int(a, &v);
    rrc = ref_sarg_int(a, &rv);
    if (rc != rrc || (rc == 0 && v != rv))
        return "nr_sarg_int";
    return NULL;
}

/* Names the first helper that differs over the arguments of args, or NULL. */
static const char *sargs_diff(nr_span args)
{
    unsigned n = nr_sarg_count(args);
    if (n != ref_sarg_count(args))
        return "nr_sarg_count";
    for (unsigned i = 0; i <= n + 1; i++) {
        const char *d = sarg_diff_at(args, i);
        if (d)
            return d;
    }
    return NULL;
}

/* Compares everything on line[0..len); returns NULL when all agree, else
 * what differs. Also the helpers over the line's first `tails` suffixes as
 * args spans (text the parse would never hand them). */
static const char *sline_diff(const char *line, size_t len, size_t tails)
{
    nr_sline got, want;
    ref_sline_parse(line, len, &want);
    memset(&got, 0xA5, sizeof got); /* a field the parse leaves unset differs */
    nr__sline_no_avx2(1); /* the SSE2 scan, then the AVX2 one where the CPU has it */
    nr_sline_parse(line, len, &got);
    nr__sline_no_avx2(0);
    const char *d = sline_field_diff(&got, &want);
    if (d)
        return d;
    memset(&got, 0xA5, sizeof got);
    nr_sline_parse(line, len, &got);
    d = sline_field_diff(&got, &want);
    if (d)
        return d;
    if (!unquote_eq(got.result_annot))
        return "nr_sarg_unquote";
    d = sargs_diff(got.args);
    if (d)
        return d;
    for (size_t k = 0; k < len && k < tails; k++) { /* any text as an args span */
        nr_span tail = {line + k, len - k};
        d = sargs_diff(tail);
        if (d)
            return d;
    }
    return NULL;
}

#endif
