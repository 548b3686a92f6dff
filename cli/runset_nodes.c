/* runset_nodes: the stores of the nodes of one run become one run of the
 * set: merged into one store (store/nr_store_merge.h), cached beside the
 * parts while they are unchanged. docs/multi-node.md, "In build, compare
 * and summary". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nr_mem.h"
#include "nr_store_merge.h"
#include "nr_strtab.h"
#include "runset_internal.h"

typedef struct node_labels {
    char *run, *node;   /* both set for a node store, else both NULL */
    char *merged_run;   /* a store merged from node stores (meta merged_parts): its run label */
    char **parts;       /* ... and the node labels of its parts (part.K.node) */
    size_t nparts;
} node_labels;

static void free_labels(node_labels *l)
{
    free(l->run);
    free(l->node);
    free(l->merged_run);
    for (size_t i = 0; i < l->nparts; i++)
        free(l->parts[i]);
    free(l->parts);
    memset(l, 0, sizeof *l);
}

/* The run label and the parts' node labels of a merged store (none for
 * another store). */
static int read_merged_labels(const nr_run *r, node_labels *l, nr_error *err)
{
    char *count = NULL;
    NR_TRY(nr_store_meta_value(r->store, "merged_parts", &count, err));
    const long n = count ? strtol(count, NULL, 10) : 0;
    free(count);
    if (n <= 0 || n > 1000000)
        return 0;
    NR_TRY(nr_store_meta_value(r->store, "manifest.labels.run", &l->merged_run, err));
    if (!l->merged_run || !(l->parts = calloc((size_t)n, sizeof *l->parts)))
        return l->merged_run ? nr_error_set(err, NR_E_NOMEM, "out of memory") : 0;
    for (l->nparts = 0; l->nparts < (size_t)n; l->nparts++) {
        char key[64];
        snprintf(key, sizeof key, "part.%zu.node", l->nparts);
        NR_TRY(nr_store_meta_value(r->store, key, &l->parts[l->nparts], err));
        if (!l->parts[l->nparts])
            break;
    }
    return 0;
}

static int read_labels(const nr_run *r, node_labels *l, nr_error *err)
{
    NR_TRY(nr_store_meta_value(r->store, "manifest.labels.run", &l->run, err));
    NR_TRY(nr_store_meta_value(r->store, "manifest.labels.node", &l->node, err));
    if (!l->run || !l->node || !*l->run || !*l->node) {
        free(l->run);
        free(l->node);
        l->run = l->node = NULL;
        return read_merged_labels(r, l, err);
    }
    return 0;
}

/* A file name for a run label, distinct for distinct labels: '%', '/', a
 * leading '.' and control bytes as %XX, cut when long (nr__rs_cut_name).
 * Until session 48 '/' and a leading '.' became '_', and runs 'a/b' and
 * 'a_b' shared one cached store. New string, NULL when out of memory. */
static char *label_file_name(const char *label)
{
    const size_t n = strlen(label);
    char *name = malloc(3 * n + 24);
    if (!name)
        return NULL;
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)label[i];
        if (c == '%' || c == '/' || c < 0x20 || c == 0x7f || (i == 0 && c == '.'))
            len += (size_t)sprintf(name + len, "%%%02X", c);
        else
            name[len++] = (char)c;
    }
    name[len] = '\0';
    nr__rs_cut_name(name, label);
    return name;
}

/* Where the merged store of a run goes: merged/<label>.nio in the cache
 * folder of the first part (its own folder when it is a store that the
 * set ingested; else nr__rs_cache_dir of the folder it lies in), or the
 * set's temporary folder (also when the first part is a temporary store,
 * or when *temporary is 1 on entry: a merge that must not share a file).
 * In a folder of its own: until session 48 it was <label>.run.nio beside
 * the ingested runs' stores, which a run folder named '<label>.run' also
 * had (the two replaced each other's store at every build). */
