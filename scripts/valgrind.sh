#!/usr/bin/env bash
# Runs representative end-to-end commands under valgrind memcheck: any
# memory error or definite leak fails (exit 1). Registered as the ctest
# hardening_valgrind (labels e2e;valgrind;nosan: not in the ASan build).
# Font caches of fontconfig/pango are suppressed (tests/hardening/valgrind.supp).
# usage: scripts/valgrind.sh [NIOREP] [SOURCE_DIR] [NAME_FILTER]
#   defaults: build/cli/niorep and the checkout this script is in.
set -uo pipefail
src=${2:-$(cd "$(dirname "$0")/.." && pwd)}
niorep=${1:-$src/build/cli/niorep}
filter=${3:-}
command -v valgrind >/dev/null || { echo "skip: valgrind is not installed"; exit 77; }
tmp=$(mktemp -d /tmp/nr_valgrind.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp -r "$src/datasets/sample/diffusion" "$tmp/run"
mkdir -p "$tmp/traces" && cp -r "$src/datasets/sample/snn" "$tmp/traces/snn"

failures=0
# vg NAME ARGS...: one niorep command under memcheck (jemalloc's malloc is
# replaced too, so its blocks are tracked; children traced: build and
# figures run in niorep-render, which niorep execs).
vg() {
  local name=$1
  shift
  [[ "$name" == *"$filter"* ]] || return 0
  local start=$SECONDS
  if valgrind -q --trace-children=yes --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
       --show-leak-kinds=definite --suppressions="$src/tests/hardening/valgrind.supp" --soname-synonyms='somalloc=libjemalloc.so*' \
       --log-file="$tmp/vg.log" "$niorep" "$@" >"$tmp/out" 2>"$tmp/err"; then
    echo "ok: $name ($((SECONDS - start)) s)"
  else
    echo "FAIL: $name (exit $?)"
    cat "$tmp/vg.log" "$tmp/err" | head -60
    failures=$((failures + 1))
  fi
}

cd "$tmp" || exit 1
"$niorep" ingest run -o run.nio -q || exit 1  # so that a filtered run has its store
vg "ingest --jobs 1" ingest run -o run.nio -j 1 -q
vg "ingest --jobs 2" ingest run -o run2.nio -j 2 -q
vg "info" info run.nio
vg "export csv -o" export run.nio --table events -o events.csv
vg "export jsonl" export run.nio --table files --format jsonl
vg "summary" summary run.nio --bootstraps 10
vg "summary --json" summary --json run.nio --bootstraps 10
vg "figures svg,png" figures run.nio -o figs --format svg,png --bootstraps 10
vg "build (traces folder, ingest included)" build traces -o report.html --bootstraps 10
vg "bad input (a damaged store)" info "$src/tests/fuzz/corpus/store_reader/no-tables.nio"
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
