// SPDX-License-Identifier: Apache-2.0
// Two lineitem answers added up (rowscan/lineitem/merge_summaries.hpp).
#include "rowscan/error.hpp"
#include "rowscan/job/merge_reports.hpp"
#include "rowscan/lineitem/merge_summaries.hpp"

namespace rowscan::lineitem {

summary merge_summaries(summary a, summary const& b) {
  ROWSCAN_EXPECTS(a.answers.size() == b.answers.size(), "lineitem answers of different thresholds cannot be merged");
  for (std::size_t i = 0; i < a.answers.size(); ++i) {
    ROWSCAN_EXPECTS(a.answers[i].suppkey_below == b.answers[i].suppkey_below,
                    "lineitem answers of different thresholds cannot be merged");
    a.answers[i].sum_cents += b.answers[i].sum_cents;
    a.answers[i].rows += b.answers[i].rows;
  }
  job::add_report(a, b);
  a.rows += b.rows;
  a.load_seconds += b.load_seconds;
  a.query_seconds += b.query_seconds;
  a.queried_rows += b.queried_rows;
  return a;
}

summary empty_summary(std::vector<std::uint64_t> const& suppkey_below) {
  summary out;
  for (std::uint64_t z : suppkey_below) out.answers.push_back({z, 0, 0});
  return out;
}

}  // namespace rowscan::lineitem
