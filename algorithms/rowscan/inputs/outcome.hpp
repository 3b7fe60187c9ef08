// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/outcome.hpp: what folding consecutive pieces of the input found besides the answer, with
// positions already placed in their files; and the segmented sum that places them.
//
// A piece (a file, or a byte range of one) is folded without knowing how many lines of its file came
// before it, as a block is in the job driver. Line numbers restart with every file, so the lines to
// add are a segmented sum over the pieces in input order, keyed by file: line_origin below. One
// process computes it as it goes; MPI ranks with one MPI_Exscan over their shares.
//
//   pieces:      [a.txt 0..40: 3 lines][a.txt 40..90: 4 lines | b.txt: 2 lines][b.txt 10..: ..]
//   rank's sum:   {a, a, 3}             {a, b, 2}                                 ..
//   exscan:       none                  {a, a, 3}: a.txt's lines here start at 3   {a, b, 2}: b.txt's at 2
#pragma once

#include "rowscan/error.hpp"
#include "rowscan/skipped_lines.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rowscan::inputs {

/// The lines of some consecutive pieces, as far as a later piece needs them: which sources they
/// cover, and how many lines the last of those sources has in them. Default: no pieces (the identity).
struct line_origin {
  bool empty = true;
  std::uint64_t first_source = 0;
  std::uint64_t last_source = 0;
  std::uint64_t lines_in_last = 0;  ///< lines of last_source within these pieces

  /// The lines of the pieces' source `source` that come before a piece of it, if these pieces end right before it.
  std::uint64_t lines_before(std::uint64_t source) const { return !empty && last_source == source ? lines_in_last : 0; }
};

/// The origin of pieces a followed by pieces b (associative, not commutative: b stays later).
inline line_origin then(line_origin a, line_origin const& b) {
  if (b.empty) return a;
  if (a.empty) return b;
  bool const b_within_a_last = b.first_source == a.last_source && b.last_source == a.last_source;
  a.lines_in_last = b_within_a_last ? a.lines_in_last + b.lines_in_last : b.lines_in_last;
  a.last_source = b.last_source;
  return a;
}

/// A bad line placed in the input: the file's label, its 1-based line and byte offset in the file.
struct placed_line {
  std::string label;
  std::uint64_t line = 0;
  std::uint64_t byte = 0;
  std::string why;
  std::uint64_t column = 0;  ///< 1-based, in its line (input_error::column); 0: unknown
  std::string quote;         ///< the quoted line (input_error::quote)

  input_error as_error() const { return input_error(label, line, byte, why, column, quote); }
};

/// The ordered record of consecutive pieces (cf. job::tally, whose positions still need shifting):
/// bytes and lines, the lines --skip-invalid left out with the first few placed, and the error that
/// ends the run, worded in full. Default: no pieces (the identity).
struct input_outcome {
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
  std::uint64_t skipped = 0;
  std::vector<placed_line> first_skipped;  ///< at most skipped_lines::kept, in input order
  std::optional<std::string> stop;         ///< the first error in input order: the run's error message

  void skip(placed_line line) {
    if (first_skipped.size() < skipped_lines::kept) first_skipped.push_back(std::move(line));
  }

  /// --skip-invalid's record, as the job driver words it.
  skipped_lines skipped_record() const {
    skipped_lines out;
    out.count_more(skipped);
    for (placed_line const& line : first_skipped) out.keep(line.as_error());
    return out;
  }
};

/// The outcome of the pieces of a followed by those of b. If the run stopped in a, b never happened.
inline input_outcome then(input_outcome a, input_outcome const& b) {
  if (a.stop) return a;
  for (placed_line const& line : b.first_skipped) a.skip(line);
  a.stop = b.stop;
  a.bytes += b.bytes;
  a.lines += b.lines;
  a.skipped += b.skipped;
  return a;
}

/// What one piece's fold reported, its positions relative to the piece (its first byte and line).
struct piece_record {
  std::size_t source = 0;
  std::uint64_t begin = 0;  ///< where the piece starts in its file, after moving to a line start
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
  std::uint64_t skipped = 0;
  std::vector<placed_line> first_skipped;
  std::optional<placed_line> bad_stop;  ///< a bad line that ends the run
  std::optional<std::string> failure;   ///< any other error that ends it, worded in full
};

}  // namespace rowscan::inputs
