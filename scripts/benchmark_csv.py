#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Measurements printed by rowscan's benchmark programs, as docs/data CSV rows with the commit, the date,
the device and the input's bytes on every row.

    scripts/benchmark_csv.py lineitem-query BENCH.json DEVICE COMMIT DATE > docs/data/lineitem_query-h100.csv
    scripts/benchmark_csv.py startup STARTUP.txt DEVICE COMMIT DATE INPUT_BYTES > docs/data/startup-h100.csv
    scripts/benchmark_csv.py merge-partials MERGE.txt DEVICE COMMIT DATE > docs/data/merge_partials-cpu.csv
    scripts/benchmark_csv.py string-gather GATHER.csv DEVICE COMMIT > docs/data/string_gather-h100.csv

lineitem-query: Google Benchmark's JSON of `rowscan_lineitem_benchmark --benchmark_filter=BM_query`
        (--benchmark_out_format=json) in the samples' --csv format: one row per threshold count K,
        variant K<K>_<words>, items = rows, bytes = the 12 bytes of columns a row, ms = mean real time.
        Columns: sample,device,variant,items,bytes,ms,gb_per_s,commit,date
startup: the lines `rowscan_startup_costs context | overlap FILE | mmap FILE` print
        (`WHAT   MS ms  [GB/s GB/s]`), one row each; key is WHAT in lower case with `_` for every run of
        other characters (for docs_snippets.py selectors); INPUT_BYTES is FILE's size (the context
        mode reads no file, and its rows get 0).
        Columns: device,mode,step,key,ms,gb_per_s,input_bytes,commit,date
merge-partials: what `rowscan_merge_partials` prints, one row per timing: key decode_one, encode_one,
        merge_summaries, tree_step, tree_step_glibc_defaults, tree_RANKS_ranks; input_bytes is the two
        partials' bytes on the wire.
        Columns: device,step,key,ms,input_bytes,commit,date
string-gather: Google Benchmark's CSV of `rowscan_string_gather_benchmark` (its context lines first);
        the date is the file's first line. Failed rows are left out; with --benchmark_repetitions only
        the medians are kept. benchmark: BM_gather, BM_copy, BM_gather_lanes, ...; strategy:
        automatic, char_parallel, string_parallel or empty; input_bytes: the characters one call
        gathers or copies (bytes_per_second x time); gb_per_s counts them once, GB = 1e9.
        Columns: benchmark,strategy,strings,avg_len,lanes,ms,gb_per_s,pct_of_copy,input_bytes,device,commit,date
