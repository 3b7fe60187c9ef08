#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The `output` stage of `rowscan stations --stats` on the CPU build, with OpenMP's default wait policy,
# with OMP_WAIT_POLICY=passive, and with one thread (docs/stations.md, "6. Output"):
#
#   scripts/output_stage_cpu.sh BUILD_DIR OUT_CSV [ROWS]   (ROWS default 1e7, 413 stations, seed 7)
#
# Each setting runs 5 times; the row holds the median, the least and the most of the `output` line and
# the median of the `total` line. Every row
# gets the commit (COMMIT, or git's HEAD) and the date of the run. The input goes to DATA_DIR (/tmp).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/output_stage_cpu.sh BUILD_DIR OUT_CSV [ROWS]}
out=${2:?usage: scripts/output_stage_cpu.sh BUILD_DIR OUT_CSV [ROWS]}
rows=${3:-10000000}
data=${DATA_DIR:-/tmp}
commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
input="$data/output-stage-$rows.txt"
"$build/app/rowscan" generate measurements --rows "$rows" --stations 413 --seed 7 -o "$input"
bytes=$(stat -c %s "$input")
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "sample,device,variant,items,bytes,output_ms,output_ms_least,output_ms_most,total_ms,commit,date" > "$out"
run() {  # run VARIANT THREADS ENV...
  local variant=$1 threads=$2
  shift 2
  local outputs=() totals=()
  for _ in 1 2 3 4 5; do
    local stats
    stats=$(env OMP_NUM_THREADS="$threads" "$@" "$build/app/rowscan" stations "$input" --stats --no-progress 2>&1 >/dev/null)
    outputs+=("$(awk '$1 == "output" {print $2}' <<< "$stats")")
    totals+=("$(awk '$1 == "total" {print $2}' <<< "$stats")")
  done
  echo "stations_stats,CPU OMP $threads threads,$variant,$rows,$bytes,$(printf '%s\n' "${outputs[@]}" | median),$(printf '%s\n' "${outputs[@]}" | sort -g | head -1),$(printf '%s\n' "${outputs[@]}" | sort -g | tail -1),$(printf '%s\n' "${totals[@]}" | median),$commit,$date" >> "$out"
}
run omp_wait_policy_default 2
run omp_wait_policy_passive 2 OMP_WAIT_POLICY=passive
run one_thread 1
rm -f "$input"
cat "$out"
