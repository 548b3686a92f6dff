#!/usr/bin/python3
"""Runs `niorep summary --json` on run A (tests/model/fixture_runs.c) and checks
the schema's fields and the known answers derived there."""
import json
import math
import subprocess
import sys

niorep, store = sys.argv[1], sys.argv[2]
out = subprocess.run([niorep, "summary", store, "--json", "--bootstraps", "0"],
                     check=True, capture_output=True, text=True).stdout
s = json.loads(out)
failures = []


def check(path, expected, tol=1e-9):
    node = s
    for key in path.split("."):
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(expected, float) and node is not None:
        ok = math.isclose(node, expected, rel_tol=tol, abs_tol=tol)
    else:
        ok = node == expected
    if not ok:
        failures.append(f"{path}: got {node!r}, expected {expected!r}")


check("schema_version", 22)
check("latency.job_files.other_phases", None)  # 4 phases: none folds (version 14)
# the timeline's zero: the first event's stamp (100 ms), in integer ns; the
# fixture's store has no meta time_base
check("timeline.start_ns", 100000000)
check("timeline.time_base", None)
check("latency.by_fs.0.fs", "unknown")
check("latency.by_fs.1.fs", "/data")
check("fidelity.whole_second_stamps", False)  # run A's stamps have microseconds
check("fidelity.mmap_bytes", 0)  # run A maps nothing (test_model mappings_by_hand counts by hand)
check("fidelity.mmap_job", {"calls": 0, "bytes": 0, "files": 0})
# marks (fixture_runs.c): epochs at 2 s (train) and 4.5 s (train again), a step
# at 4.6 s (unphased); times from the timeline's start, the first event at 100 ms
check("marks.count", 3)
check("marks.by_name", {"epoch": 2, "step": 1})
check("marks.other_names", 0)
check("marks.list.0.t_s", 1.9)
check("marks.list.0.phase", "train")
check("marks.list.0.attrs", {"loss": 0.5, "n": 0})
check("marks.list.1.t_s", 4.4)
check("marks.list.2.phase", "unphased")
check("marks.list.2.attrs", {})
check("marks.list.2.pid", 200)
for key, value in {"bytes_read": 140364, "bytes_written": 1048576, "read_calls": 6, "write_calls": 1,
                   "files_read": 2, "files_written": 1, "processes": 4}.items():
    check("totals." + key, value)
check("totals.duration_s", 4.900007, 1e-6)
names = [p["name"] for p in s["phases"]]
if names != ["data_prep", "train", "checkpoint", "unphased"]:
    failures.append(f"phases: {names}")
check("phases.1.wall_s", 3.0)
check("phases.1.bytes_read", 132172)
check("phases.1.read_calls", 4)
check("phases.1.io_time_s", 0.00308, 1e-6)
check("phases.2.bytes_written", 1048576)
check("phases.2.write_calls", 1)
check("phases.2.io_time_s", 0.03, 1e-6)
for field in ("gini", "top1_share", "top10_share", "files_for_90", "files_for_90pct"):
    for prefix in ("concentration.", "concentration.read.", "concentration.write."):
        node = s["concentration"] if prefix == "concentration." else s["concentration"][prefix.split(".")[1]]
        if field not in node:
            failures.append(f"missing {prefix}{field}")
# bytes per file: a 8292, b 132072, c 1048576 -> the top third (1 of 3 files) holds c
check("concentration.files", 3)
check("concentration.top1_share", 1048576 / 1188940, 1e-6)
check("concentration.files_for_90", 2 / 3, 1e-6)
# whole numbers printed whole, every digit (6 significant digits gave 1188940.0)
if '"total_bytes": 1188940,' not in out:
    failures.append("concentration.total_bytes is not printed as the whole number 1188940")
for field in ("alpha", "xmin", "ks_d", "p_value", "vs_lognormal_R", "vs_lognormal_p"):
    if field not in s["powerlaw"]:
        failures.append(f"missing powerlaw.{field}")
