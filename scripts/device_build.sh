#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the `cuda` preset (with benchmarks) on a GPU machine that lacks the Debian packages: their
# files, copied into .device-deps/usr beforehand (see docs/performance.md), serve as the prefix.
set -euo pipefail
prefix=()
[ -d .device-deps/usr ] && prefix=(-DCMAKE_PREFIX_PATH="$PWD/.device-deps/usr")
cmake --preset cuda -DROWSCAN_BUILD_BENCHMARKS=ON "${prefix[@]}"
cmake --build build/cuda -j "$(nproc)"
