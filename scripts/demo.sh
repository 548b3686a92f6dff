#!/usr/bin/env bash
# Sets everything up and runs the main job on the committed sample traces.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
mkdir -p out
for run in datasets/sample/*/; do
  name=$(basename "$run")
  build/cli/niorep ingest "$run" -o "out/$name.nio"
done
for store in out/*.nio; do
  build/cli/niorep info "$store"
done
echo "demo: stores in out/; 'build/cli/niorep info out/<run>.nio' describes each"
