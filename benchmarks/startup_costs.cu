// SPDX-License-Identifier: Apache-2.0
// benchmarks/startup_costs.cu: the fixed costs a whole-process run pays before and around its
// streaming, each timed on its own (steady_clock, one line each): the CUDA context, pinned memory,
// the first launch of a library algorithm, and the ways text can reach pinned memory.
//
//   rowscan_startup_costs context            # first CUDA call, pinned allocations, first launch
//   rowscan_startup_costs overlap FILE       # pread by 16 threads while the context is created
//   rowscan_startup_costs mmap FILE          # register a file's page cache in windows, copy from it
//
// Not a Google Benchmark: most of these costs happen once per process, so each mode is one process.
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

void report(char const* what, double seconds, double bytes = 0) {
  if (bytes > 0) {
    std::printf("%-48s %9.3f ms  %7.2f GB/s\n", what, seconds * 1e3, bytes / seconds / 1e9);
  } else {
    std::printf("%-48s %9.3f ms\n", what, seconds * 1e3);
  }
  std::fflush(stdout);
}

void check(cudaError_t status, char const* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

constexpr std::size_t mib = std::size_t{1} << 20;

void* huge_page_memory(std::size_t bytes, bool touch) {
  void* p = nullptr;
  if (::posix_memalign(&p, 2 * mib, bytes) != 0) std::exit(1);
  ::madvise(p, bytes, MADV_HUGEPAGE);
  if (touch) std::memset(p, 0, bytes);
  return p;
}

int context_mode() {
  auto t = clock_type::now();
  check(cudaFree(nullptr), "cudaFree(0)");
  report("context: first CUDA call (cudaFree(0))", since(t));
  t = clock_type::now();
  std::size_t free_bytes = 0, total = 0;
  check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
  report("context: cudaMemGetInfo", since(t));

  std::size_t const block = 64 * mib;
  t = clock_type::now();
  void* alloc = nullptr;
  check(cudaHostAlloc(&alloc, block, cudaHostAllocDefault), "cudaHostAlloc");
  report("pinned: cudaHostAlloc 64 MiB", since(t));
  t = clock_type::now();
  void* touched = huge_page_memory(block, true);
  report("pinned: posix_memalign + huge pages + touch 64 MiB", since(t));
  t = clock_type::now();
  check(cudaHostRegister(touched, block, cudaHostRegisterDefault), "cudaHostRegister");
  report("pinned: cudaHostRegister of touched 64 MiB", since(t));
  void* untouched = huge_page_memory(block, false);
  t = clock_type::now();
  check(cudaHostRegister(untouched, block, cudaHostRegisterDefault), "cudaHostRegister");
  report("pinned: cudaHostRegister of untouched 64 MiB", since(t));
  void* big = huge_page_memory(16 * block, true);
  t = clock_type::now();
  check(cudaHostRegister(big, 16 * block, cudaHostRegisterDefault), "cudaHostRegister");
  report("pinned: cudaHostRegister of touched 1 GiB", since(t), 16.0 * block);

  thrust::device_vector<int> v(1 << 20, 1);
  t = clock_type::now();
  int const first = thrust::reduce(v.begin(), v.end());
  report("launch: first thrust::reduce (module load)", since(t));
  t = clock_type::now();
  int const second = thrust::reduce(v.begin(), v.end());
  report("launch: second thrust::reduce", since(t));

  // Device memory the runtime takes for itself: the context, and local memory for the kernels'
  // stacks, reserved for every thread the GPU can hold when a kernel that needs it first runs.
  auto used_mib = [] {
    std::size_t f = 0, total_bytes = 0;
    cudaMemGetInfo(&f, &total_bytes);
    return static_cast<double>(total_bytes - f) / mib;
  };
  std::size_t stack = 0;
  cudaDeviceGetLimit(&stack, cudaLimitStackSize);
  std::printf("memory: stack limit per thread %zu bytes; device memory in use now %.1f MiB\n", stack, used_mib());
  thrust::device_vector<unsigned long long> keys(1 << 20);
  thrust::device_vector<unsigned> values(1 << 20);
  double const before_sort = used_mib();
  thrust::sort_by_key(keys.begin(), keys.end(), values.begin());
  cudaDeviceSynchronize();
  std::printf("memory: thrust::sort_by_key of 1M pairs left %.1f MiB more in use\n", used_mib() - before_sort);
  t = clock_type::now();
  check(cudaHostUnregister(big), "cudaHostUnregister");
  report("pinned: cudaHostUnregister 1 GiB", since(t), 16.0 * block);
  return first == second ? 0 : 1;
}

/// Reads the whole file with `threads` preads of 4 MiB slices into a ring of 8 pageable 64 MiB blocks.
double pread_file(int fd, std::size_t size, unsigned threads, std::vector<char*> const& ring) {
  std::atomic<std::size_t> next{0};
  std::size_t const slice = 4 * mib, block = 64 * mib;
  auto const t = clock_type::now();
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < threads; ++w) {
    workers.emplace_back([&] {
      for (;;) {
        std::size_t const offset = next.fetch_add(slice);
        if (offset >= size) return;
        char* out = ring[(offset / block) % ring.size()] + offset % block;
        std::size_t const n = std::min(slice, size - offset);
        if (::pread(fd, out, n, static_cast<off_t>(offset)) < 0) std::exit(1);
      }
    });
  }
  for (auto& w : workers) w.join();
  return since(t);
}

