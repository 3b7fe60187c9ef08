// SPDX-License-Identifier: Apache-2.0
// What rowscan writes, when writing fails: every write to stdout or to an output file is checked and
// named (`rowscan: error: standard output: cannot write: ...`, exit 1), and `generate -o FILE` never
// leaves a partial file behind.
#include "support/cli_fixture.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <vector>

namespace {

using support::read_file;
using support::write_file;

class CliOutput : public support::cli_fixture {
 protected:
  /// Runs `rowscan ARGS` with stdout sent to `stdout_path` (e.g. /dev/full) and stdin from /dev/null.
  support::run_result run_to(std::string const& args, std::string const& stdout_path) const {
    std::string const command = std::string("'") + ROWSCAN_EXE + "' " + args + " </dev/null >'" + stdout_path +
                                "' 2>'" + path("stderr") + "'";
    int const status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, "", read_file(path("stderr"))};
  }

  /// The names in the scratch directory, but for the fixture's own files.
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(dir_.c_str())) {
      while (dirent* e = ::readdir(d)) {
        std::string const name = e->d_name;
        if (name != "." && name != ".." && name != "stdin" && name != "stdout" && name != "stderr") names.push_back(name);
      }
      ::closedir(d);
    }
    return names;
  }
};

constexpr char const* full_stdout = "rowscan: error: standard output: cannot write: No space left on device\n";

TEST_F(CliOutput, FullStandardOutputIsAnErrorForEveryCommand) {
  write_file(path("m.txt"), "a;1.0\nb;2.0\n");
  write_file(path("l.tbl"), "1|2|3|4|5|6.00|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|x|\n");
  for (std::string const& args : std::vector<std::string>{"--help", "--version", "stations --help", "lineitem --help", "generate --help", "generate measurements --help",
        "generate lineitem --help", "stations '" + path("m.txt") + "'",
        "stations --format json '" + path("m.txt") + "'", "stations --format csv '" + path("m.txt") + "'",
        "stations --explain '" + path("m.txt") + "'", "lineitem --suppkey-below 5 '" + path("l.tbl") + "'",
        "lineitem --suppkey-below 5 --format json '" + path("l.tbl") + "'",
        "lineitem --suppkey-below 5 --explain '" + path("l.tbl") + "'",
        "generate measurements --rows 10 -o -", "generate lineitem --scale 0.0001 -o -"}) {
    auto const r = run_to(args, "/dev/full");
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_EQ(r.err, full_stdout) << args;
  }
}

TEST_F(CliOutput, FullOutputFileIsNamed) {
  for (std::string const what : {"measurements --rows 10", "lineitem --scale 0.0001"}) {
    auto const r = run("generate " + what + " -o /dev/full");
    EXPECT_EQ(r.exit_code, 1) << what;
    EXPECT_EQ(r.err, "rowscan: error: /dev/full: cannot write: No space left on device\n") << what;
  }
}

// generate draws a progress bar on a terminal (here a pseudo-terminal from script(1)): the share of
// the rows written and the time left, as the row count is known; erased at the end; not when stderr is
// a file. Written to standard output (a pipe) too.
TEST_F(CliOutput, GenerateShowsProgressOnATerminal) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1) for a terminal";
  std::string const generate = std::string("ROWSCAN_PROGRESS_AFTER_SECONDS=0 '") + ROWSCAN_EXE +
                               "' generate measurements --rows 2000000 -o '" + path("m.txt") + "'";
  int const status = std::system(("script -qc \"" + generate + "\" /dev/null </dev/null >'" + path("tty") + "'").c_str());
  ASSERT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
  std::string const tty = support::read_file(path("tty"));
  EXPECT_NE(tty.find("%  "), std::string::npos) << tty;              // the share done,
  EXPECT_NE(tty.find(" MB/s  "), std::string::npos) << tty;          // the rate,
  EXPECT_NE(tty.find(" s left\x1b[K"), std::string::npos) << tty;    // and the time left
  EXPECT_EQ(tty.size() >= 4 ? tty.substr(tty.size() - 4) : tty, "\r\x1b[K") << tty;  // erased at the end
  EXPECT_EQ(support::read_file(path("m.txt")).size() > 20000000u, true);
  std::string const piped = std::string("ROWSCAN_PROGRESS_AFTER_SECONDS=0 '") + ROWSCAN_EXE +
                            "' generate measurements --rows 2000000 | wc -c >'" + path("count") + "'";
  ASSERT_EQ(std::system(("script -qc \"" + piped + "\" /dev/null </dev/null >'" + path("tty2") + "'").c_str()), 0);
  EXPECT_NE(support::read_file(path("tty2")).find(" s left\x1b[K"), std::string::npos);
  EXPECT_EQ(std::stoull(support::read_file(path("count"))), support::read_file(path("m.txt")).size());
  auto const r = run("generate measurements --rows 1000 -o '" + path("n.txt") + "'");  // stderr a file: no bar
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
}

TEST_F(CliOutput, GenerateWritesThroughATemporaryFile) {
  write_file(path("m.txt"), "an older file\n");
  auto const r = run("generate measurements --rows 1000 --stations 5 -o '" + path("m.txt") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(files(), std::vector<std::string>{"m.txt"});  // replaced, and no temporary file left
  std::string const text = read_file(path("m.txt"));
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1000);
  struct stat st{};
  ASSERT_EQ(::stat(path("m.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0077, 0644 & 0077 & ~[] { mode_t m = ::umask(0); ::umask(m); return m; }());
  // An existing file keeps its permissions.
  ASSERT_EQ(::chmod(path("m.txt").c_str(), 0600), 0);
  ASSERT_EQ(run("generate measurements --rows 10 --stations 5 -o '" + path("m.txt") + "'").exit_code, 0);
  ASSERT_EQ(::stat(path("m.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  // A directory that cannot be written: the error names the file asked for.
  auto const bad = run("generate measurements --rows 10 -o '" + path("no/such/dir.txt") + "'");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err.rfind("rowscan: error: " + path("no/such/dir.txt") + ": cannot create: ", 0), 0u) << bad.err;
}

TEST_F(CliOutput, InterruptedGenerateLeavesNoPartialFile) {
  write_file(path("old.txt"), "an older file\n");
  // 10^9 rows take minutes: each signal arrives long before the end.
  for (char const* signal : {"INT", "TERM", "HUP"}) {
    for (char const* target : {"old.txt", "new.txt"}) {
      std::string const command = std::string("timeout -s ") + signal + " 0.5 '" + ROWSCAN_EXE +
                                  "' generate measurements --rows 1000000000 -o '" + path(target) + "' 2>/dev/null";
      int const status = std::system(command.c_str());
      EXPECT_EQ(WEXITSTATUS(status), 124) << signal << ' ' << target;  // timeout's code: it had to send the signal
      EXPECT_EQ(files(), std::vector<std::string>{"old.txt"}) << signal << ' ' << target;
      EXPECT_EQ(read_file(path("old.txt")), "an older file\n");
    }
  }
}

}  // namespace
