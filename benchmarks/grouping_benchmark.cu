// SPDX-License-Identifier: Apache-2.0
// rowscan grouping benchmarks: the fast path's grouping stage over (id, tenths) rows already in
// device memory, by sorting (what the fold does today) and by counting (histogram_grouping.hpp).
//
//   BM_sort_grouping/stations                 the fold's composition (fast_reducer::sort_rows + reduce_rows):
//                                             under CUDA CUB's radix sort of the 16-bit ids with their tenths,
//                                             lower_bound of each station's first row, CUB's segmented
//                                             reduction; elsewhere sort_by_key + reduce_by_key
//   BM_histogram_grouping/stations/budget_MiB histogram_grouper with that temporary-storage budget per pass
//                                             (it sets how many stations one pass counts)
// Both end with the one read-back the fold makes (whether every row was known). The rows are drawn once:
// uniform stations, readings around a per-station mean (stddev 10 degrees), clamped to -99.9..99.9.
// Each iteration starts from the same unsorted rows (copied in, untimed) and is timed with CUDA events
// (steady_clock on the CPU backends). Counters: rows_GB/s counts 4 bytes a row (GB = 1e9); text_GB/s
// counts the text those rows come from, at text_bytes_per_row (ROWSCAN_BENCH_TEXT_BYTES_PER_ROW, default
// 13.8: 1e9 rows of the official station set are 13.80 GB).
//   ROWSCAN_BENCH_ROWS   rows per call (default 2^25 under CUDA, about a 512 MiB chunk's lines; 2^20 on CPU)
#include "timing.hpp"
#include "rowscan/config.hpp"
#include "rowscan/context.hpp"
#include "rowscan/read_back.hpp"
#include "rowscan/stations/dense_ids.hpp"
#include "rowscan/stations/histogram_grouping.hpp"
#include "rowscan/stations/stats.hpp"

#include <benchmark/benchmark.h>
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#if ROWSCAN_HAS_CUB
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#endif

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <random>

namespace {

using rowscan::bench::env_number;
using rowscan::bench::timed_seconds;
using rowscan::stations::station_id;
using rowscan::stations::station_stats;

#if ROWSCAN_HAS_CUB
constexpr double default_rows = 33554432;  // 2^25
#else
constexpr double default_rows = 1048576;  // 2^20
#endif

template <class T>
T* raw(thrust::device_vector<T>& v) {
  return thrust::raw_pointer_cast(v.data());
}

/// The rows of one station count, drawn once and kept on the device.
struct device_rows {
  thrust::device_vector<station_id> ids;
  thrust::device_vector<std::int16_t> tenths;
};

device_rows const& rows_for(std::size_t stations) {
  static std::map<std::size_t, std::unique_ptr<device_rows>> cache;
  auto& slot = cache[stations];
  if (slot) return *slot;
  auto const n = static_cast<std::size_t>(env_number("ROWSCAN_BENCH_ROWS", default_rows));
  std::mt19937 rng(static_cast<std::uint32_t>(stations));
  std::uniform_int_distribution<int> station(0, static_cast<int>(stations) - 1);
  std::uniform_int_distribution<int> mean(-200, 350);
  std::normal_distribution<double> spread(0.0, 100.0);
  std::vector<int> means(stations);
  for (int& m : means) m = mean(rng);
  thrust::host_vector<station_id> ids(n);
  thrust::host_vector<std::int16_t> tenths(n);
  for (std::size_t i = 0; i < n; ++i) {
    int const s = station(rng);
    ids[i] = static_cast<station_id>(s);
    tenths[i] = static_cast<std::int16_t>(
        std::clamp(static_cast<int>(means[static_cast<std::size_t>(s)] + spread(rng)), -999, 999));
  }
  slot = std::make_unique<device_rows>();
  slot->ids = ids;
  slot->tenths = tenths;
  return *slot;
}

void report(benchmark::State& state, std::size_t rows, double seconds) {
  double const calls = static_cast<double>(state.iterations());
  double const text_bytes_per_row = env_number("ROWSCAN_BENCH_TEXT_BYTES_PER_ROW", 13.8);
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["rows_GB/s"] = 4.0 * static_cast<double>(rows) * calls / seconds / 1e9;
  state.counters["text_GB/s"] = text_bytes_per_row * static_cast<double>(rows) * calls / seconds / 1e9;
}

/// The fold's grouping today, over work copies of the rows (sorted in place, as the fold's own buffers are).
class sort_grouping {
 public:
  explicit sort_grouping(rowscan::context const& ctx) : ctx_(ctx) {}

