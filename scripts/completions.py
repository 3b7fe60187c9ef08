#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes rowscan's bash and zsh completions from the help text of the binary they are for.

    scripts/completions.py ROWSCAN_EXE OUT.bash OUT_zsh           write both files
    scripts/completions.py ROWSCAN_EXE OUT.bash OUT_zsh --check   fail unless both are what the help gives now

The commands come from the top-level help's `commands:` list; a command whose help shows no options of its
own (generate) has kinds, one per `rowscan COMMAND KIND` usage line. Each command's or kind's options come
from its own --help, and an option's values (--format, --devices) from the list after the colon in its
description. A value is offered only where this binary accepts it: each is tried on an empty file
(`rowscan COMMAND --OPTION VALUE EMPTY`, which the host answers without touching a GPU), and a usage error
(exit code 2) leaves it out, so a cpu build offers no GPU for --devices. The build makes both files with the man page
(app/CMakeLists.txt); the cli.completions test checks them against the binary.
"""
import os
import re
import subprocess
import sys
import tempfile

OPTION_LINE = re.compile(r"^  (?:-(\w), )?\s*(--[a-z][\w-]*)(?: ([A-Z][\w.,\[\]-]*))?\s{2,}(\S.*)$")
VALUE = re.compile(r"^[a-z0-9][a-z0-9:+._-]*$")


def run(exe, args):
    return subprocess.run([exe] + args, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)


def help_of(exe, args):
    r = run(exe, args + ["--help"])
    if r.returncode != 0:
        sys.exit(f"completions: `{' '.join([exe] + args)} --help` failed with exit code {r.returncode}")
    return r.stdout


def without_parentheses(text):
    while True:
        shorter = re.sub(r"\([^()]*\)", "", text)
        if shorter == text:
            return text
        text = shorter


def values_in(description):
    """The literal values a description lists after its first colon: `output format: 1brc (the default), json
    or csv` gives 1brc, json, csv; placeholders (gpu:N) and prose give nothing."""
    text = without_parentheses(description)
    if ": " not in text:
        return []
    text = re.split(r"\.\s+[A-Z]|;", text.split(": ", 1)[1])[0]
    words = [w.strip() for w in re.split(r",|\bor\b", text)]
    values = [w for w in words if VALUE.match(w)]
    return values if len(values) >= 2 else []


def options_of(help_text):
    """Each option of a cxxopts help: (long, short, argument, description with its continuation lines)."""
    options = []
    for line in help_text.split("\n"):
        m = OPTION_LINE.match(line)
        if m:
            options.append([m.group(2), m.group(1), m.group(3), m.group(4).strip()])
        elif options and re.match(r"^\s{10,}\S", line) and not line.lstrip().startswith("-"):
            options[-1][3] += " " + line.strip()
        elif not line.strip() and options:
            break
    return options


def required_of(top_help, words):
    """A placeholder for each option the top-level usage lines require of a command (not in [ ]): the
    probes need them to get as far as the option they try."""
    prefix = "rowscan " + " ".join(words) + " "
    for line in top_help.split("\n"):
        line = line.strip()
        if line.startswith(prefix) and "--help" not in line:
            tokens = re.sub(r"\[[^\]]*\]", "", line[len(prefix):]).split()
            required = []
            for i, token in enumerate(tokens):
                if token.startswith("-") and token != "--explain":
                    required += [token, "1"] if i + 1 < len(tokens) and not tokens[i + 1].startswith("-") else [token]
            return required
    return []


def accepted(exe, words, required, option, values):
    """The values the binary accepts for option, tried on an empty file; all of them when even the probe
    without the option is a usage error (a command this script cannot fill in)."""
    base = words + required
    with tempfile.NamedTemporaryFile(suffix=".txt") as empty:
        if run(exe, base + [empty.name]).returncode == 2:
            return values
        return [v for v in values if run(exe, base + [option, v, empty.name]).returncode != 2]


def model(exe):
    top = help_of(exe, [])
    commands = []
    section = re.search(r"^commands:\n((?:  .*\n)+)", top, re.M)
    if not section:
        sys.exit("completions: the top-level help lists no `commands:`")
    for line in section.group(1).split("\n"):
        m = re.match(r"^  ([a-z][\w-]*)\s{2,}", line)
        if m:
            commands.append(m.group(1))
    top_flags = []
    for line in top.split("\n"):
        if line.strip().startswith("rowscan -"):
            top_flags += [t for t in re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", line) if t not in top_flags]
    leaves = []   # (words, options, takes_files)
    kinds = {}
    for command in commands:
        text = help_of(exe, [command])
        if re.search(r"^Usage:\n  rowscan %s \[OPTION\.\.\.\]" % re.escape(command), text, re.M):
            leaves.append(([command], text))
        else:
            kinds[command] = []
            for kind in re.findall(r"rowscan %s ([a-z][\w-]*)" % re.escape(command), text):
                if kind not in kinds[command]:
                    kinds[command].append(kind)
                    leaves.append(([command, kind], help_of(exe, [command, kind])))
    result = []
    for words, text in leaves:
        takes_files = bool(re.search(r"\[OPTION\.\.\.\] [A-Z]", text))
        required = required_of(top, words)
        options = []
        for long, short, argument, description in options_of(text):
            values = values_in(description) if argument else []
            if values and takes_files:
                values = accepted(exe, words, required, long, values)
            summary = re.split(r" \(|[;:,]", description)[0].strip()
            options.append({"long": long, "short": short, "argument": argument, "values": values,
                            "summary": summary})
        result.append({"words": words, "options": options, "files": takes_files})
    version = run(exe, ["--version"]).stdout.strip()
    return {"commands": commands, "top_flags": top_flags, "kinds": kinds, "leaves": result, "version": version}


def header(m, comment):
    return [comment + " SPDX-License-Identifier: Apache-2.0",
            comment + " rowscan's completions, made by scripts/completions.py from the help of %s; do not edit." %
            m["version"]]


def bash_script(m):
    def words_list(items):
        return " ".join(items)

    lines = ["# " + l[2:] if False else l for l in header(m, "#")]
    lines += ["_rowscan() {",
              "  local cur prev words cword",
              "  _init_completion || return",
              "  if [[ $cword -eq 1 ]]; then",
              '    COMPREPLY=($(compgen -W "%s" -- "$cur"))' % words_list(m["commands"] + ["help"] + m["top_flags"]),
              "    return",
              "  fi",
              "  local command=${words[1]}"]
    for command, kinds in m["kinds"].items():
        lines += ["  if [[ $command == %s ]]; then" % command,
                  "    if [[ $cword -eq 2 ]]; then",
                  '      COMPREPLY=($(compgen -W "%s" -- "$cur"))' % words_list(kinds + ["--help"]),
                  "      return",
                  "    fi",
                  '    command="%s ${words[2]}"' % command,
                  "  fi"]
    lines += ['  case "$command" in']
    for leaf in m["leaves"]:
        names = []
        value_cases = []
        plain = []
        for o in leaf["options"]:
            spelled = [o["long"]] + (["-" + o["short"]] if o["short"] else [])
            names += spelled
            if not o["argument"]:
                continue
            pattern = " | ".join(spelled)
            if o["values"]:
                value_cases.append('        %s) COMPREPLY=($(compgen -W "%s" -- "$cur")); return ;;' %
                                   (pattern, words_list(o["values"])))
            elif o["argument"] == "FILE":
                value_cases.append("        %s) _filedir; return ;;" % pattern)
            else:
                plain.append(pattern)
        if plain:
            value_cases.append("        %s) return ;;" % " | ".join(plain))
        lines += ['    "%s")' % " ".join(leaf["words"]),
                  "      case $prev in"] + value_cases + ["      esac"]
        if leaf["files"]:
            lines += ['      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "%s" -- "$cur")); else _filedir; fi ;;' %
                      words_list(names)]
        else:
            lines += ['      COMPREPLY=($(compgen -W "%s" -- "$cur")) ;;' % words_list(names)]
    lines += ["    help)",
              '      [[ $cword -eq 2 ]] && COMPREPLY=($(compgen -W "%s" -- "$cur")) ;;' % words_list(m["commands"]),
              "  esac",
              "}",
              "complete -F _rowscan rowscan"]
    return "\n".join(lines) + "\n"


def zsh_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def zsh_spec(o):
    summary = o["summary"].replace("[", "(").replace("]", ")").replace(":", " ")
    spec = "[%s]" % summary
    if o["argument"]:
        if o["values"]:
            spec += ":%s:(%s)" % (o["argument"].lower(), " ".join(v.replace(":", "\\:") for v in o["values"]))
        elif o["argument"] == "FILE":
            spec += ":%s:_files" % o["argument"].lower()
        else:
            spec += ":%s:" % o["argument"].lower()
    if o["short"]:
        return "'(-%s %s)'{-%s,%s}%s" % (o["short"], o["long"], o["short"], o["long"], zsh_quote(spec))
    return zsh_quote(o["long"] + spec)


def zsh_script(m):
    lines = ["#compdef rowscan"] + header(m, "#")
    lines += ["if (( CURRENT == 2 )); then",
              "  _values 'command' %s" % " ".join(m["commands"] + ["help"] + m["top_flags"]),
              "  return",
              "fi"]

    def arguments(leaf, indent):
        depth = len(leaf["words"])
        specs = [zsh_spec(o) for o in leaf["options"]] + (["'*:file:_files'"] if leaf["files"] else [])
        return [indent + 'words=("${(@)words[%d,-1]}"); (( CURRENT -= %d ))' % (depth + 1, depth),
                indent + "_arguments " + " \\\n".join([specs[0]] + [indent + "  " + s for s in specs[1:]])]

    lines += ["case $words[2] in"]
    for command in m["commands"]:
        if command in m["kinds"]:
            lines += ["  %s)" % command,
                      "    if (( CURRENT == 3 )); then",
                      "      _values 'kind' %s" % " ".join(m["kinds"][command]),
                      "      return",
                      "    fi",
                      "    case $words[3] in"]
            for leaf in m["leaves"]:
                if leaf["words"][0] == command:
                    lines += ["      %s)" % leaf["words"][1]] + arguments(leaf, "        ") + ["        ;;"]
            lines += ["    esac ;;"]
        else:
            leaf = next(l for l in m["leaves"] if l["words"] == [command])
            lines += ["  %s)" % command] + arguments(leaf, "    ") + ["    ;;"]
    lines += ["  help) (( CURRENT == 3 )) && _values 'command' %s ;;" % " ".join(m["commands"]),
              "esac"]
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--check"):
        sys.exit(__doc__)
    exe, bash_out, zsh_out = argv[:3]
    m = model(exe)
    texts = {bash_out: bash_script(m), zsh_out: zsh_script(m)}
    if len(argv) == 4:
        for path, text in texts.items():
            try:
                current = open(path, encoding="utf-8").read()
            except OSError as e:
                sys.exit(f"completions: cannot read {path}: {e}")
            if current != text:
                sys.exit(f"completions: {path} is not what the current help gives: rebuild it (scripts/completions.py)")
        print("completions: current")
        return
    for path, text in texts.items():
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