static char *merged_path(nr_runset *rs, const nr_run *first, const char *label, int *temporary, nr_error *err)
{
    char *dir = nr__rs_dir_name(first->store_path);
    char *cache = !dir || first->temporary || *temporary ? NULL
                : first->input_path ? strdup(dir) : nr__rs_cache_dir(dir, NULL);
    char *merged = cache ? nr__rs_join(cache, "merged") : NULL;
    char *name = label_file_name(label);
    char *file = name ? nr__rs_path_with(name, ".nio") : NULL;
    free(name);
    char *path = NULL;
    *temporary = 0;
    if (!file) {
        nr_error_set(err, NR_E_NOMEM, "out of memory");
    } else if (merged && (mkdir(merged, 0777) == 0 || errno == EEXIST) && access(merged, W_OK) == 0) {
        path = nr__rs_join(merged, file);
        nr__rs_sweep_dir(merged);
        if (!first->input_path) /* node stores given: their folder; an ingested run's was pruned before its ingest */
            nr__rs_prune_merged(cache, dir);
    } else if (nr__rs_tmpdir(rs, err) == 0) {
        char numbered[600];
        snprintf(numbered, sizeof numbered, "%zu-%s", (size_t)(first - rs->runs), file);
        path = nr__rs_join(rs->tmpdir, numbered);
        *temporary = 1;
    }
    free(dir);
    free(cache);
    free(merged);
    free(file);
    if (!path && !err->code)
        nr_error_set(err, NR_E_NOMEM, "out of memory");
    return path;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What the merged store is made of: niorep version, merge revision and the
 * file rule, then base name, size, mtime and ctime of every part, sorted. */
static char *parts_fingerprint(const nr_runset *rs, const size_t *idx, size_t k)
{
    char **lines = calloc(k, sizeof *lines);
    size_t total = 80;
    for (size_t i = 0; lines && i < k; i++) {
        const char *path = rs->runs[idx[i]].store_path;
        struct stat st;
        char *base = nr__rs_base_name(path);
        const size_t cap = strlen(path) + 128;
        lines[i] = malloc(cap);
        if (lines[i] && base && stat(path, &st) == 0)
            nr__rs_stat_line(lines[i], cap, base, &st);
        else if (lines[i])
            lines[i][0] = '\0';
        free(base);
        total += lines[i] ? strlen(lines[i]) : 0;
    }
    char *fp = lines ? malloc(total) : NULL;
    if (fp) {
        qsort(lines, k, sizeof *lines, cmp_str);
        size_t len = (size_t)snprintf(fp, total, "niorep %s merge %u revision %u%s\n", NR_VERSION,
                                      NR_STORE_FORMAT_VERSION, NR_MERGE_REVISION,
                                      rs->files_by_node ? " files-by-node" : "");
        for (size_t i = 0; i < k; i++) {
            const size_t n = lines[i] ? strlen(lines[i]) : 0;
            memcpy(fp + len, lines[i] ? lines[i] : "", n);
            len += n;
        }
        fp[len] = '\0';
    }
    for (size_t i = 0; lines && i < k; i++)
        free(lines[i]);
    free(lines);
    return fp;
}

/* A merge's progress, handed on to rs->merge_progress with its run's label. */
typedef struct merge_ref {
    const nr_runset *rs;
    const char *label;
} merge_ref;

static void merge_rows(void *ctx, uint64_t done, uint64_t total)
{
    const merge_ref *ref = ctx;
    ref->rs->merge_progress(ref->rs->merge_progress_ctx, ref->label, done, total);
}

/* Merges the parts of run `label` unless the cached merged store was made
 * of them as they are. */
static int merge_cached(nr_runset *rs, const size_t *idx, size_t k, const char *label, const char *out,
                        int temporary, int *hit, uint64_t id[2], nr_error *err)
{
    char *fp = parts_fingerprint(rs, idx, k);
    const char **paths = malloc(k * sizeof *paths);
    size_t n = strlen(out) + 8;
    char *fp_path = malloc(n);
    if (!fp || !paths || !fp_path) {
        free(fp);
        free(paths);
        free(fp_path);
        return nr_error_set(err, NR_E_NOMEM, "out of memory");
    }
    snprintf(fp_path, n, "%s.inputs", out);
    char *old = temporary ? NULL : nr__rs_read_small_file(fp_path);
    int rc = 0;
    id[0] = id[1] = 0;
    *hit = nr__rs_fingerprint_fresh(old, fp, out, id); /* id: the file the fingerprint names */
    if (!*hit) {
        unlink(fp_path);   /* a store without its fingerprint is never trusted */
        for (size_t i = 0; i < k; i++)
            paths[i] = rs->runs[idx[i]].store_path;
        uint64_t dev = 0, ino = 0;
        merge_ref ref = {rs, label};
        nr_merge_opts opts = {.files_by_node = rs->files_by_node, .store_dev = &dev, .store_ino = &ino};
        if (rs->merge_progress) {
            opts.progress = merge_rows;
            opts.progress_ctx = &ref;
        }
        rc = nr_store_merge(paths, k, out, &opts, err);
        char *dir = rc == NR_E_IO ? nr__rs_dir_name(out) : NULL;
        if (dir && nr__rs_cache_dir_gone(dir, temporary)) {
            nr_error_clear(err);
            rc = nr_store_merge(paths, k, out, &opts, err);
        }
        free(dir);
        id[0] = dev;
        id[1] = ino;
        char line[64];
        nr__rs_store_line(line, sizeof line, dev, ino);
        char *text = rc == 0 && !temporary ? nr__rs_path_with(fp, line) : NULL;
        if (rc == 0 && !temporary)
            rc = text ? nr__rs_write_text_file(fp_path, text, err) : nr_error_set(err, NR_E_NOMEM, "out of memory");
        free(text);
    }
    free(old);
    free(fp);
    free(paths);
    free(fp_path);
    return rc;
}

/* "a + b + c" of the parts' sources. */
static char *joined_sources(const nr_runset *rs, const size_t *idx, size_t k)
{
    size_t n = 1;
    for (size_t i = 0; i < k; i++)
        n += strlen(rs->runs[idx[i]].source) + 3;
    char *s = malloc(n);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t i = 0; i < k; i++) {
        if (i)
            strcat(s, " + ");
        strcat(s, rs->runs[idx[i]].source);
    }
    return s;
}

