// SPDX-License-Identifier: Apache-2.0
// rowscan/group/records.hpp: the records of quoted text (RFC 4180), found with one associative scan
// over 32-byte words that carries the quote parity beside chunk_by's line starts (rowscan/chunk_by.hpp).
//
//   transform(word -> quote_interval) -> exclusive_scan(quote_interval_plus) -> emit_word_records
//
// A '\n' ends a record only if an even number of quotes came before it in the text: inside a quoted
// field it is data. Whether it ends one is not known where it lies, so each run of text is summed up as
// a function of the parity it is entered with (the two-state machine of the quotes): for each entry
// parity s, how many records end in the run (each at a '\n'; the record after it starts right after),
// where the latest such start is, and how many lines (every '\n') came before it. Two runs compose like
// functions: the right run is entered with the parity the left one leaves, s ^ left.quotes. Function
// composition is associative, so the scan may combine runs in any grouping, in blocks on a GPU or in
// order on one thread. It is not commutative, so it is never given to a reduce: thrust::reduce and CUB's
// DeviceReduce assume a commutative operator (a GPU thread reduces positions a tile apart, not
// neighbours). The whole text's count is written by the last word instead, and the record array is sized
// beforehand by a count of the '\n's, which bounds the records (docs/group.md, "The quote-parity scan").
//
// A word's interval comes from two bit masks of its 32 bytes, as lines.hpp finds its newlines: q (the
// quotes) and n (the '\n's). The prefix xor of q gives, for each byte, the parity of the word's quotes
// up to it; entered with parity s, the '\n's that end records are n & ~prefix (s = 0) or n & prefix
// (s = 1). The interval of one byte (position_interval) is the same algebra at its finest; a word's
// interval equals the fold of its bytes' (test_group.cu checks it).
//
// Worked example, text `a,"x\ny"\nb\n` (quote '"') read as words of 4 bytes (32 in the code):
//
//   word                       0: `a,"x`     1: `\ny"\n`    2: `b\n`
//   quote bits (byte 0 first)  0010          0010          00
//   newline bits               0000          1001          01
//   prefix parity              0011          0011          00
//   ends entered even / odd    - / -         0 / 3         1 / -       (offsets of record-ending '\n's)
//   own quotes (parity)        1             1             0
//   exclusive scan, s = 0      records 1     records 1     records 2   (records started by the word's
//                              start 0       start 0       start 8      first byte, where the latest
//                              parity 0      parity 1      parity 0     starts, the entry parity)
//   emit_word_records          -             entered odd: the '\n' at 7 ends [0, 8), line 0
//                                                          entered even: the '\n' at 9 ends [8, 10), line 2
//
// The '\n' at 4 has odd parity before it: the quoted field holds it, and the first record runs to 7.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/config.hpp"
#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/lines.hpp"
#include "rowscan/read_back.hpp"

#include <cuda/std/bit>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
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

/// Bytes of text summarized by one scan element: a 32-bit mask of quotes and one of '\n's.
constexpr std::uint32_t quote_word_bytes = 32;

/// A record of a block: bytes [begin, end), its '\n' included, and the 0-based line (counting every
/// '\n' of the block, quoted ones too) it starts on.
struct record_span {
  std::uint32_t begin;
  std::uint32_t end;
  std::uint32_t line;
};

