#!/usr/bin/env bash
# Two versions of the line lexer against each other on a real log, CPU time
# alternated (not part of ctest): bench/lexer_bench_log.c built twice, with
# OLD's and NEW's ingest/strace_line.c (a git revision, or a path to the
# file; the headers are the worktree's), then ROUNDS rounds of OLD and NEW,
# each the best of 3 passes in ns/line. Prints every round, the min and the
# median of each side, and fails when the two checksums differ.
#
#   bench/lexer_ab_log.sh OLD NEW LOG [--rounds R] [--sorted]
#
# --sorted runs the log with its lines sorted by syscall name as well (a
# copy in TMPDIR): the same lines in an order the branch predictor learns,
# so the gap to the log's own order is about what the lexer loses to
# mispredicted branches (this machine has no PMU counters to count them).
# On a shared host trust the min and median over rounds, not one run.
set -euo pipefail
[ $# -ge 3 ] || { sed -n 2,16p "$0" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
old=$1 new=$2 log=$3 rounds=8 sorted=0
shift 3
while [ $# -gt 0 ]; do
    case $1 in
        --rounds) rounds=$2; shift 2 ;;
        --sorted) sorted=1; shift ;;
        *) echo "lexer_ab_log: unknown option $1" >&2; exit 2 ;;
    esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lexer_ab_log.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

source_of() { # source_of REV_OR_PATH OUT.c
    if [ -f "$1" ]; then cp "$1" "$2"; else git -C "$here" show "$1:ingest/strace_line.c" >"$2"; fi
}
build() { # build SRC.c BIN
    ${CC:-cc} -O3 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -I"$here/ingest" -I"$here/common" -I"$here/store" \
        "$here/bench/lexer_bench_log.c" "$1" "$here/ingest/syscalls.c" "$here/common/nr_strtab.c" \
        "$here/common/nr_mem.c" "$here/common/nr_error.c" -o "$2"
}
source_of "$old" "$tmp/old.c"
source_of "$new" "$tmp/new.c"
build "$tmp/old.c" "$tmp/old"
build "$tmp/new.c" "$tmp/new"

logs=("$log")
if [ "$sorted" = 1 ]; then # the syscall name is the third field of a -f -ttt line
    awk '{n = $3; sub(/\(.*/, "", n); print n "\t" $0}' "$log" | sort -s -t "$(printf '\t')" -k1,1 | cut -f2- \
        >"$tmp/sorted.log"
    logs+=("$tmp/sorted.log")
fi
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for l in "${logs[@]}"; do
    : >"$tmp/runs"
    for _ in $(seq "$rounds"); do
        for side in old new; do
            out=$("$tmp/$side" "$l" 3)
            echo "$side $(echo "$out" | sed 's/.*best \([0-9.]*\) ns.*/\1/') $(echo "$out" | sed 's/.*checksum \([0-9]*\),.*/\1/')" \
                >>"$tmp/runs"
        done
    done
    [ "$l" = "$log" ] && echo "$(basename "$log"), $rounds rounds" || echo "the same lines sorted by syscall name"
    for side in old new; do
        v=$(awk -v s=$side '$1 == s {print $2}' "$tmp/runs")
        printf '%-4s ns/line: %s  (min %s, median %s)\n' $side "$(echo "$v" | tr '\n' ' ')" \
            "$(echo "$v" | sort -g | head -1)" "$(echo "$v" | median)"
    done
    [ "$(awk '{print $3}' "$tmp/runs" | sort -u | wc -l)" = 1 ] || { echo "checksums differ" >&2; exit 1; }
done
echo "checksums identical"
