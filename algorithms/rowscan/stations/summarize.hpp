// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/summarize.hpp: the `rowscan stations` job, as the host sees it (no Thrust here).
//
// The job driver (job/driver.hpp) reads the input in blocks and hands each to a stations worker
// (worker.hpp), which folds it into its station table by the fast or the general path. At the end the
// table is sorted by name and copied to the host.
#pragma once

#include "rowscan/job/driver.hpp"
#include "rowscan/stations/answer.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace rowscan::stations {

/// The smallest chunk accepted: room for the longest valid line, so a chunk without '\n' is an error.
constexpr std::size_t min_chunk_size = 128;

struct summarize_options : job::job_options {
  unsigned key_bits = 64;      ///< bits of the name hash used as the sort key; fewer force the exact fallback (tests)
  bool portable_only = false;  ///< skip the CUB fast paths (for testing the portable ones on a GPU)
};

/// The answer, and how the run went.
struct summary : job::run_report {
  std::vector<station_summary> stations;  ///< sorted by the bytes of the names
  bool names_compared = false;     ///< some key was shared by two names and the exact fallback ran
  std::size_t fast_chunks = 0;     ///< blocks that took the fast path
  std::size_t general_chunks = 0;  ///< blocks that took the general path
};

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
/// each input's report given to inputs.done (how one host worker folds the pieces it claims).
summary summarize_each(job::input_sequence& inputs, summarize_options const& options);

}  // namespace rowscan::stations
