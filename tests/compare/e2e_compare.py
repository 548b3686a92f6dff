#!/usr/bin/python3
"""End-to-end test of `niorep compare` on real traces (ctest label e2e).

Traces tests/compare/reader_workload.py with the built `niorep trace` into
three groups of two workloads each ("reader": 16 KiB reads, "reader_big":
64 KiB reads; label workload=...):

  base   page cache warm
  noise  the same, traced again (only noise differs)
  slow   --cold: cached pages dropped and read-ahead off before each file,
         so every read goes to the block device (a slowed file-system path)

and checks:
  1. base vs slow: every pair reports the read latency distribution and read
     p50 as significant, p50 more than 2x slower (base and slow traced again
     when not, as for noise below); read throughput never rises
     significantly;
  2. base vs base: no significant change and no changed value at all;
  3. base vs noise: no significant verdict for the robust latency statistics
     (read and open distributions and p50); the far tail (p99, p99.9) and
     throughput in calls are not part of this check, and a noise trace
     disturbed by other processes is retraced (docs/compare.md, "noise");
  4. three groups: pairs are formed per later group and per workload;
  5. determinism: the same command twice, and with -j 1 and -j 3, gives
     byte-identical HTML and JSON;
  6. the committed sample set (datasets/sample) compared with itself: six
     pairs, nothing changed (skipped with a note when this build cannot
     read its zstd logs yet).
With --replicates-test instead (ctest e2e_compare_replicates): four warm and
four cold traces of one workload, compared as replicates: the pooled read p50
significant at the smallest p four runs a side can give (2/70), the calls and
bytes read at p = 1; the warm runs against themselves: nothing significant.
With --workers-test instead (ctest e2e_compare_workers, label slow): the
committed sample set against the mlp reference workload traced again with
DataLoader workers 0 (the sample used 2): one pair, five unmatched runs, the
process count reported as changed.
Exit 77 (skip) when strace cannot trace here (or torch is missing)."""
import argparse
import glob
import html.parser
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PYTHON = "/usr/bin/python3"
WORKLOAD = os.path.join(HERE, "reader_workload.py")
SKIP = 77
NOISE_ATTEMPTS = 3
ROBUST = ("read latency distribution", "read p50", "open latency distribution", "open p50")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def on_one_cpu():
    # strace -T times a call from its entry stop to its exit stop, so the
    # tracer's wake-up is part of every latency. With tracer and tracee on
    # different CPUs of this VM, that wake-up took 48-65 us of a page-cache
    # read's 65 us p50 (session 27: 9 us on one CPU), more than the block
    # device adds, and the slowed path no longer doubled p50. On one CPU
    # the traced latency is the call's own (docs/compare.md, "noise").
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})


def trace(niorep, run_dir, workload, data, out, extra):
    os.makedirs(out, exist_ok=True)
    r = run([niorep, "trace", "-o", run_dir, "--label", f"workload={workload}", "--",
             PYTHON, WORKLOAD, "--data", data, "--out", out] + extra, preexec_fn=on_one_cpu)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        if "ptrace" in r.stderr or "Operation not permitted" in r.stderr or "strace" in r.stderr:
            print("SKIP: strace cannot trace here")
            sys.exit(SKIP)
        fail(f"niorep trace {run_dir}: exit {r.returncode}")


def compare(niorep, work, name, groups, extra=()):
    html = os.path.join(work, name + ".html")
    js = os.path.join(work, name + ".json")
    r = run([niorep, "compare", *groups, "-o", html, "--json", js, *extra])
    if r.returncode != 0:
        fail(f"niorep compare {' '.join(groups)}: exit {r.returncode}: {r.stderr.strip()}")
    with open(js) as f:
        return json.load(f), html, js


def stat(entry, name):
    """The statistic name of a pair or of a pool of replicates."""
    for s in entry["stats"]:
        if s["name"] == name:
            return s
    fail(f"{entry['workload']}: no statistic {name!r}")


