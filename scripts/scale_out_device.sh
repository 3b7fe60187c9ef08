#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Scale-out measurements on the device machine (docs/scale-out.md):
#   scripts/scale_out_device.sh OUT [ROWS]
# Builds the cuda preset with benchmarks (scripts/device_build.sh), runs the merge of 10,000-station
# partials, then, where mpirun exists (Open MPI on PATH, or unpacked with OPAL_PREFIX set), 1 and 2 ranks
# with --stats on ROWS generated rows (default 1e9) of 10,000 stations, 3 runs each, all into OUT.
set -euo pipefail
out=${1:?usage: scripts/scale_out_device.sh OUT [ROWS]}
rows=${2:-1000000000}
mkdir -p "$out"
scripts/device_build.sh > "$out/build.log" 2>&1
build/cuda/benchmarks/rowscan_merge_partials | tee "$out/merge_partials.txt"
MALLOC_MMAP_THRESHOLD_=8000000 MALLOC_TRIM_THRESHOLD_=64000000 build/cuda/benchmarks/rowscan_merge_partials \
  | tee "$out/merge_partials_kept_memory.txt"
if ! command -v mpirun >/dev/null 2>&1; then
  echo "scale_out_device: no mpirun: the rank runs are skipped" | tee "$out/ranks.txt"
  exit 0
fi
data=/tmp/rowscan-scale-out.txt
[ -f "$data" ] || build/cuda/app/rowscan generate measurements --rows "$rows" --stations 10000 -o "$data"
cat "$data" > /dev/null  # in the page cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
for ranks in 1 2; do
  for run in 1 2 3; do
    /usr/bin/time -f "ranks $ranks run $run: %e s wall" mpirun -np "$ranks" --bind-to none \
      build/cuda/app/rowscan stations "$data" --stats > "$out/answer_$ranks.txt" 2>> "$out/ranks_$ranks.txt"
  done
done
cmp "$out/answer_1.txt" "$out/answer_2.txt" && echo "1 and 2 ranks: identical answers" | tee -a "$out/ranks.txt"
grep -h "wall\|merge of\|rank [0-9]" "$out"/ranks_*.txt | tee -a "$out/ranks.txt"
