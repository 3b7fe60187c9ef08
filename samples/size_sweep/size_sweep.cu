// SPDX-License-Identifier: Apache-2.0
// samples/size_sweep/size_sweep.cu: throughput against input size, from 1 KiB to 1 GiB, for the
// primitives the workload is made of (docs/size_sweep.md):
//
//   device_copy  the yardstick: thrust::copy of the same uint32 (GB/s of bytes read + written)
//   reduce       thrust::reduce, a uint32 sum (CUB's two passes on the GPU)
//   scan         thrust::inclusive_scan, uint32 (on the GPU CUB's single pass with decoupled look-back)
//   sort         thrust::sort of uint32 keys (CUB's radix sort on the GPU), a fresh copy each run
//   stations     the stations fast path: rowscan::stations::worker folding a block of 1BRC text whose
//                stations it already knows (on the CPU build: one worker a thread, a share each, as the
//                run's host workers fold)
//
// Each size doubles the last. GB/s = bytes of input read / time (GB = 1e9 bytes); the time is the
// median of up to --repeat runs after a warm-up (fewer where one run is long: about two seconds a
// point), by CUDA events on the GPU and a steady clock on the CPU. Every primitive's result is
// checked at every size before it is timed: the sums and the scan against a host loop, the sort by
// its order and a fingerprint of its values, the fast path by its lines and its sum of readings.
//
// usage: size_sweep [--from BYTES] [--size BYTES] [--only P,Q] [--repeat R] [--csv]
//   --from, --size  the smallest and the largest input, powers of two (default 1024 and 2^30)
//   --only          a comma-separated subset of device_copy,reduce,scan,sort,stations
//   env DATA_DIR    where the 1BRC text is generated (default /tmp; removed at once, kept open)
#include "../common/sample.hpp"

#include "rowscan/context.hpp"
#include "rowscan/generate/measurements.hpp"
#include "rowscan/stations/worker.hpp"

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/tabulate.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

char const* const usage = "size_sweep [--from BYTES] [--size BYTES] [--only P,Q] [--repeat R] [--csv]";

/// A point's timed runs stop after about this many milliseconds (at least three runs).
constexpr double point_budget_ms = 2000;

/// The values every uint32 primitive reads: a hash of the position, so the sort's keys use all 32 bits.
struct value_at {
  ROWSCAN_HD std::uint32_t operator()(std::uint64_t i) const {
    return static_cast<std::uint32_t>(((i + 1) * 0x9E3779B97F4A7C15ull) >> 32);
  }
};

/// An order-free fingerprint of a multiset of values: the sort must keep it.
std::uint64_t fingerprint(std::uint32_t const* v, std::size_t n) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += (v[i] + 0x632BE59BD9B4E019ull) * 0x9E3779B97F4A7C15ull;
  return sum;
}

bool is_power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

/// --from's value: a power of two from 64 to 2^31 bytes.
std::size_t bytes_value(int& argc, char** argv, char const* flag, std::size_t fallback) {
  std::string const text = samples::take_value(argc, argv, flag, std::to_string(fallback), usage);
  unsigned long long const n = samples::parse_number(flag, text);
  if (!is_power_of_two(n) || n < 64 || n > (std::size_t{1} << 31)) {
    throw rowscan::error(std::string(flag) + " takes a power of two from 64 to 2^31 bytes, not '" + text + "'");
  }
  return static_cast<std::size_t>(n);
}

/// The median time of f at one point: the warm-up run (untimed) says how many timed runs fit the budget.
template <class F>
double point_ms(int repeat, F&& time_once) {
  double const first = time_once();
  int const runs = first > 0 ? static_cast<int>(std::min<double>(repeat, std::max(3.0, point_budget_ms / first))) : repeat;
  return samples::median_ms(runs, time_once);
}

