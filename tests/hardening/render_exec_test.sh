#!/usr/bin/env bash
# niorep without the render stage (cli/render_exec.c): it does not load the
# render libraries, runs build, figures and compare in niorep-render beside
# it, and says so when that one is missing.
# usage: render_exec_test.sh NIOREP SOURCE_DIR
set -uo pipefail
niorep=$1 src=$2
render=$(dirname "$niorep")/niorep-render
tmp=$(mktemp -d /tmp/nr_render_exec.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
for lib in libcairo libpango libpangocairo libxml2 libharfbuzz libfontconfig; do
    needed "$niorep" | grep -q "^$lib[.-]" && fail "niorep needs $lib"
done
for lib in libcairo libpango libxml2; do
    needed "$render" | grep -q "^$lib[.-]" || fail "niorep-render does not need $lib"
done

# the rendering commands through niorep: the same bytes as niorep-render's own
"$niorep" ingest "$src/datasets/sample/rl" -o "$tmp/rl.nio" -q || fail "ingest"
"$niorep" figures "$tmp/rl.nio" -o "$tmp/f1" --format svg --bootstraps 5 > /dev/null 2>&1 || fail "figures through niorep"
"$render" figures "$tmp/rl.nio" -o "$tmp/f2" --format svg --bootstraps 5 > /dev/null 2>&1 || fail "figures in niorep-render"
diff -r "$tmp/f1" "$tmp/f2" > /dev/null || fail "figures differ between niorep and niorep-render"
"$niorep" build --help | grep -q "usage: niorep build" || fail "build --help through niorep"

# niorep alone: the other commands work, the rendering ones fail clearly
mkdir "$tmp/alone" && cp "$niorep" "$tmp/alone/niorep"
"$tmp/alone/niorep" info "$tmp/rl.nio" > /dev/null || fail "info without niorep-render"
for cmd in build figures compare; do
    "$tmp/alone/niorep" "$cmd" "$tmp/rl.nio" -o "$tmp/out.$cmd" > /dev/null 2> "$tmp/err"
    rc=$?
    [[ $rc -eq 1 ]] || fail "$cmd without niorep-render: exit $rc, expected 1"
    grep -q "niorep $cmd: cannot run $tmp/alone/niorep-render (built beside niorep)" "$tmp/err" ||
        fail "$cmd without niorep-render: message: $(cat "$tmp/err")"
done
echo "$failures failure(s)"
[[ $failures -eq 0 ]]
