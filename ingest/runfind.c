/* runfind: lists a run directory (not recursively), classifies each regular
 * file by name, and sniffs the content of the others with the line lexer. */
#include "runfind.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "logsrc.h"
#include "nr_mem.h"
#include "nr_outfile.h"
#include "strace_line.h"

#define SNIFF_BYTES 8192
_Static_assert(SNIFF_BYTES >= NR_LOGSRC_LINE_END_WINDOW, "the sniff sees the bytes the line-end rule judges");
#define SNIFF_MAX_LINES 64

void nr_runfiles_init(nr_runfiles *r) { memset(r, 0, sizeof *r); }

void nr_runfiles_fini(nr_runfiles *r)
{
    for (size_t i = 0; i < r->nlogs; i++) {
        free(r->logs[i].path);
        free(r->logs[i].name);
    }
    free(r->logs);
    for (size_t i = 0; i < r->nskipped; i++)
        free(r->skipped[i].name);
    free(r->skipped);
    for (size_t i = 0; i < r->nbinary; i++)
        free(r->binary[i]);
    free(r->binary);
    free(r->dir);
    free(r->hook_path);
    free(r->manifest_path);
    memset(r, 0, sizeof *r);
}

/* Length of name without a trailing ".zst" or ".gz". */
static size_t stem_len(const char *name)
{
    size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, ".zst") == 0)
        return n - 4;
    if (n > 3 && strcmp(name + n - 3, ".gz") == 0)
        return n - 3;
    return n;
}

int64_t nr_runfind_pid_suffix(const char *name)
{
    size_t n = stem_len(name), digits = 0;
    while (digits < n && name[n - 1 - digits] >= '0' && name[n - 1 - digits] <= '9')
        digits++;
    if (digits == 0 || digits > 9 || digits == n || name[n - 1 - digits] != '.')
        return -1;
    int64_t pid = 0;
    for (size_t i = n - digits; i < n; i++)
        pid = pid * 10 + (name[i] - '0');
    return pid;
}

static int stem_is(const char *name, const char *stem)
{
    size_t n = stem_len(name);
    return n == strlen(stem) && strncmp(name, stem, n) == 0;
}

/* strace.log, strace.log.<pid> (each optionally .zst/.gz) */
static int is_log_by_name(const char *name)
{
    if (stem_is(name, "strace.log"))
        return 1;
    return strncmp(name, "strace.log.", 11) == 0 && nr_runfind_pid_suffix(name) >= 0;
}

const char *nr_runfind_role_by_name(const char *name)
{
    return is_log_by_name(name) ? "an strace log" : stem_is(name, "hook.jsonl") ? "the hook file"
           : strcmp(name, "manifest.json") == 0 ? "the manifest" : NULL;
}

static int is_event_line(nr_sline_kind k)
{
    return k == NR_SL_SYSCALL || k == NR_SL_UNFINISHED || k == NR_SL_RESUMED || k == NR_SL_SIGNAL ||
           k == NR_SL_EXITED || k == NR_SL_KILLED;
}

int nr_runfind_sniff_buf(const char *buf, size_t n, nr_sniff *out)
{
    memset(out, 0, sizeof *out);
    size_t nontext = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == 0)
            out->binary = 1;
        else if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
            nontext++;
    }
    if (out->binary || nontext * 10 > n)
        return out->binary = 1, 0;
    /* Lines that end in a CR alone (nr_line_ends_cr_only) are cut at the
       CR: such a log is taken, and refused when read with its own message,
       as one named like a log is; until session 55 it was one line here,
       "not an strace log". */
    nr_line_ends le = {0};
    nr_line_ends_feed(&le, buf, n);
    out->cr_only = nr_line_ends_cr_only(&le);
    const int eol = out->cr_only ? '\r' : '\n';
    const char *p = buf, *end = buf + n;
    while (p < end && out->lines < SNIFF_MAX_LINES) {
        const char *nl = memchr(p, eol, (size_t)(end - p));
        if (!nl && n >= SNIFF_BYTES && out->lines > 0)
            break; /* a line cut by the sniff window says nothing */
        const char *line_end = nl ? nl : end;
        nr_sline sl;
        nr_sline_parse(p, (size_t)(line_end - p), &sl);
        if (sl.kind != NR_SL_BLANK) {
            out->lines++;
            out->strace += is_event_line(sl.kind);
        }
        p = nl ? nl + 1 : end;
    }
    return out->lines > 0 && out->strace * 2 > out->lines;
}

