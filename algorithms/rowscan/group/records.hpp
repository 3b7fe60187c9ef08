// SPDX-License-Identifier: Apache-2.0
// rowscan/group/records.hpp: the records of quoted text (RFC 4180), found with one associative scan
// that carries the quote parity beside chunk_by's line starts (rowscan/chunk_by.hpp).
//
//   transform(position -> quote_interval) -> inclusive_scan(quote_interval_plus) -> write_record_at_end
//
// A '\n' ends a record only if an even number of quotes came before it in the text: inside a quoted
// field it is data. Whether it ends one is not known where it lies, so each run of positions is summed
// up as a function of the parity it is entered with (the two-state machine of the quotes): for each
// entry parity s, how many records start in the run and where the latest starts (and how many lines,
// counting every '\n', came before that start). Two runs compose like functions: the right run is
// entered with the parity the left one leaves, s ^ left.quotes. Function composition is associative, so
// the scan may combine runs in any grouping, in blocks on a GPU or in order on one thread. It is not
// commutative, so it is never given to a reduce: thrust::reduce and CUB's DeviceReduce assume a
// commutative operator (a GPU thread reduces positions a tile apart, not neighbours). The whole text's
// interval is the scan's last element instead, and the record array is sized beforehand by a count of
// the '\n's, which bounds the records (docs/group.md, "The quote-parity scan").
//
// Worked example, text `a,"x\ny"\nb\n` (quote '"'), the scan's output at each position for entry parity 0
// (what --explain prints):
//
//   position          0   1   2   3   4   5   6   7   8   9
//   byte              a   ,   "   x   \n  y   "   \n  b   \n
//   quote parity      0   0   1   1   1   1   0   0   0   0     (quotes in [0, i], mod 2)
//   starts here       1   .   .   .   .   .   .   .   1   .     (i = 0, or an even-parity '\n' just before)
//   record number     1   1   1   1   1   1   1   1   2   2     (records started in [0, i])
//   record start      0   0   0   0   0   0   0   0   8   8
//   lines before it   0   0   0   0   0   0   0   0   2   2     (every '\n' before the record's start)
//   ends here         .   .   .   .   .   .   .   *   .   *     -> records {0, 8, line 0}, {8, 10, line 2}
//
// The '\n' at 4 has odd parity before it: the quoted field holds it, and the first record runs to 7.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/config.hpp"
#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/read_back.hpp"

#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace rowscan::group {
ROWSCAN_SYSTEM_BEGIN

/// A record of a block: bytes [begin, end), its '\n' included, and the 0-based line (counting every
/// '\n' of the block, quoted ones too) it starts on.
struct record_span {
  std::uint32_t begin;
  std::uint32_t end;
  std::uint32_t line;
};

/// The scan element: a run of positions summed up for each parity s (0 even, 1 odd) it may be entered with.
///   quotes     parity of the quotes in the run (the run leaves with s ^ quotes)
///   starts[s]  records that start in the run
///   start[s]   where the latest of them starts (meaningful when starts[s] > 0)
///   lines_before[s]  lines ('\n', quoted or not) of the text before that start
///   lines      every '\n' in the run
struct quote_interval {
  std::uint32_t starts[2];
  std::uint32_t start[2];
  std::uint32_t lines_before[2];
  std::uint32_t lines;
  std::uint32_t quotes;  // 0 or 1
};

/// The associative, non-commutative combine of two adjacent runs: the right run entered with the parity
/// the left one leaves.
struct quote_interval_plus {
  ROWSCAN_HD quote_interval operator()(quote_interval const& left, quote_interval const& right) const {
    quote_interval out;
    for (int s = 0; s < 2; ++s) {
      int const middle = s ^ static_cast<int>(left.quotes);
      bool const later = right.starts[middle] > 0;
      out.starts[s] = left.starts[s] + right.starts[middle];
      out.start[s] = later ? right.start[middle] : left.start[s];
      out.lines_before[s] = later ? left.lines + right.lines_before[middle] : left.lines_before[s];
    }
    out.lines = left.lines + right.lines;
    out.quotes = left.quotes ^ right.quotes;
    return out;
  }
};

/// The interval of the single position i of text[0, size): a record starts at i if i is 0, or if byte
/// i - 1 is a '\n' and the parity entering i (the same as entering i - 1: '\n' is not a quote) is even.
struct position_interval {
  char const* text;
  char quote;  // 0: none (every '\n' ends a record)
  ROWSCAN_HD quote_interval operator()(std::uint32_t i) const {
    char const c = text[i];
    bool const after_newline = i > 0 && text[i - 1] == '\n';
    quote_interval out;
    out.starts[0] = (i == 0 || after_newline) ? 1u : 0u;
    out.starts[1] = i == 0 ? 1u : 0u;  // the text's start is a record's start whatever the parity
    out.start[0] = out.start[1] = i;
    out.lines_before[0] = out.lines_before[1] = 0;
    out.lines = c == '\n' ? 1u : 0u;
    out.quotes = (quote != 0 && c == quote) ? 1u : 0u;
    return out;
  }
};

