#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# rowscan's JSON and CSV, read by real parsers: python3's json and csv modules, strictly (UTF-8 that
# must decode, JSON without lone surrogates).
#   tests/json_output_test.py ROWSCAN_EXE
# Checks that JSON and CSV are valid UTF-8 for any name bytes and keep them (name_hex holds the bytes of
# a name that is not UTF-8; the name shows U+FFFD for each byte that is not), that CSV and JSON carry
# the same fields and values, sums included, that lineitem's sums are exact strings equal to the text
# output, and that timings come only with --stats.
import csv
import io
import json
import subprocess
import sys

exe = sys.argv[1]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def rowscan(args, stdin):
    r = subprocess.run([exe] + args, input=stdin, capture_output=True)
    if r.returncode != 0:
        sys.exit(f"rowscan {' '.join(args)} exited with {r.returncode}: {r.stderr.decode(errors='replace')}")
    return r.stdout


# Names: ASCII, valid multi-byte UTF-8, JSON's specials, controls, DEL, and bytes that are not UTF-8
# (a lone continuation byte, an overlong '/', a truncated sequence, an encoded surrogate, 0xff,
# a sequence cut by the end of the name, a code point above U+10FFFF).
names = [b"Abha", "Z\u00fcrich".encode(), "\u6771\u4eac".encode(), "\U0001F600".encode(), b'quo"te', b"back\\slash",
         b"tab\there", b"\x01\x1f\x7f", b"\x80", b"\xc0\xaf", b"\xc3(", b"\xed\xa0\x80", b"\xff", b"end\xe2\x82",
         b"\xf4\x90\x80\x80", b"a,b", "caf\u00e9".encode() + b"\xe9"]
lines = b""
for i, name in enumerate(names):
    lines += name + b";" + f"{i - 5}.{i % 10}".encode() + b"\n" + name + b";" + f"{i}.0".encode() + b"\n"

def no_lone_surrogate(text):
    return not any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def name_bytes(station):
    """The name's bytes: name_hex where the name is not UTF-8, else the name itself."""
    return bytes.fromhex(station["name_hex"]) if station["name_hex"] else station["name"].encode("utf-8")


stations_json = json.loads(rowscan(["stations", "--format", "json", "-"], lines).decode("utf-8", "strict"))
rows = list(csv.DictReader(io.StringIO(rowscan(["stations", "--format", "csv", "-"], lines).decode("utf-8", "strict"), newline="")))
check(len(stations_json) == len(names), f"{len(stations_json)} JSON stations for {len(names)} names")
check(len(rows) == len(names), f"{len(rows)} CSV rows for {len(names)} names")
check(all(no_lone_surrogate(s["name"]) for s in stations_json), "no lone surrogates in JSON names")
check(sorted(name_bytes(s) for s in stations_json) == sorted(names), "JSON names and name_hex give back the bytes")
check(sorted(name_bytes(r) for r in rows) == sorted(names), "CSV names and name_hex give back the bytes")


def is_utf8(data):
    try:
        data.decode("utf-8", "strict")
        return True
    except UnicodeDecodeError:
        return False


check(sorted(bytes.fromhex(s["name_hex"]) for s in stations_json if s["name_hex"] is not None) ==
      sorted(n for n in names if not is_utf8(n)), "name_hex exactly for the names that are not UTF-8")
for s, row in zip(stations_json, rows):
    check(set(s) == set(row), f"the same fields in JSON and CSV: {sorted(s)} vs {sorted(row)}")
    check(s["name"] == row["name"], f"the same name in JSON and CSV: {s['name']!r} vs {row['name']!r}")
    check((s["name_hex"] or "") == row["name_hex"], f"the same name_hex in JSON and CSV: {s['name_hex']!r}")
    for field in ("min", "mean", "max", "sum"):
        check(f"{s[field]:.1f}" == row[field], f"{field} of {s['name']!r}: JSON {s[field]} vs CSV {row[field]}")
    check(str(s["count"]) == row["count"], f"count of {s['name']!r}")
    i = names.index(name_bytes(s))
    check(round(s["sum"] * 10) == (i - 5) * 10 + (i % 10 if i >= 5 else -(i % 10)) + i * 10,
          f"sum of {s['name']!r}: {s['sum']}")

# lineitem: sums exact as strings; the text output has the same digits; timings only with --stats.
row = b"1|%s|3|4|%s|%s|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|x|\n"
table = b"".join(row % (b"%d" % (k % 7), b"%d" % (50 - k % 50), b"%d.%02d" % (9999999 + k, k % 100)) for k in range(300))
thresholds = "3,7,1000"
text = rowscan(["lineitem", "--suppkey-below", thresholds, "-"], table).decode().split()
doc = json.loads(rowscan(["lineitem", "--suppkey-below", thresholds, "--format", "json", "-"], table))
check([r["sum"] for r in doc["results"]] == text, f"JSON sums {[r['sum'] for r in doc['results']]} equal the text {text}")
check(all(isinstance(r["sum"], str) for r in doc["results"]), "sums are strings")
check([r["suppkey_below"] for r in doc["results"]] == [3, 7, 1000], "thresholds in order")
check(doc["rows"] == 300 and doc["bytes"] == len(table), "rows and bytes")
check("load_seconds" not in doc and "query_seconds" not in doc, "no timings without --stats")
again = json.loads(rowscan(["lineitem", "--suppkey-below", thresholds, "--format", "json", "-"], table))
check(again == doc, "two runs give equal JSON")
timed = json.loads(rowscan(["lineitem", "--suppkey-below", thresholds, "--format", "json", "--stats", "-"], table))
check(isinstance(timed.get("load_seconds"), float) and isinstance(timed.get("query_seconds"), float),
      "timings with --stats")
check(timed.get("queried_rows") == 0, f"every block summed in one pass, none queried: {timed.get('queried_rows')}")

# A sum past 2^53 cents keeps every digit (a double would not).
big = row % (b"1", b"4294967295", b"42949672.95") * 3
doc = json.loads(rowscan(["lineitem", "--suppkey-below", "5", "--format", "json", "-"], big))
cents = 4294967295 * 4294967295 * 3
check(doc["results"][0]["sum"] == f"{cents // 100}.{cents % 100:02d}", f"exact large sum: {doc['results'][0]['sum']}")

if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print(f"json_output_test: {len(names)} names, lineitem sums: all checks passed")
