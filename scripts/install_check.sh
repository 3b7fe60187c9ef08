#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs a build tree into a scratch prefix, checks what was installed, and builds the tiny consumer
# project (tests/install_consumer) against it with find_package(rowscan); the consumer must print the
# bundled sample's answer. CI runs it on the cpu build tree.
#   scripts/install_check.sh [BUILD_DIR]     (default: build/cpu, already built)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/cpu}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/rowscan include/rowscan/stations/summarize.hpp include/rowscan/engine.hpp lib/librowscan_core.a lib/librowscan_algorithms.a \
         lib/cmake/rowscan/rowscanConfig.cmake lib/cmake/rowscan/rowscanConfigVersion.cmake \
         lib/cmake/rowscan/rowscanTargets.cmake share/doc/rowscan/LICENSE share/doc/rowscan/docs/scale-out.md share/man/man1/rowscan.1 \
         share/bash-completion/completions/rowscan share/zsh/site-functions/_rowscan; do
  [ -e "$prefix/$f" ] || { echo "install_check: $f was not installed" >&2; exit 1; }
done
if grep -rqE "(find_dependency|find_package)\(cxxopts|cxxopts::" "$prefix/lib/cmake/rowscan"; then
  echo "install_check: the package configuration asks for cxxopts, which only the CLI needs" >&2
  exit 1
fi
"$prefix/bin/rowscan" --version >/dev/null
# The Python module, where the build made it: imported from the prefix, it answers the sample.
for package in "$prefix"/lib/python3*/site-packages/rowscan; do
  [ -f "$package/__init__.py" ] || continue
  PYTHONPATH=$(dirname "$package") python3 -c 'import rowscan, sys; sys.stdout.write(str(rowscan.Session(devices="cpu").stations(sys.argv[1])))' \
    samples/measurements.txt | cmp - samples/measurements.out
done

cmake -S tests/install_consumer -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" -DCUDAToolkit_ROOT="${CUDAToolkit_ROOT:-/usr/local/cuda}" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer" samples/measurements.txt | cmp - samples/measurements.out
echo "install_check: installed to a scratch prefix; find_package(rowscan) consumer built and answered the sample"
