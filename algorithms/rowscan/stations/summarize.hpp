// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/summarize.hpp: the `rowscan stations` job, as the host sees it (no Thrust here).
//
// Reader threads fill pinned blocks; per chunk of whole lines: copy to the device, then the
// station_accumulator's fast path (find + parse to dense ids, sort, reduce_by_key, merge) or, for new
// stations and bad lines, its general path (accumulator.hpp). At the end: sorted_by_name -> host.
#pragma once

#include "rowscan/skipped_lines.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rowscan::stations {

/// The smallest chunk accepted: room for the longest valid line, so a chunk without '\n' is an error.
constexpr std::size_t min_chunk_size = 128;
/// The largest chunk: positions inside a chunk are 32-bit.
constexpr std::size_t max_chunk_size = std::size_t{1} << 31;

struct summarize_options {
  /// Bytes of text held on the device at once, in two halves (one is copied while the other is
  /// worked on); 0: default_chunk_size().
  std::size_t chunk_size = 0;
  unsigned key_bits = 64;      ///< bits of the name hash used as the sort key; fewer force the exact fallback (tests)
  bool time_stages = false;    ///< synchronize after every stage so stage_times are exact
  unsigned reader_threads = 0; ///< threads reading a regular file; 0: one per core, up to 16
  bool portable_only = false;  ///< skip the CUB fast paths (for testing the portable ones on a GPU)
  /// Leave bad lines out of the answer and record them in summary::skipped, instead of stopping at the
  /// first. A line longer than 4096 bytes (the reader's carry) still stops the run.
  bool skip_invalid = false;
  /// Testing aid: chunk-sized device arrays of more than this many bytes fail as on a full device
  /// (context::fail_allocations_above); 0: never.
  std::size_t fail_allocations_above = 0;
  /// Called after each chunk with the input bytes done so far (for a progress display).
  std::function<void(std::uint64_t)> progress;
};

/// Seconds spent in each stage (all zero unless time_stages, except read: the wait for input).
struct stage_times {
  double device_setup = 0;  ///< the device context (the first CUDA call), measured always
  double reader_setup = 0;  ///< the pinned staging ring and the reader threads
  double read = 0;     ///< waiting for the reader threads
  double copy = 0;     ///< host to device
  double parse = 0;    ///< fast path: find lines and parse them to station ids (one scan)
  double sort = 0;     ///< fast path: sort_by_key of the ids
  double reduce = 0;   ///< fast path: reduce_by_key into per-station stats
  double merge = 0;    ///< fast path: into the running table
  double general = 0;  ///< the general path (first chunk, new stations)
  double output = 0;   ///< sorted_by_name, copy to the host, formatting
};

/// One station of the answer; mean_tenths() of stats.hpp gives the rounded mean.
struct station_summary {
  std::string name;
  std::int32_t min;  ///< tenths
  std::int32_t max;  ///< tenths
  std::int64_t sum;  ///< tenths
  std::int64_t count;
};

struct summary {
  std::vector<station_summary> stations;  ///< sorted by the bytes of the names
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;  ///< lines of the input, skipped ones included
  skipped_lines skipped;    ///< the bad lines left out (skip_invalid)
  std::size_t chunks = 0;
  std::size_t chunk_size = 0;
  bool names_compared = false;  ///< some key was shared by two names and the exact fallback ran
  std::size_t fast_chunks = 0;     ///< chunks that took the fast path
  std::size_t general_chunks = 0;  ///< chunks that took the general path
  std::size_t device_bytes = 0;    ///< device memory held at the end beyond what was in use at the start
  stage_times times;
};

/// Chunk size used when none is given: a share of the device system's free memory, within the limits.
std::size_t default_chunk_size();

/// Reads the measurements on fd to its end and summarizes them per station. label names the input in
/// errors. Throws rowscan::input_error at the first bad line (file, 1-based line, byte offset), unless
/// options.skip_invalid. Out of device memory for a chunk, tries it once more in halves, then throws
/// rowscan::device_error.
summary summarize(int fd, std::string const& label, summarize_options const& options);

/// The rounded mean in tenths (half up, toward +infinity).
std::int64_t mean_tenths(station_summary const& s);

}  // namespace rowscan::stations