/// 1BRC text of at least `bytes` bytes (413 stations, seed 7), generated into an unlinked file under
/// DATA_DIR and read back: `bytes` of it, then the padding the fast path may read past a block's end.
std::string generated_text(std::size_t bytes) {
  char const* dir = std::getenv("DATA_DIR");
  std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/size_sweep-XXXXXX";
  for (std::uint64_t bytes_a_row : {12, 8}) {  // lines average about 14 bytes; none is shorter than 8
    int const fd = ::mkstemp(path.data());
    if (fd < 0) throw rowscan::error("cannot create a file like '" + path + "' (DATA_DIR)");
    ::unlink(path.c_str());
    rowscan::generate::measurements_options options;
    options.rows = bytes / bytes_a_row + 64;
    options.stations = 413;
    options.seed = 7;
    rowscan::generate::write_measurements(fd, options);
    std::string text(bytes + rowscan::stations::text_padding_bytes, '\0');
    std::size_t got = 0;
    while (got < bytes) {  // one pread returns at most about 2 GiB
      ssize_t const n = ::pread(fd, text.data() + got, bytes - got, static_cast<off_t>(got));
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    if (got == bytes) return text;
    path.replace(path.size() - 6, 6, "XXXXXX");
  }
  throw rowscan::error("the generated text is shorter than " + std::to_string(bytes) + " bytes");
}

/// Lines and the sum of their readings (tenths) in text[0, end), where end follows a '\n': the fast
/// path's answer must hold as many readings with the same sum.
struct text_totals {
  std::uint64_t lines = 0;
  std::int64_t tenths = 0;
};

text_totals totals_of(std::string const& text, std::size_t end) {
  text_totals t;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] != '\n') continue;
    std::size_t at = text.rfind(';', i) + 1;
    bool const negative = text[at] == '-';
    std::int64_t tenths = 0;
    for (at += negative; at < i; ++at) {
      if (text[at] != '.') tenths = 10 * tenths + (text[at] - '0');
    }
    t.tenths += negative ? -tenths : tenths;
    ++t.lines;
  }
  return t;
}

/// The fast path as a run's workers take it: shares of a block cut after a '\n', one worker each, every
/// worker already knowing the stations (the dictionary learned from its share, untimed).
class fast_path {
 public:
  explicit fast_path(thrust::device_vector<char> const& text) : text_(text) {
#if ROWSCAN_HAS_CUB
    shares_ = 1;  // one GPU, one worker
#else
    shares_ = static_cast<std::size_t>(omp_get_max_threads());
#endif
  }

  /// Cuts text[0, end) into the shares, makes their workers, folds each share once (the dictionary is
  /// learned there), and returns the readings the workers' tables then hold.
  text_totals prepare(std::string const& host, std::size_t end) {
    cuts_.assign(1, 0);
    for (std::size_t s = 1; s < shares_; ++s) {
      std::size_t const want = std::max(cuts_.back(), end * s / shares_);
      std::size_t const newline = host.find('\n', want == 0 ? 0 : want - 1);
      cuts_.push_back(newline == std::string::npos || newline + 1 > end ? end : newline + 1);
    }
    cuts_.push_back(end);
    workers_.clear();
    contexts_.clear();
    text_totals held;
    for (std::size_t s = 0; s < shares_; ++s) {
      contexts_.push_back(std::make_unique<rowscan::context>());
      rowscan::stations::worker learner(*contexts_.back(), {});
      fold_with(learner, s);
      auto const& learned = learner.partial().stats;
      for (auto const& st : thrust::host_vector<rowscan::stations::station_stats>(learned.begin(), learned.end())) {
        held.lines += static_cast<std::uint64_t>(st.count);
        held.tenths += st.sum;
      }
      workers_.push_back(std::make_unique<rowscan::stations::worker>(*contexts_.back(),
                                                                     rowscan::stations::worker_options{}));
      workers_.back()->start_from(learner.partial());
    }
    return held;
  }

