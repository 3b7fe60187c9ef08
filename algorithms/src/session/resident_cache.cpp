// SPDX-License-Identifier: Apache-2.0
// Files' bytes kept in memory between queries (rowscan/session/resident_cache.hpp).
#include "rowscan/session/resident_cache.hpp"

#include "rowscan/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <sys/mman.h>  // memfd_create
#include <thread>
#include <unistd.h>
#include <vector>

namespace rowscan::resident {
namespace {

/// Closes a descriptor when it goes out of scope.
struct closing {
  int fd;
  ~closing() {
    if (fd >= 0) ::close(fd);
  }
};

/// Copies bytes [begin, end) of `from` to the same place in `to` through a buffer of its own, with pread
/// and pwrite: the kernel allocates the memory file's pages as it writes them (a copy into a mapping of
/// it took a page fault a page, several times slower). False if the file ended first.
bool copy_range(int from, int to, std::uint64_t begin, std::uint64_t end) {
  std::vector<char> buffer(std::min<std::uint64_t>(end - begin, std::uint64_t{4} << 20));
  while (begin < end) {
    std::size_t const want = static_cast<std::size_t>(std::min<std::uint64_t>(end - begin, buffer.size()));
    ssize_t const got = ::pread(from, buffer.data(), want, static_cast<off_t>(begin));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    std::size_t written = 0;
    while (written < static_cast<std::size_t>(got)) {
      ssize_t const put = ::pwrite(to, buffer.data() + written, static_cast<std::size_t>(got) - written,
                                   static_cast<off_t>(begin + written));
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) return false;
      written += static_cast<std::size_t>(put);
    }
    begin += static_cast<std::uint64_t>(got);
  }
  return true;
}

/// A new memory file of `size` bytes (holes until written), owned by the text made of it.
std::shared_ptr<resident_text> memory_file(std::string const& label, file_identity const& expected) {
  int const memory = ::memfd_create("rowscan-resident", MFD_CLOEXEC);
  if (memory < 0) throw error(label + ": cannot hold its bytes in memory: " + std::strerror(errno));
  auto text = std::make_shared<resident_text>(memory, expected);
  if (::ftruncate(memory, static_cast<off_t>(expected.size)) != 0) {
    throw error(label + ": cannot hold its " + std::to_string(expected.size) + " bytes in memory: " +
                std::strerror(errno));
  }
  return text;
}

/// Whether the file open on `file`, and the one at `path`, are still `expected`.
bool unchanged(int file, std::string const& path, file_identity const& expected) {
  if (identity_of(file) != expected) return false;
  auto const now = identity_of(path);
  return now && *now == expected;
}

}  // namespace

resident_text::~resident_text() {
  if (free_copy != nullptr) free_copy(fd_);
  ::close(fd_);
}

std::shared_ptr<resident_text> load_text(std::string const& path, std::string const& label,
                                         file_identity const& expected, unsigned threads) {
  int const file = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file < 0) throw error(label + ": cannot open: " + std::strerror(errno));
  closing const file_closing{file};
  if (identity_of(file) != expected) return nullptr;  // replaced since the query looked: read as a file
  auto text = memory_file(label, expected);
  std::uint64_t const size = expected.size;
  // Stripes of at least 64 MiB, one a thread: a thread copies from the page cache at a few GB/s.
  std::uint64_t const stripe =
      std::max<std::uint64_t>(std::uint64_t{64} << 20, (size + threads - 1) / std::max(threads, 1u));
  std::vector<std::thread> copying;
  std::vector<char> whole((size + stripe - 1) / stripe, 0);
  for (std::size_t i = 0; i < whole.size(); ++i) {
    auto copy = [&, i] {
      std::uint64_t const begin = i * stripe;
      whole[i] = copy_range(file, text->fd(), begin, std::min(size, begin + stripe)) ? 1 : 0;
    };
    if (i + 1 == whole.size()) {
      copy();  // the last stripe on this thread
    } else {
      try {
        copying.emplace_back(copy);
      } catch (...) {
        copy();  // no thread to spare: this one copies it
      }
    }
  }
  for (std::thread& t : copying) t.join();
  bool const complete = std::all_of(whole.begin(), whole.end(), [](char c) { return c != 0; });
  // Changed as it was read (a write, a truncation): the copy may mix old and new bytes.
  if (!complete || !unchanged(file, path, expected)) return nullptr;
  return text;
}

std::shared_ptr<resident_text> load_to_device(std::string const& path, std::string const& label,
                                              file_identity const& expected, device_keeper const& keeper) {
  int const file = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file < 0) throw error(label + ": cannot open: " + std::strerror(errno));
  closing const file_closing{file};
  if (identity_of(file) != expected || expected.size == 0) return nullptr;
  auto text = memory_file(label, expected);
  if (!copy_range(file, text->fd(), 0, std::min(expected.size, head_bytes))) return nullptr;  // it shrank
  try {
    if (!keeper.keep(file, text->fd(), expected.size)) return nullptr;
  } catch (error const&) {
    if (!unchanged(file, path, expected)) return nullptr;  // it shrank as it was read: read as a file
    throw;
  }
  text->on_device = true;
  text->free_copy = keeper.drop;
  if (!unchanged(file, path, expected)) return nullptr;  // the copy may mix old and new bytes (freed with text)
  return text;
}

resident_cache::resident_cache(std::uint64_t budget_bytes, loader load)
    : budget_(budget_bytes), load_(std::move(load)) {
  figures_.budget_bytes = budget_bytes;
}

void resident_cache::drop(std::map<key, std::list<std::shared_ptr<resident_entry>>::iterator>::iterator found) {
  figures_.bytes -= (*found->second)->bytes();
  --figures_.entries;
  used_order_.erase(found->second);
  entries_.erase(found);
}

