// SPDX-License-Identifier: Apache-2.0
// A run's milestones (rowscan/job/timeline.hpp).
#include "rowscan/job/timeline.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace rowscan::job {
namespace {

/// ROWSCAN_TIMELINE's file, opened for appending the first time a mark asks; -1 without the variable.
int timeline_file() noexcept {
  static int const fd = [] {
    char const* path = std::getenv("ROWSCAN_TIMELINE");
    return path != nullptr && *path != '\0' ? ::open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
  }();
  return fd;
}

}  // namespace

void timeline_mark(char const* milestone) noexcept {
  int const fd = timeline_file();
  if (fd < 0) return;
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  char line[160];
  int const n = std::snprintf(line, sizeof line, "%lld %d %s\n",
                              static_cast<long long>(now.tv_sec) * 1000000 + now.tv_nsec / 1000, static_cast<int>(::getpid()),
                              milestone);
  if (n > 0) (void)!::write(fd, line, static_cast<std::size_t>(n < static_cast<int>(sizeof line) ? n : sizeof line - 1));
}

}  // namespace rowscan::job
