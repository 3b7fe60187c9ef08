// SPDX-License-Identifier: Apache-2.0
// rowscan/group/fields.hpp: one record's fields, walked from its start (RFC 4180): the key fields'
// places and each value column's exact decimal, or what is wrong with the record.
//
// A field is either unquoted (no quote byte in it) or quoted: a quote, then any bytes with each quote
// doubled, then a quote right before the delimiter or the record's end. Every field of a record is
// checked, in order, and the first fault stops the walk. A record ends before its '\n', and before a
// '\r' right ahead of that '\n' (CRLF). A record with nothing in it (an empty line) is blank: no data.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/config.hpp"
#include "rowscan/group/record_status.hpp"
#include "rowscan/group/records.hpp"
#include "rowscan/group/summary.hpp"

#include <cstdint>

namespace rowscan::group {
ROWSCAN_SYSTEM_BEGIN

/// Where a key field's bytes are in the block, and how many it has once unquoted.
struct key_field {
  std::uint32_t begin;     ///< the first byte inside the quotes (or of the unquoted field)
  std::uint32_t size;      ///< bytes from begin to the closing quote (or the field's end)
  std::uint32_t unquoted;  ///< bytes once each doubled quote is one
};

/// A value of a record: an exact decimal mantissa * 10^-digits, or missing (an empty field).
struct parsed_value {
  std::int64_t mantissa;
  std::uint8_t digits;   ///< digits after the point
  std::uint8_t missing;  ///< 1: the field was empty
};

/// A record's verdict: its status and the offset of the offending byte from the record's start.
struct record_check {
  std::uint32_t at;
  record_status status;
};

/// The columns a walk looks for, in a form a device functor copies.
struct field_plan {
  char delimiter;
  char quote;  ///< 0: none
  std::uint32_t key_count;
  std::uint32_t value_count;
  std::uint32_t keys[max_key_columns];
  std::uint32_t values[max_value_columns];
  std::uint32_t columns;  ///< the highest column asked for, plus one
  int scale;              ///< -1: any digits after the point (up to max_value_digits)
};

/// The plan of a format (its columns within the limits: the CLI checks them).
inline field_plan plan_of(text_format const& format) {
  field_plan plan{};
  plan.delimiter = format.delimiter;
  plan.quote = format.quote;
  plan.key_count = static_cast<std::uint32_t>(format.keys.size());
  plan.value_count = static_cast<std::uint32_t>(format.values.size());
  plan.columns = 0;
  for (std::uint32_t k = 0; k < plan.key_count && k < max_key_columns; ++k) {
    plan.keys[k] = format.keys[k];
    if (format.keys[k] + 1 > plan.columns) plan.columns = format.keys[k] + 1;
  }
  for (std::uint32_t j = 0; j < plan.value_count && j < max_value_columns; ++j) {
    plan.values[j] = format.values[j];
    if (format.values[j] + 1 > plan.columns) plan.columns = format.values[j] + 1;
  }
  plan.scale = format.scale;
  return plan;
}

/// Parses an unquoted value field text[begin, end) into *out; the offending byte's offset from begin in *at.
ROWSCAN_HD inline record_status parse_value(char const* text, std::uint32_t begin, std::uint32_t end, int scale,
                                            parsed_value* out, std::uint32_t* at) {
  out->mantissa = 0;
  out->digits = 0;
  out->missing = 0;
  if (begin == end) {
    out->missing = 1;
    return record_status::ok;
  }
  std::uint32_t i = begin;
  bool negative = false;
  if (text[i] == '-' || text[i] == '+') {
    negative = text[i] == '-';
    ++i;
  }
  std::int64_t m = 0;
  unsigned significant = 0;
  unsigned whole = 0;
  for (; i < end && text[i] >= '0' && text[i] <= '9'; ++i, ++whole) {
    if (m == 0 && text[i] == '0') continue;  // leading zeros are not significant
    if (++significant > max_value_digits) {
      *at = i - begin;
      return record_status::too_many_digits;
    }
    m = m * 10 + (text[i] - '0');
  }
  if (whole == 0) {
    *at = i - begin;
    return record_status::not_a_number;
  }
  unsigned fraction = 0;
  if (i < end && text[i] == '.') {
    ++i;
    for (; i < end && text[i] >= '0' && text[i] <= '9'; ++i) {
      ++fraction;
      if (scale >= 0 && fraction > static_cast<unsigned>(scale)) {
        *at = i - begin;
        return record_status::beyond_scale;
      }
      if ((m != 0 || text[i] != '0') && ++significant > max_value_digits) {
        *at = i - begin;
        return record_status::too_many_digits;
      }
      if (fraction > max_value_digits) {
        *at = i - begin;
        return record_status::too_many_digits;
      }
      m = m * 10 + (text[i] - '0');
    }
    if (fraction == 0) {
      *at = i - begin;
      return record_status::not_a_number;
    }
  }
  if (i != end) {
    *at = i - begin;
    return record_status::not_a_number;
  }
  out->mantissa = negative ? -m : m;
  out->digits = static_cast<std::uint8_t>(fraction);
  return record_status::ok;
}

/// Walks record r's fields: writes its check, its key fields (keys[r * key_count + k]) and its values
/// (values[r * value_count + j]).
struct walk_fields {
  char const* text;
  record_span const* records;
  field_plan plan;
  record_check* checks;
  key_field* keys;
  parsed_value* values;

