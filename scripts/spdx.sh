#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Puts the SPDX license line at the top of every source file that lacks it: C++ and CUDA
# (`// SPDX-License-Identifier: Apache-2.0`), CMake, shell and Python (`# ...`, after a #! line).
# Safe to run again: files that have the line are left alone.
#   scripts/spdx.sh            add the line where it is missing (tracked files; new files once git-added)
#   scripts/spdx.sh --check    list the files that lack it and fail if any do (the license.spdx_headers test)
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
[ "${1:-}" = "--check" ] && check=1
tag="SPDX-License-Identifier: Apache-2.0"

# The source files: tracked ones in a git checkout, every one otherwise (a source archive).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list() { git ls-files -- "$@"; }
else
  list() { find . -path ./build -prune -o -type f -print | sed 's|^\./||'; }
fi
sources=$(list | grep -E '(\.(cpp|hpp|cu|cuh|h|c|cmake|cmake\.in|sh|py)|(^|/)CMakeLists\.txt|^\.ci/run)$' \
               | grep -vE '^(build|tests/fuzz/corpus)/' || true)

missing=0
while IFS= read -r file; do
  [ -n "$file" ] && [ -f "$file" ] || continue
  head -n 3 "$file" | grep -q "$tag" && continue
  missing=$((missing + 1))
  if [ "$check" = 1 ]; then
    echo "spdx: no '$tag' in the first lines of $file" >&2
    continue
  fi
  case "$file" in
    *.cpp|*.hpp|*.cu|*.cuh|*.h|*.c) line="// $tag" ;;
    *) line="# $tag" ;;
  esac
  tmp=$(mktemp)
  if head -c 2 "$file" | grep -q '^#!'; then
    { head -n 1 "$file"; echo "$line"; tail -n +2 "$file"; } > "$tmp"
  else
    { echo "$line"; cat "$file"; } > "$tmp"
  fi
  cat "$tmp" > "$file"   # keeps the file's mode (scripts stay executable)
  rm -f "$tmp"
done <<< "$sources"

if [ "$check" = 1 ]; then
  [ "$missing" = 0 ] && echo "spdx: every source file has the SPDX line" && exit 0
  echo "spdx: $missing file(s) without it: run scripts/spdx.sh" >&2
  exit 1
fi
echo "spdx: added the SPDX line to $missing file(s)"
