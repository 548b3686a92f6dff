#!/usr/bin/env bash
# perf_icount: instructions executed by `niorep ingest -j 1` on one log,
# counted by valgrind (callgrind, no cache simulation): a figure that does not
# move with the load of a shared machine, unlike wall or CPU time.
# usage: bench/perf_icount.sh NIOREP LOG [OUT.nio]
# prints: instructions, instructions per input byte, and the store's size.
set -euo pipefail
niorep=$1 log=$2 out=${3:-/tmp/perf_icount.$$.nio}
cg=$(mktemp /tmp/perf_icount.XXXXXX)
valgrind --tool=callgrind --callgrind-out-file="$cg" "$niorep" ingest -o "$out" -j 1 -q "$log" 2>"$cg.err" || { cat "$cg.err" >&2; exit 1; }
ir=$(awk '/^summary:/{print $2}' "$cg")
bytes=$(stat -c %s "$log")
awk -v ir="$ir" -v b="$bytes" -v sb="$(stat -c %s "$out")" 'BEGIN{printf "instructions %.0f  per byte %.2f  store %.0f bytes\n", ir, ir/b, sb}'
[[ -n ${KEEP_CALLGRIND:-} ]] && echo "callgrind output: $cg" || rm -f "$cg"
rm -f "$cg.err"
[[ $# -ge 3 ]] || rm -f "$out"
