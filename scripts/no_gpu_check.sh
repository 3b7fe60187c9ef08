#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The CUDA build where no GPU is usable (CI's machines; or CUDA_VISIBLE_DEVICES=""), against the cpu build:
#
#   scripts/no_gpu_check.sh CUDA_ROWSCAN CPU_ROWSCAN
#
# For the bundled sample, a generated input above the small-input size (so --devices auto probes the
# GPU), a bad input and --skip-invalid, both workloads: the CUDA binary's stdout, stderr and exit code
# under --devices auto and cpu equal the cpu binary's; --devices gpu exits 1 with one error line.
set -euo pipefail
cd "$(dirname "$0")/.."
cuda=$1 cpu=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CUDA_VISIBLE_DEVICES=""   # no device even where a GPU exists
failed=0

"$cpu" generate measurements --rows 2000000 --stations 2000 --seed 3 -o "$work/large.txt"   # ~28 MB
printf 'a;1.0\nb;oops\nc;3.0\n' > "$work/bad.txt"
"$cpu" generate lineitem --scale 0.001 -o "$work/lineitem.tbl"

# same ARGS...: the two binaries agree byte for byte on ARGS (with --devices auto, cpu and cpu+gpu on the CUDA one).
same() {
  local expected_code=0
  "$cpu" "$@" > "$work/cpu.out" 2> "$work/cpu.err" || expected_code=$?
  for devices in auto cpu cpu+gpu; do
    local code=0
    # OMP_NUM_THREADS=1 makes --devices auto consider a 28 MB input large: it probes the GPU.
    OMP_NUM_THREADS=1 "$cuda" "$@" --devices $devices > "$work/cuda.out" 2> "$work/cuda.err" || code=$?
    if [ "$code" != "$expected_code" ] || ! cmp -s "$work/cpu.out" "$work/cuda.out" || ! cmp -s "$work/cpu.err" "$work/cuda.err"; then
      echo "no_gpu_check: differs from the cpu build: $* --devices $devices (exit $code, expected $expected_code)" >&2
      diff "$work/cpu.err" "$work/cuda.err" >&2 || true
      failed=1
    fi
  done
}

same stations samples/measurements.txt
same stations "$work/large.txt" --format json
same stations "$work/bad.txt"
same stations "$work/bad.txt" --skip-invalid
same lineitem "$work/lineitem.tbl" --suppkey-below 5,50

code=0
"$cuda" stations samples/measurements.txt --devices gpu > /dev/null 2> "$work/gpu.err" || code=$?
if [ "$code" != 1 ] || [ "$(wc -l < "$work/gpu.err")" != 1 ] || ! grep -q '^rowscan: error: no usable GPU: ' "$work/gpu.err"; then
  echo "no_gpu_check: --devices gpu without a GPU gave exit $code and: $(cat "$work/gpu.err")" >&2
  failed=1
fi
[ "$failed" = 0 ] && echo "no_gpu_check: the CUDA binary without a GPU answers as the cpu build does"
exit "$failed"
