// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/accumulator.hpp: folds chunks of device-resident text into the running station table.
//
// Fast path, for a chunk whose stations are all known (the running table is the dictionary):
//   for_each_line(parse_to_station_id)  -> ids, tenths           (one scan over 16-byte words;
//                                                                  lower_bound into the dictionary)
//   sort_by_key(ids, tenths)                                     (16-bit keys; under CUDA CUB's radix
//                                                                 sort on double buffers, no copy back)
//   per-station stats: under CUDA lower_bound(segment starts) + CUB's segmented reduction; portable:
//   reduce_by_key(ids, reading_stats, merge_stats)
//   transform into the running stats (through a permutation_iterator on the portable path)
// General path, for the first chunk, a chunk with new stations or a bad line, or too many stations:
//   find_lines -> transform(parse_record) -> find_if(bad) -> group_by_name -> merge_tables
// Both are exact; the general path also finds the first bad line and says where it is. With
// skip_invalid it instead counts the bad lines (count_if), words the first few (find_if + a host
// re-parse), and drops them (remove_if) before grouping: a chunk without bad lines costs what it did.
// Out of device memory, a chunk is tried once more in two halves (out_of_memory.hpp).
#pragma once

#include "rowscan/context.hpp"
#include "rowscan/records.hpp"
#include "rowscan/skipped_lines.hpp"
#include "rowscan/stage_clock.hpp"
#include "rowscan/stations/dense_ids.hpp"
#include "rowscan/stations/parse.hpp"
#include "rowscan/stations/stats.hpp"
#include "rowscan/stations/summarize.hpp"
#include "rowscan/stations/table.hpp"

#include <thrust/device_vector.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace rowscan::stations {

/// Readable bytes a text needs after its end: the fast path reads names with aligned 8-byte loads.
constexpr std::size_t text_padding_bytes = 16;

/// The longest line the reader carries from one block to the next (with its '\n'). Every longer line is
/// invalid (the longest valid one has max_line_bytes), but it is never skipped: it stops the run with
/// its error even with skip_invalid, wherever it lies, so that every chunk size gives the same outcome.
constexpr std::size_t carried_line_bytes = 4096;

class station_accumulator {
 public:
  /// label names the input in errors; key_mask keeps the name-hash bits used as keys (tests use fewer).
  /// portable_only: use the portable Thrust sort even where CUB's is available (to test both on a GPU).
  /// skip_invalid: leave bad lines out and record them in skipped() instead of throwing.
  station_accumulator(context const& ctx, std::string label, std::uint64_t key_mask, bool portable_only = false,
                      bool skip_invalid = false);

  /// Adds the lines of text[0, size) (device memory, followed by text_padding_bytes readable bytes, and
  /// 8-byte aligned unless bytes before it are readable too), which hold whole lines of the input.
  /// Returns how many lines it had, bad ones included. Throws rowscan::input_error at the chunk's first
  /// bad line (with skip_invalid: at its first line longer than carried_line_bytes). If the device runs
  /// out of memory, tries the two halves of the text once; then throws rowscan::device_error. Stage
  /// times go to times through clock.
  std::size_t add(char const* text, std::size_t size, chunk_position where, stage_times& times, stage_clock& clock);

  /// Every station so far, in key order.
  station_table const& table() const { return running_; }
  /// The bad lines left out so far (skip_invalid only).
  skipped_lines const& skipped() const { return skipped_; }
  std::size_t fast_chunks() const { return fast_chunks_; }
  std::size_t general_chunks() const { return general_chunks_; }

 private:
  std::size_t add_lines(char const* text, std::size_t size, chunk_position where, stage_times& times, stage_clock& clock);
  bool add_fast(char const* text, std::size_t size, std::size_t& lines, stage_times& times, stage_clock& clock);
  std::size_t add_general(char const* text, std::size_t size, chunk_position where);
  std::size_t add_general_piece(char const* text, std::size_t size, chunk_position where);
  std::size_t drop_bad_rows(char const* text, std::size_t first_bad, chunk_position where, skipped_lines& skipped);
  void merge_into_running(station_table&& table);
  void rebuild_dictionary();
  std::pair<station_id const*, std::int16_t const*> sort_rows(std::size_t n);
  bool reduce_rows(station_id const* ids, std::int16_t const* tenths, std::size_t n);
  void merge_reduced();
  dictionary_view dictionary() const;

  context ctx_;
  std::string label_;
  std::uint64_t key_mask_;
  bool portable_only_;
  bool skip_invalid_;
  station_table running_;
  skipped_lines skipped_;

  // The dictionary: running_'s keys, plus a directory and padded names (dense_ids.hpp), rebuilt
  // whenever the general path changes running_.
  thrust::device_vector<std::uint32_t> directory_;
  thrust::device_vector<std::uint64_t> name_words_;
  thrust::device_vector<std::uint32_t> first_word_;
  thrust::device_vector<std::uint8_t> name_bytes_;
  bool dictionary_stale_ = true;

  // Fast path buffers, grown to the largest chunk and then reused.
  thrust::device_vector<station_id> ids_;
  thrust::device_vector<std::int16_t> tenths_;
  thrust::device_vector<station_id> ids_other_;         // CUB's sort: the other half of each double buffer
  thrust::device_vector<std::int16_t> tenths_other_;
  thrust::device_vector<char> sort_temporary_;
  thrust::device_vector<std::uint32_t> line_count_;
  thrust::device_vector<std::uint32_t> segment_starts_;  // CUB's segmented reduction: station i's first row
  thrust::device_vector<station_id> reduced_ids_;       // the portable reduce_by_key: each group's id
  thrust::device_vector<station_stats> reduced_;        // each station's (or group's) summary of the chunk
  std::size_t groups_ = 0;

  parsed_records general_;  // the general path's columns

  std::size_t skip_fast_ = 0;     // general chunks to go before the fast path is tried again
  std::size_t fast_backoff_ = 1;  // doubles with every fast attempt that fails
  std::size_t fast_chunks_ = 0;
  std::size_t general_chunks_ = 0;
};

}  // namespace rowscan::stations
