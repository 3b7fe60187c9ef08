#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Nsight Compute's raw CSV (scripts/profile_device.sh) reduced to the counters the docs explain.

    scripts/ncu_summary.py ladder   ncu-ladder.csv   COMMIT DATE INPUT_BYTES > docs/data/profile-h100-ladder.csv
    scripts/ncu_summary.py stations ncu-stations.csv COMMIT DATE INPUT_BYTES [ncu-stations-nvtx.csv] \\
        > docs/data/profile-h100-stations.csv
    scripts/ncu_summary.py lineitem ncu-lineitem.csv COMMIT DATE INPUT_BYTES [ncu-lineitem-nvtx.csv] \\
        > docs/data/profile-h100-lineitem.csv
    scripts/ncu_summary.py roofline docs/data/profile-h100-stations.csv [PEAK_GB_PER_S [COPY_GB_PER_S]] \\
        > docs/data/roofline-h100-stations.csv

INPUT_BYTES: the profiled program's input (the ladder's: 4 bytes a value; a rowscan run's: its file).
Stages: a report profiled with --nvtx holds each launch's stack of NVTX ranges (a column of both files);
the innermost range that is not CUB's or Thrust's own (domain CCCL) is the `--stats` stage that launched
it (rowscan/stage.hpp). Without that column the stages come from *-nvtx.csv, the same report printed with
`--print-nvtx-rename kernel` (profile_device.sh writes both), joined by launch ID: there ncu puts the
innermost range of any domain before the kernel's name, so a launch inside a CUB range loses its stage.

ladder:   one row per hand-written rung, its first launch over the whole input (the largest grid): the
          later launches of a rung sum a few partials and say nothing about it.
stations: one row per launch of the first fast-path block in the file: the launches from the scan that
          finds and parses its lines to the segmented reduce that ends it (the blocks before it took
          the general path, which teaches the dictionary); with NVTX stages, its stages' launches from
          the first `find + parse` after the last `general path` through its `merge`, and the launches
          outside every range between the two (the fills of the arrays the fast path resizes).
lineitem: one row per launch of the second block (the first that reuses the arrays the first one
          allocated; the first block when there is only one): from the transform_reduce that counts its
          lines to the launch before the next block's.
roofline: the rows of a stations or lineitem CSV above grouped by `--stats` stage (stats_stage; without
          NVTX stages, by stage): bytes moved (DRAM read + write), time, GB/s, the share of the DRAM's
          peak (default from the device's name: 3,350 GB/s for an H100 SXM's HBM3) and of the measured
          device-to-device copy (default 3,031 GB/s on the H100, docs/performance-log.md), what bounds it,
          the time its bytes would take at the copy's rate (at_copy_us) and the rest of its time
          (over_copy_us); key: the group's name in lower case, letters and digits joined by `_` (the
          docs quote a row by it); then the fills, the launches of one thread block, the launches under 5 us (a
          launch may be in more than one of these parts) and the whole block, each as one row.

Per-launch columns: sample,device,launch (1, 2, ... in the order they ran),kernel,stage,grid,block,
registers,time_us,dram_read_mb,instructions,threads_per_instruction,divergent_branch_targets,
shared_loads,shared_load_conflicts,shared_stores,shared_store_conflicts,achieved_occupancy_pct,
theoretical_occupancy_pct,dram_write_mb,dram_pct,memory_pct,sm_pct,bound,stats_stage,input_bytes,commit,date
  dram_pct, memory_pct, sm_pct: ncu's "DRAM Throughput", "Memory Throughput" (the busiest of DRAM, L2
  and L1) and "Compute (SM) Throughput", % of their peaks over the launch's elapsed time (empty: not
  collected); bound: `dram` when dram_pct is the larger, `compute` when sm_pct is, `latency/launch` when
  both are under 40% (empty without both); stats_stage: the NVTX range, `(none)` outside every range,
  empty when the report names none.
