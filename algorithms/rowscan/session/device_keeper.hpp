// SPDX-License-Identifier: Apache-2.0
// rowscan/session/device_keeper.hpp: what a GPU engine keeps of a session's files in its own memory (compiled
// once; the GPU engine defines it: rowscan/job/resident_device.hpp).
#pragma once

#include <cstdint>

namespace rowscan {

/// A session's cache hands each memory file it loads to the keeper of its engine's device, and takes it back
/// when it lets the file go; runs of the job driver that read a kept memory file fold its device copy.
struct device_keeper {
  /// Copies the memory file on fd to the current GPU; false if there is no room (runs read the memory file).
  bool (*keep)(int fd, std::uint64_t bytes, std::uint64_t longest_line);
  void (*drop)(int fd);
  std::uint64_t (*free_bytes)();  ///< the current GPU's free memory now
  /// true: a session starts, and the GPU's runs keep their workers' contexts for the next (a stream, and a pool
  /// holding the block-sized memory); false: it ends, and the last to end frees them.
  void (*hold_contexts)(bool hold);
};

/// The GPU engine's keeper; nullptr in a build without CUDA (the cpu preset).
device_keeper const* gpu_keeper();

}  // namespace rowscan
