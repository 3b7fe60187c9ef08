#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""When a command's answer reaches the user, and when the command is over: for each command, the
median over RUNS runs (taken in turn, command by command) of the seconds from the start of the process
to its first byte on stdout and to its exit. The gap between the two is what the process does after its
answer is out (releasing memory, tearing down a device), on the user's clock all the same.

usage: answer_timing.py [--pause S] RUNS NAME=COMMAND...   (COMMAND is a shell command line; its stdout
                                                            is read and dropped)
--pause S waits S seconds before each run, so that nothing a run left behind (a child still releasing
a GPU) overlaps the next.
Prints one CSV row per command: name,runs,first_byte_s,exit_s,after_answer_s (medians).
"""
import statistics
import subprocess
import sys
import time


def one_run(command):
    start = time.perf_counter()
    process = subprocess.Popen(["bash", "-c", command], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    first = process.stdout.read(1)
    first_byte = time.perf_counter() - start
    process.stdout.read()
    process.wait()
    end = time.perf_counter() - start
    if process.returncode != 0:
        sys.exit(f"answer_timing: {command!r} exited with {process.returncode}")
    return (first_byte if first else end), end


def main():
    args = sys.argv[1:]
    pause = 0.0
    if args[:1] == ["--pause"]:
        pause = float(args[1])
        args = args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    runs = int(args[0])
    specs = [arg.split("=", 1) for arg in args[1:]]
    times = {name: [] for name, _ in specs}
    for _ in range(runs):
        for name, command in specs:
            time.sleep(pause)
            times[name].append(one_run(command))
    print("name,runs,first_byte_s,exit_s,after_answer_s")
    for name, _ in specs:
        first = statistics.median(t[0] for t in times[name])
        end = statistics.median(t[1] for t in times[name])
        after = statistics.median(t[1] - t[0] for t in times[name])
        print(f"{name},{runs},{first:.3f},{end:.3f},{after:.3f}")


if __name__ == "__main__":
    main()
