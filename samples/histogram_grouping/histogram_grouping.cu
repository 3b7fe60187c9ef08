// SPDX-License-Identifier: Apache-2.0
// samples/histogram_grouping: the fast path's grouping two ways, on (id, tenths) rows (docs/histogram_grouping.md).
//
//   sort:      sort_by_key(ids, tenths) -> reduce_by_key(reading_stats, merge_stats)
//   histogram: transform(bin_of_reading) -> histogram over (id, tenth) bins -> per-station reduce(bin_to_stats)
//
// Features demonstrated: the histogram_grouper of rowscan/stations/histogram_grouping.hpp (CUB's
// DeviceHistogram and DeviceSegmentedReduce on a GPU, a portable Thrust twin elsewhere), a bin index
// computed by a functor over a zip of two columns, and a check of both ways against a one-core loop.
//
//   histogram_grouping 413 --size 10000000       time both ways at 413 stations (the median of --repeat)
//   histogram_grouping 413 --csv                 the same as CSV rows (docs/data/)
//   histogram_grouping --print                   the header's worked example, step by step
#include "../common/sample.hpp"

#include "rowscan/context.hpp"
#include "rowscan/stations/histogram_grouping.hpp"

#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using rowscan::stations::histogram_grouper;
using rowscan::stations::merge_stats;
using rowscan::stations::reading_stats;
using rowscan::stations::station_id;
using rowscan::stations::station_stats;

char const* const usage = "histogram_grouping [STATIONS] [--size ROWS] [--repeat N] [--csv] [--print]";

/// The one-core loop every way is checked against: one table indexed by the id.
std::vector<station_stats> host_table(thrust::host_vector<station_id> const& ids,
                                      thrust::host_vector<std::int16_t> const& tenths, std::size_t stations) {
  std::vector<station_stats> table(stations, station_stats::identity());
  for (std::size_t i = 0; i < ids.size(); ++i) table[ids[i]] = merge_stats{}(table[ids[i]], reading_stats{}(tenths[i]));
  return table;
}

// [docs:group-by-sort]
/// The grouping the fold does today: sort the rows by id, then one summary per run of equal ids. Every
/// station of these rows has at least one row, so the runs are the stations, in id order.
void group_by_sort(thrust::device_vector<station_id>& ids, thrust::device_vector<std::int16_t>& tenths,
                   thrust::device_vector<station_id>& group_ids, thrust::device_vector<station_stats>& stats) {
  thrust::sort_by_key(ids.begin(), ids.end(), tenths.begin());
  thrust::reduce_by_key(ids.begin(), ids.end(), thrust::make_transform_iterator(tenths.begin(), reading_stats{}),
                        group_ids.begin(), stats.begin(), thrust::equal_to<station_id>{}, merge_stats{});
}
// [docs:end]

// [docs:group-by-histogram]
/// The same summaries by counting: the rows are only read, never moved. stats[i] is station i's.
std::size_t group_by_histogram(histogram_grouper& grouper, thrust::device_vector<station_id> const& ids,
                               thrust::device_vector<std::int16_t> const& tenths, std::size_t stations,
                               thrust::device_vector<station_stats>& stats) {
  return grouper.group(thrust::raw_pointer_cast(ids.data()), thrust::raw_pointer_cast(tenths.data()), ids.size(),
                       stations, stats);
}
// [docs:end]

bool same(station_stats const& a, station_stats const& b) {
  return a.min == b.min && a.max == b.max && a.sum == b.sum && a.count == b.count;
}

std::string show(station_stats const& s) {
  std::ostringstream out;
  out << "{min " << s.min << ", max " << s.max << ", sum " << s.sum << ", count " << s.count << "}";
  return out.str();
}

/// The header's worked example: four rows of two stations, each step's array.
int print_worked_example(samples::options const& opt) {
  thrust::host_vector<station_id> const h_ids = std::vector<station_id>{0, 1, 0, 0};
  thrust::host_vector<std::int16_t> const h_tenths = std::vector<std::int16_t>{-5, 20, 7, -5};
  thrust::device_vector<station_id> const ids = h_ids;
  thrust::device_vector<std::int16_t> const tenths = h_tenths;
  std::ostringstream out;
  out << "rows (id, tenths):";
  for (std::size_t i = 0; i < h_ids.size(); ++i) out << " (" << h_ids[i] << ", " << h_tenths[i] << ")";
  out << "\n";

  thrust::device_vector<std::int32_t> bins(ids.size());
  auto rows = thrust::make_zip_iterator(thrust::make_tuple(ids.begin(), tenths.begin()));
  thrust::transform(rows, rows + static_cast<std::ptrdiff_t>(ids.size()), bins.begin(),
                    rowscan::stations::bin_of_reading{});
  thrust::host_vector<std::int32_t> const h_bins = bins;
  out << "bins (id * " << rowscan::stations::bins_per_station << " + tenths + 999):";
  for (std::int32_t b : h_bins) out << ' ' << b;
  out << "\n";
  std::vector<std::int32_t> sorted(h_bins.begin(), h_bins.end());
  std::sort(sorted.begin(), sorted.end());
  out << "non-empty bins (bin: count):";
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (i > 0 && sorted[i] == sorted[i - 1]) continue;
    out << ' ' << sorted[i] << ": " << std::count(sorted.begin(), sorted.end(), sorted[i]);
  }
  out << "\n";

  rowscan::context ctx;
  histogram_grouper grouper(ctx);
  thrust::device_vector<station_stats> stats;
  std::size_t const counted = group_by_histogram(grouper, ids, tenths, 2, stats);
  thrust::host_vector<station_stats> const h_stats = stats;
  for (std::size_t s = 0; s < h_stats.size(); ++s) out << "station " << s << ": " << show(h_stats[s]) << "\n";
  out << "rows counted: " << counted << " of " << ids.size() << "\n";
  samples::deliver_answer(opt, out.str());
  return 0;
}

