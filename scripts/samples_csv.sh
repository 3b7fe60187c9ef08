#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every timed sample with --csv on a built tree and writes one CSV per sample, named for docs/data/:
#
#   scripts/samples_csv.sh BUILD_DIR LABEL [OUT_DIR [SAMPLE...]]  -> OUT_DIR/SAMPLE-LABEL.csv (OUT_DIR: $OUT)
#
#   SAMPLE: reduction_ladder, chunk_by_four_ways, stations_steps (default: all three), and on request
#           stations_steps_10k (steps 1, 3 and 4 on 10,000 stations), privatization (413 and 41,343
#           stations, docs/privatization.md), scan_ladder (docs/scan.md, "Measured"), size_sweep
#           (throughput against input size, 1 KiB to SWEEP_SIZE bytes: docs/size_sweep.md)
#   on a GPU machine:   scripts/samples_csv.sh build/cuda h100 "$OUT"
#   some samples only:  scripts/samples_csv.sh build/cuda h100 "$OUT" stations_steps chunk_by_four_ways
#   then, in the repo:  cp OUT_DIR/*.csv docs/data/ && scripts/charts.sh && scripts/docs_snippets.py
#
# Every row gets the commit (COMMIT, or git's HEAD) and the date of the run.
# Each sample checks its results before it times them (it exits 1, and so does this script, on a
# mismatch); the device steps of the 1BRC pipeline are checked against the std::map step's answer.
# The defaults suit one GPU with 40 GB or more; the variables below shrink them (the CPU numbers in
# docs/data were taken with REDUCTION_SIZE=67108864 CHUNK_BY_SIZE=33554432 STATION_ROWS=1000000 REPEAT=5;
# privatization-cpu.csv with PRIVATIZATION_ROWS=16777216 REPEAT=3; scan_ladder-cpu.csv with SCAN_SIZE=67108864;
# size_sweep-cpu.csv with SWEEP_SIZE=1073741824 REPEAT=10).
# The stations steps' input is generated under DATA_DIR (default /tmp) and removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:?usage: scripts/samples_csv.sh BUILD_DIR LABEL [OUT_DIR [SAMPLE...]]}
label=${2:?usage: scripts/samples_csv.sh BUILD_DIR LABEL [OUT_DIR [SAMPLE...]]}
out=${3:-${OUT:?give OUT_DIR or set OUT}}
shift $(($# < 3 ? $# : 3))
samples=("$@")
[ ${#samples[@]} -eq 0 ] && samples=(reduction_ladder chunk_by_four_ways stations_steps)
for s in "${samples[@]}"; do
  case $s in
    reduction_ladder | chunk_by_four_ways | stations_steps | stations_steps_10k | privatization | scan_ladder | size_sweep) ;;
    *) echo "samples_csv: unknown sample '$s' (reduction_ladder, chunk_by_four_ways, stations_steps, stations_steps_10k, privatization, scan_ladder, size_sweep)" >&2; exit 2 ;;
  esac
done
wanted() {
  local s
  for s in "${samples[@]}"; do [ "$s" = "$1" ] && return 0; done
  return 1
}
reduction_size=${REDUCTION_SIZE:-268435456}   # 1 GiB of uint32 digits
chunk_by_size=${CHUNK_BY_SIZE:-1073741824}    # 1 GiB of text, about 67 million lines
station_rows=${STATION_ROWS:-100000000}       # about 1.4 GB of measurements, 413 stations
privatization_rows=${PRIVATIZATION_ROWS:-100000000}  # (id, tenths) rows of 4 bytes
scan_size=${SCAN_SIZE:-268435456}             # 1 GiB of uint32
sweep_size=${SWEEP_SIZE:-1073741824}          # the sweep's largest input, bytes (a power of two)
repeat=${REPEAT:-10}
data=${DATA_DIR:-/tmp}
mkdir -p "$out"
commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
export ROWSCAN_COMMIT=${ROWSCAN_COMMIT:-$commit}  # the reduction ladder writes its own commit column
# stamp FILE: adds the commit and the date to every row of a CSV that does not carry them yet (the
# reduction ladder's rows carry their own).
stamp() {
  head -1 "$1" | grep -q ',commit,date$' && return 0
  awk -v c="$commit" -v d="$date" 'NR == 1 {print $0 ",commit,date"; next} {print $0 "," c "," d}' "$1" > "$1.tmp"
  mv "$1.tmp" "$1"
}

if wanted reduction_ladder; then
  echo "== reduction_ladder, $reduction_size values" >&2
  "$build/samples/reduction_ladder" --size "$reduction_size" --repeat "$repeat" --csv \
    > "$out/reduction_ladder-$label.csv"
fi

if wanted chunk_by_four_ways; then
  echo "== chunk_by_four_ways, $chunk_by_size bytes" >&2
  "$build/samples/chunk_by_four_ways" --size "$chunk_by_size" --repeat "$repeat" --csv \
    > "$out/chunk_by_four_ways-$label.csv"
fi

# station_steps NAME STATIONS STEP...: step 1's answer on generated rows, then each STEP checked against
# it and timed, into NAME-LABEL.csv.
station_steps() {
  local name=$1 stations=$2
  shift 2
  local input="$data/samples-measurements-$station_rows-$stations.txt"
  local answer="$data/samples-measurements-$station_rows-$stations.answer"
  echo "== $name, $station_rows rows, $stations stations" >&2
  "$build/app/rowscan" generate measurements --rows "$station_rows" --stations "$stations" --seed 7 -o "$input"
  "$build/samples/stations_01_naive" "$input" --repeat 1 --csv --output "$answer" > "$out/$name-$label.csv"
  for step in "$@"; do
    "$build/samples/stations_$step" "$input" --repeat "$repeat" --csv --expect "$answer" | tail -n +2 \
      >> "$out/$name-$label.csv"
  done
  rm -f "$input" "$answer"
}

if wanted scan_ladder; then
  echo "== scan_ladder, $scan_size values" >&2
  "$build/samples/scan_ladder" --size "$scan_size" --repeat "$repeat" --csv > "$out/scan_ladder-$label.csv"
fi

if wanted size_sweep; then
  echo "== size_sweep, 1024 to $sweep_size bytes" >&2
  DATA_DIR=$data "$build/samples/size_sweep" --size "$sweep_size" --repeat "$repeat" --csv > "$out/size_sweep-$label.csv"
fi

if wanted stations_steps; then
  station_steps stations_steps 413 02_composed 03_fused 04_dictionary
fi

if wanted stations_steps_10k; then
  station_steps stations_steps_10k 10000 03_fused 04_dictionary
  # The steps print sample "stations_steps"; this file's rows are another input, so another sample.
  sed -i 's/^stations_steps,/stations_steps_10k,/' "$out/stations_steps_10k-$label.csv"
fi

if wanted privatization; then
  echo "== privatization, $privatization_rows rows, 413 and 41,343 stations" >&2
  "$build/samples/privatization" 413 --size "$privatization_rows" --repeat "$repeat" --csv \
    > "$out/privatization-$label.csv"
  "$build/samples/privatization" 41343 --size "$privatization_rows" --repeat "$repeat" --csv | tail -n +2 \
    >> "$out/privatization-$label.csv"
fi

for f in "$out"/*-"$label".csv; do stamp "$f"; done
ls -l "$out"/*-"$label".csv >&2
