#!/usr/bin/env bash
# Limits of the ingest, one case per ctest (docs/hardening.md has the figures):
#   long_lines  lines of 100 MB (two syscall lines, an unknown line, a cut
#               last line): linear time, whole events, both skips counted
#   files_1m    1 M distinct files in one process: all kept, in bounded time
#   procs_1m    1 M processes: all kept, in bounded time
#   fd_int_max  fds near INT_MAX: tracked like any other (file, shared
#               offset); an fd beyond int reported (fd_out_of_range)
#   clock       timestamps that go backwards and a clock that jumps a year:
#               reported in diagnostics
# usage: limits_test.sh NIOREP CASE
set -uo pipefail
niorep=$1 case=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/nr_limits.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect() { # expect WHAT GOT WANTED
  if [ "$2" = "$3" ]; then echo "ok: $1 = $3"; else fail "$1: got '$2', expected '$3'"; fi
}
py=/usr/bin/python3
mkdir -p "$tmp/run"
log="$tmp/run/strace.log"

# ingest within SECONDS; prints the ingest line
ingest_within() {
  local start=$SECONDS
  if ! timeout "$1" "$niorep" ingest "$tmp/run" -o "$tmp/run.nio" -j 1 2>"$tmp/stderr"; then
    fail "ingest did not finish within $1 s or failed: $(head -c 300 "$tmp/stderr")"
    return 1
  fi
  echo "ingest: $((SECONDS - start)) s: $(cat "$tmp/stderr")"
}
column() { # column TABLE NAME: the values of one column
  "$niorep" export "$tmp/run.nio" --table "$1" --format jsonl |
    "$py" -c 'import json,sys; [print(json.loads(l)[sys.argv[1]]) for l in sys.stdin]' "$2"
}
diag_count() { # diag_count REASON
  "$niorep" export "$tmp/run.nio" --table diagnostics --format jsonl |
    "$py" -c 'import json,sys; print(max([int(json.loads(l)["count"]) for l in sys.stdin if json.loads(l)["reason"] == sys.argv[1]] or [0]))' "$1"
}

case $case in
long_lines)
  "$py" - "$log" <<'PY'
import sys
n = 100 * 1024 * 1024
with open(sys.argv[1], "w") as f:
    f.write('100 1700000000.000100 openat(AT_FDCWD, "/data/a.bin", O_WRONLY|O_CREAT, 0644) = 3</data/a.bin> <0.000010>\n')
    f.write('100 1700000000.000200 write(3</data/a.bin>, "' + "a" * n + '", %d) = %d <0.010000>\n' % (n, n))
    f.write('100 1700000000.000300 write(3</data/a.bin>, "' + "\\x61" * (n // 4) + '"..., %d) = %d <0.010000>\n' % (n, n))
    f.write("100 1700000000.000400 " + "z" * n + "\n")
    f.write('100 1700000000.000500 close(3</data/a.bin>) = 0 <0.000010>\n')
    f.write('100 1700000000.000600 write(1, "' + "b" * n)
PY
  ingest_within 120 || exit 1
  expect "events" "$(column events syscall | tr '\n' ' ')" "openat write write close "
  expect "bytes written" "$(column events bytes | tr '\n' ' ')" "0 104857600 104857600 0 "
  expect "unknown_line" "$(diag_count unknown_line)" 1
  expect "truncated_last_line" "$(diag_count truncated_last_line)" 1
  ;;
files_1m)
  "$py" "$here/gen_limits.py" files 1000000 "$log"
  ingest_within 240 || exit 1
  expect "files" "$("$niorep" export "$tmp/run.nio" --table files | tail -n +2 | wc -l)" 1000000
  ;;
procs_1m)
  "$py" "$here/gen_limits.py" procs 1000000 "$log"
  ingest_within 240 || exit 1
  expect "processes" "$("$niorep" export "$tmp/run.nio" --table processes | tail -n +2 | wc -l)" 1000000
  ;;
fd_int_max)
  cat >"$log" <<'LOG'
100 1700000000.000100 openat(AT_FDCWD, "/data/a.bin", O_RDONLY) = 2147483646 <0.000010>
100 1700000000.000200 read(2147483646, "x"..., 4096) = 4096 <0.000010>
100 1700000000.000300 dup2(2147483646, 2147483647) = 2147483647 <0.000010>
100 1700000000.000400 read(2147483647, "x"..., 100) = 100 <0.000010>
100 1700000000.000500 read(2147483648, "x"..., 100) = 100 <0.000010>
100 1700000000.000600 read(-2147483648, "x"..., 100) = 100 <0.000010>
100 1700000000.000700 close(2147483646) = 0 <0.000010>
LOG
  ingest_within 30 || exit 1
  # fds up to INT_MAX are tracked like any other: the dup shares the offset;
  # 2^31 is no int, hence no fd: reported; -2^31 is an int but no fd (EBADF), like -1
  expect "file of each event" "$(column events file_id | tr '\n' ' ')" "0 0 0 0 -1 -1 0 "
  expect "offset of each event" "$(column events offset | tr '\n' ' ')" "-1 0 -1 4096 -1 -1 -1 "
  expect "fd_out_of_range" "$(diag_count fd_out_of_range)" 1
  expect "fd_out_of_range line" "$("$niorep" export "$tmp/run.nio" --table diagnostics --format csv | grep fd_out_of_range | cut -d, -f3,4)" "strace.log,5"
  ;;
clock)
  cat >"$log" <<'LOG'
100 1700000000.000100 openat(AT_FDCWD, "/data/a.bin", O_RDONLY) = 3</data/a.bin> <0.000010>
100 1700000000.000200 read(3</data/a.bin>, "x"..., 4096) = 4096 <0.000010>
100 1699999999.000300 read(3</data/a.bin>, "x"..., 4096) = 4096 <0.000010>
100 1700000000.000400 read(3</data/a.bin>, "x"..., 4096) = 4096 <0.000010>
100 1731536000.000500 read(3</data/a.bin>, "x"..., 4096) = 4096 <0.000010>
100 1731536000.000600 read(3</data/a.bin>, "x"..., 4096) = 0 <0.000010>
100 1731536000.000700 close(3</data/a.bin>) = 0 <0.000010>
LOG
  ingest_within 30 || exit 1
  reasons=$("$niorep" export "$tmp/run.nio" --table diagnostics | tail -n +2 | cut -d, -f1 | sort -u | tr '\n' ' ')
  echo "diagnostics: ${reasons:-none}"
  [[ "$reasons" == *back* ]] || fail "a timestamp 1 s backwards (line 3) is not in the diagnostics"
  [[ "$reasons" == *jump* ]] || fail "a clock jump of 365 days (line 5) is not in the diagnostics"
  ;;
*)
  echo "unknown case $case"
  exit 2
  ;;
esac
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