  /// Whether every row's id was below stations (the fold's test for the general path).
  bool group(thrust::device_vector<station_id>& ids, thrust::device_vector<std::int16_t>& tenths,
             std::size_t stations) {
    auto policy = ctx_.policy();
#if ROWSCAN_HAS_CUB
    auto const n = ids.size();
    ids_other_.resize(n);
    tenths_other_.resize(n);
    cub::DoubleBuffer<station_id> keys(raw(ids), raw(ids_other_));
    cub::DoubleBuffer<std::int16_t> values(raw(tenths), raw(tenths_other_));
    std::size_t bytes = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, n, 0, 16, ctx_.stream());
    temporary_.resize(std::max(temporary_.size(), bytes));
    rowscan::check_cuda(cub::DeviceRadixSort::SortPairs(raw(temporary_), bytes, keys, values, n, 0, 16, ctx_.stream()),
                        "sorting station ids failed");
    auto const sorted_ids = thrust::device_pointer_cast(keys.Current());
    auto readings = thrust::make_transform_iterator(thrust::device_pointer_cast(values.Current()),
                                                    rowscan::stations::reading_stats{});
    starts_.resize(stations + 1);
    thrust::lower_bound(
        policy, sorted_ids, sorted_ids + static_cast<std::ptrdiff_t>(n), thrust::counting_iterator<std::uint32_t>(0),
        thrust::counting_iterator<std::uint32_t>(static_cast<std::uint32_t>(stations + 1)), starts_.begin());
    reduced_.resize(stations);
    auto const* starts = raw(starts_);
    cub::DeviceSegmentedReduce::Reduce(nullptr, bytes, readings, raw(reduced_), static_cast<std::int64_t>(stations),
                                       starts, starts + 1, rowscan::stations::merge_stats{}, station_stats::identity(),
                                       ctx_.stream());
    temporary_.resize(std::max(temporary_.size(), bytes));
    rowscan::check_cuda(
        cub::DeviceSegmentedReduce::Reduce(raw(temporary_), bytes, readings, raw(reduced_),
                                           static_cast<std::int64_t>(stations), starts, starts + 1,
                                           rowscan::stations::merge_stats{}, station_stats::identity(), ctx_.stream()),
        "reducing station readings failed");
    return rowscan::read_back(starts_, stations, ctx_) == n;
#else
    thrust::sort_by_key(policy, ids.begin(), ids.end(), tenths.begin());
    group_ids_.resize(stations + 1);
    reduced_.resize(stations + 1);
    auto readings = thrust::make_transform_iterator(tenths.begin(), rowscan::stations::reading_stats{});
    auto const ends =
        thrust::reduce_by_key(policy, ids.begin(), ids.end(), readings, group_ids_.begin(), reduced_.begin(),
                              thrust::equal_to<station_id>{}, rowscan::stations::merge_stats{});
    auto const groups = static_cast<std::size_t>(ends.first - group_ids_.begin());
    return groups == 0 || rowscan::read_back(group_ids_, groups - 1, ctx_) != rowscan::stations::needs_general_path;
#endif
  }

 private:
  rowscan::context ctx_;
  thrust::device_vector<station_id> ids_other_, group_ids_;
  thrust::device_vector<std::int16_t> tenths_other_;
  thrust::device_vector<char> temporary_;
  thrust::device_vector<std::uint32_t> starts_;
  thrust::device_vector<station_stats> reduced_;
};

void BM_sort_grouping(benchmark::State& state) {
  auto const stations = static_cast<std::size_t>(state.range(0));
  device_rows const& rows = rows_for(stations);
  rowscan::context ctx;
  sort_grouping grouping(ctx);
  thrust::device_vector<station_id> ids(rows.ids.size());
  thrust::device_vector<std::int16_t> tenths(rows.tenths.size());
  auto fresh_rows = [&] {  // untimed: every call sorts the same unsorted rows
    thrust::copy(rows.ids.begin(), rows.ids.end(), ids.begin());
    thrust::copy(rows.tenths.begin(), rows.tenths.end(), tenths.begin());
  };
  fresh_rows();
  if (!grouping.group(ids, tenths, stations)) state.SkipWithError("a row was not counted");
  double seconds = 0;
  for (auto _ : state) {
    fresh_rows();
    double const s = timed_seconds([&] { grouping.group(ids, tenths, stations); });
    state.SetIterationTime(s);
    seconds += s;
  }
  report(state, rows.ids.size(), seconds);
}

void BM_histogram_grouping(benchmark::State& state) {
  auto const stations = static_cast<std::size_t>(state.range(0));
  device_rows const& rows = rows_for(stations);
  rowscan::context ctx;
  rowscan::stations::histogram_grouping_options options;
  options.temporary_budget_bytes = static_cast<std::size_t>(state.range(1)) << 20;
  rowscan::stations::histogram_grouper grouper(ctx, options);
  thrust::device_vector<station_stats> stats;
  auto const* ids = thrust::raw_pointer_cast(rows.ids.data());
  auto const* tenths = thrust::raw_pointer_cast(rows.tenths.data());
  auto const n = rows.ids.size();
  if (grouper.group(ids, tenths, n, stations, stats) != n) state.SkipWithError("a row was not counted");
  double seconds = 0;
  for (auto _ : state) {
    double const s = timed_seconds([&] { grouper.group(ids, tenths, n, stations, stats); });
    state.SetIterationTime(s);
    seconds += s;
  }
  report(state, n, seconds);
  state.counters["passes"] = static_cast<double>(grouper.passes());
  state.counters["ids_per_pass"] = static_cast<double>(grouper.ids_per_pass());
}

BENCHMARK(BM_sort_grouping)->Arg(413)->Arg(10000)->Arg(65534)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_histogram_grouping)
    ->ArgsProduct({{413, 10000, 65534}, {512, 8192}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
