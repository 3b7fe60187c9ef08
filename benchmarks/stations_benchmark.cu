// SPDX-License-Identifier: Apache-2.0
// rowscan stations benchmarks: the pipeline's device stages over text already in device memory.
//
//   BM_find_lines/MiB        for_each_line with a sink that does nothing: the word scan alone
//   BM_device_resident/MiB   stations::worker::fold over every chunk, no synchronization between
//                            stages: the device-resident time of the whole job
//   BM_stages/MiB            the same with a synchronization after each stage: the split per stage
//   BM_device_resident_gpus/MiB/G  the chunks dealt in turn to G GPUs, each share already in its GPU's
//                            memory and folded by a worker of its own on a thread of its own (as
//                            --devices gpu:all runs them): wall time to the last GPU done (CUDA only)
//   BM_device_resident_lanes/MiB/W  the same with W workers on the first GPU (--devices gpu:0,0)
// MiB is the chunk size. Counters are GB/s of text (GB = 1e9) next to `ceiling_GB/s`, the device's
// measured device-to-device copy rate on the H100 (bytes read + written; docs/data/roofline-h100-stations.csv,
// copy_gb_per_s): a pass that only reads text is bounded by the same figure. Each iteration is timed with CUDA events (steady_clock on the CPU backends) after
// an untimed warm-up pass, which also teaches the worker every station (the fast path's dictionary).
//   ROWSCAN_BENCH_FILE   measurements file to load (default: generated, 2e8 rows under CUDA, 2e6 on CPU)
//   ROWSCAN_BENCH_ROWS   rows to generate when no file is given
//   ROWSCAN_BENCH_STATIONS  distinct stations to generate when no file is given (default 413)
#include "resident_text.hpp"
#include "timing.hpp"
#include "rowscan/config.hpp"
#include "rowscan/context.hpp"
#include "rowscan/generate/measurements.hpp"
#include "rowscan/lines.hpp"
#include "rowscan/job/stage_times.hpp"
#include "rowscan/stations/worker.hpp"

#include <benchmark/benchmark.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>

#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using rowscan::bench::env_number;
using rowscan::bench::resident_text;
using rowscan::bench::run_timed;
using rowscan::bench::timed_seconds;

constexpr double copy_ceiling_gb_per_s = 3031;  // measured device-to-device copy on the H100

#if ROWSCAN_HAS_CUB
constexpr double default_rows = 2e8;
#else
constexpr double default_rows = 2e6;
#endif

int open_input() {
  char const* file = std::getenv("ROWSCAN_BENCH_FILE");
  if (file != nullptr && *file != '\0') {
    int const fd = ::open(file, O_RDONLY);
    if (fd < 0) throw std::runtime_error(std::string("cannot open ") + file);
    return fd;
  }
  char path[] = "/tmp/rowscan-bench-measurements-XXXXXX";
  int const fd = ::mkstemp(path);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  ::unlink(path);
  rowscan::generate::measurements_options options;
  options.rows = static_cast<std::uint64_t>(env_number("ROWSCAN_BENCH_ROWS", default_rows));
  options.stations = static_cast<std::uint32_t>(env_number("ROWSCAN_BENCH_STATIONS", 413));
  rowscan::generate::write_measurements(fd, options);
  ::lseek(fd, 0, SEEK_SET);
  return fd;
}

/// The input cut into chunks of about chunk_bytes at line ends, loaded once per chunk size.
resident_text const& text_in_chunks_of(std::size_t chunk_bytes) {
  static int const fd = open_input();
  return rowscan::bench::resident_in_chunks_of(fd, chunk_bytes, rowscan::stations::text_padding_bytes);
}

void report(benchmark::State& state, resident_text const& text, double seconds) {
  auto const text_bytes = static_cast<double>(text.text_bytes());
  double const bytes = text_bytes * static_cast<double>(state.iterations());
  state.counters["text_GB"] = text_bytes / 1e9;
  state.counters["GB/s"] = bytes / seconds / 1e9;
  state.counters["ceiling_GB/s"] = copy_ceiling_gb_per_s;
}

