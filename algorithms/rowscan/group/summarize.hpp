// SPDX-License-Identifier: Apache-2.0
// rowscan/group/summarize.hpp: the `rowscan group` job, compiled for each Thrust system (rowscan/system.hpp).
//
// The job driver (job/driver.hpp) reads the input in blocks of whole records (a quoted field's newline
// never ends a block: io::reader_options::quote) and hands each to a group worker (worker.hpp); the
// workers' key tables become the answer's rows, in byte order of their keys.
#pragma once

#include "rowscan/group/explained.hpp"
#include "rowscan/group/summary.hpp"
#include "rowscan/job/lent_group.hpp"
#include "rowscan/job/run_report.hpp"
#include "rowscan/system.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace rowscan::group {
ROWSCAN_SYSTEM_BEGIN

/// The stages --stats reports, in order.
std::vector<std::string> stage_names();

/// Chunk size used when none is given.
std::size_t default_chunk_size();

/// summarize over each input of `inputs` in turn with the same workers: one answer for all of them.
/// Throws rowscan::input_error at the first bad record (file, line, column), unless options.skip_invalid.
summary summarize_each(job::input_sequence& inputs, summarize_options const& options);

/// This system's workers for a run of the job, lent to it (rowscan/job/lent_group.hpp): summarize_each is
/// run_lent over them; a run of several engines holds the groups of each (rowscan/inputs/hand_over.hpp).
std::unique_ptr<job::lent_group<summary>> lend(summarize_options const& options);

/// The answer of one small text, as --explain runs it (one block, one worker), with its stages' arrays.
explained_group explain(std::string const& text, std::string const& label, summarize_options const& options);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::group
