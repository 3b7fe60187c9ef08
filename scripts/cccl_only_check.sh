#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's CPU-only path: the cpu preset and the installed package need CCCL's own headers and CMake
# package, not the CUDA toolkit. This copies CCCL alone (include/cccl and its four CMake packages) out of
# the toolkit, hides the toolkit, and runs README command 1 as written with CMAKE_PREFIX_PATH naming the
# copy (scripts/bootstrap.sh, cmake --preset cpu, the rowscan target, the bundled sample), then
# `cmake --install` into a scratch prefix and the find_package(rowscan) consumer (tests/install_consumer)
# against the installed package.
#   scripts/cccl_only_check.sh              in a scratch copy of the sources; this tree is left alone
#   scripts/cccl_only_check.sh --in-place   in this tree (CI, on a clean clone): CCCL is copied to
#                                           build/cccl, and build/cpu stays configured against it for
#                                           the steps after this one
# CUDAToolkit_ROOT says where CCCL is copied from (default /usr/local/cuda). The toolkit is hidden where
# this can make a mount namespace (root, or unprivileged user namespaces): an empty directory is mounted
# over it, as on a machine that never had it. Elsewhere it stays in place, and only no CUDA directory on
# PATH and the checks below keep it out of reach. Either way it fails if CCCL was found anywhere but the
# copy, if a compile command names the toolkit, if the install lacks a file, or if an answer is wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
toolkit=${CUDAToolkit_ROOT:-/usr/local/cuda}
toolkit_real=$(readlink -f "$toolkit")

if [ "${1:-}" != "--inside" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/empty"
  if [ "${1:-}" = "--in-place" ]; then
    if [ -e build/cpu ]; then
      echo "cccl_only_check: --in-place is for a clean clone, and build/cpu exists (CMake keeps the CCCL it found)" >&2
      exit 2
    fi
    src=$PWD
    cccl=$PWD/build/cccl
    rm -rf "$cccl"
  elif [ $# -eq 0 ]; then
    src=$work/src
    cccl=$work/cccl
    # The sources as a clone has them (tracked files, and new ones not yet committed), without build trees.
    mkdir -p "$src"
    git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
      [ -e "$f" ] && printf '%s\0' "$f"
    done | tar -c --null -T - | tar -x -C "$src"
  else
    echo "usage: scripts/cccl_only_check.sh [--in-place]" >&2
    exit 2
  fi
  mkdir -p "$cccl/include" "$cccl/lib/cmake"
  cp -r "$toolkit/include/cccl" "$cccl/include/"
  for package in cccl cub libcudacxx thrust; do cp -r "$toolkit/lib64/cmake/$package" "$cccl/lib/cmake/"; done
  no_cuda_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -i cuda | paste -sd ':')
  run=(env -u CCCL_DIR -u CUDAToolkit_ROOT "PATH=$no_cuda_path" "CMAKE_PREFIX_PATH=$cccl"
       "$PWD/scripts/cccl_only_check.sh" --inside "$src" "$cccl" "$work" "$toolkit" "$toolkit_real")
  hide="mount --bind '$work/empty' '$toolkit_real' && exec \"\$@\""
  if unshare -m true 2>/dev/null; then
    unshare -m sh -c "$hide" sh "${run[@]}" hidden
  elif unshare -rm true 2>/dev/null; then
    unshare -rm sh -c "$hide" sh "${run[@]}" hidden
  else
    "${run[@]}" "in place (no mount namespace here)"
  fi
  exit
fi

src=$2 cccl=$3 work=$4 toolkit=$5 toolkit_real=$6 hidden=$7
cd "$src"
if [ "$hidden" = hidden ] && [ -n "$(ls -A "$toolkit_real")" ]; then
  echo "cccl_only_check: $toolkit_real is not hidden" >&2
  exit 1
fi
# README command 1, as written.
scripts/bootstrap.sh && cmake --preset cpu > "$work/configure.log" && cmake --build --preset cpu --target rowscan > "$work/build.log" \
  && build/cpu/app/rowscan stations samples/measurements.txt | cmp - samples/measurements.out \
  || { tail -n 20 "$work"/*.log >&2 2>/dev/null; echo "cccl_only_check: README command 1 failed" >&2; exit 1; }
if ! grep -q "^CCCL_DIR:PATH=$cccl/" build/cpu/CMakeCache.txt; then
  echo "cccl_only_check: CCCL was not found in the copy: $(grep '^CCCL_DIR' build/cpu/CMakeCache.txt)" >&2
  exit 1
fi
if grep -qF -e "$toolkit_real" -e "$toolkit/" build/cpu/compile_commands.json; then
  echo "cccl_only_check: a compile command names the CUDA toolkit ($toolkit)" >&2
  exit 1
fi

cmake --install build/cpu --prefix "$work/prefix" > /dev/null
for f in bin/rowscan lib/cmake/rowscan/rowscanConfig.cmake share/man/man1/rowscan.1 \
         share/bash-completion/completions/rowscan share/zsh/site-functions/_rowscan; do
  [ -e "$work/prefix/$f" ] || { echo "cccl_only_check: $f was not installed" >&2; exit 1; }
done
cmake -S tests/install_consumer -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DCMAKE_PREFIX_PATH="$work/prefix" > /dev/null
cmake --build "$work/consumer" > /dev/null
if grep -qF -e "$toolkit_real" -e "$toolkit/" "$work/consumer/compile_commands.json" 2>/dev/null; then
  echo "cccl_only_check: the consumer's compile commands name the CUDA toolkit ($toolkit)" >&2
  exit 1
fi
"$work/consumer/consumer" samples/measurements.txt | cmp - samples/measurements.out
echo "cccl_only_check: README command 1 with CMAKE_PREFIX_PATH naming CCCL alone (the toolkit $hidden), cmake --install" \
     "and a find_package(rowscan) consumer built, and answered the sample"
