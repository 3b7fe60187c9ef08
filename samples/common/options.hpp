// SPDX-License-Identifier: Apache-2.0
// samples/common/options.hpp: the host-only half of what every sample shares (no Thrust here, so
// plain .cpp samples can use it in every build): command-line options, the answer's delivery, a host
// clock, the median, and the CSV rows that scripts/charts.sh draws.
//
//   options:  --size N, --repeat R, --csv, --print, --text T, --expect FILE, --output FILE, inputs
//
// Errors are exceptions (rowscan::error), caught once in each sample's main by run_sample.
#pragma once

#include "rowscan/error.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace samples {

struct options {
  std::size_t size = 0;              ///< elements or bytes of generated input
  int repeat = 5;                    ///< timed runs after one warm-up run; the median is reported
  bool csv = false;                  ///< print CSV rows (see csv_header) instead of the table
  bool print = false;                ///< print the intermediate arrays (for a tiny --size or --text)
  std::string text;                  ///< an input given on the command line ("\n" is a newline)
  std::string expect;                ///< compare the answer with this file; fail on a difference
  std::string output;                ///< write the answer to this file instead of standard output
  std::vector<std::string> inputs;   ///< positional arguments (input files)
};

/// "\n" in a command-line argument becomes a newline byte (for --text).
inline std::string unescape_newlines(std::string const& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == 'n') {
      out += '\n';
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

/// Takes a sample's own switch (an exercise's knob, such as --pad) out of argv, before parse_options:
/// true if it was given. Exercises turn knobs on the command line, so a learner never edits a sample.
inline bool take_flag(int& argc, char** argv, std::string const& flag) {
  bool found = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (flag == argv[i]) {
      found = true;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return found;
}

/// Takes a sample's own `FLAG VALUE` out of argv, before parse_options: VALUE, or `fallback` if absent.
inline std::string take_value(int& argc, char** argv, std::string const& flag, std::string const& fallback,
                              char const* usage) {
  std::string found = fallback;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (flag == argv[i]) {
      if (i + 1 >= argc) throw rowscan::error(flag + " needs a value\nusage: " + usage);
      found = argv[++i];
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return found;
}

/// A flag's value as a whole number: digits only, no sign; throws rowscan::error naming the flag.
inline unsigned long long parse_number(std::string const& flag, std::string const& v) {
  std::size_t used = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(v, &used);
  } catch (std::exception const&) {
    used = 0;
  }
  if (used != v.size() || v.empty() || v[0] == '-') throw rowscan::error(flag + " takes a number, not '" + v + "'");
  return n;
}

/// Parses the options every sample understands; throws rowscan::error on anything else.
inline options parse_options(int argc, char** argv, std::size_t default_size, char const* usage) {
  options o;
  o.size = default_size;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) throw rowscan::error(std::string(argv[i]) + " needs a value\nusage: " + usage);
    return argv[++i];
  };
  auto number = [&](int& i) -> unsigned long long {
    std::string const flag = argv[i];
    return parse_number(flag, value(i));
  };
  for (int i = 1; i < argc; ++i) {
    std::string const arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << "usage: " << usage << '\n';
      std::exit(0);
    } else if (arg == "--size") {
      o.size = static_cast<std::size_t>(number(i));
    } else if (arg == "--repeat") {
      o.repeat = static_cast<int>(std::max(1ull, number(i)));
    } else if (arg == "--csv") {
      o.csv = true;
    } else if (arg == "--print") {
      o.print = true;
    } else if (arg == "--text") {
      o.text = unescape_newlines(value(i));
    } else if (arg == "--expect") {
      o.expect = value(i);
    } else if (arg == "--output") {
      o.output = value(i);
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw rowscan::error("unknown option '" + arg + "'\nusage: " + usage);
    } else {
      o.inputs.push_back(arg);
    }
  }
  return o;
}

/// The whole file as bytes; throws rowscan::error if it cannot be read.
inline std::string read_file(std::string const& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw rowscan::error("cannot open '" + path + "'");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// Writes the answer where the options say (standard output or --output FILE) and, with --expect FILE,
/// throws unless the answer equals that file byte for byte.
inline void deliver_answer(options const& o, std::string const& answer) {
  if (!o.output.empty()) {
    std::ofstream out(o.output, std::ios::binary);
    out << answer;
    if (!out) throw rowscan::error("cannot write '" + o.output + "'");
  } else if (!o.csv) {
    std::cout << answer;
  }
  if (!o.expect.empty()) {
    if (read_file(o.expect) != answer) throw rowscan::error("the answer differs from '" + o.expect + "'");
    std::cerr << "the answer matches " << o.expect << '\n';
  }
}

/// The host's CPU model (from /proc/cpuinfo where there is one), without commas: a CSV device name.
inline std::string host_cpu_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    std::string name = line.substr(line.find(':') + 1);
    name.erase(0, name.find_first_not_of(' '));
    std::replace(name.begin(), name.end(), ',', ' ');
    return name;
  }
  return "host CPU";
}

/// Milliseconds of host code, by a steady clock.
template <class F>
double host_ms(F&& f) {
  auto const start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// The median of `repeat` calls of time_once (each returns milliseconds).
template <class TimeOnce>
double median_ms(int repeat, TimeOnce&& time_once) {
  std::vector<double> ms;
  for (int i = 0; i < repeat; ++i) ms.push_back(time_once());
  std::sort(ms.begin(), ms.end());
  std::size_t const n = ms.size();
  return n % 2 == 1 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
}

/// One timed variant of a sample: `bytes` is what it reads of its input (GB/s = bytes / time, GB = 1e9).
struct measurement {
  std::string variant;
  std::size_t items;
  std::size_t bytes;
  double ms;
  double gb_per_s() const { return ms > 0 ? static_cast<double>(bytes) / (ms * 1e6) : 0; }
};

/// The CSV format of every sample's --csv and of docs/data/*.csv (scripts/charts.sh reads it).
inline void print_csv_header(std::ostream& out = std::cout) {
  out << "sample,device,variant,items,bytes,ms,gb_per_s\n";
}

inline void print_csv_row(std::string const& sample, std::string const& device, measurement const& m,
                          std::ostream& out = std::cout) {
  char numbers[64];
  std::snprintf(numbers, sizeof numbers, "%.4f,%.3f", m.ms, m.gb_per_s());
  out << sample << ',' << device << ',' << m.variant << ',' << m.items << ',' << m.bytes << ',' << numbers << '\n';
}

/// Runs a sample's body and turns an exception into one line on stderr and exit status 1.
template <class Body>
int run_sample(char const* name, Body&& body) {
  try {
    return body();
  } catch (std::exception const& e) {
    std::cerr << name << ": error: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace samples
