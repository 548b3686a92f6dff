#!/usr/bin/python3
"""End-to-end test of multi-node runs (docs/multi-node.md; ctest label e2e).

Traces node_job.py three times under the real strace, as nodes n1, n2, n3
of run r1 (`niorep trace --label run=r1 --label node=nK`), ingests each node into
its own store, merges them (`niorep merge`, and implicitly in `build`,
`summary` and `compare`), and checks the merged run against the parts,
computed here independently from `niorep export` of the parts:

- the merged events are the parts' events, pids qualified (k * 10^7 + pid),
  files named by identity, in the order of a k-way merge by (ts, node); file ids in order of first use;
- files: per identity the sums of the parts' totals, min/max of the times;
  shared = absolute paths of regular files/directories, else "<node>:<path>";
- processes and phases: the parts' rows, qualified, phases ordered by begin;
- summary --json: totals are the sums of the parts; latency quantiles are the
  nearest-rank quantiles of the union of the parts' durations; the
  concentration is that of the per-file sums (numpy);
- merge is deterministic and independent of the input order; build over a
  folder of node stores or of node run directories reports one run whose
  cached merged store is byte-identical to `niorep merge`;
- mismatched inputs fail with a message naming them: the same node twice, a
  node of another run, a store without labels; summary over two runs;
- one node store merges into a run of one node with the node store's summary.

Exit 77 (skip) when strace cannot trace here.

usage: nodes_test.py --niorep BIN --job node_job.py --out WORKDIR
"""
import argparse
import filecmp
import heapq
import json
import os
import shutil
import subprocess
import sys

# The independent numpy checks of the single-run sample test, reused as they are.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "model"))
from check_sample import LAT_OPS, NEVER_RESUMED, QUANTILES, close, concentration, export, nearest_rank  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from file_role import is_runtime_file  # noqa: E402

PY = "/usr/bin/python3"
SPAN = 10_000_000
SHARED_KINDS = {"regular", "directory", "unknown"}
NODES = ["n1", "n2", "n3"]

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
    return cond


def tool(niorep, *args):
    return subprocess.run([niorep, *args], capture_output=True, text=True)