# the job's files by the bytes they moved (version 15): a, b read; c written; d untouched
# with their sizes (version 16): a 8292 B (100 B read at 8192), b 196608
# (64 kB at 128 kB), c 1 MB, d none
for use, want in {"read_only": [2, 140364, 0, 2, 102450.0, 196608],
                  "write_only": [1, 0, 1048576, 1, 1048576.0, 1048576],
                  "read_write": [0, 0, 0, 0, None, None], "no_bytes": [1, 0, 0, 0, None, None]}.items():
    for field, value in zip(("files", "bytes_read", "bytes_written", "sized_files", "mean_size", "max_size"), want):
        check(f"access.files_by_use.{use}.{field}", value)
# the most common access sizes (version 17), by hand: reads 4096 B x2,
# 65536 B x2, 1000 B, 100 B (the 999 B pipe read is no file's), a 1 MB
# write; equal calls, the smaller size first; 7 calls, 5 sizes, all counted
check("access.common_sizes", {"calls": 7, "exact": True, "unlisted_at_most": 0, "list": [
    {"bytes": 4096, "calls": 2, "reads": 2, "writes": 0}, {"bytes": 65536, "calls": 2, "reads": 2, "writes": 0},
    {"bytes": 100, "calls": 1, "reads": 1, "writes": 0}, {"bytes": 1000, "calls": 1, "reads": 1, "writes": 0}]})
# bytes read again (version 18): a's reads 0-4096, 4096-8192, 8192-8292 reach
# its 8292 B; b's 0-65536, 131072-196608 and 0-1000 reach 196608 B, which is
# more than the 132072 B they moved, so the bound counts none of b's 1000 B
# read a second time
check("access.rereads", {"bytes_placed": 140364, "extent_bytes": 204900, "at_least_bytes": 0, "files": 0,
                         "share": 0.0, "passes_at_least": 1.0})
# bytes per file system (version 15): c and d under no listed mount, a and b on /data
check("file_systems", [{"fs": "unknown", "files": 2, "bytes_read": 0, "bytes_written": 1048576},
                       {"fs": "/data", "files": 2, "bytes_read": 140364, "bytes_written": 0}])
text = subprocess.run([niorep, "summary", store, "--bootstraps", "0"], check=True, capture_output=True,
                      text=True).stdout
if ("job files by bytes moved: 2 read only (140364 bytes read), 1 written only (1048576 bytes written), "
        "0 read and written (0 read, 0 written), 1 none (opened, looked up or read at their end only)\n"
        "job file sizes (furthest offset reached): read only: 2 with a size, mean 102450 bytes, largest 196608 "
        "bytes; written only: 1 with a size, mean 1048576 bytes, largest 1048576 bytes; read and written: none "
        "with a size; no bytes: none with a size\n"
        ) not in text:
    failures.append("summary text: no line of the job files by bytes moved: "
                    + "".join(line for line in text.splitlines(True) if "job files" in line))
if ("most common access sizes of the job files' 7 reads and writes with a size: 4096 bytes 2 calls (2 reads, "
        "0 writes); 65536 bytes 2 calls (2 reads, 0 writes); 100 bytes 1 call (1 read, 0 writes); 1000 bytes 1 "
        "call (1 read, 0 writes)\n") not in text:
    failures.append("summary text: no line of the most common access sizes: "
                    + "".join(line for line in text.splitlines(True) if "access sizes" in line))
if ("re-reads: at least 0 of the 140364 bytes the job files' reads moved at known offsets (0.0%, in 0 files) had "
        "been read before: each byte read 1.00 times at least, on average\n") not in text:
    failures.append("summary text: no line of the re-reads: "
                    + "".join(line for line in text.splitlines(True) if "re-reads" in line))
