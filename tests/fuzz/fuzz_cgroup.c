/* Fuzz target: the input is the text of /proc/self/cgroup, read by
 * nr_cgroup_cpu_limit (common/nr_parallel.c, the default --jobs) against
 * a cgroup tree that does not exist, then against one of a quota of 2
 * CPUs at every level. Any outcome but a crash, a leak, a hang or a limit
 * out of [0, 2] on that tree is fine. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nr_parallel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[64];

static const char *const tree_files[][2] = {{"cpu.max", "200000 100000\n"},
                                            {"cpu/cpu.cfs_quota_us", "200000\n"},
                                            {"cpu/cpu.cfs_period_us", "100000\n"}};

static void remove_tree(void)
{
    char path[128];
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", root, tree_files[i][0]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/cpu", root);
    rmdir(path);
    rmdir(root);
}

/* A cgroup tree whose v2 root and v1 cpu root allow 2 CPUs, removed at
 * exit. */
static const char *quota_tree(void)
{
    if (root[0])
        return root;
    snprintf(root, sizeof root, "/tmp/nr_fuzz_cgroup.%ld", (long)getpid());
    atexit(remove_tree);
    char path[128];
    mkdir(root, 0777);
    snprintf(path, sizeof path, "%s/cpu", root);
    mkdir(path, 0777);
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", root, tree_files[i][0]);
        FILE *f = fopen(path, "w");
        if (f) {
            fputs(tree_files[i][1], f);
            fclose(f);
        }
    }
    return root;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    (void)nr_cgroup_cpu_limit(text, "/nonexistent/nr_fuzz_cgroup");
    const int limit = nr_cgroup_cpu_limit(text, quota_tree());
    free(text);
    if (limit < 0 || limit > 2)
        abort();
    return 0;
}
