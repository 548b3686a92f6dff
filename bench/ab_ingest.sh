#!/usr/bin/env bash
# ab_ingest.sh: two niorep binaries against each other on one log, alternated
# (not part of ctest).
#
#   bench/ab_ingest.sh OLD NEW LOG [--jobs N] [--rounds R]
#
# Runs `OLD ingest -j N` and `NEW ingest -j N` one after the other, R rounds
# (default 8, -j 1), after one read of LOG to warm the page cache, and
# prints each run's wall and CPU (user+sys) seconds, the medians, and the
# median and range of the per-round ratios OLD/NEW (above 1: NEW is faster).
# On a shared host the neighbours change from minute to minute; a round's two
# runs share them, so the per-round ratio is steadier than either median.
# The two stores are compared byte for byte at the end.
set -euo pipefail
[ $# -ge 3 ] || { sed -n 2,13p "$0" >&2; exit 2; }
old=$1 new=$2 log=$3 jobs=1 rounds=8
shift 3
while [ $# -gt 0 ]; do
    case $1 in
        --jobs) jobs=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        *) echo "ab_ingest: unknown option $1" >&2; exit 2 ;;
    esac
done
for b in "$old" "$new"; do [ -x "$b" ] || { echo "ab_ingest: $b: not an executable" >&2; exit 1; }; done
[ -r "$log" ] || { echo "ab_ingest: $log: cannot read" >&2; exit 1; }
tmp=$(mktemp -d /tmp/ab_ingest.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat "$log" >/dev/null

run() { # run NAME BINARY: one ingest, appends "NAME wall cpu" to $tmp/runs
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$2" ingest -o "$tmp/$1.nio" -j "$jobs" -q "$log"
    awk -v n="$1" '{printf "%s %s %.2f\n", n, $1, $2 + $3}' "$tmp/time" >>"$tmp/runs"
}
for _ in $(seq "$rounds"); do
    run old "$old"
    run new "$new"
done

. "$(dirname "$0")/stats.sh"
col() { awk -v n="$1" -v c="$2" '$1 == n {print $c}' "$tmp/runs"; }
echo "-j $jobs, $rounds rounds, $(basename "$log") ($(stat -c %s "$log") bytes)"
for n in old new; do
    printf '%-4s wall s: %s  (median %s)\n' "$n" "$(col $n 2 | tr '\n' ' ')" "$(col $n 2 | median)"
    printf '%-4s CPU s:  %s  (median %s)\n' "$n" "$(col $n 3 | tr '\n' ' ')" "$(col $n 3 | median)"
done
for c in 2 3; do
    ratios=$(paste <(col old $c) <(col new $c) | awk '{printf "%.3f\n", $1 / $2}')
    read -r lo hi < <(range <<< "$ratios")
    printf 'old/new %s per round: %s  median %s, range %s-%s\n' "$([ $c = 2 ] && echo wall || echo CPU)" \
        "$(echo "$ratios" | tr '\n' ' ')" "$(median <<< "$ratios")" "$lo" "$hi"
done
cmp -s "$tmp/old.nio" "$tmp/new.nio" && echo "stores identical" || echo "stores differ"
