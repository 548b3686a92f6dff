#!/usr/bin/env bash
# one_arena_test.sh NIOREP...: each binary linked with jemalloc runs it with
# one arena (cli/malloc_conf.c: with more, every short-lived thread's exit
# purged its arena, a TLB shootdown a call; docs/performance.md, "One arena
# (session 52)"). The setting is a variable nothing in the program reads, so
# a link that dropped it would go unnoticed but here. A binary without
# jemalloc (sanitizer builds) is skipped (77 when none has it).
set -euo pipefail
checked=0
for bin in "$@"; do
    libs=$(ldd "$bin") # not piped into grep -q: its early exit fails the pipe
    if [[ $libs != *libjemalloc* ]]; then
        echo "$bin: not linked with jemalloc, skipped"
        continue
    fi
    stats=$(MALLOC_CONF=stats_print:true "$bin" --help 2>&1 >/dev/null)
    if ! grep -qx '  opt.narenas: 1' <<< "$stats"; then
        echo "FAIL: $bin: jemalloc runs with $(grep 'opt.narenas' <<< "$stats" || echo 'no opt.narenas line'), expected opt.narenas: 1" >&2
        exit 1
    fi
    echo "$bin: one arena"
    checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || exit 77
