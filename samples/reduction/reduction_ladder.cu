// SPDX-License-Identifier: Apache-2.0
// samples/reduction/reduction_ladder.cu: one sum, climbed rung by rung from a loop to the library.
//
//   rung  variant                        backend  what it changes
//   copy  device_copy                    all      not a sum: a device-to-device copy, the ceiling to compare with
//   ref   sequential_host_loop           all      the reference: one core, one pass over host memory
//   1-7   kernel1_... to kernel7_...     CUDA     Mark Harris's seven kernels, one change each
//   8     kernel_block_reduce            CUDA     kernel 7 with cub::BlockReduce for the block's tree
//   9     cub_device_reduce              CUDA     cub::DeviceReduce::Sum: the library's two passes
//   10    thrust_reduce                  all      thrust::reduce: CUB's two passes on the GPU, threads on the CPU
//   11    thrust_transform_reduce        all      a transform fused into the reduce (64-bit sums, same bytes read)
//   12    kernel_atomic_one_pass         CUDA     rung 8 in one pass: each block atomicAdds its sum
//
// Every rung returns its sum to the host, is checked against the sequential loop, and is timed as the
// median of --repeat runs after a warm-up (CUDA events on the GPU), its result's copy included. The
// table gives each rung's GB/s (bytes read / time, GB = 1e9 bytes), its share of the copy's rate (bytes
// read + written / time), and its speedup over the rung it changes ("step") and over the first rung
// ("cumulative"). `--csv` prints the table as CSV rows; `--csv FILE` writes them to FILE and prints the
// table too. Then the same data as float shows that the order of a float sum changes its bits, while
// the integer sums are exact in every order.
//
// usage: reduction_ladder [--size N] [--repeat R] [--csv [FILE]] [--print [--expect FILE]]
//   env ROWSCAN_COMMIT: the commit recorded in the CSV rows (scripts/ladder_device.sh sets it)
#include "../common/sample.hpp"
#include "tree_trace.hpp"

#include "rowscan/context.hpp"

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/tabulate.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#if ROWSCAN_HAS_CUB
#  include "hand_written_kernels.hpp"
#  include <cub/device/device_reduce.cuh>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

char const* const usage = "reduction_ladder [--size N] [--repeat R] [--csv [FILE]] [--print [--expect FILE]]";

/// The input: a digit 0..9 per position, from a hash of the position (the same on every backend).
struct digit_at {
  ROWSCAN_HD std::uint32_t operator()(std::uint64_t i) const {
    return static_cast<std::uint32_t>(((i + 1) * 0x9E3779B97F4A7C15ull) >> 32) % 10;
  }
};

/// Sums of up to this many digits fit in 32 bits, so every 32-bit rung is exact.
constexpr std::size_t max_size = 0xFFFFFFFFull / 9;

// [docs:sequential]
/// The reference: a loop on one core, as in seed 004's CPU version.
std::uint64_t sequential_sum(std::vector<std::uint32_t> const& values) {
  std::uint32_t sum = 0;
  for (std::uint32_t v : values) sum += v;
  return sum;
}
// [docs:end]

// [docs:thrust-reduce]
/// thrust::reduce: plus over the values, 32-bit like the kernels. On the GPU, CUB's two passes run
/// underneath; temporaries come from the context's pool, so no call allocates after the first.
std::uint64_t thrust_sum(thrust::device_vector<std::uint32_t> const& values, rowscan::context const& ctx) {
  return thrust::reduce(ctx.policy(), values.begin(), values.end(), std::uint32_t{0}, thrust::plus<std::uint32_t>{});
}
// [docs:end]

// [docs:transform-reduce]
/// Each value is widened to 64 bits inside the reduction: the sum cannot overflow, and no widened copy
/// is ever written. transform_reduce reads exactly the bytes reduce reads.
struct widen {
  ROWSCAN_HD std::uint64_t operator()(std::uint32_t v) const { return v; }
};

