#!/usr/bin/env bash
# A hook of a million io records and a million waits (bench/gen_phase_steps.py
# --waits --io: a step, a wait for its batch and a sample file read through
# Python, a million times): the ingest keeps the records in queues that go
# to a temporary file past a block (ingest/rec_queue.c), so its peak RSS
# does not grow with them (docs/performance.md, session 67: 229 MiB
# before, 122 MiB with the queues, 106 MiB once the phases wait in one
# too, at -j 1; session 68: 60 MiB once the phases are numbered in
# bounded memory), and tables pyio and waits hold every
# record, in the hook's order, with its values and the phase it fell in
# (each read in step i is in phase i; the waits come before their step,
# in no phase). Not in the ASan build (label nosan).
# usage: hook_records_on_disk.sh NIOREP SOURCE_DIR WORK_DIR
set -euo pipefail
niorep=$1 src=$2 work=$3
if [[ ! -x /usr/bin/time || ! -x /usr/bin/python3 ]]; then
    echo "skipped: needs /usr/bin/time and /usr/bin/python3"
    exit 77
fi
rm -rf "$work"
mkdir -p "$work/tmp"
/usr/bin/python3 "$src/bench/gen_phase_steps.py" "$work/run" --waits --io 100000

status=0
. "$src/tests/lib/peak_within.sh"
# The temporary files go to this folder, unlinked: none may be left.
TMPDIR=$work/tmp peak_within 80 "ingest -j 1" "$niorep" ingest -q -j 1 "$work/run" -o "$work/run.nio"
if [[ -n "$(ls -A "$work/tmp")" ]]; then
    echo "FAIL: the ingest left files in TMPDIR: $(ls "$work/tmp")"
    status=1
fi
"$niorep" export "$work/run.nio" --table pyio --format jsonl -o "$work/pyio.jsonl"
"$niorep" export "$work/run.nio" --table waits --format jsonl -o "$work/waits.jsonl"
/usr/bin/python3 - "$src/bench" "$work/pyio.jsonl" "$work/waits.jsonl" <<'PY' || status=1
# Each row as export writes it, made from what the generator wrote for
# step i (its own stamp and constants; ts and dur are doubles of seconds
# in the hook, rounded to ns as the reader does, llround).
import sys
sys.path.insert(0, sys.argv[1])
import gen_phase_steps as g
pyio, waits = sys.argv[2:]
def ns(us):
    return round(float(g.stamp(us)) * 1e9)
def io_row(i):
    return (f'{{"ts_ns": {ns(g.T0_US + i * g.STEP_US + g.READ_AT_US)}, "pid": 7, "tid": 7, "op": "read", '
            f'"path": "/data/train/{i % 100000:06d}.jpg", "bytes": {110_000 + i % 997}, '
            f'"dur_ns": {round(float(f"0.000{i % 90 + 10:03d}") * 1e9)}, "phase_id": {i}}}')  # read in step i
def wait_row(i):  # before step i: in no phase
    return (f'{{"ts_ns": {ns(g.T0_US + i * g.STEP_US - g.WAIT_US)}, "pid": 7, "tid": 7, "what": "batch", '
            f'"dur_ns": {round(g.WAIT_US / 1e6 * 1e9)}, "phase_id": -1, "first": 0}}')
for kind, path, row in (("io", pyio, io_row), ("wait", waits, wait_row)):
    with open(path) as f:
        got = f.read().splitlines()
    for i, line in enumerate(got):
        if line != row(i):
            sys.exit(f"FAIL: {kind} row {i}: {line}, expected {row(i)}")
    if len(got) != 1_000_000:
        sys.exit(f"FAIL: {kind}: {len(got)} rows, not a million")
    print(f"ok: the store holds the {len(got)} {kind} records in order")
PY
rm -rf "$work"
exit $status
