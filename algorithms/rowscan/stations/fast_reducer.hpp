// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/fast_reducer.hpp: the fast path, for a block whose stations are all known.
//
//   for_each_line(store_line_end)       -> ends                  (one scan over 16-byte words)
//   transform(parse_line_at)            -> ids, tenths           (a line a thread; the dictionary gives
//                                                                 each name its id)
//   sort_by_key(ids, tenths)                                     (16-bit keys; under CUDA CUB's radix
//                                                                 sort on double buffers, no copy back)
//   per-station stats: under CUDA lower_bound(segment starts) + CUB's segmented reduction; portable:
//   reduce_by_key(ids, reading_stats, merge_stats)
//   transform(merge_stats) into the table's stats (through a permutation_iterator on the portable path)
//
// One look at the last group (the sentinel id sorts last) tells whether every line was known; if not,
// nothing is merged and the general path takes the block.
//
// On the host systems a worker is one thread, and it folds a whole block alone (the parallelism is
// across blocks), so fold_known_lines skips the ids, the sort and the reduction:
//   read_station_line_from_start, line after line  -> one row per station, up to the first unknown line
//     (each line, read from its start, says where the next starts: no search for '\n'; the block's two
//      halves are walked at once, the second into rows of its own that count if the first is taken whole)
//   transform(merge_stats) into the table's stats
// The ids index the rows directly: the grouping reduce_by_key would compute, with nothing to sort.
// --explain (an observer) keeps the sorted composition, whose arrays it shows.
//
// Past max_dictionary_size stations (up to wide_fold_up_to_stations, worker.hpp) a host worker's
// dictionary has 32-bit ids (wide_dictionary_view), and fold_unknown_aside walks the whole block:
//   read_station_line_from_start, line after line  -> a known station's line: into its row of the table
//                                                     (no block rows: a block meets a few of a million)
//                                                  -> a valid line of a station the dictionary does not
//                                                     know: its bytes appended to `unknown`, for the
//                                                     general path, and the walk goes on
//                                                  -> a bad line (or an unterminated last one): it stops
// so that a block with a few new stations among a million known ones sends only those lines to the
// general path (docs/stations.md, "A million stations").
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/lines.hpp"
#include "rowscan/stations/dense_ids.hpp"
#include "rowscan/stations/observer.hpp"
#include "rowscan/stations/stats.hpp"
#include "rowscan/stations/table.hpp"

#include <thrust/device_vector.h>

#include <cstddef>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

#if !ROWSCAN_HAS_CUB
/// A station's row of one block on a host worker: 16 bytes where station_stats takes 24, so that 10,000
/// stations' rows stay in a core's L2 cache beside the dictionary. A block is under 2^31 bytes, so its
/// count fits 32 bits; a reading is within +-999 tenths.
struct block_row {
  std::int64_t sum;
  std::uint32_t count;
  std::int16_t min;
  std::int16_t max;

  static block_row identity() { return {0, 0, INT16_MAX, INT16_MIN}; }
};
#endif

class fast_reducer {
 public:
  /// portable_only: the portable Thrust sort and reduction even where CUB's are available (to test
  /// both on a GPU). observer may be nullptr.
  fast_reducer(context const& ctx, bool portable_only, block_observer* observer = nullptr);

  /// Folds the lines of text[0, size) (device memory, whole lines, followed by text_padding_bytes
  /// readable bytes) into table's stats, if every line names a station of dictionary (the view of
  /// table). Returns the line count then; otherwise nothing: the table is unchanged.
  std::optional<std::size_t> fold(char const* text, std::size_t size, dictionary_view dictionary, station_table& table);

#if !ROWSCAN_HAS_CUB
  /// The host systems' fast path (on one thread): folds the lines of text[0, size) one after another
  /// into table's stats, up to the first line that dictionary does not know (a new station or a bad
  /// line), and says how far it went. No observer sees it.
  lines_taken fold_known_lines(char const* text, std::size_t size, dictionary_view dictionary, station_table& table);

  /// The host systems' fast path past max_dictionary_size stations (on one thread): folds each line
  /// of text[0, size) that dictionary knows into table's stats, appends each other valid line ('\n'
  /// included) to `unknown`, and stops at the first bad line or unterminated last line. Says how far it
  /// went; its lines count those appended.
  lines_taken fold_unknown_aside(char const* text, std::size_t size, wide_dictionary_view dictionary,
                                 station_table& table, std::string& unknown);
#endif

 private:
  std::pair<station_id const*, std::int16_t const*> sort_rows(std::size_t n);
  bool reduce_rows(station_id const* ids, std::int16_t const* tenths, std::size_t n, std::size_t stations);
  void merge_reduced(station_table& table);

  context ctx_;
  bool portable_only_;
  block_observer* observer_;
  // Buffers grown to the largest block and then reused.
  thrust::device_vector<station_id> ids_;
  thrust::device_vector<std::int16_t> tenths_;
  thrust::device_vector<station_id> ids_other_;         // CUB's sort: the other half of each double buffer
  thrust::device_vector<std::int16_t> tenths_other_;
  thrust::device_vector<char> temporary_;               // CUB's temporary storage
  thrust::device_vector<std::uint32_t> line_count_;
  thrust::device_vector<std::uint32_t> line_ends_;      // the two-pass parse: each line's end
  thrust::device_vector<std::uint32_t> segment_starts_; // CUB's segmented reduction: station i's first row
  thrust::device_vector<station_id> reduced_ids_;       // the portable reduce_by_key: each group's id
  thrust::device_vector<station_stats> reduced_;        // each station's (or group's) summary of the block
#if !ROWSCAN_HAS_CUB
  thrust::device_vector<block_row> block_rows_;         // the host's fold: the block's rows (16 bytes each)
  thrust::device_vector<block_row> second_block_rows_;  // and those of its second half's walk
#endif
  std::size_t groups_ = 0;
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