int run(int argc, char** argv) {
  auto const opt = samples::parse_options(argc, argv, std::size_t{1} << 22, usage);
  if (opt.print) return print_worked_example(opt);
  std::size_t const stations = opt.inputs.empty() ? 413 : std::stoul(opt.inputs[0]);
  if (stations == 0 || stations > rowscan::stations::max_dictionary_size) {
    throw rowscan::error("STATIONS must be 1 to 65535\nusage: " + std::string(usage));
  }
  std::size_t const n = std::max(opt.size, stations);

  // Every station once, then uniform stations with readings around a per-station mean (seed 7).
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pick(0, static_cast<int>(stations) - 1);
  std::uniform_int_distribution<int> mean(-200, 350);
  std::normal_distribution<double> spread(0.0, 100.0);
  std::vector<int> means(stations);
  for (int& m : means) m = mean(rng);
  thrust::host_vector<station_id> h_ids(n);
  thrust::host_vector<std::int16_t> h_tenths(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t const s = i < stations ? i : static_cast<std::size_t>(pick(rng));
    h_ids[i] = static_cast<station_id>(s);
    h_tenths[i] = static_cast<std::int16_t>(std::clamp(static_cast<int>(means[s] + spread(rng)), -999, 999));
  }
  std::vector<station_stats> const expected = host_table(h_ids, h_tenths, stations);

  thrust::device_vector<station_id> const ids = h_ids;
  thrust::device_vector<std::int16_t> const tenths = h_tenths;
  std::size_t const bytes = n * (sizeof(station_id) + sizeof(std::int16_t));
  std::vector<samples::measurement> results;

  // Sorting moves the rows: each timed run sorts a fresh copy (the copy is not timed).
  thrust::device_vector<station_id> work_ids(n), group_ids(stations);
  thrust::device_vector<std::int16_t> work_tenths(n);
  thrust::device_vector<station_stats> by_sort(stations);
  auto const sort_once = [&] {
    work_ids = ids;
    work_tenths = tenths;
    return samples::device_ms([&] { group_by_sort(work_ids, work_tenths, group_ids, by_sort); });
  };
  sort_once();
  results.push_back({"sort_reduce_by_key", n, bytes, samples::median_ms(opt.repeat, sort_once)});

  rowscan::context ctx;
  histogram_grouper grouper(ctx);
  thrust::device_vector<station_stats> by_histogram;
  std::size_t counted = 0;
  auto const histogram_once = [&] {
    return samples::device_ms([&] { counted = group_by_histogram(grouper, ids, tenths, stations, by_histogram); });
  };
  histogram_once();
  results.push_back({"histogram", n, bytes, samples::median_ms(opt.repeat, histogram_once)});

  thrust::host_vector<station_stats> const s = by_sort, h = by_histogram;
  std::size_t mismatches = counted == n ? 0 : 1;
  for (std::size_t i = 0; i < stations; ++i) mismatches += !same(s[i], expected[i]) + !same(h[i], expected[i]);

  std::string const device = samples::device_name();
  std::string const sample = "histogram_grouping_" + std::to_string(stations);
  if (opt.csv) {
    samples::print_csv_header();
    for (auto const& m : results) samples::print_csv_row(sample, device, m, std::cout);
  } else {
    std::cout << n << " rows, " << stations << " stations, on " << device << " (histogram: " << grouper.passes()
              << " pass(es) of " << grouper.ids_per_pass() << " stations)\n";
    std::printf("  %-20s %10s %10s\n", "way", "ms", "GB/s");
    for (auto const& m : results) std::printf("  %-20s %10.3f %10.3f\n", m.variant.c_str(), m.ms, m.gb_per_s());
  }
  std::ostream& verdict = opt.csv ? std::cerr : std::cout;
  if (mismatches != 0) {
    verdict << "MISMATCH: " << mismatches << " stations differ from the host table\n";
    return 1;
  }
  verdict << "both ways agree with the host table (" << n << " rows, " << stations << " stations)\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return samples::run_sample("histogram_grouping", [&] { return run(argc, argv); });
}
