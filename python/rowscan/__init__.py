# SPDX-License-Identifier: Apache-2.0
"""rowscan from Python: exact answers over large delimited text, with a cache that keeps the files' bytes.

    import rowscan
    s = rowscan.Session()                    # devices="auto": the GPU if usable, else the host's cores
    r = s.stations("measurements.txt")       # the CLI's `rowscan stations measurements.txt`
    r.to_dict()                              # {"station": [...], "min": [Decimal], ...}
    s.stations("measurements.txt")           # again: from the bytes the session keeps, no file read

Values are exact: temperatures as decimal.Decimal with one fractional digit (the CLI's tenths; the
to_dict(exact="tenths") form gives the integers), lineitem sums as Decimal dollars with two fractional
digits (exact="cents": integers). docs/python.md walks through it.
"""

import os as _os

from ._rowscan import Error, InputError, UsageError, default_cache_bytes
from . import _rowscan

__all__ = ["Session", "Stations", "Lineitem", "Error", "InputError", "UsageError", "default_cache_bytes"]

#: Temperatures are integers in tenths of a degree: value = tenths / TENTHS.
TENTHS = 10
#: Lineitem sums are integers in cents: value = cents / CENTS.
CENTS = 100


def _paths(path_or_paths):
    if isinstance(path_or_paths, (str, bytes, _os.PathLike)):
        return [_os.fsdecode(path_or_paths)]
    return [_os.fsdecode(p) for p in path_or_paths]


def _scaled(values, digits):
    from decimal import Decimal

    return [Decimal(v).scaleb(-digits) for v in values]


class _Answer:
    """What every answer has: the CLI's text, the bytes and lines read, and the lines skipped."""

    def __init__(self, native, warnings):
        self._native = native
        #: The warning lines the CLI prints on stderr (subdirectories left out), or "".
        self.warnings = warnings

    def __len__(self):
        return len(self._native)

    @property
    def bytes(self):
        """Bytes of text read."""
        return self._native.bytes

    @property
    def lines(self):
        """Lines read, skipped ones included."""
        return self._native.lines

    @property
    def skipped(self):
        """skip_invalid's record: {"count": N, "first": [messages of the first 5], "summary": the CLI's line}."""
        return self._native.skipped

    def text(self, format=None):
        """The CLI's standard output for this answer, as str (the names' bytes decoded as UTF-8)."""
        raw = self._native.text(format or self._default_format)
        return raw.decode("utf-8", "surrogateescape")

    def __str__(self):
        return self.text()

    def to_pandas(self):
        """A pandas.DataFrame of to_dict() (pandas is imported only here)."""
        import pandas

        return pandas.DataFrame(self.to_dict())


class Stations(_Answer):
    """The answer of `rowscan stations`: one row per station, sorted by the bytes of its name."""

    _default_format = "1brc"

    def to_dict(self, exact="decimal"):
        """Columns station, min, mean, max, count, sum. exact="decimal": decimal.Decimal degrees (one
        fractional digit; mean rounded half up, as the CLI prints it); exact="tenths": integers in tenths."""
        c = self._native.columns()
        out = {"station": [n.decode("utf-8", "surrogateescape") for n in c["name"]]}
        for column in ("min", "mean", "max"):
            out[column] = c[column] if exact == "tenths" else _scaled(c[column], 1)
        out["count"] = c["count"]
        out["sum"] = c["sum"] if exact == "tenths" else _scaled(c["sum"], 1)
        if exact not in ("decimal", "tenths"):
            raise ValueError("exact must be 'decimal' or 'tenths', not %r" % (exact,))
        return out


class Lineitem(_Answer):
    """The answer of `rowscan lineitem`: one row per threshold, in the order they were given."""

    _default_format = "text"

    @property
    def rows(self):
        """Rows loaded (the valid ones)."""
        return self._native.rows

    def to_dict(self, exact="decimal"):
        """Columns suppkey_below, sum, rows. exact="decimal": sums as decimal.Decimal dollars (two fractional
        digits); exact="cents": integers in cents."""
        c = self._native.columns()
        if exact not in ("decimal", "cents"):
            raise ValueError("exact must be 'decimal' or 'cents', not %r" % (exact,))
        return {
            "suppkey_below": c["suppkey_below"],
            "sum": c["sum"] if exact == "cents" else _scaled(c["sum"], 2),
            "rows": c["rows"],
        }


class Session:
    """An engine kept for many queries, and a cache of the bytes of the files they read.

    devices: "auto" (the GPU when one is usable, else the host's cores), "cpu" or "gpu".
    cache_bytes: the cache's budget (default: default_cache_bytes(), a quarter of the available memory);
    0 keeps nothing. threads: host threads (the CLI's --threads); None: the CLI's default.
    """

    def __init__(self, devices="auto", cache_bytes=None, threads=None):
        self._native = _rowscan.Session(devices, cache_bytes, threads or 0)

    @property
    def device(self):
        """"gpu" or "cpu": where this session's queries run."""
        return self._native.device

    def stations(self, path_or_paths, skip_invalid=False, recursive=False, crlf=False, chunk_size=None):
        """`rowscan stations FILE...`: per-station min/mean/max. Raises InputError with the CLI's message
        (FILE:LINE:COLUMN: ...) on a bad line, unless skip_invalid."""
        native, warnings = self._native.stations(_paths(path_or_paths), skip_invalid, recursive, crlf, chunk_size or 0)
        return Stations(native, warnings)

    def lineitem(self, path_or_paths, suppkey_below, skip_invalid=False, recursive=False, crlf=False, chunk_size=None):
        """`rowscan lineitem FILE... --suppkey-below Z1,Z2,...`: SUM(l_quantity * l_extendedprice) WHERE
        l_suppkey < Z, for each Z."""
        if isinstance(suppkey_below, int):
            suppkey_below = [suppkey_below]
        native, warnings = self._native.lineitem(
            _paths(path_or_paths), list(suppkey_below), skip_invalid, recursive, crlf, chunk_size or 0
        )
        return Lineitem(native, warnings)

    def cache_info(self):
        """The cache's figures: budget_bytes, bytes, entries, hits, misses, loads, loaded_bytes, stale,
        evictions, discarded, uncached."""
        return self._native.cache_info()

    def clear_cache(self):
        """Drops every file the cache keeps."""
        self._native.clear_cache()
