#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Python module against the CLI: the same answers, errors and skipped lines, byte for byte, on the
bundled sample and on random inputs; and the session's cache: a second query reads no file, a changed
file is read again, the budget holds, a bad file is never kept, Ctrl-C stops a query.

Usage: session_test.py ROWSCAN SOURCE_DIR (PYTHONPATH holds the built package). Seeds are printed on failure.
ROWSCAN_TEST_DEVICES=gpu runs the sessions and the CLI on the GPU (a cuda build on a GPU machine).
"""
import ctypes
import os
import random
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import rowscan

CLI = None
SOURCE_DIR = None
# Where the sessions and the CLI run: "cpu" (CI), or "gpu" on a GPU machine (the copies kept in device memory).
DEVICES = os.environ.get("ROWSCAN_TEST_DEVICES", "cpu")


def cli(*args, check=True):
    """The CLI's stdout as str, or (exit code, stderr) when check is False and it fails."""
    quiet = ["--no-progress", "--devices", DEVICES] if args[0] != "generate" else []
    run = subprocess.run([CLI, *args, *quiet], capture_output=True)
    if check:
        if run.returncode != 0:
            raise AssertionError("rowscan %s failed: %s" % (args, run.stderr.decode()))
        return run.stdout.decode("utf-8", "surrogateescape")
    return run.returncode, run.stdout.decode("utf-8", "surrogateescape"), run.stderr.decode("utf-8", "surrogateescape")


class FileWatch:
    """The opens and reads of one file by anyone, as Linux's inotify tells them (IN_OPEN, IN_ACCESS)."""

    IN_ACCESS, IN_OPEN, IN_NONBLOCK, IN_CLOEXEC = 0x1, 0x20, 0o4000, 0o2000000

    def __init__(self, path):
        libc = ctypes.CDLL(None, use_errno=True)
        self.fd = libc.inotify_init1(self.IN_NONBLOCK | self.IN_CLOEXEC)
        if self.fd < 0 or libc.inotify_add_watch(self.fd, os.fsencode(path), self.IN_ACCESS | self.IN_OPEN) < 0:
            raise unittest.SkipTest("no inotify")

    def events(self):
        """The events since the last call: (opens, reads)."""
        opens = reads = 0
        while True:
            try:
                data = os.read(self.fd, 4096)
            except BlockingIOError:
                return opens, reads
            at = 0
            while at < len(data):
                _, mask, _, size = struct.unpack_from("iIII", data, at)
                opens += bool(mask & self.IN_OPEN)
                reads += bool(mask & self.IN_ACCESS)
                at += 16 + size

    def close(self):
        os.close(self.fd)


