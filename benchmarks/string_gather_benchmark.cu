// SPDX-License-Identifier: Apache-2.0
// rowscan string gather benchmarks: gather_strings over the grid of cudf's PR #7980, next to a plain copy.
//
//   BM_copy/N/L                    thrust::copy of the cell's source chars (N strings of average L bytes)
//                                  to another device buffer: the ceiling a gather of those bytes works under.
//   BM_gather/STRATEGY/N/L         gather_strings(source, indices, STRATEGY) with STRATEGY automatic,
//                                  char_parallel or string_parallel: offsets, allocation, chars, the whole call.
//   BM_gather_lanes/N/L/LANES      string_parallel with 1 to 256 lanes per string (the data behind
//                                  string_parallel_bytes_per_lane and _min_lanes), at N = 262,144 and at
//                                  16,777,216 x 32; registered under CUDA only.
//   BM_offsets/N/L, BM_cub_batched_memcpy/N/L, BM_random_rows/N/32
//                                  step 1 alone, and two yardsticks (below), at the lanes cells (CUDA only)
//
// The cell: N source strings with lengths uniform in [0, 2L] (mean L, some empty), bytes 'a'..'z' from a
// hash; N indices uniform in [0, N), so strings repeat and come in random order, as in a hash join or a
// sort. Source and indices are made once per cell, on the device, from exactly sized allocations.
//
// Each iteration is timed manually: CUDA events around the call under CUDA, steady_clock on the CPU
// backends; one untimed call warms up first (kernels, the context's pool). Counters:
//   bytes_per_second  SetBytesProcessed with the chars gathered (copied, for BM_copy); CSV prints it raw
//   GB/s              the same in GB = 1e9
//   rw_GB/s           twice that: bytes read plus written, the way docs/data/reduction_ladder-h100.csv counts
//                     its device_copy row (a device-to-device copy)
//   pct_of_copy       GB/s as a percentage of this run's BM_copy of the same cell (0 when it was not run)
//   strategy          what ran: 0 the copy, 1 char_parallel, 2 string_parallel (automatic resolves to 1 or 2),
//                     3 step 1 alone (BM_offsets/N/L: the output offsets, at the lanes cells),
//                     4 cub::DeviceMemcpy::Batched after step 1 (a yardstick: it reads bytes around strings),
//                     5 thrust::gather of random aligned 32-byte rows (BM_random_rows/N/32: the hardware's
//                     random-read yardstick for the 32-byte cells)
//   lanes             string_parallel's lanes per string (0 otherwise); strings, avg_len: the cell
//
// Environment:
//   ROWSCAN_BENCH_GRID        full (the PR's 5 x 5 grid; the default under CUDA) or quick (counts 4096,
//                             262144, 16777216 x lengths 32, 2048: the cells of the goals)
//   ROWSCAN_BENCH_COUNTS      comma-separated string counts, overriding the grid's (CPU default: 4096,32768)
//   ROWSCAN_BENCH_LENGTHS     comma-separated average lengths, overriding the grid's (CPU default: 32,512)
//   ROWSCAN_BENCH_MAX_BYTES   skip cells whose source + output + arrays exceed this (default 70e9 under
//                             CUDA, 2e9 on the CPU)
// For a table: --benchmark_format=csv (or --benchmark_out=FILE --benchmark_out_format=csv).
#include "timing.hpp"
#include "rowscan/config.hpp"
#include "rowscan/context.hpp"
#include "rowscan/device_buffer.hpp"
#include "rowscan/strings/column.hpp"
#include "rowscan/strings/gather.hpp"

#include <benchmark/benchmark.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

#if ROWSCAN_HAS_CUB
#  include <cub/device/device_memcpy.cuh>
#endif

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using rowscan::bench::env_number;
using rowscan::bench::run_timed;

using rowscan::gather_strategy;

std::vector<std::int64_t> env_list(char const* name, std::vector<std::int64_t> fallback) {
  char const* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  std::vector<std::int64_t> list;
  std::stringstream in(value);
  for (std::string item; std::getline(in, item, ',');) list.push_back(std::atoll(item.c_str()));
  return list;
}

ROWSCAN_HD inline std::uint64_t splitmix64(std::uint64_t z) {
  z = z * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Length of source string i, uniform in [0, 2 * average]; 0 for i == count (the scan's last entry).
struct source_length {
  std::uint64_t count;
  std::uint64_t average;
  ROWSCAN_HD std::int64_t operator()(std::uint64_t i) const {
    return i < count ? static_cast<std::int64_t>(splitmix64(i) % (2 * average + 1)) : 0;
  }
};

struct source_byte {
  ROWSCAN_HD char operator()(std::uint64_t p) const { return static_cast<char>('a' + splitmix64(p ^ 0x5bd1e995) % 26); }
};

struct random_index {
  std::uint64_t count;
  ROWSCAN_HD std::int32_t operator()(std::uint64_t k) const {
    return static_cast<std::int32_t>(splitmix64(k + 0x2545f4914f6cdd1dULL) % count);
  }
};

/// The source strings and indices of one cell of the grid.
struct cell_data {
  std::int64_t count;
  std::int64_t average;
  rowscan::strings_column source;
  thrust::device_vector<std::int32_t> indices;
  std::int64_t gathered_chars = 0;  ///< total length of the output
};

/// Step 1 of a gather of the cell (gathered_offsets): the output strings' source starts and offsets.
struct located_strings {
  rowscan::device_buffer<char const*> starts;
  rowscan::device_buffer<std::int64_t> offsets;
  std::int64_t total;
};

located_strings locate(rowscan::strings_column const& source, thrust::device_vector<std::int32_t> const& indices,
                       rowscan::context const& ctx) {
  std::size_t const n = indices.size();
  located_strings l{rowscan::device_buffer<char const*>(n + 1, ctx.memory()),
                    rowscan::device_buffer<std::int64_t>(n + 1, ctx.memory()), 0};
  l.total = rowscan::gathered_offsets(rowscan::column_view(source), thrust::raw_pointer_cast(indices.data()), n,
                                      thrust::raw_pointer_cast(l.starts.data()), thrust::raw_pointer_cast(l.offsets.data()), ctx);
  return l;
}

/// Bytes a cell needs on the device: source and output chars, both offsets, the indices.
double cell_bytes(std::int64_t count, std::int64_t average) {
  return 2.0 * static_cast<double>(count) * static_cast<double>(average) + static_cast<double>(count) * (8 + 8 + 4);
}

/// The cell in device memory; main() frees it before the CUDA runtime shuts down.
std::unique_ptr<cell_data> current;

/// The cell's data, made on first use; the previous cell's is freed first (only one is kept).
cell_data const& cell(std::int64_t count, std::int64_t average) {
  if (current && current->count == count && current->average == average) return *current;
  current.reset();
  auto c = std::make_unique<cell_data>();
  c->count = count;
  c->average = average;
  auto const n = static_cast<std::uint64_t>(count);
  rowscan::device_buffer<std::int64_t> offsets(n + 1);
  auto lengths = thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0),
                                                 source_length{n, static_cast<std::uint64_t>(average)});
  thrust::exclusive_scan(thrust::device, lengths, lengths + static_cast<std::ptrdiff_t>(n + 1), offsets.begin(), std::int64_t{0});
  std::int64_t const total = offsets.begin()[static_cast<std::ptrdiff_t>(n)];
  rowscan::device_buffer<char> chars(static_cast<std::size_t>(total));
  thrust::transform(thrust::device, thrust::counting_iterator<std::uint64_t>(0),
                    thrust::counting_iterator<std::uint64_t>(static_cast<std::uint64_t>(total)), chars.begin(), source_byte{});
  c->source = rowscan::strings_column(std::move(chars), std::move(offsets));
  c->indices.resize(n);
  thrust::transform(thrust::device, thrust::counting_iterator<std::uint64_t>(0), thrust::counting_iterator<std::uint64_t>(n),
                    c->indices.begin(), random_index{n});
  c->gathered_chars = locate(c->source, c->indices, rowscan::context{}).total;
  current = std::move(c);
  return *current;
}

