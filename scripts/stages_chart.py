#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where the seconds of one `rowscan stations --stats` run go, as CSV rows and a stacked bar.

    scripts/stages_chart.py csv STATS.log INPUT COMMIT DATE [MEDIAN_S] >> docs/data/stages-h100.csv
    (a `rowscan lineitem --stats` log works too: scripts/lineitem_device.sh)
    scripts/stages_chart.py svg STAGES.csv INPUT TITLE > docs/charts/stages-h100-INPUT.svg

`csv` reads the first --stats report in STATS.log (what scripts/gpu_check.sh writes as
stations-K.log: the report, then `wall S s, ...` from /usr/bin/time) and writes one row per stage,
in milliseconds, plus two that --stats does not name: "in the run, in no stage" (its total less the
sum of its stages: the steps between the timed ones) and "outside the stages" (the wall time less the
total: process start, the CUDA driver and context before the first stage, the exit). MEDIAN_S, the median wall time of the
same command without --stats, goes on every row. `--stats` waits for the device after every stage,
so a stage holds its own device work, and its wall time is longer than the median's.
`svg` draws the rows of one INPUT as one bar stacked in the stages' order, on a linear axis from zero
in seconds, with the median as a dashed line. Stages under 1% of the wall time are named in the
legend only.
Columns: input,device,stage,key,ms,input_bytes,wall_ms,median_ms,commit,date (key: the stage in
lower case with `_` for every run of other characters, for docs_snippets.py selectors)
"""
import csv
import re
import sys

import svg_parts

HEADER = re.compile(r"^rowscan (?:stations|lineitem) on (the GPU|\d+ host worker\(s\)): (\d+) bytes")
STAGE = re.compile(r"^  (\S[\w +()-]*?)\s+([\d.]+) ms$")
TOTAL = re.compile(r"^  total\s+([\d.]+) ms")
WALL = re.compile(r"^wall ([\d.]+) s")
DEVICE = {"the GPU": "NVIDIA H100 80GB HBM3"}
PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac", "#1f77b4", "#8c564b", "#d3d3d3"]


def to_csv(log_path, name, commit, date, median_s):
    stages, total, wall, processor, size = [], None, None, None, None
    for line in open(log_path, encoding="utf-8"):
        if m := HEADER.match(line):
            if processor is not None:
                break  # the first report only
            processor, size = m.group(1), int(m.group(2))
        elif processor is None:
            continue
        elif m := TOTAL.match(line):
            total = float(m.group(1))
        elif m := STAGE.match(line):
            stages.append((m.group(1), float(m.group(2))))
        elif m := WALL.match(line):
            wall = float(m.group(1)) * 1e3
    if total is None or wall is None:
        sys.exit(f"stages_chart: no --stats report with a wall time in {log_path}")
    stages.append(("in the run, in no stage", total - sum(ms for _, ms in stages)))
    stages.append(("outside the stages", wall - total))
    out = csv.writer(sys.stdout, lineterminator="\n")
    median = f"{float(median_s) * 1e3:.0f}" if median_s else ""
    for stage, ms in stages:
        key = re.sub(r"[^a-z0-9]+", "_", stage.lower()).strip("_")
        out.writerow([name, DEVICE.get(processor, processor), stage, key, f"{ms:.1f}", size, f"{wall:.0f}", median,
                      commit, date])


def to_svg(csv_path, name, title):
    rows = [r for r in csv.DictReader(open(csv_path, encoding="utf-8")) if r["input"] == name]
    if not rows:
        sys.exit(f"stages_chart: no rows for {name} in {csv_path}")
    wall = float(rows[0]["wall_ms"]) / 1e3
    median = float(rows[0]["median_ms"]) / 1e3 if rows[0]["median_ms"] else 0
    width, left, right, top, bar = 780, 30, 30, 56, 34
    span = max(wall, median) * 1.05
    scale = (width - left - right) / span
    legend_rows = (len(rows) + 2) // 3
    height = top + bar + 60 + legend_rows * 16
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
             f'font-size="11">',
             f'<text x="{left}" y="20" font-size="13">{title}</text>',
             f'<text x="{left}" y="38" fill="#555">one `--stats` run, stages in order, seconds (commit '
             f'{rows[0]["commit"]}, {rows[0]["date"]}, {int(rows[0]["input_bytes"]) / 1e9:.2f} GB of text)</text>']
    x = 0.0
    for i, r in enumerate(rows):
        seconds = float(r["ms"]) / 1e3
        colour = PALETTE[i % len(PALETTE)]
        parts.append(f'<rect x="{left + x * scale:.1f}" y="{top}" width="{max(seconds * scale, 0.3):.1f}" '
                     f'height="{bar}" fill="{colour}"><title>{r["stage"]}: {seconds:.3f} s</title></rect>')
        if seconds >= 0.05:
            parts.append(f'<text x="{left + (x + seconds / 2) * scale:.1f}" y="{top + bar / 2 + 4}" '
                         f'text-anchor="middle" fill="#fff">{seconds:.2f}</text>')
        lx, ly = left + (i % 3) * 240, top + bar + 44 + (i // 3) * 16
        parts.append(f'<rect x="{lx}" y="{ly - 9}" width="10" height="10" fill="{colour}"/>')
        parts.append(f'<text x="{lx + 14}" y="{ly}">{r["stage"]} ({seconds:.3f} s)</text>')
        x += seconds
    axis_y = top + bar + 6
    parts += svg_parts.axis(left, width - right, axis_y,
                            [(left + tenth / 10 * scale, f"{tenth / 10:.1f}") for tenth in range(int(span * 10) + 1)])
    if median:
        parts += svg_parts.marker(left + median * scale, top - 6, axis_y, "#000",
                                  f"median of 5 runs without --stats: {median:.3f} s", label_left=True)
    parts.append("</svg>")
    print("\n".join(parts))


if __name__ == "__main__":
    if len(sys.argv) in (6, 7) and sys.argv[1] == "csv":
        to_csv(*sys.argv[2:6], sys.argv[6] if len(sys.argv) == 7 else "")
    elif len(sys.argv) == 5 and sys.argv[1] == "svg":
        to_svg(*sys.argv[2:5])
    else:
        sys.exit(__doc__)
