// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/row_format.hpp: one row of TPC-H lineitem.tbl as dbgen writes it, checked exactly.
//
// A row is 16 fields, each followed by '|' (the last one too), then '\n':
//   1|155190|7706|1|17|21168.23|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the|
// Only the three fields the query reads are parsed, into integers (no floating point anywhere):
//   l_suppkey (field 2)        [0-9]+                  at most 4294967295
//   l_quantity (field 4)       [0-9]+ or [0-9]+\.00    a whole number, at most 4294967295
//   l_extendedprice (field 5)  [0-9]+\.[0-9][0-9]      in cents, at most 4294967295 (42949672.95)
// The 32-bit limits are what makes the sum safe: quantity * cents < 2^64 for every row, so a 128-bit
// sum of fewer than 2^64 rows cannot overflow (see query.hpp). The TPC-H domains are far inside them
// (quantity <= 50, extended price <= 104,950.00).
//
// parse_fields decides a row from its text and the offsets of its '|' bytes. The device passes the
// offsets found by the load's copy_if; the host error report (parse_row) finds them with a loop. Both
// run this same code, so they agree on what is wrong and where.
#pragma once

#include "rowscan/hd.hpp"

#include <cstdint>

namespace rowscan::lineitem {

/// Fields per row, each terminated by '|'.
constexpr std::uint32_t fields_per_row = 16;
/// 0-based positions of the fields the query reads.
constexpr std::uint32_t suppkey_field = 2;
constexpr std::uint32_t quantity_field = 4;
constexpr std::uint32_t extendedprice_field = 5;

enum class row_status : std::uint8_t {
  ok = 0,
  missing_fields,  ///< fewer than 16 '|': a field is missing, or the last is not followed by '|'
  extra_fields,    ///< bytes after the 16th '|'
  carriage_return, ///< the one byte after the 16th '|' is '\r': a Windows (CR LF) line ending
  bad_suppkey,     ///< l_suppkey is not [0-9]+ within 32 bits
  bad_quantity,    ///< l_quantity is not a whole number within 32 bits
  bad_price,       ///< l_extendedprice is not [0-9]+.[0-9][0-9] within 32 bits of cents
};

/// The columns of one row, or where it is wrong.
struct parsed_row {
  std::uint32_t suppkey;
  std::uint32_t quantity;
  std::uint32_t price_cents;
  row_status status;
  std::uint32_t error_at;  ///< offset in the line of the faulty field, or of where a '|' was expected
};

ROWSCAN_HD inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Accumulates the digits of [t, t + size) into value; false on an empty field, a non-digit, or a
/// value above 2^32 - 1 (checked per digit, so any number of leading zeros is fine).
ROWSCAN_HD inline bool parse_digits(char const* t, std::uint32_t size, std::uint64_t& value) {
  if (size == 0) return false;
  std::uint64_t v = 0;
  for (std::uint32_t i = 0; i < size; ++i) {
    if (!is_digit(t[i])) return false;
    v = v * 10 + static_cast<std::uint64_t>(t[i] - '0');
    if (v > 0xffffffffull) return false;
  }
  value = v;
  return true;
}

/// l_suppkey: [0-9]+ up to 4294967295.
ROWSCAN_HD inline bool parse_key(char const* t, std::uint32_t size, std::uint32_t& key) {
  std::uint64_t v = 0;
  if (!parse_digits(t, size, v)) return false;
  key = static_cast<std::uint32_t>(v);
  return true;
}

/// l_quantity: a whole number, "17" as dbgen writes it or "17.00" as the column's DECIMAL type prints.
ROWSCAN_HD inline bool parse_quantity(char const* t, std::uint32_t size, std::uint32_t& quantity) {
  if (size >= 3 && t[size - 3] == '.') {
    if (t[size - 2] != '0' || t[size - 1] != '0') return false;
    size -= 3;
  }
  return parse_key(t, size, quantity);
}

/// l_extendedprice: [0-9]+\.[0-9][0-9] as integer cents, up to 4294967295 cents.
ROWSCAN_HD inline bool parse_cents(char const* t, std::uint32_t size, std::uint32_t& cents) {
  if (size < 4 || t[size - 3] != '.' || !is_digit(t[size - 2]) || !is_digit(t[size - 1])) return false;
  std::uint64_t dollars = 0;
  if (!parse_digits(t, size - 3, dollars)) return false;
  std::uint64_t const v = dollars * 100 + static_cast<std::uint64_t>(t[size - 2] - '0') * 10 +
                          static_cast<std::uint64_t>(t[size - 1] - '0');
  if (v > 0xffffffffull) return false;
  cents = static_cast<std::uint32_t>(v);
  return true;
}

/// Decides one row, given without its '\n', from its `pipes` '|' bytes; pipe_at(j) is the offset in
/// the line of the j-th (0-based), called only for j < 16 and j < pipes. Field j spans
/// [j == 0 ? 0 : pipe_at(j - 1) + 1, pipe_at(j)).
template <class PipeAt>
ROWSCAN_HD parsed_row parse_fields(char const* line, std::uint32_t size, std::uint32_t pipes, PipeAt pipe_at) {
  parsed_row out{0, 0, 0, row_status::ok, 0};
  if (pipes < fields_per_row) {
    out.status = row_status::missing_fields;
    out.error_at = size;  // where the next '|' should have been
    return out;
  }
  std::uint32_t const last = pipe_at(fields_per_row - 1);
  if (last + 1 != size) {
    bool const crlf = last + 2 == size && line[last + 1] == '\r';
    out.status = crlf ? row_status::carriage_return : row_status::extra_fields;
    out.error_at = last + 1;
    return out;
  }
  auto field_begin = [&](std::uint32_t j) { return j == 0 ? 0u : pipe_at(j - 1) + 1; };
  auto field_size = [&](std::uint32_t j) { return pipe_at(j) - field_begin(j); };
  if (!parse_key(line + field_begin(suppkey_field), field_size(suppkey_field), out.suppkey)) {
    out.status = row_status::bad_suppkey;
    out.error_at = field_begin(suppkey_field);
  } else if (!parse_quantity(line + field_begin(quantity_field), field_size(quantity_field), out.quantity)) {
    out.status = row_status::bad_quantity;
    out.error_at = field_begin(quantity_field);
  } else if (!parse_cents(line + field_begin(extendedprice_field), field_size(extendedprice_field), out.price_cents)) {
    out.status = row_status::bad_price;
    out.error_at = field_begin(extendedprice_field);
  }
  return out;
}

/// pipe_at for parse_fields over an array of offsets.
struct pipe_offsets {
  std::uint32_t const* offsets;
  ROWSCAN_HD std::uint32_t operator()(std::uint32_t j) const { return offsets[j]; }
};

/// The host's way to the same answer: finds the '|' bytes of a line (given without its '\n') with a
/// loop, then parse_fields. pipe_count receives how many the line has. Used to report a bad row.
inline parsed_row parse_row(char const* line, std::uint32_t size, std::uint32_t* pipe_count = nullptr) {
  std::uint32_t offsets[fields_per_row] = {};
  std::uint32_t pipes = 0;
  for (std::uint32_t i = 0; i < size; ++i) {
    if (line[i] != '|') continue;
    if (pipes < fields_per_row) offsets[pipes] = i;
    ++pipes;
  }
  if (pipe_count != nullptr) *pipe_count = pipes;
  return parse_fields(line, size, pipes, pipe_offsets{offsets});
}

/// A user-facing description of a status (host only).
char const* describe(row_status status);

}  // namespace rowscan::lineitem
