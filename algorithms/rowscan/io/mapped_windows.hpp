// SPDX-License-Identifier: Apache-2.0
// rowscan/io/mapped_windows.hpp: a file's blocks read where the page cache holds them, through mapped
// windows of several consecutive blocks, each unmapped once every block of it has come back.
//
//   file --mmap(window w: blocks [w m, (w + 1) m), the carried line before them, the padding after)-->
//        view(block k): the block's bytes inside its window, no copy
//        --release(k) on the worker that folded it--> the window's last block back, and the reader past it: munmap
//
// A host worker folds a block where it lies, so a copy of the file into the reader's blocks is a pass
// over the text that only moves it, on the workers' own cores (docs/performance.md, "The host engine";
// docs/data/host_engine_mapped-*.csv). A window of m blocks makes m times fewer mmap and munmap calls:
// each takes the process's address-space lock, which every worker's page fault takes too, and each
// munmap makes every core that runs the process drop the window's translations, so with a window a
// block the driver's thread spent much of a run in the reader (docs/data/host_windows-h100x2.csv). The
// whole file mapped at once is not faster and keeps every page it touched resident to the end
// (docs/data/host_dropped_32cores-h100x2.csv). Here a window goes once its blocks are back and the
// reader has passed it, so at most the lent blocks' windows and the one being read are mapped.
//
// The padding after the file's last block is zero pages mapped after the file's last page, so the last
// block is a view too: a list of files would otherwise copy one block a file. A view that does not fit
// its window (a carried line longer than the window's lead), or where the system refuses the mapping (a
// file system that cannot map, a low `ulimit -v`), is a copy. A file that shrinks is found before each view
// (the reader's error); one that shrinks while a mapped block is folded raises SIGBUS, which ends the
// process with one error line naming the file and exit code 1, never a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace rowscan::io {

/// Where the blocks lie, for the windows: block k is the file's bytes [first_byte + k block_size, ...)
/// and its view may start up to `lead` bytes before that (the line carried into it) and read `padding`
/// bytes past its end.
struct window_layout {
  std::uint64_t first_byte = 0;
  std::size_t block_size = std::size_t{1} << 20;
  std::size_t blocks_per_window = 1;
  std::size_t lead = 0;
  std::size_t padding = 0;
};

class mapped_windows {
 public:
  /// Windows of the regular file fd, which had file_size bytes when reading started. label names it in
  /// errors. Blocks are viewed in increasing order (each at most once); they come back in any order.
  mapped_windows(int fd, std::string label, std::uint64_t file_size, window_layout const& layout);
  ~mapped_windows();  ///< unmaps every window left
  mapped_windows(mapped_windows const&) = delete;
  mapped_windows& operator=(mapped_windows const&) = delete;

  /// Bytes [offset, offset + size) of the file (offset from its start), block's view, followed by the
  /// layout's padding in readable bytes: the file's own where it has them and the system maps them, else
  /// a copy's. Valid until release(block). Throws rowscan::error naming the file if it now has fewer than
  /// offset + size bytes, or if mapping or reading fails.
  char const* view(std::uint64_t block, std::uint64_t offset, std::size_t size);

  /// Ends block's view (nothing if it has none). Thread-safe: workers give their blocks back.
  void release(std::uint64_t block);

  /// Windows mapped so far, and those mapped now (for tests: views share them, and they go).
  std::size_t windows_mapped() const;
  std::size_t windows_held() const;
  /// Views made so far that are copies, no window holding them (for tests).
  std::size_t copies_made() const;

 private:
  struct window {
    void* mapping = nullptr;     ///< the mmap'ed pages, or null where the system refused them
    std::size_t mapped_bytes = 0;
    std::uint64_t start = 0;     ///< the file offset of mapping[0]
    std::size_t views = 0;       ///< blocks viewed in it and not yet back
    bool passed = false;         ///< the reader has viewed a block of a later window: no more views come
  };
  struct one_view {
    bool in_window = false;      ///< a view inside windows_[window]; else the copy
    std::uint64_t window = 0;
    std::vector<char> copy;      ///< a view that no window holds
  };
  struct unmapping {
    void* mapping = nullptr;
    std::size_t bytes = 0;
  };

  window map_window(std::uint64_t w, std::uint64_t file_size_now) const;
  /// Takes out window w if it is done (passed, every view back); mutex_ held.
  std::optional<unmapping> take_if_done(std::uint64_t w);

  int fd_;
  std::string label_;
  std::uint64_t file_size_;
  window_layout layout_;
  mutable std::mutex mutex_;
  std::map<std::uint64_t, window> windows_;  ///< by window number
  std::map<std::uint64_t, one_view> views_;  ///< by block
  std::size_t windows_mapped_ = 0;
  std::size_t copies_made_ = 0;
  std::unique_ptr<char[]> shrink_message_;   ///< what SIGBUS prints while these windows live
};

}  // namespace rowscan::io
