// SPDX-License-Identifier: Apache-2.0
// samples/chunk_by/chunk_by_four_ways.cu: the lines of one text, found by four chunk_by compositions.
//
//   interval_scan           rowscan::chunk_by: count the line starts (transform_reduce), then one
//                           inclusive scan over {flag, index, start, end} writes each line where it ends
//   copy_if_adjacent_pairs  copy_if keeps the positions that start a line; a transform over adjacent
//                           pairs of starts makes the ranges
//   scan_reduce_by_key      an inclusive scan numbers the lines; reduce_by_key merges each number's positions
//   word_scan               rowscan::for_each_line: the interval scan with one 8-byte interval {lines, start}
//                           per 16-byte word of text; each word writes the lines that end in it
//
// The first three work for any predicate; the word scan only for lines (it finds the '\n' bytes of a word
// eight at a time). The four must write the same [begin, end) per line; the sample checks them against a sequential walk
// and times each (median of --repeat runs after a warm-up; CUDA events on the GPU). Buffers are
// allocated once, outside the timed runs, for the worst case of one line per byte.
//
// usage: chunk_by_four_ways [--size BYTES] [--text T] [--repeat R] [--csv] [--print [--expect FILE]]
#include "../common/sample.hpp"

#include "rowscan/chunk_by.hpp"
#include "rowscan/context.hpp"
#include "rowscan/lines.hpp"
#include "rowscan/read_back.hpp"
#include "rowscan/records.hpp"

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/tabulate.h>
#include <thrust/transform.h>

#include <cstdint>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

char const* const usage =
    "chunk_by_four_ways [--size BYTES] [--text T] [--repeat R] [--csv] [--print [--expect FILE]]";

using position = std::uint32_t;                   // positions inside the text: it holds less than 4 GiB
// docs/chunk_by.md: the interval scan carries 16 bytes of state per byte of text.
static_assert(sizeof(rowscan::interval<position>) == 16, "a bool and three 4-byte positions, padded");
using range = rowscan::index_range<position>;     // one line: [begin, end), its '\n' included
using starts_line = rowscan::starts_chunk<char const*, rowscan::same_line, position>;

/// The input: lowercase letters with a '\n' at about one position in 16 (a hash of the position).
struct byte_at {
  ROWSCAN_HD char operator()(std::uint64_t i) const {
    std::uint64_t const h = ((i + 1) * 0x9E3779B97F4A7C15ull) >> 32;
    return h % 16 == 0 ? '\n' : static_cast<char>('a' + h % 26);
  }
};

// [docs:interval-scan]
/// Way 1, rowscan's chunk_by: a transform_reduce counts the line starts, then one inclusive scan of
/// intervals {flag, index, start, end} writes each line's range at the position where the line ends.
std::size_t lines_by_interval_scan(char const* text, std::size_t n, range* out, rowscan::context const& ctx) {
  range const* const end = rowscan::chunk_by(text, text + n, rowscan::same_line{}, out, ctx);
  return static_cast<std::size_t>(end - out);
}
// [docs:end]

// [docs:copy-if-pairs]
/// Way 2: copy_if keeps the positions that start a line (inside, copy_if flags, scans and scatters).
/// Line k is then the pair of adjacent starts [starts[k], starts[k + 1]), with n closing the last line.
struct range_between {
  ROWSCAN_HD range operator()(position begin, position next_begin) const { return {begin, next_begin}; }
};

std::size_t lines_by_copy_if(char const* text, std::size_t n, position* starts, range* out,
                             rowscan::context const& ctx) {
  auto const positions = thrust::counting_iterator<position>(0);
  position* const starts_end =
      thrust::copy_if(ctx.policy(), positions, positions + n, starts, starts_line{text, rowscan::same_line{}});
  thrust::fill_n(ctx.policy(), starts_end, 1, static_cast<position>(n));  // the end of the last line
  thrust::transform(ctx.policy(), starts, starts_end, starts + 1, out, range_between{});
  return static_cast<std::size_t>(starts_end - starts);
}
// [docs:end]

// [docs:reduce-by-key]
/// Way 3: an inclusive scan of the start flags numbers every position's line (1 1 1 2 2 3 3), then
/// reduce_by_key merges the one-position ranges {i, i + 1} of each run of equal line numbers.
struct start_flag {
  starts_line starts;
  ROWSCAN_HD position operator()(position i) const { return starts(i) ? 1 : 0; }
};
struct one_position {
  ROWSCAN_HD range operator()(position i) const { return {i, i + 1}; }
};
struct span_of_both {
  ROWSCAN_HD range operator()(range a, range b) const {
    return {a.begin < b.begin ? a.begin : b.begin, a.end > b.end ? a.end : b.end};
  }
};