if "  file system unknown: 2 files, read 0 B, wrote 1.0 MiB\n  file system /data: 2 files, read 137.1 KiB, wrote 0 B\n" \
        not in text:
    failures.append("summary text: no lines per file system: "
                    + "".join(line for line in text.splitlines(True) if "file system" in line))
check("latency.read.count", 6)
check("latency.read.p50", 100e-6, 1e-6)
check("latency.read.p90", 2e-3, 1e-6)
check("latency.read.max", 2e-3, 1e-6)
# the job files' latency (schema 13, figure 4's): run A has no runtime file,
# so it is every file's; train's job-file reads 30 us, 50 us, 1 ms, 2 ms ->
# p50 rank 2 = 50 us; and no phase has runtime bytes
check("latency.job_files.read.count", 6)
check("latency.job_files.read.p50", 100e-6, 1e-6)
check("latency.job_files.by_phase.1.phase", "train")
check("latency.job_files.by_phase.1.read.count", 4)
check("latency.job_files.by_phase.1.read.p50", 50e-6, 1e-6)
check("latency.job_files.by_phase.2.write.count", 1)
check("phases.1.runtime_bytes_read", 0)
check("phases.2.runtime_bytes_written", 0)
check("phases.2.runtime_io_time_s", 0.0)
for op in ("read", "write", "open", "sync"):
    for q in ("count", "p50", "p90", "p99", "p999", "p9999", "max"):
        if q not in s["latency"][op]:
            failures.append(f"missing latency.{op}.{q}")
check("latency.write.p50", 0.01, 1e-6)
check("latency.sync.max", 0.02, 1e-6)
check("latency.open.count", 1)
check("access.read.size_hist.1K-10K", 2)
check("access.read.consecutive", 2)
check("access.read.sequential", 1)
check("access.read.random", 1)
check("access.median_read_size", 4096)
check("nonfile.pipe.bytes_read", 999)
check("processes.main_pid", 100)
check("processes.roles.worker.bytes_read", 132072)
check("fidelity.processes_io_no_phase", 1)
check("diagnostics.unfinished_calls", 0)
if not isinstance(s["bursts"], list):
    failures.append("bursts is not a list")
# the checkpoint's one write (fixture_runs.c): 1 MiB at 3.5 s for 10 ms, the
# timeline starting at the first event (100 ms): measured from the call
check("bursts.0.phase", "checkpoint")
check("bursts.0.start_s", 3.4)
check("bursts.0.end_s", 3.41)
check("bursts.0.duration_s", 0.01)
check("bursts.0.bytes", 1048576)
check("bursts.0.calls", 1)
check("bursts.0.mean_rate", 104857600.0, 1e-5)  # JSON reals keep 6 digits
check("bursts.0.interval_s", None)
check("burst_totals", {"count": 1, "listed": 1, "bytes": 1048576, "calls": 1, "time_s": 0.01,
                       "highest_rate": 104858000.0})  # JSON reals keep 6 digits
if len(s["bursts"]) != 1 or "peak_rate" in s["bursts"][0]:
    failures.append(f"bursts: {s['bursts']}")
ids = [f["id"] for f in s["findings"]]
if ids != ["async_checkpoints"]:
    failures.append(f"findings: {ids}")
# every rule has an outcome; the fired ones are the findings, and a rule
# that did not look says why (docs/findings.md, "Outcomes")
rules = {r["id"]: r for r in s["rules"]}
if list(rules) != ["hot_set", "small_reads", "small_files", "async_checkpoints", "cache_miss_tail", "data_bound",
                   "runtime_reads", "rereads", "mapped_data", "batch_wait", "loader_start", "killed_sigkill",
                   "killed_sigbus"]:
    failures.append(f"rules: {list(rules)}")
