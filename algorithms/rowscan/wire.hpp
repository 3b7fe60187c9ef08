// SPDX-License-Identifier: Apache-2.0
// rowscan/wire.hpp: values as bytes, to go between MPI ranks (the same program on the same kind of host:
// numbers travel in the host's own byte order).
#pragma once

#include "rowscan/error.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace rowscan {

/// Appends numbers and strings to a byte string.
class wire_writer {
 public:
  template <class T>
  void raw(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<char const*>(&value), sizeof value);
  }
  void number(std::uint64_t value) { raw(value); }
  void text(std::string const& value) {
    number(value.size());
    bytes_ += value;
  }
  /// Room for `more` bytes at once: a megabyte grown by doubling faults in fresh pages several times over.
  void reserve(std::size_t more) { bytes_.reserve(bytes_.size() + more); }
  std::string const& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

/// Reads back what a wire_writer wrote, in the same order; throws rowscan::error if the bytes end early.
class wire_reader {
 public:
  explicit wire_reader(std::string const& bytes) : bytes_(bytes) {}
  template <class T>
  T raw() {
    T value;
    need(sizeof value);
    std::memcpy(&value, bytes_.data() + at_, sizeof value);
    at_ += sizeof value;
    return value;
  }
  std::uint64_t number() { return raw<std::uint64_t>(); }
  std::string text() {
    std::size_t const size = number();
    need(size);
    std::string value = bytes_.substr(at_, size);
    at_ += size;
    return value;
  }

 private:
  void need(std::size_t size) const {
    if (bytes_.size() - at_ < size) throw error("a partial answer from another rank ends early");
  }
  std::string const& bytes_;
  std::size_t at_ = 0;
};

}  // namespace rowscan
