// SPDX-License-Identifier: Apache-2.0
// rowscan/records.hpp: the records (lines) of a text chunk, found with chunk_by(same_line).
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/chunk_by.hpp"
#include "rowscan/context.hpp"
#include "rowscan/lines.hpp"
#include "rowscan/read_back.hpp"

#include <thrust/device_vector.h>
#include <thrust/find.h>

#include <cstdint>
#include <cstring>

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

/// A record of a text chunk: byte positions [begin, end), including its '\n' if it has one.
/// 32-bit positions: a chunk holds less than 4 GiB of text.
using record_range = index_range<std::uint32_t>;

/// chunk_by's predicate for lines: byte b continues the line of byte a unless a ended it.
struct same_line {
  ROWSCAN_HD bool operator()(char a, char /*b*/) const { return a != '\n'; }
};

/// True for a line, with its '\n', longer than max_bytes: one a reader would not carry between blocks.
struct line_longer_than {
  std::uint32_t max_bytes;
  ROWSCAN_HD bool operator()(record_range r) const { return r.size() > max_bytes; }
};

/// Position after the first '\n' at or after `from` in text[0, size) (device memory), or size if there
/// is none: where a text of whole lines can be cut in two near `from`.
inline std::size_t line_start_after(char const* text, std::size_t from, std::size_t size, context const& ctx) {
  auto const begin = thrust::device_pointer_cast(text);
  auto const found = thrust::find(ctx.policy(), begin + static_cast<std::ptrdiff_t>(from),
                                  begin + static_cast<std::ptrdiff_t>(size), '\n');
  auto const at = static_cast<std::size_t>(found - begin);
  return at == size ? size : at + 1;
}

/// for_each_line's sink that stores each line's range: records[line] = [begin, end).
struct store_record {
  record_range* records;
  ROWSCAN_HD void operator()(std::uint32_t line, std::uint32_t begin, std::uint32_t end) const {
    records[line] = record_range{begin, end};
  }
};

/// Finds every line of text[0, size) (device memory) and stores their ranges in records: chunk_by(same_line)
/// over 16-byte words (lines.hpp). The last line may lack its '\n'; a text ending in '\n' has no
/// empty last record.
inline void find_lines(char const* text, std::size_t size, thrust::device_vector<record_range>& records,
                       context const& ctx) {
  ctx.resize(records, count_lines(text, size, ctx));
  for_each_line(text, size, store_record{thrust::raw_pointer_cast(records.data())}, nullptr, ctx);
}

/// for_each_line's sink that stores the ranges of the lines below `capacity` (the line count reveals
/// any beyond it).
struct store_record_below {
  record_range* records;
  std::uint32_t capacity;
  ROWSCAN_HD void operator()(std::uint32_t line, std::uint32_t begin, std::uint32_t end) const {
    if (line < capacity) records[line] = record_range{begin, end};
  }
};

/// find_lines for a text whose lines are seldom shorter than `usual_line_bytes`: room for size /
/// usual_line_bytes + 2 records, one scan that stores them and counts them into *line_count (device
/// memory), and records cut to the count. That saves find_lines' counting pass over the text; a text of
/// shorter lines than that room holds is scanned again, counted first, and gives the same records.
inline void find_lines_in_one_scan(char const* text, std::size_t size, std::size_t usual_line_bytes,
                                   thrust::device_vector<record_range>& records, std::uint32_t* line_count,
                                   context const& ctx) {
  detail::check_text_size(size);
  std::size_t const room = size / usual_line_bytes + 2;
  ctx.resize(records, room);
  store_record_below const store{thrust::raw_pointer_cast(records.data()), static_cast<std::uint32_t>(room)};
  for_each_line(text, size, store, line_count, ctx);
  std::uint32_t lines = 0;
  copy_to_host(line_count, 1, &lines, ctx);
  if (lines <= room) {
    records.resize(lines);  // shrinking writes nothing
    return;
  }
  find_lines(text, size, records, ctx);
}

#if !ROWSCAN_HAS_CUB
/// The host's find_lines_in_one_scan, for a worker that is one thread: it walks text[0, size) (host
/// memory) from one '\n' to the next with std::memchr and stores each line's range, in room for a line
/// every usual_line_bytes that doubles if the lines are shorter. The same records as find_lines; a
/// scan over words on one thread must combine every word's interval, where the walk only looks for
/// the next '\n' (docs/lineitem.md, "Records in one scan").
inline void find_lines_walking(char const* text, std::size_t size, std::size_t usual_line_bytes,
                               thrust::device_vector<record_range>& records, context const& ctx) {
  detail::check_text_size(size);
  std::size_t room = size / usual_line_bytes + 2;
  ctx.resize(records, room);
  std::size_t lines = 0;
  for (std::size_t begin = 0; begin < size;) {
    auto const* newline = static_cast<char const*>(std::memchr(text + begin, '\n', size - begin));
    std::size_t const end = newline == nullptr ? size : static_cast<std::size_t>(newline - text) + 1;
    if (lines == room) ctx.resize(records, room *= 2);
    thrust::raw_pointer_cast(records.data())[lines++] = record_range{static_cast<std::uint32_t>(begin),
                                                                     static_cast<std::uint32_t>(end)};
    begin = end;
  }
  records.resize(lines);
}
#endif

/// find_lines with the byte-per-element chunk_by of chunk_by.hpp: the plain composition, kept as the
/// reference the fast one is tested against (and for the teaching material).
template <class CharIt>
void find_lines_bytewise(CharIt text, std::size_t size, thrust::device_vector<record_range>& records, context const& ctx) {
  records.resize(count_chunks<std::uint32_t>(text, text + size, same_line{}, ctx));
  chunk_by_counted(text, text + size, same_line{}, thrust::raw_pointer_cast(records.data()), records.size(), ctx);
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan
