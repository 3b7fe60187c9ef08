// SPDX-License-Identifier: Apache-2.0
// rowscan/group/record_status.hpp: what the field walk (fields.hpp) finds a record to be, and the
// words of its error (compiled once).
#pragma once

#include "rowscan/group/summary.hpp"

#include <cstdint>
#include <string>

namespace rowscan::group {

/// What a record is (compiled once: its words are the error's).
enum class record_status : std::uint8_t {
  ok = 0,
  blank,                ///< an empty line: no fields, no data (not an error)
  too_few_fields,       ///< fewer fields than the highest column asked for
  quote_in_field,       ///< a quote inside an unquoted field
  after_closing_quote,  ///< something other than the delimiter after a quoted field's closing quote
  open_quote,           ///< a quoted field that does not end
  not_a_number,         ///< a value that is not -?digits(.digits)?
  too_many_digits,      ///< a value of more than max_value_digits digits
  beyond_scale,         ///< a value with more digits after the point than --scale allows
};

/// The error's words for a record's status.
std::string describe(record_status status, text_format const& format);

}  // namespace rowscan::group
