// rowscan/stations/parse.hpp: the parse step, a transform from records to columns.
#pragma once

#include "rowscan/records.hpp"
#include "rowscan/stations/line_format.hpp"

#include <thrust/tuple.h>

#include <cstdint>

namespace rowscan::stations {

/// Columns of a parsed record: name key, temperature in tenths, name size, line_status.
using parsed_columns = thrust::tuple<std::uint64_t, std::int16_t, std::uint8_t, std::uint8_t>;

/// Parses the record [begin, end) of a text chunk, without its '\n', into parsed_columns. Keys keep
/// only key_mask's bits (all of them except in tests that force shared keys).
struct parse_record {
  char const* text;
  std::uint64_t key_mask;
  ROWSCAN_HD parsed_columns operator()(record_range r) const {
    std::uint32_t size = r.size();
    if (size > 0 && text[r.end - 1] == '\n') --size;
    parsed_line const p = parse_line(text + r.begin, size);
    return {p.key & key_mask, p.tenths, p.name_size, static_cast<std::uint8_t>(p.status)};
  }
};

/// True for a status other than line_status::ok.
struct is_bad_line {
  ROWSCAN_HD bool operator()(std::uint8_t status) const { return status != static_cast<std::uint8_t>(line_status::ok); }
};

}  // namespace rowscan::stations
