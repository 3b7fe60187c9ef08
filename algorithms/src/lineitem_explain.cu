// SPDX-License-Identifier: Apache-2.0
// `rowscan lineitem --explain` (rowscan/lineitem/explain.hpp): the load's and the query's library
// calls, with each device array copied to the host after the call that writes it.
#include "rowscan/lineitem/explain.hpp"

#include "rowscan/context.hpp"
#include "rowscan/explain/lines.hpp"
#include "rowscan/lineitem/columns.hpp"
#include "rowscan/lineitem/query.hpp"
#include "rowscan/records.hpp"

#include <thrust/device_vector.h>

namespace rowscan::lineitem {
namespace {

using explain::to_host;

explained_filter explain_filter(column_store const& store, std::uint64_t z, context const& ctx) {
  thrust::device_vector<threshold_sums<1>> rows(store.size());
  rows_below(store, z, thrust::raw_pointer_cast(rows.data()), ctx);
  explained_filter out{z, {}, {}};
  for (threshold_sums<1> const& r : to_host(rows)) {
    out.kept.push_back(static_cast<std::uint8_t>(r.rows[0]));
    out.products.push_back(static_cast<std::uint64_t>(r.sum[0]));  // one product: below 2^64
  }
  return out;
}

}  // namespace

explained_lineitem explain(std::string const& text, std::string const& label, std::vector<std::uint64_t> const& thresholds) {
  context ctx;
  explained_lineitem out;
  out.text = text;
  chunk_buffers buffers;
  buffers.text.assign(text.begin(), text.end());
  char const* const chars = thrust::raw_pointer_cast(buffers.text.data());

  find_lines(chars, text.size(), buffers.records, ctx);
  out.lines = explain::explain_lines(chars, text.size(), buffers.records, ctx);
  find_fields(buffers, text.size(), ctx);
  out.pipes = to_host(buffers.pipes);
  out.first_pipe = to_host(buffers.first_pipe);

  column_store store;
  chunk_check const check = parse_rows(buffers, store, ctx);
  if (!check.ok) throw describe_bad_row(label, text.data(), 0, check.bad_record, check.status, check.bad_row + 1);
  out.suppkey = to_host(store.suppkey);
  out.quantity = to_host(store.quantity);
  out.price_cents = to_host(store.price_cents);

  for (std::uint64_t const z : thresholds) out.filters.push_back(explain_filter(store, z, ctx));
  out.answer.bytes = text.size();
  out.answer.rows = store.size();
  out.answer.chunks = 1;
  for (threshold_result const& r : sums_below(store, thresholds, ctx)) {
    out.answer.answers.push_back({r.suppkey_below, r.sum_cents, r.rows});
  }
  return out;
}

}  // namespace rowscan::lineitem
