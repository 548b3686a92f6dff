# runs.sh: what the bench scripts share besides statistics (stats.sh,
# which must be sourced first), sourced by them.

# generated_log OUT SIZE SEED: prints the path of the generated
# `strace -f -ttt -T -y` log of SIZE and SEED in OUT, building
# gen_strace_log (plain cc) and generating the log there first when they
# are missing or older than their source.
generated_log() {
    local out=$1 size=$2 seed=$3 root
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    local gen=$out/gen_strace_log log=$out/strace-$size-seed$seed.log
    if [[ ! -x $gen || $root/bench/gen_strace_log.c -nt $gen ]]; then
        cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -o "$gen" "$root/bench/gen_strace_log.c" -lm
    fi
    if [[ ! -s $log || $gen -nt $log ]]; then
        echo "generating $log ..." >&2
        local start=$EPOCHREALTIME
        "$gen" --size "$size" --seed "$seed" -o "$log.tmp" && mv "$log.tmp" "$log"
        echo "  took $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.1f", b-a}') s" >&2
    fi
    echo "$log"
}

# reread FILE...: drops each FILE from the page cache and reads it back, so
# that a bench starts from the same page-cache state whatever came before.
# This VM's DAMON pages out what was not touched for a minute, and a file
# read back in one go sits in large folios: `wc -l` on the 1 GB log took
# 0.07-0.09 s after a reread, 0.14-0.18 s on the page cache earlier
# sessions had left (docs/performance.md, session 25).
# `dd iflag=nocache count=0` drops the whole file (coreutils).
reread() {
    local f
    for f in "$@"; do
        dd if="$f" iflag=nocache count=0 status=none
        cat "$f" > /dev/null
    done
}

# timed_ingest DIR I BIN JOBS INPUT: `BIN ingest -q -j JOBS INPUT` into a
# fresh DIR/out.I.nio (a fresh path: scale_bench.sh says why), timed by
# timed_run.
timed_ingest() {
    local dir=$1 i=$2 bin=$3 jobs=$4 input=$5
    rm -f "$dir/out.$i.nio"
    timed_run "$dir" "$i" "$bin" ingest -q -j "$jobs" "$input" -o "$dir/out.$i.nio"
}

# timed_run DIR I COMMAND...: runs COMMAND (its output discarded) under
# /usr/bin/time and appends its wall seconds, CPU (user+sys) seconds and
# peak RSS (KiB) to DIR/wall.I, DIR/cpu.I and DIR/rss.I, as run_summary and
# round_ratio read them. Exits with the command's messages if it fails.
timed_run() {
    local dir=$1 i=$2 wall user sys rss
    shift 2
    /usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$@" > /dev/null 2> "$dir/err" || { cat "$dir/err" >&2; exit 1; }
    read -r wall user sys rss < "$dir/time"
    echo "$wall" >> "$dir/wall.$i"
    awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f\n", u + s}' >> "$dir/cpu.$i"
    echo "$rss" >> "$dir/rss.$i"
}

# run_summary DIR I: "wall W s  cpu C s  rss R MiB", the medians of
# timed_ingest's runs of configuration I.
run_summary() {
    local dir=$1 i=$2
    printf 'wall %6.3f s  cpu %6.3f s  rss %4.0f MiB' "$(median < "$dir/wall.$i")" "$(median < "$dir/cpu.$i")" \
        "$(awk -v k="$(median < "$dir/rss.$i")" 'BEGIN{print k / 1024}')"
}

# round_ratio DIR A B: "M.MMMx (LO-HI)", the median and range over the
# rounds of configuration A's wall time over configuration B's (above 1:
# B is faster); each round's runs share the host's neighbours of the moment.
round_ratio() {
    local dir=$1 a=$2 b=$3 lo hi
    paste "$dir/wall.$a" "$dir/wall.$b" | awk '{printf "%.4f\n", $1 / $2}' > "$dir/ratio"
    read -r lo hi < <(range < "$dir/ratio")
    printf '%.3fx (%.2f-%.2f)' "$(median < "$dir/ratio")" "$lo" "$hi"
}

# check_configs NAME BIN:JOBS...: exits with a message from NAME unless
# every configuration's BIN is an executable.
check_configs() {
    local name=$1 cfg
    shift
    for cfg; do
        [ -x "${cfg%:*}" ] || { echo "$name: ${cfg%:*}: not an executable" >&2; exit 1; }
    done
}

# config_line DIR I NOTE BIN:JOBS...: configuration I of the list, its
# run_summary, NOTE (when not empty), and for the 2nd, 4th, ... its
# round_ratio against the one before it.
config_line() {
    local dir=$1 i=$2 note=$3 line
    shift 3
    local configs=("$@")
    line=$(printf '%-36s %s' "${configs[$i]}" "$(run_summary "$dir" "$i")")
    [ -z "$note" ] || line+="  $note"
    if [ $((i % 2)) -eq 1 ]; then
        line+="  vs ${configs[$((i - 1))]}: $(round_ratio "$dir" $((i - 1)) "$i")"
    fi
    echo "$line"
}
