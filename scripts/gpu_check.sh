#!/usr/bin/env bash
# Runs on a GPU machine over a built `cuda` preset. Logs go to $OUT (default: ./gpu-logs).
#   scripts/gpu_check.sh [tests] [stations ROWS] [lineitem SF] [benchmarks] [memcheck] [gather] [sanitize TOOL]
# tests:      the whole CTest suite
# stations:   `rowscan stations --stats` on generated ROWS-row files with 413 and 10,000 stations
# lineitem:   `rowscan lineitem --stats` on a generated scale-factor-SF lineitem.tbl
# benchmarks: every program in build/cuda/benchmarks (Google Benchmark's .so from $BENCHMARK_LIB_DIR)
# memcheck:   compute-sanitizer memcheck over the device-memory-heavy test suites
# gather:     the string-gather grid (issue 4) as CSV and a Markdown report
# sanitize:   every test program under compute-sanitizer --tool TOOL (memcheck, racecheck, ...)
set -uo pipefail
out=${OUT:-gpu-logs}
data=${DATA_DIR:-/tmp}
exe=build/cuda/app/rowscan
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"

# CTest files hold the build machine's absolute paths; make them resolve here too.
built_in=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' build/cuda/CMakeCache.txt)
if [ -n "$built_in" ] && [ "$built_in" != "$PWD" ] && [ ! -e "$built_in" ]; then
  mkdir -p "$(dirname "$built_in")" && ln -s "$PWD" "$built_in"
fi

run_tests() {
  echo "== tests"
  ctest --test-dir build/cuda --output-on-failure -LE large -j4 --timeout 300 2>&1 | tee "$out/ctest.log" | tail -25
}

# Whole-process wall time of one command, in seconds (printed on stdout).
wall_seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1 || echo "FAILED: $*" >&2
  end=$(date +%s.%N)
  echo "$start $end" | awk '{printf "%.3f\n", $2 - $1}'
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

run_stations() {
  local rows=$1
  : > "$data/empty.txt"
  echo "== fixed costs: an empty input"
  $exe stations --stats "$data/empty.txt" 2>&1 | tee -a "$out/summary.txt"
  for stations in 413 10000; do
    local file="$data/measurements-$rows-$stations.txt"
    echo "== generate $rows rows, $stations stations"
    /usr/bin/time -f "generate: %e s wall, %M KiB max RSS" $exe generate measurements --rows "$rows" \
        --stations "$stations" --seed 1 -o "$file" 2>&1 | tee -a "$out/generate.log"
    ls -l "$file" | tee -a "$out/generate.log"
    cat "$file" > /dev/null  # a hot page cache
    echo "== stations $stations: warm-up with --stats"
    timeout 150 /usr/bin/time -f "wall %e s, max RSS %M KiB" $exe stations --stats "$file" \
        > "$out/answer-$stations.txt" 2> "$out/stations-$stations.log"
    cat "$out/stations-$stations.log"
    echo "== stations $stations: 5 timed runs (whole process)"
    for run in 1 2 3 4 5; do wall_seconds timeout 150 $exe stations "$file"; done | tee "$out/times-$stations.txt"
    echo "median $(median < "$out/times-$stations.txt") s for $(stat -c %s "$file") bytes" | tee -a "$out/summary.txt"
    echo "== stations $stations with --stats again (after the timed runs)"
    $exe stations --stats "$file" 2>&1 > /dev/null | tee -a "$out/stations-$stations.log"
    head -c 300 "$out/answer-$stations.txt"; echo
    echo "== stations $stations: 5 timed runs with the pinned ring from cudaHostAlloc instead of registered huge pages"
    for run in 1 2 3 4 5; do wall_seconds env ROWSCAN_PINNED=alloc timeout 150 $exe stations "$file"; done > "$out/times-alloc-$stations.txt"
    echo "median $(median < "$out/times-alloc-$stations.txt") s with ROWSCAN_PINNED=alloc" | tee -a "$out/summary.txt"
    echo "== stations $stations with 16 MiB chunks and 4 reader threads (must give the same answer)"
    $exe stations --threads 4 --chunk-size 16777216 "$file" | cmp - "$out/answer-$stations.txt" && echo "same answer"
    if [ -x build/cuda/benchmarks/rowscan_stations_benchmark ]; then
      echo "== device-resident benchmark, $stations stations"
      LD_LIBRARY_PATH="${BENCHMARK_LIB_DIR:-$PWD/.device-deps/usr/lib/x86_64-linux-gnu}:${LD_LIBRARY_PATH:-}" ROWSCAN_BENCH_FILE="$file" \
        timeout 300 build/cuda/benchmarks/rowscan_stations_benchmark --benchmark_repetitions=5 \
        --benchmark_report_aggregates_only=true --benchmark_out="$out/stations-benchmark-$stations.json" \
        --benchmark_out_format=json 2>&1 | tee "$out/stations-benchmark-$stations.log"
    fi
    rm -f "$file"
  done
}

