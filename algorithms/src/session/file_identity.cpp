// SPDX-License-Identifier: Apache-2.0
// A file's identity from stat (rowscan/session/file_identity.hpp).
#include "rowscan/session/file_identity.hpp"

#include <sys/stat.h>

namespace rowscan::resident {
namespace {

std::optional<file_identity> identity_from(struct stat const& st) {
  if (!S_ISREG(st.st_mode)) return std::nullopt;
  auto ns = [](timespec const& t) { return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec; };
  return file_identity{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
                       static_cast<std::uint64_t>(st.st_size), ns(st.st_mtim), ns(st.st_ctim)};
}

}  // namespace

std::optional<file_identity> identity_of(std::string const& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return identity_from(st);
}

std::optional<file_identity> identity_of(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return std::nullopt;
  return identity_from(st);
}

}  // namespace rowscan::resident
