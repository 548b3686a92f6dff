/* Fuzz target: the input is a hook.jsonl (and, read a second time, a
 * manifest.json). It goes through a memfd so that the readers' own file
 * path is exercised; then phases are closed, indexed and queried. Any
 * outcome but a crash, a leak or a hang is fine. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hook.h"
#include "manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz_hook", 0);
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
    nr_error err;
    nr_hook *h = NULL;
    if (nr_hook_load(path, NULL, NULL, &h, &err) == 0) {
        int64_t first = nr_hook_first_ns(h), last = nr_hook_last_ns(h);
        volatile int64_t sum = 0;
        nr_hook_phase p;
        if (nr_hook_finish(h, last, &err) == 0 && nr_hook_rewind_phases(h, &err) == 0)
            while (nr_hook_next_phase(h, &p, &err) > 0) {
                sum += nr_hook_phase_at(h, p.pid, p.tid, p.begin_ns);
                sum += nr_hook_phase_at(h, p.pid, -1, p.end_ns - 1);
            }
        for (int k = 0; k <= 16; k++)
            sum += nr_hook_phase_at(h, 1, -1, first + (last - first) / 16 * k);
        const nr_hook_io *io;
        const nr_hook_mark *mark;
        const nr_hook_wait *wait;
        if (nr_hook_rewind_records(h, &err) == 0) {
            while (nr_hook_next_io(h, &io, &err) > 0)
                sum += io->bytes;
            while (nr_hook_next_mark(h, &mark, &err) > 0)
                sum += (int64_t)strlen(mark->attrs);
            while (nr_hook_next_wait(h, &wait, &err) > 0)
                sum += wait->dur_ns;
        }
        (void)sum; /* read back only so that the reads above are not dropped */
        nr_hook_free(h);
    }
    nr_manifest m;
    nr_manifest_init(&m);
    if (nr_manifest_load(path, &m, &err) == 0)
        (void)nr_manifest_get(&m, "cwd");
    nr_manifest_fini(&m);
    close(fd);
    return 0;
}
