// SPDX-License-Identifier: Apache-2.0
// app/progress.hpp: a progress bar on stderr for long runs, shown only when stderr is a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace rowscan::app {

/// Draws "[######......]  45%  6.2 of 13.8 GB  40.1 GB/s  0.2 s left" (MB below a GB) on stderr, redrawn at most ten
/// times a second and only once the run has lasted a second; erased by finish(). Does nothing when
/// stderr is not a terminal. total_bytes is 0 when the input's size is unknown (a pipe).
class progress_meter {
 public:
  progress_meter(std::uint64_t total_bytes, bool enabled);
  ~progress_meter() { finish(); }
  progress_meter(progress_meter const&) = delete;
  progress_meter& operator=(progress_meter const&) = delete;

  void update(std::uint64_t done_bytes);
  /// The input's size, once it is known (several files: after they are resolved); 0 if unknown.
  void set_total(std::uint64_t total_bytes) { total_ = total_bytes; }
  void finish();

  /// The bar's text for a state (what update() draws), for tests.
  static std::string render(std::uint64_t done, std::uint64_t total, double seconds);

 private:
  using clock = std::chrono::steady_clock;
  std::uint64_t total_;
  bool enabled_;
  bool drawn_ = false;
  double after_seconds_ = 1.0;  ///< drawn once the run has lasted this long
  clock::time_point start_ = clock::now();
  clock::time_point last_draw_{};
};

/// The size of the file open on fd, or 0 if it is not a regular file.
std::uint64_t regular_file_bytes(int fd);

}  // namespace rowscan::app
