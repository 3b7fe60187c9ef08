// SPDX-License-Identifier: Apache-2.0
// rowscan/job/gpu.hpp: the GPU a job runs on, for each system's engine (rowscan/engine.hpp); under a
// host system there is none, and these say so or do nothing.
#pragma once

#include "rowscan/system.hpp"

#include <optional>
#include <string>
#include <vector>

namespace rowscan::job {
ROWSCAN_SYSTEM_BEGIN

/// Why this process cannot run on GPU gpu_index (or default_gpu) (no driver, no such device, a system
/// without CUDA), or nothing when it can. Under CUDA it initializes the driver (not a context).
std::optional<std::string> gpu_unavailable(int gpu_index);

/// Makes gpu_index (default_gpu: GPU node_local_rank() % the node's GPUs) the device of every later
/// CUDA call of this process (under CUDA; nothing otherwise).
void use_gpu(int gpu_index);

/// The GPUs this process sees; 0 without CUDA or a driver.
int gpu_count();

/// Creates the contexts of `gpus` now (the current GPU's when empty; several side by side, on threads
/// of their own: job::start_devices), so that the job's first device calls find them made; called on
/// the thread that runs the GPU's job while host workers fold. With several, the first is current after.
/// Nothing without CUDA. Throws rowscan::device_error if a GPU cannot start.
void start_gpus(std::vector<int> const& gpus);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
