// rowscan/records.hpp: the records (lines) of a text chunk, found with chunk_by.
#pragma once

#include "rowscan/chunk_by.hpp"
#include "rowscan/context.hpp"

#include <thrust/device_vector.h>

#include <cstdint>

namespace rowscan {

/// A record of a text chunk: byte positions [begin, end), including its '\n' if it has one.
/// 32-bit positions: a chunk holds less than 4 GiB of text.
using record_range = index_range<std::uint32_t>;

/// chunk_by's predicate for lines: byte b continues the line of byte a unless a ended it.
struct same_line {
  ROWSCAN_HD bool operator()(char a, char /*b*/) const { return a != '\n'; }
};

/// Finds every line of text[0, size) with chunk_by(same_line) and stores their ranges in records.
/// The last line may lack its '\n'; a text ending in '\n' has no empty last record.
template <class CharIt>
void find_lines(CharIt text, std::size_t size, thrust::device_vector<record_range>& records, context const& ctx) {
  records.resize(count_chunks<std::uint32_t>(text, text + size, same_line{}, ctx));
  chunk_by_counted(text, text + size, same_line{}, thrust::raw_pointer_cast(records.data()), records.size(), ctx);
}

}  // namespace rowscan
