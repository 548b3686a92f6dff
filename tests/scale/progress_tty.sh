#!/usr/bin/env bash
# The progress bar of `niorep ingest` appears when stderr is a terminal (a
# pty made by script(1)) and not when stderr is a pipe or a file; so does
# that of the ingests of `niorep build`, which only the runs whose cache is
# stale have, and compare's count of the pairs done, and the bar of
# `niorep merge` (rows), which build draws too while it merges node
# stores. On a terminal of 60 or 40 columns (stty cols) no
# line of a bar takes more than 59 or 39, and the end (100%) is drawn once.
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

# niorep build: a bar while the runs are ingested, none once their stores are cached
mkdir -p "$tmp/traces"
cp -r "$run" "$tmp/traces/a"
cp -r "$run" "$tmp/traces/b"
script -qec "'$niorep' build '$tmp/traces' -o '$tmp/tty.html' --bootstraps 10" /dev/null > "$tmp/build1.txt"
grep -q 'ingest \[#*\.*\] *[0-9]*% .*B/s .* left' "$tmp/build1.txt" || { echo "FAIL: no build bar on a tty"; cat -v "$tmp/build1.txt"; exit 1; }
grep -q '100%' "$tmp/build1.txt" || { echo "FAIL: the build bar never reached 100%"; cat -v "$tmp/build1.txt"; exit 1; }
grep -q 'wrote .*(2 runs)' "$tmp/build1.txt" || { echo "FAIL: no report line"; cat -v "$tmp/build1.txt"; exit 1; }
script -qec "'$niorep' build '$tmp/traces' -o '$tmp/tty2.html' --bootstraps 10" /dev/null > "$tmp/build2.txt"
if grep -q 'ingest \[' "$tmp/build2.txt"; then echo "FAIL: a bar with every store cached"; cat -v "$tmp/build2.txt"; exit 1; fi
rm -rf "$tmp/traces/.niorep"
"$niorep" build "$tmp/traces" -o "$tmp/pipe.html" --bootstraps 10 2>&1 | cat > "$tmp/build3.txt"
if grep -q 'ingest \[' "$tmp/build3.txt"; then echo "FAIL: a build bar on a pipe"; cat -v "$tmp/build3.txt"; exit 1; fi
cmp "$tmp/tty.html" "$tmp/tty2.html" && cmp "$tmp/tty.html" "$tmp/pipe.html" || { echo "FAIL: reports differ"; exit 1; }

# niorep compare: the pairs counted on a tty (their models are computed in the pairs' threads), not on a pipe
script -qec "'$niorep' compare '$tmp/traces' '$tmp/traces' -o '$tmp/cmp_tty.html'" /dev/null > "$tmp/cmp1.txt"
grep -q 'compared 2 of 2 pairs' "$tmp/cmp1.txt" || { echo "FAIL: no pair count on a tty"; cat -v "$tmp/cmp1.txt"; exit 1; }
"$niorep" compare "$tmp/traces" "$tmp/traces" -o "$tmp/cmp_pipe.html" 2>&1 | cat > "$tmp/cmp2.txt"
if grep -q 'compared' "$tmp/cmp2.txt"; then echo "FAIL: a pair count on a pipe"; cat -v "$tmp/cmp2.txt"; exit 1; fi
cmp "$tmp/cmp_tty.html" "$tmp/cmp_pipe.html" || { echo "FAIL: compare reports differ between tty and pipe"; exit 1; }

# lines_fit FILE COLS: every line a bar drew (between "\r"s, "\033[K" removed) takes at most COLS - 1 columns
lines_fit() {
    awk -v max=$(($2 - 1)) 'BEGIN { RS = "[\r\n]" } { gsub(/\033\[K/, ""); if ($0 ~ /^(ingest|merge) / && length($0) > max) { print "FAIL: " length($0) " columns: " $0; bad = 1 } } END { exit bad }' "$1"
}
for cols in 60 40; do
    script -qec "stty cols $cols; '$niorep' ingest '$run' -o '$tmp/cols.nio' -j 2" /dev/null > "$tmp/cols$cols.txt"
    grep -q 'ingest \[#*\.*\] *[0-9]*% ' "$tmp/cols$cols.txt" || { echo "FAIL: no bar in $cols columns"; cat -v "$tmp/cols$cols.txt"; exit 1; }
    lines_fit "$tmp/cols$cols.txt" "$cols" || { cat -v "$tmp/cols$cols.txt"; exit 1; }
    [[ $(grep -o '100%' "$tmp/cols$cols.txt" | wc -l) = 1 ]] || { echo "FAIL: the end drawn more than once"; cat -v "$tmp/cols$cols.txt"; exit 1; }
done
lines_fit "$tmp/tty.txt" 80 || { echo "(in 80 columns)"; cat -v "$tmp/tty.txt"; exit 1; }

