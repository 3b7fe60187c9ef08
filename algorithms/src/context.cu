// The execution context (rowscan/context.hpp): its stream, and waiting for it.
#include "rowscan/context.hpp"
#include "rowscan/cuda_check.hpp"

#include <string>
#include <unistd.h>

namespace rowscan {

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
#else
struct context::owned_stream {};

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
  return {static_cast<std::size_t>(sysconf(_SC_AVPHYS_PAGES)) * page,
          static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * page};
#endif
}

}  // namespace rowscan
