#!/usr/bin/env bash
# ingest_bench: one command that measures `niorep ingest` on a large generated
# strace log and prints, in one table: wc -l and ingest time (median of N runs),
# MB/s and lines/s of both and their ratio, the ingest's peak RSS (on the full
# log and on a quarter of it, to show memory does not grow with lines), and the
# store's size next to `zstd -3 -T1` of the raw log.
#
# usage: bench/ingest_bench.sh [--size 1G] [--seed 1] [--repeat 3] [--jobs 1]
#                              [--niorep build/cli/niorep] [--out bench/out] [--keep]
#                              [--log FILE]
# The log is cached in --out keyed by size and seed; --log FILE uses an
# existing log instead (its quarter is FILE with .log replaced by
# .quarter.log when that exists, else made in --out). Not part of ctest.
set -euo pipefail
cd "$(dirname "$0")/.."

size=1G seed=1 repeat=3 jobs=1 niorep=build/cli/niorep out=bench/out keep=0 given_log=
while [[ $# -gt 0 ]]; do
  case $1 in
    --size) size=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --niorep) niorep=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --log) given_log=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "ingest_bench: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for tool in /usr/bin/time zstd wc awk; do
  command -v "$tool" >/dev/null || { echo "ingest_bench: needs $tool" >&2; exit 1; }
done
[[ -x $niorep ]] || { echo "ingest_bench: $niorep not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$out"
. bench/runs.sh

if [[ -n $given_log ]]; then
  log=$given_log
  [[ -s $log ]] || { echo "ingest_bench: no log $log" >&2; exit 1; }
  quarter=${log%.log}.quarter.log
  [[ $quarter != "$log" && -s $quarter ]] || quarter=$out/$(basename "${log%.log}").quarter.log
else
  log=$(generated_log "$out" "$size" "$seed")
  quarter=$out/strace-$size-seed$seed.quarter.log
fi
# A quarter of the log, cut at a line boundary: the memory check.
if [[ ! -s $quarter || $log -nt $quarter ]]; then
  bytes=$(stat -c %s "$log")
  head -c $((bytes / 4)) "$log" | head -n -1 >"$quarter"
fi

log_bytes=$(stat -c %s "$log")
reread "$log" "$quarter"   # page cache warm: we time parsing, not the disk

. bench/stats.sh
# elapsed seconds of a command (stdout discarded)
elapsed() { local s=$EPOCHREALTIME; "$@" >/dev/null; awk -v a="$s" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.4f", b-a}'; }

echo "timing wc -l x$repeat ..." >&2
wc_times=() lines=0
for _ in $(seq "$repeat"); do wc_times+=("$(elapsed wc -l "$log")"); done
lines=$(wc -l <"$log")
wc_t=$(median <<< "${wc_times[*]}")

store=$out/bench.nio
echo "timing niorep ingest -j $jobs x$repeat ..." >&2
ing_times=() rss=() cpu=()
for _ in $(seq "$repeat"); do
  rm -f "$store"
  s=$EPOCHREALTIME
  /usr/bin/time -f '%M %U %S' -o "$out/time.txt" "$niorep" ingest -o "$store" -j "$jobs" -q "$log"
  ing_times+=("$(awk -v a="$s" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.4f", b-a}')")
  read -r m u sy <"$out/time.txt"
  rss+=("$m")
  cpu+=("$(awk -v u="$u" -v s="$sy" 'BEGIN{printf "%.2f", u+s}')")
done
ing_t=$(median <<< "${ing_times[*]}")
rss_kb=$(median <<< "${rss[*]}")
cpu_t=$(median <<< "${cpu[*]}")
store_bytes=$(stat -c %s "$store")

/usr/bin/time -f '%M %U %S' -o "$out/time.txt" "$niorep" ingest -o "$out/quarter.nio" -j "$jobs" -q "$quarter"
read -r rss_q_kb _ _ <"$out/time.txt"
quarter_bytes=$(stat -c %s "$quarter")

echo "compressing with zstd -3 -T1 ..." >&2
zs=$EPOCHREALTIME
zstd_bytes=$(zstd -3 -T1 -q -c "$log" | wc -c)
zstd_t=$(awk -v a="$zs" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.4f", b-a}')

awk -v size="$size" -v seed="$seed" -v rep="$repeat" -v jobs="$jobs" \
    -v lb="$log_bytes" -v lines="$lines" -v wct="$wc_t" -v it="$ing_t" \
    -v rss="$rss_kb" -v cput="$cpu_t" -v loadavg="$(cut -d' ' -f1-3 /proc/loadavg)" -v rssq="$rss_q_kb" -v qb="$quarter_bytes" \
    -v sb="$store_bytes" -v zb="$zstd_bytes" -v zt="$zstd_t" \
    -v host="$(uname -srm)" -v cpu="$(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)" \
    -v ncpu="$(nproc)" -v allt="$(printf '%s ' "${ing_times[@]}")" 'BEGIN {
  mb = 1e6
  printf "\nniorep ingest benchmark: %s %s, %s (%d cores)\n", host, "", cpu, ncpu
  printf "log: generated strace -f -ttt -T -y, --size %s --seed %s: %.1f MB, %d lines (%.0f B/line)\n",
         size, seed, lb/mb, lines, lb/lines
  printf "times: median of %d runs, page cache warm; MB = 10^6 bytes; load average at the end: %s\n\n", rep, loadavg
  printf "%-28s %10s %10s %14s %12s\n", "", "time s", "MB/s", "lines/s", "peak RSS"
  printf "%-28s %10.3f %10.0f %14.0f %12s\n", "wc -l", wct, lb/mb/wct, lines/wct, "-"
  printf "%-28s %10.3f %10.0f %14.0f %9.1f MiB\n", "niorep ingest -j " jobs, it, lb/mb/it, lines/it, rss/1024
  printf "%-28s %10.3f %10.0f %14.0f %12s  (user+sys CPU time: immune to other jobs)\n", "niorep ingest, CPU time", cput, lb/mb/cput, lines/cput, ""
  printf "%-28s %10.1fx slower than wc -l   (ingest runs: %s)\n", "ratio", it/wct, allt
  printf "%-28s %10s %10s %14s %9.1f MiB  (%.0f MB log: memory vs lines)\n", "ingest of a quarter", "", "", "", rssq/1024, qb/mb
  printf "\n%-28s %12.1f MB\n", "store (RUN.nio)", sb/mb
  printf "%-28s %12.1f MB  (%.1f s, %.0f MB/s)\n", "zstd -3 -T1 of the log", zb/mb, zt, lb/mb/zt
  printf "%-28s %12.3f      (raw log / store: %.1fx)\n", "store / zstd -3", sb/zb, lb/sb
  printf "\ntargets (issue 2):\n"
  printf "  single-thread ingest >= 400 MB/s   %8.0f MB/s   %s   (by CPU time: %.0f MB/s %s)\n", lb/mb/it, (lb/mb/it >= 400) ? "PASS" : "FAIL", lb/mb/cput, (lb/mb/cput >= 400) ? "PASS" : "FAIL"
  printf "  peak RSS < 256 MiB                 %8.1f MiB    %s\n", rss/1024, (rss/1024 < 256) ? "PASS" : "FAIL"
  printf "  store <= 1/3 of zstd -3            %8.3f        %s\n", sb/zb, (sb/zb <= 1/3) ? "PASS" : "FAIL"
}'
if [[ $keep == 0 ]]; then rm -f "$store" "$out/quarter.nio" "$out/time.txt"; fi
