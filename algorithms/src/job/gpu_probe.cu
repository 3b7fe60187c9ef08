// SPDX-License-Identifier: Apache-2.0
// Whether a GPU can run this system's compositions, and which one is this process's (rowscan/job/gpu.hpp).
#include "rowscan/config.hpp"
#include "rowscan/cuda_check.hpp"
#include "rowscan/job/devices.hpp"
#include "rowscan/job/driver.hpp"
#include "rowscan/job/gpu.hpp"
#include "rowscan/job/timeline.hpp"

#include <string>

namespace rowscan::job {
ROWSCAN_SYSTEM_BEGIN
namespace {


#if ROWSCAN_HAS_CUB
/// The GPUs this process sees, or why it sees none. The first runtime call loads the driver: a
/// machine without one answers here, without a crash.
int visible_gpus(std::string* problem) {
  int count = 0;
  if (cudaError_t const status = cudaGetDeviceCount(&count); status != cudaSuccess) {
    *problem = cudaGetErrorString(status);
    return 0;
  }
  if (count == 0) *problem = "no CUDA device";
  return count;
}
#endif

}  // namespace

std::optional<std::string> gpu_unavailable(int gpu_index) {
#if ROWSCAN_HAS_CUB
  std::string problem;
  int const count = visible_gpus(&problem);
  if (count == 0) return problem;
  if (gpu_index >= count) {
    return "no GPU " + std::to_string(gpu_index) + " (this machine has " + std::to_string(count) + ")";
  }
  return std::nullopt;
#else
  (void)gpu_index;
  return std::string("the ") + device_system_name() + " system has no GPU";
#endif
}

void use_gpu(int gpu_index) {
#if ROWSCAN_HAS_CUB
  if (gpu_index == default_gpu) {
    std::string problem;
    int const count = visible_gpus(&problem);
    if (count == 0) return;  // the first device call reports it
    gpu_index = node_local_rank() % count;
  }
  check_cuda(cudaSetDevice(gpu_index), ("cannot use GPU " + std::to_string(gpu_index)).c_str());
#else
  (void)gpu_index;
#endif
}

int gpu_count() {
#if ROWSCAN_HAS_CUB
  std::string problem;
  return visible_gpus(&problem);
#else
  return 0;
#endif
}

void start_gpus(std::vector<int> const& gpus) {
#if ROWSCAN_HAS_CUB
  if (gpus.size() > 1) {
    start_devices(gpus);
    timeline_mark("every GPU's context made");
    use_device(gpus.front());  // made already: no context of a GPU outside the list
    return;
  }
  check_cuda(cudaFree(nullptr), "cannot start the GPU");  // the first runtime call that needs a context makes it
#else
  (void)gpus;
#endif
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
