#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Draws docs/charts/*.svg from the measurements in docs/data/*.csv: one chart per sample and file.
#
#   scripts/charts.sh
#
# The CSV files are what the samples print with --csv (sample,device,variant,items,bytes,ms,gb_per_s,
# then the reduction ladder's own columns, which are not drawn). One chart holds one file's rows of one
# sample, so one run on one input: docs/charts/SAMPLE.svg when only one file has that sample, else
# SAMPLE-SUFFIX.svg for FILE-SUFFIX.csv (chunk_by_four_ways-cpu.svg, chunk_by_four_ways-h100.svg).
# Each chart has one group of bars per variant, one bar per device, on a linear axis from zero: GB/s of
# input read, GB = 10^9 bytes. A device keeps one colour in every chart (the devices of all the files,
# sorted by name, take the palette in turn). A `device_copy` row (the reduction ladder's
# device-to-device copy, bytes read + written) is not a bar: it is that device's copy rate, drawn as a
# labelled dashed line on every chart that has the device, or named in the title when every bar is
# under a tenth of it. The title names the rows' commits and dates (every CSV ends in commit,date).
# Only measured rows are drawn: the CSVs hold no modelled values. The size sweep's files are drawn as
# lines over input sizes (scripts/size_sweep_chart.py, at the end), not as bars. Needs gnuplot
# (Debian: gnuplot-nox, or scripts/bootstrap.sh --charts). Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v gnuplot >/dev/null 2>&1; then
  echo "charts: gnuplot not found: install gnuplot-nox (scripts/bootstrap.sh --charts)" >&2
  exit 1
