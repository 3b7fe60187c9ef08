#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Keeps the code and the numbers quoted in docs/*.md equal to their sources.

These blocks of a Markdown file are rewritten from the repository:

  <!-- snippet: samples/chunk_by/chunk_by_four_ways.cu#interval-scan -->
  ...anything: replaced by a fenced code block...
  <!-- /snippet -->

quotes the lines of that source between the markers `// [docs:interval-scan]` and `// [docs:end]`
(`#` comments work too); a PATH without `#NAME` quotes the whole file (for example a sample's expected
output, which CTest checks the sample still prints). Marker lines inside a quote are dropped, and so are lines that carry
`[docs:hide]` (tracing for --print); the quote is dedented.

  <!-- csv-table: docs/data/reduction_ladder-h100.csv -->
  ...anything: replaced by a Markdown table...
  <!-- /csv-table -->

renders a CSV file in the samples' --csv format (sample,device,variant,items,bytes,ms,gb_per_s) as a
table (Nsight Compute's counters from scripts/ncu_summary.py as a table of kernels; samples/size_sweep's
rows as one row per input size and one column per primitive); a file that does not exist yet renders as a line saying so. A file with the reduction ladder's
extra columns (rung, change, pct_of_copy, step_speedup, ...) renders in Harris's format instead: one
table per run, with the time, GB/s, % of the copy's rate, step and cumulative speedup. A file with
`commit` and `date` columns shows them.

  <!-- csv-select: docs/data/devices-h100.csv devices=gpu
  | input bytes | lines | seconds |
  | {bytes:,d} | {lines:,d} | {median_seconds:.3f} |
  -->
  ...anything: replaced by a Markdown table...
  <!-- /csv-select -->

renders the rows whose columns equal the given values (as for `value` below; none: every row) with a
header line and a row template of your own: `{COLUMN}` or `{COLUMN:FORMAT}` in the template (Python's
str.format; a column that reads as a number is one). The table ends with the commit(s) and date(s)
of the rows it shows.

  <!-- value: docs/data/reduction_ladder-h100.csv variant=thrust_reduce gb_per_s ,.0f -->2,748<!-- /value -->

