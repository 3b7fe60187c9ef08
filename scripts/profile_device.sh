#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Nsight Compute's counters for docs/reduction.md's "Profiling" section and for each stage of both
# workloads, and an Nsight Systems trace of one stations run, on a GPU machine with a built `cuda` preset:
#
#   OUT=DIR scripts/profile_device.sh                           -> every part below (about 5 minutes)
#   OUT=DIR PROFILES="lineitem nsys" scripts/profile_device.sh  -> only those parts
#
# PROFILES names the parts (default "ladder stations lineitem nsys"); each writes into DIR:
# ladder:   ncu-ladder.csv: the reduction ladder's hand-written kernels (rungs 1-7, BlockReduce,
#           atomicAdd) on 64 MiB of uint32 (samples/reduction/reduction_ladder --size 16777216 --repeat 1)
# stations: ncu-stations.csv, ncu-stations-nvtx.csv: every kernel of `rowscan stations --devices gpu` on
#           1e7 lines of 413 stations (140.8 MB: two 64 MiB blocks and a short one): the first block's
#           general path, then the fast path (find + parse, the 16-bit radix sort, the segmented reduce)
# lineitem: ncu-lineitem.csv, ncu-lineitem-nvtx.csv: every kernel of `rowscan lineitem --devices gpu
#           --suppkey-below 5000 --chunk-size 64M` on a generated scale-0.2 lineitem.tbl (149.4 MB: two
#           64 MiB blocks and a short one; scale 1 would be 760 MB and 12 blocks of replays)
# nsys:     nsys-stations-gpu-trace.csv, nsys-stations-nvtx.csv: Nsight Systems over the stations run
#           above: every kernel, memset and copy on the GPU with its start and duration (`nsys stats
#           --report cuda_gpu_trace`), and the NVTX stages projected onto the GPU's timeline
#           (nvtx_gpu_proj_trace), for the gaps between launches (scripts/nsys_gaps.py)
# nsys-lineitem (not in the default): the same two files for the lineitem run
# startup (not in the default): nsys-startup-api-trace.csv and nsys-startup-gpu-trace.csv: the same stations
#           run on 1e8 lines of 10,000 stations (1.9 GB), every CUDA call of the host with its start and
#           duration (`cuda_api_trace`: the context, pinned memory, allocations, module loads, waits) beside
#           the GPU's work, for where a run's time goes between the context and its first block folded
# and always profile.log: the tools' versions, each command's exit status, time and last lines of output.
# At most 8 files, each small: what the device machine sends back. Reports and inputs stay in DATA_DIR.
#
# Each ncu part profiles into a report (DATA_DIR/ncu-NAME.ncu-rep) with --nvtx and prints it twice:
# ncu-NAME.csv (ncu --csv --page raw, base units) and ncu-NAME-nvtx.csv, the same with every kernel
# named for its innermost NVTX range (--print-nvtx-rename kernel): the `--stats` stage that launched it
# (rowscan/stage.hpp). scripts/ncu_summary.py joins the two by launch ID.
# The counters: time, DRAM bytes read and written, DRAM / memory / SM throughput as % of peak
# (ncu's Speed Of Light), threads active per warp instruction (32 = no divergence), divergent branch
# targets, shared-memory bank conflicts and shared load/store instructions, achieved occupancy;
# `--page raw` adds the launch's attributes (registers, block, grid) and the theoretical occupancy
# (sm__maximum_warps_per_active_cycle_pct) by itself. A counter this ncu does not know is left out (the
# list it knows is saved as DATA_DIR/ncu-metrics-known.txt). `--clock-control none` leaves the clocks as
# they are (the device notes ask for it).
#   DATA_DIR=/tmp  ROWSCAN=build/cuda/app/rowscan  PROFILE_TIMEOUT=240 (seconds, each profiled run)
set -uo pipefail
# Every profiled run is this process, not a child forked to outlive the answer (process/answer_first.hpp):
# Nsight Systems does not follow a fork without an exec.
export ROWSCAN_ANSWER_FIRST=0
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-build/cuda/profile}
data=${DATA_DIR:-/tmp}
exe=${ROWSCAN:-build/cuda/app/rowscan}
limit=${PROFILE_TIMEOUT:-240}
parts=" ${PROFILES:-ladder stations lineitem nsys} "
mkdir -p "$out" "$data"
log="$out/profile.log"
: > "$log"
note() { echo "$*" | tee -a "$log"; }
wanted() { [[ $parts == *" $1 "* ]]; }
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader || true; } 2>&1 |
  tee -a "$log"