  /// One timed pass: every worker folds its share (on the CPU build, each on a thread of its own).
  void run() {
#if ROWSCAN_HAS_CUB
    fold_with(*workers_[0], 0);
#else
    std::int64_t const shares = static_cast<std::int64_t>(shares_);
#  pragma omp parallel for num_threads(static_cast<int>(shares_)) schedule(static, 1)
    for (std::int64_t s = 0; s < shares; ++s) fold_with(*workers_[static_cast<std::size_t>(s)], static_cast<std::size_t>(s));
#endif
  }

  /// Blocks the timed workers took the general path for (0: every timed fold was the fast path).
  std::size_t general_blocks() const {
    std::size_t n = 0;
    for (auto const& w : workers_) n += w->paths().general_blocks();
    return n;
  }

 private:
  void fold_with(rowscan::stations::worker& w, std::size_t share) {
    std::size_t const size = cuts_[share + 1] - cuts_[share];
    if (size == 0) return;
    auto const tally = w.fold(thrust::raw_pointer_cast(text_.data()) + cuts_[share], size);
    if (tally.stop) throw rowscan::error("the generated text has a bad line: " + tally.stop->why);
  }

  thrust::device_vector<char> const& text_;
  std::size_t shares_ = 1;
  std::vector<std::size_t> cuts_;
  std::vector<std::unique_ptr<rowscan::context>> contexts_;
  std::vector<std::unique_ptr<rowscan::stations::worker>> workers_;
};

bool wanted(std::string const& only, std::string const& name) {
  return only.empty() || ("," + only + ",").find("," + name + ",") != std::string::npos;
}

