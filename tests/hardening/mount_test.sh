#!/usr/bin/env bash
# Real file systems instead of injection: a read-only tmpfs (EROFS) and a
# 64 KiB tmpfs that fills up (ENOSPC), as the target of ingest, export -o
# and build. Each must exit 1 with one line naming the output, leave no
# *.tmp.* file and leave the earlier output untouched. Needs mount (root,
# CAP_SYS_ADMIN): skips with 77 when the tmpfs cannot be mounted.
# usage: mount_test.sh NIOREP SOURCE_DIR
set -uo pipefail
niorep=$1 src=$2
tmp=$(mktemp -d /tmp/nr_mount.XXXXXX)
mnt="$tmp/mnt"
mkdir -p "$mnt"
cleanup() { umount "$mnt" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

cp -r "$src/datasets/sample/diffusion" "$tmp/run"
"$niorep" ingest "$tmp/run" -o "$tmp/run.nio" -j 1 -q || exit 1

# check NAME EXPECTED COMMAND...
check() {
  local name=$1 expect=$2
  shift 2
  local before after rc
  before=$(cd "$mnt" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
  "$@" >/dev/null 2>"$tmp/stderr"
  rc=$?
  after=$(cd "$mnt" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
  [ "$rc" -eq 1 ] || fail "$name: exit status $rc, expected 1"
  { [ "$(wc -l <"$tmp/stderr")" -eq 1 ] && grep -q "^niorep: .*$expect" "$tmp/stderr"; } ||
    fail "$name: expected one line naming $expect, got: $(head -c 300 "$tmp/stderr")"
  [ -z "$(find "$mnt" -name '*.tmp.*')" ] || fail "$name: temporary files left"
  [ "$before" = "$after" ] || fail "$name: earlier outputs changed"
  echo "checked: $name: $(cat "$tmp/stderr")"
}

# A 64 KiB file system holding an earlier (small) output: the new ones do not fit.
if ! mount -t tmpfs -o size=64k,mode=0755 tmpfs "$mnt" 2>/dev/null; then
  echo "skip: cannot mount a tmpfs here"
  exit 77
fi
echo "earlier" >"$mnt/files.csv"
echo "earlier" >"$mnt/run.nio"
echo "earlier" >"$mnt/report.html"
check "ingest on a full disk" "$mnt/run.nio" "$niorep" ingest "$tmp/run" -o "$mnt/run.nio" -j 1 -q
check "export on a full disk" "$mnt/files.csv" "$niorep" export "$tmp/run.nio" --table events -o "$mnt/files.csv"
check "build on a full disk" "$mnt/report.html" "$niorep" build "$tmp/run.nio" -o "$mnt/report.html" --bootstraps 10

# The same file system remounted read-only.
mount -o remount,ro "$mnt" || { echo "skip: cannot remount read-only"; exit 77; }
check "ingest into a read-only fs" "$mnt/run.nio" "$niorep" ingest "$tmp/run" -o "$mnt/run.nio" -j 1 -q
check "export into a read-only fs" "$mnt/files.csv" "$niorep" export "$tmp/run.nio" --table files -o "$mnt/files.csv"
check "figures into a read-only fs" "$mnt/figs" "$niorep" figures "$tmp/run.nio" -o "$mnt/figs" --format svg --bootstraps 10
check "build into a read-only fs" "$mnt/report.html" "$niorep" build "$tmp/run.nio" -o "$mnt/report.html" --bootstraps 10

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
