// SPDX-License-Identifier: Apache-2.0
// Names that share their first 16 and last 8 bytes against the same names with their varying part first,
// folded by the system's stations path (the GPU on the CUDA build, the host workers otherwise): the ratio
// of the two times is what the fast path's lookup is judged by (docs/stations.md, "Names that share
// their ends"). The lookup key covers every byte of a name, so the ratio stays near 1.
//
//   rowscan_shared_ends_ratio [ROWS] [STATIONS] [NAME_BYTES] [REPEAT] [--write PREFIX]
//
// Defaults: 1e7 rows, 10,000 stations, 29-byte names, 5 runs (medians after a warm-up). The names:
//   shared ends:    "Weather station #" NNNNN filler " (auto)"    e.g. Weather station #10042 (auto)
//   varying first:  "#" NNNNN " Weather station" filler " (auto)"  e.g. #10042 Weather station (auto)
// (filler: 'x' up to NAME_BYTES, 29 to 100). Both files hold the same rows in the same order; the two
// answers must give every station its count (exit 1 otherwise). --write PREFIX also writes them to
// PREFIX-shared-ends.txt and PREFIX-varying-first.txt, to time the CLI on them (`rowscan stations`).
#include "rowscan/stations/summarize.hpp"

#include "host_timing.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::string shared_ends_name(int number, std::size_t bytes) {
  std::string const digits = std::to_string(number);
  std::string name = "Weather station #" + digits;
  return name + std::string(bytes - name.size() - 7, 'x') + " (auto)";
}

std::string varying_first_name(int number, std::size_t bytes) {
  std::string name = "#" + std::to_string(number) + " Weather station";
  return name + std::string(bytes - name.size() - 7, 'x') + " (auto)";
}

/// rows lines over `stations` names made by name_of, with the same stations and readings for either shape.
template <class NameOf>
std::string measurements(std::size_t rows, int stations, NameOf name_of) {
  std::vector<std::string> names;
  for (int s = 0; s < stations; ++s) names.push_back(name_of(10000 + s));
  std::mt19937_64 random(42);
  std::string text;
  for (std::size_t r = 0; r < rows; ++r) {
    auto const s = static_cast<std::size_t>(random() % static_cast<std::uint64_t>(stations));
    int const t = static_cast<int>(random() % 1999) - 999;
    int const a = t < 0 ? -t : t;
    text += names[s];
    text += t < 0 ? ";-" : ";";
    text += std::to_string(a / 10) + "." + std::to_string(a % 10) + "\n";
  }
  return text;
}

/// A temporary file holding text (removed when closed), or the file `path` if one is named.
std::FILE* file_of(std::string const& text, std::string const& path) {
  std::FILE* f = path.empty() ? std::tmpfile() : std::fopen(path.c_str(), "w+");
  if (f == nullptr || std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fflush(f) != 0) {
    std::fprintf(stderr, "cannot write the measurements%s%s\n", path.empty() ? "" : " to ", path.c_str());
    std::exit(1);
  }
  return f;
}

/// The median seconds of summarize over f; false if some station's count is not rows / stations-ish.
double time_summarize(std::FILE* f, char const* label, int repeat, std::size_t rows, int stations, bool& ok) {
  rowscan::stations::summarize_options const options;
  rowscan::stations::summary result;
  double const seconds = rowscan::bench::median_host_seconds(repeat, [&] {
    lseek(fileno(f), 0, SEEK_SET);
    result = rowscan::stations::summarize(fileno(f), label, options);
  });
  std::uint64_t counted = 0;
  for (auto const& s : result.stations) counted += s.count;
  ok = ok && counted == rows && result.stations.size() == static_cast<std::size_t>(stations);
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string prefix;
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--write") {
      prefix = args[i + 1];
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
      break;
    }
  }
  auto arg = [&](std::size_t i, double fallback) { return i < args.size() ? std::atof(args[i].c_str()) : fallback; };
  auto const rows = static_cast<std::size_t>(arg(0, 1e7));
  int const stations = static_cast<int>(arg(1, 10000));
  auto const bytes = static_cast<std::size_t>(arg(2, 29));
  int const repeat = static_cast<int>(arg(3, 5));
  if (stations < 1 || stations > 89999 || bytes < 29 || bytes > 100 || repeat < 1) {
    std::fprintf(stderr,
                 "usage: rowscan_shared_ends_ratio [ROWS] [STATIONS 1-89999] [NAME_BYTES 29-100] [REPEAT] "
                 "[--write PREFIX]\n");
    return 2;
  }
  std::FILE* ends = file_of(measurements(rows, stations, [&](int n) { return shared_ends_name(n, bytes); }),
                            prefix.empty() ? "" : prefix + "-shared-ends.txt");
  std::FILE* first = file_of(measurements(rows, stations, [&](int n) { return varying_first_name(n, bytes); }),
                             prefix.empty() ? "" : prefix + "-varying-first.txt");
  bool ok = true;
  double const t_first = time_summarize(first, "varying-first", repeat, rows, stations, ok);
  double const t_ends = time_summarize(ends, "shared-ends", repeat, rows, stations, ok);
  std::printf("%zu rows, %d stations of %zu bytes, median of %d\n", rows, stations, bytes, repeat);
  std::printf("varying part first             %.3f s\n", t_first);
  std::printf("shared first 16, last 8 bytes  %.3f s\n", t_ends);
  std::printf("ratio                          %.2f\n", t_ends / t_first);
  std::fclose(ends);
  std::fclose(first);
  if (!ok) std::fprintf(stderr, "an answer lost rows or stations\n");
  return ok ? 0 : 1;
}
