/* hook: the semantic layer reader (docs/hook-format.md).
 *
 * Method: lines are read one by one; per (pid, tid) a stack of open
 * phases matches phase_end to phase_begin (innermost first), and a phase
 * that ends goes to a sorter (ext_sort.h: in memory a chunk at a time).
 * At finish the sorter gives the phases in id order, (begin, pid, tid):
 * each takes its id and its parent's, and steps its thread's sweep, which
 * flattens the thread's nested phases into runs of the innermost one
 * (run_pages.h: on disk past a page), so that a lookup is a cursor step
 * (nondecreasing times) or a binary search. The io, mark and wait records
 * go to record queues in the order read (rec_queue.h), and the phases to
 * one in id order: past a block they are on disk, not in memory. A
 * line's fields come from a fast scan of the hook's flat lines, or from
 * jansson for any other (hook_fields.h). */
#include "hook.h"

#include <ctype.h>
#include <limits.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ext_sort.h"
#include "hook_fields.h"
#include "logsrc.h"
#include "rec_queue.h"
#include "run_pages.h"
#include "nr_mem.h"
#include "nr_strtab.h"
#include "nr_utf8.h"

/* A phase as the hook keeps it, 48 bytes (nr_hook_phase, 72, is made on
 * demand): a phase a step is millions of them (docs/performance.md,
 * sessions 66 and 68). */
typedef struct hook_phase {
    int64_t begin_ns, end_ns;
    uint32_t thread;       /* index of threads */
    uint32_t name;         /* id in strings */
    uint32_t parent;       /* the enclosing phase's order (its id once numbered); NO_PHASE none */
    uint32_t order;        /* index in load order: the ties of the sort at finish */
    uint32_t depth;
    uint32_t children;     /* phases begun directly inside it */
    uint8_t never_ended, ended_by_error;
} hook_phase;
#define NO_PHASE UINT32_MAX

/* A record queue's block: past it, a queue's records go to disk, 18,724
 * io records of 56 bytes to a block. */
#define QUEUE_BLOCK_BYTES ((size_t)1 << 20)

typedef struct hook_thread {
    int64_t pid, tid;
    hook_phase *open;      /* the stack of open phases (load time) */
    size_t open_count, open_cap;
    /* While the phases are numbered: the stack of the flattening sweep,
       the phases that hold the time (flatten_phase) */
    struct sweep_level { int64_t end; uint32_t id; } *sweep;
    size_t sweep_depth, sweep_cap;
    int64_t sweep_at;      /* where the time not yet in runs starts */
    /* The thread's time in runs of one innermost phase, each from its
       begin to the next one's, NO_PHASE for none (a gap, and after the
       last phase's end); on disk past a page (run_pages.h): a phase a
       step in a train phase is two runs. */
    nr_run_pages runs;
    int64_t seg_end;       /* where the last run ends, while flattening */
    int64_t next_same_pid; /* index of the next thread of the same pid, -1 none (sorted by tid, main first) */
} hook_thread;

struct nr_hook {
    int surrogates;          /* the line being taken had its \udcXX escapes made \uf7XX */
    nr_strtab strings;
    size_t phase_count;    /* phases begun */
    nr_ext_sort phase_sort; /* the phases as they end, to be numbered (hook_phase) */
    /* While the phases are numbered: order -> id of each phase with
       children still to come (open addressing; order NO_PHASE empty) */
    struct pending_parent { uint32_t order, id, children_left; } *pending;
    size_t pending_count, pending_slots;
    nr_rec_queue ios, marks, waits; /* nr_hook_io, nr_hook_mark, nr_hook_wait */
    nr_rec_queue phase_q;  /* the phases in id order once finished (hook_phase) */
    nr_spool run_spool;    /* the threads' runs past a page */
    nr_error lookup_err;   /* why the last lookup failed (NR_HOOK_LOOKUP_FAILED) */
    uint32_t phase_read;   /* the id of the next phase read from phase_q */
    nr_error queue_err;    /* why a queue refused a record while loading */
    nr_hook_fields fields; /* the line being taken */
    hook_thread *threads;
    size_t thread_count, thread_cap;
    uint32_t *slots;       /* open addressing on (pid, tid): thread index + 1 */
    size_t nslots;
    int64_t first_ns, last_ns;
    const char *output_path; /* from the header line; interned in strings */
    int have_ts;
    int finished;
    /* per pid: index of its first thread (main first); built at finish */
    struct hook_pid { int64_t pid; int64_t first_thread; } *pids;
    size_t pid_count;
    nr_hook_diag_fn diag;
    void *diag_ctx;
    /* the line being read, every report's example: by its length, for a
       NUL inside it (bad JSON) cut the example there when it was a string */
    const char *line;
    size_t line_len;
};

static int cmp_phase(const void *a, const void *b, const void *ctx);

static uint64_t mix(int64_t a, int64_t b)
{
    uint64_t x = (uint64_t)a * 0x9E3779B97F4A7C15ull ^ ((uint64_t)b + 0x632BE59BD9B4E019ull);
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    return x ^ (x >> 29);
}

