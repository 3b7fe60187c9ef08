// rowscan/stations/dense_ids.hpp: the fast path's parse, which names each line's station by a small id.
//
// Once the stations of a file are known (the running table, sorted by key, is the dictionary), a
// line's station is the position of its name in that table: a vectorized lower_bound over at most
// 65,534 sorted keys, confirmed by comparing the name bytes. Rows then carry a 2-byte id and 2-byte
// tenths instead of an 8-byte key, and the sort that groups them has 16 bits to sort, not 64.
// A line the dictionary cannot place gets a sentinel id that sorts after every station, so one look
// at the last group tells whether the chunk needs the general path (new stations or a bad line).
#pragma once

#include "rowscan/config.hpp"
#include "rowscan/stations/line_format.hpp"
#include "rowscan/strings/column.hpp"

#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>

#include <cstddef>
#include <cstdint>

namespace rowscan::stations {

/// A station's position in the dictionary, or one of the two sentinels below.
using station_id = std::uint16_t;
/// A valid line whose name the dictionary does not hold.
constexpr station_id unknown_station = 0xFFFE;
/// A line that does not parse (or more lines than a chunk of valid lines can have).
constexpr station_id bad_line = 0xFFFF;
/// Dictionaries larger than this leave the fast path (ids must stay below the sentinels).
constexpr std::size_t max_dictionary_size = unknown_station;

/// The shortest valid line with its '\n' ("a;0.0\n"): a chunk of n bytes has at most n / 6 + 1 lines.
constexpr std::size_t min_line_bytes = 6;

/// The known stations: keys in ascending order (equal keys adjacent) and their names.
struct dictionary_view {
  std::uint64_t const* keys;
  column_view names;
  std::uint32_t size;

  /// The id of the station with this key and name, or unknown_station.
  ROWSCAN_HD station_id find(std::uint64_t key, string_ref name) const {
    auto i = static_cast<std::uint32_t>(thrust::lower_bound(thrust::seq, keys, keys + size, key) - keys);
    for (; i < size && keys[i] == key; ++i) {  // more than one only when two names share a key
      if (bytes_equal(names(i), name)) return static_cast<station_id>(i);
    }
    return unknown_station;
  }
};

/// for_each_line's sink on the fast path: parses a line, finds its station, writes ids[line] and
/// tenths[line]. Lines past `capacity` are not written (the line count reveals them).
struct parse_to_station_id {
  char const* text;
  dictionary_view dictionary;
  std::uint64_t key_mask;
  station_id* ids;
  std::int16_t* tenths;
  std::uint32_t capacity;

  ROWSCAN_HD void operator()(std::uint32_t line, std::uint32_t begin, std::uint32_t end) const {
    if (line >= capacity) return;
    std::uint32_t size = end - begin;
    if (text[end - 1] == '\n') --size;
    parsed_line const p = parse_line(text + begin, size);
    station_id id = bad_line;
    if (p.status == line_status::ok) id = dictionary.find(p.key & key_mask, string_ref{text + begin, p.name_size});
    ids[line] = id;
    tenths[line] = p.tenths;
  }
};

}  // namespace rowscan::stations
