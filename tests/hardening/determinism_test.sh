#!/usr/bin/env bash
# Determinism: the same inputs give byte-identical outputs, whatever the
# thread count, the directory the inputs were copied to, or the time.
#  - ingest of one run twice, with --jobs 1 and --jobs 2, and from a copy of
#    the run in another absolute directory (same run name);
#  - summary (text and --json) twice;
#  - figures (svg, pdf, png) twice;
#  - the report (niorep build) twice, from the stores and from the run folder.
# usage: determinism_test.sh NIOREP SOURCE_DIR
set -uo pipefail
niorep=$1 src=$2
tmp=$(mktemp -d /tmp/nr_determinism.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
same() { # same WHAT A B
  if [ -s "$2" ] && cmp -s "$2" "$3"; then echo "ok: $1"; else fail "$1: $2 and $3 differ"; fi
}
same_dirs() { # same_dirs WHAT A B
  if diff -r "$2" "$3" >/dev/null; then echo "ok: $1 ($(ls "$2" | wc -l) files)"; else fail "$1: $(diff -rq "$2" "$3" | head -3)"; fi
}

mkdir -p "$tmp/a/traces" "$tmp/elsewhere/deeper/traces"
cp -r "$src/datasets/sample/rl" "$tmp/a/traces/rl"
cp -r "$src/datasets/sample/snn" "$tmp/a/traces/snn"
cp -r "$src/datasets/sample/rl" "$tmp/elsewhere/deeper/traces/rl"
run="$tmp/a/traces/rl"

"$niorep" ingest "$run" -o "$tmp/j1.nio" -j 1 -q || exit 1
"$niorep" ingest "$run" -o "$tmp/j1b.nio" -j 1 -q || exit 1
"$niorep" ingest "$run" -o "$tmp/j2.nio" -j 2 -q || exit 1
"$niorep" ingest "$run" -o "$tmp/j0.nio" -q || exit 1
(cd "$tmp/elsewhere/deeper" && "$niorep" ingest traces/rl -o ../moved.nio -q) || exit 1
same "ingest twice" "$tmp/j1.nio" "$tmp/j1b.nio"
same "ingest --jobs 1 vs 2" "$tmp/j1.nio" "$tmp/j2.nio"
same "ingest --jobs 1 vs all cores" "$tmp/j1.nio" "$tmp/j0.nio"
same "ingest from another directory" "$tmp/j1.nio" "$tmp/elsewhere/moved.nio"

# The outputs name their inputs as given: relative paths from here on, the
# same names each time.
cd "$tmp" || exit 1
"$niorep" summary j1.nio >s1.txt || fail "summary"
"$niorep" summary j1.nio >s2.txt || fail "summary"
"$niorep" summary --json j1.nio >s1.json || fail "summary --json"
"$niorep" summary --json j1.nio >s2.json || fail "summary --json"
same "summary text" s1.txt s2.txt
same "summary json" s1.json s2.json

"$niorep" figures j1.nio -o f1 --format svg,pdf,png --bootstraps 20 >/dev/null 2>&1 || fail "figures"
"$niorep" figures j1.nio -o f2 --format svg,pdf,png --bootstraps 20 >/dev/null 2>&1 || fail "figures"
same_dirs "figures svg/pdf/png" f1 f2

"$niorep" build j1.nio -o r1.html --bootstraps 20 >/dev/null 2>&1 || fail "build"
"$niorep" build j1.nio -o r2.html --bootstraps 20 >/dev/null 2>&1 || fail "build"
same "report from a store" r1.html r2.html
# From the traces folder twice: fresh, then from the ingest cache inside it.
"$niorep" build a/traces -o t1.html --bootstraps 20 >/dev/null 2>&1 || fail "build traces"
"$niorep" build a/traces -o t2.html --bootstraps 20 >/dev/null 2>&1 || fail "build traces"
same "report from a traces folder (fresh vs cached)" t1.html t2.html
# The same traces folder elsewhere on the machine gives the same report.
(cd elsewhere/deeper && cp -r ../../a/traces/snn traces/ && "$niorep" build traces -o ../../t3.html --bootstraps 20 >/dev/null 2>&1) || fail "build traces elsewhere"
same "report of a copy of the traces folder in another directory" t1.html t3.html
if grep -l "$tmp" t1.html r1.html s1.txt s1.json f1/*.svg; then
  fail "an absolute path of this machine ($tmp) is inside an output"
else
  echo "ok: no absolute path of the machine in the outputs"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
