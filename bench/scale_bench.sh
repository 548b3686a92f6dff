#!/usr/bin/env bash
# scale_bench.sh: parallel ingest and scale, one command, every ratio measured
# in the same run (not part of ctest).
#
#   bench/scale_bench.sh                      # 1G and 4G logs, 100 runs, 100 M events
#   bench/scale_bench.sh --sizes "1G" --runs 20 --events 10000000   # quicker
#   bench/scale_bench.sh --pairs 9            # more -j1/-j2 pairs (default 5)
#
# 1. ingest of generated `strace -f -ttt -T -y` logs (bench/gen_strace_log.c,
#    taken from branch e2e when not in the tree) with --jobs 1 and --jobs 2:
#    wall s, CPU s (user+sys), MB/s, lines/s, peak RSS (/usr/bin/time %M),
#    next to `wc -l` and `zstd -3 -T0` on the same file (reread first:
#    runs.sh); the two stores are compared byte for byte. `wc -l`, -j1 and
#    -j2 alternate in --pairs rounds; `wc -l` and -j1 run pinned together to
#    each CPU in turn (-j1 against `wc -l` on the same CPU is the median of
#    the rounds' ratios, per CPU):
#    a row shows the median run, and the speed-up is the median of the rounds'
#    own ratios (each round ran under the same neighbours), with its range,
#    over the round's fastest CPU's -j1 (the strict one) and over the CPUs'
#    mean.
#    Each round also runs two -j1 ingests side by side: what this host gives
#    two independent ingests (2 x the -j1 time / the pair's time) bounds what
#    -j2 can reach here, and `zstd -3` with -T1 against -T2 on the same file
#    is a third program's own speed-up;
# 2. `niorep build` of --runs generated runs (2 MB logs), cold with --jobs 1
#    and --jobs 2 alternated in --build-rounds rounds (default 3; the
#    speed-up is the median of the rounds' ratios), then warm (every cached
#    store reused); then how long headless Chromium takes to show that
#    report (bench/report_view.sh, when chromium is installed);
# 3. `niorep compare` of those runs against the same logs linked from a
#    second folder (100 pairs; stores cached), -j 1 and -j 2 alternated;
# 4. `niorep build` of --wide-runs runs (default 16) of one generated log of
#    --wide-size (default 256M: about 40 k files a run), cold then cached:
#    what a build holds per run grows with the runs' files;
# 5. model (`niorep summary`) and model + render (`niorep build`) of a store
#    of --events events written by bench/model_gen.c;
# 6. ingest (-j 1) of a run whose hook marked --hook-steps steps (default a
#    million), each with a sample read through Python and a wait for its
#    batch (bench/gen_phase_steps.py --waits --io 100000: four hook lines
#    a step), next to `wc -l` on its hook.jsonl: MB/s of the hook and peak
#    RSS, the median of 3 alternated rounds, and the median of the rounds'
#    own ratios to `wc -l`.
# The machine may be shared: the load average is printed before and after,
# and CPU time next to wall time (CPU-based throughput does not suffer from
# other processes; the 2-thread speed-up does).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
sizes="1G 4G" runs=100 events=100000000 pairs=5 build_rounds=3 out=$root/bench/out/scale
wide_runs=16 wide_size=256M hook_steps=1000000
while [ $# -gt 0 ]; do
    case $1 in
        --sizes) sizes=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --wide-runs) wide_runs=$2; shift 2 ;;
        --wide-size) wide_size=$2; shift 2 ;;
        --events) events=$2; shift 2 ;;
        --hook-steps) hook_steps=$2; shift 2 ;;
        --pairs) pairs=$2; shift 2 ;;
        --build-rounds) build_rounds=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n 2,45p "$0"; exit 0 ;;
        *) echo "scale_bench: unknown option $1" >&2; exit 2 ;;
    esac
done
niorep=$root/build/cli/niorep
[ -x "$niorep" ] || { echo "scale_bench: build first (cmake --build build)" >&2; exit 1; }
for t in /usr/bin/time zstd wc awk; do command -v $t >/dev/null || { echo "scale_bench: needs $t" >&2; exit 1; }; done
mkdir -p "$out"

