// SPDX-License-Identifier: Apache-2.0
// samples/reduction/bank_conflicts.cu: the shared-memory trees of Harris's kernels 1 to 6, replayed
// on the host for one block of 256 threads, warp by warp and step by step: which warps issue, how many
// lanes work, how many shared loads and stores they issue, and how many extra wavefronts (bank
// conflicts) their addresses cost on 32 banks of 4-byte words (docs/reduction.md).
//
// The replay runs on every build, so the ladder's CUDA-only kernels can be studied on a CPU. On the GPU
// the sample also times kernel 2's tree with its shared array as written and padded (one word of
// padding every 32 words), on 2^28 values, one level of the tree.
//
// usage: bank_conflicts [--pad] [--size N] [--repeat R] [--csv] [--print [--expect FILE]]
//   --pad  replays the host trees with the shared array padded, one word every 32 (docs/reduction.md,
//          exercise 4); the timed GPU rows always run kernel 2 both ways
#include "../common/sample.hpp"

#include <thrust/device_vector.h>
#include <thrust/sequence.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

char const* const usage = "bank_conflicts [--pad] [--size N] [--repeat R] [--csv] [--print [--expect FILE]]";
bool padded_replay = false;  // --pad
constexpr unsigned block_threads = 256, warp = 32, banks = 32;

// [docs:padding]
/// The 4-byte word of the shared array that holds element a. As the kernels are written: a itself.
unsigned word_of(unsigned a) {
  if (padded_replay) return a + a / 32;  // --pad: one word of padding every 32 words  [docs:hide]
  return a;
}
// [docs:end]

/// What one warp instruction costs: the active lanes' words, grouped by bank; a bank that must deliver
/// k different words takes k wavefronts, and the instruction as many as its busiest bank.
unsigned wavefronts(std::vector<unsigned> const& elements) {
  std::map<unsigned, std::set<unsigned>> words_in_bank;
  for (unsigned a : elements) words_in_bank[word_of(a) % banks].insert(word_of(a));
  unsigned most = 0;
  for (auto const& [bank, words] : words_in_bank) most = std::max(most, static_cast<unsigned>(words.size()));
  return most;
}

struct counts {
  unsigned warps = 0, lanes = 0, loads = 0, load_conflicts = 0, stores = 0, store_conflicts = 0;
  void add(counts const& c) {
    warps += c.warps;
    lanes += c.lanes;
    loads += c.loads;
    load_conflicts += c.load_conflicts;
    stores += c.stores;
    store_conflicts += c.store_conflicts;
  }
};

/// One step of a tree: `active(tid, s)` says whether thread tid adds at step s, and `target(tid, s)` which
/// element it adds into (it reads target and target + s, and writes target).
using predicate = std::function<bool(unsigned, unsigned)>;
using element = std::function<unsigned(unsigned, unsigned)>;

// [docs:replay]
counts replay_step(unsigned s, predicate const& active, element const& target) {
  counts c;
  for (unsigned w = 0; w < block_threads / warp; ++w) {
    std::vector<unsigned> left, right;
    for (unsigned lane = 0; lane < warp; ++lane) {
      unsigned const tid = w * warp + lane;
      if (!active(tid, s)) continue;
      left.push_back(target(tid, s));
      right.push_back(target(tid, s) + s);
    }
    if (left.empty()) continue;  // no lane works: the warp skips the step (a branch, not predication)
    c.warps += 1;
    c.lanes += static_cast<unsigned>(left.size());
    c.loads += 2;  // partial[target] and partial[target + s]
    c.load_conflicts += wavefronts(left) - 1 + wavefronts(right) - 1;
    c.stores += 1;  // partial[target] = the sum
    c.store_conflicts += wavefronts(left) - 1;
  }
  return c;
}
// [docs:end]

counts replay_kernel(std::ostream& out, char const* name, std::vector<unsigned> const& steps, predicate const& active,
                     element const& target, bool per_step) {
  counts total;
  total.stores = block_threads / warp;  // partial[tid] = in[i]: one store per warp, a word per lane
  if (per_step) {
    out << name << '\n' << "  step      warps  lanes  loads  load conflicts  stores  store conflicts\n";
  }
  for (unsigned s : steps) {
    counts const c = replay_step(s, active, target);
    if (per_step) {
      out << "  s=" << std::left << std::setw(6) << s << std::right << std::setw(6) << c.warps << std::setw(7) << c.lanes
          << std::setw(7) << c.loads << std::setw(16) << c.load_conflicts << std::setw(8) << c.stores << std::setw(17)
          << c.store_conflicts << '\n';
    }
    total.add(c);
  }
  total.loads += 1;  // thread 0 reads partial[0] for the block's result
  return total;
}

