#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On a GPU: the fast path's grouping by sort and by histogram over (id, tenth) bins, measured at
# 413, 10,000 and 65,534 stations (docs/histogram_grouping.md). Writes into OUT:
#
#   scripts/histogram_grouping_device.sh OUT
#
#   OUT/tests.log                          rowscan_histogram_grouping_tests (CUB's histogram at several
#                                          pass sizes and the portable twin, against a scalar loop)
#   OUT/histogram_grouping-LABEL.csv       the sample, 2^25 rows per station count: sort_reduce_by_key and
#                                          histogram, median of REPEAT, stamped with commit and date
#   OUT/grouping-LABEL.json (+ .txt)       rowscan_grouping_benchmark: the grouping stage alone, the fold's
#                                          CUB sort against histogram_grouper at two storage budgets
#   OUT/device_resident-LABEL.txt          BM_device_resident/512 (the whole fold, text on the device)
#                                          at each station count, ROWSCAN_BENCH_ROWS rows of text
#
#   LABEL=h100  REPEAT=5  ROWS=33554432  TEXT_ROWS=200000000  PREFIX=.device-deps/usr
#
# Then, in the repository: cp OUT/histogram_grouping-LABEL.csv docs/data/ and add its csv-select table to
# docs/histogram_grouping.md; wire the histogram into the fold only where it measured faster.
set -euo pipefail
out=${1:?usage: scripts/histogram_grouping_device.sh OUT}
mkdir -p "$out"
label=${LABEL:-h100}
export PATH=/usr/local/cuda/bin:$PATH
prefix=${PREFIX:-$PWD/.device-deps/usr}
generator=(); command -v ninja >/dev/null || generator=(-G "Unix Makefiles")
cmake --preset cuda "${generator[@]}" -DCMAKE_PREFIX_PATH="$prefix" -DROWSCAN_BUILD_BENCHMARKS=ON \
  -DROWSCAN_HOST_SYSTEM=OFF > "$out/build.log" 2>&1
cmake --build build/cuda -j"$(nproc)" --target rowscan_histogram_grouping_tests histogram_grouping \
  rowscan_grouping_benchmark rowscan_stations_benchmark >> "$out/build.log" 2>&1

build/cuda/tests/rowscan_histogram_grouping_tests > "$out/tests.log" 2>&1 || { tail -30 "$out/tests.log"; exit 1; }
tail -1 "$out/tests.log"

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
csv=$out/histogram_grouping-$label.csv
echo "sample,device,variant,items,bytes,ms,gb_per_s,commit,date" > "$csv"
for stations in 413 10000 65534; do
  build/cuda/samples/histogram_grouping "$stations" --size "${ROWS:-33554432}" --repeat "${REPEAT:-5}" --csv |
    tail -n +2 | sed "s/\$/,$commit,$date/" >> "$csv"
done
cat "$csv"

build/cuda/benchmarks/rowscan_grouping_benchmark --benchmark_min_time=0.2 \
  --benchmark_out="$out/grouping-$label.json" --benchmark_out_format=json | tee "$out/grouping-$label.txt"

for stations in 413 10000 65534; do
  ROWSCAN_BENCH_STATIONS=$stations ROWSCAN_BENCH_ROWS=${TEXT_ROWS:-200000000} \
    build/cuda/benchmarks/rowscan_stations_benchmark --benchmark_filter='BM_device_resident/512'
done | tee "$out/device_resident-$label.txt"
