#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How long after rowscan's exit its process tree is gone (rowscan/process/answer_first.hpp): a GPU job's child
process tears the device down after the parent has exited with the answer; the GPU is free again when
the child is gone. For RUNS runs of COMMAND (a command line whose processes are named NAME, as
`pgrep -x NAME` finds them: rowscan), prints the medians of: seconds to the parent's exit, and seconds
from then until no process of that name is left.

usage: gpu_free_after_answer.py RUNS NAME COMMAND...
"""
import statistics
import subprocess
import sys
import time


def alive(name):
    """Whether a process called name still runs (a zombie, which holds no memory or device, does not)."""
    found = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True).stdout.split()
    for pid in found:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                state = stat.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue  # gone meanwhile
        if state != "Z":
            return True
    return False


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    runs, name, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    exits, frees = [], []
    for _ in range(runs):
        while alive(name):  # the last run's child is gone before the next starts
            time.sleep(0.005)
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        exited = time.perf_counter()
        while alive(name):
            time.sleep(0.002)
        gone = time.perf_counter()
        exits.append(exited - start)
        frees.append(gone - exited)
    print(f"exit_s,{statistics.median(exits):.3f},free_after_exit_s,{statistics.median(frees):.3f},runs,{runs}")


if __name__ == "__main__":
    main()