Standard library only.
"""
import csv
import re
import sys

RUNGS = {"reduce1_divergent": 1, "reduce2_strided_index": 2, "reduce3_sequential": 3, "reduce4_first_add": 4,
         "reduce5_unroll_last_warp": 5, "reduce6_unrolled": 6, "reduce7_many_per_thread": 7,
         "reduce_with_block_reduce": 8, "reduce_atomic": 12}  # the ladder's numbering (docs/reduction.md)
COLUMNS = ["sample", "device", "launch", "kernel", "stage", "grid", "block", "registers", "time_us", "dram_read_mb",
           "instructions", "threads_per_instruction", "divergent_branch_targets", "shared_loads",
           "shared_load_conflicts", "shared_stores", "shared_store_conflicts", "achieved_occupancy_pct",
           "theoretical_occupancy_pct", "dram_write_mb", "dram_pct", "memory_pct", "sm_pct", "bound", "stats_stage",
           "input_bytes", "commit", "date"]
ROOFLINE_COLUMNS = ["sample", "device", "group", "key", "kind", "launches", "time_us", "dram_read_mb", "dram_write_mb",
                    "dram_mb", "gb_per_s", "pct_of_peak", "pct_of_copy", "dram_pct", "sm_pct",
                    "achieved_occupancy_pct", "bound", "peak_gb_per_s", "copy_gb_per_s", "at_copy_us", "over_copy_us",
                    "input_bytes", "commit", "date"]
NONE_STAGE = "(none)"  # a launch outside every NVTX range
STACK = "thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg"  # ncu --nvtx: the range stack
LIBRARY_DOMAINS = ("CCCL",)  # the domain of the ranges CUB and Thrust push around their own algorithms
LIBRARY_RANGES = ("cub::", "thrust::")  # those ranges' names (cub::DeviceFor::Bulk, ...)
FILL = "fill (a resized array's zeros)"
SET = "fill (thrust::fill)"
BOUND_BELOW = 40.0  # % of peak under which neither DRAM nor the SMs is the limit: latency or launch overhead
SMALL_US = 5.0  # a launch shorter than this is mostly its own start and drain (the shortest take about 2.2 us)
# DRAM peaks from the datasheets, GB/s, by a part of the device's name (first match wins); the copy
# ceiling was measured on the H100 80GB HBM3 (docs/performance-log.md).
PEAKS = [("H100 PCIe", 2000.0), ("H100 NVL", 3900.0), ("H100", 3350.0), ("H200", 4800.0)]
COPIES = [("H100 80GB HBM3", 3031.0)]
# ncu's units with a prefix, to their base (bytes, nanoseconds): `--print-units base` makes them 1.
SCALES = {"nsecond": 1.0, "usecond": 1e3, "msecond": 1e6, "second": 1e9}
PREFIXES = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def launches(path):
    """The launches in ncu's raw CSV (a header row, a units row, then one row per launch)."""
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    start = next((i for i, row in enumerate(rows) if row and row[0] == "ID"), None)
    if start is None:
        sys.exit(f"ncu_summary: {path}: no header row starting with ID (not ncu --csv --page raw?)")
    header = rows[start]
    units = dict(zip(header, rows[start + 1])) if len(rows) > start + 1 else {}
    out = []
    for row in rows[start + 2:]:
        if len(row) == len(header):
            launch = dict(zip(header, row))
            launch["_units"] = units
            out.append(launch)
    return out


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
    words = kept.split("::")[-1].strip().split()
    return words[-1] if words else full.strip()


def scale(unit):
    if unit in SCALES:
        return SCALES[unit]
    if len(unit) > 1 and unit[0] in PREFIXES and unit[1:].islower():  # Kbyte, Mbyte, Ginst, ...
        return PREFIXES[unit[0]]
    return 1.0


def number(launch, metric):
    """The metric in its base unit (bytes, nanoseconds, %); 0 when ncu did not collect it or printed n/a."""
    text = launch.get(metric, "").replace(",", "").strip()
    try:
        value = float(text)
    except ValueError:
        return 0.0
    return value * scale(launch.get("_units", {}).get(metric, ""))


def bound(dram_pct, sm_pct):
    if dram_pct < BOUND_BELOW and sm_pct < BOUND_BELOW:
        return "latency/launch"
    return "dram" if dram_pct >= sm_pct else "compute"


def percent(launch, metric):
    """A % of peak as text; empty when this ncu did not collect it (profile_device.sh left it out)."""
    return f"{number(launch, metric):.1f}" if metric in launch else ""


