#!/usr/bin/env python3
"""Overhead of the Python hook alone (no strace): runs one reference
workload alternately without and with the hook, several times, and prints
the median wall and CPU times (CPU time is less disturbed by other load on
a shared machine) and the overhead in percent.

    /usr/bin/python3 bench/hook_overhead.py [--workload mlp] [--runs 5]

"Without" keeps the same PYTHONPATH (sitecustomize.py loads and does
nothing) and the same phase() calls (no-ops), so the difference is what
recording costs: the patched open, the io records, the JSON lines."""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = "/usr/bin/python3"


def run_once(script, data, work, hook_out):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "workloads"))
    env.pop("NIOREP_HOOK_OUT", None)
    if hook_out:
        if os.path.exists(hook_out):
            os.unlink(hook_out)
        env["NIOREP_HOOK_OUT"] = hook_out
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([PYTHON, script, "--data", data, "--work", work], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return wall, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workload", default="mlp")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    script = os.path.join(REPO, "workloads", "wl_%s.py" % a.workload)
    with tempfile.TemporaryDirectory() as tmp:
        data, work = os.path.join(tmp, "data"), os.path.join(tmp, "work")
        subprocess.run([PYTHON, script, "--data", data, "--work", work, "--init-only"], check=True,
                       stdout=subprocess.DEVNULL)
        hook_out = os.path.join(tmp, "hook.jsonl")
        run_once(script, data, work, None)  # warm the page cache and the .pyc files
        without, with_hook = [], []
        for _ in range(a.runs):  # alternate, so that drifts in machine load hit both
            without.append(run_once(script, data, work, None))
            with_hook.append(run_once(script, data, work, hook_out))
        lines = sum(1 for _ in open(hook_out))
    for i, what in ((0, "wall"), (1, "cpu (all processes)")):
        a0 = [t[i] for t in without]
        a1 = [t[i] for t in with_hook]
        m0, m1 = statistics.median(a0), statistics.median(a1)
        print("%s: workload %s, %d runs each: without hook %.3f s, with hook %.3f s (median); "
              "overhead %+.2f%%" % (what, a.workload, a.runs, m0, m1, 100 * (m1 / m0 - 1)))
        print("  without: " + " ".join("%.3f" % t for t in a0))
        print("  with:    " + " ".join("%.3f" % t for t in a1))
    print("%d hook lines per run" % lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
