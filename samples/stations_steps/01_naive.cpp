// SPDX-License-Identifier: Apache-2.0
// samples/stations_steps/01_naive.cpp: step 1 of the One Billion Row Challenge: the beginner's loop.
//
// One thread walks the lines and keeps a std::map from name to {min, max, sum, count}: the baseline of
// the seed blog post (16.5 minutes for a billion rows). Temperatures become integer tenths, never
// floats, so this answer is exact and equals the device steps' answer byte for byte.
//
// usage: 01_naive FILE [--repeat R] [--csv] [--expect ANSWER_FILE] [--output FILE]
#include "steps_common.hpp"

#include "rowscan/stations/stats.hpp"

#include <map>
#include <string>
#include <vector>

namespace {

using rowscan::stations::merge_stats;
using rowscan::stations::reading_stats;
using rowscan::stations::station_stats;
using samples::steps::station_summary;

// [docs:naive]
/// "-12.3" -> -123: drop the '.', read the rest as an integer.
int tenths_of(std::string temperature) {
  temperature.erase(temperature.size() - 2, 1);
  return std::stoi(temperature);
}

/// One pass, one line at a time: split at ';', parse, fold into the station's entry of a std::map.
std::map<std::string, station_stats> stations_of(std::string const& text) {
  std::map<std::string, station_stats> stations;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t const end = text.find('\n', begin);  // every line ends in '\n' (read_measurements)
    std::size_t const separator = text.find(';', begin);
    if (separator >= end) throw rowscan::error("a line without ';' at byte " + std::to_string(begin));
    auto const reading = static_cast<std::int16_t>(tenths_of(text.substr(separator + 1, end - separator - 1)));
    auto [entry, inserted] = stations.try_emplace(text.substr(begin, separator - begin), station_stats::identity());
    entry->second = merge_stats{}(entry->second, reading_stats{}(reading));
    begin = end + 1;
  }
  return stations;
}
// [docs:end]

}  // namespace

int main(int argc, char** argv) {
  std::string const* text = nullptr;
  return samples::steps::run_step(
      argc, argv, "01_naive", [] { return samples::host_cpu_name() + " 1 thread"; }, [&](std::string const& t, samples::options const&) { text = &t; },
      [&] {
        std::vector<station_summary> result;
        for (auto const& [name, s] : stations_of(*text)) result.push_back({name, s.min, s.max, s.sum, s.count});
        return result;
      },
      [](auto&& f) { return samples::host_ms(f); });
}