static int rehash(nr_hook *h, size_t nslots)
{
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return NR_E_NOMEM;
    for (size_t i = 0; i < h->thread_count; i++) {
        size_t s = mix(h->threads[i].pid, h->threads[i].tid) & (nslots - 1);
        while (slots[s])
            s = (s + 1) & (nslots - 1);
        slots[s] = (uint32_t)(i + 1);
    }
    free(h->slots);
    h->slots = slots;
    h->nslots = nslots;
    return 0;
}

/* The thread record of (pid, tid); created when create is set. NULL when absent (or out of memory). */
static hook_thread *thread_of(nr_hook *h, int64_t pid, int64_t tid, int create)
{
    if (h->nslots) {
        size_t s = mix(pid, tid) & (h->nslots - 1);
        for (; h->slots[s]; s = (s + 1) & (h->nslots - 1)) {
            hook_thread *t = &h->threads[h->slots[s] - 1];
            if (t->pid == pid && t->tid == tid)
                return t;
        }
    }
    if (!create || h->thread_count >= UINT32_MAX - 1)
        return NULL;
    if ((h->thread_count + 1) * 2 > h->nslots && rehash(h, h->nslots ? h->nslots * 2 : 64) < 0)
        return NULL;
    if (NR_GROW(h->threads, h->thread_cap, h->thread_count + 1) < 0)
        return NULL;
    hook_thread *t = &h->threads[h->thread_count];
    memset(t, 0, sizeof *t);
    t->pid = pid;
    t->tid = tid;
    t->next_same_pid = -1;
    nr_run_pages_init(&t->runs, NR_RUN_PAGE);
    size_t s = mix(pid, tid) & (h->nslots - 1);
    while (h->slots[s])
        s = (s + 1) & (h->nslots - 1);
    h->slots[s] = (uint32_t)(++h->thread_count);
    return t;
}

static void report(nr_hook *h, const char *reason, uint64_t line_no)
{
    if (h->diag)
        h->diag(h->diag_ctx, reason, line_no, h->line, h->line_len);
}

static const char *intern(nr_hook *h, const char *s)
{
    int64_t id = nr_strtab_intern(&h->strings, s, strlen(s));
    return id < 0 ? NULL : nr_strtab_str(&h->strings, (size_t)id);
}

static void note_ts(nr_hook *h, int64_t ts)
{
    if (!h->have_ts || ts < h->first_ns)
        h->first_ns = ts;
    if (!h->have_ts || ts > h->last_ns)
        h->last_ns = ts;
    h->have_ts = 1;
}

/* Unix seconds from 1970 to about 2096: the range that converts to int64
 * nanoseconds with room for differences. */
static int plausible_seconds(double s)
{
    return s >= 0.0 && s <= 4.0e9;
}

/* Callers check plausible_seconds first. */
static int64_t seconds_to_ns(double s)
{
    return (int64_t)llround(s * 1e9);
}

/* A phase cannot begin before the phase that encloses it: a begin the
 * thread's clock put earlier is moved to its parent's (as an end before
 * its begin is moved to the begin), so that a parent's id comes before
 * its children's (docs/hook-format.md, "Phases"). */
static int begin_phase(nr_hook *h, hook_thread *t, const char *name, int64_t ts)
{
    const int64_t n = nr_strtab_intern(&h->strings, name, strlen(name));
    if (n < 0 || h->phase_count >= NO_PHASE || t->open_count >= UINT32_MAX ||
        NR_GROW(t->open, t->open_cap, t->open_count + 1) < 0)
        return NR_E_NOMEM;
    hook_phase *parent = t->open_count ? &t->open[t->open_count - 1] : NULL;
    if (parent) {
        parent->children++;
        ts = ts < parent->begin_ns ? parent->begin_ns : ts;
    }
    t->open[t->open_count++] = (hook_phase){
        .begin_ns = ts,
        .end_ns = -1,
        .thread = (uint32_t)(t - h->threads),
        .name = (uint32_t)n,
        .parent = parent ? parent->order : NO_PHASE,
        .order = (uint32_t)h->phase_count++,
        .depth = (uint32_t)(t->open_count - 1),
    };
    return 0;
}

static const char *phase_name(const nr_hook *h, const hook_phase *p)
{
    return nr_strtab_str(&h->strings, p->name);
}

/* The innermost open phase of t ends at ts (no earlier than it began)
 * and goes to be numbered. */
static int close_innermost(nr_hook *h, hook_thread *t, int64_t ts, int never_ended)
{
    hook_phase *p = &t->open[--t->open_count];
    p->end_ns = ts < p->begin_ns ? p->begin_ns : ts;
    p->never_ended = (uint8_t)never_ended;
    return nr_ext_sort_push(&h->phase_sort, p, &h->queue_err);
}

/* Ends the innermost open phase of t named name (the innermost of all
 * without a name) and the phases opened inside it; error: the record
 * named an exception, which ended the named phase. */
static int end_phase(nr_hook *h, hook_thread *t, const char *name, int error, int64_t ts, uint64_t line_no)
{
    size_t k = t->open_count;
    while (k > 0 && name && strcmp(phase_name(h, &t->open[k - 1]), name) != 0)
        k--;
    if (k == 0) {
        report(h, "unmatched_phase_end", line_no);
        return 0;
    }
    t->open[k - 1].ended_by_error |= (uint8_t)(error != 0);
    if (k != t->open_count)
        report(h, "phase_end_out_of_order", line_no);
    while (t->open_count >= k)
        NR_TRY(close_innermost(h, t, ts, 0));
    return 0;
}

