// SPDX-License-Identifier: Apache-2.0
// How fast one core runs while others run too: T threads each step a chain of dependent multiplies
// (nothing in memory, nothing shared), and each thread's rate is compared with one thread's alone.
// A chain of multiplies waits only for the core's clock, so the ratio is how far a core's clock falls
// when T cores are busy: the part of the host engine's per-core loss from 2 to 32 cores (issue 27)
// that no program can avoid (docs/performance.md, "The host engine").
//
//   rowscan_core_rate [THREADS...]        (default: 1 2 4 ... up to the cores)
//
// Run it under taskset with as many cores as the largest THREADS, as scripts/host_scaling.sh binds the
// programs it compares. Prints one line per thread count: threads, the median thread's steps per
// nanosecond, the slowest thread's, and the median against one thread's.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

constexpr std::uint64_t chain_steps = 400'000'000;  // about 0.4 s a thread at 3 GHz (3 cycles a step)

/// Where each chain's result goes, so that the compiler keeps the chain.
volatile std::uint64_t chain_result = 0;

/// The steps per nanosecond of one chain of chain_steps dependent multiplies.
double chain_rate(std::uint64_t seed) {
  auto const start = std::chrono::steady_clock::now();
  std::uint64_t x = seed | 1;
  for (std::uint64_t i = 0; i < chain_steps; ++i) x *= 0x9e3779b97f4a7c15ull;  // each waits for the last
  std::chrono::duration<double, std::nano> const took = std::chrono::steady_clock::now() - start;
  chain_result = x;
  return static_cast<double>(chain_steps) / took.count();
}

/// Every thread's rate, all T running at once.
std::vector<double> rates_with(unsigned threads) {
  std::vector<double> rates(threads);
  std::vector<std::thread> running;
  running.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) running.emplace_back([&rates, t] { rates[t] = chain_rate(t + 1); });
  for (auto& thread : running) thread.join();
  std::sort(rates.begin(), rates.end());
  return rates;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> counts;
  for (int i = 1; i < argc; ++i) {
    long const t = std::strtol(argv[i], nullptr, 10);
    if (t < 1 || t > 4096) {
      std::fprintf(stderr, "rowscan_core_rate: a thread count is 1 to 4096, not '%s'\n", argv[i]);
      return 2;
    }
    counts.push_back(static_cast<unsigned>(t));
  }
  if (counts.empty()) {
    unsigned const cores = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned t = 1; t <= cores; t *= 2) counts.push_back(t);
    if (counts.back() != cores) counts.push_back(cores);
  }
  double alone = 0;
  std::printf("threads,median_steps_per_ns,slowest_steps_per_ns,median_against_one_thread\n");
  for (unsigned t : counts) {
    std::vector<double> const rates = rates_with(t);
    double const median = rates[rates.size() / 2];
    if (alone == 0) alone = t == 1 ? median : rates_with(1).front();
    std::printf("%u,%.4f,%.4f,%.3f\n", t, median, rates.front(), median / alone);
  }
  return 0;
}
