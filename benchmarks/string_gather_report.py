#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns rowscan_string_gather_benchmark's CSV into the Markdown of docs/string-gather.md, section 8.

    string_gather_report.py string_gather.csv > grid.md

Prints: the grid (automatic GB/s and % of copy; char-parallel / string-parallel GB/s), a bar chart of
automatic's % of copy per cell, the lanes table (BM_gather_lanes rows), the split of the lanes cells
(step 1 alone, and CUB's batched memcpy as a yardstick), and the crossover of the
char-parallel and string-parallel rows (the smallest average length from which string-parallel wins
for every string count). GB = 1e9; GB/s counts the characters gathered once.
"""
import csv
import sys
from collections import defaultdict


def fmt(x):
    """GB/s to print: whole numbers on a GPU, two decimals for the small numbers of a CPU run."""
    return "-" if x is None else f"{x:.0f}" if x >= 10 else f"{x:.2f}"


def rows(path):
    with open(path, newline="") as f:
        lines = f.readlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("name,"))  # skip the context lines
    for row in csv.DictReader(lines[start:]):
        if row.get("error_occurred") in ("true", "1"):
            continue
        parts = row["name"].split("/")
        yield parts, row


def main(path):
    gather = defaultdict(dict)  # (strings, avg) -> strategy -> row
    lanes = defaultdict(dict)   # (strings, avg) -> lanes -> GB/s
    for parts, row in rows(path):
        if parts[0] == "BM_copy":
            gather[(int(parts[1]), int(parts[2]))]["copy"] = row
        elif parts[0] == "BM_gather":
            gather[(int(parts[2]), int(parts[3]))][parts[1]] = row
        elif parts[0] == "BM_gather_lanes":
            lanes[(int(parts[1]), int(parts[2]))][int(parts[3])] = float(row["GB/s"])
        elif parts[0] in ("BM_offsets", "BM_cub_batched_memcpy", "BM_random_rows"):
            gather[(int(parts[1]), int(parts[2]))][parts[0]] = row
    counts = sorted({c for c, _ in gather})
    averages = sorted({a for _, a in gather})

    def gbs(cell, strategy):
        row = gather.get(cell, {}).get(strategy)
        return float(row["GB/s"]) if row else None

    print("| strings \\ average length | " + " | ".join(str(a) for a in averages) + " |")
    print("| --- |" + " --- |" * len(averages))
    for c in counts:
        cells = []
        for a in averages:
            auto = gather.get((c, a), {}).get("automatic")
            if auto is None:
                cells.append("—")
                continue
            pct = float(auto["pct_of_copy"])
            char, string = gbs((c, a), "char_parallel"), gbs((c, a), "string_parallel")
            cells.append(f"**{fmt(float(auto['GB/s']))}** ({pct:.0f}%); {fmt(char)} / {fmt(string)}")
        print(f"| {c:,} | " + " | ".join(cells) + " |")
    print("\nEach cell: automatic GB/s of chars gathered (% of BM_copy of the same bytes); "
          "char-parallel / string-parallel GB/s.\n")

    print("```text\nautomatic, % of copy (one # per 4%)")
    for c in counts:
        for a in averages:
            auto = gather.get((c, a), {}).get("automatic")
            if auto is not None:
                pct = float(auto["pct_of_copy"])
                print(f"{c:>10,} x {a:<5} {'#' * min(round(pct / 4), 30):<30} {pct:5.1f}%")
    print("```\n")

    if lanes:
        all_lanes = sorted({n for per in lanes.values() for n in per})
        print("| string-parallel GB/s at | " + " | ".join(f"{n} lanes" for n in all_lanes) + " | best |")
        print("| --- |" + " --- |" * (len(all_lanes) + 1))
        for cell in sorted(lanes):
            per = lanes[cell]
            best = max(per, key=per.get)
            print(f"| {cell[0]:,} x {cell[1]} | " + " | ".join(fmt(per.get(n)) for n in all_lanes) + f" | {best} |")
        print()

    def ms(row):
        return float(row["real_time"]) if row["time_unit"] == "ms" else float(row["real_time"]) / 1e6

    split = [cell for cell in sorted(gather) if "BM_offsets" in gather[cell]]
    if split:
        print("| cell | copy (ms) | automatic (ms) | of which step 1, starts and offsets (ms) | "
              "cub::DeviceMemcpy::Batched after step 1 (ms) | random aligned 32-byte rows (ms) |")
        print("| --- | --- | --- | --- | --- | --- |")

        def yardstick(row):
            return f"{ms(row):.3f} ({float(row['pct_of_copy']):.0f}%)" if row else "-"

        for cell in split:
            g = gather[cell]
            print(f"| {cell[0]:,} x {cell[1]} | {ms(g['copy']):.3f} | {ms(g['automatic']):.3f} "
                  f"({float(g['automatic']['pct_of_copy']):.0f}%) | {ms(g['BM_offsets']):.3f} | "
                  f"{yardstick(g.get('BM_cub_batched_memcpy'))} | {yardstick(g.get('BM_random_rows'))} |")
        print()

    crossover = None
    for a in averages:
        wins = [gbs((c, a), "string_parallel") >= gbs((c, a), "char_parallel")
                for c in counts if gbs((c, a), "string_parallel") is not None and gbs((c, a), "char_parallel") is not None]
        if wins and all(wins):
            crossover = a
            break
    print(f"Smallest average length at which string-parallel wins for every string count: {crossover}")


if __name__ == "__main__":
    main(sys.argv[1])
