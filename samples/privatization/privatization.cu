// SPDX-License-Identifier: Apache-2.0
// samples/privatization/privatization.cu: min/mean/max/count per station of (id, tenths) rows, grouped
// four ways, and the seed blog's float arithmetic beside the exact one (docs/privatization.md).
//
//   float_atomics       (CUDA) the blog's kernel: one global 16-byte float table; atomicMin/atomicMax for
//                       floats through atomicCAS, float atomicAdd for the sum, int atomicAdd for the count
//   shared_table        (CUDA) each block keeps a private 16-byte table of every station in shared memory
//                       (exact integers), then merges it into the global table with integer atomics;
//                       only where 16 x stations bytes fit one block's shared memory
//   host_table          (every build) one core, one table indexed by id: what a CPU core does
//   sort_reduce_by_key  (every build) sort_by_key on the ids, reduce_by_key with the stats monoid
//   histogram           (CUDA: cub::DeviceHistogram; other builds: a host loop) a count per (id, tenth)
//                       bin, then every station's stats from its 1,999 bins (reduce_by_key over bins)
//
// Before the timings, the blog's float arithmetic is replayed on the host in two orders (the rows'
// order, and another one standing for the atomics' order of arrival) and compared with the exact
// integer answer: which printed min, mean and max differ, and by how much the float sums drift.
// Every exact way must equal the host loop's answer; the sample exits 1 (MISMATCH) if one does not.
//
// usage: privatization [STATIONS] [--size ROWS] [--repeat R] [--csv] [--print [--expect FILE]]
//        (STATIONS default 413; ROWS 2^24; --print: the float comparison alone, which CTest compares)
#include "../common/sample.hpp"

#include "rowscan/stations/stats.hpp"

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <numeric>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#if ROWSCAN_HAS_CUB
#  include <cub/device/device_histogram.cuh>
#endif

namespace {

char const* const usage = "privatization [STATIONS] [--size ROWS] [--repeat R] [--csv] [--print [--expect FILE]]";

using rowscan::stations::merge_stats;
using rowscan::stations::reading_stats;
using rowscan::stations::station_stats;
using station_id = std::uint16_t;  // 41,343 stations fit 16 bits
constexpr int tenths_span = 1999;   // -99.9 .. 99.9

/// A deterministic row generator: station of row i, and a reading around that station's mean.
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}
void make_rows(std::size_t rows, unsigned stations, std::vector<station_id>& ids, std::vector<std::int16_t>& tenths) {
  ids.resize(rows);
  tenths.resize(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    std::uint64_t const h = mix(i + 1);
    auto const s = static_cast<unsigned>(h % stations);
    int const mean = static_cast<int>(mix(s + 7) % 551) - 200;                  // -20.0 .. 35.0
    int const noise = static_cast<int>((h >> 20) % 201) + static_cast<int>((h >> 40) % 201) - 200;  // -20.0 .. 20.0
    ids[i] = static_cast<station_id>(s);
    tenths[i] = static_cast<std::int16_t>(std::clamp(mean + noise, -999, 999));
  }
}

/// The exact answer: integer tenths, one table indexed by id, one core.
// [docs:host-table]
std::vector<station_stats> host_table(std::vector<station_id> const& ids, std::vector<std::int16_t> const& tenths,
                                      unsigned stations) {
  std::vector<station_stats> table(stations, station_stats::identity());
  for (std::size_t i = 0; i < ids.size(); ++i) table[ids[i]] = merge_stats{}(table[ids[i]], reading_stats{}(tenths[i]));
  return table;
}
// [docs:end]

// ---------------------------------------------------------------------------------------------------
// The blog's float arithmetic, replayed on the host.

/// The float a parser gives for the text of t tenths (correctly rounded, as strtof reads "-12.3").
float float_of_tenths(int t) {
  char text[16];
  std::snprintf(text, sizeof text, "%s%d.%d", t < 0 ? "-" : "", std::abs(t) / 10, std::abs(t) % 10);
  return std::strtof(text, nullptr);
}

struct float_stat {
  float min = FLT_MAX, max = -FLT_MAX, sum = 0;
  int count = 0;
};

