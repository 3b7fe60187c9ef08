// SPDX-License-Identifier: Apache-2.0
// The execution context (rowscan/context.hpp): its stream, and waiting for it.
#include "rowscan/context.hpp"
#include "rowscan/cuda_check.hpp"
#include "rowscan/error.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP
#include <omp.h>

#include <mutex>
#include <system_error>
#include <thread>
#include <vector>
#endif

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

#if ROWSCAN_HAS_CUB
/// A stream destroyed with the last context that shares it.
struct context::owned_stream {
  cudaStream_t stream = nullptr;
  owned_stream() { check_cuda(cudaStreamCreate(&stream), "cannot create a stream"); }
  ~owned_stream() { cudaStreamDestroy(stream); }
  owned_stream(owned_stream const&) = delete;
  owned_stream& operator=(owned_stream const&) = delete;
};

stream_handle context::stream() const { return stream_->stream; }

void context::synchronize() const { check_cuda(cudaStreamSynchronize(stream()), "the device failed"); }

void start_thread_team() {}  // CUDA's work starts no OpenMP team
#else
/// libgomp ends the process with its own message ("libgomp: Thread creation failed: ...") when the
/// system refuses one of its threads, as under a low `ulimit -v`, and no caller can catch that. So the team
/// is made here, before the first region of several threads: first as many std::threads (the same default
/// stack size), whose refusal is a std::system_error, then one empty parallel region, whose threads libgomp
/// keeps for every later region of the same size. A thread held to one (job::one_thread_scope) makes no
/// team: a run's workers are lent and fold so, and the team is made after them, for the output
/// (docs/job-driver.md, "One queue for every input"). Several threads may get here at once: the first
/// does it and the others wait; one that throws leaves the next call to try again.
void start_thread_team() {
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP
  static std::once_flag started;
  if (omp_get_max_threads() == 1) return;  // this thread's regions make no team
  std::call_once(started, [] {
    int const threads = omp_get_max_threads();
    std::vector<std::thread> trial;
    try {
      for (int i = 1; i < threads; ++i) trial.emplace_back([] {});
    } catch (std::system_error const& e) {
      for (auto& t : trial) t.join();
      throw error("cannot start " + std::to_string(threads) + " OpenMP threads (" + e.what() +
                  "); give a smaller --threads, or raise the process's limits (ulimit -v, ulimit -u)");
    }
    for (auto& t : trial) t.join();
#pragma omp parallel
    {
    }
  });
#endif
}

struct context::owned_stream {
  owned_stream() { start_thread_team(); }
};

stream_handle context::stream() const { return nullptr; }

void context::synchronize() const {}
#endif

context::context()
    : stream_(std::make_shared<owned_stream>()), pool_(std::make_shared<memory_pool>()), alloc_(pool_.get()) {}

memory_info device_memory_info() {
#if ROWSCAN_HAS_CUB
  std::size_t free_bytes = 0, total_bytes = 0;
  check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cannot query device memory");
  return {free_bytes, total_bytes};
#else
  auto const page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  memory_info m{static_cast<std::size_t>(sysconf(_SC_AVPHYS_PAGES)) * page,
                static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * page};
  // A limit on the address space (ulimit -v) is memory too: what it leaves beyond the process's
  // present size (the first number of /proc/self/statm, in pages) is all that is free.
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    auto const cap = static_cast<std::size_t>(limit.rlim_cur);
    std::size_t used_pages = 0;
    if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(statm, "%zu", &used_pages) != 1) used_pages = 0;
      std::fclose(statm);
    }
    std::size_t const used = used_pages * page;
    m.free_bytes = std::min(m.free_bytes, cap > used ? cap - used : 0);
    m.total_bytes = std::min(m.total_bytes, cap);
  }
  return m;
#endif
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan
