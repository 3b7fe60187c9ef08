#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the teaching samples for the GPU (the `cuda` preset) and runs the parts that need one, writing
# stamped CSVs (each row: its device, input bytes, commit and date) and each run's printout into OUT:
#
#   scripts/teaching_device.sh OUT
#
#   OUT/privatization-h100.csv       privatization at 413 and 41,343 stations, 1e8 rows: float_atomics,
#                                    shared_table (413 only: 41,343 do not fit), host_table,
#                                    sort_reduce_by_key, histogram (where CUB's storage fits)  -> docs/privatization.md
#   OUT/privatization-h100.txt       its printout: the GPU's float answer against the exact one, the
#                                    shared-memory arithmetic, CUB's histogram storage
#   OUT/privatization_divergence-h100.csv   ncu's SourceCounters on float_atomics (Avg. Divergent
#                                    Branches, the SM count, the total): the blog's T4 question on the H100
#   OUT/occupancy-h100.csv (+ .txt)  the block-size sweep of two kernels, 2^28 elements; the printout
#                                    has the occupancy API's blocks per SM beside the calculator's, and
#                                    the refused launch                                        -> docs/occupancy.md
#   OUT/bank_conflicts-h100.csv      kernel 2's tree as written and padded, 2^28 values          -> docs/reduction.md
#   OUT/stations_steps_10k-h100.csv  steps 1, 3 and 4 on 1e8 rows of 10,000 stations            -> docs/README.md (path 4)
#   OUT/scan_trace-h100.txt          the scan traces, with Thrust's CUDA scans checked against them
#   OUT/sticky-h100.txt, OUT/sanitizer-h100.txt   `occupancy sticky` (a kernel's fault: late, sticky), and
#                                    compute-sanitizer's report of the same run (if it is installed)
#   OUT/scan_ladder-h100.csv         Blelloch's three passes against CUB's one, 2^28 uint32      -> docs/scan.md
#   OUT/size_sweep-h100.csv (+ .txt) copy, reduce, scan, sort and the stations fast path, 1 KiB to 1 GiB
#                                    (doubling)                          -> docs/size_sweep.md, docs/charts/
#   OUT/grid_launch-h100.txt         `occupancy --grid 65536,1` and `--grid 1,65536`: the launches of
#                                    docs/occupancy.md's exercise 3 (copy it to docs/data/ as well)
#
#   LABEL=h100  REPEAT=10  PRIVATIZATION_ROWS=100000000  STATION_ROWS=100000000  DATA_DIR=/tmp
#   SCAN_SIZE=268435456 (values)  SWEEP_SIZE=1073741824 (bytes)
#   STEPS="build run" (either alone splits the work between two calls of 10 minutes)
#   PARTS="scan_trace privatization occupancy sticky bank_conflicts stations_steps_10k divergence scan_ladder
#          size_sweep grid" (the default: all; name some to run only those, and build only their samples)
#
# Then, in the repository: cp OUT/*.csv docs/data/ && scripts/docs_snippets.py && scripts/charts.sh
# (size_sweep's chart is drawn by scripts/size_sweep_chart.py, which needs only Python), and add the
# csv-select tables that the pages name. Needs the CUDA toolkit at /usr/local/cuda, CMake,
# Ninja and cxxopts (.device-deps/usr serves as the prefix where the Debian packages are missing, as in
# scripts/device_build.sh); ncu is optional (without it the divergence CSV is left out).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
out=${1:-${OUT:?usage: scripts/teaching_device.sh OUT}}
label=${LABEL:-h100}
repeat=${REPEAT:-10}
steps=${STEPS:-build run}
export REPEAT=$repeat PRIVATIZATION_ROWS=${PRIVATIZATION_ROWS:-100000000} STATION_ROWS=${STATION_ROWS:-100000000}
export SCAN_SIZE=${SCAN_SIZE:-268435456} SWEEP_SIZE=${SWEEP_SIZE:-1073741824}
all_parts="scan_trace privatization occupancy sticky bank_conflicts stations_steps_10k divergence scan_ladder size_sweep grid"
parts=${PARTS:-$all_parts}
for p in $parts; do
  [[ " $all_parts " == *" $p "* ]] || { echo "teaching_device: unknown part '$p' (one of: $all_parts)" >&2; exit 2; }
done
part() { [[ " $parts " == *" $1 "* ]]; }
mkdir -p "$out"
commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
export COMMIT=$commit
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
stamp() {  # adds the commit and the date to every row of a CSV
  awk -v c="$commit" -v d="$date" 'NR == 1 {print $0 ",commit,date"; next} {print $0 "," c "," d}' "$1" > "$1.tmp"
  mv "$1.tmp" "$1"
}

if [[ " $steps " == *" build "* ]]; then
  prefix=()
  [ -d .device-deps/usr ] && prefix=(-DCMAKE_PREFIX_PATH="$PWD/.device-deps/usr")
  echo "== configure and build the cuda preset's teaching samples (commit $commit)" >&2
  cmake --preset cuda -DROWSCAN_BUILD_TESTS=OFF "${prefix[@]}" > /dev/null
  targets=()
  part scan_trace && targets+=(scan_trace)
  part privatization || part divergence && targets+=(privatization)
  part occupancy || part sticky || part grid && targets+=(occupancy)
  part bank_conflicts && targets+=(bank_conflicts)
  part stations_steps_10k && targets+=(rowscan stations_01_naive stations_03_fused stations_04_dictionary)
  part scan_ladder && targets+=(scan_ladder)
  part size_sweep && targets+=(size_sweep)
  cmake --build --preset cuda -j "$(nproc)" --target "${targets[@]}"
