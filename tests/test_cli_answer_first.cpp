// SPDX-License-Identifier: Apache-2.0
// The answer before the teardown (rowscan/process/answer_first.hpp): a GPU job runs in a child process whose parent
// exits as soon as the answer is out. ROWSCAN_ANSWER_FIRST=1 forces the fork on any build, so these run
// on the cpu build too: the same bytes and exit codes as the plain process, through files and pipes,
// and signals passed on to the child.
#include "support/cli_fixture.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

using support::write_file;

class CliAnswerFirst : public support::cli_fixture {
 protected:
  /// The run of args, plain and with the fork forced.
  std::pair<support::run_result, support::run_result> both_ways(std::string const& args,
                                                                std::string const& stdin_text = "") {
    unsetenv("ROWSCAN_ANSWER_FIRST");
    auto plain = run(args, stdin_text);
    setenv("ROWSCAN_ANSWER_FIRST", "1", 1);
    auto forked = run(args, stdin_text);
    unsetenv("ROWSCAN_ANSWER_FIRST");
    return {plain, forked};
  }
};

void expect_same(support::run_result const& plain, support::run_result const& forked, std::string const& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(forked.exit_code, plain.exit_code);
  EXPECT_EQ(forked.out, plain.out);
  EXPECT_EQ(forked.err, plain.err);
}

TEST_F(CliAnswerFirst, TheSameBytesAndExitCodes) {
  write_file(path("good.txt"), "Hamburg;12.0\nBulawayo;8.9\nHamburg;-3.4\nZürich;0.0\n");
  write_file(path("bad.txt"), "Hamburg;12.0\nBulawayo;8.x\n");
  write_file(path("items.tbl"), "1|155190|7706|1|17|21168.23|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the|\n");
  auto [plain, forked] = both_ways("stations '" + path("good.txt") + "'");
  EXPECT_EQ(plain.exit_code, 0);
  expect_same(plain, forked, "an answer");
  std::tie(plain, forked) = both_ways("stations '" + path("good.txt") + "' --stats --format json");
  EXPECT_EQ(forked.exit_code, 0);
  EXPECT_EQ(forked.out, plain.out);  // --stats' times differ from run to run
  EXPECT_NE(forked.err.find("total"), std::string::npos);
  std::tie(plain, forked) = both_ways("stations '" + path("bad.txt") + "'");
  EXPECT_EQ(plain.exit_code, 1);
  expect_same(plain, forked, "a bad line");
  std::tie(plain, forked) = both_ways("stations '" + path("good.txt") + "' --format nope");
  EXPECT_EQ(plain.exit_code, 2);
  expect_same(plain, forked, "a usage error after the fork");
  std::tie(plain, forked) = both_ways("stations -", "a;1.0\nb;-2.0\n");
  expect_same(plain, forked, "standard input");
  std::tie(plain, forked) = both_ways("lineitem '" + path("items.tbl") + "' --suppkey-below 8000");
  EXPECT_EQ(plain.exit_code, 0);
  expect_same(plain, forked, "lineitem");
}

TEST_F(CliAnswerFirst, ThroughAPipeTheReaderSeesTheWholeAnswer) {
  write_file(path("good.txt"), "Hamburg;12.0\nBulawayo;8.9\n");
  write_file(path("pipe.sh"), "ROWSCAN_ANSWER_FIRST=1 '" + std::string(ROWSCAN_EXE) + "' stations '" + path("good.txt") +
                                  "' | cat > '" + path("piped") + "'\nexit ${PIPESTATUS[0]}\n");
  int const status = std::system(("bash '" + path("pipe.sh") + "'").c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(support::read_file(path("piped")), "{Bulawayo=8.9/8.9/8.9, Hamburg=12.0/12.0/12.0}\n");
}

TEST_F(CliAnswerFirst, ASignalToTheParentEndsTheChild) {
  // The child reads standard input from a FIFO nobody writes: it waits until the signal comes.
  std::string const fifo = path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  pid_t const parent = ::fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    ::setenv("ROWSCAN_ANSWER_FIRST", "1", 1);
    ::execl("/bin/sh", "sh", "-c", ("exec '" + std::string(ROWSCAN_EXE) + "' stations - < '" + fifo + "' > /dev/null 2>&1").c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int const writer = ::open(fifo.c_str(), O_WRONLY);  // the shell's redirection opens the reading end
  ASSERT_GE(writer, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the fork has happened, the child reads
  ASSERT_EQ(::kill(parent, SIGTERM), 0);
  int status = 0;
  auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  pid_t done = 0;
  while ((done = ::waitpid(parent, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::close(writer);
  if (done == 0) {
    ::kill(parent, SIGKILL);
    ::waitpid(parent, &status, 0);
    FAIL() << "the parent did not end within 20 s of SIGTERM";
  }
  // The child ended by the signal it was passed; the parent ends the same way.
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

}  // namespace
