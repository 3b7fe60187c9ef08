// SPDX-License-Identifier: Apache-2.0
// A file's bytes to a GPU's memory and back, through the CUDA runtime (rowscan/gpu_runtime/file_copies.hpp).
#include "rowscan/gpu_runtime/file_copies.hpp"

#include "rowscan/error.hpp"
#include "rowscan/gpu_runtime/check_cuda.hpp"
#include "rowscan/gpu_runtime/pinned_memory.hpp"
#include "rowscan/io/read_at.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace rowscan::gpu_runtime {

void copy_file_to_device(int fd, char* device, std::uint64_t bytes, job::line_end_index& line_ends) {
  // 4 MiB: a thread's two buffers are 8 MiB of pinned memory, which is slow to allocate; a multiple of the
  // index's stretch.
  constexpr std::size_t piece = std::size_t{4} << 20;
  static_assert(piece % job::line_end_index::stretch == 0);
  std::uint64_t const pieces = (bytes + piece - 1) / piece;
  unsigned const threads =
      static_cast<unsigned>(std::min<std::uint64_t>(pieces, std::clamp(std::thread::hardware_concurrency(), 1u, 16u)));
  int gpu = 0;
  check_cuda(cudaGetDevice(&gpu), "cannot tell the current GPU");
  std::vector<std::exception_ptr> failures(threads);
  // Thread t copies pieces t, t + threads, ...: the stripes interleave, so every thread ends at about once.
  auto copy_stripe = [&](unsigned t) {
    struct staging {  // a thread's stream, buffers and events, freed however the thread ends
      cudaStream_t stream = nullptr;
      std::array<void*, 2> buffer{};
      std::array<cudaEvent_t, 2> copied{};
      ~staging() {
        if (stream != nullptr) (void)cudaStreamSynchronize(stream);
        for (void* b : buffer) free_pinned(b);
        for (cudaEvent_t e : copied) {
          if (e != nullptr) (void)cudaEventDestroy(e);
        }
        if (stream != nullptr) (void)cudaStreamDestroy(stream);
        (void)cudaGetLastError();
      }
    };
    try {
      check_cuda(cudaSetDevice(gpu), "cannot use the GPU of a session's file");
      staging s;
      check_cuda(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), "cannot make a copy stream");
      for (int b = 0; b < 2; ++b) {
        s.buffer[b] = allocate_pinned(piece);
        check_cuda(cudaEventCreateWithFlags(&s.copied[b], cudaEventDisableTiming), "cannot make a copy event");
      }
      int turn = 0;
      for (std::uint64_t i = t; i < pieces; i += threads, turn ^= 1) {
        std::uint64_t const begin = i * piece;
        std::size_t const n = static_cast<std::size_t>(std::min<std::uint64_t>(piece, bytes - begin));
        check_cuda(cudaEventSynchronize(s.copied[turn]), "cannot copy a file to the GPU");  // its last copy is done
        char* const to = static_cast<char*>(s.buffer[turn]);
        io::read_at(fd, to, n, begin, "a file kept on the GPU", bytes);
        check_cuda(cudaMemcpyAsync(device + begin, to, n, cudaMemcpyHostToDevice, s.stream), "cannot copy a file to the GPU");
        check_cuda(cudaEventRecord(s.copied[turn], s.stream), "cannot copy a file to the GPU");
        line_ends.index(to, n, begin);  // while the copy runs
      }
      check_cuda(cudaStreamSynchronize(s.stream), "cannot copy a file to the GPU");
    } catch (...) {
      failures[t] = std::current_exception();
    }
  };
  std::vector<std::thread> copying;
  for (unsigned t = 1; t < threads; ++t) copying.emplace_back(copy_stripe, t);
  copy_stripe(0);
  for (std::thread& c : copying) c.join();
  for (std::exception_ptr const& f : failures) {
    if (f) std::rethrow_exception(f);
  }
}

void copy_device_to_file(int gpu, char const* device, std::uint64_t bytes, int fd) {
  constexpr std::size_t piece = std::size_t{32} << 20;
  struct pinned {
    void* p = allocate_pinned(piece);
    ~pinned() { free_pinned(p); }
  } buffer;
  check_cuda(cudaSetDevice(gpu), "cannot use the GPU of a session's file");
  for (std::uint64_t at = 0; at < bytes; at += piece) {
    std::size_t const n = static_cast<std::size_t>(std::min<std::uint64_t>(piece, bytes - at));
    check_cuda(cudaMemcpy(buffer.p, device + at, n, cudaMemcpyDeviceToHost), "cannot copy a file from the GPU");
    for (std::size_t written = 0; written < n;) {
      ssize_t const put = ::pwrite(fd, static_cast<char const*>(buffer.p) + written, n - written,
                                   static_cast<off_t>(at + written));
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) throw error("cannot write a session's memory file: " + std::string(std::strerror(errno)));
      written += static_cast<std::size_t>(put);
    }
  }
}

}  // namespace rowscan::gpu_runtime