fi
[[ " $steps " == *" run "* ]] || exit 0

build=build/cuda
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.memory --format=csv \
  > "$out/teaching-$label.gpu.txt" 2>&1 || true

# The three parts below are new measurements: one that fails says so (its printout is in OUT) and the
# rest still run.
if part grid; then
  echo "== occupancy --grid: 65,536 blocks in x, then in y (docs/occupancy.md, exercise 3)" >&2
  { "$build/samples/occupancy" --grid 65536,1; "$build/samples/occupancy" --grid 1,65536; } 2>&1 \
    | tee "$out/grid_launch-$label.txt" || echo "teaching_device: a --grid launch did not do what the limits say" >&2
fi

if part scan_ladder; then
  echo "== scan_ladder: Blelloch's three passes, CUB's one, Thrust's, $SCAN_SIZE values" >&2
  scripts/samples_csv.sh "$build" "$label" "$out" scan_ladder 2> >(tee "$out/scan_ladder-$label.txt" >&2) ||
    echo "teaching_device: scan_ladder failed (OUT/scan_ladder-$label.txt)" >&2
fi

if part size_sweep; then
  echo "== size_sweep: copy, reduce, scan, sort, the stations fast path, 1 KiB to $SWEEP_SIZE bytes" >&2
  scripts/samples_csv.sh "$build" "$label" "$out" size_sweep 2> >(tee "$out/size_sweep-$label.txt" >&2) ||
    echo "teaching_device: size_sweep failed (OUT/size_sweep-$label.txt)" >&2
fi


if part scan_trace; then
  echo "== scan_trace" >&2
  "$build/samples/scan_trace" | tee "$out/scan_trace-$label.txt"
fi

if part privatization; then
  echo "== privatization, $PRIVATIZATION_ROWS rows, 413 and 41,343 stations" >&2
  scripts/samples_csv.sh "$build" "$label" "$out" privatization 2> >(tee "$out/privatization-$label.txt" >&2)
fi

if part occupancy; then
  echo "== occupancy: block-size sweep, refused launch" >&2
  "$build/samples/occupancy" --repeat "$repeat" --csv > "$out/occupancy-$label.csv" 2> "$out/occupancy-$label.txt"
  stamp "$out/occupancy-$label.csv"
  cat "$out/occupancy-$label.txt"
fi

if part sticky; then
  echo "== occupancy sticky: a kernel's fault, reported late and sticky; then the same under compute-sanitizer" >&2
  "$build/samples/occupancy" sticky | tee "$out/sticky-$label.txt" || true
  sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
  if [ -n "$sanitizer" ]; then
    "$sanitizer" --tool memcheck "$build/samples/occupancy" sticky > "$out/sanitizer-$label.txt" 2>&1 || true
    head -20 "$out/sanitizer-$label.txt"
  fi
fi

if part bank_conflicts; then
  echo "== bank_conflicts: kernel 2 as written and padded" >&2
  "$build/samples/bank_conflicts" --repeat "$repeat" --csv > "$out/bank_conflicts-$label.csv" \
    2> "$out/bank_conflicts-$label.txt"
  stamp "$out/bank_conflicts-$label.csv"
fi

if part stations_steps_10k; then
  echo "== stations steps 1, 3, 4 on 10,000 stations, $STATION_ROWS rows" >&2
  scripts/samples_csv.sh "$build" "$label" "$out" stations_steps_10k
fi

ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || true)}
if part divergence && [ -n "$ncu" ]; then
  echo "== ncu SourceCounters on float_atomics (413 stations)" >&2
  rows=10000000
  timeout 280 "$ncu" --clock-control none --section SourceCounters \
    --metrics smsp__sass_branch_targets_threads_divergent.sum,device__attribute_multiprocessor_count \
    --kernel-name regex:float_atomics --launch-count 1 --csv --page details \
    "$build/samples/privatization" 413 --size "$rows" --repeat 1 > "$out/privatization_divergence-$label.ncu.csv" || true
  python3 - "$out/privatization_divergence-$label.ncu.csv" "$out/privatization_divergence-$label.csv" "$rows" "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)" <<'PY'
import csv, sys
source, target, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = [l for l in open(source, encoding="utf-8", errors="replace") if l.startswith('"')]
values, device = {}, ""
for row in csv.DictReader(lines):
    values[row.get("Metric Name", "")] = row.get("Metric Value", "").replace(",", "")
    device = row.get("Device Name", device)
device = device or sys.argv[4]  # ncu's SourceCounters table may not name the device
need = ["Avg. Divergent Branches", "Branch Efficiency", "smsp__sass_branch_targets_threads_divergent.sum",
        "device__attribute_multiprocessor_count"]
if not all(n in values for n in need):
    sys.exit("privatization_divergence: ncu printed no " + ", ".join(n for n in need if n not in values))
with open(target, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")  # the stamp appends to each line: no CR before it
    w.writerow(["sample", "device", "kernel", "avg_divergent_branches", "multiprocessors",
                "divergent_branch_targets_sum", "branch_efficiency_pct", "input_bytes"])
    w.writerow(["privatization_413", device, "float_atomics", values[need[0]], values[need[3]], values[need[2]],
                values[need[1]], rows * 4])
PY
  stamp "$out/privatization_divergence-$label.csv"
fi
ls -l "$out" >&2
