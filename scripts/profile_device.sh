#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Nsight Compute's counters for docs/reduction.md's "Profiling" section, on a GPU machine with a built
# `cuda` preset:
#
#   OUT=DIR scripts/profile_device.sh   -> DIR/ncu-ladder.csv, DIR/ncu-stations.csv (ncu --csv, raw)
#
# ladder:   the reduction ladder's hand-written kernels (rungs 1-7, BlockReduce, atomicAdd) on 64 MiB
#           of uint32 (samples/reduction/reduction_ladder --size 16777216 --repeat 1)
# stations: every kernel of `rowscan stations --devices gpu` on 1e7 lines of 413 stations: the fast path
#           (find + parse, the 16-bit radix sort, the segmented reduce) and the first block's general path
# The counters: time, DRAM bytes read, threads active per warp instruction (32 = no divergence),
# divergent branch targets, shared-memory bank conflicts and shared load/store instructions, achieved
# occupancy; `--page raw` adds the launch's attributes (registers, block, grid) and the theoretical
# occupancy (sm__maximum_warps_per_active_cycle_pct) by itself. A counter this ncu does not know is left
# out (the list it knows is saved as DIR/ncu-metrics-known.txt). `--clock-control none`
# leaves the clocks as they are (the device notes ask for it).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-build/cuda/profile}
data=${DATA_DIR:-/tmp}
mkdir -p "$out"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "profile_device.sh: no ncu on this machine" >&2; exit 1; }
"$ncu" --version | tail -1 | tee "$out/ncu-version.txt"

wanted=(gpu__time_duration.sum dram__bytes_read.sum
        smsp__thread_inst_executed_per_inst_executed.ratio smsp__sass_branch_targets_threads_divergent.sum
        smsp__sass_branch_targets.sum
        l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
        l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
        smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum
        sm__warps_active.avg.pct_of_peak_sustained_active smsp__inst_executed.sum
        dram__throughput.avg.pct_of_peak_sustained_elapsed)
"$ncu" --query-metrics --chip gh100 > "$out/ncu-metrics-known.txt" 2>&1 || true
metrics=()
for m in "${wanted[@]}"; do
  if grep -q "^${m%%.*}\b" "$out/ncu-metrics-known.txt"; then metrics+=("$m"); else echo "not known: $m"; fi
done
list=$(IFS=,; echo "${metrics[*]}")

profile() {  # profile NAME KERNEL_REGEX COMMAND...
  local name=$1 kernels=$2
  shift 2
  echo "== ncu $name: $*"
  local filter=()
  [ -n "$kernels" ] && filter=(-k "regex:$kernels")
  timeout 280 "$ncu" --clock-control none --csv --page raw --metrics "$list" "${filter[@]}" "$@" \
      > "$out/ncu-$name.csv" 2> "$out/ncu-$name.log"
  echo "rc $? ($(wc -l < "$out/ncu-$name.csv") lines)"
  tail -3 "$out/ncu-$name.log"
}

profile ladder 'reduce[1-7]_|reduce_with_block_reduce|reduce_atomic' \
    build/cuda/samples/reduction_ladder --size 16777216 --repeat 1

stations_file="$data/profile-measurements-1e7-413.txt"
build/cuda/app/rowscan generate measurements --rows 10000000 --stations 413 --seed 1 -o "$stations_file"
profile stations '' build/cuda/app/rowscan stations --devices gpu "$stations_file"
