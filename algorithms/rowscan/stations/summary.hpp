// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/summary.hpp: the `rowscan stations` job's options and answer, the same for every
// engine (compiled once; rowscan/stations/summarize.hpp runs the job on one system).
#pragma once

#include "rowscan/job/run_report.hpp"
#include "rowscan/stations/answer.hpp"

#include <cstddef>
#include <vector>

namespace rowscan::stations {

/// The most stations the fast path names by id: its ids are 16 bits, and one value means "not known".
/// A run over more takes the general path for every later block, which sorts each block's lines by a
/// 64-bit key and merges the block's stations into the table (docs/stations.md, "A million stations").
constexpr std::size_t max_fast_path_stations = 65535;

/// The host systems' workers go on past max_fast_path_stations with 32-bit ids, up to this many stations:
/// a block's lines of known stations are folded by id, and only the others take the general path. Past
/// it every later block takes the general path (rowscan/stations/worker.hpp, wide_fold_up_to_stations,
/// says why it stops there).
constexpr std::size_t max_wide_fold_stations = std::size_t{1} << 17;

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
  /// Of those, blocks that began with more stations than the fast path takes (max_fast_path_stations).
  std::size_t over_limit_chunks = 0;
};

}  // namespace rowscan::stations
