// SPDX-License-Identifier: Apache-2.0
// Grouping (id, tenths) rows by a histogram over (id, tenth) bins (rowscan/stations/histogram_grouping.hpp)
// against a scalar loop and against the fold's sort + reduce_by_key, on random rows and named edge cases.
// On CUDA builds both CUB's histogram (at several station ranges per pass) and the portable twin run.
#include "rowscan/context.hpp"
#include "rowscan/stations/histogram_grouping.hpp"

#include "support/light_mode.hpp"

#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using rowscan::stations::histogram_grouper;
using rowscan::stations::histogram_grouping_options;
using rowscan::stations::needs_general_path;
using rowscan::stations::station_id;
using rowscan::stations::station_stats;
using support::light;

/// A station's summary as a beginner computes it: plain integers, one row at a time.
struct expected_stats {
  int min = 0, max = 0;
  long long sum = 0, count = 0;
};

struct rows {
  std::vector<station_id> ids;
  std::vector<std::int16_t> tenths;
  void add(station_id id, int t) {
    ids.push_back(id);
    tenths.push_back(static_cast<std::int16_t>(t));
  }
};

/// The scalar reference: rows with an id below `stations` and a reading in -999..999 count.
std::vector<expected_stats> scalar_reference(rows const& r, std::size_t stations, std::size_t& counted) {
  std::vector<expected_stats> out(stations);
  counted = 0;
  for (std::size_t i = 0; i < r.ids.size(); ++i) {
    int const t = r.tenths[i];
    if (r.ids[i] >= stations || t < -999 || t > 999) continue;
    expected_stats& s = out[r.ids[i]];
    if (s.count == 0) {
      s.min = s.max = t;
    } else {
      s.min = std::min(s.min, t);
      s.max = std::max(s.max, t);
    }
    s.sum += t;
    ++s.count;
    ++counted;
  }
  return out;
}

/// Every grouping this build has: the portable twin, and on CUDA CUB's histogram at several pass sizes
/// (the budget's choice, and ranges that leave a last, shorter pass; at most 2,000 passes, since each
/// pass is two launches).
std::vector<histogram_grouping_options> every_way(std::size_t stations) {
  std::vector<histogram_grouping_options> ways;
  histogram_grouping_options portable;
  portable.portable_only = true;
  ways.push_back(portable);
#if !ROWSCAN_HAS_CUB
  (void)stations;
#else
  for (std::size_t per_pass : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{413}}) {
    if (per_pass != 0 && stations / per_pass > 2000) continue;
    histogram_grouping_options cub;
    cub.ids_per_pass = per_pass;
    ways.push_back(cub);
  }
#endif
  return ways;
}

std::string describe(histogram_grouping_options const& o) {
  return o.portable_only ? std::string("portable") : "cub ids_per_pass=" + std::to_string(o.ids_per_pass);
}

/// Groups r every way and compares each station's summary with the scalar reference.
void expect_reference(rows const& r, std::size_t stations) {
  std::size_t counted = 0;
  std::vector<expected_stats> const expected = scalar_reference(r, stations, counted);
  thrust::device_vector<station_id> const ids(r.ids.begin(), r.ids.end());
  thrust::device_vector<std::int16_t> const tenths(r.tenths.begin(), r.tenths.end());
  for (histogram_grouping_options const& way : every_way(stations)) {
    SCOPED_TRACE(describe(way));
    rowscan::context ctx;
    histogram_grouper grouper(ctx, way);
    thrust::device_vector<station_stats> stats;
    std::size_t const found = grouper.group(thrust::raw_pointer_cast(ids.data()),
                                            thrust::raw_pointer_cast(tenths.data()), r.ids.size(), stations, stats);
    EXPECT_EQ(found, counted);
    ASSERT_EQ(stats.size(), stations);
    thrust::host_vector<station_stats> const got = stats;
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < stations && wrong < 5; ++i) {
      expected_stats const& e = expected[i];
      station_stats const& g = got[i];
      bool const same = e.count == 0 ? (g.count == 0 && g.sum == 0 && g.min == INT32_MAX && g.max == INT32_MIN)
                                     : (g.count == e.count && g.sum == e.sum && g.min == e.min && g.max == e.max);
      if (!same) {
        ++wrong;
        ADD_FAILURE() << "station " << i << ": expected {" << e.min << ", " << e.max << ", " << e.sum << ", " << e.count
                      << "}, got {" << g.min << ", " << g.max << ", " << g.sum << ", " << g.count << "}";
      }
    }
  }
}

/// Rows of uniformly drawn stations with readings around a per-station mean, clamped to -999..999.
rows random_rows(std::uint32_t seed, std::size_t stations, std::size_t n) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> station(0, static_cast<int>(stations) - 1);
  std::uniform_int_distribution<int> mean(-450, 450);
  std::normal_distribution<double> spread(0.0, 150.0);
  std::vector<int> means(stations);
  for (int& m : means) m = mean(rng);
  rows r;
  for (std::size_t i = 0; i < n; ++i) {
    int const s = station(rng);
    int const t = std::clamp(static_cast<int>(means[static_cast<std::size_t>(s)] + spread(rng)), -999, 999);
    r.add(static_cast<station_id>(s), t);
  }
  return r;
}

