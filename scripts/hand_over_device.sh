#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Host workers and the GPU on one queue (algorithms/rowscan/inputs/hand_over.hpp) measured on a GPU
# machine with a built `cuda` preset:
#
#   OUT=DIR scripts/hand_over_device.sh sizes     -> DIR/hand-over-LABEL.csv, DIR/timeline-*.txt
#   OUT=DIR scripts/hand_over_device.sh billion   -> the same, for 1e9 rows of 413 and 10,000 stations
#
# Whole-process seconds of `rowscan stations`, median of 5 on a hot page cache, with --devices cpu (the
# host's cores alone), gpu (the GPU alone) and cpu+gpu (host workers from the start, the GPU relieving
# them when it is ready; keep:cpu+gpu keeps four of them to the end); the answers must be equal. For the largest input of each section, `--stats`
# of the cpu+gpu run goes to timeline-*.txt: each worker's first block and busy time, and when the GPU
# joined (scripts/timeline_chart.py draws it).
# Columns: commit,date,device,cores,stations,bytes,devices,median_seconds
#   LABEL=h100  ROWSCAN=build/cuda/app/rowscan  DATA_DIR=/tmp
set -euo pipefail
cd "$(dirname "$0")/.."
label=${LABEL:-h100}
exe=${ROWSCAN:-build/cuda/app/rowscan}
out=${OUT:-build/cuda/hand-over}
data=${DATA_DIR:-/tmp}
mkdir -p "$out"
commit=${COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ',' ' ' || echo none)
cores=$(nproc)
csv="$out/hand-over-$label.csv"
[ -f "$csv" ] || echo "commit,date,device,cores,stations,bytes,devices,median_seconds" > "$csv"

source scripts/wall_time.sh   # wall_seconds, median

# measure FILE STATIONS DEVICES...: a row per --devices value; the answers compared. A value "keep:D" runs
# --devices D with ROWSCAN_HAND_OVER=keep (host workers kept beside the GPUs to the end, for comparison).
measure() {
  local input=$1 stations=$2
  shift 2
  local bytes
  bytes=$(stat -c %s "$input")
  cat "$input" > /dev/null
  for devices in "$@"; do
    local how=relieve choice=$devices
    if [ "${devices#keep:}" != "$devices" ]; then how=keep; choice=${devices#keep:}; fi
    ROWSCAN_HAND_OVER=$how "$exe" stations --devices "$choice" "$input" > "$data/answer-$devices"
    local seconds
    seconds=$(for run in 1 2 3 4 5; do ROWSCAN_HAND_OVER=$how wall_seconds "$exe" stations --devices "$choice" "$input"; done | median)
    echo "$commit,$(date +%F),$device,$cores,$stations,$bytes,$devices,$seconds" | tee -a "$csv"
    cmp -s "$data/answer-$1" "$data/answer-$devices" || echo "MISMATCH: $input, --devices $devices" | tee -a "$out/errors.txt"
  done
}

case ${1:-sizes} in
  sizes)
    full="$data/hand-over-full.txt"
    "$exe" generate measurements --rows 60000000 --stations 10000 --seed 7 -o "$full"
    for mib in 128 256 512; do
      head -c $((mib << 20)) "$full" | sed '$d' > "$data/hand-over-$mib.txt"   # whole lines only
      measure "$data/hand-over-$mib.txt" 10000 gpu cpu+gpu cpu
    done
    measure "$full" 10000 gpu cpu+gpu cpu
    "$exe" stations --devices cpu+gpu --stats "$full" 2> "$out/timeline-$label-10000-$(stat -c %s "$full").txt" > /dev/null
    ;;
  billion)
    for stations in 413 10000; do
      file="$data/measurements-1000000000-$stations.txt"
      [ -f "$file" ] || "$exe" generate measurements --rows 1000000000 --stations "$stations" --seed 1 -o "$file"
      measure "$file" "$stations" gpu cpu+gpu keep:cpu+gpu
      "$exe" stations --devices cpu+gpu --stats "$file" 2> "$out/timeline-$label-$stations-1e9.txt" > /dev/null
      rm -f "$file"
    done
    ;;
  *) echo "usage: $0 sizes|billion" >&2; exit 2 ;;
esac
