#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A list of files against the one file it was cut from, on a GPU machine with a built `cuda` preset:
# the 1e9-row, 413-station file whole, cut into 10 and into 100 files (`split -n l/N`) given as a
# directory, and austindonisan/1brc on the whole file; whole process, hot page cache, medians of 5
# with the runs interleaved, every answer compared; then the threads each rowscan run made
# (`strace -f -e trace=clone,clone3 -c`, or the most at once from /proc where strace is missing).
#
#   OUT=DIR scripts/file_list_device.sh PEERS [DEVICES...]   -> DIR/file_list.csv, DIR/file_list.log
#
# PEERS is a folder with austindonisan/1brc's 1brc.c as austin_1brc.c (built here, never committed).
# DEVICES are --devices values to time (default: auto). DATA_DIR (/tmp) holds the files, ROWSCAN the
# binary (build/cuda/app/rowscan).
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,/^set/p' "$0" | sed '$d' >&2; exit 2; }
peers=$(cd "$1" && pwd)
shift
devices=("$@")
[ ${#devices[@]} -gt 0 ] || devices=(auto)
out=${OUT:-build/cuda/file_list}
data=${DATA_DIR:-/tmp}
exe=$(realpath "${ROWSCAN:-build/cuda/app/rowscan}")
cores=$(nproc)
mkdir -p "$out" "$data/bin"
csv="$out/file_list.csv" log="$out/file_list.log"
commit=${COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}
# Quoted: the field holds a comma.
device="\"$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ',' ' '), $cores cores\""
source scripts/wall_time.sh   # wall_seconds, median

gcc -std=c17 -march=native -Ofast -pthread "$peers/austin_1brc.c" -o "$data/bin/austin" 2>"$out/build-peers.log" ||
  echo "file_list: austindonisan did not build (build-peers.log)"
file=$data/measurements-1e9-413.txt
[ -s "$file" ] || "$exe" generate measurements --rows 1000000000 --stations 413 --seed 1 -o "$file"
for n in 10 100; do
  dir=$data/list-$n
  # Cut again unless a whole earlier cut is there (an interrupted one leaves fewer files).
  [ "$(find "$dir" -name 'part-*' 2>/dev/null | wc -l)" -eq "$n" ] ||
    { rm -rf "$dir" && mkdir -p "$dir" && (cd "$dir" && split -n l/$n -d -a 3 "$file" part-); }
done
cat "$file" "$data"/list-10/* "$data"/list-100/* >/dev/null

inputs=("$file" "$data/list-10" "$data/list-100")
[ -s "$csv" ] || echo "program,devices,input,runs,median_s,commit,date,device" > "$csv"
want=$("$exe" stations --no-progress "$file" | md5sum)
for d in "${devices[@]}"; do
  for input in "${inputs[@]}"; do
    got=$("$exe" stations --no-progress --devices "$d" "$input" | md5sum)
    [ "$got" = "$want" ] || echo "file_list: --devices $d $input: a different answer" | tee -a "$log"
  done
done
declare -A times
for run in 1 2 3 4 5; do
  for d in "${devices[@]}"; do
    for input in "${inputs[@]}"; do
      times["rowscan $d $(basename "$input")"]+="$(wall_seconds "$exe" stations --no-progress --devices "$d" "$input") "
    done
  done
  times["austindonisan $cores $(basename "$file")"]+="$(wall_seconds "$data/bin/austin" "$file" "$cores") "
done
for key in "${!times[@]}"; do
  read -r program devs input <<<"$key"
  m=$(tr ' ' '\n' <<<"${times[$key]}" | grep . | median)
  echo "$program,$devs,$input,5,$m,$commit,$(date -u +%F),$device" | tee -a "$csv"
done
# most_threads COMMAND...: the most threads COMMAND had at once, read from /proc every millisecond (where
# strace is not installed: it counts the threads made, which this bounds from below).
most_threads() {
  "$@" >/dev/null 2>&1 &
  local pid=$! most=0 now
  while kill -0 "$pid" 2>/dev/null; do
    # The command and its children: the CLI may answer from a forked child.
    now=$(for p in "$pid" $(pgrep -P "$pid"); do awk '/^Threads:/ {print $2}' "/proc/$p/status" 2>/dev/null; done |
      awk '{n += $1} END {print n + 0}')
    [ -n "$now" ] && [ "$now" -gt "$most" ] && most=$now
    sleep 0.001
  done
  wait "$pid"
  echo "$most"
}
for d in "${devices[@]}"; do
  for input in "${inputs[@]}"; do
    if command -v strace >/dev/null; then
      strace -f -e trace=clone,clone3 -c -o "$out/strace.txt" "$exe" stations --no-progress --devices "$d" "$input" >/dev/null
      echo "threads made: --devices $d $(basename "$input"): $(awk '/total/ {print $4}' "$out/strace.txt")" | tee -a "$log"
    else
      echo "threads at once (most): --devices $d $(basename "$input"): $(most_threads "$exe" stations --no-progress --devices "$d" "$input")" | tee -a "$log"
    fi
  done
done