# niorep merge: a bar of rows on a tty (the same in 60 columns), none on a pipe; one node store merges too
for node in n1 n2; do
    mkdir -p "$tmp/$node"
    cp "$run"/* "$tmp/$node/"
    sed -i "s/\"labels\": {/\"labels\": {\"run\": \"R\", \"node\": \"$node\",/" "$tmp/$node/manifest.json"
    "$niorep" ingest -q "$tmp/$node" -o "$tmp/$node.nio"
done
script -qec "stty cols 60; '$niorep' merge '$tmp/n1.nio' '$tmp/n2.nio' -o '$tmp/m_tty.nio'" /dev/null > "$tmp/merge1.txt"
grep -q 'merge \[#*\.*\] *[0-9]*% ' "$tmp/merge1.txt" || { echo "FAIL: no merge bar on a tty"; cat -v "$tmp/merge1.txt"; exit 1; }
grep -q '100%' "$tmp/merge1.txt" || { echo "FAIL: the merge bar never reached 100%"; cat -v "$tmp/merge1.txt"; exit 1; }
lines_fit "$tmp/merge1.txt" 60 || { cat -v "$tmp/merge1.txt"; exit 1; }
grep -q '2 nodes merged' "$tmp/merge1.txt" || { echo "FAIL: no merge line"; cat -v "$tmp/merge1.txt"; exit 1; }
"$niorep" merge "$tmp/n1.nio" "$tmp/n2.nio" -o "$tmp/m_pipe.nio" 2>&1 | cat > "$tmp/merge2.txt"
if grep -q 'merge \[' "$tmp/merge2.txt"; then echo "FAIL: a merge bar on a pipe"; cat -v "$tmp/merge2.txt"; exit 1; fi
cmp "$tmp/m_tty.nio" "$tmp/m_pipe.nio" || { echo "FAIL: merged stores differ between tty and pipe"; exit 1; }
script -qec "'$niorep' merge -q '$tmp/n1.nio' '$tmp/n2.nio' -o '$tmp/m_q.nio'" /dev/null > "$tmp/merge3.txt"
if grep -q 'merge' "$tmp/merge3.txt"; then echo "FAIL: merge -q printed"; cat -v "$tmp/merge3.txt"; exit 1; fi
script -qec "'$niorep' merge '$tmp/n1.nio' -o '$tmp/m1.nio'" /dev/null > "$tmp/merge4.txt"
grep -q '1 node merged' "$tmp/merge4.txt" || { echo "FAIL: one node store did not merge"; cat -v "$tmp/merge4.txt"; exit 1; }
# niorep build of node stores: the same bar of rows while it merges them
# (until session 50 one line, "niorep: merge n1..."), none once the merged
# store is cached, none on a pipe
mkdir -p "$tmp/nodes"
cp "$tmp/n1.nio" "$tmp/n2.nio" "$tmp/nodes/"
script -qec "stty cols 60; '$niorep' build '$tmp/nodes' -o '$tmp/nodes_tty.html' --bootstraps 10" /dev/null > "$tmp/bmerge1.txt"
grep -q 'merge R \[#*\.*\] *[0-9]*% .*rows' "$tmp/bmerge1.txt" || { echo "FAIL: no merge bar in build on a tty"; cat -v "$tmp/bmerge1.txt"; exit 1; }
grep -q 'merge R .*100%' "$tmp/bmerge1.txt" || { echo "FAIL: build's merge bar never reached 100%"; cat -v "$tmp/bmerge1.txt"; exit 1; }
lines_fit "$tmp/bmerge1.txt" 60 || { cat -v "$tmp/bmerge1.txt"; exit 1; }
grep -q '1 merged, 0 reused' "$tmp/bmerge1.txt" || { echo "FAIL: build did not merge"; cat -v "$tmp/bmerge1.txt"; exit 1; }
script -qec "'$niorep' build '$tmp/nodes' -o '$tmp/nodes_tty2.html' --bootstraps 10" /dev/null > "$tmp/bmerge2.txt"
if grep -q 'merge R \[' "$tmp/bmerge2.txt"; then echo "FAIL: a merge bar with the merged store cached"; cat -v "$tmp/bmerge2.txt"; exit 1; fi
rm -rf "$tmp/nodes/.niorep"
"$niorep" build "$tmp/nodes" -o "$tmp/nodes_pipe.html" --bootstraps 10 2>&1 | cat > "$tmp/bmerge3.txt"
if grep -q 'merge' "$tmp/bmerge3.txt" | grep -v 'merged from node stores'; then :; fi
if grep -v 'stores merged from node stores' "$tmp/bmerge3.txt" | grep -q 'merge'; then echo "FAIL: build's merge progress on a pipe"; cat -v "$tmp/bmerge3.txt"; exit 1; fi
grep -q '1 merged, 0 reused' "$tmp/bmerge3.txt" || { echo "FAIL: build on a pipe did not merge"; cat -v "$tmp/bmerge3.txt"; exit 1; }
cmp "$tmp/nodes_tty.html" "$tmp/nodes_pipe.html" || { echo "FAIL: reports of the merged run differ between tty and pipe"; exit 1; }
echo "ok: bar on a tty, none on a pipe; build's bar while ingesting only; compare's pair count on a tty only; bars fit 40/60/80 columns; merge's bar, and build's while it merges"
