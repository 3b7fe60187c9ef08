#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rowscan.Session from Python on a GPU machine with a built `cuda` preset (the module: ROWSCAN_PYTHON, on
# where python3's headers and pybind11 are found), beside the CLI and austindonisan/1brc's whole process in
# the same run: import + Session(), the first query, and the median of 5 later queries
# (scripts/session_timing.py), hot page cache (docs/python.md, "Measured").
#
#   OUT=DIR scripts/session_device.sh PEERS [BUILD [PART...]]   -> DIR/session.csv, DIR/session.log
#
# PARTs (default: all three): 413 and 10000 (1e9 rows with that many stations), lineitem (scale factor 10).
# PEERS is a folder with austindonisan/1brc's 1brc.c as austin_1brc.c (as scripts/yardsticks_device.sh
# takes it); BUILD the cuda build tree (build/cuda). DATA_DIR (/tmp) holds the generated files; the
# measurements files are those of yardsticks_device.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,/^set/p' "$0" | sed '$d' >&2; exit 2; }
peers=$(cd "$1" && pwd)
build=$(realpath "${2:-build/cuda}")
parts=("${@:3}")
[ ${#parts[@]} -gt 0 ] || parts=(413 10000 lineitem)
out=${OUT:-$build/session}
data=${DATA_DIR:-/tmp}
exe=$build/app/rowscan
cores=$(nproc)
mkdir -p "$out" "$data/bin"
source scripts/wall_time.sh   # wall_seconds, median
log=$out/session.log
csv=$out/session.csv
[ -s "$csv" ] || echo "workload,input,program,figure,seconds,commit,device" > "$csv"
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# Quoted: the field holds a comma.
device="\"$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ',' ' '), $cores cores\""
gcc -std=c17 -march=native -Ofast -pthread "$peers/austin_1brc.c" -o "$data/bin/austin" 2>>"$log" ||
  echo "session_device: austindonisan did not build ($log)"

row() { echo "$1,$2,$3,$4,$5,$commit,$device" | tee -a "$csv"; }
# timed WORKLOAD FILE [THRESHOLDS]: the session's figures, the CLI's and (stations) austindonisan's medians of 5.
timed() {
  cat "$2" >/dev/null
  PYTHONPATH=$build/python python3 scripts/session_timing.py --runs 5 "$1" "$2" ${3:+"$3"} 2>>"$log" |
    tail -n +2 | while IFS=, read -r figure seconds on file; do row "$1" "$(basename "$2")" "session-$on" "$figure" "$seconds"; done
  if [ "$1" = stations ]; then
    row "$1" "$(basename "$2")" cli whole_process "$(for r in 1 2 3 4 5; do wall_seconds "$exe" stations "$2"; done | median)"
    [ -x "$data/bin/austin" ] && row "$1" "$(basename "$2")" austindonisan whole_process \
      "$(for r in 1 2 3 4 5; do wall_seconds "$data/bin/austin" "$2" "$cores"; done | median)"
  else
    echo "the CLI's answer for $3 (the session's first answer is above): $("$exe" lineitem "$2" --suppkey-below "$3" | tr '\n' ' ')" >>"$log"
    row "$1" "$(basename "$2")" cli whole_process \
      "$(for r in 1 2 3 4 5; do wall_seconds "$exe" lineitem "$2" --suppkey-below "$3"; done | median)"
  fi
}

for part in "${parts[@]}"; do
  case $part in
    413 | 10000)
      file=$data/measurements-1e9-$part.txt
      [ -s "$file" ] || "$exe" generate measurements --rows 1000000000 --stations "$part" --seed 1 -o "$file"
      timed stations "$file"
      ;;
    lineitem)
      file=$data/lineitem-sf10.tbl
      [ -s "$file" ] || "$exe" generate lineitem --scale 10 --seed 1 -o "$file"
      timed lineitem "$file" 1000,5000,10000
      ;;
    *) echo "session_device: unknown part '$part'" >&2 ;;
  esac
done
cat "$csv"