/* The label as a run name unique in the set (label, label-2, ...). */
static char *unique_name(const nr_runset *rs, size_t self, const char *label)
{
    const size_t n = strlen(label) + 16;
    char *name = malloc(n);
    for (int k = 1; name; k++) {
        if (k == 1)
            snprintf(name, n, "%s", label);
        else
            snprintf(name, n, "%s-%d", label, k);
        int clash = 0;
        for (size_t i = 0; i < rs->n; i++)
            clash |= i != self && rs->runs[i].name && strcmp(rs->runs[i].name, name) == 0;
        if (!clash)
            break;
    }
    return name;
}

static char **part_paths(const nr_runset *rs, const size_t *idx, size_t k);

/* Whether store s is the file of id (merge_cached's): 0 when another
 * niorep renamed its merged store of the same label (other parts, the
 * other file rule) over the path between the merge or check and the
 * open. Until session 49 the open took that store, and the build or
 * summary showed another subset's numbers under its own inputs, without
 * an error (review 49: 3 in 150 concurrent summaries). */
static int is_store_checked(const nr_store *s, const uint64_t id[2])
{
    uint64_t dev, ino;
    nr_store_file_id(s, &dev, &ino);
    return dev == id[0] && ino == id[1];
}

/* Merges the parts into a store of this build's own (the temporary
 * folder) after the shared one was replaced under it. */
static int merge_privately(nr_runset *rs, const size_t *idx, size_t k, const char *label, char **out, nr_error *err)
{
    fprintf(stderr, "niorep: %s was replaced by another niorep while this one read it; merging run '%s' "
                    "into a temporary store\n", *out, label);
    free(*out);
    int temporary = 1, hit;
    uint64_t id[2];
    *out = merged_path(rs, &rs->runs[idx[0]], label, &temporary, err);
    return *out ? merge_cached(rs, idx, k, label, *out, 1, &hit, id, err) : err->code;
}

