// SPDX-License-Identifier: Apache-2.0
// Inputs beyond 4 GiB, streamed through a pipe: line numbers and byte offsets past 2^32 are
// reported exactly. Each test pushes about 4.3 GB through rowscan: 21 s (stations) and 27 s (lineitem)
// on a shared 2-core machine with OMP_NUM_THREADS=2; the three CliManyLines tests push 25.8 GB each
// (more than 2^32 lines) and are meant for the GPU machine. That is too long for every CI run, so CTest labels
// them `large` and the cpu test preset leaves them out: run them with `ctest --test-dir build/cpu -L large`.
//
// Nothing is written to disk: `yes` repeats one valid line into the pipe, and a bad line follows it.
#include "support/cli_fixture.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include <cstdlib>

namespace {

/// Past 4 GiB the byte offset is what these tests check: every rowscan they start adds it to its errors
/// (`FILE:LINE:COLUMN: byte OFFSET: ...`, the testing aid ROWSCAN_ERROR_BYTE_OFFSETS).
bool const byte_offsets_in_errors = setenv("ROWSCAN_ERROR_BYTE_OFFSETS", "1", 1) == 0;

using support::read_file;
using support::run_result;

class CliLarge : public support::cli_fixture {
 protected:
  /// `(yes LINE | head -c BYTES; printf TAIL) | rowscan ARGS -`
  run_result run_stream(std::string const& line, std::uint64_t bytes, std::string const& tail,
                        std::string const& args) const {
    std::string const command = "(yes '" + line + "' | head -c " + std::to_string(bytes) + "; printf '" + tail +
                                "') | '" + ROWSCAN_EXE + "' " + args + " - >'" + path("stdout") + "' 2>'" +
                                path("stderr") + "'";
    int const status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(path("stdout")), read_file(path("stderr"))};
  }
};

constexpr std::uint64_t four_gib = std::uint64_t{1} << 32;

/// The number of repetitions of a `size`-byte line (with its '\n') that first reaches past 4 GiB.
std::uint64_t lines_past_four_gib(std::uint64_t size) { return four_gib / size + 1; }

TEST_F(CliLarge, StationsErrorPastFourGibIsAtTheExactLineAndByte) {
  std::string const line = std::string(100, 'n') + ";-12.3";  // the longest valid line: 107 bytes with '\n'
  std::uint64_t const lines = lines_past_four_gib(line.size() + 1);
  std::uint64_t const bytes = lines * (line.size() + 1);
  ASSERT_GT(bytes, four_gib);
  auto const r = run_stream(line, bytes, "x;1.23\\n", "stations --chunk-size 67108864");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "rowscan: error: <stdin>:" + std::to_string(lines + 1) + ":3: byte " + std::to_string(bytes + 2) +
                       ": temperature must be -99.9 to 99.9 with exactly one fractional digit (-?[0-9]{1,2}.[0-9]): "
                       "\"x;1.23\"\n");
}

TEST_F(CliLarge, LineitemErrorPastFourGibIsAtTheExactLineAndByte) {
  std::string const row =
      "1|155190|7706|1|17|21168.23|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular "
      "courts above the|";
  std::uint64_t const rows = lines_past_four_gib(row.size() + 1);
  std::uint64_t const bytes = rows * (row.size() + 1);
  ASSERT_GT(bytes, four_gib);
  auto const r = run_stream(row, bytes, "1|2|3|4|5|6.5|\\n", "lineitem --suppkey-below 10 --chunk-size 67108864");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("rowscan: error: <stdin>:" + std::to_string(rows + 1) + ":15: byte " +
                            std::to_string(bytes + 14) + ": expected 16 fields",
                        0),
            0u)
      << r.err;
}

// More than 2^32 lines: 4294967400 lines of `a;1.0` (`yes 'a;1.0' | head -n 4294967400`, here
// the same bytes as `head -c 25769804400`) are 25.8 GB, and a 32-bit line counter would wrap 104 lines
// before their end. A bad line after them is line 4294967401.

constexpr std::uint64_t many_lines = four_gib + 104;  // 4294967400
constexpr std::uint64_t many_lines_bytes = many_lines * 6;

using CliManyLines = CliLarge;

/// The error, or the skipped position, of the line "x;1.23" after them.
std::string const bad_line_4294967401 = "<stdin>:4294967401:3: byte " + std::to_string(many_lines_bytes + 2) +
                                        ": temperature must be -99.9 to 99.9 with exactly one fractional digit "
                                        "(-?[0-9]{1,2}.[0-9]): \"x;1.23\"\n";

TEST_F(CliManyLines, MoreThanTwoToThe32LinesAreAnsweredExactly) {
  auto const r = run_stream("a;1.0", many_lines_bytes, "", "stations");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{a=1.0/1.0/1.0}\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(CliManyLines, ABadLineAfterTwoToThe32LinesIsLine4294967401) {
  auto const r = run_stream("a;1.0", many_lines_bytes, "x;1.23\\n", "stations");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "rowscan: error: " + bad_line_4294967401);
}

TEST_F(CliManyLines, SkipInvalidNamesLine4294967401AndAnswersTheRest) {
  auto const r = run_stream("a;1.0", many_lines_bytes, "x;1.23\\n", "stations --skip-invalid");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "{a=1.0/1.0/1.0}\n");
  EXPECT_EQ(r.err, "rowscan: skipped 1 invalid line: " + bad_line_4294967401);
}

}  // namespace
