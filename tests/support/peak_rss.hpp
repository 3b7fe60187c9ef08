// SPDX-License-Identifier: Apache-2.0
// tests/support/peak_rss.hpp: runs `rowscan stations FILE --chunk-size C` as a child process and reads
// its peak resident memory from wait4's rusage, which counts that child alone.
#pragma once

#include <cstdint>
#include <fcntl.h>
#include <string>
#include <vector>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace support {

struct measured_run {
  int exit_code;
  std::uint64_t peak_rss_bytes;
};

/// `exe stations FILE --chunk-size C --devices cpu --no-progress EXTRA... > out`: on the host's workers in every
/// build (in the CUDA build, --devices auto would move a larger file to the GPU, whose context alone
/// is some hundreds of MB of host memory). Exit code 127 if it could not start.
inline measured_run run_stations_measured(char const* exe, std::string const& file, std::uint64_t chunk,
                                          std::string const& out, std::vector<std::string> const& extra = {}) {
  std::string const size = std::to_string(chunk);
  std::vector<std::string> args = {exe, "stations", file, "--chunk-size", size, "--devices", "cpu", "--no-progress"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t const pid = fork();
  if (pid == 0) {
    int const fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 1) < 0) _exit(126);
    execv(exe, argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid) return {-1, 0};
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, static_cast<std::uint64_t>(usage.ru_maxrss) * 1024};
}

}  // namespace support
