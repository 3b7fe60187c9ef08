// SPDX-License-Identifier: Apache-2.0
// lineitem's columns of a file kept for later queries (rowscan/session/kept_columns.hpp), in this system's memory.
#include "rowscan/session/kept_columns.hpp"

#include "rowscan/context.hpp"
#include "rowscan/job/driver.hpp"
#include "rowscan/lineitem/columns.hpp"
#include "rowscan/lineitem/query.hpp"
#include "rowscan/lineitem/summarize.hpp"
#include "rowscan/lineitem/worker.hpp"

#include <thrust/copy.h>

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN
namespace {

/// One store of a file's columns, and a context of its own (a stream and a pool) that every query of it
/// reuses: a query makes nothing but its reduction's temporaries, which the pool keeps.
class system_columns final : public kept_columns {
 public:
  system_columns(column_store store, int device) : store_(std::move(store)), device_(device) {}
  ~system_columns() override {
    try {
      job::use_device(device_);  // its memory and stream are that device's
    } catch (...) {
      // a device that cannot be made current: free what can be freed from here
    }
  }

  std::uint64_t rows() const override { return store_.size(); }
  std::uint64_t bytes() const override { return store_.size() * column_store::row_bytes; }

  std::vector<threshold_answer> sums_below(std::vector<std::uint64_t> const& thresholds) const override {
    std::lock_guard<std::mutex> lock(mutex_);  // one query at a time on the context
    job::use_device(device_);
    std::vector<threshold_answer> out;
    for (threshold_result const& r : lineitem::sums_below(store_, thresholds, ctx_)) {
      out.push_back({r.suppkey_below, r.sum_cents, r.rows});
    }
    return out;
  }

 private:
  column_store store_;
  int device_;
  mutable std::mutex mutex_;
  context ctx_;
};

/// The workers' columns in one store of exactly their rows (theirs grew by doubling), each freed once copied.
column_store gathered(std::deque<column_store>& blocks, context const& ctx) {
  std::size_t rows = 0;
  for (column_store const& b : blocks) rows += b.size();
  column_store all;
  all.resize(rows);
  std::size_t at = 0;
  for (column_store& b : blocks) {
    thrust::copy(ctx.policy(), b.suppkey.begin(), b.suppkey.end(), all.suppkey.begin() + at);
    thrust::copy(ctx.policy(), b.quantity.begin(), b.quantity.end(), all.quantity.begin() + at);
    thrust::copy(ctx.policy(), b.price_cents.begin(), b.price_cents.end(), all.price_cents.begin() + at);
    at += b.size();
    ctx.synchronize();  // the copies are done before the block's memory goes
    b = column_store{};
  }
  return all;
}

summary summarize_keeping_columns(job::input_sequence& inputs, summarize_options const& options,
                                  std::shared_ptr<kept_columns>& kept) {
  std::deque<column_store> blocks;
  summary out = summarize_keeping(inputs, options, blocks);
  int const device = job::current_device();
  context const ctx;
  kept = std::make_shared<system_columns>(gathered(blocks, ctx), device);
  return out;
}

}  // namespace
ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem

namespace rowscan {
#if ROWSCAN_HAS_CUB
column_keeper const* gpu_column_keeper() {
#else
column_keeper const* host_column_keeper() {
#endif
  static column_keeper const keeper{&lineitem::summarize_keeping_columns, lineitem::max_carried_line};
  return &keeper;
}
}  // namespace rowscan
