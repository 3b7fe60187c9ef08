// SPDX-License-Identifier: Apache-2.0
// The GPUs this process sees and their contexts, through the CUDA runtime (rowscan/gpu_runtime/gpus.hpp).
#include "rowscan/gpu_runtime/gpus.hpp"

#include "rowscan/gpu_runtime/check_cuda.hpp"
#include "rowscan/job/devices.hpp"
#include "rowscan/job/timeline.hpp"

#include <algorithm>
#include <exception>
#include <thread>

namespace rowscan::gpu_runtime {
namespace {

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

}  // namespace

bool built_with_cuda() { return true; }

std::optional<std::string> gpu_unavailable(int gpu_index) {
  std::string problem;
  int const count = visible_gpus(&problem);
  if (count == 0) return problem;
  if (gpu_index >= count) {
    return "no GPU " + std::to_string(gpu_index) + " (this machine has " + std::to_string(count) + ")";
  }
  return std::nullopt;
}

int gpu_count() {
  std::string problem;
  return visible_gpus(&problem);
}

void use_gpu(int gpu_index) {
  if (gpu_index == job::default_gpu) {
    std::string problem;
    int const count = visible_gpus(&problem);
    if (count == 0) return;  // the first device call reports it
    gpu_index = job::node_local_rank() % count;
  }
  check_cuda(cudaSetDevice(gpu_index), ("cannot use GPU " + std::to_string(gpu_index)).c_str());
}

void use_device(int device) {
  if (device != no_device) check_cuda(cudaSetDevice(device), ("cannot use GPU " + std::to_string(device)).c_str());
}

int current_device() {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cannot tell the current GPU");
  return device;
}

void start_gpus(std::vector<int> const& gpus) {
  if (gpus.size() > 1) {
    start_devices(gpus);
    job::timeline_mark("every GPU's context made");
    use_device(gpus.front());  // made already: no context of a GPU outside the list
    return;
  }
  check_cuda(cudaFree(nullptr), "cannot start the GPU");  // the first runtime call that needs a context makes it
}

void start_devices(std::vector<int> const& devices) {
  std::vector<int> distinct;
  for (int const d : devices) {
    if (d != no_device && std::find(distinct.begin(), distinct.end(), d) == distinct.end()) distinct.push_back(d);
  }
  if (distinct.size() < 2) return;  // one GPU starts with its first call, as it always has
  std::vector<std::exception_ptr> failures(distinct.size());
  std::vector<std::thread> starting;
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    starting.emplace_back([&, i] {
      try {
        use_device(distinct[i]);
        check_cuda(cudaFree(nullptr), ("cannot start GPU " + std::to_string(distinct[i])).c_str());
      } catch (...) {
        failures[i] = std::current_exception();
      }
    });
  }
  for (std::thread& t : starting) t.join();
  for (std::exception_ptr const& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

}  // namespace rowscan::gpu_runtime
