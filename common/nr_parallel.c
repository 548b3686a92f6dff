/* nr_parallel: a shared next-index counter under one mutex; an item (a
 * run's model, a figure, the opening of a log) costs far more than the lock. */
#include "nr_parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct pool {
    pthread_mutex_t mu;
    size_t next, n;
    void (*item)(void *ctx, size_t i);
    void *ctx;
    void (*thread_end)(void);
} pool;

/* The CPUs a quota of `quota` us per `period` us gives, rounded up; 0
 * for none (a quota of "max" or -1). */
static int quota_cpus(long long quota, long long period)
{
    if (quota <= 0 || period <= 0)
        return 0;
    const long long cpus = quota / period + (quota % period != 0); /* no quota + period to overflow */
    return cpus < 1 << 20 ? (int)cpus : 1 << 20;
}

/* The quota of the cgroup folder dir: v2 "cpu.max" ("max 100000" or
 * "150000 100000"), else v1 cpu.cfs_quota_us and cpu.cfs_period_us. */
static int folder_limit(const char *dir)
{
    char path[4200], quota[32] = "";
    long long period = 0, q = 0;
    snprintf(path, sizeof path, "%s/cpu.max", dir);
    FILE *f = fopen(path, "r");
    if (f) {
        const int got = fscanf(f, "%31s %lld", quota, &period) == 2;
        fclose(f);
        return got && strcmp(quota, "max") != 0 ? quota_cpus(atoll(quota), period) : 0;
    }
    snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir);
    if ((f = fopen(path, "r"))) {
        if (fscanf(f, "%lld", &q) != 1)
            q = 0;
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
    if ((f = fopen(path, "r"))) {
        if (fscanf(f, "%lld", &period) != 1)
            period = 0;
        fclose(f);
    }
    return quota_cpus(q, period);
}

/* The tightest quota from cgroup folder mount+rel up to mount. */
static int path_limit(const char *mount, const char *rel)
{
    char dir[4096];
    int best = 0;
    snprintf(dir, sizeof dir, "%s%s", mount, strcmp(rel, "/") == 0 ? "" : rel);
    for (;;) {
        const int c = folder_limit(dir);
        if (c > 0 && (best == 0 || c < best))
            best = c;
        char *slash = strrchr(dir, '/');
        if (strlen(dir) <= strlen(mount) || !slash)
            return best;
        *slash = '\0';
    }
}

/* Whether comma-separated list has the item "cpu" ("cpu,cpuacct"). */
static int lists_cpu(const char *list, size_t n)
{
    for (const char *p = list; p < list + n;) {
        const char *comma = memchr(p, ',', (size_t)(list + n - p));
        const size_t len = comma ? (size_t)(comma - p) : (size_t)(list + n - p);
        if (len == 3 && memcmp(p, "cpu", 3) == 0)
            return 1;
        p += len + 1;
    }
    return 0;
}

int nr_cgroup_cpu_limit(const char *proc_cgroup, const char *fs_root)
{
    int best = 0;
    for (const char *line = proc_cgroup; line && *line;) {
        const char *end = strchr(line, '\n');
        const size_t n = end ? (size_t)(end - line) : strlen(line);
        const char *c1 = memchr(line, ':', n), *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(line + n - c1 - 1)) : NULL;
        char rel[4096], mount[4200];
        if (c2 && (size_t)(line + n - c2 - 1) < sizeof rel) {
            memcpy(rel, c2 + 1, (size_t)(line + n - c2 - 1));
            rel[line + n - c2 - 1] = '\0';
            const int v2 = c2 == c1 + 1 && strncmp(line, "0:", 2) == 0;
            if (v2 || lists_cpu(c1 + 1, (size_t)(c2 - c1 - 1))) {
                snprintf(mount, sizeof mount, "%s%s", fs_root, v2 ? "" : "/cpu");
                const int c = rel[0] == '/' ? path_limit(mount, rel) : 0;
                if (c > 0 && (best == 0 || c < best))
                    best = c;
            }
        }
        line = end ? end + 1 : NULL;
    }
    return best;
}

/* The text of /proc/self/cgroup (new string), NULL when unreadable. */
static char *read_proc_cgroup(void)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return NULL;
    char *text = calloc(1, 65536);
    if (text && fread(text, 1, 65535, f) == 0) {
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

/* The CPUs of this thread's affinity mask, 0 when unknown. */
static int affinity_cpus(void)
{
    const int max = 8192;
    cpu_set_t *set = CPU_ALLOC(max);
    const size_t size = CPU_ALLOC_SIZE(max);
    const int n = set && sched_getaffinity(0, size, set) == 0 ? CPU_COUNT_S(size, set) : 0;
    CPU_FREE(set);
    return n;
}

int nr_cores(void)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    int n = online > 0 ? (int)online : 1;
    const int allowed = affinity_cpus();
    if (allowed > 0 && allowed < n)
        n = allowed;
    char *cgroup = read_proc_cgroup();
    const int quota = cgroup ? nr_cgroup_cpu_limit(cgroup, "/sys/fs/cgroup") : 0;
    free(cgroup);
    return quota > 0 && quota < n ? quota : n;
}

static void take_items(pool *p)
{
    for (;;) {
        pthread_mutex_lock(&p->mu);
        size_t i = p->next++;
        pthread_mutex_unlock(&p->mu);
        if (i >= p->n)
            return;
        p->item(p->ctx, i);
    }
}

static void *worker(void *arg)
{
    pool *p = arg;
    take_items(p);
    if (p->thread_end)
        p->thread_end();
    return NULL;
}

void nr_parallel_for(size_t n, int threads, void (*item)(void *ctx, size_t i), void *ctx,
                     void (*thread_end)(void))
{
    pool p = {.n = n, .item = item, .ctx = ctx, .thread_end = thread_end};
    size_t want = threads > 1 ? (size_t)threads : 1;
    if (want > n)
        want = n;
    size_t extra = want > 1 ? want - 1 : 0;
    pthread_t *tid = extra ? calloc(extra, sizeof *tid) : NULL;
    if (!tid)
        extra = 0; /* no memory for threads: all on this one */
    pthread_mutex_init(&p.mu, NULL);
    size_t started = 0;
    for (; started < extra; started++)
        if (pthread_create(&tid[started], NULL, worker, &p) != 0)
            break;
    take_items(&p);
    for (size_t t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&p.mu);
    free(tid);
}
