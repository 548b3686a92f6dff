#!/usr/bin/env bash
# Peak RSS of ingest, summary and build --figures on a run of a million
# phase instances (bench/gen_phase_steps.py: a phase "step" every 100 us,
# none touching): what each stage holds per instance (docs/performance.md,
# session 66). Measured there at a million: ingest 173 -> 136 MiB at
# -j 2 (the hook's compact records; 96-99 MiB at -j 1, which this test
# runs: the same on any number of cores; 88 MiB in session 67, 31 MiB
# in session 68 once the phases were numbered by a sort in bounded memory
# and the threads' runs paged to disk, the same at four million: table
# phases is checked row by row), summary 148 -> 59.5 MiB (table phases read a
# row group at a time; 77 MiB when the in-order read is not taken and the
# intervals are sorted in memory), build --figures 782 -> 110 MiB
# (figures.json's spans written one by one). Not in the ASan build (label
# nosan: its shadow memory is no release's).
# usage: phase_steps_memory.sh NIOREP SOURCE_DIR WORK_DIR
set -euo pipefail
niorep=$1 src=$2 work=$3
if [[ ! -x /usr/bin/time || ! -x /usr/bin/python3 ]]; then
    echo "skipped: needs /usr/bin/time and /usr/bin/python3"
    exit 77
fi
rm -rf "$work"
mkdir -p "$work"
/usr/bin/python3 "$src/bench/gen_phase_steps.py" "$work/run"

status=0
. "$src/tests/lib/peak_within.sh"
peak_within 48 "ingest -j 1" "$niorep" ingest -q -j 1 "$work/run" -o "$work/run.nio"
"$niorep" export "$work/run.nio" --table phases --format jsonl -o "$work/phases.jsonl"
/usr/bin/python3 - "$src/bench" "$work/phases.jsonl" <<'PY' || status=1
# Step i is phase i, [T0 + 100 i us, + 50 us), as the generator stamped it
# (seconds in the hook, rounded to ns as the reader does, llround).
import sys
sys.path.insert(0, sys.argv[1])
import gen_phase_steps as g
def ns(us):
    return round(float(g.stamp(us)) * 1e9)
def row(i):
    at = g.T0_US + i * g.STEP_US
    return (f'{{"phase_id": {i}, "pid": 7, "tid": 7, "name": "step", "begin_ns": {ns(at)}, '
            f'"end_ns": {ns(at + g.INSIDE_US)}, "depth": 0, "parent_id": -1, "flags": 0}}')
with open(sys.argv[2]) as f:
    got = f.read().splitlines()
for i, line in enumerate(got):
    if line != row(i):
        sys.exit(f"FAIL: phase row {i}: {line}, expected {row(i)}")
if len(got) != 1_000_000:
    sys.exit(f"FAIL: {len(got)} phase rows, not a million")
print("ok: table phases holds the million steps in order")
PY
peak_within 68 "summary" "$niorep" summary "$work/run.nio"
if ! grep -q "step" "$work/out"; then
    echo "FAIL: summary names no phase step"
    status=1
fi
peak_within 160 "build --figures" "$niorep" build "$work/run.nio" -o "$work/report.html" -j 1 --figures "$work/figs"
# figure 5's data holds every interval: a million steps (and no other phase)
spans=$(grep -c '"name": "step"' "$work/figs/figures.json" || true)
if [[ $spans -lt 1000000 ]]; then
    echo "FAIL: figures.json names $spans spans of step, not a million"
    status=1
fi
rm -rf "$work"
exit $status