static int sniff_file(const char *path, nr_error *err)
{
    char buf[SNIFF_BYTES]; /* on the stack: `niorep build` finds runs on several threads */
    nr_error ignored;
    long n = nr_logsrc_peek(path, buf, sizeof buf, &ignored);
    (void)err;
    if (n <= 0)
        return 0;
    nr_sniff s;
    return nr_runfind_sniff_buf(buf, (size_t)n, &s);
}

/* A NUL byte in the first 8 KiB (decompressed): a binary file, whatever
 * its name (review 49: a store written as strace.log.77 was read as a log
 * of 632 unknown lines and turned the run's phases off). Only NUL bytes:
 * control bytes can be a traced program's output in a real log. */
static int is_binary_file(const char *path)
{
    unsigned char buf[SNIFF_BYTES];
    const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    const ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf) : -1;
    if (fd >= 0)
        close(fd);
    /* A compressed log's raw bytes hold NULs: its text is not looked at
       here (its decompression fails clearly when it is no log). Raw bytes
       only: decompressing each head cost 17 us a file at ingest. */
    return n > 0 && nr_logsrc_sniff(buf, (size_t)n) == NR_LOG_PLAIN && memchr(buf, '\0', (size_t)n) != NULL;
}

static char *join_path(const char *dir, const char *name)
{
    size_t dn = strlen(dir), nn = strlen(name);
    char *p = malloc(dn + nn + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, dn);
    size_t at = dn;
    if (dn && dir[dn - 1] != '/')
        p[at++] = '/';
    memcpy(p + at, name, nn + 1);
    return p;
}

