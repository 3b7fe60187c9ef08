// SPDX-License-Identifier: Apache-2.0
// rowscan/session/file_identity.hpp: what tells that a file is still the one whose bytes a cache holds.
//
// The device and inode say which file it is; its size, modification time and change time (both in
// nanoseconds) say that it has not changed since, as make and ninja judge a file by its times. A
// write that leaves all five as they were (a clock set back, a file system without nanosecond times,
// a write through a mapping not yet flushed) is not seen: such a file is answered from the bytes the
// cache holds (docs/python.md, "The cache").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rowscan::resident {

struct file_identity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t modified_ns = 0;
  std::int64_t changed_ns = 0;

  /// The same file (device and inode), whatever its contents.
  bool same_file(file_identity const& o) const { return device == o.device && inode == o.inode; }
  bool operator==(file_identity const& o) const {
    return same_file(o) && size == o.size && modified_ns == o.modified_ns && changed_ns == o.changed_ns;
  }
  bool operator!=(file_identity const& o) const { return !(*this == o); }
};

/// The identity of the regular file at `path` (symbolic links followed); nothing if it is not one.
std::optional<file_identity> identity_of(std::string const& path);

/// The identity of the regular file open on `fd`; nothing if it is not one.
std::optional<file_identity> identity_of(int fd);

}  // namespace rowscan::resident
