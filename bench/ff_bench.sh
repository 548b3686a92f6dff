#!/usr/bin/env bash
# ff_bench: the same events as one `strace -f` log and as `strace -ff`
# files (one per process, without the pid prefix), ingested in alternated
# rounds at -j 1 and -j 2. Prints each configuration's median wall and CPU
# time and peak RSS, and the per-round ratios: the -ff files' time to the
# -f log's at each -j (the price of the merge by time and of many streams),
# and the -j 2 speed-up of the -ff files. Checks that the -ff store is the
# same at -j 1 and -j 2. Not part of ctest.
#
# usage: bench/ff_bench.sh [--size 1G] [--seed 1] [--rounds 7]
#                          [--niorep build/cli/niorep] [--out bench/out]
# The -f log is ingest_bench.sh's (cached in --out by size and seed); the
# -ff files are made from it once, in --out/ff-SIZE-seedSEED/.
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
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "ff_bench: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ -x $niorep ]] || { echo "ff_bench: $niorep not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$out"

. bench/stats.sh
. bench/runs.sh
log=$(generated_log "$out" "$size" "$seed")
ff=$out/ff-$size-seed$seed
if [[ ! -f $ff.done || $log -nt $ff.done ]]; then
  echo "splitting $log into $ff/strace.log.PID ..." >&2
  rm -rf "$ff" "$ff.done" && mkdir -p "$ff"
  # "PID rest" -> rest, in strace.log.PID: what strace -ff writes
  awk -v dir="$ff" '{ pid = $1; sub(/^[0-9]+ /, ""); print > (dir "/strace.log." pid) }' "$log"
  touch "$ff.done" # beside the run folder, which must hold only logs
fi
cat "$log" "$ff"/strace.log.* > /dev/null # page cache warm: we time parsing, not the disk

tmp=$(mktemp -d /tmp/ff_bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
names=(f:1 ff:1 f:2 ff:2)
inputs=("$log" "$ff" "$log" "$ff")
for r in $(seq "$rounds"); do
  for i in "${!names[@]}"; do
    timed_ingest "$tmp" "$i" "$niorep" "${names[$i]##*:}" "${inputs[$i]}"
  done
done
cmp -s "$tmp/out.1.nio" "$tmp/out.3.nio" && same=yes || same=NO

echo "ingest of $log (-f) and of its $(find "$ff" -name 'strace.log.*' | wc -l) -ff files, $rounds alternated rounds"
for i in "${!names[@]}"; do
  printf '%-6s -j %s  wall %6.3f s  cpu %6.3f s  rss %4.0f MiB\n' "${names[$i]%:*}" "${names[$i]##*:}" \
    "$(median < "$tmp/wall.$i")" "$(median < "$tmp/cpu.$i")" "$(awk -v k="$(median < "$tmp/rss.$i")" 'BEGIN{print k / 1024}')"
done
# per-round ratio of configuration b's wall time to a's: "median (lo-hi)"
ratio() {
  paste "$tmp/wall.$1" "$tmp/wall.$2" | awk '{printf "%.4f\n", $2 / $1}' > "$tmp/ratio"
  read -r lo hi < <(range < "$tmp/ratio")
  printf '%.3fx (%.2f-%.2f)' "$(median < "$tmp/ratio")" "$lo" "$hi"
}
echo "-ff time / -f time at -j 1: $(ratio 0 1)"
echo "-ff time / -f time at -j 2: $(ratio 2 3)"
echo "-ff -j 1 time / -ff -j 2 time (speed-up): $(ratio 3 1)"
echo "-ff store the same at -j 1 and -j 2: $same"
