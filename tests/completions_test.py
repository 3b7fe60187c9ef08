#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The shell completions the build made offer what the binary's help lists, and only what the binary accepts:
#   tests/completions_test.py ROWSCAN_EXE BUILD/completions/rowscan.bash BUILD/completions/_rowscan
# Both files are what scripts/completions.py gives for the current help; every option each command's
# --help lists (and every command of the top-level help) appears in both; the bash file parses (bash -n)
# and, run with the two bash-completion helpers it calls stubbed, completes commands, options and
# values; every value it offers for --devices and --format is accepted by the binary (a cpu build offers
# no GPU), and auto and cpu are offered.
import os
import re
import shlex
import subprocess
import sys
import tempfile

exe, bash_file, zsh_file = sys.argv[1:4]
here = os.path.dirname(os.path.abspath(__file__))
failures = []
texts = {path: open(path, encoding="utf-8").read() for path in (bash_file, zsh_file)}


def help_of(args):
    return subprocess.run([exe] + args + ["--help"], capture_output=True, text=True, check=True).stdout


def run(args):
    return subprocess.run([exe] + args, capture_output=True, text=True, stdin=subprocess.DEVNULL)


r = subprocess.run([sys.executable, os.path.join(here, "..", "scripts", "completions.py"), exe, bash_file, zsh_file,
                    "--check"], capture_output=True, text=True)
if r.returncode != 0:
    failures.append(f"scripts/completions.py --check: {r.stderr.strip()}")

top = help_of([])
commands = re.findall(r"^  ([a-z][\w-]*)\s{2,}", re.search(r"^commands:\n((?:  .*\n)+)", top, re.M).group(1), re.M)
if "stations" not in commands:
    failures.append(f"the top-level help's commands are {commands}, without stations")
for command in commands:
    for path, text in texts.items():
        if not re.search(r"\b%s\b" % re.escape(command), text):
            failures.append(f"{path} does not offer the command {command}")
for command in (["stations"], ["lineitem"], ["group"], ["generate", "measurements"], ["generate", "lineitem"],
                ["generate", "sales"]):
    for option in sorted(set(re.findall(r"^\s+(?:-\w, )?(--[a-z-]+)", help_of(command), re.M))):
        for path, text in texts.items():
            if not re.search(re.escape(option) + r"(?![a-z-])", text):
                failures.append(f"{path} does not offer {option} ({' '.join(command)})")

r = subprocess.run(["bash", "-n", bash_file], capture_output=True, text=True)
if r.returncode != 0:
    failures.append(f"bash -n {bash_file}: {r.stderr}")


def complete(line):
    """What the bash completion offers after `line` (the word being completed is its last, maybe empty)."""
    words = shlex.split(line) + ([""] if line.endswith(" ") else [])
    script = "\n".join([
        "_init_completion() { words=(\"${COMP_WORDS[@]}\"); cword=$COMP_CWORD; cur=${words[cword]};"
        " prev=${words[cword-1]}; }",
        "_filedir() { COMPREPLY=(FILES); }",
        "complete() { :; }",
        "source %s" % shlex.quote(bash_file),
        "COMP_WORDS=(%s); COMP_CWORD=%d" % (" ".join(shlex.quote(w) for w in words), len(words) - 1),
        "_rowscan",
        "printf '%s\\n' \"${COMPREPLY[@]}\"",
    ])
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    if out.returncode != 0:
        failures.append(f"bash completion of {line!r} failed: {out.stderr.strip()}")
    return [w for w in out.stdout.split("\n") if w]


cases = {
    "rowscan ": set(commands) | {"help", "--help", "--version"},
    "rowscan stations --chu": {"--chunk-size"},
    "rowscan stations ": {"FILES"},
    "rowscan generate ": {"measurements", "lineitem"},
    "rowscan generate measurements --r": {"--rows"},
    "rowscan generate measurements -o ": {"FILES"},
    "rowscan help li": {"lineitem"},
}
for line, expected in cases.items():
    got = set(complete(line))
    if not expected <= got:
        failures.append(f"completing {line!r} offers {sorted(got)}, without {sorted(expected - got)}")

empty = tempfile.NamedTemporaryFile(suffix=".txt")   # an input the host answers without touching a GPU
for command, required in ((["stations"], []), (["lineitem"], ["--suppkey-below", "1"])):
    for option in ("--devices", "--format"):
        offered = complete("rowscan %s %s " % (" ".join(command), option))
        if len(offered) < 2:
            failures.append(f"{' '.join(command)} {option} offers {offered}: fewer than two values")
        for value in offered:
            r = run(command + required + [option, value, empty.name])
            if r.returncode != 0:
                failures.append(f"{' '.join(command)} {option} offers {value}, which this binary refuses "
                                f"(exit code {r.returncode}: {r.stderr.strip()})")
    devices = complete("rowscan %s --devices " % " ".join(command))
    if not {"auto", "cpu"} <= set(devices):
        failures.append(f"{' '.join(command)} --devices offers {devices}, without auto and cpu")
    if "(CUDA" not in run(["--version"]).stdout and any("gpu" in d for d in devices):
        failures.append(f"a build without CUDA offers {devices} for --devices")

if subprocess.run(["sh", "-c", "command -v zsh"], capture_output=True).returncode == 0:
    r = subprocess.run(["zsh", "-n", zsh_file], capture_output=True, text=True)
    if r.returncode != 0:
        failures.append(f"zsh -n {zsh_file}: {r.stderr}")

for failure in failures:
    print("FAIL:", failure, file=sys.stderr)
if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("completions_test: all checks passed")
