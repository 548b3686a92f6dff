#!/usr/bin/python3
"""Independent check of `niorep summary --json` on the committed sample runs.

For each run directory under SAMPLES: ingest it, export tables events, files
and phases as CSV, recompute with numpy the totals, per-phase bytes and calls,
the run duration the exact nearest-rank latency quantiles per op class, the
concentration of the job files' per-file bytes (Gini by mean absolute
difference, top shares, files for 90%) and the runtime files' sums, the two
told apart by tests/pylib/file_role.py (regular files only, calls that never
resumed left out), and compare with the summary. Exit 77 (skip) when there are no samples or the ingest is not built.

usage: check_sample.py NIOREP SAMPLES WORKDIR
"""
import csv
import io
import json
import math
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from file_role import is_runtime_file  # noqa: E402

NEVER_RESUMED = 1 << 2
QUANTILES = {"p50": 0.5, "p90": 0.9, "p99": 0.99, "p999": 0.999, "p9999": 0.9999, "max": 1.0}
LAT_OPS = {"read": "read", "write": "write", "open": "open", "sync": "sync", "metadata": "metadata"}


def export(niorep, store, table):
    out = subprocess.run([niorep, "export", store, "--table", table, "--format", "csv"],
                         check=True, capture_output=True).stdout
    return list(csv.DictReader(io.StringIO(out.decode("latin-1"))))


def nearest_rank(sorted_vals, q):
    n = len(sorted_vals)
    r = q * n
    rank = round(r) if abs(r - round(r)) <= 1e-9 * max(1.0, r) else math.ceil(r)
    return int(sorted_vals[min(max(rank, 1), n) - 1])


def close(a, b, rel=1e-5, abs_tol=1e-9):  # JSON reals carry 6 significant digits
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_tol)


def concentration(values):
    """Gini by the mean absolute difference (not the sorted formula niorep
    uses), top shares with ceil(p*n) files, smallest fraction of files that
    carries 90% of the bytes."""
    x = np.array(sorted(values, reverse=True), dtype=np.float64)
    n, total = len(x), x.sum()
    gini = np.abs(x[:, None] - x[None, :]).sum() / (2.0 * n * n * x.mean())
    top = lambda p: x[:math.ceil(p * n - 1e-9)].sum() / total
    k90 = int(np.searchsorted(np.cumsum(x), 0.9 * total * (1 - 1e-12))) + 1
    return {"gini": gini, "top1_share": top(0.01), "top10_share": top(0.1), "files_for_90": k90 / n}


def check_runtime(name, summary, per_file, runtime, fid, pos, reads, writes, failures):
    """The runtime files' sums: files that moved bytes, bytes read, written."""
    moved = [f for f, b in per_file.items() if b > 0 and f in runtime]
    want = {
        "files": len(moved),
        "bytes_read": int(pos[reads & np.isin(fid, list(runtime))].sum()),
        "bytes_written": int(pos[writes & np.isin(fid, list(runtime))].sum()),
    }
    for key, value in want.items():
        got = summary["runtime_files"][key]
        if got != value:
            failures.append(f"{name}: runtime_files.{key} = {got}, numpy {value}")


def check_layers(name, summary, failures):
    """fidelity.layers recounted from fidelity.hook_vs_strace."""
    rows = [r for r in summary["fidelity"]["hook_vs_strace"] if r["hook_bytes"] > 0]
    matched = [r for r in rows if r["matched"]]
    equal = [r for r in matched if abs(r["ratio"] - 1) <= 0.01]
    want = {"files": len(rows), "matched": len(matched), "equal": len(equal),
            "more_in_strace": sum(1 for r in matched if r["ratio"] > 1.01),
            "fewer_in_strace": sum(1 for r in matched if r["ratio"] < 0.99)}
    got = summary["fidelity"]["layers"]
    if got != want:
        failures.append(f"{name}: fidelity.layers = {got}, recounted {want}")


def check_concentration(name, summary, fid, pos, reads, writes, runtime, failures):
    """Per-file bytes moved (read + written) over the job's regular files that moved any."""
    per_file = {}
    for mask in (reads, writes):
        for f, b in zip(fid[mask], pos[mask]):
            per_file[int(f)] = per_file.get(int(f), 0) + int(b)
    check_runtime(name, summary, per_file, runtime, fid, pos, reads, writes, failures)
    moved = [b for f, b in per_file.items() if b > 0 and f not in runtime]
    if not moved:
        return
    want = concentration(moved)
    got = summary["concentration"]
    for key, value in want.items():
        if not close(got[key], value, rel=1e-5, abs_tol=1e-6):
            failures.append(f"{name}: concentration.{key} = {got[key]}, numpy {value}")