def slow_timing_problems(j):
    """What the machine's load can cause in base vs slow: a latency change
    not significant, or less than 2x (docs/compare.md, "noise")."""
    problems = []
    for p in j["pairs"]:
        for name in ("read latency distribution", "read p50"):
            if name not in p["significant"]:
                problems.append(f"{p['workload']}: {name} not significant: {stat(p, name)}")
        p50 = stat(p, "read p50")
        if not (p50["rel_diff"] > 1.0 and p50["ci"]["low"] > 0):
            problems.append(f"{p['workload']}: read p50 should be more than 2x slower: {p50}")
    return problems


def check_slow(j):
    if len(j["pairs"]) != 2:
        fail(f"base vs slow: expected 2 pairs, got {len(j['pairs'])}")
    problems = slow_timing_problems(j)
    if problems:
        fail("base vs slow, " + "; ".join(problems))
    for p in j["pairs"]:
        # Throughput in calls is sum(bytes) / sum(time): one preempted call of
        # a few ms in either run moves it (docs/compare.md), so it may stay
        # inside the noise; it must never be a significant rise.
        thr = stat(p, "read bytes per second in calls")
        if thr["verdict"] == "significant" and thr["ci"]["low"] > 0:
            fail(f"base vs slow, {p['workload']}: read throughput rose significantly: {thr}")
        # Same calls, same bytes: the work did not change, only its speed.
        for name in ("read calls", "bytes read"):
            if stat(p, name)["verdict"] != "unchanged":
                fail(f"base vs slow, {p['workload']}: {name} should be unchanged: {stat(p, name)}")
        print(f"ok: base vs slow, {p['workload']}: {len(p['significant'])} significant: {p['significant']}")


class PageStats(html.parser.HTMLParser):
    """Counts what a self-contained compare page must (not) hold."""

    def __init__(self):
        super().__init__()
        self.articles = self.figures = self.svgs = self.scripts = 0
        self.external = []
        self.text = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.articles += tag == "article"
        self.figures += tag == "figure"
        self.svgs += tag == "svg"
        self.scripts += tag == "script"
        for k in ("src", "href", "xlink:href"):
            v = a.get(k)
            if v and not (v.startswith("#") or v.startswith("data:")):
                self.external.append(f"{tag} {k}={v}")

    def handle_data(self, data):
        self.text.append(data)


def check_html(path, j):
    p = PageStats()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    n, pools = len(j["pairs"]), len(j["replicates"])
    text = " ".join(p.text)
    if p.articles != n + pools or p.figures != 2 * n or p.svgs < 2 * n:
        fail(f"{path}: {p.articles} articles, {p.figures} figures, {p.svgs} svg for {n} pairs and {pools} pools")
    if p.scripts or p.external:
        fail(f"{path}: scripts {p.scripts}, external references {p.external[:5]}")
    for pair in j["pairs"]:
        for name in pair["significant"]:
            if name not in text:
                fail(f"{path}: significant change {name!r} not in the page")
    if "SIGNIFICANT" not in text or "Pairs and significant changes" not in text:
        fail(f"{path}: no overview of significant changes")
    print(f"ok: {os.path.basename(path)}: {n} pairs, {p.figures} figures, self-contained")


def check_self(j, what, npairs):
    if len(j["pairs"]) != npairs:
        fail(f"{what}: expected {npairs} pairs, got {len(j['pairs'])}")
    for p in j["pairs"]:
        if p["significant"] or p["changed"]:
            fail(f"{what}, {p['workload']}: significant {p['significant']}, changed {p['changed']}")
        for s in p["stats"]:
            if s.get("abs_diff") not in (0, 0.0, None):
                fail(f"{what}, {p['workload']}: {s['name']} differs from itself: {s}")
    print(f"ok: {what}: {npairs} pairs, no change")


