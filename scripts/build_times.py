#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where a build's time went, from Ninja's own record (.ninja_log): the slowest outputs and the sum per target.

    scripts/build_times.py [BUILD_DIR] [COUNT]     (default build/cpu, the 25 slowest)

Each output's latest build counts once. The times are wall times of each step, so on a machine shared with
other work they grow with its load; compare runs made on a quiet machine, or from a clean build tree
(`ninja -t clean`), where no step was skipped or served by a compiler cache.
"""
import collections
import os
import sys


def main(argv):
    build = argv[0] if argv else "build/cpu"
    count = int(argv[1]) if len(argv) > 1 else 25
    latest = {}
    with open(os.path.join(build, ".ninja_log"), encoding="utf-8") as log:
        for line in log:
            if line.startswith("#"):
                continue
            start, end, _, output, _ = line.rstrip("\n").split("\t")
            latest[output] = int(end) - int(start)
    objects = {o: ms for o, ms in latest.items() if o.endswith(".o")}
    per_target = collections.Counter()
    for output, ms in objects.items():
        target = output.split("/CMakeFiles/")[-1].split(".dir/")[0] if "/CMakeFiles/" in output else "(other)"
        per_target[target] += ms
    total = sum(objects.values())
    print(f"{len(objects)} compiled files, {total / 1000:.1f} s in all")
    print(f"\nthe {count} slowest:")
    for output, ms in sorted(objects.items(), key=lambda item: -item[1])[:count]:
        print(f"{ms / 1000:8.1f} s  {output}")
    print("\nper target:")
    for target, ms in per_target.most_common():
        print(f"{ms / 1000:8.1f} s  {100 * ms / total:5.1f}%  {target}")


if __name__ == "__main__":
    main(sys.argv[1:])
