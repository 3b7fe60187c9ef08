#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks what each part of the build compiles (docs/job-driver.md, "Engines"), from the dependencies
Ninja recorded while it built them:

  - an engine (rowscan_algorithms, and rowscan_algorithms_host in the CUDA build) compiles only files
    that include Thrust: what needs no Thrust system belongs to rowscan_core, compiled once;
  - rowscan_core, the libraries above the engines (rowscan_workloads, rowscan_process, rowscan_session)
    and the CLI (target rowscan) include no Thrust and no CUB: they are compiled once, for every engine.

usage: system_split_check.py NINJA BUILD_DIR    (run by CTest after the build: build.system_split)
"""
import re
import subprocess
import sys

ENGINES = {"rowscan_algorithms", "rowscan_algorithms_host"}
ONCE = {"rowscan_core", "rowscan_workloads", "rowscan_process", "rowscan_session", "rowscan"}
SYSTEM_HEADER = re.compile(r"/(thrust|cub)/")


def recorded_dependencies(ninja, build_dir):
    """{object file: [its dependencies]} as `ninja -t deps` lists them."""
    text = subprocess.run([ninja, "-C", build_dir, "-t", "deps"], check=True, capture_output=True, text=True).stdout
    objects, current = {}, None
    for line in text.splitlines():
        if line and not line[0].isspace():
            current = line.split(":", 1)[0]
            objects[current] = []
        elif line.strip() and current is not None:
            objects[current].append(line.strip())
    return objects


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ninja, build_dir = sys.argv[1:]
    seen = {name: 0 for name in ENGINES | ONCE}
    problems = []
    for obj, deps in sorted(recorded_dependencies(ninja, build_dir).items()):
        target = re.search(r"CMakeFiles/([^/]+)\.dir/", obj)
        if target is None or target.group(1) not in seen:
            continue
        name = target.group(1)
        seen[name] += 1
        source = deps[0] if deps else obj
        with_system = [d for d in deps if SYSTEM_HEADER.search(d)]
        if name in ENGINES and not any("/thrust/" in d for d in with_system):
            problems.append(f"{name} compiles {source}, which includes no Thrust header: it belongs to rowscan_core")
        if name in ONCE and with_system:
            problems.append(f"{name} compiles {source}, which includes {with_system[0]}: only an engine may")
    for name in ("rowscan_algorithms", "rowscan_core", "rowscan"):
        if seen[name] < 5:
            problems.append(f"only {seen[name]} objects of {name} have recorded dependencies: build first, with Ninja")
    for problem in problems:
        print("system_split_check:", problem)
    counts = ", ".join(f"{name} {count}" for name, count in sorted(seen.items()) if count)
    print(f"system_split_check: {'FAILED' if problems else 'ok'} ({counts} objects)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
