// SPDX-License-Identifier: Apache-2.0
#include "rowscan/stations/accumulator.hpp"

#include "rowscan/bad_rows.hpp"
#include "rowscan/error.hpp"
#include "rowscan/lines.hpp"
#include "rowscan/out_of_memory.hpp"
#include "rowscan/stations/group.hpp"
#include "rowscan/stations/parse.hpp"

#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/find.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#if ROWSCAN_HAS_CUB
#  include <cub/device/device_radix_sort.cuh>
#  include <cub/device/device_segmented_reduce.cuh>
#endif

#include <algorithm>
#include <utility>
#include <vector>

namespace rowscan::stations {
namespace {

/// The general path works on pieces of at most this share of a chunk, so its per-line arrays (about
/// 30 bytes a line) stay within the fast path's memory.
constexpr std::size_t general_pieces_per_chunk = 4;
constexpr std::size_t min_general_piece = std::size_t{1} << 20;

template <class T>
T* raw(thrust::device_vector<T>& v) {
  return thrust::raw_pointer_cast(v.data());
}

/// True for a line, with its '\n', longer than the reader carries: never skipped (carried_line_bytes).
struct longer_than_carried {
  ROWSCAN_HD bool operator()(record_range r) const { return r.size() > carried_line_bytes; }
};

/// The smallest key of directory bucket b.
struct bucket_first_key {
  ROWSCAN_HD std::uint64_t operator()(std::uint64_t b) const { return b << (64 - directory_bits); }
};

/// Position after the first '\n' at or after `from`, or size if there is none.
std::size_t after_next_newline(char const* text, std::size_t from, std::size_t size, context const& ctx) {
  auto const found = thrust::find(ctx.policy(), thrust::device_pointer_cast(text + from),
                                  thrust::device_pointer_cast(text + size), '\n');
  auto const at = static_cast<std::size_t>(found - thrust::device_pointer_cast(text));
  return at == size ? size : at + 1;
}

}  // namespace

station_accumulator::station_accumulator(context const& ctx, std::string label, std::uint64_t key_mask,
                                         bool portable_only, bool skip_invalid)
    : ctx_(ctx), label_(std::move(label)), key_mask_(key_mask), portable_only_(portable_only),
      skip_invalid_(skip_invalid), line_count_(1) {}

std::size_t station_accumulator::add(char const* text, std::size_t size, chunk_position where, stage_times& times,
                                     stage_clock& clock) {
  if (size == 0) return 0;
  // The fast path changes nothing until it succeeds, and the general path lets no std::bad_alloc out
  // after it has merged a piece: a chunk that ran out of memory left no trace, and its halves may run.
  auto split_after = [&](std::size_t middle) { return after_next_newline(text, middle, size, ctx_); };
  auto part = [&](std::size_t begin, std::size_t end, std::size_t lines_before) {
    return add_lines(text + begin, end - begin, {where.input_offset + begin, where.lines_before + lines_before}, times,
                     clock);
  };
  return in_halves_if_out_of_memory(size, split_after, part, label_, where.input_offset);
}

std::size_t station_accumulator::add_lines(char const* text, std::size_t size, chunk_position where, stage_times& times,
                                           stage_clock& clock) {
  std::size_t lines = 0;
  bool const dictionary_usable = running_.size() > 0 && running_.size() <= max_dictionary_size;
  if (dictionary_usable && skip_fast_ == 0) {
    if (add_fast(text, size, lines, times, clock)) {
      ++fast_chunks_;
      fast_backoff_ = 1;
      return lines;
    }
    // New stations keep arriving (small chunks of a long station list): try the fast path again only
    // after 1, 2, 4 ... 64 general chunks, so the dictionary is not rebuilt for every chunk.
    fast_backoff_ = std::min<std::size_t>(2 * fast_backoff_, 64);
    skip_fast_ = fast_backoff_ / 2;
  } else if (skip_fast_ > 0) {
    --skip_fast_;
  }
  lines = add_general(text, size, where);
  clock.lap(times.general);
  ++general_chunks_;
  return lines;
}

bool station_accumulator::add_fast(char const* text, std::size_t size, std::size_t& lines, stage_times& times,
                                   stage_clock& clock) {
  std::size_t const capacity = size / min_line_bytes + 2;
  ctx_.grow(ids_, capacity);
  ctx_.grow(tenths_, capacity);
  if (dictionary_stale_) rebuild_dictionary();
  for_each_line(text, size,
                parse_to_station_id{text, dictionary(), raw(ids_), raw(tenths_), static_cast<std::uint32_t>(capacity)},
                raw(line_count_), ctx_);
  lines = line_count_[0];
  clock.lap(times.parse);
  if (lines > capacity) return false;  // lines shorter than any valid line: the general path says which

  auto const sorted = sort_rows(lines);
  clock.lap(times.sort);
  bool const known = reduce_rows(sorted.first, sorted.second, lines);
  clock.lap(times.reduce);
  if (!known) return false;  // a new station or a bad line: the general path takes the chunk
  merge_reduced();
  clock.lap(times.merge);
  return true;
}

bool station_accumulator::reduce_rows(station_id const* ids, std::int16_t const* tenths, std::size_t n) {
  auto policy = ctx_.policy();
  std::size_t const stations = running_.size();
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
    cub::DeviceSegmentedReduce::Reduce(nullptr, bytes, readings, raw(reduced_), static_cast<std::int64_t>(stations), starts,
                                       starts + 1, merge_stats{}, station_stats::identity());
    ctx_.grow(sort_temporary_, bytes);
    if (cudaError_t status = cub::DeviceSegmentedReduce::Reduce(raw(sort_temporary_), bytes, readings, raw(reduced_),
                                                                static_cast<std::int64_t>(stations), starts, starts + 1,
                                                                merge_stats{}, station_stats::identity());
        status != cudaSuccess) {
      throw device_error(std::string("CUDA: reducing station readings failed: ") + cudaGetErrorString(status));
    }
    reduced_ids_.clear();  // reduced_[i] is station i's
    return static_cast<std::uint32_t>(segment_starts_[stations]) == n;
  }
#endif
  // The portable twin: one group per distinct id, the sentinel's group last.
  ctx_.grow(reduced_ids_, stations + 1);
  ctx_.grow(reduced_, stations + 1);
  auto const ends = thrust::reduce_by_key(policy, sorted_ids, end, readings, reduced_ids_.begin(), reduced_.begin(),
                                          thrust::equal_to<station_id>{}, merge_stats{});
  groups_ = static_cast<std::size_t>(ends.first - reduced_ids_.begin());
  return groups_ == 0 || static_cast<station_id>(reduced_ids_[groups_ - 1]) != needs_general_path;
}