/// The scan element: a run of text summed up for each parity s (0 even, 1 odd) it may be entered with.
///   quotes     parity of the quotes in the run (the run leaves with s ^ quotes)
///   starts[s]  records that start right after a record-ending '\n' of the run
///   start[s]   where the latest of them starts (meaningful when starts[s] > 0)
///   lines_before[s]  lines ('\n', quoted or not) of the run before that start
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
    // Masked to one bit: CUB's exclusive scan also combines values it then discards, among them a warp's
    // first lane's undefined prefix, and an index taken from such a value must stay inside starts[2].
    for (int s = 0; s < 2; ++s) {
      int const middle = s ^ static_cast<int>(left.quotes & 1u);
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

/// The scan's first value: the text's own start, a record that starts at 0 whatever the parity.
ROWSCAN_HD inline quote_interval text_start() { return quote_interval{{1, 1}, {0, 0}, {0, 0}, 0, 0}; }

/// The interval of the single byte at position i of text (the algebra at its finest, which the word's
/// interval must equal): a '\n' entered with even parity ends a record, the next starting at i + 1.
struct position_interval {
  char const* text;
  char quote;  // 0: none (every '\n' ends a record)
  ROWSCAN_HD quote_interval operator()(std::uint32_t i) const {
    char const c = text[i];
    bool const newline = c == '\n';
    quote_interval out;
    out.starts[0] = newline ? 1u : 0u;  // a '\n' is not a quote: entered even, it is read at even parity
    out.starts[1] = 0;
    out.start[0] = out.start[1] = i + 1;
    out.lines_before[0] = out.lines_before[1] = newline ? 1u : 0u;
    out.lines = newline ? 1u : 0u;
    out.quotes = (quote != 0 && c == quote) ? 1u : 0u;
    return out;
  }
};

/// What find_records tells of a whole text.
struct records_found {
  std::uint32_t records;
  std::uint32_t lines;       ///< every '\n'
  std::uint32_t open_quote;  ///< 1: the text's quotes are odd (it ends inside a quoted field)
};

/// Bit j set where byte j of the 8 little-endian bytes in x equals the byte in every lane of pattern.
ROWSCAN_HD inline std::uint32_t byte_flags(std::uint64_t x, std::uint64_t pattern) {
  std::uint64_t const high = matching_bytes(x, pattern) >> 7;               // 0x01 per matching byte
  return static_cast<std::uint32_t>((high * 0x0102040810204080ull) >> 56);  // gather the 8 flags
}

/// Bit j set where bits 0..j of q hold an odd number of ones: the parity of the word's quotes up to
/// and including byte j.
ROWSCAN_HD inline std::uint32_t prefix_parity(std::uint32_t q) {
  q ^= q << 1;
  q ^= q << 2;
  q ^= q << 4;
  q ^= q << 8;
  q ^= q << 16;
  return q;
}

/// Bits 0..j.
ROWSCAN_HD inline std::uint32_t bits_through(std::uint32_t j) { return (2u << j) - 1u; }  // 2u << 31 wraps to 0

/// The quote and newline bits of one 32-byte word of a text. Words are aligned to 32 bytes in memory;
/// the first and last may be partial, and their bytes outside the text are never read.
struct quote_words {
  char const* text;
  std::uint32_t size;
  std::uint32_t head;  ///< bytes of the first word before text[0] (text's misalignment)
  char quote;          ///< 0: none

  quote_words(char const* t, std::uint32_t n, char q)
      : text(t),
        size(n),
        head(static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(t) % quote_word_bytes)),
        quote(q) {}

  std::size_t count() const {
    return size == 0 ? 0 : (std::size_t{head} + size + quote_word_bytes - 1) / quote_word_bytes;
  }

  /// Position in the text of byte 0 of word w (negative for the first word of a misaligned text).
  ROWSCAN_HD std::int64_t first_position(std::uint32_t w) const {
    return static_cast<std::int64_t>(w) * static_cast<std::int64_t>(quote_word_bytes) - head;
  }

  /// Bit j of *quotes set where byte j of word w is a quote, of *newlines where it is a '\n'.
  ROWSCAN_HD void bits(std::uint32_t w, std::uint32_t* quotes, std::uint32_t* newlines) const {
    std::int64_t const first = first_position(w);
    std::uint32_t q = 0, n = 0;
    if (first >= 0 && first + static_cast<std::int64_t>(quote_word_bytes) <= size) {
      std::uint64_t lanes[4];
#if ROWSCAN_HAS_CUB
      // A whole word, 32-byte aligned: two vector loads.
      ulonglong2 const a = reinterpret_cast<ulonglong2 const*>(text + first)[0];
      ulonglong2 const b = reinterpret_cast<ulonglong2 const*>(text + first)[1];
      lanes[0] = a.x;
      lanes[1] = a.y;
      lanes[2] = b.x;
      lanes[3] = b.y;
#else
      std::memcpy(lanes, text + first, quote_word_bytes);
#endif
      std::uint64_t const quote_lanes = 0x0101010101010101ull * static_cast<unsigned char>(quote);
      for (int l = 0; l < 4; ++l) {
        n |= byte_flags(lanes[l], 0x0a0a0a0a0a0a0a0aull) << (8 * l);
        if (quote != 0) q |= byte_flags(lanes[l], quote_lanes) << (8 * l);
      }
    } else {
      for (std::uint32_t j = 0; j < quote_word_bytes; ++j) {  // a partial word: only the text's own bytes
        std::int64_t const p = first + j;
        if (p < 0 || p >= size) continue;
        if (text[p] == '\n') n |= 1u << j;
        if (quote != 0 && text[p] == quote) q |= 1u << j;
      }
    }
    *quotes = q;
    *newlines = n;
  }
};

