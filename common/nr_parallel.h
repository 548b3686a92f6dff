/* nr_parallel: one index range spread over a few threads, the caller's own
 * among them (the work of `niorep build` across runs and across figures,
 * the opening of an ingest's many logs). */
#ifndef NR_PARALLEL_H
#define NR_PARALLEL_H

#include <stddef.h>

/* The number of cores this process may use (at least 1): the online ones,
 * fewer when its CPU affinity (taskset, a Slurm or Kubernetes cpuset) or
 * the CFS quota of its cgroup (v2 cpu.max, v1 cpu.cfs_quota_us, along the
 * cgroup's path: a Kubernetes CPU limit, docker --cpus) allows fewer. The
 * default of every --jobs. */
int nr_cores(void);
/* The CPUs the CFS quotas of the cgroups listed in proc_cgroup (the text
 * of /proc/self/cgroup) allow, with cgroup file systems mounted under
 * fs_root ("/sys/fs/cgroup"): the tightest along each path, rounded up;
 * 0 when none limits. For nr_cores and its tests. */
int nr_cgroup_cpu_limit(const char *proc_cgroup, const char *fs_root);

/* Calls item(ctx, i) once for every i in [0, n), on up to `threads` threads
 * (the calling one included; fewer when n is smaller or a thread cannot be
 * started: the results are the same) and returns when every call has
 * returned. item must touch only what belongs to index i. Each thread this
 * starts calls thread_end (when not NULL) before it ends. */
void nr_parallel_for(size_t n, int threads, void (*item)(void *ctx, size_t i), void *ctx,
                     void (*thread_end)(void));

#endif
