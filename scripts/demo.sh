#!/usr/bin/env bash
# Sets everything up and runs the main job on the committed sample traces of
# the six reference workloads: one self-contained HTML report.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
build/cli/niorep build datasets/sample -o report.html --figures out/figures --format svg,pdf,png
echo
echo "demo: open report.html in a browser (one file, works offline):"
echo "  - 'Overview of all runs': the six workloads side by side, then one section per run"
echo "    (run facts, phases, concentration, tail latency, timeline, access pattern, findings);"
echo "  - publication figures (SVG, PDF, PNG) and figures.json in out/figures/;"
echo "  - the ingested stores, their power-law fits and their runs' figures are cached in datasets/sample/.niorep/"
echo "    (reused while the logs are unchanged)."