  ROWSCAN_HD void operator()(std::uint32_t r) const {
    record_span const rec = records[r];
    std::uint32_t end = rec.end;
    if (end > rec.begin && text[end - 1] == '\n') {
      --end;
      if (end > rec.begin && text[end - 1] == '\r') --end;
    }
    key_field* const my_keys = keys + static_cast<std::size_t>(r) * plan.key_count;
    parsed_value* const my_values = values + static_cast<std::size_t>(r) * plan.value_count;
    if (end == rec.begin) {
      checks[r] = {0, record_status::blank};
      return;
    }
    std::uint32_t pos = rec.begin;
    std::uint32_t field = 0;
    for (;;) {
      std::uint32_t const field_start = pos;
      std::uint32_t inner_begin = pos;
      std::uint32_t inner_end = pos;
      std::uint32_t doubled = 0;
      if (plan.quote != 0 && pos < end && text[pos] == plan.quote) {
        ++pos;
        inner_begin = pos;
        for (;;) {
          if (pos >= end) {
            checks[r] = {field_start - rec.begin, record_status::open_quote};
            return;
          }
          if (text[pos] == plan.quote) {
            if (pos + 1 < end && text[pos + 1] == plan.quote) {
              ++doubled;
              pos += 2;
              continue;
            }
            break;
          }
          ++pos;
        }
        inner_end = pos;
        ++pos;  // the closing quote
        if (pos < end && text[pos] != plan.delimiter) {
          checks[r] = {pos - rec.begin, record_status::after_closing_quote};
          return;
        }
      } else {
        while (pos < end && text[pos] != plan.delimiter) {
          if (plan.quote != 0 && text[pos] == plan.quote) {
            checks[r] = {pos - rec.begin, record_status::quote_in_field};
            return;
          }
          ++pos;
        }
        inner_end = pos;
      }
      for (std::uint32_t k = 0; k < plan.key_count; ++k) {
        if (plan.keys[k] == field)
          my_keys[k] = {inner_begin, inner_end - inner_begin, inner_end - inner_begin - doubled};
      }
      for (std::uint32_t j = 0; j < plan.value_count; ++j) {
        if (plan.values[j] != field) continue;
        std::uint32_t at = 0;
        record_status const s = parse_value(text, inner_begin, inner_end, plan.scale, my_values + j, &at);
        if (s != record_status::ok) {
          checks[r] = {inner_begin + at - rec.begin, s};
          return;
        }
      }
      if (pos >= end) break;
      ++pos;  // the delimiter
      ++field;
    }
    if (field + 1 < plan.columns) {
      checks[r] = {end - rec.begin, record_status::too_few_fields};
      return;
    }
    checks[r] = {0, record_status::ok};
  }
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::group