/// BM_copy's GB/s per cell, for pct_of_copy.
std::map<std::pair<std::int64_t, std::int64_t>, double>& copy_rates() {
  static std::map<std::pair<std::int64_t, std::int64_t>, double> rates;
  return rates;
}

/// BM_copy's GB/s for the cell, or 0 when it was not run.
double copy_rate(std::int64_t count, std::int64_t average) {
  auto const it = copy_rates().find({count, average});
  return it == copy_rates().end() ? 0 : it->second;
}

/// The counters, the same set on every benchmark (the CSV reporter requires it). strategy 0 is BM_copy.
void report(benchmark::State& state, double bytes, double seconds, double copy_rate, std::int64_t count,
            std::int64_t average, int strategy, unsigned lanes) {
  double const rate = bytes / seconds / 1e9;
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.counters["GB/s"] = rate;
  state.counters["rw_GB/s"] = 2 * rate;
  state.counters["pct_of_copy"] = copy_rate > 0 ? 100 * rate / copy_rate : 0;
  state.counters["strategy"] = strategy;
  state.counters["lanes"] = lanes;
  state.counters["strings"] = static_cast<double>(count);
  state.counters["avg_len"] = static_cast<double>(average);
}

void BM_copy(benchmark::State& state, std::int64_t count, std::int64_t average) {
  cell_data const& c = cell(count, average);
  rowscan::device_buffer<char> destination(c.source.chars.size());
  rowscan::context ctx;
  auto copy = [&] { thrust::copy(ctx.policy(), c.source.chars.begin(), c.source.chars.end(), destination.begin()); };
  double const seconds = run_timed(state, copy);
  double const bytes = static_cast<double>(c.source.chars.size()) * static_cast<double>(state.iterations());
  report(state, bytes, seconds, 0, count, average, 0, 0);
  copy_rates()[{count, average}] = bytes / seconds / 1e9;
}

/// Step 1 alone (source starts and output offsets: a transform of random source strings, an exclusive
/// scan, one value read back), to split a gather's time between its two steps.
void BM_offsets(benchmark::State& state, std::int64_t count, std::int64_t average) {
  cell_data const& c = cell(count, average);
  rowscan::context ctx;
  double const seconds = run_timed(state, [&] { return locate(c.source, c.indices, ctx); });
  report(state, static_cast<double>(c.gathered_chars) * static_cast<double>(state.iterations()), seconds,
         copy_rate(count, average), count, average, 3, 0);
}

#if ROWSCAN_HAS_CUB
/// Output address of output string k.
struct output_pointer {
  char* chars;
  std::int64_t const* offsets;
  ROWSCAN_HD void* operator()(std::size_t k) const { return chars + offsets[k]; }
};
/// Size of output string k.
struct output_size {
  std::int64_t const* offsets;
  ROWSCAN_HD std::int64_t operator()(std::size_t k) const { return offsets[k + 1] - offsets[k]; }
};

