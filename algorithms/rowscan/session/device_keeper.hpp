// SPDX-License-Identifier: Apache-2.0
// rowscan/session/device_keeper.hpp: what a GPU engine keeps of a session's files in its own memory (compiled
// once; the GPU engine defines it: rowscan/job/resident_device.hpp).
#pragma once

#include <cstdint>

namespace rowscan {

/// A session's cache loads each file straight into the memory of its engine's device, for the memory file it
/// makes in the file's place, and drops the copy when it lets the file go; runs of the job driver that read a
/// kept memory file fold its device copy (rowscan/job/resident_device.hpp).
struct device_keeper {
  /// Copies `bytes` of the file on `file` to the current GPU, for the runs that read the memory file on
  /// `memory`; false if there is no room. Throws rowscan::error when the file cannot be read.
  bool (*keep)(int file, int memory, std::uint64_t bytes);
  void (*drop)(int memory);
  std::uint64_t (*free_bytes)();  ///< the current GPU's free memory now
  /// true: a session starts, and the GPU's runs keep their workers' contexts for the next (a stream, and a pool
  /// holding the block-sized memory); false: it ends, and the last to end frees them.
  void (*hold_contexts)(bool hold);
};

/// The GPU engine's keeper; nullptr in a build without CUDA (the cpu preset).
device_keeper const* gpu_keeper();

}  // namespace rowscan
