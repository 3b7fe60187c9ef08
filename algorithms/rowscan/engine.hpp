// SPDX-License-Identifier: Apache-2.0
// rowscan/engine.hpp: the compositions of one Thrust system, behind one interface (no Thrust here).
//
// The CLI and the inputs are compiled once; what needs a Thrust system (contexts, pools, the block
// compositions, the job driver) is compiled per system into an engine (rowscan/system.hpp). The cpu
// build has one engine, the host's; the CUDA build has two, the GPU's and the host's, and --devices
// chooses between them at run time (app/devices.cpp):
//
//   CLI --host_engine() / gpu_engine()--> engine --stations(inputs, options)--> stations::summary
//                                                --lineitem(inputs, options)--> lineitem::summary
//
// Both engines take the same inputs (job::input_sequence) and options and give the same answers, byte
// for byte; only where their workers run differs. Each engine runs the job driver over its inputs, with
// its own workers; several engines may run at once on threads of one process, sharing one queue of
// blocks (rowscan/inputs/hand_over.hpp, rowscan/job/shared_run.hpp).
#pragma once

#include "rowscan/group/explained.hpp"
#include "rowscan/group/summary.hpp"
#include "rowscan/job/run_report.hpp"
#include "rowscan/lineitem/explained.hpp"
#include "rowscan/lineitem/summary.hpp"
#include "rowscan/stations/explained.hpp"
#include "rowscan/stations/summary.hpp"

#include <cstdint>
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

  /// `rowscan stations` over each input in turn, with one set of workers (job::input_sequence).
  virtual stations::summary stations(job::input_sequence& inputs, stations::summarize_options const& options) const = 0;
  /// `rowscan lineitem` over each input in turn, with one set of workers.
  virtual lineitem::summary lineitem(job::input_sequence& inputs, lineitem::summarize_options const& options) const = 0;
  /// `rowscan group` over each input in turn, with one set of workers.
  virtual group::summary group(job::input_sequence& inputs, group::summarize_options const& options) const = 0;
  /// `rowscan group --explain` of a small text.
  virtual group::explained_group explain_group(std::string const& text, std::string const& label,
                                               group::summarize_options const& options) const = 0;
  /// `rowscan stations --explain` of a small text.
  virtual stations::explained_stations explain_stations(std::string const& text, std::string const& label) const = 0;
  /// `rowscan lineitem --explain` of a small text.
  virtual lineitem::explained_lineitem explain_lineitem(std::string const& text, std::string const& label,
                                                       std::vector<std::uint64_t> const& thresholds) const = 0;
};

/// The host's engine (Thrust's OpenMP or CPP system); nullptr in a CUDA build made without it
/// (ROWSCAN_HOST_SYSTEM=OFF).
engine const* host_engine();

/// The GPU's engine (Thrust's CUDA system); nullptr in a build without CUDA (the cpu preset).
engine const* gpu_engine();

}  // namespace rowscan