void station_accumulator::merge_reduced() {
  auto policy = ctx_.policy();
  if (reduced_ids_.empty()) {  // one summary per station, in order (empty ones are the identity)
    thrust::transform(policy, reduced_.begin(), reduced_.begin() + static_cast<std::ptrdiff_t>(running_.size()),
                      running_.stats.begin(), running_.stats.begin(), merge_stats{});
    return;
  }
  // One summary per group; the ids are distinct, so no two writes meet.
  auto running = thrust::make_permutation_iterator(running_.stats.begin(), reduced_ids_.begin());
  thrust::transform(policy, reduced_.begin(), reduced_.begin() + static_cast<std::ptrdiff_t>(groups_), running, running,
                    merge_stats{});
}

std::pair<station_id const*, std::int16_t const*> station_accumulator::sort_rows(std::size_t n) {
#if ROWSCAN_HAS_CUB
  if (!portable_only_) {
    // CUB sorts between two buffers and says which holds the result: nothing is copied back.
    ctx_.grow(ids_other_, n);
    ctx_.grow(tenths_other_, n);
    cub::DoubleBuffer<station_id> keys(raw(ids_), raw(ids_other_));
    cub::DoubleBuffer<std::int16_t> values(raw(tenths_), raw(tenths_other_));
    std::size_t bytes = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, n);
    ctx_.grow(sort_temporary_, bytes);
    if (cudaError_t status = cub::DeviceRadixSort::SortPairs(raw(sort_temporary_), bytes, keys, values, n);
        status != cudaSuccess) {
      throw device_error(std::string("CUDA: sorting station ids failed: ") + cudaGetErrorString(status));
    }
    return {keys.Current(), values.Current()};
  }
#endif
  thrust::sort_by_key(ctx_.policy(), ids_.begin(), ids_.begin() + static_cast<std::ptrdiff_t>(n), tenths_.begin());
  return {raw(ids_), raw(tenths_)};
}

std::size_t station_accumulator::add_general(char const* text, std::size_t size, chunk_position where) {
  // The pieces are all cut before the first one is merged, so that running out of memory here leaves no trace.
  std::size_t const piece = std::max(size / general_pieces_per_chunk, min_general_piece);
  std::vector<std::size_t> ends;
  for (std::size_t begin = 0; begin < size; begin = ends.back()) {
    ends.push_back(begin + piece >= size ? size : after_next_newline(text, begin + piece, size, ctx_));
  }
  std::size_t lines = 0;
  std::size_t begin = 0;
  for (std::size_t const end : ends) {
    // Each piece is merged on its own: out of memory, only the piece is tried again in halves.
    char const* piece_text = text + begin;
    chunk_position const at{where.input_offset + begin, where.lines_before + lines};
    auto split_after = [&](std::size_t middle) { return after_next_newline(piece_text, middle, end - begin, ctx_); };
    auto part = [&](std::size_t b, std::size_t e, std::size_t lines_before) {
      return add_general_piece(piece_text + b, e - b, {at.input_offset + b, at.lines_before + lines_before});
    };
    lines += in_halves_if_out_of_memory(end - begin, split_after, part, label_, at.input_offset);
    begin = end;
  }
  return lines;
}