gen=$out/gen_strace_log
src=$root/bench/gen_strace_log.c
if [ ! -f "$src" ]; then
    git -C "$root" show e2e:bench/gen_strace_log.c > "$out/gen_strace_log.c"
    src=$out/gen_strace_log.c
fi
[ -x "$gen" ] || cc -O2 -D_GNU_SOURCE -o "$gen" "$src" -lm
lat=$out/core_latency
[ -x "$lat" ] || cc -O2 -std=c11 -o "$lat" bench/core_latency.c -lpthread
touch_probe=$out/first_touch
[ -x "$touch_probe" ] || cc -O2 -std=c11 -o "$touch_probe" bench/first_touch.c -lpthread
mgen=$out/model_gen
[ -x "$mgen" ] || cc -O2 -D_GNU_SOURCE -DNR_VERSION=\"bench\" -o "$mgen" bench/model_gen.c store/*.c common/*.c \
    -Istore -Icommon -lzstd -lz -lm

# measure NAME CMD...: runs CMD under /usr/bin/time; sets wall cpu rss_mib
measure() {
    local tf=$out/time.txt
    /usr/bin/time -f '%e %U %S %M' -o "$tf" "$@" > /dev/null 2> "$out/last.err" || { cat "$out/last.err" >&2; return 1; }
    read -r wall user sys rss_kb < "$tf"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u+s}')
    rss_mib=$(awk -v k="$rss_kb" 'BEGIN{printf "%.0f", k/1024}')
}
row() {  # name bytes lines
    local mbs cmbs lps
    mbs=$(awk -v b="$2" -v t="$wall" 'BEGIN{printf "%.0f", b/1e6/t}')
    cmbs=$(awk -v b="$2" -v t="$cpu" 'BEGIN{printf "%.0f", (t>0)? b/1e6/t : 0}')
    lps=$(awk -v l="$3" -v t="$wall" 'BEGIN{printf "%.2f", l/1e6/t}')
    printf '%-26s %8.2f %8.2f %9s %11s %9s %8s\n' "$1" "$wall" "$cpu" "$mbs" "$cmbs" "$lps" "$rss_mib"
}
. bench/stats.sh
. bench/runs.sh

# side_by_side RUN SIZE: two -j1 ingests of RUN started together; sets wall
# to the time until both have ended.
side_by_side() {
    local t0 pid rc=0
    rm -f "$out/s$2.pa.nio" "$out/s$2.pb.nio"
    t0=$(date +%s.%N)
    "$niorep" ingest "$1" -o "$out/s$2.pa.nio" -j 1 > /dev/null 2> "$out/last.err" &
    pid=$!
    "$niorep" ingest "$1" -o "$out/s$2.pb.nio" -j 1 > /dev/null 2>> "$out/last.err" || rc=1
    wait "$pid" || rc=1
    [ $rc = 0 ] || { cat "$out/last.err" >&2; return 1; }
    wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b - a}')
}

