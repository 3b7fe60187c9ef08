#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""MPI ranks: `mpirun -np N rowscan ...` against the one-process run, byte for byte.

usage: mpi_ranks_test.py ROWSCAN MPIEXEC SCENARIO [SEED]

For N = 1..4 (--oversubscribe) every scenario compares the exit code, stdout and rowscan's stderr lines
(mpirun adds its own notice when a rank exits non-zero) with `rowscan ...` run alone. Scenarios:
random_files, rank_boundaries, small_files, lineitem, edges. The seed is printed on failure.
"""
import gzip
import os
import random
import subprocess
import sys
import tempfile

ROWSCAN, MPIEXEC, SCENARIO = sys.argv[1], sys.argv[2], sys.argv[3]
SEED = int(sys.argv[4]) if len(sys.argv) > 4 else 1
COMMAND = "lineitem" if SCENARIO == "lineitem" else "stations"
failures = []


def run(command):
    p = subprocess.run(command, capture_output=True)
    err = b"".join(line for line in p.stderr.splitlines(keepends=True) if line.startswith(b"rowscan"))
    return p.returncode, p.stdout, err


def compare(args, what, ranks=(1, 2, 3, 4)):
    args = [COMMAND] + args
    alone = run([ROWSCAN] + args)
    for n in ranks:
        got = run([MPIEXEC, "-np", str(n), "--oversubscribe", ROWSCAN] + args)
        if got != alone:
            failures.append(f"{what}, {n} ranks (seed {SEED}):\n  alone:  {alone}\n  ranks:  {got}")
    return alone


def station_lines(rng, count, names=40):
    return [f"s{rng.randrange(names)}{'é' * rng.randrange(3)};{rng.randrange(-999, 1000) / 10:.1f}\n"
            for _ in range(count)]


def write(path, text):
    with open(path, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)
    return path


def random_files(d, rng):
    files = [write(os.path.join(d, f"f{i}"), "".join(station_lines(rng, rng.randrange(0, 3000))))
             for i in range(rng.randrange(1, 6))]
    compare(files, "random files")
    compare(files + ["--chunk-size", "1K", "--format", "json"], "random files, 1K chunks, json")
    # Lines of up to 3000 bytes: the ranks' cuts fall inside lines.
    long_lines = "".join(f"{'n' * rng.randrange(1, 100)}{'é' * rng.randrange(0, 1400)};1.0\n" for _ in range(40))
    write(os.path.join(d, "long"), long_lines)
    compare([os.path.join(d, "long")], "cuts inside lines")


def rank_boundaries(d, rng):
    lines = station_lines(rng, 400)
    text = "".join(lines)
    total = len(text.encode())
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line.encode())
    # For every rank count, the lines on both sides of every cut (total * r / n) go bad.
    bad = set()
    for n in (2, 3, 4):
        for r in range(1, n):
            cut = total * r // n
            i = max(j for j, s in enumerate(starts) if s <= cut)
            bad.update({i - 1, i, i + 1} & set(range(len(lines))))
    for i in sorted(bad):
        lines[i] = "no separator here\n" if i % 2 else "x;1.23\n"
    path = write(os.path.join(d, "boundaries"), "".join(lines))
    compare([path], "bad lines on rank boundaries")
    compare([path, "--skip-invalid"], "bad lines on rank boundaries, skipped")
    # One bad line at a time, right at each cut: the first bad line wins whichever rank holds it.
    for n in (2, 3, 4):
        for r in range(1, n):
            good = station_lines(rng, 200)
            text = "".join(good)
            cut = len(text.encode()) * r // n
            at = 0
            for i, line in enumerate(good):
                if at <= cut < at + len(line.encode()):
                    good[i] = "bad\n"
                    break
                at += len(line.encode())
            compare([write(os.path.join(d, f"cut{n}{r}"), "".join(good))], f"bad line at cut {r}/{n}", ranks=(n,))


def small_files(d, rng):
    files = []
    for i in range(60):
        text = "".join(station_lines(rng, rng.randrange(0, 4)))
        if text and rng.random() < 0.3:
            text = text[:-1]  # no final newline: the line still ends with its file
        if rng.random() < 0.1:
            text += "bad\n"
        files.append(write(os.path.join(d, f"small{i:02d}"), text))
    compare([d, "--skip-invalid"], "many small files (a directory), skipped")
    compare(files, "many small files, strict")


def lineitem(d, rng):
    table = os.path.join(d, "lineitem.tbl")
    subprocess.run([ROWSCAN, "generate", "lineitem", "--scale", "0.003", "--seed", str(SEED), "-o", table], check=True)
    rows = open(table, "rb").read().splitlines(keepends=True)
    for i in rng.sample(range(len(rows)), 5):
        rows[i] = rows[i].replace(b"|", b"|x", 1)
    third = len(rows) // 3
    parts = [write(os.path.join(d, f"li{i}"), b"".join(rows[i * third:(i + 1) * third if i < 2 else None]))
             for i in range(3)]
    compare([table, "--suppkey-below", "5,20"], "lineitem, one file")
    compare(parts + ["--suppkey-below", "5,20", "--skip-invalid", "--format", "json"], "lineitem, 3 files, skipped")
    compare(parts + ["--suppkey-below", "5,20"], "lineitem, 3 files, strict")


def edges(d, rng):
    empty = write(os.path.join(d, "empty"), "")
    compare([empty], "an empty file")
    os.mkdir(os.path.join(d, "none"))
    compare([os.path.join(d, "none")], "an empty directory")
    one = write(os.path.join(d, "one"), "a;1.0\n")
    compare([one], "fewer lines than ranks")
    compare([one, os.path.join(d, "missing")], "a missing file")
    gz = write(os.path.join(d, "z.gz"), gzip.compress("".join(station_lines(rng, 500)).encode()))
    compare([one, gz, one], "a compressed file among others")
    compare([one, "-"], "standard input with one rank", ranks=(1,))
    got = run([MPIEXEC, "-np", "2", "--oversubscribe", ROWSCAN, COMMAND, one, "-"])
    if got[0] != 2 or b"cannot be shared" not in got[2]:
        failures.append(f"standard input with 2 ranks: {got}")
    # Byte order marks (offsets placed once, on every rank), --crlf, dot-files and the warning
    # about a skipped subdirectory (printed once), every byte offset compared too.
    os.environ["ROWSCAN_ERROR_BYTE_OFFSETS"] = "1"
    lines = station_lines(rng, 2000)
    bom = write(os.path.join(d, "bom"), b"\xef\xbb\xbf" + "".join(lines[:1000] + ["bad\n"] + lines[1000:]).encode())
    compare([bom], "a byte order mark and a bad line")
    compare([bom, "--skip-invalid", "--chunk-size", "1K"], "a byte order mark, skipped")
    crlf = write(os.path.join(d, "crlf"), "".join(lines[:700] + ["x;1.23\n"] + lines[700:]).replace("\n", "\r\n"))
    compare([crlf, "--crlf", "--skip-invalid"], "--crlf, skipped")
    compare([bom, crlf, "--crlf"], "--crlf after a mark")
    tree = os.path.join(d, "tree")
    os.makedirs(os.path.join(tree, "sub"))
    write(os.path.join(tree, "a"), "".join(lines[:900]))
    write(os.path.join(tree, ".hidden"), "bad\n")
    write(os.path.join(tree, "sub", "b"), "".join(lines[900:]))
    compare([tree], "a directory with a dot-file and a subdirectory")
    compare([tree, "--recursive"], "--recursive")
    del os.environ["ROWSCAN_ERROR_BYTE_OFFSETS"]
    unreadable = write(os.path.join(d, "unreadable"), "b;2.0\n")
    os.chmod(unreadable, 0)
    if os.geteuid() != 0:  # root reads it anyway
        compare([one, unreadable], "an unreadable file")


def main():
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory() as d:
        {"random_files": random_files, "rank_boundaries": rank_boundaries, "small_files": small_files,
         "lineitem": lineitem, "edges": edges}[SCENARIO](d, rng)
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print(f"{SCENARIO}: every rank count gave the one-process answer (seed {SEED})")


if __name__ == "__main__":
    main()