TEST(HistogramGrouping, RandomRowsMatchTheScalarLoop) {
  struct shape {
    std::size_t stations, rows;
  };
  for (shape s : std::vector<shape>{{1, 100},
                                    {13, 5000},
                                    {413, light<std::size_t>(200000, 20000)},
                                    {10000, light<std::size_t>(100000, 20000)}}) {
    for (std::uint32_t seed : light<std::vector<std::uint32_t>>({1, 2, 3}, {1})) {
      SCOPED_TRACE("stations=" + std::to_string(s.stations) + " rows=" + std::to_string(s.rows) +
                   " seed=" + std::to_string(seed));
      expect_reference(random_rows(seed, s.stations, s.rows), s.stations);
    }
  }
}

TEST(HistogramGrouping, AgreesWithTheFoldsSortAndReduceByKey) {
  // The grouping the fast path folds with today: sort_by_key(ids), reduce_by_key(reading_stats, merge_stats).
  std::uint32_t const seed = 11;
  SCOPED_TRACE("seed=" + std::to_string(seed));
  std::size_t const stations = 413;
  rows const r = random_rows(seed, stations, light(100000, 10000));
  thrust::device_vector<station_id> ids(r.ids.begin(), r.ids.end());
  thrust::device_vector<std::int16_t> tenths(r.tenths.begin(), r.tenths.end());

  rowscan::context ctx;
  histogram_grouper grouper(ctx, {});
  thrust::device_vector<station_stats> by_histogram;
  grouper.group(thrust::raw_pointer_cast(ids.data()), thrust::raw_pointer_cast(tenths.data()), r.ids.size(), stations,
                by_histogram);

  thrust::sort_by_key(ids.begin(), ids.end(), tenths.begin());
  thrust::device_vector<station_id> group_ids(stations);
  thrust::device_vector<station_stats> by_sort(stations);
  auto const end = thrust::reduce_by_key(
      ids.begin(), ids.end(), thrust::make_transform_iterator(tenths.begin(), rowscan::stations::reading_stats{}),
      group_ids.begin(), by_sort.begin(), thrust::equal_to<station_id>{}, rowscan::stations::merge_stats{});
  ASSERT_EQ(end.first - group_ids.begin(), static_cast<std::ptrdiff_t>(stations));  // every station has rows

  thrust::host_vector<station_stats> const h = by_histogram, s = by_sort;
  for (std::size_t i = 0; i < stations; ++i) {
    SCOPED_TRACE("station " + std::to_string(i));
    EXPECT_EQ(h[i].min, s[i].min);
    EXPECT_EQ(h[i].max, s[i].max);
    EXPECT_EQ(h[i].sum, s[i].sum);
    EXPECT_EQ(h[i].count, s[i].count);
  }
}

TEST(HistogramGrouping, EmptyInput) {
  expect_reference(rows{}, 5);
  expect_reference(rows{}, 0);
}

TEST(HistogramGrouping, OneStation) {
  rows r;
  for (int t : {-12, 5, 7, -12, 300}) r.add(0, t);
  expect_reference(r, 1);
}

TEST(HistogramGrouping, OneRow) {
  rows r;
  r.add(2, -1);
  expect_reference(r, 3);  // stations 0 and 1 have no rows: the identity
}

TEST(HistogramGrouping, AllTemperaturesEqual) {
  rows r;
  for (int i = 0; i < 5000; ++i) r.add(static_cast<station_id>(i % 17), 123);
  expect_reference(r, 17);
}

TEST(HistogramGrouping, ExtremesMinus99_9And99_9) {
  rows r;
  for (int i = 0; i < 3000; ++i) r.add(static_cast<station_id>(i % 3), i % 2 == 0 ? -999 : 999);
  r.add(3, -999);  // a station with only the lowest reading, and one with only the highest
  r.add(4, 999);
  expect_reference(r, 5);
}

TEST(HistogramGrouping, EveryReadingOfOneStation) {
  rows r;
  for (int t = -999; t <= 999; ++t) r.add(1, t);
  expect_reference(r, 2);
}

TEST(HistogramGrouping, TheMost16BitIds_65534Stations) {
  // ids 0..65533, the sentinel 0xFFFF above them: every station twice, then random rows.
  std::size_t const stations = 65534;
  rows r = random_rows(5, stations, light(200000, 30000));
  for (std::size_t i = 0; i < stations; ++i) {
    r.add(static_cast<station_id>(i), static_cast<int>(i % 1999) - 999);
    r.add(static_cast<station_id>(i), -static_cast<int>(i % 1999) + 999);
  }
  SCOPED_TRACE("seed=5");
  expect_reference(r, stations);
}

TEST(HistogramGrouping, RowsForTheGeneralPathAreNotCounted) {
  // The sentinel id (a line the dictionary does not know), an id past the table, readings out of range.
  rows r = random_rows(9, 40, 2000);
  r.add(needs_general_path, 10);
  r.add(40, 10);
  r.add(3, 1000);
  r.add(3, -1000);
  r.add(static_cast<station_id>(needs_general_path - 1), 999);  // the largest real id's last bin, past the table
  SCOPED_TRACE("seed=9");
  expect_reference(r, 40);
}

}  // namespace
