/* runset: inputs -> runs -> cached stores -> models. */
#include "runset.h"
#include "fit_cache.h"
#include "runset_internal.h"
#include "json_file.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nr_ingest.h"
#include "nr_outfile.h"
#include "nr_store.h"
#include "nr_store_merge.h"
#include "nr_strtab.h"
#include "nr_parallel.h"

#define STORE_MAGIC "\x89NIO\r\n\x1a\n"

double nr_runset_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *nr__rs_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", dir, (*dir && dir[strlen(dir) - 1] != '/') ? "/" : "", name);
    return p;
}

char *nr__rs_path_with(const char *path, const char *suffix)
{
    size_t n = strlen(path) + strlen(suffix) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s", path, suffix);
    return p;
}

/* The last path component of path without trailing slashes (new string). */
char *nr__rs_base_name(const char *path)
{
    size_t end = strlen(path);
    while (end > 1 && path[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && path[start - 1] != '/')
        start--;
    char *b = strndup(path + start, end - start);
    if (b && (strcmp(b, ".") == 0 || strcmp(b, "..") == 0 || !*b)) {
        /* "." names the current directory: use its real name (never the full path). */
        char *real = realpath(path, NULL);
        if (real) {
            free(b);
            b = nr__rs_base_name(real);
            free(real);
        }
    }
    return b;
}

/* The directory part of path ("." when none), new string. */
char *nr__rs_dir_name(const char *path)
{
    size_t end = strlen(path);
    while (end > 1 && path[end - 1] == '/')
        end--;
    while (end > 0 && path[end - 1] != '/')
        end--;
    while (end > 1 && path[end - 1] == '/')
        end--;
    return end == 0 ? strdup(".") : strndup(path, end);
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int is_store_file(const char *path)
{
    if (has_suffix(path, ".nio"))
        return 1;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char magic[8];
    int ok = fread(magic, 1, 8, f) == 8 && memcmp(magic, STORE_MAGIC, 8) == 0;
    fclose(f);
    return ok;
}

/* Natural order: run2 before run10 (strverscmp), so that a study's runs
 * read in the order they were numbered. */
static int cmp_str(const void *a, const void *b)
{
    return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted non-hidden entry names of dir (new array of new strings, natural
 * order). */
static int list_dir(const char *dir, char ***names, size_t *n, nr_error *err)
{
    *names = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return nr_error_errno(err, NR_E_IO, errno, "%s: cannot read the directory", dir);
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            char **p = realloc(*names, cap * sizeof *p);
            if (!p)
                break;
            *names = p;
        }
        (*names)[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (*n)
        qsort(*names, *n, sizeof **names, cmp_str);
    return 0;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* The run of rs that reads the file or folder of id, or NULL. */
static const nr_run *run_of_input(const nr_runset *rs, const struct stat *id)
{
    for (size_t i = 0; i < rs->n; i++)
        if (rs->runs[i].input_ino == (uint64_t)id->st_ino && rs->runs[i].input_dev == (uint64_t)id->st_dev)
            return &rs->runs[i];
    return NULL;
}

/* Adds the run of path, unless a run of rs reads it already: a run given
 * twice (`build T T/R`, ./T/R/, a link: the same device and inode) is read
 * once, with a line on stderr, before it takes a name. Until session 48
 * it was a run of its own, two ingests wrote one cached store at once, and
 * the report showed R and R-2, the same numbers twice. Returns 1 (added,
 * or read already) or a negative code. */
static int add_run(nr_runset *rs, const char *path, const char *source, int is_store, nr_error *err)
{
    struct stat id;
    const int known = stat(path, &id) == 0 && id.st_ino != 0;
    const nr_run *same = known ? run_of_input(rs, &id) : NULL;
    if (same) {
        fprintf(stderr, "niorep: %s is %s again; read once\n", path, same->input_path ? same->input_path : same->store_path);
        return 1;
    }
    nr_run *runs = realloc(rs->runs, (rs->n + 1) * sizeof *runs);
    if (!runs)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    rs->runs = runs;
    nr_run *r = &runs[rs->n];
    memset(r, 0, sizeof *r);
    char *base = nr__rs_base_name(path);
    if (base && is_store && has_suffix(base, ".nio"))
        base[strlen(base) - 4] = '\0';
    if (base && !is_store && known && S_ISREG(id.st_mode) && strncmp(base, "strace.log", 10) == 0) {
        /* a run folder's log given alone is named by its folder, as the
           folder is: until session 49 the run was "strace.log" (or
           "strace.log.zst") in the report */
        char *folder = nr__rs_dir_name(path);
        free(base);
        base = folder ? nr__rs_base_name(folder) : NULL;
        free(folder);
    }
    r->name = base;
    r->input_dev = known ? (uint64_t)id.st_dev : 0;
    r->input_ino = known ? (uint64_t)id.st_ino : 0;
    r->source = strdup(source);
    if (is_store)
        r->store_path = strdup(path);
    else
        r->input_path = strdup(path);
    rs->n++;
    if (!r->name || !r->source || (!r->store_path && !r->input_path))
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    /* Names label columns and anchors: keep them unique. */
    for (int k = 2;; k++) {
        int clash = 0;
        for (size_t i = 0; i + 1 < rs->n; i++)
            clash |= strcmp(rs->runs[i].name, r->name) == 0;
        if (!clash)
            break;
        size_t len = strlen(base) + 16;
        char *renamed = malloc(len);
        if (!renamed)
            return nr_error_set(err, NR_E_NOMEM, "out of memory");
        snprintf(renamed, len, "%s-%d", base, k);
        if (r->name != base)
            free(r->name);
        r->name = renamed;
    }
    if (r->name != base)
        free(base);
    return 1;
}

/* Whether a sub-folder of dir holds an strace log: dir is a traces folder
 * of its own (traces folders are read one level deep). */
static int holds_run_folder(const char *dir)
{
    char **names;
    size_t n;
    nr_error ignored;
    if (list_dir(dir, &names, &n, &ignored) < 0)
        return 0;
    int found = 0;
    for (size_t i = 0; !found && i < n; i++) {
        char *p = nr__rs_join(dir, names[i]);
        struct stat st;
        found = p && stat(p, &st) == 0 && S_ISDIR(st.st_mode) && nr_ingest_finds_log(p, &ignored) == 1;
        free(p);
    }
    free_names(names, n);
    return found;
}

/* Whether name is one that `figures` or `build --figures` writes: render's
 * formats (nr_render_format_ext) and figure_inputs.c's figures.json, named
 * here because runset is in niorep, which links no render code (summary
 * reads run sets too). */
static int is_figure_file(const char *name)
{
    return has_suffix(name, ".svg") || has_suffix(name, ".pdf") || has_suffix(name, ".png") ||
           strcmp(name, "figures.json") == 0;
}

/* Whether folder p holds nothing, or only files `figures --format
 * svg,pdf,png` writes; hidden files count (a hidden log); 0 as well when
 * it cannot be read (then it is listed, with what stderr said). */
static int holds_only_figures(const char *p)
{
    DIR *d = opendir(p);
    if (!d)
        return 0;
    int only = 1;
    for (struct dirent *e; only && (e = readdir(d)) != NULL;)
        only = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || is_figure_file(e->d_name);
    closedir(d);
    return only;
}

/* Keeps folder p, left out of the runs, and why (a message that names p
 * first: "p: why" or "p why"), for the report; 0 or NR_E_NOMEM. */
static int keep_left_out(nr_runset *rs, const char *p, const char *msg, nr_error *err)
{
    const size_t plen = strlen(p);
    if (strncmp(msg, p, plen) == 0)
        msg += plen;
    msg += strspn(msg, ": ");
    nr_left_out *grown = realloc(rs->left_out, (rs->nleft_out + 1) * sizeof *grown);
    if (!grown)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    rs->left_out = grown;
    nr_left_out *o = &rs->left_out[rs->nleft_out];
    o->path = strdup(p);
    o->why = strdup(msg);
    if (!o->path || !o->why) {
        free(o->path);
        free(o->why);
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    }
    rs->nleft_out++;
    return 0;
}

/* Adds subfolder p (entry name of a traces folder) as a run when it holds
 * an strace log (1); otherwise says on stderr that it was left out (a folder
 * of figures, say, that `build --figures` wrote there, or a traces folder
 * of its own), keeps it for the report unless it holds only figures, and
 * goes on (0). */
static int add_run_folder(nr_runset *rs, const char *p, const char *name, nr_error *err)
{
    nr_error why;
    nr_error_clear(&why);
    char **inputs, **not_read;
    size_t n, nnot;
    const int found = nr_ingest_input_files(p, 0, &inputs, &n, &not_read, &nnot, &why);
    if (found < 0 && found != NR_E_INPUT) {
        *err = why;
        return found;
    }
    if (found == 0) {
        const size_t before = rs->n;
        const int rc = add_run(rs, p, name, 0, err);
        if (rs->n > before) { /* the run's inputs, found here once */
            rs->runs[before].inputs = inputs;
            rs->runs[before].ninputs = n;
            rs->runs[before].not_read = not_read;
            rs->runs[before].nnot_read = nnot;
        } else {
            free_names(inputs, n);
            free_names(not_read, nnot);
        }
        return rc;
    }
    char nested[2 * 4096 + 160];
    const int holds_runs = holds_run_folder(p);
    if (holds_runs)
        snprintf(nested, sizeof nested, "%s holds run folders, not a log: a traces folder is read one level deep; "
                 "give %s as an input of its own", p, p);
    fprintf(stderr, "niorep: %s; left out of the runs\n", holds_runs ? nested : why.msg);
    return holds_only_figures(p) ? 0 : keep_left_out(rs, p, holds_runs ? nested : why.msg, err);
}

/* Whether one of names is an strace log by its name (strace.log*). */
static int has_log_by_name(char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(names[i], "strace.log", 10) == 0)
            return 1;
    return 0;
}

/* Says that folder dir, read as a traces folder, also holds logs of its own
 * (found by their content), which are left out. */
static void note_own_logs(const char *dir)
{
    char **paths;
    size_t n;
    nr_error ignored;
    if (nr_ingest_input_files(dir, 1, &paths, &n, NULL, NULL, &ignored) < 0)
        return;
    for (size_t i = 0; i < n; i++) {
        char *base = nr__rs_base_name(paths[i]);
        if (base)
            fprintf(stderr, "niorep: %s: %s reads as an strace log, but %s holds runs: read as a traces folder, "
                            "%s left out\n", dir, base, dir, base);
        free(base);
    }
    free_names(paths, n);
}

/* A directory is a run directory when it holds a log by name (strace.log*)
 * or holds no run (no sub-folder with a log, no store); else a traces
 * folder, whose own logs by content (an excerpt of a log kept beside the
 * runs) are left out with a line. Until session 48 any file named
 * manifest.json, hook.jsonl or trace.* made it a run directory: a traces
 * folder with its own trace.sh or a stray manifest.json beside the runs
 * was taken for one run without a log, and the build failed. */
static int expand_dir(nr_runset *rs, const char *dir, nr_error *err)
{
    char **names;
    size_t n;
    NR_TRY(list_dir(dir, &names, &n, err));
    const int by_name = has_log_by_name(names, n);
    size_t found = 0;
    int rc = 0;
    for (size_t i = 0; !by_name && rc >= 0 && i < n; i++) {
        char *p = nr__rs_join(dir, names[i]);
        struct stat st;
        if (!p) {
            rc = nr_error_set(err, NR_E_NOMEM, "out of memory");
        } else if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            rc = add_run_folder(rs, p, names[i], err);
        } else if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && has_suffix(names[i], ".nio")) {
            rc = add_run(rs, p, names[i], 1, err);
        }
        found += rc > 0;
        free(p);
    }
    if (rc >= 0 && found && !by_name)
        note_own_logs(dir);
    if (rc >= 0 && !found) { /* no run below it: a run directory, whose logs may have other names */
        char *base = nr__rs_base_name(dir);
        rc = base ? add_run(rs, dir, base, 0, err) : nr_error_set(err, NR_E_NOMEM, "out of memory");
        free(base);
    }
    free_names(names, n);
    return rc < 0 ? rc : 0;
}

int nr_runset_expand(nr_runset *rs, char *const *inputs, size_t n, nr_error *err)
{
    memset(rs, 0, sizeof *rs);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(inputs[i], &st) != 0)
            return nr_error_errno(err, NR_E_NOTFOUND, errno, "%s", inputs[i]);
        if (S_ISDIR(st.st_mode)) {
            NR_TRY(expand_dir(rs, inputs[i], err));
        } else {
            char *base = nr__rs_base_name(inputs[i]);
            int rc = base ? add_run(rs, inputs[i], base, is_store_file(inputs[i]), err)
                          : nr_error_set(err, NR_E_NOMEM, "out of memory");
            free(base);
            NR_TRY(rc);
        }
    }
    if (rs->n == 0)
        return nr_error_set(err, NR_E_INPUT, "no run found in the inputs");
    return 0;
}

