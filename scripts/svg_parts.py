#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Pieces of the hand-drawn SVG charts (timeline_chart.py, stages_chart.py): an axis with ticks, and a
dashed vertical marker with its label. Each returns a list of SVG elements."""


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
