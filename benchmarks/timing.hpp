// SPDX-License-Identifier: Apache-2.0
// benchmarks/timing.hpp: what every rowscan benchmark shares.
#pragma once

#include "rowscan/config.hpp"

#include <chrono>
#include <cstdlib>
#include <optional>
#include <type_traits>

namespace rowscan::bench {

/// Times one call of f: CUDA events on the default stream under CUDA, steady_clock elsewhere.
template <class F>
double timed_seconds(F&& f) {
#if ROWSCAN_HAS_CUB
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  f();
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / 1e3;
#else
  auto const start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
#endif
}

/// Runs f once untimed (kernels load, pools fill), then once per benchmark iteration, timed with
/// timed_seconds and reported as the iteration's manual time. Returns the seconds of all timed calls.
/// What f returns (a gathered column) is freed after its call's timing stops.
template <class State, class F>
double run_timed(State& state, F&& f) {
  using result = std::invoke_result_t<F&>;
  f();
  double seconds = 0;
  for (auto _ : state) {
    double s = 0;
    if constexpr (std::is_void_v<result>) {
      s = timed_seconds(f);
    } else {
      std::optional<result> kept;
      s = timed_seconds([&] { kept.emplace(f()); });
    }
    state.SetIterationTime(s);
    seconds += s;
  }
  return seconds;
}

/// A number from the environment, or fallback when it is unset or empty.
inline double env_number(char const* name, double fallback) {
  char const* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::atof(value) : fallback;
}

}  // namespace rowscan::bench
