// SPDX-License-Identifier: Apache-2.0
// How fast one core runs while others run too (per-core scaling), in two loops that touch no
// memory and share nothing:
//   chain: one chain of dependent multiplies. It waits only for the core's clock, so its rate shows how
//          far a clock falls as the cores fill. Two hardware threads of one physical core both run it at
//          full speed, so it cannot see whether two CPUs share a core.
//   wide:  eight independent chains, which keep the core's multiplier busy every cycle. A CPU whose
//          physical core also runs another busy CPU (its SMT sibling) gets about half of it, as a
//          program that is bound by a core's throughput would (the host engine's fold is: about four
//          instructions a cycle, docs/performance.md).
//
//   rowscan_core_rate [THREADS...]   (default: 1 2 4 ... up to the CPUs)
//     T threads at once, thread t bound to the t-th CPU this process may run on: one line per count,
//     each loop's median and slowest thread (steps a nanosecond) and the median against one thread's.
//   rowscan_core_rate --pairs [CPU]
//     CPU (default: the first this process may run on) beside each other CPU, both running the wide
//     loop: one line per other CPU, the slower thread of the pair against one thread alone on CPU. About
//     0.5 means the two share a physical core.
//
// Run it under taskset with the cores scripts/host_scaling.sh binds the programs it compares to.
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr std::uint64_t chain_steps = 400'000'000;  // about 0.4 s a thread at 3 GHz (3 cycles a step)
constexpr unsigned wide_chains = 8;                 // a multiply's latency (3-4 cycles) times its issue rate, and more
constexpr std::uint64_t wide_steps = 100'000'000;   // per chain: about 0.3 s a thread at one multiply a cycle
constexpr std::uint64_t odd_factor = 0x9e3779b97f4a7c15ull;

/// Where each loop's result goes, so that the compiler keeps the loop.
volatile std::uint64_t loop_result = 0;

using clock_type = std::chrono::steady_clock;

double steps_per_ns(std::uint64_t steps, clock_type::time_point start) {
  std::chrono::duration<double, std::nano> const took = clock_type::now() - start;
  return static_cast<double>(steps) / took.count();
}

/// The steps per nanosecond of one chain of dependent multiplies.
double chain_rate(std::uint64_t seed) {
  auto const start = clock_type::now();
  std::uint64_t x = seed | 1;
  for (std::uint64_t i = 0; i < chain_steps; ++i) x *= odd_factor;  // each waits for the last
  loop_result = x;
  return steps_per_ns(chain_steps, start);
}

/// The multiplies per nanosecond of wide_chains independent chains, stepped together. 64-bit multiplies
/// have no SSE2 or AVX2 vector form, so the compiler keeps them scalar: one core's multiplier.
double wide_rate(std::uint64_t seed) {
  auto const start = clock_type::now();
  std::uint64_t x[wide_chains];
  for (unsigned j = 0; j < wide_chains; ++j) x[j] = (seed + j) | 1;
  for (std::uint64_t i = 0; i < wide_steps; ++i)
    for (unsigned j = 0; j < wide_chains; ++j) x[j] *= odd_factor;
  std::uint64_t all = 0;
  for (unsigned j = 0; j < wide_chains; ++j) all ^= x[j];
  loop_result = all;
  return steps_per_ns(wide_steps * wide_chains, start);
}

/// The CPUs this process may run on (taskset's list), in order.
std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

void bind_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof set, &set);  // this thread only (a thread's id is 0 to itself)
}

/// Every thread's rate of `loop`, thread t bound to cpus[t], all running at once; sorted.
std::vector<double> rates_on(std::vector<int> const& cpus, double (*loop)(std::uint64_t)) {
  std::vector<double> rates(cpus.size());
  std::vector<std::thread> running;
  running.reserve(cpus.size());
  for (std::size_t t = 0; t < cpus.size(); ++t)
    running.emplace_back([&, t] {
      bind_to(cpus[t]);
      rates[t] = loop(t + 1);
    });
  for (auto& thread : running) thread.join();
  std::sort(rates.begin(), rates.end());
  return rates;
}

int scan_pairs(std::vector<int> const& cpus, int first) {
  double const alone = rates_on({first}, wide_rate).front();
  std::printf("cpu,with_cpu,slower_against_alone\n");
  for (int other : cpus) {
    if (other == first) continue;
    std::vector<double> const pair = rates_on({first, other}, wide_rate);
    std::printf("%d,%d,%.3f\n", other, first, pair.front() / alone);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> const cpus = allowed_cpus();
  if (cpus.empty()) {
    std::fprintf(stderr, "rowscan_core_rate: the CPUs this process may run on are unknown\n");
    return 1;
  }
  if (argc >= 2 && std::strcmp(argv[1], "--pairs") == 0) {
    int const first = argc >= 3 ? std::atoi(argv[2]) : cpus.front();
    if (argc > 3 || std::find(cpus.begin(), cpus.end(), first) == cpus.end()) {
      std::fprintf(stderr, "rowscan_core_rate: --pairs takes one CPU this process may run on\n");
      return 2;
    }
    return scan_pairs(cpus, first);
  }
  std::vector<unsigned> counts;
  for (int i = 1; i < argc; ++i) {
    long const t = std::strtol(argv[i], nullptr, 10);
    if (t < 1 || static_cast<std::size_t>(t) > cpus.size()) {
      std::fprintf(stderr, "rowscan_core_rate: a thread count is 1 to %zu (the CPUs it may run on), not '%s'\n",
                   cpus.size(), argv[i]);
      return 2;
    }
    counts.push_back(static_cast<unsigned>(t));
  }
  if (counts.empty()) {
    for (std::size_t t = 1; t <= cpus.size(); t *= 2) counts.push_back(static_cast<unsigned>(t));
    if (counts.back() != cpus.size()) counts.push_back(static_cast<unsigned>(cpus.size()));
  }
  std::printf("threads,chain_median_steps_per_ns,chain_slowest_steps_per_ns,chain_median_against_one_thread,"
              "wide_median_steps_per_ns,wide_slowest_steps_per_ns,wide_median_against_one_thread\n");
  double const chain_alone = rates_on({cpus[0]}, chain_rate).front();
  double const wide_alone = rates_on({cpus[0]}, wide_rate).front();
  for (unsigned t : counts) {
    std::vector<int> const used(cpus.begin(), cpus.begin() + t);
    std::vector<double> const chain = rates_on(used, chain_rate);
    std::vector<double> const wide = rates_on(used, wide_rate);
    double const chain_median = chain[chain.size() / 2];
    double const wide_median = wide[wide.size() / 2];
    std::printf("%u,%.4f,%.4f,%.3f,%.4f,%.4f,%.3f\n", t, chain_median, chain.front(), chain_median / chain_alone,
                wide_median, wide.front(), wide_median / wide_alone);
  }
  return 0;
}
