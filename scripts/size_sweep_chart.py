#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Throughput against input size, as moderngpu draws its primitives: GB/s of input read on a linear y axis
from zero, the input's bytes on a log x axis, one line per primitive (and per device, where a file holds
more than one). Reads the CSV that samples/size_sweep writes (scripts/samples_csv.sh ... size_sweep);
the device-to-device copy (bytes read + written) is drawn dashed, as the yardstick
(docs/size_sweep.md).

usage: scripts/size_sweep_chart.py CSV OUT.svg [TITLE]
Standard library only."""

import csv
import math
import sys

import svg_parts

COLOURS = {"device_copy": "#7f7f7f", "reduce": "#1f77b4", "scan": "#2ca02c", "sort": "#d62728", "stations": "#ff7f0e"}


def size_label(n):
    """1024 -> 1K, 2^20 -> 1M, 2^30 -> 1G (binary units: the sweep's sizes are powers of two)."""
    for shift, unit in ((30, "G"), (20, "M"), (10, "K")):
        if n >= 1 << shift:
            return f"{n / (1 << shift):g}{unit}"
    return str(n)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, out = sys.argv[1:3]
    with open(path, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["sample"] == "size_sweep"]
    if not rows:
        sys.exit(f"size_sweep_chart: no size_sweep rows in {path}")
    devices = list(dict.fromkeys(r["device"] for r in rows))
    title = sys.argv[3] if len(sys.argv) > 3 else f"Throughput against input size: {', '.join(devices)}"
    # A line's points are placed at the input's size, a power of two (the copy's bytes are read + written:
    # half are input; the stations text is cut at the last line end within the size).
    def input_bytes(r):
        size = int(r["bytes"]) // (2 if r["variant"] == "device_copy" else 1)
        return 1 << max(0, (size - 1).bit_length())

    lines = {}
    for r in rows:
        lines.setdefault((r["device"], r["variant"]), []).append((input_bytes(r), float(r["gb_per_s"])))
    smallest = min(b for points in lines.values() for b, _ in points)
    largest = max(b for points in lines.values() for b, _ in points)
    lo, hi = math.floor(math.log2(smallest)), math.ceil(math.log2(largest))
    top_rate = max(v for points in lines.values() for _, v in points)
    step = 10 ** math.floor(math.log10(top_rate)) if top_rate > 0 else 1
    if top_rate / step < 3:
        step /= 2
    y_max = step * math.ceil(top_rate / step)

    width, height, left, right, top, bottom = 920, 420, 70, 340, 56, 44
    axis_y = height - bottom
    x_of = lambda b: left + (width - left - right) * (math.log2(b) - lo) / max(1, hi - lo)
    y_of = lambda v: axis_y - (axis_y - top) * v / y_max
    ticks = [(x_of(1 << k), size_label(1 << k)) for k in range(lo, hi + 1) if (k - lo) % 2 == 0 or hi - lo <= 10]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
             '<rect width="100%" height="100%" fill="white"/>',
             f'<text x="{left}" y="20" font-size="14">{title}</text>',
             f'<text x="{left}" y="38" fill="#555">GB/s of input read (GB = 10^9 bytes; higher is better); {svg_parts.stamp_line(rows)}</text>']
    parts += svg_parts.axis(left, width - right, axis_y, ticks)
    parts.append(f'<text x="{(left + width - right) / 2}" y="{height - 6}" text-anchor="middle">input size (bytes, log scale)</text>')
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{axis_y}" stroke="#000"/>')
    v = 0.0
    while v <= y_max + 1e-9:
        y = y_of(v)
        parts.append(f'<line x1="{left - 4}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{v:g}</text>')
        v += step
    parts.append(f'<text x="16" y="{(top + axis_y) / 2}" transform="rotate(-90 16 {(top + axis_y) / 2})" text-anchor="middle">GB/s</text>')
    dashes = ["", "2 3", "8 3 2 3"]  # a second and third device's lines
    for i, ((device, variant), points) in enumerate(sorted(lines.items(), key=lambda kv: (devices.index(kv[0][0]), kv[0][1]))):
        points.sort()
        colour = COLOURS.get(variant, svg_parts.PALETTE[i % len(svg_parts.PALETTE)])
        dash = "6 4" if variant == "device_copy" else dashes[devices.index(device) % len(dashes)]
        parts += svg_parts.polyline([(x_of(b), y_of(v)) for b, v in points], colour, radius=2.5, dash=dash)
        peak_b, peak_v = max(points, key=lambda p: p[1])
        name = variant if len(devices) == 1 else f"{device}: {variant}"
        label = f"{name}: peak {peak_v:,.1f} GB/s at {size_label(peak_b)}"
        if variant == "device_copy":
            label += " (read + written)"
        parts.append(f'<text x="{width - right + 8}" y="{top + 16 * i + 10}" fill="{colour}">{label}</text>')
    svg_parts.write_svg(out, parts)


if __name__ == "__main__":
    main()
