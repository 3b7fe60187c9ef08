// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/parse.hpp: the parse step, a transform from records to columns.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/job/tally.hpp"
#include "rowscan/records.hpp"
#include "rowscan/stations/line_format.hpp"

#include <thrust/device_vector.h>
#include <thrust/tuple.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

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

/// The general path's columns of a piece of text, one entry per record (kept across pieces).
struct parsed_records {
  thrust::device_vector<record_range> records;
  thrust::device_vector<std::uint64_t> keys;
  thrust::device_vector<std::int16_t> tenths;
  thrust::device_vector<std::uint8_t> name_sizes;
  thrust::device_vector<std::uint8_t> statuses;
};

/// The general path's parse of text[0, size) (device memory, whole lines):
///   find_lines -> transform(parse_record) into the four columns -> find_if(is_bad_line).
/// Returns the row of the first bad line, or the number of rows if every line is good. The columns are
/// sized through ctx (context::resize), so an out-of-memory test can make them fail.
std::size_t parse_records(char const* text, std::size_t size, std::uint64_t key_mask, parsed_records& out,
                          context const& ctx);

/// What is wrong with line r of a device text, the line_index-th (0-based) of the text: a copy of its
/// first bytes is parsed again on the host to say what and where (positions relative to text).
job::bad_line describe_bad_line(char const* text, record_range r, std::uint64_t line_index, context const& ctx);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