/// For reference only: CUB's batched memcpy over the same strings after the same step 1. Its unaligned
/// loads read up to 3 bytes around each source string, which gather_strings promises never to do, so
/// it is a yardstick, not a strategy.
void BM_cub_batched_memcpy(benchmark::State& state, std::int64_t count, std::int64_t average) {
  cell_data const& c = cell(count, average);
  rowscan::context ctx;
  rowscan::device_buffer<char> temporary(0, ctx.memory());
  auto gather = [&] {
    located_strings l = locate(c.source, c.indices, ctx);
    std::int64_t const* const o = thrust::raw_pointer_cast(l.offsets.data());
    rowscan::device_buffer<char> chars(static_cast<std::size_t>(l.total), ctx.memory());
    char const* const* in = thrust::raw_pointer_cast(l.starts.data());
    auto out = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                               output_pointer{thrust::raw_pointer_cast(chars.data()), o});
    auto sizes = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), output_size{o});
    std::size_t bytes = 0;
    cub::DeviceMemcpy::Batched(nullptr, bytes, in, out, sizes, count);
    if (temporary.size() < bytes) temporary = rowscan::device_buffer<char>(bytes, ctx.memory());
    cub::DeviceMemcpy::Batched(thrust::raw_pointer_cast(temporary.data()), bytes, in, out, sizes, count);
    return rowscan::strings_column(std::move(chars), std::move(l.offsets));
  };
  double const seconds = run_timed(state, gather);
  report(state, static_cast<double>(c.gathered_chars) * static_cast<double>(state.iterations()), seconds,
         copy_rate(count, average), count, average, 4, 0);
}

/// A fixed 32-byte row; in an array from cudaMalloc, each one is one DRAM sector.
struct row32 {
  rowscan::detail::word16 half[2];
};

/// For reference only: thrust::gather of the cell's random indices over a table of aligned 32-byte rows,
/// no offsets and no alignment work. It is what the hardware gives for N random reads of one sector each
/// plus N x 32 bytes written in order, so it bounds any gather of N random strings of 32 bytes on average
/// (theirs straddle two sectors about half the time, and need their offsets first).
void BM_random_rows(benchmark::State& state, std::int64_t count, std::int64_t average) {
  cell_data const& c = cell(count, average);
  rowscan::context ctx;
  auto const n = static_cast<std::size_t>(count);
  rowscan::device_buffer<row32> table(n, ctx.memory());
  rowscan::device_buffer<row32> out(n, ctx.memory());
  thrust::fill(ctx.policy(), table.begin(), table.end(), row32{});
  auto gather = [&] { thrust::gather(ctx.policy(), c.indices.begin(), c.indices.end(), table.begin(), out.begin()); };
  double const seconds = run_timed(state, gather);
  report(state, static_cast<double>(n * sizeof(row32)) * static_cast<double>(state.iterations()), seconds,
         copy_rate(count, average), count, average, 5, 0);
}
#endif

/// lanes == 0: gather_strings with the strategy; otherwise steps 1 and 2 with string-parallel at that many lanes.
void BM_gather(benchmark::State& state, std::int64_t count, std::int64_t average, gather_strategy strategy, unsigned lanes) {
  cell_data const& c = cell(count, average);
  rowscan::context ctx;
  auto const n = static_cast<std::size_t>(count);
  auto gather = [&] {
    if (lanes == 0) {
      return rowscan::gather_strings(rowscan::column_view(c.source), thrust::raw_pointer_cast(c.indices.data()), n,
                                     strategy, ctx);
    }
    located_strings l = locate(c.source, c.indices, ctx);
    rowscan::device_buffer<char> chars(static_cast<std::size_t>(l.total), ctx.memory());
    rowscan::gather_chars_string_parallel(thrust::raw_pointer_cast(l.starts.data()), n,
                                          thrust::raw_pointer_cast(l.offsets.data()), thrust::raw_pointer_cast(chars.data()),
                                          lanes, ctx);
    return rowscan::strings_column(std::move(chars), std::move(l.offsets));
  };
  // The warm-up call loads the kernels; the pool keeps the output's memory for the next call.
  double const seconds = run_timed(state, gather);
  gather_strategy const ran = lanes != 0 ? gather_strategy::string_parallel
                              : strategy == gather_strategy::automatic
                                  ? rowscan::choose_gather_strategy(n, c.gathered_chars)
                                  : strategy;
  unsigned const lanes_ran = ran == gather_strategy::char_parallel ? 0u
                             : lanes != 0                         ? lanes
                                  : rowscan::string_parallel_lanes(n == 0 ? 0 : c.gathered_chars / count);
  report(state, static_cast<double>(c.gathered_chars) * static_cast<double>(state.iterations()), seconds,
         copy_rate(count, average), count, average, ran == gather_strategy::char_parallel ? 1 : 2, lanes_ran);
}