std::uint64_t thrust_wide_sum(thrust::device_vector<std::uint32_t> const& values, rowscan::context const& ctx) {
  return thrust::transform_reduce(ctx.policy(), values.begin(), values.end(), widen{}, std::uint64_t{0},
                                  thrust::plus<std::uint64_t>{});
}
// [docs:end]

#if ROWSCAN_HAS_CUB
// [docs:device-reduce]
/// cub::DeviceReduce::Sum is called twice: the first call (no storage) only says how many bytes of
/// temporary storage it needs (room for pass 1's partial sums), the second runs both passes.
class cub_sum {
 public:
  cub_sum(std::uint32_t const* values, std::size_t n) : values_(values), n_(n) {
    SAMPLE_CUDA_TRY(cub::DeviceReduce::Sum(nullptr, temp_bytes_, values_, sum_.data().get(), n_));
    temp_.resize(temp_bytes_);  // allocated once, outside the timed runs
  }
  std::uint64_t operator()() {
    SAMPLE_CUDA_TRY(cub::DeviceReduce::Sum(temp_.data().get(), temp_bytes_, values_, sum_.data().get(), n_));
    return sum_[0];  // copies the result to the host
  }

 private:
  std::uint32_t const* values_;
  std::size_t n_;
  std::size_t temp_bytes_ = 0;
  thrust::device_vector<unsigned char> temp_;
  thrust::device_vector<std::uint32_t> sum_ = thrust::device_vector<std::uint32_t>(1);
};
// [docs:end]
#endif


// ---- the table -------------------------------------------------------------------------------------

/// One row of the ladder's table: a rung, or the copy and the loop it is compared with.
struct rung {
  enum class kind { copy, reference, device };
  std::string id;       ///< Harris's kernels keep his numbers 1-7; the library rungs follow; "ref"; "copy"
  std::string variant;  ///< the CSV's name for it
  std::string change;   ///< the one thing it changes (no commas: scripts/charts.sh reads the CSV with awk)
  std::string step_vs;  ///< the rung it changes that thing of ("" for none)
  std::function<std::uint64_t()> run;
  kind what = kind::device;
};

struct row {
  rung const* r;
  std::uint64_t result;
  bool ok;
  samples::measurement m;
  double pct_of_copy = 0;  ///< GB/s over the copy's GB/s, in percent (0: not computed)
  double step = 0;         ///< time of the rung named by step_vs / this time (0: not computed)
  double cumulative = 0;   ///< time of the first rung / this time (0: not computed)
};

/// Fills in % of copy, step and cumulative. Cumulative is over rung 1 where it ran (the CUDA build), or
/// else over the first device rung; the returned string names it.
std::string compare_rows(std::vector<row>& rows) {
  row const* copy = nullptr;
  row const* first = nullptr;
  for (auto const& r : rows) {
    if (r.r->what == rung::kind::copy) copy = &r;
    if (r.r->what == rung::kind::device && (first == nullptr || r.r->id == "1")) first = &r;
  }
  for (auto& r : rows) {
    if (r.r->what != rung::kind::device) continue;
    if (copy != nullptr && copy->m.gb_per_s() > 0) r.pct_of_copy = 100 * r.m.gb_per_s() / copy->m.gb_per_s();
    for (auto const& base : rows) {
      if (!r.r->step_vs.empty() && base.r->id == r.r->step_vs && r.m.ms > 0) r.step = base.m.ms / r.m.ms;
    }
    if (first != nullptr && r.m.ms > 0) r.cumulative = first->m.ms / r.m.ms;
  }
  return first != nullptr ? first->r->id : "";
}

std::string fixed(double v, int digits, char const* suffix = "") {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v << suffix;
  return s.str();
}

