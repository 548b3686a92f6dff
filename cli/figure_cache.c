/* figure_cache: <store>.fig<ID>-B-S, a key of text compared as bytes, then
 * the SVG in one zstd frame. The key is the run's model's (the fit cache's:
 * niorep version, options, the store's size and mtime, its fingerprint),
 * the figure, its width and the run's name (the figure draws it), and the
 * code and fonts that draw it. Anything else reads as no figure, and it is
 * drawn again. */
#include "figure_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "nr_outfile.h"
#include "runset_internal.h"

/* Bump when the file's layout changes. */
#define FIGURE_CACHE_FORMAT 1
/* A run's figure is about 100 kB; a header claiming more than this is damage. */
#define MAX_SVG_BYTES ((size_t)64 << 20)
/* The key's bytes (a run's fingerprint lists its files) and the frame's. */
#define MAX_FILE_BYTES (2 * MAX_SVG_BYTES)
/* The fastest level: a figure's SVG shrinks about threefold (its glyph
 * outlines and coordinates are numbers; 15 MB for the 700 figures of the
 * 100 generated runs), at about 370 MB/s (`zstd -b1` on figure SVGs, the
 * session-32 VM). */
#define ZSTD_LEVEL 1

/* "WHAT <len>:<path> <size> <mtime>" for the file at path, or "missing"
 * instead of size and mtime (the vDSO has no file). */
static void put_file_line(FILE *out, const char *what, const char *path)
{
    struct stat st;
    fprintf(out, "%s %zu:%s ", what, strlen(path), path);
    if (stat(path, &st) == 0)
        fprintf(out, "%lld %lld.%09ld\n", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                (long)st.st_mtim.tv_nsec);
    else
        fputs("missing\n", out);
}

/* The objects loaded with the program, counted before main: glibc lists
 * objects in load order, so the key names these and no library that a
 * code path opens later (a gconv module, libgcc_s to unwind), which would
 * make one binary's keys differ from build to build. */
static size_t startup_objects;

static int count_object(struct dl_phdr_info *info, size_t size, void *n)
{
    (void)info, (void)size;
    ++*(size_t *)n;
    return 0;
}

__attribute__((constructor)) static void count_startup_objects(void) { dl_iterate_phdr(count_object, &startup_objects); }

typedef struct library_lines {
    FILE *out;
    size_t seen;
} library_lines;

static int put_library(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    library_lines *l = ctx;
    if (l->seen++ >= startup_objects)
        return 1; /* stops the walk */
    if (info->dlpi_name && *info->dlpi_name) /* the program itself has no name here */
        put_file_line(l->out, "lib", info->dlpi_name);
    return 0;
}

char *nr_figure_cache_code_key(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n < 0)
        return NULL;
    exe[n] = '\0';
    char *key = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&key, &len);
    if (!out)
        return NULL;
    put_file_line(out, "exe", exe);
    library_lines libs = {out, 0};
    dl_iterate_phdr(put_library, &libs);
    for (size_t i = 0; i < NR_RENDER_FONT_FILES; i++) {
        char path[PATH_MAX];
        if (nr_render_font_file(i, path, sizeof path) == 0)
            put_file_line(out, "font", path);
    }
    const int failed = ferror(out);
    if (fclose(out) != 0 || failed) {
        free(key);
        return NULL;
    }
    return key;
}

char *nr_figure_cache_run_key(const char *model_key, const char *run_name)
{
    char *key;
    /* the name by its length: no name can end early and pass for another key */
    if (asprintf(&key, "run %zu:%s\n%s", strlen(run_name), run_name, model_key) < 0)
        key = NULL;
    return key;
}

int nr_figure_cache_entry_open(nr_figure_cache_entry *e, const char *store_path, const nr_model_opts *opts,
                               const char *run_key, const char *code_key, int fig_id, double width_pt)
{
    *e = (nr_figure_cache_entry){0};
    char suffix[64];
    snprintf(suffix, sizeof suffix, ".fig%d-%d-%" PRIu64, fig_id, opts->bootstraps, opts->seed);
    e->path = nr__rs_path_with(store_path, suffix);
    if (asprintf(&e->key, "niorep %s figure %d\nfigure %d width %.17g\n%s%s", NR_VERSION, FIGURE_CACHE_FORMAT,
                 fig_id, width_pt, run_key, code_key) < 0)
        e->key = NULL;
    if (!e->key || !e->path) {
        nr_figure_cache_entry_close(e);
        return 0;
    }
    return 1;
}

void nr_figure_cache_entry_close(nr_figure_cache_entry *e)
{
    free(e->key);
    free(e->path);
    e->key = e->path = NULL;
}

