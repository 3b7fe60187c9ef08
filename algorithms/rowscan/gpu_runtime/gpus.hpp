// SPDX-License-Identifier: Apache-2.0
// rowscan/gpu_runtime/gpus.hpp: the GPUs this process sees, the one each thread uses, and their contexts.
//
// Everything under rowscan/gpu_runtime/ calls the CUDA runtime alone (no Thrust, no device code), so it is
// compiled once, by the host compiler against cudart, in the CUDA build; a build without CUDA links
// src/gpu_runtime/no_gpu_runtime.cpp instead, whose GPUs are none (docs/job-driver.md, "Engines").
// An engine's per-system code calls it only under CUDA: a host engine never loads the CUDA driver.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rowscan::gpu_runtime {

/// A worker without a GPU of its own (job::no_device).
constexpr int no_device = -1;

/// Whether this build has the CUDA runtime (false: the stub of a build without CUDA).
bool built_with_cuda();

/// Why this process cannot run on GPU gpu_index (job::default_gpu: this process's GPU) (no driver, no such
/// device, a build without CUDA), or nothing when it can. It loads the driver, not a context.
std::optional<std::string> gpu_unavailable(int gpu_index);

/// The GPUs this process sees; 0 without a driver or CUDA.
int gpu_count();

/// Makes gpu_index (job::default_gpu: GPU job::node_local_rank() % the node's GPUs) the device of every
/// later CUDA call of this process. Throws rowscan::device_error if it cannot.
void use_gpu(int gpu_index);

/// Makes `device` the calling thread's current GPU; nothing for no_device.
void use_device(int device);

/// The calling thread's current GPU.
int current_device();

/// Creates the contexts of `gpus` now (the current GPU's when empty or one; several side by side, on
/// threads of their own: start_devices), so that a job's first device calls find them made. With several,
/// the first is current after. Throws rowscan::device_error if a GPU cannot start.
void start_gpus(std::vector<int> const& gpus);

/// Creates the contexts of `devices` at once, each on a thread of its own: CUDA's start-up (hundreds of
/// milliseconds a GPU: docs/performance.md, "The floors") runs side by side instead of one GPU after
/// another. Nothing for fewer than two distinct devices.
void start_devices(std::vector<int> const& devices);

}  // namespace rowscan::gpu_runtime
