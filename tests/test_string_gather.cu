// SPDX-License-Identifier: Apache-2.0
// gather_strings against a plain loop over std::strings, for every strategy and lane count; and proofs
// that the string-parallel copy touches no byte outside the strings (plan arithmetic everywhere, guard
// pages on the CPU backends, compute-sanitizer memcheck on the GPU with exactly sized allocations).
#include "rowscan/context.hpp"
#include "rowscan/device_buffer.hpp"
#include "rowscan/strings/column.hpp"
#include "rowscan/strings/gather.hpp"

#include "support/light_mode.hpp"

#include <gtest/gtest.h>
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#if !ROWSCAN_HAS_CUB
#  include <sys/mman.h>
#  include <unistd.h>
#endif

namespace {

using rowscan::column_view;
using rowscan::device_buffer;
using rowscan::gather_strategy;
using rowscan::strings_column;
using support::light;
using strings = std::vector<std::string>;
using indices_type = std::vector<std::int32_t>;

/// The scalar reference: output string k is strings[indices[k]].
strings reference_gather(strings const& source, indices_type const& indices) {
  strings out;
  for (std::int32_t i : indices) out.push_back(source[static_cast<std::size_t>(i)]);
  return out;
}

std::vector<std::int64_t> host_offsets(strings_column const& column) {
  thrust::host_vector<std::int64_t> h(column.offsets.size());
  thrust::copy(column.offsets.begin(), column.offsets.end(), h.begin());
  return {h.begin(), h.end()};
}

std::vector<std::int64_t> reference_offsets(strings const& out) {
  std::vector<std::int64_t> offsets{0};
  for (auto const& s : out) offsets.push_back(offsets.back() + static_cast<std::int64_t>(s.size()));
  return offsets;
}

/// The output through step 1 and step 2 into exactly sized buffers from the global resource (cudaMalloc
/// under CUDA), so that memcheck sees an overrun of either output array. lanes == 0: gather_chars with
/// the strategy; otherwise gather_chars_string_parallel with that many lanes.
strings_column gather_exact(strings_column const& source, thrust::device_vector<std::int32_t> const& indices,
                            gather_strategy strategy, unsigned lanes) {
  rowscan::context ctx;
  auto const* idx = thrust::raw_pointer_cast(indices.data());
  std::size_t const count = indices.size();
  device_buffer<char const*> starts(count + 1);
  device_buffer<std::int64_t> offsets(count + 1);
  char const** const s = thrust::raw_pointer_cast(starts.data());
  std::int64_t* const o = thrust::raw_pointer_cast(offsets.data());
  std::int64_t const total = rowscan::gathered_offsets(column_view(source), idx, count, s, o, ctx);
  device_buffer<char> chars(static_cast<std::size_t>(total));
  char* const c = thrust::raw_pointer_cast(chars.data());
  if (lanes == 0) {
    rowscan::gather_chars(s, count, o, total, c, strategy, ctx);
  } else if (total > 0) {
    rowscan::gather_chars_string_parallel(s, count, o, c, lanes, ctx);
  }
  ctx.synchronize();
  return strings_column(std::move(chars), std::move(offsets));
}

/// One way of gathering: the public API with a strategy, or the steps with exact buffers.
struct gather_way {
  std::string name;
  std::function<strings_column(strings_column const&, thrust::device_vector<std::int32_t> const&)> run;
};

std::vector<gather_way> const& ways() {
  static std::vector<gather_way> const all = [] {
    std::vector<gather_way> w;
    for (auto [name, strategy] : {std::pair{"automatic", gather_strategy::automatic},
                                  std::pair{"char_parallel", gather_strategy::char_parallel},
                                  std::pair{"string_parallel", gather_strategy::string_parallel}}) {
      w.push_back({std::string("gather_strings/") + name, [strategy = strategy](auto const& s, auto const& i) {
                     return rowscan::gather_strings(s, i, strategy);
                   }});
      w.push_back({std::string("exact/") + name,
                   [strategy = strategy](auto const& s, auto const& i) { return gather_exact(s, i, strategy, 0); }});
    }
    for (unsigned lanes : {1u, 2u, 8u, 32u, 128u}) {
      w.push_back({"exact/string_parallel/lanes=" + std::to_string(lanes),
                   [lanes](auto const& s, auto const& i) { return gather_exact(s, i, gather_strategy::string_parallel, lanes); }});
    }
    return w;
  }();
  return all;
}

/// Every way gives the reference's strings and offsets.
void expect_all_ways_match(strings const& source, indices_type const& indices) {
  strings_column const column = rowscan::make_strings_column(source);
  thrust::device_vector<std::int32_t> const d_indices(indices.begin(), indices.end());
  strings const expected = reference_gather(source, indices);
  for (auto const& way : ways()) {
    SCOPED_TRACE(way.name);
    strings_column const out = way.run(column, d_indices);
    ASSERT_EQ(out.size(), indices.size());
    EXPECT_EQ(host_offsets(out), reference_offsets(expected));
    EXPECT_EQ(rowscan::to_host_strings(out), expected);
  }
}

std::string random_bytes(std::size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(byte(rng));
  return s;
}

indices_type random_indices(std::size_t count, std::size_t range, std::mt19937& rng) {
  std::uniform_int_distribution<std::int32_t> pick(0, static_cast<std::int32_t>(range) - 1);
  indices_type indices(count);
  for (auto& i : indices) i = pick(rng);
  return indices;
}

TEST(GatherStrings, WorkedExample) {  // the example of gather.hpp and docs/string-gather.md
  strings const source = {"Oslo", "", "Abéché", "Yaoundé"};
  strings_column const column = rowscan::make_strings_column(source);
  EXPECT_EQ(host_offsets(column), (std::vector<std::int64_t>{0, 4, 4, 12, 20}));

  std::vector<std::int32_t> const host_indices = {2, 0, 2, 1};
  thrust::device_vector<std::int32_t> const indices(host_indices.begin(), host_indices.end());
  for (auto strategy : {gather_strategy::char_parallel, gather_strategy::string_parallel}) {
    strings_column const out = rowscan::gather_strings(column, indices, strategy);
    EXPECT_EQ(host_offsets(out), (std::vector<std::int64_t>{0, 8, 12, 20, 20}));
    thrust::host_vector<char> chars(out.chars.size());
    thrust::copy(out.chars.begin(), out.chars.end(), chars.begin());
    EXPECT_EQ(std::string(chars.begin(), chars.end()), "AbéchéOsloAbéché");
  }

  // Char-parallel's search: output byte p belongs to string upper_bound(offsets + 1, ..., p) - (offsets + 1).
  strings_column const out = rowscan::gather_strings(column, indices);
  thrust::device_vector<std::int32_t> string_of_byte(out.chars.size());
  thrust::upper_bound(out.offsets.begin() + 1, out.offsets.end(), thrust::counting_iterator<std::int64_t>(0),
                      thrust::counting_iterator<std::int64_t>(static_cast<std::int64_t>(out.chars.size())),
                      string_of_byte.begin());
  std::vector<std::int32_t> const expected_strings = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2};
  EXPECT_EQ(std::vector<std::int32_t>(string_of_byte.begin(), string_of_byte.end()), expected_strings);

