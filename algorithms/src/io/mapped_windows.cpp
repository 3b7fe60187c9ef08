// SPDX-License-Identifier: Apache-2.0
#include "rowscan/io/mapped_windows.hpp"

#include "rowscan/error.hpp"
#include "rowscan/io/read_at.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rowscan::io {
namespace {

/// The line SIGBUS prints while a reader's windows live (the newest reader's), or null.
std::atomic<char const*> shrink_line{nullptr};

/// A mapped page whose file bytes are gone raises SIGBUS: while windows live, a SIGBUS the kernel raised
/// for an access (si_code > 0; kill(1) gives 0 or less) is the file shrinking under the fold, so say so in
/// one line and end with every failure's code. Any other takes the default action. Only async-signal-safe
/// calls. Several workers may fault on the same shrunk file at once: the first one reports and ends the
/// process; the others wait for that end, so the line is printed once.
extern "C" void on_bus_error(int signal, siginfo_t* info, void* /*context*/) {
  static std::atomic<bool> reporting{false};
  static_assert(std::atomic<bool>::is_always_lock_free, "the handler's flag must be async-signal-safe");
  char const* const line = shrink_line.load();
  if (line == nullptr || info == nullptr || info->si_code <= 0) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);  // a sent signal ends the process now; a fault would again on return anyway
    return;
  }
  if (reporting.exchange(true)) {
    for (;;) ::pause();  // another thread is reporting; its _exit ends this one too
  }
  std::size_t size = 0;
  while (line[size] != '\0') ++size;
  for (std::size_t done = 0; done < size;) {
    ssize_t const n = ::write(STDERR_FILENO, line + done, size - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::_exit(1);
}

void handle_bus_errors() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction action{};
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, nullptr);
  });
}

