// SPDX-License-Identifier: Apache-2.0
// Whether a GPU can run this build's compositions (rowscan/job/devices.hpp).
#include "rowscan/config.hpp"
#include "rowscan/cuda_check.hpp"
#include "rowscan/job/devices.hpp"

#include <string>

namespace rowscan::job {

std::optional<std::string> gpu_unavailable(int gpu_index) {
#if ROWSCAN_HAS_CUB
  int count = 0;
  // The first runtime call loads the driver: a machine without one answers here, without a crash.
  if (cudaError_t const status = cudaGetDeviceCount(&count); status != cudaSuccess) {
    return std::string(cudaGetErrorString(status));
  }
  if (count == 0) return std::string("no CUDA device");
  if (gpu_index >= count) {
    return "no GPU " + std::to_string(gpu_index) + " (this machine has " + std::to_string(count) + ")";
  }
  return std::nullopt;
#else
  (void)gpu_index;
  return std::string("this rowscan was built for the ") + device_system_name() + " system only, without CUDA";
#endif
}

void use_gpu(int gpu_index) {
#if ROWSCAN_HAS_CUB
  check_cuda(cudaSetDevice(gpu_index), ("cannot use GPU " + std::to_string(gpu_index)).c_str());
#else
  (void)gpu_index;
#endif
}

}  // namespace rowscan::job
