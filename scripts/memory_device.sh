#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Peak device memory and host RSS of `rowscan stations` and `rowscan lineitem` against chunk size and
# station count, on a GPU machine (the CPU table is in docs/performance.md):
#
#   scripts/memory_device.sh        -> $OUT/memory-h100.csv, $OUT/memory-h100.gpu.txt
#                                      (without OUT: build/cuda/memory/)
#
# It needs a built cuda preset (build/cuda/app/rowscan: `cmake --preset cuda && cmake --build --preset
# cuda --target rowscan`), python3 and nvidia-smi. Each run is timed by /usr/bin/time (wall seconds and
# peak host RSS) while nvidia-smi samples the device's used memory every 20 ms; the peak device memory
# of a run is the largest sample less the sample taken before it started (samples are 20 ms apart, so
# a peak shorter than that may be missed). Every answer is compared with the default chunk's; a
# mismatch exits 1. Every run names --devices gpu: under auto, inputs up to 8 MiB a host core run on the host.
# The grid (about 3 minutes on an H100):
#
#   stations, every name distinct (scripts/distinct_stations.py): 200,000 and 1,000,000 names at
#             16 KiB (200,000 only), 64 KiB, 256 KiB, 1 MiB, 16 MiB chunks and the default
#   stations, 413 names (rowscan generate measurements --rows 50000000): 1 MiB, 16 MiB, 128 MiB, default
#   lineitem, scale 1 (rowscan generate lineitem): 1, 4, 8, 16, 32, 128, 512 MiB and the default
#
#   LABEL=h100           the device label in the file names
#   ROWSCAN=build/cuda/app/rowscan
#   ROWSCAN_COMMIT=...   recorded in each row; by default `git rev-parse --short=12 HEAD`
#
# Columns: commit,date,device,workload,input,input_bytes,stations,name_bytes,chunk_size,seconds,host_rss_kib,
#          device_peak_mib,stats_device_mib,pool_peak_mib
# (stats_device_mib and pool_peak_mib are --stats' "MiB of device memory" and "MiB pool peak": the
# memory held at the end of the run beyond its start, and the pool's most large blocks held at once.)
set -euo pipefail
cd "$(dirname "$0")/.."

label=${LABEL:-h100}
rowscan=${ROWSCAN:-build/cuda/app/rowscan}
out=${OUT:-build/cuda/memory}
[ -x "$rowscan" ] || { echo "memory_device.sh: $rowscan is not built (cmake --build --preset cuda --target rowscan)" >&2; exit 1; }
command -v nvidia-smi > /dev/null || { echo "memory_device.sh: nvidia-smi is missing" >&2; exit 1; }
if [ -z "${ROWSCAN_COMMIT:-}" ]; then
  ROWSCAN_COMMIT=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
fi
device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ',' ' ')

mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$out/memory-$label.gpu.txt" 2>&1 || true
csv="$out/memory-$label.csv"
echo "commit,date,device,workload,input,input_bytes,stations,name_bytes,chunk_size,seconds,host_rss_kib,device_peak_mib,stats_device_mib,pool_peak_mib" > "$csv"

used_mib() { nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0 | head -1; }

# run WORKLOAD INPUT STATIONS NAME_BYTES CHUNK ARGS... : one row of the CSV; the answer goes to $work/answer
run() {
  local workload=$1 input=$2 stations=$3 name_bytes=$4 chunk=$5
  shift 5
  local chunk_args=()
  [ "$chunk" = default ] || chunk_args=(--chunk-size "$chunk")
  local before
  before=$(used_mib)
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -i 0 -lms 20 > "$work/samples" &
  local sampler=$!
  /usr/bin/time -f '%e %M' -o "$work/time" "$rowscan" "$workload" "$input" "$@" "${chunk_args[@]}" --devices gpu --stats --no-progress \
    > "$work/answer" 2> "$work/stderr" || { cat "$work/stderr" >&2; kill "$sampler"; exit 1; }
  kill "$sampler"; wait "$sampler" 2> /dev/null || true
  local peak seconds rss stats_mib pool_mib
  peak=$(sort -n "$work/samples" | tail -1)
  read -r seconds rss < "$work/time"
  stats_mib=$(grep -o '[0-9.]* MiB of device memory' "$work/stderr" | cut -d' ' -f1 || true)
  pool_mib=$(grep -o '[0-9.]* MiB pool peak' "$work/stderr" | cut -d' ' -f1 || true)
  echo "$ROWSCAN_COMMIT,$(date -u +%F),$device,$workload,$(basename "$input"),$(stat -c %s "$input"),$stations,$name_bytes,$chunk,$seconds,$rss,$((peak - before)),$stats_mib,$pool_mib" \
    | tee -a "$csv"
}

# check REFERENCE: the last answer must equal it
check() { cmp -s "$1" "$work/answer" || { echo "memory_device.sh: answers differ ($1)" >&2; exit 1; }; }

for stations in 200000 1000000; do
  input="$work/distinct-$stations.txt"
  python3 scripts/distinct_stations.py --stations "$stations" -o "$input"
  name_bytes=$(cut -d';' -f1 "$input" | tr -d '\n' | wc -c)
  run stations "$input" "$stations" "$name_bytes" default
  cp "$work/answer" "$work/reference"
  chunks="65536 262144 1048576 16777216"
  [ "$stations" = 200000 ] && chunks="16384 $chunks"
  for chunk in $chunks; do
    run stations "$input" "$stations" "$name_bytes" "$chunk"
    check "$work/reference"
  done
done

input="$work/measurements-413.txt"
"$rowscan" generate measurements --rows 50000000 --stations 413 -o "$input"
name_bytes=$(cut -d';' -f1 "$input" | sort -u | tr -d '\n' | wc -c)
run stations "$input" 413 "$name_bytes" default
cp "$work/answer" "$work/reference"
for chunk in 1048576 16777216 134217728; do
  run stations "$input" 413 "$name_bytes" "$chunk"
  check "$work/reference"
done

input="$work/lineitem-sf1.tbl"
"$rowscan" generate lineitem --scale 1 -o "$input"
run lineitem "$input" 0 0 default --suppkey-below 5000
cp "$work/answer" "$work/reference"
for mib in 1 4 8 16 32 128 512; do
  run lineitem "$input" 0 0 $((mib << 20)) --suppkey-below 5000
  check "$work/reference"
done
ls -l "$csv" >&2
