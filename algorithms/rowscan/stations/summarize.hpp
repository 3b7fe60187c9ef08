// rowscan/stations/summarize.hpp: the `rowscan stations` job, as the host sees it (no Thrust here).
//
// Per chunk of whole lines:  copy -> find_lines (chunk_by) -> parse (transform) -> check (find_if)
//   -> group_by_name (sort_by_key, verify, reduce_by_key) -> gather names -> merge into the running table
// At the end: sorted_by_name -> copy to the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::stations {

/// The smallest chunk accepted: room for the longest valid line, so a chunk without '\n' is an error.
constexpr std::size_t min_chunk_size = 128;
/// The largest chunk: positions inside a chunk are 32-bit.
constexpr std::size_t max_chunk_size = std::size_t{1} << 31;

struct summarize_options {
  std::size_t chunk_size = 0;  ///< bytes of text processed at once; 0: default_chunk_size()
  unsigned key_bits = 64;      ///< bits of the name hash used as the sort key; fewer force the exact fallback (tests)
  bool time_stages = false;    ///< synchronize after every stage so stage_times are exact
};

/// Seconds spent in each stage (all zero unless time_stages; read and copy are measured always).
struct stage_times {
  double read = 0, copy = 0, find_records = 0, parse = 0, group = 0, merge = 0, output = 0;
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
  std::uint64_t lines = 0;
  std::size_t chunks = 0;
  std::size_t chunk_size = 0;
  bool names_compared = false;  ///< some key was shared by two names and the exact fallback ran
  stage_times times;
};

/// Chunk size used when none is given: a share of the device system's free memory, within the limits.
std::size_t default_chunk_size();

/// Reads the measurements on fd to its end and summarizes them per station. label names the input in
/// errors. Throws rowscan::input_error at the first bad line (file, 1-based line, byte offset).
summary summarize(int fd, std::string const& label, summarize_options const& options);

/// The rounded mean in tenths (half up, toward +infinity).
std::int64_t mean_tenths(station_summary const& s);

}  // namespace rowscan::stations
