// SPDX-License-Identifier: Apache-2.0
// rowscan/generate/random.hpp: the generators' own random streams (splitmix64 seeding, xoshiro256**).
//
// Each stream is named by (seed, tag, index): a generator gives every block of rows its own stream, so
// its output depends only on its options, never on the thread count or the standard library's
// distributions. Host only.
#pragma once

#include <array>
#include <cstdint>

namespace rowscan::generate {

__extension__ typedef unsigned __int128 uint128;  // GCC/Clang builtin, for the 64x64->128 multiply

constexpr std::uint64_t golden_gamma = 0x9e3779b97f4a7c15ULL;

/// The splitmix64 finalizer: a bijective 64-bit mixer.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// xoshiro256** (Blackman & Vigna), seeded from splitmix64 so nearby seeds give unrelated streams.
class random_stream {
 public:
  /// Stream `index` of kind `tag` (each generator numbers its own kinds) for `seed`.
  random_stream(std::uint64_t seed, std::uint64_t tag, std::uint64_t index) {
    std::uint64_t sm = mix64(mix64(seed + golden_gamma) ^ mix64(tag * golden_gamma + index));
    for (auto& word : s_) {
      sm += golden_gamma;
      word = mix64(sm);
    }
  }

  std::uint64_t next() {
    std::uint64_t const result = rotl(s_[1] * 5, 7) * 9;
    std::uint64_t const t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Uniform in [0, bound) by multiply-shift; the bias (bound / 2^64) is far below anything observable.
  std::uint32_t below(std::uint32_t bound) {
    return static_cast<std::uint32_t>((static_cast<uint128>(next()) * bound) >> 64);
  }

  /// Uniform in [0, bound) for 64-bit bounds, by the same multiply-shift.
  std::uint64_t below64(std::uint64_t bound) {
    return static_cast<std::uint64_t>((static_cast<uint128>(next()) * bound) >> 64);
  }

  /// Uniform in [lo, hi], both inclusive.
  std::uint32_t between(std::uint32_t lo, std::uint32_t hi) { return lo + below(hi - lo + 1); }

  /// Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<std::uint64_t, 4> s_{};
};

}  // namespace rowscan::generate
