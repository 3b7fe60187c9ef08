#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the reduction ladder for the GPU (the `cuda` preset) and runs it once on 1 GiB of uint32,
# writing its table as CSV (one row per rung, with the commit, the date, the device and the input bytes)
# and its whole printout (the table and the float-order demonstration) beside it:
#
#   scripts/ladder_device.sh        -> $OUT/reduction_ladder-h100.csv and $OUT/reduction_ladder-h100.txt
#                                      (without OUT: build/cuda/ladder/)
#
#   LABEL=h100           the device label in the file names (docs/data/SAMPLE-LABEL.csv)
#   SIZE=268435456       uint32 values (1 GiB); REPEAT=20: timed runs per rung, the median is reported
#   ROWSCAN_COMMIT=...   the commit recorded in each row; by default `git rev-parse --short=12 HEAD`
#                        (with -dirty for local changes), or "unknown" where there is no git checkout
#
# Then, in the repository: cp OUT/reduction_ladder-h100.csv docs/data/ && scripts/docs_snippets.py &&
# scripts/charts.sh. It needs the CUDA toolkit at /usr/local/cuda, CMake, Ninja and cxxopts; where the
# machine lacks the Debian packages, their files in .device-deps/usr serve as the prefix (as in
# scripts/device_build.sh). The sample exits 1, and so does this script, if a rung's sum is wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"

label=${LABEL:-h100}
size=${SIZE:-268435456}
repeat=${REPEAT:-20}
out=${OUT:-build/cuda/ladder}

if [ -z "${ROWSCAN_COMMIT:-}" ]; then
  if ROWSCAN_COMMIT=$(git rev-parse --short=12 HEAD 2>/dev/null); then
    git diff --quiet HEAD -- 2>/dev/null || ROWSCAN_COMMIT="$ROWSCAN_COMMIT-dirty"
  else
    ROWSCAN_COMMIT=unknown
  fi
fi
export ROWSCAN_COMMIT

prefix=()
[ -d .device-deps/usr ] && prefix=(-DCMAKE_PREFIX_PATH="$PWD/.device-deps/usr")
echo "== configure and build the cuda preset's reduction_ladder (commit $ROWSCAN_COMMIT)" >&2
cmake --preset cuda -DROWSCAN_BUILD_TESTS=OFF "${prefix[@]}" > /dev/null
cmake --build --preset cuda --target reduction_ladder -j "$(nproc)"

mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.memory --format=csv \
  > "$out/reduction_ladder-$label.gpu.txt" 2>&1 || true
echo "== reduction_ladder --size $size --repeat $repeat" >&2
build/cuda/samples/reduction_ladder --size "$size" --repeat "$repeat" --csv "$out/reduction_ladder-$label.csv" \
  | tee "$out/reduction_ladder-$label.txt"
ls -l "$out"/reduction_ladder-"$label".* >&2
