#!/bin/sh
# Builds and runs the lexer micro-benchmark (not part of ctest).
# usage: bench/lexer_bench.sh [MiB of generated log, default 256]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
out=${TMPDIR:-/tmp}/nr_lexer_bench.$$
trap 'rm -f "$out"' EXIT
${CC:-cc} -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -I"$here/ingest" -I"$here/common" -I"$here/store" \
    "$here/bench/lexer_bench.c" "$here/ingest/strace_line.c" \
    "$here/ingest/syscalls.c" "$here/common/nr_strtab.c" "$here/common/nr_mem.c" "$here/common/nr_error.c" \
    -o "$out" # the syscall name lookup and what it links
"$out" "${1:-256}"
