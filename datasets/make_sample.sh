#!/usr/bin/env bash
# Regenerates datasets/sample/: one run directory per reference workload,
# captured with `niorep trace` (labels workload=<name>), logs compressed
# with zstd -19. Training data (datasets/data/) and work files
# (datasets/work/) are generated here and not committed.
#
#   datasets/make_sample.sh [WORKLOAD ...]     (default: all six)
#
# Environment: NIOREP (the binary; default build/cli/niorep, built when
# missing), PYTHON (default /usr/bin/python3).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
niorep=${NIOREP:-$repo/build/cli/niorep}
python=${PYTHON:-/usr/bin/python3}
[ -x "$niorep" ] || NR_BUILD_DIR=build scripts/build.sh
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(language vision diffusion snn mlp rl)

for name in "${workloads[@]}"; do
  script=workloads/wl_$name.py
  [ -f "$script" ] || { echo "make_sample: no workload '$name'" >&2; exit 2; }
  data=datasets/data/$name work=datasets/work/$name run=datasets/sample/$name
  # Untraced setup: the data set and the base weights the run starts from.
  rm -rf "$work"
  "$python" "$script" --data "$data" --work "$work" --init-only
  rm -rf "$run"
  echo "make_sample: tracing $name" >&2
  "$niorep" trace -o "$run" --label workload="$name" --label suite=niorep-reference \
    --watch "$data" -- "$python" "$script" --data "$data" --work "$work"
  zstd -19 -q --rm "$run"/strace.log*
  if [ "$(stat -c %s "$run/hook.jsonl")" -gt 262144 ]; then zstd -19 -q --rm "$run/hook.jsonl"; fi
done
du -sh datasets/sample