void print_table(std::ostream& out, std::vector<row> const& rows, std::string const& cumulative_vs) {
  out << "GB/s = bytes read / time, GB = 1e9 bytes (the copy's: bytes read + written); % of copy = GB/s over "
         "the copy's;\nstep = speedup over the rung named; cumulative = speedup over rung "
      << cumulative_vs << "\n"
      << std::left << std::setw(6) << "rung" << std::setw(54) << "what changed" << std::right << std::setw(10) << "ms"
      << std::setw(10) << "GB/s" << std::setw(11) << "% of copy" << std::setw(13) << "step" << std::setw(12)
      << "cumulative" << std::setw(6) << "sum" << '\n';
  for (auto const& r : rows) {
    out << std::left << std::setw(6) << r.r->id << std::setw(54) << r.r->change << std::right << std::setw(10)
        << fixed(r.m.ms, 3) << std::setw(10) << fixed(r.m.gb_per_s(), 1) << std::setw(11)
        << (r.pct_of_copy > 0 ? fixed(r.pct_of_copy, 1, "%") : "-") << std::setw(13)
        << (r.step > 0 ? fixed(r.step, 2, "x vs ") + r.r->step_vs : "-") << std::setw(12)
        << (r.cumulative > 0 ? fixed(r.cumulative, 2, "x") : "-") << std::setw(6)
        << (r.r->what == rung::kind::copy ? "-" : r.ok ? "ok" : "WRONG") << '\n';
  }
}