/* Whether a phase_end's "error" names an exception: given, not null, not false. */
static int names_an_error(const nr_hf *v)
{
    return v->kind != NR_HF_ABSENT && v->kind != NR_HF_NULL && v->kind != NR_HF_FALSE;
}

/* Whether a field is given (not absent, not null) but holds no valid value. */
static int given_but_bad(const nr_hf *v, int valid)
{
    return v->kind != NR_HF_ABSENT && v->kind != NR_HF_NULL && !valid;
}

static int is_number(const nr_hf *v) { return v->kind == NR_HF_INT || v->kind == NR_HF_REAL; }

/* A number of plausible seconds (plausible_seconds). */
static int is_seconds(const nr_hf *v) { return is_number(v) && plausible_seconds(nr_hf_number(v)); }

/* The hook writes a path that is not UTF-8 as Python's surrogateescape
 * gives it: byte XX (0x80-0xFF) as the lone surrogate \udcXX, which JSON
 * allows and jansson refuses. The line again with each \udcXX as \uf7XX (a
 * private-use character) into buf (room for len + 1): 1, or 0 when it has
 * none or already holds a \uf7 escape (which would be taken for one).
 * The hook's lines are ASCII (its JSON escapes every other character), so
 * U+F780..U+F7FF come only from here. Until session 46 such a line was
 * hook_bad_json and its file's Python I/O lost (review 46). */
static int escape_surrogates(const char *line, size_t len, char *buf)
{
    int any = 0;
    for (size_t i = 0; i + 6 <= len; i++)
        if (line[i] == '\\' && line[i + 1] == 'u' && tolower((unsigned char)line[i + 2]) == 'f' &&
            line[i + 3] == '7')
            return 0;
    memcpy(buf, line, len);
    buf[len] = '\0';
    for (size_t i = 0; i + 6 <= len; i++) {
        if (buf[i] == '\\' && buf[i + 1] == '\\') {
            i++; /* an escaped backslash: what follows is text */
            continue;
        }
        if (buf[i] == '\\' && buf[i + 1] == 'u' && tolower((unsigned char)buf[i + 2]) == 'd' &&
            tolower((unsigned char)buf[i + 3]) == 'c' && strchr("89abcdefABCDEF", buf[i + 4])) {
            buf[i + 2] = 'f';
            buf[i + 3] = '7';
            any = 1;
        }
    }
    return any;
}

/* The inverse for a path: each U+F780..U+F7FF (UTF-8 EF 9E 80 .. EF 9F BF)
 * becomes its byte 0x80..0xFF, in place. */
static void unescape_surrogates(char *s)
{
    char *out = s;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        if (p[0] == 0xEF && (p[1] == 0x9E || p[1] == 0x9F) && p[2] >= 0x80 && p[2] <= 0xBF) {
            *out++ = (char)(((p[1] & 1) << 6 | (p[2] & 0x3F)) | 0x80);
            p += 3;
        } else {
            *out++ = (char)*p++;
        }
    }
    *out = '\0';
}

static int add_io(nr_hook *h, const nr_hook_fields *f, int64_t pid, int64_t tid, int64_t ts, uint64_t line_no)
{
    const nr_hf *op = &f->f[NR_HF_OP], *path = &f->f[NR_HF_PATH];
    const nr_hf *bytes = &f->f[NR_HF_BYTES], *dur = &f->f[NR_HF_DUR];
    /* the record is kept, with "" or -1 for such a field, and counted; -1
       is the format's own "unknown" (the hook writes it for an open) */
    const int op_ok = op->kind == NR_HF_STRING, path_ok = path->kind == NR_HF_STRING;
    const int bytes_ok = bytes->kind == NR_HF_INT && bytes->i >= -1, dur_ok = is_seconds(dur);
    if (given_but_bad(op, op_ok) || given_but_bad(path, path_ok) || given_but_bad(bytes, bytes_ok) ||
        given_but_bad(dur, dur_ok))
        report(h, "bad_io_field", line_no);
    const char *op_s = intern(h, op_ok ? op->s : "");
    char *raw = h->surrogates && path_ok ? strdup(path->s) : NULL;
    if (raw)
        unescape_surrogates(raw);
    const char *path_s = intern(h, raw ? raw : path_ok ? path->s : "");
    free(raw);
    if (!op_s || !path_s)
        return NR_E_NOMEM;
    const int64_t b = bytes_ok && bytes->i >= 0 ? bytes->i : -1;
    const int64_t d = dur_ok ? seconds_to_ns(nr_hf_number(dur)) : -1;
    const nr_hook_io io = {.ts_ns = ts, .pid = pid, .tid = tid, .op = op_s, .path = path_s, .bytes = b, .dur_ns = d};
    return nr_rec_queue_push(&h->ios, &io, &h->queue_err);
}

/* A phase's or mark's name as stored: a blank one (nr_utf8_blank: "", "  ",
 * controls) is counted (empty_name) and takes NR_UNNAMED, so that its
 * record keeps its time and pairs as the writer paired it, under a name
 * every output shows (docs/hook-format.md, "Names"). */
