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
out=$root/bench/out/compressed
mkdir -p "$out"
base=$out/$(basename "$log")
[ -f "$base.zst" ] || zstd -q -3 -T0 "$log" -o "$base.zst"
[ -f "$base.gz" ] || gzip -1 -c "$log" > "$base.gz"
tmp=$(mktemp -d /tmp/compressed_bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

inflate=$out/inflate_null
[ -x "$inflate" ] || cc -O2 -o "$inflate" bench/inflate_null.c -lz

# timed NAME CMD...: appends "wall cpu rss_kb" of CMD to $tmp/NAME
timed() {
    local name=$1
    shift
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" > /dev/null 2> "$tmp/err" ||
        { cat "$tmp/err" >&2; exit 1; }
    awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/time" >> "$tmp/$name"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "log: $log ($(stat -c %s "$log") bytes); .zst $(stat -c %s "$base.zst"), .gz $(stat -c %s "$base.gz")"
for r in $(seq "$rounds"); do
    cat "$log" "$base.zst" "$base.gz" > /dev/null
    timed plain-j1 "$niorep" ingest -j 1 "$log" -o "$tmp/plain.nio"
    for form in zst gz; do
        if [ $form = zst ]; then
            timed "$form-decompress" zstd -dc "$base.$form"
        else # zlib, as niorep reads it: gzip's own inflate runs slower
            timed "$form-decompress" "$inflate" "$base.$form"
        fi
        timed "$form-j1" "$niorep" ingest -j 1 "$base.$form" -o "$tmp/$form-j1.nio"
        timed "$form-j2" "$niorep" ingest -j 2 "$base.$form" -o "$tmp/$form-j2.nio"
        cmp -s "$tmp/$form-j1.nio" "$tmp/$form-j2.nio" ||
            { echo "compressed_bench: the stores of -j 1 and -j 2 differ ($form)" >&2; exit 1; }
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# column K of file NAME, one value a line
col() { awk -v k="$2" '{ print $k }' "$tmp/$1"; }
# per-round ratios of file A's wall over file B's
ratios() { paste -d' ' <(col "$1" 1) <(col "$2" 1) | awk '{ printf "%.4f\n", $1 / $2 }'; }
printf '%-16s %8s %8s %9s\n' run "wall s" "CPU s" "RSS MiB"
for name in plain-j1 zst-decompress zst-j1 zst-j2 gz-decompress gz-j1 gz-j2; do
    printf '%-16s %8s %8s %9.0f\n' "$name" "$(col $name 1 | median)" "$(col $name 2 | median)" \
        "$(col $name 3 | median | awk '{ print $1 / 1024 }')"
done
# "median (lo-hi)" of numbers on standard input
median_range() {
    local v
    v=$(cat)
    printf '%.2fx (%s)\n' "$(echo "$v" | median)" "$(echo "$v" | range | awk '{ printf "%.2f-%.2f", $1, $2 }')"
}
for form in zst gz; do
    echo "$form: -j 2 speed-up over -j 1: $(ratios $form-j1 $form-j2 | median_range)"
    echo "$form: -j 2 wall / decompression alone: $(ratios $form-j2 $form-decompress | median_range)"
done
