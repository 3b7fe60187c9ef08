// SPDX-License-Identifier: Apache-2.0
// rowscan/job/tally.hpp: what folding some lines reports besides the answer: how much it covered,
// the bad lines it left out, and the line that stops the run. Plain C++ (no Thrust).
//
// A block's worker does not know where its block sits in the input's lines: blocks may be folded
// out of order, by different workers. So a tally counts positions from the start of the text it
// covers, and tallies of neighbouring texts merge by shifting the later one by the earlier one's bytes
// and lines. That merge is associative but not commutative (the later text stays later): the
// chunk_by interval of chunk_by.hpp one level up, with blocks where that has bytes.
//
//   text:   [ block A: 3 lines, 120 bytes ][ block B: bad line at line 1, byte 14 ]
//   tally:    {120 bytes, 3 lines}            {.., skipped: line 1, byte 14}
//   merge:  {120 + .., 3 + .., skipped: line 3 + 1, byte 120 + 14}
#pragma once

#include "rowscan/error.hpp"
#include "rowscan/skipped_lines.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rowscan::job {

/// A bad line of a text: its 0-based line and the offset of its offending byte, both counted from the
/// start of the text a tally covers, and what is wrong with it.
struct bad_line {
  std::uint64_t line;
  std::uint64_t byte;
  std::string why;
  /// 1-based column of the offending byte in its line (byte minus the line's start, plus 1): the same
  /// wherever the line's text sits, so merges leave it. 0: unknown.
  std::uint64_t column = 0;
  /// The line's quote for its error (quoted_line of its first bytes); empty: none.
  std::string quote;
};

/// A bad line found at `error_at` (0-based) of a line that starts at byte `line_start` of a text,
/// quoted from the line's first bytes (`kept`, without its '\n'; `more`: the line is longer than them).
inline bad_line bad_line_at(std::uint64_t line, std::uint64_t line_start, std::uint64_t error_at, std::string why,
                            std::string const& kept, bool more) {
  std::string const bytes = kept.substr(0, line_excerpt_bytes);
  return {line, line_start + error_at, std::move(why), error_at + 1, quoted_line(bytes, more || kept.size() > bytes.size())};
}

/// See the file's comment. Default-constructed: the tally of an empty text, the merge's identity.
struct tally {
  /// Bad lines kept with their positions; the rest are only counted.
  static constexpr std::size_t kept = skipped_lines::kept;

  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;  ///< bad ones included
  std::uint64_t skipped = 0;             ///< lines left out (--skip-invalid)
  std::vector<bad_line> first_skipped;   ///< the first min(skipped, kept) of them, in input order
  std::optional<bad_line> stop;          ///< the line that ends the run: the first bad line, or a line too long to skip

  /// How many more skipped positions are still worth keeping.
  std::size_t wanted() const { return kept - first_skipped.size(); }
  /// Records a skipped line (positions relative to this tally's text); only the first `kept` keep theirs.
  void skip(bad_line b) {
    if (first_skipped.size() < kept) first_skipped.push_back(std::move(b));
  }
};

// [docs:tally-merge]
/// The tally of text a followed directly by text b. If the run stopped inside a, b never happened.
inline tally merge(tally a, tally const& b) {
  if (a.stop) return a;
  auto shifted = [&](bad_line line) {
    line.line += a.lines;
    line.byte += a.bytes;
    return line;
  };
  for (bad_line const& line : b.first_skipped) a.skip(shifted(line));
  if (b.stop) a.stop = shifted(*b.stop);
  a.bytes += b.bytes;
  a.lines += b.lines;
  a.skipped += b.skipped;
  return a;
}
// [docs:end]

/// The error a bad line is reported as, in an input called label: `label:LINE:COLUMN: why: "quote"`.
inline input_error located(bad_line const& b, std::string const& label) {
  return input_error(label, b.line + 1, b.byte, b.why, b.column, b.quote);
}

/// The skipped lines of a tally of the whole input, with their errors located in it.
inline skipped_lines located_skips(tally const& t, std::string const& label) {
  skipped_lines out;
  out.count_more(t.skipped);
  for (bad_line const& b : t.first_skipped) out.keep(located(b, label));
  return out;
}

}  // namespace rowscan::job
