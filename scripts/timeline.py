#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One run's timeline from exec to exit: runs COMMAND RUNS times with ROWSCAN_TIMELINE set
(rowscan/job/timeline.hpp), and prints for every milestone the median milliseconds from the moment
the command was started to the milestone, in the order they happened, then the moment the caller saw
the command end ("exit seen"). A milestone a run passes more than once (one per input of a list) counts
at its first time; "last block folded" at its last.

usage: timeline.py RUNS NAME COMMAND...   (COMMAND is run as given, its stdout dropped)
Prints CSV rows: name,milestone,runs,median_ms,min_ms,max_ms
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def one_run(command):
    with tempfile.TemporaryDirectory() as scratch:
        marks = os.path.join(scratch, "timeline")
        env = dict(os.environ, ROWSCAN_TIMELINE=marks)
        start = time.time()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
        end = time.time()
        seen = {}
        if not os.path.exists(marks):
            sys.exit(f"timeline: {command[0]} wrote no milestones (a rowscan built before ROWSCAN_TIMELINE?)")
        with open(marks) as f:
            for line in f:
                micros, _pid, milestone = line.rstrip("\n").split(" ", 2)
                at = int(micros) / 1e3 - start * 1e3
                if milestone not in seen or milestone == "last block folded":
                    seen[milestone] = at
        seen["exit seen"] = (end - start) * 1e3
        return seen


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    runs, name, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    times = {}
    for _ in range(runs):
        for milestone, at in one_run(command).items():
            times.setdefault(milestone, []).append(at)
    print("name,milestone,runs,median_ms,min_ms,max_ms")
    for milestone, values in sorted(times.items(), key=lambda kv: statistics.median(kv[1])):
        print(f"{name},{milestone},{len(values)},{statistics.median(values):.1f},{min(values):.1f},{max(values):.1f}")


if __name__ == "__main__":
    main()
