#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages rowscan builds with, if any are missing. The CUDA toolkit (for CCCL and,
# optionally, nvcc) is expected at /usr/local/cuda; the CPU build needs only its headers.
#   scripts/bootstrap.sh            what the build, the tests and CI need (python3: the docs.snippets_current,
#                                   cli.json_output and cli.help tests; zlib and zstd: compressed input;
#                                   clang-tidy: scripts/clang_tidy.sh; Open MPI: the CLI's MPI ranks and their tests)
#   scripts/bootstrap.sh --charts   also gnuplot-nox, for scripts/charts.sh (not needed by CI)
set -euo pipefail
packages=(cmake ninja-build g++ libcxxopts-dev libgtest-dev libgmock-dev libbenchmark-dev python3 zlib1g-dev libzstd-dev clang-tidy libopenmpi-dev openmpi-bin)
if [ "${1:-}" = "--charts" ]; then
  packages+=(gnuplot-nox)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
if [ ! -d /usr/local/cuda/include/cccl ] && [ ! -d "${CUDAToolkit_ROOT:-/nonexistent}/include/cccl" ]; then
  echo "bootstrap: CCCL not found: install the CUDA toolkit 13 (or set CUDAToolkit_ROOT)" >&2
  exit 1
fi
