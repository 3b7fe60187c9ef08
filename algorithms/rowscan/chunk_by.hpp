// SPDX-License-Identifier: Apache-2.0
// rowscan/chunk_by.hpp: the parallel chunk_by of "Parallel chunk_by" (ADSP episode 174) as one Thrust scan.
//
//   transform(element_interval) -> inclusive_scan(interval_plus) -> write_chunk_at_end
//
// chunk_by splits [first, last) into maximal runs in which every adjacent pair (a, b) satisfies
// pred(a, b), and writes each run's [begin, end) positions. Lines of text are chunk_by with
// pred(a, b) = (a != '\n'): a byte continues the line unless the byte before it ended one.
//
// Worked example, text "ab\nc\nde" (pred: a != '\n'), one interval per position:
//
//   position      0    1    2    3    4    5    6
//   byte          a    b    \n   c    \n   d    e
//   starts chunk  1    0    0    1    0    1    0      (position 0, or pred(prev, this) false)
//   after the inclusive scan with interval_plus:
//   flag          1    1    1    1    1    1    1      (a chunk started somewhere in [0, i])
//   index         1    1    1    2    2    3    3      (chunks started so far: the 1-based chunk number)
//   start         0    0    0    3    3    5    5      (where the latest chunk started)
//   end           1    2    3    4    5    6    7      (one past the position)
//   ends chunk    .    .    *    .    *    .    *      -> out[0]={0,3}, out[1]={3,5}, out[2]={5,7}
//
// The scan never materializes the flags or the intervals: a transform_iterator makes each position's
// interval from the two bytes around it, and a tabulate_output_iterator writes a record only where a
// chunk ends (the three passes of copy_if, fused into one).
#pragma once

#include "rowscan/config.hpp"
#include "rowscan/context.hpp"
#include "rowscan/error.hpp"

#include <thrust/iterator/counting_iterator.h>
#include <cuda/std/iterator>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform_reduce.h>
#include <thrust/functional.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

/// A half-open range of positions [begin, end): what chunk_by writes for every chunk.
template <class Index>
struct index_range {
  using index_type = Index;
  Index begin;
  Index end;
  ROWSCAN_HD Index size() const { return end - begin; }
};

/// The scan element: a summary of a run of consecutive positions.
///
/// The podcast's interval carries {flag, index, start, end}. Its combine takes the flag from the
/// right operand, which is right for a left-to-right fold but not associative: combining a with (b, c)
/// must know whether *any* position of (b, c) starts a chunk, not just the last one. Here the flag
/// means "a chunk starts somewhere in this run", so every field combines associatively:
///   flag  = l.flag || r.flag            (or)
///   index = l.index + r.index           (sum: chunks started in the run)
///   start = r.flag ? r.start : l.start  (the latest chunk start wins)
///   end   = r.end                       (the run ends where its right part ends)
/// It is not commutative (start and end prefer the right operand), which Thrust's and CUB's scans allow.
template <class Index>
struct interval {
  bool flag;
  Index index;
  Index start;
  Index end;
};

/// The associative, non-commutative combine of two adjacent intervals (left run, then right run).
template <class Index>
struct interval_plus {
  ROWSCAN_HD interval<Index> operator()(interval<Index> const& left, interval<Index> const& right) const {
    return {left.flag || right.flag, static_cast<Index>(left.index + right.index),
            right.flag ? right.start : left.start, right.end};
  }
};

/// Position i starts a chunk when it is the first position or pred(first[i-1], first[i]) is false.
template <class InputIt, class Predicate, class Index>
struct starts_chunk {
  InputIt first;
  Predicate pred;
  ROWSCAN_HD bool operator()(Index i) const { return i == 0 || !pred(first[i - 1], first[i]); }
};

/// The interval of the single position i: the adjacent transform of the podcast, fused into the scan input.
template <class InputIt, class Predicate, class Index>
struct element_interval {
  starts_chunk<InputIt, Predicate, Index> starts;
  ROWSCAN_HD interval<Index> operator()(Index i) const {
    bool const s = starts(i);
    return {s, static_cast<Index>(s ? 1 : 0), i, static_cast<Index>(i + 1)};
  }
};

