// SPDX-License-Identifier: Apache-2.0
// Grouping by counting (rowscan/stations/histogram_grouping.hpp): a histogram over (id, tenth) bins,
// then one reduction per station over its 1,999 bins.
#include "rowscan/stations/histogram_grouping.hpp"

#include "rowscan/raw.hpp"
#include "rowscan/read_back.hpp"

#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scatter.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <algorithm>

#if ROWSCAN_HAS_CUB
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#endif

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN
namespace {

/// A summary's count, to add up the rows that found a bin.
struct count_of {
  ROWSCAN_HD std::size_t operator()(station_stats const& s) const { return static_cast<std::size_t>(s.count); }
};

}  // namespace

histogram_grouper::histogram_grouper(context const& ctx, histogram_grouping_options options)
    : ctx_(ctx), options_(options) {}

std::size_t histogram_grouper::group(station_id const* ids, std::int16_t const* tenths, std::size_t n,
                                     std::size_t stations, thrust::device_vector<station_stats>& stats) {
  ctx_.resize(stats, stations);
  passes_ = 0;
  ids_per_pass_ = 0;
  if (stations == 0) return 0;
#if ROWSCAN_HAS_CUB
  if (!options_.portable_only) {
    group_cub(ids, tenths, n, stations, stats);
  } else {
    group_portable(ids, tenths, n, stations, stats);
  }
#else
  group_portable(ids, tenths, n, stations, stats);
#endif
  // The one wait: how many rows found a bin (fewer than n: a row for the general path).
  return thrust::transform_reduce(ctx_.policy(), stats.begin(), stats.end(), count_of{}, std::size_t{0},
                                  thrust::plus<std::size_t>{});
}

void histogram_grouper::group_portable(station_id const* ids, std::int16_t const* tenths, std::size_t n,
                                       std::size_t stations, thrust::device_vector<station_stats>& stats) {
  // Thrust has no histogram: the twin sorts the bins and counts each run of equal bins, which gives the
  // histogram's non-empty counts (the empty bins are the identity and change no summary).
  auto policy = ctx_.policy();
  passes_ = 1;
  ids_per_pass_ = stations;
  auto const end = static_cast<std::ptrdiff_t>(n);
  ctx_.grow(bins_, n);
  auto rows = thrust::make_zip_iterator(
      thrust::make_tuple(thrust::device_pointer_cast(ids), thrust::device_pointer_cast(tenths)));
  thrust::transform(policy, rows, rows + end, bins_.begin(), bin_of_reading{});
  thrust::sort(policy, bins_.begin(), bins_.begin() + end);

  ctx_.grow(run_bins_, n);
  ctx_.grow(run_counts_, n);
  auto const runs =
      thrust::reduce_by_key(policy, bins_.begin(), bins_.begin() + end, thrust::constant_iterator<std::uint32_t>(1),
                            run_bins_.begin(), run_counts_.begin());
  auto const non_empty = runs.first - run_bins_.begin();

  // Runs are in bin order, so one station's runs are adjacent: one summary per station with rows.
  ctx_.grow(group_stations_, static_cast<std::size_t>(non_empty));
  ctx_.grow(group_stats_, static_cast<std::size_t>(non_empty));
  auto const run_stats = thrust::make_transform_iterator(
      thrust::make_zip_iterator(thrust::make_tuple(run_bins_.begin(), run_counts_.begin())), counted_bin_to_stats{});
  auto const run_stations = thrust::make_transform_iterator(run_bins_.begin(), station_of_bin{});
  auto const groups =
      thrust::reduce_by_key(policy, run_stations, run_stations + non_empty, run_stats, group_stations_.begin(),
                            group_stats_.begin(), thrust::equal_to<std::int32_t>{}, merge_stats{});
  auto const found = groups.first - group_stations_.begin();

  // Stations without rows keep the identity; the sentinel's and no_bin's groups are left out.
  thrust::fill(policy, stats.begin(), stats.end(), station_stats::identity());
  thrust::scatter_if(policy, group_stats_.begin(), group_stats_.begin() + found, group_stations_.begin(),
                     group_stations_.begin(), stats.begin(), station_below{static_cast<std::int32_t>(stations)});
}

#if ROWSCAN_HAS_CUB
void histogram_grouper::group_cub(station_id const* ids, std::int16_t const* tenths, std::size_t n,
                                  std::size_t stations, thrust::device_vector<station_stats>& stats) {
  auto const rows = thrust::make_zip_iterator(thrust::make_tuple(ids, tenths));
  auto const samples = thrust::make_transform_iterator(rows, bin_of_reading{});
  auto const samples_count = static_cast<std::int64_t>(n);

  // How many stations a pass may count: CUB's temporary storage is (nearly) proportional to the bins,
  // so one station's bins tell the price of each.
  std::size_t per_pass = options_.ids_per_pass;
  if (per_pass == 0) {
    std::size_t one_station = 0;
    check_cuda(
        cub::DeviceHistogram::HistogramEven(nullptr, one_station, samples, static_cast<std::uint32_t*>(nullptr),
                                            bins_per_station + 1, 0, bins_per_station, samples_count, ctx_.stream()),
        "sizing the station histogram failed");
    per_pass = std::max<std::size_t>(1, options_.temporary_budget_bytes / std::max<std::size_t>(1, one_station));
  }
  per_pass = std::min(per_pass, stations);
  ids_per_pass_ = per_pass;
  ctx_.grow(counts_, per_pass * bins_per_station);

  for (std::size_t first = 0; first < stations; first += per_pass) {
    auto const pass_ids = static_cast<std::int32_t>(std::min(per_pass, stations - first));
    std::int32_t const bins = pass_ids * bins_per_station;
    std::int32_t const lower = static_cast<std::int32_t>(first) * bins_per_station;
    // Samples outside [lower, lower + bins) are not counted: other passes' stations, the sentinel, no_bin.
    std::size_t bytes = 0;
    check_cuda(cub::DeviceHistogram::HistogramEven(nullptr, bytes, samples, raw(counts_), bins + 1, lower, lower + bins,
                                                   samples_count, ctx_.stream()),
               "sizing the station histogram failed");
    ctx_.grow(temporary_, bytes);
    check_cuda(cub::DeviceHistogram::HistogramEven(raw(temporary_), bytes, samples, raw(counts_), bins + 1, lower,
                                                   lower + bins, samples_count, ctx_.stream()),
               "counting (station, tenth) bins failed");

    // Station first + i's bins are [1999 i, 1999 (i + 1)) of this pass's counts.
    auto const bin_stats =
        thrust::make_transform_iterator(thrust::counting_iterator<std::int32_t>(0), dense_bin_to_stats{raw(counts_)});
    auto const offsets =
        thrust::make_transform_iterator(thrust::counting_iterator<std::int32_t>(0), first_bin_of_station{});
    station_stats* const out = raw(stats) + first;
    check_cuda(cub::DeviceSegmentedReduce::Reduce(nullptr, bytes, bin_stats, out, pass_ids, offsets, offsets + 1,
                                                  merge_stats{}, station_stats::identity(), ctx_.stream()),
               "sizing the per-station reduction failed");
    ctx_.grow(temporary_, bytes);
    check_cuda(cub::DeviceSegmentedReduce::Reduce(raw(temporary_), bytes, bin_stats, out, pass_ids, offsets,
                                                  offsets + 1, merge_stats{}, station_stats::identity(), ctx_.stream()),
               "reducing station bins failed");
    ++passes_;
  }
}
#endif

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
