// SPDX-License-Identifier: Apache-2.0
// The rowscan executable as a user runs it: exit codes, what goes to stdout, what goes to stderr.
#include "reference/stations_reference.hpp"

#include "support/cli_fixture.hpp"
#include "support/light_mode.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
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
  EXPECT_EQ(run("stations").exit_code, 2);
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
  EXPECT_EQ(r.out, "name,min,mean,max,count\na,-2.5,-2.5,-2.5,1\nb,1.0,1.5,2.0,2\n");
  r = run("stations --format json -", text);
  EXPECT_EQ(r.out.front(), '[');
  EXPECT_EQ(run("stations --format xml -", text).exit_code, 2);  // a usage error since issue 17
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
  for (char const* stage : {"find + parse + fold", "sort", "reduce"}) {
    EXPECT_EQ(r.err.find(stage) != std::string::npos, on_host == (stage[0] == 'f')) << stage << "\n" << r.err;
  }
}

TEST_F(Cli, BadLineIsOneLineOnStderrAndNothingOnStdout) {
  write_file(path("bad.txt"), "a;1.0\nb;2.0\nc;3.00\n");
  auto const r = run("stations '" + path("bad.txt") + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("rowscan: error: " + path("bad.txt") + ":3: byte 14: temperature", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1);
}

TEST_F(Cli, MissingUnreadableAndDirectoryInputs) {
  auto r = run("stations '" + path("missing.txt") + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(path("missing.txt") + ": cannot open"), std::string::npos) << r.err;
  // A directory is its files (issue 15: none here); --explain reads one file and refuses a directory.
  ASSERT_EQ(mkdir(path("empty").c_str(), 0755), 0);
  r = run("stations '" + path("empty") + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{}\n");
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
  EXPECT_EQ(r.exit_code, 2);  // a usage error naming the option since issue 17
  EXPECT_NE(r.err.find("--chunk-size: '10' is out of range"), std::string::npos);
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
  EXPECT_EQ(run("generate measurements --rows 10 --stations 0 -o '" + path("x.txt") + "'").exit_code, 2);  // issue 17
  EXPECT_EQ(run("generate measurements --stations 3 -o '" + path("x.txt") + "'").exit_code, 2);
}

}  // namespace
