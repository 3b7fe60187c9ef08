#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs on a GPU machine over a built `cuda` preset. Logs go to $OUT (default: ./gpu-logs).
#   scripts/gpu_check.sh [tests] [stations ROWS] [lineitem SF] [benchmarks] [gather] [sanitize TOOL [FILTER]]
# tests:      the whole CTest suite
# stations:   `rowscan stations --stats` on generated ROWS-row files with 413 and 10,000 stations
# lineitem:   `rowscan lineitem --stats` on a generated scale-factor-SF lineitem.tbl
# benchmarks: every program in build/cuda/benchmarks (Google Benchmark's .so from $BENCHMARK_LIB_DIR)
# gather:     the string-gather grid as CSV and a Markdown report
# ab:         `ab BASE_EXE ROWS SF`: whole-process medians of 5 for this build and BASE_EXE (another
#             commit's rowscan), run by run in turn on the same hot files: ROWS rows with 413 and 10,000
#             stations and a scale-SF lineitem.tbl; the answers must be equal
# host:       `host ROWS`: the cpu preset's host workers (build/cpu) beside a plain single-pass C++
#             program (rowscan_host_ratio) on ROWS rows x 10,000 stations, on 2 cores (taskset) and on all,
#             then the CUDA build's whole process on the same file
# sanitize:   every test under compute-sanitizer --tool TOOL (memcheck, racecheck, ...) in light mode, one
#             process per test, SANITIZE_JOBS (16) at once, SANITIZE_TIMEOUT (500) s each; FILTER (a regex
#             of test names, not a section's name) picks some for a rerun
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

source scripts/wall_time.sh   # wall_seconds, median

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

# Started first, so that none of them starts last: the tests with the most chunk passes or rowscan runs
# in light mode (support/light_mode.hpp), and the largest corpus inputs (five summarize runs each).
sanitize_slow_first=(
  fuzz_corpus_stations:chunk_boundaries fuzz_corpus_lineitem:chunk_boundaries
  SkipInvalid/stations.RandomMixesMatchTheReference Stations.RandomInputsMatchReference
  StationsErrors.EachRuleIsEnforced StationsSkipInvalid.BadLinesInLaterChunksAfterTheFastPathStarted
  Stations.NewStationsInLaterChunksTakeTheGeneralPath StationsErrors.MoreLinesThanAValidChunkCanHold
  StationsSkipInvalid.LineLongerThanTheReaderCarriesIsNeverSkipped SkipInvalid/stations.BadLastLineWithoutNewline
  Stations.SharedKeysFallBackToNamesAndStayExact SkipInvalid/lineitem.BadLinesAcrossChunkBoundaries
  SkipInvalid/lineitem.RandomMixesMatchTheReference StationsErrors.BadLineDeepInsideLaterChunks
  Stations.RecordsStraddlingChunkBoundaries SkipInvalid/stations.EmptyLinesAndManyShortLines
  CliDeterminism.StationsIsByteIdenticalForEveryChunkSizeAndThreadCount
  CliDeterminism.LineitemIsByteIdenticalForEveryChunkSizeAndThreadCount
  CliDeterminism.SkipInvalidIsByteIdenticalForEveryChunkSizeAndThreadCount
  GatherStrings.OneString FindLines.MisalignedTextMatchesTheBytewiseChunkBy
)

# One job of run_sanitize: NAME PROGRAM ARGS... under the tool, in light mode, with its log in
# $sanitize_logs/NAME.log (a '/' of a typed test's name as '_'). Prints one line: NAME, exit code, verdict
# (clean, errors, failed, timeout), seconds.
sanitize_log() { echo "$sanitize_logs/${1//\//_}.log"; }
sanitize_one() {
  local name=$1 log start=$SECONDS rc verdict
  log=$(sanitize_log "$1")
  shift
  # --require-cuda-init no: host-only tests (the references, the generators) pass instead of failing
  # for never starting CUDA.
  ROWSCAN_TEST_LIGHT=1 timeout -k 30 "${SANITIZE_TIMEOUT:-500}" compute-sanitizer --tool "$sanitize_tool" \
      --target-processes all --require-cuda-init no --error-exitcode 86 "$@" > "$log" 2>&1
  rc=$?
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    verdict=timeout
  elif [ $rc -eq 86 ] || grep -qE "(ERROR|RACECHECK) SUMMARY: [1-9]" "$log"; then
    verdict=errors  # in the test's process or in a rowscan it ran
  elif [ $rc -ne 0 ]; then
    verdict=failed
  else
    verdict=clean
  fi
  echo "$name $rc $verdict $((SECONDS - start))"
}

