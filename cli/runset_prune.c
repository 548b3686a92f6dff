/* runset_prune: the cached stores of runs that are gone. A cache folder
 * belongs to one folder of runs (near/.niorep, or near's own in the user's
 * cache); a store in it, "K.nio" with its companions ("K.nio.inputs",
 * "K.nio.fits-B-S", "K.nio.figN-B-S"), stands for the entry of near whose
 * cache name is K; a store in its merged/ for the run whose node stores its
 * fingerprint names; a folder of the user's cache for the traces folder it
 * names. Until session 49 the store of a run folder that was removed or
 * renamed stayed for good, and until session 50 merged stores and the
 * user cache's folders did: a study's cache only grew. docs/report.md,
 * "Inputs and the cache". */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nr_outfile.h"
#include "nr_strtab.h"
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
        const int known = k && keys->n && bsearch(&k, keys->names, keys->n, sizeof *keys->names, cmp_name) != NULL;
        free(k);
        if (known || !k) { /* out of memory: kept */
            *key_len = (size_t)(p - name);
            return 1;
        }
    }
    return of_store;
}

/* A cache file last written this long ago or less is kept though its run
 * folder is gone: another build may have listed the folder just after the
 * run came and written it since (as the temporary files' sweep waits). */
#define PRUNE_MIN_AGE_S 600

/* Removes file name of dir when it is a regular file last written over
 * PRUNE_MIN_AGE_S before now; 1 when it did. */
static int unlink_if_old(const char *dir, const char *name, time_t now)
{
    char *path = nr__rs_join(dir, name);
    struct stat st;
    const int removed = path && lstat(path, &st) == 0 && S_ISREG(st.st_mode) && now - st.st_mtime > PRUNE_MIN_AGE_S &&
                        unlink(path) == 0;
    free(path);
    return removed;
}

/* The first `most` names of gone, comma-separated, ", ..." when there are
 * more, in out (cap bytes); returns out. */
static const char *first_names(const name_list *gone, size_t most, char *out, size_t cap)
{
    size_t shown = 0;
    out[0] = '\0';
    for (; shown < gone->n && shown < most; shown++) {
        const size_t used = strlen(out);
        snprintf(out + used, cap - used, "%s%s", shown ? ", " : "", gone->names[shown]);
    }
    if (shown < gone->n) {
        const size_t used = strlen(out);
        snprintf(out + used, cap - used, ", ...");
    }
    return out;
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
    char names[256];
    fprintf(stderr, "niorep: %s: removed the cached store%s of %zu run folder%s no longer in %s (%s; %zu file%s)\n",
            dir, gone->n == 1 ? "" : "s", gone->n, gone->n == 1 ? "" : "s", near, first_names(gone, 4, names, sizeof names),
            files, files == 1 ? "" : "s");
}

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
        if (unlink_if_old(dir, e->d_name, now)) {
            files++;
            const size_t n = strlen(e->d_name);
            if (n > 4 && strcmp(e->d_name + n - 4, ".nio") == 0)
                (void)push(&gone, strndup(e->d_name, n - 4)); /* out of memory: a name less in the line */
        }
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

/* Whether name is file `key.nio` of a store or one of its companions:
 * ".inputs", ".fits-B-S", ".figN-B-S" (the exact suffixes, so that the
 * store of label "a.nio", "a.nio.nio", is no companion of label "a"). */
static int is_store_of(const char *name, const char *key)
{
    const size_t k = strlen(key);
    if (strncmp(name, key, k) != 0 || strncmp(name + k, ".nio", 4) != 0)
        return 0;
    const char *suffix = name + k + 4;
    if (!*suffix || strcmp(suffix, ".inputs") == 0)
        return 1;
    const char *digits = strncmp(suffix, ".fits-", 6) == 0 ? suffix + 6
                       : strncmp(suffix, ".fig", 4) == 0   ? suffix + 4 : NULL;
    if (!digits || !*digits)
        return 0;
    return strspn(digits, "0123456789-") == strlen(digits);
}

/* Whether the part named `name` (a base name in a merged store's
 * fingerprint) is in folder dir or folder near. */
static int part_is_there(const char *name, const char *dir, const char *near)
{
    struct stat st;
    int there = 0;
    for (int i = 0; i < 2 && !there; i++) {
        char *p = nr__rs_join(i ? near : dir, name);
        there = !p || lstat(p, &st) == 0 || errno != ENOENT; /* unsure: there */
        free(p);
    }
    return there;
}