/* Finds the files run r's ingest reads (r->inputs) unless found already:
 * once a run, for its fingerprint and the outputs' check. */
static int find_inputs(nr_run *r, nr_error *err)
{
    return r->inputs ? 0
                     : nr_ingest_input_files(r->input_path, 0, &r->inputs, &r->ninputs, &r->not_read, &r->nnot_read, err);
}

/* Whether path has a component named name ("a/.niorep/b", ".niorep/b"). */
static int has_component(const char *path, const char *name)
{
    const size_t n = strlen(name);
    for (const char *p = path; (p = strstr(p, name)) != NULL; p += n)
        if ((p == path || p[-1] == '/') && (p[n] == '/' || p[n] == '\0'))
            return 1;
    return 0;
}

/* NR_E_USAGE when output out is named as a store (.nio) or lies in a
 * cache folder (.niorep, by its path as given or its folder's real path):
 * until session 49 `compare A B -o A/.niorep/R.nio` replaced a cached
 * store with HTML and exited 0, and `-o T/x.nio` left a file that every
 * later build of T read as a store and failed on (review 49). */
static int check_not_store_like(const char *out, nr_error *err)
{
    char *base = nr__rs_base_name(out), *dir = nr__rs_dir_name(out);
    char *real = dir ? realpath(dir, NULL) : NULL;
    const int store_name = base && has_suffix(base, ".nio");
    const int in_cache = has_component(out, ".niorep") || (real && has_component(real, ".niorep"));
    free(base);
    free(dir);
    free(real);
    if (store_name)
        return nr_error_set(err, NR_E_USAGE, "%s: the output is named like a store (.nio), and a build reading "
                                             "its folder would take it for one; choose another name", out);
    if (in_cache)
        return nr_error_set(err, NR_E_USAGE, "%s: the output is in a cache folder of niorep (.niorep), whose "
                                             "files builds replace and remove; write it elsewhere", out);
    return 0;
}