# ingest_pairs RUN SIZE BYTES LINES LOG: --pairs rounds; in each, `wc -l` LOG
# and a -j1 ingest pinned together to each CPU in turn (the first CPU
# rotating), then -j2 and two -j1 side by side, unpinned. Prints the median
# -j1 row of every CPU and the median -j2 row, and sets c1 c2 (median CPU s
# of -j1 on the fastest CPU and of -j2), w1 (median -j1 wall s on the
# fastest CPU), cpu_w1 ("CPU:wall" medians), wcs ("CPU:ratio" of each -j1 to
# the `wc -l` on its own CPU), ratios (each round's -j2 speed-up over the
# round's fastest -j1), ratios_mean (over the mean -j1 of the CPUs), hosts
# (each round's 2 x fastest -j1 / side-by-side) and shares (speed-up /
# host). `wc -l` runs in every round: on one file it took 0.07-0.18 s from
# one minute to the next. Pinned, because a VM's vCPUs may differ: one
# session's CPU 0 ran both `wc -l` and the ingest 1.35x slower than its
# CPU 1 (docs/performance.md, session 39), so an unpinned ratio measured
# one program on the fast CPU against the other on the slow one.
ingest_pairs() {
    local w1s="" w2s="" c1s="" c2s="" r1s="" r2s="" p a b c k mean ncpu
    ncpu=$(nproc)
    ratios="" ratios_mean="" hosts="" shares="" wcs="" cpu_w1=""
    for p in $(seq 1 "$pairs"); do
        a="" mean=0
        for k in $(seq 0 $((ncpu - 1))); do
            c=$(( (p - 1 + k) % ncpu ))
            local t0=$EPOCHREALTIME
            taskset -c "$c" wc -l "$5" > /dev/null
            local wc_wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.4f", b - a}') # /usr/bin/time's 10 ms is 12% of it
            # fresh output paths, as ingest_bench's: a store written over an old
            # one waits in its rename for ext4 to free the old one's blocks
            # (16 ms at 1 GB, session 16), which is not the ingest's work
            rm -f "$out/s$2.j1.nio" "$out/s$2.j2.nio"
            measure taskset -c "$c" "$niorep" ingest "$1" -o "$out/s$2.j1.nio" -j 1
            w1s+=" $c:$wall" c1s+=" $c:$cpu" r1s+=" $c:$rss_mib"
            wcs+=" $c:$(awk -v a="$wall" -v w="$wc_wall" 'BEGIN{printf "%.3f", a / w}')"
            mean=$(awk -v m="$mean" -v w="$wall" -v n="$ncpu" 'BEGIN{print m + w / n}')
            [ -z "$a" ] || awk -v a="$a" -v w="$wall" 'BEGIN{exit !(w < a)}' && a=$wall
        done
        measure "$niorep" ingest "$1" -o "$out/s$2.j2.nio" -j 2
        w2s+=" $wall" c2s+=" $cpu" r2s+=" $rss_mib"; b=$wall
        side_by_side "$1" "$2"
        ratios+=" $(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.3f", a / b}')"
        ratios_mean+=" $(awk -v a="$mean" -v b="$b" 'BEGIN{printf "%.3f", a / b}')"
        hosts+=" $(awk -v a="$a" -v p="$wall" 'BEGIN{printf "%.3f", 2 * a / p}')"
        shares+=" $(awk -v b="$b" -v p="$wall" 'BEGIN{printf "%.3f", p / (2 * b)}')"
    done
    local fast="" best=""
    for c in $(seq 0 $((ncpu - 1))); do
        wall=$(pick "$c" "$w1s") cpu=$(pick "$c" "$c1s") rss_mib=$(pick "$c" "$r1s")
        cpu_w1+=" $c:$wall"
        row "ingest -j1 $2 CPU $c (med)" "$3" "$4"
        if [ -z "$best" ] || awk -v a="$best" -v w="$wall" 'BEGIN{exit !(w < a)}'; then best=$wall fast=$c; fi
    done
    w1=$best c1=$(pick "$fast" "$c1s")
    wall=$(median <<< "$w2s") cpu=$(median <<< "$c2s") rss_mib=$(median <<< "$r2s")
    c2=$cpu; row "ingest -j2 $2 (median)" "$3" "$4"
}
# pick J LIST: the median of the J:value entries of LIST
pick() { tr ' ' '\n' <<< "$2" | sed -n "s/^$1://p" | median; }
# span LIST: "lo-hi" of a space-separated list
span() { range <<< "$1" | tr ' ' -; }
load() { awk '{printf "load average %s %s %s", $1, $2, $3}' /proc/loadavg; }

