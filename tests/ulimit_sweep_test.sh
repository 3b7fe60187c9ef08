#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every allocation failure is one `rowscan: error:` line with exit code 1:
#   tests/ulimit_sweep_test.sh ROWSCAN_EXE [ROUNDS]
# Runs rowscan under a sweep of `ulimit -v` limits, with two compute threads and small chunks over many
# distinct names (so that the general grouper's merge sorts inside OpenMP regions while memory runs out;
# 1-2 KiB chunks still make hundreds of merges and allocations a run, and smaller ones only made the sweep
# slow: each merge costs the size of the worker's table, and under a limit glibc tries and fails to map a
# new malloc arena at many an allocation),
# and fails on any signal, any exit code other than 0 and 1, any stderr that is not exactly one line
# starting with `rowscan: error:` on a failure (or empty on success), and any answer that differs from
# the unlimited run's.
set -u
exe=$1
rounds=${2:-1}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/rowscan-ulimit-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
"$exe" generate measurements --rows 12000 --stations 8000 --seed 29 -o "$scratch/m.txt" || exit 1
"$exe" generate lineitem --scale 0.002 --seed 29 -o "$scratch/l.tbl" || exit 1
OMP_NUM_THREADS=2 "$exe" stations "$scratch/m.txt" --chunk-size 1K >"$scratch/m.expected" || exit 1
OMP_NUM_THREADS=2 "$exe" lineitem "$scratch/l.tbl" --suppkey-below 50 --chunk-size 2K >"$scratch/l.expected" || exit 1

failures=0
runs=0
answered=0
check() {  # check LIMIT_KIB EXPECTED ARGS...
  kib=$1
  expected=$2
  shift 2
  (ulimit -v "$kib"; OMP_NUM_THREADS=2 exec "$exe" "$@" </dev/null >"$scratch/out" 2>"$scratch/err")
  code=$?
  runs=$((runs + 1))
  lines=$(wc -l <"$scratch/err")
  what="ulimit -v $kib: rowscan $*"
  if [ "$code" -eq 0 ]; then
    answered=$((answered + 1))
    if ! cmp -s "$scratch/out" "$expected" || [ -s "$scratch/err" ]; then
      echo "FAIL: $what: exit 0 with a different answer or stderr: $(head -c 300 "$scratch/err")"
      failures=$((failures + 1))
    fi
  elif [ "$code" -eq 1 ]; then
    if [ "$lines" -ne 1 ] || ! head -n 1 "$scratch/err" | grep -q '^rowscan: error: ' || [ -s "$scratch/out" ]; then
      echo "FAIL: $what: exit 1 with stderr: $(head -c 300 "$scratch/err")"
      failures=$((failures + 1))
    fi
  else
    echo "FAIL: $what: exit $code (a signal, if over 128): $(head -c 300 "$scratch/err")"
    failures=$((failures + 1))
  fi
}

# The sweep starts where the process can start at all: the loader's failure to map a shared library is
# not rowscan's to report, and the CUDA build (cudart, MPI) needs more address space to load than the
# cpu build, which loads below 36,000 KiB.
start=36000
while [ "$start" -lt 4000000 ] && ! (ulimit -v "$start"; exec "$exe" --version) >/dev/null 2>&1; do
  start=$((start + 2000))
done

round=0
while [ "$round" -lt "$rounds" ]; do
  kib=$start
  while [ "$kib" -le $((start + 26000)) ]; do
    check "$kib" "$scratch/m.expected" stations "$scratch/m.txt" --chunk-size 1K
    check "$kib" "$scratch/m.expected" stations "$scratch/m.txt" --chunk-size 4K
    check "$kib" "$scratch/l.expected" lineitem "$scratch/l.tbl" --suppkey-below 50 --chunk-size 2K
    kib=$((kib + 2000))
  done
  round=$((round + 1))
done
echo "ulimit sweep: $runs runs, $answered answered, $failures failed"
[ "$answered" -gt 0 ] || { echo "FAIL: no limit let rowscan answer: the sweep checks nothing"; exit 1; }
[ "$failures" -eq 0 ]