int nr_runset_check_output(nr_runset *rs, const char *out, nr_error *err)
{
    int rc = check_not_store_like(out, err);
    for (size_t i = 0; rc == 0 && i < rs->n; i++) {
        nr_run *r = &rs->runs[i];
        nr_error ignored; /* a run without a log fails its ingest, with the message */
        if (!r->input_path)
            rc = nr_outfile_check_inputs(out, (const char *const *)&r->store_path, 1, err);
        else if (find_inputs(r, &ignored) == 0)
            rc = nr_outfile_check_inputs(out, (const char *const *)r->inputs, r->ninputs, err);
    }
    return rc;
}

int nr__rs_stat_line(char *out, size_t cap, const char *name, const struct stat *st)
{
    return snprintf(out, cap, "%s\t%lld\t%lld.%09ld\t%lld.%09ld\n", name, (long long)st->st_size,
                    (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec, (long long)st->st_ctim.tv_sec,
                    (long)st->st_ctim.tv_nsec);
}

/* Fingerprint of the inputs of a run: version, store format and ingest
 * revision (a cached store of an older one is ingested again), then name,
 * size, mtime and ctime of every file the ingest reads (its logs, hook and
 * manifest: nr_ingest_input_files), by name, then "not read\tNAME\tREASON"
 * for each other entry of the folder, which the store notes by name and
 * reason alone: their sizes and times leave the store as it is (until
 * session 48 they were in the fingerprint, and a report written into the
 * run's folder, `build T/R -o T/R/r.html`, had every later build ingest
 * the run again), a new or removed name ingests it once (since session
 * 50: a note added after the ingest was in no report). The ctime, which
 * no user call sets, catches an edit whose mtime was put back (touch -r:
 * until session 46 a stale store was trusted, review 46); a copied folder
 * is ingested again once. *bytes: the sizes of those files added up. */
static char *fingerprint(nr_run *r, uint64_t *bytes, nr_error *err)
{
    *bytes = 0;
    if (find_inputs(r, err) < 0)
        return NULL;
    char *const *paths = r->inputs;
    const size_t n = r->ninputs;
    struct stat st;
    const int is_dir = stat(r->input_path, &st) == 0 && S_ISDIR(st.st_mode);
    size_t cap = 128, len = 0;
    for (size_t i = 0; i < n; i++)
        cap += strlen(paths[i]) + 96;
    for (size_t i = 0; i < r->nnot_read; i++)
        cap += strlen(r->not_read[i]) + 16;
    char *fp = malloc(cap);
    if (fp)
        len = (size_t)snprintf(fp, cap, "niorep %s store %u ingest %u\n", NR_VERSION, NR_STORE_FORMAT_VERSION,
                               NR_INGEST_REVISION);
    for (size_t i = 0; fp && i < n; i++) {
        char *name = is_dir ? nr__rs_base_name(paths[i]) : strdup("-");
        if (!name) {
            free(fp);
            fp = NULL;
        } else if (stat(paths[i], &st) == 0) {
            *bytes += (uint64_t)st.st_size;
            len += (size_t)nr__rs_stat_line(fp + len, cap - len, name, &st);
        }
        free(name);
    }
    for (size_t i = 0; fp && i < r->nnot_read; i++)
        len += (size_t)snprintf(fp + len, cap - len, "not read\t%s\n", r->not_read[i]);
    if (!fp)
        nr_error_set(err, NR_E_NOMEM, "out of memory");
    return fp;
}

char *nr__rs_read_small_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (len + 1 < cap)
            break;
        cap *= 2;
        char *g = realloc(buf, cap);
        if (!g) {
            free(buf);
            buf = NULL;
        } else {
            buf = g;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

int nr__rs_write_text_file(const char *path, const char *text, nr_error *err)
{
    nr_outfile f = {.fd = -1};
    int rc = nr_outfile_open(&f, path, err);
    if (rc == 0)
        rc = nr_outfile_write(&f, text, strlen(text), err);
    if (rc == 0)
        return nr_outfile_commit(&f, err);
    nr_outfile_abort(&f);
    return rc;
}

int nr__rs_tmpdir(nr_runset *rs, nr_error *err)
{
    if (rs->tmpdir)
        return 0;
    const char *t = getenv("TMPDIR");
    char *tmpl = nr__rs_join(t && *t ? t : "/tmp", "niorep-XXXXXX");
    if (!tmpl || !mkdtemp(tmpl)) {
        free(tmpl);
        return nr_error_errno(err, NR_E_IO, errno, "cannot create a temporary directory");
    }
    rs->tmpdir = tmpl;
    return 0;
}

void nr__rs_cut_name(char *name, const char *key)
{
    if (strlen(name) > NR_CACHE_NAME_MAX)
        sprintf(name + NR_CACHE_NAME_MAX - 17, "-%016llx", (unsigned long long)nr_hash_bytes(key, strlen(key)));
}

int nr__rs_cache_dir_gone(const char *dir, int temporary)
{
    struct stat st;
    return !temporary && stat(dir, &st) != 0 && errno == ENOENT && mkdir(dir, 0777) == 0;
}

/* Whether dir is a folder niorep may keep its cache in (made when
 * missing: then *made, when made is not NULL, is set). */
static int usable_dir(const char *dir, int *made)
{
    const int new_dir = mkdir(dir, 0777) == 0;
    if (made)
        *made |= new_dir;
    return (new_dir || errno == EEXIST) && access(dir, W_OK | X_OK) == 0;
}

/* The user's cache folder for the inputs of folder near: a folder of its
 * own in $NIOREP_CACHE_DIR, else $XDG_CACHE_HOME/niorep, else
 * $HOME/.cache/niorep, named by near's real path (16 hex digits of its
 * hash, then its base name); made when missing. NULL when none can be. */
static char *user_cache_dir(const char *near)
{
    const char *env = getenv("NIOREP_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char *base = env && *env ? strdup(env) : xdg && *xdg ? nr__rs_join(xdg, "niorep")
               : home && *home ? nr__rs_join(home, ".cache/niorep") : NULL;
    char *real = realpath(near, NULL);
    char *leaf = real ? nr__rs_base_name(real) : NULL;
    char *dir = NULL;
    nr_error ignored;
    if (base && real && leaf && nr_make_dirs(base, &ignored) == 0) {
        const size_t n = strlen(leaf) + 24;
        char *name = malloc(n);
        if (name) {
            snprintf(name, n, "%016llx-%s", (unsigned long long)nr_hash_bytes(real, strlen(real)), leaf);
            nr__rs_cut_name(name, real);
            dir = nr__rs_join(base, name);
        }
        free(name);
    }
    if (dir && !usable_dir(dir, NULL)) {
        free(dir);
        dir = NULL;
    }
    if (dir) /* the folder names its traces folder, so that it can be pruned once that is gone */
        (void)nr__rs_note_traces_folder(dir, real);
    static int pruned; /* once a process, as `told` */
    if (dir && !pruned++)
        nr__rs_prune_user_cache(base);
    static int told; /* once a process: the calling thread's (choose_cache, merged_path) */
    if (!dir && env && *env && !told++)
        fprintf(stderr, "niorep: NIOREP_CACHE_DIR=%s: no cache folder can be made there (%s): the stores are "
                        "temporary, and the next build ingests them again\n", env, strerror(errno));
    free(base);
    free(real);
    free(leaf);
    return dir;
}

char *nr__rs_cache_dir(const char *near, int *made)
{
    if (made)
        *made = 0;
    if (!getenv("NIOREP_CACHE_DIR") || !*getenv("NIOREP_CACHE_DIR")) {
        char *dir = nr__rs_join(near, ".niorep");
        if (!dir || usable_dir(dir, made))
            return dir;
        free(dir);
    }
    return user_cache_dir(near);
}

/* Chooses the store path of run r: <name>.nio in the cache folder of its
 * traces folder (nr__rs_cache_dir), or in a private temporary directory
 * when there is none. */
static int choose_cache(nr_runset *rs, nr_run *r, nr_error *err)
{
    char *parent = nr__rs_dir_name(r->input_path);
    char *leaf = nr__rs_base_name(r->input_path);
    char *cache_dir = parent ? nr__rs_cache_dir(parent, &r->made_cache_dir) : NULL;
    if (leaf)
        nr__rs_cut_name(leaf, leaf); /* the hash of the whole name: read before the cut writes */
    char *file = leaf ? nr__rs_path_with(leaf, ".nio") : NULL;
    free(parent);
    free(leaf);
    int rc = file ? 0 : nr_error_set(err, NR_E_NOMEM, "out of memory");
    if (rc == 0 && cache_dir) {
        r->store_path = nr__rs_join(cache_dir, file);
    } else if (rc == 0 && (rc = nr__rs_tmpdir(rs, err)) == 0) {
        char numbered[64];
        snprintf(numbered, sizeof numbered, "%zu-", (size_t)(r - rs->runs));
        char *tmpfile = nr__rs_join(rs->tmpdir, numbered);
        r->store_path = tmpfile ? nr__rs_path_with(tmpfile, file) : NULL;
        free(tmpfile);
        r->temporary = 1;
    }
    free(file);
    free(cache_dir);
    if (rc == 0 && !r->store_path)
        rc = nr_error_set(err, NR_E_NOMEM, "out of memory");
    return rc;
}

void nr__rs_store_line(char *out, size_t cap, uint64_t dev, uint64_t ino)
{
    snprintf(out, cap, "store %llu %llu\n", (unsigned long long)dev, (unsigned long long)ino);
}

int nr__rs_fingerprint_fresh(const char *old, const char *fp, const char *store_path, uint64_t id[2])
{
    struct stat st;
    if (!old || stat(store_path, &st) != 0)
        return 0;
    char line[64];
    nr__rs_store_line(line, sizeof line, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
    const size_t n = strlen(fp);
    const int fresh = strncmp(old, fp, n) == 0 && strcmp(old + n, line) == 0;
    if (fresh && id) {
        id[0] = (uint64_t)st.st_dev;
        id[1] = (uint64_t)st.st_ino;
    }
    return fresh;
}

/* Whether run r's cached store is fresh: its .inputs holds the fingerprint
 * of its inputs now and names the store there (kept in r->fingerprint for
 * a stale one's ingest). */
static int plan_ingest(nr_run *r, nr_error *err)
{
    uint64_t bytes;
    r->fingerprint = fingerprint(r, &bytes, err);
    if (!r->fingerprint)
        return err->code ? err->code : NR_E_NOMEM;
    char *fp_path = nr__rs_path_with(r->store_path, ".inputs");
    if (!fp_path)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    char *old = r->temporary ? NULL : nr__rs_read_small_file(fp_path);
    r->cache_hit = nr__rs_fingerprint_fresh(old, r->fingerprint, r->store_path, NULL);
    r->input_bytes = r->cache_hit ? 0 : bytes;
    free(old);
    free(fp_path);
    if (r->cache_hit) {
        free(r->fingerprint);
        r->fingerprint = NULL;
    }
    return 0;
}

/* Ingests run r, whose cache plan_ingest found stale, with opts; then
 * writes its fingerprint, which names the store written. */
static int ingest_run(nr_run *r, const nr_ingest_opts *opts, nr_error *err)
{
    char *fp_path = nr__rs_path_with(r->store_path, ".inputs");
    char *dir = nr__rs_dir_name(r->store_path);
    if (!fp_path || !dir) {
        free(fp_path);
        free(dir);
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    }
    unlink(fp_path); /* a store without its fingerprint is never trusted */
    nr_ingest_stats st;
    int rc = nr_ingest_run(r->input_path, r->store_path, opts, &st, err);
    if (rc == NR_E_IO && nr__rs_cache_dir_gone(dir, r->temporary)) {
        nr_error_clear(err);
        rc = nr_ingest_run(r->input_path, r->store_path, opts, &st, err);
    }
    if (rc == 0 && !r->temporary) {
        char line[64];
        nr__rs_store_line(line, sizeof line, st.store_dev, st.store_ino);
        char *text = nr__rs_path_with(r->fingerprint, line);
        rc = text ? nr__rs_write_text_file(fp_path, text, err) : nr_error_set(err, NR_E_NOMEM, "out of memory");
        free(text);
    }
    free(fp_path);
    free(dir);
    free(r->fingerprint);
    r->fingerprint = NULL;
    return rc;
}

/* What a pass of nr_runset_load's threads does to each run. */
enum load_stage { LOAD_OPEN, LOAD_MODEL };

/* The shared state of nr_runset_load's threads. */
typedef struct load_pool {
    nr_runset *rs;
    enum load_stage stage;
    size_t first;            /* the runs [first, first + count): index k of the arrays below is run first + k */
    const nr_model_opts *opts;
    void (*progress)(const nr_run *run, const char *what);
    int ingest_jobs;         /* threads of each ingest */
    pthread_mutex_t mu;      /* guards the progress calls, the bytes below and rs's model counts */
    int *rc;                 /* per run */
    nr_error *errs;          /* per run */
    double *secs;            /* per run: time of the stage */
    uint64_t *bytes_done;    /* LOAD_OPEN, per run: of its input_bytes */
    uint64_t done, total;    /* LOAD_OPEN: of every run's input_bytes */
    struct run_ref *refs;    /* LOAD_OPEN, per run: the context of its ingest's progress */
} load_pool;

/* Run i of a load pool, for its ingest's progress callback. */
typedef struct run_ref {
    load_pool *lp;
    size_t i;
} run_ref;

/* Run i has ingested done bytes of its input_bytes (capped there: the
 * ingest counts the logs, not the other files of the run). */
static void ingest_done(load_pool *lp, size_t i, uint64_t done)
{
    const nr_runset *rs = lp->rs;
    if (!rs->ingest_progress)
        return;
    const uint64_t cap = rs->runs[i].input_bytes;
    pthread_mutex_lock(&lp->mu);
    if (done > cap)
        done = cap;
    uint64_t *mine = &lp->bytes_done[i - lp->first];
    if (done > *mine) {
        lp->done += done - *mine;
        *mine = done;
        rs->ingest_progress(rs->ingest_progress_ctx, lp->done, lp->total);
    }
    pthread_mutex_unlock(&lp->mu);
}

static void ingest_bytes(void *ctx, uint64_t done, uint64_t total)
{
    const run_ref *ref = ctx;
    (void)total;
    ingest_done(ref->lp, ref->i, done);
}

static void load_progress(load_pool *lp, const nr_run *r, const char *what)
{
    if (!lp->progress)
        return;
    pthread_mutex_lock(&lp->mu);
    lp->progress(r, what);
    pthread_mutex_unlock(&lp->mu);
}

/* The model of run r, with the power-law fits kept beside a cached store
 * when they were kept for these options (fit_cache.h), else fitted and
 * kept. A store outside the cache (temporary, or given as a store) keeps
 * none. */
int nr_runset_model(const nr_run *r, const nr_model_opts *opts, nr_model **out, char **model_key, nr_error *err)
{
    if (model_key)
        *model_key = NULL;
    nr_model_opts o = nr_model_resolve_opts(opts);
    nr_fit_cache_entry e;
    const int cached = !r->temporary && nr_fit_cache_entry_open(&e, r->store_path, &o);
    nr_powerlaw_fit known[NR_PL_COUNT];
    const int kept = cached && nr_fit_cache_load(&e, known);
    o.known_pl = kept ? known : NULL;
    int rc = nr_model_compute(r->store, &o, out, err);
    if (rc == 0 && cached && !kept)
        rc = nr_fit_cache_save(&e, *out, err);
    if (rc == 0 && cached && model_key) {
        *model_key = e.key; /* handed over: the close frees what is left */
        e.key = NULL;
    }
    if (cached)
        nr_fit_cache_entry_close(&e);
    return rc;
}

/* Ingests run i (its cache stale or damaged) with lp's threads and
 * progress. */
static int ingest_one(load_pool *lp, size_t i, nr_error *err)
{
    nr_run *r = &lp->rs->runs[i];
    nr_ingest_opts io = {.jobs = lp->ingest_jobs};
    if (lp->rs->ingest_progress) {
        io.progress = ingest_bytes;
        io.progress_ctx = &lp->refs[i - lp->first];
    }
    NR_TRY(ingest_run(r, &io, err));
    ingest_done(lp, i, r->input_bytes); /* the files the ingest does not count as read */
    return 0;
}

int nr__rs_meta_readable(const nr_store *s, nr_error *err)
{
    char *value = NULL;
    const int rc = nr_store_meta_value(s, "manifest.labels.run", &value, err);
    free(value);
    return rc;
}

/* After rc, the failure of a cached store of run i to open or model: a
 * damaged cache (NR_E_FORMAT: a checksum, a cut file) is ingested again
 * from the run (merged again from its node stores), once, with a line on
 * stderr, and 1 returned; the cache is niorep's own, and the run it stands
 * for is intact. Otherwise rc. */
static int retry_damaged_cache(load_pool *lp, size_t i, int rc, nr_error *err)
{
    nr_run *r = &lp->rs->runs[i];
    if (rc == NR_E_FORMAT && r->parts && r->cache_hit) {
        NR_TRY(nr__rs_merge_again(lp->rs, r, err));
        return 1;
    }
    if (rc != NR_E_FORMAT || !r->input_path || !r->cache_hit)
        return rc;
    fprintf(stderr, "niorep: %s; ingesting %s again\n", err->msg, r->input_path);
    r->cache_hit = 0;
    if (lp->stage == LOAD_MODEL) { /* counted as reused after LOAD_OPEN: the tally said so next to this line */
        pthread_mutex_lock(&lp->mu);
        lp->rs->reused--;
        lp->rs->ingested++;
        pthread_mutex_unlock(&lp->mu);
    }
    nr_store_close(r->store);
    r->store = NULL;
    nr_error_clear(err);
    uint64_t bytes;
    if (!(r->fingerprint = fingerprint(r, &bytes, err)))
        return err->code ? err->code : NR_E_NOMEM;
    NR_TRY(ingest_one(lp, i, err));
    NR_TRY(nr_store_open(r->store_path, &r->store, err));
    return 1;
}

/* LOAD_OPEN ingests (when needed) and opens run i, LOAD_MODEL models it;
 * touches run i only. */
static int load_one(load_pool *lp, size_t i, nr_error *err)
{
    nr_run *r = &lp->rs->runs[i];
    double t0 = nr_runset_now();
    if (lp->stage == LOAD_MODEL) {
        load_progress(lp, r, "model");
        int rc = nr_runset_model(r, lp->opts, &r->model, &r->model_key, err);
        if (rc < 0 && (rc = retry_damaged_cache(lp, i, rc, err)) == 1)
            rc = nr_runset_model(r, lp->opts, &r->model, &r->model_key, err);
        NR_TRY(rc);
        pthread_mutex_lock(&lp->mu);
        if (++lp->rs->models_held > lp->rs->models_peak)
            lp->rs->models_peak = lp->rs->models_held;
        pthread_mutex_unlock(&lp->mu);
    } else {
        if (r->input_path && !r->cache_hit)
            NR_TRY(ingest_one(lp, i, err));
        int rc = nr_store_open(r->store_path, &r->store, err);
        if (rc == 0 && r->cache_hit) /* a cache's meta, read next (labels), checked here */
            rc = nr__rs_meta_readable(r->store, err);
        if (rc < 0)
            rc = retry_damaged_cache(lp, i, rc, err);
        NR_TRY(rc);
    }
    lp->secs[i - lp->first] = nr_runset_now() - t0;
    return 0;
}

static void load_item(void *ctx, size_t k)
{
    load_pool *lp = ctx;
    nr_error_clear(&lp->errs[k]);
    lp->rc[k] = load_one(lp, lp->first + k, &lp->errs[k]);
}

/* Sets lp up for stage over the runs [first, first + count) on `threads`
 * threads out of jobs: the cores the runs leave go to each ingest and each
 * power-law bootstrap (model_opts, which lp points to, is the caller's). */
static int load_pool_init(load_pool *lp, nr_runset *rs, enum load_stage stage, size_t first, size_t count, int jobs,
                          int threads, nr_model_opts *model_opts, void (*progress)(const nr_run *run, const char *what),
                          nr_error *err)
{
    model_opts->threads = jobs / threads;
    *lp = (load_pool){.rs = rs, .stage = stage, .first = first, .opts = model_opts, .progress = progress,
                      .ingest_jobs = jobs / threads};
    pthread_mutex_init(&lp->mu, NULL);
    lp->rc = calloc(count, sizeof *lp->rc);
    lp->errs = calloc(count, sizeof *lp->errs);
    lp->secs = calloc(count, sizeof *lp->secs);
    lp->bytes_done = calloc(count, sizeof *lp->bytes_done);
    lp->refs = calloc(count, sizeof *lp->refs);
    if (!lp->rc || !lp->errs || !lp->secs || !lp->bytes_done || !lp->refs)
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    for (size_t k = 0; k < count; k++) {
        lp->refs[k] = (run_ref){lp, first + k};
        lp->total += stage == LOAD_OPEN ? rs->runs[first + k].input_bytes : 0;
    }
    return 0;
}

/* Adds the stage's times of the first `count` runs of lp to rs's. */
static void load_pool_add_times(const load_pool *lp, size_t count)
{
    for (size_t k = 0; k < count; k++)
        *(lp->stage == LOAD_MODEL ? &lp->rs->model_s : &lp->rs->ingest_s) += lp->secs[k];
}

static void load_pool_fini(load_pool *lp)
{
    pthread_mutex_destroy(&lp->mu);
    free(lp->rc);
    free(lp->errs);
    free(lp->secs);
    free(lp->bytes_done);
    free(lp->refs);
}

static int jobs_of(const nr_runset *rs) { return rs->jobs > 0 ? rs->jobs : nr_cores(); }

/* Runs one stage over the runs [first, first + count), rs->jobs runs at a time. */
static int run_stage(nr_runset *rs, enum load_stage stage, size_t first, size_t count, const nr_model_opts *opts,
                     void (*progress)(const nr_run *run, const char *what), nr_error *err)
{
    if (count == 0)
        return 0;
    const int jobs = jobs_of(rs);
    const int threads = (size_t)jobs < count ? jobs : (int)count;
    nr_model_opts model_opts = opts ? *opts : (nr_model_opts){.bootstraps = -1};
    load_pool lp;
    int rc = load_pool_init(&lp, rs, stage, first, count, jobs, threads, &model_opts, progress, err);
    if (rc == 0) {
        nr_parallel_for(count, threads, load_item, &lp, NULL);
        load_pool_add_times(&lp, count);
        for (size_t k = 0; k < count && rc == 0; k++)
            if (lp.rc[k] < 0) {
                rc = lp.rc[k];
                *err = lp.errs[k];
            }
    }
    load_pool_fini(&lp);
    return rc;
}

/* A temporary file of the cache older than this, and held by no process,
 * was left by a niorep that was killed (nr_outfile_sweep). */
#define ORPHAN_AGE_S 600

void nr__rs_sweep_dir(const char *dir)
{
    const size_t n = nr_outfile_sweep(dir, ORPHAN_AGE_S);
    if (n)
        fprintf(stderr, "niorep: %s: removed %zu temporary file%s that a niorep killed while writing left\n", dir, n,
                n == 1 ? "" : "s");
}

/* Sweeps the cache folder of run r's store and its merged/, and prunes
 * the stores of the run folders gone from r's folder, then the merged
 * stores whose node stores are all gone, once per folder (*swept: the
 * last one). */
static void sweep_cache_dir(const nr_run *r, char **swept)
{
    char *dir = nr__rs_dir_name(r->store_path);
    if (!dir || (*swept && strcmp(dir, *swept) == 0)) {
        free(dir);
        return;
    }
    free(*swept);
    *swept = dir;
    nr__rs_sweep_dir(dir);
    char *near = nr__rs_dir_name(r->input_path);
    if (near)
        nr__rs_prune_dir(dir, near);
    char *merged = nr__rs_join(dir, "merged");
    if (merged)
        nr__rs_sweep_dir(merged);
    free(merged);
    if (near) /* after the stores of the run folders gone: they may be its parts */
        nr__rs_prune_merged(dir, near);
    free(near);
}

int nr_runset_load(nr_runset *rs, const nr_model_opts *opts,
                   void (*progress)(const nr_run *run, const char *what), nr_error *err)
{
    /* store paths first, on this thread: the temporary directory is shared */
    char *swept = NULL;
    for (size_t i = 0; i < rs->n; i++) {
        nr_run *r = &rs->runs[i];
        if (!r->input_path)
            continue;
        int rc = choose_cache(rs, r, err);
        if (rc == 0 && !r->temporary)
            sweep_cache_dir(r, &swept);
        if (rc == 0)
            rc = plan_ingest(r, err);
        if (rc < 0) {
            free(swept);
            return rc;
        }
    }
    free(swept);
    NR_TRY(run_stage(rs, LOAD_OPEN, 0, rs->n, opts, progress, err));
    for (size_t i = 0; i < rs->n; i++)
        if (rs->runs[i].input_path)
            *(rs->runs[i].cache_hit ? &rs->reused : &rs->ingested) += 1;
    const double t0 = nr_runset_now();
    if (!rs->per_node)
        NR_TRY(nr__rs_join_nodes(rs, progress, err));
    rs->ingest_s += nr_runset_now() - t0;
    return rs->no_models ? 0 : run_stage(rs, LOAD_MODEL, 0, rs->n, opts, progress, err);
}

/* Runs modelled ahead of their use per job by nr_runset_model_each:
 * enough that a slow run does not leave a thread idle for long, few enough
 * that their models stay small next to the report. */
#define MODELS_PER_JOB 2

/* The runs of nr_runset_model_each as a stream: threads model them in run
 * order, at most `window` runs ahead of the caller, which uses each as soon
 * as it is made and models the next one itself while it waits. Until
 * session 52 the runs went by groups of window: every thread waited for
 * the group's slowest run, and for the caller's use of the group. */
typedef struct model_stream {
    load_pool *lp;          /* LOAD_MODEL over every run; its mu guards the fields below */
    size_t n, window;
    pthread_cond_t changed; /* a run made or used, or stop set */
    size_t next;            /* the next run to model */
    size_t used;            /* the runs before it are used and freed */
    unsigned char *made;    /* per run */
    int stop;               /* a run failed, or its use did: model no more */
} model_stream;

/* With lp->mu held: whether a thread may take the next run now. */
static int may_take(const model_stream *ms)
{
    return !ms->stop && ms->next < ms->n && ms->next < ms->used + ms->window;
}

/* Takes the next run and models it outside the lock; called and returns
 * with lp->mu held. */
static void model_next(model_stream *ms)
{
    const size_t i = ms->next++;
    pthread_mutex_unlock(&ms->lp->mu);
    load_item(ms->lp, i);
    pthread_mutex_lock(&ms->lp->mu);
    ms->made[i] = 1;
    pthread_cond_broadcast(&ms->changed);
}

static void *stream_worker(void *arg)
{
    model_stream *ms = arg;
    pthread_mutex_lock(&ms->lp->mu);
    while (!ms->stop && ms->next < ms->n) {
        if (may_take(ms))
            model_next(ms);
        else
            pthread_cond_wait(&ms->changed, &ms->lp->mu);
    }
    pthread_mutex_unlock(&ms->lp->mu);
    return NULL;
}

/* Returns once run i is modelled, having modelled runs meanwhile. */
static void wait_made(model_stream *ms, size_t i)
{
    pthread_mutex_lock(&ms->lp->mu);
    while (!ms->made[i]) {
        if (may_take(ms))
            model_next(ms);
        else
            pthread_cond_wait(&ms->changed, &ms->lp->mu);
    }
    pthread_mutex_unlock(&ms->lp->mu);
}

/* Frees run i's model (model_key stays); with stop, the stream ends. */
static void release(model_stream *ms, size_t i, int stop)
{
    nr_runset *rs = ms->lp->rs;
    pthread_mutex_lock(&ms->lp->mu);
    rs->models_held -= rs->runs[i].model != NULL;
    ms->used = i + 1;
    ms->stop |= stop;
    pthread_cond_broadcast(&ms->changed);
    pthread_mutex_unlock(&ms->lp->mu);
    nr_model_free(rs->runs[i].model);
    rs->runs[i].model = NULL;
}

/* The caller's side: each run's model in run order, to use, then freed. */
static int use_in_order(model_stream *ms, nr_runset_use_fn use, void *ctx, nr_error *err)
{
    nr_runset *rs = ms->lp->rs;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < ms->n; i++) {
        const double t0 = nr_runset_now();
        wait_made(ms, i);
        rs->model_wall_s += nr_runset_now() - t0;
        if ((rc = ms->lp->rc[i]) < 0)
            *err = ms->lp->errs[i];
        else
            rc = use(ctx, i, &rs->runs[i], err);
        release(ms, i, rc < 0);
    }
    return rc;
}

/* Starts up to `extra` threads of the stream; returns how many started
 * (none is no error: the caller models every run itself). */
static size_t start_workers(model_stream *ms, pthread_t *tid, size_t extra)
{
    size_t started = 0;
    while (started < extra && pthread_create(&tid[started], NULL, stream_worker, ms) == 0)
        started++;
    return started;
}

int nr_runset_model_each(nr_runset *rs, const nr_model_opts *opts,
                         void (*progress)(const nr_run *run, const char *what), nr_runset_use_fn use, void *ctx,
                         nr_error *err)
{
    if (rs->n == 0)
        return 0;
    const int jobs = jobs_of(rs);
    const int threads = (size_t)jobs < rs->n ? jobs : (int)rs->n;
    nr_model_opts model_opts = opts ? *opts : (nr_model_opts){.bootstraps = -1};
    load_pool lp;
    model_stream ms = {.lp = &lp, .n = rs->n, .window = (size_t)jobs * MODELS_PER_JOB};
    ms.made = calloc(rs->n, 1);
    pthread_t *tid = threads > 1 ? calloc((size_t)threads - 1, sizeof *tid) : NULL;
    int rc = load_pool_init(&lp, rs, LOAD_MODEL, 0, rs->n, jobs, threads, &model_opts, progress, err);
    if (rc == 0 && (!ms.made || (threads > 1 && !tid)))
        rc = nr_error_set(err, NR_E_NOMEM, "out of memory");
    if (rc == 0) {
        pthread_cond_init(&ms.changed, NULL);
        const size_t started = start_workers(&ms, tid, (size_t)threads - 1);
        rc = use_in_order(&ms, use, ctx, err);
        for (size_t t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
        pthread_cond_destroy(&ms.changed);
        for (size_t i = ms.used; i < rs->n; i++) /* made after a failure, not used */
            release(&ms, i, 1);
        load_pool_add_times(&lp, rs->n);
    }
    load_pool_fini(&lp);
    free(tid);
    free(ms.made);
    return rc;
}

void nr_runset_say_reuse(const nr_runset *rs, const char *group)
{
    if (rs->ingested + rs->reused)
        fprintf(stderr, "niorep: %sstores of run folders: %zu ingested, %zu reused (inputs unchanged)\n", group,
                rs->ingested, rs->reused);
    if (rs->merged + rs->merges_reused)
        fprintf(stderr, "niorep: %sstores merged from node stores: %zu merged, %zu reused (parts unchanged)\n", group,
                rs->merged, rs->merges_reused);
}

/* Removes the cache folder of store_path, which this build made, when it
 * is empty: a build that failed before its first store was written left
 * the folder beside the input (review 47). Only a folder of this build's
 * own, and never merged/ (which stays, empty, when a merge failed):
 * until session 48 a build removed every empty one at its end, and
 * another build about to write into it failed (review 48). */
static void drop_cache_dir_if_empty(const char *store_path)
{
    char *dir = nr__rs_dir_name(store_path);
    if (dir)
        rmdir(dir);
    free(dir);
}

void nr__rs_drop_run(nr_run *r)
{
    nr_model_free(r->model);
    nr_store_close(r->store);
    if (r->temporary && r->store_path)
        unlink(r->store_path);
    free(r->name);
    free(r->source);
    free(r->input_path);
    free(r->store_path);
    free(r->fingerprint);
    free_names(r->inputs, r->ninputs);
    free_names(r->not_read, r->nnot_read);
    free(r->model_key);
    for (size_t i = 0; i < r->nparts; i++)
        free(r->parts[i]);
    free(r->parts);
    memset(r, 0, sizeof *r);
}

json_t *nr_left_out_json(const nr_runset *rs)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < rs->nleft_out; i++) {
        json_t *o = json_object();
        const int bad = !o || json_object_set_new(o, "folder", nr_cli_json_text(rs->left_out[i].path)) < 0 ||
                        json_object_set_new(o, "why", nr_cli_json_text(rs->left_out[i].why)) < 0;
        if (bad)
            json_decref(o);
        if (bad || json_array_append_new(a, o) < 0) { /* _new takes o even when it fails */
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

void nr_runset_fini(nr_runset *rs)
{
    for (size_t i = 0; i < rs->n; i++) {
        /* at the end only: a run's folder is empty for a while between its
           mkdir and its store, when another run may be dropped */
        if (rs->runs[i].made_cache_dir && rs->runs[i].store_path)
            drop_cache_dir_if_empty(rs->runs[i].store_path);
        nr__rs_drop_run(&rs->runs[i]);
    }
    free(rs->runs);
    for (size_t i = 0; i < rs->nleft_out; i++) {
        free(rs->left_out[i].path);
        free(rs->left_out[i].why);
    }
    free(rs->left_out);
    if (rs->tmpdir)
        rmdir(rs->tmpdir);
    free(rs->tmpdir);
    memset(rs, 0, sizeof *rs);
}
