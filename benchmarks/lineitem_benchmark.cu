// SPDX-License-Identifier: Apache-2.0
// rowscan lineitem benchmarks: the fused query over device-resident columns, and the load of a .tbl.
//
//   BM_query/K  transform_reduce(zip(suppkey, quantity, cents), below_thresholds<K>) over columns made
//               in device memory (no file): GB/s of columns read (12 bytes a row, GB = 1e9), rows/s.
//   BM_load     summarize() of a generated lineitem.tbl from the page cache: read, copy, find records,
//               find fields, parse into the column store: GB/s of text.
//   BM_resident/MiB  the same table already in device memory, in blocks of about MiB MiB as the reader
//               cuts them, folded by one lineitem::worker (the one pass for a block of valid rows):
//               the device's time alone, GB/s of text.
//   BM_one_pass/MiB/S  sums_in_one_pass alone over those blocks, with stretches of S bytes: the
//               stretch size's cost (a thread's rows against the lanes left waiting).
// Each iteration is timed manually: CUDA events around the device work under CUDA, steady_clock on
// the CPU backends; one untimed run warms up first. Sizes come from the environment so the CPU build
// runs small:
//   ROWSCAN_BENCH_ROWS   rows of the query's columns (default 600,000,000 under CUDA, 10,000,000 on CPU)
//   ROWSCAN_BENCH_SCALE  scale factor of the loaded .tbl (default 1 under CUDA, 0.05 on CPU)
//   ROWSCAN_BENCH_FILE   a lineitem.tbl for BM_resident instead of the generated one
//   TMPDIR               where the .tbl is written (default /tmp); it is removed at exit
#include "resident_text.hpp"
#include "timing.hpp"
#include "rowscan/config.hpp"
#include "rowscan/context.hpp"
#include "rowscan/generate/lineitem.hpp"
#include "rowscan/lineitem/one_pass.hpp"
#include "rowscan/lineitem/query.hpp"
#include "rowscan/lineitem/summarize.hpp"
#include "rowscan/lineitem/worker.hpp"

#include <benchmark/benchmark.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/transform.h>

#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using rowscan::bench::env_number;
using rowscan::bench::run_timed;
using rowscan::bench::timed_seconds;

using rowscan::lineitem::column_store;

#if ROWSCAN_HAS_CUB
constexpr double default_rows = 6e8;  // dbgen's SF 100: 7.2 GB of columns
constexpr double default_scale = 1;
#else
constexpr double default_rows = 1e7;
constexpr double default_scale = 0.05;
#endif

/// Row i of a synthetic lineitem with SF x 10,000 suppliers: TPC-H's domains from a hash of i.
struct synthetic_row {
  std::uint64_t parts;
  std::uint64_t suppliers;
  ROWSCAN_HD thrust::tuple<std::uint32_t, std::uint32_t, std::uint32_t> operator()(std::uint64_t i) const {
    std::uint64_t z = i * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;  // splitmix64
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    std::uint64_t const partkey = (z % parts) + 1;
    auto const quantity = static_cast<std::uint32_t>((z >> 40) % 50 + 1);
    std::uint64_t const price = 90000 + (partkey / 10) % 20001 + 100 * (partkey % 1000);
    std::uint64_t const suppkey = (partkey + ((z >> 56) & 3) * (suppliers / 4 + (partkey - 1) / suppliers)) % suppliers + 1;
    return {static_cast<std::uint32_t>(suppkey), quantity, static_cast<std::uint32_t>(quantity * price)};
  }
};

/// The query's columns, made once in device memory.
column_store const& query_columns() {
  static std::unique_ptr<column_store> store = [] {
    auto s = std::make_unique<column_store>();
    auto const rows = static_cast<std::size_t>(env_number("ROWSCAN_BENCH_ROWS", default_rows));
    double const scale = static_cast<double>(rows) / 6e6;
    s->resize(rows);
    auto out = thrust::make_zip_iterator(thrust::make_tuple(s->suppkey.begin(), s->quantity.begin(), s->price_cents.begin()));
    auto const sizes = rowscan::generate::lineitem_table_sizes(scale < 0.0001 ? 0.0001 : scale);
    thrust::transform(thrust::device, thrust::counting_iterator<std::uint64_t>(0),
                      thrust::counting_iterator<std::uint64_t>(rows), out, synthetic_row{sizes.parts, sizes.suppliers});
    return s;
  }();
  return *store;
}