echo "== niorep scale bench, $(nproc) cores, $(load)"
# What data handed from one thread to another costs here: a pipeline such as
# -j2 pays this for the lines it moves between cores, two processes do not.
[ "$(nproc)" -ge 2 ] && echo "== host: a cache line's round trip between CPU 0 and CPU 1: $("$lat" 0 1) ns"
# What a first write to fresh memory costs here (a VM's host may have taken
# the guest's free memory back): the ingest pays it for every table it grows.
echo "== host: first writes to fresh memory: $("$touch_probe" 32 3)"
echo "== ingest (MB/s and Mlines/s on wall time; CPU MB/s = bytes / (user+sys))"
printf '%-26s %8s %8s %9s %11s %9s %8s\n' what wall_s cpu_s MB/s cpu_MB/s Mlines/s RSS_MiB
for size in $sizes; do
    run=$out/run-$size
    mkdir -p "$run"
    log=$run/strace.log
    [ -s "$log" ] || "$gen" --size "$size" --seed 1 -o "$log"
    bytes=$(stat -c %s "$log")
    reread "$log"
    # the count from the timed run itself: a second `wc -l` read the log again
    measure sh -c 'wc -l < "$1" > "$2"' sh "$log" "$out/lines.txt"; lines=$(cat "$out/lines.txt")
    row "wc -l $size" "$bytes" "$lines"
    measure zstd -3 -T0 -q -c "$log"
    row "zstd -3 -T0 $size" "$bytes" "$lines"
    measure zstd -3 -T1 -q -c "$log"; z1=$wall
    row "zstd -3 -T1 $size" "$bytes" "$lines"
    measure zstd -3 -T2 -q -c "$log"; z2=$wall
    row "zstd -3 -T2 $size" "$bytes" "$lines"
    ingest_pairs "$run" "$size" "$bytes" "$lines" "$log"
    same=$(cmp -s "$out/s$size.j1.nio" "$out/s$size.j2.nio" && echo identical || echo DIFFERENT)
    same_pair=$(cmp -s "$out/s$size.j1.nio" "$out/s$size.pa.nio" && cmp -s "$out/s$size.pa.nio" "$out/s$size.pb.nio" \
        && echo identical || echo DIFFERENT)
    awk -v m="$(median <<< "$ratios")" -v r="$(span "$ratios")" -v mm="$(median <<< "$ratios_mean")" -v rm="$(span "$ratios_mean")" \
        -v n="$pairs" -v c1="$c1" -v c2="$c2" -v s="$size" -v same="$same" \
        'BEGIN{printf "ratio %s: -j2 speed-up %.2fx on wall time over the fastest CPU'"'"'s -j1, median of %d rounds (range %s; target >= 1.7x); %.2fx over the CPUs'"'"' mean -j1 (range %s); CPU %.2fx of -j1; stores %s\n", s, m, n, r, mm, rm, c2 / c1, same}'
    for c in $(seq 0 $(($(nproc) - 1))); do
        awk -v b="$bytes" -v w="$(pick "$c" "$cpu_w1")" -v m="$(pick "$c" "$wcs")" -v r="$(span "$(tr ' ' '\n' <<< "$wcs" | sed -n "s/^$c://p" | xargs)")" \
            -v n="$pairs" -v s="$size" -v c="$c" \
            'BEGIN{printf "ratio %s: CPU %d: -j1 %.0f MB/s (median; target >= 1000), %.2fx the wall time of wc -l on the same CPU (median of %d rounds, range %s; target <= 8x)\n", s, c, b / 1e6 / w, m, n, r}'
    done
    awk -v h="$(median <<< "$hosts")" -v r="$(span "$hosts")" -v f="$(median <<< "$shares")" -v fr="$(span "$shares")" \
        -v z="$(awk -v a="$z1" -v b="$z2" 'BEGIN{print a / b}')" -v s="$size" -v same="$same_pair" \
        'BEGIN{printf "ratio %s: host baseline: two -j1 side by side %.2fx the throughput of one on the fastest CPU (range %s; stores %s); -j2 is %.2f of that (range %s); zstd -3 -T2 %.2fx of -T1\n", s, h, r, same, f, fr, z}'
    rm -f "$out/s$size.j1.nio" "$out/s$size.j2.nio" "$out/s$size.pa.nio" "$out/s$size.pb.nio"
done