std::size_t lines_by_reduce_by_key(char const* text, std::size_t n, position* line_numbers, range* out,
                                   rowscan::context const& ctx) {
  auto const positions = thrust::counting_iterator<position>(0);
  auto const flags = thrust::make_transform_iterator(positions, start_flag{{text, rowscan::same_line{}}});
  thrust::inclusive_scan(ctx.policy(), flags, flags + n, line_numbers);
  auto const ends = thrust::reduce_by_key(ctx.policy(), line_numbers, line_numbers + n,
                                          thrust::make_transform_iterator(positions, one_position{}),
                                          thrust::make_discard_iterator(), out, thrust::equal_to<position>{},
                                          span_of_both{});
  return static_cast<std::size_t>(ends.second - out);
}
// [docs:end]

// [docs:word-scan]
/// Way 4, rowscan's for_each_line (lines.hpp): the interval scan of way 1 with two changes. A scan
/// element summarizes a 16-byte word of text, not a byte, and the interval {lines, start} has 8 bytes,
/// not 16. Each word receives the interval of all words before it (an exclusive scan) and calls the
/// sink for every line that ends in it; the last word also writes the number of lines.
struct write_line {
  range* out;
  ROWSCAN_HD void operator()(position line, position begin, position end) const { out[line] = {begin, end}; }
};

std::size_t lines_by_word_scan(char const* text, std::size_t n, position* line_count, range* out,
                               rowscan::context const& ctx) {
  rowscan::for_each_line(text, n, write_line{out}, line_count, ctx);
  position lines = 0;
  rowscan::copy_to_host(line_count, 1, &lines, ctx);
  return lines;
}
// [docs:end]

/// The reference: one walk over the text, a new line after every '\n'.
std::vector<std::pair<position, position>> sequential_lines(std::string const& text) {
  std::vector<std::pair<position, position>> lines;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == 0 || text[i - 1] == '\n') lines.push_back({static_cast<position>(i), 0});
    lines.back().second = static_cast<position>(i + 1);
  }
  return lines;
}

template <class T>
void print_row(std::ostream& out, char const* label, std::vector<T> const& values) {
  out << std::left << std::setw(26) << label << std::right;
  for (auto const& v : values) out << std::setw(4) << v;
  out << '\n';
}

/// --print for the word scan: each 16-byte word's own interval {lines, start} and the exclusive scan's.
void print_word_intervals(std::ostream& out, char const* text, std::size_t n, rowscan::context const& ctx) {
  std::size_t const words = rowscan::word_count(text, n);
  thrust::device_vector<rowscan::line_interval> own(words);
  thrust::device_vector<rowscan::line_interval> before(words);
  rowscan::scan_line_intervals(text, n, own.data().get(), before.data().get(), ctx);
  auto const row = [&](char const* label, thrust::device_vector<rowscan::line_interval> const& v) {
    thrust::host_vector<rowscan::line_interval> const h = v;
    out << std::left << std::setw(26) << label << std::right;
    for (auto const& i : h) out << " {" << i.lines << ',' << i.start << '}';
    out << '\n';
  };
  out << std::left << std::setw(26) << "  words of 16 bytes" << std::right << ' ' << words << '\n';
  row("  own {lines, start}", own);
  row("  before (exclusive scan)", before);
}

template <class T>
std::vector<T> to_host(thrust::device_vector<T> const& d, std::size_t count) {
  thrust::host_vector<T> const h(d.begin(), d.begin() + static_cast<long>(count));
  return std::vector<T>(h.begin(), h.end());
}

struct way {
  std::string name;
  std::function<std::size_t()> run;  // returns the number of lines written to the ranges buffer
};

}  // namespace

