// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/merge_summaries.hpp: two answers of `rowscan lineitem` over different inputs, merged
// on the host (no Thrust): each threshold's exact sum and row count add up. The unit of scale-out,
// where each file or MPI rank summarizes its share.
#pragma once

#include "rowscan/lineitem/summary.hpp"

namespace rowscan::lineitem {

/// The answer of both inputs. Both must answer the same thresholds in the same order (rowscan::error
/// otherwise). The run reports add up (job::add_report), as do rows and the load and query seconds;
/// `skipped` is left as a's: its positions belong to the caller, who knows where each input lies.
summary merge_summaries(summary a, summary const& b);

/// The answer of no input at all: every threshold with a sum of 0 over 0 rows (the merge's identity).
summary empty_summary(std::vector<std::uint64_t> const& suppkey_below);

}  // namespace rowscan::lineitem
