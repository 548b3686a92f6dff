#!/usr/bin/env bash
# Installs every Debian 12 package niorep needs to build, test and run its
# workloads. Idempotent; prints nothing when all is there.
set -euo pipefail

packages=(
  # build
  build-essential cmake pkg-config clang libclang-rt-14-dev
  libzstd-dev zstd zlib1g-dev gzip libxxhash-dev libjansson-dev libjemalloc-dev libcmocka-dev
  libxml2-dev libcairo2-dev libpango1.0-dev libgsl-dev fonts-dejavu-core
  # capture and the reference workloads
  strace python3 python3-numpy python3-scipy python3-torch
  # tests and benchmarks
  poppler-utils chromium time valgrind python3-mpmath
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
