#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rowscan beside the programs its targets name, on a GPU machine with a built `cuda` preset: whole
# process, hot page cache, medians of 5 with the programs interleaved run by run (scripts/host_scaling.sh
# on all of the machine's cores), answers compared.
#
#   OUT=DIR scripts/yardsticks_device.sh PEERS DUCKDB [PART...]   -> DIR/yardsticks.csv, DIR/*.log
#
# PEERS is a folder with austindonisan/1brc's 1brc.c as austin_1brc.c and lehuyduc/1brc-simd's main.cpp
# and my_timer.h as lehuyduc_main.cpp, lehuyduc_my_timer.h (their public sources, built here, never
# committed); DUCKDB a folder with DuckDB's libduckdb.so, or libduckdb.so.gz (from DuckDB's npm package
# @duckdb/node-bindings-linux-x64), for scripts/duckdb_query.c. PARTs (default: all of them):
#   stations   1e9 rows, 413 and 10,000 stations: rowscan, austindonisan and lehuyduc with every core
#   many       1e8 rows with 1,000,000 stations: rowscan against DuckDB's GROUP BY over read_csv
#   shared     1e8 rows of 10,000 names that share their first 16 and last 8 bytes, against the same
#              names with the varying part first (rowscan_shared_ends_ratio: a build with benchmarks)
#   group      scripts/group_device.sh: `rowscan group` on the 413-station file against `rowscan
#              stations`, and on a generated sales CSV against DuckDB (the same count, min, max and sum)
# DATA_DIR (/tmp) holds the generated files, ROWSCAN the binary (build/cuda/app/rowscan).
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,/^set/p' "$0" | sed '$d' >&2; exit 2; }
peers=$(cd "$1" && pwd) duck=$(cd "$2" && pwd)
shift 2
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(stations many shared group)
out=${OUT:-build/cuda/yardsticks}
data=${DATA_DIR:-/tmp}
exe=$(realpath "${ROWSCAN:-build/cuda/app/rowscan}")
cores=$(nproc)
mkdir -p "$out" "$data/bin"
csv="$out/yardsticks.csv"
export COMMIT=${COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}
export DEVICE="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ',' ' '), $cores cores"
source scripts/wall_time.sh   # wall_seconds, median

bin=$data/bin
gcc -std=c17 -march=native -Ofast -pthread "$peers/austin_1brc.c" -o "$bin/austin" 2>"$out/build-peers.log" ||
  echo "yardsticks: austindonisan did not build (build-peers.log)"
mkdir -p "$bin/lehuyduc" && cp "$peers/lehuyduc_main.cpp" "$bin/lehuyduc/main.cpp" &&
  cp "$peers/lehuyduc_my_timer.h" "$bin/lehuyduc/my_timer.h" &&
  g++ -O3 -std=c++17 -march=native -m64 -pthread -DN_THREADS_PARAM="$cores" -DN_CORES_PARAM="$cores" \
      "$bin/lehuyduc/main.cpp" -o "$bin/lehuyduc/main" 2>>"$out/build-peers.log" ||
  echo "yardsticks: lehuyduc did not build (build-peers.log)"
[ -f "$duck/libduckdb.so" ] || gzip -dc "$duck/libduckdb.so.gz" > "$bin/libduckdb.so"
duck_lib=$([ -f "$duck/libduckdb.so" ] && echo "$duck" || echo "$bin")
cc -O2 -std=c11 scripts/duckdb_query.c -o "$bin/duckdb_query" -L"$duck_lib" -lduckdb -Wl,-rpath,"$duck_lib" ||
  echo "yardsticks: duckdb_query did not build"

# generate ROWS STATIONS FILE [EXTRA...]: a measurements file, once.
generate() {
  [ -s "$3" ] || "$exe" generate measurements --rows "$1" --stations "$2" --seed 1 "${@:4}" -o "$3"
}

# duckdb_seconds SQL: DuckDB's own seconds for the query with every core, median of 5 (its process start
# and the library's load are left out, which favours it).
duckdb_seconds() {
  for run in 1 2 3 4 5; do "$bin/duckdb_query" "$cores" "$1" 2>&1 >/dev/null | awk '/rows in/ {print $(NF - 1)}'; done |
    median
}

row() { echo "$1,$2,$3,$4,$5,$COMMIT,$(date -u +%F),$DEVICE" | tee -a "$csv"; }
[ -s "$csv" ] || echo "part,program,input,bytes,median_s,commit,date,device" > "$csv"

for part in "${parts[@]}"; do
  case $part in
    stations)
      for stations in 413 10000; do
        file=$data/measurements-1e9-$stations.txt
        generate 1000000000 "$stations" "$file"
        scripts/host_scaling.sh "$out/stations.csv" "$cores" 5 "$file" -- \
            "rowscan=$exe stations {file}" \
            "austindonisan=$bin/austin {file} {threads}" \
            "lehuyduc=cd $bin/lehuyduc && ./main {file} >/dev/null && cat result.txt" 2>&1 | tee -a "$out/stations.log"
        "$exe" stations --stats "$file" 2>&1 >/dev/null | tee -a "$out/stations.log"
      done
      ;;
    many)
      file=$data/measurements-1e8-1000000.txt
      generate 100000000 1000000 "$file"
      cat "$file" >/dev/null
      sql="SELECT name, min(t), avg(t), max(t), count(*) FROM read_csv('$file', delim=';', header=false, quote='', escape='', columns={'name': 'VARCHAR', 't': 'DECIMAL(3,1)'}) GROUP BY name"
      ours=$(for run in 1 2 3 4 5; do wall_seconds "$exe" stations "$file"; done | median)
      theirs=$(duckdb_seconds "$sql")
      row many rowscan "$(basename "$file")" "$(stat -c %s "$file")" "$ours"
      row many "duckdb-$cores-threads" "$(basename "$file")" "$(stat -c %s "$file")" "$theirs"
      "$exe" stations --stats "$file" 2>&1 >/dev/null | tee -a "$out/many.log"
      ;;
    shared)
      # The benchmark times the system's stations path on both shapes (the GPU here) and writes the files.
      ratio=build/cuda/benchmarks/rowscan_shared_ends_ratio
      "$ratio" 100000000 10000 29 5 --write "$data/shared" 2>&1 | tee -a "$out/shared.log"
      for shape in shared-ends varying-first; do
        file=$data/shared-$shape.txt
        cat "$file" >/dev/null
        ours=$(for run in 1 2 3 4 5; do wall_seconds "$exe" stations "$file"; done | median)
        row shared rowscan "$shape" "$(stat -c %s "$file")" "$ours"
      done
      ;;
    group)
      file=$data/measurements-1e9-413.txt
      generate 1000000000 413 "$file"
      OUT=$out/group DATA_DIR=$data MEASUREMENTS=$file DUCKDB_QUERY=$bin/duckdb_query ROWSCAN=$exe \
        scripts/group_device.sh 2>&1 | tee -a "$out/group.log"
      ;;
    *) echo "yardsticks: unknown part '$part'" >&2 ;;
  esac
done
cat "$csv"
