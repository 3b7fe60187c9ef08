#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The GPU's answers against the host engine's, byte for byte, for every workload and the inputs that take
# each path, on a GPU machine with a built `cuda` preset (a quick check before timing anything):
#
#   scripts/devices_agree_device.sh [ROWSCAN]      (default build/cuda/app/rowscan; files in DATA_DIR, /tmp)
#
# stations: 1e7 rows of 413 and of 10,000 stations, 1e6 rows of 1,000,000 stations (the general path);
# group: the 10,000-station file as `--delimiter ';' --no-quote` (the same bytes as stations in the 1brc
# form) and generated sales CSVs (quoted fields: the quote-parity scan on the GPU, also under --stats; 2,000
# customers: blocks of known keys);
# lineitem: scale factor 1. Prints one line per check, and exits 1 if any
# answer differs.
set -uo pipefail
cd "$(dirname "$0")/.."
exe=${1:-build/cuda/app/rowscan}
data=${DATA_DIR:-/tmp}
failed=0

# same NAME ARGS...: the command's answer (stdout) with --devices gpu and with --devices cpu.
same() {
  local name=$1
  shift
  "$exe" "$@" --devices gpu > "$data/agree-gpu" 2> "$data/agree-gpu.err"
  local gpu=$?
  "$exe" "$@" --devices cpu > "$data/agree-cpu" 2> "$data/agree-cpu.err"
  local cpu=$?
  if [ "$gpu" -eq 0 ] && [ "$cpu" -eq 0 ] && cmp -s "$data/agree-gpu" "$data/agree-cpu"; then
    echo "same: $name ($(wc -c < "$data/agree-gpu") bytes)"
  else
    echo "DIFFERENT: $name (exit $gpu / $cpu): $(head -c 300 "$data/agree-gpu.err")"
    failed=1
  fi
}

"$exe" generate measurements --rows 10000000 --stations 413 -o "$data/agree-413.txt"
"$exe" generate measurements --rows 10000000 --stations 10000 -o "$data/agree-10k.txt"
"$exe" generate measurements --rows 1000000 --stations 1000000 -o "$data/agree-1m.txt"
"$exe" generate sales --rows 2000000 -o "$data/agree-sales.csv"
"$exe" generate sales --rows 1000 -o "$data/agree-sales-1k.csv"
"$exe" generate sales --rows 2000000 --keys 2000 -o "$data/agree-sales-2k-keys.csv"
"$exe" generate lineitem --scale 1 -o "$data/agree-lineitem.tbl"
same "stations 413" stations "$data/agree-413.txt"
same "stations 10,000" stations "$data/agree-10k.txt"
same "stations 1,000,000 (general path)" stations "$data/agree-1m.txt"
same "stations 10,000, json" stations "$data/agree-10k.txt" --format json
same "group 10,000 as name;temperature" group "$data/agree-10k.txt" --delimiter ';' --key 1 --value 2 --no-quote --format 1brc
same "group sales" group "$data/agree-sales.csv" --header --key customer --value price
same "group sales, two keys, two values" group "$data/agree-sales.csv" --header --key customer,city --value quantity,price
same "group sales, 1,000 rows" group "$data/agree-sales-1k.csv" --header --key customer --value price
same "group sales without a header" group "$data/agree-sales-1k.csv" --key 2 --value 7 --skip-invalid
same "group sales, --stats" group "$data/agree-sales.csv" --header --key customer --value price --stats
same "group sales of 2,000 customers (known keys)" group "$data/agree-sales-2k-keys.csv" --header --key customer --value quantity,price
same "group sales of 2,000 customers, --key-bits 3" group "$data/agree-sales-2k-keys.csv" --header --key customer --value price --key-bits 3
same "lineitem SF 1" lineitem "$data/agree-lineitem.tbl" --suppkey-below 100,5000,10001
"$exe" group "$data/agree-10k.txt" --delimiter ';' --key 1 --value 2 --no-quote --format 1brc --devices gpu |
  cmp -s - <("$exe" stations "$data/agree-10k.txt" --devices gpu) && echo "same: group 1brc = stations" ||
  { echo "DIFFERENT: group 1brc against stations"; failed=1; }
exit $failed