struct ignore_line {
  ROWSCAN_HD void operator()(std::uint32_t, std::uint32_t, std::uint32_t) const {}
};

void BM_find_lines(benchmark::State& state) {
  resident_text const& text = text_in_chunks_of(static_cast<std::size_t>(state.range(0)) << 20);
  rowscan::context ctx;
  thrust::device_vector<std::uint32_t> count(1);
  auto pass = [&] {
    for (auto const& p : text.chunks) {
      rowscan::for_each_line(text.data(p), p.size, ignore_line{}, thrust::raw_pointer_cast(count.data()), ctx);
    }
  };
  double const seconds = run_timed(state, pass);
  report(state, text, seconds);
}

/// Folds every chunk with the worker; returns the lines.
std::uint64_t fold_all(rowscan::stations::worker& worker, resident_text const& text) {
  std::uint64_t lines = 0;
  for (auto const& p : text.chunks) lines += worker.fold(text.data(p), p.size).lines;
  return lines;
}

/// The worker over every chunk; with sync, its context's stages are observed (each one then waits for
/// the device) and their times accumulate into `times`.
void run_worker(benchmark::State& state, bool sync) {
  resident_text const& text = text_in_chunks_of(static_cast<std::size_t>(state.range(0)) << 20);
  rowscan::job::stage_times times;
  rowscan::context ctx;
  rowscan::stations::worker warm_up(ctx, {});
  std::uint64_t lines = fold_all(warm_up, text);  // learns the stations and fills the pool, untimed
  if (sync) ctx.observe_stages(&times);
  rowscan::stations::worker worker(ctx, {});
  worker.start_from(warm_up.partial());
  double seconds = 0;
  for (auto _ : state) {
    double const s = timed_seconds([&] { lines = fold_all(worker, text); });
    state.SetIterationTime(s);
    seconds += s;
  }
  report(state, text, seconds);
  auto const n = static_cast<double>(state.iterations());
  state.counters["lines"] = static_cast<double>(lines);
  state.counters["stations"] = static_cast<double>(worker.partial().size());
  state.counters["chunks"] = static_cast<double>(text.chunks.size());
  state.counters["general_chunks"] = static_cast<double>(worker.paths().general_blocks());
  if (sync) {
    double const gb = static_cast<double>(text.text_bytes()) / 1e9;
    double const parse = times.seconds("find + parse"), sort = times.seconds("sort"), reduce = times.seconds("reduce");
    state.counters["parse_ms"] = parse / n * 1e3;
    state.counters["sort_ms"] = sort / n * 1e3;
    state.counters["reduce_ms"] = reduce / n * 1e3;
    state.counters["merge_ms"] = times.seconds("merge") / n * 1e3;
    state.counters["parse_GB/s"] = gb * n / parse;
    state.counters["sort_reduce_GB/s"] = gb * n / (sort + reduce);
  }
}

void BM_device_resident(benchmark::State& state) { run_worker(state, false); }

#if ROWSCAN_HAS_CUB
/// One GPU's share of the chunks, in its own memory, and a worker that already knows every station.
struct gpu_share {
  int device = 0;
  resident_text text;
  std::unique_ptr<rowscan::context> ctx;
  std::unique_ptr<rowscan::stations::worker> worker;
};