// [docs:general-group]
std::size_t station_accumulator::add_general_piece(char const* text, std::size_t size, chunk_position where) {
  std::size_t const bad = parse_records(text, size, key_mask_, general_, ctx_);
  std::size_t const rows = general_.records.size();
  skipped_lines skipped;  // kept only once the piece is merged: out of memory, its halves count again
  if (bad < rows) {
    if (!skip_invalid_) throw bad_line_error(label_, text, general_.records[bad], where, where.lines_before + bad + 1);
    if (drop_bad_rows(text, bad, where, skipped) == 0) {  // nothing left to group
      skipped_.append(skipped);
      return rows;
    }
  }
  record_names names{text, raw(general_.records), raw(general_.name_sizes)};
  auto readings = thrust::make_transform_iterator(general_.tenths.begin(), reading_stats{});
  merge_into_running(table_from_groups(group_by_name(general_.keys, names, readings, ctx_), names, ctx_));
  skipped_.append(skipped);
  return rows;
}
// [docs:end]

std::size_t station_accumulator::drop_bad_rows(char const* text, std::size_t first_bad, chunk_position where,
                                               skipped_lines& skipped) {
  auto policy = ctx_.policy();
  std::size_t const rows = general_.records.size();
  auto& records = general_.records;
  auto describe = [&](std::size_t row) { return bad_line_error(label_, text, records[row], where, where.lines_before + row + 1); };
  auto const overlong =
      thrust::find_if(policy, records.begin() + static_cast<std::ptrdiff_t>(first_bad), records.end(), longer_than_carried{});
  if (overlong != records.end()) throw describe(static_cast<std::size_t>(overlong - records.begin()));
  skipped = skipped_rows(general_.statuses.begin(), first_bad, rows, is_bad_line{}, skipped_.wanted(), describe, ctx_);
  // remove_if(zip of the row columns, stencil: the statuses): the good rows, in order, at the front.
  auto columns = thrust::make_zip_iterator(
      thrust::make_tuple(records.begin(), general_.keys.begin(), general_.tenths.begin(), general_.name_sizes.begin()));
  auto const end = columns + static_cast<std::ptrdiff_t>(rows);
  auto const kept = static_cast<std::size_t>(
      thrust::remove_if(policy, columns, end, general_.statuses.begin(), is_bad_line{}) - columns);
  records.resize(kept);
  general_.keys.resize(kept);
  general_.tenths.resize(kept);
  general_.name_sizes.resize(kept);
  return kept;
}

void station_accumulator::merge_into_running(station_table&& table) {
  dictionary_stale_ = true;
  merge_into(running_, std::move(table), ctx_);
}

void station_accumulator::rebuild_dictionary() {
  // The directory: a vectorized lower_bound of every bucket's smallest key.
  directory_.resize(directory_size);
  auto bucket_keys = thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), bucket_first_key{});
  thrust::lower_bound(ctx_.policy(), running_.keys.begin(), running_.keys.end(), bucket_keys,
                      bucket_keys + static_cast<std::ptrdiff_t>(directory_size - 1), directory_.begin());
  directory_[directory_size - 1] = static_cast<std::uint32_t>(running_.size());

  // The padded names: O(stations) bytes, laid out on the host once per change of the station set.
  std::vector<std::string> const names = to_host_strings(running_.names);
  thrust::host_vector<std::uint64_t> words;
  thrust::host_vector<std::uint32_t> first;
  thrust::host_vector<std::uint8_t> sizes;
  for (std::string const& name : names) {
    auto const n = static_cast<std::uint32_t>(name.size());
    first.push_back(static_cast<std::uint32_t>(words.size()));
    sizes.push_back(static_cast<std::uint8_t>(n));
    for (std::uint32_t i = 0; i < n; i += 8) words.push_back(name_word(name.data() + i, n - i < 8 ? n - i : 8));
  }
  words.push_back(0);  // never empty
  name_words_ = words;
  first_word_ = first;
  name_bytes_ = sizes;
  dictionary_stale_ = false;
}

dictionary_view station_accumulator::dictionary() const {
  return {thrust::raw_pointer_cast(running_.keys.data()), thrust::raw_pointer_cast(directory_.data()),
          thrust::raw_pointer_cast(name_words_.data()), thrust::raw_pointer_cast(first_word_.data()),
          thrust::raw_pointer_cast(name_bytes_.data()), key_mask_};
}

}  // namespace rowscan::stations
