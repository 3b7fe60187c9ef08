// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/histogram_grouping.hpp: the fast path's grouping by counting, not sorting.
//
//   transform(bin_of_reading)                    row (id, tenths) -> bin id * 1999 + tenths + 999
//   histogram over the bins, one range of ids     counts[bin]     (CUB: DeviceHistogram::HistogramEven;
//     per pass                                                     portable: sort the bins, then
//                                                                  reduce_by_key(1) counts each run)
//   per-station reduce(bin_to_stats, merge_stats) stats[id]       (CUB: DeviceSegmentedReduce, segment
//                                                                  i = bins [1999 i, 1999 (i + 1));
//                                                                  portable: reduce_by_key(station_of_bin))
//
// Station ids (16-bit, from the dictionary) and readings (tenths in -999..999) are small integers, so a
// row is fully described by its bin, and a station's bins are enough for its summary: the min is its
// first non-empty bin, the max its last, the sum is the sum of count x tenth, the count the sum of
// counts. All in integers: the result is the sort's, bit for bit.
//
// Worked example (2 stations): rows (0, -5) (1, 20) (0, 7) (0, -5)
//   bins           994 3018 1006 994           (0 * 1999 + (-5 + 999) = 994; 1 * 1999 + (20 + 999) = 3018)
//   counts         bin 994: 2, bin 1006: 1, bin 3018: 1, every other bin 0
//   stats          station 0 {min -5, max 7, sum -3, count 3}, station 1 {20, 20, 20, 1}
//
// Rows whose id is not below `stations` (the needs_general_path sentinel) and readings outside
// -999..999 fall in no bin: group() returns the rows it counted, and fewer than were given means the
// block needs the general path, as the sort's last group says today.
//
// What it costs, and why it is a named, measured choice (docs/histogram_grouping.md): above 256 bins
// CUB gives every thread block a private histogram in global memory (../shared/CCCL-FACTS.md), so a
// pass zeroes and reads blocks x bins counters whatever the rows. ids_per_pass bounds that temporary
// storage; the stations beyond one pass cost another read of every row.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/stations/dense_ids.hpp"
#include "rowscan/stations/stats.hpp"

#include <thrust/device_vector.h>
#include <thrust/tuple.h>

#include <cstddef>
#include <cstdint>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

/// The readings a bin can hold: -99.9 to 99.9, one bin per tenth.
constexpr std::int32_t lowest_tenths = -999;
constexpr std::int32_t highest_tenths = 999;
constexpr std::int32_t bins_per_station = highest_tenths - lowest_tenths + 1;  // 1,999
/// The bin of a row that belongs to no station's bins (an out-of-range reading): above every real bin,
/// so both the histogram and the portable runs leave it out.
constexpr std::int32_t no_bin = INT32_MAX;

/// A row's bin: id * 1999 + (tenths + 999). The largest, the sentinel's, is 131,006,464: an int32.
struct bin_of_reading {
  ROWSCAN_HD std::int32_t operator()(thrust::tuple<station_id, std::int16_t> const& row) const {
    std::int32_t const tenths = thrust::get<1>(row);
    if (tenths < lowest_tenths || tenths > highest_tenths) return no_bin;
    return static_cast<std::int32_t>(thrust::get<0>(row)) * bins_per_station + (tenths - lowest_tenths);
  }
};

/// The station a bin belongs to.
struct station_of_bin {
  ROWSCAN_HD std::int32_t operator()(std::int32_t bin) const { return bin / bins_per_station; }
};

/// The first bin of station i, counted from the first station of a pass: the segments' offsets.
struct first_bin_of_station {
  ROWSCAN_HD std::int32_t operator()(std::int32_t station) const { return station * bins_per_station; }
};

/// `count` readings of one bin as a summary: the identity when the bin is empty, so empty bins never
/// move a min or a max.
ROWSCAN_HD inline station_stats stats_of_bin(std::int32_t bin, std::uint32_t count) {
  if (count == 0) return station_stats::identity();
  std::int32_t const tenths = bin % bins_per_station + lowest_tenths;
  return {tenths, tenths, std::int64_t{tenths} * count, count};
}

/// Bin b of a pass's dense histogram (counts[b], b counted from the pass's first bin) as a summary.
struct dense_bin_to_stats {
  std::uint32_t const* counts;
  ROWSCAN_HD station_stats operator()(std::int32_t bin) const { return stats_of_bin(bin, counts[bin]); }
};

/// A (bin, count) pair of the portable path's runs as a summary.
struct counted_bin_to_stats {
  ROWSCAN_HD station_stats operator()(thrust::tuple<std::int32_t, std::uint32_t> const& run) const {
    return stats_of_bin(thrust::get<0>(run), thrust::get<1>(run));
  }
};

/// Whether a group's station is one of the table's (the sentinel's and no_bin's groups are not).
struct station_below {
  std::int32_t stations;
  ROWSCAN_HD bool operator()(std::int32_t station) const { return station < stations; }
};

/// How histogram_grouper works.
struct histogram_grouping_options {
  /// The portable Thrust twin even where CUB's histogram is available (to compare both on a GPU).
  bool portable_only = false;
  /// Stations counted per histogram pass; 0: as many as temporary_budget_bytes allows (at least one).
  std::size_t ids_per_pass = 0;
  /// The most temporary storage one pass may ask of CUB (its private histograms: blocks x bins x 4 B).
  std::size_t temporary_budget_bytes = std::size_t{512} << 20;
};

/// Groups a block's (id, tenths) rows by counting their bins. Buffers grow to the largest block and are
/// reused, as fast_reducer's are.
class histogram_grouper {
 public:
  explicit histogram_grouper(context const& ctx, histogram_grouping_options options = {});

  /// stats[i] becomes the summary of the rows of ids[0, n) / tenths[0, n) (device memory) with id i,
  /// for i < stations (the identity for a station without rows); stats is resized to stations.
  /// Returns the rows counted, read back once: n unless some row's id is not below stations or its
  /// reading lies outside -999..999.
  std::size_t group(station_id const* ids, std::int16_t const* tenths, std::size_t n, std::size_t stations,
                    thrust::device_vector<station_stats>& stats);

  /// The histogram passes of the last group() (the portable twin counts every bin in one).
  std::size_t passes() const { return passes_; }

  /// The stations of one pass of the last group().
  std::size_t ids_per_pass() const { return ids_per_pass_; }

 private:
  void group_portable(station_id const* ids, std::int16_t const* tenths, std::size_t n, std::size_t stations,
                      thrust::device_vector<station_stats>& stats);
#if ROWSCAN_HAS_CUB
  void group_cub(station_id const* ids, std::int16_t const* tenths, std::size_t n, std::size_t stations,
                 thrust::device_vector<station_stats>& stats);
#endif

  context ctx_;
  histogram_grouping_options options_;
  std::size_t passes_ = 0;
  std::size_t ids_per_pass_ = 0;
  // CUB: one pass's dense counts and the temporary storage.
  thrust::device_vector<std::uint32_t> counts_;
  thrust::device_vector<char> temporary_;
  // Portable: the rows' bins, sorted; the runs of equal bins; one summary per station found.
  thrust::device_vector<std::int32_t> bins_;
  thrust::device_vector<std::int32_t> run_bins_;
  thrust::device_vector<std::uint32_t> run_counts_;
  thrust::device_vector<std::int32_t> group_stations_;
  thrust::device_vector<station_stats> group_stats_;
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