Standard library only.
"""
import csv
import json
import re
import sys

WORDS = {1: "one", 2: "two", 4: "four", 8: "eight"}
SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}  # Google Benchmark's time units
LINE = re.compile(r"^(?P<what>(?P<mode>context|pinned|launch|overlap|mmap): .*?)\s+(?P<ms>[\d.]+) ms(?:\s+(?P<gbs>[\d.]+) GB/s)?$")


def table(columns):
    """A CSV writer on stdout that has written the header row."""
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(columns)
    return out


def lineitem_query(path, device, commit, date):
    out = table(["sample", "device", "variant", "items", "bytes", "ms", "gb_per_s", "commit", "date"])
    for b in json.load(open(path, encoding="utf-8"))["benchmarks"]:
        if not b["name"].startswith("BM_query/") or b.get("run_type") == "aggregate":
            continue
        k = int(b["name"].split("/")[1])
        rows = int(b["rows"])
        variant = f"K{k}_{WORDS.get(k, str(k))}_threshold{'s' if k > 1 else ''}"
        out.writerow(["lineitem_query", device, variant, rows, rows * 12, f"{b['real_time'] * SECONDS[b['time_unit']] * 1e3:.3f}",
                      f"{b['GB/s']:.1f}", commit, date])


def startup(path, device, commit, date, input_bytes):
    out = table(["device", "mode", "step", "key", "ms", "gb_per_s", "input_bytes", "commit", "date"])
    found = False
    for line in open(path, encoding="utf-8"):
        m = LINE.match(line.rstrip("\n"))
        if not m:
            continue
        # the context mode's lines start with context:, pinned: or launch:; the others with their mode
        mode = m["mode"] if m["mode"] in ("overlap", "mmap") else "context"
        found = True
        key = re.sub(r"[^a-z0-9]+", "_", m["what"].lower()).strip("_")
        out.writerow([device, mode, m["what"], key, m["ms"], m["gbs"] or "", 0 if mode == "context" else input_bytes,
                      commit, date])
    if not found:
        sys.exit(f"benchmark_csv: no timing lines in {path}")


def merge_partials(path, device, commit, date):
    text = open(path, encoding="utf-8").read()
    wire = re.search(r"\((\d+) and (\d+) bytes on the wire\)", text)
    if not wire:
        sys.exit(f"benchmark_csv: no partials' sizes in {path}")
    size = int(wire[1]) + int(wire[2])
    rows = []
    if m := re.search(r"decode one: ([\d.]+) ms, encode one: ([\d.]+) ms", text):
        rows += [("decode one partial", "decode_one", m[1]), ("encode one partial", "encode_one", m[2])]
    if m := re.search(r"merge_summaries:\s+([\d.]+) ms", text):
        rows.append(("merge_summaries of two sorted lists", "merge_summaries", m[1]))
    if m := re.search(r"one tree step .*?:\s+([\d.]+) ms as a rank runs it,\s+([\d.]+) ms with glibc's defaults", text):
        rows += [("one tree step: decode two, merge, encode", "tree_step", m[1]),
                 ("the same step with glibc's defaults", "tree_step_glibc_defaults", m[2])]
    for m in re.finditer(r"tree over\s+(\d+) ranks: (\d+) steps,\s+([\d.]+) ms", text):
        rows.append((f"tree over {m[1]} ranks ({m[2]} steps, no transfers)", f"tree_{m[1]}_ranks", m[3]))
    out = table(["device", "step", "key", "ms", "input_bytes", "commit", "date"])
    for step, key, ms in rows:
        out.writerow([device, step, key, ms, size, commit, date])


def string_gather(path, device, commit):
    lines = open(path, encoding="utf-8").readlines()
    date = lines[0].strip()
    start = next(i for i, line in enumerate(lines) if line.startswith("name,"))  # after the context lines
    out = table(["benchmark", "strategy", "strings", "avg_len", "lanes", "ms", "gb_per_s", "pct_of_copy", "input_bytes",
                 "device", "commit", "date"])
    for row in csv.DictReader(lines[start:]):
        name = row["name"]
        if row.get("error_occurred") in ("true", "1") or any(a in name for a in ("_mean", "_stddev", "_cv")):
            continue
        parts = name.replace("_median", "").split("/")
        # the sizes from the name: counters print 16,777,216 as 1.67772e+07
        numbers = [p for p in parts if p.isdigit()] + ["", "", ""]
        lanes = numbers[2] or (f"{float(row['lanes']):.0f}" if row.get("lanes") else "")
        seconds = float(row["real_time"]) * SECONDS[row["time_unit"]]
        gathered = float(row["bytes_per_second"] or 0) * seconds
        out.writerow([parts[0], parts[1] if parts[0] == "BM_gather" else "", numbers[0], numbers[1], lanes,
                      f"{seconds * 1e3:.4f}", row.get("GB/s", ""), row.get("pct_of_copy", ""), f"{gathered:.0f}",
                      device, commit, date])


def main(argv):
    if len(argv) >= 5 and argv[0] == "lineitem-query":
        lineitem_query(*argv[1:5])
    elif len(argv) >= 6 and argv[0] == "startup":
        startup(*argv[1:6])
    elif len(argv) >= 5 and argv[0] == "merge-partials":
        merge_partials(*argv[1:5])
    elif len(argv) >= 4 and argv[0] == "string-gather":
        string_gather(*argv[1:4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