void resident_cache::evict_one() { drop(entries_.find(key_of(*used_order_.back()))); }

void resident_cache::insert(std::shared_ptr<resident_entry> entry) {
  key const k = key_of(*entry);
  auto const found = entries_.find(k);
  if (found != entries_.end()) {  // an older version of the file
    drop(found);
    ++figures_.stale;
  }
  figures_.bytes += entry->bytes();
  used_order_.push_front(std::move(entry));
  entries_[k] = used_order_.begin();
  ++figures_.entries;
}

resident_cache::held resident_cache::acquire(std::string const& path, std::string const& label) {
  auto const id = identity_of(path);
  std::unique_lock<std::mutex> lock(mutex_);
  if (!id) {  // not a regular file: the query reads it (and says why, if it cannot)
    ++figures_.uncached;
    return {};
  }
  auto const found = entries_.find({id->device, id->inode, entry_kind::text});
  if (found != entries_.end()) {
    std::shared_ptr<resident_entry> const entry = *found->second;
    if (entry->identity() == *id) {
      used_order_.splice(used_order_.begin(), used_order_, found->second);
      ++figures_.hits;
      return {std::static_pointer_cast<resident_text>(entry), false};
    }
    drop(found);  // the file changed since it was loaded: its bytes go, and it is read again
    ++figures_.stale;
  }
  ++figures_.misses;
  if (id->size > budget_) {
    ++figures_.uncached;
    return {};
  }
  while (figures_.bytes + id->size > budget_ && !used_order_.empty()) {
    evict_one();
    ++figures_.evictions;
  }
  if (figures_.bytes + id->size > budget_) {  // loads under way hold the rest
    ++figures_.uncached;
    return {};
  }
  figures_.bytes += id->size;  // reserved before the load, so that no other load takes the room
  lock.unlock();
  std::shared_ptr<resident_text> text;
  try {
    text = load_(path, label, *id);
  } catch (...) {
    lock.lock();
    figures_.bytes -= id->size;
    ++figures_.discarded;
    throw;
  }
  lock.lock();
  if (!text) {
    figures_.bytes -= id->size;
    ++figures_.discarded;
    ++figures_.uncached;
    return {};
  }
  ++figures_.loads;
  figures_.loaded_bytes += text->bytes();
  return {text, true};
}

bool resident_cache::holds(std::string const& path, entry_kind kind) const {
  auto const id = identity_of(path);
  if (!id) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  auto const found = entries_.find({id->device, id->inode, kind});
  return found != entries_.end() && (*found->second)->identity() == *id;
}

void resident_cache::keep(held const& h) {
  if (!h.loaded) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto const found = entries_.find(key_of(*h.text));
  if (found != entries_.end() && (*found->second)->identity() == h.text->identity()) {
    // Another query kept this file first (both loaded it at once).
    figures_.bytes -= h.text->bytes();
    ++figures_.discarded;
    return;
  }
  figures_.bytes -= h.text->bytes();  // the reservation becomes the entry
  insert(h.text);
}

void resident_cache::release(held const& h) {
  if (!h.loaded) return;
  std::lock_guard<std::mutex> lock(mutex_);
  figures_.bytes -= h.text->bytes();
  ++figures_.discarded;
}

std::shared_ptr<resident_entry> resident_cache::find(entry_kind kind, std::string const& path,
                                                     std::optional<file_identity>& id) {
  id = identity_of(path);
  std::lock_guard<std::mutex> lock(mutex_);
  if (!id) return nullptr;
  auto const found = entries_.find({id->device, id->inode, kind});
  if (found != entries_.end()) {
    std::shared_ptr<resident_entry> entry = *found->second;
    if (entry->identity() == *id) {
      used_order_.splice(used_order_.begin(), used_order_, found->second);
      ++figures_.hits;
      return entry;
    }
    drop(found);  // the file changed since it was read: it is read again
    ++figures_.stale;
  }
  ++figures_.misses;
  return nullptr;
}

bool resident_cache::reserve(std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (bytes > budget_) {
    ++figures_.uncached;
    return false;
  }
  while (figures_.bytes + bytes > budget_ && !used_order_.empty()) {
    evict_one();
    ++figures_.evictions;
  }
  if (figures_.bytes + bytes > budget_) {  // loads under way hold the rest
    ++figures_.uncached;
    return false;
  }
  figures_.bytes += bytes;
  return true;
}

void resident_cache::keep(std::shared_ptr<resident_entry> entry, std::uint64_t reserved) {
  std::lock_guard<std::mutex> lock(mutex_);
  figures_.bytes -= reserved;
  auto const found = entries_.find(key_of(*entry));
  if (found != entries_.end() && (*found->second)->identity() == entry->identity()) {
    ++figures_.discarded;  // another query kept this file first (both read it at once)
    return;
  }
  // Never larger than its reservation when its maker keeps its word; if it is, room is made as for a load.
  while (figures_.bytes + entry->bytes() > budget_ && !used_order_.empty()) {
    evict_one();
    ++figures_.evictions;
  }
  if (figures_.bytes + entry->bytes() > budget_) {
    ++figures_.discarded;
    return;
  }
  ++figures_.loads;
  figures_.loaded_bytes += entry->bytes();
  insert(std::move(entry));
}

void resident_cache::unreserve(std::uint64_t reserved) {
  std::lock_guard<std::mutex> lock(mutex_);
  figures_.bytes -= reserved;
  ++figures_.discarded;
}

cache_figures resident_cache::figures() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return figures_;
}

void resident_cache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  while (!used_order_.empty()) evict_one();
}

}  // namespace rowscan::resident
