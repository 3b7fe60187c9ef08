#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The docs/data CSVs that come from rowscan's benchmark programs, on a GPU machine with a built `cuda`
# preset configured with -DROWSCAN_BUILD_BENCHMARKS=ON (scripts/device_build.sh):
#
#   OUT=DIR scripts/bench_data_device.sh [lineitem-query] [startup]   (default: both)
#     -> DIR/lineitem_query-LABEL.csv  BM_query/K: the fused query over 6e8 rows of columns in device
#                                      memory, K = 1, 2, 4, 8 thresholds (docs/lineitem.md)
#     -> DIR/startup-LABEL.csv         rowscan_startup_costs context, overlap FILE and mmap FILE on a
#                                      generated 1e8-row measurements file (docs/performance.md)
#   LABEL=h100  COMMIT=... (default: git's HEAD; a device copy's may be stale)  DATA_DIR=/tmp
# Each row carries the commit, the date, the device and the input's bytes (scripts/benchmark_csv.py).
set -euo pipefail
cd "$(dirname "$0")/.."
label=${LABEL:-h100}
out=${OUT:-build/cuda/bench-data}
data=${DATA_DIR:-/tmp}
commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ',' ' ')
bench=build/cuda/benchmarks
mkdir -p "$out"
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(lineitem-query startup)
for part in "${parts[@]}"; do
  case $part in
    lineitem-query)
      "$bench/rowscan_lineitem_benchmark" --benchmark_filter='BM_query' --benchmark_out="$out/lineitem_query.json" \
        --benchmark_out_format=json
      scripts/benchmark_csv.py lineitem-query "$out/lineitem_query.json" "$device" "$commit" "$date" \
        > "$out/lineitem_query-$label.csv" ;;
    startup)
      file="$data/startup-measurements-1e8.txt"
      build/cuda/app/rowscan generate measurements --rows 100000000 --stations 413 --seed 7 -o "$file"
      cat "$file" > /dev/null  # in the page cache, as the whole-process runs read it
      { "$bench/rowscan_startup_costs" context
        "$bench/rowscan_startup_costs" overlap "$file"
        "$bench/rowscan_startup_costs" mmap "$file"; } | tee "$out/startup.txt"
      scripts/benchmark_csv.py startup "$out/startup.txt" "$device" "$commit" "$date" "$(stat -c %s "$file")" \
        > "$out/startup-$label.csv"
      rm -f "$file" ;;
    *) echo "bench_data_device.sh: unknown part '$part' (lineitem-query, startup)" >&2; exit 2 ;;
  esac
done
ls -l "$out"/*-"$label".csv >&2
