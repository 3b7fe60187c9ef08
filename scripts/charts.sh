#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Draws docs/charts/SAMPLE.svg from the measurements in docs/data/*.csv, one chart per sample.
#
#   scripts/charts.sh
#
# The CSV files are what the samples print with --csv (sample,device,variant,items,bytes,ms,gb_per_s);
# a file may hold several samples and devices, and several files may hold one sample (for example
# reduction_ladder-cpu.csv and reduction_ladder-h100.csv). Each chart has one group of bars per variant,
# one bar per device, GB/s of input read on a log scale. Needs gnuplot (Debian: gnuplot-nox, or
# scripts/bootstrap.sh --charts). Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v gnuplot >/dev/null 2>&1; then
  echo "charts: gnuplot not found: install gnuplot-nox (scripts/bootstrap.sh --charts)" >&2
  exit 1
fi
shopt -s nullglob
csvs=(docs/data/*.csv)
if [ ${#csvs[@]} -eq 0 ]; then
  echo "charts: no docs/data/*.csv" >&2
  exit 1
fi
mkdir -p docs/charts
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every data row of every file (headers dropped). Files with more rows come first, so that the variants
# keep the order of the run that has them all (a GPU run has rungs a CPU run lacks).
mapfile -t ordered < <(wc -l "${csvs[@]}" | awk '$2 != "total" { print $1 "\t" $2 }' | sort -s -k1,1nr | cut -f2)
awk -F, '$1 == "sample" { next } NF >= 7 { print }' "${ordered[@]}" > "$work/rows.csv"

for sample in $(cut -d, -f1 "$work/rows.csv" | awk '!seen[$0]++'); do
  # Pivot to one line per variant and one column per device (tab-separated; "?" where not measured).
  awk -F, -v sample="$sample" '
    $1 != sample { next }
    !($3 in vi) { vi[$3] = ++nv; variants[nv] = $3 }
    !($2 in di) { di[$2] = ++nd; devices[nd] = $2 }
    { value[$3, $2] = $7 }
    END {
      printf "variant"; for (d = 1; d <= nd; d++) printf "\t%s", devices[d]; printf "\n"
      for (v = 1; v <= nv; v++) {
        printf "%s", variants[v]
        for (d = 1; d <= nd; d++) printf "\t%s", ((variants[v], devices[d]) in value) ? value[variants[v], devices[d]] : "?"
        printf "\n"
      }
    }' "$work/rows.csv" > "$work/$sample.tsv"
  columns=$(head -1 "$work/$sample.tsv" | awk -F'\t' '{ print NF }')
  gnuplot <<EOF
set terminal svg size 900,480 dynamic enhanced font "sans,12" background rgb "white"
set output "docs/charts/$sample.svg"
set datafile separator "\t"
set datafile missing "?"
set title "$sample: GB/s of input read (higher is better, log scale)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y 10
set format y "%g"
set ylabel "GB/s"
set grid ytics
set key outside right top vertical noenhanced
set xtics rotate by -25 noenhanced
set bmargin 7
plot for [c=2:$columns] "$work/$sample.tsv" using c:xtic(1) title columnheader(c)
EOF
  echo "charts: docs/charts/$sample.svg"
done
