#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzzes rowscan's input handling: builds tests/fuzz with clang++ (libFuzzer, ASan, UBSan, Thrust CPP
# backend) in build/fuzz, then runs fuzz_stations, fuzz_lineitem and fuzz_group for SECONDS each (default 30).
#
#   scripts/fuzz.sh [--if-available] [SECONDS]
#
# Each fuzzer starts from its seed corpus (tests/fuzz/corpus/<workload>, read only) and keeps what it
# finds in build/fuzz/corpus/<workload>. A disagreement with the reference or a sanitizer report stops
# it, saves the input as build/fuzz/artifacts/<workload>-crash-*, and makes this script fail; replay a
# saved input with `build/fuzz/tests/fuzz/fuzz_<workload> FILE` (or rowscan_fuzz_replay in any build).
# With --if-available, a missing clang++, libFuzzer runtime or OpenMP runtime for clang skips the
# fuzzing (exit 0) instead of failing: CI uses it so that machines without clang still pass.
set -euo pipefail
cd "$(dirname "$0")/.."

optional=0
if [ "${1:-}" = "--if-available" ]; then
  optional=1
  shift
fi
seconds="${1:-30}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: scripts/fuzz.sh [--if-available] [SECONDS]" >&2
  exit 2
fi

unavailable() {
  if [ "$optional" = 1 ]; then
    echo "fuzz.sh: skipped: $1"
    exit 0
  fi
  echo "fuzz.sh: error: $1" >&2
  exit 1
}

cxx="${ROWSCAN_FUZZ_CXX:-clang++}"
command -v "$cxx" >/dev/null 2>&1 || unavailable "no $cxx on PATH"
probe_dir="$(mktemp -d)"
trap 'rm -rf "$probe_dir"' EXIT
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' >"$probe_dir/p.cpp"
printf 'fun:none\n' >"$probe_dir/ignore.txt"
"$cxx" -fsanitize=fuzzer,address,undefined -fsanitize-coverage-ignorelist="$probe_dir/ignore.txt" "$probe_dir/p.cpp" \
  -o "$probe_dir/p" >/dev/null 2>&1 ||
  unavailable "$cxx cannot link a libFuzzer target (-fsanitize=fuzzer,address,undefined; clang 13 or newer)"
printf '#include <omp.h>\nint main() { return omp_get_max_threads() > 0 ? 0 : 1; }\n' >"$probe_dir/omp.cpp"
"$cxx" -fopenmp "$probe_dir/omp.cpp" -o "$probe_dir/omp" >/dev/null 2>&1 ||
  unavailable "$cxx cannot build OpenMP code, which rowscan's generator uses (Debian: libomp-dev)"

build=build/fuzz
export PATH="/usr/local/cuda/bin:$PATH"  # CCCL's CMake package comes with the CUDA toolkit
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" \
  -DCUDAToolkit_ROOT=/usr/local/cuda -DROWSCAN_BACKEND=CPP -DROWSCAN_BUILD_TESTS=OFF -DROWSCAN_BUILD_FUZZERS=ON >/dev/null
cmake --build "$build" --target fuzz_stations fuzz_lineitem fuzz_group

# Two fuzzers at a time, one a core (CI machines have two), each into a log of its own that is printed
# when all are done; each still runs for SECONDS.
status=0
running=0
for workload in stations lineitem group; do
  if [ "$running" -ge 2 ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  mkdir -p "$build/corpus/$workload" "$build/artifacts"
  echo "fuzz.sh: fuzz_$workload for $seconds s"
  # -max_len: room for lines longer than the smallest chunks (128 and 256 bytes) and several of them.
  "$build/tests/fuzz/fuzz_$workload" "$build/corpus/$workload" "tests/fuzz/corpus/$workload" \
    -dict="tests/fuzz/$workload.dict" -max_total_time="$seconds" -max_len=4096 -timeout=20 -rss_limit_mb=4096 \
    -artifact_prefix="$build/artifacts/$workload-" -print_final_stats=1 > "$build/fuzz_$workload.log" 2>&1 &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
for workload in stations lineitem group; do
  echo "fuzz.sh: fuzz_$workload:"
  cat "$build/fuzz_$workload.log"
done
exit "$status"
