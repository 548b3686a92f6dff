#!/usr/bin/env bash
# SIGINT / SIGTERM in the middle of a long ingest (a generated log of
# bench/gen_strace_log): niorep must die of the signal (exit status 128+N),
# leave no temporary file and leave the earlier store byte-identical.
# The signal is sent once the temporary output exists, so the cleanup is
# really exercised.
# usage: signal_test.sh NIOREP GEN_STRACE_LOG
set -uo pipefail
niorep=$1 gen=$2
tmp=$(mktemp -d /tmp/nr_signal.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

mkdir -p "$tmp/small" "$tmp/big" "$tmp/out"
"$gen" --size 2M --seed 7 -o "$tmp/small/strace.log" || exit 1
"$gen" --size 400M --seed 1 -o "$tmp/big/strace.log" || exit 1
"$niorep" ingest "$tmp/small" -o "$tmp/out/run.nio" -j 1 -q || exit 1
before=$(sha256sum <"$tmp/out/run.nio")

# Job control on: otherwise a background job starts with SIGINT ignored.
set -m
for sig in INT TERM; do
  "$niorep" ingest "$tmp/big" -o "$tmp/out/run.nio" -j 1 -q 2>"$tmp/stderr" &
  pid=$!
  sent=0
  for _ in $(seq 1 600); do
    if compgen -G "$tmp/out/run.nio.tmp.*" >/dev/null; then
      sleep 0.2
      kill -s "$sig" "$pid" && sent=1
      break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  wait "$pid"
  rc=$?
  num=$(kill -l "$sig")
  if [ "$sent" -ne 1 ]; then
    fail "SIG$sig: the ingest ended (status $rc) before its temporary output was seen"
  elif [ "$rc" -ne $((128 + num)) ]; then
    fail "SIG$sig: exit status $rc, expected $((128 + num)) ($(head -c 300 "$tmp/stderr"))"
  fi
  left=$(compgen -G "$tmp/out/*.tmp.*")
  [ -z "$left" ] || fail "SIG$sig: temporary files left: $left"
  [ "$(sha256sum <"$tmp/out/run.nio")" = "$before" ] || fail "SIG$sig: the earlier store changed"
  [ "$failures" -gt 0 ] || echo "ok: SIG$sig: status $rc, nothing left, earlier store untouched"
done
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
