#!/usr/bin/env bash
# model_bench: the model's time on a large store next to the time to decode
# the store's event columns alone (target: model <= 3x decode), and the peak
# RSS of each, on N events and on N/4 (memory must not grow with events).
#
# usage: bench/model_bench.sh [--events 10000000] [--build build] [--out bench/out]
#                             [--repeat 3] [--bootstraps 0]
# Needs a configured and built tree (cmake --build BUILD). Not part of ctest.
set -euo pipefail
cd "$(dirname "$0")/.."

events=10000000 build=build out=bench/out repeat=3 boot=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --events) events=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --bootstraps) boot=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "model_bench: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for lib in store/libnr_store.a common/libnr_common.a model/libnr_model.a; do
  [[ -f $build/$lib ]] || { echo "model_bench: $build/$lib not built (cmake --build $build)" >&2; exit 1; }
done
command -v /usr/bin/time >/dev/null || { echo "model_bench: needs /usr/bin/time" >&2; exit 1; }
mkdir -p "$out"

cflags="-O2 -std=c11 -D_GNU_SOURCE -Icommon -Istore -Imodel $(pkg-config --cflags jansson gsl)"
libs="$build/model/libnr_model.a $build/store/libnr_store.a $build/common/libnr_common.a $(pkg-config --libs libzstd zlib jansson gsl) -lm"
cc $cflags -o "$out/model_gen" bench/model_gen.c $libs
cc $cflags -o "$out/model_bench" bench/model_bench.c $libs

store=$out/model-$events.nio
quarter=$out/model-$((events / 4)).nio
[[ -s $store ]] || "$out/model_gen" "$store" --events "$events" >/dev/null
[[ -s $quarter ]] || "$out/model_gen" "$quarter" --events $((events / 4)) >/dev/null
cat "$store" "$quarter" >/dev/null   # warm the page cache: we time decoding, not the disk

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END{print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
# runs model_bench, appends its seconds to the named array and records the peak RSS (KiB)
run() {
  local what=$1 file=$2
  /usr/bin/time -f 'rss %M' -o "$out/time.txt" "$out/model_bench" "$what" "$file" "$boot" >"$out/run.txt"
  secs=$(awk '/^seconds/{print $2}' "$out/run.txt")
  cpu=$(awk '/^cpu/{print $2}' "$out/run.txt")
  rss=$(awk '/^rss/{print $2}' "$out/time.txt")
}

declare -a dec mod decc modc
for _ in $(seq "$repeat"); do
  run decode "$store"; dec+=("$secs"); decc+=("$cpu"); dec_rss=$rss
  run model "$store"; mod+=("$secs"); modc+=("$cpu"); mod_rss=$rss
done
run model "$quarter"; q_rss=$rss
d=$(median "${dec[@]}"); m=$(median "${mod[@]}")
dc=$(median "${decc[@]}"); mc=$(median "${modc[@]}")
printf '%-34s %s\n' "store" "$store ($(stat -c %s "$store") bytes, $events events)"
printf '%-34s %8.3f s wall %8.3f s cpu\n' "decode all event columns (median)" "$d" "$dc"
printf '%-34s %8.3f s wall %8.3f s cpu  (bootstraps %s)\n' "full model (median)" "$m" "$mc" "$boot"
printf '%-34s %8.2f x wall %8.2f x cpu  (target <= 3)\n' "model / decode" \
  "$(awk -v a="$m" -v b="$d" 'BEGIN{print a/b}')" "$(awk -v a="$mc" -v b="$dc" 'BEGIN{print a/b}')"
printf '%-34s %8d MiB\n' "peak RSS, decode" $((dec_rss / 1024))
printf '%-34s %8d MiB\n' "peak RSS, model ($events events)" $((mod_rss / 1024))
printf '%-34s %8d MiB\n' "peak RSS, model ($((events / 4)) events)" $((q_rss / 1024))
