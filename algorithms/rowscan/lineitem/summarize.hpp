// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/summarize.hpp: the `rowscan lineitem` job, compiled for each Thrust system (rowscan/system.hpp).
//
// The job driver (job/driver.hpp) reads the input in blocks and hands each to a lineitem worker
// (worker.hpp), which parses the block into a small column store and adds its exact sums to its own:
//   find_lines (chunk_by) -> '|' positions (copy_if) + each record's first '|' (lower_bound)
//   -> parse (transform into the block's columns) -> check (find_if)
//   -> transform_reduce(zip(suppkey, quantity, cents), below_thresholds) -> + the running sums
#pragma once

#include "rowscan/job/driver.hpp"
#include "rowscan/job/lent_group.hpp"
#include "rowscan/lineitem/summary.hpp"
#include "rowscan/system.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN

struct column_store;  // columns.hpp

/// The stages --stats reports, in order.
std::vector<std::string> stage_names();

/// Chunk size used when none is given: a share of the device system's free memory, within the limits.
std::size_t default_chunk_size();

/// Reads the lineitem.tbl rows on fd block by block and answers every threshold (one pass per eight
/// over each block's columns). label names the input in errors. Throws rowscan::input_error at the
/// first bad row (file, 1-based line, byte offset of the faulty field), unless options.skip_invalid.
/// Out of device memory for a block, loads it once more in halves, then throws rowscan::device_error.
summary summarize(int fd, std::string const& label, summarize_options const& options);

/// summarize over each input of `inputs` in turn with the same workers: one answer for all of them,
/// each input's report given to inputs.done (how one run folds a share's pieces).
summary summarize_each(job::input_sequence& inputs, summarize_options const& options);

/// This system's workers for a run of the job, lent to it (rowscan/job/lent_group.hpp): summarize_each is
/// run_lent over them; a run of several engines holds the groups of each (rowscan/inputs/hand_over.hpp).
std::unique_ptr<job::lent_group<summary>> lend(summarize_options const& options);

/// summarize_each with every block parsed into columns, kept (worker_options::keep_columns): `kept` receives each
/// worker's columns, the same answer computed from them (rowscan/session/kept_columns.hpp).
summary summarize_keeping(job::input_sequence& inputs, summarize_options const& options,
                          std::deque<column_store>& kept);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