static int add_log(nr_runfiles *r, size_t *cap, const char *path, const char *name, int64_t pid)
{
    if (NR_GROW(r->logs, *cap, r->nlogs + 1) < 0)
        return NR_E_NOMEM;
    nr_runlog *l = &r->logs[r->nlogs];
    l->path = strdup(path);
    l->name = strdup(name);
    l->pid = pid;
    if (!l->path || !l->name) {
        free(l->path);
        free(l->name);
        return NR_E_NOMEM;
    }
    r->nlogs++;
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int compare_logs_by_pid(const void *a, const void *b)
{
    const nr_runlog *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int compare_logs_by_name(const void *a, const void *b)
{
    return strcmp(((const nr_runlog *)a)->name, ((const nr_runlog *)b)->name);
}

/* -ff logs (every one has a pid suffix) in pid order, so that parents come
 * first; anything else by name. A file's pid is only a default: a pid prefix
 * on a line wins. */
static void sort_logs(nr_runfiles *r)
{
    int all_pids = 1;
    for (size_t i = 0; i < r->nlogs; i++)
        all_pids &= r->logs[i].pid >= 0;
    if (r->nlogs)
        qsort(r->logs, r->nlogs, sizeof *r->logs, all_pids ? compare_logs_by_pid : compare_logs_by_name);
}

/* Whether hidden entry name (".strace.log.123", "..hook.jsonl") would be an
 * input by its name without its leading dots: noted, not read, nothing
 * opened. */
static int hidden_named_as_input(const char *name)
{
    while (*name == '.')
        name++;
    return *name && !nr_outfile_is_tmp_name(name) && nr_runfind_role_by_name(name) != NULL;
}

/* Whether hidden entry name of dir is a log by its first lines (".trace.1234"
 * of strace -ff -o .trace): a regular file, no temporary output, that the
 * sniff takes, as it would take the file unhidden. Every other hidden entry
 * (the cache folder .niorep, a temporary output, a dotfile) is passed over
 * without a word; until session 55 every one not named like an input was. */
static int hidden_log_by_content(const char *dir, const char *name, nr_error *err)
{
    if (nr_outfile_is_tmp_name(name))
        return 0;
    char *path = join_path(dir, name);
    if (!path)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", dir);
    struct stat st;
    const int log = stat(path, &st) == 0 && S_ISREG(st.st_mode) && sniff_file(path, err);
    free(path);
    return log;
}

/* Reads the names of dir into a sorted array (owned strings). */
static int list_dir(const char *dir, char ***names_out, size_t *count_out, nr_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return nr_error_errno(err, NR_E_IO, errno, "%s: cannot open directory", dir);
    char **names = NULL;
    size_t count = 0, cap = 0;
    int rc = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue; /* hidden entries are judged by classify_entry */
        char *copy = strdup(de->d_name);
        if (!copy || NR_GROW(names, cap, count + 1) < 0) {
            free(copy);
            rc = nr_error_set(err, NR_E_NOMEM, "%s: out of memory listing the directory", dir);
            break;
        }
        names[count++] = copy;
    }
    closedir(d);
    if (rc < 0) {
        for (size_t i = 0; i < count; i++)
            free(names[i]);
        free(names);
        return rc;
    }
    if (count)
        qsort(names, count, sizeof *names, compare_names);
    *names_out = names;
    *count_out = count;
    return 0;
}

const char *nr_runskip_message(nr_runskip_why why)
{
    switch (why) {
    case NR_RUNSKIP_STORE: return "a niorep store (*.nio): not read";
    case NR_RUNSKIP_HOOK_AGAIN: return "another hook file: a run has one, the first by name is read";
    case NR_RUNSKIP_FOLDER: return "a folder: a run folder's own files are read, not its sub-folders'";
    case NR_RUNSKIP_SPECIAL: return "not a regular file (a link to nothing, a pipe, a socket, a device): not read";
    case NR_RUNSKIP_HIDDEN: return "a hidden file (its name starts with '.'), named like an strace log, the hook "
                                   "file or the manifest after its dots: not read (rename it to read it)";
    case NR_RUNSKIP_HIDDEN_LOG: return "a hidden file (its name starts with '.'), an strace log by its first lines: "
                                       "not read (rename it to read it)";
    case NR_RUNSKIP_OTHER: break;
    }
    return "not an strace log (by its name or its first lines), nor hook.jsonl or manifest.json: not read";
}

/* Keeps entry name of the run dir as skipped, for why. */
static int add_skipped(nr_runfiles *r, const char *dir, const char *name, nr_runskip_why why, nr_error *err)
{
    char *copy = strdup(name);
    if (!copy || NR_GROW(r->skipped, r->skipped_cap, r->nskipped + 1) < 0) {
        free(copy);
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", dir);
    }
    r->skipped[r->nskipped++] = (nr_runskip){copy, why};
    return 0;
}

static int classify_entry(nr_runfiles *r, size_t *cap, const char *dir, const char *name, nr_error *err)
{
    if (name[0] == '.' && hidden_named_as_input(name))
        return add_skipped(r, dir, name, NR_RUNSKIP_HIDDEN, err);
    if (name[0] == '.') {
        const int log = hidden_log_by_content(dir, name, err);
        return log > 0 ? add_skipped(r, dir, name, NR_RUNSKIP_HIDDEN_LOG, err) : log;
    }
    char *path = join_path(dir, name);
    if (!path)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", dir);
    struct stat st;
    int rc = 0;
    const int found = stat(path, &st) == 0;
    if (!found || !S_ISREG(st.st_mode)) { /* until session 50 left out without a word */
        free(path);
        return add_skipped(r, dir, name, found && S_ISDIR(st.st_mode) ? NR_RUNSKIP_FOLDER : NR_RUNSKIP_SPECIAL, err);
    }
    size_t n = strlen(name);
    if (stem_is(name, "hook.jsonl")) {
        if (!r->hook_path)
            r->hook_path = path, path = NULL;
        else
            rc = add_skipped(r, dir, name, NR_RUNSKIP_HOOK_AGAIN, err);
    } else if (strcmp(name, "manifest.json") == 0) {
        r->manifest_path = path, path = NULL;
    } else if (n > 4 && strcmp(name + n - 4, ".nio") == 0) {
        rc = add_skipped(r, dir, name, NR_RUNSKIP_STORE, err);
    } else if (is_log_by_name(name) && !r->names_only && is_binary_file(path)) {
        char *copy = strdup(name);
        if (!copy || NR_GROW(r->binary, r->binary_cap, r->nbinary + 1) < 0) {
            free(copy);
            rc = nr_error_set(err, NR_E_NOMEM, "%s: out of memory", dir);
        } else {
            r->binary[r->nbinary++] = copy;
        }
    } else if (is_log_by_name(name) || sniff_file(path, err)) {
        rc = add_log(r, cap, path, name, nr_runfind_pid_suffix(name));
        if (rc < 0)
            rc = nr_error_set(err, rc, "%s: out of memory", dir);
    } else {
        rc = add_skipped(r, dir, name, NR_RUNSKIP_OTHER, err);
    }
    free(path);
    return rc;
}

/* The first hidden log of r's skipped entries, by its name or its lines, or NULL. */
static const char *hidden_log_name(const nr_runfiles *r)
{
    for (size_t i = 0; i < r->nskipped; i++) {
        const char *name = r->skipped[i].name, *bare = name + strspn(name, ".");
        const nr_runskip_why why = r->skipped[i].why;
        if (why == NR_RUNSKIP_HIDDEN_LOG || (why == NR_RUNSKIP_HIDDEN && is_log_by_name(bare)))
            return name;
    }
    return NULL;
}

int nr_runfind(const char *input, nr_runfiles *r, nr_error *err)
{
    struct stat st;
    if (stat(input, &st) != 0)
        return nr_error_errno(err, NR_E_IO, errno, "%s: cannot read", input);
    size_t cap = 0;
    if (!S_ISDIR(st.st_mode)) {
        /* the name goes into the store: the base name only, no machine path */
        const char *slash = strrchr(input, '/');
        const char *name = slash && slash[1] ? slash + 1 : input;
        if (add_log(r, &cap, input, name, nr_runfind_pid_suffix(name)) < 0)
            return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", input);
        return 0;
    }
    if (!(r->dir = strdup(input)))
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", input);
    char **names = NULL;
    size_t count = 0;
    NR_TRY(list_dir(input, &names, &count, err));
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++)
        rc = classify_entry(r, &cap, input, names[i], err);
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
    if (rc < 0)
        return rc;
    if (r->nlogs == 0 && r->nbinary > 0)
        return nr_error_set(err, NR_E_INPUT, "%s%s%s: not an strace log: binary (a NUL byte in its first %d bytes; "
                            "a niorep store?)", input, input[strlen(input) - 1] == '/' ? "" : "/", r->binary[0],
                            SNIFF_BYTES);
    const char *hidden = r->nlogs == 0 ? hidden_log_name(r) : NULL;
    if (hidden)
        return nr_error_set(err, NR_E_INPUT, "%s: no strace log found (expected strace.log or strace -ff files); "
                            "%s is one but hidden (its name starts with '.'): rename it to read it", input, hidden);
    if (r->nlogs == 0)
        return nr_error_set(err, NR_E_INPUT,
                            "%s: no strace log found (expected strace.log or strace -ff files)", input);
    sort_logs(r);
    return 0;
}
