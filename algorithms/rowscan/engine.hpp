// SPDX-License-Identifier: Apache-2.0
// rowscan/engine.hpp: the compositions of one Thrust system, behind one interface (no Thrust here).
//
// The CLI and the inputs are compiled once; what needs a Thrust system (contexts, pools, the block
// compositions, the job driver) is compiled per system into an engine (rowscan/system.hpp). The cpu
// build has one engine, the host's; the CUDA build has two, the GPU's and the host's, and --devices
// chooses between them at run time (app/devices.cpp):
//
//   CLI --host_engine() / gpu_engine()--> engine --W::run(engine, inputs, options)--> W::partial
//
// An engine names no workload: a workload's entry (rowscan/workload.hpp) runs its job on the system of the
// engine chosen. Both engines take the same inputs (job::input_sequence) and options and give the same
// answers, byte for byte; only where their workers run differs. An engine lends a run its workers
// (rowscan/job/lent_group.hpp); the job driver, compiled once, reads the inputs into one queue, and one run
// may hold the workers of several engines (rowscan/inputs/hand_over.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rowscan {

/// One Thrust system's engine. Its member functions may be called from any thread.
class engine {
 public:
  virtual ~engine() = default;

  /// Its Thrust device system: "CUDA", "OMP" or "CPP".
  virtual char const* system_name() const = 0;
  /// Whether its worker is a GPU (its memory figures are device memory), or the host's cores.
  virtual bool on_gpu() const = 0;

  /// Why it cannot run on GPU gpu_index (job::default_gpu: this process's GPU), or nothing when it can
  /// (the host engine always can). Under CUDA it initializes the driver, not a context.
  virtual std::optional<std::string> unavailable(int gpu_index) const = 0;
  /// Makes GPU gpu_index the device of this process's later CUDA calls; nothing on the host.
  virtual void use(int gpu_index) const = 0;
  /// The GPUs this process sees (0 on the host, or without a driver).
  virtual int gpu_count() const = 0;
  /// Creates the contexts of `gpus` now (the current GPU's when empty), side by side on threads of their
  /// own (CUDA's start-up: hundreds of milliseconds a GPU, docs/performance.md "The floors"), so that the job's first
  /// device calls find them made; the first of them is current after. Nothing on the host. Throws rowscan::device_error
  /// if a GPU cannot start.
  virtual void start(std::vector<int> const& gpus) const = 0;
};

/// The host's engine (Thrust's OpenMP or CPP system); nullptr in a CUDA build made without it
/// (ROWSCAN_HOST_SYSTEM=OFF).
engine const* host_engine();

/// The GPU's engine (Thrust's CUDA system); nullptr in a build without CUDA (the cpu preset).
engine const* gpu_engine();

}  // namespace rowscan
