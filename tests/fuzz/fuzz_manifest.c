/* Fuzz target: the input is a manifest.json. It goes through a memfd so
 * that the reader's own file path is exercised; every flattened key is then
 * looked up again (the sorted order must hold). Any outcome but a crash, a
 * leak, a hang or a lookup that misses a listed key is fine. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz_manifest", 0);
    if (fd < 0)
        return 0;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    nr_manifest m;
    nr_error err;
    nr_manifest_init(&m);
    if (nr_manifest_load(path, &m, &err) == 0) {
        for (size_t i = 0; i < m.count; i++) {
            if (i > 0 && strcmp(m.items[i - 1].key, m.items[i].key) > 0)
                abort();  /* the list must be sorted: lookups rely on it */
            if (!nr_manifest_get(&m, m.items[i].key))
                abort();
        }
        (void)nr_manifest_get(&m, "cwd");
        (void)nr_manifest_get(&m, "");
    }
    nr_manifest_fini(&m);
    close(fd);
    return 0;
}