void register_grid() {
#if ROWSCAN_HAS_CUB
  bool const quick = std::getenv("ROWSCAN_BENCH_GRID") != nullptr && std::string(std::getenv("ROWSCAN_BENCH_GRID")) == "quick";
  std::vector<std::int64_t> const default_counts =
      quick ? std::vector<std::int64_t>{4096, 262144, 16777216} : std::vector<std::int64_t>{4096, 32768, 262144, 2097152, 16777216};
  std::vector<std::int64_t> const default_lengths =
      quick ? std::vector<std::int64_t>{32, 2048} : std::vector<std::int64_t>{32, 128, 512, 2048, 8192};
  double const default_max_bytes = 70e9;
  bool const with_lanes = true;
#else
  std::vector<std::int64_t> const default_counts = {4096, 32768};
  std::vector<std::int64_t> const default_lengths = {32, 512};
  double const default_max_bytes = 2e9;
  bool const with_lanes = false;  // one lane per string on the CPU backends
#endif
  auto const counts = env_list("ROWSCAN_BENCH_COUNTS", default_counts);
  auto const lengths = env_list("ROWSCAN_BENCH_LENGTHS", default_lengths);
  double const max_bytes = env_number("ROWSCAN_BENCH_MAX_BYTES", default_max_bytes);
  std::pair<char const*, gather_strategy> const strategies[] = {{"automatic", gather_strategy::automatic},
                                                                {"char_parallel", gather_strategy::char_parallel},
                                                                {"string_parallel", gather_strategy::string_parallel}};
  for (std::int64_t count : counts) {
    for (std::int64_t average : lengths) {
      if (cell_bytes(count, average) > max_bytes) continue;  // does not fit: the grid leaves it out
      std::string const cell_name = std::to_string(count) + "/" + std::to_string(average);
      benchmark::RegisterBenchmark(("BM_copy/" + cell_name).c_str(), BM_copy, count, average)
          ->UseManualTime()->Unit(benchmark::kMillisecond);
      for (auto const& [name, strategy] : strategies) {
        benchmark::RegisterBenchmark(("BM_gather/" + std::string(name) + "/" + cell_name).c_str(), BM_gather, count, average,
                                     strategy, 0u)
            ->UseManualTime()->Unit(benchmark::kMillisecond);
      }
      // Lanes at 262,144 strings for every length, and at the small-strings goal cell.
      if (!with_lanes || !(count == 262144 || (count == 16777216 && average == 32))) continue;
      benchmark::RegisterBenchmark(("BM_offsets/" + cell_name).c_str(), BM_offsets, count, average)
          ->UseManualTime()->Unit(benchmark::kMillisecond);
#if ROWSCAN_HAS_CUB
      benchmark::RegisterBenchmark(("BM_cub_batched_memcpy/" + cell_name).c_str(), BM_cub_batched_memcpy, count, average)
          ->UseManualTime()->Unit(benchmark::kMillisecond);
      if (average == 32) {
        benchmark::RegisterBenchmark(("BM_random_rows/" + cell_name).c_str(), BM_random_rows, count, average)
            ->UseManualTime()->Unit(benchmark::kMillisecond);
      }
#endif
      for (unsigned lanes : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u, 256u}) {
        benchmark::RegisterBenchmark(("BM_gather_lanes/" + cell_name + "/" + std::to_string(lanes)).c_str(), BM_gather,
                                     count, average, gather_strategy::string_parallel, lanes)
            ->UseManualTime()->Unit(benchmark::kMillisecond);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_grid();
  benchmark::RunSpecifiedBenchmarks();
  current.reset();  // device memory, freed while the runtime is still up
  benchmark::Shutdown();
  return 0;
}