static const char *record_name(nr_hook *h, const char *name, uint64_t line_no)
{
    if (!nr_utf8_blank(name))
        return name;
    report(h, "empty_name", line_no);
    return NR_UNNAMED;
}

/* A mark without a name is a missing field; attrs that are given but no
 * object are counted (bad_mark_field) and the mark kept without them. */
static int add_mark(nr_hook *h, const nr_hook_fields *f, int64_t pid, int64_t tid, int64_t ts, uint64_t line_no)
{
    const nr_hf *name = &f->f[NR_HF_NAME], *attrs = &f->f[NR_HF_ATTRS];
    if (name->kind != NR_HF_STRING) {
        report(h, "missing_field", line_no);
        return 0;
    }
    if (given_but_bad(attrs, attrs->kind == NR_HF_OBJECT))
        report(h, "bad_mark_field", line_no);
    /* sorted keys: the same mark gives the same bytes in the store; an
       object comes from jansson only (the fast scan takes no nesting) */
    const json_t *attrs_json = attrs->kind == NR_HF_OBJECT ? attrs->json : NULL;
    char *text = attrs_json && json_object_size(attrs_json) ? json_dumps(attrs_json, JSON_COMPACT | JSON_SORT_KEYS)
                                                            : NULL;
    const char *name_s = intern(h, record_name(h, name->s, line_no));
    const char *attrs_s = intern(h, text ? text : "");
    free(text);
    if (!name_s || !attrs_s)
        return NR_E_NOMEM;
    const nr_hook_mark mark = {.ts_ns = ts, .pid = pid, .tid = tid, .name = name_s, .attrs = attrs_s};
    return nr_rec_queue_push(&h->marks, &mark, &h->queue_err);
}

/* A wait is its duration: without "what" it is a missing field, with a
 * "dur" missing or not a plausible number of seconds, or a "first" that is
 * not a boolean, a bad_wait_field; both skip the record. */
static int add_wait(nr_hook *h, const nr_hook_fields *f, int64_t pid, int64_t tid, int64_t ts, uint64_t line_no)
{
    const nr_hf *what = &f->f[NR_HF_WHAT], *dur = &f->f[NR_HF_DUR], *first = &f->f[NR_HF_FIRST];
    if (what->kind != NR_HF_STRING) {
        report(h, "missing_field", line_no);
        return 0;
    }
    if (!is_seconds(dur) || (first->kind != NR_HF_ABSENT && first->kind != NR_HF_TRUE && first->kind != NR_HF_FALSE)) {
        report(h, "bad_wait_field", line_no);
        return 0;
    }
    const char *what_s = intern(h, record_name(h, what->s, line_no));
    if (!what_s)
        return NR_E_NOMEM;
    const nr_hook_wait wait = {.ts_ns = ts, .pid = pid, .tid = tid, .what = what_s,
                               .dur_ns = seconds_to_ns(nr_hf_number(dur)), .first = first->kind == NR_HF_TRUE};
    return nr_rec_queue_push(&h->waits, &wait, &h->queue_err);
}

/* A header line: its version must be 1; its "out" names the hook's file. */
static int take_header(nr_hook *h, const nr_hook_fields *f, uint64_t line_no)
{
    const nr_hf *v = &f->f[NR_HF_VERSION], *out = &f->f[NR_HF_OUT];
    if (v->kind != NR_HF_INT || v->i != 1)
        report(h, "unsupported_version", line_no);
    else if (out->kind == NR_HF_STRING && !h->output_path && !(h->output_path = intern(h, out->s)))
        return NR_E_NOMEM;
    return 0;
}

/* A phase_begin or phase_end of thread (p, th) at t. */
static int take_phase(nr_hook *h, const nr_hook_fields *f, int64_t p, int64_t th, int64_t t, uint64_t line_no)
{
    const nr_hf *name = &f->f[NR_HF_PHASE];
    const int begin = f->f[NR_HF_EVENT].s[6] == 'b';
    hook_thread *thr = thread_of(h, p, th, 1);
    if (!thr)
        return NR_E_NOMEM;
    if (begin && name->kind != NR_HF_STRING)
        report(h, "missing_field", line_no);
    else if (begin)
        return begin_phase(h, thr, record_name(h, name->s, line_no), t);
    else
        return end_phase(h, thr, name->kind == NR_HF_STRING ? record_name(h, name->s, line_no) : NULL,
                         names_an_error(&f->f[NR_HF_ERROR]), t, line_no);
    return 0;
}

