#!/usr/bin/env bash
# Runs on a GPU machine over a built `cuda` preset: the whole test suite, then `rowscan stations --stats`
# on generated 1e9-row files (about 413 and 10,000 stations). Logs go to $OUT (default: ./gpu-logs).
#   scripts/gpu_check.sh [ROWS]
set -uo pipefail
out=${OUT:-gpu-logs}
rows=${1:-1000000000}
data=${DATA_DIR:-/tmp}
mkdir -p "$out"
exe=build/cuda/app/rowscan
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"

# CTest files hold the build machine's absolute paths; make them resolve here too.
built_in=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' build/cuda/CMakeCache.txt)
if [ -n "$built_in" ] && [ "$built_in" != "$PWD" ] && [ ! -e "$built_in" ]; then
  mkdir -p "$(dirname "$built_in")" && ln -s "$PWD" "$built_in"
fi

echo "== tests"
ctest --test-dir build/cuda --output-on-failure -j4 2>&1 | tee "$out/ctest.log" | tail -15

for stations in 413 10000; do
  file="$data/measurements-$rows-$stations.txt"
  echo "== generate $rows rows, $stations stations"
  /usr/bin/time -f "generate: %e s wall, %M KiB max RSS" $exe generate measurements --rows "$rows" \
      --stations "$stations" --seed 1 -o "$file" 2>&1 | tee -a "$out/generate.log"
  ls -l "$file" | tee -a "$out/generate.log"
  cat "$file" > /dev/null  # hot page cache, as the measurements in MEASURED.md
  for run in warm-up 1 2; do
    echo "== stations $stations: run $run"
    timeout 150 /usr/bin/time -f "wall %e s, max RSS %M KiB" $exe stations --stats "$file" > "$out/answer-$stations.txt" \
        2> "$out/stats-$stations-$run.txt"
    cat "$out/stats-$stations-$run.txt"
  done
  head -c 300 "$out/answer-$stations.txt"; echo
  echo "== stations $stations with 64 MiB chunks (must give the same answer)"
  $exe stations --chunk-size 67108864 "$file" | cmp - "$out/answer-$stations.txt" && echo "same answer"
  rm -f "$file"
done