/* The k >= 2 node runs idx[] of run `label` become one run at idx[0]. */
static int merge_group(nr_runset *rs, const size_t *idx, size_t k, const char *label,
                       void (*progress)(const nr_run *run, const char *what), nr_error *err)
{
    nr_run *first = &rs->runs[idx[0]];
    int temporary = 0, hit = 0;
    char *out = merged_path(rs, first, label, &temporary, err);
    if (!out)
        return err->code;
    if (progress) { /* named by the run, not by its first node (until session 50) */
        const nr_run shown = {.name = (char *)label};
        progress(&shown, "merge");
    }
    uint64_t id[2];
    int rc = merge_cached(rs, idx, k, label, out, temporary, &hit, id, err);
    nr_store *opened = NULL;
    nr_error later; /* a store that does not open is opened again below, where a damaged cache is merged again */
    if (rc == 0 && !temporary && nr_store_open(out, &opened, &later) == 0 && !is_store_checked(opened, id)) {
        nr_store_close(opened);
        opened = NULL;
        hit = 0;
        temporary = 1;
        rc = merge_privately(rs, idx, k, label, &out, err);
    }
    *(hit ? &rs->merges_reused : &rs->merged) += rc == 0;
    char *source = rc == 0 ? joined_sources(rs, idx, k) : NULL;
    char *name = rc == 0 ? unique_name(rs, idx[0], label) : NULL;
    if (rc == 0 && (!source || !name))
        rc = nr_error_set(err, NR_E_NOMEM, "out of memory");
    char **parts = rc == 0 && hit ? part_paths(rs, idx, k) : NULL;
    if (rc == 0 && hit && !parts)
        rc = nr_error_set(err, NR_E_NOMEM, "out of memory");
    if (rc < 0) {
        nr_store_close(opened);
        free(out);
        free(source);
        free(name);
        return rc;
    }
    for (size_t i = 0; i < k; i++)
        nr__rs_drop_run(&rs->runs[idx[i]]);
    *first = (nr_run){.name = name, .source = source, .store_path = out, .cache_hit = hit, .temporary = temporary,
                      .parts = parts, .nparts = parts ? k : 0, .store = opened};
    rc = opened ? 0 : nr_store_open(out, &first->store, err);
    if (rc == 0 && hit)
        rc = nr__rs_meta_readable(first->store, err);
    return rc == NR_E_FORMAT && hit ? nr__rs_merge_again(rs, first, err) : rc;
}

/* Copies of the store paths of the parts idx[0..k), NULL when out of memory. */
static char **part_paths(const nr_runset *rs, const size_t *idx, size_t k)
{
    char **parts = calloc(k, sizeof *parts);
    for (size_t i = 0; parts && i < k; i++)
        if (!(parts[i] = strdup(rs->runs[idx[i]].store_path))) {
            while (i > 0)
                free(parts[--i]);
            free(parts);
            return NULL;
        }
    return parts;
}

/* The fingerprint of the cached store at store_path, made again over the
 * same parts, names the new store (its last line: nr__rs_store_line); a
 * fingerprint that is not there stays so. */
static int name_new_store(const char *store_path, uint64_t dev, uint64_t ino, nr_error *err)
{
    char *fp_path = nr__rs_path_with(store_path, ".inputs");
    char *text = fp_path ? nr__rs_read_small_file(fp_path) : NULL;
    char *last = text ? strstr(text, "\nstore ") : NULL;
    int rc = 0;
    if (last) {
        char line[64];
        nr__rs_store_line(line, sizeof line, dev, ino);
        last[1] = '\0';
        char *fresh = nr__rs_path_with(text, line);
        rc = fresh ? nr__rs_write_text_file(fp_path, fresh, err) : nr_error_set(err, NR_E_NOMEM, "out of memory");
        free(fresh);
    }
    free(text);
    free(fp_path);
    return rc;
}

int nr__rs_merge_again(const nr_runset *rs, nr_run *r, nr_error *err)
{
    fprintf(stderr, "niorep: %s; merging %s again from its %zu node stores\n", err->msg, r->store_path, r->nparts);
    nr_store_close(r->store);
    r->store = NULL;
    r->cache_hit = 0;
    nr_error_clear(err);
    uint64_t dev = 0, ino = 0;
    const nr_merge_opts opts = {.files_by_node = rs->files_by_node, .store_dev = &dev, .store_ino = &ino};
    NR_TRY(nr_store_merge((const char *const *)r->parts, r->nparts, r->store_path, &opts, err));
    NR_TRY(name_new_store(r->store_path, dev, ino, err));
    return nr_store_open(r->store_path, &r->store, err);
}

