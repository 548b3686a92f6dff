#!/usr/bin/env bash
# many_logs_bench: a run of many small `strace -ff -ttt -T` logs, as a
# training job's DataLoader workers write them (a thread a log, each
# reading its own file for a few ms, a few running at once), plain and
# compressed with zstd -3, ingested in alternated rounds at -j 1 and
# -j 2 next to `cat` of the same files (reading the same bytes through
# as many opens). With --interleaved, every thread runs from the start to
# the end and their lines alternate one by one (all logs merged at once:
# the ingest's workers turn serial past 64, docs/performance.md, session
# 51). Prints each configuration's median wall and CPU time and
# peak RSS, and the per-round ratios: -j 1 to `cat`, -j 2 to -j 1. Checks
# that the stores of -j 1 and -j 2 are byte-identical (a compressed log's
# store differs from the plain log's only in the logs' names). Not part of
# ctest.
#
# usage: bench/many_logs_bench.sh [--logs 1500] [--reads 2000] [--rounds 5]
#                                 [--interleaved] [--niorep build/cli/niorep] [--out bench/out]
set -euo pipefail
cd "$(dirname "$0")/.."

logs=1500 reads=2000 rounds=5 niorep=build/cli/niorep out=bench/out interleaved=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --logs) logs=$2; shift 2 ;;
    --reads) reads=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --interleaved) interleaved=1; shift ;;
    --niorep) niorep=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "many_logs_bench: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ -x $niorep ]] || { echo "many_logs_bench: $niorep not built (cmake --build build)" >&2; exit 1; }
command -v zstd > /dev/null || { echo "many_logs_bench: zstd not installed" >&2; exit 1; }

. bench/stats.sh
. bench/runs.sh
# many2-: until session 51 the stamps of the threads from the 500th on
# had seven digits after the point (1700000000.1000500), which the ingest
# reads as another time: 1,000 tasks without their clone and 1.5 M
# merge_same_stamp notes in a run of 1,500 logs.
run=$out/many2-$logs-$reads
[[ $interleaved = 1 ]] && run=$run-il
# The run: strace.log.1000 clones the others 1 ms apart; thread 1000 + k
# opens /data/fK.bin 0.5 s + k ms in and reads it 4 kB at a time, a read
# per us (so about two threads run at once); interleaved, thread k's r-th
# line is at 2 s + (r logs + k) us.
if [[ ! -s $run/plain/strace.log.$((1000 + logs - 1)) ]]; then
    rm -rf "$run"
    mkdir -p "$run/plain" "$run/zst"
    awk -v logs="$logs" -v reads="$reads" -v il="$interleaved" -v dir="$run/plain" '
    function ts(us) { return sprintf("%d.%06d", 1700000000 + int(us / 1000000), us % 1000000) }
    BEGIN {
        root = dir "/strace.log.1000"
        printf "%s execve(\"/usr/bin/python3\", [\"python3\"], 0x7ffd /* 4 vars */) = 0 <0.000100>\n", ts(0) > root
        for (k = 1; k < logs; k++)
            printf "%s clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, " \
                   "child_tidptr=0x7f) = %d <0.000050>\n", ts(k * 1000), 1000 + k > root
        close(root)
        for (k = 1; k < logs; k++) {
            f = dir "/strace.log." (1000 + k)
            for (r = 0; r <= reads + 3; r++) {
                t = il ? 2000000 + r * logs + k : 500000 + k * 1000 + 500 + r
                if (r == 0)
                    printf "%s openat(AT_FDCWD, \"/data/f%d.bin\", O_RDONLY) = 3 <0.000010>\n", ts(t), k > f
                else if (r <= reads)
                    printf "%s read(3, \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"..., 4096) = 4096 <0.000002>\n", ts(t) > f
                else if (r == reads + 1)
                    printf "%s close(3) = 0 <0.000002>\n", ts(t) > f
                else if (r == reads + 2)
                    printf "%s exit_group(0) = ?\n", ts(t) > f
                else
                    printf "%s +++ exited with 0 +++\n", ts(t) > f
            }
            close(f)
        }
    }'
    for f in "$run"/plain/strace.log.*; do zstd -q -3 -o "$run/zst/${f##*/}.zst" "$f"; done
fi
bytes=$(cat "$run"/plain/strace.log.* | wc -c)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
configs=("cat plain" "niorep -j 1 plain" "niorep -j 2 plain" "niorep -j 1 zst" "niorep -j 2 zst")
echo "== $logs logs of $((reads + 4)) lines, $((bytes / 1000000)) MB in all; $rounds alternated rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
reread "$run"/plain/strace.log.* "$run"/zst/strace.log.*
for ((r = 0; r < rounds; r++)); do
    timed_run "$dir" 0 sh -c 'cat "$0"/strace.log.* > /dev/null' "$run/plain"
    timed_ingest "$dir" 1 "$niorep" 1 "$run/plain"
    timed_ingest "$dir" 2 "$niorep" 2 "$run/plain"
    timed_ingest "$dir" 3 "$niorep" 1 "$run/zst"
    timed_ingest "$dir" 4 "$niorep" 2 "$run/zst"
    for i in 2 4; do
        cmp -s "$dir/out.$((i - 1)).nio" "$dir/out.$i.nio" || {
            echo "many_logs_bench: the store of '${configs[$i]}' differs from that of '${configs[$((i - 1))]}'" >&2
            exit 1
        }
    done
done
for i in 0 1 2 3 4; do
    printf '%-20s %s  %6.0f MB/s\n' "${configs[$i]}" "$(run_summary "$dir" "$i")" \
        "$(awk -v b="$bytes" -v w="$(median < "$dir/wall.$i")" 'BEGIN{print b / w / 1e6}')"
done
echo "ratio: -j 1 plain over cat: $(round_ratio "$dir" 1 0); -j 2 over -j 1: plain $(round_ratio "$dir" 1 2)," \
     "zst $(round_ratio "$dir" 3 4) (above 1: -j 2 is faster); the stores identical"
echo "== load average $(cut -d' ' -f1-3 /proc/loadavg)"
