#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The host engine beside other programs, core count by core count: whole-process wall
# times on hot files, every program bound to the same cores with taskset and given as many threads.
# It fetches and builds nothing: it is given the programs to run.
#
#   scripts/host_scaling.sh OUT.csv "CORES..." RUNS FILE... -- NAME=COMMAND...
#
# COMMAND is a shell command line in which {file} and {threads} are replaced, for example
#   rowscan='build/cpu/app/rowscan stations {file}'        (OMP_NUM_THREADS is the core count too)
#   austindonisan='peers/1brc {file} {threads}'
#   lehuyduc='peers/lehuyduc-{threads} {file}; cat result.txt'
#                       (its thread count is compiled in; it writes its answer to result.txt, so the
#                        command prints it: only what a program prints is compared)
# For every file and core count it runs each program RUNS times in turn (program by program within a
# round, so that a drift of the machine touches all alike), checks that every program printed the first
# one's answer (a mean printed as -0.0 counts as 0.0), and appends one CSV row per program (answer is
# same, differs, or failed where a run exited non-zero):
#   program,cores,file,bytes,median_s,min_s,max_s,gb_per_s,per_core_gb_per_s,answer,commit,date,device
# The device is $DEVICE, or the CPU's model name; the commit is $COMMIT, or this checkout's.
set -uo pipefail
if [ $# -lt 5 ]; then
  sed -n '2,/^set/p' "$0" | sed '$d' >&2
  exit 2
fi
csv=$1 cores_list=$2 runs=$3
shift 3
files=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do files+=("$1"); shift; done
[ "${1:-}" = "--" ] || { echo "host_scaling: missing -- before the programs" >&2; exit 2; }
shift
names=() commands=()
for spec in "$@"; do names+=("${spec%%=*}"); commands+=("${spec#*=}"); done

commit=${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
date=$(date -u +%Y-%m-%d)
device=${DEVICE:-$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)}
[ -s "$csv" ] || echo "program,cores,file,bytes,median_s,min_s,max_s,gb_per_s,per_core_gb_per_s,answer,commit,date,device" > "$csv"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# seconds COMMAND...: the wall seconds of one run, output to $scratch/answer.
seconds() {
  local start end
  start=$(date +%s.%N)
  if ! "$@" > "$scratch/answer" 2> "$scratch/stderr"; then
    echo "host_scaling: failed: $* ($(head -c 200 "$scratch/stderr"))" >&2
    : > "$scratch/failed"
  fi
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN {printf "%.4f\n", e - s}'
}

for file in "${files[@]}"; do
  bytes=$(stat -c %s "$file")
  cat "$file" > /dev/null   # a hot page cache
  for cores in $cores_list; do
    cpus="0-$((cores - 1))"
    for i in "${!names[@]}"; do : > "$scratch/times-$i"; rm -f "$scratch/failed-$i"; done
    for ((run = 0; run < runs; run++)); do
      for i in "${!names[@]}"; do
        command=${commands[$i]//\{file\}/$file}
        command=${command//\{threads\}/$cores}
        rm -f "$scratch/failed"
        seconds env OMP_NUM_THREADS="$cores" taskset -c "$cpus" bash -c "$command" >> "$scratch/times-$i"
        [ -e "$scratch/failed" ] && : > "$scratch/failed-$i"
        sed 's/\/-0\.0\//\/0.0\//g' "$scratch/answer" > "$scratch/answer-$i"
      done
    done
    for i in "${!names[@]}"; do
      answer=same
      cmp -s "$scratch/answer-$i" "$scratch/answer-0" || answer=differs
      [ -e "$scratch/failed-$i" ] && answer=failed   # its times are not a program's: never a result
      sort -n "$scratch/times-$i" | awk -v p="${names[$i]}" -v c="$cores" -v f="$(basename "$file")" -v b="$bytes" \
          -v a="$answer" -v commit="$commit" -v date="$date" -v device="$device" '
        { t[NR] = $1 }
        END {
          m = t[int((NR + 1) / 2)]
          printf "%s,%d,%s,%d,%.3f,%.3f,%.3f,%.2f,%.3f,%s,%s,%s,\"%s\"\n", p, c, f, b, m, t[1], t[NR],
                 b / m / 1e9, b / m / 1e9 / c, a, commit, date, device
        }' | tee -a "$csv"
    done
  done
done
