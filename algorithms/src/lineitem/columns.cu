// SPDX-License-Identifier: Apache-2.0
// The parse of one block of lineitem.tbl into the column store (see rowscan/lineitem/columns.hpp).
#include "rowscan/lineitem/columns.hpp"

#include "rowscan/error.hpp"
#include "rowscan/read_back.hpp"

#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/find.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/remove.h>
#include <thrust/transform.h>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN

/// count_if + copy_if(is_pipe) -> the chunk's '|' positions; lower_bound -> each record's first '|'.
void find_fields(char const* text, std::size_t size, chunk_buffers& buffers, context const& ctx) {
  auto policy = ctx.policy();
  auto const positions = thrust::counting_iterator<std::uint32_t>(0);
  auto const end = thrust::counting_iterator<std::uint32_t>(static_cast<std::uint32_t>(size));

  // Counting first sizes the list exactly: a '|' list as long as the chunk would be 4x its bytes.
  ctx.resize(buffers.pipes, static_cast<std::size_t>(thrust::count_if(policy, text, text + size, is_pipe{})));
  thrust::copy_if(policy, positions, end, text, buffers.pipes.begin(), is_pipe{});

  auto const rows = static_cast<std::uint32_t>(buffers.records.size());
  ctx.resize(buffers.first_pipe, std::size_t{rows} + 1);
  auto needles = thrust::make_transform_iterator(
      positions, record_start_or_end{thrust::raw_pointer_cast(buffers.records.data()), rows,
                                     static_cast<std::uint32_t>(size)});
  thrust::lower_bound(policy, buffers.pipes.begin(), buffers.pipes.end(), needles, needles + rows + 1,
                      buffers.first_pipe.begin());
}

namespace {

/// transform(parse_row) over the records into the store's tail -> find_if(is_bad_row).
template <class ParseRow>
chunk_check parse_rows_with(ParseRow parse_row, chunk_buffers& buffers, column_store& store, context const& ctx) {
  auto policy = ctx.policy();
  std::size_t const rows = buffers.records.size();
  std::size_t const old_size = store.size();
  ctx.resize(store.suppkey, old_size + rows);
  ctx.resize(store.quantity, old_size + rows);
  ctx.resize(store.price_cents, old_size + rows);
  ctx.resize(buffers.statuses, rows);

  auto const out = thrust::make_zip_iterator(thrust::make_tuple(
      store.suppkey.begin() + old_size, store.quantity.begin() + old_size, store.price_cents.begin() + old_size,
      buffers.statuses.begin()));
  auto const first = thrust::counting_iterator<std::uint32_t>(0);
  thrust::transform(policy, first, first + rows, out, parse_row);

  chunk_check check;
  auto const bad = thrust::find_if(policy, buffers.statuses.begin(), buffers.statuses.end(), is_bad_row{});
  if (bad != buffers.statuses.end()) {
    check.ok = false;
    check.bad_row = static_cast<std::size_t>(bad - buffers.statuses.begin());
    check.bad_record = read_back(buffers.records, check.bad_row, ctx);
    check.status = static_cast<row_status>(read_back(buffers.statuses, check.bad_row, ctx));
  }
  return check;
}

}  // namespace

chunk_check parse_rows(char const* text, chunk_buffers& buffers, column_store& store, context const& ctx) {
  return parse_rows_with(parse_row_at{text, thrust::raw_pointer_cast(buffers.records.data()),
                                      thrust::raw_pointer_cast(buffers.pipes.data()),
                                      thrust::raw_pointer_cast(buffers.first_pipe.data())},
                         buffers, store, ctx);
}

chunk_check parse_rows_walking(char const* text, chunk_buffers& buffers, column_store& store, context const& ctx) {
  return parse_rows_with(parse_row_walking{text, thrust::raw_pointer_cast(buffers.records.data())}, buffers, store, ctx);
}

job::bad_line describe_bad_row(char const* text, record_range r, row_status status, std::uint64_t line_index,
                               context const& ctx) {
  std::string row(r.size(), '\0');  // at most the carried line, 64 KiB
  copy_to_host(text + r.begin, row.size(), row.data(), ctx);
  std::uint32_t size = r.size();
  if (size > 0 && row[size - 1] == '\n') --size;
  std::uint32_t pipes = 0;
  parsed_row const p = parse_row(row.data(), size, &pipes);
  if (p.status != row_status::ok) status = p.status;
  std::string what = describe(status);
  if (status == row_status::missing_fields || status == row_status::extra_fields) {
    what += " (this line has " + std::to_string(pipes) + ")";
  }
  return job::bad_line_at(line_index, r.begin, p.error_at, what, row.substr(0, size), false);
}

/// remove_if(zip of the store's new tail, stencil: the statuses) -> the good rows at the front of the tail.
std::size_t drop_bad_rows(chunk_buffers const& buffers, column_store& store, std::size_t old_size, context const& ctx) {
  auto const tail = static_cast<std::ptrdiff_t>(old_size);
  auto const columns = thrust::make_zip_iterator(
      thrust::make_tuple(store.suppkey.begin() + tail, store.quantity.begin() + tail, store.price_cents.begin() + tail));
  auto const rows = static_cast<std::ptrdiff_t>(buffers.statuses.size());
  auto const kept = thrust::remove_if(ctx.policy(), columns, columns + rows, buffers.statuses.begin(), is_bad_row{}) - columns;
  store.resize(old_size + static_cast<std::size_t>(kept));
  return static_cast<std::size_t>(kept);
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
