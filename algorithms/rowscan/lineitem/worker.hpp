// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/worker.hpp: the lineitem block composition, as the job driver sees it.
//
//   block -> sums_in_one_pass (one_pass.hpp): one transform_reduce over the text's stretches (512 bytes
//            on a GPU, 64 KiB on the host) that finds, parses and sums every row in registers
//         -> added to the worker's sums
// and, where that pass met a bad or overlong row (or --explain asks to see each step):
//   block -> find records (records.hpp) -> parse_rows_walking into the block's column store (columns.hpp; under
//            --explain find_fields -> parse_rows, which keep the '|' list an observer shows)
//         -> a bad row: stop there, or with skip_invalid count, word the first few and remove_if them
//         -> sums_below (query.hpp): one fused transform_reduce per eight thresholds
//         -> added to the worker's sums
//
// The worker's partial answer is one exact sum (and row count) per threshold; two partial answers
// merge by adding them, threshold by threshold: associative and commutative.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/job/block_worker.hpp"
#include "rowscan/lineitem/columns.hpp"
#include "rowscan/lineitem/observer.hpp"
#include "rowscan/lineitem/query.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN

/// The longest line the reader carries between blocks (dbgen's rows are under 200 bytes).
constexpr std::size_t max_carried_line = std::size_t{64} << 10;

/// A partial answer: for each threshold, in the order given, the sum and the rows below it.
using partial_sums = std::vector<threshold_result>;

/// The answer of two partial answers for the same thresholds: their sums added.
partial_sums merge(partial_sums a, partial_sums const& b);

struct worker_options {
  std::vector<std::uint64_t> suppkey_below;  ///< the thresholds Z
  std::size_t chunk_size = 0;                ///< the run's chunk size, named in an overlong row's error
  bool skip_invalid = false;                 ///< leave bad rows out instead of stopping at the first
  /// Keep each block's columns (kept()) for later queries: every block takes the step-by-step composition,
  /// which stores them, instead of the one pass, which stores nothing.
  bool keep_columns = false;
};

class worker final : public job::block_worker {
 public:
  /// observer: told each stage's arrays (--explain); nullptr for none.
  worker(context const& ctx, worker_options options, block_observer* observer = nullptr);

  job::tally fold(char const* text, std::size_t size) override;
  job::bad_line overlong_line(std::string_view prefix) const override;

  /// The partial answer: the sums over the rows of the blocks folded so far.
  partial_sums const& partial() const { return sums_; }
  /// Valid rows folded so far.
  std::uint64_t rows() const { return rows_; }
  /// Seconds spent in the query (sums_below), measured always.
  double query_seconds() const { return query_seconds_; }
  /// Rows of the blocks that sums_below queried (the others were summed in one pass).
  std::uint64_t queried_rows() const { return queried_rows_; }
  /// With keep_columns: the columns of every block folded so far (their valid rows), in the order this worker
  /// folded them, once the worker's copies of them are done; the worker keeps none after.
  column_store take_kept();

 private:
  std::size_t first_overlong_row(std::size_t size) const;
  void keep_rows();
  std::string overlong_words(std::size_t max_line) const;

  context ctx_;
  worker_options options_;
  block_observer* observer_;
  chunk_buffers buffers_;
  column_store store_;  // the block's rows; cleared for each block
  column_store kept_;  // with keep_columns: every block's rows

  partial_sums sums_;
  std::uint64_t rows_ = 0;
  double query_seconds_ = 0;
  std::uint64_t queried_rows_ = 0;
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