/// The interval of word w alone (the scan's input, computed on the fly by a transform_iterator).
struct word_interval {
  quote_words words;
  ROWSCAN_HD quote_interval operator()(std::uint32_t w) const {
    std::uint32_t q, n;
    words.bits(w, &q, &n);
    std::uint32_t const inside = prefix_parity(q);
    std::int64_t const first = words.first_position(w);
    quote_interval out;
    for (int s = 0; s < 2; ++s) {
      std::uint32_t const ends = n & (s == 0 ? ~inside : inside);  // '\n's read at even parity
      out.starts[s] = static_cast<std::uint32_t>(cuda::std::popcount(ends));
      out.start[s] = 0;
      out.lines_before[s] = 0;
      if (ends != 0) {
        auto const last = static_cast<std::uint32_t>(31 - cuda::std::countl_zero(ends));
        out.start[s] = static_cast<std::uint32_t>(first + last + 1);
        out.lines_before[s] = static_cast<std::uint32_t>(cuda::std::popcount(n & bits_through(last)));
      }
    }
    out.lines = static_cast<std::uint32_t>(cuda::std::popcount(n));
    out.quotes = static_cast<std::uint32_t>(cuda::std::popcount(q)) & 1u;
    return out;
  }
};

/// The records that end in a word (its quote bits q and newline bits n, its byte 0 at text position
/// `first`), entered with quote parity `parity`, the open record starting at `begin` on line `line`,
/// `lines` '\n's before the word: emit(record) for each, in order; begin and line move to the record
/// open after the word. What the scan (emit_word_records) and the host's walk (find_records_walking) both
/// do with a word once they know how it is entered.
template <class Emit>
ROWSCAN_HD void records_ending_in_word(std::uint32_t q, std::uint32_t n, std::int64_t first, std::uint32_t parity,
                                       std::uint32_t lines, std::uint32_t& begin, std::uint32_t& line, Emit&& emit) {
  std::uint32_t const inside = prefix_parity(q);
  std::uint32_t ends = n & (parity == 0 ? ~inside : inside);
  while (ends != 0) {
    auto const j = static_cast<std::uint32_t>(cuda::std::countr_zero(ends));
    ends &= ends - 1;
    auto const end = static_cast<std::uint32_t>(first + j + 1);
    emit(record_span{begin, end, line});
    begin = end;
    line = lines + static_cast<std::uint32_t>(cuda::std::popcount(n & bits_through(j)));
  }
}

/// Receives word w's exclusive interval (the text before the word, entered at parity 0, the text's
/// start counted as a record's) and writes each record that ends in the word at its index. The last
/// word also writes the text's last record if no record-ending '\n' closes it, and *found.
struct emit_word_records {
  quote_words words;
  std::uint32_t last_word;
  record_span* out;
  records_found* found;

  ROWSCAN_HD void operator()(std::uint32_t w, quote_interval const& before) const {
    std::uint32_t index = before.starts[0] - 1;  // the record open when the word begins
    std::uint32_t begin = before.start[0];
    std::uint32_t line = before.lines_before[0];
    std::uint32_t q, n;
    words.bits(w, &q, &n);
    records_ending_in_word(q, n, words.first_position(w), before.quotes, before.lines, begin, line,
                           [&](record_span const& r) { out[index++] = r; });
    if (w == last_word) {
      if (begin < words.size) out[index++] = record_span{begin, words.size, line};
      *found = records_found{index, before.lines + static_cast<std::uint32_t>(cuda::std::popcount(n)),
                             before.quotes ^ (static_cast<std::uint32_t>(cuda::std::popcount(q)) & 1u)};
    }
  }
};

namespace detail {
inline void check_block_size(std::size_t size) {
  if (size > std::numeric_limits<std::uint32_t>::max() - quote_word_bytes) {
    throw error("group: a block of more than 4 GiB");
  }
}

/// Each word's own interval, word_interval(w), as the scan reads it.
inline auto word_intervals(quote_words const& words) {
  return thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0), word_interval{words});
}
}  // namespace detail

namespace detail {
/// find_records' composition under any policy (the context's, or thrust::seq for a host worker that
/// is one thread).
template <class Policy>
records_found find_records_on(Policy const& policy, char const* text, std::size_t size, char quote,
                              thrust::device_vector<record_span>& records, thrust::device_vector<records_found>& found,
                              context const& ctx) {
  check_block_size(size);
  if (size == 0) {
    records.resize(0);
    return records_found{0, 0, 0};
  }
  auto const newlines = static_cast<std::size_t>(thrust::count(policy, text, text + size, '\n'));
  ctx.resize(records, newlines + 1);
  ctx.grow(found, 1);
  quote_words const words(text, static_cast<std::uint32_t>(size), quote);
  auto const n = static_cast<std::uint32_t>(words.count());
  auto const intervals = word_intervals(words);
  auto writer = thrust::make_tabulate_output_iterator(emit_word_records{
      words, n - 1, thrust::raw_pointer_cast(records.data()), thrust::raw_pointer_cast(found.data())});
  thrust::exclusive_scan(policy, intervals, intervals + n, writer, text_start(), quote_interval_plus{});
  records_found const out = read_back(found, 0, ctx);
  records.resize(out.records);  // shrinking writes nothing
  return out;
}
}  // namespace detail

