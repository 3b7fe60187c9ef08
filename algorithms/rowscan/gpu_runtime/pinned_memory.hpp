// SPDX-License-Identifier: Apache-2.0
// rowscan/gpu_runtime/pinned_memory.hpp: host memory the GPUs copy from at the bus's speed (the CUDA runtime
// alone, compiled once: rowscan/gpu_runtime/gpus.hpp).
#pragma once

#include "rowscan/io/chunked_reader.hpp"

#include <cstddef>

namespace rowscan::gpu_runtime {

/// Allocates bytes of page-locked host memory for staging input: host-to-device copies from it run at the
/// bus's speed instead of through a driver bounce buffer (plain memory in a build without CUDA).
/// Throws rowscan::device_error if it cannot.
void* allocate_pinned(std::size_t bytes);

/// Frees what allocate_pinned returned; null is ignored.
void free_pinned(void* p) noexcept;

/// allocate_pinned and free_pinned, as a reader's memory.
io::block_memory pinned_block_memory();

/// Page-locks [p, p + bytes) for every GPU (portable); nullptr when done, else the runtime's reason (a low
/// `ulimit -l`), and the memory stays plain.
char const* lock_for_gpus(void* p, std::size_t bytes);

/// Undoes lock_for_gpus.
void unlock_for_gpus(void* p) noexcept;

}  // namespace rowscan::gpu_runtime
