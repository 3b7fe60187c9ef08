// SPDX-License-Identifier: Apache-2.0
// rowscan/session/kept_columns.hpp: lineitem's parsed columns of a file, kept by a session between queries
// (compiled once; each engine defines its keeper: rowscan/lineitem/keep_columns.hpp).
//
//   a query that misses -column_keeper::summarize_keeping-> the CLI's run over the file, each block parsed into
//   columns (the worker's step-by-step composition, not the one pass) -> the answer, and the blocks' columns
//   gathered into one store (l_suppkey, l_quantity, l_extendedprice in cents: 12 bytes a row, in the engine's
//   memory: the GPU's on a GPU)
//   a later query -kept_columns::sums_below-> one transform_reduce over the store per eight thresholds
//
// Only the columns of a file whose every row is valid are kept: such a store is the same whether the query that
// made it skipped invalid rows or not, so one entry serves both kinds of query, and a query that met a bad row
// (and stopped, or skipped it) keeps nothing (docs/python.md, "The cache").
#pragma once

#include "rowscan/job/run_report.hpp"
#include "rowscan/lineitem/row_format.hpp"
#include "rowscan/lineitem/summary.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace rowscan {

/// A file's lineitem columns in an engine's memory; queried from any thread (one query at a time on it).
class kept_columns {
 public:
  virtual ~kept_columns() = default;
  /// Rows kept (the file's valid rows: all of them).
  virtual std::uint64_t rows() const = 0;
  /// The memory they hold.
  virtual std::uint64_t bytes() const = 0;
  /// SUM(l_quantity * l_extendedprice) in cents and the rows with l_suppkey < z, for each z in order.
  virtual std::vector<lineitem::threshold_answer> sums_below(std::vector<std::uint64_t> const& thresholds) const = 0;
};

/// The shortest valid row with its '\n' (row_format.hpp): 16 '|', a one-digit l_suppkey and l_quantity, and an
/// l_extendedprice of four bytes ("0.00"). A text of n bytes holds at most (n + 1) / it rows.
constexpr std::uint64_t shortest_valid_row = lineitem::fields_per_row + 1 + 1 + 4 + 1;

/// The most memory the columns of an n-byte file can take: what a session reserves before it reads the file.
constexpr std::uint64_t most_column_bytes(std::uint64_t file_bytes) {
  return (file_bytes + 1) / shortest_valid_row * 3 * sizeof(std::uint32_t);
}

/// The lineitem job of one engine, keeping the columns it parses.
struct column_keeper {
  /// engine::lineitem over `inputs`, every block parsed into columns; `kept` receives them all, in one store
  /// (in no particular row order), when the run succeeds. The same answer, errors and skipped rows.
  lineitem::summary (*summarize_keeping)(job::input_sequence& inputs, lineitem::summarize_options const& options,
                                         std::shared_ptr<kept_columns>& kept);
  /// The longest line a run carries between blocks (lineitem::max_carried_line) when its chunk is at least
  /// this long: a query with a shorter chunk may stop on a line that a run with the default chunk reads.
  std::size_t longest_carried_line;
};

/// The GPU engine's keeper (columns in device memory); nullptr in a build without CUDA.
column_keeper const* gpu_column_keeper();
/// The host engine's keeper (columns in host memory); nullptr in a CUDA build without a host engine.
column_keeper const* host_column_keeper();

}  // namespace rowscan
