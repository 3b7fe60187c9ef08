// SPDX-License-Identifier: Apache-2.0
// samples/stations_steps/steps_common.hpp: what the three steps share, so each step file shows only its
// pipeline: reading the measurements, formatting the answer, and the run/check/time loop. Host-only.
#pragma once

#include "../common/options.hpp"

#include "rowscan/stations/format.hpp"
#include "rowscan/stations/summarize.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace samples::steps {

using rowscan::stations::station_summary;

char const* const usage = "STEP FILE [--repeat R] [--csv] [--expect ANSWER_FILE] [--output FILE] [--print]";

/// The file's bytes, with a '\n' added after a last line that lacks one: then every line ends in '\n'.
/// The steps keep 32-bit positions, so the file must hold less than 4 GiB (rowscan stations streams chunks).
inline std::string read_measurements(std::string const& path) {
  std::string text = read_file(path);
  if (!text.empty() && text.back() != '\n') text += '\n';
  if (text.size() >= (std::size_t{1} << 32)) throw rowscan::error("'" + path + "' is 4 GiB or more");
  return text;
}

/// The challenge's answer, `{name=min/mean/max, ...}`, with the stations sorted by their names' bytes.
inline std::string format_answer(std::vector<station_summary> stations) {
  std::sort(stations.begin(), stations.end(),
            [](station_summary const& a, station_summary const& b) { return a.name < b.name; });
  std::ostringstream out;
  rowscan::stations::write_onebrc(out, stations);
  return out.str();
}

/// Where --print's intermediate arrays go: they come before the answer, and --expect checks them too.
inline std::ostringstream& trace() {
  static std::ostringstream stream;
  return stream;
}

/// Runs one step on FILE: load(text, options) (untimed: the copy to the device, if any), then summarize once for the
/// answer (printed, or checked with --expect), then --repeat more times, timed by `timer`, for the median.
/// With --csv it prints one row instead of the answer: sample stations_steps, variant = the step's name,
/// device = device_name().
template <class Device, class Load, class Summarize, class Timer>
int run_step(int argc, char** argv, char const* step, Device&& device_name, Load&& load, Summarize&& summarize,
             Timer&& timer) {
  return run_sample(step, [&] {
    auto const opt = parse_options(argc, argv, 0, usage);
    if (opt.inputs.size() != 1) throw rowscan::error(std::string("one input file, please\nusage: ") + usage);
    std::string const text = read_measurements(opt.inputs[0]);
    load(text, opt);
    std::vector<station_summary> const stations = summarize();
    deliver_answer(opt, trace().str() + format_answer(stations));
    if (opt.print) return 0;  // the intermediate arrays were the point, not the time

    std::size_t lines = 0;
    for (auto const& s : stations) lines += static_cast<std::size_t>(s.count);
    double const ms = median_ms(opt.repeat, [&] { return timer([&] { summarize(); }); });
    measurement const m{step, lines, text.size(), ms};
    if (opt.csv) {
      print_csv_header();
      print_csv_row("stations_steps", device_name(), m);
    } else {
      std::cerr << step << ": " << lines << " lines, " << stations.size() << " stations, " << text.size()
                << " bytes in " << ms << " ms (" << m.gb_per_s() << " GB/s), reading the file not included\n";
    }
    return 0;
  });
}

}  // namespace samples::steps