std::size_t page_size() {
  static std::size_t const size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

mapped_windows::mapped_windows(int fd, std::string label, std::uint64_t file_size, window_layout const& layout)
    : fd_(fd), label_(std::move(label)), file_size_(file_size), layout_(layout) {
  layout_.blocks_per_window = std::max<std::size_t>(layout_.blocks_per_window, 1);
  std::string const line = "rowscan: error: " + shrank_while_read(label_, file_size_) + ")\n";
  shrink_message_ = std::make_unique<char[]>(line.size() + 1);
  std::memcpy(shrink_message_.get(), line.c_str(), line.size() + 1);
  handle_bus_errors();
  shrink_line.store(shrink_message_.get());
}

mapped_windows::~mapped_windows() {
  char const* mine = shrink_message_.get();
  shrink_line.compare_exchange_strong(mine, nullptr);
  for (auto& [number, w] : windows_) {
    if (w.mapping != nullptr) ::munmap(w.mapping, w.mapped_bytes);
  }
}

/// Window w's pages: its blocks, the lead before them and the padding after. No page past the file's end
/// (as it is now) is mapped from the file, since touching one raises SIGBUS: where the padding runs past
/// that end, the window is a reservation of zero pages with the file's pages mapped over its start, so
/// that an input's last block, and a list's every input's, is a view like the others and not a copy
/// (docs/performance.md, "A list of files"). Unmapped if the system refuses.
mapped_windows::window mapped_windows::map_window(std::uint64_t w, std::uint64_t file_size_now) const {
  std::uint64_t const window_bytes = std::uint64_t{layout_.block_size} * layout_.blocks_per_window;
  std::uint64_t const first = layout_.first_byte + w * window_bytes;
  std::uint64_t const begin = first - std::min<std::uint64_t>(first, layout_.lead);
  std::uint64_t const wanted_end = first + window_bytes + layout_.padding;
  std::uint64_t const file_end = std::min(wanted_end, file_size_now);
  window mapped;
  mapped.start = begin - begin % page_size();
  if (file_end <= mapped.start) return mapped;
  auto const round_up = [](std::uint64_t bytes) { return (bytes + page_size() - 1) / page_size() * page_size(); };
  auto const file_bytes = static_cast<std::size_t>(file_end - mapped.start);
  // Readable bytes: up to the padding past the file's end, whose last page reads zeros after the end.
  auto const bytes = static_cast<std::size_t>(std::min(wanted_end, file_size_now + layout_.padding) - mapped.start);
  if (round_up(bytes) <= round_up(file_bytes)) {
    void* const p = ::mmap(nullptr, file_bytes, PROT_READ, MAP_PRIVATE, fd_, static_cast<off_t>(mapped.start));
    if (p == MAP_FAILED) return mapped;
    mapped.mapping = p;
    mapped.mapped_bytes = bytes;  // the padding past the end, if any, is in the file's last page: zeros
    return mapped;
  }
  void* const reserved = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (reserved == MAP_FAILED) return mapped;
  void* const p =
      ::mmap(reserved, file_bytes, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd_, static_cast<off_t>(mapped.start));
  if (p == MAP_FAILED) {
    ::munmap(reserved, bytes);
    return mapped;
  }
  mapped.mapping = reserved;
  mapped.mapped_bytes = bytes;  // one munmap ends both
  return mapped;
}

std::optional<mapped_windows::unmapping> mapped_windows::take_if_done(std::uint64_t w) {
  auto const found = windows_.find(w);
  if (found == windows_.end() || !found->second.passed || found->second.views != 0) return std::nullopt;
  unmapping done{found->second.mapping, found->second.mapped_bytes};
  windows_.erase(found);
  return done;
}

char const* mapped_windows::view(std::uint64_t block, std::uint64_t offset, std::size_t size) {
  struct stat st{};
  if (::fstat(fd_, &st) != 0) throw error(label_ + ": cannot read at byte " + std::to_string(offset) + ": " + std::strerror(errno));
  auto const now = static_cast<std::uint64_t>(st.st_size);
  if (now < offset + size) {
    throw error(shrank_while_read(label_, file_size_) + "; reading stopped at byte " + std::to_string(now) + ")");
  }
  std::uint64_t const number = block / layout_.blocks_per_window;
  // Only this thread adds windows, so the window is mapped outside the lock, which workers take to give back.
  bool known = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    known = windows_.count(number) != 0;
  }
  std::optional<window> fresh;
  if (!known) fresh = map_window(number, now);
  std::vector<unmapping> done;  // earlier windows whose blocks are all back: the reader is past them now
  char const* data = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (fresh) {
      windows_mapped_ += fresh->mapping != nullptr ? 1 : 0;
      windows_[number] = *fresh;
      for (auto e = windows_.begin(); e != windows_.end() && e->first < number;) {
        e->second.passed = true;
        std::uint64_t const earlier = (e++)->first;  // take_if_done may erase it
        if (auto u = take_if_done(earlier)) done.push_back(*u);
      }
    }
    window& w = windows_[number];
    bool const fits = w.mapping != nullptr && offset >= w.start && offset + size + layout_.padding <= w.start + w.mapped_bytes;
    if (fits) {
      ++w.views;
      one_view& v = views_[block];
      v.in_window = true;
      v.window = number;
      data = static_cast<char const*>(w.mapping) + (offset - w.start);
    }
  }
  for (unmapping const& u : done) {
    if (u.mapping != nullptr) ::munmap(u.mapping, u.bytes);
  }
  if (data != nullptr) return data;
  // No window holds it (refused, or a carried line longer than the lead): a copy.
  one_view v;
  v.copy.resize(size + layout_.padding);  // the padding's value does not matter: a fold only may read it
  read_at(fd_, v.copy.data(), size, offset, label_, file_size_);
  data = v.copy.data();
  std::lock_guard<std::mutex> lock(mutex_);
  views_[block] = std::move(v);
  ++copies_made_;
  return data;
}

void mapped_windows::release(std::uint64_t block) {
  std::optional<unmapping> done;
  one_view v;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto const found = views_.find(block);
    if (found == views_.end()) return;
    v = std::move(found->second);  // a copy is freed outside the lock
    views_.erase(found);
    if (v.in_window) {
      --windows_[v.window].views;
      done = take_if_done(v.window);
    }
  }
  if (done && done->mapping != nullptr) ::munmap(done->mapping, done->bytes);  // outside the lock: other workers give back too
}

std::size_t mapped_windows::windows_mapped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return windows_mapped_;
}

std::size_t mapped_windows::copies_made() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return copies_made_;
}

std::size_t mapped_windows::windows_held() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<std::size_t>(std::count_if(windows_.begin(), windows_.end(), [](auto const& w) { return w.second.mapping != nullptr; }));
}

}  // namespace rowscan::io
