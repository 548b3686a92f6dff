#!/usr/bin/python3
"""Independent check of `niorep summary --json` on the committed sample runs.

For each run directory under SAMPLES: ingest it, export tables events, files
and phases as CSV, recompute with numpy the totals, per-phase bytes and calls,
the run duration the exact nearest-rank latency quantiles per op class, the
concentration of the job files' per-file bytes (Gini by mean absolute
difference, top shares, files for 90%) and the runtime files' sums, the two
told apart by tests/pylib/file_role.py (regular files only, calls that never
resumed left out), and compare with the summary. Since session 45 also the
job files' access pattern (request-size bins, consecutive / sequential /
random by offset, opens, metadata-to-data, median read), the processes' roles
and shares, the non-file kinds and the write bursts with their sums, each
rebuilt from docs/definitions.md alone (an independent review's recount, all
equal). Since session 50 (schema 13) also the job files' latency per op
class and per phase (figure 4's reads) and each phase's bytes and I/O time
on the runtime's files (figure 1's segment). Exit 77 (skip) when there are no samples or the ingest is not built.

usage: check_sample.py NIOREP SAMPLES WORKDIR
"""
import csv
import io
import json
import math
import os
import re
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


def check_file_systems(name, summary, meta, files, fid, pos, reads, writes, failures):
    """Every regular file under the longest mount point the manifest lists
    (a prefix of its path at a '/'), else "unknown", with its bytes."""
    mounts = {v for k, v in meta.items()
              if re.fullmatch(r"(manifest\.)?fs\.\d+\.(mount_point|mount|mountpoint)", k) and v.startswith("/")}

    def fs_of(path):
        under = [m for m in mounts if m == "/" or path == m.rstrip("/") or path.startswith(m.rstrip("/") + "/")]
        return max(under, key=len, default="unknown")

    moved = {}  # file id -> [bytes read, bytes written], one pass over the events
    for column, mask in enumerate((reads, writes)):
        for f, b in zip(fid[mask], pos[mask]):
            moved.setdefault(int(f), [0, 0])[column] += int(b)
    want = {}
    for f in files:
        if f["kind"] == "regular":
            fs = want.setdefault(fs_of(f["path"]), {"files": 0, "bytes_read": 0, "bytes_written": 0})
            read, written = moved.get(int(f["file_id"]), (0, 0))
            fs["files"] += 1
            fs["bytes_read"] += read
            fs["bytes_written"] += written
    got = {e["fs"]: {k: e[k] for k in ("files", "bytes_read", "bytes_written")}
           for e in summary["file_systems"] if e["files"]}
    if got != want:
        failures.append(f"{name}: file_systems {got}, recounted {want}")


FAILED = 1 << 0
RESTARTED, RESULT_UNKNOWN = 1 << 3, 1 << 4
OFFSET_GUESSED = 1 << 5  # an fd never seen opened: its offsets from a guessed 0
NO_SIZE = FAILED | RESTARTED | RESULT_UNKNOWN  # calls that tell no size (docs/summary-schema.md, access)
OPENS = ("open", "openat", "openat2", "creat")
SIZE_BINS = (("0-100", 100), ("100-1K", 1 << 10), ("1K-10K", 10 << 10), ("10K-100K", 100 << 10),
             ("100K-1M", 1 << 20), ("1M-4M", 4 << 20), ("4M-10M", 10 << 20), ("10M-100M", 100 << 20),
             ("100M-1G", 1 << 30), ("1G+", None))
BURST_JOIN_NS, BURST_MERGE_NS, BURST_MIN_BYTES, BURST_SHARE_DIV = 1_000_000, 100_000_000, 4096, 10