/* The record of a line that is a JSON object. */
static int take_fields(nr_hook *h, const nr_hook_fields *f, uint64_t line_no)
{
    const nr_hf *ev = &f->f[NR_HF_EVENT], *ts = &f->f[NR_HF_TS];
    const nr_hf *pid = &f->f[NR_HF_PID], *tid = &f->f[NR_HF_TID];
    if (ev->kind == NR_HF_ABSENT || ts->kind == NR_HF_ABSENT || pid->kind == NR_HF_ABSENT) {
        report(h, "missing_field", line_no);
        return 0;
    }
    if (ev->kind != NR_HF_STRING) {
        report(h, "unknown_event", line_no);
        return 0;
    }
    if (pid->kind != NR_HF_INT || pid->i <= 0 ||
        (tid->kind != NR_HF_ABSENT && tid->kind != NR_HF_NULL && (tid->kind != NR_HF_INT || tid->i <= 0))) {
        report(h, "bad_pid", line_no);
        return 0;
    }
    if (!is_seconds(ts)) {
        report(h, "bad_timestamp", line_no);
        return 0;
    }
    const char *event = ev->s;
    const int64_t t = seconds_to_ns(nr_hf_number(ts)), p = pid->i;
    const int64_t th = tid->kind == NR_HF_INT ? tid->i : p;
    note_ts(h, t);
    if (strcmp(event, "phase_begin") == 0 || strcmp(event, "phase_end") == 0)
        return take_phase(h, f, p, th, t, line_no);
    if (strcmp(event, "io") == 0)
        return add_io(h, f, p, th, t, line_no);
    if (strcmp(event, "header") == 0)
        return take_header(h, f, line_no);
    if (strcmp(event, "mark") == 0)
        return add_mark(h, f, p, th, t, line_no);
    if (strcmp(event, "wait") == 0)
        return add_wait(h, f, p, th, t, line_no);
    if (strcmp(event, "fork") != 0)
        report(h, "unknown_event", line_no);
    return 0;
}

/* jansson's value of the line, NULL when it is no JSON: a line whose
 * \udcXX escapes jansson refuses is read again with them made \uf7XX
 * (h->surrogates set: its path is unescaped; take_line clears it for
 * each line). */
static json_t *load_json(nr_hook *h, const char *line, size_t len)
{
    json_error_t jerr;
    json_t *o = json_loadb(line, len, JSON_DECODE_ANY, &jerr);
    char *escaped = NULL;
    if (!o && memmem(line, len, "\\u", 2) && (escaped = malloc(len + 1))) {
        if (escape_surrogates(line, len, escaped))
            o = json_loadb(escaped, len, JSON_DECODE_ANY, &jerr);
        h->surrogates = o != NULL;
    }
    free(escaped);
    return o;
}

/* Handles one line; bad lines go to diag. Returns 0, NR_E_NOMEM, or a
 * queue's error (in queue_err). The fast scan takes the hook's own flat
 * lines; jansson the rest (hook_fields.h). */
static int take_line(nr_hook *h, const char *line, size_t len, uint64_t line_no)
{
    if (len == 0 || strspn(line, " \t\r") == len)
        return 0;
    h->line = line;
    h->line_len = len;
    h->surrogates = 0;
    json_t *o = NULL;
    int rc = nr_hook_fields_scan(line, len, &h->fields);
    if (rc == 0) {
        if (!(o = load_json(h, line, len)))
            report(h, "bad_json", line_no);
        else if (!json_is_object(o))
            report(h, "not_object", line_no);
        else
            rc = 1, nr_hook_fields_from_json(o, &h->fields);
    }
    if (rc > 0)
        rc = take_fields(h, &h->fields, line_no);
    json_decref(o);
    h->line = NULL; /* the reader's buffer: a report after this line has no example */
    h->line_len = 0;
    return rc;
}

int nr_hook_load(const char *path, nr_hook_diag_fn diag, void *diag_ctx, nr_hook **out, nr_error *err)
{
    *out = NULL;
    nr_hook *h = calloc(1, sizeof *h);
    if (!h)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", path);
    nr_strtab_init(&h->strings);
    nr_rec_queue_init(&h->ios, sizeof(nr_hook_io), QUEUE_BLOCK_BYTES);
    nr_rec_queue_init(&h->marks, sizeof(nr_hook_mark), QUEUE_BLOCK_BYTES);
    nr_rec_queue_init(&h->waits, sizeof(nr_hook_wait), QUEUE_BLOCK_BYTES);
    nr_rec_queue_init(&h->phase_q, sizeof(hook_phase), QUEUE_BLOCK_BYTES);
    nr_ext_sort_init(&h->phase_sort, sizeof(hook_phase), NR_EXT_SORT_DEFAULT, cmp_phase, h);
    h->run_spool = (nr_spool)NR_SPOOL_INIT;
    h->diag = diag;
    h->diag_ctx = diag_ctx;
    nr_logsrc *src;
    int rc = nr_logsrc_open(path, &src, err);
    if (rc < 0) {
        nr_hook_free(h);
        return rc;
    }
    const char *line;
    size_t len;
    while ((rc = nr_logsrc_next(src, &line, &len, err)) > 0) {
        rc = take_line(h, line, len, nr_logsrc_line_no(src));
        if (rc < 0) {
            const unsigned long long at = (unsigned long long)nr_logsrc_line_no(src);
            if (h->queue_err.code != NR_OK)
                nr_error_set(err, rc, "%s: line %llu: %s", path, at, h->queue_err.msg);
            else
                nr_error_set(err, rc, "%s: out of memory at line %llu", path, at);
            break;
        }
    }
    nr_logsrc_close(src);
    if (rc < 0) {
        nr_hook_free(h);
        return rc;
    }
    *out = h;
    return 0;
}

