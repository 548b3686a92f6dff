/* inputs: stores, run directories and traces folders as command inputs
 * (contract: inputs.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inputs.h"
#include "nr_ingest.h"
#include "nr_store.h"
#include "runfind.h"

void nr_input_group_init(nr_input_group *g, const char *arg)
{
    memset(g, 0, sizeof *g);
    g->arg = arg;
}

void nr_input_group_fini(nr_input_group *g)
{
    for (size_t i = 0; i < g->n; i++) {
        free(g->runs[i].name);
        free(g->runs[i].source);
        free(g->runs[i].store_path);
    }
    free(g->runs);
    g->runs = NULL;
    g->n = 0;
}

static int is_store(const char *path)
{
    nr_store *s = NULL;
    nr_error err;
    nr_error_clear(&err);
    const int ok = nr_store_open(path, &s, &err) == 0;
    nr_store_close(s);
    return ok;
}

static int is_run(const char *path)
{
    nr_runfiles r;
    nr_runfiles_init(&r);
    nr_error err;
    nr_error_clear(&err);
    const int ok = nr_runfind(path, &r, &err) == 0 && r.nlogs > 0;
    nr_runfiles_fini(&r);
    return ok;
}

/* The last path component without trailing slashes and without ".nio". */
static char *run_name(const char *path)
{
    size_t end = strlen(path);
    while (end > 1 && path[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && path[start - 1] != '/')
        start--;
    size_t len = end - start;
    if (len > 4 && memcmp(path + end - 4, ".nio", 4) == 0)
        len -= 4;
    return strndup(path + start, len);
}

static int add_run(nr_input_group *g, const char *source, int store, const char *work_dir,
                   const char *tag, nr_error *err)
{
    nr_input_run *runs = realloc(g->runs, (g->n + 1) * sizeof *runs);
    if (!runs)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", source);
    g->runs = runs;
    nr_input_run *r = &runs[g->n];
    memset(r, 0, sizeof *r);
    r->name = run_name(source);
    r->source = strdup(source);
    if (store) {
        r->store_path = strdup(source);
    } else {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s/%s-%zu.nio", work_dir, tag, g->n);
        r->store_path = strdup(buf);
        r->ingested = 1;
    }
    g->n++;
    if (!r->name || !r->source || !r->store_path)
        return nr_error_set(err, NR_E_NOMEM, "%s: out of memory", source);
    if (!store) {
        nr_ingest_opts opts = {0};
        NR_TRY(nr_ingest_run(source, r->store_path, &opts, NULL, err));
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The entries of dir (no dot files), sorted by name. */
static int list_dir(const char *dir, char ***out, size_t *n, nr_error *err)
{
    *out = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return nr_error_errno(err, NR_E_IO, errno, "%s: cannot list", dir);
    char **v = NULL;
    size_t k = 0;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char **nv = realloc(v, (k + 1) * sizeof *nv);
        if (!nv || !(nv[k] = strdup(e->d_name))) {
            v = nv ? nv : v;
            rc = nr_error_set(err, NR_E_NOMEM, "%s: out of memory", dir);
            break;
        }
        v = nv;
        k++;
    }
    closedir(d);
    if (rc < 0) {
        for (size_t i = 0; i < k; i++)
            free(v[i]);
        free(v);
        return rc;
    }
    qsort(v, k, sizeof *v, cmp_str);
    *out = v;
    *n = k;
    return 0;
}

static int resolve_folder(const char *arg, const char *work_dir, const char *tag, nr_input_group *g, nr_error *err)
{
    char **names;
    size_t n;
    NR_TRY(list_dir(arg, &names, &n, err));
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s%s%s", arg, arg[strlen(arg) - 1] == '/' ? "" : "/", names[i]);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISREG(st.st_mode) && is_store(path))
            rc = add_run(g, path, 1, work_dir, tag, err);
        else if (S_ISDIR(st.st_mode) && is_run(path))
            rc = add_run(g, path, 0, work_dir, tag, err);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (rc == 0 && g->n == 0)
        rc = nr_error_set(err, NR_E_INPUT, "%s: no store, run directory or strace log found", arg);
    return rc;
}

int nr_inputs_resolve(const char *arg, const char *work_dir, const char *tag, nr_input_group *g, nr_error *err)
{
    struct stat st;
    if (stat(arg, &st) != 0)
        return nr_error_errno(err, NR_E_IO, errno, "%s", arg);
    if (S_ISREG(st.st_mode) && is_store(arg))
        return add_run(g, arg, 1, work_dir, tag, err);
    if (is_run(arg))
        return add_run(g, arg, 0, work_dir, tag, err);
    if (S_ISDIR(st.st_mode))
        return resolve_folder(arg, work_dir, tag, g, err);
    return nr_error_set(err, NR_E_INPUT, "%s: neither a store, a run directory, a log nor a traces folder", arg);
}

int nr_inputs_make_work_dir(char **out, nr_error *err)
{
    const char *tmp = getenv("TMPDIR");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/niorep-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(buf))
        return nr_error_errno(err, NR_E_IO, errno, "%s: cannot create a temporary directory", buf);
    *out = strdup(buf);
    if (!*out) {
        rmdir(buf);
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    }
    return 0;
}

void nr_inputs_remove_work_dir(const char *dir)
{
    if (!dir)
        return;
    char **names;
    size_t n;
    nr_error err;
    nr_error_clear(&err);
    if (list_dir(dir, &names, &n, &err) == 0) {
        for (size_t i = 0; i < n; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            unlink(path);
            free(names[i]);
        }
        free(names);
    }
    rmdir(dir);
}
