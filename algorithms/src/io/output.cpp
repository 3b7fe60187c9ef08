// SPDX-License-Identifier: Apache-2.0
// Standard output and output files, every write checked (rowscan/io/output.hpp).
#include "rowscan/io/output.hpp"
#include "rowscan/error.hpp"
#include "rowscan/io/input_file.hpp"
#include "rowscan/io/write_all.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rowscan::io {

void throw_write_error(std::string const& label, int errno_value) {
  throw error(label + ": cannot write: " + std::strerror(errno_value));
}

void write_standard_output(std::string_view text) {
  // An answer over text that a failed decoder cut short would pass for a whole one: report the failure.
  if (auto const failure = io::first_decode_failure()) throw error(*failure);
  try {
    write_all(STDOUT_FILENO, text.data(), text.size(), "standard output");
  } catch (write_error const& e) {
    throw_write_error("standard output", e.code().value());
  }
}

namespace {

// The temporary file to remove if a signal ends the run: a fixed buffer, because a signal handler may
// only call async-signal-safe functions (unlink, signal, raise) and read what is already in memory.
char pending_temporary[4096];
volatile std::sig_atomic_t has_pending_temporary = 0;
constexpr int removal_signals[] = {SIGINT, SIGTERM, SIGHUP};

// A C function with internal linkage: a signal handler, named by nothing outside this file.
extern "C" {
static void remove_temporary_and_reraise(int signal_number) {
  if (has_pending_temporary) ::unlink(pending_temporary);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}
}

void arm_removal(std::string const& path) {
  if (path.size() >= sizeof pending_temporary) return;  // too long to keep: the file stays on a signal
  std::memcpy(pending_temporary, path.c_str(), path.size() + 1);
  has_pending_temporary = 1;
  for (int s : removal_signals) std::signal(s, remove_temporary_and_reraise);
}

void disarm_removal() {
  for (int s : removal_signals) std::signal(s, SIG_DFL);
  has_pending_temporary = 0;
}

/// A new file, or an existing regular file: those are written through a temporary file and a rename.
/// `mode` is the existing file's permissions, or what open(path, O_CREAT, 0644) would give a new one.
bool replace_by_rename(std::string const& path, mode_t& mode) {
  mode_t const mask = ::umask(0);
  ::umask(mask);
  mode = 0644 & ~mask;
  struct stat st{};
  if (::lstat(path.c_str(), &st) != 0) return errno == ENOENT;
  mode = st.st_mode & 07777;
  return S_ISREG(st.st_mode);
}

}  // namespace

output_file::output_file(std::string const& path)
    : label_(path == "-" ? "standard output" : display_name(path)), owned_(path != "-") {
  if (!owned_) {
    fd_ = STDOUT_FILENO;
    return;
  }
  mode_t mode = 0;
  if (!replace_by_rename(path, mode)) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw error(label_ + ": cannot create: " + std::strerror(errno));
    return;
  }
  std::size_t const slash = path.rfind('/');
  std::string const directory = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string const name = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string pattern = directory + "." + name + ".rowscan-XXXXXX";
  fd_ = ::mkstemp(pattern.data());
  if (fd_ < 0) throw error(label_ + ": cannot create: " + std::strerror(errno));
  temporary_ = pattern;
  arm_removal(temporary_);
  // mkstemp makes the file 0600; give it the mode the file has, or would have had from open(2).
  ::fchmod(fd_, mode);
  ::fcntl(fd_, F_SETFD, FD_CLOEXEC);
}

output_file::~output_file() {
  if (owned_ && fd_ >= 0) ::close(fd_);
  if (!temporary_.empty()) {
    ::unlink(temporary_.c_str());
    disarm_removal();
  }
}

void output_file::commit() {
  if (!owned_) return;
  int const fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw_write_error(label_, errno);  // NFS and quotas may report a failed write here
  if (temporary_.empty()) return;
  if (::rename(temporary_.c_str(), label_.c_str()) != 0) {
    throw error(label_ + ": cannot rename " + temporary_ + " to it: " + std::strerror(errno));
  }
  temporary_.clear();
  disarm_removal();
}

}  // namespace rowscan::io