# On a loaded machine the wall-time ratio says more about the neighbours than
# about niorep; the CPU split between the ingest's threads does not: the
# busiest thread bounds the speed-up (on c idle cores: min(c, 1 / its share)).
first=${sizes%% *}
if command -v perf >/dev/null && perf record -q -s -o "$out/perf.data" "$niorep" ingest "$out/run-$first" \
        -o "$out/perf.nio" -j 2 >/dev/null 2>&1; then
    perf report -i "$out/perf.data" -T --sort pid 2>/dev/null | awk '
        /^ +[0-9.]+%/ { sub("%", "", $1); share[++n] = $1; if ($1 > max) max = $1 }
        END { if (n) { printf "threads of ingest -j2 (%% of CPU samples):"; for (i = 1; i <= n; i++) printf " %s", share[i];
                       b = 100 / max; printf "; busiest %s%%: speed-up bound on 2 idle cores %.2fx\n", max, b < 2 ? b : 2 } }'
    rm -f "$out/perf.data" "$out/perf.data.old" "$out/perf.nio"
fi

echo "== niorep build of $runs generated runs (2 MB logs, --bootstraps 20)"
traces=$out/traces-$runs
if [ ! -d "$traces" ]; then
    for i in $(seq 1 "$runs"); do
        mkdir -p "$traces/run$i"
        "$gen" --size 2M --seed "$i" -o "$traces/run$i/strace.log"
    done
fi
# jobs_rounds ROW RATIO PREP CMD...: CMD -j 1 and CMD -j 2 alternate in
# --build-rounds rounds, PREP (a command) before each run, as the ingests
# do (single pairs of builds gave 1.47x and 1.81x minutes apart, session
# 24); prints each one's median row and the median of the rounds' ratios.
jobs_rounds() {
    local row=$1 ratio=$2 prep=$3 ws="" cs="" rs="" ratios="" w1=0 r j
    shift 3
    for r in $(seq 1 "$build_rounds"); do
        for j in 1 2; do
            $prep
            measure "$@" -j $j
            ws+=" $j:$wall" cs+=" $j:$cpu" rs+=" $j:$rss_mib"
            [ $j = 1 ] && w1=$wall || ratios+=" $(awk -v a="$w1" -v b="$wall" 'BEGIN{printf "%.3f", a / b}')"
        done
    done
    for j in 1 2; do
        printf '%-26s %8.2f %8.2f %8s\n' "$row -j$j (median)" "$(pick $j "$ws")" "$(pick $j "$cs")" "$(pick $j "$rs")"
    done
    awk -v m="$(median <<< "$ratios")" -v r="$(span "$ratios")" -v n="$build_rounds" -v what="$ratio" \
        'BEGIN{printf "ratio %s: -j2 speed-up %.2fx on wall time, median of %d alternated rounds (range %s)\n", what, m, n, r}'
}
cold_cache() { rm -rf "$traces/.niorep"; }
printf '%-26s %8s %8s %8s\n' what wall_s cpu_s RSS_MiB
jobs_rounds "build cold" build cold_cache "$niorep" build "$traces" -o "$out/build.html" --bootstraps 20
measure "$niorep" build "$traces" -o "$out/build.html" -j 2 --bootstraps 20
printf '%-26s %8.2f %8.2f %8s\n' "build warm -j2 (cached)" "$wall" "$cpu" "$rss_mib"
# the report of those runs in a browser (docs/report.md "Many runs")
if command -v chromium > /dev/null; then
    "$root/bench/report_view.sh" --rounds 3 "$out/build.html"
fi

echo "== niorep compare of those $runs runs against the same logs in a second folder (cached stores)"
again=$out/traces-$runs-again
if [ ! -d "$again" ]; then
    for i in $(seq 1 "$runs"); do
        mkdir -p "$again/run$i"
        ln -s "$traces/run$i/strace.log" "$again/run$i/strace.log"
    done
fi
measure "$niorep" compare "$traces" "$again" -o "$out/compare.html" # fills the second folder's cache
printf '%-26s %8s %8s %8s\n' what wall_s cpu_s RSS_MiB
jobs_rounds compare compare true "$niorep" compare "$traces" "$again" -o "$out/compare.html"

echo "== niorep build of $wide_runs runs of one ${wide_size} log (tens of thousands of files each; --bootstraps 20)"
# What a build holds per run grows with the run's files, not its events:
# the many small runs above hide that (docs/report.md, "A build's models
# keep the top files only").
wide=$out/traces-wide-$wide_runs-$wide_size
if [ ! -d "$wide" ]; then
    [ -s "$out/wide-$wide_size.log" ] || "$gen" --size "$wide_size" --seed 3 -o "$out/wide-$wide_size.log"
    for i in $(seq 1 "$wide_runs"); do
        mkdir -p "$wide/run$i"
        ln -s "$out/wide-$wide_size.log" "$wide/run$i/strace.log"
    done