def noise_flags(j):
    """The robust latency statistics flagged in a base vs noise comparison."""
    flagged = []
    for p in j["pairs"]:
        flagged += [f"{p['workload']}: {json.dumps(stat(p, n))}" for n in p["significant"] if n in ROBUST]
        print(f"  base vs noise, {p['workload']}: significant: {p['significant'] or 'none'}")
    return flagged


def replicates_test(a):
    """Four warm and four cold traces of the reader workload (one label),
    compared together (docs/compare.md, "Replicates")."""
    data = os.path.join(a.work, "data")
    if run([PYTHON, WORKLOAD, "--data", data, "--make"]).returncode != 0:
        fail("making the data")
    run([PYTHON, WORKLOAD, "--data", data])
    groups = {"warm": [], "cold": ["--cold"]}
    for group, extra in groups.items():
        for k in range(1, 5):
            trace(a.niorep, os.path.join(a.work, group, f"reader_{k}"), "reader", data,
                  os.path.join(a.work, "out", group, str(k)), ["--read-size", "16384"] + extra)
    warm, cold = os.path.join(a.work, "warm"), os.path.join(a.work, "cold")
    j, html_path, js = compare(a.niorep, a.work, "replicates", [warm, cold])
    if len(j["pairs"]) != 4 or len(j["replicates"]) != 1:
        fail(f"warm vs cold: {len(j['pairs'])} pairs, {len(j['replicates'])} pools")
    pool = j["replicates"][0]
    if pool["runs_per_side"] != 4 or abs(pool["smallest_p"] - 2 / 70) > 1e-6:
        fail(f"warm vs cold: pool {pool['runs_per_side']} runs a side, smallest p {pool['smallest_p']}")
    if pool["a_runs"] != [f"reader_{k}" for k in range(1, 5)]:
        fail(f"warm vs cold: A runs {pool['a_runs']}")
    p50 = stat(pool, "read p50")
    # every cold run's p50 above every warm run's: only the observed split and its mirror are as extreme
    if p50["verdict"] != "significant" or abs(p50["p_value"] - 2 / 70) > 1e-6 or not p50["b"]["min"] > p50["a"]["max"]:
        fail(f"warm vs cold: pooled read p50 {p50}")
    for name in ("read calls", "bytes read"):
        st = stat(pool, name)
        if st["verdict"] != "no significant change" or st["p_value"] != 1:
            fail(f"warm vs cold: the same work must be unchanged: {st}")
    check_fdr(pool, j["options"]["replicate_alpha"])
    check_html(html_path, j)
    with open(html_path, encoding="utf-8") as f:
        page = f.read()
    if ("reader: replicates, A vs B (4 runs a side)" not in page or "beyond the spread between runs" not in page
            or "BH q" not in page or "those that hold with at most 5% of false ones among them." not in page):
        fail(f"{html_path}: no replicates article or overview")
    _, html2, js2 = compare(a.niorep, a.work, "replicates_j1", [warm, cold], ("-j", "1"))
    for x, y in ((html_path, html2), (js, js2)):
        with open(x, "rb") as f1, open(y, "rb") as f2:
            if f1.read() != f2.read():
                fail(f"{x} and {y} (-j 1) differ")
    print(f"ok: warm vs cold, 4 runs a side: significant beyond the spread: {pool['significant']}")

    j, _, _ = compare(a.niorep, a.work, "replicates_self", [warm, warm])
    pool = j["replicates"][0]
    if pool["significant"] or any(s["p_value"] not in (1, None) for s in pool["stats"]):
        fail(f"warm vs warm: {pool['significant']}, p {[s['p_value'] for s in pool['stats']]}")
    check_fdr(pool, j["options"]["replicate_alpha"])
    print("ok: warm vs warm: every pooled p = 1, nothing significant")
    return 0


