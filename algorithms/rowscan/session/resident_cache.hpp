// SPDX-License-Identifier: Apache-2.0
// rowscan/session/resident_cache.hpp: what a session keeps of its files between queries, within one budget:
// a file's bytes (resident_text), or the columns a workload parsed from it (rowscan/session/kept_columns.hpp).
//
//   query -> acquire(path): identity_of(path) -> the entry of that file (device, inode), if its size and
//            times still match (a hit) -> its resident text
//                         else: evict the least recently used entries until the file fits the budget,
//                               reserve its bytes, load it (read once into a memory file; on a GPU into
//                               device memory: load_to_device) -> resident text
//         -> the engine folds the resident text in place of the file (inputs::input_source::resident_fd)
//         -> keep(): the query succeeded, its loaded texts become entries; release(): it failed, they go
//
// The cache holds data, never an answer: every query folds the bytes again, with its own options, so
// its answer, errors and skipped lines are those of the file. A file whose query fails (a bad line, an
// interrupt) is not kept. Columns are made by the query that reads the file (reserve -> the query -> keep
// or unreserve), and their entry sits beside the file's text entry, if any, under one budget and one
// least-recently-used order. The budget counts every entry and every reservation of a load under way, so
// the cache never holds more; a text that a running query still reads after its entry was evicted is
// freed when that query ends. Thread-safe: queries may acquire at once; a load runs outside the lock.
#pragma once

#include "rowscan/session/device_keeper.hpp"
#include "rowscan/session/file_identity.hpp"

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace rowscan::resident {

/// What an entry holds of its file.
enum class entry_kind : std::uint8_t {
  text,              ///< its bytes (resident_text)
  lineitem_columns,  ///< lineitem's parsed columns (kept_columns.hpp)
};

/// Something kept of one file as it was when it was read: counted in the budget by bytes().
class resident_entry {
 public:
  resident_entry(entry_kind kind, file_identity identity, std::uint64_t bytes)
      : kind_(kind), identity_(identity), bytes_(bytes) {}
  virtual ~resident_entry() = default;
  resident_entry(resident_entry const&) = delete;
  resident_entry& operator=(resident_entry const&) = delete;

  entry_kind kind() const { return kind_; }
  file_identity const& identity() const { return identity_; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  entry_kind kind_;
  file_identity identity_;
  std::uint64_t bytes_;
};

/// A file's bytes held in memory: a memory file (memfd) of exactly the bytes the file had when it was
/// loaded, which the reader reads as it reads the file (through a descriptor of its own); on a GPU, a copy
/// in device memory instead, and a memory file that holds only the first bytes until a run reads it.
class resident_text final : public resident_entry {
 public:
  resident_text(int fd, file_identity identity) : resident_entry(entry_kind::text, identity, identity.size), fd_(fd) {}
  ~resident_text() override;

  int fd() const { return fd_; }
  /// A copy in a GPU's memory (device_keeper), freed with the text by `free_copy`.
  bool on_device = false;
  void (*free_copy)(int fd) = nullptr;

 private:
  int fd_;
};

/// Reads the file at `path` (whose identity was `expected`) into a new memory file, with up to `threads`
/// threads; nothing if the file is not that one any more, or changed while it was read (it is then read
/// as a file by the query). Throws rowscan::error naming `label` when it cannot be read or memory runs out.
std::shared_ptr<resident_text> load_text(std::string const& path, std::string const& label,
                                         file_identity const& expected, unsigned threads);

/// Reads the file at `path` (whose identity was `expected`) straight into the memory of the GPU of `keeper`
/// (device_keeper::keep), for a memory file of its size that holds only its first `head_bytes` (what opening
/// a file reads: a byte order mark); its runs fold the copy (rowscan/job/resident_device.hpp). The host's
/// memory file would be filled at about 2.5 GB/s, slower than the copy to the GPU and the fold together
/// (docs/python.md, "The cache"). Nothing if the GPU has no room, or the file is not that one any more or
/// changed while it was read.
std::shared_ptr<resident_text> load_to_device(std::string const& path, std::string const& label,
                                              file_identity const& expected, device_keeper const& keeper);
constexpr std::uint64_t head_bytes = 64 << 10;

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
  std::uint64_t loads = 0;   ///< entries made: files read into memory, or parsed into columns kept
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
  /// Whether an entry of `kind` holds the file at `path` as it is now (its identity unchanged); counts nothing.
  bool holds(std::string const& path, entry_kind kind = entry_kind::text) const;
  /// The query that acquired `h` succeeded: a text it loaded becomes an entry (the most recently used).
  void keep(held const& h);
  /// The query failed: a text it loaded is dropped, and its reservation with it.
  void release(held const& h);

  /// The entry of `kind` for the file at `path` as it is now (its identity unchanged), made the most recently
  /// used, and counted as a hit; null (a miss) when there is none, and an entry of an older version of the
  /// file is dropped. `id` receives the file's identity (nothing if it is not a regular file).
  std::shared_ptr<resident_entry> find(entry_kind kind, std::string const& path, std::optional<file_identity>& id);
  /// Room for an entry of at most `bytes` that a query is about to make: the least recently used entries
  /// go until it fits. False, and nothing reserved, when it cannot (the query then keeps nothing).
  bool reserve(std::uint64_t bytes);
  /// The query that reserved `reserved` bytes made `entry` (at most that large): it becomes the most
  /// recently used entry of its kind and file, in place of one already there, and the rest is given back.
  void keep(std::shared_ptr<resident_entry> entry, std::uint64_t reserved);
  /// The query that reserved `reserved` bytes keeps nothing (it failed, or its file is not kept).
  void unreserve(std::uint64_t reserved);

  cache_figures figures() const;
  /// Drops every entry (texts in use by a query are freed when it ends).
  void clear();

 private:
  using key = std::tuple<std::uint64_t, std::uint64_t, entry_kind>;  // device, inode, what is kept
  static key key_of(resident_entry const& e) { return {e.identity().device, e.identity().inode, e.kind()}; }
  // The lock is held by each of these.
  void evict_one();  // the least recently used entry
  void drop(std::map<key, std::list<std::shared_ptr<resident_entry>>::iterator>::iterator found);
  void insert(std::shared_ptr<resident_entry> entry);  // as the most recently used, in place of one of its key

  std::uint64_t const budget_;
  loader load_;
  mutable std::mutex mutex_;
  std::list<std::shared_ptr<resident_entry>> used_order_;  // most recently used first
  std::map<key, std::list<std::shared_ptr<resident_entry>>::iterator> entries_;
  cache_figures figures_;  // bytes: entries and reservations
};

}  // namespace rowscan::resident
