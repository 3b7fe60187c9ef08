#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole `rowscan lineitem` command on a GPU machine with a built `cuda` preset (docs/lineitem.md,
# docs/performance.md), on a generated scale-SF lineitem.tbl in the page cache:
#
#   OUT=DIR scripts/lineitem_device.sh   -> DIR/lineitem-LABEL.csv, DIR/lineitem-stages-LABEL.csv
#
# - whole-process seconds of `rowscan lineitem FILE --suppkey-below 5000`, median of 5, at chunk sizes
#   16, 32, 64 (the GPU default), 128 and 512 MiB; every answer must equal the default's;
# - one `--stats` run at the default chunk, its stages as rows (scripts/stages_chart.py csv).
# Columns: commit,date,device,scale,input_bytes,rows,chunk_size,median_seconds
#   SCALE=10  LABEL=h100  ROWSCAN=build/cuda/app/rowscan  COMMIT=... (default: git's HEAD)  DATA_DIR=/tmp
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${SCALE:-10}
label=${LABEL:-h100}
exe=${ROWSCAN:-build/cuda/app/rowscan}
out=${OUT:-build/cuda/lineitem}
data=${DATA_DIR:-/tmp}
commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
date=$(date -u +%F)
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ',' ' ' || echo none)
source scripts/wall_time.sh   # wall_seconds, median
mkdir -p "$out"
file="$data/lineitem-sf$scale.tbl"
"$exe" generate lineitem --scale "$scale" -o "$file"
bytes=$(stat -c %s "$file")
rows=$(wc -l < "$file")
cat "$file" > /dev/null
stages="$out/lineitem-stages-$label.csv"
echo "input,device,stage,key,ms,input_bytes,wall_ms,median_ms,commit,date" > "$stages"
csv="$out/lineitem-$label.csv"
echo "commit,date,device,scale,input_bytes,rows,chunk_size,median_seconds" > "$csv"
"$exe" lineitem "$file" --suppkey-below 5000 > "$out/answer-default"
for mib in 16 32 64 128 512; do
  "$exe" lineitem "$file" --suppkey-below 5000 --chunk-size $((mib << 20)) > "$out/answer"
  cmp -s "$out/answer" "$out/answer-default" || { echo "lineitem_device.sh: answers differ at $mib MiB" >&2; exit 1; }
  seconds=$(for run in 1 2 3 4 5; do
    wall_seconds "$exe" lineitem "$file" --suppkey-below 5000 --chunk-size $((mib << 20)); done | median)
  echo "$commit,$date,$device,$scale,$bytes,$rows,$((mib << 20)),$seconds" | tee -a "$csv"
done
median_s=$(awk -F, -v c=$((64 << 20)) '$7 == c { print $8 }' "$csv")
/usr/bin/time -f "wall %e s, max RSS %M KiB" "$exe" lineitem --stats "$file" --suppkey-below 5000 \
  > /dev/null 2> "$out/lineitem-stats.log"
cat "$out/lineitem-stats.log"
scripts/stages_chart.py csv "$out/lineitem-stats.log" "sf$scale" "$commit" "$date" "$median_s" \
  >> "$stages"
rm -f "$file"
