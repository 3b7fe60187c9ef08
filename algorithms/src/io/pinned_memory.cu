// SPDX-License-Identifier: Apache-2.0
#include "rowscan/io/pinned_memory.hpp"

#include "rowscan/config.hpp"
#include "rowscan/error.hpp"
#include "rowscan/io/huge_pages.hpp"

#include <cstdlib>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

namespace rowscan::io {
ROWSCAN_SYSTEM_BEGIN

#if ROWSCAN_HAS_CUB
namespace {

/// Page-locking is what makes pinned memory slow to get: the driver pins and maps every page. Memory
/// that asked for 2 MiB pages (transparent huge pages) has 512 times fewer of them, so rowscan
/// registers such memory and falls back to cudaHostAlloc only if that fails.
std::mutex registered_mutex;
std::unordered_map<void*, bool> registered;  ///< allocation -> came from cudaHostRegister (else cudaHostAlloc)

void* register_huge_pages(std::size_t bytes) {
  char const* mode = std::getenv("ROWSCAN_PINNED");  // "alloc": always cudaHostAlloc (for comparisons)
  if (mode != nullptr && std::string(mode) == "alloc") return nullptr;
  std::size_t const rounded = whole_huge_pages(bytes);
  void* p = nullptr;
  try {
    p = allocate_huge_pages(rounded);
  } catch (std::bad_alloc const&) {
    return nullptr;
  }
  if (cudaHostRegister(p, rounded, cudaHostRegisterDefault) != cudaSuccess) {
    cudaGetLastError();  // clear the failure: the fallback below is not an error
    std::free(p);
    return nullptr;
  }
  return p;
}

}  // namespace
#endif

void* allocate_pinned(std::size_t bytes) {
#if ROWSCAN_HAS_CUB
  if (void* p = register_huge_pages(bytes)) {
    std::lock_guard<std::mutex> lock(registered_mutex);
    registered[p] = true;
    return p;
  }
  void* p = nullptr;
  if (cudaError_t status = cudaHostAlloc(&p, bytes, cudaHostAllocDefault); status != cudaSuccess) {
    throw device_error("CUDA: cannot allocate " + std::to_string(bytes) + " bytes of pinned host memory: " +
                       cudaGetErrorString(status));
  }
  std::lock_guard<std::mutex> lock(registered_mutex);
  registered[p] = false;
  return p;
#else
  return ::operator new(bytes);
#endif
}

void free_pinned(void* p) noexcept {
  if (p == nullptr) return;
#if ROWSCAN_HAS_CUB
  bool was_registered = false;
  {
    std::lock_guard<std::mutex> lock(registered_mutex);
    auto const it = registered.find(p);
    if (it != registered.end()) {
      was_registered = it->second;
      registered.erase(it);
    }
  }
  if (was_registered) {
    cudaHostUnregister(p);
    std::free(p);
  } else {
    cudaFreeHost(p);
  }
#else
  ::operator delete(p);
#endif
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::io