/// The blog's four updates per row, in the order the rows arrive (`order[k]` is the k-th row to arrive).
std::vector<float_stat> float_table(std::vector<station_id> const& ids, std::vector<std::int16_t> const& tenths,
                                    unsigned stations, std::vector<std::size_t> const& order) {
  std::vector<float> value(tenths_span);
  for (int t = -999; t <= 999; ++t) value[static_cast<std::size_t>(t + 999)] = float_of_tenths(t);
  std::vector<float_stat> table(stations);
  for (std::size_t i : order) {
    float_stat& s = table[ids[i]];
    float const v = value[static_cast<std::size_t>(tenths[i] + 999)];
    s.min = std::fmin(s.min, v);
    s.max = std::fmax(s.max, v);
    s.sum += v;
    s.count += 1;
  }
  return table;
}

/// 1BRC's rounding of a mean (Java's Math.round(x * 10) / 10: half up) against what the blog prints
/// (iostream's fixed, setprecision(1) of the float: the binary value rounded to nearest).
std::string printed(float v) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << v;
  return s.str();
}
std::string printed_tenths(std::int64_t t) {
  std::ostringstream s;
  s << (t < 0 ? "-" : "") << std::llabs(t) / 10 << '.' << std::llabs(t) % 10;
  return s.str();
}

/// How the float table differs from the exact one, printed.
void compare_floats(std::ostream& out, char const* order, std::vector<float_stat> const& f,
                    std::vector<station_stats> const& exact) {
  std::size_t min_max_differ = 0, mean_differ = 0, at_a_tie = 0, negative_zero = 0, stations_with_rows = 0;
  double worst_sum = 0;
  for (std::size_t s = 0; s < exact.size(); ++s) {
    if (exact[s].count == 0) continue;
    ++stations_with_rows;
    if (printed(f[s].min) != printed_tenths(exact[s].min) || printed(f[s].max) != printed_tenths(exact[s].max)) {
      ++min_max_differ;
    }
    std::string const mean = printed(f[s].sum / static_cast<float>(f[s].count));
    if (mean != printed_tenths(rowscan::stations::mean_tenths(exact[s]))) {
      ++mean_differ;
      if (mean == "-0.0") ++negative_zero;  // a mean in (-0.05, 0): 1BRC prints 0.0
      // A tie: the exact mean ends in 5 hundredths. 1BRC rounds it up; a float printed with one decimal
      // rounds its binary value, which lies a little above or below the tie, or on it (then to even).
      if (exact[s].sum % exact[s].count != 0 && (2 * exact[s].sum) % exact[s].count == 0) ++at_a_tie;
    }
    worst_sum = std::max(worst_sum, std::fabs(static_cast<double>(f[s].sum) - static_cast<double>(exact[s].sum) / 10));
  }
  out << "  " << std::left << std::setw(34) << order << std::right << " min or max differ at " << min_max_differ
      << ", mean at " << mean_differ << " (" << at_a_tie << " at a tie, " << negative_zero << " printed -0.0) of "
      << stations_with_rows
      << " stations; worst sum off by " << std::setprecision(3) << worst_sum << '\n';
}

// ---------------------------------------------------------------------------------------------------
// The device system's ways.

struct row_to_stats {
  ROWSCAN_HD station_stats operator()(std::int16_t t) const { return reading_stats{}(t); }
};

/// sort_by_key on the ids (the tenths travel with them), then one reduce_by_key: every station's stats.
// [docs:sort-reduce-by-key]
void sort_reduce_by_key(thrust::device_vector<station_id>& ids, thrust::device_vector<std::int16_t>& tenths,
                        thrust::device_vector<station_id>& group_ids, thrust::device_vector<station_stats>& stats) {
  thrust::sort_by_key(ids.begin(), ids.end(), tenths.begin());
  thrust::reduce_by_key(ids.begin(), ids.end(), thrust::make_transform_iterator(tenths.begin(), row_to_stats{}),
                        group_ids.begin(), stats.begin(), thrust::equal_to<station_id>{}, merge_stats{});
}
// [docs:end]

