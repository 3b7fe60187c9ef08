#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Nsight Compute's raw CSV (scripts/profile_device.sh) reduced to the counters the docs explain.

    scripts/ncu_summary.py ladder   ncu-ladder.csv   COMMIT DATE INPUT_BYTES > docs/data/profile-h100-ladder.csv
    scripts/ncu_summary.py stations ncu-stations.csv COMMIT DATE INPUT_BYTES > docs/data/profile-h100-stations.csv

INPUT_BYTES: the profiled program's input (the ladder's: 4 bytes a value; the stations run's: its file).

ladder:   one row per hand-written rung, its first launch over the whole input (the largest grid): the
          later launches of a rung sum a few partials and say nothing about it.
stations: one row per launch of the first fast-path block in the file: the launches from the scan that
          finds and parses its lines to the segmented reduce that ends it (the blocks before it took
          the general path, which teaches the dictionary).
Columns: sample,device,launch (1, 2, ... in the order they ran),kernel,stage,grid,block,registers,time_us,dram_read_mb,instructions,
threads_per_instruction,divergent_branch_targets,shared_loads,shared_load_conflicts,shared_stores,
shared_store_conflicts,achieved_occupancy_pct,theoretical_occupancy_pct,input_bytes,commit,date
Standard library only.
"""
import csv
import sys

RUNGS = {"reduce1_divergent": 1, "reduce2_strided_index": 2, "reduce3_sequential": 3, "reduce4_first_add": 4,
         "reduce5_unroll_last_warp": 5, "reduce6_unrolled": 6, "reduce7_many_per_thread": 7,
         "reduce_with_block_reduce": 8, "reduce_atomic": 12}  # the ladder's numbering (docs/reduction.md)
COLUMNS = ["sample", "device", "launch", "kernel", "stage", "grid", "block", "registers", "time_us", "dram_read_mb",
           "instructions", "threads_per_instruction", "divergent_branch_targets", "shared_loads",
           "shared_load_conflicts", "shared_stores", "shared_store_conflicts", "achieved_occupancy_pct",
           "theoretical_occupancy_pct", "input_bytes", "commit", "date"]


def launches(path):
    """The launches in ncu's raw CSV (a header row, a units row, then one row per launch)."""
    rows = list(csv.reader(open(path, encoding="utf-8")))
    start = next(i for i, row in enumerate(rows) if row and row[0] == "ID")
    header = rows[start]
    return [dict(zip(header, row)) for row in rows[start + 2:] if len(row) == len(header)]


def short_name(full):
    """`void ns::kernel<T, U>(args)` -> `kernel`: the name outside every template and argument list."""
    kept, depth = "", 0
    for ch in full:
        if ch == "(" and depth == 0:
            break
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth = max(0, depth - 1)  # ncu prints an anonymous namespace as `unnamed>::`
        elif depth == 0:
            kept += ch
    return kept.split("::")[-1].strip().split()[-1]


def number(launch, metric):
    return float(launch.get(metric, "0").replace(",", "") or 0)


def row(sample, order, launch, stage, commit, date):
    return [sample, launch["device__attribute_display_name"], order, short_name(launch["Kernel Name"]), stage,
            int(number(launch, "launch__grid_size")), int(number(launch, "launch__block_size")),
            int(number(launch, "launch__registers_per_thread")),
            f"{number(launch, 'gpu__time_duration.sum') / 1e3:.1f}",
            f"{number(launch, 'dram__bytes_read.sum') / 1e6:.2f}",
            int(number(launch, "smsp__inst_executed.sum")),
            f"{number(launch, 'smsp__thread_inst_executed_per_inst_executed.ratio'):.2f}",
            int(number(launch, "smsp__sass_branch_targets_threads_divergent.sum")),
            int(number(launch, "smsp__sass_inst_executed_op_shared_ld.sum")),
            int(number(launch, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")),
            int(number(launch, "smsp__sass_inst_executed_op_shared_st.sum")),
            int(number(launch, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")),
            f"{number(launch, 'sm__warps_active.avg.pct_of_peak_sustained_active'):.1f}",
            f"{number(launch, 'sm__maximum_warps_per_active_cycle_pct'):.0f}", commit, date]


def ladder(path, commit, date):
    found = {}
    for launch in launches(path):
        name = short_name(launch["Kernel Name"])
        if name in RUNGS and "float" not in launch["Kernel Name"]:
            best = found.get(name)
            if best is None or number(launch, "launch__grid_size") > number(best, "launch__grid_size"):
                found[name] = launch
    kept = [(name, rung) for name, rung in RUNGS.items() if name in found]
    return [row("reduction_ladder", i + 1, found[name], f"rung {rung}", commit, date) for i, (name, rung) in enumerate(kept)]


def stage_of(launch):
    full, name = launch["Kernel Name"], short_name(launch["Kernel Name"])
    if "line_interval" in full:
        return "find + parse"
    if name.startswith("DeviceRadixSort"):
        return "sort"
    if "binary_search" in full or name == "DeviceSegmentedReduceKernel":
        return "reduce"
    if "uninitialized_fill" in full or "__fill" in full:
        return "fill (a resized array's zeros)"
    return "other"


def stations(path, commit, date):
    every = launches(path)
    # The general path ends at its reduce_by_key; the fast path begins with the word scan's tile state.
    general = max(i for i, launch in enumerate(every) if "ReduceByKeyAgent" in launch["Kernel Name"])
    begin = next(i for i in range(general + 1, len(every))
                 if "ScanTileState<rowscan::line_interval" in every[i]["Kernel Name"])
    end = next(i for i in range(begin, len(every)) if short_name(every[i]["Kernel Name"]) == "DeviceSegmentedReduceKernel")
    return [row("stations_fast_block", i + 1, launch, stage_of(launch), commit, date)
            for i, launch in enumerate(every[begin:end + 1])]


def main(argv):
    if len(argv) != 6 or argv[1] not in ("ladder", "stations"):
        sys.exit(__doc__)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(COLUMNS)
    rows = (ladder if argv[1] == "ladder" else stations)(argv[2], argv[3], argv[4])
    out.writerows(r[:-2] + [argv[5]] + r[-2:] for r in rows)


if __name__ == "__main__":
    main(sys.argv)
