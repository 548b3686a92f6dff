#!/usr/bin/env python3
"""End-to-end test of how the processes ended (ctest label e2e).

A Python program traced by the built `niorep trace` ends its children in
every way the model tells apart (docs/definitions.md, "How processes
ended"):

- a child Python that exits with status 3 (subprocess);
- a forked child that kills itself with SIGKILL, as the kernel's
  out-of-memory killer would: a fork without an execve of its own, whose
  program is its parent's;
- a forked child that reads a mapped file truncated under it: SIGBUS, as
  a DataLoader worker writing into a full /dev/shm gets;
- two multiprocessing Pool workers that Pool.terminate() ends with SIGTERM
  in the middle of their task;
- the program itself, which exits with status 0.

summary --json must count them so, per role and per signal, list each
failed one with its program and the stamp of its end, say that killed
Python processes put hook lines at risk, and agree with an independent
count of the log's "+++ exited with N +++" and "+++ killed by SIG +++"
lines over its processes (tids not made by a clone with CLONE_THREAD).
The rules killed_sigkill and killed_sigbus fire; the text summary and the
report show the same."""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

from e2e_trace import PYTHON, check, fail

PROGRAM = r'''
import mmap, multiprocessing as mp
import os, signal, subprocess, sys, time


def work(i):
    time.sleep(30)


if __name__ == "__main__":
    subprocess.run([sys.executable, "-c", "import sys; sys.exit(3)"])
    pid = os.fork()
    if pid == 0:
        os.kill(os.getpid(), signal.SIGKILL)
    os.waitpid(pid, 0)
    bus = os.fork()
    if bus == 0:
        fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
        os.write(fd, b"x" * 4096)
        mm = mmap.mmap(fd, 4096)
        os.ftruncate(fd, 0)
        mm[0]
        os._exit(0)
    os.waitpid(bus, 0)
    pool = mp.get_context("fork").Pool(2)
    pool.map_async(work, range(2))
    time.sleep(0.5)
    pool.terminate()
    pool.join()
    print(os.getpid(), pid, bus)
'''

LINE = re.compile(r"^(\d+)\s+\S+\s+(.*)$")
CLONE_THREAD = re.compile(r"^clone3?\(.*CLONE_THREAD.*\) = (\d+)")
CLONE_THREAD_UNFINISHED = re.compile(r"^clone3?\(.*CLONE_THREAD.*<unfinished \.\.\.>$")
CLONE_RESUMED = re.compile(r"^<\.\.\. clone3? resumed>.* = (\d+)")
END = re.compile(r"^\+\+\+ (?:exited with (\d+)|killed by (SIG\w+)(?: \(core dumped\))?) \+\+\+$")


def ends_from_log(path):
    """(exit code by process, signal by process) from the log's lines, threads left out."""
    threads, exited, killed, cloning = set(), {}, {}, set()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if not m:
                continue
            tid, rest = int(m.group(1)), m.group(2)
            c = CLONE_THREAD.match(rest)
            if c:
                threads.add(int(c.group(1)))
            if CLONE_THREAD_UNFINISHED.match(rest):
                cloning.add(tid)
            r = CLONE_RESUMED.match(rest)
            if r and tid in cloning:
                cloning.discard(tid)
                threads.add(int(r.group(1)))
            e = END.match(rest)
            if e and e.group(1) is not None:
                exited[tid] = int(e.group(1))
            elif e:
                killed[tid] = e.group(2)
    return ({t: c for t, c in exited.items() if t not in threads},
            {t: s for t, s in killed.items() if t not in threads})


