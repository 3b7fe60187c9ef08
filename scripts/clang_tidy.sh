#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# clang-tidy over rowscan's host C++ sources (the .cpp files in compile_commands.json; the .cu files,
# which pull in all of Thrust, are left out to keep CI short), with the checks in .clang-tidy.
# It fails only on NEW findings: .clang-tidy-baseline lists the findings accepted today as
# "FILE CHECK COUNT" lines (counted per file, so that moving code does not matter), and a file with more
# findings of a check than its baseline count fails the run.
#   scripts/clang_tidy.sh [BUILD_DIR]            check (CI; BUILD_DIR defaults to build/cpu, configured)
#   scripts/clang_tidy.sh --update [BUILD_DIR]   rewrite the baseline to today's findings
set -euo pipefail
cd "$(dirname "$0")/.."
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
build=${1:-build/cpu}
tidy=$(command -v clang-tidy || command -v clang-tidy-14 || true)
if [ -z "$tidy" ]; then
  echo "clang_tidy: clang-tidy not found (scripts/bootstrap.sh --ci installs it)" >&2
  exit 1
fi
[ -f "$build/compile_commands.json" ] || { echo "clang_tidy: no $build/compile_commands.json" >&2; exit 1; }

files=$(python3 - "$build/compile_commands.json" "$PWD" <<'PY'
import json, os, sys
root = sys.argv[2]
seen = set()
for entry in json.load(open(sys.argv[1])):
    f = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
    if f.startswith(root + "/") and f.endswith(".cpp") and f not in seen:
        seen.add(f)
        print(os.path.relpath(f, root))
PY
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
found=$work/found
# Two at a time (CI machines have two cores), each into its own file so that outputs do not interleave.
# A finding is "file:line:col: error: ... [check,...]".
echo "$files" | xargs -P2 -I{} sh -c '"$1" -p "$2" --quiet "$3" > "$4/$(echo "$3" | tr / _).out" 2>/dev/null || true' \
  sh "$tidy" "$build" {} "$work"
cat "$work"/*.out \
  | grep -E '^/.*: (warning|error): .*\[[a-z0-9.-]+(,-warnings-as-errors)?\]$' \
  | sed -E "s|^$PWD/||; s|^([^:]+):([0-9]+):([0-9]+): .*\[([a-z0-9.-]+)(,-warnings-as-errors)?\]$|\1:\2:\3 \4|" \
  | sort -u > "$found" || true

counts=$(awk '{split($1, p, ":"); print p[1], $2}' "$found" | sort | uniq -c | awk '{print $2, $3, $1}')
if [ "$update" = 1 ]; then
  { echo "# clang-tidy findings accepted on $(date -u +%Y-%m-%d): FILE CHECK COUNT (scripts/clang_tidy.sh --update)"
    [ -n "$counts" ] && echo "$counts"; } > .clang-tidy-baseline
  echo "clang_tidy: baseline rewritten: $(grep -vc '^#' .clang-tidy-baseline || true) file/check pairs"
  exit 0
fi

new=$(python3 - "$found" .clang-tidy-baseline <<'PY'
import collections, sys
allowed = collections.Counter()
for line in open(sys.argv[2]):
    if line.strip() and not line.startswith("#"):
        file, check, count = line.split()
        allowed[(file, check)] = int(count)
findings = collections.defaultdict(list)
for line in open(sys.argv[1]):
    where, check = line.split()
    findings[(where.split(":")[0], check)].append(where)
for key, places in sorted(findings.items()):
    if len(places) > allowed[key]:
        print(f"{key[0]}: {key[1]}: {len(places)} finding(s), baseline {allowed[key]}: " + " ".join(places))
PY
)
if [ -n "$new" ]; then
  echo "clang_tidy: new findings (fix them, or run scripts/clang_tidy.sh --update if they are accepted):" >&2
  echo "$new" >&2
  exit 1
fi
echo "clang_tidy: $(echo "$files" | wc -l) files, $(wc -l < "$found") findings, none new"
