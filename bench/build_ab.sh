#!/usr/bin/env bash
# build_ab.sh: cold `niorep build` of several configurations in alternated
# rounds (not part of ctest).
#
#   bench/build_ab.sh TRACES ROUNDS BIN:JOBS [BIN:JOBS ...]
#
# TRACES is a folder of run folders (bench/scale_bench.sh makes 100 in
# bench/out/scale/traces-100). Each run builds from a fresh folder of links
# to those run folders, so no store, fit or figure kept in TRACES/.niorep is
# reused: ingest, model and render all run. Prints, per configuration, the
# medians of wall and CPU seconds and of peak RSS, whether its reports were
# byte-identical in every round, and for configurations 2, 4, 6, ... the
# median and range of the per-round ratio of the configuration before it to
# this one (above 1: this one is faster). `old:2 new:2` compares binaries.
set -euo pipefail
[ $# -ge 3 ] || { sed -n 2,14p "$0" >&2; exit 2; }
traces=$1 rounds=$2
shift 2
configs=("$@")
. "$(dirname "$0")/stats.sh"
. "$(dirname "$0")/runs.sh" # timed_run, check_configs, config_line
check_configs build_ab "${configs[@]}"
runs=("$(cd "$traces" && pwd)"/*/) # absolute: the links are made elsewhere
[ -d "${runs[0]}" ] || { echo "build_ab: $traces: no run folders" >&2; exit 1; }
tmp=$(mktemp -d /tmp/build_ab.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# timed_build I BIN JOBS ROUND: one cold build of configuration I (timed_run),
# its report kept as report.I.ROUND.html.
timed_build() {
    local i=$1 bin=$2 jobs=$3 round=$4
    rm -rf "$tmp/traces"
    mkdir "$tmp/traces"
    ln -s "${runs[@]%/}" "$tmp/traces/"
    timed_run "$tmp" "$i" "$bin" build -j "$jobs" "$tmp/traces" -o "$tmp/report.$i.$round.html"
}

for r in $(seq "$rounds"); do
    for i in "${!configs[@]}"; do
        timed_build "$i" "${configs[$i]%:*}" "${configs[$i]##*:}" "$r"
    done
done

for i in "${!configs[@]}"; do
    same=identical
    for r in $(seq 2 "$rounds"); do
        cmp -s "$tmp/report.$i.1.html" "$tmp/report.$i.$r.html" || same=DIFFERENT
    done
    config_line "$tmp" "$i" "reports $same" "${configs[@]}"
done