def compare_tree(path, got, want, failures):
    """Every leaf of want against got's: integers exactly, reals to the
    JSON's 6 significant digits."""
    if isinstance(want, dict):
        for key, value in want.items():
            if not isinstance(got, dict) or key not in got:
                failures.append(f"{path}.{key}: missing, recounted {value}")
            else:
                compare_tree(f"{path}.{key}", got[key], value, failures)
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            failures.append(f"{path}: {len(got) if isinstance(got, list) else got} entries, recounted {len(want)}")
            return
        for i, (g, w) in enumerate(zip(got, want)):
            compare_tree(f"{path}[{i}]", g, w, failures)
    elif isinstance(want, (int, str)) or want is None:
        if got != want:
            failures.append(f"{path} = {got}, recounted {want}")
    elif not close(got, want, rel=6e-6, abs_tol=1e-15):
        failures.append(f"{path} = {got}, recounted {want}")


def share(part, whole):
    return part / whole if whole else None


def size_bin(nbytes):
    return next(name for name, top in SIZE_BINS if top is None or nbytes <= top)


def access_of(job_events, duration_s):
    """docs/definitions.md, "Access pattern": per op, the size bins of
    successful calls, and each call with a known offset classed against the
    end of the previous one on the same file."""
    out = {}
    for op in ("read", "write"):
        hist = {name: 0 for name, _ in SIZE_BINS}
        counts = {"consecutive": 0, "sequential": 0, "random": 0, "first": 0, "unknown_offset": 0}
        end_of = {}
        eof = 0
        for e in job_events:
            if e["op_class"] != op or e["flags"] & NO_SIZE:
                continue
            if op == "read" and e["bytes"] <= 0:
                eof += 1  # end of file: no size, in no bin (since session 49)
            else:
                hist[size_bin(e["bytes"])] += 1
            if e["offset"] < 0:
                counts["unknown_offset"] += 1
                continue
            prev = end_of.get(e["file_id"])
            kind = ("first" if prev is None else "consecutive" if e["offset"] == prev
                    else "sequential" if e["offset"] > prev else "random")
            counts[kind] += 1
            end_of[e["file_id"]] = e["offset"] + e["bytes"]
        classed = counts["consecutive"] + counts["sequential"] + counts["random"]
        out[op] = dict(counts, size_hist=hist, **{k + "_share": share(counts[k], classed)
                                                   for k in ("consecutive", "sequential", "random")})
        if op == "read":
            out[op]["eof_reads"] = eof
    out["opens"] = sum(1 for e in job_events if e["syscall"] in OPENS and not e["flags"] & FAILED)
    out["opens_per_s"] = share(out["opens"], duration_s)
    out["meta_calls"] = sum(1 for e in job_events if e["op_class"] == "metadata")
    out["data_calls"] = sum(1 for e in job_events if e["op_class"] in ("read", "write"))
    out["meta_to_data"] = share(out["meta_calls"], out["data_calls"])
    # reads that returned data (not restarted, of known result, not at end of file)
    sizes = sorted(e["bytes"] for e in job_events
                   if e["op_class"] == "read" and not e["flags"] & NO_SIZE and e["bytes"] > 0)
    out["median_read_size"] = nearest_rank(sizes, 0.5) if sizes else None
    return out


SIZE_SLOTS = 1024  # the model's Misra-Gries counters (docs/definitions.md, "Most common access sizes")


def check_common_sizes(name, got, job_events, failures):
    """docs/definitions.md, "Most common access sizes": the sizes of the
    size histogram's samples (writes, and reads that returned data), the
    four with the most calls, equal calls the smaller size first, each
    with its exact reads and writes; recounted in full here."""
    counts = {}
    for e in job_events:
        if e["op_class"] not in ("read", "write") or e["flags"] & NO_SIZE:
            continue
        w = e["op_class"] == "write"
        if w or e["bytes"] > 0:
            counts.setdefault(max(e["bytes"], 0), [0, 0])[w] += 1
    ranked = sorted(counts.items(), key=lambda kv: (-sum(kv[1]), kv[0]))
    calls = sum(r + w for r, w in counts.values())
    want = {"calls": calls}
    if len(counts) <= SIZE_SLOTS:  # no size ever left the counters: exact by construction
        want.update(exact=True, unlisted_at_most=0)
    if got.get("exact"):
        want["list"] = [{"bytes": s, "calls": r + w, "reads": r, "writes": w} for s, (r, w) in ranked[:4]]
    compare_tree(f"{name}: access.common_sizes", got, want, failures)
    bound = got.get("unlisted_at_most", 0)
    if bound > calls // (SIZE_SLOTS + 1):
        failures.append(f"{name}: access.common_sizes.unlisted_at_most {bound} above calls / {SIZE_SLOTS + 1}")
    for t in got.get("list", []):
        r, w = counts.get(t["bytes"], [0, 0])
        if (t["reads"], t["writes"]) != (r, w):
            failures.append(f"{name}: access.common_sizes: {t['bytes']} B {t['reads']} reads, {t['writes']} "
                            f"writes, recounted {r}, {w}")
    if got.get("exact") and bound and got["list"][-1]["calls"] <= bound:
        failures.append(f"{name}: access.common_sizes exact, yet its last size has no more calls than the bound")
    return len(counts)


