#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What a line costs one host worker, in instructions: callgrind counts every instruction the
# stations job runs on a file, and this divides by the file's lines, for the whole program and for each
# function whose name holds one of the given words. The machines this project measures on give no
# hardware counters; an instruction count is exact and repeats, where a 2-core machine's timings swing.
# It does not say what is faster: check every change's time as well (docs/performance.md, "The host
# engine").
#
#   scripts/instructions_per_line.sh ROWSCAN FILE [WORD...]
#
# ROWSCAN is a rowscan binary (the cpu build, or the CUDA build's host engine: --devices cpu is given),
# FILE a stations file of a few million lines (callgrind runs about 50 times slower than the program),
# WORD a part of a function's name (default: fold_known_lines find_long_name). One worker, one thread:
#   instructions a line, whole program: 178.1
#   instructions a line, fold_known_lines: 160.3
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,/^set/p' "$0" | sed '$d' >&2
  exit 2
fi
rowscan=$1 file=$2
shift 2
words=("$@")
[ ${#words[@]} -gt 0 ] || words=(fold_known_lines find_long_name)
command -v valgrind >/dev/null || { echo "instructions_per_line: valgrind is not installed (Debian: valgrind)" >&2; exit 1; }
lines=$(wc -l < "$file")
[ "$lines" -gt 0 ] || { echo "instructions_per_line: $file has no lines" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
OMP_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file="$scratch/out" \
  "$rowscan" stations "$file" --devices cpu --threads 1 > /dev/null 2> "$scratch/log" ||
  { tail -n 5 "$scratch/log" >&2; exit 1; }
callgrind_annotate --threshold=100 "$scratch/out" > "$scratch/annotated" 2>/dev/null
# "1,234,567 (12.34%)  file:function(arguments) [object]": the count, then the name.
awk -v lines="$lines" -v words="${words[*]}" '
  BEGIN { n = split(words, w, " ") }
  /PROGRAM TOTALS/ { gsub(",", "", $1); printf "instructions a line, whole program: %.1f\n", $1 / lines }
  /^ *[0-9,]+ \(/ && !/PROGRAM TOTALS/ {
    count = $1; gsub(",", "", count)
    for (i = 1; i <= n; ++i) if (index($0, w[i]) > 0 && !seen[w[i]]++) printf "instructions a line, %s: %.1f\n", w[i], count / lines
  }' "$scratch/annotated"
