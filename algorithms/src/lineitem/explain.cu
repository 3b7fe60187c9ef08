// SPDX-License-Identifier: Apache-2.0
// `rowscan lineitem --explain` (rowscan/lineitem/explain.hpp): a lineitem worker whose observer copies
// each device array to the host right after the call that writes it.
#include "rowscan/lineitem/explain.hpp"

#include "rowscan/context.hpp"
#include "rowscan/explain/lines.hpp"
#include "rowscan/lineitem/worker.hpp"

#include <thrust/device_vector.h>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN
namespace {

using explain::to_host;

/// The query's transform for one Z, stored instead of fused into the reduce: the flag and the product of
/// each row of the block's store.
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

/// Records what the block composition computes into an explained_lineitem.
class recorder final : public block_observer {
 public:
  recorder(explained_lineitem& out, std::vector<std::uint64_t> const& thresholds) : out_(out), thresholds_(thresholds) {}

  void parsed(char const* text, std::size_t size, chunk_buffers const& buffers, column_store const& store,
              context const& ctx) override {
    out_.lines = explain::explain_lines(text, size, buffers.records, ctx);
    out_.pipes = to_host(buffers.pipes);
    out_.first_pipe = to_host(buffers.first_pipe);
    out_.suppkey = to_host(store.suppkey);
    out_.quantity = to_host(store.quantity);
    out_.price_cents = to_host(store.price_cents);
    for (std::uint64_t const z : thresholds_) out_.filters.push_back(explain_filter(store, z, ctx));
  }

 private:
  explained_lineitem& out_;
  std::vector<std::uint64_t> const& thresholds_;
};

}  // namespace

explained_lineitem explain(std::string const& text, std::string const& label, std::vector<std::uint64_t> const& thresholds) {
  context ctx;
  explained_lineitem out;
  out.text = text;
  thrust::device_vector<char> const device_text(text.begin(), text.end());
  recorder record(out, thresholds);
  worker sums(ctx, {thresholds, text.size(), false}, &record);
  job::tally const t = sums.fold(thrust::raw_pointer_cast(device_text.data()), text.size());
  if (t.stop) throw job::located(*t.stop, label);

  out.answer.bytes = text.size();
  out.answer.rows = sums.rows();
  out.answer.chunks = 1;
  for (threshold_result const& r : sums.partial()) out.answer.answers.push_back({r.suppkey_below, r.sum_cents, r.rows});
  return out;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