int nr_figure_cache_pack(const char *key, const void *svg, size_t n, nr_render_buf *out)
{
    char head[48];
    const size_t klen = strlen(key), hlen = (size_t)snprintf(head, sizeof head, "svg %zu\n", n);
    const size_t bound = ZSTD_compressBound(n);
    nr_render_buf_init(out);
    out->cap = klen + hlen + bound;
    out->data = malloc(out->cap);
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    size_t z = 0;
    if (out->data && cctx && !ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, ZSTD_LEVEL)) &&
        !ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1))) {
        memcpy(out->data, key, klen);
        memcpy(out->data + klen, head, hlen);
        z = ZSTD_compress2(cctx, out->data + klen + hlen, bound, svg, n);
    }
    ZSTD_freeCCtx(cctx);
    if (!out->data || z == 0 || ZSTD_isError(z)) {
        nr_render_buf_fini(out);
        return NR_E_NOMEM;
    }
    out->len = klen + hlen + z;
    return 0;
}

/* The size of "svg <n>\n" at p (at most end - p bytes) into *n: the
 * header's length, or 0 when it is not one. */
static size_t parse_svg_head(const char *p, size_t avail, size_t *n)
{
    if (avail < 6 || memcmp(p, "svg ", 4) != 0 || p[4] < '0' || p[4] > '9')
        return 0;
    size_t i = 4, v = 0;
    for (; i < avail && p[i] >= '0' && p[i] <= '9'; i++) {
        v = v * 10 + (size_t)(p[i] - '0');
        if (v > MAX_SVG_BYTES)
            return 0;
    }
    if (i >= avail || p[i] != '\n')
        return 0;
    *n = v;
    return i + 1;
}

int nr_figure_cache_unpack(const void *file, size_t n, const char *key, nr_render_buf *svg)
{
    const char *p = file;
    const size_t klen = strlen(key);
    size_t len;
    if (n < klen || memcmp(p, key, klen) != 0)
        return 0;
    const size_t hlen = parse_svg_head(p + klen, n - klen, &len);
    if (!hlen)
        return 0;
    const char *frame = p + klen + hlen;
    const size_t flen = n - klen - hlen;
    /* a frame of data (its magic number: not a skippable frame), its size
       as its header states it, and a checksum: the header descriptor's
       bit 2 (RFC 8878, 3.1.1 and 3.1.1.1.1) */
    if (flen < 5 || memcmp(frame, "\x28\xb5\x2f\xfd", 4) != 0 || !(frame[4] & 4) ||
        ZSTD_getFrameContentSize(frame, flen) != (unsigned long long)len ||
        ZSTD_findFrameCompressedSize(frame, flen) != flen)
        return 0;
    nr_render_buf_init(svg);
    svg->cap = len ? len : 1;
    if (!(svg->data = malloc(svg->cap)))
        return 0;
    const size_t got = ZSTD_decompress(svg->data, svg->cap, frame, flen); /* checks the checksum */
    if (ZSTD_isError(got) || got != len) {
        nr_render_buf_fini(svg);
        return 0;
    }
    svg->len = len;
    return 1;
}

/* The whole file at path into *out: 1, or 0 when it cannot be read. */
static int read_file(const char *path, nr_render_buf *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= MAX_FILE_BYTES;
    nr_render_buf_init(out);
    if (ok) {
        out->cap = (size_t)st.st_size ? (size_t)st.st_size : 1;
        ok = (out->data = malloc(out->cap)) != NULL;
    }
    while (ok && out->len < (size_t)st.st_size) {
        ssize_t got = read(fd, out->data + out->len, (size_t)st.st_size - out->len);
        if (got < 0 && errno == EINTR)
            continue;
        ok = got > 0;
        if (ok)
            out->len += (size_t)got;
    }
    close(fd);
    if (!ok)
        nr_render_buf_fini(out);
    return ok;
}

int nr_figure_cache_load(const nr_figure_cache_entry *e, nr_render_buf *svg)
{
    nr_render_buf file;
    if (!read_file(e->path, &file))
        return 0;
    const int found = nr_figure_cache_unpack(file.data, file.len, e->key, svg);
    nr_render_buf_fini(&file);
    return found;
}

int nr_figure_cache_save(const nr_figure_cache_entry *e, const void *svg, size_t n, nr_error *err)
{
    nr_render_buf file;
    if (nr_figure_cache_pack(e->key, svg, n, &file) < 0)
        return nr_error_set(err, NR_E_NOMEM, "out of memory keeping a figure in %s", e->path);
    nr_outfile f = {.fd = -1};
    int rc = nr_outfile_open(&f, e->path, err);
    if (rc == 0)
        rc = nr_outfile_write(&f, file.data, file.len, err);
    if (rc == 0)
        rc = nr_outfile_commit_unsynced(&f, err); /* a torn file fails its checksum and is drawn again */
    else
        nr_outfile_abort(&f);
    nr_render_buf_fini(&file);
    return rc;
}
