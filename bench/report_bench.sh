#!/usr/bin/env bash
# report_bench.sh: time split ingest / model / render of `niorep build`
# (not part of ctest).
#
#   bench/report_bench.sh                 # six sample runs, then a ~10 M event run
#   bench/report_bench.sh --sample-only
#   bench/report_bench.sh --size 1500M    # size of the generated strace log
#
# 1. the six committed sample runs (datasets/sample), cold (ingest into a fresh
#    cache) and warm (cache reused: model + render only);
# 2. one run of ~10 M events: a `strace -f -ttt -T -y` log written by the
#    seeded generator bench/gen_strace_log.c (branch e2e; taken from git when
#    it is not in the tree), ingested, modelled and rendered. When the
#    generator is nowhere, bench/model_gen.c writes a 10 M event store instead
#    (ingest then reads 0 s).
# Prints `niorep build --timings` (ingest, model, render seconds and render
# share) and PASS/FAIL against the target: render < 20% of the total on the
# 10 M event run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
size=1500M
sample_only=0
bootstraps=200
while [ $# -gt 0 ]; do
    case $1 in
        --size) size=$2; shift 2 ;;
        --sample-only) sample_only=1; shift ;;
        --bootstraps) bootstraps=$2; shift 2 ;;
        -h|--help) sed -n 2,20p "$0"; exit 0 ;;
        *) echo "report_bench: unknown option $1" >&2; exit 2 ;;
    esac
done
niorep=$root/build/cli/niorep
[ -x "$niorep" ] || { echo "report_bench: build first (scripts/build.sh)" >&2; exit 1; }
out=$root/bench/out/report
mkdir -p "$out"

split() {   # label, then the build command's stderr file
    local line
    line=$(grep '^timings:' "$2" || true)
    printf '%-34s %s\n' "$1" "${line#timings: }"
}

echo "== six sample runs (datasets/sample), bootstraps $bootstraps"
rm -rf "$out/sample"
cp -r datasets/sample "$out/sample"
rm -rf "$out/sample/.niorep"
"$niorep" build "$out/sample" -o "$out/sample.html" --bootstraps "$bootstraps" --timings 2> "$out/cold.err"
split "cold (ingest + model + render)" "$out/cold.err"
"$niorep" build "$out/sample" -o "$out/sample.html" --bootstraps "$bootstraps" --timings 2> "$out/warm.err"
split "warm (cached stores)" "$out/warm.err"
[ "$sample_only" = 1 ] && exit 0

echo "== one large run (log of $size)"
run=$out/big/run
mkdir -p "$run"
gen=$out/gen_strace_log
if [ ! -x "$gen" ]; then
    src=$root/bench/gen_strace_log.c
    if [ ! -f "$src" ] && git -C "$root" cat-file -e e2e:bench/gen_strace_log.c 2>/dev/null; then
        git -C "$root" show e2e:bench/gen_strace_log.c > "$out/gen_strace_log.c"
        src=$out/gen_strace_log.c
    fi
    [ -f "$src" ] && cc -O2 -o "$gen" "$src" -lm
fi
if [ -x "$gen" ]; then
    [ -s "$run/strace.log" ] && [ "$(cat "$run/.size" 2>/dev/null)" = "$size" ] || {
        "$gen" --size "$size" --seed 1 -o "$run/strace.log"
        echo "$size" > "$run/.size"
    }
    rm -rf "$out/big/.niorep"
    input=$run
    echo "log: $(wc -l < "$run/strace.log") lines, $(du -h "$run/strace.log" | cut -f1)"
else
    echo "(gen_strace_log.c not found: using bench/model_gen.c, a 10 M event store; ingest not measured)"
    cc -O2 -o "$out/model_gen" bench/model_gen.c store/*.c common/*.c -Istore -Icommon -lzstd -lm -D_GNU_SOURCE \
        -DNR_VERSION=\"bench\"
    "$out/model_gen" "$out/big.nio" --events 10000000 --seed 1
    input=$out/big.nio
fi
"$niorep" build "$input" -o "$out/big.html" --bootstraps "$bootstraps" --timings 2> "$out/big.err" || { cat "$out/big.err"; exit 1; }
split "large run, cold" "$out/big.err"
store=$input
[ -d "$input" ] && store=$out/big/.niorep/run.nio
events=$("$niorep" summary "$store" --json --bootstraps 0 | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["totals"]["events"])')
echo "events in the store: $events"
share=$(sed -n 's/.*render share \([0-9.]*\)%.*/\1/p' "$out/big.err")
if awk -v s="$share" 'BEGIN { exit !(s < 20) }'; then
    echo "PASS: render is $share% of the total (target < 20%)"
else
    echo "FAIL: render is $share% of the total (target < 20%)"
fi
