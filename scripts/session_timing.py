#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Times a rowscan.Session from Python, as a notebook uses it: `import rowscan` and Session(), the first
query of a file, then the median of RUNS more queries of it (the cache's), each timed with
time.perf_counter() around the call. Prints one CSV row per figure (docs/python.md, "Measured").

  PYTHONPATH=BUILD/python scripts/session_timing.py [--devices auto] [--runs 5] stations FILE
  PYTHONPATH=BUILD/python scripts/session_timing.py [--devices auto] [--runs 5] lineitem FILE Z1,Z2,...

lineitem's later queries each take other thresholds (Z + 1, Z + 2, ...): the cache keeps data, never an
answer. The answers of the first and the last query are printed to stderr, to be compared with the CLI's.
"""
import argparse
import statistics
import sys
import time

start = time.perf_counter()
import rowscan  # noqa: E402

imported = time.perf_counter() - start


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--devices", default="auto")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--cache-bytes", type=int, default=None)
    p.add_argument("workload", choices=["stations", "lineitem"])
    p.add_argument("file")
    p.add_argument("thresholds", nargs="?", default="")
    a = p.parse_args()

    t = time.perf_counter()
    s = rowscan.Session(devices=a.devices, cache_bytes=a.cache_bytes)
    made = time.perf_counter() - t

    def query(i):
        if a.workload == "stations":
            return s.stations(a.file)
        below = [int(z) + i for z in a.thresholds.split(",")]
        return s.lineitem(a.file, suppkey_below=below)

    t = time.perf_counter()
    first = query(0)
    first_s = time.perf_counter() - t
    later = []
    for i in range(1, a.runs + 1):
        t = time.perf_counter()
        last = query(i)
        later.append(time.perf_counter() - t)
    print("figure,seconds,device,file")
    for name, value in (("import", imported), ("session", made), ("first_query", first_s),
                        ("later_query_median", statistics.median(later))):
        print("%s,%.6f,%s,%s" % (name, value, s.device, a.file))
    print("later queries: %s" % " ".join("%.4f" % x for x in later), file=sys.stderr)
    print("cache: %s" % s.cache_info(), file=sys.stderr)
    print("first answer: %s" % first.text()[:300], file=sys.stderr)
    print("last answer: %s" % last.text()[:300], file=sys.stderr)


main()
