// SPDX-License-Identifier: Apache-2.0
#include "rowscan/io/mapped_windows.hpp"

#include "rowscan/error.hpp"
#include "rowscan/io/read_at.hpp"

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
/// calls.
extern "C" void on_bus_error(int signal, siginfo_t* info, void* /*context*/) {
  char const* const line = shrink_line.load();
  if (line == nullptr || info == nullptr || info->si_code <= 0) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);  // a sent signal ends the process now; a fault would again on return anyway
    return;
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

mapped_windows::mapped_windows(int fd, std::string label, std::uint64_t file_size)
    : fd_(fd), label_(std::move(label)), file_size_(file_size) {
  std::string const line = "rowscan: error: " + shrank_while_read(label_, file_size_) + ")\n";
  shrink_message_ = std::make_unique<char[]>(line.size() + 1);
  std::memcpy(shrink_message_.get(), line.c_str(), line.size() + 1);
  handle_bus_errors();
  shrink_line.store(shrink_message_.get());
}

mapped_windows::~mapped_windows() {
  char const* mine = shrink_message_.get();
  shrink_line.compare_exchange_strong(mine, nullptr);
  for (auto& [block, w] : windows_) {
    if (w.mapping != nullptr) ::munmap(w.mapping, w.mapped_bytes);
  }
}

char const* mapped_windows::view(std::uint64_t block, std::uint64_t offset, std::size_t size, std::size_t padding) {
  struct stat st{};
  if (::fstat(fd_, &st) != 0) throw error(label_ + ": cannot read at byte " + std::to_string(offset) + ": " + std::strerror(errno));
  auto const now = static_cast<std::uint64_t>(st.st_size);
  if (now < offset + size) {
    throw error(shrank_while_read(label_, file_size_) + "; reading stopped at byte " + std::to_string(now) + ")");
  }
  window w;
  char const* data = nullptr;
  if (offset + size + padding <= now) {
    std::uint64_t const start = offset - offset % page_size();
    std::size_t const bytes = static_cast<std::size_t>(offset - start) + size + padding;
    void* const p = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE, fd_, static_cast<off_t>(start));
    if (p != MAP_FAILED) {
      w.mapping = p;
      w.mapped_bytes = bytes;
      data = static_cast<char const*>(p) + (offset - start);
    }
    // Refused (a file system that cannot map, a low `ulimit -v`): the window is read instead, below.
  }
  if (data == nullptr) {
    w.copy.resize(size + padding);  // the padding's value does not matter: a fold only may read it
    read_at(fd_, w.copy.data(), size, offset, label_, file_size_);
    data = w.copy.data();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  windows_[block] = std::move(w);
  return data;
}

void mapped_windows::release(std::uint64_t block) {
  window w;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto const found = windows_.find(block);
    if (found == windows_.end()) return;
    w = std::move(found->second);
    windows_.erase(found);
  }
  if (w.mapping != nullptr) ::munmap(w.mapping, w.mapped_bytes);  // outside the lock: other workers give back too
}

}  // namespace rowscan::io
