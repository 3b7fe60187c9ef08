// SPDX-License-Identifier: Apache-2.0
// `rowscan lineitem` and `rowscan generate lineitem` as a user runs them: exit codes, stdout, stderr.
#include "reference/lineitem_reference.hpp"

#include "support/cli_fixture.hpp"
#include "support/light_mode.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using support::read_file;
using support::write_file;

using CliLineitem = support::cli_fixture;

/// A lineitem.tbl row with the query's three fields given as text, the others as dbgen wrote its first row.
std::string row(std::string const& suppkey, std::string const& quantity, std::string const& price) {
  return "1|155190|" + suppkey + "|1|" + quantity + "|" + price +
         "|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the|\n";
}

TEST_F(CliLineitem, GenerateThenAnswerLikeTheReference) {
  auto r = run("generate lineitem --scale 0.005 --seed 3 -o '" + path("lineitem.tbl") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Light mode: the first 60 rows, about 30 chunks of 256 bytes.
  std::string const text = support::light_lines(read_file(path("lineitem.tbl")), 60);
  if (support::light_mode()) write_file(path("lineitem.tbl"), text);
  std::string const expected = reference::lineitem_answer(text, {25, 0, 51, 1});
  for (char const* chunk : {"", "--chunk-size 256", "--chunk-size 100000"}) {
    r = run(std::string("lineitem --suppkey-below 25,0,51,1 ") + chunk + " '" + path("lineitem.tbl") + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, expected) << chunk;
    EXPECT_EQ(r.err, "");
  }
  r = run("lineitem --suppkey-below 25 -", text);  // standard input
  EXPECT_EQ(r.out, reference::lineitem_answer(text, {25}));
}

TEST_F(CliLineitem, JsonAddsRowCountsAndTimes) {
  // The sums are exact strings, and the times come only with --stats.
  std::string const text = row("3", "2", "10.50") + row("9", "1", "1.00");
  auto r = run("lineitem --format json --suppkey-below 5,10 -", text);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"rows\": 2, \"bytes\": " + std::to_string(text.size()) +
                       ", \"results\": [\n  {\"suppkey_below\": 5, \"sum\": \"21.00\", \"rows\": 1},\n"
                       "  {\"suppkey_below\": 10, \"sum\": \"22.00\", \"rows\": 2}]}\n");
  r = run("lineitem --format json --stats --suppkey-below 5,10 -", text);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.front(), '{');
  EXPECT_NE(r.out.find("\"rows\": 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"load_seconds\": "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"query_seconds\": "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"suppkey_below\": 5, \"sum\": \"21.00\", \"rows\": 1}"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"suppkey_below\": 10, \"sum\": \"22.00\", \"rows\": 2}"), std::string::npos) << r.out;
}

/// The number after `"key": ` in a JSON text, or -1 if the key is not there.
long long json_number(std::string const& json, std::string const& key) {
  std::size_t const at = json.find("\"" + key + "\": ");
  return at == std::string::npos ? -1 : std::stoll(json.substr(at + key.size() + 4));
}

TEST_F(CliLineitem, StatsQueryCoversOnlyTheBlocksQueriedAsColumns) {
  // Blocks of valid rows are summed in one pass; a block with a row over the pass's limit (here a
  // 1,100-byte comment) is queried as columns, and the query's seconds and rows are that block's alone.
  std::string valid;
  for (int i = 0; i < 200; ++i) valid += row(std::to_string(i % 9), "2", "10.50");
  std::string long_row = row("3", "2", "10.50");
  std::string const comment = "egular courts above the";
  long_row.replace(long_row.find(comment), comment.size(), std::string(1100, 'c'));
  std::string with_long_row = valid;
  with_long_row.insert(100 * row("3", "2", "10.50").size(), long_row);  // after row 100 (the rows are of one size)
  for (std::string const& chunk : {std::string(), std::string(" --chunk-size 8192")}) {
    auto r = run("lineitem --format json --stats --suppkey-below 5" + chunk + " -", valid);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(json_number(r.out, "rows"), 200) << r.out;
    EXPECT_EQ(json_number(r.out, "queried_rows"), 0) << chunk << ": " << r.out;
    r = run("lineitem --format json --stats --suppkey-below 5" + chunk + " -", with_long_row);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(json_number(r.out, "rows"), 201) << r.out;
    long long const queried = json_number(r.out, "queried_rows");
    EXPECT_GT(queried, 0) << chunk << ": " << r.out;
    if (!chunk.empty()) {
      EXPECT_LT(queried, 201) << "only the long row's block is queried: " << r.out;
    }
    r = run("lineitem --stats --suppkey-below 5" + chunk + " -", with_long_row);
    EXPECT_NE(r.err.find("B/s of columns"), std::string::npos) << r.err;  // GB/s, or MB/s below 0.1 GB/s
  }
}

