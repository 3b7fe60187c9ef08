// SPDX-License-Identifier: Apache-2.0
// The answer before the teardown (answer_first.hpp).
#include "rowscan/job/timeline.hpp"
#include "rowscan/process/answer_first.hpp"

#include "rowscan/process/ranks.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rowscan::process {
namespace {

int report_fd = -1;           // the child's end of the pipe to the parent; -1: not a child
bool forked = false;
volatile pid_t child_pid = 0;  // the parent's child, for the signal handler

extern "C" void pass_on_signal(int signal_number) {
  if (child_pid > 0) ::kill(child_pid, signal_number);
}

/// The parent: waits for the child's code (or its end) and exits as the child asks or ended.
[[noreturn]] void wait_for_answer(int from_child, pid_t child) {
  child_pid = child;
  struct sigaction pass {};
  pass.sa_handler = pass_on_signal;
  sigemptyset(&pass.sa_mask);
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(signal_number, &pass, nullptr);
  unsigned char code = 0;
  ssize_t n;
  do {
    n = ::read(from_child, &code, 1);
  } while (n < 0 && errno == EINTR);
  if (n == 1) {  // the answer is out: the child's teardown is not the user's wait
    job::timeline_mark("parent exits");
    std::_Exit(code);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    std::signal(WTERMSIG(status), SIG_DFL);
    ::raise(WTERMSIG(status));
  }
  std::_Exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

}  // namespace

void answer_first(bool may_use_gpu) {
  // ROWSCAN_ANSWER_FIRST=0: never; =1: for any job (a testing aid: a build without a GPU tests it too).
  std::string const setting = std::getenv("ROWSCAN_ANSWER_FIRST") != nullptr ? std::getenv("ROWSCAN_ANSWER_FIRST") : "";
  bool const wanted = setting == "1" || (may_use_gpu && setting != "0");
  if (forked || !wanted || ranks::in_mpi_job()) return;
  forked = true;
  std::cout.flush();
  std::fflush(nullptr);  // nothing buffered is written twice
  int ends[2];
  if (::pipe(ends) != 0) return;
  pid_t const parent = ::getpid();
  pid_t const child = ::fork();
  if (child < 0) {  // no fork: the plain process runs the job
    ::close(ends[0]);
    ::close(ends[1]);
    return;
  }
  if (child > 0) {
    ::close(ends[1]);
    wait_for_answer(ends[0], child);
  }
  ::close(ends[0]);
  report_fd = ends[1];
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) std::_Exit(1);  // the parent is gone already: nobody waits for the answer
}

int answer_delivered(int code) {
  if (report_fd < 0) return code;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  ::close(STDOUT_FILENO);
  ::close(STDERR_FILENO);
  unsigned char const byte = static_cast<unsigned char>(code);
  ssize_t n;
  do {
    n = ::write(report_fd, &byte, 1);
  } while (n < 0 && errno == EINTR);
  ::close(report_fd);
  report_fd = -1;
  return code;
}

}  // namespace rowscan::process