const char *nr_hook_output_path(const nr_hook *h)
{
    return h->output_path;
}

void nr_hook_free(nr_hook *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->thread_count; i++) {
        free(h->threads[i].open);
        free(h->threads[i].sweep);
        nr_run_pages_free(&h->threads[i].runs);
    }
    nr_spool_close(&h->run_spool);
    free(h->threads);
    free(h->slots);
    nr_ext_sort_free(&h->phase_sort);
    free(h->pending);
    nr_hook_fields_free(&h->fields);
    nr_rec_queue_free(&h->ios);
    nr_rec_queue_free(&h->marks);
    nr_rec_queue_free(&h->waits);
    nr_rec_queue_free(&h->phase_q);
    free(h->pids);
    nr_strtab_fini(&h->strings);
    free(h);
}

/* The phases' id order: (begin, pid, tid), and at the same instant in a
 * thread, outer before inner (load order). */
static int cmp_phase(const void *a, const void *b, const void *ctx)
{
    const hook_phase *x = a, *y = b;
    if (x->begin_ns != y->begin_ns)
        return x->begin_ns < y->begin_ns ? -1 : 1;
    const hook_thread *threads = ((const nr_hook *)ctx)->threads;
    const hook_thread *tx = &threads[x->thread], *ty = &threads[y->thread];
    if (tx->pid != ty->pid)
        return tx->pid < ty->pid ? -1 : 1;
    if (tx->tid != ty->tid)
        return tx->tid < ty->tid ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Phase id owns [begin, end); segments come in time order, disjoint. */
static int push_segment(nr_hook *h, hook_thread *t, int64_t begin, int64_t end, uint32_t id, nr_error *err)
{
    if (end <= begin)
        return 0;
    if (t->runs.total && t->runs.last_phase == id && t->seg_end == begin) {
        t->seg_end = end;
        return 0;
    }
    if (t->runs.total && t->seg_end < begin)
        NR_TRY(nr_run_pages_push(&t->runs, &h->run_spool, t->seg_end, NO_PHASE, err));
    NR_TRY(nr_run_pages_push(&t->runs, &h->run_spool, begin, id, err));
    t->seg_end = end;
    return 0;
}

/* The phases that end at or before ts hand their time over to runs. */
static int sweep_to(nr_hook *h, hook_thread *t, int64_t ts, nr_error *err)
{
    while (t->sweep_depth && t->sweep[t->sweep_depth - 1].end <= ts) {
        const struct sweep_level top = t->sweep[--t->sweep_depth];
        NR_TRY(push_segment(h, t, t->sweep_at, top.end, top.id, err));
        t->sweep_at = top.end;
    }
    return 0;
}

/* One step of a sweep over the thread's phases in id order (by begin,
 * outer first) with a stack: between two boundaries the innermost open
 * phase owns the time. A child that outlives its parent is clipped to
 * the parent. */
static int flatten_phase(nr_hook *h, hook_thread *t, const hook_phase *p, uint32_t id, nr_error *err)
{
    enum { MAX_DEPTH = 256 };
    NR_TRY(sweep_to(h, t, p->begin_ns, err));
    const size_t depth = t->sweep_depth;
    if (depth)
        NR_TRY(push_segment(h, t, t->sweep_at, p->begin_ns, t->sweep[depth - 1].id, err));
    t->sweep_at = p->begin_ns;
    if (depth == MAX_DEPTH)
        return 0; /* deeper nesting than anyone writes: the outer phase keeps the time */
    if (NR_GROW(t->sweep, t->sweep_cap, depth + 1) < 0)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    const int64_t end = depth && p->end_ns > t->sweep[depth - 1].end ? t->sweep[depth - 1].end : p->end_ns;
    t->sweep[t->sweep_depth++] = (struct sweep_level){.end = end, .id = id};
    return 0;
}

/* The end of the thread's sweep: what is still open, then no phase. */
static int flatten_rest(nr_hook *h, hook_thread *t, nr_error *err)
{
    NR_TRY(sweep_to(h, t, INT64_MAX, err));
    free(t->sweep);
    t->sweep = NULL;
    t->sweep_cap = 0;
    if (t->runs.total)
        NR_TRY(nr_run_pages_push(&t->runs, &h->run_spool, t->seg_end, NO_PHASE, err));
    return nr_run_pages_seal(&t->runs, &h->run_spool, err);
}

static _Thread_local const nr_hook *sort_ctx; /* qsort has no context; runs are ingested in parallel */

/* Orders thread indices by (pid, main thread first, tid). */
static int cmp_thread_index(const void *a, const void *b)
{
    const hook_thread *x = &sort_ctx->threads[*(const size_t *)a], *y = &sort_ctx->threads[*(const size_t *)b];
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    int xm = x->tid == x->pid, ym = y->tid == y->pid;
    if (xm != ym)
        return xm ? -1 : 1;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Each pid's threads, main first, and the pid table. */
static int index_threads(nr_hook *h)
{
    size_t *order = malloc((h->thread_count ? h->thread_count : 1) * sizeof *order);
    h->pids = malloc((h->thread_count ? h->thread_count : 1) * sizeof *h->pids);
    if (!order || !h->pids) {
        free(order);
        return NR_E_NOMEM;
    }
    for (size_t i = 0; i < h->thread_count; i++)
        order[i] = i;
    sort_ctx = h;
    qsort(order, h->thread_count, sizeof *order, cmp_thread_index);
    h->pid_count = 0;
    for (size_t k = 0; k < h->thread_count; k++) {
        hook_thread *t = &h->threads[order[k]];
        if (k + 1 < h->thread_count && h->threads[order[k + 1]].pid == t->pid)
            t->next_same_pid = (int64_t)order[k + 1];
        if (k == 0 || h->threads[order[k - 1]].pid != t->pid)
            h->pids[h->pid_count++] = (struct hook_pid){t->pid, (int64_t)order[k]};
    }
    free(order);
    return 0;
}

/* Closes the phases still open at end_ns (never ended). */
static int close_open_phases(nr_hook *h, int64_t end_ns)
{
    for (size_t i = 0; i < h->thread_count; i++) {
        hook_thread *t = &h->threads[i];
        while (t->open_count)
            NR_TRY(close_innermost(h, t, end_ns, 1));
        free(t->open);
        t->open = NULL;
        t->open_cap = 0;
    }
    return 0;
}

static size_t pending_slot(const nr_hook *h, uint32_t order)
{
    size_t s = mix(order, 0) & (h->pending_slots - 1);
    while (h->pending[s].order != NO_PHASE && h->pending[s].order != order)
        s = (s + 1) & (h->pending_slots - 1);
    return s;
}

static int pending_grow(nr_hook *h)
{
    struct pending_parent *old = h->pending;
    const size_t old_slots = h->pending_slots, slots = old_slots ? old_slots * 2 : 64;
    if (!(h->pending = malloc(slots * sizeof *h->pending))) {
        h->pending = old;
        return NR_E_NOMEM;
    }
    h->pending_slots = slots;
    for (size_t i = 0; i < slots; i++)
        h->pending[i].order = NO_PHASE;
    for (size_t i = 0; i < old_slots; i++)
        if (old[i].order != NO_PHASE)
            h->pending[pending_slot(h, old[i].order)] = old[i];
    free(old);
    return 0;
}

/* Removes slot s, moving back the entries of its probe run after it. */
static void pending_remove(nr_hook *h, size_t s)
{
    const size_t mask = h->pending_slots - 1;
    for (size_t next = (s + 1) & mask; h->pending[next].order != NO_PHASE; next = (next + 1) & mask) {
        const size_t home = mix(h->pending[next].order, 0) & mask;
        if (((next - home) & mask) >= ((next - s) & mask)) {
            h->pending[s] = h->pending[next];
            s = next;
        }
    }
    h->pending[s].order = NO_PHASE;
    h->pending_count--;
}

/* p's parent's id in place of its order: a parent begins no later than
 * its children, so it was numbered before them (begin_phase) and waits
 * here, with how many of its children are still to come. Then p waits
 * for its own children. */
static int renumber_parent(nr_hook *h, hook_phase *p, uint32_t id)
{
    if (p->parent != NO_PHASE) {
        const size_t s = pending_slot(h, p->parent);
        if (h->pending[s].order == NO_PHASE)
            return NR_E_INPUT; /* begin_phase makes this impossible */
        p->parent = h->pending[s].id;
        if (--h->pending[s].children_left == 0)
            pending_remove(h, s);
    }
    if (p->children == 0)
        return 0;
    if ((h->pending_count + 1) * 2 > h->pending_slots)
        NR_TRY(pending_grow(h));
    h->pending[pending_slot(h, p->order)] = (struct pending_parent){p->order, id, p->children};
    h->pending_count++;
    return 0;
}

/* Dense ids in the sorter's order; each phase, its parent renumbered,
 * goes to phase_q and steps its thread's sweep. */
static int number_phases(nr_hook *h, nr_error *err)
{
    NR_TRY(nr_ext_sort_finish(&h->phase_sort, err));
    const void *rec;
    int rc;
    for (uint32_t id = 0; (rc = nr_ext_sort_next(&h->phase_sort, &rec, err)) > 0; id++) {
        hook_phase p = *(const hook_phase *)rec;
        const int renumbered = renumber_parent(h, &p, id);
        if (renumbered == NR_E_INPUT)
            return nr_error_set(err, NR_E_INPUT, "the hook's phase %u came before its parent (a bug)", (unsigned)id);
        if (renumbered < 0)
            return nr_error_set(err, NR_E_NOMEM, "out of memory numbering the hook's %zu phases", h->phase_count);
        NR_TRY(flatten_phase(h, &h->threads[p.thread], &p, id, err));
        p.order = id;
        NR_TRY(nr_rec_queue_push(&h->phase_q, &p, err));
    }
    if (rc < 0)
        return rc;
    for (size_t i = 0; i < h->thread_count; i++)
        NR_TRY(flatten_rest(h, &h->threads[i], err));
    nr_ext_sort_free(&h->phase_sort);
    free(h->pending);
    h->pending = NULL;
    h->pending_count = h->pending_slots = 0;
    return 0;
}

/* Closes phases still open, numbers them into phase_q and flattens each
 * thread's into runs: the phases are in memory a chunk at a time
 * (ext_sort.h), the runs are what lookups read. */
int nr_hook_finish(nr_hook *h, int64_t end_ns, nr_error *err)
{
    if (!h || h->finished)
        return 0;
    h->finished = 1;
    if (close_open_phases(h, end_ns) < 0)
        return nr_error_set(err, h->queue_err.code, "%s", h->queue_err.msg);
    if (index_threads(h) < 0)
        return nr_error_set(err, NR_E_NOMEM, "out of memory indexing the hook's %zu threads", h->thread_count);
    return number_phases(h, err);
}

size_t nr_hook_phase_count(const nr_hook *h) { return h ? h->phase_count : 0; }

int nr_hook_rewind_phases(nr_hook *h, nr_error *err)
{
    h->phase_read = 0;
    return nr_rec_queue_rewind(&h->phase_q, err);
}

int nr_hook_next_phase(nr_hook *h, nr_hook_phase *out, nr_error *err)
{
    const void *rec;
    const int rc = nr_rec_queue_next(&h->phase_q, &rec, err);
    if (rc <= 0)
        return rc;
    const hook_phase *p = rec;
    const hook_thread *t = &h->threads[p->thread];
    *out = (nr_hook_phase){
        .phase_id = (int64_t)h->phase_read++,
        .pid = t->pid,
        .tid = t->tid,
        .name = phase_name(h, p),
        .begin_ns = p->begin_ns,
        .end_ns = p->end_ns,
        .depth = p->depth > INT_MAX ? INT_MAX : (int)p->depth,
        .parent_id = p->parent == NO_PHASE ? -1 : (int64_t)p->parent,
        .never_ended = p->never_ended,
        .ended_by_error = p->ended_by_error,
    };
    return 1;
}
size_t nr_hook_io_count(const nr_hook *h) { return h ? (size_t)nr_rec_queue_count(&h->ios) : 0; }
size_t nr_hook_mark_count(const nr_hook *h) { return h ? (size_t)nr_rec_queue_count(&h->marks) : 0; }
size_t nr_hook_wait_count(const nr_hook *h) { return h ? (size_t)nr_rec_queue_count(&h->waits) : 0; }

int nr_hook_rewind_records(nr_hook *h, nr_error *err)
{
    NR_TRY(nr_rec_queue_rewind(&h->ios, err));
    NR_TRY(nr_rec_queue_rewind(&h->marks, err));
    return nr_rec_queue_rewind(&h->waits, err);
}

int nr_hook_next_io(nr_hook *h, const nr_hook_io **io, nr_error *err)
{
    return nr_rec_queue_next(&h->ios, (const void **)io, err);
}

int nr_hook_next_mark(nr_hook *h, const nr_hook_mark **mark, nr_error *err)
{
    return nr_rec_queue_next(&h->marks, (const void **)mark, err);
}

int nr_hook_next_wait(nr_hook *h, const nr_hook_wait **wait, nr_error *err)
{
    return nr_rec_queue_next(&h->waits, (const void **)wait, err);
}
int64_t nr_hook_first_ns(const nr_hook *h) { return h && h->have_ts ? h->first_ns : 0; }
int64_t nr_hook_last_ns(const nr_hook *h) { return h && h->have_ts ? h->last_ns : 0; }

/* The phase of thread t at ts, -1 none, or NR_HOOK_LOOKUP_FAILED (why in
 * lookup_err). */
static int64_t thread_phase_at(nr_hook *h, hook_thread *t, int64_t ts)
{
    uint32_t id;
    const int rc = nr_run_pages_at(&t->runs, &h->run_spool, ts, &id, &h->lookup_err);
    if (rc < 0)
        return NR_HOOK_LOOKUP_FAILED;
    return rc == 0 || id == NO_PHASE ? -1 : (int64_t)id;
}

static const struct hook_pid *pid_entry(const nr_hook *h, int64_t pid)
{
    size_t lo = 0, hi = h->pid_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (h->pids[mid].pid < pid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < h->pid_count && h->pids[lo].pid == pid ? &h->pids[lo] : NULL;
}

int nr_hook_pid_has_phases(const nr_hook *h, int64_t pid) { return h && pid_entry(h, pid) != NULL; }

int64_t nr_hook_phase_at(nr_hook *h, int64_t pid, int64_t tid, int64_t ts_ns)
{
    if (!h || !h->finished)
        return -1;
    if (tid >= 0) {
        hook_thread *t = thread_of(h, pid, tid, 0);
        int64_t id = t ? thread_phase_at(h, t, ts_ns) : -1;
        if (id != -1)
            return id;
    }
    /* No tid, or no phase open in that thread: the process's phase, main
     * thread first (helper threads run on behalf of their process). */
    const struct hook_pid *p = pid_entry(h, pid);
    for (int64_t k = p ? p->first_thread : -1; k >= 0; k = h->threads[k].next_same_pid) {
        int64_t id = thread_phase_at(h, &h->threads[k], ts_ns);
        if (id != -1)
            return id;
    }
    return -1;
}

int nr_hook_lookup_error(const nr_hook *h, nr_error *err)
{
    return nr_error_set(err, h->lookup_err.code, "%s", h->lookup_err.msg);
}
