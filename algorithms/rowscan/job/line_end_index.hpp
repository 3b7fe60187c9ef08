// SPDX-License-Identifier: Apache-2.0
// rowscan/job/line_end_index.hpp: where a text's lines end, one entry for each 1 KiB stretch of it (the offset
// of the stretch's last '\n', or none), so that a text kept only in device memory is cut into blocks at line
// ends and its longest line bounded with no copy of it on the host: 2 bytes of index for 1 KiB of text
// (rowscan/job/resident_device.hpp). Plain C++, compiled once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

namespace rowscan::job {

class line_end_index {
 public:
  static constexpr std::size_t stretch = 1024;

  /// An index of a text of `bytes` bytes, each entry none until index() is called for its stretch.
  explicit line_end_index(std::uint64_t bytes) : bytes_(bytes), last_(static_cast<std::size_t>((bytes + stretch - 1) / stretch), none) {}

  /// Indexes `n` bytes of the text at `text`, which start at `offset` of it (a multiple of `stretch`). Calls for
  /// stretches that do not overlap may run at once.
  void index(char const* text, std::size_t n, std::uint64_t offset) {
    std::uint16_t* entry = last_.data() + offset / stretch;
    for (std::size_t at = 0; at < n; at += stretch, ++entry) {
      void const* const last = ::memrchr(text + at, '\n', std::min(stretch, n - at));
      *entry = last == nullptr ? none : static_cast<std::uint16_t>(static_cast<char const*>(last) - (text + at));
    }
  }

  /// At least the longest line's bytes, with its '\n'. A line runs from after one '\n' to the next; when those
  /// lie in stretches k < k', the first is stretch k's last and no stretch between holds one, so the line is
  /// no longer than the distance between two consecutive entries.
  std::uint64_t longest_line_bound() const {
    std::uint64_t longest = 0;
    std::uint64_t line_start = 0;  // after the last entry seen
    for (std::size_t s = 0; s < last_.size(); ++s) {
      if (last_[s] == none) continue;
      std::uint64_t const at = s * stretch + last_[s];
      longest = std::max(longest, at + 1 - line_start);
      line_start = at + 1;
    }
    return std::max(longest, bytes_ - line_start);
  }

  /// The last '\n' that the index knows in [begin, end) (begin < end <= the text's size), if any.
  std::optional<std::uint64_t> line_end_before(std::uint64_t begin, std::uint64_t end) const {
    for (std::uint64_t s = (end - 1) / stretch;; --s) {
      if (last_[s] != none) {
        std::uint64_t const at = s * stretch + last_[s];
        if (at < end) return at >= begin ? std::optional<std::uint64_t>(at) : std::nullopt;
      }
      if (s * stretch <= begin) return std::nullopt;
    }
  }

  /// [begin, end) of the text in blocks of at most block_size bytes, each ending after a '\n' the index knows
  /// (the last one at `end`); nothing if a block would hold none (a line about as long as a block).
  std::optional<std::vector<std::pair<std::uint64_t, std::uint64_t>>> blocks(std::uint64_t begin, std::uint64_t end,
                                                                             std::size_t block_size) const {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    for (std::uint64_t b = begin; b < end;) {
      std::uint64_t e = std::min<std::uint64_t>(end, b + block_size);
      if (e < end) {
        auto const last = line_end_before(b, e);
        if (!last) return std::nullopt;
        e = *last + 1;
      }
      out.emplace_back(b, e);
      b = e;
    }
    return out;
  }

 private:
  static constexpr std::uint16_t none = 0xFFFF;
  std::uint64_t bytes_;
  std::vector<std::uint16_t> last_;
};

}  // namespace rowscan::job
