#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cpu preset and the installed package need CCCL's own headers and CMake package, not the CUDA
# toolkit (issue 29). This copies CCCL alone (include/cccl and its four CMake packages) into a scratch
# prefix, builds the cpu preset's library and CLI against that copy with the toolkit out of reach
# (CUDAToolkit_ROOT pointing at the copy, no CUDA directory on PATH), installs it, and builds the
# find_package(rowscan) consumer (tests/install_consumer) against the installed package. It fails if
# CCCL was found anywhere else, if a compile command names the toolkit, or if an answer is wrong.
#   scripts/cccl_only_check.sh      (CUDAToolkit_ROOT: where CCCL is copied from; default /usr/local/cuda)
set -euo pipefail
cd "$(dirname "$0")/.."
toolkit=${CUDAToolkit_ROOT:-/usr/local/cuda}
toolkit_real=$(readlink -f "$toolkit")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cccl=$work/cccl
mkdir -p "$cccl/include" "$cccl/lib/cmake"
cp -r "$toolkit/include/cccl" "$cccl/include/"
for package in cccl cub libcudacxx thrust; do cp -r "$toolkit/lib64/cmake/$package" "$cccl/lib/cmake/"; done

no_cuda_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -i cuda | paste -sd ':')
build=$work/build
PATH=$no_cuda_path cmake --preset cpu -B "$build" -DCUDAToolkit_ROOT="$cccl" -DCMAKE_PREFIX_PATH="$cccl" \
    -DROWSCAN_BUILD_TESTS=OFF -DROWSCAN_BUILD_SAMPLES=OFF > "$work/configure.log"
if ! grep -q "^CCCL_DIR:PATH=$cccl/" "$build/CMakeCache.txt"; then
  echo "cccl_only_check: CCCL was not found in the copy: $(grep '^CCCL_DIR' "$build/CMakeCache.txt")" >&2
  exit 1
fi
PATH=$no_cuda_path cmake --build "$build" > "$work/build.log"   # the CLI, its man page and completions
if grep -qF -e "$toolkit_real" -e "$toolkit/" "$build/compile_commands.json"; then
  echo "cccl_only_check: a compile command names the CUDA toolkit ($toolkit)" >&2
  exit 1
fi
"$build/app/rowscan" stations samples/measurements.txt | cmp - samples/measurements.out

cmake --install "$build" --prefix "$work/prefix" > /dev/null
PATH=$no_cuda_path cmake -S tests/install_consumer -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DCMAKE_PREFIX_PATH="$work/prefix" > /dev/null
PATH=$no_cuda_path cmake --build "$work/consumer" > /dev/null
if grep -qF -e "$toolkit_real" -e "$toolkit/" "$work/consumer/compile_commands.json" 2>/dev/null; then
  echo "cccl_only_check: the consumer's compile commands name the CUDA toolkit ($toolkit)" >&2
  exit 1
fi
"$work/consumer/consumer" samples/measurements.txt | cmp - samples/measurements.out
echo "cccl_only_check: the cpu preset and a find_package(rowscan) consumer built with CCCL alone, and answered the sample"
