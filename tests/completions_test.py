#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The shell completions offer what the help lists (issue 29):
#   tests/completions_test.py ROWSCAN_EXE completions/rowscan.bash completions/_rowscan
# Every option each command's --help lists (and every command of the top-level help) appears in both
# files, and the bash file parses (bash -n).
import re
import subprocess
import sys

exe, bash_file, zsh_file = sys.argv[1:4]
failures = []
texts = {path: open(path, encoding="utf-8").read() for path in (bash_file, zsh_file)}


def help_of(args):
    return subprocess.run([exe] + args + ["--help"], capture_output=True, text=True, check=True).stdout


for command in (["stations"], ["lineitem"], ["group"], ["generate", "measurements"], ["generate", "lineitem"],
                ["generate", "sales"]):
    for option in sorted(set(re.findall(r"^\s+(?:-\w, )?(--[a-z-]+)", help_of(command), re.M))):
        for path, text in texts.items():
            if not re.search(re.escape(option) + r"(?![a-z-])", text):
                failures.append(f"{path} does not offer {option} ({' '.join(command)})")
for command in ("stations", "lineitem", "group", "generate"):
    for path, text in texts.items():
        if command not in text:
            failures.append(f"{path} does not offer the command {command}")
r = subprocess.run(["bash", "-n", bash_file], capture_output=True, text=True)
if r.returncode != 0:
    failures.append(f"bash -n {bash_file}: {r.stderr}")
for failure in failures:
    print("FAIL:", failure, file=sys.stderr)
if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("completions_test: all checks passed")
