#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Compares `rowscan group --format csv` (one value column) with DuckDB's rows (scripts/group_duckdb.cjs's,
# '|' between the columns, or scripts/duckdb_query.c's, a tab between them):
#   scripts/group_compare.py ROWSCAN_CSV DUCKDB_ROWS
# count, min, max and sum per key must be equal (DuckDB's empty figures are rowscan's), and rowscan's mean
# must be sum / count rounded half up at the sum's scale. Exit 1 on the first difference.
import csv
import sys
from decimal import Decimal, ROUND_FLOOR

ours = {}
with open(sys.argv[1], newline="", encoding="utf-8", errors="surrogateescape") as f:
    rows = csv.reader(f)
    next(rows)
    for key, count, _missing, lo, mean, hi, total, key_hex in rows:
        ours[bytes.fromhex(key_hex).decode("utf-8", "surrogateescape") if key_hex else key] = (count, lo, mean, hi, total)
duck = {}
with open(sys.argv[2], encoding="utf-8", errors="surrogateescape") as f:
    for line in f:
        separator = "\t" if "\t" in line else "|"
        key, count, lo, hi, total = line.rstrip("\n").rsplit(separator, 4)
        lo, hi, total = ("" if v == "NULL" else v for v in (lo, hi, total))
        duck[key] = (count, lo, hi, total)
failures = 0
if set(ours) != set(duck):
    print(f"keys differ: {len(set(ours) ^ set(duck))} in one answer only", file=sys.stderr)
    failures += 1
for key, (count, lo, hi, total) in duck.items():
    mine = ours.get(key)
    if mine is None:
        continue
    if (mine[0], mine[1], mine[3], mine[4]) != (count, lo, hi, total):
        print(f"{key!r}: rowscan {mine}, duckdb {(count, lo, hi, total)}", file=sys.stderr)
        failures += 1
    elif int(count) > 0:
        s = Decimal(total)
        quantum = Decimal(1).scaleb(s.as_tuple().exponent)
        want = (s / int(count) + quantum / 2).quantize(quantum, rounding=ROUND_FLOOR)
        if Decimal(mine[2]) != want:
            print(f"{key!r}: mean {mine[2]}, sum / count half up {want}", file=sys.stderr)
            failures += 1
    if failures > 10:
        break
if failures:
    sys.exit(f"group_compare: {failures} difference(s)")
print(f"group_compare: {len(duck)} keys agree")