fi
printf '%-26s %8s %8s %8s %8s\n' what wall_s cpu_s RSS_MiB files
rm -rf "$wide/.niorep" # cold: an earlier bench's stores would be reused (until session 53 they were)
measure "$niorep" build "$wide" -o "$out/wide.html" --bootstraps 20 # ingests, fits and fills the cache
files=$("$niorep" info "$wide/.niorep/run1.nio" | awk '$1 == "table" && $2 == "files:" {print $3}')
printf '%-26s %8.2f %8.2f %8s %8s\n' "build cold -j2" "$wall" "$cpu" "$rss_mib" "$files"
measure "$niorep" build "$wide" -o "$out/wide.html" --bootstraps 20
printf '%-26s %8.2f %8.2f %8s %8s\n' "build warm -j2 (cached)" "$wall" "$cpu" "$rss_mib" "$files"

echo "== model of a store of $events events (bench/model_gen.c)"
store=$out/m$events.nio
[ -s "$store" ] || "$mgen" "$store" --events "$events" --seed 1 > /dev/null
printf '%-26s %8s %8s %8s\n' what wall_s cpu_s RSS_MiB
measure "$niorep" summary "$store" --json --bootstraps 0
printf '%-26s %8.2f %8.2f %8s\n' "model (summary)" "$wall" "$cpu" "$rss_mib"
measure "$niorep" build "$store" -o "$out/m.html" --bootstraps 0
printf '%-26s %8.2f %8.2f %8s\n' "model + render (build)" "$wall" "$cpu" "$rss_mib"

echo "== ingest of a hook of $hook_steps steps with a read and a wait each (bench/gen_phase_steps.py)"
hook_run=$out/hook-steps-$hook_steps
[ -s "$hook_run/hook.jsonl" ] || /usr/bin/python3 bench/gen_phase_steps.py "$hook_run" --steps "$hook_steps" --waits --io 100000
hook_bytes=$(stat -c %s "$hook_run/hook.jsonl")
hook_lines=$(wc -l < "$hook_run/hook.jsonl")
cat "$hook_run/hook.jsonl" "$hook_run/strace.log" > /dev/null # the page cache
hook_wc="" hook_ingest="" hook_rss="" hook_ratios=""
for round in 1 2 3; do
    measure wc -l "$hook_run/hook.jsonl"
    round_wc=$wall
    measure "$niorep" ingest -q -j 1 "$hook_run" -o "$out/hook-steps.nio"
    hook_wc+=" $round_wc" hook_ingest+=" $wall" hook_rss+=" $rss_mib"
    hook_ratios+=" $(awk -v a="$wall" -v b="$round_wc" 'BEGIN{printf "%.4f", a / b}')"
done
printf '%-26s %8s %8s %9s %9s\n' what wall_s MB/s Mlines/s RSS_MiB
row_hook() { printf '%-26s %8.2f %8.0f %9.2f %9s\n' "$1" "$2" "$(awk -v b="$hook_bytes" -v t="$2" 'BEGIN{print b/1e6/t}')" \
    "$(awk -v l="$hook_lines" -v t="$2" 'BEGIN{print l/1e6/t}')" "$3"; }
row_hook "wc -l hook.jsonl (median)" "$(median <<< "$hook_wc")" "-"
row_hook "ingest -j1 run (median)" "$(median <<< "$hook_ingest")" "$(median <<< "$hook_rss")"
read -r lo hi < <(range <<< "$hook_ratios")
printf 'ratio hook: ingest -j1 %.1fx the wall time of wc -l on hook.jsonl, median of 3 rounds (range %.1f-%.1f; the run'"'"'s strace log: %s bytes)\n' \
    "$(median <<< "$hook_ratios")" "$lo" "$hi" "$(stat -c %s "$hook_run/strace.log")"
echo "== $(load)"