/* Two stores of one run must not hold the same node. */
static int check_nodes(const nr_runset *rs, const node_labels *lab, const size_t *idx, size_t k, nr_error *err)
{
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k; b++)
            if (strcmp(lab[idx[a]].node, lab[idx[b]].node) == 0)
                return nr_error_set(err, NR_E_INPUT, "%s and %s both hold node '%s' of run '%s': each node once",
                                    rs->runs[idx[a]].store_path, rs->runs[idx[b]].store_path,
                                    lab[idx[a]].node, lab[idx[a]].run);
    return 0;
}

/* Groups the node stores by run label, merges each group of two or more. */
static int join_groups(nr_runset *rs, node_labels *lab, size_t *idx, char *grouped,
                       void (*progress)(const nr_run *run, const char *what), nr_error *err)
{
    for (size_t i = 0; i < rs->n; i++) {
        if (!lab[i].run || grouped[i])
            continue;
        size_t k = 0;
        for (size_t j = i; j < rs->n; j++)
            if (lab[j].run && !grouped[j] && strcmp(lab[j].run, lab[i].run) == 0) {
                idx[k++] = j;
                grouped[j] = 1;
            }
        if (k < 2)
            continue;
        NR_TRY(check_nodes(rs, lab, idx, k, err));
        NR_TRY(merge_group(rs, idx, k, lab[i].run, progress, err));
    }
    return 0;
}

/* Whether merged store m (its labels) has a part of node `node`. */
static int merges_node(const node_labels *m, const char *node)
{
    for (size_t i = 0; i < m->nparts; i++)
        if (strcmp(m->parts[i], node) == 0)
            return 1;
    return 0;
}

/* A store merged from node stores that are given too (`niorep merge
 * n*.nio -o R.nio` into the folder of its parts) is the same data: read
 * once, from the node stores, with a line; one that shares only some of
 * their nodes would count those nodes twice, and is an error. Until
 * session 49 it was a run of its own beside the run of its parts: build
 * showed R and R-2, and compare counted it as one more replicate (review
 * 49). */
static int drop_merged_given_twice(nr_runset *rs, node_labels *lab, nr_error *err)
{
    for (size_t m = 0; m < rs->n; m++) {
        if (!lab[m].merged_run)
            continue;
        size_t shared = 0, nodes = 0, one = 0;
        for (size_t j = 0; j < rs->n; j++)
            if (lab[j].run && strcmp(lab[j].run, lab[m].merged_run) == 0) {
                nodes++;
                if (merges_node(&lab[m], lab[j].node))
                    shared++, one = j;
            }
        if (shared == 0)
            continue;
        if (shared != nodes || shared != lab[m].nparts)
            return nr_error_set(err, NR_E_INPUT, "%s merges node '%s' of run '%s', which %s holds too, but not "
                                "the same nodes as the node stores given: give the node stores or their merge",
                                rs->runs[m].store_path, lab[one].node, lab[m].merged_run, rs->runs[one].store_path);
        fprintf(stderr, "niorep: %s is the merge of the %zu node stores of run '%s' given too; read once, from "
                        "them\n", rs->runs[m].store_path, nodes, lab[m].merged_run);
        nr__rs_drop_run(&rs->runs[m]);
        free_labels(&lab[m]);
    }
    return 0;
}

int nr__rs_join_nodes(nr_runset *rs, void (*progress)(const nr_run *run, const char *what), nr_error *err)
{
    const size_t n = rs->n;
    if (n < 2)
        return 0;
    node_labels *lab = calloc(n, sizeof *lab);
    size_t *idx = calloc(n, sizeof *idx);
    char *grouped = calloc(n, 1);
    int rc = lab && idx && grouped ? 0 : nr_error_set(err, NR_E_NOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = read_labels(&rs->runs[i], &lab[i], err);
    if (rc == 0)
        rc = drop_merged_given_twice(rs, lab, err);
    if (rc == 0)
        rc = join_groups(rs, lab, idx, grouped, progress, err);
    /* close the gaps the merged parts left */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (rs->runs[i].name)
            rs->runs[kept++] = rs->runs[i];
    rs->n = kept;
    for (size_t i = 0; lab && i < n; i++)
        free_labels(&lab[i]);
    free(lab);
    free(idx);
    free(grouped);
    return rc;
}
