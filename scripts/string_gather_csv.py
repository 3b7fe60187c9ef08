#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""rowscan_string_gather_benchmark's CSV (Google Benchmark's, with its context lines) as a docs/data CSV
with one row per benchmark and the commit, the date, the device and the bytes on every row:

    scripts/string_gather_csv.py RAW.csv DEVICE COMMIT > docs/data/string_gather-h100.csv

The date is the raw file's first line (Google Benchmark's context); rows that failed are left out;
with --benchmark_repetitions, only the median rows are kept.
Columns: benchmark,strategy,strings,avg_len,lanes,ms,gb_per_s,pct_of_copy,input_bytes,device,commit,date
(benchmark: BM_gather, BM_copy, BM_gather_lanes, ...; strategy: automatic, char_parallel,
string_parallel or empty; input_bytes: the characters one call gathers or copies, bytes_per_second
x time; gb_per_s counts them once, GB = 1e9.) Standard library only.
"""
import csv
import sys

UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def main(raw, device, commit):
    lines = open(raw, encoding="utf-8").readlines()
    date = lines[0].strip()
    start = next(i for i, line in enumerate(lines) if line.startswith("name,"))
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["benchmark", "strategy", "strings", "avg_len", "lanes", "ms", "gb_per_s", "pct_of_copy", "input_bytes",
                  "device", "commit", "date"])
    for row in csv.DictReader(lines[start:]):
        if row.get("error_occurred") in ("true", "1"):
            continue
        name = row["name"]
        if "_mean" in name or "_stddev" in name or "_cv" in name:
            continue
        parts = name.replace("_median", "").split("/")
        strategy = parts[1] if parts[0] == "BM_gather" else ""
        seconds = float(row["real_time"]) * UNIT[row["time_unit"]]
        gathered = float(row["bytes_per_second"] or 0) * seconds
        # the sizes from the name: counters print 16,777,216 as 1.67772e+07
        numbers = [p for p in parts if p.isdigit()] + ["", "", ""]
        lanes = numbers[2] or (f"{float(row['lanes']):.0f}" if row.get("lanes") else "")
        out.writerow([parts[0], strategy, numbers[0], numbers[1], lanes,
                      f"{seconds * 1e3:.4f}", row.get("GB/s", ""), row.get("pct_of_copy", ""), f"{gathered:.0f}",
                      device, commit, date])


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