def rereads_of(job_events):
    """docs/definitions.md, "Re-reads": per job file, the bytes of its reads
    at known offsets not guessed, less the furthest end its reads of known
    offset reached, when more; summed, a bound from below of the bytes read
    again."""
    placed, extent = {}, {}
    for e in job_events:
        if e["op_class"] != "read" or e["flags"] & NO_SIZE or e["offset"] < 0:
            continue
        f, n = e["file_id"], max(e["bytes"], 0)
        extent[f] = max(extent.get(f, 0), e["offset"] + n)
        if not e["flags"] & OFFSET_GUESSED:
            placed[f] = placed.get(f, 0) + n
    placed = {f: n for f, n in placed.items() if n > 0}
    again = {f: n - extent[f] for f, n in placed.items() if n > extent[f]}
    total, at_least = sum(placed.values()), sum(again.values())
    return {"bytes_placed": total, "extent_bytes": sum(extent[f] for f in placed), "at_least_bytes": at_least,
            "files": len(again), "share": share(at_least, total),
            "passes_at_least": share(total, total - at_least)}


def files_by_use_of(job_events, job):
    """docs/definitions.md, "Files by use": each job file by the bytes its
    reads and writes moved, the bytes summed per class; a file's size the
    furthest end (offset + bytes) its reads and writes of known offset and
    size reached, the sized files' mean and largest per class."""
    moved = {f: [0, 0] for f in job}
    size = {}
    for e in job_events:
        if e["op_class"] not in ("read", "write"):
            continue
        moved[e["file_id"]][e["op_class"] == "write"] += max(e["bytes"], 0)
        if not e["flags"] & NO_SIZE and e["offset"] >= 0:
            end = e["offset"] + max(e["bytes"], 0)
            size[e["file_id"]] = max(size.get(e["file_id"], end), end)
    out = {use: {"files": 0, "bytes_read": 0, "bytes_written": 0}
           for use in ("read_only", "write_only", "read_write", "no_bytes")}
    sizes = {use: [] for use in out}
    for f, (read, written) in moved.items():
        use = ("read_write" if read and written else "read_only" if read
               else "write_only" if written else "no_bytes")
        out[use]["files"] += 1
        out[use]["bytes_read"] += read
        out[use]["bytes_written"] += written
        if f in size:
            sizes[use].append(size[f])
    for use, known in sizes.items():
        out[use].update(sized_files=len(known), mean_size=sum(known) / len(known) if known else None,
                        max_size=max(known) if known else None)
    return out