def failed_by(ends, pid):
    """The signal that killed pid, as summary --json lists it, or None."""
    return next((x["killed_by"] for x in ends["failed"] if x["pid"] == pid), None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--niorep", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    prog, run = os.path.join(a.work, "prog.py"), os.path.join(a.work, "run")
    with open(prog, "w") as f:
        f.write(PROGRAM)
    mapped = os.path.join(a.work, "mapped.bin")
    p = subprocess.run([a.niorep, "trace", "-o", run, "--", PYTHON, prog, mapped], capture_output=True, text=True,
                       timeout=120)
    check(p.returncode == 0, f"trace exit {p.returncode}: {p.stderr[-2000:]}")
    main_pid, killed_pid, bus_pid = (int(x) for x in p.stdout.split())
    store = os.path.join(a.work, "run.nio")
    subprocess.run([a.niorep, "ingest", "-q", run, "-o", store], check=True)
    s = json.loads(subprocess.run([a.niorep, "summary", store, "--json", "--bootstraps", "0"], check=True,
                                  capture_output=True, text=True).stdout)
    ends = s["processes"]["ends"]
    print(json.dumps(ends, indent=1, sort_keys=True)[:3000])

    exited, killed = ends_from_log(os.path.join(run, "strace.log"))
    total = lambda kind: sum(ends[kind].values())
    check(total("exited_zero") == sum(1 for c in exited.values() if c == 0),
          f"exited_zero {ends['exited_zero']}, the log {sum(1 for c in exited.values() if c == 0)}")
    check(total("exited_nonzero") == sum(1 for c in exited.values() if c != 0),
          f"exited_nonzero {ends['exited_nonzero']}, the log {sum(1 for c in exited.values() if c != 0)}")
    by_signal = collections.Counter(killed.values())
    check(total("killed") == len(killed), f"killed {ends['killed']}, the log {len(killed)}")
    check({x["signal"]: x["main"] + x["worker"] + x["other"] for x in ends["by_signal"]} == dict(by_signal),
          f"by_signal {ends['by_signal']}, the log {dict(by_signal)}")
    check(total("exited_zero") + total("exited_nonzero") + total("killed") + total("unseen") ==
          s["totals"]["processes"], f"the ends do not add up to {s['totals']['processes']} processes")
    check(by_signal["SIGKILL"] == 1 and by_signal["SIGBUS"] == 1 and by_signal["SIGTERM"] == 2,
          f"the log's signals {dict(by_signal)}")
    check(failed_by(ends, bus_pid) == "SIGBUS", f"the truncated mapping's reader {bus_pid} died of SIGBUS")
    check(ends["exited_zero"]["main"] == 1 and main_pid not in killed and exited.get(main_pid) == 0,
          "the program's own exit 0 is main's")

    failed = {x["pid"]: x for x in ends["failed"]}
    check(set(failed) == {t for t, c in exited.items() if c != 0} | set(killed),
          f"failed lists {sorted(failed)}")
    k = failed.get(killed_pid)
    check(k is not None and k["killed_by"] == "SIGKILL" and k["exit_code"] is None and k["role"] == "worker",
          f"the SIGKILL'd fork {killed_pid}: {k}")
    check(k["program"] == PYTHON or os.path.basename(k["program"]).startswith("python"),
          f"the fork runs its parent's program: {k['program']!r}")
    check(k["end_s"] is not None and 0 <= k["end_s"] <= s["totals"]["duration_s"] + 1e-6,
          f"the fork's end {k['end_s']} is within the run")
    three = [x for x in ends["failed"] if x["exit_code"] == 3]
    check(len(three) == 1 and three[0]["killed_by"] is None and three[0]["ppid"] == main_pid,
          f"one child exited with 3: {three}")
    terms = [x for x in ends["failed"] if x["killed_by"] == "SIGTERM"]
    check(len(terms) == 2 and all(x["role"] == "worker" and x["ppid"] == main_pid for x in terms),
          f"the Pool's two workers died of SIGTERM: {terms}")
    check(ends["python_killed"] and ends["hook_lines_at_risk"], "killed Python processes put hook lines at risk")
    fired = {f["id"]: f for f in s["findings"]}
    check("killed_sigkill" in fired and fired["killed_sigkill"]["value"] == 1, "killed_sigkill fires on the fork")
    check("killed_sigbus" in fired and fired["killed_sigbus"]["value"] == 1, "killed_sigbus fires on the reader")
    print("ok: summary --json counts the ends as the log does, per role and per signal")

    text = subprocess.run([a.niorep, "summary", store, "--bootstraps", "0"], check=True, capture_output=True,
                          text=True).stdout
    check("killed by a signal (SIGBUS 1, SIGKILL 1, SIGTERM 2)" in text, "the text summary's process ends line")
    check(re.search(r"^%d\s+worker\s+[0-9.]+\s+SIGKILL " % killed_pid, text, re.M) is not None,
          "the text summary lists the SIGKILL'd fork")
    check("loses the hook lines it had not written yet" in text, "the text summary's hook note")
    report = os.path.join(a.work, "report.html")
    traces = os.path.join(a.work, "traces")
    os.makedirs(traces)
    shutil.copytree(run, os.path.join(traces, "ends"))
    subprocess.run([a.niorep, "build", traces, "-o", report], check=True, capture_output=True)
    with open(report, encoding="utf-8") as f:
        page = f.read()
    check("How the processes ended" in page and 'data-nr-key="processes.ends.killed.worker" data-nr-value="4"'
          in page, "the report's table of ends")
    check("loses the hook records it had not written" in page, "the report's hook note")
    print("ok: the text summary and the report show them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
