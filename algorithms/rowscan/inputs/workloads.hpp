// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/workloads.hpp: a workload's entry (rowscan/workload.hpp) as the runs made of pieces take it
// (fold_piece.hpp): its job on an engine, its merge, its wire form and the answer of no input.
#pragma once

#include "rowscan/engine.hpp"
#include "rowscan/inputs/fold_piece.hpp"
#include "rowscan/workload.hpp"

namespace rowscan::inputs {

/// The entry W on engine `on`, for a job with `options` (the answer of no input may depend on them).
template <class W>
workload<typename W::partial, typename W::options> workload_of(engine const& on, typename W::options const& options) {
  return {&on, &W::run, &W::lend, &W::merge, W::empty(options), &W::encode, &W::decode};
}

}  // namespace rowscan::inputs
