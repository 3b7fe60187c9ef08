// SPDX-License-Identifier: Apache-2.0
// rowscan/job/tally.hpp: what folding some lines reports besides the answer: how much it covered,
// the bad lines it left out, and the line that stops the run. Plain C++ (no Thrust). The one monoid
// for positions: a block's worker, a piece of a file claimed by a worker, and an MPI rank's share all
// report a tally, and tallies of neighbouring texts merge into the tally of both.
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
//
// Across a list of inputs, line numbers and byte offsets restart with every input, so a tally also
// says which input it ends in (`source`, its index in the list) and whether it holds that input's
// first byte (`opens_source`). Its bytes and lines are those of that last input; a bad line in
// another input keeps its own source and is shifted only by text of its own input:
//
//   pieces:  [a.txt 0..40: 3 lines][a.txt 40..90: 4 lines | b.txt: 2 lines][b.txt 10..: bad line at line 0]
//   tally:    {a, opens, 3}          {b, opens, 2, earlier 4 lines}          {b, bad line b:0}
//   merge:   {b, opens, 2 + .., earlier 3 + 4 lines, bad line b:2}
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
  /// The input the line is in (its index in the run's list of inputs; 0 within one input).
  std::uint64_t source = 0;
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

  std::uint64_t bytes = 0;  ///< of the text's last input (`source`), from the text's start or that input's
  std::uint64_t lines = 0;  ///< the same, in lines; bad ones included
  std::uint64_t skipped = 0;             ///< lines left out (--skip-invalid)
  std::vector<bad_line> first_skipped;   ///< the first min(skipped, kept) of them, in input order
  std::optional<bad_line> stop;          ///< the line that ends the run: the first bad line, or a line too long to skip
  std::optional<std::string> failure;    ///< any other error that ends the run, worded in full

  std::uint64_t source = 0;         ///< the input the text ends in
  bool opens_source = false;        ///< the text holds that input's first byte: bytes and lines count from it
  std::uint64_t earlier_bytes = 0;  ///< of inputs before `source`, within the text
  std::uint64_t earlier_lines = 0;

  /// How many more skipped positions are still worth keeping.
  std::size_t wanted() const { return kept - first_skipped.size(); }
  /// Records a skipped line (positions relative to this tally's text); only the first `kept` keep theirs.
  void skip(bad_line b) {
    if (first_skipped.size() < kept) first_skipped.push_back(std::move(b));
  }
  /// Something in the text ended the run: nothing after it happened.
  bool stopped() const { return stop.has_value() || failure.has_value(); }
  /// The text's bytes and lines in all its inputs.
  std::uint64_t all_bytes() const { return earlier_bytes + bytes; }
  std::uint64_t all_lines() const { return earlier_lines + lines; }
  /// The identity: no text, nothing found.
  bool empty() const {
    return bytes == 0 && lines == 0 && skipped == 0 && !stopped() && !opens_source && earlier_bytes == 0 && earlier_lines == 0;
  }
};

// [docs:tally-merge]
/// The tally of text a followed directly by text b. If the run stopped inside a, b never happened.
inline tally merge(tally a, tally const& b) {
  if (a.stopped() || b.empty()) return a;
  if (a.empty()) return b;
  auto shifted = [&](bad_line line) {  // b's lines in a's last input come after a's
    if (line.source == a.source) {
      line.line += a.lines;
      line.byte += a.bytes;
    }
    return line;
  };
  for (bad_line const& line : b.first_skipped) a.skip(shifted(line));
  if (b.stop) a.stop = shifted(*b.stop);
  a.failure = b.failure;
  a.skipped += b.skipped;
  if (b.opens_source) {  // b ends in an input of its own
    a.earlier_bytes += a.bytes + b.earlier_bytes;
    a.earlier_lines += a.lines + b.earlier_lines;
    a.bytes = b.bytes;
    a.lines = b.lines;
    a.source = b.source;
    a.opens_source = true;
  } else {  // b goes on in a's last input
    a.bytes += b.bytes;
    a.lines += b.lines;
  }
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
