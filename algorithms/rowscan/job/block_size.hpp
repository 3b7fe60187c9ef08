// SPDX-License-Identifier: Apache-2.0
// rowscan/job/block_size.hpp: how large the blocks of one input are, so that every worker has one.
//
//   an input of at least W blocks:  the run's block size
//   a smaller one:                   W blocks, one a worker (at least shared_block_floor)
//
// The driver's queue is the input's, and the next input is read only once this one's blocks are folded.
// An input of fewer blocks than workers left the other workers idle, one worker folding at a time
// (docs/performance.md, "Inputs smaller than a block a worker"; docs/data/small_files-cpu.csv).
// Compiled once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace rowscan::job {

/// The smallest block an input is cut into to give every worker one. Each block costs besides its lines
/// (the driver hands it over, the worker merges its rows into its table: up to 10,000 stations' worth).
/// Of the floors measured (1 MiB, 256 KiB, 64 KiB; docs/data/small_files-cpu.csv) 256 KiB was fastest on
/// a list of small files; the driver's one thread hands out blocks for every worker, so the smaller floor
/// is not taken.
constexpr std::size_t shared_block_floor = std::size_t{256} << 10;

/// The block size for an input of `bytes` (UINT64_MAX: a stream, whose size is not known) read by
/// `workers` workers in blocks of `block_size`: unchanged if the input has at least one block a worker,
/// else the input cut into as many blocks as there are workers, or as many as it holds floors
/// (shared_block_floor, or block_size if that is smaller) if that is fewer, each rounded up to a 4 KiB
/// page (so one block fewer at most). A share rounded up to the floor would leave a last block of what
/// is over, a block's costs for a few KiB: a list of 280 KB files on two workers was two blocks a file.
constexpr std::size_t block_size_for(std::uint64_t bytes, std::size_t block_size, std::size_t workers) {
  if (workers < 2 || bytes == UINT64_MAX || bytes / workers >= block_size) return block_size;
  std::size_t const floor = std::min(shared_block_floor, block_size);
  std::uint64_t const blocks = std::clamp<std::uint64_t>(bytes / floor, 1, workers);
  std::uint64_t const share = (bytes + blocks - 1) / blocks;
  std::uint64_t const rounded = (share + 0xFFF) / 0x1000 * 0x1000;
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(rounded, floor, block_size));
}

}  // namespace rowscan::job
