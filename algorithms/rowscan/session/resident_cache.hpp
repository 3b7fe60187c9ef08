// SPDX-License-Identifier: Apache-2.0
// rowscan/session/resident_cache.hpp: files' bytes kept in memory between queries, within a budget.
//
//   query -> acquire(path): identity_of(path) -> the entry of that file (device, inode), if its size and
//            times still match (a hit) -> its resident text
//                         else: evict the least recently used entries until the file fits the budget,
//                               reserve its bytes, load it (read once into a memory file) -> resident text
//         -> the engine folds the resident text in place of the file (inputs::input_source::resident_fd)
//         -> keep(): the query succeeded, its loaded texts become entries; release(): it failed, they go
//
// The cache holds data, never an answer: every query folds the bytes again, with its own options, so
// its answer, errors and skipped lines are those of the file. A file whose query fails (a bad line, an
// interrupt) is not kept. The budget counts every entry and every reservation of a load under way, so
// the cache never holds more; a text that a running query still reads after its entry was evicted is
// freed when that query ends. Thread-safe: queries may acquire at once; a load runs outside the lock.
#pragma once

#include "rowscan/session/file_identity.hpp"

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace rowscan::resident {

/// A file's bytes held in memory: a memory file (memfd) of exactly the bytes the file had when it was
/// loaded, which the reader reads as it reads the file (through a descriptor of its own).
class resident_text {
 public:
  resident_text(int fd, file_identity identity) : fd_(fd), identity_(identity) {}
  ~resident_text();
  resident_text(resident_text const&) = delete;
  resident_text& operator=(resident_text const&) = delete;

  int fd() const { return fd_; }
  std::uint64_t bytes() const { return identity_.size; }
  file_identity const& identity() const { return identity_; }
  /// Its longest line, with its '\n' (a GPU folds a copy only where the workload carries such a line).
  std::uint64_t longest_line = 0;
  /// A copy in a GPU's memory (device_keeper), freed with the text by `free_copy`.
  bool on_device = false;
  void (*free_copy)(int fd) = nullptr;

 private:
  int fd_;
  file_identity identity_;
};

/// Reads the file at `path` (whose identity was `expected`) into a new memory file, with up to `threads`
/// threads; nothing if the file is not that one any more, or changed while it was read (it is then read
/// as a file by the query). Throws rowscan::error naming `label` when it cannot be read or memory runs out.
std::shared_ptr<resident_text> load_text(std::string const& path, std::string const& label,
                                         file_identity const& expected, unsigned threads);

/// How a cache loads a file: load_text, or a test's wrapper of it (one that counts, or waits).
using loader = std::function<std::shared_ptr<resident_text>(std::string const& path, std::string const& label,
                                                            file_identity const& expected)>;

/// What the cache did so far, and holds now.
struct cache_figures {
  std::uint64_t budget_bytes = 0;
  std::uint64_t bytes = 0;  ///< held by entries, and reserved by loads under way
  std::uint64_t entries = 0;
  std::uint64_t hits = 0;    ///< files a query found resident
  std::uint64_t misses = 0;  ///< files a query did not
  std::uint64_t loads = 0;   ///< files read into memory (each miss that fit the budget)
  std::uint64_t loaded_bytes = 0;
  std::uint64_t stale = 0;      ///< entries dropped because their file changed
  std::uint64_t evictions = 0;  ///< entries dropped for room
  std::uint64_t discarded = 0;  ///< loads not kept: their query failed, or the file changed as it was read
  std::uint64_t uncached = 0;   ///< files a query read itself: larger than the budget, or not a plain file
};

class resident_cache {
 public:
  resident_cache(std::uint64_t budget_bytes, loader load);

  /// What a query holds of one file until it ends.
  struct held {
    std::shared_ptr<resident_text> text;  ///< null: the query reads the file itself
    bool loaded = false;                  ///< loaded for this query: an entry once keep() is called
  };

  /// The resident text of the plain file at `path` for a query: its entry, or a new load that fits the
  /// budget; held::text is null when the file does not fit, is not a regular file, or changed as it was read.
  held acquire(std::string const& path, std::string const& label);
  /// Whether the file at `path` is resident as it is now (its identity unchanged); counts nothing.
  bool holds(std::string const& path) const;
  /// The query that acquired `h` succeeded: a text it loaded becomes an entry (the most recently used).
  void keep(held const& h);
  /// The query failed: a text it loaded is dropped, and its reservation with it.
  void release(held const& h);

  cache_figures figures() const;
  /// Drops every entry (texts in use by a query are freed when it ends).
  void clear();

 private:
  using key = std::pair<std::uint64_t, std::uint64_t>;  // device, inode
  void evict_one();                                     // the least recently used entry; the lock is held

  std::uint64_t const budget_;
  loader load_;
  mutable std::mutex mutex_;
  std::list<std::shared_ptr<resident_text>> used_order_;  // most recently used first
  std::map<key, std::list<std::shared_ptr<resident_text>>::iterator> entries_;
  cache_figures figures_;  // bytes: entries and reservations
};

}  // namespace rowscan::resident