def processes_of(events, counted, procs, main_pid, run_bytes):
    """docs/definitions.md, "Processes": main (the pid that began the first
    phase), its descendants workers, the rest other; each process's I/O
    time over its lifetime (its tasks' first stamp to the end of its last
    call, or its last stamp if later)."""
    ppid = {}
    life = {}
    for p in procs:
        if p["tid"] == p["pid"]:
            ppid.setdefault(p["pid"], p["ppid"])
        if p["first_ts_ns"] >= 0:
            a, b = life.get(p["pid"], (p["first_ts_ns"], p["last_ts_ns"]))
            life[p["pid"]] = (min(a, p["first_ts_ns"]), max(b, p["last_ts_ns"]))
    for e in events:
        if e["ts_ns"] >= 0 and e["pid"] in life:
            a, b = life[e["pid"]]
            life[e["pid"]] = (a, max(b, e["ts_ns"] + max(e["dur_ns"], 0)))

    def role(pid):
        if main_pid is None:
            return "other"
        if pid == main_pid:
            return "main"
        seen, up = set(), ppid.get(pid, -1)
        while up not in (-1, None) and up not in seen:
            if up == main_pid:
                return "worker"
            seen.add(up)
            up = ppid.get(up, -1)
        return "other"

    per = {}
    for e in counted:
        q = per.setdefault(e["pid"], {"calls": 0, "bytes_read": 0, "bytes_written": 0, "io_ns": 0})
        q["calls"] += 1
        q["bytes_read"] += e["bytes"] if e["op_class"] == "read" else 0
        q["bytes_written"] += e["bytes"] if e["op_class"] == "write" else 0
        q["io_ns"] += max(e["dur_ns"], 0)
    roles = {r: {"processes_with_io": 0, "calls": 0, "bytes_read": 0, "bytes_written": 0, "io_ns": 0}
             for r in ("main", "worker", "other")}
    with_io = []
    for pid in sorted(per):
        q, r = per[pid], role(pid)
        first, last = life.get(pid, (0, 0))
        with_io.append({"pid": pid, "ppid": ppid.get(pid, -1), "role": r, "calls": q["calls"],
                        "bytes_read": q["bytes_read"], "bytes_written": q["bytes_written"],
                        "io_time_s": q["io_ns"] / 1e9, "io_share": share(q["io_ns"], last - first),
                        "bytes_share": share(q["bytes_read"] + q["bytes_written"], run_bytes)})
        roles[r]["processes_with_io"] += 1
        for key in ("calls", "bytes_read", "bytes_written", "io_ns"):
            roles[r][key] += q[key]
    for r in roles.values():
        r["io_time_s"] = r.pop("io_ns") / 1e9
        r["bytes_share"] = share(r["bytes_read"] + r["bytes_written"], run_bytes)
    return {"main_pid": main_pid, "with_io": with_io, "roles": roles, "ends": ends_of(procs, role)}


def ends_of(procs, role):
    """docs/definitions.md, "How processes ended": each leader killed (its
    own or a thread's signal), else exited 0, else with another status,
    else unseen; the signals by name. The end stamps' zero is the model's,
    so the failed processes are compared by pid and how only."""
    leaders = {p["pid"]: p for p in procs if p["tid"] == p["pid"]}
    signal = {pid: p["killed_by"] for pid, p in leaders.items() if p["killed_by"]}
    for p in procs:
        if p["tid"] != p["pid"] and p["killed_by"] and p["pid"] in leaders:
            signal.setdefault(p["pid"], p["killed_by"])
    ends = {k: {"main": 0, "worker": 0, "other": 0} for k in ("exited_zero", "exited_nonzero", "killed", "unseen")}
    by_signal, failed = {}, []
    for pid in sorted(leaders):
        code, r = leaders[pid]["exit_code"], role(pid)
        kind = "killed" if pid in signal else "exited_zero" if code == 0 else "exited_nonzero" if code > 0 else "unseen"
        ends[kind][r] += 1
        if pid in signal:
            by_signal.setdefault(signal[pid], {"main": 0, "worker": 0, "other": 0})[r] += 1
        if kind in ("killed", "exited_nonzero"):
            failed.append({"pid": pid, "role": r, "killed_by": signal.get(pid),
                           "exit_code": None if pid in signal else code})
    ends["by_signal"] = [dict(signal=s, **by_signal[s]) for s in sorted(by_signal)]
    ends["failed"] = failed
    return ends


