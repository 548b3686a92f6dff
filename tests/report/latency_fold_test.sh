#!/bin/bash
# Figure 4 of a run of 40 phase names folds as figure 1 (session 54;
# docs/figures.md, "Many phases"): "all phases", the 7 phases figure 1
# keeps (the heaviest: data_prep, step_5 ... eval) in figure 1's colours,
# and "other 33 phases" in its grey, whose curve is the union of the other
# phases' reads, worked out here from the log as docs/figures.md says
# (the histogram's exact points), and whose p50 and p99 are within their
# bin of the exact ones; the report's per-phase table keeps every phase.
# Until session 54 figure 4 drew one curve per phase (with more than 8, the
# lowest, median and highest p99 in colour and the rest in grey).
# usage: latency_fold_test.sh NIOREP
set -u
niorep=$(realpath "$1")
. "$(dirname "$0")/checks.sh"
cd "$tmp" || exit 1

# 40 phases one after the other in one process, each opening its own file:
# the heavy 7 read 30 x 64 KiB, the others 5 x 4 KiB; durations of 1 us to
# 3 ms, no two phases alike
mkdir -p fold/run
/usr/bin/python3 - fold/run <<'PY'
import sys
out = sys.argv[1]
T0 = 1_796_000_000_000_000
heavy = {0, 5, 12, 20, 26, 33, 39}
name = lambda i: "data_prep" if i == 0 else "eval" if i == 39 else "step_%d" % i
st = lambda us: "%d.%06d" % divmod(us, 1_000_000)
with open(out + "/strace.log", "w") as log, open(out + "/hook.jsonl", "w") as hook:
    us = T0
    for i in range(40):
        hook.write('{"ts":%s,"pid":7,"event":"phase_begin","phase":"%s"}\n' % (st(us), name(i)))
        path = "/data/f_%02d.bin" % i
        log.write('7  %s openat(AT_FDCWD, "%s", O_RDONLY) = 3<%s> <0.000008>\n' % (st(us + 100), path, path))
        n, size = (30, 65536) if i in heavy else (5, 4096)
        for k in range(n):
            dur = 1 + (i * 7919 + k * 104729) % 3000
            log.write('7  %s read(3<%s>, ""..., %d) = %d <0.%06d>\n' % (st(us + 200 + 4000 * k), path, size, size, dur))
        log.write('7  %s close(3<%s>) = 0 <0.000003>\n' % (st(us + 200 + 4000 * n), path))
        hook.write('{"ts":%s,"pid":7,"event":"phase_end","phase":"%s"}\n' % (st(us + 150_000), name(i)))
        us += 200_000
    log.write('7  %s +++ exited with 0 +++\n' % st(us))
PY
"$niorep" figures fold/run -o figs --format svg >/dev/null 2>&1 || fail "figures of 40 phases: exit $?"
/usr/bin/python3 - fold/run/strace.log figs/figures.json <<'PY' || fail "figure 4's series and the other phases' curve"
import json, math, re, sys
fig = {f["id"]: f["data"] for f in json.load(open(sys.argv[2]))["figures"]}
phases = fig[1]["phases"]
kept = ["data_prep", "step_5", "step_12", "step_20", "step_26", "step_33", "eval"]
other = "other %d phases" % (len(phases) - 7)
series = fig[4]["series"]
names = [s["name"] for s in series]
assert names == ["all phases"] + kept + [other], names
assert series[-1].get("folded_phases") == len(phases) - 7 and series[-1].get("percentiles_from_histogram"), series[-1]
assert all("folded_phases" not in s for s in series[:-1])
# the other phases' reads, from the log (reads of phase i at 200 ms * i)
durs = []
for line in open(sys.argv[1]):
    m = re.match(r'7  (\d+)\.(\d+) read\(3</data/f_(\d+)\.bin>.*<0\.(\d+)>', line)
    if m and int(m.group(3)) not in (0, 5, 12, 20, 26, 33, 39):
        durs.append(int(m.group(4)) * 1000)
n = len(durs)
assert n == 33 * 5, n
bin_of = lambda v: 0 if v <= 1 else math.ceil(20 * math.log10(v))
upper = lambda b: 10 ** (b / 20)
counts = {}
for v in durs:
    counts[bin_of(v)] = counts.get(bin_of(v), 0) + 1
