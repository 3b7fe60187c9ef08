#include "rowscan/io/pinned_memory.hpp"

#include "rowscan/config.hpp"
#include "rowscan/error.hpp"

#include <new>
#include <string>

namespace rowscan::io {

void* allocate_pinned(std::size_t bytes) {
#if ROWSCAN_HAS_CUB
  void* p = nullptr;
  if (cudaError_t status = cudaHostAlloc(&p, bytes, cudaHostAllocDefault); status != cudaSuccess) {
    throw device_error("CUDA: cannot allocate " + std::to_string(bytes) + " bytes of pinned host memory: " +
                       cudaGetErrorString(status));
  }
  return p;
#else
  return ::operator new(bytes);
#endif
}

void free_pinned(void* p) noexcept {
  if (p == nullptr) return;
#if ROWSCAN_HAS_CUB
  cudaFreeHost(p);
#else
  ::operator delete(p);
#endif
}

}  // namespace rowscan::io
