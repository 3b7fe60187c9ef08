// SPDX-License-Identifier: Apache-2.0
// rowscan/job/merge_reports.hpp: the counters of two runs over neighbouring inputs, added (no Thrust).
//
// Several files, or several ranks, each run the job driver on their own piece of the input; the
// answer's report is the sum of theirs. What --skip-invalid left out is not merged here: its positions
// merged by job::merge on tallies that say which input each bad line is in (rowscan/inputs/outcome.hpp).
#pragma once

#include "rowscan/job/run_report.hpp"

#include <algorithm>

namespace rowscan::job {

/// Adds the report of a later piece to `into`: bytes, lines, blocks, stage seconds and each worker's
/// share add up; the
/// chunk size and memory figures are the largest any piece had. `skipped` is left alone.
inline void add_report(run_report& into, run_report const& later) {
  into.bytes += later.bytes;
  into.lines += later.lines;
  into.chunks += later.chunks;
  into.chunk_size = std::max(into.chunk_size, later.chunk_size);
  into.device_bytes = std::max(into.device_bytes, later.device_bytes);
  into.pool_peak_bytes = std::max(into.pool_peak_bytes, later.pool_peak_bytes);
  into.threads_while_folding = std::max(into.threads_while_folding, later.threads_while_folding);
  for (auto const& [stage, seconds] : later.times.stages()) into.times.add(stage.c_str(), seconds);
  // Worker i of every piece is the same processor (the same worker set folds each file in turn).
  if (into.shares.size() < later.shares.size()) into.shares.resize(later.shares.size());
  for (std::size_t i = 0; i < later.shares.size(); ++i) {
    if (into.shares[i].blocks == 0) into.shares[i].first_block_at = later.shares[i].first_block_at;
    into.shares[i].blocks += later.shares[i].blocks;
    into.shares[i].bytes += later.shares[i].bytes;
    into.shares[i].busy_seconds += later.shares[i].busy_seconds;
    into.shares[i].on_gpu = later.shares[i].on_gpu;
  }
}

}  // namespace rowscan::job
