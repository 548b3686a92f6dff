#!/bin/bash
# mkruns.sh N SIZE DIR: N run folders DIR/run1 .. DIR/runN, each holding one
# generated `strace -f -ttt -T -y` log (strace.log) of SIZE (gen_strace_log
# --size, e.g. 125K or 500K) and seed I: many small runs for `niorep build`
# (docs/performance.md, "Text groups drawn once"). An existing run's log is
# kept. gen_strace_log is built (plain cc) into DIR when missing or older
# than its source.
set -euo pipefail
[ $# -eq 3 ] || { sed -n '2,7p' "$0"; exit 2; }
n=$1 size=$2 dir=$3
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$dir"
gen=$dir/.gen_strace_log
if [[ ! -x $gen || $root/bench/gen_strace_log.c -nt $gen ]]; then
    cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -o "$gen" "$root/bench/gen_strace_log.c" -lm
fi
for i in $(seq 1 "$n"); do
    mkdir -p "$dir/run$i"
    [ -s "$dir/run$i/strace.log" ] || "$gen" --size "$size" --seed "$i" -o "$dir/run$i/strace.log"
done
