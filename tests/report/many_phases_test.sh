#!/bin/bash
# A run of more phases than the report lists (session 65; docs/report.md,
# "Many phases"): 130 phases one after the other, phase i reading
# n = (53 i mod 130) + 1 times 4 KiB in 10 us (n a permutation of 1..130:
# bytes and I/O time rank alike), its open and close taking no time. The
# report's per-phase tables and the text summary list the 100 of the
# largest weight (n > 30) in phase order and "other 31 phases" (the 30
# light ones and "unphased") as one row of their sums: 465 reads, worked
# out here from the log; summary --json keeps all 131. compare of it with
# a run of another permutation (47 i) compares each phase listed in either
# run on its own, and the phases listed in neither as "other phases",
# whose sums are recomputed here. Until session 65 every phase had its
# rows: 100,000 phase names made a report of 135 MB (286 s in Chromium)
# and a compare of two such runs took 51 s (a linear lookup per name).
# usage: many_phases_test.sh NIOREP
set -u
niorep=$(realpath "$1")
. "$(dirname "$0")/checks.sh"
cd "$tmp" || exit 1

gen() { # gen DIR FACTOR
    mkdir -p "$1"
    /usr/bin/python3 - "$1" "$2" <<'PY'
import sys
out, factor = sys.argv[1], int(sys.argv[2])
T0 = 1_796_000_000_000_000
st = lambda us: "%d.%06d" % divmod(us, 1_000_000)
with open(out + "/strace.log", "w") as log, open(out + "/hook.jsonl", "w") as hook:
    for i in range(130):
        us = T0 + 100_000 * i
        hook.write('{"ts":%s,"pid":7,"event":"phase_begin","phase":"ph_%d"}\n' % (st(us), i))
        path = "/data/f_%03d.bin" % i
        log.write('7  %s openat(AT_FDCWD, "%s", O_RDONLY) = 3<%s> <0.000000>\n' % (st(us + 10), path, path))
        for k in range((factor * i) % 130 + 1):
            log.write('7  %s read(3<%s>, ""..., 4096) = 4096 <0.000010>\n' % (st(us + 20 + 100 * k), path))
        log.write('7  %s close(3<%s>) = 0 <0.000000>\n' % (st(us + 90_000), path))
        hook.write('{"ts":%s,"pid":7,"event":"phase_end","phase":"ph_%d"}\n' % (st(us + 95_000), i))
    log.write('7  %s +++ exited with 0 +++\n' % st(T0 + 100_000 * 130))
PY
}
gen a/run 53
gen b/run 47

"$niorep" build a/run -o report.html >/dev/null 2>&1 || fail "build: exit $?"
"$niorep" summary a/run > summary.txt 2>&1 || fail "summary: exit $?"
"$niorep" summary --json a/run > summary.json 2>&1 || fail "summary --json: exit $?"
/usr/bin/python3 - report.html summary.txt summary.json <<'PY' || fail "the listed phases and the other 31"
import html, json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
n = {"ph_%d" % i: (53 * i) % 130 + 1 for i in range(130)}
listed = ["ph_%d" % i for i in range(130) if n["ph_%d" % i] > 30]
assert len(listed) == 100

def table(caption):
    """The rows of the table whose caption starts with caption, as lists of cell texts."""
    at = page.index("<caption>" + caption)
    body = page[at:page.index("</table>", at)]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)[1:]
    return [[html.unescape(re.sub(r"<[^>]+>", "", c)).replace("\u202f", "")
             for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)] for r in rows]

rows = table("Per phase (regular files")
assert [r[0] for r in rows] == listed + ["other 31 phases", "of these: Python runtime files"], [r[0] for r in rows]
assert rows[100][1] == "30", rows[100]  # instances: the 30 light phases once, "unphased" none
ops = table("Per phase and operation class")
other = {r[1]: r[2] for r in ops if r[0] == "other 31 phases"}
assert other == {"read": str(sum(range(1, 31))), "open/close": "60"}, other
assert sorted({r[0] for r in ops} - {"other 31 phases"}) == sorted(listed)
for cap in ("Read latency of the job files per phase", "Read latency per phase, every regular file"):
    names = [r[0] for r in table(cap) if not r[0].startswith("other")]
    assert names == listed, (cap, names)
assert page.count("30 more phases with 465 reads, not listed") == 2
assert "the others as one row of their sums, &quot;other 31 phases&quot;" in page or \
       'the others as one row of their sums, "other 31 phases"' in page

text = open(sys.argv[2]).read().splitlines()
at = next(k for k, l in enumerate(text) if l.startswith("phase "))
names = [l.split()[0] for l in text[at + 1:at + 102]]
assert names == listed + ["others"], names
assert text[at + 101].split()[:4] == ["others", "(31)", "-", str(4096 * 465)], text[at + 101]
assert len(json.load(open(sys.argv[3]))["phases"]) == 131
PY
ok "the report and the text summary list 100 phases and the other 31 as one row"

"$niorep" compare a/run b/run -o compare.html --json compare.json >/dev/null 2>&1 || fail "compare: exit $?"
/usr/bin/python3 - compare.json <<'PY' || fail "compare's phases listed in either run and the other phases"
import json, sys
reads = lambda f: {"ph_%d" % i: (f * i) % 130 + 1 for i in range(130)}
a, b = reads(53), reads(47)
alone = [p for p in a if a[p] > 30 or b[p] > 30]
rest = [p for p in a if p not in alone]
rows = [s for pair in json.load(open(sys.argv[1]))["pairs"] for s in pair["stats"] if s["section"] == "phase"]
named = [s["name"].rsplit(" bytes", 1)[0] for s in rows if s["name"].endswith(" bytes")]
assert named == alone + ["other phases"], named
other = next(s for s in rows if s["name"] == "other phases bytes")
assert other["a"] == 4096 * sum(a[p] for p in rest) and other["b"] == 4096 * sum(b[p] for p in rest), other
assert next(s for s in rows if s["name"] == "other phases wall time")["a"] is None
PY
ok "compare: the phases listed in either run, and the others' sums"
exit $((fails > 0))