def bh_reference(ps):
    """Benjamini-Hochberg q by its definition, written apart from the C:
    for each p, the least m p_(k) / k over the ranks k whose p_(k) >= p."""
    tested = sorted(p for p in ps if p is not None)
    m = len(tested)
    return [None if p is None else min([1.0] + [m * x / k for k, x in enumerate(tested, 1) if x >= p]) for p in ps]


def check_fdr(pool, alpha):
    """Every pooled row's q against bh_reference of the pool's p-values
    (6 significant digits in the JSON), and significant_at_fdr against the
    rows that are significant with q <= alpha."""
    ps = [st["p_value"] for st in pool["stats"]]
    for st, want in zip(pool["stats"], bh_reference(ps)):
        got = st["q_value"]
        if (got is None) != (want is None) or (want is not None and abs(got - want) > 1e-5 * want):
            fail(f"{pool['workload']} {st['name']}: q {got}, Benjamini-Hochberg gives {want}")
    held = [st["name"] for st in pool["stats"] if st["verdict"] == "significant" and st["q_value"] <= alpha]
    if pool["significant_at_fdr"] != held:
        fail(f"{pool['workload']}: significant_at_fdr {pool['significant_at_fdr']}, expected {held}")


def workers_test(a):
    """The committed sample set against the mlp workload traced again with
    DataLoader workers 0 instead of 2: one pair (mlp), five unmatched runs,
    and the process count must be reported as changed (7 -> 1)."""
    if run([PYTHON, "-c", "import torch"]).returncode != 0:
        print("SKIP: torch not importable")
        return SKIP
    wl = os.path.join(REPO, "workloads", "wl_mlp.py")
    data, work = os.path.join(a.work, "data"), os.path.join(a.work, "work")
    r = run([PYTHON, wl, "--data", data, "--work", work, "--init-only"])
    if r.returncode != 0:
        fail("mlp setup: " + r.stderr[-2000:])
    trace_dir = os.path.join(a.work, "workers0", "mlp")
    r = run([a.niorep, "trace", "-o", trace_dir, "--label", "workload=mlp", "--",
             PYTHON, wl, "--data", data, "--work", work, "--workers", "0"])
    if r.returncode != 0:
        fail("tracing mlp with 0 workers: " + r.stderr[-2000:])
    sample = os.path.join(a.work, "sample")
    shutil.copytree(os.path.join(REPO, "datasets", "sample"), sample, ignore=shutil.ignore_patterns(".niorep"))
    j, html_path, _ = compare(a.niorep, a.work, "workers", [sample, os.path.join(a.work, "workers0")])
    if [p["workload"] for p in j["pairs"]] != ["mlp"]:
        fail(f"sample vs workers0: pairs {[p['workload'] for p in j['pairs']]}")
    unmatched = sorted(u["run"] for u in j["unmatched"])
    if unmatched != ["diffusion", "language", "rl", "snn", "vision"]:
        fail(f"sample vs workers0: unmatched {unmatched}")
    p = j["pairs"][0]
    procs = stat(p, "processes")
    if procs["verdict"] != "changed" or not procs["b"] < procs["a"]:
        fail(f"sample vs workers0: process count should drop: {procs}")
    check_html(html_path, j)
    print(f"ok: sample vs workers0: processes {procs['a']:.0f} -> {procs['b']:.0f}; "
          f"significant: {p['significant'] or 'none'}")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--niorep", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--replicates-test", action="store_true",
                    help="four warm and four cold traces of one workload, compared as replicates")
    ap.add_argument("--workers-test", action="store_true",
                    help="trace the mlp workload with 0 workers and compare it with datasets/sample")
    a = ap.parse_args()
    if not shutil.which("strace"):
        print("SKIP: strace not installed")
        return SKIP
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    if a.workers_test:
        return workers_test(a)
    if a.replicates_test:
        return replicates_test(a)
    data = os.path.join(a.work, "data")
    r = run([PYTHON, WORKLOAD, "--data", data, "--make"])
    if r.returncode != 0:
        fail("making the data: " + r.stderr)
    # Warm the page cache so that base and noise start alike.
    run([PYTHON, WORKLOAD, "--data", data])
    variants = {"reader": ["--read-size", "16384"], "reader_big": ["--read-size", "32768"]}
    for group, cold in (("base", []), ("noise", []), ("slow", ["--cold"])):
        for wl, extra in variants.items():
            trace(a.niorep, os.path.join(a.work, group, wl), wl, data,
                  os.path.join(a.work, "out", group, wl), extra + cold)
    g = {k: os.path.join(a.work, k) for k in ("base", "noise", "slow")}

    # As for noise below: a pair traced while other processes slowed one
    # side can hide the slowed path (session 63: e2e_compare failed twice in
    # a full ctest -j 2 run and passed alone each time). Base and slow are
    # then traced again one right after the other, at most NOISE_ATTEMPTS
    # times; the checks that are no matter of timing are not retried.
    for attempt in range(1, NOISE_ATTEMPTS + 1):
        j, html1, js1 = compare(a.niorep, a.work, "slow", [g["base"], g["slow"]])
        problems = slow_timing_problems(j)
        if not problems or attempt == NOISE_ATTEMPTS:
            break
        print(f"note: attempt {attempt}: base vs slow: " + "; ".join(problems))
        run([PYTHON, WORKLOAD, "--data", data])  # warm again what the cold traces read
        for wl, extra in variants.items():
            for group, cold in (("base", []), ("slow", ["--cold"])):
                shutil.rmtree(os.path.join(g[group], wl))
                trace(a.niorep, os.path.join(g[group], wl), wl, data, os.path.join(a.work, "out", group, wl),
                      extra + cold)
    if j["schema_version"] != 6:
        fail(f"schema_version {j['schema_version']}")
    check_slow(j)
    check_html(html1, j)
    for p in j["pairs"]:  # a KS p too small for doubles is a bound, never a number of noise
        for st in p["stats"]:
            ks = st.get("ks")
            if ks and ks["p_value"] is not None and ks["p_value"] < 1e-10:
                fail(f"{p['workload']} {st['name']}: KS p {ks['p_value']} below the resolved 1e-10")
            if ks and ks["p_value_is_bound"] != (ks["p_value"] == 1e-10):
                fail(f"{p['workload']} {st['name']}: p_value_is_bound {ks}")
    # outputs and options the command refuses before any work
    for extra, why in ((["--json", html1], "-o and --json name the same file"),
                       (["--json", js1, "--bootstraps", "99"], "bad value '99' for --bootstraps")):
        r = run([a.niorep, "compare", g["base"], g["slow"], "-o", html1, *extra])
        if r.returncode != 2 or why not in r.stderr:
            fail(f"compare {' '.join(extra)}: exit {r.returncode}: {r.stderr.strip()}")
    # a --json into a folder that is not there fails before the work, and
    # writes no HTML either (it wrote the HTML, then failed: review 47)
    fresh = os.path.join(a.work, "fresh.html")
    r = run([a.niorep, "compare", g["base"], g["slow"], "-o", fresh, "--json", os.path.join(a.work, "no", "c.json")])
    if r.returncode != 1 or "no/c.json: cannot create output" not in r.stderr or os.path.exists(fresh):
        fail(f"--json into a missing folder: exit {r.returncode}, html {os.path.exists(fresh)}: {r.stderr.strip()}")
    # a --json onto a file a run reads (its manifest) is refused before any
    # work: it replaced the manifest, and every later build failed (review 48)
    manifest = sorted(glob.glob(os.path.join(g["slow"], "*", "manifest.json")))[0]
    before = open(manifest, "rb").read()
    r = run([a.niorep, "compare", g["base"], g["slow"], "-o", fresh, "--json", manifest])
    if r.returncode != 2 or "the output is also the input" not in r.stderr or open(manifest, "rb").read() != before:
        fail(f"--json onto a run's manifest: exit {r.returncode}: {r.stderr.strip()}")
    print("ok: KS p bounds; -o = --json, --bootstraps 99, a missing --json folder and a run's file refused")

    # Again, and on one thread and on three: pairs are sampled, compared and
    # drawn on several threads, which must change nothing.
    # (the values joined to their options, as getopt takes them elsewhere)
    for name, extra in (("slow_again", ()), ("slow_j1", ("-j1",)), ("slow_j3", ("--jobs=3",))):
        _, html2, js2 = compare(a.niorep, a.work, name, [g["base"], g["slow"]], extra)
        for x, y in ((html1, html2), (js1, js2)):
            with open(x, "rb") as f1, open(y, "rb") as f2:
                if f1.read() != f2.read():
                    fail(f"{x} and {y} ({' '.join(extra) or 'again'}) differ: compare is not deterministic")
    print("ok: determinism (HTML and JSON byte-identical, again and on 1 and 3 threads)")

    j, _, _ = compare(a.niorep, a.work, "self", [g["base"], g["base"]])
    check_self(j, "base vs base", 2)

    # One run per side cannot tell a change from the machine's state: other
    # processes on this shared 2-core machine can slow every traced syscall
    # of one run by several us (docs/compare.md, "noise"). When noise is
    # flagged, base and noise are traced again one right after the other
    # (base, noise, per workload), so that both see the machine's state of
    # that moment: retracing noise alone compared it with a base traced
    # under other tests' load (session 44: three attempts of ctest -j 2 next
    # to a fuzzer on the traced CPU, open latency D 0.19-0.29 each time). At
    # most NOISE_ATTEMPTS times; the method fails the check when it flags
    # noise in every attempt.
    for attempt in range(1, NOISE_ATTEMPTS + 1):
        j, _, _ = compare(a.niorep, a.work, "noise", [g["base"], g["noise"]])
        flagged = noise_flags(j)
        if not flagged:
            print(f"ok: base vs noise: robust latency statistics unchanged (attempt {attempt})")
            break
        print(f"note: attempt {attempt}: noise flagged as change: " + "; ".join(flagged))
        if attempt == NOISE_ATTEMPTS:
            fail(f"base vs noise flagged robust latency statistics in {NOISE_ATTEMPTS} attempts")
        shutil.rmtree(g["base"])
        shutil.rmtree(g["noise"])
        for wl, extra in variants.items():
            for group in ("base", "noise"):
                trace(a.niorep, os.path.join(g[group], wl), wl, data,
                      os.path.join(a.work, "out", group, wl), extra)

    j, _, _ = compare(a.niorep, a.work, "three", [g["base"], g["slow"], g["noise"]])
    order = [(p["b"]["group"], p["workload"]) for p in j["pairs"]]
    if order != [("B", "reader"), ("B", "reader_big"), ("C", "reader"), ("C", "reader_big")]:
        fail(f"three groups: pairs {order}")
    print("ok: three groups give", order)

    # A copy, so that the store cache (.niorep/ beside the runs) stays out of the source tree.
    sample = os.path.join(a.work, "sample")
    shutil.copytree(os.path.join(REPO, "datasets", "sample"), sample, ignore=shutil.ignore_patterns(".niorep"))
    r = run([a.niorep, "compare", sample, sample, "-o", os.path.join(a.work, "sample.html"),
             "--json", os.path.join(a.work, "sample.json")])
    if r.returncode != 0:
        print(f"note: sample self-compare skipped, this build cannot ingest datasets/sample: {r.stderr.strip()}")
    else:
        with open(os.path.join(a.work, "sample.json")) as f:
            check_self(json.load(f), "datasets/sample vs itself", 6)
    return 0


if __name__ == "__main__":
    sys.exit(main())
