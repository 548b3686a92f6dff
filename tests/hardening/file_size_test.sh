#!/usr/bin/env bash
# A file size limit (ulimit -f) below the outputs: the write past it fails
# (EFBIG) instead of SIGXFSZ killing niorep, so each command exits 1 with
# one line "niorep: ..." naming the file and the reason, leaves no *.tmp.*
# file and leaves the earlier output untouched (until review 53 the signal's
# default action ended niorep with status 153 and the partial output beside
# the target). The limit holds for the build's spool in TMPDIR too, and for
# the ingest's temporary files of a hook's phases (session 68: until then
# that error named no file).
# usage: file_size_test.sh NIOREP SOURCE_DIR
set -uo pipefail
niorep=$1 src=$2
tmp=$(mktemp -d /tmp/nr_fsize.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

cp -r "$src/datasets/sample/diffusion" "$tmp/run"
"$niorep" ingest "$tmp/run" -o "$tmp/run.nio" -j 1 -q || exit 1
out="$tmp/out"
mkdir -p "$out" "$tmp/spool"
for f in run.nio report.html files.csv; do echo "earlier" >"$out/$f"; done
snapshot() { (cd "$out" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
before=$(snapshot)

# check NAME EXPECTED COMMAND...: COMMAND under a limit of 64 KiB a file.
check() {
  local name=$1 expect=$2 rc
  shift 2
  (ulimit -f 64 && exec env TMPDIR="$tmp/spool" "$@") >/dev/null 2>"$tmp/stderr"
  rc=$?
  [ "$rc" -eq 1 ] || fail "$name: exit status $rc, expected 1 ($(head -c 300 "$tmp/stderr"))"
  { [ "$(wc -l <"$tmp/stderr")" -eq 1 ] && grep -q "^niorep: .*$expect.*File too large" "$tmp/stderr"; } ||
    fail "$name: expected one line naming $expect and 'File too large', got: $(head -c 400 "$tmp/stderr")"
  local left
  left=$(find "$out" "$tmp/spool" -name '*.tmp.*')
  [ -z "$left" ] || fail "$name: temporary files left: $left"
  [ -z "$left" ] || rm -f $left   # the next case starts clean
  [ "$(snapshot)" = "$before" ] || fail "$name: earlier outputs changed"
  echo "checked: $name: $(cat "$tmp/stderr")"
}

check "ingest" "$out/run.nio" "$niorep" ingest "$tmp/run" -o "$out/run.nio" -j 1 -q
check "export" "$out/files.csv" "$niorep" export "$tmp/run.nio" --table events -o "$out/files.csv"
check "build (its spool)" "$tmp/spool" "$niorep" build "$tmp/run.nio" -o "$out/report.html" --bootstraps 10
# 20,000 steps: 40,000 runs of one thread, pages of 64 KiB on disk in the
# spool past the first (ingest/run_pages.c), written when the phases are
# numbered, before the trace is read: the hook file is named
python3 "$src/bench/gen_phase_steps.py" "$tmp/steps" --steps 20000
check "ingest (the hook's run pages)" "$tmp/steps/hook.jsonl: .*$tmp/spool" \
  "$niorep" ingest "$tmp/steps" -o "$out/run.nio" -j 1 -q

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
