// SPDX-License-Identifier: Apache-2.0
// benchmarks/host_timing.hpp: the median wall time of host code, for the benchmarks that time whole
// host-side steps (no Thrust here: plain .cpp files of the CUDA build include it too).
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace rowscan::bench {

/// Runs f once untimed (a warm-up), then `repeat` times (at least once), and returns the median of
/// those calls' wall seconds.
template <class F>
double median_host_seconds(int repeat, F&& f) {
  f();
  std::vector<double> times;
  for (int i = 0; i < std::max(repeat, 1); ++i) {
    auto const start = std::chrono::steady_clock::now();
    f();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

}  // namespace rowscan::bench
