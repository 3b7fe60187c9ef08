// SPDX-License-Identifier: Apache-2.0
// --devices and the host's share (rowscan/job/devices.hpp); the GPU's probe is src/gpu_runtime/gpus.cpp.
#include "rowscan/job/devices.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <string_view>

namespace rowscan::job {

bool gpus_relieve_host_workers() {
  char const* const how = std::getenv("ROWSCAN_HAND_OVER");
  return how == nullptr || std::string_view(how) != "keep";
}

std::optional<device_choice> parse_device_choice(std::string_view text) {
  if (text == "auto") return device_choice{device_choice::automatic, {}, false};
  if (text == "cpu") return device_choice{device_choice::cpu, {}, false};
  if (text == "gpu") return device_choice{device_choice::gpu, {}, false};
  if (text == "cpu+gpu") return device_choice{device_choice::cpu_and_gpu, {}, false};
  if (text == "gpu:all") return device_choice{device_choice::gpu, {}, true};
  constexpr std::string_view prefix = "gpu:";
  if (text.substr(0, prefix.size()) != prefix || text.size() == prefix.size()) return std::nullopt;
  device_choice choice{device_choice::gpu, {}, false};
  std::string_view rest = text.substr(prefix.size());
  for (;;) {  // N or N,M,...: whole numbers, nothing empty between the commas
    std::size_t const comma = rest.find(',');
    std::string_view const digits = rest.substr(0, comma);
    int index = 0;
    auto const [end, failure] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (digits.empty() || failure != std::errc{} || end != digits.data() + digits.size() || index < 0) return std::nullopt;
    choice.gpus.push_back(index);
    if (comma == std::string_view::npos) return choice;
    rest = rest.substr(comma + 1);
  }
}

namespace {
std::atomic<unsigned> thread_limit{0};
std::atomic<int> local_rank{0};  // set once, before any job, by the MPI start-up (src/process/ranks_mpi.cpp)
}  // namespace

unsigned host_worker_count() {
  unsigned const limit = thread_limit.load();
  if (limit != 0) return limit;
  // OpenMP's count: OMP_NUM_THREADS if it is set, else the cores this process may run on (its affinity).
  auto const threads = static_cast<unsigned>(std::max(1, omp_get_max_threads()));
  char const* const asked = std::getenv("OMP_NUM_THREADS");
  return asked != nullptr && *asked != '\0' ? threads : default_host_workers(threads);
}

void limit_host_threads(unsigned n) {
  thread_limit = n;
  if (n != 0) omp_set_num_threads(static_cast<int>(n));
}

unsigned host_thread_limit() { return thread_limit.load(); }

void set_node_local_rank(int rank) { local_rank = rank; }

int node_local_rank() { return local_rank.load(); }

}  // namespace rowscan::job
