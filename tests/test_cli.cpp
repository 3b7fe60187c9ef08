// SPDX-License-Identifier: Apache-2.0
// The rowscan executable as a user runs it: exit codes, what goes to stdout, what goes to stderr.
#include "reference/stations_reference.hpp"

#include "support/cli_fixture.hpp"
#include "support/light_mode.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using support::read_file;
using support::write_file;

using Cli = support::cli_fixture;

std::string sample(std::string const& name) { return std::string(ROWSCAN_SAMPLES_DIR) + "/" + name; }

TEST_F(Cli, HelpAndVersion) {
  auto r = run("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("usage: rowscan"), std::string::npos);
  r = run("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("rowscan ", 0), 0u);
  r = run("stations --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--chunk-size"), std::string::npos);
}

TEST_F(Cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(run("").exit_code, 2);
  EXPECT_EQ(run("frobnicate").exit_code, 2);
  auto const r = run("stations --no-such-option x");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("rowscan: error: ", 0), 0u);
  EXPECT_EQ(run("stations --format").exit_code, 2);
}

// Errors name FILE:LINE:COLUMN (1-based, bytes from the line's start) and quote the line:
// escaped (\xNN, \t, \r, \", \\), and cut with "..." after 80 characters.
TEST_F(Cli, ErrorsNameTheColumnAndQuoteTheLineEscapedAndShortened) {
  std::string const bad_temperature =
      "temperature must be -99.9 to 99.9 with exactly one fractional digit (-?[0-9]{1,2}.[0-9])";
  auto r = run("stations -", "a;1.0\n\xff\x01\"q\\;1.234\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "rowscan: error: <stdin>:2:7: " + bad_temperature + ": \"\\xff\\x01\\\"q\\\\;1.234\"\n");
  r = run("stations -", std::string(150, 'n') + "\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "rowscan: error: <stdin>:1:1: no ';' within the first 101 bytes: station name longer than 100 bytes: \"" +
                       std::string(80, 'n') + "...\"\n");
  r = run("stations -", "ok;2.0\na\tb;1.0\r\n");
  EXPECT_EQ(r.err, "rowscan: error: <stdin>:2:8: line ends with CR LF (a Windows line ending); read it with --crlf, or "
                   "convert the file to LF line endings: \"a\\tb;1.0\\r\"\n");
  // Escapes count toward the 80 characters: 30 bytes of \xNN are 120 characters, cut after 20 of them.
  std::string escaped;
  for (int i = 0; i < 20; ++i) escaped += "\\xfe";
  r = run("stations -", std::string(30, '\xfe') + ";x\n");
  EXPECT_EQ(r.err, "rowscan: error: <stdin>:1:32: " + bad_temperature + ": \"" + escaped + "...\"\n");
  // --skip-invalid's summary quotes each line the same way.
  r = run("stations --skip-invalid -", "a;1.0\nb\n;2.0\n");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "rowscan: skipped 2 invalid lines: <stdin>:2:1: missing ';' between station name and temperature: "
                   "\"b\"; <stdin>:3:1: empty station name: \";2.0\"\n");
  // The byte offset in the file, for tests and scripts: ROWSCAN_ERROR_BYTE_OFFSETS=1.
  setenv("ROWSCAN_ERROR_BYTE_OFFSETS", "1", 1);
  r = run("lineitem --suppkey-below 5 -", "1|2|3|\n");
  unsetenv("ROWSCAN_ERROR_BYTE_OFFSETS");
  EXPECT_EQ(r.err, "rowscan: error: <stdin>:1:7: byte 6: expected 16 fields, each followed by '|' (the last one too) "
                   "(this line has 3): \"1|2|3|\"\n");
}

TEST_F(Cli, BundledSample) {
  auto const r = run("stations '" + sample("measurements.txt") + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, read_file(sample("measurements.out")));
  EXPECT_EQ(r.out, reference::stations_answer(read_file(sample("measurements.txt"))));
  EXPECT_EQ(r.err, "");
}

TEST_F(Cli, StandardInputAndFormats) {
  std::string const text = "b;1.0\na;-2.5\nb;2.0\n";
  auto r = run("stations -", text);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "{a=-2.5/-2.5/-2.5, b=1.0/1.5/2.0}\n");
  r = run("stations --format csv -", text);
  EXPECT_EQ(r.out, "name,min,mean,max,count,sum,name_hex\na,-2.5,-2.5,-2.5,1,-2.5,\nb,1.0,1.5,2.0,2,3.0,\n");
  r = run("stations --format json -", text);
  EXPECT_EQ(r.out.front(), '[');
  EXPECT_EQ(run("stations --format xml -", text).exit_code, 2);
}

TEST_F(Cli, StatsGoToStandardError) {
  auto const r = run("stations --stats --chunk-size 128 '" + sample("measurements.txt") + "'");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, read_file(sample("measurements.out")));
  for (char const* stage : {"read", "merge", "general path", "output"}) {
    EXPECT_NE(r.err.find(stage), std::string::npos) << stage;
  }
  // Host workers fold each line into its station's row as they parse it; a GPU sorts and reduces.
  bool const on_host = r.err.find("host worker") != std::string::npos;
  EXPECT_NE(r.err.find(on_host ? "waiting for a worker" : "copy to device"), std::string::npos) << r.err;
  // On the host the driver's wall time and the workers' busy time overlap: they are listed apart.
  std::size_t const driver = r.err.find(" the driver's thread (wall time):\n");
  std::size_t const workers = r.err.find(" the workers (busy time, summed over ");
  EXPECT_EQ(driver != std::string::npos, on_host) << r.err;
  EXPECT_EQ(workers != std::string::npos, on_host) << r.err;
  if (on_host) {
    EXPECT_LT(driver, r.err.find("read (waiting)")) << r.err;
    EXPECT_LT(workers, r.err.find("find + parse + fold")) << r.err;
    EXPECT_LT(r.err.find("read (waiting)"), workers) << r.err;
  }
  for (char const* stage : {"find + parse + fold", "sort", "reduce"}) {
    EXPECT_EQ(r.err.find(stage) != std::string::npos, on_host == (stage[0] == 'f')) << stage << "\n" << r.err;
  }
}

