// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/merge_summaries.hpp: two answers of `rowscan stations` over different inputs, merged
// on the host (no Thrust): the unit of scale-out, where each file or MPI rank summarizes its share.
//
//   a: [Abha -2.0/1.0 (2), Oslo 3.0/3.0 (1)]     b: [Oslo -1.0/4.0 (2), Roma 9.0/9.0 (1)]
//   merge(a, b): [Abha -2.0/1.0 (2), Oslo -1.0/4.0 (3), Roma 9.0/9.0 (1)]
//
// A merge of two name-sorted lists in one pass; equal names combine their exact {min, max, sum, count}.
// The stats monoid is commutative and the lists stay sorted, so any grouping and order gives the same
// answer (tests/test_merge_summaries.cpp checks that against a scalar reference).
#pragma once

#include "rowscan/stations/summary.hpp"

namespace rowscan::stations {

/// The answer of both inputs: stations merged by name (the bytes of the names, as summarize sorts
/// them), the run reports added (job::add_report), the path counts added. `skipped` is left as a's:
/// its positions belong to the caller, who knows where each input lies.
summary merge_summaries(summary a, summary const& b);

}  // namespace rowscan::stations