def mappings_of(events, regular, job):
    """docs/definitions.md, "Mappings": the mmap calls on regular files and
    their lengths (the events' bytes), the job files' apart, each file once."""
    maps = [e for e in events if e["file_id"] in regular and e["syscall"].startswith("mmap")]
    on_job = [e for e in maps if e["file_id"] in job]
    return {"mmap_regular": len(maps), "mmap_bytes": sum(max(e["bytes"], 0) for e in maps),
            "mmap_job": {"calls": len(on_job), "bytes": sum(max(e["bytes"], 0) for e in on_job),
                         "files": len({e["file_id"] for e in on_job})}}


def nonfile_of(events, kind_of):
    """docs/definitions.md, "Bytes": calls and bytes of each kind other than
    regular files, and of fds no file stands behind."""
    out = {k: {"calls": 0, "bytes_read": 0, "bytes_written": 0}
           for k in ("directory", "pipe", "socket", "device", "procfs", "anon_inode", "tool_output")}
    loose = {"no_file_calls": 0, "no_file_read_calls": 0, "no_file_bytes_read": 0,
             "no_file_write_calls": 0, "no_file_bytes_written": 0}
    for e in events:
        if e["flags"] & NEVER_RESUMED:
            continue
        if e["file_id"] < 0:
            loose["no_file_calls"] += 1
            for op, calls, nbytes in (("read", "no_file_read_calls", "no_file_bytes_read"),
                                      ("write", "no_file_write_calls", "no_file_bytes_written")):
                if e["op_class"] == op:
                    loose[calls] += 1
                    loose[nbytes] += e["bytes"]
            continue
        kind = kind_of[e["file_id"]]
        if kind == "regular" or kind not in out:
            continue
        out[kind]["calls"] += 1
        out[kind]["bytes_read"] += e["bytes"] if e["op_class"] == "read" else 0
        out[kind]["bytes_written"] += e["bytes"] if e["op_class"] == "write" else 0
    out.update(loose)
    return out


def write_pieces(writes, phase_of):
    """docs/definitions.md, "Write bursts", step 1: per phase, a write joins
    the open piece when it starts within 1 ms of the piece's end and ends
    within 1 ms of its start."""
    open_piece, pieces = {}, []
    for e in writes:
        phase, start = phase_of(e), e["ts_ns"]
        end = start + max(e["dur_ns"], 0)
        p = open_piece.get(phase)
        if p and start <= p["end"] + BURST_JOIN_NS and end >= p["start"] - BURST_JOIN_NS:
            p.update(start=min(p["start"], start), end=max(p["end"], end), bytes=p["bytes"] + e["bytes"],
                     calls=p["calls"] + 1)
        else:
            open_piece[phase] = p = {"phase": phase, "start": start, "end": end, "bytes": e["bytes"], "calls": 1}
            pieces.append(p)
    return pieces


def bursts_of(counted, phase_of, run_start):
    """Steps 2 and 3: pieces of at least a tenth of the largest and 4 KiB
    count; counted pieces of a phase within 100 ms are one burst, with
    every write of the phase between them."""
    writes = [e for e in counted if e["op_class"] == "write" and e["bytes"] > 0 and e["ts_ns"] >= 0]
    pieces = write_pieces(writes, phase_of)
    largest = max((p["bytes"] for p in pieces), default=0)
    bursts = []
    for phase in dict.fromkeys(p["phase"] for p in pieces):
        cur, between = None, [0, 0]
        for p in (p for p in pieces if p["phase"] == phase):
            if p["bytes"] * BURST_SHARE_DIV < largest or p["bytes"] < BURST_MIN_BYTES:
                between = [between[0] + p["bytes"], between[1] + p["calls"]] if cur else between
                continue
            if cur and p["start"] - cur["end"] <= BURST_MERGE_NS:
                cur.update(bytes=cur["bytes"] + between[0] + p["bytes"], calls=cur["calls"] + between[1] + p["calls"],
                           end=max(cur["end"], p["end"]))
            else:
                bursts += [cur] if cur else []
                cur = dict(p)
            between = [0, 0]
        bursts += [cur] if cur else []
    bursts.sort(key=lambda b: b["start"])
    listed, prev = [], None
    for b in bursts:
        d = b["end"] - b["start"]
        listed.append({"phase": b["phase"], "bytes": b["bytes"], "calls": b["calls"],
                       "start_s": (b["start"] - run_start) / 1e9, "end_s": (b["end"] - run_start) / 1e9,
                       "duration_s": d / 1e9, "mean_rate": b["bytes"] / (d / 1e9) if d > 0 else None,
                       "interval_s": (b["start"] - prev) / 1e9 if prev is not None else None})
        prev = b["start"]
    rates = [b["mean_rate"] for b in listed if b["mean_rate"] is not None]
    totals = {"count": len(listed), "listed": len(listed), "bytes": sum(b["bytes"] for b in listed),
              "calls": sum(b["calls"] for b in listed), "time_s": sum(b["duration_s"] for b in listed),
              "highest_rate": max(rates) if rates else None}
    return listed, totals


