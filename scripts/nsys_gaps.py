#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One block's GPU time from an Nsight Systems trace (scripts/profile_device.sh's nsys part): the
kernels, memsets and copies in it, and the time the GPU ran none of its kernels or memsets (the gaps
between launches: the launch itself, a wait for the host, a read-back).

    scripts/nsys_gaps.py nsys-stations-gpu-trace.csv nsys-stations-nvtx.csv COMMIT DATE INPUT_BYTES \\
        > docs/data/gaps-h100-stations.csv
    scripts/nsys_gaps.py nsys-lineitem-gpu-trace.csv nsys-lineitem-nvtx.csv COMMIT DATE INPUT_BYTES \\
        --first 'find records' --last query > docs/data/gaps-h100-lineitem.csv

GPU trace: `nsys stats --report cuda_gpu_trace --format csv` (Start (ns), Duration (ns), ..., Strm, Name;
lines before its header are skipped). NVTX: `nsys stats --report nvtx_gpu_proj_trace --format csv`, the
`--stats` stages (rowscan/stage.hpp) projected onto the GPU: each range spans the GPU work its CPU range
launched. The block is the Nth (--block, default 1) run of ranges from one named --first (default
`find + parse`) to the next named --last (default `merge`): for stations, the first fast-path block.
Without the NVTX file (`-`), --from and --to (regular expressions on the GPU operations' names) mark the
block: from the Nth operation matching --from to the next matching --to; without them, the whole trace.
An operation belongs to the block when it starts inside it; copies of the next block that start there
count as copies, but only kernels and memsets make the GPU busy.

Rows (what,name,count,time_us,pct_of_block,before,after):
  block   the block's span from its first kernel's or memset's start to the last one's end (= busy +
          idle), and the operations in it
  kernels, memsets, copies (name: their directions)   count and summed duration
  busy    the union of kernels and memsets;  idle  the span less busy: the gaps, their count
  stage   a --stats stage: its ranges' projected span inside the block and the operations in them
  gap     the --top (default 8) longest gaps, longest first: before and after name the kernels on either
          side (and their stages); name lists the copies that ran during the gap (a read-back's wait)
Every row also has sample (`nsys_block`), device, input_bytes, commit and date.
Standard library only.
"""
import argparse
import csv
import re
import sys

sys.dont_write_bytecode = True  # the import below leaves no __pycache__ in scripts/
from ncu_summary import short_name  # noqa: E402

COLUMNS = ["sample", "device", "what", "name", "count", "time_us", "pct_of_block", "before", "after", "input_bytes",
           "commit", "date"]


def table(path, needed):
    """Rows of an `nsys stats --format csv` file: the first line holding every needed column is the header."""
    with open(path, encoding="utf-8", newline="") as f:
        lines = list(csv.reader(f))
    start = next((i for i, row in enumerate(lines) if all(c in row for c in needed)), None)
    if start is None:
        sys.exit(f"nsys_gaps: {path}: no header with {', '.join(needed)}")
    header = lines[start]
    return [dict(zip(header, row)) for row in lines[start + 1:] if len(row) == len(header)]


def integer(text):
    try:
        return int(float(text.replace(",", "")))
    except (AttributeError, ValueError):
        return None


class Op:
    def __init__(self, r):
        self.start, self.duration = integer(r["Start (ns)"]), integer(r["Duration (ns)"])
        self.end = self.start + self.duration
        self.name = r["Name"]
        self.kind = ("memset" if self.name.startswith("[CUDA memset") else
                     "copy" if self.name.startswith("[CUDA memcpy") else
                     "kernel")
        self.device = re.sub(r"\s*\(\d+\)$", "", r.get("Device", "")).strip()
        self.stage = ""

    def label(self):
        if self.kind == "kernel":
            text = short_name(self.name)
        else:
            text = self.name.strip("[]").replace("CUDA ", "")
        return f"{text} [{self.stage}]" if self.stage else text


def ranges(path):
    """(start, end, stage) of every NVTX range projected onto the GPU, in GPU time order."""
    out = []
    for r in table(path, ("Name", "Projected Start (ns)", "Projected Duration (ns)")):
        start, duration = integer(r["Projected Start (ns)"]), integer(r["Projected Duration (ns)"])
        if start is None or duration is None:
            continue  # a range that launched nothing on the GPU
        out.append((start, start + duration, r["Name"].split(":")[-1].strip()))
    return sorted(out)


def nvtx_window(spans, first, last, block):
    found, begin = [], None
    for start, end, stage in spans:
        if stage == first:
            begin = start  # a block that did not reach `last` (the general path took it) starts again here
        elif stage == last and begin is not None:
            found.append((begin, end))
            begin = None
    if len(found) < block:
        sys.exit(f"nsys_gaps: {len(found)} blocks from '{first}' to '{last}' in the NVTX ranges, not {block}")
    return found[block - 1], f"{first} .. {last} (block {block})"


def name_window(ops, start_pattern, end_pattern, block):
    starts = [i for i, op in enumerate(ops) if re.search(start_pattern, op.name)]
    if len(starts) < block:
        sys.exit(f"nsys_gaps: {len(starts)} operations match --from {start_pattern!r}, not {block}")
    i = starts[block - 1]
    j = next((k for k in range(i, len(ops)) if re.search(end_pattern, ops[k].name)), None)
    if j is None:
        sys.exit(f"nsys_gaps: no operation matches --to {end_pattern!r} after the start")
    return (ops[i].start, max(op.end for op in ops[i:j + 1])), f"{start_pattern} .. {end_pattern} (block {block})"


def summarize(ops, spans, window, top):
    begin, end = window
    inside = [op for op in ops if begin <= op.start < end]
    if not inside:
        sys.exit("nsys_gaps: no GPU operation inside the block")
    for op in inside:  # the innermost (shortest) stage range that holds the operation's start
        holding = [(e - s, stage) for s, e, stage in spans if s <= op.start < e]
        op.stage = min(holding)[1] if holding else ""
    busy_ops = sorted((op for op in inside if op.kind != "copy"), key=lambda op: op.start)
    copies = [op for op in inside if op.kind == "copy"]
    timed = busy_ops or inside  # the block: from its first kernel's start to its last one's end
    span = max(op.end for op in timed) - min(op.start for op in timed)
    rows = []

    def add(what, name, count, ns, before="", after=""):
        rows.append([what, name, count, f"{ns / 1e3:.1f}", f"{100 * ns / span:.1f}" if span else "", before, after])

    add("block", "", len(inside), span)
    for kind, label in (("kernel", "kernels"), ("memset", "memsets")):
        chosen = [op for op in inside if op.kind == kind]
        add(label, "", len(chosen), sum(op.duration for op in chosen))
    directions = {}
    for op in copies:
        kind = op.name.strip("[]").replace("CUDA memcpy", "").strip() or "copy"
        directions[kind] = directions.get(kind, 0) + 1
    add("copies", " ".join(f"{k} x{n}" for k, n in sorted(directions.items())), len(copies),
        sum(op.duration for op in copies))

    gaps, busy, reach, last = [], 0, None, None  # reach: where the work so far ends; last: the op that ends there
    for op in busy_ops:
        if reach is not None and op.start > reach:
            gaps.append((op.start - reach, last, op, reach))
        if reach is None or op.start >= reach:
            busy += op.duration
        elif op.end > reach:
            busy += op.end - reach  # overlaps the work before it (another stream): only its new part
        if reach is None or op.end > reach:
            reach, last = op.end, op
    add("busy", "kernels and memsets", len(busy_ops), busy)
    add("idle", "between kernels and memsets", len(gaps), sum(g[0] for g in gaps))
    stages = []
    for s, e, stage in spans:
        if s < end and e > begin and stage not in stages:
            stages.append(stage)
    for stage in stages:
        held = sum(min(e, end) - max(s, begin) for s, e, name in spans if name == stage and s < end and e > begin)
        add("stage", stage, sum(1 for op in inside if op.stage == stage), held)
    for length, before, after, at in sorted(gaps, key=lambda g: -g[0])[:top]:
        during = [op for op in copies if op.start < at + length and op.end > at]
        add("gap", " ".join(op.label() for op in during), 1, length, before.label(), after.label())
    return rows, inside[0].device or "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace")
    parser.add_argument("nvtx", help="nvtx_gpu_proj_trace CSV, or - for none")
    parser.add_argument("commit")
    parser.add_argument("date")
    parser.add_argument("input_bytes")
    parser.add_argument("--first", default="find + parse")
    parser.add_argument("--last", default="merge")
    parser.add_argument("--block", type=int, default=1)
    parser.add_argument("--from", dest="start_pattern")
    parser.add_argument("--to", dest="end_pattern")
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()

    ops = [Op(r) for r in table(args.trace, ("Start (ns)", "Duration (ns)", "Name"))
           if integer(r["Start (ns)"]) is not None and integer(r["Duration (ns)"]) is not None]
    ops.sort(key=lambda op: op.start)
    if not ops:
        sys.exit(f"nsys_gaps: {args.trace}: no GPU operations")
    spans = ranges(args.nvtx) if args.nvtx != "-" else []
    if spans:
        window, what = nvtx_window(spans, args.first, args.last, args.block)
    elif args.start_pattern and args.end_pattern:
        window, what = name_window(ops, args.start_pattern, args.end_pattern, args.block)
    else:
        print("nsys_gaps: no NVTX ranges and no --from/--to: the whole trace", file=sys.stderr)
        window, what = (ops[0].start, max(op.end for op in ops) + 1), "the whole trace"
    rows, device = summarize(ops, spans, window, args.top)
    rows[0][1] = what
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(COLUMNS)
    out.writerows(["nsys_block", device] + r + [args.input_bytes, args.commit, args.date] for r in rows)


if __name__ == "__main__":
    main()
