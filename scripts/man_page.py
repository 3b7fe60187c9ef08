#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes rowscan's man page, rowscan.1, from its help text, so that the two cannot disagree.

    scripts/man_page.py ROWSCAN_EXE OUT.1           write the page
    scripts/man_page.py ROWSCAN_EXE OUT.1 --check   fail unless OUT.1 is what the help gives now

The page is the top-level help (its synopsis as SYNOPSIS, the rest as DESCRIPTION), then each command's
help under COMMANDS, as preformatted text. `cmake --install` installs it to share/man/man1; the
`cli.man_page` test runs --check against the built page and checks that it names every option.
"""
import subprocess
import sys


def help_of(exe, args):
    r = subprocess.run([exe] + args + ["--help"], capture_output=True, text=True, check=True)
    return r.stdout


def roff_text(text):
    """Preformatted lines as roff reads them: backslashes doubled, a leading . or ' escaped."""
    out = []
    for line in text.rstrip("\n").split("\n"):
        line = line.replace("\\", "\\e")
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def page(exe):
    top = help_of(exe, [])
    version = subprocess.run([exe, "--version"], capture_output=True, text=True, check=True).stdout.split()[1]
    synopsis, _, rest = top.partition("\n\n")
    lines = [
        '.TH ROWSCAN 1 "" "rowscan %s" "User Commands"' % version,
        ".SH NAME",
        "rowscan \\- exact answers over large delimited text (1BRC stations, TPC-H lineitem) on GPUs and CPUs",
        ".SH SYNOPSIS",
        ".nf",
        roff_text("\n".join(l.strip() for l in synopsis.split("\n")[1:])),
        ".fi",
        ".SH DESCRIPTION",
        ".nf",
        roff_text(rest),
        ".fi",
        ".SH COMMANDS",
    ]
    for command in (["stations"], ["lineitem"], ["group"], ["generate"], ["generate", "measurements"],
                    ["generate", "lineitem"], ["generate", "sales"]):
        lines += [".SS rowscan " + " ".join(command), ".nf", roff_text(help_of(exe, command)), ".fi"]
    lines += [
        ".SH ENVIRONMENT",
        "ROWSCAN_THREADS=N is --threads N for every command. OMP_NUM_THREADS sets the compute threads on the CPU",
        "build when neither is given.",
        ".SH SEE ALSO",
        "README.md and the walkthroughs docs/*.md, installed in share/doc/rowscan under the installation prefix",
        "(the docs/ pages the help names are there), and in the rowscan sources.",
    ]
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) not in (2, 3) or (len(argv) == 3 and argv[2] != "--check"):
        sys.exit(__doc__)
    exe, out = argv[0], argv[1]
    text = page(exe)
    if len(argv) == 3:
        try:
            current = open(out, encoding="utf-8").read()
        except OSError as e:
            sys.exit(f"man_page: cannot read {out}: {e}")
        if current != text:
            sys.exit(f"man_page: {out} is not the current help's page: rebuild it (scripts/man_page.py)")
        import re
        for command in ([], ["stations"], ["lineitem"], ["group"], ["generate", "measurements"], ["generate", "lineitem"],
                        ["generate", "sales"]):
            for option in set(re.findall(r"^\s+(?:-\w, )?(--[a-z-]+)", help_of(exe, command), re.M)):
                if option.replace("-", "\\-") not in text and option not in text:
                    sys.exit(f"man_page: {out} does not name {option}")
        print("man_page: current")
        return
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