def must(niorep, *args):
    r = tool(niorep, *args)
    if r.returncode != 0:
        sys.exit(f"FAIL: niorep {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return r



def summary(niorep, *inputs):
    return json.loads(must(niorep, "summary", *inputs, "--json", "--bootstraps", "0").stdout)


# ---- capture --------------------------------------------------------------

def make_shared(shared):
    os.makedirs(shared, exist_ok=True)
    with open(os.path.join(shared, "index.txt"), "wb") as f:
        f.write(b"".join(b"shard%d\n" % i for i in range(6)))
    for i in range(6):
        with open(os.path.join(shared, "shard%d.bin" % i), "wb") as f:
            f.write(bytes([i]) * (5000 + 3000 * i))


def trace_nodes(niorep, job, work):
    shared = os.path.join(work, "shared")
    make_shared(shared)
    runs = {}
    for rank, node in enumerate(NODES):
        run = os.path.join(work, "runs", node)
        r = tool(niorep, "trace", "-o", run, "--label", "run=r1", "--label", "node=" + node,
                 "--label", "workload=toy", "--", PY, job, shared, os.path.join(work, "local_" + node), str(rank))
        if r.returncode != 0:
            print(f"SKIP: niorep trace failed here: {r.stderr.strip()}")
            sys.exit(77)
        runs[node] = run
    return runs


def relabel(src, dst, labels):
    """A copy of run directory src whose manifest carries labels (None: no labels)."""
    shutil.copytree(src, dst)
    path = os.path.join(dst, "manifest.json")
    with open(path) as f:
        m = json.load(f)
    if labels is None:
        m.pop("labels", None)
    else:
        m["labels"] = labels
    with open(path, "w") as f:
        json.dump(m, f)


# ---- the parts, read independently ------------------------------------------

class Part:
    def __init__(self, niorep, store, node, k):
        self.node, self.k = node, k
        self.files = export(niorep, store, "files")
        self.kind = {int(f["file_id"]): f["kind"] for f in self.files}
        self.path = {int(f["file_id"]): f["path"] for f in self.files}
        self.events = export(niorep, store, "events")
        self.processes = export(niorep, store, "processes")
        self.phases = export(niorep, store, "phases")
        self.waits = export(niorep, store, "waits")
        self.phase_name = {int(p["phase_id"]): p["name"] for p in self.phases}
        self.phase_begin = {int(p["phase_id"]): int(p["begin_ns"]) for p in self.phases}

    def ident(self, fid):
        fid = int(fid)
        if fid < 0:
            return None
        path, kind = self.path[fid], self.kind[fid]
        return path if path.startswith("/") and kind in SHARED_KINDS else f"{self.node}:{path}"

    def q(self, pid):
        pid = int(pid)
        return pid if pid < 0 else pid + self.k * SPAN

    def phase(self, pid):
        pid = int(pid)
        return None if pid < 0 else (self.phase_name[pid], self.phase_begin[pid])


def event_key(e, ident, qual, phase):
    return (int(e["ts_ns"]), int(e["dur_ns"]), qual(e["pid"]), qual(e["tid"]), e["syscall"], e["op_class"],
            int(e["fd"]), ident(e["file_id"]), ident(e["file2_id"]), int(e["bytes"]), int(e["offset"]),
            int(e["result"]), e["errno"], int(e["flags"]), phase(e["phase_id"]))


def check_events(parts, merged_events, mpath, mphase):
    # A k-way merge on the heads: the parts keep their own order (an event
    # resumed late comes after later starts, as in the part), ties by node.
    seqs = [[((int(e["ts_ns"]), p.k), event_key(e, p.ident, p.q, p.phase)) for e in p.events] for p in parts]
    expect = list(heapq.merge(*seqs, key=lambda x: x[0]))
    got = [event_key(e, lambda f: None if int(f) < 0 else mpath[int(f)], int,
                     lambda x: None if int(x) < 0 else mphase[int(x)]) for e in merged_events]
    check(len(got) == len(expect), f"merged events {len(got)} != parts {len(expect)}")
    bad = [i for i, (g, (_, w)) in enumerate(zip(got, expect)) if g != w]
    check(not bad, f"merged events differ from the (ts, node) merge of the parts at rows {bad[:5]}: "
                   f"{got[bad[0]] if bad else ''} vs {expect[bad[0]][1] if bad else ''}")
    seen = []
    for e in merged_events:
        for col in ("file_id", "file2_id"):
            f = int(e[col])
            if f >= 0 and f not in seen:
                seen.append(f)
    check(seen == list(range(len(seen))), "file ids are not in order of first use in the merged events")


def check_files(parts, merged_files):
    want = {}
    counters = ["bytes_read", "bytes_written", "read_calls", "write_calls", "open_calls", "close_calls",
                "meta_calls", "sync_calls"]
    for p in parts:
        for f in p.files:
            w = want.setdefault(p.ident(f["file_id"]), {c: 0 for c in counters} | {"first": -1, "last": -1})
            for c in counters:
                w[c] += int(f[c])
            first, last = int(f["first_ts_ns"]), int(f["last_ts_ns"])
            if first >= 0 and (w["first"] < 0 or first < w["first"]):
                w["first"] = first
            w["last"] = max(w["last"], last)
    got = {f["path"]: f for f in merged_files}
    check(set(got) == set(want), f"merged file identities differ: {sorted(set(got) ^ set(want))[:5]}")
    for ident, w in want.items():
        g = got.get(ident)
        if g is None:
            continue
        for c in counters:
            check(int(g[c]) == w[c], f"file {ident}: {c} {g[c]} != sum of the parts {w[c]}")
        check(int(g["first_ts_ns"]) == w["first"] and int(g["last_ts_ns"]) == w["last"], f"file {ident}: times")
    shared = [i for i in want if not i.startswith(tuple(n + ":" for n in NODES))]
    on_all = [i for i in shared if sum(i in {p.ident(f["file_id"]) for f in p.files} for p in parts) == len(parts)]
    check(any(i.endswith("/shared/index.txt") for i in on_all), "the shared index is not one file of every node")
    check(any(i.startswith("n2:") for i in want), "no node-local identity (pipes, /proc, the hook's output)")


def check_processes(parts, merged):
    want = []
    for p in parts:
        for r in p.processes:
            want.append((p.q(r["tid"]), p.q(r["pid"]), p.q(r["ppid"]), r["exe"], int(r["events"])))
    got = [(int(r["tid"]), int(r["pid"]), int(r["ppid"]), r["exe"], int(r["events"])) for r in merged]
    check(got == want, f"merged processes differ from the parts qualified: {got[:3]} vs {want[:3]}")


def check_phases(parts, merged):
    want = sorted((int(r["begin_ns"]), p.q(r["pid"]), p.q(r["tid"]), r["name"], int(r["end_ns"]))
                  for p in parts for r in p.phases)
    got = [(int(r["begin_ns"]), int(r["pid"]), int(r["tid"]), r["name"], int(r["end_ns"])) for r in merged]
    check(got == want, "merged phases are not the parts' phases ordered by (begin, pid, tid)")
    check([int(r["phase_id"]) for r in merged] == list(range(len(merged))), "merged phase ids not dense")
    check(len(merged) >= 6, f"expected the hook's phases of both nodes, got {len(merged)}")


# ---- the model over the merged run --------------------------------------------

ROLE_COUNTS = ("bytes_read", "bytes_written", "read_calls", "write_calls", "open_calls")


def runtime_idents(parts):
    """The identities of the runtime's files, by each identity's row of
    table files summed over the parts (the merged store's row)."""
    rows = {}
    for p in parts:
        for f in p.files:
            if f["kind"] != "regular":
                continue
            row = rows.setdefault(p.ident(f["file_id"]), dict({k: 0 for k in ROLE_COUNTS}, path=f["path"]))
            for k in ROLE_COUNTS:
                row[k] += int(f[k])
    return {ident for ident, row in rows.items() if is_runtime_file(row)}


def union_samples(parts):
    """Latency samples and the job files' per-file bytes over the union of the parts' events."""
    runtime = runtime_idents(parts)
    lat = {op: [] for op in LAT_OPS}
    per_file = {}
    totals = {"bytes_read": 0, "bytes_written": 0, "read_calls": 0, "write_calls": 0}
    for p in parts:
        for e in p.events:
            fid = int(e["file_id"])
            op, nbytes, dur = e["op_class"], max(int(e["bytes"]), 0), int(e["dur_ns"])
            if int(e["flags"]) & NEVER_RESUMED:
                continue
            kind = p.kind[fid] if fid >= 0 else None
            # docs/definitions.md "Latency": a sync also of a directory or of no file
            if op == "sync" and kind in (None, "directory") and dur >= 0:
                lat[op].append(dur)
            if kind != "regular":
                continue
            if op in lat and dur >= 0:
                lat[op].append(dur)
            if op in ("read", "write"):
                totals["bytes_" + ("read" if op == "read" else "written")] += nbytes
                totals[op + "_calls"] += 1
                if p.ident(fid) not in runtime:  # the concentration is the job files'
                    key = p.ident(fid)
                    per_file[key] = per_file.get(key, 0) + nbytes
    return lat, per_file, totals


def check_model(parts, part_summaries, s):
    lat, per_file, totals = union_samples(parts)
    t = s["totals"]
    for key, value in totals.items():
        check(t[key] == value, f"totals.{key} = {t[key]}, union of the parts {value}")
    for key in ("events", "processes", "bytes_read", "bytes_written", "read_calls", "write_calls"):
        want = sum(ps["totals"][key] for ps in part_summaries)
        check(t[key] == want, f"merged totals.{key} = {t[key]}, sum of the parts' summaries {want}")
    for op in LAT_OPS:
        vals = sorted(lat[op])
        got = s["latency"][op]
        if not check(got["count"] == len(vals), f"latency.{op}.count {got['count']} != {len(vals)}"):
            continue
        for field, q in QUANTILES.items():
            want = nearest_rank(vals, q) * 1e-9 if vals else None
            check(close(got[field], want), f"latency.{op}.{field} = {got[field]}, union of the parts {want}")
    check(len(lat["read"]) > 50, "too few read samples for a meaningful quantile check")
    moved = [b for b in per_file.values() if b > 0]
    for key, value in concentration(moved).items():
        check(close(s["concentration"][key], value, 1e-5, 1e-6),
              f"concentration.{key} = {s['concentration'][key]}, numpy over the per-file sums {value}")
    # every node has its own main process: the roles split as on each node alone
    for role in ("main", "worker", "other"):
        for key in ("calls", "bytes_read", "bytes_written", "processes_with_io"):
            want = sum(ps["processes"]["roles"][role][key] for ps in part_summaries)
            got = s["processes"]["roles"][role][key]
            check(got == want, f"processes.roles.{role}.{key} = {got}, sum of the parts {want}")
    by_name = lambda summ: {p["name"]: p for p in summ["phases"]}
    merged_phases = by_name(s)
    # the loops' waits: one loop thread per node, each wait of the union once,
    # the quantiles those of the union (docs/definitions.md, "Waits for data")
    waits = sorted(int(w["dur_ns"]) for p in parts for w in p.waits)
    got = merged_phases["train"]["waits"]
    check(got["count"] == len(waits) == sum(10 + 5 * k for k in range(len(parts))),
          f"train waits {got['count']}, union of the parts {len(waits)}")
    check(got["threads"] == len(parts), f"train waits of {got['threads']} threads, {len(parts)} nodes")
    check(close(got["seconds"], sum(waits) * 1e-9), f"train waits {got['seconds']} s, union {sum(waits) * 1e-9} s")
    for field, q in (("p50_s", 0.5), ("p99_s", 0.99), ("max_s", 1.0)):
        want = nearest_rank(waits, q) * 1e-9
        check(close(got[field], want), f"train waits {field} = {got[field]}, union of the parts {want}")
    for name in ("data_prep", "train", "checkpoint"):
        for key in ("bytes_read", "bytes_written"):
            want = sum(by_name(ps).get(name, {}).get(key, 0) for ps in part_summaries)
            got = merged_phases.get(name, {}).get(key)
            check(got == want, f"phase {name} {key} = {got}, sum of the parts {want}")


# ---- commands ----------------------------------------------------------------

def check_build_and_cache(niorep, work, stores, runs, merged):
    folder = os.path.join(work, "stores")
    os.makedirs(folder)
    for node in NODES:
        shutil.copy2(stores[node], folder)
    r = must(niorep, "build", folder, "-o", os.path.join(work, "stores.html"), "--bootstraps", "0")
    check("(1 run)" in r.stderr, f"build over the node stores: {r.stderr.strip()}")
    cached = os.path.join(folder, ".niorep", "merged", "r1.nio")
    check(os.path.exists(cached) and filecmp.cmp(cached, merged, shallow=False),
          "the merged store cached by build differs from niorep merge")
    before = os.stat(cached).st_mtime_ns
    must(niorep, "build", folder, "-o", os.path.join(work, "stores2.html"), "--bootstraps", "0")
    check(os.stat(cached).st_mtime_ns == before, "build merged again although the node stores did not change")
    by_node = os.path.join(work, "r1-by-node.nio")
    must(niorep, "merge", "-q", "--files-by-node", *stores.values(), "-o", by_node)
    paths = [f["path"] for f in export(niorep, by_node, "files")]
    check(paths and all(p.startswith(tuple(n + ":" for n in NODES)) for p in paths),
          "merge --files-by-node left a shared file")
    must(niorep, "build", folder, "--files-by-node", "-o", os.path.join(work, "by-node.html"), "--bootstraps", "0")
    check(filecmp.cmp(cached, by_node, shallow=False), "build --files-by-node: cached store != merge --files-by-node")
    must(niorep, "build", folder, "-o", os.path.join(work, "stores3.html"), "--bootstraps", "0")
    check(filecmp.cmp(cached, merged, shallow=False), "build after --files-by-node reused the by-node merge")
    # a damaged cached merged store (a flipped byte in its events, a cut
    # file) is merged again from the node stores, with a line on stderr;
    # until session 46 every later build failed on it
    for damage in ("flip", "cut"):
        data = bytearray(open(cached, "rb").read())
        stat = os.stat(cached)
        if damage == "flip":
            data[100] ^= 0xFF
        else:
            data = data[:len(data) // 2]
        open(cached, "wb").write(bytes(data))
        os.utime(cached, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        r = tool(niorep, "build", folder, "-o", os.path.join(work, "damaged.html"), "--bootstraps", "0")
        check(r.returncode == 0 and "merging" in r.stderr and "again" in r.stderr,
              f"build over a damaged ({damage}) merged cache: {r.returncode} {r.stderr.strip()}")
        check(filecmp.cmp(cached, merged, shallow=False), f"the merged cache made again ({damage}) differs")
    # the store made again is the one its fingerprint names: the next build reuses it
    r = must(niorep, "build", folder, "-o", os.path.join(work, "again.html"), "--bootstraps", "0")
    check("stores merged from node stores: 0 merged, 1 reused" in r.stderr,
          f"the merged cache made again is not reused: {r.stderr.strip()}")
    # a store renamed over the cached one (another build's) is not the one
    # the fingerprint names: merged again (until session 48 trusted)
    shutil.copy2(cached, cached + ".other")
    os.replace(cached + ".other", cached)
    r = must(niorep, "build", folder, "-o", os.path.join(work, "replaced.html"), "--bootstraps", "0")
    check("stores merged from node stores: 1 merged, 0 reused" in r.stderr,
          f"a merged store renamed over the cached one was trusted: {r.stderr.strip()}")
    r = must(niorep, "build", folder, "--per-node", "-o", os.path.join(work, "per-node.html"), "--bootstraps", "0")
    check(f"({len(NODES)} runs)" in r.stderr, f"build --per-node over the node stores: {r.stderr.strip()}")
    html = open(os.path.join(work, "stores.html"), encoding="utf-8", errors="replace").read()
    check("n1.nio + n2.nio" in html, "the report does not name the merged run's parts")
    traces = os.path.join(work, "traces")
    os.makedirs(traces)
    for node in NODES:
        shutil.copytree(runs[node], os.path.join(traces, node))
    r = must(niorep, "build", traces, "-o", os.path.join(work, "traces.html"), "--bootstraps", "0")
    check("(1 run)" in r.stderr, f"build over the node run directories: {r.stderr.strip()}")
    cached = os.path.join(traces, ".niorep", "merged", "r1.nio")
    check(os.path.exists(cached) and filecmp.cmp(cached, merged, shallow=False),
          "build over node run directories: merged store differs from niorep merge of their stores")
    return folder


def check_concurrent_subsets(niorep, work, stores, rounds=40):
    """Summaries of two subsets of one run's nodes at once share the cached
    merged store's path (merged/r1.nio): each must read the store it merged
    or checked. Until session 49 one reopened the path after the other had
    renamed its own merge there, and printed the other subset's numbers
    (review 49: 3 in 150)."""
    folder = os.path.join(work, "subsets")
    os.makedirs(folder)
    for node in NODES:
        shutil.copy2(stores[node], folder)
    two = [os.path.join(folder, n + ".nio") for n in NODES[:2]]
    three = [os.path.join(folder, n + ".nio") for n in NODES]
    args = ["summary", "--json", "--bootstraps", "0"]
    want = [summary(niorep, *two)["totals"], summary(niorep, *three)["totals"]]
    check(want[0] != want[1], "two and three nodes give the same totals: the check below checks nothing")
    wrong = 0
    for _ in range(rounds):
        procs = [subprocess.Popen([niorep, *args, *inputs], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for inputs in (two, three)]
        for p, expected in zip(procs, want):
            out, err = p.communicate()
            wrong += p.returncode != 0 or json.loads(out)["totals"] != expected
    check(wrong == 0, f"{wrong} of {2 * rounds} concurrent summaries of node subsets gave another subset's numbers")


def check_merge_beside_parts(niorep, work, stores, merged):
    """A run's merge kept beside its node stores (niorep merge n*.nio -o
    R.nio in their folder) is the same data: read once. A merge of some of
    the nodes given with all of them would count nodes twice: an error.
    Until session 49 the merge was a run of its own (build: r1 and r1-2)."""
    folder = os.path.join(work, "beside")
    os.makedirs(folder)
    for node in NODES:
        shutil.copy2(stores[node], folder)
    shutil.copy2(merged, os.path.join(folder, "r1.nio"))
    r = must(niorep, "build", folder, "-o", os.path.join(work, "beside.html"), "--bootstraps", "0")
    check("(1 run)" in r.stderr and "r1.nio is the merge of the 3 node stores of run 'r1' given too; read once" in r.stderr,
          f"build over node stores and their merge: {r.stderr.strip()}")
    check(summary(niorep, folder) == summary(niorep, merged), "summary of node stores and their merge != of the merge")
    some = os.path.join(work, "r1-two.nio")
    must(niorep, "merge", "-q", stores[NODES[0]], stores[NODES[1]], "-o", some)
    r = tool(niorep, "summary", some, *stores.values())
    check(r.returncode == 1 and "give the node stores or their merge" in r.stderr,
          f"a merge of two nodes given with all three: {r.returncode} {r.stderr.strip()}")


def check_compare(niorep, work, folder):
    other = os.path.join(work, "stores_b")
    shutil.copytree(folder, other, ignore=shutil.ignore_patterns(".niorep"))
    out = os.path.join(work, "compare.json")
    must(niorep, "compare", folder, other, "-o", os.path.join(work, "compare.html"), "--json", out,
         "--bootstraps", "100")
    c = json.load(open(out))
    for g in c["groups"]:
        names = [r["name"] for r in g["runs"]]
        check(names == ["r1"], f"compare group {g['id']}: runs {names}, expected the one merged run r1")


def check_mismatches(niorep, work, stores, runs):
    def fails(args, needle, what):
        r = tool(niorep, *args)
        check(r.returncode == 1 and needle in r.stderr, f"{what}: exit {r.returncode}, stderr {r.stderr.strip()!r}")

    dup = os.path.join(work, "n1copy.nio")
    shutil.copy(stores["n1"], dup)
    fails(["merge", stores["n1"], dup, "-o", os.path.join(work, "x.nio")], "both hold node 'n1' of run 'r1'",
          "merge of the same node twice")
    folder = os.path.join(work, "dupfolder")
    os.makedirs(folder)
    for s in (stores["n1"], stores["n2"], dup):
        shutil.copy(s, folder)
    fails(["build", folder, "-o", os.path.join(work, "dup.html")], "both hold node 'n1' of run 'r1'",
          "build over a folder with the same node twice")

    relabel(runs["n1"], os.path.join(work, "r2n3"), {"run": "r2", "node": "n3"})
    relabel(runs["n1"], os.path.join(work, "nolabel"), None)
    for name in ("r2n3", "nolabel"):
        must(niorep, "ingest", "-q", os.path.join(work, name), "-o", os.path.join(work, name + ".nio"))
    other = os.path.join(work, "r2n3.nio")
    fails(["merge", stores["n1"], other, "-o", os.path.join(work, "x.nio")], "is part of run 'r2' but",
          "merge with a node of another run")
    fails(["merge", stores["n1"], os.path.join(work, "nolabel.nio"), "-o", os.path.join(work, "x.nio")],
          "no run label", "merge with a store without labels")
    fails(["summary", stores["n1"], stores["n2"], other], "the inputs hold 2 runs (r1, r2n3)",
          "summary over two runs")
    check(not os.path.exists(os.path.join(work, "x.nio")), "a failed merge left its output")
    mixed = os.path.join(work, "mixed")
    os.makedirs(mixed)
    for s in (stores["n1"], stores["n2"], other):
        shutil.copy(s, mixed)
    r = must(niorep, "build", mixed, "-o", os.path.join(work, "mixed.html"), "--bootstraps", "0")
    check("(2 runs)" in r.stderr, f"build over r1's nodes and one node of r2: {r.stderr.strip()}")
    r = tool(niorep, "merge", "-o", os.path.join(work, "x.nio"))
    check(r.returncode == 2 and "got none" in r.stderr, "merge of no store is a usage error")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--niorep", required=True)
    ap.add_argument("--job", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if not shutil.which("strace"):
        print("SKIP: no strace")
        return 77
    work = os.path.abspath(a.out)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    runs = trace_nodes(a.niorep, a.job, work)
    stores = {}
    for node in NODES:
        stores[node] = os.path.join(work, node + ".nio")
        must(a.niorep, "ingest", "-q", runs[node], "-o", stores[node])
    merged = os.path.join(work, "r1.nio")
    must(a.niorep, "merge", "-q", *[stores[n] for n in NODES], "-o", merged)
    swapped = os.path.join(work, "r1-swapped.nio")
    must(a.niorep, "merge", "-q", *[stores[n] for n in reversed(NODES)], "-o", swapped)
    check(filecmp.cmp(merged, swapped, shallow=False), "merge depends on the order of its inputs")

    parts = [Part(a.niorep, stores[n], n, k) for k, n in enumerate(NODES)]
    mfiles = export(a.niorep, merged, "files")
    mphases = export(a.niorep, merged, "phases")
    mpath = {int(f["file_id"]): f["path"] for f in mfiles}
    mphase = {int(p["phase_id"]): (p["name"], int(p["begin_ns"])) for p in mphases}
    check_events(parts, export(a.niorep, merged, "events"), mpath, mphase)
    check_files(parts, mfiles)
    check_processes(parts, export(a.niorep, merged, "processes"))
    check_phases(parts, mphases)
    meta = {r["key"]: r["value"] for r in export(a.niorep, merged, "meta")}
    check(meta.get("manifest.labels.run") == "r1" and "manifest.labels.node" not in meta and
          meta.get("part.1.manifest.labels.node") == "n2" and meta.get("merged_parts") == str(len(NODES)),
          "merged meta: run label kept, node labels moved to part.K.*")

    part_summaries = [summary(a.niorep, stores[n]) for n in NODES]
    s = summary(a.niorep, merged)
    check_model(parts, part_summaries, s)
    check(summary(a.niorep, *[stores[n] for n in reversed(NODES)]) == s, "summary of the node stores != summary of r1.nio")
    # one node store is a run of one node, whose summary is the node store's
    # as build models it alone (until session 49 merge refused one input)
    single = os.path.join(work, "r1_one.nio")
    r = must(a.niorep, "merge", stores[NODES[0]], "-o", single)
    check("1 node merged" in r.stderr, f"merge of one node store: {r.stderr.strip()}")
    check(summary(a.niorep, single) == part_summaries[0], "merge of one node store: summary differs from the node store's")
    smeta = {r["key"]: r["value"] for r in export(a.niorep, single, "meta")}
    check(smeta.get("merged_parts") == "1" and smeta.get("part.0.node") == NODES[0], "merge of one node store: meta")

    folder = check_build_and_cache(a.niorep, work, stores, runs, merged)
    check_concurrent_subsets(a.niorep, work, stores)
    check_merge_beside_parts(a.niorep, work, stores, merged)
    check_compare(a.niorep, work, folder)
    check_mismatches(a.niorep, work, stores, runs)

    for f in failures:
        print("FAIL:", f)
    print(f"nodes: {len(failures)} failure(s); merged {s['totals']['events']} events of {len(NODES)} nodes")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
