// SPDX-License-Identifier: Apache-2.0
// rowscan/strings/column.hpp: a strings column (chars + offsets) and views that name strings by index.
#pragma once

#include "rowscan/config.hpp"
#include "rowscan/device_buffer.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

/// A string's bytes somewhere in device-system memory.
struct string_ref {
  char const* data;
  std::uint32_t size;
};

/// Byte-wise equality (names compare as raw UTF-8 bytes).
ROWSCAN_HD inline bool bytes_equal(string_ref a, string_ref b) {
  if (a.size != b.size) return false;
  for (std::uint32_t i = 0; i < a.size; ++i) {
    if (a.data[i] != b.data[i]) return false;
  }
  return true;
}

/// Bytes p[0, 8) as a little-endian word (the host's and NVIDIA GPUs' order; gather.hpp checks the host's).
ROWSCAN_HD inline std::uint64_t load_word8(char const* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

/// The low `bytes` bytes of a word set (bytes <= 8).
ROWSCAN_HD inline std::uint64_t low_bytes_mask(unsigned bytes) {
  return bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * bytes)) - 1;
}

/// bytes_equal, but a string of at most 16 bytes whose 16 bytes from its start lie before its memory's
/// end (a_end, b_end) is compared as two words, with no loop: a loop over the bytes mispredicts its last
/// branch for nearly every name, which keeps the searches of a block's stations from overlapping their
/// waits on memory (docs/stations.md, "A million stations").
ROWSCAN_HD inline bool bytes_equal_within(string_ref a, char const* a_end, string_ref b, char const* b_end) {
  if (a.size != b.size) return false;
  if (a.size > 16 || a_end - a.data < 16 || b_end - b.data < 16) return bytes_equal(a, b);
  unsigned const low = a.size < 8 ? a.size : 8;
  std::uint64_t const first = (load_word8(a.data) ^ load_word8(b.data)) & low_bytes_mask(low);
  std::uint64_t const second = (load_word8(a.data + 8) ^ load_word8(b.data + 8)) & low_bytes_mask(a.size - low);
  return (first | second) == 0;
}

/// Lexicographic order of the unsigned bytes, the order of the challenge's output.
ROWSCAN_HD inline bool bytes_less(string_ref a, string_ref b) {
  std::uint32_t const n = a.size < b.size ? a.size : b.size;
  for (std::uint32_t i = 0; i < n; ++i) {
    auto const x = static_cast<unsigned char>(a.data[i]);
    auto const y = static_cast<unsigned char>(b.data[i]);
    if (x != y) return x < y;
  }
  return a.size < b.size;
}

/// Column of n strings: string i is chars[offsets[i], offsets[i+1]). 64-bit offsets, so the chars may
/// exceed 4 GB (one string is at most 4 GB - 1: string_ref's size). Both arrays are device_buffers:
/// whoever makes a column writes every element, so nothing is filled first.
struct strings_column {
  device_buffer<char> chars;
  device_buffer<std::int64_t> offsets;  ///< size() + 1 entries, offsets[0] == 0, non-decreasing

  /// No strings: chars empty, offsets {0}.
  strings_column();
  strings_column(device_buffer<char> chars, device_buffer<std::int64_t> offsets)
      : chars(std::move(chars)), offsets(std::move(offsets)) {}

  std::size_t size() const { return offsets.size() - 1; }
};

/// Non-owning view of a strings column for functors: view(i) is string i.
struct column_view {
  char const* chars;
  std::int64_t const* offsets;

  column_view(char const* chars, std::int64_t const* offsets) : chars(chars), offsets(offsets) {}
  explicit column_view(strings_column const& column)
      : chars(thrust::raw_pointer_cast(column.chars.data())), offsets(thrust::raw_pointer_cast(column.offsets.data())) {}

  ROWSCAN_HD string_ref operator()(std::size_t i) const {
    return {chars + offsets[i], static_cast<std::uint32_t>(offsets[i + 1] - offsets[i])};
  }
};

/// Copies a column to the host as std::strings (for output and tests).
std::vector<std::string> to_host_strings(strings_column const& column);

/// Builds a column on the device from host strings (for tests and small inputs). Its memory comes from
/// `resource`; the default, Thrust's global device resource, allocates each array at its exact size.
strings_column make_strings_column(std::vector<std::string> const& strings,
                                   std::shared_ptr<device_resource> resource = global_device_resource());

ROWSCAN_SYSTEM_END
}  // namespace rowscan
