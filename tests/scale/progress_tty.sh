#!/usr/bin/env bash
# The progress bar of `niorep ingest` appears when stderr is a terminal (a
# pty made by script(1)) and not when stderr is a pipe or a file.
# usage: progress_tty.sh NIOREP RUN_DIR
set -euo pipefail
niorep=$1 run=$2
command -v script >/dev/null || { echo "script(1) missing: skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
script -qec "'$niorep' ingest '$run' -o '$tmp/tty.nio' -j 2" /dev/null > "$tmp/tty.txt"
grep -q 'ingest \[#*\.*\] *[0-9]*% .*B/s .* left' "$tmp/tty.txt" || { echo "FAIL: no bar on a tty"; cat -v "$tmp/tty.txt"; exit 1; }
grep -q '100%' "$tmp/tty.txt" || { echo "FAIL: the bar never reached 100%"; cat -v "$tmp/tty.txt"; exit 1; }
"$niorep" ingest "$run" -o "$tmp/pipe.nio" -j 2 2>&1 | cat > "$tmp/pipe.txt"
if grep -q 'ingest \[' "$tmp/pipe.txt"; then echo "FAIL: a bar on a pipe"; cat -v "$tmp/pipe.txt"; exit 1; fi
grep -q 'events' "$tmp/pipe.txt" || { echo "FAIL: no summary line on the pipe"; exit 1; }
cmp "$tmp/tty.nio" "$tmp/pipe.nio" || { echo "FAIL: stores differ between tty and pipe"; exit 1; }
echo "ok: bar on a tty, none on a pipe"