/// The chunks of `all` dealt in turn to one share for each entry of `devices` (share i on GPU
/// devices[i]), each in its own memory with a worker that knows every station. Kept for the next
/// repetition of the same benchmark, since making them copies the whole text off the device and back;
/// never freed at exit (as resident_in_chunks_of).
std::vector<gpu_share>& shares_of(resident_text const& all, std::size_t chunk_bytes, std::vector<int> const& devices) {
  struct share_set {
    std::size_t chunk_bytes;
    std::vector<int> devices;
    std::vector<gpu_share> shares;
  };
  static share_set* cached = nullptr;
  if (cached != nullptr && cached->chunk_bytes == chunk_bytes && cached->devices == devices) return cached->shares;
  delete cached;
  cached = new share_set{chunk_bytes, devices, std::vector<gpu_share>(devices.size())};
  std::vector<char> host(all.bytes.size());
  thrust::copy(all.bytes.begin(), all.bytes.end(), host.begin());
  for (std::size_t g = 0; g < devices.size(); ++g) {  // chunk i goes to share i % shares, back to back in its memory
    gpu_share& share = cached->shares[g];
    share.device = devices[g];
    cudaSetDevice(share.device);
    std::vector<char> mine;
    for (std::size_t i = g; i < all.chunks.size(); i += devices.size()) {
      auto const& p = all.chunks[i];
      share.text.chunks.push_back({mine.size(), p.size});
      mine.insert(mine.end(), host.begin() + static_cast<std::ptrdiff_t>(p.offset),
                  host.begin() + static_cast<std::ptrdiff_t>(p.offset + p.size));
    }
    share.text.padding = rowscan::stations::text_padding_bytes;
    mine.resize(mine.size() + share.text.padding);
    share.text.bytes = thrust::device_vector<char>(mine.begin(), mine.end());
    share.ctx = std::make_unique<rowscan::context>();
    rowscan::stations::worker warm_up(*share.ctx, {});
    fold_all(warm_up, share.text);  // learns the stations and fills the pool, untimed
    share.worker = std::make_unique<rowscan::stations::worker>(*share.ctx, rowscan::stations::worker_options{});
    share.worker->start_from(warm_up.partial());
    share.ctx->synchronize();
  }
  cudaSetDevice(0);
  return cached->shares;
}

/// The shares of shares_of, folded by every share at once, a thread each: wall time to the last one done.
void run_shares(benchmark::State& state, std::vector<int> const& devices) {
  auto const chunk_bytes = static_cast<std::size_t>(state.range(0)) << 20;
  resident_text const& all = text_in_chunks_of(chunk_bytes);
  std::vector<gpu_share>& shares = shares_of(all, chunk_bytes, devices);
  auto fold_every_share = [&] {
    std::vector<std::thread> threads;
    for (gpu_share& share : shares) {
      threads.emplace_back([&share] {
        cudaSetDevice(share.device);
        fold_all(*share.worker, share.text);
        share.ctx->synchronize();
      });
    }
    for (std::thread& t : threads) t.join();
  };
  double seconds = 0;
  for (auto _ : state) {
    auto const start = std::chrono::steady_clock::now();
    fold_every_share();
    double const s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(s);
    seconds += s;
  }
  report(state, all, seconds);
  cudaSetDevice(0);
}

void BM_device_resident_gpus(benchmark::State& state) {
  int const gpus = static_cast<int>(state.range(1));
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < gpus) {
    state.SkipWithError("fewer GPUs than asked for");
    return;
  }
  std::vector<int> devices;
  for (int g = 0; g < gpus; ++g) devices.push_back(g);
  run_shares(state, devices);
  state.counters["gpus"] = gpus;
}

/// Several workers on the first GPU (as --devices gpu:0,0 runs them): while one waits for a result on
/// the host (a block's line count, whether every line was known), another's kernels run.
void BM_device_resident_lanes(benchmark::State& state) {
  auto const workers = static_cast<std::size_t>(state.range(1));
  run_shares(state, std::vector<int>(workers, 0));
  state.counters["workers"] = static_cast<double>(workers);
}
BENCHMARK(BM_device_resident_lanes)
    ->Args({64, 2})
    ->Args({128, 2})
    ->Args({64, 3})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_device_resident_gpus)->Args({64, 1})->Args({64, 2})->UseManualTime()->Unit(benchmark::kMillisecond);
#endif
void BM_stages(benchmark::State& state) { run_worker(state, true); }

BENCHMARK(BM_find_lines)->Arg(512)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_device_resident)->Arg(64)->Arg(128)->Arg(512)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_stages)->Arg(512)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
