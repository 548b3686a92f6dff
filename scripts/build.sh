#!/usr/bin/env bash
# Configures and builds niorep into build/ (or $NR_BUILD_DIR); extra args go to cmake.
# A release build (RelWithDebInfo, the default, or Release) with GCC is
# profile-guided unless NR_PGO=0: an instrumented build in DIR-pgo/ ingests
# a generated log and the committed sample runs, and the build proper is
# compiled with that profile (docs/performance.md, session 25). The profile
# is made once per build directory, or again with NR_PGO_RETRAIN=1 (then the
# build proper starts clean: make does not know the profile changed);
# in between, functions edited since lose their profile (GCC's coverage
# mismatch, which can leave them less optimized: retrain before measuring).
# The runs' counts vary a little (timing, addresses), so two profile-guided
# builds may differ; NR_PGO=0 builds reproducibly.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${NR_BUILD_DIR:-build}
type=${NR_BUILD_TYPE:-RelWithDebInfo}
. bench/runs.sh # generated_log

# train GEN_DIR PROFILE CMAKE_ARGS...: the instrumented build in GEN_DIR,
# then its runs, which leave their profile in PROFILE (emptied first: runs
# add up their counts).
train() {
    local gen=$1 profile=$2 run
    shift 2
    cmake -S . -B "$gen" -DCMAKE_BUILD_TYPE="$type" -DNR_PGO_GENERATE="$profile" -DNR_PGO_USE= "$@" >/dev/null
    cmake --build "$gen" -j"$(nproc)" --target niorep >/dev/null
    rm -rf "$profile" "$gen/train"
    mkdir -p "$gen/train"
    # 200 MB: enough files (over 32 k) that the path look-ahead runs
    local log
    log=$(generated_log "$gen/train" 200M 7)
    "$gen/cli/niorep" ingest -q -j 1 "$log" -o "$gen/train/generated.nio"
    for run in datasets/sample/*/; do
        "$gen/cli/niorep" ingest -q -j 1 "$run" -o "$gen/train/sample.nio"
    done
    # a hook of 100,000 steps in train, a wait and a read each (38 MB):
    # the samples' hooks are too small to train the hook's reader, its
    # sorter and its run pages (docs/performance.md, session 68)
    python3 bench/gen_phase_steps.py "$gen/train/steps" --steps 100000 --train --waits --io 1000
    "$gen/cli/niorep" ingest -q -j 1 "$gen/train/steps" -o "$gen/train/steps.nio"
    rm -rf "$gen/train"
}

pgo=(-DNR_PGO_USE=) clean=()
if [[ ${NR_PGO:-1} = 1 && $type =~ ^(Release|RelWithDebInfo)$ && $("${CC:-cc}" --version) == *"Free Software Foundation"* ]]; then
    profile=$(realpath -m "$dir-pgo/profile") # absolute: cmake runs elsewhere
    if [[ ! -d $profile || ${NR_PGO_RETRAIN:-0} = 1 ]]; then
        train "$dir-pgo" "$profile" "$@"
        clean=(--clean-first)
    fi
    pgo=(-DNR_PGO_USE="$profile")
fi
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" "${pgo[@]}" "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)" "${clean[@]}" >/dev/null
