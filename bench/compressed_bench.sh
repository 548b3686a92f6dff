#!/usr/bin/env bash
# compressed_bench.sh: the ingest of a compressed log against decompressing
# it alone, one command, every ratio measured in the same run (not part of
# ctest).
#
#   bench/compressed_bench.sh [--rounds N] [--niorep BIN] LOG
#
# Compresses LOG (a plain strace log, such as bench/out/strace-1G-seed1.log
# from bench/ingest_bench.sh) with `zstd -3` and `gzip -1` once, into
# bench/out/compressed/ (kept for the next run), then in N alternated rounds
# (default 5) times, for each of the two:
#   - the decompression alone (`zstd -dc` to /dev/null; zlib's inflate,
#     bench/inflate_null.c, for .gz, as `gzip -dc` inflates slower than zlib):
#     the serial part, which no number of threads shortens;
#   - `niorep ingest -j 1` and `-j 2` of the compressed log;
# and `niorep ingest -j 1` of the plain log. Prints the medians (wall, CPU,
# peak RSS) and the median and range of the rounds' own ratios: -j 2 over
# -j 1 on the same file, and -j 2 against the decompression alone (the
# bound at -j 2 when the decompression is the larger share). The stores of
# -j 1 and -j 2 are compared byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
rounds=5 niorep=$root/build/cli/niorep
while [ $# -gt 1 ]; do
    case $1 in
        --rounds) rounds=$2; shift 2 ;;
        --niorep) niorep=$2; shift 2 ;;
        *) echo "compressed_bench: unknown option $1" >&2; exit 2 ;;
    esac
done
[ $# -eq 1 ] || { sed -n 2,19p "$0" >&2; exit 2; }
log=$1
[ -f "$log" ] || { echo "compressed_bench: $log: no such file" >&2; exit 1; }
[ -x "$niorep" ] || { echo "compressed_bench: $niorep: build first (scripts/build.sh)" >&2; exit 1; }
for t in /usr/bin/time zstd gzip cc awk cmp; do
    command -v $t >/dev/null || { echo "compressed_bench: needs $t" >&2; exit 1; }
done
. bench/stats.sh
. bench/runs.sh
out=$root/bench/out/compressed
mkdir -p "$out"
base=$out/$(basename "$log")
[ -f "$base.zst" ] || zstd -q -3 -T0 "$log" -o "$base.zst"
[ -f "$base.gz" ] || gzip -1 -c "$log" > "$base.gz"
tmp=$(mktemp -d /tmp/compressed_bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

inflate=$out/inflate_null
[ -x "$inflate" ] || cc -O2 -o "$inflate" bench/inflate_null.c -lz

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "log: $log ($(stat -c %s "$log") bytes); .zst $(stat -c %s "$base.zst"), .gz $(stat -c %s "$base.gz")"
for r in $(seq "$rounds"); do
    reread "$log" "$base.zst" "$base.gz"
    timed_run "$tmp" plain-j1 "$niorep" ingest -j 1 "$log" -o "$tmp/plain.nio"
    for form in zst gz; do
        if [ $form = zst ]; then
            timed_run "$tmp" "$form-decompress" zstd -dc "$base.$form"
        else # zlib, as niorep reads it: gzip's own inflate runs slower
            timed_run "$tmp" "$form-decompress" "$inflate" "$base.$form"
        fi
        timed_run "$tmp" "$form-j1" "$niorep" ingest -j 1 "$base.$form" -o "$tmp/$form-j1.nio"
        timed_run "$tmp" "$form-j2" "$niorep" ingest -j 2 "$base.$form" -o "$tmp/$form-j2.nio"
        cmp -s "$tmp/$form-j1.nio" "$tmp/$form-j2.nio" ||
            { echo "compressed_bench: the stores of -j 1 and -j 2 differ ($form)" >&2; exit 1; }
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

for name in plain-j1 zst-decompress zst-j1 zst-j2 gz-decompress gz-j1 gz-j2; do
    printf '%-16s %s\n' "$name" "$(run_summary "$tmp" "$name")"
done
for form in zst gz; do
    echo "$form: -j 2 speed-up over -j 1: $(round_ratio "$tmp" "$form-j1" "$form-j2")"
    echo "$form: -j 2 wall / decompression alone: $(round_ratio "$tmp" "$form-j2" "$form-decompress")"
done
