#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages a command needs, if any are missing, and checks that CMake can find CCCL.
#   scripts/bootstrap.sh                 the build, the CLI and the tests (both README commands):
#                                        cmake ninja-build g++ libcxxopts-dev libgtest-dev libgmock-dev
#                                        python3 (the man page, the completions, the python tests)
#                                        zlib1g-dev libzstd-dev (compressed input)
#   scripts/bootstrap.sh --mpi           also libopenmpi-dev openmpi-bin: the CLI's MPI ranks and the mpi tests
#   scripts/bootstrap.sh --python        also python3-dev pybind11-dev: the Python module rowscan (docs/python.md)
#   scripts/bootstrap.sh --ci            what .ci/run needs: --mpi's and --python's packages and clang-tidy
#                                        (scripts/clang_tidy.sh)
#   scripts/bootstrap.sh --benchmarks    also libbenchmark-dev, for -DROWSCAN_BUILD_BENCHMARKS=ON
#   scripts/bootstrap.sh --charts        also gnuplot-nox, for scripts/charts.sh
# Flags combine. CCCL 3 (Thrust, CUB, libcu++) is no Debian package: it is found, as CMake finds it, in
# CCCL_DIR (its lib/cmake/cccl), in a prefix of CMAKE_PREFIX_PATH, or in the CUDA toolkit (CUDAToolkit_ROOT,
# else /usr/local/cuda). The cpu preset needs CCCL alone; the cuda preset needs the toolkit.
set -euo pipefail
packages=(cmake ninja-build g++ libcxxopts-dev libgtest-dev libgmock-dev python3 zlib1g-dev libzstd-dev)
for flag in "$@"; do
  case $flag in
    --mpi) packages+=(libopenmpi-dev openmpi-bin) ;;
    --python) packages+=(python3-dev pybind11-dev) ;;
    --ci) packages+=(libopenmpi-dev openmpi-bin python3-dev pybind11-dev clang-tidy) ;;
    --benchmarks) packages+=(libbenchmark-dev) ;;
    --charts) packages+=(gnuplot-nox) ;;
    *) echo "usage: scripts/bootstrap.sh [--mpi] [--python] [--ci] [--benchmarks] [--charts]" >&2; exit 2 ;;
  esac
done
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

# Where find_package(CCCL) looks (CMakeLists.txt): CCCL_DIR, then each CMAKE_PREFIX_PATH prefix, then the toolkit.
candidates=()
[ -n "${CCCL_DIR:-}" ] && candidates+=("$CCCL_DIR")
IFS=':' read -r -a prefixes <<< "${CMAKE_PREFIX_PATH:-}"
for prefix in "${prefixes[@]}"; do
  [ -n "$prefix" ] && candidates+=("$prefix/lib/cmake/cccl" "$prefix/lib64/cmake/cccl" "$prefix/share/cccl/cmake")
done
for toolkit in "${CUDAToolkit_ROOT:-}" /usr/local/cuda; do
  [ -n "$toolkit" ] && candidates+=("$toolkit/lib64/cmake/cccl" "$toolkit/lib/cmake/cccl")
done
for dir in "${candidates[@]}"; do
  if [ -f "$dir/cccl-config.cmake" ] || [ -f "$dir/CCCLConfig.cmake" ]; then
    exit 0
  fi
done
echo "bootstrap: CCCL not found: set CMAKE_PREFIX_PATH to the prefix CCCL 3 is installed in (or CCCL_DIR to its" \
     "lib/cmake/cccl), or install the CUDA toolkit 13 (/usr/local/cuda, or set CUDAToolkit_ROOT)" >&2
exit 1