int overlap_mode(char const* path) {
  int const fd = ::open(path, O_RDONLY);
  struct stat st{};
  if (fd < 0 || ::fstat(fd, &st) != 0) return 1;
  auto const size = static_cast<std::size_t>(st.st_size);
  std::vector<char*> ring;
  for (int i = 0; i < 8; ++i) ring.push_back(static_cast<char*>(huge_page_memory(64 * mib, true)));
  // The context is created by another thread while 16 threads read.
  double context_seconds = 0;
  std::thread init([&] {
    auto const t = clock_type::now();
    check(cudaFree(nullptr), "cudaFree(0)");
    context_seconds = since(t);
  });
  double const during = pread_file(fd, size, 16, ring);
  init.join();
  report("overlap: context created meanwhile", context_seconds);
  report("overlap: pread 16 threads while the context is created", during, static_cast<double>(size));
  report("overlap: pread 16 threads, context already there", pread_file(fd, size, 16, ring), static_cast<double>(size));
  report("overlap: pread 8 threads", pread_file(fd, size, 8, ring), static_cast<double>(size));
  // The same ring, registered: is the pread into pinned memory as fast?
  auto t = clock_type::now();
  for (char* b : ring) check(cudaHostRegister(b, 64 * mib, cudaHostRegisterDefault), "cudaHostRegister");
  report("overlap: register the 8 x 64 MiB ring afterwards", since(t), 8.0 * 64 * mib);
  report("overlap: pread 16 threads into the registered ring", pread_file(fd, size, 16, ring), static_cast<double>(size));
  return 0;
}

int mmap_mode(char const* path) {
  check(cudaFree(nullptr), "cudaFree(0)");
  int const fd = ::open(path, O_RDONLY);
  struct stat st{};
  if (fd < 0 || ::fstat(fd, &st) != 0) return 1;
  auto const size = static_cast<std::size_t>(st.st_size);
  auto* base = static_cast<char*>(::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0));
  if (base == MAP_FAILED) return 1;
  for (std::size_t window : {64 * mib, 256 * mib}) {
    std::size_t const windows = std::min<std::size_t>(size / window, 16);
    if (windows == 0) continue;
    char* device = nullptr;
    check(cudaMalloc(&device, window), "cudaMalloc");
    double reg = 0, copy = 0, unreg = 0;
    for (std::size_t w = 0; w < windows; ++w) {
      char* p = base + w * window;
      auto t = clock_type::now();
      cudaError_t const status = cudaHostRegister(p, window, cudaHostRegisterReadOnly);
      if (status != cudaSuccess) {
        std::printf("mmap: cudaHostRegister(ReadOnly) of a file mapping failed: %s\n", cudaGetErrorString(status));
        return 0;
      }
      reg += since(t);
      t = clock_type::now();
      check(cudaMemcpy(device, p, window, cudaMemcpyHostToDevice), "cudaMemcpy");
      copy += since(t);
      t = clock_type::now();
      check(cudaHostUnregister(p), "cudaHostUnregister");
      unreg += since(t);
    }
    double const bytes = static_cast<double>(windows * window);
    std::string const label = std::to_string(window / mib) + " MiB windows";
    report(("mmap: register " + label).c_str(), reg, bytes);
    report(("mmap: copy to device from " + label).c_str(), copy, bytes);
    report(("mmap: unregister " + label).c_str(), unreg, bytes);
    cudaFree(device);
  }
  // Registering from several threads at once: does the driver serialize it?
  std::size_t const window = 64 * mib;
  std::size_t const windows = std::min<std::size_t>(size / window, 64);
  std::atomic<std::size_t> next{0};
  auto const t = clock_type::now();
  std::vector<std::thread> workers;
  for (int i = 0; i < 8; ++i) {
    workers.emplace_back([&] {
      for (std::size_t w; (w = next++) < windows;) check(cudaHostRegister(base + w * window, window, cudaHostRegisterReadOnly), "register");
    });
  }
  for (auto& w : workers) w.join();
  report("mmap: register 64 MiB windows from 8 threads", since(t), static_cast<double>(windows * window));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string const mode = argc > 1 ? argv[1] : "context";
  if (mode == "context") return context_mode();
  if (mode == "overlap" && argc > 2) return overlap_mode(argv[2]);
  if (mode == "mmap" && argc > 2) return mmap_mode(argv[2]);
  std::fprintf(stderr, "usage: rowscan_startup_costs context | overlap FILE | mmap FILE\n");
  return 2;
}
