#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What ptxas reports for a sample's own kernels (registers, spills, shared memory), demangled: the
# `ptxas -v` text that docs/occupancy.md quotes. Needs nvcc, not a GPU.
#
#   scripts/ptxas_report.sh SAMPLE.cu [ARCH] > FILE   (ARCH default sm_90)
#   scripts/ptxas_report.sh samples/occupancy/occupancy.cu > samples/occupancy/ptxas-sm90.txt
#
# Only the sample's kernels are kept (those in its anonymous namespace), not Thrust's or CUB's.
set -euo pipefail
cd "$(dirname "$0")/.."
source=${1:?usage: scripts/ptxas_report.sh SAMPLE.cu [ARCH]}
arch=${2:-sm_90}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
filt=$(command -v c++filt || echo "$(dirname "$nvcc")/cu++filt")  # the names are Itanium-mangled
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$nvcc" -arch="$arch" -std=c++17 -O3 -DNDEBUG -DROWSCAN_VERSION=\"report\" \
  -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA -Ialgorithms --expt-relaxed-constexpr -Xptxas -v \
  -c "$source" -o /dev/null > "$log" 2>&1
echo "\$ nvcc -arch=$arch -O3 -Xptxas -v -c $source   ($("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), the sample's kernels only)"
awk '/Compiling entry function .*_GLOBAL__N_/ {keep = 3; print; next} keep > 0 {print; keep--}' "$log" |
  sed -e "s/^ptxas info    : //" |
  while IFS= read -r line; do
    name=$(grep -o "_Z[A-Za-z0-9_]*" <<< "$line" | head -1 || true)
    if [ -n "$name" ]; then line=${line//"$name"/$("$filt" "$name")}; fi
    echo "$line"
  done | grep -v "Compile time"
