#!/usr/bin/env bash
# Fault injection (tests/hardening/faultshim.c, LD_PRELOAD): output disk full
# (ENOSPC/EDQUOT on write, fsync, rename), a read-only or forbidden target
# (EROFS/EACCES on create), input read errors (EIO) and inputs cut while
# being read, for niorep ingest, export -o, summary, figures and build.
# Each faulted command must exit 1 with one line "niorep: ..." naming the
# file, leave no *.tmp.* file, and leave the earlier outputs byte-identical.
# usage: fault_test.sh NIOREP FAULTSHIM.so SOURCE_DIR
set -uo pipefail
niorep=$1 shim=$2 src=$3
tmp=$(mktemp -d /tmp/nr_fault.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

cp -r "$src/datasets/sample/diffusion" "$tmp/run"
cp -r "$src/datasets/sample/snn" "$tmp/older"
out="$tmp/out"
mkdir -p "$out"
# Earlier outputs come from another run, so that any replaced file shows.
"$niorep" ingest "$tmp/older" -o "$out/run.nio" -j 1 -q || exit 1
"$niorep" ingest "$tmp/run" -o "$tmp/new.nio" -j 1 -q || exit 1
"$niorep" export "$out/run.nio" --table files -o "$out/files.csv" || exit 1
"$niorep" figures "$out/run.nio" -o "$out/figs" --format svg --bootstraps 10 >/dev/null 2>&1 || exit 1
"$niorep" build "$out/run.nio" -o "$out/report.html" --bootstraps 10 >/dev/null 2>&1 || exit 1
snapshot() { (cd "$out" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
snapshot >"$tmp/before"
cp -a "$out" "$tmp/pristine"

# check NAME EXPECTED_TEXT -- COMMAND...: runs COMMAND (env NR_FAULT* set by
# the caller) under the shim and checks the outcome.
check() {
  local name=$1 expect=$2
  shift 3
  local rc before_failures=$failures
  LD_PRELOAD="$shim" "$@" >"${STDOUT_TO:-$tmp/stdout}" 2>"$tmp/stderr"
  rc=$?
  local lines
  lines=$(wc -l <"$tmp/stderr")
  if [ "$rc" -ne 1 ]; then
    fail "$name: exit status $rc, expected 1 ($(head -c 300 "$tmp/stderr"))"
  elif [ "$lines" -ne 1 ] || ! grep -q "^niorep: .*$expect" "$tmp/stderr"; then
    fail "$name: expected one line 'niorep: ...$expect...', got $lines line(s): $(head -c 400 "$tmp/stderr")"
  fi
  local left
  left=$(find "$out" -name '*.tmp.*')
  [ -z "$left" ] || fail "$name: temporary files left: $left"
  snapshot >"$tmp/after"
  # figures too: a figure set replaces the earlier one only once all of it is written
  cmp -s "$tmp/before" "$tmp/after" || fail "$name: earlier outputs changed: $(diff "$tmp/before" "$tmp/after" | head -4)"
  [ "$failures" -gt "$before_failures" ] || echo "ok: $name: $(cat "$tmp/stderr")"
  # the next case starts from the earlier outputs again
  rm -rf "$out" && cp -a "$tmp/pristine" "$out"
}

# Output faults: every command writing into $out.
out_faults=(
  "write ENOSPC 0" "write ENOSPC 5000" "write EDQUOT 100000"
  "fsync ENOSPC 0" "fsync EIO 0" "rename ENOSPC 0" "open EROFS 0" "open EACCES 0"
)
for f in "${out_faults[@]}"; do
  set -- $f
  mode=$1 err=$2 after=$3
  export NR_FAULT=$mode NR_FAULT_ERRNO=$err NR_FAULT_AFTER=$after NR_FAULT_PATH="$out/"
  check "ingest $f" "$out/run.nio" -- "$niorep" ingest "$tmp/run" -o "$out/run.nio" -j 1 -q
  check "export $f" "$out/files.csv" -- "$niorep" export "$tmp/new.nio" --table files -o "$out/files.csv"
  check "figures $f" "$out/figs/" -- "$niorep" figures "$tmp/new.nio" -o "$out/figs" --format svg --bootstraps 10
  check "build $f" "$out/report.html" -- "$niorep" build "$tmp/new.nio" -o "$out/report.html" --bootstraps 10
done

# Standard output on a full disk: summary and export without -o.
unset NR_FAULT NR_FAULT_ERRNO NR_FAULT_AFTER NR_FAULT_PATH
STDOUT_TO=/dev/full check "summary > /dev/full" "standard output" -- "$niorep" summary "$tmp/new.nio"
STDOUT_TO=/dev/full check "summary --json > /dev/full" "standard output" -- "$niorep" summary --json "$tmp/new.nio"
STDOUT_TO=/dev/full check "export > /dev/full" "standard output" -- "$niorep" export "$tmp/new.nio" --table events

# Input faults: the store read by summary/export/build, the logs read by ingest.
export NR_FAULT=read NR_FAULT_ERRNO=EIO NR_FAULT_AFTER=3000 NR_FAULT_PATH=new.nio
check "summary store EIO" "new.nio" -- "$niorep" summary "$tmp/new.nio"
check "export store EIO" "new.nio" -- "$niorep" export "$tmp/new.nio" --table events -o "$out/files.csv"
check "build store EIO" "new.nio" -- "$niorep" build "$tmp/new.nio" -o "$out/report.html" --bootstraps 10
export NR_FAULT=truncate NR_FAULT_AFTER=3000
check "summary store cut" "new.nio" -- "$niorep" summary "$tmp/new.nio"
export NR_FAULT=read NR_FAULT_PATH=strace.log NR_FAULT_AFTER=200000
check "ingest log EIO" "strace.log" -- "$niorep" ingest "$tmp/run" -o "$out/run.nio" -j 1 -q
export NR_FAULT=truncate
check "ingest zst log cut" "strace.log" -- "$niorep" ingest "$tmp/run" -o "$out/run.nio" -j 1 -q
mkdir -p "$tmp/plain"
zstd -qdc "$tmp/run/strace.log.zst" >"$tmp/plain/strace.log"
check "ingest plain log cut" "strace.log" -- "$niorep" ingest "$tmp/plain" -o "$out/run.nio" -j 1 -q
export NR_FAULT=read NR_FAULT_PATH=hook.jsonl NR_FAULT_AFTER=100
check "ingest hook EIO" "hook.jsonl" -- "$niorep" ingest "$tmp/run" -o "$out/run.nio" -j 1 -q
unset NR_FAULT NR_FAULT_ERRNO NR_FAULT_AFTER NR_FAULT_PATH

# The report's figures wait in an unlinked file in TMPDIR (common/nr_spool.c):
# a full or failing TMPDIR fails the build with a message naming it, and a
# TMPDIR where no file can be made is replaced by /tmp.
mkdir -p "$tmp/spool"
export NR_FAULT=write NR_FAULT_ERRNO=ENOSPC NR_FAULT_AFTER=5000 NR_FAULT_PATH="$tmp/spool/"
check "build spool full" "temporary file in $tmp/spool" -- \
  env TMPDIR="$tmp/spool" "$niorep" build "$tmp/new.nio" -o "$out/report.html" --bootstraps 10
export NR_FAULT=read NR_FAULT_ERRNO=EIO NR_FAULT_AFTER=1000
check "build spool read EIO" "read back a temporary file in $tmp/spool" -- \
  env TMPDIR="$tmp/spool" "$niorep" build "$tmp/new.nio" -o "$out/report.html" --bootstraps 10
unset NR_FAULT NR_FAULT_ERRNO NR_FAULT_AFTER NR_FAULT_PATH
"$niorep" build "$tmp/new.nio" -o "$tmp/unfaulted.html" --bootstraps 10 >/dev/null 2>&1 || fail "build new.nio"
export NR_FAULT=open NR_FAULT_ERRNO=EACCES NR_FAULT_AFTER=0 NR_FAULT_PATH="$tmp/spool"
if LD_PRELOAD="$shim" TMPDIR="$tmp/spool" "$niorep" build "$tmp/new.nio" -o "$tmp/fallback.html" --bootstraps 10 \
    >/dev/null 2>"$tmp/stderr" && cmp -s "$tmp/fallback.html" "$tmp/unfaulted.html"; then
  echo "ok: build spool in /tmp when TMPDIR refuses it"
else
  fail "build spool fallback: $(head -c 300 "$tmp/stderr")"
fi
[ -z "$(ls -A "$tmp/spool")" ] || fail "build spool: files left in TMPDIR: $(ls -A "$tmp/spool")"
unset NR_FAULT NR_FAULT_ERRNO NR_FAULT_AFTER NR_FAULT_PATH
# An input that vanished before it was opened (a dangling link).
mkdir -p "$tmp/gone"
ln -s "$tmp/nowhere/strace.log" "$tmp/gone/strace.log"
check "ingest vanished log" "strace.log" -- "$niorep" ingest "$tmp/gone" -o "$out/run.nio" -j 1 -q

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
