// SPDX-License-Identifier: Apache-2.0
// Light mode (ROWSCAN_TEST_LIGHT=1): every test over smaller inputs, for runs under compute-sanitizer.
//
// Under racecheck a pass over a chunk of input costs about 1.6 s on the H100 (a few dozen launches),
// so a test that sweeps 128-byte chunks over tens of KB takes many minutes. In light mode a test keeps
// its assertions, chunk sizes, key widths, strategies and code paths, but runs fewer rows, seeds or
// repetitions: about 20-40 chunk passes in all. Unset (or "0"), every test runs its normal inputs.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace support {

/// Whether ROWSCAN_TEST_LIGHT is set to something other than "" or "0" (read once).
inline bool light_mode() {
  static bool const on = [] {
    char const* value = std::getenv("ROWSCAN_TEST_LIGHT");
    return value != nullptr && std::string_view(value) != "" && std::string_view(value) != "0";
  }();
  return on;
}

/// `normal` in a normal run, `light` in light mode: a row count, a list of seeds or shapes.
template <class T>
T light(T const& normal, T const& light) {
  return light_mode() ? light : normal;
}

/// All of `all` in a normal run; in light mode only the one at `turn` (modulo their count). A sweep over
/// many small inputs still visits each choice, on one input in turn instead of on every input.
template <class T>
std::vector<T> in_turn(std::vector<T> const& all, std::size_t turn) {
  if (!light_mode() || all.empty()) return all;
  return {all[turn % all.size()]};
}

/// All of `text` in a normal run; in light mode its first `lines` lines (a prefix of a generated input
/// keeps its shape).
inline std::string light_lines(std::string const& text, std::size_t lines) {
  if (!light_mode()) return text;
  std::size_t end = 0;
  for (std::size_t l = 0; l < lines && end < text.size(); ++l) {
    std::size_t const newline = text.find('\n', end);
    end = newline == std::string::npos ? text.size() : newline + 1;
  }
  return text.substr(0, end);
}

/// True in a normal run; in light mode for one item in `every` (the first included), for sweeps that
/// start a process per item.
inline bool light_picks(std::size_t item, std::size_t every) { return !light_mode() || item % every == 0; }

}  // namespace support
