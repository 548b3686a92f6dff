#!/usr/bin/python3
"""A run of more -ff logs than the soft limit of open files.

An ingest holds every log of a run open while it merges them by time, and a
job traced with -ff writes one log per thread. With 300 logs:
  - under a soft limit of 64 (the hard limit as it is), `niorep ingest`
    raises the soft limit and ingests all 300 processes;
  - under a hard limit of 64 too, it exits 1 with one line naming a log,
    the limit and what to do;
  - the store is the same at -j 1 and -j 2.

Exit status 0 when every case behaves, 1 otherwise.
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys

LOGS = 300
LIMIT = 64


def write_run(run):
    """A parent that clones LOGS - 1 children, each reading its own file."""
    if os.path.isdir(run):
        shutil.rmtree(run)
    os.makedirs(run)
    t0 = 1700000000.0
    with open(os.path.join(run, "strace.log.1000"), "w") as f:
        for i in range(1, LOGS):
            f.write("%.6f clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
                    "child_tidptr=0x7f) = %d <0.000050>\n" % (t0 + i * 0.001, 1000 + i))
    for i in range(1, LOGS):
        t = t0 + i * 0.001 + 0.0005
        with open(os.path.join(run, "strace.log.%d" % (1000 + i)), "w") as f:
            f.write('%.6f openat(AT_FDCWD, "/data/f%d.bin", O_RDONLY) = 3 <0.000010>\n' % (t, i))
            for k in range(20):
                f.write('%.6f read(3, "abcd", 4) = 4 <0.000002>\n' % (t + (k + 1) * 1e-6))
            f.write("%.6f close(3) = 0 <0.000001>\n+++ exited with 0 +++\n" % (t + 0.0001))


def limit(soft, hard):
    def set_limit():
        _, cur_hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, cur_hard if hard is None else hard))
    return set_limit


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--niorep", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    run = os.path.join(a.out, "run")
    write_run(run)
    failures = []
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < LOGS + 64:
        print("many_logs: the hard limit of open files (%d) is below the test's logs; skipped" % hard)
        return 77

    stores = []
    for jobs in (1, 2):
        store = os.path.join(a.out, "j%d.nio" % jobs)
        p = subprocess.run([a.niorep, "ingest", "-j", str(jobs), run, "-o", store], capture_output=True,
                           text=True, preexec_fn=limit(LIMIT, None))
        if p.returncode != 0 or "%d processes" % LOGS not in p.stderr:
            failures.append("soft limit %d, -j %d: exit %d, %s" % (LIMIT, jobs, p.returncode, p.stderr.strip()))
        stores.append(store)
    if not failures:
        with open(stores[0], "rb") as f1, open(stores[1], "rb") as f2:
            if f1.read() != f2.read():
                failures.append("the stores of -j 1 and -j 2 differ")

    store = os.path.join(a.out, "low.nio")
    p = subprocess.run([a.niorep, "ingest", run, "-o", store], capture_output=True, text=True,
                       preexec_fn=limit(LIMIT, LIMIT))
    lines = p.stderr.strip().splitlines()
    if p.returncode != 1 or len(lines) != 1 or "strace.log." not in lines[0] or \
            "ulimit -n, is %d" % LIMIT not in lines[0] or os.path.exists(store):
        failures.append("hard limit %d: exit %d, stderr %r" % (LIMIT, p.returncode, p.stderr))

    for f in failures:
        print("FAIL", f)
    print("many_logs: %d logs, %d failures" % (LOGS, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