/// Finds the records of text[0, size) (device memory), which starts at a record's start, in one
/// exclusive scan over its words that writes each record where it ends. A record starts at 0 and
/// after some '\n's, so a count of the '\n's (a commutative sum) sizes `records`; the last word
/// writes their number into `found`.
inline records_found find_records(char const* text, std::size_t size, char quote,
                                  thrust::device_vector<record_span>& records,
                                  thrust::device_vector<records_found>& found, context const& ctx) {
  return detail::find_records_on(ctx.policy(), text, size, quote, records, found, ctx);
}

/// find_records with a slot of its own for the count.
inline records_found find_records(char const* text, std::size_t size, char quote,
                                  thrust::device_vector<record_span>& records, context const& ctx) {
  thrust::device_vector<records_found> found;
  return find_records(text, size, quote, records, found, ctx);
}

/// The scan of find_records with its input and output stored (for `rowscan group --explain`, which
/// prints them): own[w] = word_interval(w), scanned[w] = the exclusive interval emit_word_records
/// receives. Both hold quote_word_count(text, size) elements; word w starts at text position
/// w * quote_word_bytes - quote_word_head(text).
inline void scan_quote_intervals(char const* text, std::size_t size, char quote, quote_interval* own,
                                 quote_interval* scanned, context const& ctx) {
  detail::check_block_size(size);
  quote_words const words(text, static_cast<std::uint32_t>(size), quote);
  auto const n = static_cast<std::uint32_t>(words.count());
  if (n == 0) return;
  auto const intervals = detail::word_intervals(words);
  thrust::copy(ctx.policy(), intervals, intervals + n, own);
  thrust::exclusive_scan(ctx.policy(), intervals, intervals + n, scanned, text_start(), quote_interval_plus{});
}

/// Scan elements (32-byte words) of text[0, size), counting the partial first and last words.
inline std::size_t quote_word_count(char const* text, std::size_t size) {
  detail::check_block_size(size);
  return quote_words(text, static_cast<std::uint32_t>(size), 0).count();
}

/// Bytes of the first word before text[0].
inline std::uint32_t quote_word_head(char const* text) { return quote_words(text, 0, 0).head; }
#if !ROWSCAN_HAS_CUB
/// The host's find_records, for a worker that is one thread: one walk over the words from the first to
/// the last. On one thread the parity entering each word is known, so the walk keeps one bit where the
/// scan carries an interval for both parities; each word's record ends come from the same bits as the
/// scan's (quote_words, prefix_parity). The same records and count as find_records.
inline records_found find_records_walking(char const* text, std::size_t size, char quote,
                                          thrust::device_vector<record_span>& records, context const& ctx) {
  detail::check_block_size(size);
  std::size_t room = size / 32 + 2;
  ctx.resize(records, room);
  record_span* out = thrust::raw_pointer_cast(records.data());
  std::size_t count = 0;
  auto const add = [&](record_span r) {
    if (count == room) {
      ctx.resize(records, room *= 2);
      out = thrust::raw_pointer_cast(records.data());
    }
    out[count++] = r;
  };
  quote_words const words(text, static_cast<std::uint32_t>(size), quote);
  auto const n = static_cast<std::uint32_t>(words.count());
  std::uint32_t parity = 0, lines = 0, begin = 0, line = 0;
  for (std::uint32_t w = 0; w < n; ++w) {
    std::uint32_t q, nl;
    words.bits(w, &q, &nl);
    records_ending_in_word(q, nl, words.first_position(w), parity, lines, begin, line, add);
    lines += static_cast<std::uint32_t>(cuda::std::popcount(nl));
    parity ^= static_cast<std::uint32_t>(cuda::std::popcount(q)) & 1u;
  }
  if (begin < size) add(record_span{begin, static_cast<std::uint32_t>(size), line});
  records.resize(count);
  return records_found{static_cast<std::uint32_t>(count), lines, parity};
}
#endif

ROWSCAN_SYSTEM_END
}  // namespace rowscan::group
