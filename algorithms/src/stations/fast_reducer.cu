// SPDX-License-Identifier: Apache-2.0
// The fast path (rowscan/stations/fast_reducer.hpp): ids from the dictionary, a 16-bit sort, a
// per-station reduction, merged into the table's stats.
#include "rowscan/stations/fast_reducer.hpp"

#include "rowscan/lines.hpp"
#include "rowscan/stations/line_from_start.hpp"
#include "rowscan/raw.hpp"
#include "rowscan/read_back.hpp"
#include "rowscan/stage.hpp"
#include "rowscan/stations/line_format.hpp"

#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/iterator/zip_iterator.h>

#include <cstring>

#if ROWSCAN_HAS_CUB
#  include <cub/device/device_radix_sort.cuh>
#  include <cub/device/device_segmented_reduce.cuh>
#endif

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN
namespace {

#if !ROWSCAN_HAS_CUB
/// A block's row as the table's stats (an empty row as merge_stats' identity).
struct as_station_stats {
  station_stats operator()(block_row const& r) const {
    return r.count == 0 ? station_stats::identity() : station_stats{r.min, r.max, r.sum, r.count};
  }
};

/// Two rows of the same station merged: the block's two walks.
struct merge_block_rows {
  block_row operator()(block_row const& a, block_row const& b) const {
    return {a.sum + b.sum, a.count + b.count, a.min < b.min ? a.min : b.min, a.max > b.max ? a.max : b.max};
  }
};

/// A host worker's walk over the lines [at, stop) of a block (stop at a line's start), each line's
/// reading merged straight into its station's row. One thread owns the rows, so grouping needs no
/// sort: the ids index the rows directly (the grouping reduce_by_key computes, without its keys
/// sorted first).
struct line_walk {
  char const* text;
  std::uint32_t size;
  dictionary_view dictionary;
  block_row* rows;
  std::uint32_t at;
  std::uint32_t stop;
  std::size_t lines = 0;

  bool done() const { return at >= stop; }

  /// Folds the line at `at` and moves past it; false, with nothing changed, if the line is refused.
  bool step() {
    station_line const line = read_station_line_from_start(text, at, size, dictionary);
    if (line.id == needs_general_path) return false;
    add_reading(rows[line.id], line.tenths);
    at = line.next;
    ++lines;
    return true;
  }
};

/// A wide walk over the lines [at, size) (wide_dictionary_view): a known station's line is merged into
/// its row of the table where it is; a valid line of a station the dictionary does not know is appended
/// to `unknown` and passed. A bad line, or a last line no '\n' ends, stops the walk at its start.
struct wide_line_walk {
  char const* text;
  std::uint32_t size;
  wide_dictionary_view dictionary;
  station_stats* rows;
  std::string* unknown;
  std::uint32_t at = 0;
  std::size_t lines = 0;

  void run() {
    while (at < size) {
      auto const line = read_station_line_from_start(text, at, size, dictionary);
      if (line.id != wide_dictionary_view::unknown) {
        add_reading(rows[line.id], line.tenths);
        at = line.next;
        ++lines;
        continue;
      }
      if (!set_aside()) return;
    }
  }

  /// The refused line at `at`, appended to `unknown` if it is valid; false if it is not, or no '\n'
  /// ends it (the general path reports it or takes it where it is, so its position stays its own).
  bool set_aside() {
    char const* const line = text + at;
    auto const* const newline = static_cast<char const*>(std::memchr(line, '\n', size - at));
    if (newline == nullptr) return false;
    auto const bytes = static_cast<std::uint32_t>(newline - line);
    if (parse_line(line, bytes).status != line_status::ok) return false;
    unknown->append(line, bytes + 1);
    at += bytes + 1;
    ++lines;
    return true;
  }
};

/// When a block is walked as two halves at once: from this size, and while both halves' rows stay small
/// beside a core's cache (2,048 stations: 64 KiB): two walks measured faster at 413 stations and slower at
/// 10,000 (docs/performance.md, "Tried on the host and dropped").
constexpr std::size_t two_walks_from_bytes = 4096;
constexpr std::size_t two_walks_up_to_stations = 2048;
#endif

}  // namespace

fast_reducer::fast_reducer(context const& ctx, bool portable_only, block_observer* observer)
    : ctx_(ctx), portable_only_(portable_only), observer_(observer), line_count_(1) {}

std::optional<std::size_t> fast_reducer::fold(char const* text, std::size_t size, dictionary_view dictionary,
                                              station_table& table) {
  std::size_t const capacity = size / min_line_bytes + 2;
  ctx_.grow(ids_, capacity);
  ctx_.grow(tenths_, capacity);
  std::size_t lines = 0;
  {
    stage_scope stage(ctx_, "find + parse");
    // Two passes: the scan only stores where each line ends, then a transform parses one line a thread.
    // Fused into the scan, the parse ran once for each line a 16-byte word ends, so a warp's lanes
    // parsed 0 to 3 lines each (0 to 16 in any text) and waited for the busiest; two passes measured
    // faster, more so at 10,000 stations (docs/gpu-profile.md; docs/data/fast_path_parse-h100.csv).
    // Measured slower still: a thread per 32-2,048 bytes of text reading its lines
    // in turn, and names over 16 bytes looked up in a second transform (docs/gpu-profile.md, "Measured
    // and not kept").
    ctx_.grow(line_ends_, capacity);
    for_each_line(text, size, store_line_end{raw(line_ends_), static_cast<std::uint32_t>(capacity)},
                  raw(line_count_), ctx_);
    lines = read_back(line_count_, 0, ctx_);
    if (lines <= capacity) {
      thrust::transform(ctx_.policy(), thrust::counting_iterator<std::uint32_t>(0),
                        thrust::counting_iterator<std::uint32_t>(static_cast<std::uint32_t>(lines)),
                        thrust::make_zip_iterator(ids_.begin(), tenths_.begin()),
                        parse_line_at{text, raw(line_ends_), dictionary});
    }
  }
  if (lines > capacity) return std::nullopt;  // lines shorter than any valid line: the general path says which
  if (observer_ != nullptr) observer_->ids_parsed(raw(ids_), raw(tenths_), lines, ctx_);

  std::pair<station_id const*, std::int16_t const*> sorted;
  {
    stage_scope stage(ctx_, "sort");
    sorted = sort_rows(lines);
  }
  if (observer_ != nullptr) observer_->ids_sorted(sorted.first, sorted.second, lines, ctx_);
  bool known = false;
  {
    stage_scope stage(ctx_, "reduce");
    known = reduce_rows(sorted.first, sorted.second, lines, table.size());
  }
  if (!known) return std::nullopt;  // a new station or a bad line: the general path takes the block
  if (observer_ != nullptr) {
    bool const dense = reduced_ids_.empty();
    observer_->ids_reduced(dense ? nullptr : raw(reduced_ids_), raw(reduced_), dense ? table.size() : groups_, ctx_);
  }
  {
    stage_scope stage(ctx_, "merge");
    merge_reduced(table);
  }
  return lines;
}

#if !ROWSCAN_HAS_CUB
lines_taken fast_reducer::fold_known_lines(char const* text, std::size_t size, dictionary_view dictionary,
                                           station_table& table) {
  std::size_t const stations = table.size();
  ctx_.grow(block_rows_, stations);
  lines_taken taken;
  {
    stage_scope stage(ctx_, "find + parse + fold");
    detail::check_text_size(size);
    auto const n = static_cast<std::uint32_t>(size);
    thrust::fill_n(thrust::seq, raw(block_rows_), stations, block_row::identity());
    // Two walks, over the block's halves, in one loop: each line's start waits for the line before it
    // (line_from_start.hpp), so a core works on two such chains at once. The second half folds into
    // rows of its own, which count only if the first half was taken whole.
    bool const two_walks = size >= two_walks_from_bytes && stations <= two_walks_up_to_stations;
    auto const middle = static_cast<std::uint32_t>(two_walks ? whole_lines_through(text, size, size / 2) : size);
    if (middle < n) ctx_.grow(second_block_rows_, stations);
    line_walk first{text, n, dictionary, raw(block_rows_), 0, middle};
    line_walk second{text, n, dictionary, raw(second_block_rows_), middle, n};
    if (middle < n) {
      thrust::fill_n(thrust::seq, raw(second_block_rows_), stations, block_row::identity());
      while (!first.done() && !second.done() && (first.step() & second.step())) {
      }
    }
    while (!first.done() && first.step()) {
    }
    taken = {first.lines, first.at};
    if (first.done() && middle < n) {
      while (!second.done() && second.step()) {
      }
      thrust::transform(thrust::seq, raw(block_rows_), raw(block_rows_) + stations, raw(second_block_rows_),
                        raw(block_rows_), merge_block_rows{});
      taken = {first.lines + second.lines, second.at};
    }
  }
  {
    stage_scope stage(ctx_, "merge");
    ctx_.grow(reduced_, stations);
    thrust::transform(thrust::seq, raw(block_rows_), raw(block_rows_) + stations, raw(reduced_), as_station_stats{});
    reduced_ids_.clear();  // reduced_[i] is station i's
    merge_reduced(table);
  }
  return taken;
}
#endif