fi
shopt -s nullglob
# Only the samples' files: their header starts with "sample," and has gb_per_s (memory-*.csv, devices-*.csv
# and the profiles are tables).
mapfile -t csvs < <(grep -l "^sample,.*gb_per_s" docs/data/*.csv)
if [ ${#csvs[@]} -eq 0 ]; then
  echo "charts: no docs/data/*.csv" >&2
  exit 1
fi
mkdir -p docs/charts
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every data row of every file (headers dropped), the file's suffix put in front: SUFFIX,sample,device,...
: > "$work/rows.csv"
for f in "${csvs[@]}"; do
  stem=$(basename "$f" .csv)
  awk -F, -v suffix="${stem##*-}" '$1 == "sample" { next } NF >= 7 { print suffix "," $0 }' "$f" >> "$work/rows.csv"
done

# One colour per device, the same in every chart; each device's copy rate, where a file measured it.
palette=("#1f77b4" "#d62728" "#2ca02c" "#ff7f0e" "#9467bd" "#8c564b" "#e377c2" "#17becf")
# The copy line names the commit and date of its own row: it may come from another run than the bars.
# A chart takes the copy its own sample measured, else the device's first in file order (the reduction
# ladder's, before the scan ladder's); the size sweep's copies, one a size, are never the line.
declare -A colour copy copy_stamp
i=0
while IFS= read -r device; do
  colour[$device]=${palette[$((i % ${#palette[@]}))]}
  i=$((i + 1))
done < <(cut -d, -f3 "$work/rows.csv" | sort -u)
while IFS=$'\t' read -r sample device rate stamp; do
  copy[$sample|$device]=$rate
  copy_stamp[$sample|$device]=$stamp
  if [ -z "${copy[$device]:-}" ]; then
    copy[$device]=$rate
    copy_stamp[$device]=$stamp
  fi
done < <(awk -F, '$4 == "device_copy" && $2 != "size_sweep" { printf "%s\t%s\t%.0f\tcommit %s, %s\n", $2, $3, $8, $(NF - 1), substr($NF, 1, 10) }' "$work/rows.csv")

while IFS=$'\t' read -r sample suffix; do
  name=$sample
  if [ "$(awk -F, -v s="$sample" '$2 == s { print $1 }' "$work/rows.csv" | sort -u | wc -l)" -gt 1 ]; then
    name=$sample-$suffix
  fi
  # Pivot to one line per variant and one column per device (tab-separated; "?" where not measured).
  # $name.input gets the largest bar, the items and the bytes read ("mixed" where rows differ: programs
  # timed on files of the same lines written differently).
  awk -F, -v sample="$sample" -v suffix="$suffix" -v about="$work/$name.input" '
    $1 != suffix || $2 != sample || $4 == "device_copy" { next }
    !($4 in vi) { vi[$4] = ++nv; variants[nv] = $4 }
    !($3 in di) { di[$3] = ++nd; devices[nd] = $3 }
    { value[$4, $3] = $8; if ($8 + 0 > top) top = $8 + 0; items = $5
      stamp = "commit " $(NF - 1) ", " substr($NF, 1, 10); if (!(stamp in seen)) { seen[stamp] = 1; stamps = stamps (stamps == "" ? "" : "; ") stamp } }
    bytes == "" { bytes = $6 }
    bytes != $6 { bytes = "mixed" }
    END {
      printf "variant"; for (d = 1; d <= nd; d++) printf "\t%s", devices[d]; printf "\n"
      for (v = 1; v <= nv; v++) {
        printf "%s", variants[v]
        for (d = 1; d <= nd; d++) printf "\t%s", ((variants[v], devices[d]) in value) ? value[variants[v], devices[d]] : "?"
        printf "\n"
      }
      printf "%s %s %s\n", top, items, bytes > about
      print stamps > (about ".stamp")
    }' "$work/rows.csv" > "$work/$name.tsv"
  read -r top items bytes < "$work/$name.input"
  stamp=$(cat "$work/$name.input.stamp")
  columns=$(head -1 "$work/$name.tsv" | awk -F'\t' '{ print NF }')
  variants=$(($(wc -l < "$work/$name.tsv") - 1))
  bar_colours=""
  copy_lines=""
  off_scale=""
  while IFS= read -r device; do
    bar_colours+="${colour[$device]} "
    key=$device
    [ -n "${copy[$sample|$device]:-}" ] && key=$sample\|$device
    rate=${copy[$key]:-}
    [ -n "$rate" ] || continue
    if awk -v t="$top" -v r="$rate" 'BEGIN { exit !(t >= r / 10) }'; then
      copy_lines+=", $rate with lines dashtype 2 linewidth 2 linecolor rgb \"${colour[$device]}\" title \"$device: device-to-device copy, $rate GB/s (bytes read + written; ${copy_stamp[$key]})\""
    else
      off_scale+="\\n$device: a device-to-device copy runs at $rate GB/s (bytes read + written; ${copy_stamp[$key]}), off this scale"
    fi
  done < <(head -1 "$work/$name.tsv" | tr '\t' '\n' | tail -n +2)
  input=$(awk -v i="$items" -v b="$bytes" 'BEGIN {
    if (b == "mixed") printf "%d items; each bar divides by its own input'"'"'s bytes (the table beside the chart)", i
    else printf "%d items, %.1f MB read (MB = 10^6 bytes)", i, b / 1e6 }')
  gnuplot <<EOF
set terminal svg size 900,520 dynamic enhanced font "sans,12" background rgb "white"
set output "docs/charts/$name.svg"
set datafile separator "\t"
set datafile missing "?"
set title "$sample ($suffix): GB/s of input read, GB = 10^9 bytes (higher is better)\\n$input, $stamp$off_scale" noenhanced
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
plot for [c=2:$columns] "$work/$name.tsv" using c:xtic(1) title columnheader(c) linecolor rgb word(colours, c - 1)$copy_lines
EOF
  echo "charts: docs/charts/$name.svg"
done < <(awk -F, '$2 != "size_sweep" { print $2 "\t" $1 }' "$work/rows.csv" | awk '!seen[$0]++')

# The string-gather grid (docs/data/benchmarks/string_gather-LABEL.csv, Google Benchmark's CSV): a heat
# map of the automatic strategy's share of a plain copy of the same bytes, per string count and average
# length, with each cell's percentage written in it. A cell not measured is grey (off the blue scale) and says n/a,
# never a colour of the scale; the title names the commit and date of the stamped CSV beside the
# benchmark's (docs/data/string_gather-LABEL.csv).
for grid in docs/data/benchmarks/string_gather-*.csv; do
  label=$(basename "$grid" .csv)
  python3 - "$grid" > "$work/$label.cells" <<'PY'
import csv, sys
lines = open(sys.argv[1]).read().splitlines()
start = next(i for i, line in enumerate(lines) if line.startswith("name,"))
for row in csv.DictReader(lines[start:]):
    parts = row["name"].split("/")
    if parts[0] == "BM_gather" and parts[1] == "automatic" and row["pct_of_copy"]:
        print(parts[2], parts[3], row["pct_of_copy"])
PY
  counts=$(cut -d' ' -f1 "$work/$label.cells" | sort -n -u | tr '\n' ' ')
  lengths=$(cut -d' ' -f2 "$work/$label.cells" | sort -n -u | tr '\n' ' ')
  # Cells as (column index, row index, percent): the axes are evenly spaced categories.
  awk -v counts="$counts" -v lengths="$lengths" '
    BEGIN { nc = split(counts, c, " "); for (i = 1; i <= nc; i++) ci[c[i]] = i - 1
            nl = split(lengths, l, " "); for (i = 1; i <= nl; i++) li[l[i]] = i - 1 }
    { print ci[$1], li[$2], $3; have[ci[$1], li[$2]] = 1 }
    END { for (i = 0; i < nc; i++) for (j = 0; j < nl; j++) if (!((i, j) in have)) print i, j > missing }' \
    missing="$work/$label.missing" "$work/$label.cells" > "$work/$label.xyz"
  [ -s "$work/$label.missing" ] || echo "-10 -10" > "$work/$label.missing"  # nothing missing: off the plot
  stamped=docs/data/$label.csv
  stamp="commit and date not recorded"
  if [ -f "$stamped" ]; then
    stamp=$(python3 -c "import csv, sys; sys.path.insert(0, 'scripts'); import svg_parts; print(svg_parts.stamp_line(list(csv.DictReader(open('$stamped')))))")
  fi
  xtics=$(echo "$counts" | awk '{ for (i = 1; i <= NF; i++) printf "%s\"%s\" %d", (i > 1 ? ", " : ""), $i, i - 1 }')
  ytics=$(echo "$lengths" | awk '{ for (i = 1; i <= NF; i++) printf "%s\"%s\" %d", (i > 1 ? ", " : ""), $i, i - 1 }')
  gnuplot <<GNUPLOT
set terminal svg size 900,560 dynamic enhanced font "sans,12" background rgb "white"
set output "docs/charts/$label.svg"
set title "gather_strings, automatic strategy: % of a device-to-device copy of the same bytes (higher is better)\n$label: one cell per string count and average length; $stamp; grey, n/a: not measured" noenhanced
set xlabel "strings"
set ylabel "average length (bytes)"
set xtics ($xtics)
set ytics ($ytics)
set cbrange [0:100]
set cblabel "% of copy"
set palette defined (0 "#f7fbff", 50 "#6baed6", 100 "#08306b")
unset key
set xrange [-0.5:$(echo "$counts" | wc -w) - 0.5]
set yrange [-0.5:$(echo "$lengths" | wc -w) - 0.5]
set style fill solid 1.0 noborder
plot "$work/$label.xyz" using 1:2:(0.5):(0.5):3 with boxxyerror fillcolor palette notitle, \
     "" using 1:2:(sprintf("%.0f", \$3)) with labels font ",11" notitle, \
     "$work/$label.missing" using 1:2:(0.5):(0.5) with boxxyerror fillstyle solid 1.0 fillcolor rgb "#bdbdbd" notitle, \
     "" using 1:2:("n/a") with labels font ",10" textcolor rgb "#555555" notitle
GNUPLOT
  echo "charts: docs/charts/$label.svg"
done

# The host engine's scaling (docs/performance.md, "The host engine"), drawn by scripts/scaling_chart.py:
# as the code is on the 2-GPU machine's 32 cores, then earlier commits on the H100 machine and the H200s.
python3 scripts/scaling_chart.py docs/data/host_scaling-h100x2.csv s413.txt docs/charts/host_scaling_413-h100x2.svg \
  "rowscan stations --devices cpu against the CPU programs, 1 to 32 cores: 413 stations, 2.8 GB"
python3 scripts/scaling_chart.py docs/data/host_scaling-h100x2.csv s10k.txt docs/charts/host_scaling_10k-h100x2.svg \
  "The same: 10,000 stations, 3.8 GB"
python3 scripts/scaling_chart.py docs/data/host_engine-h100.csv s413.txt docs/charts/host_scaling_413-h100.svg \
  "rowscan stations --devices cpu against the CPU programs: 413 stations, 2.8 GB"
python3 scripts/scaling_chart.py docs/data/host_engine-h100.csv s10k.txt docs/charts/host_scaling_10k-h100.svg \
  "rowscan stations --devices cpu against the CPU programs: 10,000 stations, 3.8 GB"
python3 scripts/scaling_chart.py docs/data/host_engine-h200x2.csv s413.txt docs/charts/host_scaling_413-h200x2.svg \
  "The same on 32 cores: 413 stations, 2.8 GB"
echo "charts: docs/charts/host_scaling_*.svg"

# Throughput against input size (samples/size_sweep; docs/size_sweep.md): lines over a log axis of
# sizes, as moderngpu draws its primitives, not bars.
for sweep in docs/data/size_sweep-*.csv; do
  label=$(basename "$sweep" .csv)
  python3 scripts/size_sweep_chart.py "$sweep" "docs/charts/$label.svg" \
    "Throughput against input size, ${label#size_sweep-}: copy, reduce, scan, sort, the stations fast path"
  echo "charts: docs/charts/$label.svg"
done
