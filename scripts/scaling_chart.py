#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The host engine's scaling chart: GB/s of text against cores, one line per program, from the CSV that
scripts/host_scaling.sh writes (docs/performance.md, "The host engine").

usage: scripts/scaling_chart.py CSV FILE OUT.svg [TITLE]
  FILE picks the rows of one input (the CSV's file column); the x axis doubles from core to core.
Standard library only."""

import csv
import math
import sys

import svg_parts

COLOURS = {"rowscan": "#1f77b4", "lehuyduc": "#d62728", "austindonisan": "#2ca02c"}


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    path, file, out = sys.argv[1:4]
    title = sys.argv[4] if len(sys.argv) > 4 else f"GB/s of text against cores, {file}"
    with open(path, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["file"] == file]
    if not rows:
        sys.exit(f"scaling_chart: no rows for {file} in {path}")
    programs = list(dict.fromkeys(r["program"] for r in rows))
    cores = sorted({int(r["cores"]) for r in rows})
    top_rate = max(float(r["gb_per_s"]) for r in rows)
    step = 5 if top_rate > 20 else 1
    y_max = step * math.ceil(top_rate / step)

    width, height, left, right, top, bottom = 720, 360, 60, 230, 50, 40
    axis_y = height - bottom
    x_of = lambda c: left + (width - left - right) * (math.log2(c) / max(1, math.log2(cores[-1])))
    y_of = lambda v: axis_y - (axis_y - top) * v / y_max
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
             f'<text x="{left}" y="20" font-size="14">{title}</text>',
             f'<text x="{left}" y="36" fill="#555">{svg_parts.stamp_line(rows)}, {rows[0]["device"]}</text>']
    parts += svg_parts.axis(left, width - right, axis_y, [(x_of(c), str(c)) for c in cores])
    parts.append(f'<text x="{(left + width - right) / 2}" y="{height - 6}" text-anchor="middle">cores (taskset), as many threads</text>')
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{axis_y}" stroke="#000"/>')
    for v in range(0, int(y_max) + 1, step):
        parts.append(f'<line x1="{left - 4}" y1="{y_of(v):.1f}" x2="{left}" y2="{y_of(v):.1f}" stroke="#000"/>')
        parts.append(f'<text x="{left - 6}" y="{y_of(v) + 4:.1f}" text-anchor="end">{v}</text>')
    parts.append(f'<text x="14" y="{(top + axis_y) / 2}" transform="rotate(-90 14 {(top + axis_y) / 2})" text-anchor="middle">GB/s</text>')
    for i, program in enumerate(programs):
        colour = COLOURS.get(program, svg_parts.PALETTE[(i + 3) % len(svg_parts.PALETTE)])
        points = sorted((int(r["cores"]), float(r["gb_per_s"])) for r in rows if r["program"] == program)
        parts += svg_parts.polyline([(x_of(c), y_of(v)) for c, v in points], colour)
        last_c, last_v = points[-1]
        parts.append(f'<text x="{width - right + 8}" y="{top + 16 * i + 10}" fill="{colour}">{program}: {last_v:.2f} GB/s at {last_c}</text>')
    svg_parts.write_svg(out, parts)


if __name__ == "__main__":
    main()