def check_beyond_totals(name, summary, events, files, procs, phases, runtime, failures):
    """The access pattern, processes, non-file kinds and write bursts,
    recounted event by event."""
    kind_of = {int(f["file_id"]): f["kind"] for f in files}
    regular = {i for i, k in kind_of.items() if k == "regular"}
    job = regular - runtime
    counted = [e for e in events if e["file_id"] in regular and not e["flags"] & NEVER_RESUMED]
    stamped = [e for e in events if e["ts_ns"] >= 0]
    run_start = min(e["ts_ns"] for e in stamped)
    duration_s = (max(e["ts_ns"] + max(e["dur_ns"], 0) for e in stamped) - run_start) / 1e9
    phase_name = {int(p["phase_id"]): p["name"] for p in phases}
    first_phase = min(phases, key=lambda p: (int(p["begin_ns"]), int(p["phase_id"])), default=None)
    main_pid = int(first_phase["pid"]) if first_phase else None
    run_bytes = sum(e["bytes"] for e in counted if e["op_class"] in ("read", "write"))
    job_events = [e for e in counted if e["file_id"] in job]
    access = access_of(job_events, duration_s)
    access["files_by_use"] = files_by_use_of(job_events, job)
    access["rereads"] = rereads_of(job_events)
    compare_tree(f"{name}: access", summary["access"], access, failures)
    check_common_sizes(name, summary["access"]["common_sizes"], job_events, failures)
    want = processes_of(events, counted, procs, main_pid, run_bytes)
    compare_tree(f"{name}: processes", summary["processes"], want, failures)
    compare_tree(f"{name}: nonfile", summary["nonfile"], nonfile_of(events, kind_of), failures)
    mappings = mappings_of(events, regular, job)
    compare_tree(f"{name}: fidelity", {k: summary["fidelity"][k] for k in mappings}, mappings, failures)
    listed, totals = bursts_of(counted, lambda e: phase_name.get(e["phase_id"], "unphased"), run_start)
    compare_tree(f"{name}: bursts", summary["bursts"], listed, failures)
    compare_tree(f"{name}: burst_totals", summary["burst_totals"], totals, failures)