#if !ROWSCAN_HAS_CUB
lines_taken fast_reducer::fold_unknown_aside(char const* text, std::size_t size, wide_dictionary_view dictionary,
                                             station_table& table, std::string& unknown) {
  stage_scope stage(ctx_, "find + parse + fold");
  detail::check_text_size(size);
  wide_line_walk walk{text, static_cast<std::uint32_t>(size), dictionary, thrust::raw_pointer_cast(table.stats.data()),
                      &unknown};
  walk.run();
  return {walk.lines, walk.at};
}
#endif

std::pair<station_id const*, std::int16_t const*> fast_reducer::sort_rows(std::size_t n) {
#if ROWSCAN_HAS_CUB
  if (!portable_only_) {
    // CUB sorts between two buffers and says which holds the result: nothing is copied back.
    ctx_.grow(ids_other_, n);
    ctx_.grow(tenths_other_, n);
    cub::DoubleBuffer<station_id> keys(raw(ids_), raw(ids_other_));
    cub::DoubleBuffer<std::int16_t> values(raw(tenths_), raw(tenths_other_));
    std::size_t bytes = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, n, 0, 16, ctx_.stream());
    ctx_.grow(temporary_, bytes);
    check_cuda(cub::DeviceRadixSort::SortPairs(raw(temporary_), bytes, keys, values, n, 0, 16, ctx_.stream()),
               "sorting station ids failed");
    return {keys.Current(), values.Current()};
  }
#endif
  thrust::sort_by_key(ctx_.policy(), ids_.begin(), ids_.begin() + static_cast<std::ptrdiff_t>(n), tenths_.begin());
  return {raw(ids_), raw(tenths_)};
}

bool fast_reducer::reduce_rows(station_id const* ids, std::int16_t const* tenths, std::size_t n, std::size_t stations) {
  auto policy = ctx_.policy();
  auto readings = thrust::make_transform_iterator(thrust::device_pointer_cast(tenths), reading_stats{});
  auto const sorted_ids = thrust::device_pointer_cast(ids);
  auto const end = sorted_ids + static_cast<std::ptrdiff_t>(n);
#if ROWSCAN_HAS_CUB
  if (!portable_only_) {
    // Station i's rows are [starts[i], starts[i + 1]) of the sorted ids (a vectorized lower_bound);
    // the sentinel's rows, if any, start at starts[stations]. A segmented reduction then summarizes
    // every station at once, with no per-row keys to compare.
    ctx_.grow(segment_starts_, stations + 1);
    thrust::lower_bound(policy, sorted_ids, end, thrust::counting_iterator<std::uint32_t>(0),
                        thrust::counting_iterator<std::uint32_t>(static_cast<std::uint32_t>(stations + 1)),
                        segment_starts_.begin());
    ctx_.grow(reduced_, stations);
    std::size_t bytes = 0;
    auto const* starts = raw(segment_starts_);
    cub::DeviceSegmentedReduce::Reduce(nullptr, bytes, readings, raw(reduced_), static_cast<std::int64_t>(stations),
                                       starts, starts + 1, merge_stats{}, station_stats::identity(), ctx_.stream());
    ctx_.grow(temporary_, bytes);
    check_cuda(cub::DeviceSegmentedReduce::Reduce(raw(temporary_), bytes, readings, raw(reduced_),
                                                  static_cast<std::int64_t>(stations), starts, starts + 1,
                                                  merge_stats{}, station_stats::identity(), ctx_.stream()),
               "reducing station readings failed");
    reduced_ids_.clear();  // reduced_[i] is station i's
    return read_back(segment_starts_, stations, ctx_) == n;
  }
#endif
  // The portable twin: one group per distinct id, the sentinel's group last.
  ctx_.grow(reduced_ids_, stations + 1);
  ctx_.grow(reduced_, stations + 1);
  auto const ends = thrust::reduce_by_key(policy, sorted_ids, end, readings, reduced_ids_.begin(), reduced_.begin(),
                                          thrust::equal_to<station_id>{}, merge_stats{});
  groups_ = static_cast<std::size_t>(ends.first - reduced_ids_.begin());
  return groups_ == 0 || read_back(reduced_ids_, groups_ - 1, ctx_) != needs_general_path;
}

void fast_reducer::merge_reduced(station_table& table) {
  auto policy = ctx_.policy();
  if (reduced_ids_.empty()) {  // one summary per station, in order (empty ones are the identity)
    thrust::transform(policy, reduced_.begin(), reduced_.begin() + static_cast<std::ptrdiff_t>(table.size()),
                      table.stats.begin(), table.stats.begin(), merge_stats{});
    return;
  }
  // One summary per group; the ids are distinct, so no two writes meet.
  auto running = thrust::make_permutation_iterator(table.stats.begin(), reduced_ids_.begin());
  thrust::transform(policy, reduced_.begin(), reduced_.begin() + static_cast<std::ptrdiff_t>(groups_), running, running,
                    merge_stats{});
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
