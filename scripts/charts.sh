#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Draws docs/charts/SAMPLE.svg from the measurements in docs/data/*.csv, one chart per sample.
#
#   scripts/charts.sh
#
# The CSV files are what the samples print with --csv (sample,device,variant,items,bytes,ms,gb_per_s,
# then the reduction ladder's own columns, which are not drawn); a file may hold several samples and
# devices, and several files may hold one sample (for example reduction_ladder-cpu.csv and
# reduction_ladder-h100.csv). Each chart has one group of bars per variant, one bar per device, on a
# linear axis from zero: GB/s of input read, GB = 10^9 bytes. A device keeps one colour in every chart
# (the devices of all the files, sorted by name, take the palette in turn). A `device_copy` row (the
# ladder's device-to-device copy) is not a bar but a dashed line across the chart at that device's copy
# rate, which counts bytes read + written. Needs gnuplot (Debian: gnuplot-nox, or
# scripts/bootstrap.sh --charts). Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v gnuplot >/dev/null 2>&1; then
  echo "charts: gnuplot not found: install gnuplot-nox (scripts/bootstrap.sh --charts)" >&2
  exit 1
fi
shopt -s nullglob
# Only the samples' files: their header starts with "sample," (memory-*.csv and devices-*.csv are tables).
mapfile -t csvs < <(grep -l "^sample," docs/data/*.csv)
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

# One colour per device, the same in every chart.
palette=("#1f77b4" "#d62728" "#2ca02c" "#ff7f0e" "#9467bd" "#8c564b" "#e377c2" "#17becf")
declare -A colour
i=0
while IFS= read -r device; do
  colour[$device]=${palette[$((i % ${#palette[@]}))]}
  i=$((i + 1))
done < <(cut -d, -f2 "$work/rows.csv" | sort -u)

for sample in $(cut -d, -f1 "$work/rows.csv" | awk '!seen[$0]++'); do
  # Pivot to one line per variant and one column per device (tab-separated; "?" where not measured).
  # The copy rows go to $sample.copy instead: one line per device, its copy rate.
  : > "$work/$sample.copy"
  awk -F, -v sample="$sample" -v copies="$work/$sample.copy" '
    $1 != sample { next }
    $3 == "device_copy" { printf "%s\t%s\n", $2, $7 > copies; next }
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
  variants=$(($(wc -l < "$work/$sample.tsv") - 1))
  bar_colours=""
  while IFS= read -r device; do
    bar_colours+="${colour[$device]} "
  done < <(head -1 "$work/$sample.tsv" | tr '\t' '\n' | tail -n +2)
  copy_lines=""
  while IFS=$'\t' read -r device rate; do
    copy_lines+=", $rate with lines dashtype 2 linewidth 2 linecolor rgb \"${colour[$device]}\" title \"$device: copy (bytes read + written)\""
  done < "$work/$sample.copy"
  gnuplot <<EOF
set terminal svg size 900,480 dynamic enhanced font "sans,12" background rgb "white"
set output "docs/charts/$sample.svg"
set datafile separator "\t"
set datafile missing "?"
set title "$sample: GB/s of input read, GB = 10^9 bytes (higher is better)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xrange [-0.6:$variants - 0.4]
set yrange [0:*]
set format y "%g"
set ylabel "GB/s (10^9 bytes per second)" noenhanced
set grid ytics
set key outside top center horizontal noenhanced
set xtics rotate by -25 noenhanced
set bmargin 7
colours = "$bar_colours"
plot for [c=2:$columns] "$work/$sample.tsv" using c:xtic(1) title columnheader(c) linecolor rgb word(colours, c - 1)$copy_lines
EOF
  echo "charts: docs/charts/$sample.svg"
done
