// SPDX-License-Identifier: Apache-2.0
// A sequential chunk_by: walk once, start a new chunk wherever pred(previous, current) is false.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace reference {

template <class T, class Predicate>
std::vector<std::pair<std::size_t, std::size_t>> chunk_by(std::vector<T> const& values, Predicate pred) {
  std::vector<std::pair<std::size_t, std::size_t>> chunks;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i == 0 || !pred(values[i - 1], values[i])) chunks.push_back({i, i});
    chunks.back().second = i + 1;
  }
  return chunks;
}

}  // namespace reference