  // String-parallel's plan for a longer name: 58 bytes from source offset 20 to output offset 8 (both
  // columns start 16-byte aligned): 24 single bytes, one word from two aligned loads shifted by 12, 18 bytes.
  strings with_long = source;
  with_long.push_back("Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch");
  strings_column const long_column = rowscan::make_strings_column(with_long);
  std::vector<std::int32_t> const two = {2, 4};
  thrust::device_vector<std::int32_t> const two_indices(two.begin(), two.end());
  EXPECT_EQ(rowscan::to_host_strings(rowscan::gather_strings(long_column, two_indices, gather_strategy::string_parallel)),
            (strings{"Abéché", with_long[4]}));
  auto const plan = rowscan::detail::plan_words(8, 20 % 16, 58);
  EXPECT_EQ(plan.head, 24);
  EXPECT_EQ(plan.words, 1);
  EXPECT_EQ(plan.shift, 12u);
  // Its head (bytes 0-23) and tail (40-57) go by 4-byte words: 6 words; 4 words and 2 single bytes.
  auto const head = rowscan::detail::plan_words((8 + 0) % 4, (20 + 0) % 4, 24, 4);
  EXPECT_EQ(head.head, 0);
  EXPECT_EQ(head.words, 6);
  EXPECT_EQ(head.shift, 0u);
  auto const tail = rowscan::detail::plan_words((8 + 40) % 4, (20 + 40) % 4, 18, 4);
  EXPECT_EQ(tail.head, 0);
  EXPECT_EQ(tail.words, 4);
}