def typed(rows, strings):
    """CSV rows with every column but those in strings as int."""
    return [{k: (v if k in strings else int(v)) for k, v in r.items()} for r in rows]


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
    def phase_mask(phase):
        return np.array([phase_name.get(int(x), "unphased") == phase if x >= 0 else phase == "unphased"
                         for x in ph], dtype=bool) if len(ph) else np.zeros(0, dtype=bool)

    on_runtime = np.isin(fid, list(runtime))
    mapping = np.array([e["syscall"].startswith("mmap") for e in events], dtype=bool)
    for p in summary["phases"]:
        in_phase = phase_mask(p["name"])
        for key, mask in (("bytes_read", reads), ("bytes_written", writes)):
            got, want = p[key], int(pos[mask & in_phase].sum())
            if got != want:
                failures.append(f"{name}: phase {p['name']} {key} = {got}, numpy {want}")
        # the runtime's part (schema 13; figure 1's segment "Python runtime files")
        for key, mask in (("runtime_bytes_read", reads), ("runtime_bytes_written", writes)):
            got, want = p.get(key), int(pos[mask & in_phase & on_runtime].sum())
            if got != want:
                failures.append(f"{name}: phase {p['name']} {key} = {got}, numpy {want}")
        want = float(np.maximum(dur[counted & in_phase & on_runtime], 0).sum()) * 1e-9
        if "runtime_io_time_s" not in p or not close(p["runtime_io_time_s"], want):
            failures.append(f"{name}: phase {p['name']} runtime_io_time_s = {p.get('runtime_io_time_s')}, numpy {want}")
        for key, mask in (("read_calls", reads), ("write_calls", writes)):
            got, want = p[key], int((mask & in_phase).sum())
            if got != want:
                failures.append(f"{name}: phase {p['name']} {key} = {got}, numpy {want}")
        # the job files' mappings made in the phase (schema 19; docs/definitions.md "Mappings")
        want = int(pos[counted & in_phase & ~on_runtime & mapping].sum())
        if p.get("job_bytes_mapped") != want:
            failures.append(f"{name}: phase {p['name']} job_bytes_mapped = {p.get('job_bytes_mapped')}, numpy {want}")
    check_concentration(name, summary, fid, pos, reads, writes, runtime, failures)
    meta = {r["key"]: r["value"] for r in export(niorep, store, "meta")}
    check_file_systems(name, summary, meta, files, fid, pos, reads, writes, failures)
    check_layers(name, summary, failures)
    check_beyond_totals(name, summary, typed(events, ("syscall", "op_class", "errno")), files,
                        typed(export(niorep, store, "processes"), ("exe", "killed_by")), phases, runtime, failures)
    def check_lat(path, lat, sel):
        vals = np.sort(dur[sel & (dur >= 0)])
        if lat["count"] != len(vals):
            failures.append(f"{name}: {path}.count = {lat['count']}, numpy {len(vals)}")
            return
        for field, q in QUANTILES.items():
            want = nearest_rank(vals, q) * 1e-9 if len(vals) else None
            if not close(lat[field], want):
                failures.append(f"{name}: {path}.{field} = {lat[field]}, numpy {want}")
        want = float(vals.mean()) * 1e-9 if len(vals) else None
        if not close(lat["mean"], want):
            failures.append(f"{name}: {path}.mean = {lat['mean']}, numpy {want}")

    # docs/definitions.md "Latency": regular files; a sync also of a directory
    # (the checkpoint's rename made durable) or of no file (sync, msync)
    directories = {int(f["file_id"]) for f in files if f["kind"] == "directory"}
    timed = counted | ((op == "sync") & (np.isin(fid, list(directories)) | (fid == -1))
                       & ((flags & NEVER_RESUMED) == 0))
    # the job files' latency (schema 13, figure 4's reads): runtime files left out
    job = timed & ~np.isin(fid, list(runtime))
    job_lat = summary["latency"].get("job_files")
    if job_lat is None:
        failures.append(f"{name}: no latency.job_files")
        job_lat = {"by_phase": [], **{key: {"count": None} for key in LAT_OPS}}
    in_phase_of = {p["name"]: phase_mask(p["name"]) for p in summary["phases"]}
    if [p["phase"] for p in job_lat["by_phase"]] != [p["name"] for p in summary["phases"]]:
        failures.append(f"{name}: latency.job_files.by_phase names {[p['phase'] for p in job_lat['by_phase']]}")
    for key, cls in LAT_OPS.items():
        check_lat(f"latency.{key}", summary["latency"][key], timed & (op == cls))
        check_lat(f"latency.job_files.{key}", job_lat[key], job & (op == cls))
        for p in job_lat["by_phase"]:
            check_lat(f"latency.job_files.by_phase[{p['phase']}].{key}", p[key],
                      job & (op == cls) & in_phase_of[p["phase"]])
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