/// Receives the scanned interval of position i and, if i is the last position of its chunk, writes the
/// chunk's range to out[chunk number - 1]. Position i ends a chunk if it is the last or i + 1 starts one.
template <class InputIt, class Predicate, class Index, class OutputIt>
struct write_chunk_at_end {
  starts_chunk<InputIt, Predicate, Index> starts;
  Index size;
  OutputIt out;
  ROWSCAN_HD void operator()(Index i, interval<Index> const& scanned) const {
    if (i + 1 == size || starts(static_cast<Index>(i + 1))) {
      out[scanned.index - 1] = index_range<Index>{scanned.start, static_cast<Index>(i + 1)};
    }
  }
};

namespace detail {
template <class Index>
void check_index_range(std::size_t n) {
  if (n > static_cast<std::size_t>(std::numeric_limits<Index>::max())) {
    throw error("chunk_by: " + std::to_string(n) + " elements do not fit the " + std::to_string(sizeof(Index) * 8) +
                "-bit positions of the output ranges");
  }
}
}  // namespace detail

/// Number of chunks chunk_by(first, last, pred, ...) would write: a transform_reduce of starts_chunk.
template <class Index = std::uint64_t, class InputIt, class Predicate>
std::size_t count_chunks(InputIt first, InputIt last, Predicate pred, context const& ctx = {}) {
  auto const n = static_cast<std::size_t>(last - first);
  detail::check_index_range<Index>(n);
  starts_chunk<InputIt, Predicate, Index> starts{first, pred};
  return thrust::transform_reduce(ctx.policy(), thrust::counting_iterator<Index>(0),
                                  thrust::counting_iterator<Index>(static_cast<Index>(n)), starts, std::size_t{0},
                                  thrust::plus<std::size_t>{});
}

/// Writes the position range of each of the `chunks` chunks of [first, last) to out, in one scan:
/// transform(element_interval) -> inclusive_scan(interval_plus) -> write_chunk_at_end.
/// For callers that already counted the chunks to size out (see chunk_by).
template <class InputIt, class Predicate, class OutputIt>
OutputIt chunk_by_counted(InputIt first, InputIt last, Predicate pred, OutputIt out, std::size_t chunks,
                          context const& ctx = {}) {
  using Index = typename cuda::std::iter_value_t<OutputIt>::index_type;
  auto const n = static_cast<std::size_t>(last - first);
  detail::check_index_range<Index>(n);
  if (n == 0) return out;

  starts_chunk<InputIt, Predicate, Index> starts{first, pred};
  auto intervals = thrust::make_transform_iterator(thrust::counting_iterator<Index>(0),
                                                   element_interval<InputIt, Predicate, Index>{starts});
  auto writer = thrust::make_tabulate_output_iterator(
      write_chunk_at_end<InputIt, Predicate, Index, OutputIt>{starts, static_cast<Index>(n), out});
  thrust::inclusive_scan(ctx.policy(), intervals, intervals + n, writer, interval_plus<Index>{});
  return out + chunks;
}

/// Splits [first, last) into maximal chunks whose adjacent elements all satisfy pred(a, b) and writes
/// each chunk's position range to out (an iterator over index_range<Index>, with room for
/// count_chunks(first, last, pred) ranges). Returns the end of the written ranges.
///
/// Pipeline: count_chunks, then transform(element_interval) -> inclusive_scan(interval_plus) -> write_chunk_at_end.
/// Any value type, any binary predicate; positions are Index (32-bit inside a text chunk).
template <class InputIt, class Predicate, class OutputIt>
OutputIt chunk_by(InputIt first, InputIt last, Predicate pred, OutputIt out, context const& ctx = {}) {
  using Index = typename cuda::std::iter_value_t<OutputIt>::index_type;
  detail::check_index_range<Index>(static_cast<std::size_t>(last - first));
  return chunk_by_counted(first, last, pred, out, count_chunks<Index>(first, last, pred, ctx), ctx);
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan
