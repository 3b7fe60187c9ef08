// SPDX-License-Identifier: Apache-2.0
// rowscan/io/mapped_windows.hpp: a file's blocks read where the page cache holds them, one mapped window
// a block, each unmapped when its block comes back.
//
//   file --mmap(window of block k)--> view: the block's bytes in the page cache, no copy
//        --release(k) on the worker that folded it--> munmap, so no more than the lent blocks stay mapped
//
// A host worker folds a block where it lies, so a copy of the file into the reader's blocks is a pass
// over the text that only moves it. 16 host workers on the H100 machine, 1e9 rows: 1.52 s mapped
// against 1.98 s copied (413 stations), 2.57 against 3.22 s (10,000); 32 cores 1.09 against 1.36 s
// (docs/data/host_engine_mapped-h100.csv, -h100x2.csv). The whole file mapped at once was slower at 32
// cores: unmapping 13.8 GB at the end took 0.1 s. A window is mapped with the bytes the fold may read past its
// end (the workload's padding); near the file's end, where the file has no such bytes, or where the
// system refuses the mapping (a file system that cannot map, a low `ulimit -v`), the view is a copy. A file that shrinks is found before each window is mapped (the reader's error); one that
// shrinks while a mapped block is folded raises SIGBUS, which ends the process with one error line
// naming the file and exit code 1, never a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace rowscan::io {

class mapped_windows {
 public:
  /// Windows of the regular file fd, which had file_size bytes when reading started. label names it in
  /// errors.
  mapped_windows(int fd, std::string label, std::uint64_t file_size);
  ~mapped_windows();  ///< unmaps every window left
  mapped_windows(mapped_windows const&) = delete;
  mapped_windows& operator=(mapped_windows const&) = delete;

  /// Bytes [offset, offset + size) of the file (offset from its start), followed by `padding` readable
  /// bytes: the file's own where it has them and the system maps them, else a copy's. Valid until release(block). Throws
  /// rowscan::error naming the file if it now has fewer than offset + size bytes, or if mapping or
  /// reading fails.
  char const* view(std::uint64_t block, std::uint64_t offset, std::size_t size, std::size_t padding);

  /// Ends block's view (nothing if it has none). Thread-safe: workers give their blocks back.
  void release(std::uint64_t block);

 private:
  struct window {
    void* mapping = nullptr;  ///< the mmap'ed pages, or null for a copy
    std::size_t mapped_bytes = 0;
    std::vector<char> copy;   ///< a view near the file's end
  };

  int fd_;
  std::string label_;
  std::uint64_t file_size_;
  std::mutex mutex_;
  std::map<std::uint64_t, window> windows_;  ///< by block
  std::unique_ptr<char[]> shrink_message_;   ///< what SIGBUS prints while these windows live
};

}  // namespace rowscan::io