stations_file="$data/profile-measurements-1e7-413.txt"
if wanted stations || wanted nsys; then
  [ -s "$stations_file" ] ||
    "$exe" generate measurements --rows 10000000 --stations 413 --seed 1 -o "$stations_file"
  cat "$stations_file" > /dev/null  # in the page cache, as the other measurements
fi
lineitem_file="$data/profile-lineitem-sf0.2.tbl"
if wanted lineitem || wanted nsys-lineitem; then
  [ -s "$lineitem_file" ] || "$exe" generate lineitem --scale 0.2 --seed 1 -o "$lineitem_file"
  cat "$lineitem_file" > /dev/null
fi
stations_run=("$exe" stations --devices gpu "$stations_file")
startup_file="$data/profile-measurements-1e8-10000.txt"
if wanted startup; then
  [ -s "$startup_file" ] ||
    "$exe" generate measurements --rows 100000000 --stations 10000 --seed 1 -o "$startup_file"
  cat "$startup_file" > /dev/null
fi
lineitem_run=("$exe" lineitem --devices gpu --suppkey-below 5000 --chunk-size 64M "$lineitem_file")
for f in "$stations_file" "$lineitem_file"; do [ -f "$f" ] && note "input $(stat -c %s "$f") bytes: $f"; done

if wanted ladder || wanted stations || wanted lineitem; then
  ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  [ -n "$ncu" ] || { note "profile_device.sh: no ncu on this machine"; exit 1; }
  "$ncu" --version | tail -1 | tee -a "$log"
  wanted_metrics=(gpu__time_duration.sum dram__bytes_read.sum dram__bytes_write.sum
          smsp__thread_inst_executed_per_inst_executed.ratio smsp__sass_branch_targets_threads_divergent.sum
          smsp__sass_branch_targets.sum
          l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
          l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
          smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum
          sm__warps_active.avg.pct_of_peak_sustained_active smsp__inst_executed.sum
          dram__throughput.avg.pct_of_peak_sustained_elapsed
          gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
          sm__throughput.avg.pct_of_peak_sustained_elapsed)
  "$ncu" --query-metrics --chip gh100 > "$data/ncu-metrics-known.txt" 2>&1 || true
  metrics=()
  for m in "${wanted_metrics[@]}"; do
    if grep -q "^${m%%.*}\b" "$data/ncu-metrics-known.txt"; then metrics+=("$m"); else note "not known: $m"; fi
  done
  list=$(IFS=,; echo "${metrics[*]}")
fi

ncu_profile() {  # ncu_profile NAME KERNEL_REGEX NVTX(yes|no) COMMAND...
  local name=$1 kernels=$2 nvtx=$3 rep="$data/ncu-$1" start=$SECONDS rc
  shift 3
  note "== ncu $name: $*"
  local filter=()
  [ -n "$kernels" ] && filter=(-k "regex:$kernels")
  rm -f "$rep.ncu-rep"
  timeout "$limit" "$ncu" --clock-control none --nvtx --metrics "$list" "${filter[@]}" -o "$rep" "$@" \
      > "$data/ncu-$name.out" 2>&1
  rc=$?
  note "rc $rc in $((SECONDS - start)) s"
  tail -3 "$data/ncu-$name.out" | tee -a "$log"
  [ -f "$rep.ncu-rep" ] || { note "no report: $rep.ncu-rep"; return; }
  "$ncu" --import "$rep.ncu-rep" --csv --page raw --print-units base > "$out/ncu-$name.csv" 2>> "$log"
  note "ncu-$name.csv: $(($(wc -l < "$out/ncu-$name.csv") - 2)) launches"
  if [ "$nvtx" = yes ]; then
    "$ncu" --import "$rep.ncu-rep" --csv --page raw --print-units base --print-nvtx-rename kernel \
        > "$out/ncu-$name-nvtx.csv" 2>> "$log"
  fi
}

