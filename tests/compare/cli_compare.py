#!/usr/bin/python3
"""`niorep compare` on small generated strace logs (ctest compare_cli, a few
seconds): what a run could not measure, the options, the inputs (review 49).

Each run reads 4 files of 50 x 4 KiB and writes a checkpoint of 16 x 64 KiB
back to back (one write burst), traced with or without -T (durations) and
-ttt (timestamps). Checks, each with its known answer:
  1. a side without -T or without timestamps: what it could not measure is
     null (n/a), not 0, and not "changed"; the report says why;
  2. --threshold 0: a run against itself changes nothing;
  3. the option parser: unknown options and flags given a value named
     without their value, "--" ends the options, exit 2;
  4. one strace log as a group takes the workload of the manifest beside it
     (else its folder's name); no pair at all is an error (exit 1);
  5. a missing input of B is found before A is ingested;
  6. an interval of a call sample says so in the page (--sample-cap);
  7. replicates: a findings rule that could not look in a run is n/a in
     the pool, not "did not fire"; an op group timed in no run of a pair is
     0 calls timed;
  8. figure 4 draws the job files' reads (a Python module's left out), and
     its numbers are in the page and the JSON (session 50).
Exit 0 pass, 1 fail."""
import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def make_run(d, workload, seed, durations=True, stamps=True, fsync=False, manifest=True, imports=0,
             read_size=4096, rewind=False):
    """A run folder d: strace.log (strace -f [-ttt] [-T] -y) and manifest.json;
    200 reads of read_size bytes, 16 writes of 64 kB.
    rewind: each file's last 25 reads after a seek back to 0, as an epoch.
    imports: reads of a Python module first (a runtime file, docs/definitions.md),
    each 400-600 us, slower than every job file's read. Returns the job files'
    read durations in ns, as the log prints them."""
    rnd = random.Random(seed)
    os.makedirs(d, exist_ok=True)
    t = 1700000000.0
    lines = []
    job_reads = []

    def emit(call, dur):
        nonlocal t
        t += 0.0001
        stamp = f" {t:.6f}" if stamps else ""
        lines.append(f"1000{stamp} {call}" + (f" <{dur:.6f}>" if durations else ""))

    emit('execve("/usr/bin/python3", ["python3"], 0x0 /* 1 vars */) = 0', 0.001)
    if imports:
        m = "/usr/lib/python3.11/json/decoder.py"
        emit(f'openat(AT_FDCWD</w>, "{m}", O_RDONLY|O_CLOEXEC) = 3<{m}>', 0.00001)
        for _ in range(imports):
            emit(f'read(3<{m}>, ""..., 4096) = 4096', round(rnd.uniform(400e-6, 600e-6), 6))
        emit(f"close(3<{m}>) = 0", 0.000005)
    for f in range(4):
        p = f"/data/{workload}/file{f}"
        emit(f'openat(AT_FDCWD</w>, "{p}", O_RDONLY|O_CLOEXEC) = 3<{p}>', 0.00001)
        for k in range(50):
            if rewind and k == 25:
                emit(f"lseek(3<{p}>, 0, SEEK_SET) = 0", 0.000002)
            dur = round(rnd.lognormvariate(0, 0.3) * 20e-6, 6)
            job_reads.append(round(dur * 1e6) * 1000)
            emit(f'read(3<{p}>, ""..., {read_size}) = {read_size}', dur)
        emit(f"close(3<{p}>) = 0", 0.000005)
    ck = f"/ckpt/{workload}.pt"
    emit(f'openat(AT_FDCWD</w>, "{ck}", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 4<{ck}>', 0.00002)
    for _ in range(16):
        emit(f'write(4<{ck}>, ""..., 65536) = 65536', 0.00001)
    if fsync:
        emit(f"fsync(4<{ck}>) = 0", 0.0005)
    emit(f"close(4<{ck}>) = 0", 0.000005)
    lines.append("1000" + (f" {t + 0.0001:.6f}" if stamps else "") + " exit_group(0) = ?")
    lines.append("1000" + (f" {t + 0.0002:.6f}" if stamps else "") + " +++ exited with 0 +++")
    with open(os.path.join(d, "strace.log"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if manifest:
        with open(os.path.join(d, "manifest.json"), "w") as f:
            json.dump({"format": "niorep-run", "version": 1, "labels": {"workload": workload}}, f)
    return job_reads


class Ctx:
    def __init__(self, niorep, work):
        self.niorep, self.work = niorep, work

    def run(self, *args, cwd=None):
        return subprocess.run([self.niorep, "compare", *args], capture_output=True, text=True, cwd=cwd or self.work)

    def compare(self, name, *args):
        """compare args -o NAME.html --json NAME.json; the JSON and the page."""
        html, js = os.path.join(self.work, name + ".html"), os.path.join(self.work, name + ".json")
        r = self.run(*args, "-o", html, "--json", js)
        if r.returncode != 0:
            fail(f"compare {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
        with open(js) as f, open(html, encoding="utf-8") as g:
            return json.load(f), g.read()


def row(entry, name):
    for s in entry["stats"]:
        if s["name"] == name:
            return s
    fail(f"no row {name!r} in {[s['name'] for s in entry['stats']]}")


def expect(cond, msg):
    if not cond:
        fail(msg)


def check_unmeasured(c):
    """1: n/a, never 0, for what a run could not measure."""
    j, page = c.compare("tn", "T/w", "notT/w")
    p = j["pairs"][0]
    for name in ("unphased I/O time", "time in write bursts", "highest burst write rate", "read calls timed",
                 "read mean latency", "write calls timed"):
        s = row(p, name)
        expect(s["a"] is not None and s["a"] > 0 and s["b"] is None and s["verdict"] == "n/a",
               f"-T vs no -T: {name} should be n/a on B: {s}")
    for name in ("write bursts", "bytes written in bursts", "unphased bytes", "read calls", "duration"):
        s = row(p, name)
        expect(s["verdict"] == "unchanged" and s["a"] == s["b"] and s["a"] > 0,
               f"-T vs no -T: {name} is measured on both sides: {s}")
    expect(p["changed"] == [] and p["significant"] == [], f"-T vs no -T: changed {p['changed']}")
    expect("B:w has no call durations (traced without -T): its values here are n/a, not 0." in page,
           "-T vs no -T: the page does not say B has no durations")

    j, page = c.compare("nn", "notT/w", "notT2/w")
    expect("nothing to compare here: neither run has call durations (traced without -T)" in page,
           "no -T on both sides: the latency section does not say why it is empty")
    expect(not any(s["section"] == "latency" for s in j["pairs"][0]["stats"]), "no -T on both sides: latency rows")

    j, page = c.compare("nots", "T/w", "nots/w")
    p = j["pairs"][0]
    for name in ("duration", "unphased wall time", "unphased bytes", "unphased I/O time", "write bursts",
                 "bytes written in bursts", "time in write bursts", "highest burst write rate",
                 "read bytes per second of run"):
        s = row(p, name)
        expect(s["b"] is None and s["verdict"] == "n/a", f"no timestamps: {name} should be n/a on B: {s}")
    expect(row(p, "bytes read")["verdict"] == "unchanged", "no timestamps: bytes read")
    expect(p["changed"] == [], f"no timestamps: changed {p['changed']}")
    expect("B:w has no timestamps (traced without -tt/-ttt)" in page, "no timestamps: not said in the page")
    print("ok: unmeasured values are n/a on their side, not 0, and the page says why")


def check_threshold_zero(c):
    """2: a change must be nonzero."""
    j, page = c.compare("t0", "T/w", "T/w", "--threshold", "0")
    p = j["pairs"][0]
    expect(p["changed"] == [] and p["significant"] == [], f"--threshold 0, self: changed {p['changed']}")
    expect(not any(s["verdict"] == "changed" for s in p["stats"]), "--threshold 0: a changed row")
    j, _ = c.compare("t0b", "T/w", "T2/w", "--threshold", "0")
    changed = j["pairs"][0]["changed"]
    expect("read mean latency" in changed and "bytes read" not in changed,
           f"--threshold 0: any nonzero change counts, equal values not: {changed}")
    print("ok: --threshold 0 marks no equal value changed")


def check_options(c):
    """3: the option parser, as getopt_long in the other commands."""
    out = ["-o", os.path.join(c.work, "x.html")]
    cases = [
        (["T/w", "T2/w", *out, "--bogus"], "unknown option '--bogus'"),
        (["T/w", "T2/w", *out, "-x"], "unknown option -x"),
        (["T/w", "T2/w", *out, "--files-by-node=banana"], "option --files-by-node takes no value"),
        (["T/w", "T2/w", *out, "--help=foo"], "option --help takes no value"),
        (["T/w", "T2/w", *out, "--verylongoptionnamethatexceedsthirtytwo=5"],
         "unknown option '--verylongoptionnamethatexceedsthirtytwo'"),
        (["T/w", "T2/w", *out, "--json"], "option --json needs a value"),
        (["T/w", "T2/w", *out, "--threshold=-1"], "bad value '-1' for --threshold"),
        (["T/w", "T2/w", *out, "--seed", "1.5"], "bad value '1.5' for --seed"),
    ]
    for args, want in cases:
        r = c.run(*args)
        first = r.stderr.splitlines()[0] if r.stderr else ""
        expect(r.returncode == 2 and first == "niorep compare: " + want,
               f"compare {' '.join(args)}: exit {r.returncode}, {r.stderr.strip()!r}, expected {want!r}")
    # "--" ends the options: an input named like one, options before it
    shutil.copytree(os.path.join(c.work, "T", "w"), os.path.join(c.work, "-dash"))
    for args in (("--threshold=0.2", *out, "--", "-dash", "T2/w"), ("T/w", "T2/w", *out, "--")):
        r = c.run(*args)
        expect(r.returncode == 0, f"compare {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    r = c.run("--help")
    expect(r.returncode == 0 and "1st-percentile" in r.stdout and "one strace log" in r.stdout,
           "compare --help: the floor and the inputs as docs/compare.md says")
    print("ok: option errors name the option alone (exit 2); -- ends the options")


def check_inputs(c):
    """4 and 5: one log as a group; no pair; a missing input found first."""
    j, _ = c.compare("log", "T/w/strace.log", "folder")
    expect(j["groups"][0]["runs"][0]["workload"] == "w", f"a log's workload: {j['groups'][0]['runs']}")
    expect([p["b"]["run"] for p in j["pairs"]] == ["w"], f"a log against a folder: pairs {j['pairs']}")
    j, _ = c.compare("log2", "bare/zz/strace.log", "T/w")
    expect(j["groups"][0]["runs"][0]["workload"] == "zz", f"a log without manifest: {j['groups'][0]['runs']}")


def check_no_pair(c):
    html = os.path.join(c.work, "none.html")
    r = c.run("folder", "others", "-o", html)
    expect(r.returncode == 1 and "no pair" in r.stderr and not os.path.exists(html),
           f"no pair: exit {r.returncode}, html {os.path.exists(html)}: {r.stderr.strip()}")
    print("ok: one log takes its manifest's workload; no pair is an error")


def check_missing_first(c):
    fresh = os.path.join(c.work, "fresh")
    make_run(os.path.join(fresh, "w"), "w", 7)
    r = c.run("fresh/w", "nosuch", "-o", os.path.join(c.work, "e.html"))
    expect(r.returncode == 1 and "nosuch" in r.stderr, f"a missing B: exit {r.returncode}: {r.stderr.strip()}")
    expect(not os.path.exists(os.path.join(fresh, ".niorep")), "a missing B: A was ingested first")
    print("ok: a missing input of B is found before A is ingested")


def check_sample_cap(c):
    _, page = c.compare("cap", "T/w", "T2/w", "--sample-cap", "50")
    expect("of call samples n=50/50, moved to the difference over all calls" in page,
           "--sample-cap: the page does not say the interval is a sample's, moved")
    print("ok: a sampled interval says so in the page")


def check_pools(c):
    """7: replicate pools of rules that could not look, and of op groups timed nowhere."""
    j, _ = c.compare("rep", "repA", "repB")
    pool = j["replicates"][0]
    s = row(pool, "finding small_reads")
    expect(s["verdict"] == "n/a" and s["a"]["mean"] is None,
           f"small_reads could not look in w_3 (no -T): the pool must be n/a: {s}")
    j, _ = c.compare("repT", "repA", "repC")
    pool = j["replicates"][0]
    s = row(pool, "sync calls timed")
    expect(s["a"]["mean"] == 0.5 and s["b"]["mean"] == 0.5 and "sync calls timed" not in pool["unpooled"],
           f"sync timed in one pair of two: mean 0.5 calls a side: {s}")
    expect(row(pool, "finding small_reads")["a"]["mean"] == 1, "small_reads fired in every -T run")
    print("ok: replicate pools: a rule that could not look is n/a; an op group timed in no run is 0")


def nearest_rank(ns, q):
    """The value of rank ceil(q n) of the sorted values (docs/summary-schema.md)."""
    v = sorted(ns)
    return v[max(math.ceil(q * len(v) - 1e-9), 1) - 1]


def check_figure4(c, job_a, job_b):
    """8: figure 4 draws the job files' reads, as niorep build's does (until
    session 50 every regular file's: here 60 and 20 module reads of 400-600
    us beside the 200 job-file reads of 8-53 us), and its numbers are in
    the page and the JSON; the tested rows stay every regular file's."""
    j, page = c.compare("fig4", "imp/w", "imp2/w")
    p = j["pairs"][0]
    f = p.get("figure4")
    expect(f is not None and f["what"] == "job-file read", f"figure4: {f}")
    for side, reads in (("a", job_a), ("b", job_b)):
        s = f[side]
        expect(s["calls"] == len(reads) == 200, f"figure4.{side}.calls {s['calls']}, job-file reads {len(reads)}")
        for key, q in (("p50_s", 0.5), ("p99_s", 0.99), ("p999_s", 0.999)):
            want = nearest_rank(reads, q) * 1e-9
            expect(math.isclose(s[key], want, rel_tol=1e-5), f"figure4.{side}.{key} = {s[key]}, recounted {want}")
        expect(s["cdf"][-1] == 1 and math.isclose(s["ccdf"][-1], 1 / 200) and
               math.isclose(s["latency_s"][-1], max(reads) * 1e-9, rel_tol=1e-5) and
               len(s["latency_s"]) == len(s["cdf"]) == len(s["ccdf"]),
               f"figure4.{side}: the points end at the slowest job-file read: {s['latency_s'][-3:]}, {s['cdf'][-3:]}")
    expect(row(p, "read calls timed")["a"] == 260 and row(p, "read calls timed")["b"] == 220,
           "the tested latency rows count every regular file's reads (the imports too)")
    expect(row(p, "read p99")["a"] > 400e-6, f"read p99 over every file is an import's: {row(p, 'read p99')}")
    for text in ("Read latency of the job files (the Python runtime's left out), CDF and tail, A and B overlaid",
                 "Figure 4's numbers: read latency of the job files",
                 "Latency per operation class (every regular file, the Python runtime's included; "
                 "sync also of directories and of no file)"):
        expect(text in page, f"the page lacks {text!r}")
    print("ok: figure 4 of compare draws the job files' reads; its numbers are in the page and the JSON")


def check_common_size(c):
    """The most common access size (docs/definitions.md) of each run, and
    the share of the sized requests it holds: 4096 B against 8192 B, 200 of
    216 calls on both sides (the 16 writes are 64 kB)."""
    j, _ = c.compare("cs", "T/w", "big/w")
    p = j["pairs"][0]
    s = row(p, "most common access size")
    expect(s["a"] == 4096 and s["b"] == 8192 and s["verdict"] == "changed", f"most common access size: {s}")
    s = row(p, "share of sized requests at the most common size")
    expect(abs(s["a"] - 200 / 216) < 1e-6 and s["a"] == s["b"] and s["verdict"] == "unchanged",
           f"share at the most common size: {s}")
    print("ok: the most common access size and its share, per run")


def check_rereads(c):
    """The share of the job files' bytes read before (docs/definitions.md,
    "Re-reads"): none against one half, each file's 25 last reads after a
    seek back to its start."""
    j, _ = c.compare("rr", "T/w", "again/w")
    s = row(j["pairs"][0], "share of the job files' bytes read before, at least")
    expect(s["a"] == 0 and s["b"] == 0.5 and s["verdict"] == "changed", f"bytes read before: {s}")
    print("ok: the share of the bytes read before, per run")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--niorep", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    w = lambda *p: os.path.join(a.work, *p)
    make_run(w("T", "w"), "w", 1)
    make_run(w("T2", "w"), "w", 2)
    make_run(w("notT", "w"), "w", 1, durations=False)
    make_run(w("notT2", "w"), "w", 2, durations=False)
    make_run(w("nots", "w"), "w", 1, durations=False, stamps=False)
    make_run(w("big", "w"), "w", 1, read_size=8192)
    make_run(w("again", "w"), "w", 1, rewind=True)
    make_run(w("folder", "w"), "w", 3)
    make_run(w("folder", "v"), "v", 4)
    make_run(w("others", "x"), "x", 5)
    make_run(w("others", "y"), "y", 6)
    make_run(w("bare", "zz"), "zz", 5, manifest=False)
    for g, seed in (("repA", 10), ("repB", 20), ("repC", 30)):
        make_run(w(g, "w_1"), "w", seed + 1, fsync=True)
        make_run(w(g, "w_2"), "w", seed + 2)
        if g != "repC":
            make_run(w(g, "w_3"), "w", seed + 3, durations=False)
    job_a = make_run(w("imp", "w"), "w", 41, imports=60)
    job_b = make_run(w("imp2", "w"), "w", 42, imports=20)
    c = Ctx(a.niorep, a.work)
    check_figure4(c, job_a, job_b)
    check_unmeasured(c)
    check_common_size(c)
    check_rereads(c)
    check_threshold_zero(c)
    check_options(c)
    check_inputs(c)
    check_no_pair(c)
    check_missing_first(c)
    check_sample_cap(c)
    check_pools(c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
