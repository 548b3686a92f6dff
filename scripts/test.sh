#!/usr/bin/env bash
# Sets everything up and runs every test: the release build with -Werror, then
# the unit and end-to-end tests again under AddressSanitizer + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)

echo "== release build (-Werror)"
NR_BUILD_DIR=build scripts/build.sh -DNR_WERROR=ON
ctest --test-dir build -j"$jobs" --output-on-failure

echo "== ASan + UBSan build"
NR_BUILD_DIR=build-asan NR_BUILD_TYPE=Debug scripts/build.sh -DNR_WERROR=ON -DNR_SANITIZE=ON
# fontconfig/pango font caches outlive every font map: not our leaks (tests/render/lsan.supp).
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
LSAN_OPTIONS=suppressions=$PWD/tests/render/lsan.supp \
  ctest --test-dir build-asan -j"$jobs" --output-on-failure -LE nosan
