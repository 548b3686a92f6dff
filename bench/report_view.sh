#!/bin/bash
# How long a browser takes to show a report: headless Chromium screenshots
# (1280x4000) of each REPORT, ROUNDS rounds alternated between the reports,
# next to a blank page in the same rounds (Chromium's own start-up, the
# baseline). Prints per report its size, the median seconds, their range and
# the median over the blank page's.
#
# usage: bench/report_view.sh [--rounds N] REPORT.html...
set -euo pipefail
rounds=5
if [ "${1:-}" = "--rounds" ]; then rounds=$2; shift 2; fi
[ $# -ge 1 ] || { sed -n '2,9p' "$0"; exit 2; }
command -v chromium >/dev/null || { echo "report_view: chromium missing" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '<!DOCTYPE html><title>blank</title><p>blank</p>\n' > "$tmp/blank.html"
reports=("$tmp/blank.html")
for r in "$@"; do reports+=("$(realpath "$r")"); done

shot() { # seconds to screenshot file $1
    local t0=$EPOCHREALTIME
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,4000 \
        --screenshot="$tmp/shot.png" "file://$1" >/dev/null 2>&1
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {print b - a}'
}

for ((k = 0; k < ${#reports[@]}; k++)); do : > "$tmp/t$k"; done
for ((i = 0; i < rounds; i++)); do
    for ((k = 0; k < ${#reports[@]}; k++)); do shot "${reports[$k]}" >> "$tmp/t$k"; done
done
median() { sort -g "$1" | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
range() { sort -g "$1" | awk 'NR==1{a=$1} {b=$1} END {printf "%.2f-%.2f", a, b}'; }
base=$(median "$tmp/t0")
printf '%-40s %10s %8s %12s %10s\n' report bytes median range "x blank"
printf '%-40s %10s %8.2f %12s %10s\n' "(blank page)" - "$base" "$(range "$tmp/t0")" 1.00
for ((k = 1; k < ${#reports[@]}; k++)); do
    m=$(median "$tmp/t$k")
    printf '%-40s %10d %8.2f %12s %10.2f\n' "$(basename "${reports[$k]}")" "$(stat -c %s "${reports[$k]}")" \
        "$m" "$(range "$tmp/t$k")" "$(awk -v a="$m" -v b="$base" 'BEGIN {print a / b}')"
done