void BM_query(benchmark::State& state) {
  column_store const& store = query_columns();
  std::vector<std::uint64_t> thresholds;
  for (std::int64_t k = 0; k < state.range(0); ++k) thresholds.push_back(5000 + 1000 * static_cast<std::uint64_t>(k));
  rowscan::context ctx;
  rowscan::lineitem::sums_below(store, thresholds, ctx);  // warm-up: pool, kernels
  double seconds = 0;
  for (auto _ : state) {
    double const s = timed_seconds([&] { benchmark::DoNotOptimize(rowscan::lineitem::sums_below(store, thresholds, ctx)); });
    state.SetIterationTime(s);
    seconds += s;
  }
  double const bytes = static_cast<double>(store.size() * column_store::row_bytes) * static_cast<double>(state.iterations());
  state.counters["rows"] = static_cast<double>(store.size());
  state.counters["GB/s"] = bytes / seconds / 1e9;
  state.counters["Grows/s"] = static_cast<double>(store.size()) * static_cast<double>(state.iterations()) / seconds / 1e9;
}
BENCHMARK(BM_query)->Arg(1)->Arg(2)->Arg(4)->Arg(8)->UseManualTime()->Unit(benchmark::kMillisecond);

/// A generated lineitem.tbl, written once and removed at exit.
class table_file {
 public:
  table_file() {
    char const* dir = std::getenv("TMPDIR");
    path_ = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/rowscan-bench-lineitem-XXXXXX";
    fd_ = ::mkstemp(path_.data());
    if (fd_ < 0) throw std::runtime_error("cannot create " + path_);
    rowscan::generate::write_lineitem(fd_, {env_number("ROWSCAN_BENCH_SCALE", default_scale), 1});
  }
  ~table_file() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  int fd() const { return fd_; }

 private:
  std::string path_;
  int fd_;
};

void BM_load(benchmark::State& state) {
  static table_file const table;
  rowscan::lineitem::summarize_options options;
  options.suppkey_below = {5000};
  auto load = [&] {
    ::lseek(table.fd(), 0, SEEK_SET);
    return rowscan::lineitem::summarize(table.fd(), "lineitem.tbl", options);
  };
  load();  // warm-up: page cache, device allocations
  double seconds = 0, bytes = 0, query_seconds = 0;
  for (auto _ : state) {
    auto const s = load();
    state.SetIterationTime(s.load_seconds);  // host wall time: the load reads the file, so events would not cover it
    seconds += s.load_seconds;
    query_seconds += s.query_seconds;
    bytes += static_cast<double>(s.bytes);
    state.counters["rows"] = static_cast<double>(s.rows);
  }
  state.counters["GB/s"] = bytes / seconds / 1e9;
  state.counters["query_ms"] = query_seconds / static_cast<double>(state.iterations()) * 1e3;
}
BENCHMARK(BM_load)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

/// The table BM_resident folds: ROWSCAN_BENCH_FILE, or the generated one.
int resident_input() {
  char const* file = std::getenv("ROWSCAN_BENCH_FILE");
  if (file == nullptr || *file == '\0') {
    static table_file const table;
    return table.fd();
  }
  static int const fd = ::open(file, O_RDONLY);
  if (fd < 0) throw std::runtime_error(std::string("cannot open ") + file);
  return fd;
}

void BM_resident(benchmark::State& state) {
  auto const& text = rowscan::bench::resident_in_chunks_of(
      resident_input(), static_cast<std::size_t>(state.range(0)) << 20, rowscan::lineitem::walk_padding_bytes);
  rowscan::context ctx;
  rowscan::lineitem::worker_options options;
  options.suppkey_below = {5000};
  options.chunk_size = static_cast<std::size_t>(state.range(0)) << 20;
  rowscan::lineitem::worker worker(ctx, options);  // its arrays grow in the untimed first pass, then stay
  std::uint64_t rows = 0;
  auto fold_all = [&] {
    rows = 0;
    for (auto const& p : text.chunks) rows += worker.fold(text.data(p), p.size).lines;
  };
  double const seconds = run_timed(state, fold_all);
  auto const bytes = static_cast<double>(text.text_bytes());
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["text_GB"] = bytes / 1e9;
  state.counters["GB/s"] = bytes * static_cast<double>(state.iterations()) / seconds / 1e9;
}
BENCHMARK(BM_resident)->Arg(64)->Arg(128)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_one_pass(benchmark::State& state) {
  auto const& text = rowscan::bench::resident_in_chunks_of(
      resident_input(), static_cast<std::size_t>(state.range(0)) << 20, rowscan::lineitem::walk_padding_bytes);
  auto const stretch = static_cast<std::uint32_t>(state.range(1));
  rowscan::context ctx;
  std::uint64_t rows = 0;
  auto pass_all = [&] {
    rows = 0;
    for (auto const& p : text.chunks) {
      auto const sums = rowscan::lineitem::sums_in_one_pass(text.data(p), p.size, {5000}, ctx, stretch);
      if (!sums) throw std::runtime_error("BM_one_pass: a block with a bad or overlong row");
      rows += sums->rows;
    }
  };
  double const seconds = run_timed(state, pass_all);
  auto const bytes = static_cast<double>(text.text_bytes());
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["GB/s"] = bytes * static_cast<double>(state.iterations()) / seconds / 1e9;
}
BENCHMARK(BM_one_pass)
    ->ArgsProduct({{64, 128}, {128, 256, 512, 1024, 2048}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