/* 1 when fingerprint text, a merged store's ("niorep V merge F revision R
 * ...", one line "name\tsize\tmtime\tctime" per part, "store D I"), names
 * parts and none of them is in dir or near: its run is gone. 0 when one is
 * there, or when the text is not such a fingerprint. */
static int merged_parts_gone(char *text, const char *dir, const char *near)
{
    if (strncmp(text, "niorep ", 7) != 0)
        return 0;
    char *line = strchr(text, '\n');
    const char *first_end = line;
    if (!line || !memmem(text, (size_t)(first_end - text), " merge ", 7))
        return 0;
    size_t parts = 0;
    for (line++; *line && strncmp(line, "store ", 6) != 0;) {
        char *end = strchr(line, '\n');
        if (!end)
            return 0;
        *end = '\0';
        /* the name may hold tabs: the three fields after it do not */
        char *tab = NULL;
        for (int field = 0; field < 3; field++) {
            tab = strrchr(line, '\t');
            if (!tab)
                return 0;
            if (field < 2)
                *tab = '\0';
        }
        *tab = '\0';
        parts++;
        if (part_is_there(line, dir, near))
            return 0;
        line = end + 1;
    }
    return parts > 0;
}

/* Says what nr__rs_prune_merged removed. */
static void say_merged_pruned(const char *merged, const name_list *gone, size_t files)
{
    char names[256];
    fprintf(stderr, "niorep: %s: removed the merged store%s of %zu run%s whose node stores are gone (%s; %zu file%s)\n",
            merged, gone->n == 1 ? "" : "s", gone->n, gone->n == 1 ? "" : "s", first_names(gone, 4, names, sizeof names),
            files, files == 1 ? "" : "s");
}

void nr__rs_prune_merged(const char *dir, const char *near)
{
    char *merged = nr__rs_join(dir, "merged");
    DIR *d = merged ? opendir(merged) : NULL;
    name_list names = {0}, gone = {0};
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && push(&names, strdup(e->d_name)) < 0)
            break;
    if (d)
        closedir(d);
    /* the runs gone: their fingerprints name parts, none of which is left */
    for (size_t i = 0; i < names.n; i++) {
        const char *name = names.names[i];
        const size_t n = strlen(name);
        if (n <= 11 || strcmp(name + n - 11, ".nio.inputs") != 0)
            continue;
        char *path = nr__rs_join(merged, name);
        char *text = path ? nr__rs_read_small_file(path) : NULL;
        if (text && merged_parts_gone(text, dir, near))
            (void)push(&gone, strndup(name, n - 11)); /* out of memory: kept */
        free(text);
        free(path);
    }
    size_t files = 0;
    const time_t now = time(NULL);
    name_list removed = {0};
    for (size_t g = 0; g < gone.n; g++) {
        size_t before = files;
        for (size_t i = 0; i < names.n; i++)
            files += is_store_of(names.names[i], gone.names[g]) && unlink_if_old(merged, names.names[i], now);
        if (files > before)
            (void)push(&removed, strdup(gone.names[g]));
    }
    if (files) {
        if (removed.n)
            qsort(removed.names, removed.n, sizeof *removed.names, cmp_name);
        say_merged_pruned(merged, &removed, files);
    }
    free_list(&names);
    free_list(&gone);
    free_list(&removed);
    free(merged);
}

int nr__rs_note_traces_folder(const char *dir, const char *real)
{
    char *path = nr__rs_join(dir, NR_CACHE_FOLDER_NOTE);
    char *old = path ? nr__rs_read_small_file(path) : NULL;
    const size_t n = strlen(real);
    int rc = 0;
    if (path && !(old && strncmp(old, real, n) == 0 && strcmp(old + n, "\n") == 0)) {
        char *text = nr__rs_path_with(real, "\n");
        nr_error ignored;
        rc = text ? nr__rs_write_text_file(path, text, &ignored) : NR_E_NOMEM;
        free(text);
    }
    if (!path)
        rc = NR_E_NOMEM;
    free(old);
    free(path);
    return rc;
}

/* Removes the files of the cache folder dir that are a store's or a
 * store's companion's (a name holding ".nio" at its end or before a '.')
 * and were last written over PRUNE_MIN_AGE_S ago, and the temporary files
 * no process holds (nr_outfile_sweep); returns how many. Other files stay. */
