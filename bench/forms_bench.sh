#!/usr/bin/env bash
# forms_bench: the same events in the forms strace writes them - one
# `strace -f -o FILE` log ("PID S.F call", as generated: one space after
# the pid), the same with the pid padded to 5 columns as strace pads it
# ("42    S.F call"), its `strace -ff` files (one per process, "S.F call")
# and its `strace -f` to stderr ("[pid  N] S.F call") - ingested in
# alternated rounds at -j 1 and -j 2. Prints each configuration's median
# wall and CPU time and peak RSS, and the per-round ratios: each form's
# time to the -o log's at each -j, and each form's -j 2 speed-up. Checks
# that each form's store is the same at -j 1 and -j 2. Not part of ctest.
#
# usage: bench/forms_bench.sh [--size 1G] [--seed 1] [--rounds 7]
#                             [--niorep build/cli/niorep] [--out bench/out]
# The -o FILE log is ingest_bench.sh's (cached in --out by size and seed);
# the other forms are made from it once, in --out/FORM-SIZE-seedSEED/.
set -euo pipefail
cd "$(dirname "$0")/.."

size=1G seed=1 rounds=7 niorep=build/cli/niorep out=bench/out
while [[ $# -gt 0 ]]; do
  case $1 in
    --size) size=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --niorep) niorep=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "forms_bench: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ -x $niorep ]] || { echo "forms_bench: $niorep not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$out"

. bench/stats.sh
. bench/runs.sh
log=$(generated_log "$out" "$size" "$seed")
# make_form DIR AWK_PROGRAM: DIR/ (a run folder, which must hold only
# logs) made from the log by the program, unless it is newer than the log
make_form() {
  local dir=$1 program=$2
  if [[ ! -f $dir.done || $log -nt $dir.done ]]; then
    echo "writing $dir/ from $log ..." >&2
    rm -rf "$dir" "$dir.done" && mkdir -p "$dir"
    awk -v dir="$dir" "$program" "$log"
    touch "$dir.done"
  fi
}
padded=$out/padded-$size-seed$seed ff=$out/ff-$size-seed$seed stderr=$out/stderr-$size-seed$seed
make_form "$padded" '{ pid = $1; sub(/^[0-9]+ /, ""); printf "%-5d %s\n", pid, $0 > (dir "/strace.log") }'
make_form "$ff" '{ pid = $1; sub(/^[0-9]+ /, ""); print > (dir "/strace.log." pid) }'
make_form "$stderr" '{ pid = $1; sub(/^[0-9]+ /, ""); printf "[pid %5d] %s\n", pid, $0 > (dir "/strace.log") }'
reread "$log" "$padded"/strace.log "$ff"/strace.log.* "$stderr"/strace.log # page cache warm: we time parsing, not the disk

tmp=$(mktemp -d /tmp/forms_bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
forms=(-o padded -ff stderr)
inputs=("$log" "$padded" "$ff" "$stderr")
nf=${#forms[@]}
# configuration k: form k % nf at -j 1 + k / nf
for r in $(seq "$rounds"); do
  for k in $(seq 0 $((2 * nf - 1))); do
    timed_ingest "$tmp" "$k" "$niorep" $((1 + k / nf)) "${inputs[$((k % nf))]}"
  done
done

echo "ingest of $log (-o), padded as strace pads pids, as its $(find "$ff" -name 'strace.log.*' | wc -l) -ff files and as strace -f writes to stderr; $rounds alternated rounds"
for k in $(seq 0 $((2 * nf - 1))); do
  printf '%-7s -j %s  %s\n' "${forms[$((k % nf))]}" $((1 + k / nf)) "$(run_summary "$tmp" "$k")"
done
for f in $(seq 1 $((nf - 1))); do
  echo "${forms[$f]} time / -o time: -j 1 $(round_ratio "$tmp" "$f" 0), -j 2 $(round_ratio "$tmp" $((f + nf)) "$nf")"
done
for f in $(seq 0 $((nf - 1))); do
  cmp -s "$tmp/out.$f.nio" "$tmp/out.$((f + nf)).nio" && same=yes || same=NO
  echo "${forms[$f]} -j 2 speed-up: $(round_ratio "$tmp" "$f" $((f + nf))); store the same at -j 1 and -j 2: $same"
done
