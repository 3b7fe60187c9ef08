// SPDX-License-Identifier: Apache-2.0
// rowscan: the command-line tool. app::run_command_line does the work (run_command_line.cpp).
#include "rowscan/process/answer_first.hpp"
#include "rowscan/job/timeline.hpp"
#include "commands.hpp"
#include "rowscan/process/ranks.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <stdio_ext.h>
#include <string_view>
#include <system_error>
#include <unistd.h>

namespace {

/// Writes size bytes to standard error, without allocating (the handlers below may run out of memory).
void write_error_bytes(char const* text, std::size_t size) {
  for (std::size_t left = size; left > 0;) {
    ssize_t const n = ::write(STDERR_FILENO, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<std::size_t>(n);
  }
}

/// The last word on an exception that no catch can reach: one thrown on a thread no caller waits on
/// with a try, such as inside an OpenMP parallel region (Thrust's OpenMP sort allocating under a low
/// `ulimit -v`), where the C++ runtime must call std::terminate. Instead of "terminate called after
/// throwing ..." and SIGABRT, the user gets one `rowscan: error:` line and exit code 1, as for every
/// other failure. The first thread to get here reports; any other waits for the process to end.
[[noreturn]] void report_and_exit() {
  static std::atomic<bool> reported{false};
  if (reported.exchange(true)) {
    for (;;) ::pause();
  }
  char const* line = "rowscan: error: an internal error ended the run (an exception no caller could catch)\n";
  if (std::exception_ptr const thrown = std::current_exception()) {
    try {
      std::rethrow_exception(thrown);
    } catch (std::bad_alloc const&) {
      line = "rowscan: error: out of memory on a worker thread; a smaller --chunk-size or --threads needs less\n";
    } catch (std::system_error const&) {
      line = "rowscan: error: the system refused a thread or a resource on a worker thread; a smaller --threads, or "
             "higher process limits (ulimit -v, ulimit -u), may help\n";
    } catch (...) {
    }
  }
  write_error_bytes(line, std::strlen(line));
  std::_Exit(rowscan::app::failure);
}

/// Standard error's buffer: stderr is fully buffered into it (std::cerr, unit-buffered, flushes it after
/// every write; the progress bar flushes too), so that what a library prints just before it calls
/// exit() is still here when exit() runs report_library_exit.
char stderr_buffer[1 << 16];

/// Run by exit(), before stdio is flushed: a library that gives up calls it, as libgomp does when the
/// system refuses it a thread or memory ("libgomp: Thread creation failed: ...", "libgomp: Out of memory
/// allocating N bytes", under a low `ulimit -v`). Its own words are replaced by one `rowscan: error:`
/// line and exit code 1. rowscan itself never calls exit() (main ends with _Exit), so anything else is
/// left as it is.
void report_library_exit() {
  std::size_t const pending = std::min(__fpending(stderr), sizeof stderr_buffer);
  std::string_view const text(stderr_buffer, pending);
  std::size_t const at = text.find("libgomp: ");
  if (at == std::string_view::npos) return;
  std::size_t end = text.find('\n', at);
  if (end == std::string_view::npos) end = text.size();
  char line[512];
  std::snprintf(line, sizeof line,
                "rowscan: error: OpenMP stopped the run (%.*s); give a smaller --threads or --chunk-size, or raise the "
                "process's limits (ulimit -v, ulimit -u)\n",
                static_cast<int>(end - at - 9), text.data() + at + 9);
  __fpurge(stderr);
  std::size_t const before = at > 0 && text[at - 1] == '\n' ? at - 1 : at;  // libgomp's line starts with '\n'
  write_error_bytes(text.data(), before);  // what rowscan wrote before it, not yet flushed
  write_error_bytes(line, std::strlen(line));
  std::_Exit(rowscan::app::failure);
}

}  // namespace

int main(int argc, char** argv) {
  rowscan::job::timeline_mark("main");
  std::set_terminate(report_and_exit);
  std::setvbuf(stderr, stderr_buffer, _IOFBF, sizeof stderr_buffer);
  std::atexit(report_library_exit);
  rowscan::ranks::start(argc, argv);  // MPI, when mpirun started this process (rowscan/process/ranks.hpp)
  int const code = rowscan::ranks::finish(rowscan::app::run_command_line(argc, argv));
  // Everything is written (stdout only through write_standard_output, which reports its own failures);
  // skip the teardown of the device runtime at exit (docs/performance.md, "The answer first"), which the operating
  // system does anyway when the process ends.
  std::cerr.flush();
  std::fflush(nullptr);
  rowscan::job::timeline_mark("exits");
  std::_Exit(rowscan::process::answer_delivered(code));  // a forked job's parent exits now (answer_first.hpp)
}
