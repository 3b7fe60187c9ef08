#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `rowscan group`'s targets on a GPU machine with a built `cuda` preset (docs/group.md), whole process,
# hot page cache, medians of 5, in one call:
#
#   OUT=DIR DUCKDB_QUERY=BIN scripts/group_device.sh   -> DIR/group-LABEL.csv
#
# 1. The challenge's file (MEASUREMENTS, else 1e9 rows generated): `rowscan stations FILE` and
#    `rowscan group FILE --delimiter ';' --key 1 --value 2 --no-quote --format 1brc` must print the same
#    bytes; their median seconds, and the ratio (target: group at most 1.3x stations).
# 2. A generated sales CSV (SALES_ROWS records, about 57 bytes each: 175,000,000 make 10 GB):
#    `rowscan group FILE --header --key customer --value price` against DuckDB's GROUP BY over read_csv
#    with every core (DUCKDB_QUERY: scripts/duckdb_query.c built against DuckDB's libduckdb.so, which its
#    npm package @duckdb/node-bindings-linux-x64 ships): the same count, min, max and sum per key, the mean
#    sum / count half up (scripts/group_compare.py); their median seconds (target: rowscan at least 5x
#    faster). DuckDB's seconds are its query's alone (its process start and the library's load are left
#    out, which favours it).
# Columns: commit,date,device,input,input_bytes,command,median_seconds
#   LABEL=h100  ROWSCAN=build/cuda/app/rowscan  DATA_DIR=/tmp  SALES_ROWS=175000000
set -euo pipefail
cd "$(dirname "$0")/.."
label=${LABEL:-h100}
exe=${ROWSCAN:-build/cuda/app/rowscan}
out=${OUT:-build/cuda/group}
data=${DATA_DIR:-/tmp}
duckdb_query=${DUCKDB_QUERY:?DUCKDB_QUERY names the built scripts/duckdb_query.c}
cores=$(nproc)
sales_rows=${SALES_ROWS:-175000000}
commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
date=$(date -u +%F)
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ',' ' ' || echo none)
source scripts/wall_time.sh   # wall_seconds, median
mkdir -p "$out"
csv="$out/group-$label.csv"
echo "commit,date,device,input,input_bytes,command,median_seconds" > "$csv"
row() { echo "$commit,$date,$device,$1,$2,$3,$4" | tee -a "$csv"; }

measurements=${MEASUREMENTS:-$data/measurements-1e9.txt}
[[ -f $measurements ]] || "$exe" generate measurements --rows 1000000000 -o "$measurements"
bytes=$(stat -c %s "$measurements")
cat "$measurements" > /dev/null
"$exe" stations "$measurements" > "$out/stations.answer"
"$exe" group "$measurements" --delimiter ';' --key 1 --value 2 --no-quote --format 1brc > "$out/group.answer"
cmp "$out/stations.answer" "$out/group.answer" || { echo "group_device.sh: group and stations differ" >&2; exit 1; }
stations=$(for run in 1 2 3 4 5; do wall_seconds "$exe" stations "$measurements"; done | median)
group=$(for run in 1 2 3 4 5; do
  wall_seconds "$exe" group "$measurements" --delimiter ';' --key 1 --value 2 --no-quote --format 1brc; done | median)
row measurements-1e9 "$bytes" stations "$stations"
row measurements-1e9 "$bytes" group-no-quote "$group"
echo "group / stations: $(awk -v g="$group" -v s="$stations" 'BEGIN {printf "%.2f", g / s}') (target: at most 1.3)"
"$exe" group "$measurements" --delimiter ';' --key 1 --value 2 --no-quote --format 1brc --stats 2>&1 > /dev/null |
  tee "$out/group-1brc-stats.log"

sales=$data/sales-$sales_rows.csv
[[ -f $sales ]] || "$exe" generate sales --rows "$sales_rows" -o "$sales"
bytes=$(stat -c %s "$sales")
cat "$sales" > /dev/null
"$exe" group "$sales" --header --key customer --value price > "$out/sales.answer"
sql="SELECT customer, count(price), min(price), max(price), sum(price) FROM read_csv('$sales', header = true, \
columns = {'order_id': 'BIGINT', 'customer': 'VARCHAR', 'product': 'VARCHAR', 'city': 'VARCHAR', 'note': 'VARCHAR', \
'quantity': 'INTEGER', 'price': 'DECIMAL(18,2)'}) GROUP BY customer ORDER BY customer"
"$duckdb_query" "$cores" "$sql" > "$out/sales.duckdb" 2> "$out/duckdb.log"
scripts/group_compare.py "$out/sales.answer" "$out/sales.duckdb"
ours=$(for run in 1 2 3 4 5; do wall_seconds "$exe" group "$sales" --header --key customer --value price; done | median)
duck=$(for run in 1 2 3 4 5; do
  "$duckdb_query" "$cores" "$sql" 2>&1 >/dev/null | awk '/rows in/ {print $(NF - 1)}'; done | median)
row "sales-$sales_rows" "$bytes" group "$ours"
row "sales-$sales_rows" "$bytes" "duckdb-$cores-threads" "$duck"
echo "duckdb / group: $(awk -v g="$ours" -v d="$duck" 'BEGIN {printf "%.2f", d / g}') (target: at least 5)"
"$exe" group "$sales" --header --key customer --value price --stats 2>&1 > /dev/null | tee "$out/group-sales-stats.log"
