// SPDX-License-Identifier: Apache-2.0
// Page-locked host memory, through the CUDA runtime (rowscan/gpu_runtime/pinned_memory.hpp).
#include "rowscan/gpu_runtime/pinned_memory.hpp"

#include "rowscan/error.hpp"
#include "rowscan/io/huge_pages.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

namespace rowscan::gpu_runtime {
namespace {

/// Page-locking is what makes pinned memory slow to get: the driver pins and maps every page. Memory
/// that asked for 2 MiB pages (transparent huge pages) has 512 times fewer of them, so rowscan
/// registers such memory and falls back to cudaHostAlloc only if that fails.
std::mutex registered_mutex;
std::unordered_map<void*, bool> registered;  ///< allocation -> came from cudaHostRegister (else cudaHostAlloc)

void* register_huge_pages(std::size_t bytes) {
  char const* mode = std::getenv("ROWSCAN_PINNED");  // "alloc": always cudaHostAlloc (for comparisons)
  if (mode != nullptr && std::string(mode) == "alloc") return nullptr;
  std::size_t const rounded = io::whole_huge_pages(bytes);
  void* p = nullptr;
  try {
    p = io::allocate_huge_pages(rounded);
  } catch (std::bad_alloc const&) {
    return nullptr;
  }
  if (cudaHostRegister(p, rounded, cudaHostRegisterDefault) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the failure: the fallback below is not an error
    std::free(p);
    return nullptr;
  }
  return p;
}

}  // namespace

void* allocate_pinned(std::size_t bytes) {
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
}

void free_pinned(void* p) noexcept {
  if (p == nullptr) return;
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
    (void)cudaHostUnregister(p);
    std::free(p);
  } else {
    (void)cudaFreeHost(p);
  }
}

io::block_memory pinned_block_memory() { return {allocate_pinned, free_pinned}; }

char const* lock_for_gpus(void* p, std::size_t bytes) {
  cudaError_t const e = cudaHostRegister(p, bytes, cudaHostRegisterPortable);
  if (e == cudaSuccess) return nullptr;
  (void)cudaGetLastError();  // not a sticky error: clear it
  return cudaGetErrorString(e);
}

void unlock_for_gpus(void* p) noexcept {
  (void)cudaHostUnregister(p);
  (void)cudaGetLastError();
}

}  // namespace rowscan::gpu_runtime
