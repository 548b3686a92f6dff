#!/usr/bin/env bash
# Configures and builds niorep into build/ (or $NR_BUILD_DIR); extra args go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${NR_BUILD_DIR:-build}
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=${NR_BUILD_TYPE:-RelWithDebInfo} "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)" >/dev/null