/// The (id, tenth) bin of a row: id * 1999 + tenths + 999.
struct bin_of_row {
  ROWSCAN_HD int operator()(thrust::tuple<station_id, std::int16_t> const& row) const {
    return static_cast<int>(thrust::get<0>(row)) * tenths_span + thrust::get<1>(row) + 999;
  }
};
/// A bin's contribution to its station: `count` readings of one temperature.
struct bin_to_stats {
  unsigned const* counts;
  ROWSCAN_HD station_stats operator()(int bin) const {
    auto const c = static_cast<std::int64_t>(counts[bin]);
    int const t = bin % tenths_span - 999;
    if (c == 0) return station_stats::identity();
    return {t, t, c * t, c};
  }
};
struct station_of_bin {
  ROWSCAN_HD int operator()(int bin) const { return bin / tenths_span; }
};

/// Every station's stats from its bins: one reduce_by_key over the bins, keyed by station.
// [docs:bins-to-stations]
void stations_from_bins(thrust::device_vector<unsigned> const& counts, unsigned stations,
                        thrust::device_vector<int>& group_stations, thrust::device_vector<station_stats>& stats) {
  auto const bins = thrust::counting_iterator<int>(0);
  int const n = static_cast<int>(stations) * tenths_span;
  thrust::reduce_by_key(thrust::make_transform_iterator(bins, station_of_bin{}),
                        thrust::make_transform_iterator(bins + n, station_of_bin{}),
                        thrust::make_transform_iterator(bins, bin_to_stats{counts.data().get()}), group_stations.begin(),
                        stats.begin(), thrust::equal_to<int>{}, merge_stats{});
}
// [docs:end]

#if ROWSCAN_HAS_CUB
// [docs:float-atomics]
/// The seed blog's atomicMin for floats: read the word, compute fminf, and swap it in with atomicCAS
/// unless another thread changed the word in between; then try again. (fmaxf for atomicMax.)
__device__ float atomic_min_float(float* address, float val) {
  int* const address_as_int = reinterpret_cast<int*>(address);
  int old = *address_as_int, assumed;
  do {
    assumed = old;
    old = atomicCAS(address_as_int, assumed, __float_as_int(fminf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}
__device__ float atomic_max_float(float* address, float val) {
  int* const address_as_int = reinterpret_cast<int*>(address);
  int old = *address_as_int, assumed;
  do {
    assumed = old;
    old = atomicCAS(address_as_int, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

/// One global table, four atomics per row (a grid-stride loop; the blog gave each thread a file slice).
__global__ void float_atomics(station_id const* ids, std::int16_t const* tenths, std::size_t n, float_stat* table) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    float const v = tenths[i] / 10.0f;  // the float nearest the reading, as a correctly rounding parser gives it
    float_stat* const s = table + ids[i];
    atomic_min_float(&s->min, v);
    atomic_max_float(&s->max, v);
    atomicAdd(&s->sum, v);
    atomicAdd(&s->count, 1);
  }
}
// [docs:end]

/// A shared-memory table entry: 16 bytes a station, the blog's 16N, in exact integers. A block's sum
/// fits 32 bits because the launch gives no block more than 2^31 / 999 rows.
struct shared_entry {
  int min, max, sum;
  unsigned count;
};
struct global_entry {
  int min, max;
  unsigned long long sum;  // two's complement: atomicAdd of a negative sum's bits subtracts it
  unsigned long long count;
};

// [docs:shared-table]
/// Privatization: each block folds its rows into its own table in shared memory (fast atomics, and
/// contention only among the block's own threads), then merges the table into the global one: one set
/// of global atomics per station and block, instead of four per row.
__global__ void shared_table(station_id const* ids, std::int16_t const* tenths, std::size_t n, unsigned stations,
                             global_entry* table) {
  extern __shared__ shared_entry local[];
  for (unsigned s = threadIdx.x; s < stations; s += blockDim.x) local[s] = {INT_MAX, INT_MIN, 0, 0u};
  __syncthreads();
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    shared_entry* const e = local + ids[i];
    int const t = tenths[i];
    atomicMin(&e->min, t);
    atomicMax(&e->max, t);
    atomicAdd(&e->sum, t);
    atomicAdd(&e->count, 1u);
  }
  __syncthreads();
  for (unsigned s = threadIdx.x; s < stations; s += blockDim.x) {
    shared_entry const e = local[s];
    if (e.count == 0) continue;
    atomicMin(&table[s].min, e.min);
    atomicMax(&table[s].max, e.max);
    atomicAdd(&table[s].sum, static_cast<unsigned long long>(static_cast<long long>(e.sum)));
    atomicAdd(&table[s].count, static_cast<unsigned long long>(e.count));
  }
}
// [docs:end]

struct global_to_stats {
  ROWSCAN_HD station_stats operator()(global_entry const& e) const {
    return {e.min, e.max, static_cast<std::int64_t>(e.sum), static_cast<std::int64_t>(e.count)};
  }
};
#endif

bool same_answer(std::vector<station_stats> const& a, std::vector<station_stats> const& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].count != b[i].count) return false;
    if (a[i].count != 0 && (a[i].min != b[i].min || a[i].max != b[i].max || a[i].sum != b[i].sum)) return false;
  }
  return true;
}

