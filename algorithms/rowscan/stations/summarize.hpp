// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/summarize.hpp: the `rowscan stations` job, compiled for each Thrust system (rowscan/system.hpp).
//
// The job driver (job/driver.hpp) reads the input in blocks and hands each to a stations worker
// (worker.hpp), which folds it into its station table by the fast or the general path. At the end the
// table is sorted by name and copied to the host.
#pragma once

#include "rowscan/job/driver.hpp"
#include "rowscan/job/lent_group.hpp"
#include "rowscan/stations/summary.hpp"
#include "rowscan/system.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

/// The stages --stats reports, in order.
std::vector<std::string> stage_names();

/// Chunk size used when none is given: a share of the device system's free memory, within the limits.
std::size_t default_chunk_size();

/// Reads the measurements on fd to its end and summarizes them per station. label names the input in
/// errors. Throws rowscan::input_error at the first bad line (file, 1-based line, byte offset), unless
/// options.skip_invalid. Out of device memory for a block, tries it once more in halves, then throws
/// rowscan::device_error.
summary summarize(int fd, std::string const& label, summarize_options const& options);

/// summarize over each input of `inputs` in turn with the same workers: one answer for all of them,
/// each input's report given to inputs.done (how one run folds a share's pieces).
summary summarize_each(job::input_sequence& inputs, summarize_options const& options);

/// This system's workers for a run of the job, lent to it (rowscan/job/lent_group.hpp): summarize_each is
/// run_lent over them; a run of several engines holds the groups of each (rowscan/inputs/hand_over.hpp).
std::unique_ptr<job::lent_group<summary>> lend(summarize_options const& options);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
