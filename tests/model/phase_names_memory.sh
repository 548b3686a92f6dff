#!/usr/bin/env bash
# Peak RSS of `niorep summary --json` and `niorep build` on a run of 20,000
# distinct phase names, bench/gen_phase_names.py's shape n (each step reads
# 8 x 4 KiB in a phase of its own, as at 100,000 names): memory is bounded
# by files and processes, never by names as data (issue 7). Until session
# 53 each name cost the model's latency groups about 17 KB (a log
# histogram inline in each of four groups, quantile targets, a page array
# per group keeping a few values): 388 MiB in each command here, now about
# 55 and 130 (docs/performance.md). Until session 54 figure 4 drew one
# curve per name, an SVG of 8 MB here, and held build and figures at 127
# and 123 MiB; it folds as figure 1 now: 57 and 59 MiB, 121 kB. Not in
# the ASan build (label nosan: its shadow memory and quarantine are no
# release's).
# usage: phase_names_memory.sh NIOREP SOURCE_DIR WORK_DIR
set -euo pipefail
niorep=$1 src=$2 work=$3
if [[ ! -x /usr/bin/time || ! -x /usr/bin/python3 ]]; then
    echo "skipped: needs /usr/bin/time and /usr/bin/python3"
    exit 77
fi
rm -rf "$work"
mkdir -p "$work"
/usr/bin/python3 "$src/bench/gen_phase_names.py" "$work/run" --names 20000 --lines 200000
"$niorep" ingest -q "$work/run" -o "$work/run.nio"

status=0
. "$src/tests/lib/peak_within.sh"
peak_within 128 "summary --json" "$niorep" summary --json "$work/run.nio"
# the summary holds every name: 20,000 steps, train and unphased
phases=$(/usr/bin/python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["phases"]))' "$work/out")
if [[ $phases != 20002 ]]; then
    echo "FAIL: summary --json has $phases phases, not 20002"
    status=1
fi
peak_within 96 "build -j 1" "$niorep" build "$work/run.nio" -o "$work/report.html" -j 1
peak_within 96 "figures" "$niorep" figures "$work/run.nio" -o "$work/figs" --format svg
# size_within LIMIT_KIB WHAT FILE: fails the test when FILE is larger.
size_within() {
    local size
    size=$(stat -c %s "$3")
    if ((size > $1 * 1024)); then
        echo "FAIL: $2 is $size bytes, over $1 KiB"
        status=1
    else
        echo "ok: $2 is $size bytes (at most $1 KiB)"
    fi
}
# figure 4 folds as figure 1 (session 54): 9 series, not one a name
size_within 256 "figure 4's SVG" "$work/figs/fig4-read-latency.svg"
# the report and the text summary list 100 phases and the others as one
# row (session 65): until then a row per name, a report of 27 MB here
size_within 1024 "the report" "$work/report.html"
"$niorep" summary "$work/run.nio" >"$work/summary.txt"
if ! grep -q '^others (19902) ' "$work/summary.txt" || (($(wc -l <"$work/summary.txt") > 300)); then
    echo "FAIL: the text summary has $(wc -l <"$work/summary.txt") lines, or no row 'others (19902)'"
    status=1
else
    echo "ok: the text summary lists 100 phases and 'others (19902)'"
fi
exit $status
