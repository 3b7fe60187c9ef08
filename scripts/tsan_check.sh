#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The job driver, its queue and the CLI under ThreadSanitizer: builds the `tsan` preset (the host build
# on Thrust's CPP system, so that every thread that touches rowscan's data is a std::thread of its own,
# which ThreadSanitizer follows; libgomp is not instrumented) in build/tsan, then runs the reader's and
# the queue's unit tests (rowscan_queue_tests: plain C++, built in a minute or two) and, with --cli, the
# CLI tests over one file and lists of files (the whole tool built under ThreadSanitizer: most of the
# time). tests/tsan_suppressions.txt says what is not checked, and why. Any report fails the run: the rowscan processes the CLI tests start stop at the first one with
# exit code 66, which no test expects.
#
#   scripts/tsan_check.sh [--cli] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
cli=0
if [ "${1:-}" = "--cli" ]; then
  cli=1
  shift
fi
jobs="${1:-2}"
cmake --preset tsan >/dev/null
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$PWD/tests/tsan_suppressions.txt"
cmake --build --preset tsan -j "$jobs" --target rowscan_queue_tests
build/tsan/tests/rowscan_queue_tests
[ "$cli" = 1 ] || exit 0
cmake --build --preset tsan -j "$jobs" --target rowscan rowscan_cli_tests rowscan_cli_many_inputs_tests
export OMP_NUM_THREADS=2
# The CLI: one file, lists of files and directories (every input on one queue), bad lines, --skip-invalid.
ctest --test-dir build/tsan --output-on-failure -j "$jobs" -R '^(Cli\.|CliManyInputs\.)'