wanted ladder && ncu_profile ladder 'reduce[1-7]_|reduce_with_block_reduce|reduce_atomic' no \
    build/cuda/samples/reduction_ladder --size 16777216 --repeat 1
wanted stations && ncu_profile stations '' yes "${stations_run[@]}"
wanted lineitem && ncu_profile lineitem '' yes "${lineitem_run[@]}"

nsys_profile() {  # nsys_profile NAME COMMAND...
  local name=$1 rep="$data/nsys-$1" start=$SECONDS rc
  shift
  note "== nsys $name: $*"
  rm -f "$rep".nsys-rep "$rep".qdrep "$rep".sqlite
  # CUDA and NVTX only: no CPU sampling or context switches, the least the trace itself adds between launches.
  timeout "$limit" "$nsys" profile --trace=cuda,nvtx --sample=none --cpuctxsw=none --force-overwrite=true \
      -o "$rep" "$@" > "$data/nsys-$name.out" 2>&1
  rc=$?
  note "rc $rc in $((SECONDS - start)) s"
  tail -3 "$data/nsys-$name.out" | tee -a "$log"
  local report
  report=$(ls "$rep".nsys-rep "$rep".qdrep 2>/dev/null | head -1)
  [ -n "$report" ] || { note "no report: $rep.nsys-rep"; return; }
  "$nsys" stats --force-export=true --report cuda_gpu_trace --format csv --output - "$report" \
      > "$out/nsys-$name-gpu-trace.csv" 2>> "$log"
  note "nsys-$name-gpu-trace.csv: rc $?, $(wc -l < "$out/nsys-$name-gpu-trace.csv") lines"
  "$nsys" stats --report nvtx_gpu_proj_trace --format csv --output - "$report" \
      > "$out/nsys-$name-nvtx.csv" 2>> "$log"
  note "nsys-$name-nvtx.csv: rc $?, $(wc -l < "$out/nsys-$name-nvtx.csv") lines"
}

# startup_trace: the start-up's trace (the `startup` part above).
startup_trace() {
  local rep="$data/nsys-startup" start=$SECONDS
  note "== nsys startup: $exe stations --devices gpu $startup_file"
  rm -f "$rep".nsys-rep
  timeout "$limit" "$nsys" profile --trace=cuda,nvtx,osrt --sample=none --cpuctxsw=none --force-overwrite=true \
      -o "$rep" "$exe" stations --devices gpu --stats "$startup_file" > "$data/nsys-startup.out" 2>&1
  note "rc $? in $((SECONDS - start)) s"
  [ -s "$rep".nsys-rep ] || { note "no report: $rep.nsys-rep"; return; }
  local kind file
  for kind in api gpu; do
    file="$out/nsys-startup-$kind-trace.csv"
    "$nsys" stats --force-export=true --report "cuda_${kind}_trace" --format csv --output - "$rep".nsys-rep 2>> "$log" |
      head -20000 > "$file"  # the first 20,000 calls: the start-up and the first blocks
    note "$(basename "$file"): $(wc -l < "$file") lines"
  done
}

if wanted nsys || wanted nsys-lineitem || wanted startup; then
  nsys=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys \
         /usr/local/cuda/nsight-systems-*/bin/nsys 2>/dev/null | head -1)
  if [ -z "$nsys" ]; then
    note "profile_device.sh: no nsys on this machine (PATH, /usr/local/cuda/bin, /opt/nvidia/nsight-systems): no trace"
  else
    "$nsys" --version 2>&1 | tail -1 | tee -a "$log"
    wanted nsys && nsys_profile stations "${stations_run[@]}"
    wanted nsys-lineitem && nsys_profile lineitem "${lineitem_run[@]}"
    wanted startup && startup_trace
  fi
fi
note "files in $out: $(cd "$out" && ls | tr '\n' ' ')"
