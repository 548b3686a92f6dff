# peak_within.sh: sourced by the memory tests (tests/model/phase_names_memory.sh,
# tests/model/phase_steps_memory.sh, tests/capture/hook_records_on_disk.sh).
# They set $work (a scratch folder) and status (0) first.

# peak_within LIMIT_MIB WHAT COMMAND...: runs COMMAND (its output to
# $work/out, its errors to $work/err) under /usr/bin/time; sets status=1
# when it fails or peaks above LIMIT_MIB.
peak_within() {
    local limit=$1 what=$2
    shift 2
    /usr/bin/time -o "$work/time" -f "%M" "$@" >"$work/out" 2>"$work/err" || {
        echo "FAIL: $what exited with an error:"
        cat "$work/err"
        status=1
        return
    }
    local kib
    kib=$(tail -n 1 "$work/time")
    if ((kib > limit * 1024)); then
        echo "FAIL: $what peaked at $((kib / 1024)) MiB, over $limit MiB"
        status=1
    else
        echo "ok: $what peaked at $((kib / 1024)) MiB (at most $limit MiB)"
    fi
}
