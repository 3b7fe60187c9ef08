// SPDX-License-Identifier: Apache-2.0
// `rowscan stations|lineitem --explain` as a user runs it: the stages' arrays, the same answer as
// without --explain, the refusal of large inputs, and the same one-line error on bad input.
#include "reference/stations_reference.hpp"

#include "support/cli_fixture.hpp"
#include "support/light_mode.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace {

using support::read_file;
using support::write_file;

using CliExplain = support::cli_fixture;

std::string sample(std::string const& name) { return std::string(ROWSCAN_SAMPLES_DIR) + "/" + name; }

bool contains(std::string const& text, std::string const& part) { return text.find(part) != std::string::npos; }

bool ends_with(std::string const& text, std::string const& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

/// `name;1.0` lines with names of `width` bytes, `lines` of them.
std::string measurements(std::size_t lines, std::size_t width) {
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) text += std::string(width, static_cast<char>('a' + i % 26)) + ";1.0\n";
  return text;
}

TEST_F(CliExplain, StationsShowsTheIntervalScanAndEndsWithTheAnswer) {
  std::string const file = "'" + sample("stations_steps/tiny.txt") + "'";
  auto const r = run("stations --explain " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // The bytes with their record-start flags, word 3 of "Hamburg;12.0\nBulawayo;8.9\n...".
  EXPECT_TRUE(contains(r.out, "    byte     \\n   B   u   l   a   w   a   y   o   ;   9   .   1  \\n   A   b\n"
                              "    starts    0   1   0   0   0   0   0   0   0   0   0   0   0   0   1   0\n"))
      << r.out;
  // Word 3 holds two '\n' (its own interval), after three in words 0-2 (its exclusive scan).
  EXPECT_TRUE(contains(r.out, "     3  [48,64)     {2,62}      {3,39}\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "       4     3  [49,62)      Bulawayo;9.1\\n\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "no key is shared by two\n"));
  for (char const* stage : {"1. copy", "2. find_lines", "3. records", "4. parse", "5. group_by_name",
                            "6. reduce_by_key", "7. table_from_groups", "8. sorted_by_name"}) {
    EXPECT_TRUE(contains(r.out, std::string("\n") + stage)) << stage;
  }
  std::string const answer = run("stations " + file).out;
  EXPECT_EQ(answer, reference::stations_answer(read_file(sample("stations_steps/tiny.txt"))));
  EXPECT_TRUE(ends_with(r.out, "\n" + answer)) << r.out;
}

TEST_F(CliExplain, StationsAnswerEqualsTheNormalModeOnGeneratedInputs) {
  for (int seed : {1, 2, 3}) {
    SCOPED_TRACE(seed);
    std::string const file = path("m" + std::to_string(seed) + ".txt");
    ASSERT_EQ(run("generate measurements --rows 40 --stations 9 --seed " + std::to_string(seed) + " -o '" + file + "'")
                  .exit_code,
              0);
    ASSERT_LE(read_file(file).size(), 4096u);
    // Light mode: each seed with one format in turn, three rowscan runs a seed instead of five.
    for (std::string const& format : support::in_turn<std::string>({"1brc", "csv"}, static_cast<std::size_t>(seed))) {
      std::string const options = "--format " + format + " '" + file + "'";
      auto const normal = run("stations " + options);
      auto const explained = run("stations --explain " + options);
      ASSERT_EQ(explained.exit_code, 0) << explained.err;
      EXPECT_TRUE(ends_with(explained.out, "prints it:\n" + normal.out)) << explained.out;
    }
  }
}

TEST_F(CliExplain, LineitemShowsFieldsFiltersAndTheSum) {
  std::string const args = "'" + sample("explain/lineitem.tbl") + "' --suppkey-below 5,7";
  auto const r = run("lineitem --explain " + args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(contains(r.out, "     6  [96,112)    {1,112}     {0,0}\n")) << r.out;  // the first '\n', at 111
  EXPECT_TRUE(contains(r.out, "       1     16         16\n")) << r.out;             // record 1's first '|', its 16
  EXPECT_TRUE(contains(r.out, "    1          6          50                   5215700\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  Z = 5\n  row  l_suppkey < Z  quantity * cents if kept\n"
                              "    0              1                   3874212\n"
                              "    1              0                         0\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "  Z = 5: 2 row(s) kept, sum 2010071.96\n")) << r.out;
  std::string const answer = run("lineitem " + args).out;
  EXPECT_EQ(answer, "2010071.96\n4617921.96\n");
  EXPECT_TRUE(ends_with(r.out, "prints it:\n" + answer)) << r.out;
}

TEST_F(CliExplain, RefusesInputsOverTheLimitsWithOneLine) {
  // 4096 bytes and 64 lines are the most it takes.
  write_file(path("most.txt"), measurements(64, 59));  // 64 x 64 bytes
  ASSERT_EQ(read_file(path("most.txt")).size(), 4096u);
  EXPECT_EQ(run("stations --explain '" + path("most.txt") + "'").exit_code, 0);

  write_file(path("bytes.txt"), measurements(64, 60));
  write_file(path("lines.txt"), measurements(65, 1));
  for (std::string const& input : {"'" + path("bytes.txt") + "'", "'" + path("lines.txt") + "'", std::string("-")}) {
    SCOPED_TRACE(input);
    for (char const* command : {"stations --explain ", "lineitem --suppkey-below 5 --explain "}) {
      auto const r = run(command + input, measurements(65, 80));
      EXPECT_EQ(r.exit_code, 1);
      EXPECT_EQ(r.out, "");
      EXPECT_TRUE(contains(r.err, "--explain prints every array of the pipeline, so it takes at most 4096 bytes and "
                                  "64 lines; this input has "))
          << r.err;
      EXPECT_EQ(r.err.rfind("rowscan: error: ", 0), 0u);
      EXPECT_EQ(r.err.find('\n'), r.err.size() - 1);
    }
  }
  EXPECT_TRUE(contains(run("stations --explain '" + path("lines.txt") + "'").err, "this input has 65 lines"));
  EXPECT_TRUE(contains(run("stations --explain '" + path("bytes.txt") + "'").err, "more than 4096 bytes"));
}

TEST_F(CliExplain, BadInputGivesTheNormalModesErrorAndNothingOnStdout) {
  write_file(path("bad.txt"), "a;1.0\nb;2.0\nc;3.00\n");
  write_file(path("bad.tbl"), "1|2|3|4|\n");
  for (std::string const& command : {"stations '" + path("bad.txt") + "'",
                                    "lineitem --suppkey-below 5 '" + path("bad.tbl") + "'"}) {
    SCOPED_TRACE(command);
    auto const normal = run(command);
    auto const explained = run(command + " --explain");
    EXPECT_EQ(normal.exit_code, 1);
    EXPECT_EQ(explained.exit_code, 1);
    EXPECT_EQ(explained.out, "");
    EXPECT_EQ(explained.err, normal.err);
    EXPECT_EQ(explained.err.rfind("rowscan: error: " + path("bad."), 0), 0u) << explained.err;
  }
}

TEST_F(CliExplain, OptionsOfTheStreamedRunAreUsageErrors) {
  // --explain runs one small chunk: these would do nothing there, so they are refused, not ignored.
  std::string const stations = "stations --explain '" + sample("stations_steps/tiny.txt") + "'";
  std::string const lineitem = "lineitem --explain --suppkey-below 5 '" + sample("stations_steps/tiny.txt") + "'";
  for (auto const& [command, option] : std::vector<std::pair<std::string, std::string>>{
           {stations, "--chunk-size 4096"}, {stations, "--stats"}, {stations, "--threads 2"}, {stations, "--portable"},
           {stations, "--key-bits 3"}, {stations, "--skip-invalid"}, {lineitem, "--chunk-size 4096"},
           {lineitem, "--stats"}, {lineitem, "--skip-invalid"}, {lineitem, "--format json"}}) {
    SCOPED_TRACE(command + " " + option);
    auto const r = run(command + " " + option);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    std::string const name = option.substr(0, option.find(' '));
    EXPECT_EQ(r.err, "rowscan: error: --explain cannot be combined with " + name + " (see --help)\n");
  }
  EXPECT_EQ(run(stations + " --format csv --no-progress").exit_code, 0);  // these still apply
  // The arrays are text: a JSON document cannot hold them, so --format json is refused.
  auto const r = run(stations + " --format json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "rowscan: error: --explain prints text; it cannot be combined with --format json (see --help)\n");
}

}  // namespace