# nothing read again: measured, 0 B of the 1 GiB the rule needs (version 18)
check("rules.7.state", "gate not met")
check("rules.7.value", 0.0)
check("rules.7.why", "0.00 GiB were read again, at least; the rule needs 1 GiB")
# nothing mapped: measured (run A reads its job files), 0 of the 100 MiB the rule needs (version 19)
check("rules.8.state", "gate not met")
check("rules.8.value", 0.0)
check("rules.8.why", "0 MiB of job files were mapped; the rule needs 100 MiB")
# train's waits: 12.5% of its time per waiting thread, 0.25 s of the 5.5 s
# after the first items of its two passes, under the 30% (version 21);
# those first items 0.5 s / 6 s, under loader_start's 10%
check("rules.9.state", "not fired")
check("rules.9.value", 0.25 / 5.5, 1e-6)
check("rules.10.state", "not fired")
check("rules.10.value", 0.5 / 6, 1e-6)
# every process of fixture run A exited 0 (version 22): none killed
check("rules.11.state", "not fired")
check("rules.11.value", 0.0)
check("rules.11.unit", "processes")
check("rules.12.state", "not fired")
check("processes.ends.exited_zero", {"main": 1, "worker": 2, "other": 1})
check("processes.ends.failed", [])
# waits (fixture_runs.c): train's four of two threads, one unphased (version 20),
# the first items of two passes apart (version 21)
check("phases.1.waits", {"count": 4, "threads": 2, "seconds": 0.75, "share": 0.125, "p50_s": 0.15, "p99_s": 0.3,
                         "max_s": 0.3, "passes": 2, "start_seconds": 0.5, "start_max_s": 0.3,
                         "start_share": 0.0833333, "steady_share": 0.0454545, "steady_max_s": 0.15,
                         "steady_p50_s": 0.1, "steady_p99_s": 0.15})
# (0.5 / 6 and 0.25 / 5.5 to 6 digits)
check("phases.0.waits", {"count": 0, "threads": 0, "seconds": 0.0, "share": None, "p50_s": None, "p99_s": None,
                         "max_s": None, "passes": 0, "start_seconds": 0.0, "start_max_s": None,
                         "start_share": None, "steady_share": None, "steady_max_s": None,
                         "steady_p50_s": None, "steady_p99_s": None})
check("phases.3.waits.count", 1)
check("phases.3.waits.share", None)
check("waits.count", 5)
check("waits.threads", 3)
check("waits.seconds", 0.76)
check("waits.share", 0.76 / (4.900007 * 3), 1e-6)
check("waits.p50_s", 0.15)
check("waits.p99_s", 0.3)
check("waits.passes", 2)
check("waits.start_seconds", 0.5)
check("waits.steady_p50_s", 0.1)   # the steady 0.15, 0.1 and the unphased 0.01
check("waits.steady_p99_s", 0.15)
check("waits.steady_share", 0.26 / (4.900007 * 3 - 0.5), 1e-6)
if [r["id"] for r in s["rules"] if r["state"] == "fired"] != ids:
    failures.append(f"fired rules {[r['id'] for r in s['rules'] if r['state'] == 'fired']} are not the findings {ids}")
for r in s["rules"]:
    if r["state"] not in ("fired", "not fired", "gate not met", "not applicable"):
        failures.append(f"rule {r['id']}: state {r['state']}")
    if (r["why"] is None) != (r["state"] in ("fired", "not fired")):
        failures.append(f"rule {r['id']}: {r['state']} with why {r['why']!r}")
    if (r["value"] is None) != (r["state"] == "not applicable"):
        failures.append(f"rule {r['id']}: {r['state']} with value {r['value']!r}")
    if r["unit"] not in ("share", "B", "processes") or r["fires"] not in ("below", "above") or not r["number"]:
        failures.append(f"rule {r['id']}: {r}")
check("rules.3.value", s["findings"][0]["value"])
# deterministic: a second run prints the same bytes
again = subprocess.run([niorep, "summary", store, "--json", "--bootstraps", "0"],
                       check=True, capture_output=True, text=True).stdout
if again != out:
    failures.append("two runs differ")
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