TEST_F(CliLineitem, StatsGoToStandardError) {
  auto const r = run("lineitem --stats --suppkey-below 5 -", row("3", "2", "10.50"));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "21.00\n");
  for (char const* stage : {"read", "find records", "find fields", "parse", "load", "query"}) {
    EXPECT_NE(r.err.find(stage), std::string::npos) << stage;
  }
  // The block's hand-over: a copy to a GPU, or a wait for an idle host worker (which folds it in place).
  bool const on_host = r.err.find("host worker") != std::string::npos;
  EXPECT_NE(r.err.find(on_host ? "waiting for a worker" : "copy to device"), std::string::npos) << r.err;
}

TEST_F(CliLineitem, BadRowIsOneLineOnStderrAndNothingOnStdout) {
  write_file(path("bad.tbl"), row("3", "2", "10.50") + row("3", "2", "10.5"));
  auto const r = run("lineitem --suppkey-below 5 '" + path("bad.tbl") + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  std::size_t const column = 15 + 1;  // the second row's price, 1-based in its line
  std::string const second = row("3", "2", "10.5");  // quoted up to 80 characters
  EXPECT_NE(r.err.find(": \"" + second.substr(0, 80) + "...\"\n"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.rfind("rowscan: error: " + path("bad.tbl") + ":2:" + std::to_string(column) +
                            ": l_extendedprice must be a decimal with exactly two fractional digits",
                        0),
            0u)
      << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1);
}

TEST_F(CliLineitem, UsageErrorsExitWithTwo) {
  std::string const text = row("3", "2", "10.50");
  EXPECT_EQ(run("lineitem -", text).exit_code, 2);                                // no threshold
  EXPECT_EQ(run("lineitem --suppkey-below 5 --format").exit_code, 2);             // no format
  EXPECT_EQ(run("lineitem --suppkey-below 1,,2 -", text).exit_code, 2);
  EXPECT_EQ(run("lineitem --suppkey-below abc -", text).exit_code, 2);
  EXPECT_EQ(run("lineitem --suppkey-below -1 -", text).exit_code, 2);
  EXPECT_EQ(run("lineitem --suppkey-below 5 --format xml -", text).exit_code, 2);
  EXPECT_EQ(run("lineitem --suppkey-below 5 --explain - extra", text).exit_code, 2);  // FILE... but --explain reads one
  EXPECT_EQ(run("generate lineitem -o '" + path("x.tbl") + "'").exit_code, 2);   // no scale
  auto const r = run("lineitem --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--suppkey-below"), std::string::npos);
  EXPECT_NE(run("--help").out.find("lineitem"), std::string::npos);
}

TEST_F(CliLineitem, RuntimeErrorsExitWithOne) {
  // Out-of-range option values are usage errors naming the option.
  auto r = run("lineitem --suppkey-below 5 --chunk-size 10 -", row("3", "2", "10.50"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--chunk-size: '10' is out of range"), std::string::npos) << r.err;
  r = run("lineitem --suppkey-below 5 '" + path("missing.tbl") + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot open"), std::string::npos) << r.err;
  r = run("generate lineitem --scale 0 -o '" + path("x.tbl") + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--scale: '0' is out of range"), std::string::npos) << r.err;
}

TEST_F(CliLineitem, EmptyInputAndLargeThreshold) {
  auto r = run("lineitem --suppkey-below 0,18446744073709551615 -", "");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0.00\n0.00\n");
  r = run("lineitem --suppkey-below 18446744073709551615 -", row("4294967295", "50", "104950.00"));
  EXPECT_EQ(r.out, "5247500.00\n");
}

}  // namespace
