// SPDX-License-Identifier: Apache-2.0
// rowscan/generate/measurements.hpp: synthesizes One Billion Row Challenge input files on the host.
#pragma once

#include "rowscan/io/write_all.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::generate {

/// What write_measurements produces: the same options always give the same bytes.
struct measurements_options {
  std::uint64_t rows = 1000;
  std::uint32_t stations = 413;     // distinct station names, 1 .. 1,000,000
  std::uint64_t seed = 1;
};

/// Synthesizes `count` distinct station names (deterministic for a seed). UTF-8, 1..100 bytes each,
/// never containing ';' or '\n'; a mix of ASCII and multi-byte characters (2-, 3- and 4-byte UTF-8:
/// accented Latin, Cyrillic, Greek, Arabic, CJK, Hangul, Kana, an occasional emoji). Lists of up to 500
/// names look like the official 1BRC list (3..24 bytes, about 8 on average); longer lists are mostly
/// short with a long tail (84% of 1..13 bytes, 13% of 14..30, 3% of 31..99) and every hundredth name
/// (index 99, 199, ...) is exactly 100 bytes. Multi-byte characters are never cut in half; names never begin or end with a
/// space, hyphen or apostrophe. Throws std::invalid_argument if count is 0 or > 1,000,000.
std::vector<std::string> station_names(std::uint32_t count, std::uint64_t seed);

/// Writes options.rows lines "<name>;<temperature>\n" to the file descriptor, names from
/// station_names(options.stations, options.seed). Each station has a mean temperature (uniform in
/// [-20.0, 35.0], about one station in twenty in [-45.0, -35.0]); each reading is gaussian (stddev 10.0)
/// around it, rounded to tenths, clamped to [-99.9, 99.9] and printed with one fractional digit (never
/// "-0.0"). The station of each row is uniformly random. Rows are generated in fixed blocks, each with
/// its own random stream, in parallel with OpenMP: the output is byte-identical for the same options
/// whatever the number of threads. Throws std::invalid_argument for a bad station count and
/// rowscan::io::write_error (a std::system_error with errno) on write failure.
/// progress, if given, hears of each batch written (io::write_blocks).
void write_measurements(int fd, measurements_options const& options, io::write_progress const& progress = {});

}  // namespace rowscan::generate