int main(int argc, char** argv) {
  return samples::run_sample("chunk_by_four_ways", [&] {
    auto const opt = samples::parse_options(argc, argv, std::size_t{1} << 22, usage);
    rowscan::context ctx;

    thrust::device_vector<char> text;
    if (!opt.text.empty()) {
      text.assign(opt.text.begin(), opt.text.end());
    } else {
      text.resize(opt.size);
      thrust::tabulate(ctx.policy(), text.begin(), text.end(), byte_at{});
    }
    std::size_t const n = text.size();
    if (n >= std::numeric_limits<position>::max()) throw rowscan::error("the text must hold less than 4 GiB");
    thrust::host_vector<char> const staged = text;
    auto const expected = sequential_lines(std::string(staged.begin(), staged.end()));

    char const* const t = text.data().get();
    thrust::device_vector<range> ranges(n);
    thrust::device_vector<position> starts(n + 1);
    thrust::device_vector<position> line_numbers(n);
    thrust::device_vector<position> line_count(1);
    range* const out = ranges.data().get();
    std::vector<way> const ways = {
        {"interval_scan", [&] { return lines_by_interval_scan(t, n, out, ctx); }},
        {"copy_if_adjacent_pairs", [&] { return lines_by_copy_if(t, n, starts.data().get(), out, ctx); }},
        {"scan_reduce_by_key", [&] { return lines_by_reduce_by_key(t, n, line_numbers.data().get(), out, ctx); }},
        {"word_scan", [&] { return lines_by_word_scan(t, n, line_count.data().get(), out, ctx); }},
    };

    std::ostringstream example;  // --print: the worked example of docs/chunk_by.md (--expect FILE checks it)
    if (opt.print) {
      std::vector<position> positions(n);
      std::vector<std::string> bytes;
      for (std::size_t i = 0; i < n; ++i) {
        positions[i] = static_cast<position>(i);
        bytes.push_back(staged[i] == '\n' ? std::string("\\n") : std::string(1, staged[i]));
      }
      auto const first = thrust::counting_iterator<position>(0);
      thrust::transform(ctx.policy(), first, first + n, line_numbers.begin(), start_flag{{t, rowscan::same_line{}}});
      print_row(example, "position", positions);
      print_row(example, "byte", bytes);
      print_row(example, "starts a line", to_host(line_numbers, n));
    }

    std::string const device = samples::device_name();
    if (opt.csv) {
      samples::print_csv_header();
    } else if (!opt.print) {
      std::cout << "chunk_by four ways: " << n << " bytes of text, " << expected.size() << " lines, on " << device
                << ", median of " << opt.repeat << " runs\n"
                << std::left << std::setw(26) << "way" << std::right << std::setw(10) << "lines" << std::setw(5)
                << "ok" << std::setw(12) << "time ms" << std::setw(10) << "GB/s" << '\n';
    }
    bool all_ok = true;
    for (auto const& w : ways) {
      thrust::fill(ctx.policy(), ranges.begin(), ranges.end(), range{0, 0});
      std::size_t const lines = w.run();  // the warm-up run gives the ranges that are checked
      std::vector<std::pair<position, position>> got;
      for (range const& r : to_host(ranges, lines)) got.push_back({r.begin, r.end});
      bool const ok = got == expected;
      all_ok = all_ok && ok;
      if (opt.print) {
        example << w.name << ":\n";
        if (w.name == "copy_if_adjacent_pairs") print_row(example, "  starts (copy_if)", to_host(starts, lines + 1));
        if (w.name == "scan_reduce_by_key") print_row(example, "  line numbers (scan)", to_host(line_numbers, n));
        if (w.name == "word_scan") print_word_intervals(example, t, n, ctx);
        example << "  ranges:";
        for (auto const& [b, e] : got) example << " [" << b << "," << e << ")";
        example << (ok ? "" : "  MISMATCH") << '\n';
        continue;
      }
      double const ms = samples::median_ms(opt.repeat, [&] { return samples::device_ms([&] { w.run(); }); });
      samples::measurement const m{w.name, n, n, ms};
      if (opt.csv) {
        samples::print_csv_row("chunk_by_four_ways", device, m);
      } else {
        std::cout << std::left << std::setw(26) << w.name << std::right << std::setw(10) << lines << std::setw(5)
                  << (ok ? "yes" : "NO") << std::fixed << std::setw(12) << std::setprecision(3) << ms
                  << std::setw(10) << std::setprecision(2) << m.gb_per_s() << '\n';
      }
    }
    std::ostream& verdict = opt.print ? example : opt.csv ? std::cerr : std::cout;
    verdict << (all_ok ? "all four ways agree" : "MISMATCH: a way differs from the walk") << " (" << expected.size()
            << " lines)\n";
    if (opt.print) samples::deliver_answer(opt, example.str());
    return all_ok ? 0 : 1;
  });
}
