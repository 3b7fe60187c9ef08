// SPDX-License-Identifier: Apache-2.0
// rowscan/group/summary.hpp: the `rowscan group` job's settings and answer, the same for every engine
// (compiled once; rowscan/group/summarize.hpp runs the job on one system).
//
// The answer is one row per distinct key, in byte order of the key, with exact aggregates of each value
// column: count, missing, sum, min and max as decimals of the column's scale (docs/group.md).
#pragma once

#include "rowscan/job/run_report.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::group {

/// The smallest chunk accepted.
constexpr std::size_t min_chunk_size = 128;
/// The most key columns (--key K1,K2,...) and value columns (--value V1,V2,...).
constexpr std::size_t max_key_columns = 8;
constexpr std::size_t max_value_columns = 8;
/// The most digits a value may have (its integer digits after leading zeros, and its fraction), and
/// the largest scale: a value is exact in 64 bits, and in 128 bits at any scale up to this.
constexpr unsigned max_value_digits = 18;
/// The byte between the fields of a composite key in group_row::key (its fields never hold it in the
/// answer's order: it sorts below every other byte, so keys sort field by field).
constexpr char key_field_separator = '\0';

/// How the records and fields of the input are read.
struct text_format {
  char delimiter = ',';
  char quote = '"';                   ///< 0: no quoting (--no-quote)
  bool header = false;                ///< every file's first record names the columns and is not data
  std::vector<std::uint32_t> keys;    ///< 0-based column of each key field
  std::vector<std::uint32_t> values;  ///< 0-based column of each value
  int scale = -1;                     ///< --scale N for every value column; -1: the most digits after the point seen
};

struct summarize_options : job::job_options {
  text_format format;
  unsigned key_bits = 64;  ///< bits of the key hash sorted on; fewer force the exact byte-comparing fallback (tests)
};

/// One value column's aggregates for one key. Sums, min and max are integers at the column's scale.
struct value_stats {
  std::uint64_t count = 0;    ///< values present
  std::uint64_t missing = 0;  ///< empty fields
  __int128 sum = 0;
  __int128 min = 0;  ///< meaningful when count > 0
  __int128 max = 0;
};

/// One key of the answer: its bytes (composite keys: the fields joined by key_field_separator) and one
/// value_stats per value column.
struct group_row {
  std::string key;
  std::vector<value_stats> values;
};

/// The answer, and how the run went.
struct summary : job::run_report {
  std::vector<group_row> rows;   ///< sorted by the key's bytes
  std::vector<unsigned> scales;  ///< per value column: digits after the point of every figure
  std::uint64_t records = 0;     ///< records folded (a record may span lines: quoted newlines)
  bool keys_compared = false;    ///< two keys shared a hash and the exact fallback ran
};

/// The same stats at a larger scale: every figure times 10^(to - from).
value_stats rescaled(value_stats s, unsigned from, unsigned to);
/// The stats of the values of both.
value_stats combined(value_stats const& a, value_stats const& b);
/// The mean, sum / count rounded half up (toward +infinity) at the same scale, as the One Billion Row
/// Challenge rounds; count must be positive.
__int128 rounded_mean(value_stats const& s);
/// A fixed-point integer at `scale` as decimal text: -12.50 for (-1250, 2).
std::string decimal_text(__int128 value, unsigned scale);

/// The answer of the inputs of a followed by those of b: rows merged by key, each column at the larger
/// of the two scales. Associative and commutative.
summary merge_summaries(summary a, summary const& b);

}  // namespace rowscan::group
