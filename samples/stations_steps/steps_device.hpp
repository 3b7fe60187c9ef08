// SPDX-License-Identifier: Apache-2.0
// samples/stations_steps/steps_device.hpp: the device-side pieces steps 02 to 04 share: parsing a line,
// the check that a 64-bit key stands for one name, the answer's trip to the host, and --print's tracer.
#pragma once

#include "steps_common.hpp"

#include "rowscan/context.hpp"
#include "rowscan/stations/line_format.hpp"
#include "rowscan/stations/stats.hpp"

#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/tuple.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace samples::steps {

using rowscan::stations::station_stats;

/// A line, parsed: the name's key, the temperature in tenths, the name's size, and whether the line is
/// `name;temperature` at all (rowscan stations says what is wrong and where; the steps just stop).
struct parsed_line {
  std::uint64_t key;
  std::int16_t tenths;
  std::uint8_t name_size;
  bool ok;
};

/// FNV-1a, 64-bit: a byte-at-a-time hash of the name, the same on every backend.
ROWSCAN_HD inline std::uint64_t fnv1a(char const* bytes, std::uint32_t size) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint32_t i = 0; i < size; ++i) {
    h ^= static_cast<unsigned char>(bytes[i]);
    h *= 0x100000001b3ull;
  }
  return h;
}

/// Parses one line given without its '\n': a name of 1 to 100 bytes, ';', then -?[0-9]{1,2}.[0-9]
/// (rowscan's parse_tenths). The steps' own parser, so their keys stay put when rowscan's hash changes.
ROWSCAN_HD inline parsed_line parse_line(char const* line, std::uint32_t size) {
  std::uint32_t name_size = 0;
  while (name_size < size && line[name_size] != ';') ++name_size;
  parsed_line p{fnv1a(line, name_size), 0, static_cast<std::uint8_t>(name_size), false};
  p.ok = name_size > 0 && name_size <= 100 && name_size < size &&
         rowscan::stations::parse_tenths(line + name_size + 1, size - name_size - 1, p.tenths);
  return p;
}

/// reduce_by_key's key equality for (key, row) pairs: rows with equal keys form one group.
struct same_key {
  ROWSCAN_HD bool operator()(thrust::tuple<std::uint64_t, std::uint32_t> const& a,
                             thrust::tuple<std::uint64_t, std::uint32_t> const& b) const {
    return thrust::get<0>(a) == thrust::get<0>(b);
  }
};

/// True at sorted position i >= 1 when its key equals the previous one but its name does not. A name
/// runs from its line's first byte up to the ';' (every line was checked to have one).
template <class LineBegin>
struct key_shared_by_two_names {
  char const* text;
  std::uint64_t const* keys;
  std::uint32_t const* rows;
  LineBegin line_begin;
  ROWSCAN_HD bool operator()(std::size_t i) const {
    if (keys[i] != keys[i - 1]) return false;
    char const* a = text + line_begin(rows[i - 1]);
    char const* b = text + line_begin(rows[i]);
    for (; *a == *b; ++a, ++b) {
      if (*a == ';') return false;
    }
    return true;
  }
};

/// The sort groups rows by a hash of the name, so two names could share a key. This pass over the sorted
/// rows proves they do not; if they do, the sample stops (rowscan stations falls back to comparing names).
template <class LineBegin>
void expect_one_name_per_key(char const* text, thrust::device_vector<std::uint64_t> const& keys,
                             thrust::device_vector<std::uint32_t> const& rows, LineBegin line_begin,
                             rowscan::context const& ctx) {
  if (keys.size() < 2) return;
  auto const first = thrust::counting_iterator<std::size_t>(1);
  auto const shared = thrust::count_if(
      ctx.policy(), first, first + static_cast<long>(keys.size() - 1),
      key_shared_by_two_names<LineBegin>{text, keys.data().get(), rows.data().get(), line_begin});
  if (shared > 0) throw rowscan::error("two station names share a 64-bit key: use rowscan stations");
}

/// --print: shows the first `count` elements of a device array, one line per array, in trace(); off
/// unless printing. Lines that call it carry `[docs:hide]`, so the docs quote the pipeline without them.
struct tracer {
  bool on = false;

  static std::string text_of(std::uint64_t key) {
    char hex[20];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
    return hex;
  }
  static std::string text_of(std::uint32_t v) { return std::to_string(v); }
  static std::string text_of(std::uint16_t v) { return std::to_string(v); }
  static std::string text_of(std::int16_t v) { return std::to_string(v); }
  static std::string text_of(std::uint8_t v) { return std::to_string(v); }
  static std::string text_of(station_stats const& s) {
    return "{" + std::to_string(s.min) + "," + std::to_string(s.max) + "," + std::to_string(s.sum) + "," +
           std::to_string(s.count) + "}";
  }

  template <class T>
  void operator()(char const* label, thrust::device_vector<T> const& v, std::size_t count) const {
    if (!on) return;
    thrust::host_vector<T> const h(v.begin(), v.begin() + static_cast<long>(count));
    trace() << "  " << label << ':';
    for (auto const& x : h) trace() << ' ' << text_of(x);
    trace() << '\n';
  }
  void operator()(char const* title) const {
    if (on) trace() << title << '\n';
  }
};

/// The groups' summaries, copied to the host (stations are few: this is small), each named by the text
/// from its first line's begin up to the ';'.
inline std::vector<station_summary> to_host(std::string const& host_text, thrust::device_vector<std::uint32_t> const& name_begins,
                                            thrust::device_vector<station_stats> const& stats, std::size_t groups) {
  thrust::host_vector<std::uint32_t> const b(name_begins.begin(), name_begins.begin() + static_cast<long>(groups));
  thrust::host_vector<station_stats> const s(stats.begin(), stats.begin() + static_cast<long>(groups));
  std::vector<station_summary> result;
  for (std::size_t g = 0; g < groups; ++g) {
    std::string name = host_text.substr(b[g], host_text.find(';', b[g]) - b[g]);
    result.push_back({std::move(name), s[g].min, s[g].max, s[g].sum, s[g].count});
  }
  return result;
}

}  // namespace samples::steps