std::string replay_all() {
  std::ostringstream out;
  out << "one block of " << block_threads << " threads, " << banks << " banks of 4-byte words\n";
  std::vector<unsigned> up, down;
  for (unsigned s = 1; s < block_threads; s *= 2) up.push_back(s);
  for (unsigned s = block_threads / 2; s > 0; s /= 2) down.push_back(s);
  // Kernel 1: thread tid works if tid % 2s == 0, on element tid.
  counts const k1 = replay_kernel(out, "kernel 1", up, [](unsigned tid, unsigned s) { return tid % (2 * s) == 0; },
                                  [](unsigned tid, unsigned) { return tid; }, false);
  // Kernel 2: thread tid works on element 2 s tid, while that is inside the block.
  counts const k2 = replay_kernel(out, "kernel 2, interleaved addressing with a strided index:", up,
                                  [](unsigned tid, unsigned s) { return 2 * s * tid < block_threads; },
                                  [](unsigned tid, unsigned s) { return 2 * s * tid; }, true);
  // Kernel 3: thread tid < s works on element tid.
  counts const k3 = replay_kernel(out, "kernel 3, sequential addressing:", down,
                                  [](unsigned tid, unsigned s) { return tid < s; },
                                  [](unsigned tid, unsigned) { return tid; }, true);
  // Kernel 4: kernel 3's tree; each thread adds two values while it loads, so a block covers 512 values.
  counts const k4 = replay_kernel(out, "kernel 4", down, [](unsigned tid, unsigned s) { return tid < s; },
                                  [](unsigned tid, unsigned) { return tid; }, false);
  // Kernels 5 and 6: kernel 4's tree down to s = 64, then warp 0 alone (warp_tree): it loads its word
  // once, then per step loads word tid + s and stores word tid, all 32 lanes, with no test of s.
  std::vector<unsigned> const down_to_64{128, 64};
  counts k5 = replay_kernel(out, "kernel 5", down_to_64, [](unsigned tid, unsigned s) { return tid < s; },
                            [](unsigned tid, unsigned) { return tid; }, false);
  std::vector<unsigned> lanes(warp), shifted(warp);
  for (unsigned lane = 0; lane < warp; ++lane) lanes[lane] = lane;
  k5.loads += 1;  // sum = partial[tid]
  k5.load_conflicts += wavefronts(lanes) - 1;
  for (unsigned s = 32; s > 0; s /= 2) {
    for (unsigned lane = 0; lane < warp; ++lane) shifted[lane] = lane + s;
    k5.warps += 1;
    k5.lanes += warp;
    k5.loads += 1;
    k5.load_conflicts += wavefronts(shifted) - 1;
    k5.stores += 1;
    k5.store_conflicts += wavefronts(lanes) - 1;
  }
  out << "per block       shared loads  load conflicts  shared stores  store conflicts  blocks for 2^24 values\n";
  for (auto const& [name, c, blocks] : {std::tuple{"kernel 1", k1, 65536}, std::tuple{"kernel 2", k2, 65536},
                                         std::tuple{"kernel 3", k3, 65536}, std::tuple{"kernel 4", k4, 32768},
                                         std::tuple{"kernels 5, 6", k5, 32768}}) {
    out << "  " << std::left << std::setw(14) << name << std::right << std::setw(12) << c.loads << std::setw(16)
        << c.load_conflicts << std::setw(15) << c.stores << std::setw(17) << c.store_conflicts << std::setw(24)
        << blocks << '\n';
  }
  return out.str();
}

#if ROWSCAN_HAS_CUB
/// Kernel 2's tree (one block folds 256 values to one) with its shared array as written, or padded.
template <bool Padded>
__global__ void kernel2_tree(std::uint32_t const* in, std::uint32_t* out, std::size_t n) {
  __shared__ std::uint32_t partial[block_threads + (Padded ? block_threads / 32 : 0)];
  auto const word = [](unsigned a) { return Padded ? a + a / 32 : a; };
  unsigned const tid = threadIdx.x;
  std::size_t const i = blockIdx.x * std::size_t{blockDim.x} + tid;
  partial[word(tid)] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned const index = 2 * s * tid;
    if (index < blockDim.x) partial[word(index)] += partial[word(index + s)];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}
#endif

int run(int argc, char** argv) {
  padded_replay = samples::take_flag(argc, argv, "--pad");
  auto const opt = samples::parse_options(argc, argv, std::size_t{1} << 28, usage);
  if (opt.print) {  // the replay alone, the same on every build (docs/reduction.md quotes it)
    samples::deliver_answer(opt, replay_all());
    return 0;
  }
  std::ostream& text = opt.csv ? std::cerr : std::cout;
  text << replay_all();
#if ROWSCAN_HAS_CUB
  std::size_t const n = opt.size;
  std::size_t const blocks = (n + block_threads - 1) / block_threads;
  thrust::device_vector<std::uint32_t> in(n), out(blocks);
  thrust::sequence(in.begin(), in.end());
  std::string const device = samples::device_name();
  if (opt.csv) samples::print_csv_header();
  std::vector<std::uint32_t> first_sums;
  bool same = true;
  for (bool padded : {false, true}) {
    auto once = [&] {
      if (padded) {
        kernel2_tree<true><<<static_cast<unsigned>(blocks), block_threads>>>(in.data().get(), out.data().get(), n);
      } else {
        kernel2_tree<false><<<static_cast<unsigned>(blocks), block_threads>>>(in.data().get(), out.data().get(), n);
      }
      SAMPLE_CUDA_TRY(cudaGetLastError());
    };
    once();
    double const ms = samples::median_ms(opt.repeat, [&] { return samples::device_ms(once); });
    std::vector<std::uint32_t> sums(out.begin(), out.end());
    if (first_sums.empty()) first_sums = sums; else same = same && sums == first_sums;
    samples::measurement const m{padded ? "kernel2_padded" : "kernel2", n, n * sizeof(std::uint32_t), ms};
    if (opt.csv) {
      samples::print_csv_row("bank_conflicts", device, m);
    } else {
      text << "kernel 2's first level on " << device << (padded ? ", padded:    " : ", as written:") << std::fixed
           << std::setprecision(3) << ms << " ms, " << std::setprecision(1) << m.gb_per_s() << " GB/s\n";
    }
  }
  text << (same ? "the padded tree gives the same block sums" : "MISMATCH: the padded tree's sums differ") << '\n';
  return same ? 0 : 1;
#else
  (void)opt;
  return 0;
#endif
}

}  // namespace

int main(int argc, char** argv) { return samples::run_sample("bank_conflicts", [&] { return run(argc, argv); }); }