TEST_F(Cli, BadLineIsOneLineOnStderrAndNothingOnStdout) {
  write_file(path("bad.txt"), "a;1.0\nb;2.0\nc;3.00\n");
  auto const r = run("stations '" + path("bad.txt") + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  // Line 3, column 3 (the temperature after "c;"), and the line quoted.
  EXPECT_EQ(r.err, "rowscan: error: " + path("bad.txt") +
                       ":3:3: temperature must be -99.9 to 99.9 with exactly one fractional digit (-?[0-9]{1,2}.[0-9]): "
                       "\"c;3.00\"\n");
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1);
}

TEST_F(Cli, MissingUnreadableAndDirectoryInputs) {
  auto r = run("stations '" + path("missing.txt") + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(path("missing.txt") + ": cannot open"), std::string::npos) << r.err;
  // A directory is its files; none at all is an error; --explain
  // reads one file and refuses a directory.
  ASSERT_EQ(mkdir(path("empty").c_str(), 0755), 0);
  r = run("stations '" + path("empty") + "'");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "rowscan: error: no input file: " + path("empty") +
                       " holds no file to read (names that start with '.' are skipped)\n");
  r = run("stations --explain '" + path("empty") + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
  if (geteuid() != 0) {  // root reads any file
    write_file(path("locked.txt"), "a;1.0\n");
    chmod(path("locked.txt").c_str(), 0);
    r = run("stations '" + path("locked.txt") + "'");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("cannot open"), std::string::npos) << r.err;
  }
}

TEST_F(Cli, ChunkSizeOutOfRange) {
  auto const r = run("stations --chunk-size 10 -", "a;1.0\n");
  EXPECT_EQ(r.exit_code, 2);  // a usage error naming the option
  EXPECT_NE(r.err.find("--chunk-size: '10' is out of range"), std::string::npos);
}

// The help states the station limits, what happens past them, and what that costs.
TEST_F(Cli, StationsHelpStatesTheLimitsAndTheirCost) {
  auto const r = run("stations --help");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("up to 65535 distinct stations by 16-bit ids"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ids up to 131072"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("every later block takes the general path"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("DuckDB's"), std::string::npos) << r.out;
}

// Over the fast path's station limit, every later block takes the general path, and --stats says why.
TEST_F(Cli, StatsSayWhyBlocksTookTheGeneralPath) {
  auto r = run("generate measurements --rows 90000 --stations 1000000 --seed 3 -o '" + path("many.txt") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string const text = read_file(path("many.txt"));
  r = run("stations --stats --threads 1 --chunk-size 256K '" + path("many.txt") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, reference::stations_answer(text));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"((\d+) stations, (\d+) chunk\(s\) of \d+ bytes \((\d+) fast, (\d+) general\))")))
      << r.err;
  ASSERT_GT(std::stoul(m[1].str()), 65535u);
  std::size_t const general = std::stoul(m[4].str());
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"(general path: (\d+) chunk\(s\) met stations new to their worker or a bad line; (\d+) began with more than 65535 stations)")))
      << r.err;
  EXPECT_EQ(std::stoul(m[1].str()) + std::stoul(m[2].str()), general) << r.err;
  EXPECT_GT(std::stoul(m[2].str()), 0u) << r.err;  // the blocks after the table passed the limit
  EXPECT_GT(std::stoul(m[1].str()), 0u) << r.err;  // the blocks that brought it there
}

TEST_F(Cli, GenerateThenAnswerLikeTheReference) {
  // Light mode: 150 rows, about 30 chunks of 128 bytes.
  std::string const rows = support::light<std::string>("20000", "150");
  auto r = run("generate measurements --rows " + rows + " --stations 300 --seed 7 -o '" + path("m.txt") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string const text = read_file(path("m.txt"));
  std::string const expected = reference::stations_answer(text);
  for (char const* chunk : {"", "--chunk-size 128", "--chunk-size 5000"}) {
    r = run(std::string("stations ") + chunk + " '" + path("m.txt") + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, expected) << chunk;
  }
  EXPECT_EQ(run("generate measurements --rows 10 --stations 0 -o '" + path("x.txt") + "'").exit_code, 2);
  EXPECT_EQ(run("generate measurements --stations 3 -o '" + path("x.txt") + "'").exit_code, 2);
}

// An answer of more stations than a block learns at once, on two workers: its summaries are made on the
// output stage's team and its text passes 2 and 4 MiB (huge pages) outside light mode; byte for byte the
// reference's.
TEST_F(Cli, ManyStationsOnTwoWorkersAnswerLikeTheReference) {
  std::string const rows = support::light<std::string>("300000", "3000");
  auto r = run("generate measurements --rows " + rows + " --stations 1000000 --seed 11 -o '" + path("many.txt") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string const text = read_file(path("many.txt"));
  std::string const expected = reference::stations_answer(text);
  r = run("stations --threads 2 --chunk-size 1M '" + path("many.txt") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.size(), expected.size());
  EXPECT_TRUE(r.out == expected) << "the answers differ";
}

}  // namespace