/// The current time in UTC, ISO 8601.
std::string utc_now() {
  std::time_t const now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string without_commas(std::string s) {
  std::replace(s.begin(), s.end(), ',', ';');
  return s;
}

/// The CSV: the columns every sample's --csv has (scripts/charts.sh and scripts/docs_snippets.py read
/// them), then the ladder's own. `bytes` is what the row's GB/s divides (for the copy, read + written);
/// `input_bytes` is the input's size on every row. Ratios not computed are left empty.
void write_csv(std::ostream& out, std::vector<row> const& rows, std::string const& device, std::size_t n,
               std::string const& cumulative_vs) {
  char const* const env_commit = std::getenv("ROWSCAN_COMMIT");
  std::string const commit = without_commas(env_commit != nullptr && *env_commit != '\0' ? env_commit : "unknown");
  std::string const date = utc_now();
  auto const ratio = [](double v, int digits) { return v > 0 ? fixed(v, digits) : std::string(); };
  out << "sample,device,variant,items,bytes,ms,gb_per_s,rung,change,input_bytes,pct_of_copy,step_speedup,step_vs,"
         "cumulative_speedup,cumulative_vs,commit,date\n";
  for (auto const& r : rows) {
    std::ostringstream common;
    // The reference rung is a loop on one core of the host, whatever the device system is.
    std::string const where = r.r->what == rung::kind::reference ? samples::host_cpu_name() + " 1 thread" : device;
    samples::print_csv_row("reduction_ladder", without_commas(where), r.m, common);
    std::string line = common.str();
    line.pop_back();  // its newline
    bool const device_rung = r.r->what == rung::kind::device;
    out << line << ',' << r.r->id << ',' << without_commas(r.r->change) << ',' << n * sizeof(std::uint32_t) << ','
        << ratio(r.pct_of_copy, 1) << ',' << ratio(r.step, 3) << ',' << (r.step > 0 ? r.r->step_vs : "") << ','
        << ratio(r.cumulative, 3) << ',' << (device_rung && r.cumulative > 0 ? cumulative_vs : "") << ',' << commit
        << ',' << date << '\n';
  }
}

// ---- float sums depend on the order; integer sums do not --------------------------------------------

/// The demonstration's floats: each digit as 0.1f x digit.
struct tenth_of {
  ROWSCAN_HD float operator()(std::uint32_t digit) const { return 0.1f * static_cast<float>(digit); }
};

template <class T>
T sum_first_to_last(std::vector<T> const& v) {
  T sum = 0;
  for (T x : v) sum += x;
  return sum;
}

template <class T>
T sum_last_to_first(std::vector<T> const& v) {
  T sum = 0;
  for (auto it = v.rbegin(); it != v.rend(); ++it) sum += *it;
  return sum;
}

/// Halves, each summed the same way, then added: the order of a tree, as the GPU rungs add.
template <class T>
T sum_pairwise(T const* v, std::size_t n) {
  if (n <= 16) {
    T sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += v[i];
    return sum;
  }
  return sum_pairwise(v, n / 2) + sum_pairwise(v + n / 2, n - n / 2);
}

/// The exact sum of the floats. 0.1f x digit is a multiple of 2^-27 (the spacing of floats in [1/16, 1/8),
/// where 0.1f lies; larger floats are spaced wider), so the sum is a whole number of 2^-27, counted
/// exactly in 64 bits (at most 2^28 values below 2^27 units each).
long double exact_sum(std::vector<float> const& v) {
  std::uint64_t units = 0;
  for (float x : v) units += static_cast<std::uint64_t>(std::ldexp(static_cast<double>(x), 27));
  return std::ldexp(static_cast<long double>(units), -27);
}

#if ROWSCAN_HAS_CUB
/// cub::DeviceReduce::Sum once, its temporary storage allocated here (untimed).
template <class T>
T cub_sum_once(T const* values, std::size_t n) {
  std::size_t temp_bytes = 0;
  thrust::device_vector<T> sum(1);
  SAMPLE_CUDA_TRY(cub::DeviceReduce::Sum(nullptr, temp_bytes, values, sum.data().get(), n));
  thrust::device_vector<unsigned char> temp(temp_bytes);
  SAMPLE_CUDA_TRY(cub::DeviceReduce::Sum(temp.data().get(), temp_bytes, values, sum.data().get(), n));
  return sum[0];
}
#endif

/// The same sum in one order, as float and as uint32.
struct ordered_sum {
  std::string order;
  float as_float;
  std::uint32_t as_uint32;
};

/// Sums the digits as float (0.1f x digit) and as uint32 in several orders and launch shapes, prints
/// each result with its bits, and returns false if two uint32 sums differ (they must not).
bool print_float_orders(std::ostream& out, thrust::device_vector<std::uint32_t> const& digits,
                        std::vector<std::uint32_t> const& host, rowscan::context const& ctx) {
  std::size_t const n = digits.size();
  thrust::device_vector<float> floats(n);
  thrust::transform(ctx.policy(), digits.begin(), digits.end(), floats.begin(), tenth_of{});
  thrust::host_vector<float> const staged = floats;
  std::vector<float> const host_floats(staged.begin(), staged.end());

  std::vector<ordered_sum> sums;
  sums.push_back({"host loop, first to last", sum_first_to_last(host_floats), sum_first_to_last(host)});
  sums.push_back({"host loop, last to first", sum_last_to_first(host_floats), sum_last_to_first(host)});
  sums.push_back({"host pairwise tree", sum_pairwise(host_floats.data(), n), sum_pairwise(host.data(), n)});
  sums.push_back({"thrust::reduce on the device system",
                  thrust::reduce(ctx.policy(), floats.begin(), floats.end(), 0.0f, thrust::plus<float>{}),
                  thrust::reduce(ctx.policy(), digits.begin(), digits.end(), std::uint32_t{0},
                                 thrust::plus<std::uint32_t>{})});
#if ROWSCAN_HAS_CUB
  namespace hw = samples::hand_written;
  float const* f = floats.data().get();
  std::uint32_t const* u = digits.data().get();
  for (int run = 1; run <= 2; ++run) {
    sums.push_back({"cub::DeviceReduce::Sum, run " + std::to_string(run), cub_sum_once(f, n), cub_sum_once(u, n)});
  }
  unsigned const sms = hw::multiprocessors();
  for (unsigned blocks : {1u, sms, 8 * sms}) {
    sums.push_back({"rung 8's two passes, " + std::to_string(blocks) + " blocks", hw::sum_two_passes(f, n, blocks),
                    hw::sum_two_passes(u, n, blocks)});
  }
  for (int run = 1; run <= 3; ++run) {
    sums.push_back({"rung 12's atomicAdd, " + std::to_string(8 * sms) + " blocks, run " + std::to_string(run),
                    hw::sum_one_pass_atomic(f, n, 8 * sms), hw::sum_one_pass_atomic(u, n, 8 * sms)});
  }
#endif

  long double const exact = exact_sum(host_floats);
  out << "\nThe same " << n << " digits summed in different orders, as float (0.1f x digit) and as uint32:\n"
      << std::left << std::setw(44) << "order" << std::right << std::setw(18) << "float sum" << std::setw(12)
      << "float bits" << std::setw(16) << "float - exact" << std::setw(12) << "uint32 sum" << '\n';
  out << std::left << std::setw(44) << "exact sum of these floats (in 2^-27 units)" << std::right << std::setw(18)
      << fixed(static_cast<double>(exact), 4) << std::setw(12) << "-" << std::setw(16) << "0" << std::setw(12)
      << sequential_sum(host) << '\n';
  std::set<std::uint32_t> float_bits, uint32_sums;
  for (auto const& s : sums) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &s.as_float, sizeof bits);
    float_bits.insert(bits);
    uint32_sums.insert(s.as_uint32);
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08x", bits);
    out << std::left << std::setw(44) << s.order << std::right << std::setw(18) << fixed(s.as_float, 4)
        << std::setw(12) << hex << std::setw(16) << fixed(static_cast<double>(s.as_float - exact), 4) << std::setw(12)
        << s.as_uint32 << '\n';
  }
  out << "float: " << float_bits.size() << " different results from " << sums.size() << " orders; uint32: "
      << uint32_sums.size() << (uint32_sums.size() == 1 ? " result (integer addition is exact in any order)\n"
                                                        : " results: MISMATCH\n");
  return uint32_sums.size() == 1;
}