TEST(GatherStrings, RandomLengthsUpTo10000) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::size_t> length(0, 10000);
    std::bernoulli_distribution empty(0.1);
    strings source(light(150, 30));  // light: 30 strings, 50 indices
    for (auto& s : source) s = random_bytes(empty(rng) ? 0 : length(rng), rng);
    expect_all_ways_match(source, random_indices(light(250, 50), source.size(), rng));
  }
}

TEST(GatherStrings, ManyShortStrings) {
  std::uint32_t const seed = 4;
  SCOPED_TRACE("seed=" + std::to_string(seed));
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> length(0, 40);
  strings source(light(5000, 500));  // light: a tenth
  for (auto& s : source) s = random_bytes(length(rng), rng);
  expect_all_ways_match(source, random_indices(light(20000, 2000), source.size(), rng));
}

TEST(GatherStrings, AllEmpty) {
  std::uint32_t const seed = 5;
  SCOPED_TRACE("seed=" + std::to_string(seed));
  std::mt19937 rng(seed);
  expect_all_ways_match(strings(100, ""), random_indices(300, 100, rng));
}

TEST(GatherStrings, ZeroStrings) {
  expect_all_ways_match({"abc", "", "defghijklmnopqrstuvwxyz"}, {});
  expect_all_ways_match({}, {});
  strings_column const none;  // a default column: no strings, offsets {0}
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(host_offsets(none), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(rowscan::gather_strings(none, thrust::device_vector<std::int32_t>{}).size(), 0u);
}

TEST(GatherStrings, OneString) {
  std::mt19937 rng(6);
  std::size_t turn = 0;  // light mode: every length, gathered once or five times in turn
  for (std::size_t n : {0u, 1u, 15u, 16u, 17u, 31u, 32u, 33u, 1000u, 10000u}) {
    SCOPED_TRACE("length=" + std::to_string(n) + " seed=6");
    strings const source = {random_bytes(n, rng)};
    for (indices_type const& indices : support::in_turn<indices_type>({{0}, {0, 0, 0, 0, 0}}, turn++)) {
      expect_all_ways_match(source, indices);
    }
  }
}

TEST(GatherStrings, RepeatedAndOutOfOrderIndices) {
  std::uint32_t const seed = 7;
  SCOPED_TRACE("seed=" + std::to_string(seed));
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> length(0, 100);
  strings source(40);
  for (auto& s : source) s = random_bytes(length(rng), rng);
  expect_all_ways_match(source, indices_type(500, 17));
  indices_type alternating, reversed;
  for (std::int32_t i = 0; i < 400; ++i) alternating.push_back(i % 2 == 0 ? 3 : 38);
  for (std::int32_t i = 39; i >= 0; --i) reversed.push_back(i);
  expect_all_ways_match(source, alternating);
  expect_all_ways_match(source, reversed);
}

TEST(GatherStrings, MultiByteUtf8) {
  strings const names = {"Zürich", "São Paulo", "Abéché", "東京", "Αθήνα", "İstanbul", "Reykjavík", "🙂🙃", "Ñuñoa", "Łódź"};
  strings source = names;
  for (auto const& name : names) {  // longer strings whose multi-byte characters straddle 16-byte words
    std::string s;
    for (int r = 0; r < 13; ++r) s += name;
    source.push_back(s);
  }
  std::uint32_t const seed = 8;
  SCOPED_TRACE("seed=" + std::to_string(seed));
  std::mt19937 rng(seed);
  expect_all_ways_match(source, random_indices(200, source.size(), rng));
}

/// Each target length at each source address mod 16, gathered to each destination address mod 16:
/// fillers of 0-15 bytes placed before the targets, in the source and in the output, set both.
TEST(GatherStrings, EveryAlignmentOfSourceAndDestination) {
  std::vector<std::size_t> const lengths = {0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 100, 255, 256, 257, 1000};
  strings source;
  std::int64_t at = 0;
  for (std::size_t n = 0; n < 16; ++n) {  // fillers: source string n has n bytes
    source.push_back(std::string(n, '.'));
    at += static_cast<std::int64_t>(n);
  }
  std::mt19937 rng(9);
  indices_type targets;
  for (std::int64_t a = 0; a < 16; ++a) {
    for (std::size_t n : lengths) {
      auto const pad = static_cast<std::size_t>(((a - at) % 16 + 16) % 16);
      source.push_back(std::string(pad, '-'));
      at += static_cast<std::int64_t>(pad);
      targets.push_back(static_cast<std::int32_t>(source.size()));
      source.push_back(random_bytes(n, rng));
      at += static_cast<std::int64_t>(n);
    }
  }
  indices_type indices;
  std::int64_t out_at = 0;
  for (std::int64_t b = 0; b < 16; ++b) {
    for (std::int32_t t : targets) {
      auto const filler = static_cast<std::int32_t>(((b - out_at) % 16 + 16) % 16);
      indices.push_back(filler);
      indices.push_back(t);
      out_at += filler + static_cast<std::int64_t>(source[static_cast<std::size_t>(t)].size());
    }
  }
  SCOPED_TRACE("seed=9");
  expect_all_ways_match(source, indices);
}

/// The plan's arithmetic, for 16-byte words (the middle of a string) and 4-byte words (its ends, and
/// short strings), every alignment pair and every length up to 300: stores and loads inside the string,
/// stores and loads aligned, every byte written once; strings of 3w bytes or more always get words,
/// and then at most 3w - 2 of their bytes are left to the narrower copy.
TEST(GatherStrings, WordPlanStaysInsideTheStrings) {
  for (std::int64_t w : {16, 4}) {
    auto const uw = static_cast<unsigned>(w);
    for (unsigned dst = 0; dst < uw; ++dst) {
      for (unsigned src = 0; src < uw; ++src) {
        for (std::int64_t n = 0; n <= 300; ++n) {
          SCOPED_TRACE("w=" + std::to_string(w) + " dst%w=" + std::to_string(dst) + " src%w=" + std::to_string(src) +
                       " n=" + std::to_string(n));
          auto const plan = rowscan::detail::plan_words(dst, src, n, w);
          std::int64_t const tail = plan.head + w * plan.words;
          ASSERT_GE(plan.head, 0);
          ASSERT_GE(plan.words, 0);
          ASSERT_LE(tail, n);
          if (plan.words == 0) {
            EXPECT_EQ(plan.head, n);
            EXPECT_LT(n, 3 * w);  // only short strings get no word
            continue;
          }
          EXPECT_EQ((dst + plan.head) % uw, 0u);                       // aligned stores
          EXPECT_EQ(plan.shift, (src + plan.head) % uw);
          EXPECT_LE(plan.head + (n - tail), 3 * w - 2);                // bytes left to the ends
          if (plan.shift != 0) {
            std::int64_t const first_load = plan.head - plan.shift;    // string byte of the first aligned load
            EXPECT_EQ((src + first_load) % uw, 0u);                    // aligned loads
            EXPECT_GE(first_load, 0);                                  // not before the string
            EXPECT_LE(first_load + w * (plan.words + 1), n);           // the last load ends inside it
          }
        }
      }
    }
  }
}

TEST(GatherStrings, ChoiceOfStrategy) {
  using rowscan::choose_gather_strategy;
  std::int64_t const t = rowscan::string_parallel_min_average_bytes;
  EXPECT_EQ(choose_gather_strategy(0, 0), gather_strategy::string_parallel);
  EXPECT_EQ(choose_gather_strategy(1000, 1000 * t), gather_strategy::string_parallel);
  if (t > 0) {
    EXPECT_EQ(choose_gather_strategy(1000, 1000 * t - 1), gather_strategy::char_parallel);
  }
  for (std::int64_t average : {0, 1, 32, 100, 1000, 100000}) {
    unsigned const lanes = rowscan::string_parallel_lanes(average);
    EXPECT_GE(lanes, rowscan::string_parallel_min_lanes);
    EXPECT_LE(lanes, rowscan::string_parallel_max_lanes);
    EXPECT_EQ(lanes & (lanes - 1), 0u);  // a power of two
  }
}

/// The whole strings at the very start and the very end of exactly sized allocations, source and
/// destination: under CUDA, compute-sanitizer memcheck reports any access past either end.
TEST(GatherStrings, StringsAtTheEdgesOfExactAllocations) {
  std::mt19937 rng(10);
  std::vector<std::size_t> const firsts = {0, 5, 40, 333}, lasts = {1, 17, 50, 1001};
  for (std::size_t i = 0; i < firsts.size(); ++i) {
    std::size_t const first = firsts[i];
    for (std::size_t last : support::in_turn(lasts, i)) {  // light: every first and last length, in pairs
      SCOPED_TRACE("first=" + std::to_string(first) + " last=" + std::to_string(last) + " seed=10");
      strings const source = {random_bytes(first, rng), random_bytes(37, rng), random_bytes(last, rng)};
      expect_all_ways_match(source, {2, 0});  // the destination's edges too: output = last, first
      expect_all_ways_match(source, {0, 2});
    }
  }
}

#if !ROWSCAN_HAS_CUB
/// n bytes of host memory flush against an inaccessible page: after them (at_end) or before them.
/// Under the CPU backends device memory is host memory, so a read or write of one byte outside
/// crashes the test.
class guarded_bytes {
 public:
  guarded_bytes(std::size_t n, bool at_end) {
    std::size_t const page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    std::size_t const inner = (n + page - 1) / page * page;
    size_ = inner + 2 * page;
    void* const base = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) throw std::runtime_error("mmap failed");
    base_ = static_cast<char*>(base);
    mprotect(base_, page, PROT_NONE);
    mprotect(base_ + page + inner, page, PROT_NONE);
    data_ = at_end ? base_ + page + inner - n : base_ + page;
  }
  ~guarded_bytes() { munmap(base_, size_); }
  guarded_bytes(guarded_bytes const&) = delete;
  guarded_bytes& operator=(guarded_bytes const&) = delete;
  char* data() const { return data_; }

 private:
  char* base_;
  char* data_;
  std::size_t size_;
};