quotes one number inline: the column (here gb_per_s) of the one row whose columns equal the given
values (COLUMN=VALUE, as many as needed; `+` stands for a space in VALUE, `++` for a plus sign), formatted with the Python
format spec at the end (optional: the CSV's text as it is). A value spans no line break; no row or
more than one row is an error.

Every CSV under docs/data must say where its numbers come from: each has the columns commit, date,
device and the input's bytes (bytes or input_bytes), and no row leaves them empty; a file that does
not fails --check (docs/data/benchmarks/ holds benchmarks' own output, whose stamped
form is a CSV beside it).

usage: scripts/docs_snippets.py [--check] [FILE.md ...]   (default: every docs/*.md)
  --check  change nothing; exit 1 if some block is stale (CTest runs this: docs.snippets_current)
Standard library only.
"""

import csv
import functools
import pathlib
import re
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parent.parent
BLOCK = re.compile(
    r"(?P<open><!-- (?P<kind>snippet|csv-table): (?P<arg>[^ ]+) -->\n)(?P<body>.*?)(?P<close><!-- /(?P=kind) -->)",
    re.S,
)
SELECT = re.compile(
    r"(?P<open><!-- csv-select: (?P<arg>[^\n]+?)\n(?P<header>\s*\|[^\n]*)\n(?P<template>\s*\|[^\n]*)\n\s*-->\n)"
    r"(?P<body>.*?)(?P<close><!-- /csv-select -->)",
    re.S,
)
VALUE = re.compile(r"(?P<open><!-- value: (?P<arg>[^>]+?) -->)(?P<body>[^\n]*?)(?P<close><!-- /value -->)")
START = re.compile(r"^\s*(?://|#)\s*\[docs:(?P<name>[\w.-]+)\]\s*$")
LANGUAGES = {".cu": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".cuh": "cpp", ".h": "cpp", ".sh": "sh", ".py": "python",
             ".cmake": "cmake", ".txt": "text", ".out": "text", ".csv": "text"}


class DocsError(Exception):
    pass


def quote(arg):
    """The fenced code block for `path#name`."""
    path, _, name = arg.partition("#")
    source = ROOT / path
    if not source.is_file():
        raise DocsError(f"snippet '{arg}': no file {path}")
    language = "cmake" if source.name == "CMakeLists.txt" else LANGUAGES.get(source.suffix, "")
    lines = source.read_text(encoding="utf-8").splitlines()
    if not name:
        return f"```{language}\n" + "\n".join(lines) + "\n```\n"
    starts = [i for i, line in enumerate(lines) if (m := START.match(line)) and m["name"] == name]
    if len(starts) != 1:
        raise DocsError(f"snippet '{arg}': {len(starts)} '[docs:{name}]' markers in {path}, expected 1")
    body = []
    for line in lines[starts[0] + 1:]:
        marker = START.match(line)
        if marker and marker["name"] == "end":
            break
        if not marker and "[docs:hide]" not in line:
            body.append(line)
    else:
        raise DocsError(f"snippet '{arg}': no '[docs:end]' after '[docs:{name}]' in {path}")
    code = textwrap.dedent("\n".join(body)).strip("\n")
    return f"```{language}\n{code}\n```\n"


def number(text, digits):
    value = float(text)
    return f"{value:,.{digits}f}"


@functools.lru_cache(maxsize=None)
def csv_rows(path):
    """The rows of a CSV file, read once however many blocks quote it."""
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def table(arg):
    """The Markdown table of a CSV file in the samples' format."""
    path = ROOT / arg
    if not path.is_file():
        return f"_Not measured yet: `{arg}` does not exist (TBD (H100))._\n"
    rows = [r for r in csv_rows(path) if r.get("sample") != "sample"]  # "sample": a concatenated file's header
    if not rows:
        raise DocsError(f"csv-table '{arg}': no rows")
    if LADDER_COLUMNS <= rows[0].keys():
        return ladder_table(rows)
    if PROFILE_COLUMNS <= rows[0].keys():
        return profile_table(rows)
    if rows[0].get("sample") == "size_sweep":
        return sweep_table(rows)
    dated = {"commit", "date"} <= rows[0].keys()
    out = ["| device | variant | items | MB read | ms | GB/s |" + (" commit | date |" if dated else ""),
           "| --- | --- | ---: | ---: | ---: | ---: |" + (" --- | --- |" if dated else "")]
    for r in rows:
        mb = number(str(int(r["bytes"]) / 1e6), 1)
        line = (f"| {r['device']} | `{r['variant']}` | {int(r['items']):,} | {mb} | "
                f"{number(r['ms'], 3)} | {number(r['gb_per_s'], 2)} |")
        if dated:
            line += f" {'`' + r['commit'] + '`' if r['commit'] else '-'} | {r['date'] or '-'} |"
        out.append(line)
    return "\n".join(out) + "\n"


def matching_rows(arg, what):
    """The rows of `PATH COLUMN=VALUE...` whose columns equal the values, the path, and the words left over."""
    words = arg.split()
    path, conditions = words[0], [w for w in words[1:] if "=" in w]
    rest = [w for w in words[1:] if "=" not in w]
    source = ROOT / path
    if not source.is_file():
        raise DocsError(f"{what} '{arg}': no file {path}")
    wanted = [(k, v.replace("++", "\0").replace("+", " ").replace("\0", "+"))
              for k, _, v in (c.partition("=") for c in conditions)]
    rows = csv_rows(source)
    for k, _ in wanted:
        if rows and k not in rows[0]:
            raise DocsError(f"{what} '{arg}': no column {k} in {path}")
    return [r for r in rows if all(r.get(k) == v for k, v in wanted)], path, rest


def typed(text):
    """A CSV field as str.format should see it: an int or a float where it reads as one."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def select(arg, header, template):
    """The rows of `PATH COLUMN=VALUE...` as a Markdown table: the header line, then the template per row."""
    rows, _, rest = matching_rows(arg, "csv-select")
    if rest:
        raise DocsError(f"csv-select '{arg}': expected PATH COLUMN=VALUE...")
    if not rows:
        raise DocsError(f"csv-select '{arg}': no rows match")
    header, template = header.strip(), template.strip()
    columns = header.count("|") - 1
    out = [header, "|" + " --- |" * columns]
    for r in rows:
        try:
            out.append(template.format(**{k: typed(v) for k, v in r.items()}))
        except (KeyError, ValueError, IndexError) as e:
            raise DocsError(f"csv-select '{arg}': template '{template}': {e!r}") from None
    stamps = sorted({(r.get("commit", ""), r.get("date", "")[:10]) for r in rows})
    if any(c or d for c, d in stamps):
        out.append("")
        out.append("Measured at " + "; ".join(f"`{c}` ({d})" if d else f"`{c}`" for c, d in stamps) + ".")
    return "\n".join(out) + "\n"


def value(arg):
    """One number of a CSV file: `PATH COLUMN=VALUE... COLUMN [FORMAT]`."""
    found, path, rest = matching_rows(arg, "value")
    if not 1 <= len(rest) <= 2:
        raise DocsError(f"value '{arg}': expected PATH COLUMN=VALUE... COLUMN [FORMAT]")
    column, spec = rest[0], rest[1] if len(rest) == 2 else None
    if len(found) != 1:
        raise DocsError(f"value '{arg}': {len(found)} rows match in {path}, expected 1")
    if column not in found[0]:
        raise DocsError(f"value '{arg}': no column {column} in {path}")
    text = found[0][column]
    return format(float(text), spec) if spec else text


def sweep_table(rows):
    """samples/size_sweep's CSV: one row per input size (a power of two; the stations fast path's text is
    cut at the last line end within it), one column per primitive, each cell GB/s and ms."""
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    cells = {}
    for r in rows:
        size = int(r["bytes"]) // (2 if r["variant"] == "device_copy" else 1)  # the copy's bytes: read + written
        nominal = 1 << max(0, (size - 1).bit_length())
        cells[nominal, r["variant"]] = f"{number(r['gb_per_s'], 2)} ({number(r['ms'], 4)} ms)"
    devices = sorted({r["device"] for r in rows})
    stamps = sorted({(r.get("commit", ""), r.get("date", "")[:10]) for r in rows})
    out = [f"{', '.join(devices)}; GB/s of input read (ms), GB = 1e9 bytes; the copy's GB/s counts bytes read + written:",
           "", "| input | " + " | ".join(f"`{v}`" for v in variants) + " |",
           "| ---: |" + " ---: |" * len(variants)]
    for size in sorted({k[0] for k in cells}):
        label = next(f"{size >> shift:,} {unit}" for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB"), (0, "B"))
                     if size >= 1 << shift)
        out.append(f"| {label} | " + " | ".join(cells.get((size, v), "-") for v in variants) + " |")
    out.append("")
    out.append("Measured at " + "; ".join(f"`{c}` ({d})" for c, d in stamps) + ".")
    return "\n".join(out) + "\n"


LADDER_COLUMNS = {"rung", "change", "input_bytes", "pct_of_copy", "step_speedup", "step_vs", "cumulative_speedup",
                  "cumulative_vs", "commit", "date"}


def ladder_table(rows):
    """The reduction ladder's CSV in Harris's format: one table per run (commit, date and input), named
    after the device most of its rows ran on; a row that ran elsewhere (the host loop) says where."""
    out = []
    runs = {}
    for r in rows:
        runs.setdefault((r["commit"], r["date"], r["input_bytes"]), []).append(r)
    for (commit, date, input_bytes), run in runs.items():
        devices = [r["device"] for r in run]
        device = max(devices, key=devices.count)
        if out:
            out.append("")
        out.append(f"{device}, {int(input_bytes) / 1e6:,.1f} MB of input, commit `{commit}`, {date}:")
        out.append("")
        out.append("| rung | what changed | ms | GB/s | % of copy | step | cumulative |")
        out.append("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
        for r in run:
            pct = f"{float(r['pct_of_copy']):.1f}%" if r["pct_of_copy"] else "-"
            step = f"{float(r['step_speedup']):.2f}x vs {r['step_vs']}" if r["step_speedup"] else "-"
            cumulative = f"{float(r['cumulative_speedup']):.2f}x" if r["cumulative_speedup"] else "-"
            where = "" if r["device"] == device else f", on the {r['device']}"
            out.append(f"| {r['rung']} | {r['change']} (`{r['variant']}`{where}) | {number(r['ms'], 3)} | "
                       f"{number(r['gb_per_s'], 1)} | {pct} | {step} | {cumulative} |")
        vs = {r["cumulative_vs"] for r in run if r["cumulative_vs"]}
        if vs:
            out.append("")
            out.append(f"Cumulative: speedup over rung {', '.join(sorted(vs))}. GB/s: bytes read / time, GB = 1e9 bytes "
                       "(the copy's row: bytes read + written).")
    return "\n".join(out) + "\n"


PROFILE_COLUMNS = {"launch", "kernel", "stage", "time_us", "instructions", "threads_per_instruction", "shared_load_conflicts",
                   "achieved_occupancy_pct", "input_bytes", "commit", "date"}


def profile_table(rows):
    """Nsight Compute's counters (scripts/ncu_summary.py): one row per kernel launch."""
    first = rows[0]
    out = [f"{first['device']}, {int(first['input_bytes']) / 1e6:,.1f} MB of input, commit `{first['commit']}`, {first['date']}:", "",
           "| launch | kernel | stage | µs | MB read | warp instructions | threads per instruction | divergent branch "
           "targets | shared loads (bank conflicts) | shared stores (bank conflicts) | occupancy: achieved / "
           "theoretical |",
           "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        out.append(f"| {r['launch']} | `{r['kernel']}` | {r['stage']} | {number(r['time_us'], 1)} | {number(r['dram_read_mb'], 1)} | "
                   f"{int(r['instructions']):,} | {number(r['threads_per_instruction'], 2)} | "
                   f"{int(r['divergent_branch_targets']):,} | {int(r['shared_loads']):,} "
                   f"({int(r['shared_load_conflicts']):,}) | {int(r['shared_stores']):,} "
                   f"({int(r['shared_store_conflicts']):,}) | {r['achieved_occupancy_pct']}% / "
                   f"{r['theoretical_occupancy_pct']}% |")
    return "\n".join(out) + "\n"


STAMP_COLUMNS = ("commit", "date", "device")


def check_data_files():
    """Every CSV under docs/data names the commit, date, device and input bytes of each row."""
    for path in sorted((ROOT / "docs" / "data").rglob("*.csv")):
        rel = path.relative_to(ROOT)
        if rel.parts[2] == "benchmarks":  # a benchmark's own output; scripts/benchmark_csv.py string-gather stamps its rows
            continue
        rows = csv_rows(path)
        columns = rows[0].keys() if rows else set()
        wanted = [c for c in STAMP_COLUMNS if c not in columns]
        size = "input_bytes" if "input_bytes" in columns else "bytes" if "bytes" in columns else None
        if wanted or size is None:
            raise DocsError(f"{rel}: no column {', '.join(wanted + ([] if size else ['bytes or input_bytes']))}")
        for n, r in enumerate(rows, start=2):
            empty = [c for c in (*STAMP_COLUMNS, size) if not (r.get(c) or "").strip()]
            if empty:
                raise DocsError(f"{rel}:{n}: empty {', '.join(empty)}")


def render(text):
    def replace(m):
        body = quote(m["arg"]) if m["kind"] == "snippet" else table(m["arg"])
        return m["open"] + body + m["close"]

    text = BLOCK.sub(replace, text)
    text = SELECT.sub(lambda m: m["open"] + select(m["arg"], m["header"], m["template"]) + m["close"], text)
    return VALUE.sub(lambda m: m["open"] + value(m["arg"]) + m["close"], text)


def main(argv):
    check = "--check" in argv
    files = [pathlib.Path(a) for a in argv if a != "--check"] or sorted((ROOT / "docs").glob("*.md"))
    stale = []
    try:
        if check:
            check_data_files()
        for doc in files:
            old = doc.read_text(encoding="utf-8")
            new = render(old)
            if new != old:
                stale.append(doc)
                if not check:
                    doc.write_text(new, encoding="utf-8")
    except DocsError as e:
        print(f"docs_snippets: error: {e}", file=sys.stderr)
        return 2
    for doc in stale:
        rel = doc.resolve().relative_to(ROOT) if doc.resolve().is_relative_to(ROOT) else doc
        print(f"docs_snippets: {'stale' if check else 'updated'}: {rel}")
    if check and stale:
        print("docs_snippets: run scripts/docs_snippets.py to update the quotes", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
