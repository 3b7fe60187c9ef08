// SPDX-License-Identifier: Apache-2.0
// samples/reduction/tree_trace.hpp: what the hand-written kernels do inside one block, replayed on the
// host so that every backend can print it (reduction_ladder --print). The loops below use the same
// index expressions as kernels 1 to 3 of hand_written_kernels.cu.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace samples::trace {

/// How a block's threads pick the shared-memory words they add at each step of the tree.
enum class addressing {
  modulo,       ///< kernel #1: thread tid works if tid % (2s) == 0, on word tid
  interleaved,  ///< kernel #2: thread tid works if 2*s*tid < block, on word 2*s*tid (the same words as #1)
  sequential,   ///< kernels #3 to #7: thread tid works if tid < s, on word tid (s = block/2, block/4, ...)
};

/// The strides s of the tree, in the order the loop visits them.
inline std::vector<unsigned> strides(addressing a, unsigned block) {
  std::vector<unsigned> s;
  if (a == addressing::sequential) {
    for (unsigned k = block / 2; k > 0; k >>= 1) s.push_back(k);
  } else {
    for (unsigned k = 1; k < block; k *= 2) s.push_back(k);
  }
  return s;
}

/// The word thread tid adds into at stride s, or -1 when the thread sits this step out.
inline long target_word(addressing a, unsigned block, unsigned s, unsigned tid) {
  switch (a) {
    case addressing::modulo: return tid % (2 * s) == 0 ? static_cast<long>(tid) : -1;
    case addressing::interleaved: return 2 * s * tid < block ? static_cast<long>(2 * s * tid) : -1;
    case addressing::sequential: return tid < s ? static_cast<long>(tid) : -1;
  }
  return -1;
}

/// Runs the tree on one block's values (block = values.size(), a power of two) and prints each step.
inline std::uint32_t print_tree(std::ostream& out, addressing a, std::vector<std::uint32_t> partial) {
  auto const block = static_cast<unsigned>(partial.size());
  for (unsigned s : strides(a, block)) {
    for (unsigned tid = 0; tid < block; ++tid) {
      long const w = target_word(a, block, s, tid);
      if (w >= 0) partial[static_cast<std::size_t>(w)] += partial[static_cast<std::size_t>(w) + s];
    }
    out << "  s=" << std::setw(2) << s << ": ";
    for (auto v : partial) out << std::setw(3) << v;
    out << '\n';
  }
  return partial[0];
}

/// One step of the tree as the hardware sees it.
struct step_cost {
  unsigned stride;
  unsigned active_threads;  ///< threads that add this step
  unsigned busy_warps;      ///< warps with at least one active thread: each one issues the step
  unsigned bank_ways;       ///< worst n-way bank conflict of one warp's writes (32 banks of 4 bytes)
};

/// Active threads, busy warps and bank conflicts of every step, for a block of `block` threads.
inline std::vector<step_cost> costs(addressing a, unsigned block) {
  std::vector<step_cost> result;
  for (unsigned s : strides(a, block)) {
    step_cost c{s, 0, 0, 0};
    for (unsigned warp = 0; warp * 32 < block; ++warp) {
      std::map<long, std::set<long>> words_in_bank;
      for (unsigned lane = 0; lane < 32 && warp * 32 + lane < block; ++lane) {
        long const w = target_word(a, block, s, warp * 32 + lane);
        if (w >= 0) words_in_bank[w % 32].insert(w);
      }
      if (words_in_bank.empty()) continue;
      ++c.busy_warps;
      for (auto const& [bank, words] : words_in_bank) {
        c.active_threads += static_cast<unsigned>(words.size());
        c.bank_ways = std::max(c.bank_ways, static_cast<unsigned>(words.size()));
      }
    }
    result.push_back(c);
  }
  return result;
}

inline char const* name(addressing a) {
  switch (a) {
    case addressing::modulo: return "kernel #1 tid % 2s";
    case addressing::interleaved: return "kernel #2 index 2*s*tid";
    case addressing::sequential: return "kernel #3 tid < s";
  }
  return "";
}

/// The table of docs/reduction.md: for each step, active threads / busy warps / n-way bank conflict.
inline void print_costs(std::ostream& out, unsigned block) {
  auto const row = [&](std::string first, std::vector<std::string> const& cells) {
    first.resize(6, ' ');
    for (std::size_t c = 0; c < cells.size(); ++c) {
      first += cells[c];
      if (c + 1 < cells.size()) first.resize(6 + 28 * (c + 1), ' ');
    }
    out << first << '\n';
  };
  out << "one block of " << block << " threads; per step: active threads / busy warps / n-way bank conflict\n";
  row("step", {name(addressing::modulo), name(addressing::interleaved), name(addressing::sequential)});
  auto const m = costs(addressing::modulo, block), i = costs(addressing::interleaved, block),
             q = costs(addressing::sequential, block);
  for (std::size_t k = 0; k < m.size(); ++k) {
    std::vector<std::string> cells;
    for (auto const* c : {&m[k], &i[k], &q[k]}) {
      cells.push_back("s=" + std::to_string(c->stride) + ": " + std::to_string(c->active_threads) + " / " +
                      std::to_string(c->busy_warps) + " / " + std::to_string(c->bank_ways) + "-way");
    }
    row(std::to_string(k + 1), cells);
  }
}

}  // namespace samples::trace
