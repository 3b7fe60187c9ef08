#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The start-up timeline of one `rowscan stations --stats` run: what each worker did when.

    scripts/timeline_chart.py csv STATS.txt COMMIT DATE DEVICE > docs/data/timeline-....csv
    scripts/timeline_chart.py svg TIMELINE.csv TITLE > docs/charts/timeline-....svg

`csv` reads the worker lines of --stats ("worker 3  12 blocks  25.2 MB  0.210 s busy ... first block
at 1.4 ms", "gpu 16 ...") and the "hand-over at" stage into one row per worker; input_bytes is the
run's, from the report's first line. `svg` draws one bar
per worker from its first block to its first block plus its busy time, on a linear axis from zero in
milliseconds, with the hand-over as a vertical line. A bar is the span a worker would need if it were
busy without a break from its first block: the figures are totals, not a trace. The GPU's bars take the
colour that scripts/charts.sh gives the CSV's device in every bar chart (svg_parts.device_colours); the
host's workers run on the machine's cores, which no bar chart names, and are grey. The title carries
the rows' commit and date.
"""
import csv
import re
import sys

import svg_parts

WORKER = re.compile(r"^\s*(worker|gpu)\s+(\d+)\s+(\d+) blocks\s+([\d.]+) MB\s+([\d.]+) s busy\s+([\d.]+) MB/s, "
                    r"first block at ([\d.]+) ms")
HAND_OVER = re.compile(r"^\s*(?:hand-over|taker joined) at\s+([\d.]+) ms")
TOTAL = re.compile(r"^\s*total\s+([\d.]+) ms")
BYTES = re.compile(r"^rowscan \w+ on .*?: (\d+) bytes")


def to_csv(stats_path, commit, date, device):
    hand_over = total = input_bytes = ""
    rows = []
    for line in open(stats_path, encoding="utf-8"):
        if m := WORKER.match(line):
            who, index, blocks, mb, busy, _, first = m.groups()
            rows.append([index, "gpu" if who == "gpu" else "host", blocks, mb, f"{float(busy) * 1e3:.1f}", first])
        elif m := HAND_OVER.match(line):
            hand_over = m.group(1)
        elif m := TOTAL.match(line):
            total = m.group(1)
        elif (m := BYTES.match(line)) and not input_bytes:
            input_bytes = m.group(1)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["commit", "date", "device", "input_bytes", "worker", "processor", "blocks", "megabytes", "busy_ms", "first_block_ms",
                  "hand_over_ms", "total_ms"])
    for row in rows:
        out.writerow([commit, date, device, input_bytes] + row + [hand_over, total])


def to_svg(csv_path, title):
    rows = list(csv.DictReader(open(csv_path, encoding="utf-8")))
    total = float(rows[0]["total_ms"])
    hand_over = float(rows[0]["hand_over_ms"] or 0)
    width, left, right, bar, gap, top = 780, 120, 70, 14, 4, 50
    height = top + len(rows) * (bar + gap) + 50
    scale = (width - left - right) / total
    gpu_colour = svg_parts.device_colours().get(rows[0]["device"], svg_parts.UNLISTED)
    colours = {"gpu": gpu_colour, "host": svg_parts.UNLISTED}
    height += 14
    top += 14
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
             f'font-size="11">',
             f'<text x="{left}" y="20" font-size="13">{title}</text>',
             f'<text x="{left}" y="36" fill="#555">{svg_parts.stamp_line(rows)}, {rows[0]["device"]}</text>',
             f'<text x="{left}" y="50" fill="#555">each bar: first block to first block + busy time (ms); '
             f'the GPU in its colour of every chart, host workers grey</text>']
    for i, r in enumerate(rows):
        y = top + i * (bar + gap)
        start = float(r["first_block_ms"])
        busy = float(r["busy_ms"])
        label = f'{"GPU" if r["processor"] == "gpu" else "host"} {r["worker"]}'
        parts.append(f'<text x="{left - 6}" y="{y + bar - 3}" text-anchor="end">{label}</text>')
        parts.append(f'<rect x="{left + start * scale:.1f}" y="{y}" width="{max(busy * scale, 0.5):.1f}" '
                     f'height="{bar}" fill="{colours[r["processor"]]}"/>')
        parts.append(f'<text x="{left + (start + busy) * scale + 4:.1f}" y="{y + bar - 3}" fill="#555">'
                     f'{float(r["megabytes"]):.0f} MB</text>')
    axis_y = top + len(rows) * (bar + gap) + 6
    step = 100 if total > 400 else 50 if total > 150 else 20
    parts += svg_parts.axis(left, width - right, axis_y, [(left + t * scale, str(t)) for t in range(0, int(total) + 1, step)])
    parts.append(f'<text x="{width - right}" y="{axis_y + 32}" text-anchor="end">milliseconds from the start of '
                 f'the run (total {total:.0f} ms)</text>')
    if hand_over > 0:
        parts += svg_parts.marker(left + hand_over * scale, top - 6, axis_y, "#e15759",
                                  f"GPU ready: hand-over at {hand_over:.0f} ms")
    parts.append("</svg>")
    print("\n".join(parts))


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "csv":
        to_csv(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    elif len(sys.argv) == 4 and sys.argv[1] == "svg":
        to_svg(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
