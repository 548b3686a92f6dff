/* runset_prune: the cached stores of run folders that are gone. A cache
 * folder belongs to one folder of runs (near/.niorep, or near's own in the
 * user's cache); a store in it, "K.nio" with its companions ("K.nio.inputs",
 * "K.nio.fits-B-S", "K.nio.figN-B-S"), stands for the entry of near whose
 * cache name is K. Until session 49 the store of a run folder that was
 * removed or renamed stayed for good: a study's cache only grew.
 * docs/report.md, "Inputs and the cache". */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runset_internal.h"

/* A list of names, sorted for bsearch. */
typedef struct name_list {
    char **names;
    size_t n, cap;
} name_list;

static void free_list(name_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->names[i]);
    free(l->names);
}

static int push(name_list *l, char *name)
{
    if (!name)
        return -1;
    if (l->n == l->cap) {
        const size_t cap = l->cap ? l->cap * 2 : 32;
        char **grown = realloc(l->names, cap * sizeof *grown);
        if (!grown) {
            free(name);
            return -1;
        }
        l->names = grown;
        l->cap = cap;
    }
    l->names[l->n++] = name;
    return 0;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The cache names of every entry of folder near, hidden ones too (a run
 * folder given by its path may be one): -1 when near cannot be listed
 * whole, and then nothing may be pruned. */
static int cache_names_of(const char *near, name_list *keys)
{
    DIR *d = opendir(near);
    if (!d)
        return -1;
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *key = strdup(e->d_name);
        if (key)
            nr__rs_cut_name(key, e->d_name);
        rc = push(keys, key);
    }
    closedir(d);
    if (rc == 0 && keys->n)
        qsort(keys->names, keys->n, sizeof *keys->names, cmp_name);
    return rc;
}

/* Whether cache file name is a store or a store's companion ("K.nio",
 * "K.nio.<suffix>"); then *key_len is K's length when K is one of keys
 * (a store to keep), else 0. A name may hold ".nio" more than once (the
 * run folder "a.nio.b"): every place it could end K is tried. */
static int store_file_key(const char *name, const name_list *keys, size_t *key_len)
{
    int of_store = 0;
    *key_len = 0;
    for (const char *p = strstr(name, ".nio"); p; p = strstr(p + 1, ".nio")) {
        if (p[4] != '\0' && p[4] != '.')
            continue;
        of_store = 1;
        char *k = strndup(name, (size_t)(p - name));
        const int known = k && bsearch(&k, keys->names, keys->n, sizeof *keys->names, cmp_name) != NULL;
        free(k);
        if (known || !k) { /* out of memory: kept */
            *key_len = (size_t)(p - name);
            return 1;
        }
    }
    return of_store;
}

/* Says what nr__rs_prune_dir removed: the stores by their run folder's
 * name, a few of them. */
static void say_pruned(const char *dir, const char *near, const name_list *gone, size_t files)
{
    if (gone->n == 0) {
        fprintf(stderr, "niorep: %s: removed %zu file%s of the cache of run folders no longer in %s\n", dir, files,
                files == 1 ? "" : "s", near);
        return;
    }
    char names[256] = "";
    size_t shown = 0;
    for (; shown < gone->n && shown < 4; shown++) {
        const size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", shown ? ", " : "", gone->names[shown]);
    }
    fprintf(stderr, "niorep: %s: removed the cached store%s of %zu run folder%s no longer in %s (%s%s; %zu file%s)\n",
            dir, gone->n == 1 ? "" : "s", gone->n, gone->n == 1 ? "" : "s", near, names,
            shown < gone->n ? ", ..." : "", files, files == 1 ? "" : "s");
}

/* A cache file last written this long ago or less is kept though its run
 * folder is gone: another build may have listed the folder just after the
 * run came and written it since (as the temporary files' sweep waits). */
#define PRUNE_MIN_AGE_S 600

void nr__rs_prune_dir(const char *dir, const char *near)
{
    name_list keys = {0}, gone = {0};
    DIR *d = cache_names_of(near, &keys) == 0 ? opendir(dir) : NULL;
    size_t files = 0;
    const time_t now = time(NULL);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t key_len;
        if (strstr(e->d_name, ".tmp.") || !store_file_key(e->d_name, &keys, &key_len) || key_len)
            continue; /* a temporary file (the sweep's), no store's, or a store to keep */
        char *path = nr__rs_join(dir, e->d_name);
        struct stat st;
        if (path && lstat(path, &st) == 0 && S_ISREG(st.st_mode) && now - st.st_mtime > PRUNE_MIN_AGE_S &&
            unlink(path) == 0) {
            files++;
            const size_t n = strlen(e->d_name);
            if (n > 4 && strcmp(e->d_name + n - 4, ".nio") == 0)
                (void)push(&gone, strndup(e->d_name, n - 4)); /* out of memory: a name less in the line */
        }
        free(path);
    }
    if (d)
        closedir(d);
    if (files) {
        if (gone.n)
            qsort(gone.names, gone.n, sizeof *gone.names, cmp_name);
        say_pruned(dir, near, &gone, files);
    }
    free_list(&keys);
    free_list(&gone);
}
