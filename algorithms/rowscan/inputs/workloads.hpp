// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/workloads.hpp: each command's job as the runs made of pieces take it (fold_piece.hpp): its job on
// an engine (rowscan/engine.hpp), its merge and the answer of no input.
#pragma once

#include "rowscan/engine.hpp"
#include "rowscan/group/summary.hpp"
#include "rowscan/lineitem/merge_summaries.hpp"
#include "rowscan/stations/merge_summaries.hpp"

#include "rowscan/inputs/fold_piece.hpp"

#include <cstdint>
#include <vector>

namespace rowscan::inputs {

inline workload<stations::summary, stations::summarize_options> stations_workload(engine const& on) {
  auto run = [](engine const& e, job::input_sequence& inputs, stations::summarize_options const& options) {
    return e.stations(inputs, options);
  };
  return {&on, run, &stations::merge_summaries, stations::summary{}};
}

inline workload<lineitem::summary, lineitem::summarize_options> lineitem_workload(
    engine const& on, std::vector<std::uint64_t> const& suppkey_below) {
  auto run = [](engine const& e, job::input_sequence& inputs, lineitem::summarize_options const& options) {
    return e.lineitem(inputs, options);
  };
  return {&on, run, &lineitem::merge_summaries, lineitem::empty_summary(suppkey_below)};
}

inline workload<group::summary, group::summarize_options> group_workload(engine const& on) {
  auto run = [](engine const& e, job::input_sequence& inputs, group::summarize_options const& options) {
    return e.group(inputs, options);
  };
  return {&on, run, &group::merge_summaries, group::summary{}};
}

}  // namespace rowscan::inputs
