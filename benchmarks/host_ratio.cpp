// SPDX-License-Identifier: Apache-2.0
// rowscan's host path beside a plain single-pass C++ program, on the same file and threads, in one run:
// the ratio of the two is what the host path is judged by, on any machine (CI's 2 cores included).
//
//   rowscan_host_ratio FILE [THREADS] [REPEAT]
//
// The plain program (written here, for this comparison): the file mmap'd and cut into THREADS ranges at
// line starts; each thread one pass over its range into a std::unordered_map<std::string_view, stats>;
// the maps merged and sorted by name. No SIMD, no hand-made hash table: what a careful C++ programmer
// writes in an afternoon. rowscan: stations::summarize with THREADS host workers.
// Each is run REPEAT times (default 5) after one warm-up; medians are printed, and both answers must
// be the reference's format of the same stations (exit 1 otherwise). THREADS defaults to the cores.
#include "rowscan/stations/format.hpp"
#include "rowscan/stations/summarize.hpp"

#include "host_timing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace {

using rowscan::stations::station_summary;

struct stats {
  std::int32_t min = INT32_MAX;
  std::int32_t max = INT32_MIN;
  std::int64_t sum = 0;
  std::int64_t count = 0;
  void add(std::int32_t t) {
    min = std::min(min, t);
    max = std::max(max, t);
    sum += t;
    ++count;
  }
  void add(stats const& o) {
    min = std::min(min, o.min);
    max = std::max(max, o.max);
    sum += o.sum;
    count += o.count;
  }
};

using table = std::unordered_map<std::string_view, stats>;

/// "-?d?d.d" at p (up to the '\n' at end) in tenths; the input is assumed valid, as a challenge entry does.
std::int32_t parse_tenths(char const* p, char const* end) {
  bool const negative = *p == '-';
  if (negative) ++p;
  std::int32_t value = 0;
  for (; p < end; ++p) {
    if (*p != '.') value = value * 10 + (*p - '0');
  }
  return negative ? -value : value;
}

/// One pass over the lines of [begin, end) into a map of the thread's own.
void fold_range(char const* begin, char const* end, table& out) {
  out.reserve(16384);
  for (char const* line = begin; line < end;) {
    auto const* newline = static_cast<char const*>(std::memchr(line, '\n', static_cast<std::size_t>(end - line)));
    char const* stop = newline != nullptr ? newline : end;
    auto const* separator = static_cast<char const*>(std::memchr(line, ';', static_cast<std::size_t>(stop - line)));
    out[std::string_view(line, static_cast<std::size_t>(separator - line))].add(parse_tenths(separator + 1, stop));
    line = stop + 1;
  }
}

std::vector<station_summary> plain_program(char const* text, std::size_t size, unsigned threads) {
  std::vector<std::size_t> cuts{0};
  for (unsigned t = 1; t < threads; ++t) {
    std::size_t at = size * t / threads;
    while (at < size && at > 0 && text[at - 1] != '\n') ++at;  // a range starts at a line start
    cuts.push_back(std::max(at, cuts.back()));
  }
  cuts.push_back(size);
  std::vector<table> tables(threads);
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] { fold_range(text + cuts[t], text + cuts[t + 1], tables[t]); });
  }
  for (auto& w : workers) w.join();
  for (unsigned t = 1; t < threads; ++t) {
    for (auto const& [name, s] : tables[t]) tables[0][name].add(s);
  }
  std::vector<station_summary> out;
  for (auto const& [name, s] : tables[0]) out.push_back({std::string(name), s.min, s.max, s.sum, s.count});
  std::sort(out.begin(), out.end(), [](auto const& a, auto const& b) { return a.name < b.name; });
  return out;
}

std::string formatted(std::vector<station_summary> const& stations) {
  std::ostringstream out;
  rowscan::stations::write_onebrc(out, stations);
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: rowscan_host_ratio FILE [THREADS] [REPEAT]\n");
    return 2;
  }
  unsigned const threads = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : std::thread::hardware_concurrency();
  unsigned const repeat = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 5;
  int const fd = ::open(argv[1], O_RDONLY);
  struct stat st{};
  if (fd < 0 || ::fstat(fd, &st) != 0 || st.st_size == 0) {
    std::fprintf(stderr, "rowscan_host_ratio: cannot read %s\n", argv[1]);
    return 1;
  }
  auto const size = static_cast<std::size_t>(st.st_size);
  auto const* text = static_cast<char const*>(::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0));

  std::string plain_answer, rowscan_answer;
  int const runs = static_cast<int>(repeat);
  double const plain = rowscan::bench::median_host_seconds(
      runs, [&] { plain_answer = formatted(plain_program(text, size, threads)); });
  rowscan::stations::summarize_options options;
  options.workers = threads;
  double const host = rowscan::bench::median_host_seconds(runs, [&] {
    ::lseek(fd, 0, SEEK_SET);
    rowscan_answer = formatted(rowscan::stations::summarize(fd, argv[1], options).stations);
  });
  std::printf("file %s, %zu bytes, %u threads, median of %u\n", argv[1], size, threads, repeat);
  std::printf("plain C++ (unordered_map per thread) %8.3f s  %6.2f GB/s\n", plain, static_cast<double>(size) / plain / 1e9);
  std::printf("rowscan host workers                 %8.3f s  %6.2f GB/s\n", host, static_cast<double>(size) / host / 1e9);
  std::printf("ratio rowscan / plain                %8.2f\n", host / plain);
  if (plain_answer != rowscan_answer) {
    std::fprintf(stderr, "rowscan_host_ratio: the answers differ\n");
    return 1;
  }
  return 0;
}