TEST(GatherStrings, GuardPagesAroundSourceAndDestination) {
  for (std::uint32_t seed : {11u, 12u}) {
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::size_t> length(0, 300);
    strings source(200);
    for (auto& s : source) s = random_bytes(length(rng), rng);
    indices_type indices = random_indices(300, source.size(), rng);
    indices.push_back(0);                                           // the first source string
    indices.push_back(static_cast<std::int32_t>(source.size() - 1));  // the last source string
    strings const expected = reference_gather(source, indices);
    std::vector<std::int64_t> const out_offsets_expected = reference_offsets(expected);
    std::int64_t const total = out_offsets_expected.back();

    std::string all;
    std::vector<std::int64_t> offsets{0};
    for (auto const& s : source) {
      all += s;
      offsets.push_back(static_cast<std::int64_t>(all.size()));
    }
    for (bool source_at_end : {false, true}) {
      guarded_bytes const chars(all.size(), source_at_end);
      std::copy(all.begin(), all.end(), chars.data());
      column_view const view(chars.data(), offsets.data());
      for (bool out_at_end : {false, true}) {
        for (unsigned lanes : {0u, 1u, 2u, 8u, 32u, 128u}) {  // 0: char-parallel
          SCOPED_TRACE("source_at_end=" + std::to_string(source_at_end) + " out_at_end=" + std::to_string(out_at_end) +
                       " lanes=" + std::to_string(lanes));
          rowscan::context ctx;
          std::vector<char const*> starts(indices.size() + 1);
          std::vector<std::int64_t> out_offsets(indices.size() + 1);
          ASSERT_EQ(rowscan::gathered_offsets(view, indices.data(), indices.size(), starts.data(), out_offsets.data(), ctx),
                    total);
          ASSERT_EQ(out_offsets, out_offsets_expected);
          guarded_bytes const out(static_cast<std::size_t>(total), out_at_end);
          if (lanes == 0) {
            rowscan::gather_chars_char_parallel(starts.data(), indices.size(), out_offsets.data(), total, out.data(), ctx);
          } else {
            rowscan::gather_chars_string_parallel(starts.data(), indices.size(), out_offsets.data(), out.data(), lanes, ctx);
          }
          for (std::size_t k = 0; k < indices.size(); ++k) {
            ASSERT_EQ(std::string(out.data() + out_offsets[k], expected[k].size()), expected[k]) << "string " << k;
          }
        }
      }
    }
  }
}
#endif