def check_run(niorep, run_dir, work, failures):
    name = os.path.basename(run_dir.rstrip("/"))
    store = os.path.join(work, name + ".nio")
    ing = subprocess.run([niorep, "ingest", "-o", store, run_dir], capture_output=True, text=True)
    if ing.returncode != 0:
        if "not built" in ing.stderr:
            sys.exit(77)
        failures.append(f"{name}: ingest failed: {ing.stderr.strip()}")
        return
    summary = json.loads(subprocess.run([niorep, "summary", store, "--json", "--bootstraps", "0"],
                                        check=True, capture_output=True, text=True).stdout)
    files = export(niorep, store, "files")
    regular = {int(f["file_id"]) for f in files if f["kind"] == "regular"}
    runtime = {int(f["file_id"]) for f in files if f["kind"] == "regular" and is_runtime_file(f)}
    events = export(niorep, store, "events")
    phases = export(niorep, store, "phases")
    phase_name = {int(p["phase_id"]): p["name"] for p in phases}

    def col(key):
        return np.array([int(e[key]) for e in events], dtype=np.int64)

    op = np.array([e["op_class"] for e in events])
    fid, flags, nbytes = col("file_id"), col("flags"), col("bytes")
    ts, dur, ph = col("ts_ns"), col("dur_ns"), col("phase_id")
    counted = np.isin(fid, list(regular)) & ((flags & NEVER_RESUMED) == 0)
    reads, writes = counted & (op == "read"), counted & (op == "write")
    pos = np.maximum(nbytes, 0)
    t = summary["totals"]
    expect = {
        "bytes_read": int(pos[reads].sum()), "bytes_written": int(pos[writes].sum()),
        "read_calls": int(reads.sum()), "write_calls": int(writes.sum()),
        "files_read": len({f for f, b in zip(fid[reads], pos[reads]) if b > 0}),
        "files_written": len({f for f, b in zip(fid[writes], pos[writes]) if b > 0}),
    }
    for key, value in expect.items():
        if t[key] != value:
            failures.append(f"{name}: totals.{key} = {t[key]}, numpy {value}")
    has_ts = ts >= 0
    if has_ts.any():
        first = int(ts[has_ts].min())
        last = int((ts[has_ts] + np.maximum(dur[has_ts], 0)).max())
        if not close(t["duration_s"], (last - first) * 1e-9):
            failures.append(f"{name}: duration_s {t['duration_s']} vs {(last - first) * 1e-9}")
    for p in summary["phases"]:
        in_phase = np.array([phase_name.get(int(x), "unphased") == p["name"] if x >= 0 else p["name"] == "unphased"
                             for x in ph], dtype=bool) if len(ph) else np.zeros(0, dtype=bool)
        for key, mask in (("bytes_read", reads), ("bytes_written", writes)):
            got, want = p[key], int(pos[mask & in_phase].sum())
            if got != want:
                failures.append(f"{name}: phase {p['name']} {key} = {got}, numpy {want}")
        for key, mask in (("read_calls", reads), ("write_calls", writes)):
            got, want = p[key], int((mask & in_phase).sum())
            if got != want:
                failures.append(f"{name}: phase {p['name']} {key} = {got}, numpy {want}")
    check_concentration(name, summary, fid, pos, reads, writes, runtime, failures)
    check_layers(name, summary, failures)
    for key, cls in LAT_OPS.items():
        sel = counted & (op == cls) & (dur >= 0)
        vals = np.sort(dur[sel])
        lat = summary["latency"][key]
        if lat["count"] != len(vals):
            failures.append(f"{name}: latency.{key}.count = {lat['count']}, numpy {len(vals)}")
            continue
        for field, q in QUANTILES.items():
            want = nearest_rank(vals, q) * 1e-9 if len(vals) else None
            if not close(lat[field], want):
                failures.append(f"{name}: latency.{key}.{field} = {lat[field]}, numpy {want}")
    return True


def main():
    niorep, samples, work = sys.argv[1:4]
    runs = sorted(os.path.join(samples, d) for d in os.listdir(samples) if not d.startswith(".")) if os.path.isdir(samples) else []
    runs = [r for r in runs if os.path.isdir(r)]
    if not runs:
        print("no sample runs: skipped")
        return 77
    os.makedirs(work, exist_ok=True)
    failures = []
    for run in runs:
        check_run(niorep, run, work, failures)
    for f in failures:
        print("FAIL", f)
    print(f"{len(runs)} runs checked, {len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
