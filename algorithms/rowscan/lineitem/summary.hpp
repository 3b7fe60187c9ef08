// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/summary.hpp: the `rowscan lineitem` job's options and answer, the same for every
// engine (compiled once; rowscan/lineitem/summarize.hpp runs the job on one system).
#pragma once

#include "rowscan/job/run_report.hpp"
#include "rowscan/lineitem/answer.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rowscan::lineitem {

/// The smallest chunk accepted: room for any row dbgen writes (at most about 170 bytes).
constexpr std::size_t min_chunk_size = 256;

struct summarize_options : job::job_options {
  std::vector<std::uint64_t> suppkey_below;  ///< the thresholds Z, answered in this order
};

/// The answer, and how the run went.
struct summary : job::run_report {
  std::vector<threshold_answer> answers;  ///< in the order of summarize_options::suppkey_below
  std::uint64_t rows = 0;                 ///< rows loaded (the valid ones)
  double load_seconds = 0;   ///< the whole run but the query
  double query_seconds = 0;  ///< the transform_reduce(s), columns already in device memory; 0 when every
                             ///< block was summed in one pass (one_pass.hpp), its query inside the load
  std::uint64_t queried_rows = 0;  ///< the rows query_seconds covers: those of the blocks queried as columns
};

}  // namespace rowscan::lineitem
