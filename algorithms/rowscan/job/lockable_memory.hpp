// SPDX-License-Identifier: Apache-2.0
// rowscan/job/lockable_memory.hpp: a reader's ring in plain host memory that GPUs page-lock once they are
// ready. A run of host workers that a GPU joins (run_blocks.hpp, joining_group) starts reading before the GPU has a
// context, and page-locked memory needs one; yet a GPU copies plain memory at a fraction of the link's
// rate and locked memory at the link's (docs/performance.md, "The floors"). So the ring is plain, every block of it is
// recorded, and a GPU worker locks the blocks not yet locked before each copy: a few milliseconds a run, once a block
// (compiled once).
#pragma once

#include "rowscan/io/chunked_reader.hpp"

#include <cstddef>
#include <mutex>
#include <vector>

namespace rowscan::job {

class lockable_memory {
 public:
  /// How a system locks and unlocks host memory (cudaHostRegister, portable to every GPU): lock returns
  /// false if it could not (a low `ulimit -l`), and the block is then copied from as plain memory.
  struct locker {
    bool (*lock)(void* p, std::size_t bytes);
    void (*unlock)(void* p);
  };

  lockable_memory() = default;
  lockable_memory(lockable_memory const&) = delete;
  lockable_memory& operator=(lockable_memory const&) = delete;
  ~lockable_memory();

  /// The reader's memory: operator new, each block recorded; released blocks are unlocked first.
  io::block_memory memory();

  /// Locks, with `how`, every block allocated so far and not yet tried. Thread-safe.
  void lock_new(locker how);

  /// Blocks locked now.
  std::size_t locked() const;

 private:
  struct block {
    void* p;
    std::size_t bytes;
    bool tried;   // lock_new has seen it
    bool locked;  // and locked it
  };
  void* allocate(std::size_t bytes);
  void release(void* p);

  mutable std::mutex mutex_;
  std::vector<block> blocks_;
  void (*unlock_)(void*) = nullptr;
};

}  // namespace rowscan::job
