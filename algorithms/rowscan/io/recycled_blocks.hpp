// SPDX-License-Identifier: Apache-2.0
// rowscan/io/recycled_blocks.hpp: the reader's blocks, kept from one input of a run for the next.
//
//   input 1's reader --allocate--> underlying memory (on a GPU: page-locked, milliseconds a block)
//                    --release---> kept
//   input 2's reader --allocate--> a kept block of the size asked for, at once
//   the run's end    -----------> every block given back to the underlying memory
//
// A list of files is one run of the job driver, but each input is read by a reader of its own. On a GPU
// every reader page-locked its ring's 64 MiB blocks and unlocked them at its end, milliseconds a block,
// so a list paid that for every file (docs/performance.md, "A list of files on a GPU";
// docs/data/gpu_file_list-h100.csv). The readers of a run mostly ask for blocks
// of one size, so the blocks one reader leaves are those the next one needs; kept blocks of another
// size go back as soon as a block of a new size is asked for, so no more are held than the rings in use.
#pragma once

#include "rowscan/io/chunked_reader.hpp"

#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

namespace rowscan::io {

class recycled_blocks {
 public:
  explicit recycled_blocks(block_memory underlying) : underlying_(std::move(underlying)) {}
  /// Gives every block back to the underlying memory: destroy the readers given memory() first.
  ~recycled_blocks();
  recycled_blocks(recycled_blocks const&) = delete;
  recycled_blocks& operator=(recycled_blocks const&) = delete;

  /// Memory whose allocate hands out a kept block of the size asked for if there is one (else it gives
  /// the kept blocks of other sizes back and makes a new one), and whose release keeps the block.
  /// Thread-safe; it refers to this object, which must outlive every reader given it.
  block_memory memory();

  /// Blocks taken from the underlying memory so far.
  std::size_t blocks_made() const;
  /// Blocks kept now, released and not handed out again.
  std::size_t blocks_kept() const;

 private:
  struct block {
    void* p;
    std::size_t bytes;
    bool kept;
  };
  void* allocate(std::size_t bytes);
  void release(void* p) noexcept;

  block_memory underlying_;
  mutable std::mutex mutex_;
  std::vector<block> blocks_;  ///< every block made; a ring holds a few, so a walk finds one
};

}  // namespace rowscan::io