// docs/string-gather.md, exercise 1: a gather that repeats and reorders. Offsets are the running sum of
// the chosen strings' lengths ("Yaoundé" is 8 bytes: é is two), and the chars follow in that order.
TEST(ExercisesStringGather, RepeatedIndicesGiveRunningOffsets) {
  strings_column const column = rowscan::make_strings_column(strings{"Oslo", "", "Abéché", "Yaoundé"});
  std::vector<std::int32_t> const host_indices = {3, 3, 1, 0};
  thrust::device_vector<std::int32_t> const indices(host_indices.begin(), host_indices.end());
  strings_column const out = rowscan::gather_strings(column, indices);
  EXPECT_EQ(host_offsets(out), (std::vector<std::int64_t>{0, 8, 16, 16, 20}));
  EXPECT_EQ(rowscan::to_host_strings(out), (strings{"Yaoundé", "Yaoundé", "", "Oslo"}));
}

// Exercise 2: which strategy `automatic` takes for a column of 1-byte strings: char-parallel on the GPU
// (below 16 bytes on average, most of string-parallel's lanes would idle), string-parallel on the host
// systems (one lane per string, the faster at every measured length there).
TEST(ExercisesStringGather, OneByteStringsChooseByTheSystem) {
#if ROWSCAN_HAS_CUB
  gather_strategy const expected = gather_strategy::char_parallel;
#else
  gather_strategy const expected = gather_strategy::string_parallel;
#endif
  EXPECT_EQ(rowscan::choose_gather_strategy(1000, 1000), expected);
}