/// Receives the scanned interval of [0, i] and writes the record that ends at i: at an even-parity
/// '\n', or at the text's last byte, where it also keeps the interval of the whole text.
struct write_record_at_end {
  char const* text;
  std::uint32_t size;
  record_span* out;
  quote_interval* whole;
  ROWSCAN_HD void operator()(std::uint32_t i, quote_interval const& scanned) const {
    // The parity entering i + 1 is that of [0, i]; the '\n' at i is not a quote.
    bool const last = i + 1 == size;
    if (last || (text[i] == '\n' && scanned.quotes == 0)) {
      out[scanned.starts[0] - 1] = record_span{scanned.start[0], i + 1, scanned.lines_before[0]};
    }
    if (last) *whole = scanned;
  }
};

/// Finds the records of text[0, size) (device memory), which starts at a record's start, in one
/// inclusive scan that writes each where it ends. A record starts at 0 and after some '\n's, so a count
/// of the '\n's (a commutative sum) sizes `records`; the scan's last element, kept in `whole`, gives
/// their number. Returns the whole text's interval (its records, its lines, and whether a quote is
/// left open).
inline quote_interval find_records(char const* text, std::size_t size, char quote,
                                   thrust::device_vector<record_span>& records,
                                   thrust::device_vector<quote_interval>& whole, context const& ctx) {
  if (size > std::numeric_limits<std::uint32_t>::max() - 1) throw error("group: a block of more than 4 GiB");
  if (size == 0) {
    records.resize(0);
    return quote_interval{{0, 0}, {0, 0}, {0, 0}, 0, 0};
  }
  auto const newlines = static_cast<std::size_t>(thrust::count(ctx.policy(), text, text + size, '\n'));
  ctx.resize(records, newlines + 1);
  ctx.grow(whole, 1);
  auto const n = static_cast<std::uint32_t>(size);
  auto intervals =
      thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0), position_interval{text, quote});
  auto writer = thrust::make_tabulate_output_iterator(
      write_record_at_end{text, n, thrust::raw_pointer_cast(records.data()), thrust::raw_pointer_cast(whole.data())});
  thrust::inclusive_scan(ctx.policy(), intervals, intervals + n, writer, quote_interval_plus{});
  quote_interval const out = read_back(whole, 0, ctx);
  records.resize(out.starts[0]);  // shrinking writes nothing
  return out;
}

/// find_records with a slot of its own for the whole text's interval.
inline quote_interval find_records(char const* text, std::size_t size, char quote,
                                   thrust::device_vector<record_span>& records, context const& ctx) {
  thrust::device_vector<quote_interval> whole;
  return find_records(text, size, quote, records, whole, ctx);
}

#if !ROWSCAN_HAS_CUB
/// The host's find_records, for a worker that is one thread: one walk from the first byte to the last,
/// flipping the parity at each quote and ending a record at each even-parity '\n'. The same records and
/// interval as find_records; a scan on one thread combines a 28-byte interval per byte, where the walk
/// keeps one bit (docs/group.md, "Blocks and the reader").
inline quote_interval find_records_walking(char const* text, std::size_t size, char quote,
                                           thrust::device_vector<record_span>& records, context const& ctx) {
  if (size > std::numeric_limits<std::uint32_t>::max() - 1) throw error("group: a block of more than 4 GiB");
  std::size_t room = size / 32 + 2;
  ctx.resize(records, room);
  std::size_t count = 0;
  std::uint32_t lines = 0, begin = 0, begin_line = 0;
  bool inside = false;
  auto const record_ends_at = [&](std::uint32_t i) {
    if (count == room) ctx.resize(records, room *= 2);
    thrust::raw_pointer_cast(records.data())[count++] = record_span{begin, i + 1, begin_line};
    begin = i + 1;
    begin_line = lines;
  };
  if (quote == 0) {
    // Every '\n' ends a record: memchr finds them many bytes at a time.
    char const* p = text;
    while (auto const* newline =
               static_cast<char const*>(std::memchr(p, '\n', static_cast<std::size_t>(text + size - p)))) {
      ++lines;
      record_ends_at(static_cast<std::uint32_t>(newline - text));
      p = newline + 1;
    }
  } else {
    for (std::uint32_t i = 0; i < size; ++i) {
      char const c = text[i];
      if (c == quote) inside = !inside;
      if (c != '\n') continue;
      ++lines;
      if (!inside) record_ends_at(i);
    }
  }
  if (begin < size) {
    if (count == room) ctx.resize(records, room + 1);
    thrust::raw_pointer_cast(records.data())[count++] =
        record_span{begin, static_cast<std::uint32_t>(size), begin_line};
  }
  records.resize(count);
  quote_interval whole{{0, 0}, {0, 0}, {0, 0}, 0, 0};
  whole.starts[0] = static_cast<std::uint32_t>(count);
  whole.lines = lines;
  whole.quotes = inside ? 1u : 0u;
  return whole;
}
#endif

ROWSCAN_SYSTEM_END
}  // namespace rowscan::group