run_lineitem() {
  local sf=$1 file="$data/lineitem-$1.tbl"
  echo "== generate lineitem scale $sf"
  /usr/bin/time -f "generate: %e s wall" $exe generate lineitem --scale "$sf" -o "$file" 2>&1 | tee -a "$out/generate.log"
  ls -l "$file" | tee -a "$out/generate.log"
  cat "$file" > /dev/null
  for run in warm-up 1 2; do
    echo "== lineitem scale $sf: run $run"
    timeout 200 /usr/bin/time -f "wall %e s, max RSS %M KiB" $exe lineitem --stats --suppkey-below 5000,1,100000000 "$file"
  done 2>&1 | tee "$out/lineitem-$sf.log"
  rm -f "$file"
}

run_benchmarks() {
  export LD_LIBRARY_PATH="${BENCHMARK_LIB_DIR:-$PWD/.device-deps/usr/lib/x86_64-linux-gnu}:${LD_LIBRARY_PATH:-}"
  for b in build/cuda/benchmarks/*_benchmark; do
    echo "== $b"
    timeout 300 "$b" --benchmark_out="$out/$(basename "$b").json" --benchmark_out_format=json 2>&1 | tee "$out/$(basename "$b").log"
  done
}

# compute-sanitizer memcheck over the suites that touch device memory in the most ways.
run_memcheck() {
  local filter=${1:-'GatherStrings.*:FindLines.*:ForEachLine.*:Stations.*:StationsErrors.*:Lineitem*'}
  echo "== compute-sanitizer memcheck: $filter"
  timeout 400 compute-sanitizer --tool memcheck --error-exitcode 1 build/cuda/tests/rowscan_tests \
      --gtest_filter="$filter" > "$out/memcheck.log" 2>&1
  echo "memcheck exit $?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$out/memcheck.log" | tail -4
}

# Every test program (the `large` ones aside) under one compute-sanitizer tool: memcheck, racecheck,
# initcheck or synccheck. Child processes (the CLI tests run the rowscan binary) are checked too.
run_sanitize() {
  local tool=$1 status=0
  echo "== compute-sanitizer --tool $tool over every test program"
  sanitized() {  # NAME COMMAND...: one program under the tool, one line of verdict
    local name=$1 log="$out/sanitize-$tool-$1.log"
    shift
    timeout 1500 compute-sanitizer --tool "$tool" --target-processes all --error-exitcode 86 "$@" > "$log" 2>&1
    local rc=$?
    [ $rc -ne 0 ] && status=1
    echo "$name: exit $rc; $(grep -c "ERROR SUMMARY: 0 errors" "$log") process(es) clean," \
         "$(grep "ERROR SUMMARY" "$log" | grep -vc ": 0 errors") with errors; $(grep -E "^\[  (PASSED|FAILED)  \]" "$log" | tr '\n' ' ')"
  }
  for t in build/cuda/tests/rowscan_*tests; do
    case "$t" in *large*) continue ;; esac
    sanitized "$(basename "$t")" "$t"
  done
  for workload in stations lineitem; do
    sanitized "fuzz_corpus_$workload" build/cuda/tests/rowscan_fuzz_replay "$workload" "tests/fuzz/corpus/$workload"
  done
  return $status
}

# The string-gather grid of cudf's PR (issue 4), as CSV and a Markdown report.
run_gather() {
  export LD_LIBRARY_PATH="${BENCHMARK_LIB_DIR:-$PWD/.device-deps/usr/lib/x86_64-linux-gnu}:${LD_LIBRARY_PATH:-}"
  echo "== string gather grid"
  timeout 400 build/cuda/benchmarks/rowscan_string_gather_benchmark --benchmark_out="$out/string_gather.csv" \
      --benchmark_out_format=csv > "$out/string_gather.log" 2>&1
  echo "gather benchmark exit $?"
  python3 benchmarks/string_gather_report.py "$out/string_gather.csv" > "$out/string_gather.md" 2>&1
  tail -40 "$out/string_gather.md"
}

while [ $# -gt 0 ]; do
  case "$1" in
    tests) run_tests; shift ;;
    stations) run_stations "$2"; shift 2 ;;
    lineitem) run_lineitem "$2"; shift 2 ;;
    benchmarks) run_benchmarks; shift ;;
    memcheck) run_memcheck; shift ;;
    gather) run_gather; shift ;;
    sanitize) run_sanitize "$2"; shift 2 ;;
    *) echo "unknown section $1" >&2; exit 2 ;;
  esac
done
