#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Pieces of the hand-drawn SVG charts (timeline_chart.py, stages_chart.py, scaling_chart.py,
size_sweep_chart.py): an axis with ticks, a dashed vertical marker with its label, a line through
points with a dot at each. Each returns a list of SVG elements; write_svg closes and writes a chart."""


def axis(left, right, y, ticks):
    """A horizontal axis from x = left to x = right at y; ticks is a list of (x, label)."""
    parts = [f'<line x1="{left}" y1="{y}" x2="{right}" y2="{y}" stroke="#000"/>']
    for x, label in ticks:
        parts.append(f'<line x1="{x:.1f}" y1="{y}" x2="{x:.1f}" y2="{y + 4}" stroke="#000"/>')
        parts.append(f'<text x="{x:.1f}" y="{y + 16}" text-anchor="middle">{label}</text>')
    return parts


def marker(x, top, bottom, colour, label, label_left=False):
    """A dashed vertical line at x from top to bottom, labelled above its top (to its left or right)."""
    anchor = ' text-anchor="end"' if label_left else ""
    label_x = x - 4 if label_left else x + 4
    return [f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" stroke="{colour}" stroke-dasharray="4 3"/>',
            f'<text x="{label_x:.1f}" y="{top - 2}" fill="{colour}"{anchor}>{label}</text>']


def polyline(points, colour, radius=3, dash=""):
    """A line of width 2 through points [(x, y), ...] (SVG coordinates), a dot of `radius` at each; dash: an
    SVG stroke-dasharray ("" for a solid line)."""
    path_d = " ".join(f"{'M' if j == 0 else 'L'}{x:.1f},{y:.1f}" for j, (x, y) in enumerate(points))
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    parts = [f'<path d="{path_d}" fill="none" stroke="{colour}" stroke-width="2"{dashed}/>']
    parts += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius}" fill="{colour}"/>' for x, y in points]
    return parts


def write_svg(path, parts):
    """Closes the chart's <svg> element and writes its parts to path, one a line."""
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts + ["</svg>"]) + "\n")


# The bar charts' colours (scripts/charts.sh): the devices of every sample CSV in docs/data (a header that
# starts with "sample," and has gb_per_s), sorted by name, take this palette in turn. The hand-drawn
# charts use the same mapping, so a device has one colour in every chart.
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
UNLISTED = "#7f7f7f"  # a device no bar chart shows


def device_colours(data_dir=None):
    """{device name: colour} as scripts/charts.sh assigns them."""
    import csv
    import pathlib
    data = pathlib.Path(data_dir) if data_dir else pathlib.Path(__file__).resolve().parent.parent / "docs" / "data"
    devices = set()
    for path in sorted(data.glob("*.csv")):
        lines = path.read_text(encoding="utf-8").splitlines()
        if not lines or not lines[0].startswith("sample,") or "gb_per_s" not in lines[0]:
            continue
        for row in csv.reader(lines[1:]):
            if len(row) >= 7:
                devices.add(row[1])
    # charts.sh sorts with `sort -u` under the C locale's byte order where LC_ALL=C; Python's sort is the
    # same byte order for these ASCII names.
    return {device: PALETTE[i % len(PALETTE)] for i, device in enumerate(sorted(devices))}


def stamp_line(rows):
    """"commit X, DATE" of a chart's rows (every distinct pair, dates to the day)."""
    pairs = []
    for r in rows:
        pair = (r.get("commit", "?"), (r.get("date") or "?")[:10])
        if pair not in pairs:
            pairs.append(pair)
    return "; ".join(f"commit {c}, {d}" for c, d in pairs)
