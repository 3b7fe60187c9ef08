// SPDX-License-Identifier: Apache-2.0
#include "rowscan/context.hpp"
#include "rowscan/error.hpp"

#include <string>
#include <unistd.h>

namespace rowscan {

void context::synchronize() const {
#if ROWSCAN_HAS_CUB
  // The stream of every composition; copies on their own streams (text_uploader) are not waited for.
  if (cudaError_t status = cudaStreamSynchronize(cudaStreamLegacy); status != cudaSuccess) {
    throw device_error(std::string("CUDA: ") + cudaGetErrorString(status));
  }
#endif
}

memory_info device_memory_info() {
#if ROWSCAN_HAS_CUB
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaError_t status = cudaMemGetInfo(&free_bytes, &total_bytes); status != cudaSuccess) {
    throw device_error(std::string("CUDA: cannot query device memory: ") + cudaGetErrorString(status));
  }
  return {free_bytes, total_bytes};
#else
  auto const page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return {static_cast<std::size_t>(sysconf(_SC_AVPHYS_PAGES)) * page,
          static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * page};
#endif
}

}  // namespace rowscan