int run(int argc, char** argv) {
  std::size_t const from = bytes_value(argc, argv, "--from", 1024);
  std::string const only = samples::take_value(argc, argv, "--only", "", usage);
  for (std::size_t at = 0; !only.empty() && at != std::string::npos;) {
    std::size_t const comma = only.find(',', at);
    std::string const name = only.substr(at, comma == std::string::npos ? comma : comma - at);
    if (name != "device_copy" && name != "reduce" && name != "scan" && name != "sort" && name != "stations") {
      throw rowscan::error("--only takes device_copy, reduce, scan, sort or stations, not '" + name + "'");
    }
    at = comma == std::string::npos ? comma : comma + 1;
  }
  auto const opt = samples::parse_options(argc, argv, std::size_t{1} << 30, usage);
  if (!opt.inputs.empty()) throw rowscan::error(std::string("usage: ") + usage);
  std::size_t const largest = opt.size;
  if (!is_power_of_two(largest) || largest < from || largest > (std::size_t{1} << 31)) {
    throw rowscan::error("--size takes a power of two from --from (" + std::to_string(from) + ") to 2^31 bytes, not " +
                         std::to_string(largest));
  }

  rowscan::context ctx;
  std::size_t const n_max = largest / sizeof(std::uint32_t);
  thrust::device_vector<std::uint32_t> in(n_max), out(n_max);
  thrust::tabulate(ctx.policy(), in.begin(), in.end(), value_at{});
  std::vector<std::uint32_t> host(n_max);
  thrust::copy(in.begin(), in.end(), host.begin());
  std::vector<std::uint32_t> scanned(n_max);  // the host loop's inclusive sums: a prefix's scan is a prefix of it
  std::uint32_t running = 0;
  for (std::size_t i = 0; i < n_max; ++i) scanned[i] = running += host[i];

  std::string text;
  std::unique_ptr<thrust::device_vector<char>> device_text;
  std::unique_ptr<fast_path> stations;
  if (wanted(only, "stations")) {
    text = generated_text(largest);
    device_text = std::make_unique<thrust::device_vector<char>>(text.begin(), text.end());
    stations = std::make_unique<fast_path>(*device_text);
  }

  std::string const device = samples::device_name();
  std::ostream& report = opt.csv ? std::cerr : std::cout;
  if (opt.csv) samples::print_csv_header();
  report << "throughput against input size on " << device << ", " << from << " to " << largest
         << " bytes (GB/s of input read, GB = 1e9 bytes; the copy: read + written)\n";
  bool all_ok = true;
  auto fail = [&](std::string const& what, std::size_t bytes) {
    std::cerr << "MISMATCH: " << what << " at " << bytes << " bytes\n";
    all_ok = false;
  };
  auto emit = [&](samples::measurement const& m) {  // a CSV row, or a line of the table
    if (opt.csv) {
      samples::print_csv_row("size_sweep", device, m);
      return;
    }
    report << "  " << std::setw(11) << m.variant << std::setw(12) << m.bytes << " bytes " << std::fixed
           << std::setprecision(4) << std::setw(10) << m.ms << " ms " << std::setprecision(2) << std::setw(9)
           << m.gb_per_s() << " GB/s\n"
           << std::defaultfloat;
  };

  for (std::size_t bytes = from; bytes <= largest; bytes *= 2) {
    std::size_t const n = bytes / sizeof(std::uint32_t);
    auto const first = in.begin(), last = in.begin() + static_cast<std::ptrdiff_t>(n);
    if (wanted(only, "device_copy")) {
      auto once = [&] { thrust::copy(ctx.policy(), first, last, out.begin()); };
      emit({"device_copy", n, 2 * bytes, point_ms(opt.repeat, [&] { return samples::device_ms(once); })});
    }
    if (wanted(only, "reduce")) {
      std::uint32_t sum = 0;
      auto once = [&] { sum = thrust::reduce(ctx.policy(), first, last, std::uint32_t{0}, thrust::plus<std::uint32_t>{}); };
      once();
      if (sum != scanned[n - 1]) fail("reduce differs from the host loop", bytes);
      emit({"reduce", n, bytes, point_ms(opt.repeat, [&] { return samples::device_ms(once); })});
    }
    if (wanted(only, "scan")) {
      auto once = [&] { thrust::inclusive_scan(ctx.policy(), first, last, out.begin()); };
      once();
      ctx.synchronize();
      thrust::host_vector<std::uint32_t> const got(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
      if (!std::equal(got.begin(), got.end(), scanned.begin())) fail("scan differs from the host loop", bytes);
      emit({"scan", n, bytes, point_ms(opt.repeat, [&] { return samples::device_ms(once); })});
    }
    if (wanted(only, "sort")) {
      auto const sorted_first = out.begin(), sorted_last = out.begin() + static_cast<std::ptrdiff_t>(n);
      auto fresh = [&] {  // untimed: the unsorted values again
        thrust::copy(ctx.policy(), first, last, sorted_first);
        ctx.synchronize();
      };
      fresh();
      thrust::sort(ctx.policy(), sorted_first, sorted_last);
      ctx.synchronize();
      thrust::host_vector<std::uint32_t> const got(sorted_first, sorted_last);
      if (!std::is_sorted(got.begin(), got.end()) || fingerprint(got.data(), n) != fingerprint(host.data(), n)) {
        fail("sort's output is out of order or lost values", bytes);
      }
      emit({"sort", n, bytes, point_ms(opt.repeat, [&] {
              fresh();
              return samples::device_ms([&] { thrust::sort(ctx.policy(), sorted_first, sorted_last); });
            })});
    }
    if (stations) {
      std::size_t const newline = text.rfind('\n', bytes - 1);  // whole lines of the first `bytes`
      if (newline == std::string::npos) continue;                  // not one whole line yet
      std::size_t const end = newline + 1;
      text_totals const expected = totals_of(text, end);
      text_totals const held = stations->prepare(text, end);
      if (held.lines != expected.lines || held.tenths != expected.tenths) {
        fail("the fast path's readings differ from the host loop's", bytes);
      }
      emit({"stations", expected.lines, end, point_ms(opt.repeat, [&] { return samples::device_ms([&] { stations->run(); }); })});
      if (stations->general_blocks() != 0) report << "    (a timed fold took the general path)\n";
    }
  }
  report << (all_ok ? "every primitive agrees with the host at every size" : "MISMATCH: a primitive differs") << '\n';
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return samples::run_sample("size_sweep", [&] { return run(argc, argv); });
}