def bound_of(dram_pct, sm_pct):
    return bound(float(dram_pct), float(sm_pct)) if dram_pct and sm_pct else ""


def row(sample, order, launch, stage, stats_stage, commit, date):
    dram, sm = (percent(launch, "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
                percent(launch, "sm__throughput.avg.pct_of_peak_sustained_elapsed"))
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
            f"{number(launch, 'sm__maximum_warps_per_active_cycle_pct'):.0f}",
            f"{number(launch, 'dram__bytes_write.sum') / 1e6:.2f}", dram,
            percent(launch, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"), sm,
            bound_of(dram, sm), stats_stage, commit, date]


def stack_stage(text):
    """The innermost range in ncu's push/pop column that is not a library's own (STACK); None outside
    every one. The column holds the thread's id, then one quoted `domain:range:PL_Type:PL_Value:CLR_Type:
    Color:Msg_Type:Msg` per open range, outermost first."""
    ours = []
    for entry in re.findall(r'"([^"]*)"', text):
        domain, _, rest = entry.partition(":")
        if rest and domain not in LIBRARY_DOMAINS:
            ours.append(rest.rsplit(":", 6)[0].strip())
    return ours[-1] if ours else None


def renamed_stage(name):
    """The range a `--print-nvtx-rename kernel` name puts before the kernel's (`outer/inner/void k<...>`):
    the innermost that is not a library's; None without one. ncu prints only the innermost range of any
    domain, so a launch inside a CUB range (`cub::DeviceFor::Bulk/...`) loses the stage around it."""
    head = name.split("<", 1)[0].split("(", 1)[0]
    ranges = [r.split("@")[-1].strip() for r in head.split("/")[:-1]]
    ranges = [r for r in ranges if r and not r.startswith(LIBRARY_RANGES)]
    return ranges[-1] if ranges else None


def nvtx_stages(path, every):
    """Launch ID -> the innermost NVTX range of rowscan's it ran in (NONE_STAGE: none), from the report's
    push/pop column (ncu --nvtx prints it in both files), else from the renamed report's names; {} when
    neither names a range."""
    out = {}
    if any(STACK in launch for launch in every):
        out = {launch["ID"]: stack_stage(launch.get(STACK, "")) or NONE_STAGE for launch in every}
    elif path:
        try:
            renamed = {launch["ID"]: launch["Kernel Name"] for launch in launches(path)}
        except SystemExit as e:  # an ncu that could not print it: the stages by kernel name alone
            print(f"{e}; stages from the kernels' names only", file=sys.stderr)
            return {}
        out = {launch["ID"]: renamed_stage(renamed.get(launch["ID"], "")) or NONE_STAGE for launch in every}
    if all(stage == NONE_STAGE for stage in out.values()):
        if path:
            print(f"ncu_summary: {path}: no launch ran in an NVTX range (was it profiled with --nvtx?); "
                  "stages from the kernels' names only", file=sys.stderr)
        return {}
    return out


def ladder(path, commit, date):
    found = {}
    for launch in launches(path):
        name = short_name(launch["Kernel Name"])
        if name in RUNGS and "float" not in launch["Kernel Name"]:
            best = found.get(name)
            if best is None or number(launch, "launch__grid_size") > number(best, "launch__grid_size"):
                found[name] = launch
    kept = [(name, rung) for name, rung in RUNGS.items() if name in found]
    return [row("reduction_ladder", i + 1, found[name], f"rung {rung}", "", commit, date)
            for i, (name, rung) in enumerate(kept)]


def stage_of(launch):
    full, name = launch["Kernel Name"], short_name(launch["Kernel Name"])
    if "line_interval" in full:
        return "find + parse"
    if name.startswith("DeviceRadixSort"):
        return "sort"
    if "binary_search" in full or name == "DeviceSegmentedReduceKernel":
        return "reduce"
    if name == "transform_kernel" and "merge_stats" in full:
        return "merge"
    return fill_of(full) or "other"


def fill_of(full):
    if "uninitialized_fill" in full:
        return FILL
    if "__fill" in full:
        return SET  # thrust::fill: zeros the code asked for
    return None


FAST_STAGES = ("find + parse", "sort", "reduce", "merge")  # a fast-path block's stages, in order


def stations(path, commit, date, nvtx=None):
    every = launches(path)
    stages = nvtx_stages(nvtx, every)
    if stages:  # the first `find + parse` after the last `general path`, through its `merge`
        stage = [stages[launch["ID"]] for launch in every]
        general = max((i for i, s in enumerate(stage) if s == "general path"), default=-1)
        begin = next(i for i in range(general + 1, len(every)) if stage[i] == "find + parse")
        end = begin
        while begin - 1 > general and stage[begin - 1] == NONE_STAGE:  # the block's own, outside every range
            begin -= 1
        while (end + 1 < len(every) and stage[end + 1] in FAST_STAGES
               and not (stage[end + 1] == "find + parse" and stage[end] != "find + parse")):
            end += 1
    else:
        # The general path ends at its reduce_by_key; the fast path begins with the word scan's tile state.
        general = max((i for i, launch in enumerate(every) if "ReduceByKeyAgent" in launch["Kernel Name"]), default=-1)
        names = [launch["Kernel Name"] for launch in every]
        begin = next(i for i in range(general + 1, len(every))
                     if "ScanTileState<" in names[i] and "line_interval" in names[i])
        end = next(i for i in range(begin, len(every))
                   if short_name(every[i]["Kernel Name"]) == "DeviceSegmentedReduceKernel")
    return [row("stations_fast_block", i + 1, launch, stage_of(launch), stages.get(launch["ID"], ""), commit, date)
            for i, launch in enumerate(every[begin:end + 1])]


# rowscan lineitem's functors, by the stage that launches them (algorithms/src/lineitem/worker.cu): they
# appear in the kernels' template arguments.
LINEITEM_STAGES = [(("lines_in_word", "line_interval", "word_lines", "store_record"), "find records"),
                   (("is_pipe", "record_start_or_end"), "find fields"),
                   (("parse_row_at", "is_bad_row"), "parse"),
                   (("line_longer_than",), "overlong-line check"),
                   (("below_thresholds", "threshold_sums"), "query")]


def lineitem_stage_of(launch, previous):
    """The stage a lineitem kernel's functor names; a kernel that names none (the second pass of a
    reduce, a select's init) belongs with the last launch before it that is not a fill."""
    full = launch["Kernel Name"]
    if fill_of(full):
        return fill_of(full)
    for functors, stage in LINEITEM_STAGES:
        if any(f in full for f in functors):
            return stage
    return previous or "other"


def lineitem(path, commit, date, nvtx=None):
    every = launches(path)
    stages = nvtx_stages(nvtx, every)
    labels, previous = [], None
    for launch in every:
        labels.append(lineitem_stage_of(launch, previous))
        if labels[-1] not in (FILL, SET):
            previous = labels[-1]

    # A block begins where its lines are counted: the first launch of a `find records` range (NVTX), else
    # the first of a run of launches over lines_in_word.
    def starts_block(i):
        if stages:
            return stages[every[i]["ID"]] == "find records" and (i == 0 or stages[every[i - 1]["ID"]] != "find records")
        here = "lines_in_word" in every[i]["Kernel Name"]
        return here and (i == 0 or "lines_in_word" not in every[i - 1]["Kernel Name"])

    starts = [i for i in range(len(every)) if starts_block(i)]
    if not starts:
        sys.exit(f"ncu_summary: {path}: no lineitem block found (no count of lines)")
    which = 1 if len(starts) > 1 else 0
    begin = starts[which]
    end = starts[which + 1] if which + 1 < len(starts) else len(every)
    return [row("lineitem_block", i + 1, every[k], labels[k], stages.get(every[k]["ID"], ""), commit, date)
            for i, k in enumerate(range(begin, end))]


def default_rate(device, table):
    return next((rate for part, rate in table if part in device), None)


def fnum(r, column):
    try:
        return float(r.get(column) or 0)
    except ValueError:
        return 0.0


def roofline(path, peak=None, copy=None):
    """Per-stage roofline rows from a per-launch CSV of this script (stations or lineitem)."""
    with open(path, encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("sample") != "sample"]
    if not rows:
        sys.exit(f"ncu_summary: {path}: no rows")
    missing = [c for c in ("dram_write_mb", "dram_pct", "sm_pct") if c not in rows[0]]
    if missing:
        print(f"ncu_summary: {path}: no column {', '.join(missing)} (a profile from before they were collected): "
              "bytes written read as 0, shares of peak and bound left empty", file=sys.stderr)
    first = rows[0]
    peak = peak or default_rate(first["device"], PEAKS)
    if not peak:
        sys.exit(f"ncu_summary: no DRAM peak known for {first['device']}: give PEAK_GB_PER_S")
    copy = copy or default_rate(first["device"], COPIES)
    by_stats = any(r.get("stats_stage") for r in rows)
    key = "stats_stage" if by_stats else "stage"

    def group(name, kind, members):
        time_us = sum(fnum(r, "time_us") for r in members)
        read, write = sum(fnum(r, "dram_read_mb") for r in members), sum(fnum(r, "dram_write_mb") for r in members)
        gb_per_s = (read + write) * 1e6 / (time_us * 1e3) if time_us else 0.0  # bytes per ns: GB/s

        def weighted(column):  # a stage's share of a peak: its launches' shares, weighted by their time
            if not time_us or any(not r.get(column) for r in members):
                return ""  # not collected
            return f"{sum(fnum(r, column) * fnum(r, 'time_us') for r in members) / time_us:.1f}"

        dram, sm = weighted("dram_pct"), weighted("sm_pct")
        at_copy = (read + write) * 1e3 / copy if copy else None  # MB at GB/s: the bytes' time at the copy's rate, us
        key = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")  # `find + parse` -> find_parse, for the docs' quotes
        return [first["sample"], first["device"], name, key, kind, len(members), f"{time_us:.1f}", f"{read:.2f}",
                f"{write:.2f}", f"{read + write:.2f}", f"{gb_per_s:.0f}", f"{100 * gb_per_s / peak:.1f}",
                f"{100 * gb_per_s / copy:.1f}" if copy else "", dram, sm,
                weighted("achieved_occupancy_pct"), bound_of(dram, sm), f"{peak:.0f}",
                f"{copy:.0f}" if copy else "", f"{at_copy:.1f}" if copy else "",
                f"{time_us - at_copy:.1f}" if copy else "", first["input_bytes"], first["commit"], first["date"]]

    order = []
    for r in rows:
        if r[key] not in order:
            order.append(r[key])
    out = [group(name, "stage", [r for r in rows if r[key] == name]) for name in order]
    fills = [r for r in rows if r["stage"] in (FILL, SET)]
    if fills and by_stats:  # grouped by stage, the fills have rows of their own already
        out.append(group("fills", "part", fills))
    single = [r for r in rows if r["grid"] == "1"]
    if single:
        out.append(group("launches of one thread block", "part", single))
    small = [r for r in rows if fnum(r, "time_us") < SMALL_US]
    if small:
        out.append(group(f"launches under {SMALL_US:.0f} us", "part", small))
    out.append(group("block", "total", rows))
    return out


def main(argv):
    mode = argv[1] if len(argv) > 1 else ""
    out = csv.writer(sys.stdout, lineterminator="\n")
    if mode == "roofline" and 3 <= len(argv) <= 5:
        rates = [float(a) for a in argv[3:]] + [None, None]
        out.writerow(ROOFLINE_COLUMNS)
        out.writerows(roofline(argv[2], rates[0], rates[1]))
        return
    if mode not in ("ladder", "stations", "lineitem") or not 6 <= len(argv) <= (6 if mode == "ladder" else 7):
        sys.exit(__doc__)
    path, commit, date, input_bytes = argv[2:6]
    nvtx = argv[6] if len(argv) > 6 else None
    if mode == "ladder":
        rows = ladder(path, commit, date)
    else:
        rows = (stations if mode == "stations" else lineitem)(path, commit, date, nvtx)
    out.writerow(COLUMNS)
    out.writerows(r[:-2] + [input_bytes] + r[-2:] for r in rows)


if __name__ == "__main__":
    main(sys.argv)
