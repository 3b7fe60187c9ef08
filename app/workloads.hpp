// SPDX-License-Identifier: Apache-2.0
// app/workloads.hpp: each command's job as the runs made of pieces take it (fold_piece.hpp): its
// summarize, its merge and the answer of no input.
#pragma once

#include "rowscan/lineitem/merge_summaries.hpp"
#include "rowscan/lineitem/summarize.hpp"
#include "rowscan/stations/merge_summaries.hpp"
#include "rowscan/stations/summarize.hpp"

#include "fold_piece.hpp"

#include <cstdint>
#include <vector>

namespace rowscan::app {

inline workload<stations::summary, stations::summarize_options> stations_workload() {
  return {&stations::summarize, &stations::summarize_each, &stations::merge_summaries, stations::summary{}};
}

inline workload<lineitem::summary, lineitem::summarize_options> lineitem_workload(
    std::vector<std::uint64_t> const& suppkey_below) {
  return {&lineitem::summarize, &lineitem::summarize_each, &lineitem::merge_summaries,
          lineitem::empty_summary(suppkey_below)};
}

}  // namespace rowscan::app
