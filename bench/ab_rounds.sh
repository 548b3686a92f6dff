#!/usr/bin/env bash
# ab_rounds.sh: several niorep ingest configurations in alternated rounds
# (not part of ctest).
#
#   bench/ab_rounds.sh [--gap SECONDS] INPUT ROUNDS BIN:JOBS [BIN:JOBS ...]
#
# Each round runs `BIN ingest -j JOBS INPUT` for every configuration in the
# order given, after one reread of INPUT (runs.sh; a run folder is read by the
# ingest itself). Prints, per configuration, the medians of wall and CPU
# (user+sys) seconds and of peak RSS, and for configurations 2, 4, 6, ...
# the median and range of the per-round ratio of the configuration before
# it to this one (wall time; above 1: this one is faster). Pairs such as
# `old:2 new:2` compare binaries; `new:1 new:2` gives the -j 2 speed-up.
# A round's runs share the host's neighbours of the moment, so per-round
# ratios are steadier than the medians on a shared host.
# --gap SECONDS sleeps that long before each run: on a VM whose host takes
# the guest's free memory back (virtio-balloon free page reporting; here
# within 3 s of its release), each run then starts on memory the host must
# provide again, instead of the memory the run before freed
# (bench/first_touch.c; docs/performance.md, session 22).
set -euo pipefail
gap=0
if [ "${1:-}" = --gap ]; then
    gap=${2:?--gap needs seconds}
    shift 2
fi
[ $# -ge 3 ] || { sed -n 2,21p "$0" >&2; exit 2; }
input=$1 rounds=$2
shift 2
configs=("$@")
. "$(dirname "$0")/stats.sh"
. "$(dirname "$0")/runs.sh"
check_configs ab_rounds "${configs[@]}"
tmp=$(mktemp -d /tmp/ab_rounds.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

[ -f "$input" ] && reread "$input"
for r in $(seq "$rounds"); do
    for i in "${!configs[@]}"; do
        sleep "$gap"
        timed_ingest "$tmp" "$i" "${configs[$i]%:*}" "${configs[$i]##*:}" "$input"
    done
done

for i in "${!configs[@]}"; do
    config_line "$tmp" "$i" "" "${configs[@]}"
done