want, cum, last = [], 0, max(counts)
if min(durs) > 1:
    want.append((min(durs) * 1e-9, 0.0, 1.0))
for b in sorted(counts):
    if cum > 0 and b > 0 and b - 1 not in counts:
        want.append((upper(b - 1) * 1e-9, cum / n, 1 - cum / n))
    cum += counts[b]
    want.append((max(durs) * 1e-9, 1.0, 1.0 / n) if b == last else (upper(b) * 1e-9, cum / n, 1 - cum / n))
s = series[-1]
got = list(zip(s["latency_s"], s["cdf"], s["ccdf"]))
near = lambda a, b: abs(a - b) <= 1e-8 * max(1e-9, abs(b))   # figures.json: 9 digits
assert len(got) == len(want) and all(near(a, b) for g, w in zip(got, want) for a, b in zip(g, w)), (got, want)
# p50 and p99 where that curve crosses their levels, in the bin of the
# exact (nearest-rank) order statistic; p99.9 of 165 reads is the slowest
srt = sorted(durs)
for q, key in ((0.5, "p50_s"), (0.99, "p99_s")):
    exact = srt[math.ceil(q * n) - 1] * 1e-9
    i = next(i for i, w in enumerate(want) if w[1] >= q - 1e-12)
    (x0, c0, _), (x1, c1, _) = want[i - 1], want[i]
    cross = x0 * (x1 / x0) ** ((q - c0) / (c1 - c0))
    assert near(s[key], cross), (key, s[key], cross)
    assert abs(math.log10(s[key] / exact)) <= 1 / 20 + 1e-12, (key, s[key], exact)
assert near(s["p999_s"], max(durs) * 1e-9), s["p999_s"]
# the kept phases' own series: their exact quantiles, as before
for k, s in zip(kept, series[1:8]):
    assert "p50_s" in s and s["p50_s"] > 0, (k, s)
PY
ok "figure 4 of 40 phases: all, figure 1's 7 and the other 33, its curve the union of their reads"

# colours: each kept phase's, figure 1's; the other phases' its grey;
# "all phases" the colour no kept phase holds (yellow here)
/usr/bin/python3 - figs/fig4-read-latency.svg figs/fig1-phase-breakdown.svg <<'PY' || fail "figure 4's colours"
import re, sys
rgb = lambda s: tuple(round(float(p) * 2.55) for p in re.findall(r'([\d.]+)%', s))
strokes = {rgb(s) for s in re.findall(r'stroke:(rgb\([^)]*\))', open(sys.argv[1]).read())}
fills = {rgb(s) for s in re.findall(r'fill:(rgb\([^)]*\))', open(sys.argv[2]).read())}
okabe_ito = [(0x00, 0x72, 0xB2), (0xD5, 0x5E, 0x00), (0x00, 0x9E, 0x73), (0xE6, 0x9F, 0x00),
             (0xCC, 0x79, 0xA7), (0x56, 0xB4, 0xE9), (0x00, 0x00, 0x00), (0xF0, 0xE4, 0x42)]
grey = (184, 184, 184)
kept = [okabe_ito[i] for i in (5, 0, 1, 3, 4, 6, 2)]   # data_prep sky blue, eval green, steps in order
for c in kept + [grey]:
    assert c in fills, ("figure 1 lacks", c)
    assert c in strokes, ("figure 4 lacks", c)
assert okabe_ito[7] in strokes and okabe_ito[7] not in fills, "all phases not in yellow"
PY
ok "figure 4's colours: figure 1's for its phases and its grey for the others"

# the report: a caption that says so, and every phase in the per-phase table
"$niorep" build fold/run -o fold.html >/dev/null 2>&1 || fail "build of 40 phases: exit $?"
grep -q 'read off its histogram, within 12.2% of the exact ones' fold.html || fail "no caption of the folded figure 4"
/usr/bin/python3 - fold.html <<'PY' || fail "the per-phase latency table"
import re, sys
t = open(sys.argv[1]).read()
i = t.index("Read latency of the job files per phase")
seg = t[i:t.index("Read latency per phase, every regular file", i)]
rows = set(re.findall(r'>(data_prep|eval|step_\d+)<', seg))
assert len(rows) == 40, sorted(rows)
PY
ok "the report: the folded figure's caption; every phase in the table"

[ $fails -eq 0 ]
