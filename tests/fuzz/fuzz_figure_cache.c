/* Fuzz target: the input is a kept figure file (cli/figure_cache.c) after
 * its key "K\n". When it unpacks, packing the SVG again and unpacking that
 * must give the same bytes; any other outcome but a crash, a leak or a
 * hang is fine. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "figure_cache.h"
#include "runset_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the entries call, which the pack and unpack never do. */
char *nr__rs_path_with(const char *path, const char *suffix)
{
    (void)path, (void)suffix;
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char key[] = "K\n";
    unsigned char *file = malloc(sizeof key + size);
    if (!file)
        return 0;
    memcpy(file, key, sizeof key - 1);
    memcpy(file + sizeof key - 1, data, size);
    nr_render_buf svg, again, packed;
    if (nr_figure_cache_unpack(file, sizeof key - 1 + size, key, &svg)) {
        if (nr_figure_cache_pack(key, svg.data, svg.len, &packed) == 0) {
            if (!nr_figure_cache_unpack(packed.data, packed.len, key, &again))
                abort();
            if (again.len != svg.len || (svg.len && memcmp(again.data, svg.data, svg.len) != 0))
                abort();
            nr_render_buf_fini(&again);
            nr_render_buf_fini(&packed);
        }
        nr_render_buf_fini(&svg);
    }
    free(file);
    return 0;
}
