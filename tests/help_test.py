#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Help that tells the truth:   tests/help_test.py ROWSCAN_EXE README.md
# - every help goes to stdout with exit 0;
# - a command's help lists the options it accepts, and none of the test-only switches or a stray
#   `--file arg`, and no default twice;
# - the top-level help names every option some command's help lists;
# - the README's Usage block is the top-level synopsis, line for line.
import re
import subprocess
import sys

exe, readme = sys.argv[1], sys.argv[2]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def help_of(args):
    r = subprocess.run([exe] + args, capture_output=True, text=True)
    check(r.returncode == 0, f"{args}: exit {r.returncode}")
    check(r.stderr == "", f"{args}: stderr {r.stderr!r}")
    return r.stdout


# The options each command accepts (the hidden test switches aside).
accepted = {
    "stations": ["--chunk-size", "--format", "--stats", "--threads", "--explain", "--no-progress", "--skip-invalid", "--devices", "--recursive", "--crlf", "--help"],
    "lineitem": ["--suppkey-below", "--format", "--chunk-size", "--threads", "--stats", "--explain", "--skip-invalid", "--no-progress", "--devices", "--recursive", "--crlf", "--help"],
    "generate measurements": ["--rows", "--stations", "--seed", "--output", "--help"],
    "group": ["--key", "--value", "--delimiter", "--header", "--quote", "--no-quote", "--scale", "--format", "--explain", "--chunk-size", "--threads", "--stats", "--skip-invalid", "--no-progress", "--devices", "--recursive", "--crlf", "--help"],
    "generate lineitem": ["--scale", "--seed", "--output", "--help"],
    "generate sales": ["--rows", "--keys", "--seed", "--output", "--help"],
}
top = help_of(["--help"])
for command, options in accepted.items():
    text = help_of(command.split() + ["--help"])
    listed = set(re.findall(r"^\s+(?:-\w, )?(--[a-z-]+)", text, re.M))
    check(listed == set(options), f"{command} --help lists {sorted(listed)}, expected {sorted(options)}")
    for hidden in ("--key-bits", "--portable", "--file"):
        check(hidden not in text, f"{command} --help shows {hidden}")
    check("(default: " not in text or all(line.count("default") <= 1 for line in text.splitlines()),
          f"{command} --help: a default given twice")
    check("(default: 0)" not in text, f"{command} --help: a cxxopts default")
    for option in options:
        check(option in top, f"rowscan --help does not name {option} ({command})")
check("generate measurements --help" in help_of(["generate", "--help"]), "generate --help points to the subcommands")
# `rowscan help COMMAND` is `rowscan COMMAND --help`; -V is --version.
for command in ("stations", "lineitem", "group", "generate"):
    check(help_of(["help", command]) == help_of([command, "--help"]), f"rowscan help {command} differs from {command} --help")
check(help_of(["-V"]) == help_of(["--version"]), "rowscan -V differs from --version")
# The top-level help marks no shared option as one command's.
for option in ("--threads", "--no-progress", "--recursive", "--crlf"):
    line = next((l for l in top.splitlines() if l.strip().startswith(option)), "")
    check(line and "stations:" not in line and "lineitem:" not in line, f"rowscan --help marks {option} as one command's")

# The README's Usage block is the synopsis of rowscan --help.
synopsis = [line.strip() for line in top.split("\n\n")[0].splitlines()[1:]]
block = open(readme, encoding="utf-8").read().split("## Usage", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
check(block.splitlines() == synopsis, f"README's Usage block differs from rowscan --help:\n{block}\nvs\n" + "\n".join(synopsis))

# The README's console examples: run each `$ build/cpu/app/rowscan ...` line (with this build's rowscan and
# a scratch directory for /tmp) and compare what it prints; an expected line ending in `...}` or `...`
# is a prefix.
import os
import shlex
import tempfile

text = open(readme, encoding="utf-8").read()
with tempfile.TemporaryDirectory() as scratch:
    for block in text.split("```console\n")[1:]:
        block = block.split("```", 1)[0]
        expected, output = [], b""
        for line in block.splitlines() + ["$"]:
            if line.startswith("$"):
                for want, got in zip(expected, output.decode("utf-8", "replace").splitlines()):
                    prefix = want[: -len(", ...}")] if want.endswith(", ...}") else want.rstrip(".")
                    check(got.startswith(prefix) if want.endswith("...}") or want.endswith("...") else got == want,
                          f"README example: expected {want!r}, got {got[:len(want) + 20]!r}")
                check(len(output.splitlines()) >= len(expected), f"README example: too little output for {expected}")
                expected, output = [], b""
                command = line[1:].strip()
                if not command:
                    continue
                words = [exe if w == "build/cpu/app/rowscan" else w.replace("/tmp/", scratch + "/") for w in shlex.split(command)]
                if words[0] != exe:
                    continue
                r = subprocess.run(words, capture_output=True)
                check(r.returncode == 0, f"README example {command!r}: exit {r.returncode}: {r.stderr[:200]!r}")
                output = r.stdout
            else:
                expected.append(line)

if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("help_test: all checks passed")
