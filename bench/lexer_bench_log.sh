#!/bin/sh
# Builds the real-log lexer benchmark and prints the lexer's instructions
# (callgrind, inclusive nr_sline_parse) and its CPU time, best of 5 passes.
# Not part of ctest.
# usage: bench/lexer_bench_log.sh LOG [sse2] (sse2: without the AVX2 scan)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
log=$1
mode=${2:-avx2}
out=${TMPDIR:-/tmp}/nr_lexer_bench_log.$$
trap 'rm -f "$out" "$out.cg"' EXIT
${CC:-cc} -O3 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -I"$here/ingest" -I"$here/common" -I"$here/store" \
    "$here/bench/lexer_bench_log.c" "$here/ingest/strace_line.c" \
    "$here/ingest/syscalls.c" "$here/common/nr_strtab.c" "$here/common/nr_mem.c" "$here/common/nr_error.c" \
    -o "$out" # the syscall name lookup and what it links
valgrind --tool=callgrind --callgrind-out-file="$out.cg" "$out" "$log" 1 "$mode" >/dev/null 2>&1
callgrind_annotate --inclusive=yes "$out.cg" 2>/dev/null | grep -E 'nr_sline_parse|parse_all' | head -3
"$out" "$log" 5 "$mode"