/// reduce_by_key leaves out stations without rows: put its groups back at their ids.
template <class Ids>
std::vector<station_stats> by_id(Ids const& group_ids, thrust::device_vector<station_stats> const& stats,
                                 std::size_t groups, unsigned stations) {
  std::vector<station_stats> out(stations, station_stats::identity());
  thrust::host_vector<typename Ids::value_type> const ids(group_ids.begin(), group_ids.begin() + static_cast<long>(groups));
  thrust::host_vector<station_stats> const s(stats.begin(), stats.begin() + static_cast<long>(groups));
  for (std::size_t g = 0; g < groups; ++g) out[static_cast<std::size_t>(ids[g])] = s[g];
  return out;
}

int run(int argc, char** argv) {
  auto const opt = samples::parse_options(argc, argv, std::size_t{1} << 24, usage);
  if (opt.inputs.size() > 1) throw rowscan::error(std::string("usage: ") + usage);
  unsigned long long const stations_arg = opt.inputs.empty() ? 413 : std::stoull(opt.inputs.front());
  if (stations_arg < 1 || stations_arg > 65535) throw rowscan::error("STATIONS must be 1 to 65535");
  auto const stations = static_cast<unsigned>(stations_arg);
  std::size_t const rows = opt.size;
  std::string const sample = "privatization_" + std::to_string(stations);
  std::string const device = samples::device_name();

  std::vector<station_id> ids;
  std::vector<std::int16_t> tenths;
  make_rows(rows, stations, ids, tenths);
  std::size_t const bytes = rows * (sizeof(station_id) + sizeof(std::int16_t));
  std::ostream& text = opt.csv ? std::cerr : std::cout;

  std::vector<station_stats> exact;
  double const host_ms = samples::median_ms(opt.repeat, [&] {
    return samples::host_ms([&] { exact = host_table(ids, tenths, stations); });
  });

  // The blog's floats, replayed on the host: the rows' order, and a stride through them (the order in
  // which atomics from many blocks might arrive; any order other than the rows' would do).
  std::ostringstream floats;
  floats << "the seed blog's float arithmetic against the exact integer tenths, " << rows << " rows, " << stations
         << " stations (printed with one decimal):\n";
  std::vector<std::size_t> order(rows);
  for (std::size_t k = 0; k < rows; ++k) order[k] = k;
  compare_floats(floats, "float, the rows' order", float_table(ids, tenths, stations, order), exact);
  std::size_t stride = 1000003;
  while (rows > 1 && std::gcd(stride, rows) != 1) stride += 2;
  for (std::size_t k = 0; k < rows; ++k) order[k] = (k * stride) % rows;
  compare_floats(floats, "float, another order", float_table(ids, tenths, stations, order), exact);
  if (opt.print) {  // --print: the float comparison alone, the same on every build (docs/privatization.md quotes it)
    samples::deliver_answer(opt, floats.str());
    return 0;
  }
  text << "privatization: " << rows << " rows, " << stations << " stations, on " << device << '\n' << floats.str();

  if (opt.csv) samples::print_csv_header();
  auto report = [&](char const* variant, double ms, bool ok) {
    if (opt.csv) {
      samples::print_csv_row(sample, variant == std::string("host_table") ? samples::host_cpu_name() + " 1 thread" : device,
                             {variant, rows, bytes, ms}, std::cout);
    } else {
      text << "  " << std::left << std::setw(20) << variant << std::right << std::setw(10) << std::fixed
           << std::setprecision(3) << ms << " ms " << std::setw(8) << std::setprecision(2)
           << static_cast<double>(bytes) / (ms * 1e6) << " GB/s";
      text << (ok ? "" : "   MISMATCH: differs from the host table") << '\n';
    }
    text.unsetf(std::ios::fixed);
    return ok;
  };
  bool all_ok = true;
  if (!opt.csv) text << "timed (median of " << opt.repeat << "; GB/s of 4-byte rows read):\n";
  report("host_table", host_ms, true);

  thrust::device_vector<station_id> const d_ids(ids.begin(), ids.end());
  thrust::device_vector<std::int16_t> const d_tenths(tenths.begin(), tenths.end());

  {  // sort + reduce_by_key, on scratch copies (the sort reorders them); the copies are timed too
    thrust::device_vector<station_id> work_ids(rows), group_ids(stations);
    thrust::device_vector<std::int16_t> work_tenths(rows);
    thrust::device_vector<station_stats> stats(stations);
    auto once = [&] {
      thrust::copy(d_ids.begin(), d_ids.end(), work_ids.begin());
      thrust::copy(d_tenths.begin(), d_tenths.end(), work_tenths.begin());
      sort_reduce_by_key(work_ids, work_tenths, group_ids, stats);
    };
    once();
    double const ms = samples::median_ms(opt.repeat, [&] { return samples::device_ms(once); });
    std::size_t present = 0;
    for (auto const& s : exact) present += s.count != 0;
    all_ok &= report("sort_reduce_by_key", ms, same_answer(by_id(group_ids, stats, present, stations), exact));
  }

  std::size_t const bins = std::size_t{stations} * tenths_span;
  {  // histogram over (id, tenth), then per-station reductions over the bins
    thrust::device_vector<unsigned> counts(bins);
    thrust::device_vector<int> group_stations(stations);
    thrust::device_vector<station_stats> stats(stations);
    auto const rows_begin = thrust::make_transform_iterator(
        thrust::make_zip_iterator(d_ids.begin(), d_tenths.begin()), bin_of_row{});
#if ROWSCAN_HAS_CUB
    std::size_t temp_bytes = 0;
    SAMPLE_CUDA_TRY(cub::DeviceHistogram::HistogramEven(nullptr, temp_bytes, rows_begin, counts.data().get(),
                                                        static_cast<int>(bins) + 1, 0, static_cast<int>(bins),
                                                        static_cast<int>(rows)));
    std::size_t free_bytes = 0, total_bytes = 0;
    SAMPLE_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    text << "histogram: " << bins << " bins (" << stations << " x " << tenths_span
         << "); cub::DeviceHistogram asks for " << temp_bytes << " bytes of temporary storage ("
         << temp_bytes / (bins * sizeof(unsigned)) << " counters per bin) of " << free_bytes << " bytes free\n";
    bool const fits = temp_bytes <= free_bytes / 2;
    if (!fits) text << "histogram: skipped, its temporary storage would not fit\n";
    thrust::device_vector<unsigned char> temp(fits ? temp_bytes : 0);
    auto once = [&] {
      SAMPLE_CUDA_TRY(cub::DeviceHistogram::HistogramEven(temp.data().get(), temp_bytes, rows_begin,
                                                          counts.data().get(), static_cast<int>(bins) + 1, 0,
                                                          static_cast<int>(bins), static_cast<int>(rows)));
      stations_from_bins(counts, stations, group_stations, stats);
    };
#else
    (void)rows_begin;
    bool const fits = true;
    std::vector<unsigned> host_counts(bins);
    auto once = [&] {  // the host emulation: one core counts, then the device system reduces the bins
      std::fill(host_counts.begin(), host_counts.end(), 0u);
      for (std::size_t i = 0; i < rows; ++i) ++host_counts[std::size_t{ids[i]} * tenths_span + tenths[i] + 999];
      thrust::copy(host_counts.begin(), host_counts.end(), counts.begin());
      stations_from_bins(counts, stations, group_stations, stats);
    };
#endif
    if (fits) {
      once();
      double const ms = samples::median_ms(opt.repeat, [&] { return samples::device_ms(once); });
      all_ok &= report("histogram", ms, same_answer(by_id(group_stations, stats, stations, stations), exact));
    }
  }

#if ROWSCAN_HAS_CUB
  int gpu = 0, sms = 0, smem_per_block = 0, smem_per_sm = 0;
  SAMPLE_CUDA_TRY(cudaGetDevice(&gpu));
  SAMPLE_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu));
  SAMPLE_CUDA_TRY(cudaDeviceGetAttribute(&smem_per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, gpu));
  SAMPLE_CUDA_TRY(cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, gpu));
  unsigned const threads = 256;
  {  // the blog's kernel
    thrust::device_vector<float_stat> table(stations);
    auto once = [&] {
      thrust::fill(table.begin(), table.end(), float_stat{});
      float_atomics<<<static_cast<unsigned>(sms) * 8, threads>>>(d_ids.data().get(), d_tenths.data().get(), rows,
                                                                  table.data().get());
      SAMPLE_CUDA_TRY(cudaGetLastError());
    };
    once();
    double const ms = samples::median_ms(opt.repeat, [&] { return samples::device_ms(once); });
    thrust::host_vector<float_stat> const got(table);
    std::vector<float_stat> const f(got.begin(), got.end());
    compare_floats(text, "float_atomics on the GPU", f, exact);
    report("float_atomics", ms, true);  // not exact by design: compare_floats says how far it is
  }
  std::size_t const table_bytes = std::size_t{stations} * sizeof(shared_entry);
  text << "shared_table: " << stations << " stations x " << sizeof(shared_entry) << " bytes = " << table_bytes
       << " bytes; a block may have " << smem_per_block << ", an SM has " << smem_per_sm << '\n';
  if (table_bytes > static_cast<std::size_t>(smem_per_block)) {
    text << "shared_table: skipped, the table does not fit one block's shared memory\n";
  } else {
    SAMPLE_CUDA_TRY(cudaFuncSetAttribute(shared_table, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(table_bytes)));
    int per_sm = 0;
    SAMPLE_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, shared_table, static_cast<int>(threads),
                                                                  table_bytes));
    std::size_t const fewest_blocks = (rows + (INT_MAX / 999) - 1) / (INT_MAX / 999);  // a block's sum fits int
    auto const blocks = static_cast<unsigned>(std::max<std::size_t>(std::size_t(sms) * std::max(per_sm, 1), fewest_blocks));
    thrust::device_vector<global_entry> table(stations);
    auto once = [&] {
      thrust::fill(table.begin(), table.end(), global_entry{INT_MAX, INT_MIN, 0, 0});
      shared_table<<<blocks, threads, table_bytes>>>(d_ids.data().get(), d_tenths.data().get(), rows, stations,
                                                     table.data().get());
      SAMPLE_CUDA_TRY(cudaGetLastError());
    };
    once();
    double const ms = samples::median_ms(opt.repeat, [&] { return samples::device_ms(once); });
    thrust::host_vector<global_entry> const got(table);
    std::vector<station_stats> got_stats(stations);
    for (unsigned s = 0; s < stations; ++s) got_stats[s] = global_to_stats{}(got[s]);
    text << "shared_table: " << blocks << " blocks of " << threads << " threads (" << per_sm << " per SM)\n";
    all_ok &= report("shared_table", ms, same_answer(got_stats, exact));
  }
#endif
  text << (all_ok ? "the exact ways agree with the host table" : "MISMATCH: an exact way differs") << '\n';
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return samples::run_sample("privatization", [&] { return run(argc, argv); }); }