def random_measurements(rng, rows, stations):
    """Lines of `name;temperature`, names with spaces and UTF-8, the last line with or without '\\n'."""
    names = ["St %d ü" % i if i % 7 == 0 else "Station%d" % i for i in range(stations)]
    lines = []
    for _ in range(rows):
        t = rng.randint(-999, 999)
        lines.append("%s;%s%d.%d" % (rng.choice(names), "-" if t < 0 else "", abs(t) // 10, abs(t) % 10))
    text = "\n".join(lines)
    return (text + "\n" if rng.random() < 0.7 else text).encode()


class Directory(unittest.TestCase):
    def setUp(self):
        self._dir = tempfile.TemporaryDirectory()
        self.dir = self._dir.name

    def tearDown(self):
        self._dir.cleanup()

    def write(self, name, data):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(data)
        return path


class SameAsCli(Directory):
    def test_bundled_sample(self):
        sample = os.path.join(SOURCE_DIR, "samples", "measurements.txt")
        s = rowscan.Session(devices=DEVICES)
        for fmt in ("1brc", "json", "csv"):
            self.assertEqual(s.stations(sample).text(fmt), cli("stations", sample, "--format", fmt))
        with open(os.path.join(SOURCE_DIR, "samples", "measurements.out")) as expected:
            self.assertEqual(str(s.stations(sample)), expected.read())

    def test_random_measurements(self):
        s = rowscan.Session(devices=DEVICES, threads=2)
        for seed in range(8):
            rng = random.Random(seed)
            path = self.write("m%d.txt" % seed, random_measurements(rng, rng.randint(1, 3000), rng.randint(1, 60)))
            chunk = rng.choice([None, 4096])
            with self.subTest(seed=seed, chunk=chunk):
                extra = ["--chunk-size", str(chunk)] if chunk else []
                for _ in range(2):  # from the file, then from the cache
                    got = s.stations(path, chunk_size=chunk)
                    self.assertEqual(got.text("json"), cli("stations", path, "--format", "json", *extra))
                d = got.to_dict()
                t = got.to_dict(exact="tenths")
                self.assertEqual(len(d["station"]), len(got))
                for i in range(len(got)):  # the Decimals are the tenths, exactly
                    self.assertEqual(d["min"][i] * 10, t["min"][i])
                    self.assertEqual(d["sum"][i] * 10, t["sum"][i])

    def test_several_files_and_a_directory(self):
        rng = random.Random(99)
        for i in range(3):
            self.write("part%d.txt" % i, random_measurements(rng, 500, 20))
        os.mkdir(os.path.join(self.dir, "sub"))
        s = rowscan.Session(devices=DEVICES)
        got = s.stations(self.dir)
        self.assertEqual(got.text(), cli("stations", self.dir))
        self.assertIn("skipped 1 subdirectory", got.warnings)
        files = [os.path.join(self.dir, "part%d.txt" % i) for i in (2, 0)]
        self.assertEqual(s.stations(files).text(), cli("stations", *files))

    def test_random_lineitem(self):
        s = rowscan.Session(devices=DEVICES)
        for seed in (1, 2):
            path = os.path.join(self.dir, "lineitem%d.tbl" % seed)
            cli("generate", "lineitem", "--scale", "0.001", "--seed", str(seed), "-o", path)
            rng = random.Random(seed)
            below = [rng.randint(0, 12) for _ in range(rng.randint(1, 9))]
            z = ",".join(map(str, below))
            with self.subTest(seed=seed, suppkey_below=z):
                for _ in range(2):
                    got = s.lineitem(path, suppkey_below=below)
                    self.assertEqual(got.text(), cli("lineitem", path, "--suppkey-below", z))
                    self.assertEqual(got.text("json"), cli("lineitem", path, "--suppkey-below", z, "--format", "json"))
                d = got.to_dict()
                c = got.to_dict(exact="cents")
                self.assertEqual(d["suppkey_below"], below)
                self.assertEqual([x * 100 for x in d["sum"]], c["sum"])
                self.assertEqual(got.text(), "".join("%s\n" % x for x in d["sum"]))

    def test_pandas_when_present(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("no pandas")
        sample = os.path.join(SOURCE_DIR, "samples", "measurements.txt")
        frame = rowscan.Session(devices=DEVICES).stations(sample).to_pandas()
        self.assertEqual(list(frame.columns), ["station", "min", "mean", "max", "count", "sum"])


class Errors(Directory):
    def assert_same_error(self, raised, *args):
        code, out, err = cli(*args, check=False)
        self.assertEqual(code, 1)
        self.assertEqual(out, "")
        self.assertEqual("rowscan: error: %s\n" % raised.exception, err)

    def test_bad_line_is_the_cli_message_and_never_cached(self):
        path = self.write("bad.txt", b"Hamburg;12.0\nBerlin;1.23\nParis;3.0\n")
        s = rowscan.Session(devices=DEVICES)
        with self.assertRaises(rowscan.InputError) as raised:
            s.stations(path)
        self.assertIsInstance(raised.exception, rowscan.Error)
        self.assert_same_error(raised, "stations", path)
        self.assertEqual(s.cache_info()["entries"], 0)
        self.assertEqual(s.cache_info()["bytes"], 0)
        with self.assertRaises(rowscan.InputError):  # read again, and the same error
            s.stations(path)
        self.assertEqual(s.cache_info()["loads"], 2)
        self.assertEqual(s.cache_info()["entries"], 0)

    def test_skipped_lines_are_found_again_in_the_cached_bytes(self):
        path = self.write("bad.txt", b"Hamburg;12.0\nBerlin;1.23\nParis;3.0\nOslo;x\n")
        s = rowscan.Session(devices=DEVICES)
        got = s.stations(path, skip_invalid=True)
        code, out, err = cli("stations", path, "--skip-invalid", check=False)
        self.assertEqual(got.text(), out)
        self.assertEqual("rowscan: %s\n" % got.skipped["summary"], err)
        self.assertEqual(got.skipped["count"], 2)
        self.assertEqual(s.cache_info()["entries"], 1)  # the bytes are kept: they are the file's
        with self.assertRaises(rowscan.InputError) as raised:  # and a strict query still stops on them
            s.stations(path)
        self.assert_same_error(raised, "stations", path)
        self.assertEqual(s.cache_info()["hits"], 1)

    def test_lineitem_error(self):
        path = self.write("bad.tbl", b"1|2|3|\n")
        s = rowscan.Session(devices=DEVICES)
        with self.assertRaises(rowscan.InputError) as raised:
            s.lineitem(path, suppkey_below=[5])
        self.assert_same_error(raised, "lineitem", path, "--suppkey-below", "5")

    def test_missing_file_and_bad_devices(self):
        s = rowscan.Session(devices=DEVICES)
        missing = os.path.join(self.dir, "nope.txt")
        with self.assertRaises(rowscan.Error) as raised:
            s.stations(missing)
        self.assert_same_error(raised, "stations", missing)
        with self.assertRaises(rowscan.UsageError):
            rowscan.Session(devices="tpu")


class Cache(Directory):
    def big(self, name, seed, rows=60000):
        return self.write(name, random_measurements(random.Random(seed), rows, 40))

    def test_second_query_reads_no_file(self):
        path = self.big("a.txt", 1)
        size = os.path.getsize(path)
        s = rowscan.Session(devices=DEVICES)
        watch = FileWatch(path)
        first = s.stations(path).text()
        opens, reads = watch.events()
        self.assertGreater(opens, 0)  # read once, into the cache
        self.assertGreater(reads, 0)
        second = s.stations(path, chunk_size=4096).text()  # another chunk size: the bytes are folded again
        self.assertEqual(watch.events(), (0, 0))
        watch.close()
        self.assertEqual(first, second)
        self.assertEqual(first, cli("stations", path))
        info = s.cache_info()
        self.assertEqual((info["loads"], info["hits"], info["entries"], info["bytes"]), (1, 1, 1, size))

    def test_a_changed_file_is_read_again(self):
        path = self.big("a.txt", 2)
        s = rowscan.Session(devices=DEVICES)
        self.assertEqual(s.stations(path).text(), cli("stations", path))
        with open(path, "ab") as f:  # one more station, same inode
            f.write(b"Zzyzx;-99.9\n")
        self.assertEqual(s.stations(path).text(), cli("stations", path))
        with open(path + ".new", "wb") as f:  # replaced by another inode, as editors save
            f.write(b"Only;1.0\n")
        os.replace(path + ".new", path)
        self.assertEqual(s.stations(path).text(), "{Only=1.0/1.0/1.0}\n")
        info = s.cache_info()
        self.assertEqual(info["stale"], 1)
        self.assertEqual(info["loads"], 3)
        self.assertEqual(info["hits"], 0)

    def test_budget_is_never_exceeded(self):
        paths = [self.big("f%d.txt" % i, 10 + i, rows=20000) for i in range(4)]
        sizes = [os.path.getsize(p) for p in paths]
        budget = max(sizes) * 2 + 1  # room for two
        s = rowscan.Session(devices=DEVICES, cache_bytes=budget)
        rng = random.Random(5)
        for _ in range(12):
            i = rng.randrange(len(paths))
            self.assertEqual(s.stations(paths[i]).text(), cli("stations", paths[i]))
            info = s.cache_info()
            self.assertLessEqual(info["bytes"], budget)
            self.assertLessEqual(info["entries"], 2)
        self.assertGreater(s.cache_info()["evictions"], 0)
        small = rowscan.Session(devices=DEVICES, cache_bytes=min(sizes) - 1)  # no file fits: each is read as a file
        self.assertEqual(small.stations(paths[0]).text(), cli("stations", paths[0]))
        self.assertEqual(small.cache_info()["entries"], 0)
        self.assertEqual(small.cache_info()["uncached"], 1)

    def test_least_recently_used_goes_first(self):
        paths = [self.big("f%d.txt" % i, 20 + i, rows=10000) for i in range(3)]
        budget = sum(os.path.getsize(p) for p in paths[:2]) + max(os.path.getsize(p) for p in paths) // 2
        s = rowscan.Session(devices=DEVICES, cache_bytes=budget)
        s.stations(paths[0])
        s.stations(paths[1])
        s.stations(paths[0])  # 1 is now the least recently used
        s.stations(paths[2])  # evicts 1
        before = s.cache_info()["loads"]
        s.stations(paths[0])
        self.assertEqual(s.cache_info()["loads"], before)
        s.stations(paths[1])
        self.assertEqual(s.cache_info()["loads"], before + 1)

    def test_clear_and_no_budget(self):
        path = self.big("a.txt", 3, rows=1000)
        s = rowscan.Session(devices=DEVICES, cache_bytes=0)
        self.assertEqual(s.stations(path).text(), cli("stations", path))
        self.assertEqual(s.cache_info()["entries"], 0)
        s = rowscan.Session(devices=DEVICES)
        s.stations(path)
        s.clear_cache()
        self.assertEqual((s.cache_info()["entries"], s.cache_info()["bytes"]), (0, 0))


class LineitemCache(Directory):
    """lineitem keeps each file's parsed columns (12 bytes a row), not its text."""

    def table(self, name, seed, scale="0.002"):
        path = os.path.join(self.dir, name)
        cli("generate", "lineitem", "--scale", scale, "--seed", str(seed), "-o", path)
        return path

    def test_later_queries_read_no_file(self):
        path = self.table("l.tbl", 1)
        s = rowscan.Session(devices=DEVICES)
        watch = FileWatch(path)
        first = s.lineitem(path, suppkey_below=[5])
        opens, reads = watch.events()
        self.assertGreater(opens, 0)  # read once, and parsed into columns
        self.assertGreater(reads, 0)
        rng = random.Random(3)
        for _ in range(4):
            below = [rng.randint(0, 25) for _ in range(rng.randint(1, 12))]
            z = ",".join(map(str, below))
            with self.subTest(seed=3, suppkey_below=z):
                text = cli("lineitem", path, "--suppkey-below", z)
                json = cli("lineitem", path, "--suppkey-below", z, "--format", "json")
                watch.events()  # the CLI's reads
                got = s.lineitem(path, suppkey_below=below)
                self.assertEqual(watch.events(), (0, 0))
                self.assertEqual(got.text(), text)
                self.assertEqual(got.text("json"), json)
        watch.close()
        info = s.cache_info()
        self.assertEqual((info["loads"], info["hits"], info["entries"]), (1, 4, 1))
        self.assertEqual(info["bytes"], first.rows * 12)  # the columns, far smaller than the text
        self.assertLess(info["bytes"], os.path.getsize(path) / 5)

    def test_a_changed_file_is_read_again(self):
        path = self.table("l.tbl", 2, scale="0.001")
        s = rowscan.Session(devices=DEVICES)
        self.assertEqual(s.lineitem(path, suppkey_below=[7]).text(), cli("lineitem", path, "--suppkey-below", "7"))
        with open(path, "ab") as f:  # one more row, same inode
            f.write(b"1|2|3|4|50|1000.00|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|X|Y|z|\n")
        self.assertEqual(s.lineitem(path, suppkey_below=[7]).text(), cli("lineitem", path, "--suppkey-below", "7"))
        info = s.cache_info()
        self.assertEqual((info["loads"], info["stale"], info["hits"]), (2, 1, 0))

    def test_budget_is_never_exceeded(self):
        paths = [self.table("l%d.tbl" % i, 10 + i, scale="0.001") for i in range(3)]
        # Room for a file's columns beside the reservation of another's (at most 12 bytes per 23 of its text),
        # not for three files' columns.
        s = rowscan.Session(devices=DEVICES, cache_bytes=max(os.path.getsize(p) for p in paths) * 7 // 10)
        rng = random.Random(11)
        for _ in range(9):
            i = rng.randrange(len(paths))
            z = str(rng.randint(0, 20))
            self.assertEqual(s.lineitem(paths[i], suppkey_below=[int(z)]).text(),
                             cli("lineitem", paths[i], "--suppkey-below", z))
            self.assertLessEqual(s.cache_info()["bytes"], s.cache_info()["budget_bytes"])
        self.assertGreater(s.cache_info()["hits"], 0)
        self.assertGreater(s.cache_info()["evictions"], 0)

    def test_a_bad_file_keeps_nothing(self):
        good = self.table("good.tbl", 4, scale="0.001")
        with open(good, "rb") as f:
            rows = f.read().splitlines(keepends=True)
        bad = self.write("bad.tbl", b"".join(rows[:50]) + b"1|2|x|4|5|6.00|0|0|N|O|a|b|c|d|e|f|\n" + b"".join(rows[50:]))
        s = rowscan.Session(devices=DEVICES)
        for _ in range(2):
            with self.assertRaises(rowscan.InputError) as raised:
                s.lineitem(bad, suppkey_below=[5])
            self.assert_same_error(raised, "lineitem", bad, "--suppkey-below", "5")
            self.assertEqual((s.cache_info()["entries"], s.cache_info()["bytes"]), (0, 0))
        got = s.lineitem(bad, suppkey_below=[5], skip_invalid=True)
        code, out, err = cli("lineitem", bad, "--suppkey-below", "5", "--skip-invalid", check=False)
        self.assertEqual(got.text(), out)
        self.assertEqual("rowscan: %s\n" % got.skipped["summary"], err)
        self.assertEqual(s.cache_info()["entries"], 0)  # skipped rows: the columns are not the file's
        s.lineitem(good, suppkey_below=[5])
        clean = s.lineitem(good, suppkey_below=[5], skip_invalid=True)  # nothing to skip: from the columns
        self.assertEqual(clean.text(), cli("lineitem", good, "--suppkey-below", "5", "--skip-invalid"))
        self.assertEqual(clean.skipped["count"], 0)
        self.assertEqual(s.cache_info()["hits"], 1)

    def assert_same_error(self, raised, *args):
        Errors.assert_same_error(self, raised, *args)

class Interrupt(Directory):
    def test_ctrl_c_stops_a_query(self):
        path = os.path.join(self.dir, "big.txt")
        cli("generate", "measurements", "--rows", "3000000", "--seed", "7", "-o", path)
        s = rowscan.Session(devices=DEVICES, threads=1)
        timer = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
        returned = False
        timer.start()
        try:
            s.stations(path, chunk_size=1 << 20)
            returned = True
            time.sleep(30)  # the signal lands here if the query was faster than it
        except KeyboardInterrupt:
            pass
        timer.join()
        if not returned:  # it stopped the query: nothing of the file was kept
            self.assertEqual(s.cache_info()["entries"], 0)
        else:
            print("the query ended before the signal; only the session's use after it is checked", file=sys.stderr)
        self.assertEqual(s.stations(path).text(), cli("stations", path))


if __name__ == "__main__":
    CLI, SOURCE_DIR = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
