// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/columns.hpp: the small column store of lineitem, and how a chunk of text fills it.
//
// Per block of whole lines, already in device memory (the job driver copies it there):
//   find_lines (chunk_by)                                  record ranges
//        -> count + copy_if(is_pipe) over positions       the offsets of every '|' of the chunk, once
//        -> lower_bound(record starts) into those         each record's first '|' (its field 0 ends there)
//        -> transform(parse_row_at) into the store's tail suppkey, quantity, cents + a status per row
//           (or, without an observer: transform(parse_row_walking), each row's '|' found by a walk over
//            its own bytes, in place of the three steps above)
//        -> find_if(is_bad_row)                           the first bad row, re-parsed on the host
//        -> (--skip-invalid) remove_if(stencil: statuses)  the good rows of the tail, in order
// Field j of record r lies between '|' number first[r] + j - 1 and first[r] + j: a fixed rank from
// the record's own first '|', valid once the row is known to hold exactly 16 of them (parse_fields
// checks that from first[r + 1] - first[r] before it reads any field).
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/job/tally.hpp"
#include "rowscan/lineitem/row_format.hpp"
#include "rowscan/lineitem/row_walk.hpp"
#include "rowscan/records.hpp"

#include <thrust/device_vector.h>
#include <thrust/tuple.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN

/// The columns the query needs, one entry per row of a block, in input order. Nothing else of a row is kept.
// [docs:column-store]
struct column_store {
  thrust::device_vector<std::uint32_t> suppkey;
  thrust::device_vector<std::uint32_t> quantity;
  thrust::device_vector<std::uint32_t> price_cents;  ///< l_extendedprice in cents

  std::size_t size() const { return suppkey.size(); }
  void resize(std::size_t rows) {
    suppkey.resize(rows);
    quantity.resize(rows);
    price_cents.resize(rows);
  }
  /// Bytes the query reads per row.
  static constexpr std::size_t row_bytes = 3 * sizeof(std::uint32_t);
};
// [docs:end]

/// True for the field separator.
struct is_pipe {
  ROWSCAN_HD bool operator()(char c) const { return c == '|'; }
};

/// The position lower_bound looks up for needle r: where record r starts, and for r == rows the end
/// of the chunk, so that first[r + 1] - first[r] counts the '|' of record r for every r.
struct record_start_or_end {
  record_range const* records;
  std::uint32_t rows;
  std::uint32_t text_size;
  ROWSCAN_HD std::uint32_t operator()(std::uint32_t r) const { return r < rows ? records[r].begin : text_size; }
};

/// The parsed columns and status of one row.
using row_columns = thrust::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint8_t>;

/// pipe_at for parse_fields on the device: the chunk's '|' positions, relative to the record start.
struct chunk_pipes {
  std::uint32_t const* pipes;  ///< the record's first '|' in the chunk's list
  std::uint32_t record_begin;
  ROWSCAN_HD std::uint32_t operator()(std::uint32_t j) const { return pipes[j] - record_begin; }
};

/// Parses record r of a chunk from its text and its '|' positions (see the header comment).
struct parse_row_at {
  char const* text;
  record_range const* records;
  std::uint32_t const* pipes;        ///< every '|' position of the chunk, ascending
  std::uint32_t const* first_pipe;   ///< rows + 1 entries: index in pipes of each record's first '|'
  ROWSCAN_HD row_columns operator()(std::uint32_t r) const {
    record_range const rec = records[r];
    std::uint32_t size = rec.size();
    if (size > 0 && text[rec.end - 1] == '\n') --size;
    std::uint32_t const first = first_pipe[r];
    parsed_row const p = parse_fields(text + rec.begin, size, first_pipe[r + 1] - first,
                                      chunk_pipes{pipes + first, rec.begin});
    return {p.suppkey, p.quantity, p.price_cents, static_cast<std::uint8_t>(p.status)};
  }
};

/// Bytes a block's text needs readable after its end for row_walk.hpp's walks: the rest of the aligned
/// 8-byte word that holds its last byte.
constexpr std::size_t walk_padding_bytes = 8;

/// Parses record r of a chunk in one walk over its bytes (row_walk.hpp), without the chunk's '|' list:
/// the walk counts the row's '|' and keeps the ones parse_fields reads, so the text is read once, where
/// find_fields and parse_row_at read it twice and write and search the list between
/// (docs/gpu-profile.md).
struct parse_row_walking {
  char const* text;
  record_range const* records;
  ROWSCAN_HD row_columns operator()(std::uint32_t r) const {
    record_range const rec = records[r];
    parsed_row const p = walk_row(text, rec.begin, rec.end, rec.size()).parse(text + rec.begin);
    return {p.suppkey, p.quantity, p.price_cents, static_cast<std::uint8_t>(p.status)};
  }
};

/// True for a status other than row_status::ok.
struct is_bad_row {
  ROWSCAN_HD bool operator()(std::uint8_t status) const { return status != static_cast<std::uint8_t>(row_status::ok); }
};

/// Device arrays of one block, kept across blocks so that steady state does not reallocate.
struct chunk_buffers {
  thrust::device_vector<record_range> records;
  thrust::device_vector<std::uint32_t> line_count;  ///< find_lines_in_one_scan's count
  thrust::device_vector<std::uint32_t> pipes;
  thrust::device_vector<std::uint32_t> first_pipe;
  thrust::device_vector<std::uint8_t> statuses;
};

/// Where parse_rows found the first bad row, if any.
struct chunk_check {
  bool ok = true;
  std::size_t bad_row = 0;       ///< 0-based record of the chunk
  record_range bad_record{0, 0};
  row_status status = row_status::ok;
};

/// Finds the fields of the rows of text[0, size) (device memory, one block, its records already found
/// by find_lines into buffers.records), then parses them and appends their columns to store. On a bad
/// row the store's new tail is unspecified and the returned check says which row.
void find_fields(char const* text, std::size_t size, chunk_buffers& buffers, context const& ctx);
chunk_check parse_rows(char const* text, chunk_buffers& buffers, column_store& store, context const& ctx);

/// find_fields and parse_rows in one pass (parse_row_walking): the same columns and check, without the
/// '|' list (buffers.pipes and buffers.first_pipe are left as they are).
chunk_check parse_rows_walking(char const* text, chunk_buffers& buffers, column_store& store, context const& ctx);

/// What is wrong with the bad record r of a device text, the line_index-th (0-based) of the text: the
/// row is copied to the host and parsed again to say what and where (positions relative to text);
/// status is what the device said.
job::bad_line describe_bad_row(char const* text, record_range r, row_status status, std::uint64_t line_index,
                               context const& ctx);

/// After parse_rows found a bad row: drops every row it flagged from the store's tail (the rows from
/// old_size on), keeping the others in order. Returns how many it kept. For --skip-invalid.
std::size_t drop_bad_rows(chunk_buffers const& buffers, column_store& store, std::size_t old_size, context const& ctx);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
