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
  /// A list: its size, then each item as write_one(*this, item) writes it (wire_reader::list reads it).
  template <class Items, class WriteOne>
  void list(Items const& items, WriteOne write_one) {
    number(items.size());
    for (auto const& item : items) write_one(*this, item);
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
  /// What wire_writer::list wrote: `items` resized to the list's size, each read by read_one(*this, item).
  template <class Items, class ReadOne>
  void list(Items& items, ReadOne read_one) {
    items.resize(number());
    for (auto& item : items) read_one(*this, item);
  }
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