// bytes_equal_within compares names of up to 16 bytes as two words when 16 bytes from each start lie
// before its end, and byte by byte otherwise: it agrees with bytes_equal for every size from 0 to 40, a
// difference at any byte (those past the strings' ends do not count), and any room before the ends.
TEST(StringCompare, BytesEqualWithinAgreesWithBytesEqual) {
  std::mt19937 rng(71);
  std::vector<char> memory(256);
  for (std::uint32_t size = 0; size <= 40; ++size) {
    for (std::uint32_t differ = 0; differ <= size + 20; ++differ) {  // differ >= size: past the ends, or none
      for (std::size_t room : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{15}, std::size_t{16},
                               std::size_t{100}}) {
        for (char& c : memory) c = static_cast<char>(rng());
        char* const a = memory.data();
        char* const b = memory.data() + 128;
        std::copy(a, a + 64, b);
        if (differ < 64) b[differ] = static_cast<char>(a[differ] ^ (1 << (rng() % 8)));
        rowscan::string_ref const x{a, size};
        rowscan::string_ref const y{b, size};
        char const* const a_end = a + size + room;
        char const* const b_end = b + size + room;
        EXPECT_EQ(rowscan::bytes_equal_within(x, a_end, y, b_end), rowscan::bytes_equal(x, y))
            << "size " << size << " differ " << differ << " room " << room;
        EXPECT_EQ(rowscan::bytes_equal_within(x, a_end, y, b_end), differ >= size);
        rowscan::string_ref const shorter{b, size == 0 ? 1u : size - 1};
        EXPECT_FALSE(rowscan::bytes_equal_within(x, a_end, shorter, b_end)) << "sizes differ";
      }
    }
  }
}

}  // namespace