static size_t remove_stores(const char *dir, time_t now)
{
    size_t files = nr_outfile_sweep(dir, PRUNE_MIN_AGE_S);
    DIR *d = opendir(dir);
    const name_list none = {0};
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t key_len;
        if (!strstr(e->d_name, ".tmp.") && store_file_key(e->d_name, &none, &key_len))
            files += unlink_if_old(dir, e->d_name, now);
    }
    if (d)
        closedir(d);
    return files;
}

/* Whether dir holds nothing but its note of the traces folder. */
static int only_the_note(const char *dir)
{
    DIR *d = opendir(dir);
    int only = d != NULL;
    for (struct dirent *e; only && (e = readdir(d)) != NULL;)
        only = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
               strcmp(e->d_name, NR_CACHE_FOLDER_NOTE) == 0;
    if (d)
        closedir(d);
    return only;
}

/* The traces folder that user cache folder dir (named name) belongs to,
 * when that folder is gone: its note (NR_CACHE_FOLDER_NOTE) holds an
 * absolute path whose hash begins the folder's name, the path's parent is
 * a folder and the path is not there. New string, else NULL (not ours, or
 * still there, or unsure: a share that is not mounted has no parent). */
static char *gone_traces_folder(const char *dir, const char *name)
{
    char *note = nr__rs_join(dir, NR_CACHE_FOLDER_NOTE);
    char *text = note ? nr__rs_read_small_file(note) : NULL;
    free(note);
    const size_t n = text ? strlen(text) : 0;
    if (n < 3 || text[0] != '/' || text[n - 1] != '\n' || memchr(text, '\n', n - 1)) {
        free(text);
        return NULL;
    }
    text[n - 1] = '\0';
    char hash[24];
    snprintf(hash, sizeof hash, "%016" PRIx64 "-", nr_hash_bytes(text, n - 1));
    char *parent = nr__rs_dir_name(text);
    struct stat st;
    const int gone = strncmp(name, hash, 17) == 0 && parent && stat(parent, &st) == 0 && S_ISDIR(st.st_mode) &&
                     lstat(text, &st) != 0 && errno == ENOENT;
    free(parent);
    if (!gone) {
        free(text);
        return NULL;
    }
    return text;
}

void nr__rs_prune_user_cache(const char *base)
{
    DIR *d = opendir(base);
    name_list gone = {0};
    size_t files = 0, folders = 0;
    const time_t now = time(NULL);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (strlen(e->d_name) < 17 || strspn(e->d_name, "0123456789abcdef") != 16 || e->d_name[16] != '-')
            continue;
        char *dir = nr__rs_join(base, e->d_name);
        char *traces = dir ? gone_traces_folder(dir, e->d_name) : NULL;
        char *merged = traces ? nr__rs_join(dir, "merged") : NULL;
        if (merged) {
            const size_t before = files;
            files += remove_stores(merged, now) + remove_stores(dir, now);
            rmdir(merged); /* not when something is left in it */
            char *note = nr__rs_join(dir, NR_CACHE_FOLDER_NOTE);
            if (note && only_the_note(dir) && unlink(note) == 0 && rmdir(dir) == 0) {
                folders++;
                (void)push(&gone, traces), traces = NULL;
            } else if (files > before) {
                (void)push(&gone, traces), traces = NULL;
            }
            free(note);
        }
        free(merged);
        free(traces);
        free(dir);
    }
    if (d)
        closedir(d);
    if (files || folders) {
        if (gone.n)
            qsort(gone.names, gone.n, sizeof *gone.names, cmp_name);
        char names[512];
        const size_t kept = gone.n - folders;
        char why[160] = "";
        if (kept)
            snprintf(why, sizeof why, "; %zu folder%s kept, holding files written in the last 10 minutes or not "
                     "niorep's", kept, kept == 1 ? "" : "s");
        fprintf(stderr, "niorep: %s: removed the cache%s of %zu traces folder%s that %s gone (%s; %zu file%s%s)\n",
                base, gone.n == 1 ? "" : "s", gone.n, gone.n == 1 ? "" : "s", gone.n == 1 ? "is" : "are",
                first_names(&gone, 3, names, sizeof names), files, files == 1 ? "" : "s", why);
    }
    free_list(&gone);
}