# Every test of every test program (the `large` ones aside) and every fuzz corpus input, each in its own
# process under one compute-sanitizer tool (memcheck, racecheck, initcheck or synccheck), in light mode
# (ROWSCAN_TEST_LIGHT=1: the same tests over smaller inputs), SANITIZE_JOBS of them at once. Child
# processes (the CLI tests run the rowscan binary) are checked too. FILTER: a regex of the names to run.
# $out/sanitize-TOOL.txt gets a line per test, $out/sanitize-TOOL-logs.tar.gz the logs; stdout the counts
# and the first sanitizer lines of each test that is not clean.
run_sanitize() {
  local tool=$1 filter=${2:-.} jobs=${SANITIZE_JOBS:-16} start=$SECONDS
  local list="$data/sanitize-$tool-jobs.txt" results="$out/sanitize-$tool.txt"
  sanitize_tool=$tool
  sanitize_logs="$data/sanitize-$tool-logs"
  rm -rf "$sanitize_logs" && mkdir -p "$sanitize_logs"

  # One line per job: NAME PROGRAM ARGS..., the slow ones first.
  {
    for program in build/cuda/tests/rowscan_*tests; do
      case "$program" in *large*) continue ;; esac
      "$program" --gtest_list_tests | awk -v program="$program" '
        /^[^ ]/ { suite = $1 }
        /^  / && suite !~ /^DISABLED_/ && $1 !~ /^DISABLED_/ { print suite $1, program, "--gtest_filter=" suite $1 }'
    done
    for workload in stations lineitem; do
      for input in tests/fuzz/corpus/"$workload"/*; do
        echo "fuzz_corpus_$workload:$(basename "$input") build/cuda/tests/rowscan_fuzz_replay $workload $input"
      done
    done
  } | awk -v filter="$filter" '$1 ~ filter' \
    | awk 'NR == FNR { rank[$1] = NR; next } { print ($1 in rank ? rank[$1] : 1000), $0 }' \
          <(printf '%s\n' "${sanitize_slow_first[@]}") - \
    | sort -n -s -k1,1 | cut -d' ' -f2- > "$list"
  echo "== compute-sanitizer --tool $tool: $(wc -l < "$list") tests in light mode, $jobs at once," \
       "${SANITIZE_TIMEOUT:-500} s each at most"

  local running=0 job
  : > "$results.unsorted"
  while read -r -a job; do
    if [ $running -ge "$jobs" ]; then
      wait -n
      running=$((running - 1))
    fi
    sanitize_one "${job[@]}" < /dev/null >> "$results.unsorted" &
    running=$((running + 1))
  done < "$list"
  wait

  { echo "# test exit verdict seconds (compute-sanitizer --tool $tool, ROWSCAN_TEST_LIGHT=1)"
    sort "$results.unsorted" | awk '{printf "%-76s %4s %-8s %5s\n", $1, $2, $3, $4}'; } > "$results"
  rm -f "$results.unsorted"
  tar -czf "$out/sanitize-$tool-logs.tar.gz" -C "$sanitize_logs" .
  count() { awk -v v="$1" '$3 == v' "$results" | wc -l; }
  echo "$tool: $(count clean) clean, $(count errors) with sanitizer errors, $(count failed) failed," \
       "$(count timeout) timed out, in $((SECONDS - start)) s"
  echo "slowest: $(grep -v '^#' "$results" | sort -k4,4nr | head -5 | awk '{printf "%s%s %s s", (NR > 1 ? ", " : ""), $1, $4}')"
  local name rc verdict seconds lines
  grep -v '^#' "$results" | while read -r name rc verdict seconds; do
    [ "$verdict" = clean ] && continue
    echo "-- $name: $verdict (exit $rc, $seconds s)"
    # The sanitizer's own lines (its summaries and banner aside), else the test's first failures.
    lines=$(grep "=========" "$(sanitize_log "$name")" | grep -vE "SUMMARY|COMPUTE-SANITIZER" | head -4)
    [ -n "$lines" ] || lines=$(grep -v "=========" "$(sanitize_log "$name")" | grep -E "Failure|FAILED|rror" | head -3)
    echo "$lines" | sed 's/^/   /'
  done
  [ "$(count clean)" -eq "$(wc -l < "$list")" ]
}

# The string-gather grid of cudf's PR, as CSV and a Markdown report.
run_gather() {
  export LD_LIBRARY_PATH="${BENCHMARK_LIB_DIR:-$PWD/.device-deps/usr/lib/x86_64-linux-gnu}:${LD_LIBRARY_PATH:-}"
  echo "== string gather grid"
  timeout 400 build/cuda/benchmarks/rowscan_string_gather_benchmark --benchmark_out="$out/string_gather.csv" \
      --benchmark_out_format=csv > "$out/string_gather.log" 2>&1
  echo "gather benchmark exit $?"
  python3 benchmarks/string_gather_report.py "$out/string_gather.csv" > "$out/string_gather.md" 2>&1
  tail -40 "$out/string_gather.md"
}

# One A/B measurement: 5 runs each of BASE_EXE and this build, alternating, after one warm-up each.
ab_pair() {
  local name=$1 base=$2
  shift 2
  "$base" "$@" > "$out/ab-$name-base.out" 2>&1
  $exe "$@" > "$out/ab-$name-new.out" 2>&1
  cmp -s "$out/ab-$name-base.out" "$out/ab-$name-new.out" && echo "$name: same answer" || echo "$name: ANSWERS DIFFER"
  : > "$out/ab-$name-base.txt"
  : > "$out/ab-$name-new.txt"
  for run in 1 2 3 4 5; do
    wall_seconds timeout 150 "$base" "$@" >> "$out/ab-$name-base.txt"
    wall_seconds timeout 150 $exe "$@" >> "$out/ab-$name-new.txt"
  done
  echo "$name: base median $(median < "$out/ab-$name-base.txt") s ($(paste -sd' ' "$out/ab-$name-base.txt")), new median $(median < "$out/ab-$name-new.txt") s ($(paste -sd' ' "$out/ab-$name-new.txt"))" | tee -a "$out/summary.txt"
}

run_ab() {
  local base=$1 rows=$2 sf=$3
  for stations in 413 10000; do
    local file="$data/ab-$rows-$stations.txt"
    [ -f "$file" ] || $exe generate measurements --rows "$rows" --stations "$stations" --seed 1 -o "$file"
    cat "$file" > /dev/null
    ab_pair "stations-$stations" "$base" stations "$file"
    $exe stations --stats "$file" 2>&1 > /dev/null | tee "$out/ab-stations-$stations-stats.log"
  done
  local table="$data/ab-lineitem-$sf.tbl"
  [ -f "$table" ] || $exe generate lineitem --scale "$sf" --seed 1 -o "$table"
  cat "$table" > /dev/null
  ab_pair "lineitem-$sf" "$base" lineitem "$table" --suppkey-below 5000
  $exe lineitem --stats "$table" --suppkey-below 5000 2>&1 > /dev/null | tee "$out/ab-lineitem-stats.log"
}

run_host() {
  local rows=$1 file="$data/host-$1-10000.txt" ratio=build/cpu/benchmarks/rowscan_host_ratio
  [ -f "$file" ] || $exe generate measurements --rows "$rows" --stations 10000 --seed 1 -o "$file"
  cat "$file" > /dev/null
  echo "== host workers on 2 cores" | tee -a "$out/host.txt"
  OMP_NUM_THREADS=2 taskset -c 0,1 $ratio "$file" 2 5 2>&1 | tee -a "$out/host.txt"
  echo "== host workers on all $(nproc) cores" | tee -a "$out/host.txt"
  $ratio "$file" "$(nproc)" 5 2>&1 | tee -a "$out/host.txt"
  echo "== the CUDA build, whole process, 5 runs" | tee -a "$out/host.txt"
  for run in 1 2 3 4 5; do wall_seconds $exe stations "$file"; done > "$out/host-cuda.txt"
  echo "median $(median < "$out/host-cuda.txt") s" | tee -a "$out/host.txt"
  echo "== the cpu build on all cores, --stats" | tee -a "$out/host.txt"
  build/cpu/app/rowscan stations --stats "$file" 2>&1 > /dev/null | tee -a "$out/host.txt"
}

# Exit status: 1 when a sanitize section found a test that was not clean.
status=0
is_section() {
  case "$1" in tests | stations | lineitem | benchmarks | gather | ab | host | sanitize) return 0 ;; esac
  return 1
}

while [ $# -gt 0 ]; do
  case "$1" in
    tests) run_tests; shift ;;
    stations) run_stations "$2"; shift 2 ;;
    lineitem) run_lineitem "$2"; shift 2 ;;
    benchmarks) run_benchmarks; shift ;;
    gather) run_gather; shift ;;
    ab) run_ab "$2" "$3" "$4"; shift 4 ;;
    host) run_host "$2"; shift 2 ;;
    sanitize)
      if [ $# -ge 3 ] && ! is_section "$3"; then
        run_sanitize "$2" "$3" || status=1
        shift 3
      else
        run_sanitize "$2" || status=1
        shift 2
      fi ;;
    *) echo "unknown section $1" >&2; exit 2 ;;
  esac
done
exit $status
