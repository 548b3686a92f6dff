#!/usr/bin/python3
"""Runs of more -ff logs than the soft limit of open files.

An ingest holds open the logs whose lines it is merging at the time, and a
job traced with -ff writes one log per thread. With 300 logs of threads
that run one after the other:
  - under a soft limit of 64 (the hard limit as it is), `niorep ingest`
    raises the soft limit and ingests all 300 processes;
  - the store is the same at -j 1 and -j 2;
  - under a hard limit of 64 too, it ingests them all the same: a log not
    reached yet, or read to its end, holds no fd (nr_logsrc_rest).
With 100 logs of threads that all run at once, each longer than the
ingest's chunk of it, a hard limit of 64 is too low: it exits 1 with one
line naming a log, the limit and what to do.

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
OVERLAPPING = 100
OVERLAPPING_READS = 4000  # about 300 kB a log: more than the -j 1 chunk of one of 100 logs (240 kB)


def clone_line(t, child):
    return ("%.6f clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
            "child_tidptr=0x7f) = %d <0.000050>\n" % (t, child))


def write_run(run):
    """A parent that clones LOGS - 1 children, each reading its own file."""
    if os.path.isdir(run):
        shutil.rmtree(run)
    os.makedirs(run)
    t0 = 1700000000.0
    with open(os.path.join(run, "strace.log.1000"), "w") as f:
        for i in range(1, LOGS):
            f.write(clone_line(t0 + i * 0.001, 1000 + i))
    for i in range(1, LOGS):
        t = t0 + i * 0.001 + 0.0005
        with open(os.path.join(run, "strace.log.%d" % (1000 + i)), "w") as f:
            f.write('%.6f openat(AT_FDCWD, "/data/f%d.bin", O_RDONLY) = 3 <0.000010>\n' % (t, i))
            for k in range(20):
                f.write('%.6f read(3, "abcd", 4) = 4 <0.000002>\n' % (t + (k + 1) * 1e-6))
            f.write("%.6f close(3) = 0 <0.000001>\n+++ exited with 0 +++\n" % (t + 0.0001))


def write_overlapping_run(run):
    """A parent that clones OVERLAPPING - 1 children at once; each reads its
    file in OVERLAPPING_READS calls spread over the same second."""
    if os.path.isdir(run):
        shutil.rmtree(run)
    os.makedirs(run)
    t0 = 1700000000.0
    with open(os.path.join(run, "strace.log.1000"), "w") as f:
        for i in range(1, OVERLAPPING):
            f.write(clone_line(t0 + i * 1e-6, 1000 + i))
    for i in range(1, OVERLAPPING):
        t = t0 + 0.001
        lines = ['%.6f openat(AT_FDCWD, "/data/f%d.bin", O_RDONLY) = 3 <0.000010>\n' % (t, i)]
        for k in range(OVERLAPPING_READS):
            lines.append('%.6f read(3, "abcdabcd", 8) = 8 <0.000002>\n' % (t + (k + 1) * 2e-4 + i * 1e-6))
        lines.append("%.6f close(3) = 0 <0.000001>\n+++ exited with 0 +++\n" % (t + 0.9))
        with open(os.path.join(run, "strace.log.%d" % (1000 + i)), "w") as f:
            f.writelines(lines)


def expect_limit_message(p, store, failures, case):
    lines = p.stderr.strip().splitlines()
    if p.returncode != 1 or len(lines) != 1 or "strace.log." not in lines[0] or \
            "ulimit -n, is %d" % LIMIT not in lines[0] or os.path.exists(store):
        failures.append("%s: exit %d, stderr %r" % (case, p.returncode, p.stderr))


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
    if p.returncode != 0 or "%d processes" % LOGS not in p.stderr:
        failures.append("hard limit %d, threads one after the other: exit %d, %s"
                        % (LIMIT, p.returncode, p.stderr.strip()))

    overlapping = os.path.join(a.out, "overlapping")
    write_overlapping_run(overlapping)
    store = os.path.join(a.out, "overlapping.nio")
    if os.path.exists(store):  # a last run's: this run must not make it
        os.remove(store)
    p = subprocess.run([a.niorep, "ingest", "-j", "1", overlapping, "-o", store], capture_output=True,
                       text=True, preexec_fn=limit(LIMIT, LIMIT))
    expect_limit_message(p, store, failures, "hard limit %d, %d threads at once" % (LIMIT, OVERLAPPING))
    p = subprocess.run([a.niorep, "ingest", "-j", "1", overlapping, "-o", store], capture_output=True,
                       text=True, preexec_fn=limit(LIMIT, None))
    if p.returncode != 0 or "%d processes" % OVERLAPPING not in p.stderr:
        failures.append("soft limit %d, %d threads at once: exit %d, %s"
                        % (LIMIT, OVERLAPPING, p.returncode, p.stderr.strip()))

    for f in failures:
        print("FAIL", f)
    print("many_logs: %d logs, %d failures" % (LOGS, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
