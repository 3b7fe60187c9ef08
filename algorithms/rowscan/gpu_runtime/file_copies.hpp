// SPDX-License-Identifier: Apache-2.0
// rowscan/gpu_runtime/file_copies.hpp: a session's file copied into a GPU's memory whole, and back to a file
// (the CUDA runtime alone, compiled once: rowscan/gpu_runtime/gpus.hpp; rowscan/job/resident_device.hpp keeps
// the copies).
#pragma once

#include "rowscan/job/line_end_index.hpp"

#include <cstdint>

namespace rowscan::gpu_runtime {

/// Copies `bytes` of the file on fd, from its first byte, to `device` (the current GPU's memory) and indexes
/// its line ends into line_ends, several threads at once, each through two page-locked staging buffers of its
/// own: one is read into with pread (and indexed) while the other's copy runs. pread from the page cache into
/// pinned memory runs at 43 GB/s with 16 threads, where one cudaMemcpy from a mapping of the file is pageable:
/// about 9 GB/s (docs/data/page_cache_copy-h100.csv). Throws rowscan::error if the file cannot be read,
/// rowscan::device_error if the GPU fails.
void copy_file_to_device(int fd, char* device, std::uint64_t bytes, job::line_end_index& line_ends);

/// Writes `bytes` of GPU gpu's memory at `device` into the file on fd, from its first byte, through a pinned
/// buffer. Throws rowscan::error if the file cannot be written, rowscan::device_error if the GPU fails.
void copy_device_to_file(int gpu, char const* device, std::uint64_t bytes, int fd);

}  // namespace rowscan::gpu_runtime
