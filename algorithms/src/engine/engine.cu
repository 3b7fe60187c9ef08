// SPDX-License-Identifier: Apache-2.0
// This system's engine (rowscan/engine.hpp): Thrust's CUDA system (gpu_engine) or a host system
// (host_engine), whichever this translation unit is compiled for.
#include "rowscan/engine.hpp"

#include "rowscan/config.hpp"
#include "rowscan/gpu_runtime/gpus.hpp"

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN
namespace {

class system_engine final : public engine {
 public:
  char const* system_name() const override {
#if ROWSCAN_HAS_CUB
    return "CUDA";
#elif THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP
    return "OMP";
#else
    return "CPP";
#endif
  }
  bool on_gpu() const override { return ROWSCAN_HAS_CUB; }

  // The GPU's side is the CUDA runtime's (compiled once); a host engine has no GPU and never loads the driver.
  std::optional<std::string> unavailable(int gpu_index) const override {
    if (!ROWSCAN_HAS_CUB) return std::nullopt;
    return gpu_runtime::gpu_unavailable(gpu_index);
  }
  void use(int gpu_index) const override {
    if (ROWSCAN_HAS_CUB) gpu_runtime::use_gpu(gpu_index);
  }
  int gpu_count() const override { return ROWSCAN_HAS_CUB ? gpu_runtime::gpu_count() : 0; }
  void start(std::vector<int> const& gpus) const override {
    if (ROWSCAN_HAS_CUB) gpu_runtime::start_gpus(gpus);
  }
};

}  // namespace

/// This system's engine: one for the whole process (its globals, such as its memory resource, are its own).
engine const& this_system_engine() {
  static system_engine const instance;
  return instance;
}

ROWSCAN_SYSTEM_END

#if ROWSCAN_HAS_CUB
engine const* gpu_engine() { return &this_system_engine(); }
#else
engine const* host_engine() { return &this_system_engine(); }
#endif

}  // namespace rowscan