// ---- the worked example -----------------------------------------------------------------------------

/// --print: a tiny input through the trees of kernels 1 to 4, their costs on a 256-thread block, and the
/// two passes of a device-wide reduction.
void print_worked_example(std::ostream& out, std::vector<std::uint32_t> const& values) {
  namespace trace = samples::trace;
  out << "input (" << values.size() << " values):";
  for (auto v : values) out << ' ' << v;
  out << "\nsequential sum: " << sequential_sum(values) << "\n\n";

  std::size_t block = 1;
  while (block * 2 <= values.size() && block < 16) block *= 2;
  std::vector<std::uint32_t> const first_block(values.begin(), values.begin() + static_cast<long>(block));
  auto const print_start = [&](std::vector<std::uint32_t> const& words, char const* label) {
    out << label;
    for (auto v : words) out << std::setw(3) << v;
    out << '\n';
  };
  out << "kernels #1 and #2, interleaved addressing (the same adds, by other threads), one block of the first "
      << block << " values:\n";
  print_start(first_block, "  start:");
  trace::print_tree(out, trace::addressing::interleaved, first_block);
  out << "kernel #3, sequential addressing, one block of the first " << block << " values:\n";
  print_start(first_block, "  start:");
  trace::print_tree(out, trace::addressing::sequential, first_block);
  if (block >= 4) {
    std::size_t const half = block / 2;
    out << "kernel #4, first add during load: " << half << " threads load the first " << block
        << " values, word tid + word tid+" << half << ":\n";
    std::vector<std::uint32_t> loaded(half);
    for (std::size_t t = 0; t < half; ++t) loaded[t] = first_block[t] + first_block[t + half];
    print_start(loaded, "  load: ");
    trace::print_tree(out, trace::addressing::sequential, loaded);
  }
  out << '\n';
  trace::print_costs(out, 256);

  std::size_t const tile = 4;
  out << "\ntwo passes (kernel #7 and the library), tiles of " << tile
      << " values:\n  pass 1, one partial sum per tile:";
  std::vector<std::uint32_t> partials;
  for (std::size_t i = 0; i < values.size(); i += tile) {
    std::uint32_t s = 0;
    for (std::size_t k = i; k < i + tile && k < values.size(); ++k) s += values[k];
    partials.push_back(s);
    out << ' ' << s;
  }
  out << "\n  pass 2, one block sums the partials: " << sequential_sum(partials) << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  return samples::run_sample("reduction_ladder", [&] {
    auto const opt = samples::parse_options(argc, argv, std::size_t{1} << 24, usage);
    std::string csv_file;  // --csv FILE: the one positional argument, and only after --csv
    if (!opt.inputs.empty()) {
      if (!opt.csv || opt.inputs.size() != 1) {
        throw rowscan::error("unexpected argument '" + opt.inputs.back() + "'\nusage: " + usage);
      }
      csv_file = opt.inputs.front();
    }
    if (opt.size > max_size) {
      throw rowscan::error("--size at most " + std::to_string(max_size) + ": larger sums of digits overflow 32 bits");
    }
    if (opt.print && (opt.size < 2 || opt.size > 64)) throw rowscan::error("--print wants a --size of 2 to 64");
    std::size_t const n = opt.size;
    rowscan::context ctx;

    thrust::device_vector<std::uint32_t> values(n);
    thrust::tabulate(ctx.policy(), values.begin(), values.end(), digit_at{});
    thrust::host_vector<std::uint32_t> const staged = values;
    std::vector<std::uint32_t> const host(staged.begin(), staged.end());
    if (opt.print) {  // with --expect FILE, the example must equal FILE (docs quote that file)
      std::ostringstream example;
      print_worked_example(example, host);
      samples::deliver_answer(opt, example.str());
      return 0;
    }

    // The copy: the same bytes read, and as many written, by the device's own copy.
    thrust::device_vector<std::uint32_t> copy_target(n);
    std::vector<rung> rungs;
#if ROWSCAN_HAS_CUB
    std::uint32_t const* raw = values.data().get();
    rungs.push_back({"copy", "device_copy", "cudaMemcpy device to device (bytes read + written)", "", [&] {
                       SAMPLE_CUDA_TRY(cudaMemcpy(copy_target.data().get(), raw, n * sizeof(std::uint32_t),
                                                  cudaMemcpyDeviceToDevice));
                       return std::uint64_t{0};
                     }, rung::kind::copy});
#else
    rungs.push_back({"copy", "device_copy", "thrust::copy on the device system (read + written)", "", [&] {
                       thrust::copy(ctx.policy(), values.begin(), values.end(), copy_target.begin());
                       return std::uint64_t{0};
                     }, rung::kind::copy});
#endif
    rungs.push_back({"ref", "sequential_host_loop", "one core loops over host memory (the reference)", "",
                     [&] { return sequential_sum(host); }, rung::kind::reference});
#if ROWSCAN_HAS_CUB
    namespace hw = samples::hand_written;
    hw::scratch scratch(n);
    cub_sum cub_device_reduce(raw, n);
    auto const kernel = [&](std::uint32_t (*sum)(std::uint32_t const*, std::size_t, hw::scratch&)) {
      return [&, sum] { return std::uint64_t{sum(raw, n, scratch)}; };
    };
    rungs.push_back({"1", "kernel1_interleaved_divergent", "shared-memory tree; tid % 2s == 0 adds (divergent)", "",
                     kernel(hw::sum_kernel1)});
    rungs.push_back({"2", "kernel2_interleaved_strided", "strided index 2*s*tid: warps idle whole; bank conflicts",
                     "1", kernel(hw::sum_kernel2)});
    rungs.push_back({"3", "kernel3_sequential", "sequential addressing (tid < s): no bank conflicts", "2",
                     kernel(hw::sum_kernel3)});
    rungs.push_back({"4", "kernel4_first_add_during_load", "first add during load: half as many blocks", "3",
                     kernel(hw::sum_kernel4)});
    rungs.push_back({"5", "kernel5_unroll_last_warp", "last warp unrolled: no __syncthreads once s <= 32", "4",
                     kernel(hw::sum_kernel5)});
    rungs.push_back({"6", "kernel6_completely_unrolled", "block size a template argument: tree fully unrolled", "5",
                     kernel(hw::sum_kernel6)});
    rungs.push_back({"7", "kernel7_multiple_per_thread", "multiple values per thread (grid-stride loop)", "6",
                     kernel(hw::sum_kernel7)});
    rungs.push_back({"8", "kernel_block_reduce", "cub::BlockReduce replaces the shared-memory tree", "7",
                     kernel(hw::sum_block_reduce)});
    rungs.push_back({"9", "cub_device_reduce", "cub::DeviceReduce::Sum: the library's two passes", "8",
                     [&] { return cub_device_reduce(); }});
#endif
    rungs.push_back({"10", "thrust_reduce", "thrust::reduce (CUB underneath on the GPU)", "9",
                     [&] { return thrust_sum(values, ctx); }});
    rungs.push_back({"11", "thrust_transform_reduce", "thrust::transform_reduce: 64-bit sums; same reads", "10",
                     [&] { return thrust_wide_sum(values, ctx); }});
#if ROWSCAN_HAS_CUB
    rungs.push_back({"12", "kernel_atomic_one_pass", "one pass: each block atomicAdds its sum", "8",
                     kernel(hw::sum_atomic)});
#endif

    std::string const device = samples::device_name();
    std::uint64_t const expected = sequential_sum(host);
    bool const csv_to_stdout = opt.csv && csv_file.empty();
    std::ostream& report = csv_to_stdout ? std::cerr : std::cout;
    if (!csv_to_stdout) {
      std::cout << "reduction ladder: " << n << " uint32 digits (" << fixed(static_cast<double>(n * 4) / 1e6, 1)
                << " MB read by each rung) on " << device << ", median of " << opt.repeat << " runs after a warm-up\n";
    }
    std::vector<row> rows;
    bool all_ok = true;
    for (auto const& r : rungs) {
      std::uint64_t const result = r.run();  // the warm-up run gives the result that is checked
      bool const ok = r.what == rung::kind::copy || result == expected;
      all_ok = all_ok && ok;
      volatile std::uint64_t sink = 0;  // keeps the optimizer from dropping a result nobody reads
      double const ms = samples::median_ms(opt.repeat, [&] {
        return r.what == rung::kind::reference ? samples::host_ms([&] { sink = r.run(); })
                                               : samples::device_ms([&] { sink = r.run(); });
      });
      std::size_t const bytes = n * sizeof(std::uint32_t) * (r.what == rung::kind::copy ? 2 : 1);
      rows.push_back({&r, result, ok, samples::measurement{r.variant, n, bytes, ms}});
    }
    std::string const cumulative_vs = compare_rows(rows);
    if (csv_to_stdout) {
      write_csv(std::cout, rows, device, n, cumulative_vs);
    } else {
      print_table(std::cout, rows, cumulative_vs);
      if (!csv_file.empty()) {
        std::ofstream file(csv_file);
        write_csv(file, rows, device, n, cumulative_vs);
        if (!file) throw rowscan::error("cannot write '" + csv_file + "'");
        std::cout << "wrote " << csv_file << '\n';
      }
    }
    report << (all_ok ? "all rungs agree" : "MISMATCH: some rung differs from the loop") << " (sum " << expected
           << ")\n";
    if (!csv_to_stdout) all_ok = print_float_orders(std::cout, values, host, ctx) && all_ok;
    return all_ok ? 0 : 1;
  });
}
