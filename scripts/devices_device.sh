#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where a job runs (--devices), measured on a GPU machine with a built `cuda` preset:
#
#   OUT=DIR scripts/devices_device.sh   -> DIR/devices-LABEL.csv and DIR/devices.txt
#
# - whole-process seconds of `rowscan stations` on 10,000-station inputs from 1 line to 4 GiB, with
#   --devices cpu (the host's cores) and --devices gpu, median of 5: where the two cross is the small-
#   input threshold of --devices auto (rowscan/job/devices.hpp);
# - what --devices auto chose for each, and its time;
# - a machine without a usable GPU (CUDA_VISIBLE_DEVICES=""): auto answers on the host with the same
#   bytes, --devices gpu exits 1.
# Columns: commit,date,device,cores,bytes,lines,devices,median_seconds (bytes: the input's)
#   LABEL=h100  ROWSCAN=build/cuda/app/rowscan  COMMIT=... (default: git's HEAD; a device copy's may be stale)
set -euo pipefail
cd "$(dirname "$0")/.."
label=${LABEL:-h100}
exe=${ROWSCAN:-build/cuda/app/rowscan}
out=${OUT:-build/cuda/devices}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
commit=${COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}
date=$(date -u +%F)
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ',' ' ' || echo none)
cores=$(nproc)
csv="$out/devices-$label.csv"
log="$out/devices.txt"
echo "commit,date,device,cores,bytes,lines,devices,median_seconds" > "$csv"
: > "$log"

source scripts/wall_time.sh   # wall_seconds, median

echo "Hamburg;12.0" > "$work/one-line.txt"
"$exe" generate measurements --rows 240000000 --stations 10000 --seed 7 -o "$work/full.txt"  # 4.5 GB
inputs=("$work/one-line.txt")
for mib in 1 4 16 64 128 256 512 1024 2048 4096; do
  head -c $((mib << 20)) "$work/full.txt" | sed '$d' > "$work/$mib.txt"   # whole lines only
  inputs+=("$work/$mib.txt")
done
for input in "${inputs[@]}"; do
  bytes=$(stat -c %s "$input")
  lines=$(wc -l < "$input")
  cat "$input" > /dev/null
  for devices in cpu gpu auto; do
    "$exe" stations --devices $devices "$input" > "$work/answer-$devices" 2>&1
    seconds=$(for run in 1 2 3 4 5; do wall_seconds "$exe" stations --devices $devices "$input"; done | median)
    echo "$commit,$date,$device,$cores,$bytes,$lines,$devices,$seconds" >> "$csv"
  done
  cmp -s "$work/answer-cpu" "$work/answer-gpu" && cmp -s "$work/answer-cpu" "$work/answer-auto" ||
    echo "MISMATCH on $input" | tee -a "$log"
  chose=$("$exe" stations --devices auto --stats "$input" 2>&1 > /dev/null | sed -n 1p)  # sed reads all: head would end the run with SIGPIPE
  echo "$bytes bytes: auto -> $chose" >> "$log"
done

echo "== without a usable GPU (CUDA_VISIBLE_DEVICES='')" >> "$log"
input="$work/4096.txt"
CUDA_VISIBLE_DEVICES="" "$exe" stations --stats "$input" > "$work/no-gpu" 2> "$work/no-gpu.err" && echo "auto: exit 0" >> "$log"
head -2 "$work/no-gpu.err" >> "$log"
cmp -s "$work/no-gpu" "$work/answer-cpu" && echo "auto without a GPU: same bytes" >> "$log" || echo "MISMATCH without a GPU" >> "$log"
set +e
CUDA_VISIBLE_DEVICES="" "$exe" stations --devices gpu "$input" > /dev/null 2>> "$log"
echo "--devices gpu without a GPU: exit $?" >> "$log"
set -e
cat "$log"
